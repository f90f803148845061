"""Overlapping standard cards (a fanned Dou Di Zhu play, a spread row, an offset pile), each
named from its visible corner index.

vision/detect.py finds cards by their whole outline, so a group of overlapping cards is one
bright blob that is not card-shaped and gives nothing. What stays in view of every card of
such a group is a strip along one edge holding the corner index (rank over suit, printed at
the top-left and, turned, at the bottom-right), which is where players look too. So:

1. bright, pale blobs that are not a single card-shaped quad are the groups;
2. card corners are looked for in two ways, because neither alone sees every layout:
   the group outline's convex, square corners (a fan's saw-tooth top edge: every card's
   top-left corner is one), and straight edges inside the group that start at its outline
   square to it (a neat row, whose aligned top edges make one straight outline: only the edge
   of each card lying over the one below marks where it starts);
3. at each corner, a patch aligned with the two card edges, sized from the card height
   (the longest full card edge of the group), is read by vision.corner_index's network;
   corners with no index there (the other two corners of a card, the edge of a picture
   frame) are the network's "none" class;
4. from two neighbouring corners read as indices, the next card's corner is where the same
   step, turned by the same turn, leads (a fan turns each card about one point, a row and a
   pile shift each alike), read there too, and so on while indices are read: a tight fan's
   corner beside the card over it and a pile's faint inner edge give the outline nothing.

Precision before recall: a reading below the network's calibrated threshold is returned with
label None, and a patch the network calls "no index" is not returned at all. Classical
geometry plus one small network in one forward pass keeps it at a few ms a frame on a CPU.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.corner_index import SPAN_U, SPAN_V, CornerReader, cut_patch, patch_quad
from vision.detect import edge_closed

WORK_SIDE = 480  # the geometry runs on an image this big (long side); corners scaled back
ASPECT = 0.714  # card width / height (63 x 88 mm)
EPS = 0.01  # outline simplification, of the group's narrow side (0.005: 78.5% right)
TURN = 0.42  # sine of the least outward turn taken for a card corner (0.15: +0.7 points on
# the drawn fans, but one wrong name on the held-out photos read alone)
SCALES = (1.0, 0.87)  # sizes each corner is read at, as fractions of the estimated height
# The cards the outline shows no corner of, found from those read (``_next_corner``): two
# corners of one group read as indices this far apart (in card heights) and turned less than this
# (the cosine) from each other are two cards laid one from the other, and the next corner
# of the progression is read, up to PROGRESSION_ROUNDS steps, where no corner was read
# within PROGRESSION_NEW heights. Neighbouring indices lie 0.15 (a tight fan) to 0.3 (a
# pile) heights apart; a card's own two indices a height apart.
PROGRESSION_STEP = (0.09, 0.42)
PROGRESSION_TURN = 0.9
PROGRESSION_ROUNDS = 8
PROGRESSION_NEW = 0.06
PALE_TABLE = 0.9  # a pale blob over this share of the frame: the table is pale (_edge_groups)


@dataclass
class FanCard:
    """One visible corner index: the card name (None when unsure), the confidence (0..1),
    the patch's four corners in image pixels (TL TR BR BL of the index read upright), the
    best guess even when unsure, and the card height the patch was sized from."""

    label: str | None
    confidence: float
    corners: np.ndarray
    best: str | None = None
    card_h: float = 0.0

    @property
    def centre(self) -> tuple[float, float]:
        c = self.corners.mean(axis=0)
        return float(c[0]), float(c[1])

    def to_json(self) -> dict:
        return {"label": self.label, "confidence": round(float(self.confidence), 4),
                "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners]}


@dataclass
class _Corner:
    p: np.ndarray  # corner point (work image pixels)
    u: np.ndarray  # unit vector along one edge
    v: np.ndarray  # along the other; cross(u, v) > 0


def _unit(a: np.ndarray) -> np.ndarray:
    n = float(np.hypot(a[0], a[1]))
    return a / n if n > 1e-9 else a


def _cross(a: np.ndarray, b: np.ndarray) -> float:
    return float(a[0] * b[1] - a[1] * b[0])


def _frame(p: np.ndarray, e1: np.ndarray, e2: np.ndarray) -> _Corner:
    """The corner with its two edge directions put in the order that is not mirrored."""
    return _Corner(p, e1, e2) if _cross(e1, e2) > 0 else _Corner(p, e2, e1)


def _intersect(p1: np.ndarray, d1: np.ndarray, p2: np.ndarray, d2: np.ndarray
               ) -> np.ndarray | None:
    den = _cross(d1, d2)
    if abs(den) < 1e-6:
        return None
    t = _cross(p2 - p1, d2) / den
    return p1 + t * d1


def pale_mask(small: np.ndarray, bright: np.ndarray | None = None,
              sat: np.ndarray | None = None) -> np.ndarray:
    """Card faces: brighter than most of the frame (Otsu) and not saturated (a white face
    under any lamp; a pink or wooden table is saturated). ``bright`` / ``sat``: the Otsu
    mask of the blurred grey image and the HSV saturation, when the detector already made
    them."""
    if bright is None:
        gray = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (5, 5), 0)
        _, bright = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    if sat is None:
        sat = cv2.extractChannel(cv2.cvtColor(small, cv2.COLOR_BGR2HSV), 1)
    mask = _pale_bright(bright, sat)
    # the ink of the indices and pips is dark or red: close it into the face
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel, iterations=2)
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)


def _is_single_card(cnt: np.ndarray, area: float) -> bool:
    """A blob that is one card-shaped quad (vision.detect's business, not a group's): solid,
    four-sided, card-proportioned (a trapezoid too: a card seen at a slant)."""
    hull = cv2.convexHull(cnt)
    hull_area = cv2.contourArea(hull)
    if hull_area <= 0 or area / hull_area < 0.95:
        return False
    quad = cv2.approxPolyDP(hull, 0.03 * cv2.arcLength(hull, True), True).reshape(-1, 2)
    if len(quad) != 4:
        return False
    sides = np.hypot(*(np.roll(quad, -1, axis=0) - quad).T.astype(np.float64))
    short, long_ = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    aspect = max(short, long_) / max(1e-6, min(short, long_))
    return 1.15 <= aspect <= 1.8 and cv2.contourArea(quad.astype(np.float32)) > 0.9 * hull_area


def _segments(cnt: np.ndarray, eps: float) -> list[tuple[np.ndarray, np.ndarray]]:
    """The outline as straight pieces (start, end), in the outline's order."""
    poly = cv2.approxPolyDP(cnt, eps, True).reshape(-1, 2).astype(np.float32)
    return [(poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly))]


