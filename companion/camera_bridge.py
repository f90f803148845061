"""From the camera's zone events to the table the camera watches.

The watcher (vision/) reports a stable new top card per zone; the game's pure
``on_card_seen(state, zone, label, confidence[, t_ns, signature, again])`` says what that means
(UNO: this player's play; Versus: a pile's new top; a list of them: Kingsburg's rolls
of the players whose dice lie in view), and the bridge submits each as
``Actor(seat, source="camera")``. A refused card is not logged (the rules refused it), but
every phone hears it as a ``refused`` event, and the buzzer sounds: the player takes the card
back. A camera that stops is announced so the phones fall back to tapping (``camera_lost``),
and so is its coming back (``camera_back``). A card seen
``again`` (its twin dropped on it, or the pile moved) reaches only a hook that takes ``again``
(UNO: a proposal); to any other it is the card its pile already shows.

The host may **pause** the table's camera (``pause``), to teach a card or move the camera in
the middle of a game: until ``resume``, or for ``PAUSE_S`` at most, the cards it sees reach no
game (the phones are told: ``camera_paused``, ``camera_resumed``). A card held up to be
taught, laid on a pile, would otherwise have been a play or a flip. The watcher goes on
watching, so on resuming it knows the table as it is, and only what changes after counts.

Each time the camera is pointed at another table its ``binding`` counts up: the watcher hands
each event over with the binding it was computed for, and an event of an earlier one is
dropped (it reaches the bridge after the switch; it belongs to the table left).
"""

from __future__ import annotations

import inspect
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from companion.events import CameraBack, CameraLost, CardSeen, ZoneCleared
from companion.games.base import Actor
from companion.narration import refusal_speech
from companion.table import TableError, TableService

log = logging.getLogger(__name__)
# A pause the host forgets to end ends by itself: a table that went on playing would
# otherwise tap every card for the rest of the evening without knowing why.
PAUSE_S = 300


class CameraBridge:
    def __init__(self, service: TableService, table_id: str | None = None,
                 clock: Callable[[], int] = time.monotonic_ns) -> None:
        self.service = service
        self.table_id = table_id
        self.binding = 0  # counts the tables pointed at (``handle`` drops older events)
        self._bind_lock = threading.Lock()  # (the table and its binding change together)
        self.last: dict[str, Any] = {}
        self.clock = clock
        self._paused_until: int | None = None  # (the clock's ns)

    def bind(self, table_id: str | None) -> None:
        """Point the camera at a table (None: no table; cards are only shown in the preview).
        A pause was the other table's: it ends."""
        with self._bind_lock:
            if table_id != self.table_id:
                self._paused_until = None
                self.binding += 1
            self.table_id = table_id

    def paused_for(self) -> float:
        """Seconds left of the host's pause (0: the camera's cards reach the game)."""
        until = self._paused_until
        return 0.0 if until is None else max(0.0, (until - self.clock()) / 1e9)

    def pause(self, seconds: float = PAUSE_S) -> float:
        """Hold the cards the camera sees back from the bound table for ``seconds`` (at most
        ``PAUSE_S``; again while paused: from now), and tell its phones. Returns the seconds."""
        tid = self.table_id
        if tid is None:
            raise LookupError("the camera watches no table")
        seconds = max(1.0, min(float(seconds), PAUSE_S))
        self._paused_until = self.clock() + int(seconds * 1e9)
        self.service.announce(tid, [{"type": "camera_paused", "seconds": round(seconds)}])
        return seconds

    def resume(self) -> bool:
        """End the pause (False: there was none); the phones hear ``camera_resumed``."""
        was = self.paused_for() > 0
        self._paused_until = None
        if was and self.table_id is not None:
            self.service.announce(self.table_id, [{"type": "camera_resumed"}])
        return was

    def handle(self, event: CardSeen | ZoneCleared | CameraLost | CameraBack,
               binding: int | None = None) -> dict[str, Any] | None:
        """One watcher event. Returns what was done, for the preview and the tests.
        ``binding``: the one the event was computed for (None: the current one); an
        earlier one's event is dropped, so nothing seen at one table reaches the next."""
        with self._bind_lock:
            tid, current = self.table_id, self.binding
        if tid is None:
            return None
        if binding is not None and binding != current:
            return {"stale": True}
        if isinstance(event, CameraLost):
            self.service.announce(tid, [{"type": "camera_lost", "t_ns": event.t_ns}])
            return {"camera_lost": True}
        if isinstance(event, CameraBack):
            self.service.announce(tid, [{"type": "camera_back", "t_ns": event.t_ns}])
            return {"camera_back": True}
        if self.paused_for() > 0:
            return {"paused": True}  # (the host teaches a card, or moves the camera)
        live = self.service.get(tid)
        hook = getattr(live.game, "on_card_seen", None)
        if hook is None:
            return None
        label = event.label if isinstance(event, CardSeen) else None
        confidence = event.confidence if isinstance(event, CardSeen) else 1.0
        extra: dict[str, Any] = {}
        params = inspect.signature(hook).parameters
        if "t_ns" in params:  # (on the table's timeline: TableService.stamp)
            extra["t_ns"] = self.service.stamp(tid, event.t_ns)
        if "signature" in params:
            extra["signature"] = list(event.signature) if isinstance(
                event, CardSeen) and event.signature else None
        if isinstance(event, ZoneCleared) and not extra:
            return None  # a game that does not follow empty piles
        if "best" in params:  # an unsure card's best guess, for the game to ask about
            extra["best"] = event.best if isinstance(event, CardSeen) else None
        if "cards" in params:  # the whole set seen in the zone (a fanned Dou Di Zhu play)
            extra["cards"] = event.cards if isinstance(event, CardSeen) else None
        if "guesses" in params:  # its unnamed cards' best guesses, by position
            extra["guesses"] = event.guesses if isinstance(event, CardSeen) else None
        if "again" in params:
            extra["again"] = isinstance(event, CardSeen) and event.again
        elif isinstance(event, CardSeen) and event.again:
            return None  # a game that knows no twins: the same card as its pile shows already
        with live.lock:
            action = hook(live.state, event.zone, label, confidence, **extra)
        if action is None:
            return None
        if isinstance(action, list):  # several at once (Kingsburg: the players' rolls)
            done = None
            for one in action:
                done = self._submit(tid, live, one, label)
            return done
        return self._submit(tid, live, action, label)

    def _submit(self, tid: str, live: Any, action: dict[str, Any],
                label: str | None) -> dict[str, Any]:
        """One action the camera's event means, as the camera acting for its seat."""
        seat = action.get("seat") if isinstance(action.get("seat"), int) else None
        try:
            update = self.service.submit(tid, action, Actor(seat=seat, source="camera"))
        except TableError as exc:
            rej = exc.rejection
            # (a game may want it said aloud too: Huang Di's wrong card on a wall)
            spoken = refusal_speech(live.game, live.state, rej, seat)
            self.service.announce(tid, [{"type": "refused", "code": rej.code,
                                         "message": rej.message, "params": rej.params,
                                         "seat": seat, "card": label, "source": "camera",
                                         **spoken}])
            self.last = {"refused": rej.code, "action": action}
            return self.last
        self.last = {"accepted": update.version, "action": action}
        return self.last
