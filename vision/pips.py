"""Counting the pips of a standard number card (2 to 10): a rank that no printing changes.

The networks learn the printings they saw. On a printing they never saw (a jumbo-index deck
whose pips sit small in a framed box, left out of training) the whole-card network spreads
its probability over wrong cards and the corner index alone is often unsure, while the pips
are still counted the same way: N shapes of one size, in the layout every printing of the
pack uses, mirror-symmetric about the card's long axis and, but for the 7's odd pip, about
its centre. A count is given only where all of that holds on a white card with nothing else
printed among the pips; an ace, a court card's picture, a coloured card's body (an UNO 8's
two loops) or a quad on the table gives none.

Measured on the quads the detector finds in the shared standard photos: 231 counts with the
right number and colour, and one wrong (glare over a 7's top third cut its quad short, and
its five lower pips read as a 5: hence ``CARD_SHAPED``); on the UNO photos' 1421 quads and
the drawn UNO cards, none. Trained without one folder (a jumbo-index deck), the networks
left 12 of its 64 cards unsure; with the pips, 6 (tools/leave_source_out.py, docs/vision.md).
The colour (red or black pips) is measured from the pips too, and the suit within it from
their shapes (``suit_by_shape``: hearts, diamonds and clubs; a spade's shape is only a club's
without its waist), held against the recognisers' suit (``named_by_pips``). The count also
gainsays a number card the recognisers name unsurely (``gainsaid_by_pips``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from vision.recognise.features import white_balance

# the size the crop is counted at (the recognisers' 96x144 crop, looked at finer)
W, H = 160, 240
# a pip's area, as a share of the card: a 10's pips of a small printing to a 2's big ones
PIP_AREA = (0.0012, 0.07)
# pips are of one size: the largest group within this ratio of areas is the count
SAME_SIZE = 1.8
# a pip's box, its width over its height (a diamond is the narrowest: a drawn one enlarged
# and noisy measured 0.55 and was not counted; 0.5 counted two phone photos' clubs wrong)
PIP_ASPECT = (0.55, 1.6)
# the pips' layout centred on the card (a share of its width / height): a quad cut short
# by the detector moves it a little, a corner index counted as pips moves it a lot
CENTRED = 0.12
# a pip's mirror image (across the long axis, or turned round the centre) must fall within
# this share of a pip's height of another pip
MIRROR_TOL = 0.4
# the layout's long axis may lean this much (x per y) in the crop: a quad a little off the
# card's corners (a white card's edge lost on grey paper) shears it by ~0.08
MAX_LEAN = 0.15
# ink among the pips that is no pip (a court card's picture), as a share of the pips' own
SOMETHING_ELSE = 0.25
# a white card: at least this share of it is light, unsaturated paper. The UNO cards whose
# two like shapes passed every other test (an 8's loops) were at most 0.35; the standard
# cards' 5th percentile was 0.69
PAPER_MIN = 0.5
# Naming a card by its pips (``named_by_pips``): pips this red or more are hearts or
# diamonds, this little or less spades or clubs; between, no colour is sure
RED = (0.2, 0.6)
# the suit of that colour is the recognisers' if it has this share of the two suits'
# probability at least. Their suit is far surer than their rank on a printing they never
# saw, but not sure: trained without one deck (a jumbo index), they read the suit of its 10
# counted cards right at 0.53 to 0.996, yet on its photos dimmed, compressed or taken from
# further away they gave a 3 of clubs to spades at 0.82-0.93 (at 0.8, one wrong name in
# each of those three ways). From 0.95, none, and 6 of the 12 cards they had left unsure
# are named.
SUIT_SURE = 0.95
# The suit by the pips' shapes (``suit_by_shape``): the card rectified at this size (from
# the photo, not the recognisers' crop: at 96x144 a small printing's clubs lost their waist)
FINE = (240, 360)
# a heart's weight sits at most this high in it, a diamond's at least this (share of the
# height from the top); a club's waist is this share of its width at least, a spade's at
# most this; this share of the pips must agree
HEART_BELOW, DIAMOND_FROM = 0.43, 0.46
CLUB_WAIST, SPADE_WAIST = 0.04, 0.01
# ... and, to gainsay a spade, a club's two notches between its top leaf and the leaves
# beside it: the second-deepest dent of its outline in its upper 60%, as a share of its
# width (``_notch``), is at most 0.047 on the spades of the four printings in
# ../shared/data and the CC BY singles (99th percentile) and at least 0.12 on their clubs
# (5th percentile); the CC BY webcam's small clubs 0.07-0.09, where the waist (blurred
# shut) said spades.
CLUB_NOTCH, SPADE_NOTCH = 0.065, 0.05
VOTE = 0.75
# the suits the shape names, where the recognisers give it this share of the two at least
# (they lean its way): a spade's shape is no more than a blurred club's
SHAPE_NAMES = ("H", "D", "C")
SHAPE_AGREES = 0.5
# the quad's long side over its short side: a card's (poker 1.40, bridge 1.56). A quad cut
# short by glare over a card's top third showed a 7's five lower pips as a 5.
CARD_SHAPED = (1.3, 1.7)
# ... looser to gainsay a name (which leaves the card unsure, never names it): a webcam's
# perspective and a loose outline made eights that a network named 9 at 0.999 1.26-1.27 or
# 1.71 long; over every standard photo here no right name was gainsaid between 1.2 and 1.8.
# Longer, up to a bridge card (1.56) in a 16:9 photo squeezed to a square (x1.78): the CC BY
# webcam scenes, squeezed from 4:3 by their exporter, showed eights named the 9 of spades
# and the 6 of hearts at 0.996-0.997 1.95-2.21 long, eight pips counted (29 Nov, issue 33);
# a quad longer than its card shows the layout off its centre, which counts nothing. Up to
# 1.8, 2.4 or 3.0, every other photo here (the shared ones in 13 ways, by the shipped
# networks and three folds' that never learned them; the drawn scenes) read alike but for
# the folds' squeezed and heightened photos: 7 wrong names fewer, 4 right more.
GAINSAY_SHAPED = (1.2, 2.8)


def named_by_pips(crop: np.ndarray, suits: dict[str, float], shape: float,
                  fine: np.ndarray | None = None) -> tuple[str, float] | None:
    """(label, confidence) for a standard number card by its pips' count and colour, and
    its suit: the one the pips' shape gives where the recognisers lean that way too
    (``suits``: each suit's probability), else the one of that colour the recognisers give
    ``SUIT_SURE`` at least; None where any of that fails. ``shape``: the quad's side ratio;
    ``fine``: the card rectified at ``FINE`` for the pips' shapes (None: not looked at)."""
    if not CARD_SHAPED[0] <= shape <= CARD_SHAPED[1]:
        return None
    pips = count_pips(crop)
    if pips is None or RED[0] < pips.red < RED[1]:
        return None
    pair = ("H", "D") if pips.red >= RED[1] else ("S", "C")
    total = suits.get(pair[0], 0.0) + suits.get(pair[1], 0.0)
    if total <= 0.0:
        return None
    by_shape = suit_by_shape(fine, pips.count, pair) if fine is not None else None
    if by_shape in SHAPE_NAMES:
        share = suits.get(by_shape, 0.0) / total
        return (f"{pips.count}{by_shape}", (1.0 + share) / 2) if share >= SHAPE_AGREES else None
    suit = max(pair, key=lambda s: suits.get(s, 0.0))
    share = suits.get(suit, 0.0) / total
    if by_shape is not None and by_shape != suit:
        return None
    return (f"{pips.count}{suit}", share) if share >= SUIT_SURE else None


def gainsaid_by_pips(crop: np.ndarray, label: str, shape: float) -> bool:
    """Whether a number card named ``label`` shows another count of pips, or pips of the
    other colour, or an ace a number card's layout of pips (it has one pip: no layout is
    counted); on a card-shaped quad, ``shape`` its side ratio within ``GAINSAY_SHAPED``.
    Not for court cards."""
    rank, suit = label[:-1], label[-1]
    # (the lower bound keeps a quad cut short from counting a layout short; an ace has no
    # layout, so an ace is held to its pips on a quad however square)
    least = 1.0 if rank == "A" else GAINSAY_SHAPED[0]
    if not (rank.isdigit() or rank == "A") or not least <= shape <= GAINSAY_SHAPED[1]:
        return False
    pips = count_pips(crop)
    if pips is None:
        return False
    if rank == "A":
        return True
    colour_unsure = RED[0] < pips.red < RED[1]
    other_colour = not colour_unsure and (pips.red >= RED[1]) != (suit in "HD")
    return pips.count != int(rank) or other_colour


def gainsaid_by_shapes(fine: np.ndarray, label: str) -> bool:
    """Whether the pips' shapes on ``fine`` (the card at ``FINE``) give another suit of the
    colour of the number card ``label`` (``suit_by_shape`` with a club's notches; a spade,
    only a club's waist and notches missing, never gainsays)."""
    pair = ("H", "D") if label[-1] in "HD" else ("S", "C")
    by_shape = suit_by_shape(fine, int(label[:-1]), pair, notches=True)
    return by_shape in SHAPE_NAMES and by_shape != label[-1]


def suit_by_shape(fine: np.ndarray, count: int, pair: tuple[str, str],
                  notches: bool = False) -> str | None:
    """The suit of ``pair`` (hearts / diamonds or spades / clubs) the pips' shapes give on
    ``fine`` (the card at ``FINE``), where they count ``count`` and ``VOTE`` of them agree.

    Every printing draws the four suits alike. Turned upright (the pips of the card's upper
    half stand upright whichever way up the card lies; its middle row is left out), a heart
    has its weight high, in its two lobes (its centre at 0.38-0.42 of its height on the
    four printings in ../shared/data), a diamond at the middle (0.47-0.50); a club narrows
    between its top leaf and the two beside it (a waist, 0.02-0.16 of its width), while a
    spade widens all the way down from its point (0.00). A spade is only the absence of a
    waist, which blur or distance also give a club: it is never named by shape alone.
    ``notches``: a club is also told by its notches (``CLUB_NOTCH``), and a spade needs
    none (only to gainsay a name: a suit is never named so)."""
    upright = _upright_pips(fine, count)
    if upright is None:
        return None
    if pair == ("H", "D"):
        votes = [("H" if c <= HEART_BELOW else "D" if c >= DIAMOND_FROM else None)
                 for c in map(_weight_height, upright)]
    else:
        notch = [_notch(m) if notches else 0.0 for m in upright]
        votes = [("C" if t >= CLUB_WAIST or n >= CLUB_NOTCH else
                  "S" if t <= SPADE_WAIST and n <= SPADE_NOTCH else None)
                 for t, n in zip(map(_waist, upright), notch, strict=True)]
    top = max(pair, key=votes.count)
    return top if votes.count(top) >= VOTE * len(votes) else None


def _upright_pips(fine: np.ndarray, count: int) -> list[np.ndarray] | None:
    """The masks of the pips on ``fine`` (the card at ``FINE``), each turned upright (the
    pips of the card's upper half stand upright whichever way up the card lies; its middle
    row is left out), where they count ``count`` and two at least are left; else None."""
    found = _pips(fine, *FINE)
    if found is None or found[0].count != count:
        return None
    upright = [m if cy < 0.5 else m[::-1, ::-1] for m, cy in found[1] if abs(cy - 0.5) >= 0.06]
    return upright if len(upright) >= 2 else None


def suit_in_grey(fine: np.ndarray, count: int) -> tuple[str, float] | None:
    """The suit of a number card the pips' shapes give among all four, for a frame with no
    colour (``suit_by_shape`` needs the colour to choose between two), where they count
    ``count`` and ``VOTE`` of them agree (the card at ``FINE``; the middle row left out), and
    the share that agree.

    Each pip upright, on the four printings of ../shared/data and the CC BY singles (1734
    pips of right-named cards, the photos made grey; 1st-99th percentiles): a club has its
    notches (``_notch`` 0.14-0.28, every other suit under 0.07); a heart is widest in its
    top third (its widest row at 0.16-0.28 of its height, every other suit from 0.45 down)
    and its weight high (0.38-0.41); a diamond is as it is turned upside down (the mask and
    its mirror top to bottom overlap 0.85-0.99 of their union; a spade, its stem below and
    its point above, 0.37-0.76), widest at its middle (0.45-0.51); a spade is widest low
    (0.52-0.77)."""
    upright = _upright_pips(fine, count)
    if upright is None:
        return None
    votes = [_grey_suit(m) for m in upright]
    top = max("HDSC", key=votes.count)
    share = votes.count(top) / len(votes)
    return (top, share) if share >= VOTE else None


def _grey_suit(mask: np.ndarray) -> str | None:
    """One upright pip's suit by its shape alone (``suit_in_grey``), or None."""
    m = (mask > 0).astype(np.uint8)
    ys, xs = np.nonzero(m)
    if len(ys) < 12:
        return None
    box = m[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    if _notch(box) >= GREY_CLUB_NOTCH or _waist(box) >= CLUB_WAIST:
        return "C"
    # (each row's span, first ink to last: a heart's two lobes and the gap between them)
    first = box.argmax(axis=1)
    widths = (box.shape[1] - box[:, ::-1].argmax(axis=1) - first).astype(np.float64)
    widest = float(np.argmax(np.convolve(widths, np.ones(3) / 3, mode="same"))) / len(widths)
    weight = _weight_height(box)
    if widest <= GREY_HEART_WIDEST and weight <= HEART_BELOW:
        return "H"
    mirror = _mirror_overlap(box)
    if mirror >= GREY_DIAMOND_MIRROR and GREY_DIAMOND_WIDEST[0] <= widest <= \
            GREY_DIAMOND_WIDEST[1]:
        return "D"
    if mirror <= GREY_SPADE_MIRROR and widest >= GREY_SPADE_WIDEST and _waist(box) <= SPADE_WAIST:
        return "S"
    return None


def red_mirror(crop: np.ndarray, rank: str) -> float | None:
    """How alike a red card's pips are to themselves turned top to bottom (the overlap of
    each pip's mask with its mirror, over their union; the median over the pips), on
    ``crop`` (the recognisers' upright crop, as it is: no white balance, no finer warp, so
    that it costs ~0.2 ms), where ``rank`` pips of one size are found among the pips'
    columns (a number card) or, for an ace, its one pip in the middle; None where not.

    A diamond is as it is turned top to bottom, a heart is not, whichever way up the card
    lies and through a blur that rounds both (``identify.RED_HEART_MIRROR``)."""
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop
    _, ink = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY_INV | cv2.THRESH_OTSU)
    _, labels, stats, centres = cv2.connectedComponentsWithStats(ink, connectivity=8)
    h, w = grey.shape
    x, y, bw, bh, area = (stats[1:, k].astype(np.float64) for k in range(5))
    cx, cy = centres[1:, 0], centres[1:, 1]
    if rank == "A":
        fits = ((np.abs(cx - w / 2) <= ACE_PIP_CENTRED * w)
                & (np.abs(cy - h / 2) <= ACE_PIP_CENTRED * h)
                & (area >= ACE_PIP_AREA[0] * w * h) & (area <= ACE_PIP_AREA[1] * w * h)
                & (area >= 0.35 * bw * bh))
        group = np.nonzero(fits)[0][np.argsort(-area[fits])][:1]
    elif rank.isdigit():
        group = _pip_group(stats, centres, w, h)
        if len(group) != int(rank):
            return None
    else:
        return None
    overlaps = []
    for g in group:
        x0, y0, x1, y1 = int(x[g]), int(y[g]), int(x[g] + bw[g]), int(y[g] + bh[g])
        box = (labels[y0:y1, x0:x1] == g + 1).astype(np.uint8)
        if box.sum() >= 12:
            overlaps.append(_mirror_overlap(box))
    return float(np.median(overlaps)) if overlaps else None


ACE_PIP_CENTRED = 0.12
ACE_PIP_AREA = (0.01, 0.25)


# suit_in_grey's bounds (see its docstring for what they part)
GREY_CLUB_NOTCH = 0.1
GREY_HEART_WIDEST = 0.35
GREY_DIAMOND_MIRROR, GREY_DIAMOND_WIDEST = 0.83, (0.42, 0.55)
GREY_SPADE_MIRROR, GREY_SPADE_WIDEST = 0.8, 0.53


def _weight_height(mask: np.ndarray) -> float:
    """Where a shape's weight sits, as a share of its height from its top."""
    ys = np.nonzero(mask)[0]
    return float((ys.mean() - ys.min()) / (ys.max() - ys.min() + 1))


def _notch(mask: np.ndarray) -> float:
    """The second-deepest dent (convexity defect) of a shape's outline in its upper 60%, as
    a share of its width: a club's two, between its top leaf and the leaves beside it."""
    m = (mask > 0).astype(np.uint8)
    ys, xs = np.nonzero(m)
    if not len(ys):
        return 0.0
    h, w = ys.max() - ys.min() + 1, xs.max() - xs.min() + 1
    outline = max(cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0],
                  key=cv2.contourArea)
    if len(outline) < 5:
        return 0.0
    try:
        dents = cv2.convexityDefects(outline, cv2.convexHull(outline, returnPoints=False))
    except cv2.error:  # (a self-touching outline)
        return 0.0
    if dents is None:
        return 0.0
    deep = sorted((d[3] / 256.0 / w for d in dents.reshape(-1, 4)
                   if outline[d[2], 0, 1] - ys.min() < 0.6 * h), reverse=True)
    return float(deep[1]) if len(deep) > 1 else 0.0


