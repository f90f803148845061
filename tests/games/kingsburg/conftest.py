"""A small driver for Kingsburg: a table in a state, actions by seat or by the host, checks
that a refusal changes nothing, and a random legal player for whole games."""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

from companion.games.base import HOST, Accepted, Actor, Context, Rejection
from companion.games.kingsburg import GAME
from companion.games.kingsburg.core import buildable, building_count, goods_total
from companion.games.kingsburg.data import ENEMIES, GOODS, ROWS
from companion.games.kingsburg.flow import recruit_price
from companion.games.kingsburg.placements import legal_placements

NAMES = ["Ann", "Brian", "Cindy", "David", "Eve"]


class Table:
    def __init__(self, players: int = 4, seed: int = 0, **options: Any) -> None:
        options.setdefault("initial_order", "seats")
        self.state = GAME.setup(NAMES[:players], options, random.Random(seed))
        self.seq = 0
        self.events: list[dict[str, Any]] = []

    @property
    def season(self) -> dict[str, Any]:
        return self.state["season"]

    def p(self, seat: int) -> dict[str, Any]:
        return self.state["p"][seat]

    def _apply(self, action: Any, seat: int | None):
        actor = HOST if seat is None else Actor(seat=seat)
        self.seq += 1
        return GAME.apply(self.state, action, Context(actor, random.Random(self.seq)))

    def do(self, action: dict[str, Any], seat: int | None = None) -> list[dict[str, Any]]:
        before = copy.deepcopy(self.state)
        result = self._apply(action, seat)
        assert self.state == before, "apply mutated its input"
        assert isinstance(result, Accepted), f"{action} refused: {result}"
        self.state = result.state
        self.events = result.events
        check_invariants(self.state)
        return result.events

    def no(self, action: Any, seat: int | None = None, code: str | None = None) -> Rejection:
        before = copy.deepcopy(self.state)
        result = self._apply(action, seat)
        assert self.state == before
        assert isinstance(result, Rejection), f"{action} was accepted"
        if code is not None:
            assert result.code == code, result
        return result

    # -- helpers for a season ------------------------------------------------------------
    def choose_all(self, good: str = "gold") -> None:
        while self.state["pending"]:
            c = self.state["pending"][0]
            self.do({"type": "choose", "goods": [good] * c["n"]}, c["seat"])

    def roll_all(self, rolls: dict[int, list[int]], white: dict[int, list[int]] | None = None
                 ) -> None:
        white = white or {}
        for seat, dice in rolls.items():
            self.do({"type": "roll", "dice": dice, "white": white.get(seat, [])}, seat)

    def set_position(self, **pos: Any) -> None:
        n = len(self.state["players"])
        pos.setdefault("players", [{} for _ in range(n)])
        pos.setdefault("order", list(range(n)))
        self.do({"type": "position", **pos})


def check_invariants(state: dict[str, Any]) -> None:
    """What must always hold (the hypothesis games check it after every action)."""
    for p in state["p"]:
        for key in (*GOODS, "soldiers", "plus2"):
            assert p[key] >= 0, (key, p)
        assert p["vp"] == sum(p["points"].values())
        if not state["options"]["negative_scores"]:
            assert p["vp"] >= 0
        assert len(set(p["buildings"])) == len(p["buildings"]) <= 17
        for row in ROWS:
            owned = [b in p["buildings"] for b in row]
            assert owned == sorted(owned, reverse=True), p["buildings"]
    s = state.get("season")
    if s and state["phase"] in (2, 4, 6):
        envoys = Counter(pl["advisor"] for pl in s["placed"] if pl["envoy"])
        for a, seats in s["advisors"].items():
            assert len(seats) <= 1 + envoys[int(a)], (a, seats)
            assert int(a) not in s["blocked"] or envoys[int(a)] >= len(seats)
        for dice in s["dice"]:
            if dice is not None:
                assert all(1 <= d["v"] <= 6 for d in dice)
                assert sum(d["white"] for d in dice) <= 2


