"""A whole Versus game through the table service: scripted camera sightings and scripted
button presses on gpiozero MockFactory pins, with their edge times injected."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.config import Config
from companion.events import CardSeen, ZoneCleared
from companion.games.base import HOST, Accepted, Actor, Context
from companion.games.versus import GAME
from companion.table import replay
from hardware.runtime import start
from hardware.testing import ManualTicksFactory, bounce
from tests.games.versus.referee import CAMERA, MS, Referee

PINS = [5, 6, 13, 19]


class Table:
    def __init__(self, service, clock, players=("Ana", "Bruno", "Chen", "Dara"), **options):
        self.service, self.clock = service, clock
        self.table = service.create_table("versus", list(players), "2468", options=options,
                                          seed=7)
        self.pins = ManualTicksFactory(start_ns=clock.monotonic_ns())
        self.hw = start(Config(button_pins=PINS[: len(players)]), service, clock, keys=False,
                        factory=self.pins, background=False)
        self.t_ms = 1000.0

    @property
    def state(self):
        return self.service.get(self.table.id).state

    def at(self, t_ms: float) -> int:
        """Move the clock (and the pins' ticks) to t_ms after the start."""
        t_ns = self.pins_start + int(t_ms * MS)
        self.clock.advance(ns=t_ns - self.clock.monotonic_ns())
        self.pins.now_ns = t_ns
        return t_ns

    @property
    def pins_start(self) -> int:
        return 1_000_000_000

    def flip(self, seat: int, card: str | None, t_ms: float) -> None:
        """The camera's zone watcher reports a stable top (CardSeen), or a cleared zone."""
        t_ns = self.pins_start + int(t_ms * MS)
        if card is None:
            seen = ZoneCleared(f"discard-{seat}", t_ns)
            action = GAME.on_card_seen(self.state, seen.zone, None, 0.0, t_ns=seen.t_ns)
        else:
            seen = CardSeen(f"discard-{seat}", card, 0.97, t_ns)
            action = GAME.on_card_seen(self.state, seen.zone, seen.label, seen.confidence,
                                       t_ns=seen.t_ns, signature=seen.signature)
        self.service.submit(self.table.id, action, CAMERA)

    def slap(self, *presses: tuple[int, float], before_judging=None) -> list:
        """Presses (seat, ms) through the pins, bouncing; the race is judged once the clock
        passes its window (``before_judging`` runs first: what the camera reports meanwhile).
        Returns the published updates."""
        edges = []
        for seat, t_ms in presses:
            t_ns = self.pins_start + int(t_ms * MS)
            edges += [(t, PINS[seat], lv) for t, lv in bounce(t_ns, 0)]
            edges += [(t, PINS[seat], lv) for t, lv in bounce(t_ns + 120 * MS, 1)]
        for t, pin, level in sorted(edges):
            self.at_ns(t)
            self.pins.drive(pin, [(t, level)])
        if before_judging is not None:
            before_judging()
        last = max(ms for _, ms in presses)
        self.at(last + 200)
        self.hw.buttons.poll()
        return self.hw.router.poll()

    def at_ns(self, t_ns: int) -> None:
        if t_ns > self.clock.monotonic_ns():
            self.clock.advance(ns=t_ns - self.clock.monotonic_ns())
        self.pins.now_ns = t_ns

    def host(self, action: dict) -> None:
        self.service.submit(self.table.id, action, HOST)


def test_a_whole_game_from_the_camera_and_the_buttons(service, clock):
    t = Table(service, clock, gems=6)
    try:
        # Round 1: Ana star, Bruno moon, Chen star -> Dara slaps first, Bruno 100 us later.
        t.flip(0, "star", 1000)
        t.flip(1, "moon", 1400)
        t.flip(2, "star", 1800)
        ups = t.slap((3, 2000.1), (1, 2000.0))
        verdict = ups[0].events[0]
        assert verdict["type"] == "verdict" and verdict["kind"] == "tie"  # inside 1 ms
        t.host({"type": "settle_tie", "winner": 3})
        t.service.submit(t.table.id, {"type": "give_gem", "to": 0}, Actor(seat=3))
        s = t.state
        assert [p["gems"] for p in s["seats"]] == [1, 0, 0, 1] and s["gem_deck"] == 4
        assert [p["draw"] for p in s["seats"]] == [11, 11, 11, 15]
        # The winner collects the piles; the camera sees them cleared.
        for seat in range(3):
            t.flip(seat, None, 2600 + seat)
        # Round 2: Dara flips a sun; Chen slaps at nothing, a wrong slap (more than 2 s
        # after the won slap: until then the collected pair, the winner's hand gathering
        # it, was late to slap, GATHER_NS); then play goes on.
        t.flip(3, "sun", 4000)
        t.slap((2, 4100))
        s = t.state
        assert s["races"][-1]["wrong"] == [2] and s["seats"][2]["penalty"] is not None
        penalty = s["seats"][2]["penalty"]
        t.flip(0, "moon", 4400)
        t.flip(1, "sun", 4800)
        # Bruno slaps 23 ms before Ana: right; Chen's penalty ends with this slap.
        ups = t.slap((0, 5023), (1, 5000))
        v = ups[0].events[0]
        assert v["kind"] == "right" and v["winner"] == 1
        # Ana's press, 23 ms later, is outside the tie window: it joins the race afterwards.
        assert ups[1].events[0]["type"] == "race_updated"
        order = ups[1].events[0]["order"]
        assert [(e["seat"], e["gap_ns"], e["status"]) for e in order] == [
            (1, 0, "right"), (0, 23 * MS, "late")]
        s = t.state
        assert s["seats"][2]["penalty"] is None and s["penalty_deck"][-1] == penalty
        assert s["gem_deck"] == 2 and s["gifts_due"] == [1] and not s["ended"]
        t.service.submit(t.table.id, {"type": "give_gem", "to": 3}, Actor(seat=1))
        # The winner picks the piles up. Then Chen's moon pairs Ana's moon; Dara slaps, but
        # her press reaches the referee only after the camera saw Ana's next flip cover the
        # moon 40 ms later: judged by its timestamp, it is right.
        for seat in (0, 1, 3):
            t.flip(seat, None, 5600 + seat)
        t.flip(2, "moon", 6000)
        t.flip(3, "leaf", 6400)
        t.flip(0, "moon", 6800)
        ups = t.slap((3, 7000), before_judging=lambda: t.flip(0, "rock", 7040))
        v = ups[0].events[0]
        assert v["kind"] == "right" and v["winner"] == 3
        t.service.submit(t.table.id, {"type": "give_gem", "to": 1}, Actor(seat=3))
        live = service.get(t.table.id)
        out = GAME.outcome(live.state)
        assert out == {"winners": [3], "scores": [1, 2, 0, 3], "eliminated": []}
        assert sum(p["draw"] + p["discard"] for p in live.state["seats"]) == 48
        # The log replays to exactly the same state.
        assert replay(live.record, live.game, live.log) == live.state
        history = service.history(t.table.id, host=True)
        assert any(e["body"]["type"] == "settle_tie" and e["actor"]["host"] for e in history)
    finally:
        t.hw.stop()


# -- apply never raises and never mutates, whatever a phone sends -------------------------
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=12,
)
field_names = st.sampled_from(["seat", "card", "t_ns", "presses", "signature", "to", "winner",
                               "wrong", "reslap", "penalty", "draw", "discard", "gems", "out",
                               "gem_deck", "turn", "race", "from"])