def _waist(mask: np.ndarray) -> float:
    """How far a shape narrows again above its widest row, as a share of that width."""
    rows = [np.nonzero(r)[0] for r in mask]
    width = np.array([float(r[-1] - r[0] + 1) if len(r) else 0.0 for r in rows])
    width = np.convolve(width[width > 0], np.ones(3) / 3, mode="same")
    widest = int(np.argmax(width))
    if widest < 2:
        return 0.0
    above = width[:widest + 1]
    return float((np.maximum.accumulate(above) - above).max() / width[widest])


def _axis(pts: np.ndarray, tol: float) -> Callable[[np.ndarray], np.ndarray] | None:
    """The layout's long axis as x(y): a line through the middles of its rows (pips
    within ``tol`` of one height). A quad a little off the card's corners shears the crop,
    and the axis leans with it; turning round the centre is unchanged by a shear."""
    order = np.argsort(pts[:, 1])
    rows, row = [], [order[0]]
    for i in order[1:]:
        if pts[i, 1] - pts[row[-1], 1] <= tol:
            row.append(i)
        else:
            rows.append(row)
            row = [i]
    rows.append(row)
    ys = np.array([pts[r, 1].mean() for r in rows])
    xs = np.array([(pts[r, 0].min() + pts[r, 0].max()) / 2 for r in rows])
    if len(rows) < 2:
        return lambda y: np.full_like(y, xs[0])
    slope, offset = np.polyfit(ys, xs, 1)
    if abs(slope) > MAX_LEAN:  # pips along a slant are no layout (the 2's and 3's column)
        return None
    return lambda y: slope * y + offset


