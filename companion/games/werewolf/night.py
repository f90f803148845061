"""Night actions, collected silently. Each first checks ``flow.may_act``: whoever is not
awake right now (wrong step, wrong role, dead, or ``input: host`` mode) gets the same
``not_now`` answer, so a probing phone learns nothing."""

from __future__ import annotations

import copy
from typing import Any

from companion.games.base import N_, Accepted, Context, Rejection, reject
from companion.games.werewolf import flow
from companion.games.werewolf.common import HOST_ONLY, NOT_NOW, bad_seat, optional_seat, seat_value
from companion.games.werewolf.roles import LITTLE_GIRL, SEER, THIEF, WEREWOLF, WITCH

Result = Accepted | Rejection


def _finish(s: dict, ctx: Context, ev: list) -> Accepted:
    if flow.step_done(s):  # (a steady night step waits for its time: flow.steady)
        flow.end_step(s, ctx, ev)
    return Accepted(s, ev)


def thief(s0: dict, action: dict, ctx: Context) -> Result:
    """{"take": 0 | 1 | null}: swap for a spare card, or keep the thief card."""
    if not flow.may_act(s0, ctx.actor, "thief") or s0["tonight"]["thief_done"]:
        return NOT_NOW
    seats = flow.holders(s0, THIEF)
    take = action.get("take")
    if not seats:
        return NOT_NOW
    if take is None:
        if all(r == WEREWOLF for r in s0["spares"]):
            return reject("must_take", N_("Both spare cards are werewolves: you must take one."))
    elif isinstance(take, bool) or take not in (0, 1):
        return reject("bad_choice", N_("Choose spare card 0 or 1, or keep your card."))
    s = copy.deepcopy(s0)
    ev: list[dict[str, Any]] = []
    if take is not None:
        flow.swap_thief(s, seats[0], take, ev)
    else:
        flow.journal(s, "thief_kept", seat=seats[0])
    s["tonight"]["thief_done"] = True
    return _finish(s, ctx, ev)


def cupid(s0: dict, action: dict, ctx: Context) -> Result:
    """{"lovers": [a, b]}: two different players, Cupid himself allowed."""
    if not flow.may_act(s0, ctx.actor, "cupid") or s0["tonight"]["cupid_done"]:
        return NOT_NOW
    pair = action.get("lovers")
    if not isinstance(pair, list) or len(pair) != 2:
        return reject("bad_lovers", N_("Choose two different players."))
    a, b = (seat_value(s0, x) for x in pair)
    if a is None or b is None or a == b:
        return reject("bad_lovers", N_("Choose two different players."))
    s = copy.deepcopy(s0)
    s["lovers"] = sorted([a, b])
    s["tonight"]["cupid_done"] = True
    flow.journal(s, "lovers", seats=list(s["lovers"]))
    audience = sorted(set(flow.holders(s, "cupid", living=False)) | set(s["lovers"]))
    ev: list[dict[str, Any]] = [{"type": "lovers", "to": audience, "lovers": list(s["lovers"])}]
    return _finish(s, ctx, ev)


def ack(s0: dict, action: dict, ctx: Context) -> Result:
    """ "I have seen it": the lovers recognising each other, or a player done looking at
    their card before the first night."""
    step = s0.get("step")
    name = step["name"] if step else None
    if name == "look":
        seat = ctx.actor.seat
        if ctx.actor.host and isinstance(action.get("seat"), int):
            seat = seat_value(s0, action.get("seat"), living=False)
        if seat is None or not 0 <= seat < len(s0["players"]) or seat in s0["acks"]:
            return NOT_NOW
    elif name == "lovers" and flow.may_act(s0, ctx.actor, "lovers"):
        living = [x for x in (s0["lovers"] or []) if s0["alive"][x]]
        seat = ctx.actor.seat if ctx.actor.seat in living else None
        if ctx.actor.host and seat is None:
            s = copy.deepcopy(s0)
            s["acks"] = living
            return _finish(s, ctx, [])
        if seat is None or seat in s0["acks"]:
            return NOT_NOW
    else:
        return NOT_NOW
    s = copy.deepcopy(s0)
    s["acks"].append(seat)
    ev: list[dict[str, Any]] = []
    if name == "look":
        ev.append({"type": "ack", "seat": seat})
    return _finish(s, ctx, ev)


def seer(s0: dict, action: dict, ctx: Context) -> Result:
    """{"target": seat}: the seer sees that player's card (on her phone only)."""
    if not flow.may_act(s0, ctx.actor, "seer") or s0["tonight"]["seer"] is not None:
        return NOT_NOW
    seers = flow.holders(s0, SEER)
    if not seers:
        return NOT_NOW
    target = seat_value(s0, action.get("target"))
    if target is None or target == seers[0]:
        return bad_seat("target")
    s = copy.deepcopy(s0)
    role = s["roles"][target]
    s["tonight"]["seer"] = target
    s["seer_log"].append({"night": s["night"], "by": seers[0], "seat": target, "role": role})
    flow.journal(s, "seer_saw", by=seers[0], seat=target, role=role)
    ev: list[dict[str, Any]] = [
        {"type": "seer_result", "to": [seers[0]], "seat": target, "role": role}
    ]
    return _finish(s, ctx, ev)