action_types = st.sampled_from([a.type for a in GAME.actions] + ["nope", 3, None])
press = st.fixed_dictionaries({"seat": st.integers(-1, 5), "t_ns": st.integers(-5, 2**64)})
actions = st.builds(
    lambda kind, fields, presses: {"type": kind, **fields, **presses},
    action_types,
    st.dictionaries(field_names, json_values, max_size=4),
    st.one_of(st.just({}), st.builds(lambda p: {"presses": p}, st.lists(press, max_size=4))),
)
actors = st.sampled_from([HOST, CAMERA, Actor(source="button"), Actor(seat=1), Actor()])


def _busy_state():
    r = Referee(4)
    for seat, card in enumerate(["star", "moon", "star", "sun"]):
        r.flip(seat, card, 1000 + seat)
    r.slap((1, 2000), (3, 2000.3))
    return r.state


BUSY = _busy_state()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(actions, actors), min_size=1, max_size=6))
def test_apply_never_raises_nor_mutates(steps):
    import json

    state = BUSY
    for i, (action, actor) in enumerate(steps):
        before = json.dumps(state, sort_keys=True)
        result = GAME.apply(state, action, Context(actor, random.Random(i), 0.0, i))
        assert json.dumps(state, sort_keys=True) == before
        if isinstance(result, Accepted):
            json.dumps(result.state)
            GAME.public_view(result.state)
            GAME.outcome(result.state)
            state = result.state
        else:
            assert result.code and result.render()


# -- random games keep the cards and the Gems -----------------------------------------------
def _cards(state) -> int:
    return sum(s["draw"] + s["discard"] for s in state["seats"])


def _gems(state) -> int:
    return state["gem_deck"] + sum(s["gems"] for s in state["seats"]) + len(state["gifts_due"])


play = st.lists(
    st.one_of(
        st.tuples(st.just("flip"), st.integers(0, 3), st.sampled_from(["a", "b", "c", None]),
                  st.integers(-300, 300)),
        st.tuples(st.just("slap"), st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3000)),
                                            min_size=1, max_size=4), st.none(), st.none()),
        st.tuples(st.just("gift"), st.integers(0, 3), st.none(), st.none()),
        st.tuples(st.just("tie"), st.integers(0, 3), st.booleans(), st.none()),
        st.tuples(st.just("overrule"), st.one_of(st.none(), st.integers(0, 3)),
                  st.lists(st.integers(0, 3), max_size=2, unique=True), st.none()),
    ),
    max_size=40,
)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(play)
def test_random_games_never_lose_a_card_or_a_gem(steps):
    r = Referee(4, gems=6, cards=24)
    now = 1000.0
    for kind, a, b, c in steps:
        now += 50
        if kind == "flip":  # c: how late the camera reports it (negative: stamped earlier)
            action = {"type": "pile_top", "seat": a, "card": b, "t_ns": int((now + c) * MS)}
            actor = CAMERA
        elif kind == "slap":
            action = {"type": "slap", "presses": [{"seat": s, "t_ns": int((now + d / 1000) * MS)}
                                                  for s, d in a]}
            actor = Actor(source="button")
        elif kind == "gift":
            action, actor = {"type": "give_gem", "to": a}, HOST
        elif kind == "tie":
            action = {"type": "settle_tie", "reslap": True} if b else {"type": "settle_tie",
                                                                       "winner": a}
            actor = HOST
        else:
            action = {"type": "overrule", "winner": a, "wrong": [w for w in b if w != a]}
            actor = HOST
        result = GAME.apply(r.state, action, Context(actor, random.Random(now), 0.0, 1))
        if isinstance(result, Accepted):
            r.state = result.state
            assert _cards(r.state) == 24, (action, result.events)
            assert _gems(r.state) == 6, (action, result.events)
            assert len(r.state["penalty_deck"]) + sum(
                1 for s in r.state["seats"] if s["penalty"]) == 4
            assert all(s["draw"] >= 0 and s["discard"] >= 0 for s in r.state["seats"])