@dataclass(frozen=True)
class Pips:
    count: int
    red: float  # the share of the pips' pixels that are red (hearts, diamonds)


def count_pips(crop: np.ndarray) -> Pips | None:
    """The number of pips on an upright (portrait) crop of a standard card, or None where
    the crop is not plainly a number card (see the module's docstring)."""
    found = _pips(crop, W, H, masks=False)
    return None if found is None else found[0]


def _pip_group(stats: np.ndarray, centres: np.ndarray, width: int, height: int
               ) -> np.ndarray:
    """The pips among a ``width`` x ``height`` card's ink blobs (``stats`` and ``centres`` of
    ``cv2.connectedComponentsWithStats``, the background first): the largest group of
    pip-shaped blobs (``PIP_AREA``, ``PIP_ASPECT``, filling a third of their box) of one size
    (``SAME_SIZE``) in the pips' columns, clear of the card's edges; their indices in
    ``stats[1:]`` (none: empty)."""
    x, y, w, h, area = (stats[1:, k] for k in range(5))
    area = area.astype(np.float64)
    cx, cy = centres[1:, 0], centres[1:, 1]
    aspect = w / np.maximum(h, 1)
    size = width * height
    shaped = ((area >= PIP_AREA[0] * size) & (area <= PIP_AREA[1] * size)
              & (area / np.maximum(w * h, 1) > 0.35)
              & (aspect > PIP_ASPECT[0]) & (aspect < PIP_ASPECT[1])
              # the pips' columns, not a corner index at the card's edge
              & (cx > 0.2 * width) & (cx < 0.8 * width) & (cy > 0.1 * height) & (cy < 0.9 * height)
              & (x > 0) & (y > 0) & (x + w < width) & (y + h < height))
    candidates = np.nonzero(shaped)[0]
    return max((candidates[(area[candidates] >= area[k])
                           & (area[candidates] <= SAME_SIZE * area[k])] for k in candidates),
               key=len, default=candidates[:0])