def card_height(segs: list[tuple[np.ndarray, np.ndarray]], rect_short: float, orient: float
                ) -> float:
    """The card height: the longest outline piece between two convex, square corners (a
    whole card edge) that is no longer than the group's narrow side (a fan's or a row's outer
    cards show one whole long edge; a row's aligned top edges make a longer piece, which the
    bound leaves out; a piece ending in a concave corner is partly hidden)."""
    n = len(segs)
    best = 0.0
    for i, (a, b) in enumerate(segs):
        length = float(np.hypot(*(b - a)))
        if length > 1.08 * rect_short or length <= best:
            continue
        d = _unit(b - a)
        dp = _unit(segs[i - 1][1] - segs[i - 1][0])
        dn = _unit(segs[(i + 1) % n][1] - segs[(i + 1) % n][0])
        if _cross(dp, d) * orient > 0.9 and _cross(d, dn) * orient > 0.9:
            best = length
    return best if best > 0.5 * rect_short else 0.9 * rect_short


def _outline_corners(segs: list[tuple[np.ndarray, np.ndarray]], orient: float, h: float
                     ) -> list[_Corner]:
    """Card corners on the group outline: each end of a long straight piece (a visible card
    edge) where the outline turns outwards. The other edge of the corner is taken square to
    the piece, into the group (cards are rectangles), because in a fan it shows only as a
    stub of a few pixels, too short to give a direction."""
    n = len(segs)
    out = []
    for i, (a0, a1) in enumerate(segs):
        length = float(np.hypot(*(a1 - a0)))
        if length < 0.07 * h:
            continue
        d = (a1 - a0) / length
        inward = orient * np.array([-d[1], d[0]], np.float32)
        pa, pn = segs[i - 1], segs[(i + 1) % n]
        d_prev = _unit(pa[1] - pa[0])
        d_next = _unit(pn[1] - pn[0])
        # convex turn of at least ~25 degrees into this piece / out of it
        if _cross(d_prev, d) * orient > TURN:
            out.append(_frame(a0, d, inward))
        if _cross(d, d_next) * orient > TURN:
            out.append(_frame(a1, -d, inward))
    return out


