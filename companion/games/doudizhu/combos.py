"""The thirteen combinations of rules/doudizhu.md §5, their comparison (§4 P2-P3) and every
legal play of a hand (the hint).

Works on count vectors (15 counts, index 0 = the 3s ... 14 = the red joker, see
:mod:`cards`). ``classify`` says what a set of cards is, or why it is no combination, in
words a table can settle an argument with; ``beats`` says whether one play may follow
another; ``plays`` lists every combination a hand can make, the phone's hint.

The sheet's restrictions make a set's reading unique: attached cards differ from the
triplets (or the quad) and from each other (§5 rows 9, 10, 13; D3, D7), so the ranks seen
three times are the triplets and the rest are attachments; nothing needs a search.

Four players (§8, two packs): the rocket is all four jokers; a bomb is four or more of one
rank when ``big_bombs`` (the sheet's [DEFAULT]: more cards beat fewer, then the higher
rank), else exactly four; two of the same joker are a pair; everything else as with three.
"""

from __future__ import annotations

from itertools import combinations
from typing import NamedTuple

from companion.games.base import N_
from companion.games.doudizhu.cards import ACE, BJ, RJ, TWO, N

# kind -> the sheet's row in §5 (quad_pairs is the "four with two pairs" variant)
KINDS: dict[str, int] = {
    "single": 1, "pair": 2, "triplet": 3, "triplet_single": 4, "triplet_pair": 5,
    "sequence": 6, "pair_sequence": 7, "airplane": 8, "airplane_singles": 9,
    "airplane_pairs": 10, "bomb": 11, "rocket": 12, "quadplex": 13, "quad_pairs": 0,
}
# the kinds' names as the phones show them (translated where they are shown)
KIND_NAMES: dict[str, str] = {
    "single": N_("single"), "pair": N_("pair"), "triplet": N_("triplet"),
    "triplet_single": N_("triplet with a single"), "triplet_pair": N_("triplet with a pair"),
    "sequence": N_("sequence"), "pair_sequence": N_("sequence of pairs"),
    "airplane": N_("sequence of triplets"),
    "airplane_singles": N_("sequence of triplets with singles"),
    "airplane_pairs": N_("sequence of triplets with pairs"), "bomb": N_("bomb"),
    "rocket": N_("rocket"), "quadplex": N_("four with two singles"),
    "quad_pairs": N_("four with two pairs"),
}


class Combo(NamedTuple):
    kind: str
    key: int  # the deciding rank: the triplet's, the quad's, a sequence's top
    length: int  # the units of a sequence or airplane (1 otherwise)
    size: int  # cards


class Rules(NamedTuple):
    """The table's choices that change what a combination is."""

    four: bool = False  # the 4-player, two-pack variant (§8)
    big_bombs: bool = True  # 4 players: 5..8 of a rank are bombs too (§8 [DEFAULT])
    quad_pairs: bool = False  # the "four with two pairs" variant (§5, default off)


THREE = Rules()


def rules_of(state: dict) -> Rules:
    """The rules a table's options and number of players make."""
    o = state["options"]
    return Rules(four=len(state["players"]) == 4, big_bombs=bool(o["big_bombs"]),
                 quad_pairs=bool(o["quad_two_pairs"]))

# why a set is no combination: (code, message); the codes are the API's
WHY: dict[str, str] = {
    "empty": N_("Play at least one card."),
    "seq_short": N_("A sequence needs at least five cards."),
    "pair_seq_short": N_("A sequence of pairs needs at least three pairs."),
    "seq_twos": N_("Sequences cannot contain 2s or jokers."),
    "seq_gap": N_("A sequence's ranks must follow one another, without gaps or repeats."),
    "attach_same": N_("Attached cards must differ from the triplets and from each other."),
    "attach_mixed": N_("Attached singles and pairs cannot be mixed."),
    "attach_jokers": N_("Both jokers cannot be attached: together they are the rocket."),
    "attach_count": N_("A sequence of triplets takes one single or one pair per triplet."),
    "quad_attach": N_("Four of a kind takes two single cards of different ranks, and not "
                      "both jokers."),
    "jokers": N_("The two jokers together are the rocket, not a pair."),
    "not_combo": N_("These cards are no combination."),
}


def _consecutive(ranks: list[int]) -> bool:
    return ranks[-1] - ranks[0] == len(ranks) - 1


