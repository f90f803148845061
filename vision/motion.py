"""Whether a camera frame shows anything new since the last frame that was read.

A camera over a table sees the same scene for seconds at a time: the cards lie still between
plays, and an empty table stays empty. Reading every frame (5-15 ms on this box, four or
five times that on a Raspberry Pi 4; a taught deck's unsure cards ~60 ms) spends the Pi's
cores on answers already known, which the web app, the speech and the slap judge need. The
watcher (vision/watcher.py) reads a frame where :class:`MotionGate` says it moved, and
otherwise keeps the last frame's cards once the last frames it read agree (as many as a card
needs to count): placing a card, taking one or a hand passing over the pile changes the
scene long before and after the card is still, so a card still counts only on as many
readings as before.

The frame is compared as a thumbnail (``CELL`` pixels a side averaged into one, in colour)
with the thumbnail of the last frame read: a sensor's noise or a webcam's JPEG blocks move a
cell's mean by a few levels, a card put down, taken or swapped by a hundred or more
(``CELL_LEVELS``). Slow drifts (the light, a camera's exposure) add up against that
reference until it is read again, and every ``REFRESH_MS`` a frame is read anyway (whatever
a cell's mean cannot show).
"""

from __future__ import annotations

import cv2
import numpy as np

CELL = 8  # frame pixels a thumbnail cell's side averages (a 640x480 frame: 80x60 cells)
# a cell's mean may move by this many levels (any channel) and the scene count as unmoved.
# Two frames of one scene, each with its own sensor noise and JPEG (the shared photos at
# 640 wide and drawn tables): sigma 8 at quality 60 moved a cell by up to 14 levels, sigma
# 12 at quality 40 by 16. A card swapped for another of its colour where it lay (drawn
# tables; ten cards at 1280x720 too) moved a cell by 179 or more, a scene shifted by 3 pixels
# by 82 or more.
CELL_LEVELS = 30
REFRESH_MS = 1000  # a frame is read at least this often, moved or not


def thumbnail(image: np.ndarray) -> np.ndarray:
    """The frame averaged over ``CELL`` x ``CELL`` pixel cells (an area resize: cheap at a
    whole factor, ~0.1 ms for 640x480)."""
    h, w = image.shape[:2]
    return cv2.resize(image, (max(1, w // CELL), max(1, h // CELL)),
                      interpolation=cv2.INTER_AREA)


class MotionGate:
    """``moved(image, t_ns)``: whether this frame must be read. Its thumbnail becomes the
    reference whenever it says so; ``reset()`` forgets the reference (the next frame is read:
    another deck, other zones)."""

    def __init__(self, cell_levels: int = CELL_LEVELS, refresh_ms: int = REFRESH_MS) -> None:
        self.cell_levels = cell_levels
        self.refresh_ns = refresh_ms * 1_000_000
        self._ref: np.ndarray | None = None
        self._ref_ns = 0

    def reset(self) -> None:
        self._ref = None

    def moved(self, image: np.ndarray, t_ns: int) -> bool:
        thumb = thumbnail(image)
        ref = self._ref
        if ref is None or ref.shape != thumb.shape or t_ns - self._ref_ns >= self.refresh_ns \
                or t_ns < self._ref_ns \
                or int(cv2.absdiff(thumb, ref).max()) > self.cell_levels:
            self._ref, self._ref_ns = thumb, t_ns
            return True
        return False
