"""What ``companion serve`` tells the person starting it."""

from __future__ import annotations


def test_a_server_on_loopback_says_how_to_let_the_phones_in(server_factory, tmp_path):
    """Off a Pi it listens on this machine only; the phones at the table cannot open the
    printed address until it is started with --host 0.0.0.0, so it says so."""
    server = server_factory(tmp_path / "data")
    assert f"open http://127.0.0.1:{server.port}" in server.startup
    assert "--host 0.0.0.0" in server.startup