def classify(counts: list[int] | tuple[int, ...], rules: Rules = THREE
             ) -> Combo | str:
    """The combination a set of cards makes, or the code (``WHY``) of why it makes none.

    ``counts`` must be a possible set for the pack (at most 4 of a rank, one of each joker
    with one pack); the game checks that before."""
    ones: list[int] = []
    twos: list[int] = []
    threes: list[int] = []
    fours: list[int] = []
    more: list[int] = []
    size = 0
    for r in range(N):
        c = counts[r]
        if c:
            size += c
            if c == 1:
                ones.append(r)
            elif c == 2:
                twos.append(r)
            elif c == 3:
                threes.append(r)
            elif c == 4:
                fours.append(r)
            else:
                more.append(r)
    if size == 0:
        return "empty"
    distinct = len(ones) + len(twos) + len(threes) + len(fours) + len(more)
    jokers = counts[BJ] + counts[RJ]
    # the rocket: both jokers (three players), all four (four players)
    if jokers == size and counts[BJ] == counts[RJ] == (2 if rules.four else 1):
        return Combo("rocket", RJ, 1, size)
    if distinct == 1:
        r = (ones or twos or threes or fours or more)[0]
        c = counts[r]
        if c == 1:
            return Combo("single", r, 1, 1)
        if c == 2:
            return Combo("pair", r, 1, 2)
        if c == 3:
            return Combo("triplet", r, 1, 3)
        if c == 4 or rules.big_bombs:
            return Combo("bomb", r, 1, c)
        return "not_combo"
    if more:
        return "not_combo"
    if len(ones) == distinct:  # all different: a sequence (or two jokers, or nothing)
        if len(ones) == 2 and jokers == 2:
            return "not_combo" if rules.four else "jokers"
        if ones[-1] >= TWO:
            return "seq_twos" if size >= 3 or _consecutive(ones) else "not_combo"
        if not _consecutive(ones):
            return "seq_gap" if size >= 3 else "not_combo"
        return Combo("sequence", ones[-1], size, size) if size >= 5 else "seq_short"
    if len(twos) == distinct:
        if twos[-1] >= TWO:
            return "seq_twos" if len(twos) >= 3 else "not_combo"
        if not _consecutive(twos):
            return "seq_gap" if len(twos) >= 3 else "not_combo"
        if len(twos) >= 3:
            return Combo("pair_sequence", twos[-1], len(twos), size)
        return "pair_seq_short"
    if fours:
        if len(fours) == 1 and not threes:
            if len(ones) == 2 and not twos:
                if counts[BJ] and counts[RJ]:
                    return "quad_attach"
                return Combo("quadplex", fours[0], 1, size)
            if len(twos) == 2 and not ones and rules.quad_pairs:
                return Combo("quad_pairs", fours[0], 1, size)
            return "quad_attach"
        return "attach_same" if threes else "not_combo"
    if not threes:
        return "not_combo"
    k = len(threes)
    if k == 1:
        if size == 4:
            return Combo("triplet_single", threes[0], 1, 4)
        if size == 5 and len(twos) == 1:
            return Combo("triplet_pair", threes[0], 1, 5)
        return "not_combo"
    # two or more triplets: an airplane, bare or with one attachment per triplet
    if threes[-1] >= TWO:
        return "seq_twos"
    if not _consecutive(threes):
        return "seq_gap"
    if not ones and not twos:
        return Combo("airplane", threes[-1], k, size)
    if ones and twos:
        return "attach_mixed"
    if ones:
        if len(ones) != k:
            return "attach_count"
        if counts[BJ] and counts[RJ]:
            return "attach_jokers"
        return Combo("airplane_singles", threes[-1], k, size)
    if len(twos) != k:
        return "attach_same" if 2 * len(twos) == k else "attach_count"
    return Combo("airplane_pairs", threes[-1], k, size)


# why a valid play may not follow the last one
BEAT_WHY: dict[str, str] = {
    "rocket_top": N_("Nothing beats the rocket."),
    "bomb_lower": N_("{cards} cannot beat {last}: only a higher bomb or the rocket beats a "
                     "bomb."),
    "other_kind": N_("{cards} ({kind}) cannot beat {last} ({last_kind}): play the same kind "
                     "with the same number of cards, or a bomb."),
    "not_higher": N_("{cards} cannot beat {last}: the {kind} must rank higher."),
}


def beats(new: Combo, old: Combo, rules: Rules = THREE) -> str | None:
    """None if ``new`` may be played on ``old`` (§4 P2-P3, §5), else the code (``BEAT_WHY``).

    Same kind and number of cards, ranked by the deciding rank; a bomb beats every other
    kind (the four-with-two too, §5 row 13) and a lower bomb; the rocket beats everything."""
    if old.kind == "rocket":
        return "rocket_top"
    if new.kind == "rocket":
        return None
    if new.kind == "bomb":
        if old.kind != "bomb":
            return None
        return None if (new.size, new.key) > (old.size, old.key) else "bomb_lower"
    if old.kind == "bomb":
        return "bomb_lower"
    if new.kind != old.kind or new.size != old.size:
        return "other_kind"
    return None if new.key > old.key else "not_higher"


