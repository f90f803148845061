"""What the phone setting up the camera is told about the picture, before a game relies on it.

A table camera is set up once, by someone looking at a phone: a picture too dark, cards blown
out by a lamp, a camera out of focus, or cards too small in a wide view each cost readings
(cards left unsure, or worse, a colour misread), and each is fixed in seconds at setup (a
lamp, the camera's focus ring, the camera brought closer) and never noticed in play. The
camera's status carries the hints (``view_hints``) and the camera page says each in the
phone's language.

Each hint is judged on what the recogniser found in the same frame (the watcher's latest
cards), so a white table or a bright window beside the cards says nothing; only "dark" is
judged on the whole frame. The levels were measured on the shared photos, as taken and
degraded (docs/vision.md, "The camera page's hints"): a hint comes where readings fall off,
and at most on a few photos as taken.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from vision.detect import card_width, percentile_u8, rectify
from vision.recognise.features import DETAIL_H, DETAIL_W, sharpness

# The levels, measured on every other shared photo (487 UNO, 144 standard pack) as taken and
# degraded (tools/measure_view_hints.py; docs/vision.md, "The camera page's hints"):
# The frame's highlights (the 99th percentile of its grey levels) under this: dark. As taken,
# none is (their highlights are 127-255); at a third of the light (UNO 93%, standard 95% of
# cards named, against 98-99%) 14% and 40% of the photos; at a fifth (72%, 47%) all.
DARK_BELOW = 60.0
# A card whose pixels are more than this share blown to white (all three channels at 250 or
# more): blown out. (A vivid body reaches 255 in one channel in a well exposed webcam frame:
# every channel at once is what too much light does.) As taken, 1 of the 487 UNO photos and
# none of the 144 standard ones; at twice the light (UNO 85% named and 14 wrong names,
# against none) 58% and 82% of them, among them every photo with a wrong name.
CLIPPED_ABOVE = 0.2
# The cards' median sharpness (``features.sharpness`` of the 96x144 crop) under this:
# blurred. UNO's big flat colours are softer as taken than a standard card's pips and index,
# and lose less to blur: as taken 0.4% and none of the photos; blurred by 0.6% of the frame's
# width (UNO 95%, standard 69% named) 51% and 72%; by 1% (84%, 54%) 82% and 86%. A deck the
# photos do not show (Huang Di, a taught deck) gets the lower level.
BLURRED_BELOW = {"french": 0.02}
BLURRED_DEFAULT = 0.005
# The cards' median width under this share of the frame's long side: small. The detector
# works on the frame at 480 pixels long, where such cards are under 38 pixels wide: drawn
# tables of 5 cards (24 a size) named 69% of UNO cards 7.8% of the frame wide, 31% at 6.1%
# (82% at 7.2% on a 1280-wide frame); cards smaller still are not found, so not counted
# here. As taken, 2 of the 631 photos.
SMALL_BELOW = 0.08
# Order in which the page lists them (the first is the one to fix first)
HINTS = ("dark", "bright", "blurred", "small")


@dataclass(frozen=True)
class ViewMetrics:
    """What the hints are judged on (None where no card was found to judge it by)."""

    highlights: float  # the frame's 99th percentile of grey
    clipped: float | None  # the largest share of a card's pixels blown to white
    sharpness: float | None  # the cards' median sharpness
    width: float | None  # the cards' median width over the frame's long side


def measure(image: np.ndarray, cards: Iterable[Any] = ()) -> ViewMetrics:
    """The metrics of a BGR frame and the cards found in it (anything with ``corners``: TL
    TR BR BL in the frame's pixels)."""
    if image.ndim == 3 and image.shape[2] != 3:  # (a grey frame as one channel; BGRA)
        image = image[..., 0] if image.shape[2] < 3 else np.ascontiguousarray(image[..., :3])
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    quads = [np.asarray(c.corners, np.float32) for c in cards]
    quads = [q for q in quads if q.shape == (4, 2) and np.isfinite(q).all()]
    highlights = float(percentile_u8(grey, 99))
    if not quads:
        return ViewMetrics(highlights, None, None, None)
    return ViewMetrics(
        highlights,
        max(_clipped(image, q) for q in quads) if image.ndim == 3 else 0.0,
        float(np.median([sharpness(rectify(image, q, (DETAIL_W, DETAIL_H))) for q in quads])),
        float(np.median([card_width(q) for q in quads])) / max(image.shape[:2]))


def view_hints(image: np.ndarray | None, cards: Iterable[Any] = (), deck: str | None = None
               ) -> list[str]:
    """The hints (codes of ``HINTS``, in that order) for a BGR frame and the cards found in
    it, read as ``deck``."""
    if image is None or image.size == 0:
        return []
    m = measure(image, cards)
    found = []
    if m.highlights < DARK_BELOW:
        found.append("dark")
    if m.clipped is not None and m.clipped > CLIPPED_ABOVE:
        found.append("bright")
    if m.sharpness is not None and m.sharpness < BLURRED_BELOW.get(deck or "", BLURRED_DEFAULT):
        found.append("blurred")
    if m.width is not None and m.width < SMALL_BELOW:
        found.append("small")
    return found


def _clipped(image: np.ndarray, quad: np.ndarray) -> float:
    """The share of the card's pixels at 250 or more in all three channels."""
    x, y, w, h = cv2.boundingRect(np.round(quad).astype(np.int32))
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(image.shape[1], x + w), min(image.shape[0], y + h)
    if x1 <= x0 or y1 <= y0:
        return 0.0
    patch = image[y0:y1, x0:x1]
    mask = np.zeros(patch.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(quad - (x0, y0)).astype(np.int32), 1)
    inside = int(mask.sum())
    if not inside:
        return 0.0
    hot = cv2.threshold(patch.min(axis=2), 249, 1, cv2.THRESH_BINARY)[1]
    return float((hot & mask).sum()) / inside
