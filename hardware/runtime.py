"""Wiring the hardware to the tables: presses -> races -> the game's action -> submit.

:class:`SlapRouter` takes :class:`~companion.events.ButtonPressed` from every source (GPIO
buttons, terminal keys, the phones' on-screen buttons through :meth:`Hardware.press`),
gathers them per table into races by edge time (:class:`companion.slap.Collector`), and when
a race's collection window has passed on the clock, asks the table's game for the action
(``on_presses(state, presses)``) and submits it as the buttons (``Actor(source="button")``).
The collection window follows the table's ``tie_window_ms`` option, plus a small grace for
callbacks that run late; presses later than that still reach the game, which adds them to
the same race (its ``late_ms``).

Feedback comes before the log's fsync: committing an action waits for the disk (WAL,
``synchronous=FULL``: milliseconds on an SSD, tens on an SD card), so the router first asks
the game for the verdict on the live state (a dry run of the same pure ``apply``, with the
same seeded randomness the commit will use) and tells its *early listeners* (the LEDs and
the buzzer) at once as a ``provisional`` update; then it submits. The committed update
follows through the table's listeners as usual; the indicators skip it when it says the
same thing, and correct themselves when it does not.

:func:`start` builds everything from the config: ``hardware.start(config, service, clock)``.
"""

from __future__ import annotations

import logging
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.clock import Clock, SystemClock
from companion.config import Config
from companion.events import ButtonPressed
from companion.games.base import Actor
from companion.slap import Collector

log = logging.getLogger(__name__)

BUTTONS = Actor(source="button")
GRACE_NS = 500_000  # wait this long after the window for callbacks running late
SWITCH_INTERVAL_S = 0.001  # the GIL hand-over the judging thread can count on
DEFAULT_WINDOW_NS = 1_000_000


def _supports_buttons(game: Any) -> bool:
    return callable(getattr(game, "on_presses", None)) or callable(getattr(game, "on_button", None))


class SlapRouter:
    """Presses -> races -> ``service.submit``. Thread-safe; :meth:`poll` does the judging
    work (the background thread of :meth:`start` calls it at each race's deadline; tests call
    it after moving a fake clock)."""

    def __init__(self, service: Any, clock: Clock, grace_ns: int = GRACE_NS) -> None:
        self.service = service
        self.clock = clock
        self.grace_ns = grace_ns
        self.bound: str | None = None
        self._recent: str | None = None
        self._collectors: dict[str, Collector] = {}
        self._cond = threading.Condition()
        self._stopped = False
        self._thread: threading.Thread | None = None
        self.early_listeners: list[Callable[[Any], None]] = []
        service.add_listener(self._heard)

    def add_early_listener(self, listener: Callable[[Any], None]) -> None:
        """Hear each race's verdict before it is committed (an ``Update`` whose ``kind`` is
        "provisional"); the committed one follows through the table's listeners."""
        self.early_listeners.append(listener)

    # which table the physical buttons belong to ---------------------------------------
    def bind(self, table_id: str | None) -> None:
        """Send the buttons' presses to this table (None: the most recently active one)."""
        self.bound = table_id

    def _heard(self, update: Any) -> None:
        self._recent = update.table_id

    def table_for_buttons(self) -> str | None:
        """The bound table, else the last table that was acted on or joined and plays a game
        with buttons, else the newest such table that is not over."""
        for table_id in (self.bound, self._recent):
            if table_id is not None and self._usable(table_id):
                return table_id
        try:
            records = self.service.store.list_tables()
        except Exception:
            return None
        for rec in records:
            if self._usable(rec.id):
                return rec.id
        return None

    def _usable(self, table_id: str) -> bool:
        try:
            live = self.service.get(table_id)
        except Exception:
            return False
        return _supports_buttons(live.game) and live.game.outcome(live.state) is None

    # presses ---------------------------------------------------------------------------
    def press(self, event: ButtonPressed, table_id: str | None = None) -> None:
        """One debounced press (any thread). GPIO and keys go to :meth:`table_for_buttons`;
        a phone's press names its table."""
        table_id = table_id or self.table_for_buttons()
        if table_id is None:
            log.info("press of seat %d ignored: no table with buttons", event.seat)
            return
        window_ns = self._window_ns(table_id)
        with self._cond:
            collector = self._collectors.get(table_id)
            if collector is None:
                collector = Collector(window_ns, self.grace_ns)
                self._collectors[table_id] = collector
            collector.add({"seat": event.seat, "t_ns": event.t_ns, "source": event.source})
            self._cond.notify()

    def _window_ns(self, table_id: str) -> int:
        try:
            ms = self.service.get(table_id).state["options"]["tie_window_ms"]
            return max(0, round(float(ms) * 1_000_000))
        except Exception:
            return DEFAULT_WINDOW_NS

    def deadline_ns(self) -> int | None:
        with self._cond:
            return self._deadline_locked()

    def _deadline_locked(self) -> int | None:
        times = [d for c in self._collectors.values() if (d := c.deadline_ns()) is not None]
        return min(times) if times else None

    def poll(self, now_ns: int | None = None) -> list[Any]:
        """Judge every race whose window has passed; the updates published."""
        now = self.clock.monotonic_ns() if now_ns is None else now_ns
        with self._cond:
            ready = [
                (table_id, batch)
                for table_id, c in self._collectors.items()
                for batch in c.due(now)
            ]
            for table_id in [t for t, c in self._collectors.items() if not c.pending()]:
                del self._collectors[table_id]
        return [u for table_id, batch in ready if (u := self._submit(table_id, batch))]

    def _submit(self, table_id: str, batch: list[dict[str, Any]]) -> Any:
        from companion.table import TableError

        try:
            live = self.service.get(table_id)
            # (on the table's timeline: it goes on from its stored times after a reboot)
            presses = [{"seat": p["seat"], "t_ns": self.service.stamp(table_id, p["t_ns"])}
                       for p in batch]
            on_presses = getattr(live.game, "on_presses", None)
            on_button = getattr(live.game, "on_button", None)
            if callable(on_presses):
                action = on_presses(live.state, presses)
            elif callable(on_button):
                action = on_button(live.state, presses[0]["seat"], presses[0]["t_ns"])
            else:
                log.info("table %s plays %s, which takes no buttons", table_id, live.game.id)
                return None
            if action is None:
                return None
            if self.early_listeners:
                self._tell_early(table_id, live, action)
            return self.service.submit(table_id, action, BUTTONS)
        except TableError as exc:
            log.info("presses not taken by table %s: %s", table_id, exc)
        except Exception:
            log.exception("presses for table %s failed", table_id)
        return None

    def _tell_early(self, table_id: str, live: Any, action: dict[str, Any]) -> None:
        from companion.games.base import Accepted, Context
        from companion.table import Update, rng_for

        seq = live.version + 1
        ctx = Context(BUTTONS, rng_for(live.record.seed, seq), self.clock.wall(), seq)
        try:
            result = live.game.apply(live.state, action, ctx)
        except Exception:
            log.exception("dry run of %s failed", action.get("type"))
            return
        if not isinstance(result, Accepted):
            return
        update = Update(table_id, seq, "provisional", result.events, BUTTONS)
        for listener in self.early_listeners:
            try:
                listener(update)
            except Exception:
                log.exception("early listener failed")

    # the judging thread ------------------------------------------------------------------
    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="slap-judge", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._stopped:
                    deadline = self._deadline_locked()
                    if deadline is None:
                        self._cond.wait()
                        continue
                    wait_ns = deadline - self.clock.monotonic_ns()
                    if wait_ns <= 0:
                        break
                    self._cond.wait(wait_ns / 1e9)
                if self._stopped:
                    return
            self.poll()

    def stop(self) -> None:
        with self._cond:
            self._stopped = True
            self._cond.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=2)


