"""Quiz lockout: first press takes the floor, the host marks, a wrong answer reopens."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.base import HOST, Accepted, Actor, Context, resolve_options
from companion.games.quiz import GAME

MS = 1_000_000
US = 1_000
BUTTONS = Actor(source="button")


class Quiz:
    def __init__(self, n=4, **options):
        self.state = GAME.setup(["Ana", "Bo", "Cy", "Di"][:n], resolve_options(GAME.options,
                                                                                 options),
                                random.Random(1))
        self.seq = 0

    def result(self, action, actor=HOST):
        """The rules' verdict on a move as it comes (``admit``, then ``apply``)."""
        self.seq += 1
        if (refused := GAME.admit(action, actor)) is not None:
            return refused
        return GAME.apply(self.state, action, Context(actor, random.Random(self.seq), 0, self.seq))

    def do(self, action, actor=HOST):
        res = self.result(action, actor)
        assert isinstance(res, Accepted), res
        self.state = res.state
        return res.events

    def fails(self, action, actor=HOST):
        res = self.result(action, actor)
        assert not isinstance(res, Accepted), res
        return res.code

    def buzz(self, *presses):
        return self.do({"type": "buzz", "presses": [{"seat": s, "t_ns": t} for s, t in presses]},
                       BUTTONS)


def test_first_press_locks_out_the_others_with_the_full_order():
    q = Quiz(tie_window_ms=0.05)  # 50 us: presses 100 us apart are told apart
    events = q.buzz((2, 5_000 * MS + 100 * US), (1, 5_000 * MS + 2 * MS), (0, 5_000 * MS))
    assert events[0]["kind"] == "lock" and events[0]["seat"] == 0
    assert q.state["phase"] == "locked" and q.state["floor"] == 0
    view = GAME.public_view(q.state)
    assert view["order_text"] == "Ana by 100 µs over Cy, Cy by 1.9 ms over Bo"
    q.buzz((3, 5_300 * MS))  # late: recorded, no effect
    assert q.state["floor"] == 0 and [e["seat"] for e in GAME.public_view(q.state)["order"]] == [
        0, 2, 1, 3]


def test_wrong_reopens_for_the_rest_and_right_scores():
    q = Quiz(points_wrong=-1)
    q.buzz((1, 1_000 * MS))
    events = q.do({"type": "mark", "right": False})
    assert events[0] == {"type": "verdict", "kind": "answer", "seat": 1, "right": False,
                         "points": -1}
    assert q.state["phase"] == "open" and q.state["scores"] == [0, -1, 0, 0]
    q.buzz((1, 2_000 * MS))  # locked out of this question
    assert q.state["phase"] == "open"
    q.buzz((1, 3_000 * MS), (3, 3_000 * MS + 5 * MS))
    assert q.state["floor"] == 3
    q.do({"type": "mark", "right": True})
    assert q.state["scores"] == [0, -1, 0, 1] and q.state["phase"] == "closed"
    assert q.fails({"type": "buzz", "seat": 0}, Actor(seat=0)) == "not_open"
    assert q.state["history"][-1]["order"][0]["seat"] == 1
    q.do({"type": "next"})
    assert q.state["question"] == 2 and q.state["phase"] == "open"
    q.buzz((1, 9_000 * MS))
    assert q.state["floor"] == 1  # a new question: everyone may answer


def test_a_tie_is_the_hosts_pick_by_default():
    q = Quiz()
    events = q.buzz((2, 1_000 * MS + 500 * US), (0, 1_000 * MS))
    assert events[0]["kind"] == "tie" and q.state["tied"] == [0, 2]
    assert q.fails({"type": "pick", "seat": 2}, Actor(seat=2)) == "host_only"
    q.do({"type": "pick", "seat": 2})
    assert q.state["floor"] == 2
    strict = Quiz(tie_rule="strict")
    strict.buzz((2, 1_000 * MS + 100 * US), (0, 1_000 * MS))
    assert strict.state["floor"] == 0


def test_everyone_wrong_closes_the_question():
    q = Quiz(n=2)
    q.buzz((0, 1 * MS))
    q.do({"type": "mark", "right": False})
    q.buzz((1, 2 * MS))
    events = q.do({"type": "mark", "right": False})
    assert {"type": "question_closed", "question": 1} in events


def test_phones_buzz_for_themselves_and_host_overrides():
    q = Quiz()
    assert q.fails({"type": "buzz", "seat": 1}, Actor(seat=2)) == "not_your_seat"
    q.do({"type": "buzz", "seat": 2}, Actor(seat=2))
    assert q.state["floor"] == 2
    assert q.fails({"type": "mark", "right": "yes"}) == "bad_mark"
    q.do({"type": "adjust", "seat": 0, "points": 5})
    q.do({"type": "end_game"})
    assert GAME.outcome(q.state) == {"winners": [0], "scores": [5, 0, 0, 0]}
    assert q.fails({"type": "buzz", "seat": 1}, Actor(seat=1)) == "game_over"
    assert GAME.on_presses(q.state, [{"seat": 1, "t_ns": 1}]) is None


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                 max_size=3),
    max_leaves=8,
)
actions = st.builds(
    lambda kind, fields: {"type": kind, **fields},
    st.sampled_from(["buzz", "mark", "pick", "next", "adjust", "end_game", "x"]),
    st.dictionaries(st.sampled_from(["seat", "t_ns", "presses", "right", "points"]),
                    json_values, max_size=3),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(actions, st.sampled_from([HOST, BUTTONS, Actor(seat=1), Actor()])),
                max_size=6))