def wolf_vote(s0: dict, action: dict, ctx: Context) -> Result:
    """{"target": seat | null}: a werewolf's choice (null: no victim). The pack must agree;
    the host (moderator) enters the pack's choice in one go."""
    if not flow.may_act(s0, ctx.actor, "werewolves"):
        return NOT_NOW
    ok, target = optional_seat(s0, action, "target")
    if not ok:
        return bad_seat("target")
    s = copy.deepcopy(s0)
    t = s["tonight"]
    pack = flow.wolves(s)
    ev: list[dict[str, Any]] = []
    if ctx.actor.seat in pack:
        t["wolf_votes"][str(ctx.actor.seat)] = target
        ev.append(
            {
                "type": "wolf_vote",
                "to": flow.wolves(s, living=False),
                "seat": ctx.actor.seat,
                "target": target,
            }
        )
    else:  # the host, for the whole pack
        t["host_choice"] = True
        t["chosen"] = target
    return _finish(s, ctx, ev)


def peek(s0: dict, action: dict, ctx: Context) -> Result:
    """The little girl peeks while the werewolves choose: she sees who they are, and with
    the ``peek_catch_chance`` she is caught and dies instead of their victim (W3)."""
    step = s0.get("step")
    seat = ctx.actor.seat
    if (
        s0["phase"] != "night"
        or not step
        or step["name"] != "werewolves"
        or s0["options"]["input"] != "phones"
        or seat not in flow.holders(s0, LITTLE_GIRL)
        or s0["tonight"]["peeked"]
    ):
        return NOT_NOW
    s = copy.deepcopy(s0)
    t = s["tonight"]
    t["peeked"] = True
    pack = flow.wolves(s)
    caught = ctx.rng.random() < float(s["options"]["peek_catch_chance"])
    s["peeks"].append({"night": s["night"], "by": seat, "wolves": pack})
    ev: list[dict[str, Any]] = [
        {
            "type": "peek_result",
            "to": [seat],
            "wolves": [{"seat": w, "role": WEREWOLF} for w in pack],
        }
    ]
    flow.journal(s, "peeked", seat=seat, caught=caught)
    if caught:
        _catch(s, seat, ev)
    return Accepted(s, ev)


def catch_little_girl(s0: dict, action: dict, ctx: Context) -> Result:
    """The moderator saw the werewolves catch the little girl peeking (input: host)."""
    if not ctx.actor.host:
        return HOST_ONLY
    step = s0.get("step")
    if s0["phase"] != "night" or not step or step["name"] != "werewolves":
        return NOT_NOW
    girl = flow.holders(s0, LITTLE_GIRL)
    if not girl or s0["tonight"]["caught"]:
        return reject("no_little_girl", N_("No little girl can be caught now."))
    s = copy.deepcopy(s0)
    ev: list[dict[str, Any]] = []
    flow.journal(s, "caught", seat=girl[0])
    _catch(s, girl[0], ev)
    return Accepted(s, ev)


def _catch(s: dict, girl: int, ev: list) -> None:
    s["tonight"]["caught"] = True
    s["caught"].append({"night": s["night"], "seat": girl})
    audience = sorted(set(flow.wolves(s, living=False)) | {girl})
    ev.append({"type": "caught", "to": audience, "seat": girl, "role": LITTLE_GIRL})


def witch(s0: dict, action: dict, ctx: Context) -> Result:
    """{"heal": bool, "poison": seat | null}: heal the werewolves' victim, poison anyone,
    both, or neither; each potion once per game (W4)."""
    if not flow.may_act(s0, ctx.actor, "witch") or s0["tonight"]["witch_done"]:
        return NOT_NOW
    heal = action.get("heal", False)
    if not isinstance(heal, bool):
        return reject("bad_choice", N_("Heal must be true or false."))
    ok, poison = optional_seat(s0, action, "poison")
    if not ok:
        return bad_seat("poison")
    t = s0["tonight"]
    if heal and (not s0["potions"]["heal"] or t["victim"] is None):
        return reject("no_heal", N_("There is no one to heal, or the healing potion is used."))
    if poison is not None and not s0["potions"]["poison"]:
        return reject("no_poison", N_("The poison is already used."))
    s = copy.deepcopy(s0)
    t = s["tonight"]
    t["heal"], t["poison"], t["witch_done"] = heal, poison, True
    if heal:
        s["potions"]["heal"] = False
    if poison is not None:
        s["potions"]["poison"] = False
    flow.journal(s, "witch", heal=heal, victim=t["victim"], poison=poison)
    witches = flow.holders(s, WITCH, living=False)
    ev: list[dict[str, Any]] = [
        {
            "type": "witch_done",
            "to": witches,
            "heal": heal,
            "poison": poison,
            "potions": dict(s["potions"]),
        }
    ]
    return _finish(s, ctx, ev)
