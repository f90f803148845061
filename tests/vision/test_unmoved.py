"""The cards of a camera's scene that lie still keep their names (vision/unmoved.py): named
again only where they moved, changed, or may not count yet; the watcher's events stay the
same, at the same frames."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.events import CardSeen
from vision.detect import Quad
from vision.frame import Frame
from vision.identify import Card, Identifier
from vision.synth import draw_card, place_card, table_texture
from vision.unmoved import UnmovedCards
from vision.watcher import ZoneWatcher
from vision.zones import Zone

MS = 1_000_000
LYING = [((110, 110), "green-3"), ((530, 110), "yellow-skip"), ((110, 370), "blue-7"),
         ((530, 370), "red-reverse")]


def _table(cards=LYING, seed: int = 3) -> np.ndarray:
    rng = np.random.default_rng(seed)
    table = table_texture("wood", (640, 480), rng)
    for k, (centre, label) in enumerate(cards):
        place_card(table, draw_card("uno", label), centre, 140, 10.0 * k - 15)
    return table


def _webcam(image: np.ndarray, seed: int) -> np.ndarray:
    """The same scene as another frame of a camera shows it: its own sensor noise."""
    noise = np.random.default_rng(seed).normal(0, 3, image.shape)
    return np.clip(image + noise, 0, 255).astype(np.uint8)


class _Counted:
    """The deck's own recogniser, counting the crops it is asked to name."""

    def __init__(self, inner) -> None:
        self.inner, self.named = inner, 0

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def classify_many(self, crops, partial=None):
        self.named += len(crops)
        return self.inner.classify_many(crops, partial)


@pytest.fixture(scope="module")
def uno() -> Identifier:
    ident = Identifier("uno", data_path="/nonexistent-taught")
    ident.recogniser = _Counted(ident.recogniser)
    return ident


def _names(cards: list[Card]) -> list[tuple]:
    """Each card's name and where it lies (to 10 pixels: a kept card's corners are those of
    the frame it was named in, a pixel or so from this frame's)."""
    return sorted((c.label or "", *np.round(c.corners.mean(axis=0) / 10).astype(int).tolist())
                  for c in cards)


def test_cards_lying_still_are_named_until_they_count_then_kept(uno) -> None:
    """Each frame 100 ms apart: named afresh until three frames over 300 ms agreed (as the
    watcher counts a card), then found and kept, not named; the same cards every frame."""
    table, unmoved = _table(), UnmovedCards(reads=3, span_ms=300)
    named = []
    for k in range(8):
        image = _webcam(table, k)
        before = uno.recogniser.named
        unmoved.begin(image, k * 100 * MS)
        cards = uno.identify(image, unmoved)
        named.append(uno.recogniser.named - before)
        assert _names(cards) == _names(uno.identify(image))
    assert {c.label for c in cards} == {label for _, label in LYING}
    assert all(n >= 4 for n in named[:4]) and named[4:] == [0, 0, 0, 0]
    assert unmoved.kept_count == 16


def test_a_card_changed_where_it_lay_is_named_afresh(uno) -> None:
    """Another card put exactly where one lay (its quad the same, its cells not), and a card
    nudged: named afresh, the others kept."""
    unmoved = UnmovedCards(reads=2, span_ms=100)
    for k in range(3):
        image = _webcam(_table(), k)
        unmoved.begin(image, k * 100 * MS)
        uno.identify(image, unmoved)
    swapped = [*LYING[:3], (LYING[3][0], "red-6")]
    image = _webcam(_table(swapped), 3)
    before = uno.recogniser.named
    unmoved.begin(image, 300 * MS)
    cards = uno.identify(image, unmoved)
    assert {c.label for c in cards} == {"green-3", "yellow-skip", "blue-7", "red-6"}
    assert 1 <= uno.recogniser.named - before <= 2  # (the new card, and a figure on it)
    nudged = [((118, 104), "green-3"), *swapped[1:]]
    image = _webcam(_table(nudged), 4)
    before = uno.recogniser.named
    unmoved.begin(image, 400 * MS)
    cards = uno.identify(image, unmoved)
    assert 1 <= uno.recogniser.named - before <= 2
    assert _names(cards) == _names(uno.identify(image))