@dataclass
class Hardware:
    """What :func:`start` returns: call it (or ``stop()``) to release everything."""

    router: SlapRouter
    simulated: bool
    factory: Any = None
    buttons: Any = None
    indicators: Any = None
    keys: Any = None
    _stops: list[Callable[[], None]] = field(default_factory=list)

    def press(
        self,
        table_id: str,
        seat: int,
        t_ns: int | None = None,
        source: str = "web",
    ) -> None:
        """A phone's on-screen slap button: stamped now (when the server got it) unless a
        time is given, then judged with the buttons' presses of the same race."""
        t = self.router.clock.monotonic_ns() if t_ns is None else t_ns
        self.router.press(ButtonPressed(seat, t, source), table_id)

    def bind(self, table_id: str | None) -> None:
        self.router.bind(table_id)

    def stop(self) -> None:
        while self._stops:
            try:
                self._stops.pop()()
            except Exception:
                log.exception("stopping hardware")

    __call__ = stop


def start(
    config: Config,
    service: Any,
    clock: Clock | None = None,
    keys: bool | None = None,
    factory: Any = None,
    poll_s: float = 0.1,
    background: bool = True,
    use_keys: bool = True,
) -> Hardware:
    """Wire the buttons, the LEDs, the buzzer and (off a Pi) the terminal's keys to the
    tables. ``keys``: None = on when the pins are simulated and stdin is a terminal
    (``use_keys=False``, from ``serve --no-keys``, turns them off).
    ``factory``: a pin factory to use instead of choosing one (tests). ``background=False``
    starts no threads: the caller polls ``hw.router`` and ``hw.buttons`` (tests)."""
    from hardware.buttons import ButtonBank
    from hardware.indicators import Indicators
    from hardware.pins import choose_factory

    clock = clock or SystemClock()
    if not use_keys:
        keys = False
    simulated = False
    if factory is None:
        factory, simulated = choose_factory(config)
    else:
        from gpiozero.pins.mock import MockFactory

        simulated = isinstance(factory, MockFactory)
    if background and sys.getswitchinterval() > SWITCH_INTERVAL_S:
        # A thread that wakes to judge a race waits for the GIL up to the switch interval
        # (5 ms by default) when another thread is busy in Python: too long for the verdict.
        log.info("GIL switch interval %.1f ms for the slap judge", SWITCH_INTERVAL_S * 1e3)
        sys.setswitchinterval(SWITCH_INTERVAL_S)
    router = SlapRouter(service, clock)
    hw = Hardware(router, simulated, factory)
    if background:
        router.start()
        hw._stops.append(router.stop)
    try:
        if config.button_pins:
            hw.buttons = ButtonBank(factory, list(config.button_pins), clock, router.press)
            hw._stops.append(hw.buttons.close)
        if config.led_pins or config.buzzer_pin is not None:
            hw.indicators = Indicators(factory, list(config.led_pins), config.buzzer_pin)
            service.add_listener(hw.indicators)
            router.add_early_listener(hw.indicators)
            hw._stops.append(hw.indicators.close)
        if keys or (keys is None and simulated):
            from hardware.keys import KeyButtons, TerminalKeys

            reader = TerminalKeys(KeyButtons(router.press), clock)
            if reader.start():
                hw.keys = reader
                hw._stops.append(reader.stop)
        if hw.buttons is not None and background:
            stop_polling = threading.Event()

            def poll_buttons() -> None:
                while not stop_polling.wait(poll_s):
                    hw.buttons.poll()

            threading.Thread(target=poll_buttons, name="buttons-poll", daemon=True).start()
            hw._stops.append(stop_polling.set)
    except Exception:
        hw.stop()
        raise
    return hw
