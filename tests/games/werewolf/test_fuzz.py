"""apply() never raises and never mutates its input, whatever JSON a phone sends, in every
phase of a game; the state stays plain JSON."""

from __future__ import annotations

import copy
import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.base import HOST, Accepted, Actor, Context, Rejection, resolve_options
from companion.games.werewolf import GAME
from companion.games.werewolf.game import HANDLERS


def _states() -> list[dict]:
    """States from every phase of a few played games."""
    out = []
    for seed, opts in enumerate(
        [
            {},
            {"deal": "players", "input": "host"},
            {"captain_election": "before_night1", "deal": "host"},
        ]
    ):
        rng = random.Random(seed)
        roles = {
            "werewolf": 2,
            "seer": 1,
            "witch": 1,
            "hunter": 1,
            "cupid": 1,
            "little_girl": 1,
            "thief": 1,
            "villager": 3,
        }
        s = GAME.setup(
            [f"p{i}" for i in range(9)],
            resolve_options(GAME.options, {"roles": roles, **opts}),
            rng,
        )
        out.append(s)
        now = 0.0
        for i in range(400):
            step = s["step"]
            if s["phase"] == "setup":
                if opts.get("deal") in ("host", "players"):
                    cards = [r for r, c in s["role_set"].items() for _ in range(c)]
                    rng.shuffle(cards)
                    s = GAME.apply(
                        s, {"type": "assign", "roles": cards[:9]}, Context(HOST, rng, now)
                    ).state
                s = GAME.apply(s, {"type": "start"}, Context(HOST, rng, now)).state
                out.append(s)
                continue
            if s["phase"] == "over":
                break
            seat = rng.randrange(9)
            kind = rng.choice(sorted(HANDLERS))
            action = {
                "type": kind,
                "target": rng.randrange(9),
                "take": rng.choice([0, 1]),
                "lovers": rng.sample(range(9), 2),
                "heal": rng.random() < 0.5,
            }
            if rng.random() < 0.3 and step:
                now = step["deadline"]
                action = {"type": "timeout"}
            r = GAME.apply(s, action, Context(rng.choice([HOST, Actor(seat=seat)]), rng, now))
            if isinstance(r, Accepted):
                changed = (r.state["step"] or {}).get("id") != (s["step"] or {}).get("id")
                s = r.state
                if changed or i % 7 == 0:
                    out.append(s)
        out.append(s)
    return out


STATES = _states()

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 12)
    | st.floats(allow_nan=True)
    | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=3)
    ),
    max_leaves=8,
)
field_names = st.sampled_from(
    [
        "target",
        "take",
        "lovers",
        "heal",
        "poison",
        "role",
        "roles",
        "seat",
        "voter",
        "step",
        "seconds",
    ]
)
actions = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {"type": st.sampled_from(sorted(HANDLERS)) | st.text(max_size=5) | json_values},
        optional={},
    ).flatmap(
        lambda base: st.dictionaries(field_names, json_values, max_size=4).map(
            lambda extra: {**extra, **base}
        )
    ),
)
actors = st.builds(
    Actor,
    seat=st.none() | st.integers(-2, 12),
    host=st.booleans(),
    source=st.sampled_from(["web", "timer", "host"]),
)


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    index=st.integers(0, len(STATES) - 1),
    action=actions,
    actor=actors,
    now=st.floats(allow_nan=True, allow_infinity=True) | st.integers(0, 10**12),
)
def test_apply_never_raises_nor_mutates(index, action, actor, now):
    state = STATES[index]
    before = copy.deepcopy(state)
    action_before = copy.deepcopy(action)
    result = GAME.apply(state, action, Context(actor, random.Random(1), now))
    assert state == before
    assert action == action_before or action != action  # NaN inside compares unequal
    assert isinstance(result, (Accepted, Rejection))
    if isinstance(result, Accepted):
        text = json.dumps(result.state)
        # round-trips (compared as text: a NaN clock reading, drawn above, is unequal to itself)
        assert json.dumps(json.loads(text)) == text
        json.dumps(result.events)
    else:
        assert result.code and result.render()
        assert result.code != "rules_error", (action, actor)  # no check was missed


def test_states_cover_every_phase():
    phases = {s["phase"] for s in STATES}
    steps = {s["step"]["name"] for s in STATES if s["step"]}
    assert phases >= {"setup", "prelude", "night", "day", "over"}
    assert steps >= {"seer", "werewolves", "vote"}


def test_views_of_every_state_are_json():
    for s in STATES:
        json.dumps(GAME.public_view(s))
        json.dumps(GAME.moderator_view(s))
        for seat in range(len(s["players"])):
            json.dumps(GAME.player_view(s, seat))
