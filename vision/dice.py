"""Reading rolled dice: where each die lies, its colour, and the pips on top (1 to 6).

A game's dice are few, known colours (Kingsburg: a colour per seat, ``red blue green yellow
purple``, and the white dice), so a die is found as a square-ish blob of one of them, not by a
learned model: every pixel gets the colour its hue, saturation and brightness say (white: a
pale pixel brighter than the table around it), each colour's blobs of a die's size and shape
are kept, and the top face is the brightest part of the blob (the side a camera sees a little
of is the same colour, darker). The pips are the holes in the face's colour, whatever their
own colour (light pips on the dark dice, dark ones on the light): the holes of a pip's size
are counted, and the count must be laid out as a die lays it (the 1 in the middle, the 2 and
3 on a diagonal, the 4, 5 and 6 in two columns), turned any way. A count laid out wrongly, a
blob not square, pips of unlike sizes or a face whose colour is half another's lower the
reading's confidence: a die the reader is not sure of is reported unsure, with its best
guess, for a person to confirm (the game's ``SURE``), never passed off as sure.

A white die on a white table is barely brighter than the table: where its colour finds no
readable face, it is found by its pips alone (``_white_by_pips``: 2 to 6 dark round dots
laid out as a die lays them, on a pale face), and there every place a pip may lie and none
was found must be as light as the face (a faded pip would make a 5 a 3). A white 1 on a
white table is one dot: nothing to tell it from a crumb, so it is left to the phone.

Measured on rendered scenes only (``vision.synth_dice``; ``tools/measure_dice.py``): no camera
was at hand. Real photos are still to be taken and measured (docs/games/kingsburg.md, "Dice
from the camera").

``DiceReader`` gives the camera's watcher what it wants of a deck's identifier
(``identify(image) -> [Card]``, ``deck``): each die is a "card" labelled ``colour:value``, its
corners the face's, so a game's whole-set zone (``camera_sets``) hands the game every die in
its roll zone at once.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import cv2
import numpy as np

from vision.identify import Card

COLOURS = ("red", "blue", "green", "yellow", "purple", "white")
# OpenCV hue (0..180) ranges of the coloured dice, and the saturation each needs at least:
# the card renderer's checked table is a dull red and a pink (S about 150 and 130), its wood a
# pale orange (S about 105), its cloth a dark green (S about 105, V about 60)
HUES: dict[str, tuple[tuple[int, int], ...]] = {
    "red": ((0, 9), (171, 180)), "yellow": ((18, 38), ), "green": ((39, 90), ),
    "blue": ((91, 128), ), "purple": ((125, 154), )}
MIN_SAT = {"red": 170, "yellow": 150, "green": 120, "blue": 120, "purple": 135}
MIN_VAL = 60
# white: barely coloured, bright, and brighter than the table around it by this much
WHITE_SAT, WHITE_VAL, WHITE_LIFT = 60, 120, 5
# a die's face, in pixels across (a 16 mm die in a 640x480 view from 40 to 90 cm)
SIDE_PX = (18, 90)
# the face is the blob's part at least this bright, against its brightest tenth
FACE_OF_TOP = 0.8
# a pip's area, as a share of the face's
PIP_AREA = (0.006, 0.07)
# a white die's pip, found by itself: this much darker than the table around it
PIP_DARK = 45
# a place on a face found by its pips where a pip may lie and none was found is suspect
# where it is darker than the face by this share of the way to the pips' darkness
MISSED_PIP = 0.1
# a pip differs from its face's colour by this much at least (Lab units): less is no pip
MIN_PIP_CONTRAST = 40.0
# pips of one die are of one size: the largest at most this many times the smallest
PIP_SAME = 2.6
# how far (a share of the face's side) a pip may lie from where the layout puts it before
# the reading loses confidence, and how far before it has none
LAYOUT_OK, LAYOUT_BAD = 0.09, 0.2
_A, _C, _B = 0.25, 0.5, 0.75
LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((_C, _C),),
    2: ((_A, _A), (_B, _B)),
    3: ((_A, _A), (_C, _C), (_B, _B)),
    4: ((_A, _A), (_B, _A), (_A, _B), (_B, _B)),
    5: ((_A, _A), (_B, _A), (_C, _C), (_A, _B), (_B, _B)),
    6: ((_A, _A), (_A, _C), (_A, _B), (_B, _A), (_B, _C), (_B, _B)),
}


@dataclass(frozen=True)
class DieReading:
    """One die found: its colour, the value on top (None: no count could be made), how sure
    the reader is of both (0..1), and its face's corners in the frame."""

    colour: str
    value: int | None
    confidence: float
    corners: np.ndarray  # (4, 2) float
    why: str = ""  # what lowered the confidence most ("layout", "colour", ...; "": nothing)

    @property
    def centre(self) -> tuple[float, float]:
        c = self.corners.mean(axis=0)
        return float(c[0]), float(c[1])

    @property
    def label(self) -> str | None:
        return None if self.value is None else f"{self.colour}:{self.value}"


