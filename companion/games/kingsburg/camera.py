"""Dice from the camera: a later vision piece reads the pips and the dice colours and hands
``on_dice_seen`` a reading ``{colour: [values]}``; it becomes a roll for the player of that
colour (each seat has one, ``data.COLOURS``; "white" are the white dice he has this season).
A reading the recogniser is not sure of becomes a proposal that the player confirms on his
phone (``confirm_roll``), never a roll applied silently.

The camera (``vision.dice``) reads every die in the ``roll`` zone as ``colour:value`` with a
confidence, and its watcher hands the whole set, once it has held still, to
``on_card_seen`` (the zone is a ``camera_sets`` one): the set becomes a reading here. Two
players' neutral dice (K50: three dice of an unused colour) are read the same way, from any
colour no seat has; an unsure neutral reading is left to the phones."""

from __future__ import annotations

from typing import Any

from companion.games.base import N_, Rejection, reject
from companion.games.kingsburg.core import Move, acting_seat, die_values
from companion.games.kingsburg.data import COLOURED_DICE, COLOURS

SURE = 0.9  # below this the reading is proposed, not applied
ZONE = "roll"  # the camera's zone where dice are rolled into view


def reading_of(cards: Any) -> tuple[dict[str, list[int]], float]:
    """``{colour: [values]}`` and the least confidence from the camera's (label, confidence)
    pairs (labels ``colour:value``); a die it could not read (no label) is left out, so its
    player's roll is short and waits for the phone."""
    reading: dict[str, list[int]] = {}
    confidence = 1.0
    for item in cards if isinstance(cards, (list, tuple)) else ():
        if not isinstance(item, (list, tuple)) or len(item) != 2:
            continue
        label, conf = item
        colour, _, value = label.partition(":") if isinstance(label, str) else ("", "", "")
        if colour not in (*COLOURS, "white") or value not in ("1", "2", "3", "4", "5", "6"):
            continue
        reading.setdefault(colour, []).append(int(value))
        if isinstance(conf, (int, float)):
            confidence = min(confidence, float(conf))
    return reading, confidence


def on_card_seen(state: dict[str, Any], zone: str, label: str | None, confidence: float,
                 cards: Any = None) -> dict[str, Any] | None:
    """The camera's set of dice in the roll zone, held still: the roll it means (or None).
    The confidence is the least of all the dice in the zone (``label`` and ``confidence``,
    the watcher's first die, say nothing more): one unsure die makes the roll a proposal."""
    if zone != ZONE or not cards:
        return None
    reading, least = reading_of(cards)
    return on_dice_seen(state, reading, least)


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
    if n == 2 and season.get("neutral") is None and confidence >= SURE:
        for colour in COLOURS[n:]:
            values = reading.get(colour)
            if isinstance(values, list) and len(values) == COLOURED_DICE:
                # (rolled by the players: the camera acts for the first of them)
                return {"type": "roll_neutral", "dice": list(values), "seat": 0}
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
