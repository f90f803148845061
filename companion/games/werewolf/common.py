"""Facts about a state (who is alive, who holds a card, who is awake now), the step table,
and the shared rejections. A night action refused for any reason that could tell the
sender something about the roles (not your step, not your role, dead, wrong mode) always
gets the very same ``not_now`` answer."""

from __future__ import annotations

from typing import Any

from companion.games.base import N_, Rejection, reject
from companion.games.werewolf.roles import CUPID, SEER, THIEF, WEREWOLF, WITCH, camp

State = dict[str, Any]
Events = list[dict[str, Any]]

DEFAULT_TIMERS: dict[str, int] = {
    "thief": 30,
    "cupid": 30,
    "lovers": 15,
    "seer": 30,
    "werewolves": 90,
    "witch": 30,
    "captain": 90,
    "debate": 300,
    "vote": 90,
    "hunter": 45,
    "successor": 30,
    "look": 60,
}
NIGHT_STEPS = ("thief", "cupid", "lovers", "seer", "werewolves", "witch")
FIRST_NIGHT_ONLY = ("thief", "cupid", "lovers")
# The role woken by each night step (lovers: whoever Cupid named).
STEP_ROLE = {"thief": THIEF, "cupid": CUPID, "seer": SEER, "werewolves": WEREWOLF, "witch": WITCH}
# Steps whose actions are secret: only the woken phones may act, all others see "not now".
SECRET_STEPS = frozenset(NIGHT_STEPS)


# -- small helpers ----------------------------------------------------------------------
def n_players(s: State) -> int:
    return len(s["players"])


def alive(s: State) -> list[int]:
    return [i for i, a in enumerate(s["alive"]) if a]


def holders(s: State, role: str, living: bool = True) -> list[int]:
    return [i for i, r in enumerate(s["roles"]) if r == role and (s["alive"][i] or not living)]


def wolves(s: State, living: bool = True) -> list[int]:
    return holders(s, WEREWOLF, living)


def in_play(s: State, role: str) -> bool:
    """The card is in the role set (dealt or a spare): its step is called, dead or not."""
    return s["role_set"].get(role, 0) > 0


def timer(s: State, name: str) -> float:
    return float(s["timers"].get(name, DEFAULT_TIMERS.get(name, 30)))


def narrate(ev: Events, key: str, **params: Any) -> None:
    ev.append({"type": "narrate", "key": key, "params": params})


def journal(s: State, key: str, **params: Any) -> None:
    """The full story, secrets included: shown to everyone once the game is over."""
    s["journal"].append({"when": when(s), "key": key, "params": params})


def when(s: State) -> str:
    if s["phase"] == "night":
        return f"night {s['night']}"
    if s["phase"] in ("day", "over"):
        return f"day {s['day']}"
    return s["phase"]


def lover_of(s: State, seat: int) -> int | None:
    lovers = s.get("lovers")
    if not lovers or seat not in lovers:
        return None
    return lovers[1] if lovers[0] == seat else lovers[0]


def is_cross_couple(s: State) -> bool:
    lovers = s.get("lovers")
    return bool(lovers) and camp(s["roles"][lovers[0]]) != camp(s["roles"][lovers[1]])


# -- actors of the current step ----------------------------------------------------------
def step_actors(s: State) -> list[int]:
    """The seats whose phones may act in the current step (phones mode)."""
    step = s.get("step")
    if not step or s["phase"] == "over":
        return []
    name = step["name"]
    if name in STEP_ROLE:
        return holders(s, STEP_ROLE[name])
    if name == "lovers":
        return [x for x in (s.get("lovers") or []) if s["alive"][x]]
    if name in ("captain", "vote"):
        return alive(s)
    if name in ("hunter", "successor"):
        return [step["seat"]]
    if name == "look":
        return list(range(n_players(s)))
    return []


def may_act(s: State, actor: Any, step_name: str) -> bool:
    """True if ``actor`` may act in the current step, which must be ``step_name``.

    The host may act for anyone. In ``input: host`` mode only the host enters night actions
    (a human moderator taps what the players point at).
    """
    step = s.get("step")
    if s["phase"] == "over" or not step or step["name"] != step_name:
        return False
    if actor.host:
        return True
    if step_name in SECRET_STEPS and s["options"]["input"] == "host":
        return False
    return actor.seat in step_actors(s)


NOT_NOW = Rejection("not_now", N_("That can't be done now."), {})
HOST_ONLY = Rejection("host_only", N_("Only the host can do that."), {})


def bad_seat(field: str) -> Rejection:
    return reject(
        "bad_target", N_("Choose a player who is still in the game ({field})."), field=field
    )


def seat_value(s: dict[str, Any], value: Any, *, living: bool = True) -> int | None:
    """The seat ``value`` names, or None if it is not a seat (of a living player)."""
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    if not 0 <= value < len(s["players"]):
        return None
    if living and not s["alive"][value]:
        return None
    return value


def optional_seat(s: dict[str, Any], action: dict[str, Any], field: str) -> tuple[bool, Any]:
    """(ok, seat or None) for a field that may be null (missing counts as null)."""
    value = action.get(field)
    if value is None:
        return True, None
    seat = seat_value(s, value)
    return (seat is not None), seat
