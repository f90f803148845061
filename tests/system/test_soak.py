"""A short soak: a minute of compressed play (four tables of four games, phones on the live
streams that drop and reopen their connections, button presses) against a real server, sampled
as it goes. Fails on growth that would not level off over an evening: threads kept per closed
stream, memory climbing with each action, a database growing faster than the events it
keeps. benchmarks/bench_soak.py runs the same play for longer and prints the slopes.

The bounds are generous (a loaded 2-core CI machine): they catch a leak per connection or per
action, not a few megabytes of warm-up. Nothing is timed: the samples are compared, first
settled window against the last.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

_spec = importlib.util.spec_from_file_location(
    "bench_soak", Path(__file__).resolve().parents[2] / "benchmarks" / "bench_soak.py")
bench_soak = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("bench_soak", bench_soak)  # (its dataclasses look their module up)
_spec.loader.exec_module(bench_soak)

SECONDS = 60
PHONES = 12


def window_mean(samples, attr: str, first: bool) -> float:
    """The mean of a third of the settled samples: the first third or the last."""
    k = max(1, len(samples) // 3)
    part = samples[:k] if first else samples[-k:]
    return sum(getattr(s, attr) for s in part) / len(part)


def test_a_minute_of_play_does_not_grow_without_bound(tmp_path):
    server, log = bench_soak.start_server(tmp_path / "data", "off")
    try:
        soak = bench_soak.Soak(server, log, phones=PHONES, rate=20.0, reconnect_s=6.0)
        samples = soak.run(SECONDS, every=2.0)
    finally:
        server.stop()
    print("\n" + bench_soak.report(samples))
    # No request failed; a few timed out at most (a loaded machine), not a server that
    # stopped answering (every request after it times out).
    timeouts = [e for e in soak.errors if "TimeoutError" in e]
    assert len(timeouts) <= 5 and len(timeouts) == len(soak.errors), soak.errors[:5]
    late = bench_soak.settled(samples)
    assert len(late) >= 6, "too few samples to judge"
    actions = late[-1].actions - late[0].actions
    # the play happened
    assert actions >= 200, f"only {actions} actions were sent"

    # Threads: the server's pools (48 workers by default, a few for the streams' steps) and
    # its own few, however many connections came and went: a thread kept per closed stream
    # would pass the ceiling, since far more streams were opened than it allows.
    ceiling = 48 + 4 + 20
    assert soak.opened >= 2 * ceiling, f"only {soak.opened} streams were opened"
    assert max(s.threads for s in samples) <= ceiling, [s.threads for s in samples]

    # Memory: a leak of 20 KB an action (a view or a stream's buffer kept) shows as 20 MB.
    first_rss = window_mean(late, "rss_mb", first=True)
    last_rss = window_mean(late, "rss_mb", first=False)
    # (the worker pool grows to its size on demand, each thread with its stack: a few MB
    # of it may land after the warm-up)
    assert last_rss - first_rss <= 20.0, (first_rss, last_rss)
    assert max(s.rss_mb for s in samples) <= 160.0

    # The event log grows with the play, by a bounded amount per action (a few KB: the
    # event, the snapshot every so often, the WAL not yet folded back).
    db_growth_kb = late[-1].db_kb - late[0].db_kb
    assert db_growth_kb / actions <= 16.0, (db_growth_kb, actions)
    # The server's output: a line now and then, not one per request.
    log_growth_kb = late[-1].log_kb - late[0].log_kb
    assert log_growth_kb / actions <= 0.5, (log_growth_kb, actions)
