"""The terminal's keys as slap buttons, for ``companion serve`` off a Pi.

Key ``1`` is seat 0, ``2`` seat 1 ... ``0`` seat 9. A terminal sends no key-up, and a held
key repeats (after about half a second, then some 30 times a second), so a key counts as
released after :data:`KEY_SETTINGS` ``release_ns`` without a repeat, and a key held for
seconds is reported stuck and ignored: the same pure debounce as the GPIO buttons, fed with
one down-and-up edge pair per character received. Each character is stamped when it is read.
"""

from __future__ import annotations

import logging
import os
import select
import sys
import threading
from collections.abc import Callable
from typing import Any

from companion.clock import Clock
from companion.events import ButtonPressed
from hardware.buttons import DebounceSettings, LineState, settle, step

log = logging.getLogger(__name__)

DEFAULT_KEYS = "1234567890"
KEY_SETTINGS = DebounceSettings(release_ns=700_000_000, stuck_ns=3_000_000_000, active_level=0)


class KeyButtons:
    """Characters -> ButtonPressed for the seat each key stands for (pure apart from the
    callback: feed it ``(char, t_ns)``)."""

    def __init__(
        self,
        on_press: Callable[[ButtonPressed], None],
        keys: str = DEFAULT_KEYS,
        seats: int | None = None,
        settings: DebounceSettings = KEY_SETTINGS,
        on_stuck: Callable[[int, bool], None] | None = None,
    ) -> None:
        n = len(keys) if seats is None else min(seats, len(keys))
        self.seat_of = {k: i for i, k in enumerate(keys[:n])}
        self.settings = settings
        self._on_press = on_press
        self._on_stuck = on_stuck
        self._states = [LineState() for _ in range(n)]
        self._lock = threading.Lock()

    def feed(self, char: str, t_ns: int) -> None:
        seat = self.seat_of.get(char)
        if seat is None:
            return
        with self._lock:
            state, events = step(self._states[seat], t_ns, 0, self.settings)
            state, more = step(state, t_ns, 1, self.settings)
            self._states[seat] = state
        self._emit(seat, events + more)

    def poll(self, now_ns: int) -> None:
        for seat in range(len(self._states)):
            with self._lock:
                self._states[seat], events = settle(self._states[seat], now_ns, self.settings)
            self._emit(seat, events)

    def _emit(self, seat: int, events: list[tuple[str, int]]) -> None:
        for kind, t in events:
            if kind == "press":
                self._on_press(ButtonPressed(seat, t, "keys"))
            elif kind in ("stuck", "unstuck"):
                if self._on_stuck is not None:
                    self._on_stuck(seat, kind == "stuck")
                elif kind == "stuck":
                    log.warning("key for seat %d held down: ignored until let go", seat)


class TerminalKeys:
    """Reads the terminal in cbreak mode on a thread and feeds a :class:`KeyButtons`;
    ``stop()`` restores the terminal. Does nothing when stdin is not a terminal."""

    def __init__(self, buttons: KeyButtons, clock: Clock, stream: Any = None) -> None:
        self.buttons = buttons
        self.clock = clock
        self.stream = stream if stream is not None else sys.stdin
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._saved: Any = None

    def start(self) -> bool:
        try:
            fd = self.stream.fileno()
        except (AttributeError, OSError, ValueError):
            return False
        if not os.isatty(fd):
            return False
        import termios
        import tty

        self._saved = termios.tcgetattr(fd)
        tty.setcbreak(fd)  # keys arrive at once, unechoed; Ctrl-C still stops the server
        self._thread = threading.Thread(target=self._run, args=(fd,), name="keys", daemon=True)
        self._thread.start()
        keys = " ".join(f"{k}=seat {s}" for k, s in self.buttons.seat_of.items())
        log.warning("slap keys in this terminal: %s", keys)
        return True

    def _run(self, fd: int) -> None:
        while not self._stop.is_set():
            ready, _, _ = select.select([fd], [], [], 0.1)
            now = self.clock.monotonic_ns()
            if ready:
                data = os.read(fd, 64)
                if not data:
                    return
                for char in data.decode(errors="ignore"):
                    self.buttons.feed(char, now)
            self.buttons.poll(now)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=1)
        if self._saved is not None:
            import termios

            termios.tcsetattr(self.stream.fileno(), termios.TCSADRAIN, self._saved)
            self._saved = None
