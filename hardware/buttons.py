"""Slap buttons: pin edges with their timestamps -> debounced presses -> ButtonPressed.

Who was first is decided by the *edge timestamps* the pin factory reports through the
pin-level ``when_changed(ticks, state)`` (lgpio stamps edges in the kernel), converted to the
companion's monotonic nanoseconds, never by the order the callbacks run in.

Debouncing is ours, as a pure function over ``(t_ns, level)`` edges (:func:`step`,
:func:`debounce`): a press is stamped with its *first* edge (switch bounce follows it by 5 to
35 microseconds and must not move the press later), the button counts as released only after
its line has stayed idle for ``release_ns``, and a button held down for ``stuck_ns`` is
reported stuck once and then ignored until it is released: never a stream of slaps.
gpiozero's own ``bounce_time`` is left off: it would hide the first edge.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

from companion.clock import Clock
from companion.events import ButtonPressed

log = logging.getLogger(__name__)

Edge = tuple[int, int]  # (t_ns, level)
Event = tuple[str, int]  # ("press" | "release" | "stuck" | "unstuck", t_ns)


@dataclass(frozen=True)
class DebounceSettings:
    release_ns: int = 10_000_000  # idle this long after a press: released
    stuck_ns: int = 3_000_000_000  # held this long: stuck (reported once, then ignored)
    active_level: int = 0  # buttons to ground with the pull-up on: pressed reads low


@dataclass(frozen=True)
class LineState:
    """One button's debounce state: pressed or not, since when, and (while pressed) since
    when the line has been idle, if it is."""

    pressed: bool = False
    since_ns: int = 0
    idle_since_ns: int | None = None
    stuck: bool = False


def held_at_start(t_ns: int) -> LineState:
    """A button already down when we start (or a shorted wire): held, and no press."""
    return LineState(pressed=True, since_ns=t_ns)


def settle(state: LineState, now_ns: int, cfg: DebounceSettings) -> tuple[LineState, list[Event]]:
    """What time alone decides by ``now_ns``: a hold that became stuck, a release."""
    if not state.pressed:
        return state, []
    events: list[Event] = []
    stuck_at = state.since_ns + cfg.stuck_ns
    held_to = state.idle_since_ns if state.idle_since_ns is not None else now_ns
    if not state.stuck and held_to >= stuck_at and now_ns >= stuck_at:
        state = replace(state, stuck=True)
        events.append(("stuck", stuck_at))
    idle = state.idle_since_ns
    if idle is not None and now_ns - idle >= cfg.release_ns:
        events.append(("release", idle))
        if state.stuck:
            events.append(("unstuck", idle))
        state = LineState(pressed=False, since_ns=idle)
    return state, events


def step(
    state: LineState, t_ns: int, level: int, cfg: DebounceSettings
) -> tuple[LineState, list[Event]]:
    """One edge: the state after it and what it means (a press is stamped with its edge)."""
    state, events = settle(state, t_ns, cfg)
    active = int(level) == cfg.active_level
    if active:
        if not state.pressed:
            events.append(("press", t_ns))
            return LineState(pressed=True, since_ns=t_ns), events
        return replace(state, idle_since_ns=None), events
    if state.pressed and state.idle_since_ns is None:
        state = replace(state, idle_since_ns=t_ns)
    return state, events


def debounce(
    edges: Iterable[Edge],
    cfg: DebounceSettings = DebounceSettings(),
    state: LineState = LineState(),
    now_ns: int | None = None,
) -> tuple[list[Event], LineState]:
    """A recorded edge sequence -> its presses, releases and stuck reports, and the state
    it leaves (settled at ``now_ns`` if given)."""
    events: list[Event] = []
    for t, level in edges:
        state, ev = step(state, t, level, cfg)
        events += ev
    if now_ns is not None:
        state, ev = settle(state, now_ns, cfg)
        events += ev
    return events, state


class TicksToNs:
    """Pin-factory ticks -> the clock's monotonic ns, anchored once at start.

    Ticks are opaque: only ``factory.ticks_diff`` may compare them. With lgpio they are the
    kernel's monotonic edge times, the same clock as ``time.monotonic_ns``.
    """

    #: An edge converted to further than this from the clock's "now" means the factory's edge
    #: stamps and its ``ticks()`` are not on the same clock: re-anchor on that edge.
    SANE_NS = 1_000_000_000

    def __init__(self, factory: Any, clock: Clock) -> None:
        self._factory = factory
        self._ticks0 = factory.ticks()
        self._ns0 = clock.monotonic_ns()

    def __call__(self, ticks: Any, now_ns: int | None = None) -> int:
        t = self._ns0 + round(self._factory.ticks_diff(ticks, self._ticks0) * 1e9)
        if now_ns is not None and not now_ns - 5 * self.SANE_NS < t < now_ns + self.SANE_NS:
            log.warning(
                "pin edge times are %.3f s off the clock: re-anchoring (check the pin factory)",
                (t - now_ns) / 1e9,
            )
            self._ticks0, self._ns0 = ticks, now_ns
            t = now_ns
        return t


class ButtonBank:
    """One arcade button per seat on the given pins (BCM numbers), each wired from the pin to
    ground with the internal pull-up on. Calls ``on_press(ButtonPressed)`` from the pin
    factory's callback thread; ``on_stuck(seat, stuck)`` when a button becomes stuck (True)
    and when a stuck button is released (False)."""

    def __init__(
        self,
        factory: Any,
        pins: list[int],
        clock: Clock,
        on_press: Callable[[ButtonPressed], None],
        on_stuck: Callable[[int, bool], None] | None = None,
        settings: DebounceSettings = DebounceSettings(),
        source: str = "gpio",
    ) -> None:
        self.settings = settings
        self.source = source
        self._clock = clock
        self._on_press = on_press
        self._on_stuck = on_stuck or _log_stuck
        self._lock = threading.Lock()
        self._to_ns = TicksToNs(factory, clock)
        self._pins: list[Any] = []
        self._states: list[LineState] = []
        self._callbacks: list[Callable[[Any, Any], None]] = []  # pins hold weak references
        try:
            for seat, number in enumerate(pins):
                pin = factory.pin(number)
                self._pins.append(pin)
                pin.function = "input"
                pin.pull = "up" if settings.active_level == 0 else "down"
                pin.bounce = None
                pin.edges = "both"
                start = clock.monotonic_ns()
                down = int(pin.state) == settings.active_level
                self._states.append(held_at_start(start) if down else LineState())
                callback = self._make_callback(seat)
                self._callbacks.append(callback)
                pin.when_changed = callback
        except Exception:
            self.close()
            raise

    def _make_callback(self, seat: int) -> Callable[[Any, Any], None]:
        def changed(ticks: Any, state: Any) -> None:
            self.edge(seat, self._to_ns(ticks, self._clock.monotonic_ns()), int(bool(state)))

        return changed

    def edge(self, seat: int, t_ns: int, level: int) -> None:
        """One edge of one seat's line (the pin callback; tests may call it directly)."""
        with self._lock:
            self._states[seat], events = step(self._states[seat], t_ns, level, self.settings)
        self._emit(seat, events)

    def poll(self, now_ns: int | None = None) -> None:
        """Let time decide stuck buttons and releases (call every ~100 ms)."""
        now = self._clock.monotonic_ns() if now_ns is None else now_ns
        for seat in range(len(self._states)):
            with self._lock:
                self._states[seat], events = settle(self._states[seat], now, self.settings)
            self._emit(seat, events)

    def _emit(self, seat: int, events: list[Event]) -> None:
        for kind, t in events:
            if kind == "press":
                self._on_press(ButtonPressed(seat, t, self.source))
            elif kind == "stuck":
                self._on_stuck(seat, True)
            elif kind == "unstuck":
                self._on_stuck(seat, False)

    def close(self) -> None:
        for pin in self._pins:
            try:
                pin.when_changed = None
                pin.close()
            except Exception:  # closing must not stop the others closing
                log.exception("closing pin %s", pin)
        self._pins = []


def _log_stuck(seat: int, stuck: bool) -> None:
    if stuck:
        log.warning("seat %d's button is held down (stuck?): ignored until released", seat)
    else:
        log.warning("seat %d's button was released", seat)
