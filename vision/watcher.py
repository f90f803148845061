"""Watch the zones: the stable top card of each, and each change as one event.

A card counts only when the same answer has held for ``stable_frames`` frames spanning at
least ``stable_ms`` (so a hand passing over the pile is not a play), an empty zone only
after ``clear_ms`` (a hand hovering over a pile hides it for a while). Events carry the
timestamp of the first frame that showed the new state. If frames stop for ``lost_ms`` the
table gets one CameraLost, and one CameraBack with the first frame after it. Time only comes
from frames and from ``tick(now_ns)``: tests drive it by hand and never sleep.

The camera thread feeds frames while the web threads change the zones, the identifier and
read the state: one re-entrant lock serialises them, and ``feed_cards`` works on the zones and
tracks as they were when it began. The events are handed to ``emit`` after the lock is
released: the handler (the bridge submitting to a table, whose listeners may point the
camera at another table) runs no code of the watcher's own under it, and takes its locks in
its own order. So an event may reach the handler after the camera was pointed at another
table: ``reset(binding)`` starts afresh for it, and each event goes out with the binding it
was computed for (``emit(event, binding)``), which the handler checks against its own.

A card the recogniser cannot name (an unsure card, or any card of a deck whose art is not
known, like Versus) is keyed by its picture: the top card of each zone gets an image
signature (:mod:`vision.signature`) and joins the cluster of pictures it resembles. So the
same picture seen frame after frame is one stable state, and a *different* unknown picture
flipped onto the pile is a new state, hence a new event, carrying its signature.

A frame is read where it moved since the last frame read (:mod:`vision.motion`; at least once
a second anyway), or until the readings have agreed for as long as a card needs to count
(``stable_frames`` over ``stable_ms``): between plays the
table lies still, and the last frame's cards stand for it, so the Pi's cores are spent on
the frames where something happens.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from companion.events import CameraBack, CameraLost, CardSeen, ZoneCleared
from vision import signature as sigmod
from vision.frame import Frame
from vision.identify import Card, Identifier
from vision.motion import MotionGate
from vision.unmoved import UnmovedCards
from vision.zones import Zone

Event = CardSeen | ZoneCleared | CameraLost | CameraBack
EMPTY = "\0empty"
UNSURE = "\0unsure"  # an unnamed card; with a signature, UNSURE + "#<cluster>"
SET = "\0set:"  # a whole-set zone's state: SET + its cards' names, sorted ("?": unnamed)
MAX_PICTURES = 256  # signature clusters remembered (least recently seen forgotten)


@dataclass
class _Track:
    key: str | None = None  # the committed state: a label, UNSURE, EMPTY or None (unknown)
    cand: str | None = None
    cand_since_ns: int = 0
    cand_frames: int = 0
    cand_conf: float = 0.0
    cand_signature: tuple[float, ...] | None = None
    cand_best: str | None = None  # an unsure candidate's best guess, read at its surest
    pose: tuple[float, float, float, float, float] | None = None  # the committed card's
    rest: tuple[float, float, float, float, float] | None = None  # where it lies now
    rest_since_ns: int = 0
    rest_frames: int = 0
    cand_cards: tuple[tuple[str | None, float], ...] | None = None  # a whole-set zone's
    cand_guesses: tuple[str | None, ...] | None = None  # its unnamed cards' best guesses


# The zone's card come to rest elsewhere counts as put down anew (``CardSeen.again``) where its
# centre moved by more than TWIN_SHIFT of its width or it turned by more than TWIN_TURN degrees
# from where it lay; a view of it much smaller or larger (TWIN_AREA: a hand still over part of
# it) says nothing either way. A card's quad moves by a few pixels and a degree or two from
# frame to frame; a card dropped on a pile lands where a hand lets it go. The twin in the hand
# that plays it shows the same face all the way down, so the card is never out of view: what
# tells the play is where it comes to rest, which a pile pushed aside shows too.
TWIN_SHIFT = 0.2
TWIN_TURN = 10.0
TWIN_AREA = 1.25


def pose_of(corners: np.ndarray) -> tuple[float, float, float, float, float]:
    """(centre x, centre y, the long side's direction in degrees mod 180, width, area) of a
    portrait quad (TL TR BR BL): a card turned round lies the same way."""
    c = np.asarray(corners, np.float64).reshape(4, 2)
    down = (c[3] + c[2]) / 2 - (c[0] + c[1]) / 2
    angle = float(np.degrees(np.arctan2(down[1], down[0]))) % 180.0
    width = float(np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[3])) / 2
    cx, cy = c.mean(axis=0)
    return float(cx), float(cy), angle, width, _area(c)


def _area(corners: np.ndarray) -> float:
    """A quad's area (the shoelace formula)."""
    x, y = corners[:, 0].astype(np.float64), corners[:, 1].astype(np.float64)
    return 0.5 * abs(float(x @ np.roll(y, -1) - y @ np.roll(x, -1)))


def lies_elsewhere(before: tuple[float, ...], now: tuple[float, ...]) -> bool | None:
    """Whether a card lies elsewhere or turned (None: the two views are not both of the
    whole card, so they cannot tell)."""
    if not 1 / TWIN_AREA <= now[4] / max(before[4], 1e-9) <= TWIN_AREA:
        return None
    turn = abs(now[2] - before[2]) % 180.0
    shift = float(np.hypot(now[0] - before[0], now[1] - before[1]))
    return shift > TWIN_SHIFT * before[3] or min(turn, 180.0 - turn) > TWIN_TURN


def top_card(cards: list[Card], zone: Zone, width: int, height: int) -> Card | None:
    """The card lying on top of a zone's pile: the most complete (largest) quad inside it."""
    inside = [c for c in cards if zone.contains(*c.centre, width, height)]
    if not inside:
        return None
    return max(inside, key=lambda c: _area(c.corners))


class ZoneWatcher:
    def __init__(self, zones: list[Zone], identifier: Identifier | None,
                 emit: Callable[..., object], stable_frames: int = 3, stable_ms: int = 300,
                 clear_ms: int = 800, lost_ms: int = 2000, source: str = "camera",
                 same_picture: float = sigmod.SAME, gate: MotionGate | None = None,
                 unmoved: bool = True) -> None:
        # (re-entrant: a public method may be called under it, e.g. by a zone's own code)
        self._lock = threading.RLock()
        self.zones = list(zones)
        # ``gate``: which frames are read (vision.motion); the default reads a still table
        # about once a second; MotionGate(refresh_ms=0) reads every frame
        self.gate = gate if gate is not None else MotionGate()
        # the cards of a frame read that lie still keep their names (vision/unmoved.py): as
        # long as a card needs to count, and no longer than the gate's refresh; None: every
        # card of a frame read is named afresh
        self.unmoved: UnmovedCards | None = UnmovedCards(
            stable_frames, stable_ms, self.gate.refresh_ns // 1_000_000) \
            if unmoved else None
        self.identifier = identifier
        self.emit = emit
        # events found under the lock, handed to ``emit`` once it is released: the handler
        # (the bridge, the table, its listeners) may take locks of its own, or set zones
        self._outbox: list[Event] = []
        # what the events are computed for (``reset``; the camera: the bridge's binding);
        # None: events are handed to ``emit`` alone
        self.binding: object = None
        self.stable_frames, self.stable_ns = stable_frames, stable_ms * 1_000_000
        self.clear_ns, self.lost_ns = clear_ms * 1_000_000, lost_ms * 1_000_000
        self.source = source
        self.tracks = {z.name: _Track() for z in self.zones}
        self.last_frame_ns: int | None = None
        self.lost = False
        self.last_cards: list[Card] = []
        # the frame last_cards stand for (read there, or a still frame after it, where
        # nothing moved): the preview draws them on it, not on a newer frame where they
        # may not lie (None: cards fed without their picture)
        self.last_frame: Frame | None = None
        self._last_signed: list[Card] = []  # last_cards with the signatures worked out
        self.frames_read = 0  # frames the identifier read (the others kept the last cards)
        # A still frame keeps the last frame's cards only once the frames read have given
        # every zone the same answer for as long as a card needs to count (``stable_frames``
        # readings over ``stable_ms``): a card then counts on the readings it did when every
        # frame was read, and one frame misread (a borderline card read unsure once, a hand's
        # blur as it leaves) cannot stand for the still frames after it, and count.
        self._frame_keys: tuple[str, ...] = ()  # each zone's answer in the last frame fed
        self._agreed = 0  # frames read in a row that gave the same answers
        self._agreed_since_ns = 0  # the first of them
        self.same_picture = same_picture
        # named cards get a signature too (about 2 ms a zone): for a taught deck, so the game
        # learns each label's picture and knows it again when the recogniser is unsure
        self.sign_named = False
        # zones whose every card counts, not only the top one (a Dou Di Zhu play laid fanned
        # in the middle): their state is the set of names seen in them, and a new set is one
        # CardSeen carrying ``cards``
        self.whole_sets: frozenset[str] = frozenset()
        self._pictures: dict[int, np.ndarray] = {}  # cluster -> its first signature, unit length
        self._next_picture = 1

    @property
    def identifier(self) -> Identifier | None:
        return self._identifier

    @identifier.setter
    def identifier(self, identifier: Identifier | None) -> None:
        """Another deck, or the same deck taught more: the next frames are read again."""
        with self._lock:
            self._identifier = identifier
            self._read_afresh()

    def _read_afresh(self) -> None:
        """Forget that the readings agreed (and the gate's reference): the frames are read
        again until they agree as long as a card needs to count."""
        self.gate.reset()
        if self.unmoved is not None:
            self.unmoved.reset()
        self._agreed = 0

    def set_zones(self, zones: list[Zone]) -> None:
        """New zones (from the web thread, while the camera thread feeds): a zone kept by
        name keeps its track; the zones and tracks are replaced whole, never changed in
        place, so a ``feed_cards`` under way finishes on the ones it began with."""
        with self._lock:
            zones = list(zones)
            self._read_afresh()  # (a new zone's top card may want its signature)
            self.tracks = {z.name: self.tracks.get(z.name, _Track()) for z in zones}
            self.zones = zones

    def reset(self, binding: object = None) -> None:
        """Start afresh for another table: its zones keep no track, no event computed before
        is handed out, and ``binding`` (not None) goes with each event from now on, as
        ``emit(event, binding)``. Without it a card half-way to counting at one table
        counted at the next, stamped with the first one's time, and the events of a frame
        still being handed out reached the new table. A camera lost stays lost but is told
        again at the next ``tick``: the new table never heard it (nor will it hear a
        ``CameraBack`` it was never told was coming)."""
        with self._lock:
            self._read_afresh()
            self.tracks = {z.name: _Track() for z in self.zones}
            self._frame_keys = ()
            self._outbox = []
            self.lost = False
            self.binding = binding

    def state(self) -> dict[str, str | None]:
        """Per zone: the committed top card, '' when empty or unsure, None when not known yet
        (a whole-set zone: its cards' names, comma-separated)."""
        with self._lock:
            tracks = dict(self.tracks)
        return {name: (None if t.key is None
                       else "" if t.key == EMPTY or t.key.startswith(UNSURE)
                       else t.key[len(SET):] if t.key.startswith(SET) else t.key)
                for name, t in tracks.items()}

    def seen(self) -> tuple[list[Card], Frame | None]:
        """The last cards found and the frame they stand for, taken together (the camera
        thread may be between the two)."""
        with self._lock:
            return list(self.last_cards), self.last_frame

    def feed(self, frame: Frame) -> None:
        """Recognise one frame (or, where it has not moved since the last one read, take
        that one's cards again) and update every zone."""
        self._locked(self._feed, frame)

    def _feed(self, frame: Frame) -> None:
        assert self.identifier is not None, "feed() needs an identifier; use feed_cards()"
        h, w = frame.image.shape[:2]
        moved = self.gate.moved(frame.image, frame.t_ns)  # (every frame: its reference)
        if moved or self._agreed < self.stable_frames or \
                frame.t_ns - self._agreed_since_ns < self.stable_ns:
            self.frames_read += 1
            before = self._frame_keys
            ident = self.identifier
            if self.unmoved is not None and isinstance(ident, Identifier):
                self.unmoved.begin(frame.image, frame.t_ns)
                cards = ident.identify(frame.image, self.unmoved)
            else:  # (dice: nothing to name again)
                cards = ident.identify(frame.image)
            self._feed_cards(cards, frame.t_ns, w, h, frame.image, frame)
            if self._agreed and self._frame_keys == before:
                self._agreed += 1
            else:
                self._agreed, self._agreed_since_ns = 1, frame.t_ns
        else:  # (their signatures too: the same picture)
            self._feed_cards(self._last_signed, frame.t_ns, w, h, None, frame)

    def feed_cards(self, cards: list[Card], t_ns: int, width: int, height: int,
                   image: np.ndarray | None = None) -> None:
        """Update every zone from one frame's cards. With the frame's ``image``, each zone's
        unnamed top card gets its picture's signature (named ones too with ``sign_named``);
        cards given without an image keep theirs."""
        self._locked(self._feed_cards, cards, t_ns, width, height, image,
                     None if image is None else Frame(image, t_ns, 0))

    def _locked(self, work: Callable[..., None], *args: object) -> None:
        """``work`` under the lock; then, outside it, the events it found handed to
        ``emit`` in the order they happened (also when it failed half-way: what it
        committed before did happen)."""
        try:
            with self._lock:
                work(*args)
        finally:
            self._hand_out()

    def _hand_out(self) -> None:
        """Hand the events found so far to ``emit``, each with the binding it was computed
        for (``reset`` empties the outbox as it changes it). Every event is handed out even
        where one fails (a table's database busy, a game's bug): the watcher has committed
        them all, so one left out would never be reported. The first failure is raised
        once all are out (``run`` gives it to ``on_error``)."""
        with self._lock:
            events, self._outbox = self._outbox, []
            binding = self.binding
        failed: Exception | None = None
        for event in events:
            try:
                if binding is None:
                    self.emit(event)
                else:
                    self.emit(event, binding)
            except Exception as exc:
                if failed is None:
                    failed = exc
        if failed is not None:
            raise failed

    def _feed_cards(self, cards: list[Card], t_ns: int, width: int, height: int,
                    image: np.ndarray | None, frame: Frame | None) -> None:
        # the zones and their tracks as they are now: set_zones replaces both (from another
        # thread once this frame is done; in this one, from a zone's own code, at once),
        # and this frame finishes on these
        zones, tracks = self.zones, self.tracks
        self.last_frame_ns = t_ns
        self.last_cards = cards
        self.last_frame = frame
        signed: dict[int, Card] = {}
        keys = []
        if self.lost:
            self.lost = False
            self._outbox.append(CameraBack(t_ns, self.source))
        for zone in zones:
            if zone.name in self.whole_sets:
                keys.append(self._feed_set(zone, tracks[zone.name], cards, t_ns, width,
                                           height))
                continue
            card = top_card(cards, zone, width, height)
            if card is not None and image is not None and (card.label is None
                                                           or self.sign_named):
                if id(card) not in signed:
                    signed[id(card)] = replace(card, signature=sigmod.of_card(image,
                                                                              card.corners))
                card = signed[id(card)]
            if card is None:
                key, conf, sig = EMPTY, 0.0, None
            elif card.label is None:
                key = self._picture_key(card.signature, tracks[zone.name])
                conf, sig = card.confidence, card.signature
            else:
                key, conf, sig = card.label, card.confidence, card.signature
            self._update(tracks[zone.name], zone.name, key, conf, t_ns, sig,
                         None if card is None else pose_of(card.corners),
                         None if card is None or card.label is not None else card.best)
            keys.append(key)
        self._last_signed = [signed.get(id(c), c) for c in cards]
        self._frame_keys = tuple(keys)

    def _feed_set(self, zone: Zone, track: _Track, cards: list[Card], t_ns: int, width: int,
                  height: int) -> str:
        """A whole-set zone in one frame: its state is the sorted names of every card in it
        (whole or read by its corner index), committed like a top card once it holds."""
        inside = sorted(((c.label, round(c.confidence, 4),
                          None if c.label is not None else c.best)
                         for c in cards if zone.contains(*c.centre, width, height)),
                        key=lambda x: (x[0] or "?", -x[1]))
        if not inside:
            self._update(track, zone.name, EMPTY, 0.0, t_ns)
            return EMPTY
        key = SET + ",".join(label or "?" for label, _, _ in inside)
        guesses = tuple(g for _, _, g in inside)
        self._update(track, zone.name, key, min(conf for _, conf, _ in inside), t_ns,
                     cards=tuple((label, conf) for label, conf, _ in inside),
                     guesses=guesses if any(guesses) else None)
        return key

    def _picture_key(self, sig: tuple[float, ...] | None, track: _Track) -> str:
        """UNSURE plus the cluster of pictures this signature belongs to. Hysteresis: a
        picture like the zone's current candidate keeps its key (a card lying still never
        flickers between two clusters); one unlike it joins the most similar *other* cluster
        or starts a new one, so a new picture on the pile is always a new state."""
        if sig is None:
            return UNSURE
        current = track.cand if track.cand is not None and track.cand.startswith(
            UNSURE + "#") else None
        if current is not None and sigmod.similarity(sig, track.cand_signature) >= (
                self.same_picture):
            return current
        v = np.asarray(sig, np.float32)
        v = v / (float(np.linalg.norm(v)) or 1.0)
        ids = [cid for cid, p in self._pictures.items()
               if p.shape == v.shape and f"{UNSURE}#{cid}" != current]
        best = None
        if ids:
            sims = np.stack([self._pictures[cid] for cid in ids]) @ v
            i = int(np.argmax(sims))
            if sims[i] >= self.same_picture:
                best = ids[i]
        if best is None:
            best, proto = self._next_picture, v
            self._next_picture += 1
            if len(self._pictures) >= MAX_PICTURES:
                del self._pictures[next(iter(self._pictures))]
        else:
            proto = self._pictures.pop(best)  # put back last: the most recently seen
        self._pictures[best] = proto
        return f"{UNSURE}#{best}"

    def _update(self, t: _Track, zone: str, key: str, conf: float, t_ns: int,
                sig: tuple[float, ...] | None = None,
                pose: tuple[float, ...] | None = None, best: str | None = None,
                cards: tuple[tuple[str | None, float], ...] | None = None,
                guesses: tuple[str | None, ...] | None = None) -> None:
        if key != t.cand:
            t.cand, t.cand_since_ns, t.cand_frames, t.cand_conf = key, t_ns, 0, 0.0
            t.cand_best = None
        if cards is not None:
            t.cand_cards, t.cand_guesses = cards, guesses
        t.cand_frames += 1
        if best is not None and (t.cand_best is None or conf >= t.cand_conf):
            t.cand_best = best
        t.cand_conf = max(t.cand_conf, conf)
        t.cand_signature = sig if sig is not None else t.cand_signature
        need_ns = self.clear_ns if key == EMPTY else self.stable_ns
        stable = t.cand_frames >= self.stable_frames and t_ns - t.cand_since_ns >= need_ns
        if key == t.key and key != EMPTY and pose is not None:
            self._follow(zone, t, pose, t_ns)
        elif stable and key != t.key:
            first = t.key is None
            t.key, t.pose, t.rest = key, pose, None
            if key == EMPTY:
                if not first:
                    self._outbox.append(ZoneCleared(zone, t.cand_since_ns, self.source))
            elif key.startswith(SET):
                seen = t.cand_cards or ()
                self._outbox.append(CardSeen(zone, seen[0][0] if seen else None,
                                             round(t.cand_conf, 4), t.cand_since_ns,
                                             self.source, cards=seen,
                                             guesses=t.cand_guesses))
            else:
                label = None if key.startswith(UNSURE) else key
                self._outbox.append(CardSeen(zone, label, round(t.cand_conf, 4), t.cand_since_ns,
                                             self.source, t.cand_signature,
                                             best=t.cand_best if label is None else None))

    def _follow(self, zone: str, t: _Track, pose: tuple[float, ...], t_ns: int) -> None:
        """The committed card in this frame: where it has rested for the watcher's frames and
        time, away from where it lay (a twin dropped on it, or the pile pushed), it is
        reported again (``CardSeen.again``, from the first frame it rested there)."""
        if t.rest is None or lies_elsewhere(t.rest, pose) is not False:
            t.rest, t.rest_since_ns, t.rest_frames = pose, t_ns, 0
        t.rest_frames += 1
        if t.rest_frames < self.stable_frames or t_ns - t.rest_since_ns < self.stable_ns:
            return
        if t.pose is None:
            t.pose = t.rest
            return
        change = lies_elsewhere(t.pose, t.rest)
        if change is None:  # (a part of it: wait for the whole card)
            return
        if change:
            label = None if t.key.startswith(UNSURE) else t.key
            self._outbox.append(CardSeen(zone, label, round(t.cand_conf, 4), t.rest_since_ns,
                               self.source, t.cand_signature, again=True))
        t.pose = t.rest

    def tick(self, now_ns: int) -> None:
        """Check that frames still arrive; call it now and then with the clock's time."""
        self._locked(self._tick, now_ns)

    def _tick(self, now_ns: int) -> None:
        if not self.lost and now_ns - self._since(now_ns) >= self.lost_ns:
            self.lost = True
            self._outbox.append(CameraLost(now_ns, self.source))

    def _since(self, now_ns: int) -> int:
        """The time the last frame was taken (before any: the first tick's)."""
        if self.last_frame_ns is not None:
            return self.last_frame_ns
        self._started_ns: int = getattr(self, "_started_ns", now_ns)
        return self._started_ns

    def until_lost_s(self, now_ns: int) -> float:
        """Seconds until no frame would count as the camera lost (0: due now; inf once
        lost, when there is nothing to wait for)."""
        with self._lock:
            if self.lost:
                return float("inf")
            return max(0.0, (self._since(now_ns) + self.lost_ns - now_ns) / 1e9)

    def run(self, hub: object, clock_ns: Callable[[], int], stop: threading.Event,
            on_error: Callable[[BaseException], None] | None = None,
            poll_s: float = 0.25, awake: Callable[[], bool] | None = None) -> None:
        """The watcher's own loop over a FrameHub, until ``stop`` is set.

        It waits for a frame at most ``poll_s``, and never past the moment the camera would
        count as lost, so a source that blocks (no frame at all) is told at ``lost_ms``, not
        up to a poll later. ``on_error``: a frame that fails (an OpenCV error, a bug) is
        handed to it and the loop goes on with the next one; without it the error ends
        the loop. ``awake``: while it says False (no table uses the camera) no frame is
        read at all, and nothing is told: recognising the sample photos for no one took 38%
        of a core; once awake, the newest frame is read at once."""
        seq = 0
        while not stop.is_set():
            if awake is not None and not awake():
                stop.wait(poll_s)
                continue
            wait = min(poll_s, self.until_lost_s(clock_ns()))
            frame = hub.wait_next(seq, timeout=wait)  # type: ignore[attr-defined]
            try:
                if frame is not None:
                    seq = frame.seq
                    self.feed(frame)
                self.tick(clock_ns())
            except Exception as exc:
                if on_error is None:
                    raise
                on_error(exc)
