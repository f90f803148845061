"""Find cards in a frame: each as four corners, plus a rectified portrait crop.

Classic geometry rather than a learned detector: a card is a bright, convex, nearly
rectangular blob, which holds on wood, cloth and white tables alike and costs a few ms on a
Pi. Several binarisations are tried (Otsu, adaptive edges) because no single one works on
every surface; their candidates are merged by overlap.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

CARD_W, CARD_H = 64, 96  # the rectified crop every recogniser sees (portrait)
WORK_SIDE = 480  # long side of the image the geometry runs on; corners are scaled back


@dataclass
class Quad:
    """One card candidate: corners (TL, TR, BR, BL of the portrait card) in image pixels."""

    corners: np.ndarray  # float32 (4, 2)
    area_frac: float
    whole: bool = False  # the whole image was taken as the card (a tight crop)


def order_portrait(pts: np.ndarray) -> np.ndarray:
    """Order four points so that TL->TR is a short side: the card is seen upright-ish.

    Which short side is "top" stays ambiguous (cards are 180-degree symmetric in layout);
    recognisers look at both orientations.
    """
    pts = np.asarray(pts, dtype=np.float32).reshape(4, 2)
    c = pts.mean(axis=0)
    ang = np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0])
    pts = pts[np.argsort(ang)]  # clockwise in image coordinates (y down)
    # start at the point with the smallest x+y to get a stable TL
    start = int(np.argmin(pts.sum(axis=1)))
    pts = np.roll(pts, -start, axis=0)
    d01 = np.linalg.norm(pts[1] - pts[0])
    d12 = np.linalg.norm(pts[2] - pts[1])
    if d01 > d12:  # landscape: rotate so that the first edge is a short one
        pts = np.roll(pts, -1, axis=0)
    return pts


def rectify(image: np.ndarray, corners: np.ndarray, size: tuple[int, int] = (CARD_W, CARD_H)
            ) -> np.ndarray:
    """Warp the card to an upright portrait crop of ``size`` (w, h)."""
    w, h = size
    dst = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], dtype=np.float32)
    m = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), dst)
    return cv2.warpPerspective(image, m, (w, h), flags=cv2.INTER_AREA,
                               borderMode=cv2.BORDER_REPLICATE)


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
    if fill < 0.86 or not 1.15 <= aspect <= 2.4:
        return None
    approx = cv2.approxPolyDP(hull, 0.03 * cv2.arcLength(hull, True), True)
    if len(approx) == 4 and cv2.isContourConvex(approx):
        pts = approx.reshape(4, 2).astype(np.float32)
    else:
        pts = cv2.boxPoints(rect).astype(np.float32)
    if _border_sides(pts, shape) >= 3:  # the table between the photo's edges
        return None
    if grow != 1.0:
        c = pts.mean(axis=0)
        pts = (pts - c) * grow + c
    return pts, hull_area * grow * grow / img_area


def _candidates(mask: np.ndarray, img_area: float, min_frac: float, grow: float = 1.0
                ) -> list[tuple[np.ndarray, float]]:
    out = []
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    for cnt in contours:
        q = _quad_of(cnt, cv2.contourArea(cnt), img_area, mask.shape, min_frac, grow)
        if q is not None:
            out.append(q)
    return out


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


def _percentile_u8(values: np.ndarray, q: float) -> int:
    """Percentile of uint8 values through a histogram (much cheaper than np.percentile)."""
    hist = cv2.calcHist([np.ascontiguousarray(values)], [0], None, [256], [0, 256]).ravel()
    return int(np.searchsorted(np.cumsum(hist), q / 100.0 * values.size))


def _colour_pairs(mask: np.ndarray, hue: np.ndarray, img_area: float, min_frac: float,
                  grow: float) -> list[tuple[np.ndarray, float]]:
    """UNO 2018 art: the white disc splits the coloured body into two pieces of one hue;
    a pair whose joint hull is card-shaped is a card."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    blobs = [c for c in contours if cv2.contourArea(c) >= 0.3 * min_frac * img_area]
    blobs = sorted(blobs, key=cv2.contourArea, reverse=True)[:10]
    hues = []
    for c in blobs:
        x, y, w, h = cv2.boundingRect(c)
        m = np.zeros((h, w), np.uint8)
        cv2.drawContours(m, [c - [x, y]], -1, 255, -1)
        hues.append(_circular_hue(hue[y:y + h, x:x + w], m))
    out = []
    for i in range(len(blobs)):
        for j in range(i + 1, len(blobs)):
            dh = abs(hues[i] - hues[j])
            if min(dh, 180 - dh) > 10:
                continue
            both = np.vstack([blobs[i], blobs[j]])
            area = cv2.contourArea(cv2.convexHull(both))
            pieces = cv2.contourArea(blobs[i]) + cv2.contourArea(blobs[j])
            if min(cv2.contourArea(blobs[i]), cv2.contourArea(blobs[j])) < 0.15 * area or \
                    pieces < 0.3 * area:
                continue
            q = _quad_of(both, area, img_area, mask.shape, min_frac, grow, min_solidity=0.0)
            if q is not None:
                out.append(q)
    return out


