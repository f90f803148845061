"""What ``companion serve`` tells the person starting it."""

from __future__ import annotations


def test_a_server_on_loopback_says_how_to_let_the_phones_in(server_factory, tmp_path):
    """Off a Pi it listens on this machine only; the phones at the table cannot open the
    printed address until it is started with --host 0.0.0.0, so it says so."""
    server = server_factory(tmp_path / "data")
    assert f"open http://127.0.0.1:{server.port}" in server.startup
    assert "--host 0.0.0.0" in server.startup


def test_a_port_in_use_is_said_plainly_and_nothing_claims_to_be_ready(tmp_path):
    """Another companion (or anything) holds the port: the server says so and how to
    choose another, exits 1, and never says it is ready (it had printed "ready", then a
    waitress traceback, then aborted)."""
    import socket

    from tests.support import Server

    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        server = Server(tmp_path / "data")
        server.port = held.getsockname()[1]
        try:
            server.start(timeout=20)
        except RuntimeError as exc:
            said = str(exc)
        else:
            raise AssertionError("it served on a port already in use")
        assert server.proc.wait(10) == 1
    assert "--port" in said and "another companion running" in said
    assert "is ready" not in said and "Traceback" not in said


def test_sigterm_stops_the_server_cleanly_with_the_camera_running(tmp_path):
    """systemd stops the service with SIGTERM: it shuts down as on Ctrl-C, the camera's
    thread joined (one left inside OpenCV as the interpreter exited aborted the process)."""
    from tests.support import Server

    server = Server(tmp_path / "data", camera="replay").start()
    status, _ = server.request("GET", "/api/camera")
    assert status == 200
    server.proc.terminate()
    assert server.proc.wait(15) == 0
    rest = server.proc.stdout.read()
    assert "terminate called" not in rest and "Traceback" not in rest, rest
    server.proc.stdout.close()
