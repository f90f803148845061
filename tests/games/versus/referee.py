"""A Versus table without the service: apply actions as the camera, the buttons or the host."""

from __future__ import annotations

import random

from companion.games.base import HOST, Accepted, Actor, Context, resolve_options
from companion.games.versus import GAME

CAMERA = Actor(source="camera")
BUTTONS = Actor(source="button")
MS = 1_000_000
US = 1_000


class Referee:
    def __init__(self, players: int = 4, seed: int = 7, **options) -> None:
        names = ["Ana", "Bruno", "Chen", "Dara", "Eli", "Fay", "Gil", "Hana"][:players]
        self.state = GAME.setup(names, resolve_options(GAME.options, options), random.Random(seed))
        self.seq = 0
        self.events: list[dict] = []

    def result(self, action, actor=HOST):
        """The rules' verdict on a move as it comes (``admit``, then ``apply``)."""
        self.seq += 1
        if (refused := GAME.admit(action, actor)) is not None:
            return refused
        return GAME.apply(
            self.state, action, Context(actor, random.Random(self.seq), 0.0, self.seq)
        )

    def do(self, action, actor=HOST) -> list[dict]:
        res = self.result(action, actor)
        assert isinstance(res, Accepted), (action, res)
        self.state = res.state
        self.events = res.events
        return res.events

    def fails(self, action, actor=HOST) -> str:
        res = self.result(action, actor)
        assert not isinstance(res, Accepted), (action, res)
        return res.code

    # the table's vocabulary
    def flip(self, seat: int, card: str | None, t_ms: float) -> list[dict]:
        return self.do(
            {"type": "pile_top", "seat": seat, "card": card, "t_ns": int(t_ms * MS)}, CAMERA
        )

    def slap(self, *presses: tuple[int, float]) -> list[dict]:
        return self.do(
            {"type": "slap", "presses": [{"seat": s, "t_ns": int(t * MS)} for s, t in presses]},
            BUTTONS,
        )

    def seat(self, s: int) -> dict:
        return self.state["seats"][s]

    def verdict(self) -> dict:
        return next(e for e in self.events if e["type"] == "verdict")

    @property
    def race(self) -> dict:
        return self.state["races"][-1]
