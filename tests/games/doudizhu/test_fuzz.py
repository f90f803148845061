"""Any JSON a phone may send, in every phase: ``apply`` never raises and never mutates its
input; a refusal has a code and a message that renders; an accepted action keeps every card
accounted for."""

from __future__ import annotations

import copy
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.base import HOST, Accepted, Actor, Context, Rejection
from companion.games.doudizhu import GAME
from tests.games.doudizhu.conftest import Table, accounted

CARDS = st.sampled_from(["3", "9H", "10", "10S", "J", "A", "2", "BJ", "RJ", "t", "X", "",
                         "QQ", "1", "bj"])
JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 40) | st.floats() |
                    st.text(max_size=5), lambda inner: st.lists(inner, max_size=4) |
                    st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=8)
TYPES = st.sampled_from(["bid", "pass", "landlord", "double", "redouble", "kitty", "play",
                         "propose", "confirm", "dismiss", "set_hand", "next_hand",
                         "adjust_count", "end_match", "nope"])
ACTIONS = st.one_of(
    JSON,
    st.fixed_dictionaries({"type": TYPES}, optional={
        "cards": st.one_of(st.lists(CARDS, max_size=8), JSON), "bid": JSON, "seat": JSON,
        "double": JSON, "redouble": JSON, "count": JSON, "unsure": JSON}),
)


def tables() -> list[Table]:
    auction = Table()
    doubling = Table(doubling=True).landlord(0)
    play = Table().landlord(0)
    play.play("3-3-3-9")
    four = Table(players=4, deal="app", seed=2)
    face = Table(landlord="face_up_card")
    over = Table().landlord(0)
    over.do({"type": "adjust_count", "seat": 0, "count": 1})
    over.play("5")
    return [auction, doubling, play, four, face, over]


TABLES = tables()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.integers(0, len(TABLES) - 1), action=ACTIONS,
       actor=st.sampled_from([HOST, Actor(seat=0), Actor(seat=1), Actor(seat=2),
                              Actor(seat=None), Actor(seat=1, source="camera")]))
def test_any_json_is_refused_cleanly_or_keeps_the_pack_whole(which, action, actor):
    state = TABLES[which].state
    before = copy.deepcopy(state)
    result = GAME.apply(state, action, Context(actor, random.Random(0)))
    assert state == before
    if isinstance(result, Rejection):
        assert result.code and result.render()
    else:
        assert isinstance(result, Accepted) and accounted(result.state)
        GAME.public_view(result.state)
        for seat in range(len(result.state["players"])):
            GAME.player_view(result.state, seat)


SEEN = st.tuples(st.one_of(st.none(), CARDS, JSON), st.one_of(st.floats(), JSON))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.integers(0, len(TABLES) - 1),
       pairs=st.lists(st.tuples(SEEN, st.one_of(st.none(), CARDS, JSON)), max_size=6),
       other=st.one_of(st.none(), JSON), option=st.booleans())
def test_anything_the_camera_hands_over_is_read_or_ignored_cleanly(which, pairs, other,
                                                                   option):
    """The camera hook never raises on any set and guesses (by position, or anything else),
    and what it returns, submitted as the camera, is accepted or refused cleanly."""
    cards = [seen for seen, _ in pairs]
    guesses = [guess for _, guess in pairs] if other is None else other
    state = copy.deepcopy(TABLES[which].state)
    state["options"]["camera_confirm"] = option
    before = copy.deepcopy(state)
    action = GAME.on_card_seen(state, "middle", None, 0.9, cards=cards, guesses=guesses)
    assert state == before
    if action is None:
        return
    assert action["type"] in ("play", "propose") and (option is False or
                                                     action["type"] == "propose")
    result = GAME.apply(state, action, Context(Actor(seat=action["seat"], source="camera"),
                                               random.Random(0)))
    assert (isinstance(result, Rejection) and result.render()) or accounted(result.state)
