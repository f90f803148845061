"""A small harness: a werewolf game with chosen roles, played through the pure rules."""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

import pytest

from companion.games.base import HOST, Accepted, Actor, Context, Rejection, resolve_options
from companion.games.werewolf import GAME

NAMES = [
    "Ana",
    "Bruno",
    "Carla",
    "Davi",
    "Eva",
    "Fabio",
    "Gil",
    "Hugo",
    "Iris",
    "Joao",
    "Kai",
    "Lia",
    "Mia",
    "Nico",
    "Olga",
    "Paulo",
    "Quim",
    "Rui",
]


class Harness:
    def __init__(
        self,
        roles: list[str],
        spares: list[str] | None = None,
        *,
        look: bool = True,
        **options: Any,
    ) -> None:
        self.names = NAMES[: len(roles)]
        opts = resolve_options(GAME.options, {"deal": "host", **options})
        self.state = GAME.setup(self.names, opts, random.Random(0))
        self.now = 1000.0
        self.seq = 0
        self.events: list[dict[str, Any]] = []
        role_set = dict(Counter(roles + list(spares or [])))
        self.ok({"type": "set_roles", "roles": role_set})
        self.ok({"type": "assign", "roles": list(roles)})
        self.ok({"type": "start"})
        if look:
            self.ok({"type": "skip"})  # everyone has looked at their card

    def seat(self, name: str) -> int:
        return self.names.index(name)

    def apply(self, action: dict, who: Any = None) -> Accepted | Rejection:
        actor = HOST if who is None else Actor(seat=self.seat(who) if isinstance(who, str) else who)
        self.seq += 1
        before = copy.deepcopy(self.state)
        result = GAME.apply(
            self.state, action, Context(actor, random.Random(self.seq), self.now, self.seq)
        )
        assert self.state == before, "apply mutated its input"
        if isinstance(result, Accepted):
            self.state = result.state
            self.events += result.events
        return result

    def ok(self, action: dict, who: Any = None) -> list[dict]:
        n = len(self.events)
        result = self.apply(action, who)
        assert isinstance(result, Accepted), result
        return self.events[n:]

    def no(self, action: dict, who: Any = None, code: str | None = None) -> Rejection:
        result = self.apply(action, who)
        assert isinstance(result, Rejection), result
        if code:
            assert result.code == code, result
        return result

    def timeout(self) -> list[dict]:
        self.now = max(self.now, self.state["step"]["deadline"])
        return self.ok({"type": "timeout", "step": self.state["step"]["id"]})

    @property
    def step(self) -> str | None:
        step = self.state["step"]
        return step["name"] if step else None

    def run_to(self, name: str) -> None:
        """Let steps time out until ``name`` is the current step."""
        for _ in range(50):
            if self.step == name:
                return
            self.timeout()
        raise AssertionError(f"never reached {name}")

    def alive(self, name: str) -> bool:
        return self.state["alive"][self.seat(name)]

    def narrated(self, since: int = 0) -> list[str]:
        return [e["key"] for e in self.events[since:] if e["type"] == "narrate"]

    @property
    def winner(self) -> str | None:
        out = GAME.outcome(self.state)
        return out["winner"] if out else None


@pytest.fixture
def game():
    return Harness
