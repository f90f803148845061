"""Clocks: the real monotonic/wall clock and a fake one that tests move by hand.

Everything that needs the time takes a clock, so no test ever sleeps to wait for one.
"""

from __future__ import annotations

import threading
import time
from typing import Protocol


class Clock(Protocol):
    def monotonic_ns(self) -> int: ...

    def wall(self) -> float: ...


class SystemClock:
    """The real clock: monotonic nanoseconds for ordering, wall seconds for the log."""

    def monotonic_ns(self) -> int:
        return time.monotonic_ns()

    def wall(self) -> float:
        return time.time()


class FakeClock:
    """A clock that only moves when told to; safe to share between threads."""

    def __init__(self, start_ns: int = 1_000_000_000, wall: float = 1_700_000_000.0) -> None:
        self._ns = start_ns
        self._wall0 = wall
        self._start = start_ns
        self._lock = threading.Lock()

    def monotonic_ns(self) -> int:
        with self._lock:
            return self._ns

    def wall(self) -> float:
        with self._lock:
            return self._wall0 + (self._ns - self._start) / 1e9

    def advance(self, seconds: float = 0.0, *, ns: int = 0) -> None:
        with self._lock:
            self._ns += int(seconds * 1e9) + ns

    def set_wall(self, seconds: float) -> None:
        """The wall clock is set (NTP syncing a Pi mid-game, a host fixing the date): the
        wall time jumps by ``seconds``, the monotonic clock does not move."""
        with self._lock:
            self._wall0 += seconds
