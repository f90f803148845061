"""Random games seen through the camera (hypothesis): the simulated table of
``test_random_games`` plays by legal choices, and each change it makes is what a camera
watching the zones reports (a pile's top taken: its new top or nothing; a card landing on a
wall; a discard); ``on_card_seen`` turns it into actions, and where it cannot tell a card's
source the player answers on the phone (``source``), as the phone page does. The referee must
end every step in the table's true state, with every card accounted for."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.base import Accepted, Actor
from companion.games.huangdi import GAME
from tests.games.huangdi.test_random_games import Sim, act, check


class Camera:
    """Feeds what the camera would see to the referee, as the camera bridge does."""

    def __init__(self, state: dict[str, Any]) -> None:
        self.state = state
        self.seq = 1000
        self.asked = 0

    def see(self, zone: str, label: str | None, again: bool = False) -> dict[str, Any] | None:
        action = GAME.on_card_seen(self.state, zone, label, 1.0, t_ns=1, again=again)
        if action is None:
            return None
        self.seq += 1
        res = act(self.state, action, Actor(seat=action.get("seat"), source="camera"),
                  self.seq)
        assert isinstance(res, Accepted), (zone, label, action, res)
        self.state = res.state
        return action

    def answer(self, seat: int, **fields: Any) -> None:
        """The player taps where the card came from."""
        self.seq += 1
        self.asked += 1
        res = act(self.state, {"type": "source", **fields}, Actor(seat=seat), self.seq)
        assert isinstance(res, Accepted), (fields, res)
        self.state = res.state


def _looks_new(cards: list[str], card: str) -> bool:
    """Whether ``card`` discarded on ``cards`` shows the camera a change it reads as such."""
    return not cards or (cards[-1] != card and (len(cards) < 2 or cards[-2] != card))


def _zone(src: str, owner: int) -> str:
    return f"stock-{owner}" if src == "stock" else f"discard-{owner}-{int(src[-1]) + 1}"


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 3),
       stock_size=st.sampled_from([4, 10]))
def test_random_games_seen_by_the_camera(seed, players, stock_size):
    rnd = random.Random(seed)
    opts = {o.name: o.default for o in GAME.options} | {"stock_size": stock_size}
    sim = Sim(rnd, players, opts)
    cam = Camera(GAME.setup([f"P{i}" for i in range(players)], opts, random.Random(0)))
    for seat in range(players):
        cam.see(f"stock-{seat}", sim.stocks[seat][-1])  # turned up at the start
    check(cam.state, sim)
    for _step in range(200):
        if sim.over:
            break
        seat = sim.current
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
                if partner is not None and card != "joker" and int(card) == partner:
                    for j, (isrc, iowner, icard) in enumerate(tops):
                        same_place = (isrc, iowner) == (src, owner) and src != "hand"
                        one_opponent = (src.startswith("discard") and isrc.startswith("discard")
                                        and owner == iowner != seat)
                        if icard == "invert" and j != i and not same_place and not one_opponent:
                            plays.append((src, owner, card, w, partner, (isrc, iowner)))
        if plays and rnd.random() < 0.8:
            src, owner, card, w, value, inv = rnd.choice(plays)
            for s, o, c in ([(inv[0], inv[1], "invert")] if inv else []) + [(src, owner, card)]:
                sim.take(seat, s, o, c)
                if s != "hand":  # the pile's new top (the stock's turned up at once)
                    pile = sim.stocks[o] if s == "stock" else sim.discards[o][int(s[-1])]
                    cam.see(_zone(s, o), pile[-1] if pile else None)
            twin = sim.walls[w] is not None and sim.walls[w]["cards"][-1] == card
            action = cam.see(f"wall-{w + 1}", card, again=twin)  # (a joker on a joker)
            assert action is not None and action["type"] == "play"
            pending = cam.state["pending"]
            if pending is not None:  # the phone asks; the player answers
                fields: dict[str, Any] = {}
                if pending["from"] is None:
                    fields |= {"from": src, "owner": owner}
                    if src == "stock" and sim.stocks[seat]:
                        fields["next"] = sim.stocks[seat][-1]
                if pending["invert"] and pending["invert_from"] is None:
                    fields |= {"invert": inv[0], "invert_owner": inv[1]}
                cam.answer(seat, **fields)
            sim.lay(seat, w, card, value, inv is not None)
            if sim.walls[w] is None:
                assert cam.see(f"wall-{w + 1}", None) is None  # the wall taken away
            if not sim.over and sim.stocks[seat]:
                if cam.state["stocks"][seat]["top"] is None:
                    # (its twin turned up where it lay: no change the camera can see; the
                    # phone asks the player to name the stock's new top)
                    cam.seq += 1
                    res = act(cam.state, {"type": "reveal_stock", "card": sim.stocks[seat][-1]},
                              Actor(seat=seat), cam.seq)
                    assert isinstance(res, Accepted), res
                    cam.state = res.state
                assert cam.state["stocks"][seat]["top"] == sim.stocks[seat][-1]
        elif sim.hands[seat]:
            card = rnd.choice(sim.hands[seat])
            pile = rnd.randrange(2)
            # (a card like the top, or like the card under it, reads as no change or as the
            # top taken: such a discard is tapped; here the other pile is used, or none)
            if not _looks_new(sim.discards[seat][pile], card):
                pile = 1 - pile
                if not _looks_new(sim.discards[seat][pile], card):
                    continue
            sim.hands[seat].remove(card)
            sim.discards[seat][pile].append(card)
            action = cam.see(f"discard-{seat}-{pile + 1}", card)
            assert action is not None and action["type"] == "discard", action
            sim.next_turn()
        else:
            cam.seq += 1
            res = act(cam.state, {"type": "end_turn"}, Actor(seat=seat), cam.seq)
            assert isinstance(res, Accepted)
            cam.state = res.state
            sim.next_turn()
        check(cam.state, sim)
