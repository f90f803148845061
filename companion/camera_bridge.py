"""From the camera's zone events to the table the camera watches.

The watcher (vision/) reports a stable new top card per zone; the game's pure
``on_card_seen(state, zone, label, confidence[, t_ns, signature, again])`` says what that means
(UNO: this player's play; Versus: a pile's new top), and the bridge submits it as
``Actor(seat, source="camera")``. A refused card is not logged (the rules refused it), but
every phone hears it as a ``refused`` event, and the buzzer sounds: the player takes the card
back. A camera that stops is announced so the phones fall back to tapping (``camera_lost``),
and so is its coming back (``camera_back``). A card seen
``again`` (its twin dropped on it, or the pile moved) reaches only a hook that takes ``again``
(UNO: a proposal); to any other it is the card its pile already shows.
"""

from __future__ import annotations

import inspect
import logging
from typing import Any

from companion.events import CameraBack, CameraLost, CardSeen, ZoneCleared
from companion.games.base import Actor
from companion.table import TableError, TableService

log = logging.getLogger(__name__)


class CameraBridge:
    def __init__(self, service: TableService, table_id: str | None = None) -> None:
        self.service = service
        self.table_id = table_id
        self.last: dict[str, Any] = {}

    def bind(self, table_id: str | None) -> None:
        """Point the camera at a table (None: no table; cards are only shown in the preview)."""
        self.table_id = table_id

    def handle(self, event: CardSeen | ZoneCleared | CameraLost | CameraBack
               ) -> dict[str, Any] | None:
        """One watcher event. Returns what was done, for the preview and the tests."""
        tid = self.table_id
        if tid is None:
            return None
        if isinstance(event, CameraLost):
            self.service.announce(tid, [{"type": "camera_lost", "t_ns": event.t_ns}])
            return {"camera_lost": True}
        if isinstance(event, CameraBack):
            self.service.announce(tid, [{"type": "camera_back", "t_ns": event.t_ns}])
            return {"camera_back": True}
        live = self.service.get(tid)
        hook = getattr(live.game, "on_card_seen", None)
        if hook is None:
            return None
        label = event.label if isinstance(event, CardSeen) else None
        confidence = event.confidence if isinstance(event, CardSeen) else 1.0
        extra: dict[str, Any] = {}
        params = inspect.signature(hook).parameters
        if "t_ns" in params:
            extra["t_ns"] = event.t_ns
        if "signature" in params:
            extra["signature"] = list(event.signature) if isinstance(
                event, CardSeen) and event.signature else None
        if isinstance(event, ZoneCleared) and not extra:
            return None  # a game that does not follow empty piles
        if "best" in params:  # an unsure card's best guess, for the game to ask about
            extra["best"] = event.best if isinstance(event, CardSeen) else None
        if "again" in params:
            extra["again"] = isinstance(event, CardSeen) and event.again
        elif isinstance(event, CardSeen) and event.again:
            return None  # a game that knows no twins: the same card as its pile shows already
        with live.lock:
            action = hook(live.state, event.zone, label, confidence, **extra)
        if action is None:
            return None
        seat = action.get("seat") if isinstance(action.get("seat"), int) else None
        try:
            update = self.service.submit(tid, action, Actor(seat=seat, source="camera"))
        except TableError as exc:
            rej = exc.rejection
            self.service.announce(tid, [{"type": "refused", "code": rej.code,
                                         "message": rej.message, "params": rej.params,
                                         "seat": seat, "card": label, "source": "camera"}])
            self.last = {"refused": rej.code, "action": action}
            return self.last
        self.last = {"accepted": update.version, "action": action}
        return self.last
