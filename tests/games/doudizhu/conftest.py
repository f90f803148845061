"""A small driver for the Dou Di Zhu referee: a table in a state, actions by seat or by the
host, and checks that a refusal leaves the state exactly as it was and that every card of
the pack is accounted for after each accepted action."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from companion.games.base import HOST, Accepted, Actor, Context, Rejection
from companion.games.doudizhu import GAME
from companion.games.doudizhu.cards import INDEX, N, counts_of, pack_counts, rank_of

NAMES = ["A", "B", "C", "D"]


def ranks(text: str) -> list[str]:
    """'3-3-3-9' -> ['3', '3', '3', '9'] (the sheet's spelling)."""
    return text.split("-") if text else []


def counts(text: str) -> list[int]:
    return counts_of([INDEX[r] for r in ranks(text)])


def accounted(state: dict[str, Any]) -> bool:
    """Every card of the pack is somewhere: in a hand (counted) or played. With the app's
    deal, the hands themselves, the kitty and the plays make up the pack exactly."""
    h = state["hand"]
    n = len(state["players"])
    pack = pack_counts(n)
    kitty = 0 if h["landlord"] is not None else h["kitty_size"]
    if sum(h["counts"]) - sum(h["adjusted"]) + sum(h["played"]) + kitty != sum(pack):
        return False
    if any(h["played"][r] > pack[r] for r in range(N)):
        return False
    if h["dealt"] is not None:
        held = [0] * N
        for hand in h["dealt"]:
            for c in hand:
                held[rank_of(c)] += 1
        if h["landlord"] is None:
            for c in h["kitty_cards"]:
                held[rank_of(c)] += 1
        if [a + b for a, b in zip(held, h["played"], strict=True)] != list(pack):
            return False
        if [len(x) for x in h["dealt"]] != h["counts"]:
            return False
    return True


class Table:
    def __init__(self, players: int = 3, seed: int = 0, **options: Any) -> None:
        self.state = GAME.setup(NAMES[:players], options, random.Random(seed))
        self.seq = 0

    @property
    def h(self) -> dict[str, Any]:
        return self.state["hand"]

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

    # the sheet's spelling: "3-3-3-9"
    def play(self, text: str, seat: int | None = None) -> list[dict[str, Any]]:
        seat = self.h["current"] if seat is None else seat
        return self.do({"type": "play", "cards": ranks(text)}, seat)

    def cannot(self, text: str, code: str | None = None, seat: int | None = None) -> Rejection:
        seat = self.h["current"] if seat is None else seat
        return self.no({"type": "play", "cards": ranks(text)}, seat, code)

    def pass_(self, seat: int | None = None) -> list[dict[str, Any]]:
        seat = self.h["current"] if seat is None else seat
        return self.do({"type": "pass"}, seat)

    def auction(self, *bids: tuple[int, int]) -> None:
        for seat, bid in bids:
            self.do({"type": "bid", "bid": bid} if bid else {"type": "pass"}, seat)

    def landlord(self, seat: int = 0, bid: int = 1) -> Table:
        """The auction short: ``seat`` bids ``bid`` and the others pass."""
        n = len(self.state["players"])
        self.do({"type": "bid", "bid": bid}, seat)
        if bid < 3:
            for k in range(1, n):
                self.do({"type": "pass"}, (seat + k) % n)
        assert self.h["landlord"] == seat and self.h["phase"] in ("play", "doubling")
        return self


@pytest.fixture
def table():
    return Table
