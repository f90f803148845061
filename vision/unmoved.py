"""The cards of a camera's scene that have not moved since they were read: not named again.

The watcher reads a frame wherever it moved (vision/motion.py), and a hand playing one card
moves every frame it is over the table; but the other cards lying there show the same
picture frame after frame. Naming is most of a frame's cost once it holds many cards (ten
standard cards at 640x480: ~17 ms on this box, of which ~6 ms finding them; four or five
times that on a Raspberry Pi): a card found again where it lay, whose cells of the frame
(the motion gate's thumbnail, ``CELL`` pixels a side) have not moved past a sensor's noise
since it was last named afresh, keeps that reading.

A reading is kept only once it counts as the watcher counts a card: the same answer from
``reads`` frames in a row read afresh, over ``span_ms`` (the watcher's ``stable_frames``
and ``stable_ms``), so a card misread once is not carried over the frames after it; and
every card is named afresh at least every ``refresh_ms`` (the gate's, whatever a cell's
mean cannot show). The detector still runs on every frame read: a card is matched to the
quad found for it, within ``SHIFT`` of the frame's long side at every corner.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.detect import Quad
from vision.motion import CELL, CELL_LEVELS, REFRESH_MS, thumbnail

# A still card's quad moves this share of the frame's long side at most between frames (the
# detector's outline on a sensor's noise and JPEG): a quad moved further is another card's,
# or a card moved, and named afresh. (A card nudged by less is told by its cells: its edges
# move them.)
SHIFT = 0.005
_TURNS = np.array([[(i + k) % 4 for i in range(4)] for k in range(4)])  # a quad's four orders


@dataclass
class _Seen:
    corners: np.ndarray  # (4, 2) the detector's quad where it was named afresh
    card: object  # what it was named (a Card; None: not a card)
    box: tuple[int, int, int, int]  # its thumbnail cells (rows, columns), a cell around
    cells: np.ndarray  # those cells when it was named afresh
    reads: int  # frames in a row named afresh with this answer
    first_ns: int  # the first of them
    last_ns: int  # the last


def _answer(card: object) -> tuple:
    return (card is not None, getattr(card, "label", None))


class UnmovedCards:
    """Per camera: ``begin(image, t_ns)`` for each frame to be read; then, for that frame,
    ``kept(image, quads)`` the readings it may keep (by quad index) and ``remember(image,
    quads, cards, kept)`` what it gave (``Identifier.identify(image, unmoved)`` does both)."""

    def __init__(self, reads: int = 3, span_ms: int = 300, refresh_ms: int = REFRESH_MS,
                 cell_levels: int = CELL_LEVELS) -> None:
        self.reads, self.span_ns = reads, span_ms * 1_000_000
        self.refresh_ns, self.cell_levels = refresh_ms * 1_000_000, cell_levels
        self._seen: list[_Seen] = []
        self._at: np.ndarray | None = None  # the corners of _seen, stacked
        self._thumb: np.ndarray | None = None
        self._image: np.ndarray | None = None  # the frame ``begin`` was given
        self._t_ns = 0
        self._shift = 0.0
        self.kept_count = 0  # cards kept (not named afresh) since made: for the benchmark

    def reset(self) -> None:
        """Forget every reading (another deck, zones, table): the next frame is read whole."""
        self._seen, self._at, self._image = [], None, None

    def begin(self, image: np.ndarray, t_ns: int) -> None:
        thumb = thumbnail(image)
        if (self._thumb is not None and thumb.shape != self._thumb.shape) or t_ns < self._t_ns:
            self.reset()  # another camera, or its clock restarted
        self._thumb, self._t_ns, self._image = thumb, t_ns, image
        self._shift = SHIFT * max(image.shape[:2])

    def _match(self, corners: np.ndarray) -> _Seen | None:
        if not self._seen:
            return None
        if self._at is None:
            self._at = np.stack([s.corners for s in self._seen])  # (seen, 4, 2)
        # (the same four corners, in any of the orders a near-square quad may take)
        turns = np.asarray(corners, np.float32)[_TURNS]  # (4, 4, 2)
        far = np.abs(self._at[:, None] - turns[None]).max(axis=(2, 3)).min(axis=1)
        i = int(np.argmin(far))
        return self._seen[i] if far[i] <= self._shift else None

    def _still(self, s: _Seen) -> bool:
        y0, y1, x0, x1 = s.box
        now = self._thumb[y0:y1, x0:x1]
        return now.shape == s.cells.shape and \
            int(np.abs(now.astype(np.int16) - s.cells).max(initial=0)) <= self.cell_levels

    def kept(self, image: np.ndarray, quads: list[Quad]) -> dict[int, object]:
        """The quads (by index) of ``image`` whose reading stands: each one's card (None: not
        a card). None of them where ``begin`` was not given this very image."""
        out: dict[int, object] = {}
        if self._thumb is None or image is not self._image:
            return out
        for i, q in enumerate(quads):
            s = self._match(q.corners)
            if s is not None and s.reads >= self.reads and \
                    s.last_ns - s.first_ns >= self.span_ns and \
                    self._t_ns - s.last_ns < self.refresh_ns and self._still(s):
                out[i] = s.card
        self.kept_count += len(out)
        return out

    def remember(self, image: np.ndarray, quads: list[Quad], cards: list[object],
                 kept: dict[int, object]) -> None:
        """``image``'s quads and what each was named (``cards``, in order; None: not a
        card), ``kept`` those that were not named afresh. What no quad found again goes."""
        if self._thumb is None or image is not self._image:
            return
        h, w = self._thumb.shape[:2]
        seen = []
        for i, (q, card) in enumerate(zip(quads, cards, strict=True)):
            before = self._match(q.corners)
            if i in kept and before is not None:
                seen.append(before)
                continue
            x0, y0 = np.floor(q.corners.min(axis=0) / CELL).astype(int) - 1
            x1, y1 = np.ceil(q.corners.max(axis=0) / CELL).astype(int) + 1
            box = (max(0, int(y0)), min(h, int(y1)), max(0, int(x0)), min(w, int(x1)))
            agreed = before is not None and _answer(before.card) == _answer(card)
            seen.append(_Seen(
                q.corners.astype(np.float32), card, box,
                self._thumb[box[0]:box[1], box[2]:box[3]].astype(np.int16),
                before.reads + 1 if agreed else 1, before.first_ns if agreed else self._t_ns,
                self._t_ns))
        self._seen, self._at = seen, None
