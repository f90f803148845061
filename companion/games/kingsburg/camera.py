"""Dice from the camera: a later vision piece reads the pips and the dice colours and hands
``on_dice_seen`` a reading ``{colour: [values]}``; it becomes a roll for the player of that
colour (each seat has one, ``data.COLOURS``; "white" are the white dice he has this season).
A reading the recogniser is not sure of becomes a proposal that the player confirms on his
phone (``confirm_roll``), never a roll applied silently."""

from __future__ import annotations

from typing import Any

from companion.games.base import N_, Rejection, reject
from companion.games.kingsburg.core import Move, acting_seat, die_values
from companion.games.kingsburg.data import COLOURED_DICE, COLOURS

SURE = 0.9  # below this the reading is proposed, not applied


def on_dice_seen(state: dict[str, Any], reading: dict[str, list[int]],
                 confidence: float = 1.0) -> dict[str, Any] | None:
    """The action a reading means now, or None (not a rolling moment, no seat's colour, not
    the right number of dice)."""
    if state.get("ended") or state.get("step") != "roll" or not isinstance(reading, dict):
        return None
    season = state["season"]
    n = len(state["players"])
    for seat in range(n):
        values = reading.get(COLOURS[seat])
        if not isinstance(values, list) or len(values) != COLOURED_DICE:
            continue
        if season["dice"][seat] is not None:
            continue  # (already rolled: the dice still lying there)
        whites = season["whites"][seat]
        white = list(reading.get("white") or [])[:whites] if whites else []
        if len(white) != whites:
            continue
        action = {"type": "roll", "seat": seat, "dice": list(values), "white": white}
        if confidence < SURE:
            action["type"] = "propose_roll"
        return action
    return None


def propose(m: Move, action: dict[str, Any]) -> Rejection | None:
    """An unsure reading, kept for that player to confirm or to type over."""
    if m.st["step"] != "roll":
        return reject("not_rolling", N_("The dice are rolled at the start of a productive "
                                        "season."))
    seat = acting_seat(m, action)
    if isinstance(seat, Rejection):
        return seat
    dice = die_values(action.get("dice"), COLOURED_DICE)
    white = die_values(action.get("white", []), m.st["season"]["whites"][seat])
    for r in (dice, white):
        if isinstance(r, Rejection):
            return r
    m.st["proposals"][str(seat)] = {"dice": dice, "white": white}
    m.event("roll_proposed", seat=seat, dice=dice, white=white, to=[seat])
    return None


def confirm(m: Move, action: dict[str, Any]) -> dict[str, Any] | Rejection:
    """The roll a confirmed proposal stands for (the caller applies it as a roll)."""
    seat = acting_seat(m, action)
    if isinstance(seat, Rejection):
        return seat
    proposal = m.st["proposals"].get(str(seat))
    if proposal is None:
        return reject("no_proposal", N_("There is no reading of your dice to confirm."))
    return {"type": "roll", "seat": seat, **proposal}