def colour_masks(image: np.ndarray) -> dict[str, np.ndarray]:
    """Each dice colour's pixels (uint8 masks, 255 where a pixel is of that colour)."""
    hsv = cv2.cvtColor(cv2.GaussianBlur(image, (3, 3), 0), cv2.COLOR_BGR2HSV)
    h, s, v = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    masks: dict[str, np.ndarray] = {}
    bright = v >= MIN_VAL
    for colour, ranges in HUES.items():
        hue = np.zeros(h.shape, bool)
        for lo, hi in ranges:
            hue |= (h >= lo) & (h <= hi)
        masks[colour] = ((hue & (s >= MIN_SAT[colour]) & bright) * 255).astype(np.uint8)
    # the table's brightness around each pixel (a die is small against the median's window)
    small = cv2.resize(v, (max(1, v.shape[1] // 4), max(1, v.shape[0] // 4)),
                       interpolation=cv2.INTER_AREA)
    table = cv2.resize(cv2.medianBlur(small, 15), (v.shape[1], v.shape[0]),
                       interpolation=cv2.INTER_LINEAR)
    # (smoothed more: on a white table the face is a few levels above the table's noise)
    v5 = cv2.GaussianBlur(v, (5, 5), 0).astype(np.int16)
    white = (s < WHITE_SAT) & (v >= WHITE_VAL) & (v5 >= table.astype(np.int16) + WHITE_LIFT)
    masks["white"] = cv2.morphologyEx((white * 255).astype(np.uint8), cv2.MORPH_OPEN,
                                      np.ones((3, 3), np.uint8))
    return masks


def _layout_cost(points: np.ndarray) -> float:
    """How far (a share of the side) the pips lie from their count's layout, at its best
    turn: the worst pip's distance, matched one to one."""
    n = len(points)
    best = float("inf")
    for layout in (LAYOUTS[n], tuple((y, 1 - x) for x, y in LAYOUTS[n])):
        ref = np.asarray(layout)
        for perm in itertools.permutations(range(n)):
            cost = float(np.max(np.hypot(*(points[list(perm)] - ref).T)))
            best = min(best, cost)
    return best


def _face_quad(face: np.ndarray) -> np.ndarray | None:
    """The face's corners (TL TR BR BL as the box lies) from its outline, or None."""
    contours, _ = cv2.findContours(face, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    box = cv2.boxPoints(cv2.minAreaRect(max(contours, key=cv2.contourArea)))
    return np.asarray(box, np.float32)


def read_face(colour: str, mask: np.ndarray, value_img: np.ndarray, lab: np.ndarray,
              blob: np.ndarray, offset: tuple[int, int]) -> DieReading | None:
    """Read one blob of ``colour`` (``blob``: its pixels in a crop of ``mask``, of the
    brightness ``value_img`` and of the Lab colours ``lab``, the crop at ``offset`` in the
    frame). None: no die."""
    filled = np.zeros_like(blob)
    contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    cv2.drawContours(filled, contours, -1, 255, -1)
    # the top face: the bright part (the side the camera sees is the same colour, darker)
    vals = value_img[(blob > 0)]
    if vals.size == 0:
        return None
    top = float(np.percentile(vals, 90))
    face = ((filled > 0) & ((value_img >= FACE_OF_TOP * top) | (blob == 0))).astype(np.uint8)
    face = cv2.morphologyEx(face * 255, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(face, connectivity=8)
    if n < 2:
        return None
    k = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    face = (labels == k).astype(np.uint8) * 255
    contours, _ = cv2.findContours(face, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    face = np.zeros_like(face)
    cv2.drawContours(face, contours, -1, 255, -1)
    quad = _face_quad(face)
    if quad is None:
        return None
    (w_, h_) = cv2.minAreaRect(quad)[1]
    side = float(np.sqrt(max(w_ * h_, 1.0)))
    if not SIDE_PX[0] <= side <= SIDE_PX[1]:
        return None
    aspect = max(w_, h_) / max(min(w_, h_), 1.0)
    area = float(np.count_nonzero(face))
    solidity = area / max(w_ * h_, 1.0)
    if aspect > 1.6 or solidity < 0.6:
        return None
    shape_conf = float(np.clip(1 - (aspect - 1.2) / 0.3, 0, 1)) * float(
        np.clip((solidity - 0.65) / 0.15, 0, 1))
    inner = cv2.erode(face, np.ones((3, 3), np.uint8), iterations=max(1, int(side * 0.06)))
    # the pips: what differs from the face's own colour by at least half as much as the
    # most different (a pip's middle), in blobs of a pip's size. (The holes in the colour
    # mask are wider: a blurred pip's rim is neither pip nor face, and six pips ran together.)
    body = (inner > 0) & (mask > 0)
    if not body.any():
        return None
    ref = np.median(lab[body], axis=0)
    dist = np.linalg.norm(lab - ref, axis=-1)
    inside = dist[inner > 0]
    far = float(np.percentile(inside, 99.5)) if inside.size else 0.0
    pip_mask = ((inner > 0) & (dist > max(0.5 * far, MIN_PIP_CONTRAST / 2))).astype(np.uint8)
    if far < MIN_PIP_CONTRAST:
        pip_mask[:] = 0
    # the face's colour: how much of it (pips and their rims aside) is this colour
    rest = (inner > 0) & (cv2.dilate(pip_mask, np.ones((3, 3), np.uint8), iterations=2) == 0)
    colour_share = float(np.count_nonzero(rest & (mask > 0))) / max(
        float(np.count_nonzero(rest)), 1.0)
    m, _hl, hstats, hcent = cv2.connectedComponentsWithStats(pip_mask * 255, connectivity=8)
    pips, odd = [], 0
    for i in range(1, m):
        share = hstats[i, cv2.CC_STAT_AREA] / area
        if PIP_AREA[0] <= share <= PIP_AREA[1]:
            pips.append((hcent[i], hstats[i, cv2.CC_STAT_AREA]))
        elif share > PIP_AREA[1] or hstats[i, cv2.CC_STAT_AREA] >= 4:
            odd += 1
    corners = quad + np.asarray(offset, np.float32)
    if not 1 <= len(pips) <= 6:
        return DieReading(colour, None, 0.0, corners, f"pips:{len(pips)}")
    # the pips' centres on the unit face (the box's corners as the unit square's)
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    box = cv2.perspectiveTransform(np.asarray([[p for p, _ in pips]], np.float32),
                                   cv2.getPerspectiveTransform(quad, unit))[0]
    cost = _layout_cost(box)
    layout_conf = float(np.clip(1 - (cost - LAYOUT_OK) / (LAYOUT_BAD - LAYOUT_OK), 0, 1))
    sizes = [a for _, a in pips]
    size_conf = 1.0 if max(sizes) <= PIP_SAME * min(sizes) else 0.5
    colour_conf = float(np.clip((colour_share - 0.5) / 0.2, 0, 1))
    odd_conf = 1.0 if odd == 0 else 0.6
    factors = {"layout": layout_conf, "sizes": size_conf, "colour": colour_conf,
               "shape": shape_conf, "stray": odd_conf}
    why = min(factors, key=factors.__getitem__)
    conf = factors[why]
    return DieReading(colour, len(pips), round(conf, 4), corners, why if conf < 1 else "")


def find_dice(image: np.ndarray, colours: tuple[str, ...] = COLOURS) -> list[DieReading]:
    """Every die of ``colours`` in a BGR frame, read (an unreadable die: value None,
    confidence 0)."""
    masks = colour_masks(image)
    value_img = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)[..., 2]
    lab_img = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)
    out: list[DieReading] = []
    lo, hi = SIDE_PX[0] ** 2 * 0.5, SIDE_PX[1] ** 2 * 1.6
    for colour in colours:
        mask = masks[colour]
        n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        for i in range(1, n):
            x, y, w, h, a = stats[i]
            if not lo <= a <= hi or max(w, h) > 2.2 * SIDE_PX[1]:
                continue
            x0, y0 = max(0, x - 2), max(0, y - 2)
            x1, y1 = min(mask.shape[1], x + w + 2), min(mask.shape[0], y + h + 2)
            blob = ((labels[y0:y1, x0:x1] == i) * 255).astype(np.uint8)
            reading = read_face(colour, mask[y0:y1, x0:x1], value_img[y0:y1, x0:x1],
                                lab_img[y0:y1, x0:x1].astype(np.float32), blob, (x0, y0))
            if reading is not None:
                out.append(reading)
    if "white" in colours:
        out = _white_by_pips(image, out)
    return out


def _fit_layout(points: np.ndarray) -> tuple[float, np.ndarray] | None:
    """The die face a cluster of 2-6 pips lies on, from the pips alone: (the layout's cost as
    a share of the side, the face's corners), the best of every turn (1 degree apart) and
    of the count's layouts; None for fewer than two pips (a lone dot tells no face)."""
    n = len(points)
    if not 2 <= n <= 6:
        return None
    centre = points.mean(axis=0)
    rel = points - centre
    best: tuple[float, np.ndarray] | None = None
    for layout in (LAYOUTS[n], tuple((y, 1 - x) for x, y in LAYOUTS[n])):
        ref = np.asarray(layout) - 0.5
        scale = float(np.sqrt((rel ** 2).sum() / max((ref ** 2).sum(), 1e-9)))
        if scale <= 0:
            continue
        for deg in range(0, 90):
            a = np.deg2rad(deg)
            rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
            placed = ref @ rot.T * scale
            d = np.hypot(*(placed[:, None, :] - rel[None, :, :]).transpose(2, 0, 1))
            if len(set(np.argmin(d, axis=1).tolist())) != n:
                continue
            cost = float(np.max(np.min(d, axis=1))) / scale
            if best is None or cost < best[0]:
                unit = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])
                best = (cost, (unit @ rot.T * scale + centre).astype(np.float32))
    return best


def _no_pip_missed(v: np.ndarray, quad: np.ndarray, pips: np.ndarray, face_v: float
                   ) -> float:
    """1.0 where every place a pip may lie on this face and none was found is as light as
    the face; 0.5 where one is darker (a pip lost to glare or blur: a 5 without two corners
    is laid out as a 3, a 3 without its middle as a 2). Found by its pips alone, a die has
    no other check that its count is whole."""
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    to_frame = cv2.getPerspectiveTransform(unit, quad.astype(np.float32))
    sites = np.asarray([(x, y) for x in (_A, _C, _B) for y in (_A, _C, _B)], np.float32)
    at = cv2.perspectiveTransform(sites[None], to_frame)[0]
    side = float(np.hypot(*(quad[1] - quad[0])))
    r = max(1, int(0.07 * side + 0.5))
    h, w = v.shape
    spots = np.rint(pips).astype(int)
    pip_v = float(np.median([v[y, x] for x, y in spots if 0 <= y < h and 0 <= x < w] or [0]))
    for x, y in at:
        if np.min(np.hypot(*(pips - (x, y)).T)) < 0.15 * side:
            continue  # (a pip was found there)
        xi, yi = int(np.rint(x)), int(np.rint(y))
        patch = v[max(0, yi - r):yi + r + 1, max(0, xi - r):xi + r + 1]
        if patch.size and float(patch.mean()) < face_v - MISSED_PIP * (face_v - pip_v):
            return 0.5
    return 1.0


def _white_by_pips(image: np.ndarray, found: list[DieReading]) -> list[DieReading]:
    """White dice found by their dark pips: on a white table the face is barely brighter
    than the table, but its pips are dark, round and laid out as a die lays them. Clusters
    of 2 to 6 such dots, on a pale face, away from the dice found by colour, are read from
    the layout alone (a lone dot tells no die: a 1 must be found by its face). A white die
    found by colour and read worse gives way."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    s, v = hsv[..., 1], hsv[..., 2]
    table = cv2.resize(cv2.medianBlur(cv2.resize(v, (v.shape[1] // 4, v.shape[0] // 4),
                                                 interpolation=cv2.INTER_AREA), 15),
                       (v.shape[1], v.shape[0]), interpolation=cv2.INTER_LINEAR)
    dark = ((v.astype(np.int16) < table.astype(np.int16) - PIP_DARK) & (s < 90)
            ).astype(np.uint8) * 255
    n, _, stats, cents = cv2.connectedComponentsWithStats(dark, connectivity=8)
    dots = []
    for i in range(1, n):
        w, h, a = stats[i, 2:5]
        if not 6 <= a <= 200 or max(w, h) > 1.8 * min(w, h) or a < 0.55 * w * h:
            continue
        dots.append((cents[i], float(a)))
    if not dots:
        return found
    pts = np.asarray([c for c, _ in dots], np.float64)
    areas = np.asarray([a for _, a in dots])
    # single linkage: dots closer than 0.75 of the side a pip of their size implies
    sides = np.sqrt(areas / (np.pi * 0.085 ** 2))
    group = list(range(len(dots)))

    def root(i: int) -> int:
        while group[i] != i:
            group[i] = group[group[i]]
            i = group[i]
        return i

    for i in range(len(dots)):
        for j in range(i + 1, len(dots)):
            if np.hypot(*(pts[i] - pts[j])) < 0.75 * max(sides[i], sides[j]):
                group[root(i)] = root(j)
    clusters: dict[int, list[int]] = {}
    for i in range(len(dots)):
        clusters.setdefault(root(i), []).append(i)
    out = list(found)
    for members in clusters.values():
        # (a speck much smaller than the cluster's pips is none: the table or the side
        # showing at the face's rounded corner; a pip half lost is told by _no_pip_missed)
        typical = float(np.median(areas[members]))
        members = [i for i in members if areas[i] >= 0.45 * typical]
        fit = _fit_layout(pts[members])
        if fit is None:
            continue
        cost, quad = fit
        side = float(np.hypot(*(quad[1] - quad[0])))
        if not SIDE_PX[0] <= side <= SIDE_PX[1]:
            continue
        centre = quad.mean(axis=0)
        near = [r for r in out if np.hypot(*(np.asarray(r.centre) - centre)) < 0.6 * side]
        if any(r.colour != "white" for r in near):
            continue  # (a yellow die's dark pips: read by its colour)
        # the face around the pips must be pale and not darker than the table
        face = np.zeros(v.shape, np.uint8)
        cv2.fillConvexPoly(face, np.round(quad).astype(np.int32), 255)
        face &= cv2.bitwise_not(cv2.dilate(dark, np.ones((3, 3), np.uint8)))
        if np.count_nonzero(face) < 0.4 * side * side:
            continue
        pale = float(np.mean((s[face > 0] < WHITE_SAT) & (v[face > 0] >= WHITE_VAL)))
        sizes = areas[members]
        conf = min(float(np.clip(1 - (cost - LAYOUT_OK) / (LAYOUT_BAD - LAYOUT_OK), 0, 1)),
                   1.0 if sizes.max() <= PIP_SAME * sizes.min() else 0.5,
                   float(np.clip((pale - 0.7) / 0.2, 0, 1)),
                   _no_pip_missed(v, quad, pts[members], float(np.median(v[face > 0]))))
        if any(r.confidence >= conf and r.value is not None for r in near):
            continue
        out = [r for r in out if not any(r is q for q in near)]
        out.append(DieReading("white", len(members), round(conf, 4), quad,
                              "" if conf >= 1 else "pips-only"))
    return out


class DiceReader:
    """The camera watcher's identifier for dice (``deck = "dice"``): each die is a Card
    labelled ``colour:value`` (an unsure die keeps its best guess as its label, with its low
    confidence, so the game can ask about it; an unreadable one has none)."""

    deck = "dice"

    def __init__(self, colours: tuple[str, ...] = COLOURS) -> None:
        self.colours = colours

    def identify(self, image: np.ndarray) -> list[Card]:
        return [Card(d.label, d.confidence, d.corners) for d in find_dice(image, self.colours)]

