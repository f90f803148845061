"""Live updates through the real server: a phone's SSE stream gets each committed change, and
only its own view."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.slow


def read_event(resp) -> dict:
    """The next ``state`` event from an SSE response (skipping comments and retry lines)."""
    data = None
    while True:
        line = resp.fp.readline().decode()
        if not line:
            raise EOFError("stream closed")
        line = line.rstrip("\n")
        if line.startswith("data: "):
            data = json.loads(line[6:])
        elif line == "" and data is not None:
            return data


def ticket(server, tid: str, token: str) -> str:
    """The query a phone opens its stream with: a single-use ticket got with its pass in a
    header (the pass itself is never in an address)."""
    status, got = server.request("POST", f"/api/tables/{tid}/stream-ticket", None,
                                 {"Authorization": "Bearer " + token})
    assert status == 201, got
    return "?ticket=" + got["ticket"]


def test_every_phone_on_the_table_gets_the_change(server_factory):
    server = server_factory()
    _, created = server.request("POST", "/api/tables", {
        "players": ["Ana", "Bruno"], "pin": "2468"})
    tid = created["table"]["id"]
    _, joined = server.request("POST", f"/api/tables/{tid}/join", {"seat": 1})
    streams = []
    for query in ("", ticket(server, tid, joined["token"])):
        c = server.conn(timeout=10)
        c.request("GET", f"/api/tables/{tid}/stream{query}")
        resp = c.getresponse()
        assert resp.status == 200 and resp.getheader("Content-Type").startswith(
            "text/event-stream")
        first = read_event(resp)
        assert first["view"]["version"] == 0
        assert first["view"]["join_url"] == server.url + "/join/" + created["table"]["code"]
        streams.append((c, resp))
    status, _ = server.request("POST", f"/api/tables/{tid}/actions", {
        "action": {"type": "add_round", "scores": [3, 4]}},
        {"Authorization": "Bearer " + joined["token"]})
    assert status == 200
    watcher, bruno = (read_event(resp) for _, resp in streams)
    assert watcher["view"]["version"] == bruno["view"]["version"] == 1
    assert watcher["view"]["public"]["totals"] == [3, 4]
    assert watcher["view"]["join_url"] == bruno["view"]["join_url"] == created["join_url"]
    assert watcher["events"] == [{"type": "round_added", "round": 0}]
    assert "you" not in watcher["view"]
    assert bruno["view"]["you"]["name"] == "Bruno"
    for c, _ in streams:
        c.close()


def test_a_stream_with_a_forged_token_is_refused(server_factory):
    server = server_factory()
    _, created = server.request("POST", "/api/tables", {"players": ["Ana"], "pin": "2468"})
    tid = created["table"]["id"]
    status, body = server.request("GET", f"/api/tables/{tid}/stream", None,
                                  {"Authorization": "Bearer x"})
    assert status == 401 and body["error"]["code"] == "bad_token"
    status, body = server.request("POST", f"/api/tables/{tid}/stream-ticket", None,
                                  {"Authorization": "Bearer x"})
    assert status == 401 and body["error"]["code"] == "bad_token"
    status, body = server.request("GET", f"/api/tables/{tid}/stream?ticket=x")
    assert status == 401 and body["error"]["code"] == "bad_ticket"


def test_a_seat_moved_to_another_phone_takes_its_secrets_off_the_old_phones_stream(
        server_factory):
    """The host moves a seat to a new phone (the old one lost or swapped): the stream the old
    phone still holds stops getting the seat's view and its private events at once; it is
    told, and goes on as a watcher's. The new phone gets them."""
    server = server_factory()
    players = ["Ana", "Bruno", "Chen", "Dani", "Eli", "Fabi", "Gui", "Hana"]
    _, created = server.request("POST", "/api/tables", {
        "game": "werewolf", "players": players, "pin": "2468"})
    tid = created["table"]["id"]
    _, old = server.request("POST", f"/api/tables/{tid}/join", {"seat": 3})
    c = server.conn(timeout=10)
    c.request("GET", f"/api/tables/{tid}/stream{ticket(server, tid, old['token'])}")
    resp = c.getresponse()
    assert read_event(resp)["view"]["you"]["seat"] == 3

    status, new = server.request("POST", f"/api/tables/{tid}/join", {"seat": 3, "pin": "2468"})
    assert status == 201
    moved = read_event(resp)
    assert {"type": "seat_revoked"} in moved["events"]
    assert "you" not in moved["view"]
    status, _ = server.request("POST", f"/api/tables/{tid}/actions",
                               {"action": {"type": "start", "empty_seats": True}},
                               {"X-Host-Pin": "2468"})
    assert status == 200, _
    after = read_event(resp)
    assert "you" not in after["view"]
    assert not [e for e in after["events"] if e.get("to") == [3] or "role" in e], after
    status, mine = server.request("GET", f"/api/tables/{tid}", None,
                                  {"Authorization": "Bearer " + new["token"]})
    assert status == 200 and mine["you"]["view"]["you"]["role"]
    c.close()


def test_sigterm_ends_the_open_streams_and_the_server_exits_at_once(server_factory, tmp_path):
    """systemd stops the service with SIGTERM while phones hold their streams open: waitress
    waited 5 s for the threads serving them (7 s in all) before the process exited. The
    streams are ended at once (the phones reconnect after ``retry``), so the server finds no
    connection of theirs left to wait for, and the action acknowledged before is there after
    a restart."""
    import signal
    import subprocess

    server = server_factory(tmp_path / "data")
    _, created = server.request("POST", "/api/tables", {
        "players": ["Ana", "Bruno"], "pin": "2468"})
    tid = created["table"]["id"]
    _, joined = server.request("POST", f"/api/tables/{tid}/join", {"seat": 1})
    streams = []
    for query in ("", ticket(server, tid, joined["token"]), ""):
        c = server.conn(timeout=10)
        c.request("GET", f"/api/tables/{tid}/stream{query}")
        resp = c.getresponse()
        assert read_event(resp)["view"]["version"] == 0
        streams.append((c, resp))
    status, _ = server.request("POST", f"/api/tables/{tid}/actions", {
        "action": {"type": "add_round", "scores": [3, 4]}},
        {"Authorization": "Bearer " + joined["token"]})
    assert status == 200
    assert all(read_event(resp)["view"]["version"] == 1 for _, resp in streams)

    server.proc.send_signal(signal.SIGTERM)
    try:  # (a guard against a hang, never a timing: a loaded machine may take seconds)
        code = server.proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        pytest.fail("the server did not exit within 30 s of SIGTERM with streams open")
    assert code == 0
    # The streams were ended before the server waited for its connections: it gave up on
    # none (unended, it waits its 5 s and says "Cancel N running task(s), timeout graceful
    # shutdown exceeded"). No clock is read.
    said = server.proc.stdout.read()
    assert "graceful shutdown exceeded" not in said and "Traceback" not in said, said
    for c, resp in streams:
        with pytest.raises(EOFError):
            read_event(resp)
        c.close()

    again = server_factory(tmp_path / "data")
    status, view = again.request("GET", f"/api/tables/{tid}")
    assert status == 200 and view["public"]["totals"] == [3, 4]

