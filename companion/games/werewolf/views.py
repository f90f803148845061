"""What each viewer may see.

* ``public_view``: the table, the dead and their cards, the captain, the running step and
  its deadline, the public votes; after the game, everything.
* ``player_view(seat)``: the public view plus ``you``: the seat's own card and only what
  that card may know (werewolves their pack, lovers each other, the seer what she saw, the
  thief his spares, the witch her potions and the victim she is shown...).
* ``moderator_view``: everything (the host, behind the PIN).
* ``history_view``: secret actions are hidden from everyone but their sender until the end.

Every role a view mentions is written as ``{"seat": s, "role": r}`` so that the secrecy test
can check each pair against what the viewer may know.
"""

from __future__ import annotations

import copy
from typing import Any

from companion.games.werewolf import flow
from companion.games.werewolf.roles import CUPID, THIEF, WEREWOLF, WITCH

# Actions whose log entry would tell who holds which card: hidden until the game is over.
SECRET_ACTIONS = frozenset(
    {
        "claim",
        "assign",
        "thief",
        "cupid",
        "ack",
        "seer",
        "wolf_vote",
        "peek",
        "catch_little_girl",
        "witch",
    }
)
# The fields each action's log entry shows (a phone cannot write anything else into the log).
FIELDS: dict[str, tuple[str, ...]] = {
    "set_roles": ("roles",),
    "assign": ("seat", "role", "roles"),
    "claim": ("role",),
    "thief": ("take",),
    "cupid": ("lovers",),
    "seer": ("target",),
    "wolf_vote": ("target",),
    "witch": ("heal", "poison"),
    "captain_vote": ("target", "voter"),
    "vote": ("target", "voter"),
    "hunter_shoot": ("target",),
    "successor": ("target",),
    "timeout": ("step",),
    "skip": ("step",),
    "set_timer": ("step", "seconds"),
    "host_seat": ("seat",),
}


def _step(s: dict) -> dict[str, Any] | None:
    step = s.get("step")
    if not step:
        return None
    out = {k: step[k] for k in ("id", "name", "deadline", "started") if k in step}
    for k in ("seat", "round", "candidates"):
        if k in step:
            out[k] = step[k]
    return out


def public_view(s: dict) -> dict[str, Any]:
    over = s["phase"] == "over"
    players = []
    for i, name in enumerate(s["players"]):
        p: dict[str, Any] = {
            "seat": i,
            "name": name,
            "alive": s["alive"][i],
            "captain": s.get("captain") == i,
        }
        if over or not s["alive"][i]:
            p["role"] = s["roles"][i]
        players.append(p)
    step = s.get("step")
    public_votes = step is not None and step["name"] in ("captain", "vote")
    out: dict[str, Any] = {
        "phase": s["phase"],
        "night": s["night"],
        "day": s["day"],
        "step": _step(s),
        "players": players,
        "role_set": dict(s["role_set"]),
        "role_set_note": s.get("role_set_note"),
        "spare_count": len(s["spares"]) if s["phase"] != "setup" else None,
        "options": {k: v for k, v in s["options"].items() if k != "roles"},
        "timers": dict(s["timers"]),
        "captain": s.get("captain"),
        "host_seat": s.get("host_seat"),  # the seat the host plays in (None: runs the game)
        "deaths": [dict(d) for d in s["deaths"]],
        "votes": (
            [{"voter": int(k), "target": v} for k, v in sorted(s["votes"].items())]
            if public_votes
            else []
        ),
        "acks": list(s["acks"]) if step is not None and step["name"] == "look" else [],
        "entered": list(s["entered"]) if s["phase"] == "setup" else [],
        "lovers": list(s["lovers"])
        if (s.get("lovers") and (over or s["lovers_revealed"]))
        else None,
        "result": copy.deepcopy(s["result"]),
    }
    if over:
        out["roles"] = [{"seat": i, "role": r} for i, r in enumerate(s["roles"])]
        out["original_roles"] = [{"seat": i, "role": r} for i, r in enumerate(s["original_roles"])]
        out["spares"] = list(s["spares"])
        out["journal"] = copy.deepcopy(s["journal"])
    return out


