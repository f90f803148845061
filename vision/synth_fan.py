"""Drawn scenes of overlapping standard cards (a fan, a spread row, an offset pile).

No photo in ../shared/data shows overlapping cards, so the tests of vision/fan.py and part of
the corner-index network's training data come from these drawings (vision/synth.py's cards
and tables). Each card is pasted over the previous ones, as a hand lays them, and its
corners are returned so a test can tell which card a reading belongs to.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.cards import FRENCH_JOKERS, FRENCH_RANKS, FRENCH_SUITS
from vision import synth

FRENCH_NAMES = [f"{r}{s}" for r in FRENCH_RANKS for s in FRENCH_SUITS] + list(FRENCH_JOKERS)


@dataclass
class FanScene:
    """A drawn scene: the image, the labels bottom to top and each card's corners (TL TR BR
    BL of the card's art, image pixels), and the card height in pixels."""

    image: np.ndarray
    labels: list[str]
    corners: list[np.ndarray]
    card_h: float
    kind: str


def random_labels(n: int, rng: np.random.Generator) -> list[str]:
    """``n`` different standard card names (jokers included)."""
    return [FRENCH_NAMES[i] for i in rng.choice(len(FRENCH_NAMES), n, replace=False)]


def render_fan(labels: list[str], size: tuple[int, int] = (640, 480), table: str = "wood",
               seed: int = 0, kind: str = "fan", card_height: float | None = None,
               glare: bool = True) -> FanScene:
    """Overlapping cards on a drawn table. ``kind``: 'fan' (turned about a point below the
    cards, as held or laid in a fan), 'row' (a spread row, each card shifted along the row)
    or 'pile' (each card shifted a little down and right). Every card leaves its top-left
    index in view (an index hidden by the next card is no test of reading), and a card may
    lie upside down (its bottom-right index, printed turned, then shows at top-left)."""
    rng = np.random.default_rng(seed)
    w, h = size
    scene = synth.table_texture(table, size, rng)
    n = len(labels)
    ch = card_height or rng.uniform(0.42, 0.55) * h
    cw = ch * synth.CARD_PX[0] / synth.CARD_PX[1]
    base = rng.uniform(-25, 25)  # the whole group's turn
    centres: list[tuple[float, float]] = []
    angles: list[float] = []
    if kind == "fan":
        step = rng.uniform(9, 14)
        radius = rng.uniform(0.25, 0.45) * ch
        total = step * (n - 1)
        pivot = np.array([w / 2, h / 2 + 0.5 * radius + 0.15 * ch])
        for i in range(n):
            a = base - total / 2 + step * i
            r = np.deg2rad(a)
            centres.append((pivot[0] + radius * np.sin(r), pivot[1] - radius * np.cos(r)))
            angles.append(a)
    else:
        dx = rng.uniform(0.24, 0.34) * cw if kind == "row" else rng.uniform(0.24, 0.3) * cw
        dy = 0.0 if kind == "row" else rng.uniform(0.12, 0.2) * ch
        r = np.deg2rad(base)
        ex = np.array([np.cos(r), np.sin(r)])
        ey = np.array([-np.sin(r), np.cos(r)])
        c0 = np.array([w / 2, h / 2]) - (ex * dx + ey * dy) * (n - 1) / 2
        for i in range(n):
            c = c0 + (ex * dx + ey * dy) * i + rng.normal(0, 0.01 * ch, 2)
            centres.append((float(c[0]), float(c[1])))
            angles.append(base + rng.uniform(-3, 3))
    corners = []
    for label, c, a in zip(labels, centres, angles, strict=True):
        card = synth.draw_card("french", label)
        flip = bool(rng.random() < 0.3)
        if flip:
            card = np.ascontiguousarray(card[::-1, ::-1])
        q = synth.place_card(scene, card, c, ch, a)
        corners.append(q[[2, 3, 0, 1]] if flip else q)
    if glare:
        scene = synth.add_glare(scene, rng, 35)
    scene = cv2.GaussianBlur(scene, (3, 3), 0)
    return FanScene(scene, list(labels), corners, float(ch), kind)


def random_fan(seed: int, size: tuple[int, int] = (640, 480), table: str | None = None
               ) -> FanScene:
    """One random scene of 3-8 cards (kind, table and cards drawn from ``seed``; ``table``:
    that table instead, the rest drawn as without it)."""
    rng = np.random.default_rng(seed + 7919)
    n = int(rng.integers(3, 9))
    kind = str(rng.choice(["fan", "fan", "row", "pile"]))
    drawn = str(rng.choice(["wood", "cloth", "pattern", "cloth"]))
    return render_fan(random_labels(n, rng), size, table or drawn, seed, kind)


def owner_of(scene: FanScene, point: tuple[float, float]) -> int | None:
    """Index of the topmost card covering ``point``, or None for the table."""
    for i in range(len(scene.corners) - 1, -1, -1):
        poly = scene.corners[i].reshape(-1, 1, 2).astype(np.float32)
        if cv2.pointPolygonTest(poly, (float(point[0]), float(point[1])), False) >= 0:
            return i
    return None


INDEX_AT = (0.069, 0.08)  # where the drawn rank sits from a card corner, in card heights


def index_owner(scene: FanScene, quad: np.ndarray) -> int | None:
    """The card whose visible corner index (top-left, or bottom-right turned) lies inside a
    reading's patch ``quad``; None when no visible index does (the reading is of nothing).
    Judging a reading by the card on top at the patch's centre would be wrong in a tight
    fan, where the next card covers the inner half of the patch."""
    poly = np.asarray(quad, np.float32).reshape(-1, 1, 2)
    h = scene.card_h
    best, best_d = None, np.inf
    for i, q in enumerate(scene.corners):
        tl, tr, br, bl = (np.asarray(p, np.float32) for p in q)
        for p, u, v in ((tl, tr - tl, bl - tl), (br, bl - br, tr - br)):
            u = u / np.linalg.norm(u)
            v = v / np.linalg.norm(v)
            at = p + (u * INDEX_AT[0] + v * INDEX_AT[1]) * h
            pt = (float(at[0]), float(at[1]))
            if owner_of(scene, pt) != i or cv2.pointPolygonTest(poly, pt, False) < 0:
                continue
            d = float(np.linalg.norm(at - poly.reshape(-1, 2)[0]))
            if d < best_d:
                best, best_d = i, d
    return best
