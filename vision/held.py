"""A hand-held card whose outline is not closed: found by its three straight edges.

A card held up to a webcam has fingers over its lower part, and a light wall or a face
beside it: no binarisation closes its outline, and its coloured body joins the wall or the
skin beside it when its hue is near theirs (a yellow card and skin, a green card and a pale
green wall). But the top of the card and its two long sides stay straight edges, in grey or
in saturation, and the card is the "U" they make. Its corners are where the top meets the
sides, and its length is the card's shape (``ASPECT``) times its width, or the sides' own
length where that is more (a photo stretched tall).

UNO's second look of a frame where nothing was named runs this, and the standard pack's
search for a card touching another (``Identifier._tops_look``, on every frame with a pile or a
fan); the line segments come from OpenCV's LSD detector at ``SIDE`` pixels (~1-2 ms a
channel), and every pair of sides is closed by a top at once (``_pairs_tops``).
"""

from __future__ import annotations

import threading

import cv2
import numpy as np

from vision.detect import Quad, iou_box

SIDE = 200  # long side of the image the edges are found on
ASPECT = 1.55  # a UNO card's long side over its short one, seen square on
# Edges: a card's side is at least this share of the frame's long side; its top at least
# this share of its width is covered by segments lying along it
MIN_SIDE = 0.15
MIN_TOP_COVER = 0.5
MIN_WIDTH = 0.08  # a card narrower than this share of the frame is left to find_cards
MAX_PARALLEL_DEG = 6.0  # the two sides' directions may differ this much (perspective)
# A side longer than this times the width is no card's (a finger's, a door frame's): a card
# is 1.55 times as long as wide, up to ~2.1 in a photo stretched tall
MAX_SIDE_OF_WIDTH = 2.5
MAX_LONG = 40  # the longest segments tried as sides

# One detector per thread: LSD keeps its working images in the object while it runs, so two
# identifiers in two threads (the camera's, a command's or a test's) must not share one.
_LOCAL = threading.local()


def _lsd() -> cv2.LineSegmentDetector:
    lsd = getattr(_LOCAL, "lsd", None)
    if lsd is None:
        lsd = _LOCAL.lsd = cv2.createLineSegmentDetector()
    return lsd


def _segments(small: np.ndarray) -> np.ndarray:
    """(n, 4) segments x0 y0 x1 y1 of grey and of saturation: a card's white border against
    a light wall is an edge of saturation more than of grey."""
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    sat = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)[..., 1]
    found = [s.reshape(-1, 4) for ch in (grey, sat)
             if (s := _lsd().detect(ch)[0]) is not None]
    return np.vstack(found).astype(np.float32) if found else np.zeros((0, 4), np.float32)


def _meet(p: np.ndarray, u: np.ndarray, q: np.ndarray, v: np.ndarray) -> np.ndarray | None:
    """Where the line through p along u meets the line through q along v."""
    det = u[0] * -v[1] - u[1] * -v[0]
    if abs(det) < 1e-6:
        return None
    d = q - p
    t = (d[0] * -v[1] - d[1] * -v[0]) / det
    return p + t * u


def _clockwise(q: np.ndarray) -> np.ndarray:
    """TL TR BR BL in image coordinates (y down), mirrored back if given the other way."""
    x, y = q[:, 0], q[:, 1]
    area = float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y))
    return q if area > 0 else q[[1, 0, 3, 2]]


def card_tops(image: np.ndarray, most: int = 3, frame_sides: int = 0) -> list[Quad]:
    """Up to ``most`` cards found as a top edge between two parallel sides, best supported
    first, each as a whole card's corners (``partial``: its lower part is a guess); then up
    to ``frame_sides`` more whose other side is the frame's left or right edge
    (:func:`_frame_tops`)."""
    h, w = image.shape[:2]
    s = min(1.0, SIDE / max(h, w))
    small = cv2.resize(image, (max(1, round(w * s)), max(1, round(h * s))),
                       interpolation=cv2.INTER_AREA)
    side = max(small.shape[:2])
    segs = _segments(small)
    if len(segs) < 3:
        return []
    a, b = segs[:, :2], segs[:, 2:]
    length = np.hypot(*(b - a).T)
    unit = (b - a) / np.maximum(length, 1e-6)[:, None]
    angle = np.degrees(np.arctan2(unit[:, 1], unit[:, 0])) % 180.0
    sides = [int(i) for i in np.argsort(-length)[:MAX_LONG] if length[i] >= MIN_SIDE * side]
    found = _pairs_tops(a, b, unit, length, angle, len(segs),
                        _side_pairs(a, b, unit, length, angle, sides, side))
    found.sort(key=lambda f: -f[0])
    out: list[Quad] = []
    # (one region found again along other segments, a door's frame and panel, counts once:
    # three such took the places of the card beside it, kept by its shorter visible side)
    for _, corners in found:
        q = _clockwise((corners / s).astype(np.float32))
        if any(iou_box(q, o.corners) >= 0.5 for o in out):
            continue
        out.append(Quad(q, cv2.contourArea(q) / float(h * w), partial=True))
        if len(out) == most:
            break
    if frame_sides:
        extra = 0
        for _, corners in _frame_tops(segs, a, b, unit, length, angle, sides, side,
                                      small.shape[1]):
            q = _clockwise((corners / s).astype(np.float32))
            if any(iou_box(q, o.corners) >= 0.5 for o in out):
                continue
            out.append(Quad(q, cv2.contourArea(q) / float(h * w), partial=True))
            extra += 1
            if extra == frame_sides:
                break
    return out


