"""Random games driven by hypothesis against a simulated physical table.

The simulation holds the real cards (hands, draw pile, discard pile) and plays by the rules
sheet; the referee sees only what the table shows. After every action: every card is accounted
for (hands + draw pile + discard pile = 112 minus the blanks left out), the referee's counts,
piles, turn and direction agree with the simulation, and illegal cards are refused without
changing anything.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.uno import GAME
from companion.games.uno.deck import COLOURS, colour_of, deck_counts, is_legal, points, symbol


class Sim:
    """The physical table: real cards, shuffled by the test's own random generator."""

    def __init__(self, rnd: random.Random, n: int, custom: int) -> None:
        self.rnd, self.n = rnd, n
        self.draw = [c for c, k in deck_counts(custom).items() for _ in range(k)]
        rnd.shuffle(self.draw)
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.discard: list[str] = []
        self.direction = 1
        self.current: int | None = None
        self.pending: tuple[int, int] | None = None  # (victim, amount)
        self.top: str | None = None
        self.colour: str | None = None

    def nxt(self, seat: int, steps: int = 1) -> int:
        return (seat + self.direction * steps) % self.n

    def take(self, seat: int, k: int) -> None:
        for _ in range(k):
            if not self.draw:  # R18: keep the top card, shuffle the rest
                movable = self.discard[:-1]
                if not movable:
                    return  # U9
                self.rnd.shuffle(movable)
                self.draw, self.discard = movable, self.discard[-1:]
            self.hands[seat].append(self.draw.pop())

    def total(self) -> int:
        return sum(map(len, self.hands)) + len(self.draw) + len(self.discard)


def check(t, sim: Sim, deck: int) -> None:
    r = t.r
    assert sim.total() == deck
    assert sum(r["counts"]) + r["draw_pile"] + len(r["discard"]) == deck
    assert r["counts"] == [len(h) for h in sim.hands]
    assert r["draw_pile"] == len(sim.draw) and r["discard"] == sim.discard
    if t.state["phase"] == "play" and r["awaiting"] is None:
        assert (r["current"], r["direction"], r["colour"]) == (sim.current, sim.direction,
                                                               sim.colour)
        assert (r["pending"] and (r["pending"]["victim"], r["pending"]["amount"])) == (
            sim.pending or None)
        if r["challenge"] is None:
            assert "draw" in GAME.player_view(t.state, sim.current)["me"]["can"]


