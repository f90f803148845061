"""Many phones on one server (issue 34, "Connections"): the streams do not take the plain
requests' threads, a phone's closed stream is let go at once, and idle keep-alive
connections neither block new ones nor stay for an hour.

waitress served each stream on one of its 48 threads: with 48 streams open a plain request
waited for ever; a stream the phone dropped kept its thread (and its subscription) until a
ping's write failed; 100 idle keep-alive connections (phones gone off the Wi-Fi) kept a new
one out for up to an hour. Hang guards only, never timings: the speeds are in
benchmarks/bench_streams.py."""

from __future__ import annotations

import http.client
import socket
import threading
import time

import pytest

pytestmark = pytest.mark.slow

GUARD_S = 30.0  # (a guard against a hang, never a timing: a loaded machine may take seconds)


def _table(server) -> str:
    status, created = server.request("POST", "/api/tables", {"players": ["Ana", "Bruno"],
                                                         "pin": "2468"})
    assert status == 201, created
    return created["table"]["id"]


def _open_stream(port: int, tid: str) -> socket.socket:
    """A phone's stream, asked for and not read yet."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=GUARD_S)
    sock.sendall(f"GET /api/tables/{tid}/stream HTTP/1.1\r\n"
                 f"Host: 127.0.0.1:{port}\r\n\r\n".encode())
    return sock


def _read_until(sock: socket.socket, marker: bytes) -> bytes:
    got = b""
    while marker not in got:
        chunk = sock.recv(65536)
        if not chunk:
            raise EOFError(got)
        got += chunk
    return got


def test_more_streams_than_the_old_thread_pool_leave_plain_requests_answered(server_factory):
    """60 phones hold their streams (waitress had 48 threads): a plain request is still
    answered, and every stream got its view."""
    server = server_factory()
    tid = _table(server)
    streams = [_open_stream(server.port, tid) for _ in range(60)]
    try:
        c = http.client.HTTPConnection("127.0.0.1", server.port, timeout=GUARD_S)
        try:
            c.request("GET", f"/api/tables/{tid}")
            resp = c.getresponse()
        except TimeoutError:
            pytest.fail("a plain request was not answered with 60 streams open")
        assert resp.status == 200 and resp.read()
        c.close()
        for sock in streams:
            assert b"event: state" in _read_until(sock, b"event: state")
    finally:
        for sock in streams:
            sock.close()


def test_idle_keep_alive_connections_block_no_new_request_and_are_closed(server_factory):
    """120 phones made a request each and went quiet on their kept-alive connections (gone
    off the Wi-Fi): a new phone's request is answered, and the server closes the idle ones
    (waitress kept them for an hour, and refused a 101st)."""
    server = server_factory()
    idle = []
    try:
        for _ in range(120):
            c = http.client.HTTPConnection("127.0.0.1", server.port, timeout=GUARD_S)
            c.request("GET", "/api/games")
            resp = c.getresponse()
            assert resp.status == 200
            resp.read()
            idle.append(c)
        try:
            status, _ = server.request("GET", "/api/tables")
        except TimeoutError:
            pytest.fail("a new request waited behind 120 idle connections")
        assert status == 200
        for c in idle:  # the server ends each idle connection: the phone reads its end
            c.sock.settimeout(GUARD_S)
            try:
                assert c.sock.recv(1) == b""
            except TimeoutError:
                pytest.fail("an idle keep-alive connection was kept open")
    finally:
        for c in idle:
            c.close()


@pytest.fixture
def in_process(tmp_path):
    """``companion serve``'s server in this process (the service's listeners can be
    counted), on a port of its own."""
    from companion.config import load_config
    from companion.serve import bind, build, make_server

    cfg = load_config(env={"COMPANION_DATA_DIR": str(tmp_path / "data"),
                           "COMPANION_CONFIG": str(tmp_path / "none.toml"),
                           "COMPANION_CAMERA": "off"}, on_pi=False)
    service, app = build(cfg)
    sock = bind("127.0.0.1", 0)
    server = make_server(app, sock, threads=4)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + GUARD_S
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.01)  # (polling for the start, no assertion on time)
    try:
        yield service, sock.getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(GUARD_S)
        sock.close()
        server.config.app.close()


def test_a_stream_the_phone_closed_lets_go_of_its_subscription(in_process):
    """A phone closed its stream (a reload, the browser gone): the table stops holding a
    listener for it at once, not when a ping's write fails 15-45 s later."""
    service, port = in_process
    tid = service.create_table("scorepad", ["Ana", "Bruno"], "2468").record.id
    before = len(service.get(tid).listeners)
    sock = _open_stream(port, tid)
    _read_until(sock, b"event: state")
    assert len(service.get(tid).listeners) == before + 1
    sock.close()
    deadline = time.monotonic() + GUARD_S
    while len(service.get(tid).listeners) != before:
        if time.monotonic() > deadline:
            pytest.fail("the closed stream's listener was kept")
        time.sleep(0.01)  # (polling under a guard: no assertion on the time it took)