def _nearest_pieces(starts: np.ndarray, dirs: np.ndarray, lens: np.ndarray, pts: np.ndarray
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each point: distance to the outline, the closest point on it and the outline's
    direction there (pieces of the simplified outline; every point and piece at once)."""
    rel = pts[:, None, :] - starts[None, :, :]
    t = np.clip((rel * dirs[None]).sum(axis=2), 0.0, lens[None, :])
    q = starts[None] + t[..., None] * dirs[None]
    dist = np.hypot(q[..., 0] - pts[:, None, 0], q[..., 1] - pts[:, None, 1])
    k = dist.argmin(axis=1)
    idx = np.arange(len(pts))
    return dist[idx, k], q[idx, k], dirs[k]


def _inner_edge_corners(gray: np.ndarray, blob: np.ndarray, cnt: np.ndarray,
                        segs: list[tuple[np.ndarray, np.ndarray]], h: float
                        ) -> tuple[list[_Corner], list[_Corner]]:
    """Straight edges inside the group that meet its outline square to it (the edge of a
    card lying over another, where that card's corner is), and the corners where two such
    edges meet inside the group."""
    x, y, w, hh = cv2.boundingRect(cnt)
    g = gray[y:y + hh, x:x + w]
    m = blob[y:y + hh, x:x + w]
    edges = cv2.Canny(g, 20, 60)
    edges = cv2.bitwise_and(edges, cv2.erode(m, np.ones((7, 7), np.uint8)))
    # the edge of a card over another is faint and broken (a thin shadow): long gaps allowed
    lines = cv2.HoughLinesP(edges, 1, np.pi / 180, threshold=max(12, int(0.25 * h)),
                            minLineLength=max(10, int(0.35 * h)), maxLineGap=10)
    if lines is None:
        return [], []
    off = np.array([x, y], np.float32)
    starts = np.array([a for a, _ in segs], np.float32)
    vec = np.array([b for _, b in segs], np.float32) - starts
    lens = np.maximum(np.hypot(vec[:, 0], vec[:, 1]), 1e-6)
    dirs = vec / lens[:, None]
    segs_ab = lines.reshape(-1, 4)[:40].astype(np.float32)
    a_all = segs_ab[:, :2] + off
    b_all = segs_ab[:, 2:] + off
    n = len(segs_ab)
    dist, near, tang = _nearest_pieces(starts, dirs, lens,
                                       np.concatenate([(a_all + b_all) / 2, a_all, b_all]))
    out = []
    kept = []
    for i in range(n):
        if dist[i] < 0.05 * h:
            continue  # the group's own border, seen just inside the outline
        a, b = a_all[i], b_all[i]
        kept.append((a, b))
        for k, e, o in ((n + i, a, b), (2 * n + i, b, a)):
            if dist[k] > 0.06 * h + 3:
                continue  # this end is not at the outline
            t = tang[k]
            d = _unit(o - e)
            if abs(float(t @ d)) > 0.3:
                continue  # not square to the outline
            p = _intersect(e, d, near[k], t)
            if p is None or np.hypot(*(p - e)) > 0.1 * h:
                continue
            out.append(_frame(p, t if _cross(t, d) > 0 else -t, d))
    return out, _junctions(kept, h)


def _spans(corners: list[_Corner], h: float) -> bool:
    """Whether some inner edge runs from the outline across to the outline (two corners
    about a card height apart, facing each other along it): a neat row's cards each have
    one; a single card has none, though a picture card's frame joined to its index by the
    line finder's gap bridging can reach the outline at one end."""
    for i, a in enumerate(corners):
        for b in corners[i + 1:]:
            gap = b.p - a.p
            dist = float(np.hypot(*gap))
            if 0.8 * h < dist < 1.2 * h and abs(float(_unit(gap) @ a.v)) > 0.95:
                return True
    return False


def _junctions(lines: list[tuple[np.ndarray, np.ndarray]], h: float) -> list[_Corner]:
    """Corners inside the group: two square inner edges that both end where they meet (an
    offset pile: each card's top-left corner lies on the card below, off the outline)."""
    if len(lines) < 2:
        return []
    a = np.array([p for p, _ in lines], np.float32)
    b = np.array([q for _, q in lines], np.float32)
    d = b - a
    d /= np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-6)[:, None]
    i, j = np.nonzero(np.triu(np.abs(d @ d.T) < 0.25, 1))
    if len(i) == 0:
        return []
    den = d[i, 0] * d[j, 1] - d[i, 1] * d[j, 0]
    w = a[j] - a[i]
    t = (w[:, 0] * d[j, 1] - w[:, 1] * d[j, 0]) / den
    p = a[i] + t[:, None] * d[i]  # where the two lines cross

    def near_end(n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        da = np.hypot(*(a[n] - p).T)
        db = np.hypot(*(b[n] - p).T)
        far = np.where((da < db)[:, None], b[n], a[n])  # the end away from the crossing
        return np.minimum(da, db), far

    gi, fi = near_end(i)
    gj, fj = near_end(j)
    out = []
    for k in np.nonzero((gi <= 0.06 * h) & (gj <= 0.06 * h))[0]:  # at an end of both
        out.append(_frame(p[k], _unit(fi[k] - p[k]), _unit(fj[k] - p[k])))
    return out


# points of the card (in card heights along u, v from the corner) that must lie on the group:
# a card is 0.71 heights wide and 1 high, so a corner frame turned a quarter the wrong way
# (the long edge taken for the top) or a corner of a picture's frame reaches off the group
_FIT = ((0.6, 0.08), (0.08, 0.8), (0.6, 0.8), (0.3, 0.4))


def _card_fits(mask: np.ndarray, c: _Corner, h: float) -> bool:
    """Whether a whole card laid from this corner stays on the group (under other cards
    counts: they are part of the group too)."""
    mh, mw = mask.shape
    for a, b in _FIT:
        x, y = c.p + (c.u * a + c.v * b) * h
        if not (0 <= x < mw and 0 <= y < mh) or mask[int(y), int(x)] == 0:
            return False
    return True


def _dedupe(corners: list[_Corner], h: float) -> list[_Corner]:
    """One corner per place and turn: the same card corner is often found both ways."""
    kept: list[tuple[float, float, float, float, _Corner]] = []  # plain floats: cheap
    r2 = (0.05 * h) ** 2
    for c in corners:
        px, py = float(c.p[0]), float(c.p[1])
        ux, uy = float(c.u[0]), float(c.u[1])
        if any((px - kx) ** 2 + (py - ky) ** 2 < r2 and ux * kux + uy * kuy > 0.9
               for kx, ky, kux, kuy, _ in kept):
            continue
        kept.append((px, py, ux, uy, c))
    return [k[4] for k in kept]


def _pale_bright(bright: np.ndarray, sat: np.ndarray) -> np.ndarray:
    """The Otsu-bright pixels that are not saturated (saturation 80 or less): card faces
    before their ink is closed."""
    return cv2.bitwise_and(bright, cv2.threshold(sat, 80, 255, cv2.THRESH_BINARY_INV)[1])


def _blank(mask: np.ndarray, exclude: list[np.ndarray], scale: float) -> None:
    """Clear the cards named whole (image-pixel quads, grown 6%) out of a working-size mask."""
    for q in exclude:
        q = np.asarray(q, np.float32) * scale
        c = q.mean(axis=0)
        cv2.fillConvexPoly(mask, np.round((q - c) * 1.06 + c).astype(np.int32), 0)


def _too_little_left(bright: np.ndarray, sat: np.ndarray, exclude: list[np.ndarray],
                     scale: float, min_frac: float) -> bool:
    """Whether the frame's pale, bright pixels outside the cards named whole are too few for
    any group (under half a group's least area, before the closing that fills in the ink):
    then the masks' closing and opening, most of this search's cost on a table whose cards
    are all named, are skipped."""
    mask = _pale_bright(bright, sat)
    _blank(mask, exclude, scale)
    return cv2.countNonZero(mask) < 0.5 * min_frac * mask.size


def _largest_blobs(mask: np.ndarray, exclude: list[np.ndarray] | None, scale: float,
                   least: float, most: int) -> list[np.ndarray]:
    """The outlines of a mask's ``most`` largest blobs of ``least`` pixels or more, once the
    cards named whole are cleared out of it (in place)."""
    _blank(mask, exclude or [], scale)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    return sorted((c for c in contours if cv2.contourArea(c) >= least),
                  key=cv2.contourArea, reverse=True)[:most]


def find_corners(image: np.ndarray, min_frac: float = 0.015, max_groups: int = 4,
                 exclude: list[np.ndarray] | None = None, prepared: dict | None = None
                 ) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, float]]:
    """Candidate card corners of every group of overlapping cards: (corner, u, v, card
    height), in image pixels. Exposed for tests and for drawing what was looked at.
    ``exclude``: quads of cards already named whole, blanked out of the search first (the
    pale mask often breaks a real card in two along its pictures or pips, and such a piece
    must not pass for a group). ``prepared``: what vision.detect.find_cards kept of the same
    frame (its ``keep``), saving a resize and two colour conversions."""
    ih, iw = image.shape[:2]
    scale = min(1.0, WORK_SIDE / max(ih, iw))
    if prepared and prepared.get("scale") == scale and "sat" in prepared:
        small = prepared["small"]
        if exclude and _too_little_left(prepared["otsu"], prepared["sat"], exclude, scale,
                                        min_frac):
            return []
        mask = pale_mask(small, prepared["otsu"], prepared["sat"])
    else:
        small = cv2.resize(image, (round(iw * scale), round(ih * scale)),
                           interpolation=cv2.INTER_LINEAR) if scale < 1 else image
        mask = pale_mask(small)
    sh, sw = mask.shape
    contours = _largest_blobs(mask, exclude, scale, min_frac * sh * sw, max_groups)
    gray = None
    if contours and cv2.contourArea(contours[0]) > PALE_TABLE * sh * sw:
        # a pale table (a white cloth, a light-grey top): the cards' faces are one blob with
        # it (Otsu splits the ink from all that is pale), but their edges close round them
        gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
        mask = _edge_groups(gray, (prepared or {}).get("edges"))
        contours = _largest_blobs(mask, exclude, scale, min_frac * sh * sw, max_groups)
    out = []
    for cnt in contours:
        area = cv2.contourArea(cnt)
        if area > 0.9 * sh * sw:
            continue
        single = _is_single_card(cnt, area)
        (_, (rw, rh), _) = cv2.minAreaRect(cnt)
        rect_short = min(rw, rh)
        segs = _segments(cnt, max(2.0, EPS * rect_short))
        poly = np.array([a for a, _ in segs], np.float64)
        # the shoelace sign: a convex turn of the outline has the same sign of cross product
        orient = float(np.sign((poly[:, 0] * np.roll(poly[:, 1], -1)
                                - np.roll(poly[:, 0], -1) * poly[:, 1]).sum()))
        # one card-shaped rectangle: a card (height = long side) or a neat row (its cards'
        # height is either side, by how many): decided below by the edges crossing it
        h = rect_short if single else card_height(segs, rect_short, orient)
        if h < 30 or (not single and area < 1.15 * ASPECT * h * h):
            continue  # smaller than two cards overlapping: not a group
        if gray is None:
            gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
        one = np.zeros_like(mask)
        cv2.drawContours(one, [cnt], -1, 255, -1)
        inner, junctions = _inner_edge_corners(gray, one, cnt, segs, h)
        if single:
            # one whole card (vision.detect names it) unless edges cross it from outline to
            # outline: a neat row whose outline is one card-shaped rectangle (a picture
            # card's frame makes junctions too, so they do not count here)
            if _spans(inner, rect_short):
                h = rect_short
            elif _spans(inner, max(rw, rh)):
                h = max(rw, rh)
            else:
                continue
        found = _outline_corners(segs, orient, h) + inner + junctions
        grown = cv2.dilate(one, np.ones((5, 5), np.uint8))
        for c in _dedupe(found, h):
            if _card_fits(grown, c, h):
                out.append((c.p / scale, c.u, c.v, h / scale))
    return out