def _largest_colour_region(mask: np.ndarray, hue: np.ndarray, sat: np.ndarray
                           ) -> np.ndarray | None:
    """The rotated box around the biggest vivid one-hue region (a hand-held, half-hidden
    card); vividness ranks it above skin and wood, which are large but duller."""
    n, lab, stats, _ = cv2.connectedComponentsWithStats(mask)
    area = mask.shape[0] * mask.shape[1]
    big = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= 0.01 * area]
    if not big:
        return None
    vivid = {i: stats[i, cv2.CC_STAT_AREA]
             * (cv2.mean(sat, (lab == i).astype(np.uint8))[0] / 255) ** 3 for i in big}
    big.sort(key=lambda i: -vivid[i])
    if stats[big[0], cv2.CC_STAT_AREA] < 0.04 * area:
        return None
    hues = {i: _circular_hue(hue, (lab == i).astype(np.uint8)) for i in big}
    h0 = hues[big[0]]
    keep = [i for i in big if min(abs(hues[i] - h0), 180 - abs(hues[i] - h0)) <= 10]
    # the outlines' hull bounds the same rectangle as every pixel, for far fewer points
    outlines, _ = cv2.findContours(np.isin(lab, keep).astype(np.uint8), cv2.RETR_EXTERNAL,
                                   cv2.CHAIN_APPROX_SIMPLE)
    rect = cv2.minAreaRect(np.vstack(outlines).reshape(-1, 2).astype(np.float32))
    (rw, rh) = rect[1]
    if min(rw, rh) <= 0 or not 1.0 <= max(rw, rh) / min(rw, rh) <= 2.5:
        return None
    pts = cv2.boxPoints(rect).astype(np.float32)
    c = pts.mean(axis=0)
    return (pts - c) * 1.08 + c


def _border_sides(pts: np.ndarray, shape: tuple[int, ...], margin: float = 3.0) -> int:
    h, w = shape[:2]
    x0, y0 = pts.min(axis=0)
    x1, y1 = pts.max(axis=0)
    return int(x0 < margin) + int(y0 < margin) + int(x1 > w - 1 - margin) + int(y1 > h - 1 - margin)


def _iou_box(a: np.ndarray, b: np.ndarray) -> float:
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
    """``_iou_box`` of two boxes given as (x0, y0, x1, y1): plain floats, no numpy."""
    iw = min(a[2], b[2]) - max(a[0], b[0])
    ih = min(a[3], b[3]) - max(a[1], b[1])
    if iw <= 0 or ih <= 0:
        return 0.0
    inter = iw * ih
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def _contains(outer: np.ndarray, inner: np.ndarray) -> bool:
    c = inner.mean(axis=0)
    return cv2.pointPolygonTest(outer.reshape(-1, 1, 2), (float(c[0]), float(c[1])), False) > 0


