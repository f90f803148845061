"""The timer driver: submits ``{"type": "timeout", "step": id}`` when a step's deadline
passes, so that the night goes on when a role's holder is dead, asleep or slow.

Games keep their deadlines in the state (``state["step"] = {"id", "deadline", ...}``, wall
seconds from ``ctx.now``); the driver only watches them. It listens to the TableService
(each update re-reads that table's step) and, on ``poll()``, fires every deadline that the
injected clock says has passed. ``start()`` runs ``poll`` on a thread; tests call ``poll``
themselves with a :class:`companion.clock.FakeClock` and never sleep.

Wiring (in serve)::

    driver = StepTimerDriver(service, clock)
    driver.attach()      # listen to updates, pick up running tables
    driver.start()       # background thread; driver.stop() on shutdown
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable

from companion.clock import Clock
from companion.games.base import Actor
from companion.table import TableError, TableService, Update

log = logging.getLogger(__name__)

TIMER = Actor(host=True, source="timer")


class StepTimerDriver:
    def __init__(
        self,
        service: TableService,
        clock: Clock,
        games: Iterable[str] = ("werewolf",),
        actor: Actor = TIMER,
    ) -> None:
        self.service = service
        self.clock = clock
        self.games = frozenset(games)
        self.actor = actor
        self._deadlines: dict[str, tuple[int, float]] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None

    # -- watching ------------------------------------------------------------------------
    def attach(self) -> None:
        """Listen to every table's updates and pick up the tables already running."""
        self.service.add_listener(self.on_update)
        for record in self.service.store.list_tables():
            if record.game in self.games:
                self.track(record.id)

    def on_update(self, update: Update) -> None:
        self.track(update.table_id)

    def track(self, table_id: str) -> None:
        """Re-read the table's current step and deadline."""
        try:
            live = self.service.get(table_id)
        except TableError:
            return
        if live.record.game not in self.games:
            return
        step = live.state.get("step") if isinstance(live.state, dict) else None
        with self._lock:
            if isinstance(step, dict) and isinstance(step.get("deadline"), (int, float)):
                self._deadlines[table_id] = (step.get("id"), float(step["deadline"]))
            else:
                self._deadlines.pop(table_id, None)
        self._wake.set()

    def deadlines(self) -> dict[str, tuple[int, float]]:
        with self._lock:
            return dict(self._deadlines)

    def next_deadline(self) -> float | None:
        with self._lock:
            return min((d for _, d in self._deadlines.values()), default=None)

    # -- firing --------------------------------------------------------------------------
    def poll(self) -> list[str]:
        """Submit a timeout for every passed deadline; returns the tables it fired for."""
        now = self.clock.wall()
        fired = []
        for table_id, (step_id, deadline) in self.deadlines().items():
            if now < deadline:
                continue
            try:
                self.service.submit(table_id, {"type": "timeout", "step": step_id}, self.actor)
                fired.append(table_id)
            except TableError as exc:
                # stale_step / no_timer: the step ended meanwhile; not_yet: the deadline moved
                log.debug("timeout for %s refused: %s", table_id, exc.rejection.code)
                self.track(table_id)
            except Exception:  # a broken table must not stop the other tables' timers
                log.exception("timeout for %s failed", table_id)
                with self._lock:
                    self._deadlines.pop(table_id, None)
        return fired

    def run(self, tick: float = 0.25) -> None:
        while not self._stop.is_set():
            self.poll()
            self._wake.clear()
            nxt = self.next_deadline()
            wait = tick if nxt is None else max(0.01, min(tick, nxt - self.clock.wall()))
            self._wake.wait(wait)

    def start(self, tick: float = 0.25) -> threading.Thread:
        self._stop.clear()
        self._thread = threading.Thread(
            target=self.run, args=(tick,), name="step-timers", daemon=True
        )
        self._thread.start()
        return self._thread

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
