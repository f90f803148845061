"""Dou Di Zhu's cards (rules/doudizhu.md §1): ranks only, suits ignored, jokers told apart.

A play is a multiset of ranks. Inside the engine a rank is an index 0..14 (3 lowest, red
joker highest) and a play is a tuple of 15 counts, so that classifying and comparing are
array look-ups (benchmarks/bench_doudizhu.py). Names on the wire are the shared spelling of
shared/cards.md (``9H``, ``10S``, ``BJ``, ``RJ``) or the bare rank (``9``, ``10``, ``A``):
the camera reads whole card names, a phone that taps ranks sends ranks, and both mean the same.
"""

from __future__ import annotations

from typing import Any

from companion.cards import FRENCH_SUITS, parse_french

# index -> the rank's name, low to high (§1: 3 < ... < A < 2 < black joker < red joker)
RANKS: tuple[str, ...] = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2",
                          "BJ", "RJ")
INDEX: dict[str, int] = {r: i for i, r in enumerate(RANKS)}
ACE, TWO, BJ, RJ = 11, 12, 13, 14
N = len(RANKS)
MAX_PLAY = 40  # the longest list of cards a phone may send (a 4-player landlord holds 33)


def packs_for(players: int) -> int:
    """How many 54-card packs are played: one for 3 players, two for the 4-player variant
    (§8)."""
    return 2 if players == 4 else 1


def pack_counts(players: int) -> tuple[int, ...]:
    """How many cards of each rank the pack holds: 4 of each rank and one joker of each
    colour per pack (``packs_for``)."""
    packs = packs_for(players)
    return tuple([4 * packs] * 13 + [packs, packs])


def deal_sizes(players: int) -> tuple[int, int]:
    """(cards per player, kitty): 17 and 3 with 3 players (§2), 25 and 8 with 4 (§8)."""
    return (25, 8) if players == 4 else (17, 3)


def full_pack(players: int) -> list[str]:
    """Every card of the pack by its shared name (two of each card with 4 players)."""
    one = [r + s for s in FRENCH_SUITS for r in RANKS[:13]] + ["BJ", "RJ"]
    return one * packs_for(players)


def rank_of(token: Any) -> int | None:
    """The rank index of a card name or a bare rank ("9H", "9", "10d", "t", "bj"), None for
    anything else (any JSON a phone may send)."""
    if not isinstance(token, str) or not 0 < len(token) <= 12:
        return None
    t = token.strip().upper()
    if t == "T":
        t = "10"
    if t in INDEX:
        return INDEX[t]
    try:
        rank, _suit = parse_french(t)
    except ValueError:
        return None
    return INDEX.get(rank)


def counts_of(ranks: list[int] | tuple[int, ...]) -> list[int]:
    counts = [0] * N
    for r in ranks:
        counts[r] += 1
    return counts


def ranks_of(counts: list[int] | tuple[int, ...]) -> list[int]:
    """The ranks of a count vector, low to high (each rank as often as it is counted)."""
    return [r for r in range(N) for _ in range(counts[r])]


def names(counts: list[int] | tuple[int, ...]) -> list[str]:
    """A play's ranks as people write it: the most repeated ranks first (the triplets, the
    quad), then low to high: 9-9-9-3, 7-7-7-8-8-8-3-6, 6-6-6-6-8-9, 3-4-5-6-7."""
    order = sorted((r for r in range(N) if counts[r]), key=lambda r: (-counts[r], r))
    return [RANKS[r] for r in order for _ in range(counts[r])]


def shown(counts: list[int] | tuple[int, ...]) -> str:
    """A play as people write it: "3-3-3-9", jokers as BJ / RJ."""
    return "-".join(names(counts))