def _frame_tops(segs: np.ndarray, a: np.ndarray, b: np.ndarray, unit: np.ndarray,
                length: np.ndarray, angle: np.ndarray, sides: list[int], side: int,
                frame_w: int) -> list[tuple[float, np.ndarray]]:
    """Cards held so close that one long side lies on the frame's left or right edge,
    where no edge is seen: each near-upright side found is paired with the frame's edges
    over the same height, and closed by a top as any pair is; best supported first. Only
    cards running down the image from their top (held up to a webcam): with the frame's
    top and bottom edges too, a tilted red 6 was read as a 9. (uno_hemant's close-ups: 4
    of the 8 cards its second look missed had a side on the frame's edge.)"""
    upright = [i for i in sides
               if min(abs(angle[i] - 90.0), 180.0 - abs(angle[i] - 90.0)) <= MAX_PARALLEL_DEG]
    if not upright:
        return []
    edges = []
    for i in upright:
        y0, y1 = sorted((float(a[i][1]), float(b[i][1])))
        edges += [(i, [x, y0, x, y1]) for x in (0.0, frame_w - 1.0)]
    n = len(segs)
    both = np.vstack([segs, np.array([e for _, e in edges], np.float32)])
    a2, b2 = both[:, :2], both[:, 2:]
    length2 = np.hypot(*(b2 - a2).T)
    unit2 = (b2 - a2) / np.maximum(length2, 1e-6)[:, None]
    angle2 = np.degrees(np.arctan2(unit2[:, 1], unit2[:, 0])) % 180.0
    found: list[tuple[float, np.ndarray]] = []
    for k, (i, _) in enumerate(edges):
        pairs = _side_pairs(a2, b2, unit2, length2, angle2, [i, n + k], side)
        for top in _pairs_tops(a2, b2, unit2, length2, angle2, n, pairs):
            down = top[1][3] - top[1][0]
            if down[1] > abs(down[0]):  # (runs down the image from its top)
                found.append(top)
    found.sort(key=lambda f: -f[0])
    return found


# pairs of sides worked out together by ``_pairs_tops`` (its arrays are pairs x segments:
# the most seen, 295 x 252, ~0.6 MB each; up to 780 pairs of the MAX_LONG sides could be)
PAIRS_AT_ONCE = 64


def _pairs_tops(a: np.ndarray, b: np.ndarray, unit: np.ndarray, length: np.ndarray,
                angle: np.ndarray, n: int, pairs: list[tuple[int, int, float]]
                ) -> list[tuple[float, np.ndarray]]:
    """``_some_pairs_tops`` of the pairs, ``PAIRS_AT_ONCE`` at a time, in order."""
    return [top for k in range(0, len(pairs), PAIRS_AT_ONCE)
            for top in _some_pairs_tops(a, b, unit, length, angle, n,
                                        pairs[k:k + PAIRS_AT_ONCE])]


