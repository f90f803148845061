"""The cards of a camera's scene that lie still keep their names (vision/unmoved.py): named
again only where they moved, changed, or may not count yet; the watcher's events stay the
same, at the same frames."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.events import CardSeen
from vision.detect import Quad, find_cards
from vision.frame import Frame
from vision.identify import Card, Identifier
from vision.unmoved import UnmovedCards
from vision.watcher import ZoneWatcher
from vision.zones import Zone

MS = 1_000_000
# four UNO cards in a row on black, a real photo (../shared/data), at a webcam's 640x480
ROW = "uno_r3xol_scenes/scene_1.jpg"
OTHERS = "uno_r3xol_scenes/scene_2.jpg"  # four more of the same deck, on the same black


def _photo(shared: Path, name: str) -> np.ndarray:
    return cv2.resize(cv2.imread(str(shared / name)), (640, 480), interpolation=cv2.INTER_AREA)


def _webcam(image: np.ndarray, seed: int) -> np.ndarray:
    """The same scene as another frame of a camera shows it: its own sensor noise."""
    noise = np.random.default_rng(seed).normal(0, 3, image.shape)
    return np.clip(image + noise, 0, 255).astype(np.uint8)


def _cards_of(image: np.ndarray) -> list[np.ndarray]:
    """The photo's cards' quads, left to right."""
    quads = [q.corners for q in find_cards(image, colour_bodies=True) if q.area_frac > 0.03]
    return sorted(quads, key=lambda c: float(c[:, 0].mean()))


def _lay(scene: np.ndarray, source: np.ndarray, card: np.ndarray, where: np.ndarray
         ) -> np.ndarray:
    """``scene`` with the card of ``source`` at quad ``card`` laid at quad ``where``."""
    m = cv2.getPerspectiveTransform(card.astype(np.float32), where.astype(np.float32))
    h, w = scene.shape[:2]
    warped = cv2.warpPerspective(source, m, (w, h))
    mask = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(mask, np.round(where).astype(np.int32), 255)
    out = scene.copy()
    out[mask > 127] = warped[mask > 127]
    return out


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


def test_cards_lying_still_are_named_until_they_count_then_kept(uno, shared_data) -> None:
    """Each frame 100 ms apart: named afresh until three frames over 300 ms agreed (as the
    watcher counts a card), then found and kept, not named; the same cards every frame."""
    row, unmoved = _photo(shared_data, ROW), UnmovedCards(reads=3, span_ms=300)
    named = []
    for k in range(8):
        image = _webcam(row, k)
        before = uno.recogniser.named
        unmoved.begin(image, k * 100 * MS)
        cards = uno.identify(image, unmoved)
        named.append(uno.recogniser.named - before)
        assert _names(cards) == _names(uno.identify(image))
    assert [c.label for c in sorted(cards, key=lambda c: c.centre[0])] == \
        ["blue-1", "red-3", "green-1", "blue-reverse"]
    assert all(n >= 4 for n in named[:4]) and named[4:] == [0, 0, 0, 0]
    assert unmoved.kept_count >= 16


def test_a_card_changed_where_it_lay_is_named_afresh(uno, shared_data) -> None:
    """Another card laid exactly where one lay (its quad the same, its cells not), then a
    card nudged: each named afresh, the others kept."""
    row, others = _photo(shared_data, ROW), _photo(shared_data, OTHERS)
    unmoved = UnmovedCards(reads=2, span_ms=100)
    for k in range(3):
        image = _webcam(row, k)
        unmoved.begin(image, k * 100 * MS)
        uno.identify(image, unmoved)
    at = _cards_of(row)
    # a red 1 for the red 3 (the detector's quad within 1.4 pixels of the 3's)
    swapped = _lay(row, others, _cards_of(others)[2], at[1])
    image = _webcam(swapped, 3)
    before = uno.recogniser.named
    unmoved.begin(image, 300 * MS)
    cards = uno.identify(image, unmoved)
    assert sorted(c.label for c in cards) == sorted(["blue-1", "red-1", "green-1",
                                                      "blue-reverse"])
    assert 1 <= uno.recogniser.named - before <= 2  # (the new card, and a figure on it)
    nudged = _lay(swapped, row, at[0], at[0] + np.float32([6, -5]))
    image = _webcam(nudged, 4)
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
    afresh once ``refresh_ms`` have passed since it last was, and only in the frame given to
    ``begin``; another frame size forgets them all."""
    image = np.full((480, 640, 3), 90, np.uint8)
    unmoved = UnmovedCards(reads=3, span_ms=300, refresh_ms=1000)
    quads = [_quad(100), _quad(300)]
    t = 0
    for k in range(10):
        unmoved.begin(image, t)
        assert unmoved.kept(image, quads) == ({} if k < 4 else {1: unmoved._seen[1].card})
        kept = unmoved.kept(image, quads)
        unmoved.remember(image, quads, [_card("red-2" if k % 2 else "red-3", 100),
                                 kept.get(1, _card("blue-5", 300))], kept)
        t += 100 * MS
    assert [s.card.label for s in unmoved._seen] == ["red-2", "blue-5"]
    unmoved.begin(image, 1300 * MS)  # a second since it was last named (at 300 ms)
    assert unmoved.kept(image, quads) == {}
    unmoved.remember(image, quads, [_card("red-2", 100), _card("blue-5", 300)], {})
    assert unmoved._seen[1].reads == 5  # (named afresh the same: still counts)
    unmoved.begin(image, 1400 * MS)
    assert 1 in unmoved.kept(image, quads)
    assert unmoved.kept(image.copy(), quads) == {}  # (not the frame ``begin`` was given)
    bigger = np.full((720, 1280, 3), 90, np.uint8)
    unmoved.begin(bigger, 1500 * MS)
    assert unmoved.kept(bigger, quads) == {} and unmoved._seen == []