def _mirror_overlap(box: np.ndarray) -> float:
    """How alike a shape's mask (0 / 1) is to itself turned top to bottom: the overlap of
    the two over their union."""
    flipped = box[::-1]
    return float((box & flipped).sum()) / max(float((box | flipped).sum()), 1.0)


def _percentile(grey: np.ndarray, q: float) -> float:
    """``np.percentile(grey, q)`` of a uint8 image (linear between the two nearest levels),
    from its histogram, in a fifth of the time."""
    cum = np.cumsum(cv2.calcHist([grey], [0], None, [256], [0, 256]).ravel())
    at = q / 100.0 * (grey.size - 1)
    lo, hi = int(np.floor(at)), int(np.ceil(at))
    a, b = np.searchsorted(cum, (lo + 1, hi + 1))  # the lo-th and hi-th grey levels in order
    return float(a) + (at - lo) * float(b - a)


def _pips(crop: np.ndarray, width: int, height: int, masks: bool = True
          ) -> tuple[Pips, list[tuple[np.ndarray, float]]] | None:
    """``count_pips`` at ``width`` x ``height``, and (``masks``) each pip's mask (its ink,
    cut out around it) with its centre's height on the card (0 top, 1 bottom)."""
    card = cv2.resize(white_balance(crop), (width, height), interpolation=cv2.INTER_LINEAR)
    grey = cv2.cvtColor(card, cv2.COLOR_BGR2GRAY)
    level, ink = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY_INV | cv2.THRESH_OTSU)
    if _percentile(grey, 90) - level < 40:  # no print to speak of
        return None
    # a pixel off every pip's edge: two pips that a low-resolution view runs together part
    raw, ink = ink, cv2.erode(ink, np.ones((3, 3), np.uint8))
    _, labels, stats, centres = cv2.connectedComponentsWithStats(ink, connectivity=8)
    x, y, w, h, area = (stats[1:, k] for k in range(5))
    area = area.astype(np.float64)
    cx, cy = centres[1:, 0], centres[1:, 1]
    group = _pip_group(stats, centres, width, height)
    if not 2 <= len(group) <= 10:
        return None
    pts = np.stack([cx[group], cy[group]], axis=1)
    mid_x = (pts[:, 0].min() + pts[:, 0].max()) / 2
    mid_y = (pts[:, 1].min() + pts[:, 1].max()) / 2
    if abs(mid_x - width / 2) > CENTRED * width or abs(mid_y - height / 2) > CENTRED * height:
        return None
    tol = MIRROR_TOL * float(np.median(h[group]))

    def unmatched(mirrored: np.ndarray) -> int:
        d = np.hypot(pts[:, None, 0] - mirrored[None, :, 0], pts[:, None, 1] - mirrored[None, :, 1])
        return int((d.min(axis=0) > tol).sum())

    axis = _axis(pts, tol)
    if axis is None:
        return None
    across = np.stack([2 * axis(pts[:, 1]) - pts[:, 0], pts[:, 1]], axis=1)
    turned = np.stack([2 * mid_x - pts[:, 0], 2 * mid_y - pts[:, 1]], axis=1)
    # turned round, every pip lands on another (the middle one of a 3, 5 or 9 on itself)
    # but the 7's odd pip, which sits above the middle
    if unmatched(across) > 0 or unmatched(turned) > (1 if len(group) == 7 else 0):
        return None
    pip_h, pip_w = float(np.median(h[group])), float(np.median(w[group]))
    x0, x1 = int(max(0, pts[:, 0].min() - pip_w)), int(min(width, pts[:, 0].max() + pip_w))
    y0, y1 = int(max(0, pts[:, 1].min() - pip_h)), int(min(height, pts[:, 1].max() + pip_h))
    is_pip = np.zeros(len(stats), bool)
    is_pip[group + 1] = True
    ours = is_pip[labels[y0:y1, x0:x1]]
    other = float(((ink[y0:y1, x0:x1] > 0) & ~ours).sum()) / float(area[group].sum())
    if other > SOMETHING_ELSE:
        return None
    hsv = cv2.cvtColor(card, cv2.COLOR_BGR2HSV)  # (after the cheaper tests)
    if float(np.mean((hsv[..., 1] < 70) & (grey > level))) < PAPER_MIN:
        return None
    on_pips = cv2.cvtColor(card[is_pip[labels]][:, None], cv2.COLOR_BGR2HSV)[:, 0]
    hue, sat = on_pips[:, 0], on_pips[:, 1]
    red = float(np.mean((sat > 80) & ((hue < 12) | (hue > 160))))
    if not masks:
        return Pips(len(group), red), []
    grow = np.ones((3, 3), np.uint8)
    shapes = []
    for g in group:  # the pip's own ink (not eroded), cut out around its component
        x0, y0 = max(0, int(x[g]) - 3), max(0, int(y[g]) - 3)
        x1, y1 = min(width, int(x[g] + w[g]) + 3), min(height, int(y[g] + h[g]) + 3)
        seed = cv2.dilate((labels[y0:y1, x0:x1] == g + 1).astype(np.uint8), grow, iterations=2)
        shapes.append(((raw[y0:y1, x0:x1] > 0).astype(np.uint8) & seed, float(cy[g]) / height))
    return Pips(len(group), red), shapes
