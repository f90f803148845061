"""A small driver for the Huang Di referee: a table in a chosen position (walls, stock tops,
discard piles laid as the example says), actions by seat, by the camera or by the host, and
checks that every card stays accounted for and that a refusal leaves the state as it was."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from companion.games.base import HOST, Accepted, Actor, Context, Rejection
from companion.games.huangdi import GAME
from companion.games.huangdi.rules import accounted, deck_counts, public_cards

NAMES = ["Ana", "Bia", "Caio", "Duda", "Edu", "Fabi"]


def check_accounted(state: dict[str, Any]) -> None:
    """Every card is somewhere, and no more of a card is face up than the deck holds."""
    assert accounted(state) == state["deck_size"]
    counts = deck_counts(state["options"])
    face_up = public_cards(state)
    face_up["invert"] += state["out"]  # (set aside: gone from the game)
    assert all(face_up[c] <= counts[c] for c in counts)
    assert all(h >= 0 for h in state["hands"]) and state["draw"] >= 0


class Table:
    def __init__(self, players: int = 2, **options: Any) -> None:
        self.state = GAME.setup(NAMES[:players], options, random.Random(0))
        self.seq = 0

    @property
    def turn(self) -> int:
        return self.state["current"]

    def wall(self, i: int) -> dict[str, Any] | None:
        return self.state["walls"][i]

    # -- a position, set by hand (cards taken from the draw pile, so the count holds) -----
    def set_wall(self, i: int, top: int, down: bool = False) -> Table:
        """Wall ``i`` built up to ``top`` (↑), or inverted once and going down to ``top``
        (↓: 1..top+1 up, then the Invert and top)."""
        cards = [str(v) for v in range(1, top + 1)] if not down else [
            *[str(v) for v in range(1, top + 2)], str(top)]
        old = self.state["walls"][i]
        if old is not None:
            self.state["draw"] += len(old["cards"]) + old["inverts"]
        self.state["walls"][i] = {"cards": cards, "top": top, "inverts": 1 if down else 0}
        self.state["draw"] -= len(cards) + (1 if down else 0)
        check_accounted(self.state)
        return self

    def set_stock(self, seat: int, top: str | None, count: int | None = None) -> Table:
        stock = self.state["stocks"][seat]
        if count is not None:
            self.state["draw"] += stock["count"] - count
            stock["count"] = count
        stock["top"] = top
        check_accounted(self.state)
        return self

    def set_hand(self, seat: int, count: int) -> Table:
        self.state["draw"] += self.state["hands"][seat] - count
        self.state["hands"][seat] = count
        check_accounted(self.state)
        return self

    def set_discard(self, seat: int, pile: int, cards: list[str]) -> Table:
        self.state["draw"] += len(self.state["discards"][seat][pile]) - len(cards)
        self.state["discards"][seat][pile] = list(cards)
        check_accounted(self.state)
        return self

    # -- actions --------------------------------------------------------------------------
    def _apply(self, action: Any, seat: int | None, source: str):
        actor = HOST if seat is None else Actor(seat=seat, source=source)
        self.seq += 1
        return GAME.apply(self.state, action, Context(actor, random.Random(self.seq)))

    def do(self, action: dict[str, Any], seat: int | None = -1,
           source: str = "web") -> list[dict[str, Any]]:
        """An action accepted (``seat`` -1: the player to move's phone; None: the host)."""
        seat = self.turn if seat == -1 else seat
        before = copy.deepcopy(self.state)
        result = self._apply(action, seat, source)
        assert self.state == before, "apply mutated its input"
        assert isinstance(result, Accepted), f"{action} refused: {result}"
        self.state = result.state
        check_accounted(self.state)
        return result.events

    def no(self, action: Any, seat: int | None = -1, code: str | None = None,
           source: str = "web") -> Rejection:
        seat = self.turn if seat == -1 else seat
        before = copy.deepcopy(self.state)
        result = self._apply(action, seat, source)
        assert isinstance(result, Rejection), f"{action} accepted: {result}"
        assert self.state == before
        if code is not None:
            assert result.code == code, result
        return result

    def play(self, card: str, wall: int, src: str = "hand", **extra: Any) -> list[dict[str, Any]]:
        return self.do({"type": "play", "card": card, "wall": wall, "from": src, **extra})

    def discard(self, card: str, pile: int = 0) -> list[dict[str, Any]]:
        return self.do({"type": "discard", "card": card, "pile": pile})


@pytest.fixture
def table():
    return Table