def find_cards(image: np.ndarray, min_frac: float = 0.004, whole_fallback: bool = True,
               max_cards: int = 24, colour_bodies: bool = False) -> list[Quad]:
    """Every card-like quadrilateral in a BGR image, largest first.

    ``whole_fallback``: when nothing card-shaped is found, the image itself is taken as one
    card (or, with ``colour_bodies``, the largest coloured region), because callers are also
    handed tight crops and hand-held close-ups of a single card.
    ``colour_bodies``: also look for UNO's coloured card bodies (off for other decks, where
    red pips would pass for bodies).
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
    _, otsu = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    masks.append(cv2.morphologyEx(otsu, cv2.MORPH_OPEN, kernel))
    edges = cv2.Canny(gray, 30, 90)
    edges = cv2.dilate(edges, kernel, iterations=1)
    filled = cv2.bitwise_not(edges)
    masks.append(cv2.erode(filled, kernel, iterations=1))
    # bright and not too saturated: the white border of most cards
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    white = cv2.inRange(hsv, (0, 0, _percentile_u8(gray, 60)), (180, 90, 255))
    masks.append(cv2.morphologyEx(white, cv2.MORPH_CLOSE, kernel, iterations=2))
    # brighter than the neighbourhood: a white card on a light table or grey paper
    block = (min(sh, sw) // 3) | 1
    local = cv2.adaptiveThreshold(gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY,
                                  block, -6)
    masks.append(cv2.morphologyEx(local, cv2.MORPH_OPEN, kernel))

    # the coloured body of an UNO card, for when its white border melts into a light table;
    # grown by the border's width so the crop matches a card found by its outline
    if colour_bodies:  # judge colour after a white balance: webcams often cast green
        top = np.array([_percentile_u8(small[::3, ::3, c], 97) for c in range(3)], np.float32)
        gain = np.clip(235.0 / np.maximum(top, 20.0), 0.5, 3.0)
        lut = np.clip(np.arange(256, dtype=np.float32)[:, None] * gain.astype(np.float32),
                      0, 255).astype(np.uint8).reshape(256, 1, 3)
        balanced = cv2.LUT(small, lut)  # the same numbers as a float multiply, cheaper
        hsv_c = cv2.cvtColor(balanced, cv2.COLOR_BGR2HSV)
        colour = cv2.inRange(hsv_c, (0, 110, 50), (180, 255, 255))
        colour = cv2.morphologyEx(colour, cv2.MORPH_OPEN, kernel, iterations=2)

    found: list[tuple[np.ndarray, float]] = []
    boxes: list[tuple[float, float, float, float]] = []  # their bounding boxes, for overlap
    strong: set[int] = set()  # ids of coloured-body quads: trusted over what encloses them
    cands = []
    if colour_bodies:
        cands += [(c, True) for c in _candidates(colour, img_area, min_frac, 1.1)]
        cands += [(c, True) for c in _colour_pairs(colour, hsv_c[..., 0], img_area, min_frac,
                                                   1.1)]
        # the black body of the wild cards
        dark = cv2.morphologyEx(cv2.inRange(hsv_c, (0, 0, 0), (180, 255, 60)), cv2.MORPH_OPEN,
                                kernel, iterations=2)
        cands += [(c, False) for c in _candidates(dark, img_area, min_frac, 1.1)]
        cands += [(c, False) for c in _colour_pairs(dark, np.zeros_like(dark), img_area,
                                                    min_frac, 1.1)]
    cands += [(c, False) for m in masks for c in _candidates(m, img_area, min_frac)]
    for (pts, frac), is_strong in cands:
        (x0, y0), (x1, y1) = pts.min(axis=0), pts.max(axis=0)
        box = (float(x0), float(y0), float(x1), float(y1))
        if any(_iou_xyxy(box, b) > 0.5 for b in boxes):
            continue
        if is_strong:
            strong.add(id(pts))
        found.append((pts, frac))
        boxes.append(box)
    found.sort(key=lambda x: -x[1])
    # A quad inside a bigger quad is either the printed frame of a card (centred: drop the
    # inner one) or a card lying inside a region of table (off-centre: drop the region).
    drop: set[int] = set()
    for i, (outer, of) in enumerate(found):
        diag = float(np.linalg.norm(outer.max(axis=0) - outer.min(axis=0)))
        for j in range(i + 1, len(found)):
            inner, inf = found[j]
            if not _contains(outer, inner):
                continue
            off = float(np.linalg.norm(inner.mean(axis=0) - outer.mean(axis=0)))
            if off < 0.08 * diag and inf > 0.25 * of and id(inner) not in strong:
                drop.add(j)
            else:
                drop.add(i)
    kept = [f for k, f in enumerate(found) if k not in drop]
    quads = [Quad(order_portrait(p / scale), f) for p, f in kept[:max_cards]]
    if quads and whole_fallback and colour_bodies and len(kept) <= 2 and \
            not any(id(p) in strong for p, _ in kept):
        # no coloured body among the outlines: a close-up, hand-held card (cut by the
        # frame or by fingers) may be there too, beside a wall or a face that looked
        # card-shaped; the recogniser's "not a card" class sorts them out. A webcam's colours
        # can be washed out: vivid is judged against this frame's most saturated pixels.
        smin = int(np.clip(0.75 * _percentile_u8(hsv_c[..., 1], 95), 60, 110))
        if smin < 110:
            colour = cv2.morphologyEx(cv2.inRange(hsv_c, (0, smin, 50), (180, 255, 255)),
                                      cv2.MORPH_OPEN, kernel, iterations=2)
        extra = [q for q, _ in _candidates(colour, img_area, min_frac, 1.1)
                 + _colour_pairs(colour, hsv_c[..., 0], img_area, min_frac, 1.1)]
        if not extra:
            pts = _largest_colour_region(colour, hsv_c[..., 0], hsv_c[..., 1])
            extra = [] if pts is None else [pts]
        for pts in extra:
            if all(_iou_box(pts, q) < 0.3 and not _contains(pts, q) and not _contains(q, pts)
                   for q, _ in kept):
                quads.append(Quad(order_portrait(pts / scale), 0.0))
                kept.append((pts, 0.0))
    if not quads and whole_fallback and colour_bodies:
        smin = int(np.clip(0.75 * _percentile_u8(hsv_c[..., 1], 95), 60, 110))
        if smin < 110:
            colour = cv2.morphologyEx(cv2.inRange(hsv_c, (0, smin, 50), (180, 255, 255)),
                                      cv2.MORPH_OPEN, kernel, iterations=2)
        pts = _largest_colour_region(colour, hsv_c[..., 0], hsv_c[..., 1])
        if pts is not None:
            quads = [Quad(order_portrait(pts / scale), 0.0, whole=True)]
    if not quads and whole_fallback:
        pts = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
        quads = [Quad(order_portrait(pts), 1.0, whole=True)]
    return quads