def _quad(x: float) -> Quad:
    return Quad(np.array([[x, 100], [x + 60, 100], [x + 60, 190], [x, 190]], np.float32), 0.02)


def _card(label: str | None, x: float) -> Card:
    return Card(label, 0.9, _quad(x).corners, label or "red-1")


def test_a_reading_that_changes_is_not_kept_and_none_outlives_the_refresh() -> None:
    """A card read two ways in turn never counts, so is never kept; a kept one is named
    afresh once ``refresh_ms`` have passed since it last was; another frame size, or the
    clock going back, forgets them all."""
    image = np.full((480, 640, 3), 90, np.uint8)
    unmoved = UnmovedCards(reads=3, span_ms=300, refresh_ms=1000)
    quads = [_quad(100), _quad(300)]
    t = 0
    for k in range(10):
        unmoved.begin(image, t)
        assert unmoved.kept(quads) == ({} if k < 4 else {1: unmoved._seen[1].card})
        kept = unmoved.kept(quads)
        unmoved.remember(quads, [_card("red-2" if k % 2 else "red-3", 100),
                                 kept.get(1, _card("blue-5", 300))], kept)
        t += 100 * MS
    assert [s.card.label for s in unmoved._seen] == ["red-2", "blue-5"]
    unmoved.begin(image, 1300 * MS)  # a second since it was last named (at 300 ms)
    assert unmoved.kept(quads) == {}
    unmoved.remember(quads, [_card("red-2", 100), _card("blue-5", 300)], {})
    assert unmoved._seen[1].reads == 5  # (named afresh the same: still counts)
    unmoved.begin(image, 1400 * MS)
    assert 1 in unmoved.kept(quads)
    unmoved.begin(np.full((720, 1280, 3), 90, np.uint8), 1500 * MS)
    assert unmoved.kept(quads) == {} and unmoved._seen == []


def _hand(scene: np.ndarray, reach: float) -> np.ndarray:
    out = scene.copy()
    y = int(480 - 230 * reach)
    cv2.line(out, (380, 520), (320, y + 40), (100, 150, 205), 70)
    cv2.ellipse(out, (320, y), (55, 70), 15, 0, 360, (100, 150, 205), -1)
    return out


def _game() -> list[np.ndarray]:
    """Four cards lying still, and two cards played on a pile between them by a hand."""
    table = _table()
    frames = [table.copy()] * 6
    for label in ("red-4", "green-4"):
        before = table.copy()
        place_card(table, draw_card("uno", label), (320, 250), 150, 5.0)
        frames += [_hand(before, r) for r in (0.4, 0.8, 1.0)]
        frames += [_hand(table.copy(), r) for r in (0.8, 0.4)]
        frames += [table.copy()] * 8
    return [_webcam(f, k) for k, f in enumerate(frames)]


def test_the_watcher_counts_the_same_plays_at_the_same_frames_keeping_still_cards(uno) -> None:
    """A game watched keeping still cards and naming every card of each frame read: the same
    events, at the same frames; far fewer crops named."""
    frames = _game()
    runs = []
    for keep in (True, False):
        events: list = []
        w = ZoneWatcher([Zone("discard", (0.35, 0.3, 0.65, 0.75))], uno, events.append,
                        unmoved=keep)
        before = uno.recogniser.named
        for i, image in enumerate(frames):
            w.feed(Frame(image, i * 100 * MS, i + 1))
        runs.append(([(e.label, e.t_ns) for e in events if isinstance(e, CardSeen)],
                     uno.recogniser.named - before, w.frames_read))
    (kept, named_kept, read), (every, named_every, read_every) = runs
    assert [label for label, _ in kept] == ["red-4", "green-4"]
    assert kept == every and read == read_every
    assert named_kept < named_every / 2