Found = tuple[np.ndarray, np.ndarray, np.ndarray, float]  # corner, u, v, card height


def _read_corners(image: np.ndarray, reader: CornerReader, found: list[Found],
                  scales: tuple[float, ...], none_cut: float, agree: bool
                  ) -> tuple[list[FanCard], list[tuple[Found, int]]]:
    """Each corner read at each size: the readings with an index, and the corners read as
    holding one, named or not (with their place in ``found``)."""
    # the card height from the outline can be ~15% long (a fan's outer edge running on into
    # the pile at its foot): each corner is read at two sizes and the surer reading kept
    corners = [(p, u, v, h * s) for p, u, v, h in found for s in scales]
    patches = [cut_patch(image, p, u, v, h) for p, u, v, h in corners]
    readings = reader.read(patches)
    cands, indexed = [], []
    n = len(scales)
    for k, ((p, u, v, h), r) in enumerate(zip(corners, readings, strict=True)):
        if r.none >= none_cut:
            continue
        quad = patch_quad(p, u, v, h)
        label = r.best if r.confidence >= reader.threshold else None
        # the same corner read at the other size(s) must not name another card: a patch
        # cut wrong (a misjudged height, a picture's frame) reads differently at each size
        base = k - k % n
        if agree and any(o.none < none_cut and o.best != r.best
                         for o in readings[base:base + n]):
            label = None
        cands.append(FanCard(label, r.confidence, quad, r.best, h))
        if not (indexed and indexed[-1][1] == k // n):
            indexed.append((found[k // n], k // n))
    return cands, indexed


def _neighbours(indexed: list[tuple[Found, int]]) -> list[tuple[Found, Found]]:
    """For each corner read as an index, the nearest other one of its group that may be the
    card it was laid from (close enough and turned alike): a pair (from, to) whose
    progression runs on past ``to``. Both ends of a run of cards so look outward; a corner
    between two looks at one of them, already read. Only the nearest: every pair within
    reach found 4 more drawn cards of 1081 for twice the time (a corner found a little off
    misplaces the next, and another pair's guess can land right). An index read unsure
    (half covered, blurred) still tells where the next card lies: 11 more."""
    out = []
    for b, _ in indexed:
        h = b[3]
        near = [(math.hypot(*(b[0] - a[0])), k) for k, (a, _) in enumerate(indexed)
                if a is not b and abs(a[3] - h) <= 0.01 * h
                and float(a[1] @ b[1]) >= PROGRESSION_TURN]
        near = [(d, k) for d, k in near
                if PROGRESSION_STEP[0] * h <= d <= PROGRESSION_STEP[1] * h]
        if near:
            out.append((indexed[min(near)[1]][0], b))
    return out


def _next_corner(a: Found, b: Found) -> Found:
    """The corner laid from ``b`` as ``b`` was from ``a``: the same step, turned by the turn
    between them (a fan turns each card about one point; a row or a pile turns none)."""
    turn = math.atan2(_cross(a[1], b[1]), float(a[1] @ b[1]))
    c, s = math.cos(turn), math.sin(turn)
    rot = np.array([[c, -s], [s, c]], np.float32)
    p = (b[0] + rot @ (b[0] - a[0])).astype(np.float32)
    return p, _unit(rot @ b[1]).astype(np.float32), _unit(rot @ b[2]).astype(np.float32), b[3]


def _edge_groups(gray: np.ndarray, edges: np.ndarray | None = None) -> np.ndarray:
    """Everything a closed edge runs round, filled: on a pale table the cards' faces and the
    table are one pale blob, while the step at a card's edge is sharp all round.
    ``edges``: the detector's closed edges of the same frame, where it made them."""
    if edges is None:  # (as the detector makes them)
        edges = edge_closed(cv2.GaussianBlur(gray, (5, 5), 0), np.ones((3, 3), np.uint8))
    outlines, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    mask = np.zeros_like(gray)
    cv2.drawContours(mask, outlines, -1, 255, -1)
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))


_READERS: dict[str, CornerReader] = {}


def default_reader() -> CornerReader:
    """The built-in standard-pack corner reader (vision/models/french_corner.onnx), loaded once."""
    if "french" not in _READERS:
        _READERS["french"] = CornerReader("french_corner")
    return _READERS["french"]


def read_fan(image: np.ndarray, recognise_corner: CornerReader | None = None,
             min_frac: float = 0.015, none_cut: float = 0.5,
             exclude: list[np.ndarray] | None = None, agree: bool = True,
             scales: tuple[float, ...] = SCALES, prepared: dict | None = None,
             progression: bool = True) -> list[FanCard]:
    """Every visible corner index of every group of overlapping cards in a BGR frame.

    ``recognise_corner``: a CornerReader (default: the built-in standard-pack one). A single
    whole card or an empty table gives []. One reading per card name: a card whose two
    indices both show (the top card of a fan) is returned once, at its surest index (a
    Dou Di Zhu pack has each card once). Labels below the reader's threshold are None, and
    so are those of a corner whose two sizes of patch (``SCALES``) name different cards
    (``agree``). ``scales``: (1.0,) reads each corner once: ~30% faster, ~1.5 points of
    recall less on the drawn fans, and no cross-check between sizes.
    ``progression``: step 4 of the module's search (the corners the outline does not show,
    from those read; on the drawn plays 879 -> 972 of 1081 cards named, none wrong,
    ~2 ms more a frame holding a group).
    ``exclude``: quads (image pixels) of cards already named whole (vision.identify's
    ``Card.corners`` of cards it gave a label): they are left out of the search and a reading
    inside one is dropped, so no card is reported twice. Pass only named cards: an unsure
    quad may be the detector's one wrong quad over a fan.
    """
    reader = recognise_corner or default_reader()
    found = find_corners(image, min_frac, exclude=exclude, prepared=prepared)
    if not found:
        return []
    cands, indexed = _read_corners(image, reader, found, scales, none_cut, agree)
    # the cards between and beyond those named, where the outline showed no corner (a tight
    # fan's corner beside the card over it, a pile's faint inner edge): a fan, a row and a
    # pile lay each card from the one under it as that one was laid from the one under it
    tried = list(found)
    pairs = _neighbours(indexed)
    ih, iw = image.shape[:2]
    for _ in range(PROGRESSION_ROUNDS if progression else 0):
        ahead, after = [], []
        for a, b in pairs:
            c = _next_corner(a, b)
            x, y = c[0]
            if 0 <= x < iw and 0 <= y < ih and all(
                    math.hypot(*(c[0] - t[0])) > PROGRESSION_NEW * c[3] for t in tried):
                ahead.append(c)
                after.append(b)
                tried.append(c)
        if not ahead:
            break
        more, more_indexed = _read_corners(image, reader, ahead, scales, none_cut, agree)
        cands += more
        pairs = [(after[k], c) for c, k in more_indexed]
    if exclude:
        polys = [np.asarray(q, np.float32).reshape(-1, 1, 2) for q in exclude]
        cands = [c for c in cands
                 if all(cv2.pointPolygonTest(p, c.centre, False) < 0 for p in polys)]
    cands.sort(key=lambda c: -c.confidence)
    kept: list[FanCard] = []
    for c in cands:
        cx, cy = c.centre
        # (neighbouring cards of a fan have their indices ~0.15 heights apart)
        near = 0.25 * math.hypot(SPAN_U, SPAN_V) * c.card_h
        if any(math.hypot(cx - k.centre[0], cy - k.centre[1]) < near for k in kept):
            continue  # the same index seen from two corners found for it
        if c.label is not None and any(k.label == c.label for k in kept):
            continue  # the same card's other index
        kept.append(c)
    return kept
