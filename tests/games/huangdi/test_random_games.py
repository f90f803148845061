"""Random games by legal choices (hypothesis) against a simulated physical table.

The simulation holds the real cards (a shuffled deck, stocks, hands, draw pile, discard piles,
walls and the Inverts beside them) and plays by the rules sheet, written here again without
the referee's code; the referee hears only what the table shows (the cards laid, the stock
tops turned up). After every action: every card is accounted for, the referee's counts, piles,
walls and turn agree with the simulation, and a card that may not go on a wall is refused
without changing anything.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.base import HOST, Accepted, Actor, Context, Rejection
from companion.games.huangdi import GAME
from companion.games.huangdi.rules import accounted

NUMBERS = [str(n) for n in range(1, 11)]


class Sim:
    def __init__(self, rnd: random.Random, n: int, opts: dict[str, Any]) -> None:
        self.rnd, self.n, self.opts = rnd, n, opts
        self.deck = (NUMBERS * opts["copies"] + ["joker"] * opts["jokers"]
                     + ["invert"] * opts["inverts"])
        self.draw = list(self.deck)
        rnd.shuffle(self.draw)
        self.stocks = [[self.draw.pop() for _ in range(opts["stock_size"])] for _ in range(n)]
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.discards: list[list[list[str]]] = [[[], []] for _ in range(n)]
        self.walls: list[dict[str, Any] | None] = [None, None, None]
        self.out = 0
        self.current = opts["first_player"]
        self.taken: set[int] = set()
        self.over = False
        self.refill(self.current)

    def refill(self, seat: int) -> None:
        while len(self.hands[seat]) < 5 and self.draw:
            self.hands[seat].append(self.draw.pop())

    def total(self) -> int:
        return (len(self.draw) + sum(map(len, self.hands)) + sum(map(len, self.stocks))
                + sum(len(p) for ps in self.discards for p in ps) + self.out
                + sum(len(w["cards"]) + w["inverts"] for w in self.walls if w))

    @staticmethod
    def need(wall: dict[str, Any] | None) -> int:
        if wall is None:
            return 1
        return wall["top"] + (1 if wall["inverts"] % 2 == 0 else -1)

    @staticmethod
    def partner(wall: dict[str, Any] | None) -> int | None:
        if wall is None:
            return None
        v = wall["top"] + (-1 if wall["inverts"] % 2 == 0 else 1)
        return v if 1 <= v <= 10 else None

    def tops(self, seat: int) -> list[tuple[str, int, str]]:
        """(source, owner, card) of every card the player may build with now (one entry
        for each distinct hand card)."""
        out = [("hand", seat, c) for c in sorted(set(self.hands[seat]))]
        if self.stocks[seat]:
            out.append(("stock", seat, self.stocks[seat][-1]))
        access = self.opts["discard_access"]
        for owner in range(self.n):
            if owner != seat and (access == "own_only" or (
                    access == "own_plus_one" and owner in self.taken)):
                continue
            for p in (0, 1):
                if self.discards[owner][p]:
                    out.append((f"discard{p}", owner, self.discards[owner][p][-1]))
        return out

    def take(self, seat: int, src: str, owner: int, card: str) -> None:
        if src == "hand":
            self.hands[seat].remove(card)
        elif src == "stock":
            assert self.stocks[seat].pop() == card
        else:
            assert self.discards[owner][int(src[-1])].pop() == card
            if owner != seat:
                self.taken.add(owner)

    def lay(self, seat: int, wall_no: int, card: str, value: int, invert: bool) -> None:
        wall = self.walls[wall_no] or {"cards": [], "top": 0, "inverts": 0}
        wall["inverts"] += int(invert)
        wall["cards"].append(card)
        wall["top"] = value
        self.walls[wall_no] = wall
        up = wall["inverts"] % 2 == 0
        if (up and value == 10) or (not up and value == 1):
            back = wall["cards"] + (["invert"] * wall["inverts"] if self.opts["inverts_back"]
                                    else [])
            self.out += len(wall["cards"]) + wall["inverts"] - len(back)
            self.draw += back
            self.rnd.shuffle(self.draw)
            self.walls[wall_no] = None
        if not self.stocks[seat]:
            self.over = True
        elif not self.hands[seat]:
            self.refill(seat)

    def next_turn(self) -> None:
        self.current = (self.current + 1) % self.n
        self.taken = set()
        self.refill(self.current)


def check(state: dict[str, Any], sim: Sim) -> None:
    assert sim.total() == len(sim.deck) == state["deck_size"] == accounted(state)
    assert state["hands"] == [len(h) for h in sim.hands]
    assert state["draw"] == len(sim.draw) and state["out"] == sim.out
    assert [s["count"] for s in state["stocks"]] == [len(s) for s in sim.stocks]
    for s, real in zip(state["stocks"], sim.stocks, strict=True):
        assert s["top"] is None or s["top"] == real[-1]
    assert state["discards"] == sim.discards
    assert state["walls"] == sim.walls
    assert state["current"] == sim.current and state["ended"] == sim.over


def act(state: dict[str, Any], action: dict[str, Any], actor: Actor, seq: int):
    before = copy.deepcopy(state)
    result = GAME.apply(state, action, Context(actor, random.Random(seq)))
    assert state == before, "apply mutated its input"
    return result


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4),
       access=st.sampled_from(["own_plus_one", "own_only", "any"]),
       inverts_back=st.booleans(), stock_size=st.sampled_from([3, 6, 10]))
def test_random_games_keep_every_card_accounted_for(seed, players, access, inverts_back,
                                                    stock_size):
    rnd = random.Random(seed)  # (the table's shuffles and the players' choices)
    opts = {o.name: o.default for o in GAME.options} | {
        "discard_access": access, "inverts_back": inverts_back, "stock_size": stock_size,
        "first_player": rnd.randrange(players)}
    sim = Sim(rnd, players, opts)
    names = [f"P{i}" for i in range(players)]
    state = GAME.setup(names, opts, random.Random(0))
    seq = 0
    for seat in range(players):  # everyone turns his stock's top at the start
        seq += 1
        res = act(state, {"type": "reveal_stock", "seat": seat, "card": sim.stocks[seat][-1]},
                  HOST, seq)
        assert isinstance(res, Accepted)
        state = res.state
    check(state, sim)
    for _step in range(250):
        if sim.over:
            break
        seat = sim.current
        me = Actor(seat=seat)
        seq += 1
        tops = sim.tops(seat)
        plays = []
        for i, (src, owner, card) in enumerate(tops):
            if card == "invert":
                continue
            for w in range(3):
                wall = sim.walls[w]
                value = sim.need(wall) if card == "joker" else int(card)
                if value == sim.need(wall):
                    plays.append((src, owner, card, w, value, None))
                partner = sim.partner(wall)
                if partner is not None and (card == "joker" or int(card) == partner):
                    for j, (isrc, iowner, icard) in enumerate(tops):
                        if icard != "invert" or j == i:
                            continue
                        if (isrc, iowner) == (src, owner) and src != "hand":
                            continue  # (the card under an Invert is not known yet)
                        if (isrc != "hand" and iowner != seat and src != "hand"
                                and owner == iowner and access == "own_plus_one"):
                            continue
                        plays.append((src, owner, card, w, partner, (isrc, iowner)))
        # now and then a card that may not go there, refused without a change
        wrong = [c for c in sim.hands[seat] if c in NUMBERS
                 and all(int(c) != sim.need(sim.walls[w]) for w in range(3))]
        if wrong and rnd.random() < 0.2:
            res = act(state, {"type": "play", "card": wrong[0], "wall": 0, "from": "hand"},
                      me, seq)
            assert isinstance(res, Rejection) and res.code == "wrong_card"
        if plays and rnd.random() < 0.8:
            src, owner, card, w, value, inv = rnd.choice(plays)
            action: dict[str, Any] = {"type": "play", "card": card, "wall": w, "from": src}
            if src.startswith("discard"):
                action["owner"] = owner
            if inv:
                action["invert"] = inv[0]
                if inv[0].startswith("discard"):
                    action["invert_owner"] = inv[1]
                sim.take(seat, inv[0], inv[1], "invert")
            sim.take(seat, src, owner, card)
            asked = inv is None and rnd.random() < 0.2
            if asked:  # the camera's way: judged first, its source told after
                res = act(state, {**action, "from": None, "owner": None}, me, seq)
                assert isinstance(res, Accepted), res
                state = res.state
                seq += 1
                action = {"type": "source", "from": src, "owner": owner}
            res = act(state, action, me, seq)
            assert isinstance(res, Accepted), (action, res)
            state = res.state
            sim.lay(seat, w, card, value, inv is not None)
            took_stock = src == "stock" or (inv is not None and inv[0] == "stock")
            if took_stock and sim.stocks[seat] and not sim.over:
                seq += 1
                res = act(state, {"type": "reveal_stock", "card": sim.stocks[seat][-1]}, me, seq)
                assert isinstance(res, Accepted), res
                state = res.state
        elif sim.hands[seat]:
            card = rnd.choice(sim.hands[seat])
            pile = rnd.randrange(2)
            sim.hands[seat].remove(card)
            sim.discards[seat][pile].append(card)
            res = act(state, {"type": "discard", "card": card, "pile": pile}, me, seq)
            assert isinstance(res, Accepted), res
            state = res.state
            sim.next_turn()
        else:
            res = act(state, {"type": "end_turn"}, me, seq)
            assert isinstance(res, Accepted), res
            state = res.state
            sim.next_turn()
        check(state, sim)
    if sim.over:
        winner = GAME.outcome(state)["winners"]
        assert winner == [next(i for i, s in enumerate(sim.stocks) if not s)]