def _some_pairs_tops(a: np.ndarray, b: np.ndarray, unit: np.ndarray, length: np.ndarray,
                     angle: np.ndarray, n: int, pairs: list[tuple[int, int, float]]
                     ) -> list[tuple[float, np.ndarray]]:
    """The cards each pair of sides (i, j, the width between them) closes with a top at
    either end (0: at ``a[i]``, the card running along side i's direction; 1: at ``b[i]``),
    in order (each pair's two ends in turn). A top is found where the first ``n`` segments
    (the real ones: not the frame's edges) across side i, long enough to be part of a top,
    lie along it over ``MIN_TOP_COVER`` of its width; its line is the longest of them, and
    the corners are where it meets the two sides. Each card: a score (top covered plus the
    shorter side, in widths) and its corners TL TR BR BL, not yet ordered clockwise.
    Worked out for all pairs at once, numpy over pairs x segments (a loop over the pairs cost
    ~15 ms a frame of a wood table's grain, ~150 pairs; the same quads on 922 frames)."""
    if not pairs:
        return []
    i = np.array([p[0] for p in pairs])
    j = np.array([p[1] for p in pairs])
    width = np.array([p[2] for p in pairs], np.float64)
    # (thresholds compared in float32, as a float32 array against a Python float is)
    tol = (0.06 * width + 2.0).astype(np.float32)
    # segments across side i, long enough to be part of a top (pairs, n)
    turn = np.abs(angle[None, :n] - angle[i][:, None])
    across = (np.minimum(turn, 180.0 - turn) >= 75.0) & \
        (length[None, :n] >= (0.25 * width).astype(np.float32)[:, None])
    u = unit[i]  # (pairs, 2)
    normal = np.stack([-u[:, 1], u[:, 0]], axis=1)
    off_j = np.einsum("pk,pk->p", a[j], normal) - np.einsum("pk,pk->p", a[i], normal)
    pa = np.einsum("pk,pk->p", a[j] - a[i], u)
    pb = np.einsum("pk,pk->p", b[j] - a[i], u)
    tj = np.stack([np.minimum(pa, pb), np.maximum(pa, pb)], axis=1)  # (pairs, 2)
    ti = np.stack([np.zeros_like(length[i]), length[i]], axis=1)
    found: list[tuple[int, int, float, np.ndarray]] = []
    for end in (0, 1):
        ea = a[i] + u * ti[:, end:end + 1]
        eb = a[i] + u * tj[:, end:end + 1] + normal * off_j[:, None]
        span = eb - ea
        long = np.hypot(span[:, 0], span[:, 1])
        ok = long >= 1e-3
        lu = span / np.where(ok, long, 1.0)[:, None]
        ln = np.stack([-lu[:, 1], lu[:, 0]], axis=1)
        da = a[None, :n] - ea[:, None]  # (pairs, n, 2)
        db = b[None, :n] - ea[:, None]
        off_a = da[..., 0] * ln[:, None, 0] + da[..., 1] * ln[:, None, 1]
        off_b = db[..., 0] * ln[:, None, 0] + db[..., 1] * ln[:, None, 1]
        near = across & ok[:, None] & \
            (np.maximum(np.abs(off_a), np.abs(off_b)) <= tol[:, None])
        qa = da[..., 0] * lu[:, None, 0] + da[..., 1] * lu[:, None, 1]
        qb = db[..., 0] * lu[:, None, 0] + db[..., 1] * lu[:, None, 1]
        lim = long[:, None]
        cover = np.clip(np.maximum(qa, qb), 0, lim) - np.clip(np.minimum(qa, qb), 0, lim)
        covered = np.where(near, np.clip(cover, 0, None), 0.0).sum(axis=1)
        for p in np.flatnonzero(near.any(axis=1) & (covered >= MIN_TOP_COVER * width)):
            ii, jj = int(i[p]), int(j[p])
            cand = np.flatnonzero(near[p])
            best = cand[int(np.argmax(length[cand]))]
            tl = _meet(a[best], unit[best], a[ii], unit[ii])
            tr = _meet(a[best], unit[best], a[jj], unit[jj])
            if tl is None or tr is None:
                continue
            down = unit[ii] if end == 0 else -unit[ii]
            reach = max(float((q - tl) @ down) for q in (a[ii], b[ii], a[jj], b[jj]))
            tall = max(ASPECT * float(np.hypot(*(tr - tl))), reach)
            corners = np.array([tl, tr, tr + down * tall, tl + down * tall], np.float32)
            w = pairs[p][2]
            score = min(float(covered[p]), w) / w + min(length[ii], length[jj]) / w
            found.append((int(p), end, score, corners))
    found.sort(key=lambda f: (f[0], f[1]))
    return [(score, corners) for _, _, score, corners in found]


def _side_pairs(a: np.ndarray, b: np.ndarray, unit: np.ndarray, length: np.ndarray,
                angle: np.ndarray, sides: list[int], side: int
                ) -> list[tuple[int, int, float]]:
    """Pairs of long segments that may be a card's two sides, with the width between them:
    nearly parallel, a card's width apart (``MIN_WIDTH``; at most twice the shorter one's
    length, at least ``1 / MAX_SIDE_OF_WIDTH`` of the longer one's), their spans along them
    mostly overlapping. Judged for all pairs at once (wood grain gives many)."""
    if len(sides) < 2:
        return []
    idx = np.array(sides)
    ii, jj = np.triu_indices(len(idx), 1)
    i, j = idx[ii], idx[jj]
    turn = np.abs(angle[i] - angle[j])
    u = unit[i]
    normal = np.stack([-u[:, 1], u[:, 0]], axis=1)
    mid_j = (a[j] + b[j]) / 2
    width = np.abs(np.einsum("nk,nk->n", mid_j - a[i], normal))
    # side j's span along side i's direction, from a[i]
    pa = np.einsum("nk,nk->n", a[j] - a[i], u)
    pb = np.einsum("nk,nk->n", b[j] - a[i], u)
    overlap = np.minimum(length[i], np.maximum(pa, pb)) - np.maximum(0.0, np.minimum(pa, pb))
    short = np.minimum(length[i], length[j])
    ok = ((np.minimum(turn, 180.0 - turn) <= MAX_PARALLEL_DEG) & (width >= MIN_WIDTH * side)
          & (short >= 0.5 * width) & (overlap >= 0.5 * short)
          & (np.maximum(length[i], length[j]) <= MAX_SIDE_OF_WIDTH * width))
    return list(zip(i[ok].tolist(), j[ok].tolist(), width[ok].tolist(), strict=True))
