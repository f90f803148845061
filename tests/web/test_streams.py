"""Ending the phones' streams when the server stops (web/stream.Streams)."""

from __future__ import annotations

import queue
import threading

from web.stream import _END, Streams


def test_a_second_signal_inside_end_still_ends_every_stream():
    """``end`` runs in the signal handler. A second Ctrl-C (or a SIGTERM after a Ctrl-C)
    runs the handler again in the same thread while the first may still hold the lock: it
    must take it again, not wait for itself for ever."""
    streams = Streams()
    a, b = queue.Queue(), queue.Queue()
    streams.add(a)
    streams.add(b)
    done: list[bool] = []

    def first_handler_interrupted() -> None:
        with streams._lock:  # (where the first handler was when the second signal came)
            streams.end()
            done.append(True)

    worker = threading.Thread(target=first_handler_interrupted, daemon=True)
    worker.start()
    worker.join(10)  # (a guard: with a plain Lock this thread never returns)
    assert done == [True]
    assert a.get_nowait() is _END and b.get_nowait() is _END


def test_a_stream_opened_after_the_end_ends_at_once():
    streams = Streams()
    streams.end()
    late = queue.Queue()
    streams.add(late)
    assert late.get_nowait() is _END
    streams.discard(late)
    streams.end()  # (twice: nothing left to end, no error)
