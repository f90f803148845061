"""Before the first night: the role set (suggested, editable), the deal (by the companion,
by the host entering who holds what, or by each player entering their own card), a moment
to look at one's card, and the captain election if it is held before the first night."""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

from companion.games.base import N_, Accepted, Context, Rejection, reject
from companion.games.werewolf import flow
from companion.games.werewolf.common import HOST_ONLY, NOT_NOW
from companion.games.werewolf.roles import (
    ROLES,
    WEREWOLF,
    check_role_set,
    clean_role_set,
    deck,
    deck_size,
    suggested_roles,
)

ROLE_SET_REASONS = {
    "not_a_set": N_("Give the role set as role: count."),
    "unknown_role": N_("That role set names a role this game does not know."),
    "bad_count": N_("Each count must be a whole number, 0 or more."),
    "one_only": N_("The box has only one card of each special role."),
    "no_werewolf": N_("The role set needs at least one werewolf."),
    "too_many_werewolves": N_("The role set needs at least two cards that are not werewolves."),
    "wrong_total": N_(
        "The role set must have one card per player, plus two spares if the thief plays."
    ),
}


def initial_state(players: list[str], options: dict[str, Any], rng: random.Random) -> dict:
    n = len(players)
    timers = dict(flow.DEFAULT_TIMERS)
    for key, value in (options.get("timers") or {}).items():
        if key in timers and _ok_seconds(value):
            timers[key] = value
    chosen = options.get("roles")
    role_set = (
        clean_role_set(chosen)
        if chosen is not None and check_role_set(chosen, n) is None
        else suggested_roles(n)
    )
    return {
        "players": list(players),
        "options": dict(options),
        "timers": timers,
        "role_set": role_set,
        "role_set_note": None if chosen is None or role_set == chosen else "invalid_option",
        "phase": "setup",
        "night": 0,
        "day": 0,
        "step": None,
        "step_counter": 0,
        "secret_steps": [],  # the ids of the night's steps (views.history_view)
        "queue": [],
        "pending": [],
        "roles": [None] * n,
        "original_roles": [None] * n,
        "spares": [],
        "alive": [True] * n,
        "lovers": None,
        "lovers_revealed": False,
        "captain": None,
        "captain_elected": False,
        "potions": {"heal": True, "poison": True},
        "tonight": None,
        "votes": {},
        "acks": [],
        "deaths": [],
        "seer_log": [],
        "peeks": [],
        "caught": [],
        "journal": [],
        "result": None,
        "entered": [],
        "host_seat": options.get("host_seat"),  # the seat the host plays in, or None
    }


def _ok_seconds(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, (int, float)) and 5 <= value <= 3600


def set_roles(s0: dict, action: dict, ctx: Context) -> Accepted | Rejection:
    if not ctx.actor.host:
        return HOST_ONLY
    if s0["phase"] != "setup":
        return NOT_NOW
    role_set = action.get("roles")
    if role_set is None:
        role_set = suggested_roles(len(s0["players"]))
    problem = check_role_set(role_set, len(s0["players"]))
    if problem is not None:
        return reject("bad_roles", ROLE_SET_REASONS[problem])
    s = copy.deepcopy(s0)
    s["role_set"] = clean_role_set(role_set)
    s["role_set_note"] = None
    return Accepted(s, [{"type": "role_set", "role_set": s["role_set"]}])


def assign(s0: dict, action: dict, ctx: Context) -> Accepted | Rejection:
    """The host enters who holds what (physical deal): {"seat": 2, "role": "seer"} or
    {"roles": ["seer", "werewolf", ...]} (one per seat, null to clear)."""
    if not ctx.actor.host:
        return HOST_ONLY
    if s0["phase"] != "setup" or s0["options"]["deal"] == "companion":
        return NOT_NOW
    n = len(s0["players"])
    if "roles" in action:
        roles = action.get("roles")
        if not isinstance(roles, list) or len(roles) != n:
            return reject("bad_roles", N_("Give one role per seat ({n} seats)."), n=n)
        if any(r is not None and r not in ROLES for r in roles):
            return reject("bad_role", N_("There is no such role."))
        pairs = list(enumerate(roles))
    else:
        seat, role = action.get("seat"), action.get("role")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            return reject("bad_seat", N_("There is no such seat."))
        if role is not None and role not in ROLES:
            return reject("bad_role", N_("There is no such role."))
        pairs = [(seat, role)]
    s = copy.deepcopy(s0)
    events: list[dict[str, Any]] = []
    for seat, role in pairs:
        s["roles"][seat] = role
        if role is not None:
            events.append({"type": "your_role", "to": [seat], "seat": seat, "role": role})
    s["entered"] = [i for i, r in enumerate(s["roles"]) if r is not None]
    events.append({"type": "roles_entered", "seats": list(s["entered"])})
    return Accepted(s, events)


