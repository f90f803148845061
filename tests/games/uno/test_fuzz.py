"""Any JSON a phone can send, from anyone, in any phase: ``apply`` never raises, never mutates
its input, and what it accepts still accounts for every card and can be viewed and stored."""

from __future__ import annotations

import copy
import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cards import uno_names
from companion.games.base import Accepted, Actor, Context, Rejection
from companion.games.uno import GAME
from companion.games.uno.game import HANDLERS

_STATES: list[dict] = []


def scenarios(table) -> list[dict]:
    """States from every phase and every waiting situation of the referee."""
    if _STATES:
        return _STATES
    out = [table(players=3, dealer=None, first=None).state,
           table(players=4, first=None).state]
    t = table(players=3, first="blue-7", seven_zero=True, jump_in=True, stack_draw2=True,
              custom_wilds=2, draw_until_playable=True)
    out.append(t.state)
    t.draw(1, card="blue-2")
    out.append(t.state)
    t.play("blue-2", 1)
    t.play("wild")
    out.append(t.state)  # waiting for a colour
    t.do({"type": "choose", "colour": "red"}, 2)
    t.play("red-draw2", 0)
    out.append(t.state)  # pending Draw Two, stacking allowed
    t.draw(1)
    t.do({"type": "adjust_count", "seat": 2, "count": 2})
    t.play("red-7", 2)
    out.append(t.state)  # a 7 waiting for its target, seat 2 catchable
    t.do({"type": "choose", "target": 1}, 2)
    t.play("wild-draw4", 0, colour="green")
    out.append(t.state)
    t.do({"type": "challenge"}, 1)
    out.append(t.state)
    t.do({"type": "propose", "card": "green-1"}, 2)
    out.append(t.state)
    t = table(players=2, first="blue-7")
    t.do({"type": "adjust_count", "seat": 1, "count": 1})
    t.play("blue-draw2", 1)
    out.append(t.state)  # scoring
    t.do({"type": "count_card", "seat": 0, "card": "wild"}, 0)
    out.append(t.state)
    t.do({"type": "end_round",
          "hands": [["wild"] * 4 + ["red-1", "red-2", "red-3", "red-4", "red-5"], []]})
    out.append(t.state)  # round over
    t.do({"type": "end_match"})
    out.append(t.state)
    _STATES.extend(out)
    return out


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 2**40) | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=4),
    max_leaves=12)
cardish = st.sampled_from([*uno_names(), "nope", "AS"]) | json_values
seatish = st.integers(-2, 11) | json_values
actions = json_values | st.fixed_dictionaries(
    {"type": st.sampled_from([*HANDLERS, "bogus"])},
    optional={"card": cardish, "colour": st.sampled_from(["red", "blue", "pink"]) | json_values,
              "target": seatish, "seat": seatish, "dealer": seatish, "round": seatish,
              "count": seatish, "guilty": st.booleans() | json_values,
              "cards": st.lists(cardish, max_size=8),
              "hands": st.lists(st.lists(cardish, max_size=8) | seatish, max_size=4)
              | json_values})
actors = st.builds(Actor, seat=st.none() | st.integers(-1, 11), host=st.booleans(),
                   source=st.sampled_from(["web", "camera", "host", "button"]))


@settings(max_examples=600, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(index=st.integers(0, 100), action=actions, actor=actors)
def test_apply_never_raises_or_mutates_for_any_json(table, index, action, actor):
    states = scenarios(table)
    state = states[index % len(states)]
    before = copy.deepcopy(state)
    result = GAME.apply(state, action, Context(actor, random.Random(0)))
    assert state == before
    assert isinstance(result, Accepted | Rejection)
    if isinstance(result, Rejection):
        result.render()
        assert all(isinstance(v, str | int) for v in result.params.values()), result
        return
    new = result.state
    json.dumps(new, allow_nan=False)
    json.dumps(result.events, allow_nan=False)
    if new["round"] is not None and new["phase"] not in ("first_card",):
        r = new["round"]
        assert sum(r["counts"]) + r["draw_pile"] + len(r["discard"]) == new["deck_size"]
        assert min(r["counts"]) >= 0 and r["draw_pile"] >= 0
    GAME.public_view(new)
    for seat in range(len(new["players"])):
        GAME.player_view(new, seat)


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(index=st.integers(0, 100), zone=st.sampled_from(["discard", "hand"]) | json_values,
       label=cardish, confidence=json_values)
def test_camera_hook_never_raises(table, index, zone, label, confidence):
    states = scenarios(table)
    action = GAME.on_card_seen(states[index % len(states)], zone, label, confidence)
    assert action is None or isinstance(action, dict)
