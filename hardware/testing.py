"""gpiozero's MockFactory with timestamps the test chooses.

MockPin stamps its edges with ``time.monotonic()`` when a test drives it; here the pins are
real MockPins whose edges carry the factory's ``ticks()``, which the test sets (in ns), so a
recorded edge sequence (bounce 5 to 35 microseconds apart, presses 100 microseconds apart)
goes through the real gpiozero pin callback path with exact times. No sleeping.
"""

from __future__ import annotations

from collections.abc import Iterable

from gpiozero.pins.mock import MockFactory, MockPin, PinState


class TimedMockPin(MockPin):
    """A MockPin whose edges are stamped with its factory's ``ticks()``."""

    def _change_state(self, value):
        if self._state != value:
            t = self._factory.ticks()
            self._state = value
            self.states.append(PinState(t - self._last_change, value))
            self._last_change = t
            return True
        return False

    def clear_states(self):
        self._last_change = self._factory.ticks()
        self.states = [PinState(0, self._state)]


class ManualTicksFactory(MockFactory):
    """A MockFactory whose ticks are integer nanoseconds set by the test (``now_ns``)."""

    def __init__(self, start_ns: int = 1_000_000_000, revision=None, clock=None):
        self.now_ns = start_ns
        self.clock = clock  # a FakeClock to keep up with the edges (an edge is never future)
        super().__init__(revision=revision, pin_class=TimedMockPin)

    def ticks(self):
        return self.now_ns

    def ticks_diff(self, later, earlier):
        return (later - earlier) / 1e9

    def drive(self, number: int, edges: Iterable[tuple[int, int]]) -> None:
        """Drive pin ``number`` through ``(t_ns, level)`` edges, each at its own time."""
        pin = self.pin(number)
        for t_ns, level in edges:
            self.now_ns = t_ns
            if self.clock is not None and self.clock.monotonic_ns() < t_ns:
                self.clock.advance(ns=t_ns - self.clock.monotonic_ns())
            if level:
                pin.drive_high()
            else:
                pin.drive_low()

    def drive_all(self, edges: Iterable[tuple[int, int, int]]) -> None:
        """Drive several pins through ``(t_ns, pin, level)`` edges, in the order given (which
        may differ from time order: callbacks can run late)."""
        for t_ns, number, level in edges:
            self.drive(number, [(t_ns, level)])


def bounce(t_ns: int, level: int, gaps_ns: Iterable[int] = (12_000, 18_000, 25_000, 35_000)):
    """A switch contact settling to ``level`` at ``t_ns``: the first edge, then bounce edges
    5 to 35 microseconds apart (gaps given), ending at ``level``."""
    edges = [(t_ns, level)]
    t, lv = t_ns, level
    for gap in gaps_ns:
        t += gap
        lv = 1 - lv
        edges.append((t, lv))
    if lv != level:
        edges.append((t + 5_000, level))
    return edges