def claim(s0: dict, action: dict, ctx: Context) -> Accepted | Rejection:
    """A player enters their own card, secretly, from their phone: {"role": "witch"}. Every
    claim is accepted (a refusal could tell what others hold); the host checks the totals."""
    if (
        s0["phase"] != "setup"
        or s0["options"]["deal"] != "players"
        or ctx.actor.seat is None
        or not 0 <= ctx.actor.seat < len(s0["players"])
    ):
        return NOT_NOW
    role = action.get("role")
    if role is not None and role not in ROLES:
        return reject("bad_role", N_("There is no such role."))
    s = copy.deepcopy(s0)
    seat = ctx.actor.seat
    s["roles"][seat] = role
    s["entered"] = [i for i, r in enumerate(s["roles"]) if r is not None]
    return Accepted(
        s,
        [
            {"type": "your_role", "to": [seat], "seat": seat, "role": role},
            {"type": "roles_entered", "seats": list(s["entered"])},
        ],
    )


def start(s0: dict, action: dict, ctx: Context) -> Accepted | Rejection:
    """The host starts: the companion deals (deal: companion), or the entered cards are
    checked against the role set; the spare cards are what is left (thief)."""
    if not ctx.actor.host:
        return HOST_ONLY
    if s0["phase"] != "setup":
        return NOT_NOW
    s = copy.deepcopy(s0)
    n = len(s["players"])
    cards = deck(s["role_set"])
    if s["options"]["deal"] == "companion":
        ctx.rng.shuffle(cards)
        s["roles"], s["spares"] = cards[:n], cards[n:]
    else:
        if any(r is None for r in s["roles"]):
            missing = sum(r is None for r in s["roles"])
            return reject("roles_missing", N_("{n} players have no role yet."), n=missing)
        left = Counter(cards)
        left.subtract(Counter(s["roles"]))
        if any(c < 0 for c in left.values()):
            over = sorted(r for r, c in left.items() if c < 0)
            return reject(
                "roles_mismatch",
                N_("More cards were entered than the role set has: {roles}."),
                roles=", ".join(over),
                role_ids=over,  # (the web layer names them in the phone's language)
            )
        s["spares"] = sorted(left.elements())
        if len(s["spares"]) != deck_size(s["role_set"], n) - n:  # pragma: no cover
            return reject("roles_mismatch", N_("The entered cards do not match the role set."))
    s["original_roles"] = list(s["roles"])
    s["acks"] = []
    events: list[dict[str, Any]] = [{"type": "dealt", "spares": len(s["spares"])}]
    for seat, role in enumerate(s["roles"]):
        events.append({"type": "your_role", "to": [seat], "seat": seat, "role": role})
    pack = flow.wolves(s, living=False)
    if pack:
        events.append(
            {"type": "pack", "to": pack, "wolves": [{"seat": w, "role": WEREWOLF} for w in pack]}
        )
    flow.journal(s, "dealt", roles=list(s["roles"]), spares=list(s["spares"]))
    s["phase"] = "prelude"
    s["queue"] = ["look"]
    if s["options"]["captain"] and s["options"]["captain_election"] == "before_night1":
        s["queue"].append("captain")
    flow.next_step(s, ctx, events)
    return Accepted(s, events)


def host_seat(s0: dict, action: dict, ctx: Context) -> Accepted | Rejection:
    """{"seat": k | null}: the seat the host plays in. The table sets it when the host's
    phone first joins a seat; it changes only before the deal (after it, a seat's card is
    its phone's), and a host with no seat yet may take one at any time."""
    if not ctx.actor.host:
        return HOST_ONLY
    seat = action.get("seat")
    n = len(s0["players"])
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)
                             or not 0 <= seat < n):
        return reject("bad_seat", N_("There is no such seat."))
    if s0["phase"] != "setup" and (s0.get("host_seat") is not None or seat is None):
        return reject("host_seat_set", N_("The host's seat is kept once the cards are dealt."))
    s = copy.deepcopy(s0)
    s["host_seat"] = seat
    return Accepted(s, [{"type": "host_seat", "seat": seat}])
