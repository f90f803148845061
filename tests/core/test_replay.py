"""Replaying a table's log gives exactly the live state, whatever was done to it.

Random sequences of score pad actions (good ones, bad ones, host edits, undos) are played
on a live table backed by a real SQLite file; a fresh service then loads the table from the
file alone and must reach the same state, version and history.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.clock import FakeClock
from companion.games.base import HOST, Actor
from companion.store import Store
from companion.table import TableError, TableService, replay

score = st.integers(min_value=-50, max_value=50)
scores3 = st.lists(score, min_size=3, max_size=3)
steps = st.lists(st.one_of(
    st.tuples(st.just("add"), scores3, st.sampled_from([0, 1, 2, None])),
    st.tuples(st.just("bad"), st.lists(score, max_size=5), st.just(0)),
    st.tuples(st.just("edit"), scores3, st.integers(min_value=-1, max_value=6)),
    st.tuples(st.just("undo"), st.just(None), st.just(None)),
    st.tuples(st.just("end"), st.just(None), st.just(None)),
), max_size=25)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=steps, target=st.one_of(st.none(), st.integers(1, 120)),
       winner=st.sampled_from(["highest", "lowest"]))
def test_replay_of_the_log_is_the_live_state(steps, target, winner):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "t.sqlite3"
        clock = FakeClock()
        store = Store(path)
        live = TableService(store, clock)
        t = live.create_table("scorepad", ["A", "B", "C"], "1234",
                              {"target": target, "winner": winner})
        accepted = 0
        for kind, arg, extra in steps:
            clock.advance(0.5)
            try:
                if kind == "add":
                    actor = HOST if extra is None else Actor(seat=extra)
                    live.submit(t.id, {"type": "add_round", "scores": arg}, actor)
                elif kind == "bad":
                    live.submit(t.id, {"type": "add_round", "scores": arg}, Actor(seat=0))
                elif kind == "edit":
                    live.submit(t.id, {"type": "edit_round", "round": extra, "scores": arg}, HOST)
                elif kind == "undo":
                    live.undo(t.id)
                else:
                    live.submit(t.id, {"type": "end_game"}, HOST)
                accepted += 1
            except TableError as exc:
                assert 400 <= exc.status < 500
        now = live.get(t.id)
        assert now.version == accepted
        store.close()

        reloaded = TableService(Store(path), FakeClock())
        again = reloaded.get(t.id)
        assert again.state == now.state
        assert again.version == now.version
        assert reloaded.history(t.id) == live.history(t.id)
        assert replay(again.record, again.game, again.log) == now.state
