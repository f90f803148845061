"""Any JSON a phone can send, at any step of a game: ``apply`` never raises and never
mutates its input; a refusal has a code and a message that renders."""

from __future__ import annotations

import copy
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.base import HOST, Accepted, Actor, Context, Rejection
from companion.games.kingsburg import GAME
from companion.games.kingsburg.actions import ACTIONS
from tests.games.kingsburg.conftest import Table, random_action

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 30) | st.floats(allow_nan=True)
    | st.sampled_from(["gold", "wood", "stone", "plus2", "statue", "chapel", "2-5", "orcs", ""]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(
        st.sampled_from(["seat", "dice", "white", "values", "advisor", "plus2", "market",
                         "envoy", "goods", "give", "pay", "building", "soldiers", "value",
                         "card", "enemy", "year", "phase", "order", "players", "season",
                         "kind", "strength", "win", "lose", "die", "advisors", "turn"]),
        inner, max_size=6),
    max_leaves=20)
TYPES = st.sampled_from([a.type for a in ACTIONS] + ["nope", None, 3])


def states() -> list[dict]:
    """States at every kind of step, from one random game."""
    rnd = random.Random(5)
    t = Table(2, 5, two_player_block=True)
    out, seen = [], set()
    while not t.state["ended"] and len(out) < 40:
        key = (t.state["phase"], t.state["step"], bool(t.state["pending"]))
        if key not in seen:
            seen.add(key)
            out.append(copy.deepcopy(t.state))
        action, seat = random_action(t.state, rnd)
        t.do(action, seat)
    out.append(t.state)
    return out


STATES = states()


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(k=st.integers(0, len(STATES) - 1), kind=TYPES, body=st.dictionaries(
    st.sampled_from(["seat", "dice", "white", "values", "advisor", "plus2", "market", "envoy",
                     "goods", "give", "pay", "building", "soldiers", "value", "card", "enemy",
                     "year", "phase", "order", "players", "season", "die", "buildings", "vp",
                     "gold"]), JSON, max_size=5), who=st.sampled_from([None, 0, 1]))
def test_apply_never_raises_nor_mutates(k, kind, body, who):
    state = STATES[k]
    before = copy.deepcopy(state)
    actor = HOST if who is None else Actor(seat=who)
    result = GAME.apply(state, {"type": kind, **body}, Context(actor, random.Random(0)))
    assert state == before
    assert isinstance(result, (Accepted, Rejection))
    if isinstance(result, Rejection):
        assert result.code and result.render()
    else:
        GAME.public_view(result.state)
        GAME.player_view(result.state, 0)
