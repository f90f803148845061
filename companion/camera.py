"""The camera at the table: one source, one frame hub, one zone watcher, one bridge.

The source is chosen like gpiozero chooses pin factories (``vision.sources.make_source``:
picamera2 on a Pi, a webcam, else the replay of sample photos, with a loud warning). The
watcher recognises the cards of the bound table's deck in its zones and the bridge turns
stable changes into that table's actions. The preview reuses the watcher's latest cards, so
the phone's live picture costs no second recognition. Everything heavy (OpenCV) is imported
only when the camera starts, so ``companion serve`` answers at once.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from companion.camera_bridge import CameraBridge
from companion.config import Config
from companion.table import TableService, Update

log = logging.getLogger(__name__)
DEFAULT_ZONES: tuple[tuple[str, tuple[float, float, float, float]], ...] = (
    ("play-area", (0.05, 0.05, 0.95, 0.95)),)


def identifier_for(deck: str, data_path: Path | None = None) -> Any:
    """The Identifier for a camera deck. ``taught:<name>`` is a deck whose art is unknown
    (Versus): cards are found but named only as far as the table taught deck ``<name>``;
    the rest are unnamed, and the watcher tells their pictures apart by image signature."""
    from vision.identify import Identifier

    if deck.startswith("taught:"):
        from vision.signature import unknown_art_identifier

        return unknown_art_identifier(deck.partition(":")[2], data_path)
    return Identifier(deck, data_path=data_path)


def _store_name(deck: str) -> str:
    """Where a camera deck's taught cards live: ``taught:versus`` under ``versus``."""
    return deck.partition(":")[2] or deck