def test_apply_never_raises_nor_mutates(steps):
    q = Quiz()
    q.buzz((1, 5), (2, 6))
    state = q.state
    for i, (action, actor) in enumerate(steps):
        before = json.dumps(state, sort_keys=True)
        res = GAME.apply(state, action, Context(actor, random.Random(i), 0, i))
        assert json.dumps(state, sort_keys=True) == before
        if isinstance(res, Accepted):
            GAME.public_view(res.state)
            state = res.state
        else:
            assert res.render()


# -- a phone's time, presses arriving late, the host's double tap ---------------------------
def test_a_phone_cannot_choose_when_it_buzzed():
    q = Quiz()
    q.buzz((0, 2_000 * MS))
    for action in ({"type": "buzz", "seat": 1, "t_ns": 1},
                   {"type": "buzz", "presses": [{"seat": 1, "t_ns": 1}]}):
        assert q.fails(action, Actor(seat=1)) == "untrusted_time"
    assert q.state["floor"] == 0
    # stamped by the server on arrival (source "server"), or with no time at all
    q.do({"type": "buzz", "presses": [{"seat": 1, "t_ns": 2_100 * MS}]},
         Actor(seat=1, source="server"))
    q.do({"type": "buzz", "seat": 2}, Actor(seat=2))
    assert [(e["seat"], e["t_ns"]) for e in GAME.public_view(q.state)["order"]] == [
        (0, 2_000 * MS), (1, 2_100 * MS), (2, 2_100 * MS + 1)]
    assert q.state["floor"] == 0


def test_a_press_stamped_earlier_that_arrives_later_takes_the_floor():
    """Ana took the floor; Bo's press, 10 ms before hers, reached the table after: the
    order read "Bo by 10 ms over Ana" while Ana kept the floor."""
    q = Quiz()
    q.buzz((0, 2_000 * MS))
    events = q.buzz((1, 1_990 * MS))
    assert q.state["phase"] == "locked" and q.state["floor"] == 1
    assert events[0] == {"type": "verdict", "kind": "lock", "seat": 1, "tied": [],
                         "resolution": "first", "order": events[0]["order"],
                         "was": {"phase": "locked", "floor": 0, "tied": []}}
    assert GAME.public_view(q.state)["order_text"] == "Bo by 10 ms over Ana"
    q.buzz((2, 2_050 * MS))  # later: no change, no verdict
    assert q.state["floor"] == 1
    events = q.buzz((3, 1_990 * MS + 300 * US))  # inside the window of Bo's: a tie
    assert q.state["phase"] == "tie" and q.state["tied"] == [1, 3] and q.state["floor"] is None
    q.do({"type": "pick", "seat": 3})
    q.buzz((2, 1_000 * MS))  # the host gave the floor: a press does not take it from Di
    assert q.state["floor"] == 3
    # a wrong answer reopens a new round: the presses of the last one are not in it
    q.do({"type": "mark", "right": False, "seat": 3})
    q.buzz((1, 9_000 * MS))
    assert q.state["floor"] == 1
    q.buzz((3, 8_000 * MS))  # Di has answered: his press takes nothing
    assert q.state["floor"] == 1


def test_a_reslap_tie_starts_a_new_round():
    q = Quiz(tie_rule="reslap")
    events = q.buzz((0, 1_000 * MS), (1, 1_000 * MS + 200 * US))
    assert events[0]["kind"] == "reslap" and q.state["phase"] == "open"
    q.buzz((1, 3_000 * MS))
    assert q.state["floor"] == 1


def test_a_mark_for_someone_who_does_not_have_the_floor_is_refused():
    """Ana had the floor; the host tapped Wrong; Bo buzzed; the host's second tap, 250 ms
    later, marked Bo wrong before he answered. The mark names whose answer it judged."""
    q = Quiz(points_wrong=-1)
    q.buzz((0, 1_000 * MS))
    q.do({"type": "mark", "right": False, "seat": 0})
    q.buzz((1, 2_000 * MS))
    res = q.result({"type": "mark", "right": False, "seat": 0})
    assert res.code == "not_answering"
    assert res.render() == "Ana does not have the floor: the mark was not counted."
    assert q.state["scores"] == [-1, 0, 0, 0] and q.state["floor"] == 1
    assert q.fails({"type": "mark", "right": True, "seat": "Bo"}) == "bad_seat"
    assert q.fails({"type": "mark", "right": True, "seat": 9}) == "bad_seat"
    q.do({"type": "mark", "right": True, "seat": 1})
    assert q.state["scores"] == [-1, 1, 0, 0]


def test_each_press_says_which_race_it_was_in_and_the_history_keeps_it():
    """A gap across a reopening means nothing (issue 37: "Bruno by 35.70 s over Ana" after a
    wrong answer reopened the question): each press of the order says its race."""
    q = Quiz()
    q.buzz((0, 1_000 * MS), (2, 1_200 * MS))
    q.do({"type": "mark", "right": False})
    q.buzz((1, 36_000 * MS))
    order = GAME.public_view(q.state)["order"]
    assert [(e["seat"], e["race"]) for e in order] == [(0, 0), (2, 0), (1, 1)]
    q.do({"type": "mark", "right": True})
    assert [e["race"] for e in q.state["history"][-1]["order"]] == [0, 0, 1]
    q.do({"type": "next"})
    q.buzz((3, 40_000 * MS))
    assert [e["race"] for e in GAME.public_view(q.state)["order"]] == [0]
