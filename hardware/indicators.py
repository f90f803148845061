"""LEDs and the buzzer, reacting to the tables' updates.

:func:`feedback` is the pure part: an update's game events -> what to light and sound.
:class:`Indicators` applies it to gpiozero devices at once, from the table's listener (which
runs right after the verdict is committed), and switches things off later from one small
timer thread. A plain (active) buzzer has one pitch, so the tones differ by rhythm.
"""

from __future__ import annotations

import heapq
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

#: Buzzer patterns: (on seconds, off seconds) pairs.
TONES: dict[str, list[tuple[float, float]]] = {
    "right": [(0.12, 0.0)],  # one short beep
    "wrong": [(0.35, 0.08), (0.35, 0.0)],  # two long buzzes
    "tie": [(0.06, 0.06), (0.06, 0.06), (0.06, 0.0)],  # three quick blips
    "lock": [(0.08, 0.0)],  # quiz: someone has the floor
    "end": [(0.2, 0.1), (0.2, 0.1), (0.6, 0.0)],
}
LED_RIGHT_S = 2.0
LED_BLINK_S = 0.15

Command = tuple[Any, ...]


def feedback(events: list[dict[str, Any]]) -> list[Command]:
    """What an update's events ask of the LEDs and the buzzer:
    ``("leds_off",)``, ``("led", seat, seconds)`` (None: until the next verdict),
    ``("blink", seat, times)`` and ``("tone", name)``."""
    out: list[Command] = []
    for e in events:
        kind = e.get("type")
        if kind == "verdict":
            out.append(("leds_off",))
            verdict = e.get("kind")
            if verdict == "right" and isinstance(e.get("winner"), int):
                out += [("led", e["winner"], LED_RIGHT_S), ("tone", "right")]
            elif verdict == "wrong":
                out += [("blink", s, 3) for s in e.get("wrong", []) if isinstance(s, int)]
                out.append(("tone", "wrong"))
            elif verdict == "tie":
                out += [("led", s, None) for s in e.get("tied", []) if isinstance(s, int)]
                out.append(("tone", "tie"))
            elif verdict == "reslap":
                out.append(("tone", "tie"))
            elif verdict == "lock" and isinstance(e.get("seat"), int):
                out += [("led", e["seat"], None), ("tone", "lock")]
            elif verdict == "answer":
                out.append(("tone", "right" if e.get("right") else "wrong"))
        elif kind == "refused":  # a card the rules refuse (UNO): the player takes it back
            out.append(("tone", "wrong"))
        elif kind == "game_over":
            out += [("leds_off",), ("tone", "end")]
    return out


class Scheduler:
    """Runs callables at monotonic times on one daemon thread."""

    def __init__(self) -> None:
        self._heap: list[tuple[float, int, Callable[[], None]]] = []
        self._cond = threading.Condition()
        self._n = 0
        self._stopped = False
        self._thread = threading.Thread(target=self._run, name="indicators", daemon=True)
        self._thread.start()

    def later(self, delay_s: float, fn: Callable[[], None]) -> None:
        with self._cond:
            self._n += 1
            heapq.heappush(self._heap, (time.monotonic() + delay_s, self._n, fn))
            self._cond.notify()

    def cancel_all(self) -> None:
        with self._cond:
            self._heap.clear()

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._stopped and (not self._heap or self._heap[0][0] > time.monotonic()):
                    timeout = self._heap[0][0] - time.monotonic() if self._heap else None
                    self._cond.wait(timeout)
                if self._stopped:
                    return
                _, _, fn = heapq.heappop(self._heap)
            try:
                fn()
            except Exception:
                log.exception("indicator step failed")

    def stop(self) -> None:
        with self._cond:
            self._stopped = True
            self._cond.notify()
        self._thread.join(timeout=2)


class Indicators:
    """A listener for :meth:`TableService.add_listener`: one LED per seat (``led_pins`` in
    seat order) and a buzzer, as gpiozero devices on the chosen pin factory. Missing pins
    simply mean no LED or no buzzer. ``later(delay_s, fn)`` schedules the switching off."""

    def __init__(
        self,
        factory: Any,
        led_pins: list[int],
        buzzer_pin: int | None,
        later: Callable[[float, Callable[[], None]], None] | None = None,
    ) -> None:
        from gpiozero import LED, Buzzer

        self.leds = []
        self.buzzer = None
        try:
            self.leds = [LED(p, pin_factory=factory) for p in led_pins]
            if buzzer_pin is not None:
                self.buzzer = Buzzer(buzzer_pin, pin_factory=factory)
        except Exception:
            self.close()
            raise
        self._scheduler = None
        if later is None:
            self._scheduler = Scheduler()
            later = self._scheduler.later
        self._later = later
        self._generation = [0] * len(self.leds)
        self._lock = threading.Lock()
        self._closed = False
        self._shown: dict[tuple[Any, Any], list[Command]] = {}  # provisional, by version
        self._shown_order: list[tuple[Any, Any]] = []

    def __call__(self, update: Any) -> None:
        """A table update, or the router's provisional one (``kind == "provisional"``): the
        committed update that repeats a provisional one already shown is skipped."""
        if self._closed:
            return
        events = list(getattr(update, "events", []) or [])
        commands = feedback(events)
        if not commands:
            return
        key = (getattr(update, "table_id", None), getattr(update, "version", None))
        with self._lock:
            if getattr(update, "kind", None) == "provisional":
                self._shown[key] = commands
                self._shown_order.append(key)
                while len(self._shown_order) > 16:  # commits that never came: forget them
                    self._shown.pop(self._shown_order.pop(0), None)
            elif self._shown.pop(key, None) == commands:
                return
        for command in commands:
            self.run(command)

    def run(self, command: Command) -> None:
        kind = command[0]
        if kind == "leds_off":
            for seat in range(len(self.leds)):
                self._set(seat, False)
        elif kind == "led" and 0 <= command[1] < len(self.leds):
            gen = self._set(command[1], True)
            if command[2] is not None:
                self._later(command[2], lambda s=command[1], g=gen: self._off_if(s, g))
        elif kind == "blink" and 0 <= command[1] < len(self.leds):
            seat, times = command[1], command[2]
            for i in range(times):
                self._later(2 * i * LED_BLINK_S, lambda s=seat: self._set(s, True))
                self._later((2 * i + 1) * LED_BLINK_S, lambda s=seat: self._set(s, False))
        elif kind == "tone" and self.buzzer is not None:
            t = 0.0
            for on_s, off_s in TONES.get(command[1], []):
                if t:
                    self._later(t, self.buzzer.on)
                else:
                    self.buzzer.on()
                self._later(t + on_s, self.buzzer.off)
                t += on_s + off_s

    def _set(self, seat: int, on: bool) -> int:
        with self._lock:
            self._generation[seat] += 1
            gen = self._generation[seat]
        if on:
            self.leds[seat].on()
        else:
            self.leds[seat].off()
        return gen

    def _off_if(self, seat: int, gen: int) -> None:
        """Switch off a timed LED unless something newer has set it since."""
        with self._lock:
            current = self._generation[seat] == gen
        if current:
            self._set(seat, False)

    def close(self) -> None:
        self._closed = True
        if getattr(self, "_scheduler", None) is not None:
            self._scheduler.stop()
        for dev in [*self.leds, self.buzzer]:
            if dev is not None:
                try:
                    dev.close()
                except Exception:
                    log.exception("closing %r", dev)
