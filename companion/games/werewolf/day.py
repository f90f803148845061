"""Day actions (public: the village sees them) and the timers: the captain election, the
vote, the hunter's shot, the captain's successor, and the host's controls."""

from __future__ import annotations

import copy
from typing import Any

from companion.games.base import N_, Accepted, Context, Rejection, reject
from companion.games.werewolf import flow
from companion.games.werewolf.common import HOST_ONLY, NOT_NOW, bad_seat, optional_seat, seat_value

Result = Accepted | Rejection


def _voter(s0: dict, action: dict, ctx: Context) -> int | None:
    if ctx.actor.host and "voter" in action:
        return seat_value(s0, action.get("voter"))
    return ctx.actor.seat if seat_value(s0, ctx.actor.seat) is not None else None


def _cast(s0: dict, action: dict, ctx: Context, step_name: str) -> Result:
    step = s0.get("step")
    if s0["phase"] == "over" or not step or step["name"] != step_name:
        return NOT_NOW
    voter = _voter(s0, action, ctx)
    if voter is None:
        return reject("cannot_vote", N_("Only a living player can vote."))
    ok, target = optional_seat(s0, action, "target")
    if not ok:
        return bad_seat("target")
    if target is None and step_name == "captain":
        return reject("bad_target", N_("Vote for a player."))
    cands = step.get("candidates")
    if target is not None and cands and target not in cands:
        return reject("not_a_candidate", N_("This vote is only between the tied players."))
    s = copy.deepcopy(s0)
    s["votes"][str(voter)] = target
    ev: list[dict[str, Any]] = [
        {"type": "vote_cast", "step": step_name, "voter": voter, "target": target}
    ]
    if flow.step_complete(s):
        flow.end_step(s, ctx, ev)
    return Accepted(s, ev)


def captain_vote(s0: dict, action: dict, ctx: Context) -> Result:
    """{"target": seat}: elect the captain (majority; a tie is drawn by lot)."""
    return _cast(s0, action, ctx, "captain")


def vote(s0: dict, action: dict, ctx: Context) -> Result:
    """{"target": seat | null}: the day vote (null: abstain). The host may enter a vote for
    anyone with "voter"."""
    return _cast(s0, action, ctx, "vote")


def hunter_shoot(s0: dict, action: dict, ctx: Context) -> Result:
    """{"target": seat | null}: the dead hunter's last shot (W6)."""
    step = s0.get("step")
    if s0["phase"] == "over" or not step or step["name"] != "hunter":
        return NOT_NOW
    if not ctx.actor.can_act_for(step["seat"]):
        return reject("not_your_seat", N_("Only the hunter can shoot."))
    ok, target = optional_seat(s0, action, "target")
    if not ok:
        return bad_seat("target")
    s = copy.deepcopy(s0)
    s["step"]["done"] = True
    ev: list[dict[str, Any]] = []
    hunter = step["seat"]
    if target is None:
        flow.narrate(ev, "hunter_holds_fire", name=s["players"][hunter], seat=hunter)
        flow.journal(s, "hunter_no_shot", seat=hunter)
    else:
        ev.append({"type": "shot", "seat": hunter, "target": target})
        flow.narrate(ev, "hunter_shoots", name=s["players"][hunter], target=s["players"][target])
        flow.journal(s, "hunter_shot", seat=hunter, target=target)
        flow.kill(s, ev, target, "shot")
        if s["phase"] == "over":
            return Accepted(s, ev)
    flow.end_step(s, ctx, ev)
    return Accepted(s, ev)


def successor(s0: dict, action: dict, ctx: Context) -> Result:
    """{"target": seat}: the dying captain names the next captain (W12)."""
    step = s0.get("step")
    if s0["phase"] == "over" or not step or step["name"] != "successor":
        return NOT_NOW
    if not ctx.actor.can_act_for(step["seat"]):
        return reject("not_your_seat", N_("Only the dying captain names the successor."))
    target = seat_value(s0, action.get("target"))
    if target is None:
        return bad_seat("target")
    s = copy.deepcopy(s0)
    s["step"]["done"] = True
    ev: list[dict[str, Any]] = []
    flow.set_captain(s, ev, target, "named")
    flow.end_step(s, ctx, ev)
    return Accepted(s, ev)


def timeout(s0: dict, action: dict, ctx: Context) -> Result:
    """{"type": "timeout", "step": id}: the step's deadline has passed (the driver sends it):
    its default is applied and logged. Refused before the deadline, but from the driver
    (``source`` "timer"), which times the step on the monotonic clock: a wall clock set back
    mid-step (-2 h) had its timeout refused, the step stalled for two hours."""
    step = s0.get("step")
    if s0["phase"] in ("over", "setup") or not step:
        return reject("no_timer", N_("No timer is running."))
    sid = action.get("step")
    if sid is not None and sid != step["id"]:
        return reject("stale_step", N_("That step is already over."))
    timed = ctx.actor.source == "timer"
    if not timed and (not isinstance(ctx.now, (int, float)) or ctx.now < step["deadline"]):
        return reject("not_yet", N_("The time for this step is not up yet."))
    s = copy.deepcopy(s0)
    ev: list[dict[str, Any]] = []
    flow.end_step(s, ctx, ev, timed_out=True)
    return Accepted(s, ev)


def skip(s0: dict, action: dict, ctx: Context) -> Result:
    """The host ends the current step now (its default applies), e.g. ends the debate."""
    if not ctx.actor.host:
        return HOST_ONLY
    step = s0.get("step")
    if s0["phase"] in ("over", "setup") or not step:
        return reject("no_timer", N_("No timer is running."))
    sid = action.get("step")
    if sid is not None and sid != step["id"]:
        return reject("stale_step", N_("That step is already over."))
    s = copy.deepcopy(s0)
    ev: list[dict[str, Any]] = []
    flow.end_step(s, ctx, ev, timed_out=True, by_host=True)
    return Accepted(s, ev)


def set_timer(s0: dict, action: dict, ctx: Context) -> Result:
    """{"step": "seer", "seconds": 45}: the host changes a step's timer (the running step's
    deadline moves too)."""
    if not ctx.actor.host:
        return HOST_ONLY
    name, seconds = action.get("step"), action.get("seconds")
    if not isinstance(name, str) or name not in flow.DEFAULT_TIMERS:
        return reject("bad_step", N_("There is no such step."))
    if (
        isinstance(seconds, bool)
        or not isinstance(seconds, (int, float))
        or not (5 <= seconds <= 3600)
    ):
        return reject("bad_seconds", N_("A timer is 5 to 3600 seconds."))
    s = copy.deepcopy(s0)
    s["timers"][name] = seconds
    ev: list[dict[str, Any]] = [{"type": "timer_set", "step": name, "seconds": seconds}]
    step = s.get("step")
    if step and step["name"] == name and s["phase"] != "over":
        step["deadline"] = step["started"] + seconds
        ev.append({"type": "deadline", "id": step["id"], "deadline": step["deadline"]})
    return Accepted(s, ev)


def end_game(s0: dict, action: dict, ctx: Context) -> Result:
    if not ctx.actor.host:
        return HOST_ONLY
    if s0["phase"] == "over":
        return reject("game_over", N_("The game is over."))
    s = copy.deepcopy(s0)
    ev: list[dict[str, Any]] = []
    flow.game_over(s, ev, None, "host_ended")
    return Accepted(s, ev)
