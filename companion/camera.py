"""The camera at the table: one source, one frame hub, one zone watcher, one bridge.

The source is chosen like gpiozero chooses pin factories (``vision.sources.make_source``:
picamera2 on a Pi, a webcam, else the replay of sample photos, with a loud warning). The
watcher recognises the cards of the bound table's deck in its zones and the bridge turns
stable changes into that table's actions. The preview reuses the watcher's latest cards, so
the phone's live picture costs no second recognition: the cards are drawn on the very frame
they were found in (``ZoneWatcher.seen``), never on a newer one where they may not lie.
Everything heavy (OpenCV) is imported only when the camera starts, so ``companion serve``
answers at once.

The camera thread outlives a frame that fails (logged with its traceback, the last error in
the status): one bad frame, or a bug met once, must not leave the table unwatched until
someone restarts the server.

``hub`` and ``watcher`` are set and cleared only under ``_lock`` (the web threads bind, set
zones and restart while the camera thread opens the source), and the camera thread publishes
them only if it was not stopped meanwhile; its own hub is stopped whatever happens, so a
restart tapped while a camera opens leaves no capture running with its source open.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.camera_bridge import CameraBridge
from companion.config import Config
from companion.table import TableService, Update

log = logging.getLogger(__name__)
DEFAULT_ZONES: tuple[tuple[str, tuple[float, float, float, float]], ...] = (
    ("play-area", (0.05, 0.05, 0.95, 0.95)),)
LOST_MS = 2000  # no frame for this long: the camera is lost (the watcher's, before it runs)
# The watcher recognises cards only while a table uses the camera (one is watched, and its
# game is not over) or a phone looked at the camera (its page, the preview, a snapshot, the
# status) within this many seconds: otherwise it sleeps (``CameraRuntime.awake``).
LOOKED_S = 15.0  # (the camera page asks its status every 2 s)


class CameraStalled(Exception):
    """The camera's latest frame is older than the watcher's ``lost_ms``: it stopped sending
    pictures, and what it last sent is no longer the table."""


@dataclass(frozen=True)
class Taught:
    photos: int  # photos of that card now known
    jpeg: bytes  # the card as taught, rectified


class ModelReadsOther(Exception):
    """Teaching a built-in deck a card its model reads surely as another one."""

    def __init__(self, reads: str, confidence: float) -> None:
        super().__init__(f"the model reads {reads} ({confidence:.2f})")
        self.reads, self.confidence = reads, confidence


class QuestionGone(Exception):
    """A confirmation came for a card no question is waiting on (never asked, asked under
    another name, answered already, or asked more than ``QUESTION_S`` ago)."""


# How long the card the host was asked about ("Teach it anyway?") waits for the answer.
QUESTION_S = 120


def identifier_for(deck: str, data_path: Path | None = None) -> Any:
    """The Identifier for a camera deck. ``taught:<name>`` is a deck whose art is unknown
    (Versus): cards are found but named only as far as the table taught deck ``<name>``;
    the rest are unnamed, and the watcher tells their pictures apart by image signature.
    ``dice``: no cards but dice (Kingsburg), read by their colour and pips (vision.dice)."""
    from vision.identify import Identifier

    if deck == "dice":
        from vision.dice import DiceReader

        return DiceReader()
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
        self.choice: Any = None  # vision.sources.SourceChoice, once the camera is open
        self.error: str | None = None
        self.frame_error: str | None = None  # the last frame that failed, and why
        self.frame_errors = 0
        self.explicit = False
        self._stop = threading.Event()
        self.ready = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._zones_lock = threading.Lock()  # (saved whole, one at a time)
        # the card each table's host was asked about, kept for the answer: (its name, its
        # crop, when asked). A confirmation teaches that very crop, not the newest frame:
        # the card in view may have changed while the question was on the phone.
        self._questions: dict[str, tuple[str, Any, int]] = {}
        self._looked: float | None = None  # (time.monotonic() a phone last looked)
        # the table heard camera_lost from the watcher a restart replaced: the new one tells
        # it camera_back with its first frame (the phones kept "camera lost" after a restart)
        self._lost_told = False

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
        zones = self._game_zones(table_id) or DEFAULT_ZONES
        return [{"name": n, "rect": list(r)} for n, r in zones]

    def _game_zones(self, table_id: str) -> list[tuple[str, Any]]:
        """The game's own zones for this table (none: the game names no zone)."""
        live = self.service.get(table_id)
        zones = getattr(live.game, "camera_zones", None) or ()
        if callable(zones):
            zones = zones(live.record.players)
        return list(zones)

    def game_zones(self, table_id: str) -> list[str]:
        """The zone names the table's game reacts to, in order ([]: the game names none,
        so any zone is as good as another, e.g. the default ``play-area``)."""
        return [n for n, _r in self._game_zones(table_id)]

    def zone_labels(self, table_id: str, names: list[str],
                    translate: Any = lambda s: s) -> dict[str, str]:
        """A label for people of each zone that has a better one than its name: a seat's
        zone (Versus ``discard-0``) is its player's name; a game with several zones a seat
        names each itself (``camera_zone_label(zone, players) -> (N_ template, params)``,
        Huang Di's "Ana's stock"), in the language of ``translate``."""
        live = self.service.get(table_id)
        seat_of = getattr(live.game, "camera_zone_seat", None)
        label_of = getattr(live.game, "camera_zone_label", None)
        players = live.record.players
        labels: dict[str, str] = {}
        for name in names:
            told = label_of(name, players) if label_of is not None else None
            if told is not None:
                template, params = told
                labels[name] = translate(template).format(**params)
                continue
            seat = seat_of(name, players) if seat_of is not None else None
            if isinstance(seat, int) and 0 <= seat < len(players):
                labels[name] = players[seat]
        return labels

    def unused_zones(self, table_id: str, names: list[str]) -> list[str]:
        """The names among ``names`` the table's game never reacts to (a host may mark
        other areas; the page warns, in case it was a typo)."""
        wanted = self.game_zones(table_id)
        if not wanted:
            return []
        live = self.service.get(table_id)
        seat_of = getattr(live.game, "camera_zone_seat", None)
        return [n for n in names if n not in wanted
                and (seat_of is None or seat_of(n, live.record.players) is None)]

    def set_zones(self, table_id: str, zones: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Store a table's zones (normalised rectangles) and watch them at once if the
        camera watches this table. ``vision.zones.ZoneError`` (a ValueError; its ``field``
        ``name``, ``rect``, or ``count`` for none or too many) for a bad one: nothing is
        stored."""
        import json

        from vision.zones import MAX_ZONES, Zone, ZoneError

        parsed = [Zone.from_dict(z) for z in zones]
        if not 1 <= len(parsed) <= MAX_ZONES:
            raise ZoneError("count", f"1 to {MAX_ZONES} zones")
        if len({z.name for z in parsed}) != len(parsed):
            raise ZoneError("name", "two zones of one name")
        out = [{"name": z.name, "rect": list(z.rect)} for z in parsed]
        path = self.zones_path(table_id)
        path.parent.mkdir(parents=True, exist_ok=True)
        # (a power cut mid-write leaves the old zones, not half a file; two phones saving at
        # once each write a file of their own, and the last to land wins whole)
        with self._zones_lock:
            tmp = path.with_name(f".{path.name}.{threading.get_ident()}.tmp")
            tmp.write_text(json.dumps(out))
            tmp.replace(path)
            with self._lock:
                watcher = self.watcher
                if table_id == self.table_id and watcher is not None:
                    watcher.set_zones(parsed)
        return out

    def zones_from_markers(self, table_id: str) -> tuple[list[dict[str, Any]], int]:
        """The table's zones found from the printed markers in view (pair k marks the k-th
        of its zones' names, as ``/camera/markers.png?table=`` printed them), stored like
        ``set_zones``; returns (zones, pairs found). LookupError (no frame), CameraStalled,
        or ``ZoneError("markers")`` when no complete pair is in view. Zones whose markers
        are not in view keep their rectangle."""
        from vision.zones import ZoneError, zones_from_markers

        frame = self.fresh_frame()
        current = self.zones_for(table_id)
        names = [z["name"] for z in current]
        found = zones_from_markers(frame.image, names)
        found = [z for z in found if z.name in names]  # (a pair beyond the printed sheet)
        if not found:
            raise ZoneError("markers", "no complete marker pair in view")
        # (to a thousandth of the picture, as the phone's dragged zones are stored)
        by_name = {z.name: {"name": z.name, "rect": [round(v, 3) for v in z.rect]}
                   for z in found}
        return self.set_zones(table_id, [by_name.get(z["name"], z) for z in current]), len(found)

    def bind(self, table_id: str | None, explicit: bool = True) -> None:
        """Watch this table's zones with its game's deck (the host's choice, or the latest
        table whose game uses the camera). Another table: the watcher starts afresh for it
        (``_configure_watcher``)."""
        with self._lock:
            self.explicit = explicit and table_id is not None
            self.bridge.bind(table_id)
            if self.watcher is not None:
                self._configure_watcher(self.watcher)

    def pause(self, table_id: str, on: bool) -> float:
        """The host pauses (``on``) or resumes the camera's plays at the table it watches
        (``CameraBridge.pause``): seconds the pause lasts, 0 once resumed. LookupError when
        the camera watches another table (or none)."""
        with self._lock:
            if self.bridge.table_id != table_id:
                raise LookupError("the camera watches another table")
            if on:
                return self.bridge.pause()
            self.bridge.resume()
            return 0.0

    def on_update(self, update: Update) -> None:
        """Follow the most recently active camera game, unless the host chose one, and
        never away from a game still in progress: a move at a new table (a phone joining it,
        its first deal) silently took the camera from the UNO table it was watching. A move
        is an action (not a join, nor an announcement)."""
        if self.explicit or update.table_id == self.table_id or update.kind != "action":
            return
        game = self.service.get(update.table_id).game
        if not (getattr(game, "camera_deck", None) and getattr(game, "on_card_seen", None)):
            return
        if self.table_id is not None and not self._over(self.table_id):
            return  # (the host moves it on the camera page)
        self.bind(update.table_id, explicit=False)

    def _over(self, table_id: str) -> bool:
        """Whether the table's game is over (or the table is gone)."""
        try:
            live = self.service.get(table_id)
            return live.game.outcome(live.state) is not None
        except Exception:  # (a table that no longer loads: nothing to stay with)
            return True

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

    def lost_ns(self) -> int:
        """How long without a frame counts as the camera lost: the watcher's ``lost_ms``."""
        watcher = self.watcher
        return watcher.lost_ns if watcher is not None else LOST_MS * 1_000_000

    def fresh_frame(self) -> Any:
        """The latest frame, if the camera still sends them: LookupError before the first,
        CameraStalled once it is as old as the camera counts as lost (a card taught, or
        markers read, from a picture of the table as it was minutes ago is wrong)."""
        hub = self.hub
        frame = hub.latest if hub is not None else None
        if frame is None:
            raise LookupError("no frame")
        stale = hub.stale_for_ns()
        if stale is not None and stale >= self.lost_ns():
            raise CameraStalled(f"no frame for {stale / 1e6:.0f} ms")
        return frame

    def teach(self, table_id: str, label: str, confirmed: bool = False) -> Taught:
        """Remember the largest card in the latest frame as ``label`` of the table's deck
        (for a built-in deck: the table's own printing, which then wins over the model);
        returns how many photos that card now has, and the card as taught (a small JPEG,
        for the phone to show what the camera took). The watcher reads with it at once.
        For a built-in deck whose model reads the card surely as another one, nothing is
        taught unless ``confirmed``: :class:`ModelReadsOther` (the frame may show another
        card than the host thinks, and a taught photo overrules that reading from then on: a
        blue skip read at 1.00 became a red 7). ``confirmed`` teaches the card that
        question was about, as the camera saw it then (the sample replay, or a hand, had
        changed the card in view before the host answered, and a joker was taught as the
        green 3 asked about): :class:`QuestionGone` where none waits under that name.
        LookupError before the first frame, CameraStalled when frames stopped."""
        deck = self.deck_for(table_id)
        store = self._store()
        now = self.service.clock.monotonic_ns()
        if confirmed:
            asked = self._questions.pop(table_id, None)
            if asked is None or asked[0] != label or now - asked[2] > QUESTION_S * 10**9:
                raise QuestionGone(label)
            crop = asked[1]
        else:
            frame = self.fresh_frame()
            crop = store.card_crop(frame.image, whole=False, deck=_store_name(deck))
            from vision.recognise import model_reads_other

            other = model_reads_other(deck, crop, label)
            if other is not None:
                self._questions[table_id] = (label, crop, now)
                raise ModelReadsOther(other.label, other.confidence)
        count = store.teach(_store_name(deck), label, crop, crop=True)
        self._reload(deck)
        from vision.preview import encode_jpeg

        return Taught(count, encode_jpeg(crop, 80))

    def forget(self, table_id: str, label: str) -> bool:
        deck = self.deck_for(table_id)
        gone = self._store().forget(_store_name(deck), label)
        self._reload(deck)
        return gone

    def _reload(self, deck: str) -> None:
        with self._lock:
            watcher = self.watcher
            if watcher is not None and watcher.identifier is not None and \
                    watcher.identifier.deck == deck:
                watcher.identifier = identifier_for(deck, self.cfg.data_path)

    def _configure_watcher(self, watcher: Any) -> None:
        """Set ``watcher`` up for the bound table (under ``_lock``): its deck, its zones,
        and, where the table is another than the one it watched, a fresh start
        (``ZoneWatcher.reset``) with the bridge's binding, so that nothing it saw or found
        before reaches this table. The reset comes last: what the watcher finds while the
        deck loads still carries the old binding, and the bridge drops it."""
        from vision.zones import Zone

        tid = self.bridge.table_id
        deck = self.deck_for(tid)
        zones = [Zone(n, r) for n, r in DEFAULT_ZONES]
        if tid is not None:
            zones = []
            for z in self.zones_for(tid):
                try:
                    zones.append(Zone.from_dict(z))
                except ValueError as exc:  # (stored before zones were checked as now)
                    log.warning("table %s: zone %r left out: %s", tid, z, exc)
        if watcher.identifier is None or watcher.identifier.deck != deck:
            watcher.identifier = identifier_for(deck, self.cfg.data_path)
        watcher.sign_named = deck.startswith("taught:")
        # (a game's zones where every card counts: Dou Di Zhu's play in the middle)
        watcher.whole_sets = frozenset(getattr(self.service.get(tid).game, "camera_sets", ())
                                       if tid is not None else ())
        watcher.set_zones(zones)
        if watcher.binding != self.bridge.binding:
            watcher.reset(self.bridge.binding)

    # -- sleeping ----------------------------------------------------------------------
    def looked(self) -> None:
        """A phone looks at what the camera sees: it recognises for LOOKED_S from now."""
        self._looked = time.monotonic()

    def awake(self) -> bool:
        """Whether the watcher should recognise now: a table is watched and its game is not
        over, or a phone looked at the camera lately. The default sample-photo camera
        recognised its photos for no one at 38% of a core."""
        tid = self.bridge.table_id
        if tid is not None:
            try:
                live = self.service.get(tid)
                if live.game.outcome(live.state) is None:
                    return True
            except Exception:  # (a table that no longer loads: no one to watch for)
                log.debug("camera: table %s does not load", tid, exc_info=True)
        looked = self._looked
        return looked is not None and time.monotonic() - looked < LOOKED_S

    # -- running -----------------------------------------------------------------------
    def start(self) -> CameraRuntime:
        """Start capture and watching in the background; failures are reported, not raised."""
        self._stop = threading.Event()
        self.ready = threading.Event()  # set once the camera is open and watched
        self.error = None
        self._thread = threading.Thread(target=self._run, args=(self._stop, self.ready),
                                        name="camera", daemon=True)
        self._thread.start()
        return self

    def restart(self, table_id: str | None = None, timeout: float = 5.0) -> None:
        """Open the camera again (a webcam plugged in late; a replay from its start), then
        watch ``table_id``: bound only once the old frames have stopped, so nothing the old
        capture still saw can reach the new table."""
        with self._lock:
            old = self.watcher
            lost = (old is not None and old.lost) or self._lost_told
        self.stop(timeout)
        with self._lock:
            self.hub = None
            self.watcher = None
            # (another table never heard it lost: nothing to take back there)
            self._lost_told = lost and table_id in (None, self.bridge.table_id)
        if table_id is not None:
            self.bind(table_id)
        self.start()

    def _run(self, stop: threading.Event, ready: threading.Event) -> None:
        """The camera thread: open the source (a Pi camera takes a second or two), publish
        the hub and the watcher unless ``stop`` was set meanwhile, and watch until it is.
        Its hub is stopped on the way out whatever happened (``stop()`` may have looked
        before it was published)."""
        hub: Any = None
        try:
            from vision.frame_hub import FrameHub
            from vision.sources import choose_source
            from vision.watcher import ZoneWatcher

            source, choice = choose_source(self.cfg)
            hub = FrameHub(source)  # (its stop() closes the source, started or not)
            watcher = ZoneWatcher([], None, self.bridge.handle)
            with self._lock:
                if stop.is_set():
                    return
                self.choice, self.source_name = choice, type(source).__name__
                self.hub, self.watcher = hub.start(), watcher
                self._configure_watcher(watcher)
                if self._lost_told:
                    watcher.lost, self._lost_told = True, False
            ready.set()
            watcher.run(hub, time.monotonic_ns, stop, on_error=self._frame_failed,
                        awake=self.awake)
        except Exception as exc:  # no camera must never stop the scores from being kept
            if not stop.is_set():  # (a run stopped meanwhile: its error is no one's now)
                self.error = _why(exc)
            log.exception("camera stopped; the phones keep working by tapping")
        finally:
            if hub is not None:
                hub.stop()

    def _frame_failed(self, exc: BaseException) -> None:
        """One frame failed: say so (with the traceback, once for a run of the same error,
        not ten times a second) and watch the next frame."""
        why = _why(exc)
        self.frame_errors += 1
        if why != self.frame_error:
            log.error("camera: a frame failed (%s); watching the next one", why,
                      exc_info=(type(exc), exc, exc.__traceback__))
        self.frame_error = why

    def stop(self, timeout: float = 5.0) -> None:
        """Stop watching and capturing, and wait (up to ``timeout``) for the camera thread
        to leave OpenCV: a thread still inside it as the interpreter exits aborted the
        whole process ("terminate called without an active exception")."""
        self._stop.set()
        with self._lock:
            hub = self.hub
        if hub is not None:
            hub.stop()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    def _seen(self) -> tuple[Any, list[Any]]:
        """The frame the watcher read last and the cards it found there (None, []: it has
        read none yet)."""
        watcher = self.watcher
        if watcher is None:
            return None, []
        cards, frame = watcher.seen()
        return frame, cards

    def status(self) -> dict[str, Any]:
        from vision.sources import source_kind

        self.looked()
        hub, watcher = self.hub, self.watcher
        stale = hub.stale_for_ns() if hub is not None else None
        frame = hub.latest if hub is not None else None
        running = hub is not None and self.error is None
        choice = self.choice
        # the hints are judged on the cards the watcher found and the frame it found them in
        seen, cards = self._picture(frame) if frame is not None else (None, [])
        return {"running": running,
                "source": self.source_name, "error": self.error, "table": self.table_id,
                # for people: what kind of camera runs, the one asked for, and whether the
                # sample replay stands in for it because it failed
                "kind": choice.kind if choice is not None else (
                    source_kind(hub.source) if hub is not None else None),
                "wanted": choice.wanted if choice is not None else None,
                "fallback": bool(choice is not None and choice.fallback),
                "zones": self.zones_for(self.table_id) if self.table_id else [],
                # the host paused the camera's plays (to teach a card): seconds left
                "paused_s": round(self.bridge.paused_for(), 1),
                "top_cards": watcher.state() if watcher is not None else {},
                "stale_ms": None if stale is None else stale / 1e6,
                # no new frame for the watcher's lost_ms (the table heard camera_lost)
                "lost": running and watcher is not None and (
                    watcher.lost or (stale is not None and stale >= watcher.lost_ns)),
                "frame_error": self.frame_error,
                # the camera's reads fail now (a Pi camera's ribbon come loose), and why
                "read_error": _why(hub.error) if hub is not None and hub.error else None,
                # a monochrome camera: the cards that only their colour tells apart are
                # asked about (vision.identify.colourless), and the camera page says why
                "colourless": frame is not None and _colourless(frame.image),
                # what to fix while the camera is set up: too dark, cards blown out, blurred
                # or too small (vision.view_check), judged on the cards last found
                "view": [] if seen is None else _view_hints(
                    seen.image, cards, self.deck_for(self.table_id))}

    def _picture(self, latest: Any) -> tuple[Any, list[Any]]:
        """What to show for the hub's ``latest`` frame: the frame the watcher read last,
        with its cards, where it is recent (the watcher works a frame or so behind the
        camera); else ``latest`` bare (no watcher, or one stuck: its cards would be drawn
        on a table that has moved on)."""
        seen, cards = self._seen()
        if seen is not None and latest.t_ns - seen.t_ns < self.lost_ns() // 2:
            return seen, cards
        return latest, []

    def snapshot(self, annotate: bool = True) -> bytes | None:
        """A recent frame as JPEG, for dragging zones on: with ``annotate``, the frame the
        watcher read last with the cards it found there drawn on it."""
        from vision.preview import draw, encode_jpeg

        self.looked()
        frame = self.hub.latest if self.hub is not None else None
        if frame is None:
            return None
        if not annotate:
            return encode_jpeg(frame.image)
        shown, cards = self._picture(frame)
        return encode_jpeg(draw(shown.image, cards, []))

    def preview(self, max_frames: int | None = None) -> Iterator[bytes]:
        """MJPEG parts: at each new frame, the frame the watcher read last with its cards
        and the zones drawn on it (each frame once)."""
        from vision.preview import draw, encode_jpeg, mjpeg_part

        seq, sent, last = 0, 0, None
        while self.hub is not None and (max_frames is None or sent < max_frames):
            self.looked()  # (awake while a phone watches the preview)
            frame = self.hub.wait_next(seq, timeout=2.0)
            if frame is None:
                return
            seq = frame.seq
            shown, cards = self._picture(frame)
            if shown is last:  # (the watcher is still on the frame sent last)
                continue
            last = shown
            watcher = self.watcher
            zones = list(watcher.zones) if watcher is not None else []
            yield mjpeg_part(encode_jpeg(draw(shown.image, cards, zones)))
            sent += 1


def _why(exc: BaseException) -> str:
    return f"{exc.__class__.__name__}: {exc}"


def _view_hints(image: Any, cards: list[Any], deck: str) -> list[str]:
    from vision.view_check import view_hints

    return view_hints(image, cards, deck)


def _colourless(image: Any) -> bool:
    from vision.identify import colourless

    return colourless(image)
