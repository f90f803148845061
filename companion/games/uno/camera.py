"""What a stable card seen by the camera means (``GAME.on_card_seen``).

* Zone ``"discard"``, first card of a round: ``turn_up``.
* Zone ``"discard"`` during play: a new top card is the play of the player to move (or, when
  that player has only a pending draw to take, of the next player; a Draw Two under
  ``stack_draw2`` stays the victim's). A wild comes without its colour: the referee then waits
  for the colour (and Swap Hands' target) from that player's phone (action ``choose``).
* Zone ``"hand"`` at the end of a round: one card of the first hand still being counted. A
  card seen ``again`` there counts once more: hands hold twins, laid one on the other (a pile
  pushed aside counts too: ``uncount_card`` takes it back, and the rules refuse a third copy).
* A card recognised with less confidence than the option ``camera_confirm_below`` becomes a
  ``propose`` (the player confirms or dismisses it on the phone), and so does a card on the
  discard pile the camera could not name at all, as its best guess (``best``); on the
  ``"hand"`` zone an unsure card is ignored (tap it instead).
* The same card as the top card seen ``again`` (the watcher saw it come to rest elsewhere
  or turned: most likely its twin played on it, possibly the pile pushed) becomes a
  ``propose`` however sure the reading: the player confirms or dismisses it.
* None when nothing is to be done: the same card as the top card otherwise (a twin dropped
  just where the first lay looks like it; such a play, and every jump-in, is tapped), while a
  colour, a challenge or a proposal is pending, or for anything that is not a card.

The caller submits the action with ``Actor(seat=action.get("seat"), source="camera")``.
"""

from __future__ import annotations

from typing import Any

from companion.games.base import State
from companion.games.uno.deck import card, in_deck, symbol


def on_card_seen(state: State, zone: Any, label: Any, confidence: Any, again: Any = False,
                 best: Any = None) -> dict[str, Any] | None:
    if label is None and zone == "discard":
        # a card the camera could not name: its best guess is asked about, never played (a
        # card dropped without a word let the next card count as that player's play)
        label, confidence = best, 0.0
    if card(label) is None or not in_deck(label, state["options"]["custom_wilds"]):
        return None
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)):
        return None
    unsure = not confidence >= state["options"]["camera_confirm_below"]  # NaN is unsure
    phase, r = state["phase"], state["round"]
    if zone == "discard" and phase == "first_card":
        if r["proposal"] is not None and r["proposal"]["card"] == label:
            return None
        return {"type": "propose" if unsure else "turn_up", "card": label}
    if zone == "discard" and phase == "play":
        twin = label == r["top"] and again is True
        if ((label == r["top"] and not twin) or r["awaiting"] is not None
                or r["challenge"] is not None
                or (r["proposal"] is not None and r["proposal"]["card"] == label)):
            return None
        unsure = unsure or twin
        seat = r["current"]
        pending = r["pending"]
        stacking = (state["options"]["stack_draw2"] and pending is not None
                    and pending["kind"] == "draw2" and symbol(label) == "draw2")
        if pending is not None and not stacking:
            seat = (seat + r["direction"]) % len(state["players"])
        return {"type": "propose" if unsure else "play", "card": label, "seat": seat}
    if zone == "hand" and phase == "scoring" and not unsure:
        for seat, tally in enumerate(r["tally"]):
            if seat != r["winner"] and len(tally) < r["counts"][seat]:
                return {"type": "count_card", "seat": seat, "card": label}
    return None
