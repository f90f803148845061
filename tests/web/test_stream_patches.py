"""Bounded live updates (web/stream.py ``diff``/``patch``): a phone's stream (``?diff=1``)
sends what changed, not the whole view again. A score pad's message carried every round,
and every running total, twice (the public view and the seat's own): about 60 kB a message
at ~580 rounds."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import join
from web.stream import diff, patch

PIN = {"X-Host-Pin": "2468"}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(
        st.sampled_from(["a", "b", "c", "~", "=", "+"]), inner, max_size=4),
    max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(json_values, json_values)
def test_a_patch_turns_the_old_view_into_the_new_one(old, new):
    p = diff(old, new)
    assert (p is None) == (old == new)
    before = json.dumps(old)
    if p is not None:
        assert json.loads(json.dumps(patch(old, p))) == json.loads(json.dumps(new))
    assert json.dumps(old) == before  # (the base is left as it was)


def _messages(res):
    """(event, data) of each message on the stream, as it comes."""
    for chunk in res.response:
        chunk = chunk.decode() if isinstance(chunk, bytes) else chunk
        if chunk.startswith("event: "):
            head, data = chunk.split("\n", 1)
            yield head[len("event: "):], json.loads(data[len("data: "):])


def test_a_long_score_pad_s_updates_stay_small(app, client, scorepad, service):
    from companion.games.base import HOST

    tid = scorepad["id"]
    for n in range(600):  # (straight to the table: the test is about the stream)
        service.submit(tid, {"type": "add_round", "scores": [n, -n, 2 * n]}, HOST)
    bruno = join(client, tid, 1)
    res = client.get(f"/api/tables/{tid}/stream?diff=1", headers=bruno)
    try:
        messages = _messages(res)
        kind, first = next(messages)
        assert kind == "state" and len(first["view"]["public"]["rounds"]) == 600
        view, sizes = first["view"], []
        for action, who in (({"type": "add_round", "scores": [1, 2, 3]}, bruno),
                            ({"type": "add_round", "scores": [4, 5, 6]}, bruno),
                            ({"type": "edit_round", "round": 601, "scores": [0, 0, 0]}, PIN)):
            assert client.post(f"/api/tables/{tid}/actions", json={"action": action},
                               headers=who).status_code == 200
            kind, msg = next(messages)
            assert kind == "patch"
            sizes.append(len(json.dumps(msg)))
            view = patch(view, msg["patch"])
            assert view == client.get(f"/api/tables/{tid}", headers=bruno).json
        assert client.post(f"/api/tables/{tid}/undo", json={}, headers=PIN).status_code == 200
        kind, msg = next(messages)
        sizes.append(len(json.dumps(msg)))
        view = patch(view, msg["patch"])
        assert view == client.get(f"/api/tables/{tid}", headers=bruno).json
    finally:
        res.close()
    whole = len(json.dumps(first))
    assert whole > 50_000 and max(sizes) < 2_000, (whole, sizes)


def test_a_stream_without_diff_still_sends_whole_views(client, scorepad):
    """(scripts and other clients read whole views, as documented)"""
    tid = scorepad["id"]
    res = client.get(f"/api/tables/{tid}/stream")
    try:
        messages = _messages(res)
        next(messages)
        client.post(f"/api/tables/{tid}/actions",
                    json={"action": {"type": "add_round", "scores": [1, 2, 3]}}, headers=PIN)
        kind, msg = next(messages)
        assert kind == "state" and msg["view"]["public"]["totals"] == [1, 2, 3]
    finally:
        res.close()


def test_every_message_tells_the_servers_wall_clock(client, scorepad, clock):
    """A step's deadline is on the server's wall clock, which an offline Pi's need not match
    the phones': each message carries it (``now``), and the phone counts down from it."""
    tid = scorepad["id"]
    res = client.get(f"/api/tables/{tid}/stream?diff=1")
    try:
        messages = _messages(res)
        kind, first = next(messages)
        assert kind == "state" and first["now"] == clock.wall()
        clock.advance(90)
        client.post(f"/api/tables/{tid}/actions",
                    json={"action": {"type": "add_round", "scores": [1, 2, 3]}}, headers=PIN)
        kind, msg = next(messages)
        assert kind == "patch" and msg["now"] == first["now"] + 90
    finally:
        res.close()
