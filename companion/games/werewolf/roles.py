"""The cards of the base game, their camps, and the suggested role set for a player count.

Rules sheet §1-§2: 4 werewolves, 13 simple villagers and one each of the seer, thief, Cupid,
hunter, witch and little girl; the captain is an extra card given on top of a role (it is a
flag in the state, not a role here).
"""

from __future__ import annotations

from typing import Any

VILLAGER = "villager"
WEREWOLF = "werewolf"
SEER = "seer"
HUNTER = "hunter"
CUPID = "cupid"
WITCH = "witch"
THIEF = "thief"
LITTLE_GIRL = "little_girl"

ROLES: tuple[str, ...] = (VILLAGER, WEREWOLF, SEER, HUNTER, CUPID, WITCH, THIEF, LITTLE_GIRL)
SINGLE_ROLES = frozenset({SEER, HUNTER, CUPID, WITCH, THIEF, LITTLE_GIRL})
# The specials added, in this order, once the seed's minimum (2 werewolves, 1 seer,
# 5 villagers) is covered: one more player, one more special.
SUGGESTED_ORDER: tuple[str, ...] = (WITCH, HUNTER, CUPID, LITTLE_GIRL, THIEF)
THIEF_SPARES = 2
MIN_VILLAGERS = 5

VILLAGE = "village"
WOLVES = "wolves"


def camp(role: str | None) -> str:
    return WOLVES if role == WEREWOLF else VILLAGE


def werewolves_for(players: int) -> int:
    """The werewolf table of the rules sheet (§1, WW1): 8-11 -> 2, 12-17 -> 3, 18 -> 4."""
    if players >= 18:
        return 4
    if players >= 12:
        return 3
    return 2


def suggested_roles(players: int) -> dict[str, int]:
    """A role set for ``players``: the table's werewolves, one seer, and specials while at
    least five simple villagers remain. The thief brings two extra villager cards."""
    wolves = werewolves_for(players)
    room = max(0, players - wolves - 1 - MIN_VILLAGERS)
    specials = list(SUGGESTED_ORDER[:room])
    out = {WEREWOLF: wolves, SEER: 1}
    for role in specials:
        out[role] = 1
    dealt_specials = len([r for r in specials if r != THIEF])
    extra = THIEF_SPARES if THIEF in specials else 0
    out[VILLAGER] = players + extra - wolves - 1 - dealt_specials - (1 if THIEF in specials else 0)
    return {r: out[r] for r in ROLES if out.get(r)}


def deck_size(role_set: dict[str, int], players: int) -> int:
    return players + (THIEF_SPARES if role_set.get(THIEF) else 0)


def check_role_set(role_set: Any, players: int) -> str | None:
    """None if ``role_set`` ({role: count}) can be dealt to ``players``, else a reason code."""
    if not isinstance(role_set, dict) or not role_set:
        return "not_a_set"
    for role, count in role_set.items():
        if role not in ROLES:
            return "unknown_role"
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            return "bad_count"
        if role in SINGLE_ROLES and count > 1:
            return "one_only"
    wolves = role_set.get(WEREWOLF, 0)
    total = sum(role_set.values())
    if wolves < 1:
        return "no_werewolf"
    if total - wolves < 2:
        return "too_many_werewolves"
    if total != deck_size(role_set, players):
        return "wrong_total"
    return None


def clean_role_set(role_set: dict[str, int]) -> dict[str, int]:
    return {r: role_set[r] for r in ROLES if role_set.get(r)}


def deck(role_set: dict[str, int]) -> list[str]:
    return [r for r in ROLES for _ in range(role_set.get(r, 0))]