def play_round(t, sim: Sim, rnd: random.Random, deck: int, steps: int) -> int:
    """Deal, turn up the first card, play until someone goes out; returns the steps left."""
    dealer = t.state["dealer"]
    for seat in range(sim.n):
        sim.take(seat, t.state["options"]["hand_size"])
    while True:  # R24-R26: some wilds go back into the middle of the deck
        card = sim.draw.pop()
        events = t.do({"type": "turn_up", "card": card})
        if events[0]["type"] != "put_back":
            break
        sim.draw.insert(len(sim.draw) // 2, card)
    sim.discard, sim.top, sim.colour, sim.direction = [card], card, colour_of(card), 1
    first = sim.nxt(dealer)
    sim.current, sim.pending = first, None
    if symbol(card) == "draw2":
        sim.pending = (first, 2)
    elif symbol(card) == "reverse":
        sim.direction, sim.current = -1, dealer
    elif symbol(card) == "skip":
        sim.current = sim.nxt(dealer, 2)
    elif card == "wild":
        sim.colour = rnd.choice(COLOURS)
        t.do({"type": "choose", "colour": sim.colour}, first)
    check(t, sim, deck)
    while t.state["phase"] == "play" and steps > 0:
        steps -= 1
        turn(t, sim, rnd)
        check(t, sim, deck)
    return steps


def turn(t, sim: Sim, rnd: random.Random) -> None:
    seat = sim.current
    if sim.pending is not None:
        victim, amount = sim.pending
        if amount == 4 and t.r["pending"]["by"] is not None and rnd.random() < 0.4:
            challenge(t, sim, rnd)
            return
        if rnd.random() < 0.3:  # the next player just plays: the victim took his cards
            nxt = sim.nxt(victim)
            legal = [c for c in sim.hands[nxt] if is_legal(c, sim.top, sim.colour)
                     and c not in ("wild-draw4", "wild-swap")]
            if legal:
                sim.take(victim, amount)
                sim.pending, sim.current = None, nxt
                play(t, sim, rnd, nxt, rnd.choice(legal))
                return
        t.draw(victim)
        sim.take(victim, amount)
        sim.pending, sim.current = None, sim.nxt(victim)
        return
    hand = sim.hands[seat]
    illegal = [c for c in hand if not is_legal(c, sim.top, sim.colour)]
    if illegal and rnd.random() < 0.2:
        t.no({"type": "play", "card": rnd.choice(illegal)}, seat, code="illegal_card")
    legal = [c for c in hand if is_legal(c, sim.top, sim.colour)
             and not (c == "wild-swap" and len(hand) == 1)]
    if legal and rnd.random() < 0.75:
        play(t, sim, rnd, seat, rnd.choice(legal))
        return
    draw_step(t, sim, rnd, seat)


def draw_step(t, sim: Sim, rnd: random.Random, seat: int) -> None:
    """``seat`` draws (R5/R8), then plays the drawn card, passes, or lets the next player's
    action end his turn (R6)."""
    nothing = not sim.draw and len(sim.discard) <= 1
    drawn_card = sim.draw[-1] if sim.draw else None
    named = bool(drawn_card) and rnd.random() < 0.5
    t.draw(seat, **({"card": drawn_card} if named else {}))
    if nothing:  # U9: nothing to draw, the turn passed
        sim.current = sim.nxt(seat)
        return
    sim.take(seat, 1)
    new = sim.hands[seat][-1]
    playable = is_legal(new, sim.top, sim.colour)
    if playable and new != "wild-swap" and rnd.random() < 0.6:
        play(t, sim, rnd, seat, new)
        return
    sim.current = nxt = sim.nxt(seat)
    if named and not playable:  # R6: the named card cannot be played, his turn ended
        assert t.turn == nxt
    elif rnd.random() < 0.5:
        t.do({"type": "pass"}, seat)
        return
    legal = [c for c in sim.hands[nxt] if is_legal(c, sim.top, sim.colour)
             and not (c == "wild-swap" and len(sim.hands[nxt]) == 1)]
    if legal and rnd.random() < 0.5:
        play(t, sim, rnd, nxt, rnd.choice(legal))
    else:
        draw_step(t, sim, rnd, nxt)


def play(t, sim: Sim, rnd: random.Random, seat: int, card: str) -> None:
    hand = sim.hands[seat]
    if len(hand) == 2 and rnd.random() < 0.5:
        t.do({"type": "uno"}, seat)
    extra: dict[str, Any] = {}
    colour = rnd.choice(COLOURS)
    others = [s for s in range(sim.n) if s != seat]
    target = rnd.choice(others)
    tap_later = colour_of(card) is None and rnd.random() < 0.3
    if colour_of(card) is None and not tap_later:
        extra["colour"] = colour
        if card == "wild-swap":
            extra["target"] = target
    t.play(card, seat, **extra)
    hand.remove(card)
    sim.discard.append(card)
    sim.top, before = card, sim.colour
    if not hand:  # R27, R28
        if symbol(card) in ("draw2", "wild-draw4"):
            sim.take(sim.nxt(seat), 2 if symbol(card) == "draw2" else 4)
        return
    if tap_later:
        t.do({"type": "choose", "colour": colour, "target": target}, seat)
    sim.colour = colour_of(card) or colour
    if len(hand) == 1 and t.r["catchable"] == [seat] and rnd.random() < 0.5:
        catcher = rnd.choice(others)
        t.do({"type": "catch", "target": seat}, catcher)
        sim.take(seat, 2)
    effect = symbol(card)
    if effect == "skip":
        sim.current = sim.nxt(seat, 2)
    elif effect == "reverse":
        sim.direction = -sim.direction
        sim.current = seat if sim.n == 2 else sim.nxt(seat)
    elif effect == "draw2":
        sim.pending = (sim.nxt(seat), 2)
        sim.current = sim.nxt(seat)
    elif effect == "wild-draw4":
        sim.pending = (sim.nxt(seat), 4)
        sim.current = sim.nxt(seat)
        sim.accused = (seat, before)
    else:
        if card == "wild-swap":
            sim.hands[seat], sim.hands[target] = sim.hands[target], sim.hands[seat]
        sim.current = sim.nxt(seat)


def challenge(t, sim: Sim, rnd: random.Random) -> None:
    victim, _ = sim.pending
    accused, colour = sim.accused
    t.do({"type": "challenge"}, victim)
    guilty = any(colour_of(c) == colour for c in sim.hands[accused])
    if rnd.random() < 0.5:
        t.do({"type": "show_hand", "cards": list(sim.hands[accused])}, accused)
    else:
        t.do({"type": "verdict", "guilty": guilty}, victim)
    sim.pending = None
    if guilty:
        sim.take(accused, 4)
        sim.current = victim
    else:
        sim.take(victim, 6)
        sim.current = sim.nxt(victim)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6), hand_size=st.integers(1, 7),
       custom=st.integers(0, 3))
def test_random_games_account_for_every_card_and_follow_the_turn_order(
        table, seed, players, hand_size, custom):
    rnd = random.Random(seed)
    t = table(players=players, dealer=rnd.randrange(players), first=None, hand_size=hand_size,
              custom_wilds=custom, target=150)
    deck = 109 + custom
    steps = 400
    while steps > 0 and not t.state["ended"]:
        sim = Sim(rnd, players, custom)
        sim.accused = None
        steps = play_round(t, sim, rnd, deck, steps)
        if t.state["phase"] != "scoring":
            break
        winner = t.r["winner"]
        hands = [list(h) for h in sim.hands]
        assert hands[winner] == []
        t.do({"type": "end_round", "hands": hands})
        left = sum(points(c, t.state["options"]) for h in hands for c in h)
        assert t.state["rounds"][-1]["winner"] == winner
        assert GAME.public_view(t.state)["rounds"][-1]["points"][winner] == left
        if t.state["phase"] == "round_over":
            t.do({"type": "next_round"}, rnd.randrange(players))
