"""Secrets stay out of addresses (web/auth.py): a seat's pass and the host's PIN travel in
headers only; a browser opens its live stream with a single-use, short-lived ticket. The
host's stream took ``?pin=`` and every POST took ``?token=``: both landed in logs and the
browser's history."""

from __future__ import annotations

import json

import pytest

from tests.conftest import join

PIN = {"X-Host-Pin": "2468"}


def _first(res) -> dict:
    for chunk in res.response:
        chunk = chunk.decode() if isinstance(chunk, bytes) else chunk
        if chunk.startswith("event: state"):
            return json.loads(chunk.split("data: ", 1)[1])
    raise AssertionError("the stream ended")


def _ticket(client, tid: str, headers) -> str:
    res = client.post(f"/api/tables/{tid}/stream-ticket", headers=headers)
    assert res.status_code == 201, res.json
    assert res.json["expires_s"] <= 60
    return res.json["ticket"]


def test_a_pass_or_a_pin_in_the_address_opens_nothing(client, scorepad):
    tid = scorepad["id"]
    token = join(client, tid, 0)["Authorization"].split()[1]
    res = client.post(f"/api/tables/{tid}/actions?token={token}",
                      json={"action": {"type": "add_round", "scores": [1, 2, 3]}})
    assert res.status_code == 401 and res.json["error"]["code"] == "not_joined"
    assert client.post(f"/api/tables/{tid}/undo?pin=2468", json={}).status_code == 403
    stream = client.get(f"/api/tables/{tid}/stream?pin=2468&token={token}")
    try:
        view = _first(stream)["view"]
        assert "host" not in view and "you" not in view  # (a watcher's)
    finally:
        stream.close()


@pytest.mark.parametrize("who", ["host", "seat"])
def test_a_ticket_opens_one_stream_as_its_caller_once(client, scorepad, who):
    tid = scorepad["id"]
    headers = PIN if who == "host" else join(client, tid, 1)
    ticket = _ticket(client, tid, headers)
    stream = client.get(f"/api/tables/{tid}/stream?ticket={ticket}")
    try:
        view = _first(stream)["view"]
        assert ("host" in view) if who == "host" else (view["you"]["seat"] == 1)
    finally:
        stream.close()
    again = client.get(f"/api/tables/{tid}/stream?ticket={ticket}")
    assert again.status_code == 401 and again.json["error"]["code"] == "bad_ticket"


def test_a_ticket_expires_and_serves_its_own_table_only(app, client, scorepad):
    from web.auth import TICKET_S, Tickets

    now = [1000.0]
    app.extensions["stream_tickets"] = Tickets(clock=lambda: now[0])
    tid = scorepad["id"]
    other = client.post("/api/tables", json={"game": "scorepad", "players": ["Ana"],
                                             "pin": "1357"}).json["table"]["id"]
    late = _ticket(client, tid, PIN)
    now[0] += TICKET_S
    assert client.get(f"/api/tables/{tid}/stream?ticket={late}").status_code == 401
    wrong = _ticket(client, tid, PIN)
    assert client.get(f"/api/tables/{other}/stream?ticket={wrong}").status_code == 401
    assert client.get(f"/api/tables/{tid}/stream?ticket={wrong}").status_code == 401  # (used)
    # a ticket is the caller's: a wrong PIN or pass gets none
    assert client.post(f"/api/tables/{tid}/stream-ticket",
                       headers={"X-Host-Pin": "0000"}).status_code == 403
    assert client.post(f"/api/tables/{tid}/stream-ticket",
                       headers={"Authorization": "Bearer nope"}).status_code == 401


def test_a_host_who_plays_hears_their_own_seat_s_events_with_the_pin_alone(client):
    """A host who plays, with no pass of their seat (the PIN alone, as ``identify`` treats
    them), read their seat's view on the stream but heard none of its events: the Werewolf
    deal's ``your_role`` for their seat never came. It comes now, and no other seat's."""
    players = ["Ana", "Bruno", "Carla", "Davi", "Eva", "Fabio", "Gil", "Hugo"]
    tid = client.post("/api/tables", json={"game": "werewolf", "players": players,
                                           "pin": "2468", "options": {"host_seat": 2}}
                      ).json["table"]["id"]
    for seat in (0, 1, 3, 4, 5, 6, 7):
        join(client, tid, seat)
    stream = client.get(f"/api/tables/{tid}/stream?ticket={_ticket(client, tid, PIN)}")
    try:
        chunks = (c.decode() if isinstance(c, bytes) else c for c in stream.response)
        first = next(json.loads(c.split("data: ", 1)[1]) for c in chunks
                     if c.startswith("event: state"))
        assert first["view"]["you"]["seat"] == 2
        res = client.post(f"/api/tables/{tid}/actions", json={"action": {"type": "start"}},
                          headers=PIN)
        assert res.status_code == 200, res.json
        told = next(json.loads(c.split("data: ", 1)[1]) for c in chunks
                    if c.startswith("event: state"))
    finally:
        stream.close()
    mine = [e for e in told["events"] if e["type"] == "your_role"]
    assert [(e["seat"], e["to"]) for e in mine] == [(2, [2])]
    assert mine[0]["role"] == told["view"]["you"]["view"]["you"]["role"]
