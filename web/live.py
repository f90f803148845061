"""A live stream that holds no thread while it waits: the pieces web/stream.py builds on.

A stream's generator yields its text, and :class:`Wait` where it would block for its next
update. Served by the asyncio server (web/asgi.py), the event loop waits for the update (the
table's listener wakes it); only the short step that reads the view runs on a worker thread.
Served by a thread per request (Flask's test client, a WSGI server), the same stream waits on
its thread, as streams always did. So hundreds of phones hold their streams open on a few
threads, and a phone that goes frees its subscription as soon as its connection closes.
"""

from __future__ import annotations

import collections
import queue
import threading
from collections.abc import Callable, Iterator
from typing import Any


class Wait:
    """Yielded by a stream's generator: wait for the inbox up to ``seconds`` (then go on,
    whether an update came or the time is up: the generator looks at its inbox itself)."""

    __slots__ = ("seconds",)

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds


class Inbox:
    """One stream's updates, put by the table's listener (any thread, under the table's
    lock) and taken by the stream. Whoever waits is woken: a thread, or an event loop."""

    def __init__(self) -> None:
        self._items: collections.deque[Any] = collections.deque()
        self._cond = threading.Condition()
        self._wake: Callable[[], None] | None = None

    def put(self, item: Any) -> None:
        with self._cond:
            self._items.append(item)
            self._cond.notify_all()
            wake = self._wake
        if wake is not None:
            wake()

    def get_nowait(self) -> Any:
        with self._cond:
            if not self._items:
                raise queue.Empty
            return self._items.popleft()

    def ready(self) -> bool:
        with self._cond:
            return bool(self._items)

    def wait(self, timeout: float) -> bool:
        """Block this thread until something is in the inbox or ``timeout`` passed."""
        with self._cond:
            return self._cond.wait_for(lambda: bool(self._items), max(0.0, timeout))

    def on_put(self, wake: Callable[[], None] | None) -> None:
        """Call ``wake`` (thread-safe, non-blocking) on every put from now on; called once
        at once where something is already waiting."""
        with self._cond:
            self._wake = wake
            pending = bool(self._items)
        if wake is not None and pending:
            wake()


# The request's environ marks an answer whose body is whole (a page, a JSON answer; not a
# camera preview's endless parts): the ASGI server (web/asgi.py) reads it on the worker
# thread that made it, in the same turn, rather than a turn of the pool per chunk.
WHOLE_BODY_KEY = "companion.whole_body"


class LiveStream:
    """A stream's response body. Iterated, it is an ordinary blocking WSGI body; the ASGI
    server (web/asgi.py) finds it in the request's environ (``ENVIRON_KEY``) and drives it
    on its event loop instead: ``step`` advances the generator on a worker thread, and the
    waits are the loop's."""

    ENVIRON_KEY = "companion.live_stream"

    def __init__(self, gen: Iterator[Any], inbox: Inbox) -> None:
        # (its steps run outside any request: what needs the phone's, the stream makes)
        self.gen = gen
        self.inbox = inbox
        self.taken = False  # driven by the event loop: the WSGI body yields nothing

    def __iter__(self) -> Iterator[str]:
        if self.taken:
            return
        for item in self.gen:
            if isinstance(item, Wait):
                self.inbox.wait(item.seconds)
                continue
            yield item

    def step(self) -> tuple[list[str], Wait | None]:
        """Run the generator to its next wait (the generator itself never blocks): the text
        it said meanwhile, and the :class:`Wait` (None: it ended). One worker thread's turn
        per update, not one per item."""
        said: list[str] = []
        for item in self.gen:
            if isinstance(item, Wait):
                return said, item
            said.append(item)
        return said, None

    def close(self) -> None:
        """WSGI's close of the body: the stream ended on its thread. (Driven by the event
        loop, the request's body is closed at once and the stream goes on: ``end``.)"""
        if not self.taken:
            self.end()

    def end(self) -> None:
        """End the generator (its ``finally`` unsubscribes): the phone went, or the server
        stops."""
        self.gen.close()
