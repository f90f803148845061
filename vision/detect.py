"""Find cards in a frame: each as four corners, plus a rectified portrait crop.

Classic geometry rather than a learned detector: a card is a bright, convex, nearly
rectangular blob (a trapezoid when the camera looks at a slant), which holds on wood, cloth
and white tables alike and costs a few ms on a Pi. Several binarisations are tried (Otsu,
bright-and-dull, brighter than the neighbourhood; for UNO the coloured and black card
bodies) because no single one works on every surface; their candidates are merged by
overlap. Each binarisation was kept because it finds cards the others miss, on the shared
photos or the drawn scenes (Canny edges, once a fourth, never did and cost ~0.5 ms a frame).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

CARD_W, CARD_H = 64, 96  # the rectified crop every recogniser sees (portrait)
# Long side of the image the geometry runs on; corners are scaled back. (400 was ~25%
# faster but lost cards on the photos: webcam cards on grey paper, some crops.)
WORK_SIDE = 480
# Saturation from which green or blue counts as a card body in a close-up (see find_cards):
# washed-out webcam bodies measured ~30-60, while skin, wood and walls are never that hue.
COOL_SAT = 25
# A card's sides: 1.4-1.55 to 1 seen square on, 1.15 the least a slant leaves; below that
# a quad is "square" (a card only in a stretched photo)
SQUARE_BELOW = 1.15
# More square candidates than this in one binarisation are a checked tablecloth, not cards
# squeezed square by a stretched photo
MAX_SQUARES = 3
# A card body cut in two (the 2018 art's disc; our drawn oval, which meets the body's edges)
# is found as a pair of pieces of one hue (``_colour_pairs``): on the frame's vivid mask its
# ten largest pieces (more there: a deck laid out in rows lost 12 of its 49 cards, its mended
# bodies no longer looked for), and on the mask mended (closed, then opened once) its
# PAIR_PIECES largest, where the vivid mask gives under two cards or leaves two pieces or
# more in no card found by any mask (then around those pieces only: a wood table's speckle
# elsewhere cost ~3 ms). The opening wipes out the thin strips of small cards' bodies, and
# with more than five such cards in view the ten largest pieces were not enough: drawn tables
# (40 a size) named 333 of 400 cards of 10 at 640x480 and 307 at 1280x720 until 24 Nov, 381
# and 376 since, 5 cards 192 and 177 of 200, 194 and 191 since, none wrong; the shared photos
# name the same cards (two hand-held close-ups gain an unsure quad on a hand). Only pieces
# whose boxes together span at most PAIR_SPAN times the longer one's longest side are tried
# (the halves of a card span 1 to 1.5 times it): the same cards, fewer hulls measured.
PAIR_PIECES = 24
PAIR_SPAN = 2.5
# A photo this shaped (long side / short side) may be a tight crop of one card
CROP_ASPECT = (1.3, 1.7)
# A wild card's black body is darker than this share of the frame's Otsu split of grey
# (dark_level)
DARK_OF_SPLIT = 0.7
# A quad centred in a bigger one and at least this share of its area is a frame printed on
# the card (the pips' box of some standard printings is 0.24 of the card), not a card lying
# in a region of table
FRAME_SHARE = 0.2
# Canny's thresholds for the outline of a white card on a pale table (grey levels of the
# blurred working image: such an edge is 10-25 levels high)
EDGE_LOW, EDGE_HIGH = 15, 45
# A dim photo's steps are as dim as its light: Canny's thresholds and the neighbourhood's
# margin are scaled by the frame's highlights (its 99th percentile) over LIT, down to
# DIM_FLOOR. The shared photos' highlights are 127-255: at LIT no real photo here changes.
LIT, DIM_FLOOR = 130, 0.3
# A card seen at a slant (_slanted_card): the four-gon fitted to its hull may differ from the
# hull's area by this factor (its rounded corners cut, on a small far card, ~9%: 1.08 lost a
# card on black cloth in photos tilted away), and its mean sides may be as near square as
# this (seen from low down, a card lying across the view is foreshortened to a square or
# less; such a quad is read both ways: identify.SQUARISH)
SLANT_AREA = 1.12
SLANT_LEAST = 1.0
# ... and the longer of two opposite sides at most this many times the shorter: a rectangle
# in perspective narrows with distance, and a card's far edge is a third of its near one
# only seen edge-on from a few centimetres. The green wedge between an old-art UNO card's
# edge and its oval (two long sides, one a few pixels) passed for a slanted card, held the
# card's own outline out as "a region around a card", and was named a skip at 0.99
SLANT_TAPER = 3.0
# ... and no corner sharper than this many degrees: a card lying turned on the table, seen
# from low down, is a parallelogram with corners down to ~35 degrees (40 lost the far card of
# a photo taken from table height)
SLANT_SHARPEST = 30.0
# The most cards one frame reports (largest first): a whole deck laid out on the table (a
# photo of 50 UNO cards in rows had 26 of them cut by the old cap of 24)
MAX_CARDS = 64


@dataclass
class Quad:
    """One card candidate: corners (TL, TR, BR, BL of the portrait card) in image pixels."""

    corners: np.ndarray  # float32 (4, 2)
    area_frac: float
    whole: bool = False  # the whole image was taken as the card (a tight crop)
    # no outline: the box around the biggest vivid region of a close-up, hand-held card,
    # usually cut by the frame or by fingers; recognisers read it with more doubt
    partial: bool = False


def order_portrait(pts: np.ndarray) -> np.ndarray:
    """Order four points so that TL->TR is a short side: the card is seen upright-ish.

    Which short side is "top" stays ambiguous (cards are 180-degree symmetric in layout);
    recognisers look at both orientations. Plain floats, not numpy: on four points numpy's
    per-call overhead was most of this function's cost, called once per card per frame.
    """
    xy = np.asarray(pts, dtype=np.float32).reshape(4, 2)
    p = xy.tolist()
    cx = (p[0][0] + p[1][0] + p[2][0] + p[3][0]) / 4.0
    cy = (p[0][1] + p[1][1] + p[2][1] + p[3][1]) / 4.0
    # clockwise in image coordinates (y down)
    order = sorted(range(4), key=lambda i: math.atan2(p[i][1] - cy, p[i][0] - cx))
    # start at the point with the smallest x+y to get a stable TL
    sums = [p[i][0] + p[i][1] for i in order]
    start = sums.index(min(sums))
    order = order[start:] + order[:start]
    (x0, y0), (x1, y1), (x2, y2) = p[order[0]], p[order[1]], p[order[2]]
    if math.hypot(x1 - x0, y1 - y0) > math.hypot(x2 - x1, y2 - y1):
        order = order[1:] + order[:1]  # landscape: rotate so that the first edge is short
    return xy[order]


def order_upright(pts: np.ndarray) -> np.ndarray:
    """Order four points TL, TR, BR, BL as the image shows them, however wide the box: a
    close-up's box around what is left in view of a hand-held card (cut by fingers or the
    frame's edge, often wider than tall) is the card's upper part, held upright to the
    camera; turning such a box to portrait read the card on its side."""
    xy = np.asarray(pts, dtype=np.float32).reshape(4, 2)
    c = xy.mean(axis=0)
    order = sorted(range(4), key=lambda i: math.atan2(xy[i][1] - c[1], xy[i][0] - c[0]))
    sums = [float(xy[i][0] + xy[i][1]) for i in order]
    start = sums.index(min(sums))
    return xy[order[start:] + order[:start]]


def rectify(image: np.ndarray, corners: np.ndarray, size: tuple[int, int] = (CARD_W, CARD_H)
            ) -> np.ndarray:
    """Warp the card to an upright portrait crop of ``size`` (w, h)."""
    w, h = size
    dst = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], dtype=np.float32)
    m = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), dst)
    return cv2.warpPerspective(image, m, (w, h), flags=cv2.INTER_AREA,
                               borderMode=cv2.BORDER_REPLICATE)


def _slanted_card(quad: np.ndarray, hull_area: float) -> bool:
    """Whether a convex four-gon (fitted to a blob's hull) looks like a card in perspective:
    it covers the hull (area within ``SLANT_AREA``), the mean of each pair of opposite sides
    gives an aspect a card can show (``SLANT_LEAST`` up to 3.6: seen from low down), opposite
    sides narrow no more than perspective does (``SLANT_TAPER``), and no corner is sharper
    than ``SLANT_SHARPEST``."""
    qa = cv2.contourArea(quad)
    if qa <= 0 or not 1.0 / SLANT_AREA <= hull_area / qa <= SLANT_AREA:
        return False
    # (plain floats: on four points numpy's per-call overhead was most of the cost, and a
    # checked tablecloth offers hundreds of such shapes a frame)
    p = quad.tolist()
    v = [(p[(i + 1) % 4][0] - p[i][0], p[(i + 1) % 4][1] - p[i][1]) for i in range(4)]
    side = [math.hypot(x, y) for x, y in v]
    if min(side) <= 0:
        return False
    a, b = (side[0] + side[2]) / 2, (side[1] + side[3]) / 2
    if not SLANT_LEAST <= max(a, b) / min(a, b) <= 3.6:  # (a phone held low: 3:1)
        return False
    if max(side[0], side[2]) > SLANT_TAPER * min(side[0], side[2]) or \
            max(side[1], side[3]) > SLANT_TAPER * min(side[1], side[3]):
        return False
    u = [(x / n, y / n) for (x, y), n in zip(v, side, strict=True)]
    # at each corner, between its two sides
    cos = [-(u[i][0] * u[i - 1][0] + u[i][1] * u[i - 1][1]) for i in range(4)]
    return max(abs(c) for c in cos) <= _SHARPEST_COS


_SHARPEST_COS = math.cos(math.radians(SLANT_SHARPEST))


def _quad_of(cnt: np.ndarray, area: float, img_area: float, shape: tuple[int, ...],
             min_frac: float, grow: float = 1.0, min_solidity: float = 0.88
             ) -> tuple[np.ndarray, float] | None:
    """The card quad of one blob outline, or None when the blob is not card-shaped."""
    if area < min_frac * img_area or area > 0.97 * img_area:
        return None
    hull = cv2.convexHull(cnt)
    hull_area = cv2.contourArea(hull)
    if hull_area <= 0 or area / hull_area < min_solidity:
        return None
    rect = cv2.minAreaRect(hull)
    (rw, rh) = rect[1]
    if rw <= 0 or rh <= 0:
        return None
    fill = hull_area / (rw * rh)
    aspect = max(rw, rh) / min(rw, rh)
    approx = cv2.approxPolyDP(hull, 0.03 * cv2.arcLength(hull, True), True)
    four = len(approx) == 4 and cv2.isContourConvex(approx)
    # A card seen at a slant (a phone held over the table) is a trapezoid, not a rectangle,
    # and fills as little as 75% of its rotated box: take it when a convex four-gon fits its
    # hull, with card-like sides and no corner too sharp, clear of the photo's edges (there,
    # such shapes were patches of table and shadow cut by the frame) but for one corner.
    # A clean rectangle clear of the photo's edges is a card at any aspect down to square:
    # photos stretched to another shape (datasets resized to 640x640) make cards nearly
    # square; the identifier reads such a quad both ways (identify.SQUARISH).
    # (the clean rectangle is tested before the slant, the dearer test: a checked tablecloth
    # offers hundreds of clean squares a frame, each of which the slant test had measured)
    if (fill < 0.86 or not SQUARE_BELOW <= aspect <= 2.4) and not (
            aspect <= 2.4 and fill >= 0.9 and area / hull_area >= 0.95
            and _border_sides(cv2.boxPoints(rect), shape) == 0) and not (
            four and _slanted_card(approx.reshape(4, 2).astype(np.float32), hull_area)
            and _clear_or_cornered(approx.reshape(4, 2), shape)):
        return None
    if four:
        pts = approx.reshape(4, 2).astype(np.float32)
    else:
        pts = cv2.boxPoints(rect).astype(np.float32)
    if _border_sides(pts, shape) >= 3:  # the table between the photo's edges
        return None
    if grow != 1.0:
        c = pts.mean(axis=0)
        pts = (pts - c) * grow + c
    return pts, hull_area * grow * grow / img_area


# A pair of pieces is one card's body where each piece and the two together fill at least
# these shares of their joint hull (a coloured body cut by the 2018 art's disc; the wild's
# black body cut by its oval, where at least WILD_OVAL_SHARE of their hull is vivid: two
# crescents of ~0.13 of it each; on drawn discard piles at the looser shares 82 of 96 wilds
# were named against 37, and without the oval's test a hand and hair paired into unsure
# quads on 12 of uno_hemant's close-ups)
PAIR_LEAST = (0.15, 0.3)
WILD_PAIR_LEAST = (0.1, 0.2)
WILD_OVAL_SHARE = 0.3
# The black mask opened this many times for the wild's crescents, as well as twice (as the
# other masks are): find_cards's ``wild_crescents``. Drawn discard piles
# (tools/measure_piles.py --tables 48), a wild over one card / two: named 68 / 73 of 96
# and 1 wrong name (a wild +4) opened twice only, 93 / 90 and none with this; the shared
# photos are named as before.
CRESCENT_OPENINGS = 1


# A black piece no card explains is looked at again by the card's edge (find_cards) only up
# to this share of the frame (its box): a dark tablecloth is one black piece the size of the
# table, which would have every frame's edges traced.
WILD_PIECE_MAX = 0.1


def edge_closed(gray: np.ndarray, kernel: np.ndarray, light: float = 1.0) -> np.ndarray:
    """The image's edges with their gaps closed, a mask whose blobs' outer outlines are
    those of everything a closed edge runs round. A white card on a pale table (grey paper,
    a white table under a lamp) differs from it by a few grey levels, less than a shadow
    across the table, so no brightness threshold holds the whole card, but its edge is a
    sharp step all round. (Without it the detector found only the frame printed round the
    pips on 7 of 46 webcam photos of a card on grey paper, and nothing on one.)"""
    edges = cv2.Canny(gray, EDGE_LOW * light, EDGE_HIGH * light)
    return cv2.morphologyEx(edges, cv2.MORPH_CLOSE, kernel,
                            iterations=2)


def edge_insides(keep: dict, min_frac: float = 0.004) -> list[Quad]:
    """The card-shaped insides of the closed edges, at ``INSIDE_EDGES`` of the detector's
    Canny thresholds, from the working image ``find_cards`` left in ``keep`` (its ``gray``,
    ``scale`` and ``light``).

    A white card on a white desk under a shadow, or on light wood whose grain runs into its
    edge, has an outline whose outside holds table (a shadow's edge, the grain), so it is no
    card shape, but whose inside is the card's: the hole its edge runs round. Sought with
    fainter edges than the detector's, as a white desk's step is faint. Not among the
    detector's candidates on every frame: there, overlapping white cards on a white desk
    gave holes made of parts of several cards, read as wrong names (the CC BY webcam scenes:
    7 right and 4 wrong names more); see ``Identifier._insides_look`` and docs/vision.md."""
    gray, scale = keep["gray"], keep["scale"]
    closed = edge_closed(gray, np.ones((3, 3), np.uint8), keep["light"] * INSIDE_EDGES)
    contours, hierarchy = cv2.findContours(closed, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return []
    holes = [c for c, link in zip(contours, hierarchy[0].tolist(), strict=True) if link[3] >= 0]
    sh, sw = gray.shape
    found = []
    for pts, frac in _candidates(closed, float(sh * sw), min_frac, contours=holes):
        c = pts.mean(axis=0)  # (the edge's own width back: the hole lies inside it)
        found.append((((pts - c) * INSIDE_GROW + c, frac), False))
    return [Quad(order_portrait(p / scale), f, partial=_runs_off(p, sw, sh))
            for p, f, _ in _merge(found)[:MAX_CARDS]]


# edge_insides: the share of the detector's Canny thresholds (the CC BY phone photos of single
# cards made 3:4 again, their 360 cards in colour, and the webcam scenes made 4:3: at a half
# 10 and 7 cards more named than without the insides, at a third 12 and 7, at the detector's
# own 4 and 5; one wrong name more on the scenes each way); each inside grown by this, the
# edge's width
INSIDE_EDGES = 0.5
INSIDE_GROW = 1.02


def _outlines(mask: np.ndarray, nested: bool = False) -> list[np.ndarray]:
    """The outer outline of every blob of a mask (found once where two searches use them).
    ``nested``: also of the blobs lying in a hole of a blob that is no card. A vivid
    tablecloth (a green felt, a pink check) is one blob of the colour masks with the cards in
    its holes, and their coloured bodies are islands there, which the outermost outlines
    alone never reach (drawn discard piles on such cloths: not one card found). The islands
    of a card-shaped blob are figures printed on that card, and stay out."""
    if not nested:
        return list(cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0])
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_TREE, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return []
    parent = hierarchy[0][:, 3].tolist()
    area = float(mask.shape[0] * mask.shape[1])
    no_card: dict[int, bool] = {}

    def open_(blob: int) -> bool:  # a blob whose holes may hold cards: itself none
        if blob not in no_card:
            c = contours[blob]
            no_card[blob] = _quad_of(c, cv2.contourArea(c), area, mask.shape, 0.0) is None
        return no_card[blob]

    out = []
    for i, c in enumerate(contours):
        hole = parent[i]
        if hole < 0:
            out.append(c)
        elif parent[hole] >= 0 and open_(parent[hole]) and all(
                open_(b) for b in _blobs_around(parent, parent[hole])):
            out.append(c)  # (an island: its parent is a hole, the hole's the blob around)
    return out


def _blobs_around(parent: list[int], blob: int) -> list[int]:
    """The blobs whose holes hold ``blob`` (every second ancestor in the contour tree)."""
    out = []
    hole = parent[blob]
    while hole >= 0 and parent[hole] >= 0:
        out.append(parent[hole])
        hole = parent[parent[hole]]
    return out


def _candidates(mask: np.ndarray, img_area: float, min_frac: float, grow: float = 1.0,
                contours: list[np.ndarray] | None = None) -> list[tuple[np.ndarray, float]]:
    """The card quad of every card-shaped blob of a mask."""
    out = []
    for cnt in _outlines(mask) if contours is None else contours:
        q = _quad_of(cnt, cv2.contourArea(cnt), img_area, mask.shape, min_frac, grow)
        if q is not None:
            out.append(q)
    # a card squeezed square by a stretched photo is one or two things in view; many
    # squares are a checked tablecloth
    square = [side_ratio(q[0]) < SQUARE_BELOW for q in out]
    if sum(square) > MAX_SQUARES:
        out = [q for q, sq in zip(out, square, strict=True) if not sq]
    return out


def _side_sums(pts: np.ndarray) -> tuple[float, float]:
    """A quad's two pairs of opposite sides, each summed (plain floats: on four points
    numpy's per-call overhead is most of the cost)."""
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = np.asarray(pts, np.float64).tolist()
    return (math.hypot(x1 - x0, y1 - y0) + math.hypot(x3 - x2, y3 - y2),
            math.hypot(x2 - x1, y2 - y1) + math.hypot(x0 - x3, y0 - y3))


def card_width(pts: np.ndarray) -> float:
    """A quad's width in pixels: the mean of its two shorter opposite sides."""
    return min(_side_sums(pts)) / 2


def side_ratio(pts: np.ndarray) -> float:
    """A quad's mean long side over its mean short side."""
    a, b = _side_sums(pts)
    return max(a, b) / max(min(a, b), 1e-6)


_HUE_ANGLE = np.arange(180, dtype=np.float32) * np.float32(np.pi / 90.0)
_HUE_COS, _HUE_SIN = np.cos(_HUE_ANGLE).astype(np.float64), np.sin(_HUE_ANGLE).astype(np.float64)


def _circular_hue(hue: np.ndarray, mask: np.ndarray) -> float:
    """Mean OpenCV hue (0..180) of the masked pixels, on the circle (red wraps at 0/180);
    through a histogram of the 180 hues rather than a cosine and a sine per pixel."""
    hist = cv2.calcHist([np.ascontiguousarray(hue)], [0], mask, [180], [0, 180]).ravel()
    n = float(hist.sum())
    if n <= 0:
        return 0.0
    c = float(hist @ _HUE_COS) / n
    s = float(hist @ _HUE_SIN) / n
    return float(np.mod(np.arctan2(s, c) * 90.0 / np.pi, 180.0))


def percentile_u8(values: np.ndarray, q: float, channel: int = 0) -> int:
    """Percentile of uint8 values (of one ``channel`` of a colour image) through a histogram
    (much cheaper than np.percentile)."""
    return _percentiles_u8(values, (q,), channel)[0]


def _percentiles_u8(values: np.ndarray, qs: tuple[float, ...], channel: int = 0
                    ) -> list[int]:
    """Several percentiles of one histogram (one pass over the pixels for all of them)."""
    hist = cv2.calcHist([np.ascontiguousarray(values)], [channel], None, [256], [0, 256])
    n = values.shape[0] * values.shape[1]
    cum = np.cumsum(hist.ravel())
    return [int(np.searchsorted(cum, q / 100.0 * n)) for q in qs]


def _share_inside(mask: np.ndarray, hull: np.ndarray, area: float) -> float:
    """The share of a convex hull's area that a mask covers."""
    x, y, w, h = cv2.boundingRect(hull)
    inside = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(inside, hull.reshape(-1, 2) - [x, y], 255)
    return cv2.countNonZero(cv2.bitwise_and(inside, mask[y:y + h, x:x + w])) / max(area, 1.0)


def _colour_pairs(mask: np.ndarray, hue: np.ndarray | None, img_area: float, min_frac: float,
                  grow: float, contours: list[np.ndarray] | None = None, pieces: int = 10,
                  oval: np.ndarray | None = None) -> list[tuple[np.ndarray, float]]:
    """UNO 2018 art: the white disc splits the coloured body into two pieces of one hue;
    a pair whose joint hull is card-shaped is a card. ``hue`` None: every piece is one hue
    (the black body of the wild cards). ``pieces``: how many of the largest are paired
    (``PAIR_PIECES``). ``oval``: the vivid mask, where two black pieces too small for a
    pair are still a wild's body around its oval (``WILD_PAIR_LEAST``)."""
    sized = [(cv2.contourArea(c), c) for c in (_outlines(mask) if contours is None else contours)]
    sized = sorted([ac for ac in sized if ac[0] >= 0.3 * min_frac * img_area],
                   key=lambda ac: ac[0], reverse=True)[:pieces]
    blobs = [c for _, c in sized]
    areas = [a for a, _ in sized]
    boxes = [cv2.boundingRect(c) for c in blobs]
    hues: dict[int, float] = {}

    def hue_of(i: int) -> float:  # (only of pieces with a piece near them: ~20 us each)
        if i not in hues:
            x, y, w, h = boxes[i]
            m = np.zeros((h, w), np.uint8)
            cv2.drawContours(m, [blobs[i] - [x, y]], -1, 255, -1)
            hues[i] = _circular_hue(hue[y:y + h, x:x + w], m)
        return hues[i]

    out = []
    for i in range(len(blobs)):
        for j in range(i + 1, len(blobs)):
            if not _near(boxes[i], boxes[j]):
                continue
            if hue is not None:
                dh = abs(hue_of(i) - hue_of(j))
                if min(dh, 180 - dh) > 10:
                    continue
            both = np.vstack([blobs[i], blobs[j]])
            hull = cv2.convexHull(both)
            area = cv2.contourArea(hull)
            # (a wild's black body is what its oval leaves: two crescents of ~0.13 of it
            # each, around the oval's colours; a hand and hair hold none)
            if (min(areas[i], areas[j]) < PAIR_LEAST[0] * area
                    or areas[i] + areas[j] < PAIR_LEAST[1] * area) and (
                    oval is None or min(areas[i], areas[j]) < WILD_PAIR_LEAST[0] * area
                    or areas[i] + areas[j] < WILD_PAIR_LEAST[1] * area
                    or _share_inside(oval, hull, area) < WILD_OVAL_SHARE):
                continue
            q = _quad_of(both, area, img_area, mask.shape, min_frac, grow, min_solidity=0.0)
            if q is not None:
                out.append(q)
    return out


def _unexplained(outlines: list[np.ndarray], cands: list[tuple[tuple[np.ndarray, float], bool]],
                 least: float) -> list[tuple[int, int, int, int]]:
    """The bounding boxes of a mask's pieces (outlines of ``least`` area or more) whose
    centre is in none of the candidates' boxes: bodies the vivid mask's search did not make
    cards of."""
    boxes = []
    for (pts, _), _ in cands:
        x0, y0 = pts.min(axis=0).tolist()
        x1, y1 = pts.max(axis=0).tolist()
        boxes.append((x0, y0, x1, y1))
    out = []
    for c in outlines:
        x, y, w, h = cv2.boundingRect(c)
        cx, cy = x + w / 2, y + h / 2
        if not any(x0 <= cx <= x1 and y0 <= cy <= y1 for x0, y0, x1, y1 in boxes) \
                and cv2.contourArea(c) >= least:
            out.append((x, y, w, h))
    return out


def _around(boxes: list[tuple[int, int, int, int]], shape: tuple[int, ...]) -> np.ndarray:
    """A mask of the squares around pieces' boxes where the rest of their card may lie
    (half a side of 1.2 times the box's longer side, about its centre)."""
    roi = np.zeros(shape[:2], np.uint8)
    for x, y, w, h in boxes:
        r = 1.2 * max(w, h)
        cx, cy = x + w / 2, y + h / 2
        cv2.rectangle(roi, (int(cx - r), int(cy - r)), (int(cx + r), int(cy + r)), 255, -1)
    return roi


def _near(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    """Whether two pieces' bounding boxes (x, y, w, h) may be parts of one card: together
    they span at most PAIR_SPAN times the longer piece's longest side (the halves of a card
    span about 1 to 1.5 times it; pieces of two cards apart, far more)."""
    span = max(max(a[0] + a[2], b[0] + b[2]) - min(a[0], b[0]),
               max(a[1] + a[3], b[1] + b[3]) - min(a[1], b[1]))
    return span <= PAIR_SPAN * max(a[2], a[3], b[2], b[3])


def _largest_colour_region(mask: np.ndarray, hue: np.ndarray, sat: np.ndarray,
                           half: bool = True, max_frac: float = 1.0
                           ) -> tuple[np.ndarray, float] | None:
    """The rotated box around the biggest vivid one-hue region (a hand-held, half-hidden
    card); vividness ranks it above skin and wood, which are large but duller. Judged at
    half size (``half``): the box is a rough guess either way, and labelling the regions at
    full size was the dearest step of a close-up frame. None when its box is not card-like
    or covers more than ``max_frac`` of the frame. Also gives the share of the frame its
    pixels cover."""
    step = 2 if half else 1
    mask, hue, sat = (np.ascontiguousarray(a[::step, ::step]) for a in (mask, hue, sat))
    n, lab, stats, _ = cv2.connectedComponentsWithStats(mask)
    area = mask.shape[0] * mask.shape[1]
    big = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= 0.01 * area]
    if not big:
        return None
    # each region judged inside its own bounding box, not over the whole frame
    box = {i: (slice(stats[i, 1], stats[i, 1] + stats[i, 3]),
               slice(stats[i, 0], stats[i, 0] + stats[i, 2])) for i in big}
    own = {i: (lab[box[i]] == i).astype(np.uint8) for i in big}
    vivid = {i: stats[i, cv2.CC_STAT_AREA] * (cv2.mean(sat[box[i]], own[i])[0] / 255) ** 3
             for i in big}
    big.sort(key=lambda i: -vivid[i])
    hues = {i: _circular_hue(hue[box[i]], own[i]) for i in big}
    h0 = hues[big[0]]
    keep = [i for i in big if min(abs(hues[i] - h0), 180 - abs(hues[i] - h0)) <= 10]
    if sum(stats[i, cv2.CC_STAT_AREA] for i in keep) < 0.04 * area:
        return None
    # the outlines' hull bounds the same rectangle as every pixel, for far fewer points
    pick = np.zeros(n, np.uint8)
    pick[keep] = 1
    outlines, _ = cv2.findContours(pick[lab], cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    rect = cv2.minAreaRect(np.vstack(outlines).reshape(-1, 2).astype(np.float32))
    (rw, rh) = rect[1]
    if min(rw, rh) <= 0 or not 1.0 <= max(rw, rh) / min(rw, rh) <= 2.5 \
            or rw * rh > max_frac * area:
        return None
    pts = cv2.boxPoints(rect).astype(np.float32) * step + (step - 1) / 2  # full size
    c = pts.mean(axis=0)
    return (pts - c) * 1.08 + c, sum(stats[i, cv2.CC_STAT_AREA] for i in keep) / area


def _pale_level(sat: np.ndarray) -> int | None:
    """The saturation under which a pixel is paler than a tinted table (light wood, a beige
    cloth): Otsu's level where the frame's unvivid pixels fall into two levels far enough
    apart, else None (a neutral table: grey, white, black, where it costs one histogram of a
    quarter of the pixels).

    A white card on light wood differs from it in colour more than in light: a shadow across
    the card makes it darker than the wood beside it, so no brightness threshold holds the
    whole card, and the wood's grain runs into its edge outline (on the CC BY phone photos of
    single cards on wood, ``../shared/train/cadyze_cards_singles``, the outline took the grain
    with it and nothing else was card-shaped). Its saturation is near zero; the wood's is not.
    The level is Otsu's over the pixels under ``PALE_SAT_MAX`` (the printing's vivid reds
    apart)."""
    few = sat[::2, ::2]  # (a quarter of the pixels: the same levels, a quarter of the time)
    hist = cv2.calcHist([few], [0], None, [PALE_SAT_MAX], [0, PALE_SAT_MAX]).ravel()
    n = float(hist.sum())
    if n < 0.5 * few.size:
        return None
    w0 = np.cumsum(hist, dtype=np.float64)
    m0 = np.cumsum(hist * np.arange(PALE_SAT_MAX), dtype=np.float64)
    w1 = n - w0
    mean0 = m0 / np.maximum(w0, 1)
    mean1 = (m0[-1] - m0) / np.maximum(w1, 1)
    t = int(np.argmax(w0 * w1 * (mean1 - mean0) ** 2))
    if mean1[t] - mean0[t] < PALE_SAT_GAP or min(w0[t], w1[t]) < PALE_LEAST * n:
        return None
    return t


def _pale_candidates(sat: np.ndarray, img_area: float, min_frac: float
                     ) -> list[tuple[np.ndarray, float]]:
    """The card quads of the pixels paler than a tinted table (``_pale_level``). The mask is
    closed before it is opened, so a frame printed inside a card (Huang Di's red line) does
    not cut off the white strip outside it and pass for the card. (Lower levels tried in
    turn where this one gives no card, the wood's own saturation varying across a photo, gave
    those phone photos 3 more cards and cost a shared photo one: not kept.)"""
    t = _pale_level(sat)
    if t is None:
        return []
    kernel = np.ones((3, 3), np.uint8)
    mask = cv2.morphologyEx(_at_most(sat, t), cv2.MORPH_CLOSE, kernel, iterations=2)
    return _candidates(cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel, iterations=2),
                       img_area, min_frac)


# _pale_level: saturations at or over this are printing, not table or card; the two levels'
# means must lie this far apart, and each hold this share of the rest
PALE_SAT_MAX = 110
PALE_SAT_GAP = 20
PALE_LEAST = 0.1


def _white_balanced(small: np.ndarray) -> np.ndarray:
    """The frame with each channel's 97th percentile brought to 235: a webcam's green cast or
    a lamp's warm light would otherwise move every hue judged after it."""
    few = np.ascontiguousarray(small[::3, ::3])  # (one copy for the three channels)
    top = np.array([percentile_u8(few, 97, c) for c in range(3)], np.float32)
    gain = np.clip(235.0 / np.maximum(top, 20.0), 0.5, 3.0)
    # a per-channel gain as a colour transform, a tenth of the time of a 3-channel LUT;
    # the -0.499 makes its rounding a truncation, as the float multiply and LUT had
    return cv2.transform(small, np.hstack([np.diag(gain), np.full((3, 1), -0.499)]
                                          ).astype(np.float32))


def _at_least(channel: np.ndarray, level: int) -> np.ndarray:
    """255 where a uint8 channel is ``level`` or more (``cv2.inRange`` from ``level``)."""
    return cv2.threshold(channel, level - 1, 255, cv2.THRESH_BINARY)[1]


def _at_most(channel: np.ndarray, level: int) -> np.ndarray:
    """255 where a uint8 channel is ``level`` or less."""
    return cv2.threshold(channel, level, 255, cv2.THRESH_BINARY_INV)[1]


def _cool(hsv: np.ndarray) -> np.ndarray:
    """Green or blue from a far lower saturation than other hues (COOL_SAT): a card body that
    skin, wood and warm walls never are."""
    return cv2.inRange(hsv, (40, COOL_SAT, 50), (130, 255, 255))


def quarter_turned(corners: np.ndarray) -> np.ndarray:
    """The same quad with its long side taken as the short one: the card read a quarter
    turned (a nearly square quad is read both ways: which side is long is a guess)."""
    return np.roll(corners, -1, axis=0)


def dark_level(gray: np.ndarray, split: float | None = None) -> float:
    """The brightness below which a pixel may be a wild card's black body: webcams and
    phones show it dark grey (~70-90 on the photos), so it is judged against the frame's own
    Otsu split of dark from light (``split``, when already known), from 60 to 100."""
    if split is None:
        split = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[0]
    return float(np.clip(DARK_OF_SPLIT * split, 60, 100))


def closeup_body(image: np.ndarray, side: int = 240) -> list[Quad]:
    """A second look at a frame where no card was read surely: the box around its most
    vivid one-hue region, then around its darkest (the wild cards' black body), then around
    its largest green or blue one (a washed-out card), each grown by the white border's
    width and marked ``partial``.

    For a hand-held UNO card held up to a webcam: fingers cut its outline and a light wall
    or a face beside it gives the outline searches nothing card-shaped, but its coloured
    body is still the most saturated thing in view. Vivid is judged by Otsu's split of this
    frame's own saturation (webcams wash colours out by different amounts), and the pieces
    of the body that the white disc separates are joined by their common hue. Only the
    leading region of each kind is offered: taking the likeliest of several boxes by the
    recogniser's confidence picked its confident mistakes on the photos (a band of the body
    above the disc read as another card at 0.999). Cheap (~1 ms) at ``side`` pixels.
    """
    h, w = image.shape[:2]
    s = side / max(h, w)
    small = cv2.resize(image, (max(1, round(w * s)), max(1, round(h * s))),
                       interpolation=cv2.INTER_AREA)
    hsv = cv2.cvtColor(_white_balanced(small), cv2.COLOR_BGR2HSV)
    hue, sat, val = cv2.split(hsv)
    t, _ = cv2.threshold(sat, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    vivid = cv2.bitwise_and(cv2.threshold(sat, max(t, 40.0) - 1, 255, cv2.THRESH_BINARY)[1],
                            cv2.threshold(val, 49, 255, cv2.THRESH_BINARY)[1])
    dark = cv2.threshold(val, dark_level(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)), 255,
                         cv2.THRESH_BINARY_INV)[1]
    kernel = np.ones((3, 3), np.uint8)
    out = []
    # A dark region boxing most of the frame is the room or a shirt, not a wild's body (whose
    # white border and coloured oval stay in view): on the train and calib photos the wilds
    # found this way boxed 8-50% of the frame. The green or blue region is looked for as in
    # find_cards' close-up search: a webcam can wash a blue card out below the skin of the
    # face beside it, which then is the most vivid region.
    for mask, most in ((vivid, 0.9), (dark, 0.6), (_cool(hsv), 0.9)):
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel, iterations=2)
        region = _largest_colour_region(mask, hue, sat, half=False, max_frac=most)
        if region is not None:
            out.append(Quad(order_upright(region[0] / s), 0.0, partial=True))
    return out


def _runs_off(pts: np.ndarray, w: int, h: int, margin: float = 0.1) -> bool:
    """A quad with a corner well outside the photo: at best a card cut by the frame (seen
    only in part), often a wall or a face whose outline the frame closed. (A tight crop's
    coloured body, grown by the white border's width, runs off by ~5%: still a whole card.)"""
    m = margin * max(w, h)
    return bool((pts[:, 0] < -m).any() or (pts[:, 0] > w - 1 + m).any()
                or (pts[:, 1] < -m).any() or (pts[:, 1] > h - 1 + m).any())


def _border_sides(pts: np.ndarray, shape: tuple[int, ...], margin: float = 3.0) -> int:
    """How many of the photo's four edges the points come within ``margin`` of (plain floats:
    called for every blob, hundreds a frame on a checked tablecloth, where numpy's per-call
    overhead on four points was most of its cost)."""
    h, w = shape[:2]
    flat = pts.ravel().tolist()
    xs, ys = flat[0::2], flat[1::2]
    return (int(min(xs) < margin) + int(min(ys) < margin) + int(max(xs) > w - 1 - margin)
            + int(max(ys) > h - 1 - margin))


def _clear_or_cornered(pts: np.ndarray, shape: tuple[int, ...], margin: float = 3.0) -> bool:
    """Clear of the photo's edges, or touching them at one corner only (a card lying at a
    slant near the edge of the view, its corner just cut off), not along a side."""
    if _border_sides(pts, shape, margin) == 0:
        return True
    h, w = shape[:2]
    near = (pts[:, 0] < margin) | (pts[:, 1] < margin) | (pts[:, 0] > w - 1 - margin) | \
        (pts[:, 1] > h - 1 - margin)
    if near.sum() != 1:
        return False
    k = int(np.argmax(near))
    # its two neighbours well inside the frame: the corner pokes out, no side runs along
    inner = np.array([pts[(k - 1) % 4], pts[(k + 1) % 4]])
    m = 0.05 * max(h, w)
    return bool(((inner[:, 0] > m) & (inner[:, 1] > m) & (inner[:, 0] < w - 1 - m)
                 & (inner[:, 1] < h - 1 - m)).all())


def iou_box(a: np.ndarray, b: np.ndarray) -> float:
    ax0, ay0 = a.min(axis=0)
    ax1, ay1 = a.max(axis=0)
    bx0, by0 = b.min(axis=0)
    bx1, by1 = b.max(axis=0)
    iw = max(0.0, min(ax1, bx1) - max(ax0, bx0))
    ih = max(0.0, min(ay1, by1) - max(ay0, by0))
    inter = iw * ih
    union = (ax1 - ax0) * (ay1 - ay0) + (bx1 - bx0) * (by1 - by0) - inter
    return inter / union if union > 0 else 0.0


def _iou_xyxy(a: tuple[float, float, float, float], b: tuple[float, float, float, float]
              ) -> float:
    """``iou_box`` of two boxes given as (x0, y0, x1, y1): plain floats, no numpy."""
    iw = min(a[2], b[2]) - max(a[0], b[0])
    ih = min(a[3], b[3]) - max(a[1], b[1])
    if iw <= 0 or ih <= 0:
        return 0.0
    inter = iw * ih
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def _box(pts: np.ndarray) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) of the points (plain floats: numpy's min and max cost more on four)."""
    flat = pts.ravel().tolist()
    xs, ys = flat[0::2], flat[1::2]
    return min(xs), min(ys), max(xs), max(ys)


def _contains(outer: np.ndarray, inner: np.ndarray) -> bool:
    c = inner.mean(axis=0)
    return cv2.pointPolygonTest(outer.reshape(-1, 1, 2), (float(c[0]), float(c[1])), False) > 0


def _merge(cands: list[tuple[tuple[np.ndarray, float], bool]],
           enclosing: list[tuple[np.ndarray, float]] | None = None
           ) -> list[tuple[np.ndarray, float, bool]]:
    """One quad per card from every mask's candidates ((quad, area_frac), strong), largest
    first. Strong quads (coloured bodies) are trusted over what encloses them. The first of
    overlapping candidates is kept, so the candidate lists go in order of trust.
    ``enclosing`` receives the quads dropped for holding another: the card itself, when what
    it holds is printed on it (the coloured cards of a wild +4, the +2's two cards)."""
    found: list[tuple[np.ndarray, float, bool]] = []
    boxes: list[tuple[float, float, float, float]] = []  # their bounding boxes, for overlap
    for (pts, frac), is_strong in cands:
        box = _box(pts)
        if any(_iou_xyxy(box, b) > 0.5 for b in boxes):
            continue
        found.append((pts, frac, is_strong))
        boxes.append(box)
    found.sort(key=lambda x: -x[1])
    # A quad inside a bigger quad is either the printed frame of a card (centred: drop the
    # inner one) or a card lying inside a region of table (off-centre: drop the region).
    # (Centres and boxes computed once, and a centre outside the box needs no polygon test.)
    drop: set[int] = set()
    centres = [(float(x), float(y)) for x, y in (p.mean(axis=0) for p, _, _ in found)]
    fboxes = [_box(p) for p, _, _ in found]
    for i, (outer, of, _) in enumerate(found):
        x0, y0, x1, y1 = fboxes[i]
        diag = math.hypot(x1 - x0, y1 - y0)
        poly = outer.reshape(-1, 1, 2)
        for j in range(i + 1, len(found)):
            _, inf, inner_strong = found[j]
            cx, cy = centres[j]
            if not (x0 < cx < x1 and y0 < cy < y1) or \
                    cv2.pointPolygonTest(poly, (cx, cy), False) <= 0:
                continue
            off = math.hypot(cx - centres[i][0], cy - centres[i][1])
            # (a square inside a quad is a figure printed on a card, not a card in a region
            # of table: a card is square only in a stretched photo, and then so is its region)
            if (off < 0.08 * diag and inf > FRAME_SHARE * of and not inner_strong) or \
                    side_ratio(found[j][0]) < SQUARE_BELOW:
                drop.add(j)
            else:
                drop.add(i)
    if enclosing is not None:
        enclosing += [(found[i][0], found[i][1]) for i in sorted(drop)
                      if any(_contains(found[i][0], found[j][0]) for j in range(len(found))
                             if j not in drop)]
    return [f for k, f in enumerate(found) if k not in drop]


def looks_for_bodies(deck: str) -> bool:
    """Whether ``deck``'s cards are looked for by their coloured bodies too (``find_cards``'s
    ``colour_bodies``): UNO, and taught decks (unknown art, often coloured); not the standard
    pack or Huang Di, where red pips or frames would pass for bodies."""
    return deck not in ("french", "huangdi")


def find_cards(image: np.ndarray, min_frac: float = 0.004, whole_fallback: bool = True,
               max_cards: int = MAX_CARDS, colour_bodies: bool = False,
               keep: dict | None = None, enclosing: list[Quad] | None = None,
               wild_crescents: bool = False) -> list[Quad]:
    """Every card-like quadrilateral in a BGR image, largest first.

    ``whole_fallback``: when nothing card-shaped is found, the image itself is taken as one
    card (or, with ``colour_bodies``, the largest coloured region), because callers are also
    handed tight crops and hand-held close-ups of a single card.
    ``colour_bodies``: also look for UNO's coloured card bodies (off for other decks, where
    red pips would pass for bodies).
    ``keep``: a dict to receive the working image and its masks ("small", "scale", "otsu",
    and without colour bodies "sat", the HSV saturation, and "edges", the closed edges), so
    the overlapping-card search (vision/fan.py) of the same frame need not compute them
    again.
    ``enclosing``: a list to receive the quads dropped because another quad lies inside
    them (smallest first). Usually a region of table around a card, but a card whose
    printing holds card-shaped figures (UNO's wild +4 and +2, the wild's disc) is dropped
    for its figures too, so the caller may read these when nothing inside them is a card.
    ``wild_crescents``: (UNO's own art, with ``colour_bodies``) also look for a wild's black
    body as the black mask opened once (``CRESCENT_OPENINGS``), where a small wild's
    crescents keep their tips. Not for a taught deck, whose art is not UNO's: its black
    pips and frames, so kept, cost standard cards taught at the table 3 names in 276.
    """
    h, w = image.shape[:2]
    scale = min(1.0, WORK_SIDE / max(h, w))
    small = cv2.resize(image, (round(w * scale), round(h * scale)),
                       interpolation=cv2.INTER_LINEAR) if scale < 1 else image
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    gray = cv2.GaussianBlur(gray, (5, 5), 0)
    sh, sw = gray.shape
    img_area = float(sh * sw)
    kernel = np.ones((3, 3), np.uint8)
    masks = []
    split, otsu = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    masks.append(cv2.morphologyEx(otsu, cv2.MORPH_OPEN, kernel))
    if keep is not None:
        keep.update(small=small, scale=scale, otsu=otsu)
    if colour_bodies:  # judge colour after a white balance: webcams often cast green
        # one HSV for every mask (the white one found the same cards on the balanced frame)
        hsv = hsv_c = cv2.cvtColor(_white_balanced(small), cv2.COLOR_BGR2HSV)
    else:
        hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    # (the masks below bound one or two channels: a threshold of each, split once, costs
    # a third of a range test over all three)
    hue, sat, val = cv2.split(hsv)
    if keep is not None and not colour_bodies:
        keep["sat"] = sat
    # bright and not too saturated: the white border of most cards
    mid, top = _percentiles_u8(gray, (60, 99))
    white = cv2.bitwise_and(_at_most(sat, 90), _at_least(val, mid))
    masks.append(cv2.morphologyEx(white, cv2.MORPH_CLOSE, kernel, iterations=2))
    # brighter than the neighbourhood: a white card on a light table or grey paper
    light = min(1.0, max(DIM_FLOOR, top / LIT))
    if keep is not None:
        keep.update(gray=gray, light=light)
    block = max(3, (min(sh, sw) // 3) | 1)
    local = cv2.adaptiveThreshold(gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY,
                                  block, -6 * light)
    local = cv2.morphologyEx(local, cv2.MORPH_OPEN, kernel)
    if not colour_bodies:  # (UNO's coloured bodies close its outline: measured, no gain)
        # a white card on a tinted table by its saturation, trusted before the edges: on
        # light wood the grain joins the card's outline, which then holds wood beyond it
        pale, pale_at = _pale_candidates(sat, img_area, min_frac), len(masks)
        # trusted before the neighbourhood's blobs, which follow the light, not the card
        # (drawn standard scenes: 693 of 711 cards named, 669 the other way round)
        masks.append(edge_closed(gray, kernel, light))
        if keep is not None:
            keep["edges"] = masks[-1]
    masks.append(local)

    # the coloured body of an UNO card, for when its white border melts into a light table;
    # grown by the border's width so the crop matches a card found by its outline
    if colour_bodies:
        lit = _at_least(val, 50)
        vivid = cv2.bitwise_and(_at_least(sat, 110), lit)
        colour = cv2.morphologyEx(vivid, cv2.MORPH_OPEN, kernel, iterations=2)

    per_mask = [_candidates(m, img_area, min_frac) for m in masks]
    if not colour_bodies:  # (in the masks' order of trust: after Otsu's and the white)
        per_mask.insert(pale_at, pale)
    outlined = [(c, False) for cs in per_mask for c in cs]
    cands = []
    if colour_bodies:
        outl = _outlines(colour, nested=True)
        cands += [(c, True) for c in _candidates(colour, img_area, min_frac, 1.1, outl)]
        cands += [(c, True) for c in _colour_pairs(colour, hue, img_area, min_frac,
                                                   1.1, outl)]
        # the black body of the wild cards (its oval's four colours are pieces of the vivid
        # mask: not left unexplained once the wild is found; listed after the mended bodies)
        dark_raw = cv2.threshold(val, dark_level(gray, split), 255,
                                 cv2.THRESH_BINARY_INV)[1]
        dark = cv2.morphologyEx(dark_raw, cv2.MORPH_OPEN, kernel, iterations=2)
        dark_outl = _outlines(dark, nested=True)
        wilds = [(c, False) for c in _candidates(dark, img_area, min_frac, 1.1, dark_outl)]
        crescents, crescents_outl = dark, dark_outl
        if wild_crescents:
            # Opened twice, a small wild's crescents lose their tips, and their joint hull,
            # no longer card-shaped, was no card; the cards under it then gave the only
            # outline, wild and all, once read as a wild +4. Opened once, they pair; or a
            # band a few pixels wide joins them, and the body is whole: a card.
            crescents = cv2.morphologyEx(dark_raw, cv2.MORPH_OPEN, kernel,
                                         iterations=CRESCENT_OPENINGS)
            crescents_outl = _outlines(crescents, nested=True)
            wilds += [(c, False) for c in _candidates(crescents, img_area, min_frac, 1.1,
                                                      crescents_outl)]
        wilds += [(c, False) for c in _colour_pairs(crescents, None, img_area, min_frac, 1.1,
                                                    crescents_outl, oval=vivid)]
        left = [] if len(cands) < 2 else \
            _unexplained(outl, cands + wilds + outlined, 0.3 * min_frac * img_area)
        if len(cands) < 2 or len(left) >= 2:
            # Each body made whole, where the bodies gave fewer than two cards, or (around
            # them only) where they left pieces of body in none of the cards found: on small
            # cards (a whole deck laid out in rows) the classic art's white oval and the
            # number cut the body into pieces that the opening wipes out; closing first
            # joins them (the white borders between two cards are wider than the oval's
            # line). Not on every frame: on a drawn wood table its speckle costs ~0.5 ms.
            mended = cv2.morphologyEx(cv2.morphologyEx(vivid, cv2.MORPH_CLOSE, kernel),
                                      cv2.MORPH_OPEN, kernel)
            if left:  # (a wood table's speckle elsewhere cost ~3 ms of outlines)
                mended = cv2.bitwise_and(mended, _around(left, mended.shape))
            outl = _outlines(mended, nested=True)
            cands += [(c, True) for c in _candidates(mended, img_area, min_frac, 1.1, outl)]
            cands += [(c, True) for c in _colour_pairs(mended, hue, img_area, min_frac,
                                                       1.1, outl, PAIR_PIECES)]
        cands += wilds
        # Black pieces in no card found, two or more, each small (a wild's body cut by its
        # oval: on a light table its white border joins the table, and its pieces may be
        # too unequal to pair): the card's closed edge outline around them, as the
        # standard pack's every frame has it (~1.5-4 ms a frame over the whole frame)
        dark_left = [b for b in _unexplained(dark_outl, cands + outlined,
                                             0.3 * min_frac * img_area)
                     if b[2] * b[3] <= WILD_PIECE_MAX * img_area]
        if len(dark_left) >= 2:
            edges = cv2.bitwise_and(edge_closed(gray, kernel, light),
                                    _around(dark_left, gray.shape))
            cands += [(c, False) for c in _candidates(edges, img_area, min_frac)]
    cands += outlined
    held: list[tuple[np.ndarray, float]] = []
    kept = _merge(cands, held)
    closeup = False
    pts = None  # the close-up's box, when one is taken
    if whole_fallback and colour_bodies and len(kept) <= 2 and not any(k[2] for k in kept):
        # No coloured body among the outlines: a close-up, hand-held card (cut by the frame
        # or by fingers, so its outline is no card shape) may be there too, beside a wall or
        # a face that looked card-shaped; the recogniser's "not a card" class sorts them
        # out. Its body is looked for again, as strong as a body found above (so a wall's
        # outline around it gives way): a webcam's colours can be washed out, so vivid is
        # judged against this frame's most saturated pixels; and green or blue, which skin,
        # wood and warm walls never are, counts from a far lower saturation (in hand-held
        # webcam shots those bodies were often less saturated than the hand holding them).
        smin = int(np.clip(0.75 * percentile_u8(sat, 95), 60, 110))
        if smin < 110:
            colour = cv2.morphologyEx(cv2.bitwise_and(_at_least(sat, smin), lit),
                                      cv2.MORPH_OPEN, kernel, iterations=2)
        cool = cv2.morphologyEx(_cool(hsv_c), cv2.MORPH_OPEN, kernel, iterations=2)
        extra = [c for m, outl in ((colour, _outlines(colour)), (cool, _outlines(cool)))
                 for c in _candidates(m, img_area, min_frac, 1.1, outl)
                 + _colour_pairs(m, hue, img_area, min_frac, 1.1, outl)]
        region = None
        if not kept or not extra:
            region = _largest_colour_region(colour, hue, sat) or \
                _largest_colour_region(cool, hue, sat)
        pts = None if region is None else region[0]
        if region is not None and not kept and region[1] >= 0.35:
            # nothing else found, and one colour fills the frame: a tight crop, where shapes
            # inside the card's body (its corner index, the wild's oval) are not cards
            big = 0.5 * cv2.contourArea(pts)
            extra = [(q, f) for q, f in extra
                     if not (_contains(pts, q) and cv2.contourArea(q) < big)]
        if extra:
            kept = _merge([((p, f), st) for p, f, st in kept] + [(c, True) for c in extra],
                          held)
        elif pts is not None and all(
                iou_box(pts, q) < 0.3 and not _contains(pts, q) and not _contains(q, pts)
                for q, _, _ in kept):
            closeup = not kept  # a rotated box, not an outline: the whole card if alone
            kept.append((pts, 0.0, False))
    quads = [Quad(order_upright(p / scale) if p is pts else order_portrait(p / scale), f,
                  partial=p is pts or _runs_off(p, sw, sh))
             for p, f, _ in kept[:max_cards]]
    if closeup:
        quads[0].whole = True
    if enclosing is not None:
        taken: list[np.ndarray] = []  # both merges may drop the same region
        for p, f in sorted(held, key=lambda x: x[1]):
            # (one the frame cuts on two sides is a region of table far more often than a
            # card; a card cut by the frame is read from its body already)
            if all(iou_box(p, q) < 0.8 for q in taken) and _border_sides(p, gray.shape) < 2:
                taken.append(p)
                enclosing.append(Quad(order_portrait(p / scale), f))
    whole = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    if not quads and whole_fallback:
        quads = [Quad(order_portrait(whole), 1.0, whole=True)]
    elif enclosing is not None and whole_fallback and quads[0].area_frac < 1.0 and \
            CROP_ASPECT[0] <= max(h, w) / min(h, w) <= CROP_ASPECT[1]:
        # a photo shaped like a card may be a tight crop whose printed figures were found
        enclosing.append(Quad(order_portrait(whole), 1.0, whole=True))
    return quads