def _hand(scene: np.ndarray, reach: float) -> np.ndarray:
    """A hand (an arm and a palm) reaching in from the frame's bottom edge."""
    out = scene.copy()
    y = int(480 - 70 * reach)
    cv2.line(out, (370, 520), (320, y + 30), (100, 150, 205), 50)
    cv2.ellipse(out, (320, y), (40, 45), 15, 0, 360, (100, 150, 205), -1)
    return out


def _game(shared: Path) -> list[np.ndarray]:
    """The row of four cards lying still, and two cards of the other photo played on a pile
    below them (half their size) by a hand."""
    table, others = _photo(shared, ROW), _photo(shared, OTHERS)
    theirs = _cards_of(others)
    pile = np.float32([[285, 365], [355, 365], [355, 470], [285, 470]])
    frames = [table] * 6
    for k, turn in ((0, 0), (2, 3)):
        before, table = table, _lay(table, others, theirs[k], pile + np.float32(turn))
        frames += [_hand(before, r) for r in (0.4, 0.8, 1.0)]
        frames += [_hand(table, r) for r in (0.8, 0.4)]
        frames += [table] * 8
    return [_webcam(f, k) for k, f in enumerate(frames)]


def test_the_watcher_counts_the_same_plays_at_the_same_frames_keeping_still_cards(
        uno, shared_data) -> None:
    """A game watched keeping still cards and naming every card of each frame read: the same
    events, at the same frames; far fewer crops named."""
    frames = _game(shared_data)
    runs = []
    for keep in (True, False):
        events: list = []
        w = ZoneWatcher([Zone("discard", (0.35, 0.72, 0.65, 1.0))], uno, events.append,
                        unmoved=keep)
        before = uno.recogniser.named
        for i, image in enumerate(frames):
            w.feed(Frame(image, i * 100 * MS, i + 1))
        runs.append(([(e.label, e.t_ns) for e in events if isinstance(e, CardSeen)],
                     uno.recogniser.named - before, w.frames_read))
    (kept, named_kept, read), (every, named_every, read_every) = runs
    assert [label for label, _ in kept] == ["blue-5", "red-1"]
    assert kept == every and read == read_every
    assert named_kept < named_every / 2

