"""The classifier and the comparison agree with two established open-source engines, RLCard
(rlcard.games.doudizhu: every legal play of the game and its type, card_type.json) and
DouZero (douzero.env.move_detector), on 100,000 random sets of cards and 100,000 random
pairs of plays, drawn by a seeded generator.

Test-only references: neither is imported by the game. Where they disagree with the rules
sheet (rules/doudizhu.md), the sheet decides, and each such disagreement must be one of the
documented kinds below (REASONS), named by what the sheet says:

* both engines take attachments that the sheet refuses: airplane singles that repeat or
  match a triplet (§5 row 9: "The attached cards must be different from all the triplets
  and from each other"; 3-3-3-4-4-4-5-5 and 3-3-3-4-4-4-5-5-5-9-9-9 are no combination),
  which also mixes a pair among singles (row 10: "cannot be mixed"), and four-with-two
  whose two cards are a pair (row 13: "2 single cards of different ranks");
* both play "four with two pairs", the sheet's variant that is off by default (checked
  again with the variant on, where all three agree);
* DouZero's detector alone (it is meant for the moves its own generator makes) also takes
  both jokers as attachments (rows 9, 13: "not both jokers"), reads 3-3-3-3-4 as a triplet
  with a pair and two bombs as a four-with-two-pairs.

Measured on this seed (92,419 sets a batch): about 55% no combination, every kind of the
sheet among the rest; the other readings all fall in these kinds.
"""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources

import numpy as np
import pytest

from companion.games.doudizhu.cards import BJ, RJ, N
from companion.games.doudizhu.combos import THREE, Combo, Rules, beats, classify

move_detector = pytest.importorskip("douzero.env.move_detector")
pytest.importorskip("rlcard")

SETS = 100_000
PAIRS = 100_000
RL_CHARS = "3456789TJQKA2BR"  # RLCard's ranks, in our index order
DZ_VALUES = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30)  # DouZero's
DZ_KINDS = {1: "single", 2: "pair", 3: "triplet", 4: "bomb", 5: "rocket", 6: "triplet_single",
            7: "triplet_pair", 8: "sequence", 9: "pair_sequence", 10: "airplane",
            11: "airplane_singles", 12: "airplane_pairs", 13: "quadplex", 14: "quad_pairs"}
RL_KINDS = {"solo": "single", "pair": "pair", "trio": "triplet", "trio_solo": "triplet_single",
            "trio_pair": "triplet_pair", "solo_chain": "sequence",
            "pair_chain": "pair_sequence", "trio_chain": "airplane",
            "trio_solo_chain": "airplane_singles", "trio_pair_chain": "airplane_pairs",
            "four_two_solo": "quadplex", "four_two_pair": "quad_pairs", "bomb": "bomb",
            "rocket": "rocket"}
REASONS = {"attach_repeats", "quad_pair_as_singles", "quad_two_pairs_variant",
           "both_jokers_attached", "mixed_attachments", "dz_four_plus_one", "dz_two_bombs"}


def _rl_table() -> dict[str, tuple[str, int]]:
    path = resources.files("rlcard.games.doudizhu") / "jsondata" / "card_type.json"
    table = json.loads(path.read_text())
    out = {}
    for cards, types in table.items():
        name, weight = types[0]
        out[cards] = (name, int(weight))
    return out


RL = _rl_table()


def rl_read(counts: tuple[int, ...]) -> tuple[str, int, int] | None:
    """(kind, weight, size) by RLCard, None where it knows no such play."""
    key = "".join(RL_CHARS[r] * counts[r] for r in range(N))
    found = RL.get(key)
    if found is None:
        return None
    name, weight = found
    base = name.rsplit("_", 1)[0] if name[-1].isdigit() else name
    return RL_KINDS[base], weight, sum(counts)


def dz_read(counts: tuple[int, ...]) -> tuple[str, int, int] | None:
    move = [DZ_VALUES[r] for r in range(N) for _ in range(counts[r])]
    got = move_detector.get_move_type(move)
    kind = DZ_KINDS.get(got["type"])
    if kind is None:
        return None
    return kind, got.get("rank", 0), sum(counts)


def ours(counts: tuple[int, ...], rules: Rules = THREE) -> tuple[str, int, int] | None:
    c = classify(counts, rules)
    return None if isinstance(c, str) else (c.kind, c.key, c.size)