class CameraRuntime:
    def __init__(self, cfg: Config, service: TableService) -> None:
        self.cfg = cfg
        self.service = service
        self.bridge = CameraBridge(service)
        self.hub: Any = None
        self.watcher: Any = None
        self.source_name = ""
        self.error: str | None = None
        self.explicit = False
        self._stop = threading.Event()
        self.ready = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    # -- which table, which deck, which zones ------------------------------------------
    @property
    def table_id(self) -> str | None:
        return self.bridge.table_id

    def zones_path(self, table_id: str) -> Path:
        return self.cfg.data_path / "zones" / f"{table_id}.json"

    def zones_for(self, table_id: str) -> list[dict[str, Any]]:
        """The table's zones: set from a phone, else the game's own, else the whole view."""
        import json

        path = self.zones_path(table_id)
        if path.is_file():
            return json.loads(path.read_text())
        game = self.service.get(table_id).game
        zones = getattr(game, "camera_zones", None) or DEFAULT_ZONES
        if callable(zones):
            zones = zones(self.service.get(table_id).record.players)
        return [{"name": n, "rect": list(r)} for n, r in zones]

    def set_zones(self, table_id: str, zones: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Store a table's zones (normalised rectangles); ValueError for a bad one."""
        import json

        from vision.zones import Zone

        parsed = [Zone.from_dict(z) for z in zones]
        if not parsed or len(parsed) > 16 or len({z.name for z in parsed}) != len(parsed):
            raise ValueError("1 to 16 zones with distinct names")
        out = [{"name": z.name, "rect": list(z.rect)} for z in parsed]
        path = self.zones_path(table_id)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(out))
        if table_id == self.table_id and self.watcher is not None:
            self.watcher.set_zones(parsed)
        return out

    def bind(self, table_id: str | None, explicit: bool = True) -> None:
        """Watch this table's zones with its game's deck (the host's choice, or the latest
        table whose game uses the camera)."""
        with self._lock:
            self.explicit = explicit and table_id is not None
            self.bridge.bind(table_id)
            if self.watcher is not None:
                self._configure_watcher()

    def on_update(self, update: Update) -> None:
        """Follow the most recently active camera game, unless the host chose one."""
        if self.explicit or update.table_id == self.table_id:
            return
        game = self.service.get(update.table_id).game
        if getattr(game, "camera_deck", None) and getattr(game, "on_card_seen", None):
            self.bind(update.table_id, explicit=False)

    def deck_for(self, table_id: str | None) -> str:
        """The camera deck of a table's game: a built-in deck, or ``taught:<game id>`` for
        art nobody told us about (the deck taught under the game's name)."""
        if table_id is None:
            return "uno"
        game = self.service.get(table_id).game
        deck = getattr(game, "camera_deck", None) or "uno"
        return f"taught:{getattr(game, 'id', 'taught')}" if deck == "taught" else deck

    # -- teaching the table's printing ---------------------------------------------------
    def _store(self) -> Any:
        from vision.store import DeckStore

        return DeckStore(self.cfg.data_path)

    def taught(self, table_id: str) -> dict[str, Any]:
        """What the table taught for this table's deck: card name -> photos."""
        deck = self.deck_for(table_id)
        from companion.cards import DECKS, spelled

        examples = self._store().examples(_store_name(deck))
        return {"deck": deck, "names": list(DECKS.get(deck, ())),
                "cards": {spelled(deck, k) or k: len(v) // 2 for k, v in sorted(examples.items())}}

    def teach(self, table_id: str, label: str) -> int:
        """Remember the largest card in the latest frame as ``label`` of the table's deck
        (for a built-in deck: the table's own printing, which then wins over the model);
        returns how many photos that card now has. The watcher reads with it at once."""
        frame = self.hub.latest if self.hub is not None else None
        if frame is None:
            raise LookupError("no frame")
        deck = self.deck_for(table_id)
        count = self._store().teach(_store_name(deck), label, frame.image)
        self._reload(deck)
        return count

    def forget(self, table_id: str, label: str) -> bool:
        deck = self.deck_for(table_id)
        gone = self._store().forget(_store_name(deck), label)
        self._reload(deck)
        return gone

    def _reload(self, deck: str) -> None:
        with self._lock:
            if self.watcher is not None and self.watcher.identifier is not None and \
                    self.watcher.identifier.deck == deck:
                self.watcher.identifier = identifier_for(deck, self.cfg.data_path)

    def _configure_watcher(self) -> None:
        from vision.zones import Zone

        tid = self.bridge.table_id
        deck = self.deck_for(tid)
        zones = [Zone(n, r) for n, r in DEFAULT_ZONES]
        if tid is not None:
            zones = [Zone.from_dict(z) for z in self.zones_for(tid)]
        if self.watcher.identifier is None or self.watcher.identifier.deck != deck:
            self.watcher.identifier = identifier_for(deck, self.cfg.data_path)
        self.watcher.sign_named = deck.startswith("taught:")
        self.watcher.set_zones(zones)

    # -- running -----------------------------------------------------------------------
    def start(self) -> CameraRuntime:
        """Start capture and watching in the background; failures are reported, not raised."""
        self._stop = threading.Event()
        self.ready = threading.Event()  # set once the camera is open and watched
        self.error = None
        self._thread = threading.Thread(target=self._run, args=(self._stop,), name="camera",
                                        daemon=True)
        self._thread.start()
        return self

    def restart(self, table_id: str | None = None, timeout: float = 5.0) -> None:
        """Open the camera again (a webcam plugged in late; a replay from its start), then
        watch ``table_id``: bound only once the old frames have stopped, so nothing the old
        capture still saw can reach the new table."""
        self.stop()
        if self._thread is not None:
            self._thread.join(timeout)
        self.hub = None
        self.watcher = None
        if table_id is not None:
            self.bind(table_id)
        self.start()

    def _run(self, stop: threading.Event) -> None:
        try:
            from vision.frame_hub import FrameHub
            from vision.sources import make_source
            from vision.watcher import ZoneWatcher

            source = make_source(self.cfg)
            self.source_name = type(source).__name__
            self.hub = FrameHub(source).start()
            self.watcher = ZoneWatcher([], None, self.bridge.handle)
            with self._lock:
                self._configure_watcher()
            self.ready.set()
            self.watcher.run(self.hub, time.monotonic_ns, stop)
        except Exception as exc:  # no camera must never stop the scores from being kept
            self.error = f"{exc.__class__.__name__}: {exc}"
            log.exception("camera stopped; the phones keep working by tapping")

    def stop(self) -> None:
        self._stop.set()
        if self.hub is not None:
            self.hub.stop()

    def status(self) -> dict[str, Any]:
        stale = self.hub.stale_for_ns() if self.hub is not None else None
        frame = self.hub.latest if self.hub is not None else None
        return {"running": self.hub is not None and self.error is None,
                "source": self.source_name, "error": self.error, "table": self.table_id,
                "zones": self.zones_for(self.table_id) if self.table_id else [],
                "top_cards": self.watcher.state() if self.watcher is not None else {},
                "stale_ms": None if stale is None else stale / 1e6,
                # a monochrome camera: the cards that only their colour tells apart are
                # asked about (vision.identify.colourless), and the camera page says why
                "colourless": frame is not None and _colourless(frame.image),
                # what to fix while the camera is set up: too dark, cards blown out, blurred
                # or too small (vision.view_check), judged on the cards last found
                "view": [] if frame is None else _view_hints(
                    frame.image, list(self.watcher.last_cards) if self.watcher else [],
                    self.deck_for(self.table_id))}

    def snapshot(self, annotate: bool = True) -> bytes | None:
        """The latest frame as JPEG (with cards and zones drawn), for dragging zones on."""
        from vision.preview import draw, encode_jpeg

        frame = self.hub.latest if self.hub is not None else None
        if frame is None:
            return None
        watcher = self.watcher
        if not annotate or watcher is None:
            return encode_jpeg(frame.image)
        return encode_jpeg(draw(frame.image, list(watcher.last_cards), []))

    def preview(self, max_frames: int | None = None) -> Iterator[bytes]:
        """MJPEG parts: each new frame with the watcher's cards and the zones drawn on it."""
        from vision.preview import draw, encode_jpeg, mjpeg_part

        seq, sent = 0, 0
        while self.hub is not None and (max_frames is None or sent < max_frames):
            frame = self.hub.wait_next(seq, timeout=2.0)
            if frame is None:
                return
            seq = frame.seq
            watcher = self.watcher
            cards = list(watcher.last_cards) if watcher is not None else []
            zones = list(watcher.zones) if watcher is not None else []
            yield mjpeg_part(encode_jpeg(draw(frame.image, cards, zones)))
            sent += 1


def _view_hints(image: Any, cards: list[Any], deck: str) -> list[str]:
    from vision.view_check import view_hints

    return view_hints(image, cards, deck)


def _colourless(image: Any) -> bool:
    from vision.identify import colourless

    return colourless(image)