def you(s: dict, seat: int) -> dict[str, Any]:
    role = s["roles"][seat]
    original = s["original_roles"][seat]
    me: dict[str, Any] = {"seat": seat, "role": role, "alive": s["alive"][seat]}
    if s["phase"] == "over":
        return me
    known: list[dict[str, Any]] = []
    started = s["phase"] != "setup"
    if started and role == WEREWOLF:
        known += [
            {"seat": w, "role": WEREWOLF, "how": "pack"} for w in flow.wolves(s, False) if w != seat
        ]
        known += [
            {"seat": c["seat"], "role": "little_girl", "how": "caught", "night": c["night"]}
            for c in s["caught"]
        ]
    for look in s["seer_log"]:
        if look["by"] == seat:
            known.append(
                {
                    "seat": look["seat"],
                    "role": look["role"],
                    "how": "looked",
                    "night": look["night"],
                }
            )
    for p in s["peeks"]:
        if p["by"] == seat:
            known += [
                {"seat": w, "role": WEREWOLF, "how": "peeked", "night": p["night"]}
                for w in p["wolves"]
            ]
    me["known"] = known
    if started and original == THIEF and role != original:
        me["original_role"] = {"seat": seat, "role": original}
    if started and original == THIEF:
        me["spares"] = list(s["spares"])
    lovers = s.get("lovers")
    if lovers and (seat in lovers or role == CUPID):
        me["lovers"] = list(lovers)
    if role == WITCH:
        me["potions"] = dict(s["potions"])
    step = s.get("step")
    tonight = s.get("tonight") or {}
    if s["phase"] == "night" and step:
        if role == WEREWOLF:
            me["wolf_votes"] = [
                {"seat": int(k), "target": v} for k, v in sorted(tonight["wolf_votes"].items())
            ]
            if step["name"] == "witch":
                me["victim"] = tonight["victim"]
        if role == WITCH and step["name"] == "witch" and s["alive"][seat]:
            me["victim"] = tonight["victim"]
    # The dark screen: whether this phone takes input now (only its holder sees this).
    awake = step is not None and seat in flow.step_actors(s)
    if step and step["name"] in flow.SECRET_STEPS and s["options"]["input"] == "host":
        awake = False
    me["awake"] = step["name"] if awake else None
    if (
        step
        and step["name"] == "werewolves"
        and s["options"]["input"] == "phones"
        and role == "little_girl"
        and s["alive"][seat]
        and not tonight.get("peeked")
    ):
        me["can_peek"] = True
    return me


def player_view(s: dict, seat: Any) -> dict[str, Any]:
    out = public_view(s)
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(s["players"]):
        out["you"] = you(s, seat)
    return out


def moderator_view(s: dict) -> dict[str, Any]:
    out = public_view(s)
    out["state"] = copy.deepcopy(s)
    out["awake"] = flow.step_actors(s)
    out["roles"] = [{"seat": i, "role": r} for i, r in enumerate(s["roles"])]
    out["journal"] = copy.deepcopy(s["journal"])
    return out


def history_view(s: dict, entry: dict, seat: Any) -> dict | None:
    if s["phase"] == "over" or entry.get("kind") != "action":
        return entry
    body = entry.get("body") or {}
    kind = body.get("type") if isinstance(body, dict) else None
    if not isinstance(kind, str):
        return None
    clean = {
        **entry,
        "body": {"type": kind} | {k: body[k] for k in FIELDS.get(kind, ()) if k in body},
    }
    if kind in ("timeout", "skip") and body.get("step") in {*s.get("secret_steps", ()), None}:
        # A night step ended by the clock or the host: the step its role acted in ends with
        # no entry at all (its action is secret), so this one would say that nobody did
        # (the seer's card a spare, or its holder dead). A step not named: kept too.
        return None
    if kind not in SECRET_ACTIONS:
        return clean
    # Not even the actor's own phone lists a secret night action before the end: a history
    # with an entry in it would tell anyone glancing at that phone that its owner acted.
    return None