# -- every play of a hand (the hint) ---------------------------------------------------------

Play = tuple[Combo, tuple[int, ...]]


def _vec(parts: dict[int, int]) -> tuple[int, ...]:
    v = [0] * N
    for r, c in parts.items():
        v[r] += c
    return tuple(v)


def _runs(have: list[int], need: int, least: int) -> list[tuple[int, int]]:
    """(top, length) of every run of consecutive ranks 3..A each held ``need`` times or more,
    at least ``least`` long."""
    out = []
    for start in range(ACE + 1):
        top = start
        while top <= ACE and have[top] >= need:
            if top - start + 1 >= least:
                out.append((top, top - start + 1))
            top += 1
    return out


def plays(hand: list[int] | tuple[int, ...], rules: Rules = THREE,
          last: Combo | None = None) -> list[Play]:
    """Every combination the hand (a count vector) can make, once per set of ranks; with
    ``last``, only those that beat it. Kinds that cannot beat ``last`` are not built at all
    (the hint of a 20-card hand within the benchmark's 5 ms)."""
    h = list(hand)
    out: list[Play] = []
    held = [r for r in range(N) if h[r]]
    total = sum(h)

    def want(kind: str) -> bool:
        return last is None or kind in ("bomb", "rocket") or kind == last.kind

    def add(combo: Combo, parts: dict[int, int]) -> None:
        if last is None or beats(combo, last, rules) is None:
            out.append((combo, _vec(parts)))

    if want("single"):
        for r in held:
            add(Combo("single", r, 1, 1), {r: 1})
    if want("pair"):
        for r in held:
            if h[r] >= 2:
                add(Combo("pair", r, 1, 2), {r: 2})
    if want("triplet"):
        for r in held:
            if h[r] >= 3:
                add(Combo("triplet", r, 1, 3), {r: 3})
    if want("bomb"):
        for r in held:
            top = h[r] if rules.four and rules.big_bombs else min(h[r], 4)
            for c in range(4, top + 1):
                add(Combo("bomb", r, 1, c), {r: c})
    if want("rocket"):
        j = 2 if rules.four else 1
        if h[BJ] >= j and h[RJ] >= j:
            add(Combo("rocket", RJ, 1, 2 * j), {BJ: j, RJ: j})
    if want("triplet_single") or want("triplet_pair"):
        for t in held:
            if h[t] < 3:
                continue
            for a in held:
                if a == t:
                    continue
                if want("triplet_single"):
                    add(Combo("triplet_single", t, 1, 4), {t: 3, a: 1})
                if want("triplet_pair") and h[a] >= 2:
                    add(Combo("triplet_pair", t, 1, 5), {t: 3, a: 2})
    if want("sequence"):
        for top, n in _runs(h, 1, 5):
            add(Combo("sequence", top, n, n), {r: 1 for r in range(top - n + 1, top + 1)})
    if want("pair_sequence"):
        for top, n in _runs(h, 2, 3):
            add(Combo("pair_sequence", top, n, 2 * n),
                {r: 2 for r in range(top - n + 1, top + 1)})
    if want("airplane") or want("airplane_singles") or want("airplane_pairs"):
        for top, n in _runs(h, 3, 2):
            if 3 * n > total:
                continue
            run = range(top - n + 1, top + 1)
            body = {r: 3 for r in run}
            if want("airplane"):
                add(Combo("airplane", top, n, 3 * n), body)
            if last is not None and (last.length != n or last.key >= top) and \
                    last.kind not in ("bomb", "rocket"):
                continue  # (an airplane of another length or not higher beats nothing)
            others = [r for r in held if not top - n < r <= top]
            if want("airplane_singles") and 4 * n <= total:
                for pick in combinations(others, n):
                    if BJ in pick and RJ in pick:
                        continue
                    add(Combo("airplane_singles", top, n, 4 * n),
                        body | {r: 1 for r in pick})
            if want("airplane_pairs") and 5 * n <= total:
                doubles = [r for r in others if h[r] >= 2]
                for pick in combinations(doubles, n):
                    add(Combo("airplane_pairs", top, n, 5 * n), body | {r: 2 for r in pick})
    if want("quadplex") or (rules.quad_pairs and want("quad_pairs")):
        for q in held:
            if h[q] < 4:
                continue
            others = [r for r in held if r != q]
            if want("quadplex"):
                for a, b in combinations(others, 2):
                    if a == BJ and b == RJ:
                        continue
                    add(Combo("quadplex", q, 1, 6), {q: 4, a: 1, b: 1})
            if rules.quad_pairs and want("quad_pairs"):
                for a, b in combinations([r for r in others if h[r] >= 2], 2):
                    add(Combo("quad_pairs", q, 1, 8), {q: 4, a: 2, b: 2})
    return out