def reason(counts: tuple[int, ...], other: tuple[str, int, int] | None) -> str | None:
    """Which documented sheet rule explains an engine reading ``other`` where we read
    nothing (or something else); None: unexplained."""
    by = Counter(c for c in counts if c)
    jokers = counts[BJ] and counts[RJ]
    kind = other[0] if other else None
    if kind == "quad_pairs":
        if by[4] == 2:
            return "dz_two_bombs"
        return "quad_two_pairs_variant" if ours(counts, Rules(quad_pairs=True)) else None
    if kind == "quadplex":
        if jokers:
            return "both_jokers_attached"
        return "quad_pair_as_singles" if by[2] == 1 else None
    if kind == "triplet_pair" and by[4] == 1:
        return "dz_four_plus_one"
    if kind == "airplane_singles":
        if by[2] and by[1]:
            return "mixed_attachments"
        if by[2] or by[4] or by[3] > other[2] // 4:
            return "attach_repeats"
        if jokers:
            return "both_jokers_attached"
    return None


def random_sets(rng: np.random.Generator, n: int) -> list[tuple[int, ...]]:
    """Half random hands from the pack (mostly no combination: the refusals count too),
    half built to the shape of a combination with random ranks (so near-misses: a 2 in a
    sequence, a repeated kicker, both jokers attached)."""
    pack = np.array([4] * 13 + [1, 1])
    out = []
    sizes = rng.integers(1, 21, n)
    shapes = rng.integers(0, 12, n)
    for i in range(n):
        if i % 2 == 0:
            size = int(min(sizes[i], rng.integers(1, 9)))
            cards = rng.choice(54, size, replace=False)
            counts = np.zeros(N, int)
            for c in cards:
                counts[min(c // 4, 13) if c < 52 else 13 + (c - 52)] += 1
        else:
            counts = _shape(rng, int(shapes[i]))
        if (counts <= pack).all() and counts.sum() <= 20:
            out.append(tuple(int(x) for x in counts))
    return out


def _shape(rng: np.random.Generator, shape: int) -> np.ndarray:
    counts = np.zeros(N, int)
    if shape in (0, 1, 2):  # runs of 1, 2 or 3 of a rank, sometimes with a 2
        width = (1, 2, 3)[shape]
        length = int(rng.integers((5, 3, 2)[shape] - 1, (13, 11, 7)[shape]))
        start = int(rng.integers(0, max(1, 14 - length)))
        counts[start:start + length] = width
    elif shape in (3, 4, 5):  # airplanes with attachments (random: may repeat, or mix)
        length = int(rng.integers(2, 5))
        start = int(rng.integers(0, 12 - length))
        counts[start:start + length] = 3
        for _ in range(length):
            counts[int(rng.integers(0, N))] += 1 if shape != 4 else 2
        if shape == 5:
            counts[int(rng.integers(0, N))] += 2
    elif shape in (6, 7):  # four with two / with two pairs
        counts[int(rng.integers(0, 13))] = 4
        for _ in range(2):
            counts[int(rng.integers(0, N))] += 1 if shape == 6 else 2
    elif shape in (8, 9):  # triplet with one or a pair
        counts[int(rng.integers(0, 13))] = 3
        counts[int(rng.integers(0, N))] += 1 if shape == 8 else 2
    elif shape == 10:  # singles, pairs, bombs, jokers
        r = int(rng.integers(0, N))
        counts[r] = int(rng.integers(1, 5)) if r < 13 else 1
        if rng.random() < 0.2:
            counts[BJ] = counts[RJ] = 1
    else:  # both jokers and something
        counts[BJ] = counts[RJ] = 1
        counts[int(rng.integers(0, 13))] += int(rng.integers(0, 5))
    return counts


def test_classifier_agrees_with_rlcard_and_douzero_on_100000_sets():
    rng = np.random.default_rng(20261128)
    sets: list[tuple[int, ...]] = []
    while len(sets) < SETS:
        sets += random_sets(rng, SETS)
    sets = sets[:SETS]
    agree = valid = 0
    seen: Counter[str] = Counter()
    for counts in sets:
        mine, rl, dz = ours(counts), rl_read(counts), dz_read(counts)
        valid += mine is not None
        same_rl = (mine is None and rl is None) or (
            mine is not None and rl is not None and mine[0] == rl[0])
        same_dz = (mine is None and dz is None) or (
            mine is not None and dz is not None and mine[0] == dz[0])
        if same_rl and same_dz:
            agree += 1
            continue
        for engine, other, same in (("rlcard", rl, same_rl), ("douzero", dz, same_dz)):
            if same:
                continue
            why = reason(counts, other)
            assert mine is None and why in REASONS, (
                f"{engine} reads {counts} as {other}, we as {mine}: not a documented "
                "difference with the sheet")
            seen[why] += 1
    # a real test of both sides: thousands of combinations and of refusals
    assert valid > SETS // 3 and SETS - valid > SETS // 5
    assert agree > 0.9 * SETS
    assert {"attach_repeats", "quad_pair_as_singles", "quad_two_pairs_variant"} <= set(seen)


def _rl_beats(new: tuple[str, int, int], old: tuple[str, int, int]) -> bool:
    """RLCard's rule (utils.get_gt_cards): the same type (hence length) and a greater
    weight; any rocket; any bomb on a non-bomb; nothing on the rocket."""
    if old[0] == "rocket":
        return False
    if new[0] == "rocket":
        return True
    if new[0] == "bomb" and old[0] != "bomb":
        return True
    return new[0] == old[0] and new[2] == old[2] and new[1] > old[1]


def _dz_beats(new: tuple[str, int, int], old: tuple[str, int, int]) -> bool:
    """DouZero's rule (env.game: the rival's type and length, move_selector's greater
    rank; bombs and the king bomb added to any other type's answers)."""
    return _rl_beats(new, old)


def test_comparison_agrees_with_rlcard_and_douzero_on_100000_pairs():
    rng = np.random.default_rng(7)
    plays: list[tuple[tuple[int, ...], Combo]] = []
    while len(plays) < 4000:
        for counts in random_sets(rng, 4000):
            c = classify(counts)
            if not isinstance(c, str) and rl_read(counts) and dz_read(counts):
                plays.append((counts, c))
    # pairs of the same kind and size most of the time (the interesting comparisons)
    by_kind: dict[tuple[str, int], list[int]] = {}
    for i, (_, c) in enumerate(plays):
        by_kind.setdefault((c.kind, c.size), []).append(i)
    firsts = rng.integers(0, len(plays), PAIRS)
    others = rng.integers(0, len(plays), PAIRS)
    picks = rng.random(PAIRS)
    checked = yes = 0
    for a, b, p in zip(firsts, others, picks, strict=True):
        new_counts, new = plays[a]
        if p < 0.7:
            group = by_kind[(new.kind, new.size)]
            b = group[int(b) % len(group)]
        old_counts, old = plays[b]
        mine = beats(new, old) is None
        rl = _rl_beats(rl_read(new_counts), rl_read(old_counts))  # type: ignore[arg-type]
        dz = _dz_beats(dz_read(new_counts), dz_read(old_counts))  # type: ignore[arg-type]
        assert mine == rl == dz, (new_counts, old_counts, mine, rl, dz)
        checked += 1
        yes += mine
    assert checked == PAIRS and PAIRS // 10 < yes < PAIRS * 9 // 10


def test_hint_lists_what_rlcard_lists_for_random_hands():
    """Every play of a random 17- or 20-card hand: the same sets of cards as RLCard's table
    of legal plays held in that hand, less the plays the sheet refuses."""
    rng = np.random.default_rng(3)
    from companion.games.doudizhu.combos import plays

    for _ in range(30):
        size = int(rng.choice([17, 20]))
        deck = rng.permutation(54)[:size]
        hand = [0] * N
        for c in deck:
            hand[min(c // 4, 13) if c < 52 else 13 + (c - 52)] += 1
        mine = {v for _, v in plays(hand)}
        theirs = set()
        for key in RL:
            counts = [0] * N
            for ch in key:
                counts[RL_CHARS.index(ch)] += 1
            if all(counts[r] <= hand[r] for r in range(N)):
                t = tuple(counts)
                if ours(t) is not None:
                    theirs.add(t)
                else:
                    assert reason(t, rl_read(t)) in REASONS
        assert mine == theirs
