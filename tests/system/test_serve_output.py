"""What ``companion serve`` tells the person starting it."""

from __future__ import annotations

import pytest


def test_a_server_on_loopback_says_how_to_let_the_phones_in(server_factory, tmp_path):
    """Off a Pi it listens on this machine only; the phones at the table cannot open the
    printed address (it said to open it "on the phones"), so it says to open it in this
    computer's browser, and how to let the phones in, on the same port."""
    server = server_factory(tmp_path / "data")
    assert f"open http://127.0.0.1:{server.port} in this computer's browser" in server.startup
    assert f"--host 0.0.0.0 --port {server.port}" in server.startup
    assert "on the phones" not in server.startup


def test_no_qr_code_is_drawn_for_an_address_no_phone_can_open():
    from companion.serve import is_loopback, ready_text

    lines, qr = ready_text("http://127.0.0.1:8647", 8647, local_only=True)
    assert qr is None and "--host 0.0.0.0 --port 8647" in lines[1]
    lines, qr = ready_text("http://192.168.1.20:8647", 8647, local_only=False)
    assert qr == "http://192.168.1.20:8647" and lines == [
        "Table Companion is ready: open http://192.168.1.20:8647 on the phones at the table."]
    assert all(map(is_loopback, ("127.0.0.1", "127.1.2.3", "::1", "localhost")))
    assert not any(map(is_loopback, ("0.0.0.0", "192.168.1.20", "companion.local")))


def _serve(monkeypatch, tmp_path, *argv: str, **env: str) -> int:
    """``companion serve`` in this process, for the errors it must give before the port is
    bound (binding fails the test instead of serving)."""
    import companion.serve
    from companion.cli import main

    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "none.toml"))
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COMPANION_CAMERA", "off")
    for key, value in env.items():
        monkeypatch.setenv(key, value)

    def bound(*args, **kw):
        raise AssertionError("the port was bound")

    monkeypatch.setattr(companion.serve, "bind", bound)
    return main(["serve", "--no-keys", "--no-qr", *argv])


@pytest.mark.parametrize(("argv", "env", "said"), [
    ((), {"COMPANION_SPEECH": "loud"}, "error: COMPANION_SPEECH: speech = 'loud' (expected"),
    ((), {"COMPANION_PORT": "abc"}, "error: COMPANION_PORT: port = 'abc' (expected an integer"),
    (("--config", "/nonexistent.toml"), {}, "error: no config file at /nonexistent.toml"),
    (("--db", "{tmp}"), {}, "error: cannot open the database at {tmp}: it is a folder"),
    ((), {"COMPANION_DATA_DIR": "{tmp}/x.txt/data"}, "{tmp}/x.txt is a file, not a folder"),
])
def test_a_bad_setting_or_database_is_one_error_line_and_exit_2_before_binding(
        monkeypatch, tmp_path, capsys, argv, env, said):
    (tmp_path / "x.txt").write_text("not a folder")
    fill = {"tmp": tmp_path}
    argv = tuple(a.format(**fill) for a in argv)
    env = {k: v.format(**fill) for k, v in env.items()}
    assert _serve(monkeypatch, tmp_path, *argv, **env) == 2
    err = capsys.readouterr().err
    assert said.format(**fill) in err and "Traceback" not in err


def test_a_host_that_does_not_resolve_is_said_plainly(monkeypatch, tmp_path, capsys):
    """waitress raised "ValueError: Invalid host/port specified" (the socket module: an
    address-info error)."""
    from companion.cli import main

    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "none.toml"))
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COMPANION_CAMERA", "off")
    assert main(["serve", "--host", "nohost.invalid", "--port", "8646", "--no-keys"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: cannot listen on nohost.invalid:8646: 'nohost.invalid' is")


def test_another_companion_is_suggested_only_where_the_address_is_in_use():
    """"Cannot assign requested address: is another companion running?" sent people
    looking for a second companion that was never there."""
    import errno

    from companion.serve import listen_error

    in_use = listen_error(OSError(errno.EADDRINUSE, "Address already in use"), "0.0.0.0", 80)
    assert "another companion running" in in_use and "--port" in in_use
    absent = listen_error(OSError(errno.EADDRNOTAVAIL, "Cannot assign requested address"),
                          "10.9.9.9", 8646)
    assert "this machine has no address 10.9.9.9" in absent
    assert "another companion" not in absent and "0.0.0.0" in absent


def test_a_port_in_use_is_said_plainly_and_nothing_claims_to_be_ready(tmp_path):
    """Another companion (or anything) holds the port: the server says so and how to
    choose another, exits 1, and never says it is ready (it had printed "ready", then a
    server's traceback, then aborted)."""
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
