"""A small driver for the UNO referee: a table in a state, actions by seat or by the host,
and checks that a refusal leaves the state exactly as it was."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from companion.games.base import HOST, Accepted, Actor, Context, Rejection
from companion.games.uno import GAME

NAMES = ["Ana", "Bea", "Cai", "Dan", "Eva", "Fay", "Gil", "Hal", "Ivo", "Jo"]


def accounted(state: dict[str, Any]) -> bool:
    """Every card is somewhere: the hands, the draw pile or the discard pile."""
    r = state["round"]
    return sum(r["counts"]) + r["draw_pile"] + len(r["discard"]) == state["deck_size"]


class Table:
    def __init__(self, players: int = 3, dealer: int | None = 0, first: str | None = "blue-7",
                 colour: str | None = None, **options: Any) -> None:
        self.state = GAME.setup(NAMES[:players], options, random.Random(0))
        self.seq = 0
        if dealer is not None and self.state["phase"] == "cut":
            self.do({"type": "set_dealer", "dealer": dealer})
        if first is not None:
            self.do({"type": "turn_up", "card": first})
            if colour is not None:
                self.do({"type": "choose", "colour": colour})

    @property
    def r(self) -> dict[str, Any]:
        return self.state["round"]

    @property
    def turn(self) -> int:
        return self.r["current"]

    def _apply(self, action: Any, seat: int | None, source: str):
        actor = HOST if seat is None else Actor(seat=seat, source=source)
        self.seq += 1
        return GAME.apply(self.state, action, Context(actor, random.Random(self.seq)))

    def do(self, action: dict[str, Any], seat: int | None = None,
           source: str = "web") -> list[dict[str, Any]]:
        before = copy.deepcopy(self.state)
        result = self._apply(action, seat, source)
        assert self.state == before, "apply mutated its input"
        assert isinstance(result, Accepted), f"{action} refused: {result}"
        self.state = result.state
        if self.state["round"] is not None and self.state["phase"] != "first_card":
            assert accounted(self.state)
        return result.events

    def no(self, action: Any, seat: int | None = None, code: str | None = None,
           source: str = "web") -> Rejection:
        before = copy.deepcopy(self.state)
        result = self._apply(action, seat, source)
        assert isinstance(result, Rejection), f"{action} accepted: {result}"
        assert self.state == before
        if code is not None:
            assert result.code == code, result
        return result

    def play(self, card: str, seat: int | None = None, **extra: Any) -> list[dict[str, Any]]:
        seat = self.turn if seat is None else seat
        return self.do({"type": "play", "card": card, **extra}, seat)

    def draw(self, seat: int | None = None, **extra: Any) -> list[dict[str, Any]]:
        seat = self.turn if seat is None else seat
        return self.do({"type": "draw", **extra}, seat)


@pytest.fixture
def table():
    return Table
