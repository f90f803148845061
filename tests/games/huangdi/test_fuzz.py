"""Any JSON a phone may send: ``apply`` never raises, never changes its input, refuses with a
code and a message that renders, and what it accepts keeps every card accounted for."""

from __future__ import annotations

import copy
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.base import HOST, Accepted, Actor, Context, Rejection
from companion.games.huangdi import GAME
from companion.games.huangdi.rules import accounted

TYPES = ["reveal_stock", "play", "source", "dismiss", "lifted", "discard", "end_turn",
         "end_game", "fly"]
CARDS = [*(str(n) for n in range(0, 12)), "joker", "invert", "Joker", ""]
SOURCES = ["hand", "stock", "discard0", "discard1", "discard2", "unknown", "pocket"]
scalar = st.one_of(st.none(), st.booleans(), st.integers(-3, 12), st.floats(allow_nan=True),
                   st.sampled_from(CARDS + SOURCES), st.text(max_size=5))
value = st.recursive(scalar, lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.text(max_size=4), inner, max_size=3), max_leaves=6)
action = st.fixed_dictionaries(
    {"type": st.sampled_from(TYPES)},
    optional={"card": st.one_of(st.sampled_from(CARDS), value),
              "from": st.one_of(st.sampled_from(SOURCES), value),
              "owner": st.one_of(st.integers(-1, 4), value),
              "invert": st.one_of(st.sampled_from(SOURCES), value),
              "invert_owner": st.one_of(st.integers(-1, 4), value),
              "invert_card": st.one_of(st.sampled_from(CARDS), value),
              "wall": st.one_of(st.integers(-1, 3), value),
              "pile": st.one_of(st.integers(-1, 2), value),
              "seat": st.one_of(st.integers(-1, 3), value),
              "next": st.one_of(st.sampled_from(CARDS), value)})
actor = st.sampled_from([HOST, Actor(seat=0), Actor(seat=1), Actor(seat=2),
                         Actor(seat=0, source="camera"), Actor()])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(moves=st.lists(st.tuples(st.one_of(action, value), actor), max_size=25),
       players=st.integers(2, 3))
def test_apply_never_raises_nor_mutates(moves, players):
    state = GAME.setup(["A", "B", "C"][:players], {}, random.Random(0))
    for i, (move, who) in enumerate(moves):
        before = copy.deepcopy(state)
        result = GAME.apply(state, move, Context(who, random.Random(i)))
        assert state == before
        if isinstance(result, Rejection):
            assert result.code and result.render()
            continue
        assert isinstance(result, Accepted)
        state = result.state
        assert accounted(state) == state["deck_size"]
        assert all(h >= 0 for h in state["hands"]) and state["draw"] >= 0
        GAME.public_view(state)
        for zone in ("wall-1", "stock-0", "discard-1-2", "x"):
            for label in (None, "3", "invert", "joker"):
                seen = GAME.on_card_seen(state, zone, label, 0.9, best="2")
                assert seen is None or isinstance(seen, dict)
