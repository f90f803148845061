"""What the table, each phone and the history may show. Nothing private in the public view:
the only secrets are a drawn card named on a phone (its owner's) and a hand shown in a
challenge (the challenger's and the accused's)."""

from __future__ import annotations

from typing import Any

from companion.games.base import State
from companion.games.uno.deck import colour_of
from companion.games.uno.scoring import (
    carried,
    round_points,
    running_totals,
    totals,
    winners,
)


def _nxt(state: State, seat: int) -> int:
    return (seat + state["round"]["direction"]) % len(state["players"])


def public_view(state: State) -> dict[str, Any]:
    history = running_totals(state)
    return {
        "players": state["players"],
        "options": state["options"],
        "phase": state["phase"],
        "dealer": state["dealer"],
        "deck_size": state["deck_size"],
        "cut": state["cut"],
        "round": _round_public(state),
        "rounds": [{**rec, "points": round_points(rec, state["options"])}
                   for rec in state["rounds"]],
        "totals": totals(state),
        "carried": carried(state),
        "totals_by_round": history,
        "target": state["options"]["target"],
        "scoring": state["options"]["scoring"],
        "ended": state["ended"],
        "winners": winners(state) if state["ended"] else None,
    }


def _round_public(state: State) -> dict[str, Any] | None:
    r = state["round"]
    if r is None:
        return None
    awaiting = r["awaiting"]
    pending = r["pending"]
    return {
        "number": r["number"],
        "turn": r["current"],
        "direction": r["direction"],
        "direction_name": "clockwise" if r["direction"] == 1 else "counterclockwise",
        "top": r["top"],
        "colour": r["colour"],
        "counts": r["counts"],
        "draw_pile": r["draw_pile"],
        "discard_size": len(r["discard"]),
        "uno": r["uno"],
        "catchable": r["catchable"],
        "one_card_by": r.get("one_card_by"),
        "pending": None if pending is None else {
            # (the colour before a Wild Draw Four: all saw it, and the victim weighs a
            # challenge on it)
            k: pending.get(k) for k in ("victim", "amount", "kind", "by", "colour_before")},
        "awaiting": None if awaiting is None else {
            k: awaiting[k] for k in ("seat", "card", "need")},
        "challenge": r["challenge"],
        "drawn": None if r["drawn"] is None else r["drawn"]["seat"],
        "proposal": r["proposal"],
        "winner": r["winner"],
        "tally": r["tally"],
        "points": r.get("points"),
        "hands": r.get("hands"),
        "custom_rule": state["options"]["custom_rule"] or None,
    }


def player_view(state: State, seat: int) -> dict[str, Any]:
    view = public_view(state)
    r = state["round"]
    me: dict[str, Any] = {"seat": seat, "can": can(state, seat)}
    if r is not None:
        me["count"] = r["counts"][seat]
        drawn = r["drawn"]
        me["drawn_card"] = drawn["card"] if drawn is not None and drawn["seat"] == seat else None
        reveal = r["reveal"]
        me["revealed_hand"] = (
            {"seat": reveal["seat"], "cards": reveal["cards"]}
            if reveal is not None and seat in (reveal["to"], reveal["seat"]) else None)
    view["me"] = me
    return view


def can(state: State, seat: int) -> list[str]:
    """What this seat's phone should offer now (a hint for the UI; ``apply`` still judges)."""
    phase, r, opts = state["phase"], state["round"], state["options"]
    if phase == "cut":
        cut = state["cut"]
        mine = seat in cut["contenders"] and cut["cards"][seat] is None
        return ["cut", "set_dealer"] if mine else ["set_dealer"]
    if phase == "first_card":
        return ["turn_up", "set_dealer"]
    if phase == "scoring":
        return ["count_card", "uncount_card", "count_points", "end_round"]
    if phase == "round_over":
        return ["next_round"]
    if phase != "play":
        return []
    out: list[str] = []
    if r["proposal"] is not None and r["proposal"]["seat"] == seat:
        out += ["confirm", "dismiss"]
    if any(s != seat for s in r["catchable"]):
        out.append("catch")
    count = r["counts"][seat]
    cur, pending = r["current"], r["pending"]
    drawn = r["drawn"]
    waiting = pending is not None or (drawn is not None and drawn["seat"] == cur)
    next_may_act = waiting and r["challenge"] is None and seat == _nxt(state, cur) != cur
    playing = (seat == cur and pending is None) or next_may_act
    if not r["uno"][seat] and (count == 1 or (count == 2 and playing)):
        out.append("uno")
    if r["awaiting"] is not None:
        return [*out, "choose"] if r["awaiting"]["seat"] == seat else out
    ch = r["challenge"]
    if ch is not None:
        if seat == ch["accused"]:
            out += ["show_hand", "verdict"]
        elif seat == ch["challenger"]:
            out.append("verdict")
        return out
    if pending is not None and pending["kind"] == "draw4" and pending["by"] is not None and (
            seat == pending["victim"]
            or (opts["challenge_by"] == "anyone" and seat != pending["by"])):
        out.append("challenge")
    if seat == cur:
        if pending is None and drawn is None:
            out += ["play", "draw"]
        elif pending is None:
            out += ["play", *(["draw"] if opts["draw_until_playable"] else []), "pass"]
        else:
            out += ["draw"] + (["play"] if opts["stack_draw2"] and pending["kind"] == "draw2"
                               else [])
    elif next_may_act:
        out += ["play", "draw"]
    elif opts["jump_in"] and pending is None and colour_of(r["top"]) is not None:
        out.append("play")
    return out


def history_view(state: State, entry: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """Hide the drawn card a phone named and a hand shown in a challenge from everyone else."""
    body = entry.get("body")
    if entry.get("kind") != "action" or not isinstance(body, dict):
        return entry
    secret = {"draw": "card", "show_hand": "cards"}.get(body.get("type"))
    if secret is None or secret not in body:
        return entry
    owner = body.get("seat", (entry.get("actor") or {}).get("seat"))
    if seat is not None and owner == seat:
        return entry
    return {**entry, "body": {k: v for k, v in body.items() if k != secret}}
