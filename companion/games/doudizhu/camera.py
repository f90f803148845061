"""What a play the camera sees in the middle of the table means (``GAME.on_card_seen``).

A Dou Di Zhu play is a set of cards, usually fanned so that only the corner indices show
(vision/fan.py reads them). The hook takes the whole set seen in the zone as ``cards``, a
list of ``(label, confidence)`` (label None: a card found but not named) and, by position,
``guesses``: each unnamed card's best guess. An unnamed card counts as its guess, read unsurely
(left out, a trio with one card unnamed was played as a pair, and the last play lying there
with one card unnamed for a moment as a single), unless its guess is a card the set names
already as many times as the packs hold it (the same card read twice); a set with a card
neither named nor guessed is not read at all (the phone's picker is there). It returns:

* None outside play, for another zone, or when the set is the play already on record (the
  last play still lying there), or, within a trick and with one pack, a part of it (a card
  of it hidden or unread: counted, it had become the next player's play), or when nothing in
  it is a card;
* within a trick, a set that holds the last play and more is the new play laid on it: the
  last play's cards are taken out (the half-covered, unsure ones first). A new lead must lie
  alone: the trick's cards are gathered when it ends, as at any table;
* ``propose`` for the player to move with the option ``camera_confirm`` (the default): the
  player confirms or corrects the play on the phone (the unsure cards, named by their best
  guess, listed);
* without it, ``play`` when every card is named at least as surely as the option
  ``camera_confirm_below``, and ``propose`` otherwise.

Without ``cards`` (a watcher that reports only the top card of a zone) nothing is done: the
top card of a fan is one card of a play, and taken alone it would be judged as a single.
The rules judge each play; a refusal is announced to every phone by the bridge (the
verdict), said by the speaker, and the player takes the cards back.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from companion.games.base import State
from companion.games.doudizhu.cards import RANKS, counts_of, packs_for, rank_of
from companion.games.doudizhu.cards import names as rank_names


def _sure(confidence: Any, below: float) -> bool:
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)):
        return False
    return confidence >= below  # (NaN is unsure)


def on_card_seen(state: State, zone: Any, label: Any, confidence: Any,
                 cards: Any = None, best: Any = None, guesses: Any = None
                 ) -> dict[str, Any] | None:
    h = state["hand"]
    if zone != "middle" or h["phase"] != "play" or h["proposal"] is not None:
        return None
    if not isinstance(cards, (list, tuple)):
        return None
    below = state["options"]["camera_confirm_below"]
    if not isinstance(guesses, (list, tuple)) or len(guesses) != len(cards):
        guesses = [None] * len(cards)
    items = [(item, guess) for item, guess in zip(cards, guesses, strict=True)
             if isinstance(item, (list, tuple)) and len(item) == 2]
    named = Counter(item[0] for item, _ in items if rank_of(item[0]) is not None)
    packs = packs_for(len(state["players"]))
    seen: list[tuple[int, bool]] = []  # (rank, read surely)
    for (name, conf), guess in items:
        r = rank_of(name)
        if r is not None:
            seen.append((r, _sure(conf, below)))
        elif name is None:  # a card found but not named: its guess, unsure, or nothing
            if isinstance(guess, str) and named[guess] >= packs:
                continue  # a card named in the set already (a pack holds it once): read twice
            r = rank_of(guess)
            if r is None:
                return None
            seen.append((r, False))
    if not seen:
        return None
    if h["plays"]:
        latest = counts_of([rank_of(c) for c in h["plays"][-1]["cards"]])  # type: ignore[misc]
        have = counts_of([r for r, _ in seen])
        if have == latest:
            return None  # the last play, still lying in the middle
        if h["last"] is not None and packs == 1 and all(
                a <= b for a, b in zip(have, latest, strict=True)):
            # a part of the last play (a card of it hidden, or unread): with one pack no play
            # that beats it is made of its ranks (a bomb of them would need its own cards)
            return None
        if h["last"] is not None and _holds(seen, latest):
            seen = _without(seen, latest)  # played on top of the last play
    names = rank_names(counts_of([r for r, _ in seen]))
    unsure = [RANKS[r] for r, sure in seen if not sure]
    seat = h["current"]
    if unsure or state["options"]["camera_confirm"]:
        return {"type": "propose", "cards": names, "unsure": unsure, "seat": seat}
    return {"type": "play", "cards": names, "seat": seat}


def _holds(seen: list[tuple[int, bool]], play: list[int]) -> bool:
    have = counts_of([r for r, _ in seen])
    return all(have[r] >= play[r] for r in range(len(play)))


def _without(seen: list[tuple[int, bool]], play: list[int]) -> list[tuple[int, bool]]:
    """``seen`` less the cards of ``play``, the unsure ones first (the play underneath is
    the half-covered one)."""
    need = list(play)
    kept = []
    for r, sure in sorted(seen, key=lambda x: x[1]):
        if need[r] > 0:
            need[r] -= 1
        else:
            kept.append((r, sure))
    return kept
