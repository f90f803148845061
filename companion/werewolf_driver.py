"""The timer driver: submits ``{"type": "timeout", "step": id}`` when a step's deadline
passes, so that the night goes on when a role's holder is dead, asleep or slow.

Games keep their deadlines in the state (``state["step"] = {"id", "deadline", ...}``, wall
seconds from ``ctx.now``); the driver only watches them. It listens to the TableService
(each update re-reads that table's step) and, on ``poll()``, fires every deadline that the
injected clock says has passed.

The driver times each step on the monotonic clock: when it first sees a step it takes the
time left (the deadline less the wall time now) and counts that down monotonically; a
deadline moved (``set_timer``) moves it by as much. A Pi that syncs its wall clock mid-game
(+1 h) ended the step at once, and one set back (-2 h) stalled the next step for two hours;
now a clock jump neither ends nor stalls a step. After a restart the step is seen afresh,
with the time it had left by the wall clock (the only clock that survives a reboot).

``start()`` runs ``poll`` on a thread; tests call ``poll`` themselves with a
:class:`companion.clock.FakeClock` and never sleep.

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
        self._due_ns: dict[str, int] = {}  # each deadline on the monotonic clock
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
        now_ns, wall = self.clock.monotonic_ns(), self.clock.wall()
        with self._lock:
            if isinstance(step, dict) and isinstance(step.get("deadline"), (int, float)):
                seen = (step.get("id"), float(step["deadline"]))
                before = self._deadlines.get(table_id)
                if before is None or before[0] != seen[0]:  # a new step: its time left
                    self._due_ns[table_id] = now_ns + int((seen[1] - wall) * 1e9)
                elif before[1] != seen[1]:  # the same step's deadline moved: by as much
                    self._due_ns[table_id] += int((seen[1] - before[1]) * 1e9)
                self._deadlines[table_id] = seen
            else:
                self._deadlines.pop(table_id, None)
                self._due_ns.pop(table_id, None)
        self._wake.set()

    def deadlines(self) -> dict[str, tuple[int, float]]:
        with self._lock:
            return dict(self._deadlines)

    def next_deadline(self) -> float | None:
        with self._lock:
            return min((d for _, d in self._deadlines.values()), default=None)

    def _next_due_ns(self) -> int | None:
        with self._lock:
            return min(self._due_ns.values(), default=None)

    # -- firing --------------------------------------------------------------------------
    def poll(self) -> list[str]:
        """Submit a timeout for every passed deadline; returns the tables it fired for."""
        now_ns = self.clock.monotonic_ns()
        with self._lock:
            due = [(tid, self._deadlines[tid][0]) for tid, at in self._due_ns.items()
                   if now_ns >= at]
        fired = []
        for table_id, step_id in due:
            try:
                self.service.submit(table_id, {"type": "timeout", "step": step_id}, self.actor)
                fired.append(table_id)
            except TableError as exc:
                # stale_step / no_timer: the step ended meanwhile; not_yet: the deadline moved
                log.debug("timeout for %s refused: %s", table_id, exc.rejection.code)
                self.track(table_id)
                if exc.rejection.code == "not_yet":
                    # (a game that would not hear it yet: asked again in a second, not at
                    # every poll)
                    with self._lock:
                        if table_id in self._due_ns:
                            self._due_ns[table_id] = now_ns + 1_000_000_000
            except Exception:  # a broken table must not stop the other tables' timers
                log.exception("timeout for %s failed", table_id)
                with self._lock:
                    self._deadlines.pop(table_id, None)
                    self._due_ns.pop(table_id, None)
        return fired

    def run(self, tick: float = 0.25) -> None:
        while not self._stop.is_set():
            self.poll()
            self._wake.clear()
            nxt = self._next_due_ns()
            wait = tick if nxt is None else max(
                0.01, min(tick, (nxt - self.clock.monotonic_ns()) / 1e9))
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
