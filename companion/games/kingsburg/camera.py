"""Dice from the camera: the dice reader (``vision.dice``) reads the pips and the dice colours,
and a reading ``{colour: [values]}`` (``on_dice_seen``) becomes a roll for the player of that
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


def reading_of(cards: Any) -> tuple[dict[str, list[int]], dict[str, float]]:
    """``{colour: [values]}`` and each colour's least confidence, from the camera's (label,
    confidence) pairs (labels ``colour:value``); a die it could not read (no label) is left
    out, so its player's roll is short and waits for the phone."""
    reading: dict[str, list[int]] = {}
    least: dict[str, float] = {}
    for item in cards if isinstance(cards, (list, tuple)) else ():
        if not isinstance(item, (list, tuple)) or len(item) != 2:
            continue
        label, conf = item
        colour, _, value = label.partition(":") if isinstance(label, str) else ("", "", "")
        if colour not in (*COLOURS, "white") or value not in ("1", "2", "3", "4", "5", "6"):
            continue
        reading.setdefault(colour, []).append(int(value))
        sure = float(conf) if isinstance(conf, (int, float)) else 0.0
        least[colour] = min(least.get(colour, 1.0), sure)
    return reading, least


def on_card_seen(state: dict[str, Any], zone: str, label: str | None, confidence: float,
                 cards: Any = None) -> list[dict[str, Any]] | None:
    """The camera's set of dice in the roll zone, held still: a roll for each player whose
    dice are in it and who has not rolled (players roll at once), or None. Each roll is as
    sure as its own dice (``label`` and ``confidence``, the watcher's first die, say nothing
    more): one unsure die makes that player's roll a proposal."""
    if zone != ZONE or not cards:
        return None
    reading, least = reading_of(cards)
    return rolls_seen(state, reading, least) or None


def on_dice_seen(state: dict[str, Any], reading: dict[str, list[int]],
                 confidence: float = 1.0) -> dict[str, Any] | None:
    """The action a reading means now, or None (not a rolling moment, no seat's colour, not
    the right number of dice): the first of ``rolls_seen``, all as sure as ``confidence``."""
    if not isinstance(reading, dict):
        return None
    sure = {colour: confidence for colour in reading}
    actions = rolls_seen(state, reading, sure, first=True)
    return actions[0] if actions else None


def rolls_seen(state: dict[str, Any], reading: dict[str, list[int]],
               sure: dict[str, float], first: bool = False) -> list[dict[str, Any]]:
    """The rolls a reading means now: each seat whose three dice of its colour are read and
    who has not rolled yet (the dice of a roll already made may still lie there), with as
    many white dice as he has this season; below SURE (the least of the dice used) a
    proposal. White dice go to a player only where he is the one in view who has any (or,
    with ``first``, to the first such player); two players' white dice cannot be told apart,
    so those are left to the phones. Two players' neutral dice come from an unused colour,
    only when sure."""
    if state.get("ended") or state.get("step") != "roll" or not isinstance(reading, dict):
        return []
    season = state["season"]
    n = len(state["players"])
    ready = [seat for seat in range(n)
             if isinstance(reading.get(COLOURS[seat]), list)
             and len(reading[COLOURS[seat]]) == COLOURED_DICE
             and season["dice"][seat] is None]
    with_whites = [seat for seat in ready if season["whites"][seat]]
    actions = []
    for seat in ready:
        whites = season["whites"][seat]
        if whites and len(with_whites) > 1 and not first:
            continue
        white = list(reading.get("white") or [])[:whites] if whites else []
        if len(white) != whites:
            continue
        conf = min(sure.get(COLOURS[seat], 0.0), sure.get("white", 0.0) if whites else 1.0)
        actions.append({"type": "roll" if conf >= SURE else "propose_roll", "seat": seat,
                        "dice": list(reading[COLOURS[seat]]), "white": white})
        if first:
            return actions
    if n == 2 and season.get("neutral") is None:
        for colour in COLOURS[n:]:
            values = reading.get(colour)
            if isinstance(values, list) and len(values) == COLOURED_DICE and \
                    sure.get(colour, 0.0) >= SURE:
                # (rolled by the players: the camera acts for the first of them)
                actions.append({"type": "roll_neutral", "dice": list(values), "seat": 0})
                break
    return actions[:1] if first else actions


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
