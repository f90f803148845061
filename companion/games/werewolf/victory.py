"""Victory (rules sheet §6), checked after every death: the lovers as the last two alive,
the village when no werewolf is left, the werewolves by the seed's rule or at parity."""

from __future__ import annotations

from companion.games.werewolf.common import (
    Events,
    State,
    alive,
    is_cross_couple,
    journal,
    narrate,
)
from companion.games.werewolf.roles import VILLAGE, WEREWOLF, WOLVES, camp


def check_victory(s: State, ev: Events) -> bool:
    """Check after every death (sheet §6): lovers last two alive, no werewolf left, or the
    werewolves' win (the seed's "at most one non-werewolf left", or parity)."""
    living = alive(s)
    pack = [x for x in living if s["roles"][x] == WEREWOLF]
    others = [x for x in living if s["roles"][x] != WEREWOLF]
    lovers = s.get("lovers")
    cross = is_cross_couple(s)
    if not living:
        game_over(s, ev, None, "everyone_dead")
        return True
    if cross and sorted(living) == sorted(lovers):
        game_over(s, ev, "lovers", "lovers_last")
        return True
    if not pack:
        game_over(s, ev, VILLAGE, "no_werewolves")
        return True
    if (
        cross
        and s["options"]["lovers_vs_wolves"] == "play_on"
        and all(s["alive"][x] for x in lovers)
    ):
        return False
    parity = s["options"]["wolves_win"] == "parity"
    if len(pack) >= len(others) if parity else len(others) <= 1:
        game_over(s, ev, WOLVES, "parity" if parity else "seed")
        return True
    return False


def winners(s: State, winner: str | None) -> list[int]:
    lovers = s.get("lovers") or []
    cross = is_cross_couple(s)
    if winner == "lovers":
        return sorted(lovers)
    if winner in (VILLAGE, WOLVES):
        return [
            i for i, r in enumerate(s["roles"]) if camp(r) == winner and not (cross and i in lovers)
        ]
    return []


def game_over(s: State, ev: Events, winner: str | None, reason: str) -> None:
    if s["phase"] == "over":
        return
    s["phase"] = "over"
    s["step"] = None
    s["queue"] = []
    s["pending"] = []
    s["result"] = {"winner": winner, "reason": reason, "winners": winners(s, winner)}
    narrate(
        ev,
        f"victory_{winner or 'none'}",
        names=[s["players"][w] for w in s["result"]["winners"]],
        seats=s["result"]["winners"],
    )
    narrate(ev, f"reason_{reason}")
    journal(s, "game_over", winner=winner, reason=reason, seats=s["result"]["winners"])
    ev.append(
        {
            "type": "game_over",
            **s["result"],
            "roles": [{"seat": i, "role": r} for i, r in enumerate(s["roles"])],
            "spares": list(s["spares"]),
            "lovers": list(s.get("lovers") or []),
        }
    )
    if s["options"]["background_sound"]:
        ev.append({"type": "ambience", "sound": None})
