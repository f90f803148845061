"""What a play the camera sees in the middle of the table means (``GAME.on_card_seen``).

A Dou Di Zhu play is a set of cards, usually fanned so that only the corner indices show
(vision/fan.py reads them). The hook takes the whole set seen in the zone as ``cards``, a
list of ``(label, confidence)`` (label None: a card found but not named). It returns:

* None outside play, for another zone, or when the set is the play already on record (the
  last play still lying there), or when nothing in it is a card;
* ``play`` for the player to move, when every card is named at least as surely as the option
  ``camera_confirm_below``;
* ``propose`` otherwise (the unsure cards named by their best guess): the player confirms or
  corrects the play on the phone.

Without ``cards`` (a watcher that reports only the top card of a zone) nothing is done: the
top card of a fan is one card of a play, and taken alone it would be judged as a single.
The rules judge each play; a refusal is announced to every phone by the bridge (the
verdict), said by the speaker, and the player takes the cards back.
"""

from __future__ import annotations

from typing import Any

from companion.games.base import State
from companion.games.doudizhu.cards import RANKS, counts_of, rank_of


def _sure(confidence: Any, below: float) -> bool:
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)):
        return False
    return confidence >= below  # (NaN is unsure)


def on_card_seen(state: State, zone: Any, label: Any, confidence: Any,
                 cards: Any = None, best: Any = None) -> dict[str, Any] | None:
    h = state["hand"]
    if zone != "middle" or h["phase"] != "play" or h["proposal"] is not None:
        return None
    if not isinstance(cards, (list, tuple)):
        return None
    below = state["options"]["camera_confirm_below"]
    names: list[str] = []
    unsure: list[str] = []
    for item in cards:
        if not isinstance(item, (list, tuple)) or len(item) != 2:
            continue
        name, conf = item
        r = rank_of(name)
        if r is None:
            continue
        names.append(RANKS[r])
        if not _sure(conf, below):
            unsure.append(RANKS[r])
    if not names:
        return None
    if h["plays"]:
        latest = h["plays"][-1]["cards"]
        seen = counts_of([rank_of(c) for c in names])  # type: ignore[misc]
        if seen == counts_of([rank_of(c) for c in latest]):  # type: ignore[misc]
            return None  # the last play, still lying in the middle
    seat = h["current"]
    if unsure:
        return {"type": "propose", "cards": names, "unsure": unsure, "seat": seat}
    return {"type": "play", "cards": names, "seat": seat}
