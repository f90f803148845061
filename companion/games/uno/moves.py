"""The referee's moves: one :class:`Move` per action.

The referee knows what the table can see: the top card and the active colour, the direction,
whose turn it is, pending draws, the discard pile, the size of the draw pile, and how many
cards each player holds (from deals, draws and plays). It never knows a hand, so where
legality depends on one (R9) it runs the challenge procedure (R11).

A :class:`Move` deep-copies the state once; every method then changes the copy freely and
returns None when it accepted, or a :class:`Rejection` (the copy is then thrown away, so a
rejected action never changes anything). The moves live in one module per part of the game:
``turns``, ``challenge``, ``start``, ``end``; the helpers in ``referee``.
"""

from __future__ import annotations

from typing import Any

from companion.games.base import N_, Rejection, reject
from companion.games.uno.challenge import ChallengeMoves
from companion.games.uno.end import EndMoves
from companion.games.uno.referee import new_round
from companion.games.uno.start import StartMoves
from companion.games.uno.turns import TurnMoves

__all__ = ["Move", "new_round"]


class Move(TurnMoves, ChallengeMoves, StartMoves, EndMoves):
    """All the moves; the camera's unsure cards are here as they lead to a play or a turn-up."""

    # -- the camera's unsure cards ------------------------------------------------------
    def propose(self, action: dict[str, Any]) -> Rejection | None:
        if (bad := self.phase_is("play", "first_card")) is not None:
            return bad
        label = self.check_card(action.get("card"))
        if isinstance(label, Rejection):
            return label
        seat = None
        if self.st["phase"] == "play":
            seat = self.seat_for(action, self.r["current"])
            if isinstance(seat, Rejection):
                return seat
        elif (bad := self.seated_or_table()) is not None:
            return bad
        self.r["proposal"] = {"seat": seat, "card": label}
        self.emit("confirm_card", seat=seat, card=label)
        return None

    def confirm(self, action: dict[str, Any]) -> Rejection | None:
        if (bad := self.phase_is("play", "first_card")) is not None:
            return bad
        p = self.r["proposal"]
        if p is None:
            return reject("no_proposal", N_("There is no card to confirm."))
        if self.st["phase"] == "first_card":
            return self.turn_up({"card": p["card"]})
        return self.play({"card": p["card"], "seat": p["seat"], "colour": action.get("colour"),
                          "target": action.get("target")})

    def dismiss(self, action: dict[str, Any]) -> Rejection | None:
        if (bad := self.phase_is("play", "first_card")) is not None:
            return bad
        if self.r["proposal"] is None:
            return reject("no_proposal", N_("There is no card to confirm."))
        if (bad := self.seated_or_table()) is not None:
            return bad
        self.r["proposal"] = None
        self.emit("dismissed")
        return None