def random_action(state: dict[str, Any], rnd: random.Random) -> tuple[dict[str, Any], int | None]:
    """One legal action of a random player, as a table of careless players would play."""
    n = len(state["players"])
    if state["pending"]:
        c = state["pending"][0]
        seat, p = c["seat"], state["p"][c["seat"]]
        kind = c["kind"]
        if kind == "goods":
            return {"type": "choose", "goods": [rnd.choice(c["from"]) for _ in range(c["n"])]}, seat
        if kind == "alchemist":
            return {"type": "choose", "give": rnd.choice([g for g in GOODS if p[g]])}, seat
        if kind == "lose_goods":
            pool = [g for g in GOODS for _ in range(p[g])]
            return {"type": "choose", "goods": rnd.sample(pool, c["n"])}, seat
        if kind == "lose_building":
            return {"type": "choose", "building": rnd.choice(c["from"])}, seat
        if kind == "town_hall":
            pays = [None, *[k for k in ("plus2", *GOODS) if p[k]]]
            return {"type": "choose", "pay": rnd.choice(pays)}, seat
    step, s = state["step"], state["season"]
    if step == "roll":
        if n == 2 and state["options"]["two_player_block"] and s["neutral"] is None:
            return {"type": "roll_neutral", "dice": [rnd.randint(1, 6) for _ in range(3)]}, 0
        for seat in range(n):
            if s["dice"][seat] is None:
                return {"type": "roll", "dice": [rnd.randint(1, 6) for _ in range(3)],
                        "white": [rnd.randint(1, 6) for _ in range(s["whites"][seat])]}, seat
        for seat in range(n):
            if not s["settled"][seat]:
                p = state["p"][seat]
                dice = s["dice"][seat]
                if rnd.random() < 0.3:
                    return {"type": "keep"}, seat
                if "statue" in p["buildings"] and len({d["v"] for d in dice}) == 1 and not \
                        s["rerolls"][seat]["statue"]:
                    return {"type": "reroll", "building": "statue", "die": 0,
                            "value": rnd.randint(1, 6)}, seat
                return {"type": "reroll", "building": "chapel",
                        "values": [rnd.randint(1, 6) for _ in dice]}, seat
    if step == "influence":
        seat = s["turn"]
        moves = legal_placements(state, seat)
        if not moves or rnd.random() < 0.1:
            return {"type": "pass"}, seat
        pl = rnd.choice(moves)
        return {"type": "influence", "advisor": pl["advisor"], "dice": pl["dice"],
                "plus2": pl["plus2"], "market": pl["market"]}, seat
    if step == "build":
        seat = next(k for k in range(n) if not s["done"][k])
        options = [b["building"] for b in buildable(state, seat) if b["affordable"]]
        if options and rnd.random() < 0.8:
            return {"type": "build", "building": rnd.choice(options)}, seat
        return {"type": "done"}, seat
    if step == "recruit":
        seat = next(k for k in range(n) if not state["recruited"][k])
        p = state["p"][seat]
        price = recruit_price(state, seat)
        if price == 1 and state["options"]["barracks_pay"] == "gold":
            soldiers = rnd.randint(0, p["gold"])
            return {"type": "recruit", "soldiers": soldiers, "pay": {"gold": soldiers}}, seat
        soldiers = rnd.randint(0, goods_total(p) // price)
        pool = [g for g in GOODS for _ in range(p[g])]
        pay = Counter(rnd.sample(pool, soldiers * price))
        return {"type": "recruit", "soldiers": soldiers, "pay": dict(pay)}, seat
    if step == "battle":
        b = state["battle"]
        if b["reinforcement"] is None:
            return {"type": "reinforce", "value": rnd.randint(1, 6)}, 0
        year = state["year"]
        card = rnd.choice([e for e in ENEMIES if e["year"] == year])
        return {"type": "reveal_enemy", "card": card["id"]}, 0
    raise AssertionError(f"nothing to do at {state['phase']} {step}")


__all__ = ["NAMES", "Table", "building_count", "check_invariants", "random_action"]
