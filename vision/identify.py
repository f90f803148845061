"""Frame -> named cards: detection, rectification and the deck's recogniser, timed."""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.backs import uno_back
from vision.detect import (
    CROP_ASPECT,
    Quad,
    card_width,
    closeup_body,
    edge_insides,
    find_cards,
    iou_box,
    looks_for_bodies,
    order_portrait,
    quarter_turned,
    rectify,
    side_ratio,
)
from vision.held import card_tops
from vision.pips import (
    CARD_SHAPED,
    FINE,
    gainsaid_by_pips,
    gainsaid_by_shapes,
    named_by_pips,
    red_mirror,
    suit_in_grey,
)
from vision.recognise import Recogniser, get_recogniser
from vision.recognise.features import DETAIL_H, DETAIL_W, sharpness
from vision.unmoved import UnmovedCards

# A frame gets a second look for a hand-held close-up (Identifier._second_look) unless a
# card is sure: read at this or more seen whole, at PART_SURE seen in part (the floor of a
# deck's threshold for parts, but UNO's, measured lower: tools/train_vision_cnn.PART_FLOOR;
# the calibration of that floor ran this search as it is). Its boxes are sure
# from PART_SURE too; where none is, its surest box replaces cards read below
# SECOND_LOOK_BELOW. Fixed levels, not the recogniser's thresholds, so that calibrating
# those (at 0) runs the same search as the shipped reader; 0.7 is UNO's floor for cards seen
# whole (tools/train_vision.MIN_THRESHOLD): at 0.5 (the floor before it), a card read unsure
# at 0.5-0.7 kept the frame from its second look (a yellow 3 held behind fingers, read
# whole at 0.52 and from its top at 0.97).
SECOND_LOOK_BELOW = 0.7
PART_SURE = 0.95
# The whole frame read as one card is the guess that the photo is a tight crop of it: named
# only from this confidence. On the train photos, squeezed or stretched as datasets resize
# them, such readings named the wrong card at 0.51-0.63 (a hand-held close-up's frame).
WHOLE_FRAME_FLOOR = 0.65
# A card too blurred to tell a club from a spade (a camera out of focus) is named only from
# BLURRED_SURE. Blurred: the variance of the Laplacian of its crop's grey levels (96x144),
# scaled by their spread (5th to 95th percentile), under BLURRED_BELOW. The standard pack's
# train and calib photos blurred by 1% of the frame (tools/measure_stretched.py) named the
# jack and king of clubs as spades at 0.76 and 0.95, their crops at 0.006 and 0.008; the cards as
# taken are over 0.085 (19 in 20). With it, blurred: 138 named and none wrong, against 145
# and 2; as taken, and in the other ways of degrading them, nothing changed. The standard
# pack only: an UNO card's colour survives blur, and its webcam close-ups are softer as
# taken (1 in 20 under 0.017); there it would have cost 62 of 629 blurred cards for one
# wrong name.
BLURRED_BELOW = 0.01
BLURRED_SURE = 0.97
# A standard number card the recognisers name below this is left unsure where its pips
# (vision/pips.py) count another number or show the other colour: trained without one
# printing, the networks named its 6 of spades, warmed by a lamp, the 8 of spades at 0.67.
PIPS_GAINSAY_BELOW = 0.9
# ... and a card named a 9 or a 6 at any confidence: on webcam photos of a printing no shipped
# network learned (../shared/train/cadyze_cards_scenes, CC BY 4.0), its eights were named 9
# or 6 at 0.995-1.0, while their pips counted 8 (and both corner indices read 8). Read by the
# shipped networks and by the four built without one source each, every standard photo here
# gave 32 wrong names whose pips gainsay them at any confidence: 31 nines and a six, every
# one an eight; no right name of any rank was gainsaid. An ace too: a number card of a
# jumbo-index printing, trained without, was named the ace of spades at 0.997-0.999 (a 9,
# an 8, a 5), and so was a 6 of the CC BY photos; an ace's one pip gives no layout to count,
# and no right ace or court card had one. Only these ranks: counting a card's pips costs
# about 1.2 ms on this box.
PIPS_ALWAYS_CHECKED = ("9", "6", "A")
# A name given at PIPS_GAINSAY_BELOW or over stands, though its pips count another number,
# where a corner index of the card reads that very name at this or over (vision/
# corner_index.py): a drawn 9 of diamonds filling the frame, its two narrowest pips not taken
# for pips, counted 7 and read 9D at 0.96 in both corners. None of the 32 eights above had a
# corner read as its wrong name (both read 8 mostly, at 0.25-0.95).
INDEX_UPHOLDS = 0.3
# A standard card narrower than this (pixels of the frame it was found in) is never named:
# its suit is a few pixels. The shared photos shrunk to a third, a fifth and a seventh of
# their size, with a webcam's noise and JPEG (quality 70; tools/measure_small_cards.py),
# named 3 cards wrong in 115 under 40 pixels wide (a 7 of hearts as diamonds at 1.0), 1 in
# 65 at 40-59 and none in ~700 wider; drawn tables of 5 cards at 640x480, 17 in 143 at
# 30-39 pixels (a 3 of diamonds as hearts at 1.0), 7 in 271 at 40-49. UNO (3 in 264 under
# 40, 1 in ~200 wider) and Huang Di (none) have no such floor. The camera page asks for the
# camera nearer well before this (vision/view_check.SMALL_BELOW: 51 pixels at 640x480).
NAMED_WIDTH_FLOOR = {"french": 40.0}
CARD_ASPECT = 88 / 63  # a standard card's height over its width
# A club or spade narrower than this (pixels) is named only from SMALL_BLACK_SURE: small, a
# club's leaves and a spade's point are a few pixels apart. The shared photos shrunk to a
# third, a fifth, a seventh and 320 pixels wide (tools/measure_small_cards.py's noise and
# JPEG) named a king of clubs 53 pixels wide as spades at 0.89 (issue 33's one wrong name at
# 320 px); black cards under 60 pixels named under 0.9: 7 right and that one wrong (red
# cards: 10 right, none wrong; 1137 names in all).
SMALL_BLACK_BELOW = 60.0
SMALL_BLACK_SURE = 0.9
# A red number card or ace whose crop is this blurred (``sharpness``) or more is named
# hearts or diamonds only where its pips' shape agrees (``pips.red_mirror``: a diamond is as
# it is turned top to bottom, a heart is not): a heart's pips may overlap their mirror up to
# RED_HEART_MIRROR (an ace's one pip, ACE_HEART_MIRROR), a diamond's down to
# RED_DIAMOND_MIRROR. Blurred by 0.3-0.75% of the frame's width (issue 33's "slightly
# blurred" webcam shots; tools/measure_stretched.py's blur), the shared standard photos gave
# 9 wrong names at 0.99 and over, every one a diamond named hearts: six aces (their pip
# 0.79-0.97 alike to its mirror) and wmcnicho's 3s and an 8 (0.93-0.96). Over 1453 red cards
# named right and wrong (the shared photos and the CC BY ones, as taken, blurred, tilted,
# far, dim, JPEG 30), the right hearts were at most 0.57 (aces) and 0.83 (number cards,
# blurred by 0.75%), the right diamonds 0.79 (aces) and 0.77 at least. Only on a blurred
# crop: no wrong red suit was named on one sharper than 0.022, and a small card's crop
# (the benchmark's drawn 10-card tables: half their red cards) is as soft as a blurred one.
RED_SHAPE_BELOW = 0.03
RED_HEART_MIRROR, ACE_HEART_MIRROR, RED_DIAMOND_MIRROR = 0.88, 0.7, 0.65
# The standard pack's look for cards by their tops (Identifier._tops_look): this many tops
# read at most; one counts where it overlaps no named card by this much (IoU); its corners
# may run off the image by this share of its long side
TOPS_MOST = 6
TOPS_CLEAR = 0.2
TOPS_MARGIN = 0.02
# A card named whole but less long than this (side ratio; a card is 1.40) is searched for the
# corner indices of overlapping cards too: on 300 drawn Dou Di Zhu plays every quad found
# around two to four cards of a row or a pile (27, named at 0.51-1.0) was 1.04-1.35, and 49 of
# 57 single cards 1.39-1.43 (tools/measure_ddz_camera.py)
GROUP_SHAPED = 1.36
# ... and it is a group only where another name is read inside it this surely: each such
# group held one at 0.977-0.997, while the index of a single card in a photo squeezed, widened,
# made taller or tilted (the standard folders, tools/measure_stretched.py) was misread inside
# it at 0.81-0.944 (an 8 of clubs as the 6, a jack of hearts as spades)
GROUP_READ = 0.96
# UNO's second look (a close-up held to a webcam): after the card tops found between two
# sides, this many more whose one side lies on the frame's left or right edge (held.card_tops)
FRAME_SIDE_TOPS = 3
TOPS_REPLACE = 0.3  # an unsure quad overlapping a card found so by this much (IoU) goes
TOPS_MERGED = 1.5  # an unsure quad this many times a named card's area may be two cards
# A card found by its top is named only from this confidence. Read by networks that never
# saw its printing (tools/leave_source_out.py's folds, the photos as taken, dimmed, warmed,
# blurred, compressed, far, squeezed and stretched), such cards were named wrong at
# 0.62-0.75 (a blurred king of clubs as spades; an 8 of hearts in a stretched photo) and
# right 11 times in that range; from 0.8, 45 right and none wrong.
TOPS_SURE = 0.8
# ... and only where both its ends carry print. Its far end is a guess from its width: a
# card's bottom edge taken for its top runs on into the table, and the quad holds the card's
# lower half and a strip of bare table (an 8 of hearts lying on a white desk, so held, was
# named the 4 of hearts at 0.998: CC BY webcam scenes, tools/measure_real_tables.py). Every
# standard card prints its two ends alike (an index in each corner, its pips or picture
# turned round): the share of ink (``_end_ink``) in the lesser of a card's end thirds was
# 0.024 at the least over every card named whole in the shared photos (an ace), 0.37 of the
# other end's at the least; that quad's bare end, 0.
TOPS_END_INK = 0.01
# In a frame with no colour (Identifier._in_grey) a spade is named only on a card this many
# pixels wide: a club is told from it by its notches alone, which a small card loses (the
# standard photos made grey and a third as wide: a 3 of clubs 61 pixels wide named the 3 of
# spades; every black card as taken is over 90 pixels wide there)
GREY_SPADE_WIDE = 80
# A court card or an ace found by the inside of its edge (Identifier._insides_look) is named
# only from this confidence: no pips gainsay it, and the shared photos blurred by 1% of the
# frame gave a king of clubs so found to spades at 0.835 (3 other court cards right at
# 0.73-0.80), the CC BY webcam scenes an ace of diamonds to spades at 0.63.
INSIDE_FACE_SURE = 0.9
# At most this many quads that held another are read again per frame (Identifier._enclosing):
# a wild +4 gives one or two (its white outline, its black body); a table's regions more.
MAX_ENCLOSING = 3
# A named card under this share of an enclosing quad's area, its centre within this share of
# that quad's diagonal of its centre, is a figure printed on the card (_printed_figure): the
# enclosing quad is read all the same, and named, replaces it.
PRINTED_SHARE = 0.1
PRINTED_OFF = 0.1
# A quad whose sides differ less than this (long / short) is read both ways up and across:
# a card in a photo stretched to another shape (datasets resized to 640x640) can be nearly
# square, and which of its sides is the long one is then a guess.
SQUARISH = 1.2
# ... and one whose sides differ less than this is read across too where it is not read as a
# card or is unsure (a card seen from low down; eval-vision: rdpong 85 of 85, was 84; the
# photos tilted away by measure_stretched.py: UNO 538, was 534, none more wrong; ~0 ms on
# the benchmark's scenes, whose cards are read surely)
TILTED_TURN = 1.5
# A close-up's box is read as the image shows it (the upper part of a card held upright), but
# one this much wider than tall that is not read as a card is read turned a quarter too: a
# tight crop of a card lying on its side, whose outline runs off the photo and whose body is
# boxed as a close-up's (uno_criscard_crops turned a quarter: 66 and 66 of 70 either way, now
# 69 and 70, and 70 and 70 with cnn.dehazed; uno_hemant turned: 541 and 545 of 667, now 550
# and 553; none wrong, and the photos as they are, stretched and tilted, to the card as before)
SIDEWAYS_PART = 1.3
# A photo that is one card filling the frame (a straightened crop: no table around it, the
# card's edges at the frame's) has no outline to find, while its pips, index and picture
# frame are card-shaped quads: the detector offers those and never the whole frame, and a
# drawn ten or three was read as its pips ("2C" twice for a 3 of clubs). Where the frame is
# shaped like a card (detect.CROP_ASPECT) and its border is a card's plain margin (the middle
# FRAME_RING_SPAN of each side, a strip FRAME_RING_DEPTH of the short side deep, at least
# FRAME_RING_PALE of it pale: no more saturated than FRAME_RING_SAT and at least
# FRAME_RING_LIGHT of the frame's highlights), the whole frame is read as one card
# (Identifier._full_frame); named (from WHOLE_FRAME_FLOOR) and surer than every card found
# inside it, it replaces them. A table (wood, felt, cloth) fails the border test; a white
# desk passes it and is left to the network, which learned whole scenes as "not a card".
FRAME_RING_SPAN = 0.7
FRAME_RING_DEPTH = 0.02
FRAME_RING_PALE = 0.8
FRAME_RING_SAT = 90
FRAME_RING_LIGHT = 0.55
# ... unless this many cards were named clear of the frame's edges: a scene on a white desk
# (the whole frame's reading cost ~1-4 ms a frame there, the pips' and index reads included)
FRAME_SCENE_CARDS = 3

# A frame without colour (a monochrome camera, a black-and-white photo) cannot tell a card
# whose name holds its colour from the one that differs only by it; the networks, trained on
# colour, named them anyway: the shared photos made grey, the standard pack 138 wrong names
# in 338 cards (a 4 of hearts as clubs, a 10 of diamonds as spades: the pips' shape kept,
# the colour lost) and UNO 120 in 983 (red and blue cards as green). There such a card is
# unsure, its confidence shared among the cards it may be (``COLOUR_SPLIT``: red or black,
# one of UNO's four colours), and the phone asks. Colourless: fewer than COLOURLESS_SHARE of
# the pixels differ by more than COLOURLESS_CHROMA levels between their channels. A grey
# photo saved as a colour JPEG differs by 0-2 levels; the least colourful of the shared
# photos (a spade on white paper) has 5% of its pixels over 8.
COLOUR_SPLIT = {"uno": 4, "french": 2}
COLOURLESS_CHROMA = 8
COLOURLESS_SHARE = 0.005

# A standard pack holds one of each card: where a photo of ``packs`` packs names a card more
# often (``Identifier.packs``, ``companion vision identify --packs``, 1 by default), all but
# the surest of those names are wrong, whichever card wears the name, and are left unsure
# (the best guess kept). The jokers are left out: some packs print their two alike. (The CC
# BY webcam scenes, never learned: a 10 of clubs named the 10 of spades at 0.992 beside the
# 10 of spades at 1.0, and a 2 of clubs so beside the 2 of spades: 5 wrong names in 719
# cards -> 3, none right lost; one drawn 10-card scene of the benchmark named its 2 of
# spades twice. UNO and Huang Di packs hold several of a card.) Not the camera's: the one
# game it reads the pack for, Dou Di Zhu, counts ranks only, where a club read as a spade
# is the right card and an unsure one is a card lost from the play.
ONE_A_PACK = ("french",)
ONE_A_PACK_SPARED = ("BJ", "RJ")


def colourless(image: np.ndarray) -> bool:
    """Whether a BGR frame carries no colour (judged on every 4th pixel of every 4th row,
    with OpenCV: numpy took ~1 ms a frame)."""
    if image.ndim < 3 or image.shape[2] < 3:
        return True
    h, w = image.shape[:2]
    few = cv2.resize(image, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_NEAREST)
    b, g, r = cv2.split(few)[:3]
    chroma = cv2.max(cv2.max(cv2.absdiff(b, g), cv2.absdiff(g, r)), cv2.absdiff(b, r))
    coloured = cv2.countNonZero(cv2.threshold(chroma, COLOURLESS_CHROMA, 255,
                                              cv2.THRESH_BINARY)[1])
    return coloured < COLOURLESS_SHARE * chroma.size


def pale_border(image: np.ndarray) -> bool:
    """Whether every side of the frame runs along a card's plain margin (FRAME_RING_*):
    the sign that the photo is a card filling the frame."""
    if image.ndim < 3 or image.shape[2] < 3:
        return False
    h, w = image.shape[:2]
    d = max(2, round(FRAME_RING_DEPTH * min(h, w)))
    if min(h, w) < 8 * d:
        return False
    x0, x1 = round(w * (1 - FRAME_RING_SPAN) / 2), round(w * (1 + FRAME_RING_SPAN) / 2)
    y0, y1 = round(h * (1 - FRAME_RING_SPAN) / 2), round(h * (1 + FRAME_RING_SPAN) / 2)
    strips = []
    for strip in (image[:d, x0:x1], image[h - d:, x0:x1], image[y0:y1, :d],
                  image[y0:y1, w - d:]):
        # (saturation first, a side at a time: a table of wood, felt or cloth fails here,
        # before the frame's highlights are measured)
        hsv = cv2.cvtColor(np.ascontiguousarray(strip), cv2.COLOR_BGR2HSV)
        if np.mean(hsv[..., 1] <= FRAME_RING_SAT) < FRAME_RING_PALE:
            return False
        strips.append(hsv)
    few = cv2.cvtColor(np.ascontiguousarray(image[::4, ::4]), cv2.COLOR_BGR2GRAY)
    cum = np.cumsum(cv2.calcHist([few], [0], None, [256], [0, 256]).ravel())
    light = FRAME_RING_LIGHT * float(np.searchsorted(cum, 0.99 * cum[-1]))  # 99th pct
    for s in strips:
        if np.mean((s[..., 1] <= FRAME_RING_SAT) & (s[..., 2] >= light)) < FRAME_RING_PALE:
            return False
    return True


def _clear_of_edges(corners: np.ndarray, w: int, h: int, margin: float) -> bool:
    xs, ys = corners[:, 0], corners[:, 1]
    return bool(xs.min() >= margin and ys.min() >= margin and xs.max() <= w - 1 - margin
                and ys.max() <= h - 1 - margin)


def colour_named(deck: str, label: str) -> bool:
    """Whether only its colour tells this card from another of the deck (UNO's wild cards
    are black whatever their printing; every card of the standard pack has a red twin)."""
    return deck in COLOUR_SPLIT and not (deck == "uno" and label.startswith("wild"))


@dataclass
class Card:
    label: str | None
    confidence: float
    corners: np.ndarray  # (4, 2) float, image pixels, TL TR BR BL of the portrait card
    best: str | None = None
    signature: tuple[float, ...] | None = None  # coarse colour layout, to compare cards
    partial: bool = False  # only part of the card was in view (no whole outline found)
    gainsaid: bool = False  # its pips (count, colour or shapes) gainsay ``best``: unsure

    def to_json(self) -> dict:
        return {"label": self.label, "confidence": round(float(self.confidence), 4),
                "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners]}

    @property
    def centre(self) -> tuple[float, float]:
        c = self.corners.mean(axis=0)
        return float(c[0]), float(c[1])


def signature(crop: np.ndarray) -> tuple[float, ...]:
    """A card's look in 24 numbers (a 2x4 grid of mean Lab colour of the portrait crop,
    turned so it reads the same either way up): lets a game tell whether the top of a pile
    changed even for an unsure or taught card. Compare with ``signature_distance``."""
    lab = cv2.cvtColor(cv2.resize(crop, (2, 4), interpolation=cv2.INTER_AREA),
                       cv2.COLOR_BGR2LAB).astype(np.float32)
    turned = lab[::-1, ::-1]
    grid = lab if tuple(lab.ravel()) <= tuple(turned.ravel()) else turned
    return tuple(round(float(v), 1) for v in grid.ravel())


def signature_distance(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """Mean absolute Lab difference (0..255); same card under the same light: below ~12."""
    return float(np.abs(np.asarray(a) - np.asarray(b)).mean())


def _frame_as_part(image: np.ndarray) -> Quad:
    """The whole frame as the upper part of a card held up to the camera: a card held so
    close that it fills the frame shows its top and sides near the frame's edges and runs
    off at the bottom, with no outline or lone coloured body to box (a wild +4's coloured
    figures are found instead). Read like the part a hand hides in training
    (tools/train_vision_cnn.part_of), and named only at the stricter threshold for parts."""
    h, w = image.shape[:2]
    return Quad(np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]]), 1.0,
                partial=True)


def _once_in_part(cards: list[Card]) -> list[Card]:
    """Every card named from a part of it but the surest of each name is dropped: the
    boxes of a hand-held close-up (its coloured body, its top and sides, the first pass's)
    are views of one card, and a yellow 1 read from two of them at 0.91 and 1.0 was named
    twice. (Cards seen whole may share a name: an UNO deck holds two of most cards.)"""
    best: dict[str, Card] = {}
    for c in cards:
        if c.partial and c.label is not None and (
                c.label not in best or c.confidence > best[c.label].confidence):
            best[c.label] = c
    return [c for c in cards if not (c.partial and c.label is not None)
            or best[c.label] is c]


def _within_packs(cards: list[Card], packs: int) -> list[Card]:
    """The cards, each name (``ONE_A_PACK_SPARED`` apart) kept on the ``packs`` surest of
    the cards it was given to, the others left unsure (``ONE_A_PACK``)."""
    given: dict[str, int] = {}
    out = list(cards)
    for i in sorted(range(len(cards)), key=lambda i: -cards[i].confidence):
        label = cards[i].label
        if label is None or label in ONE_A_PACK_SPARED:
            continue
        given[label] = given.get(label, 0) + 1
        if given[label] > packs:
            out[i] = replace(cards[i], label=None)
    return out


def _keep_surer(quads: list[Quad], crops: list[np.ndarray], verdicts: list,
                which: list[int], turned: list[Quad], across: list[np.ndarray],
                read: list) -> None:
    """In place: quad ``which[k]`` takes its reading across (``turned[k]``, its crop and
    verdict) where that one is a card and the first is not, or is surer."""
    for k, i in enumerate(which):
        a, b = verdicts[i], read[k]
        if (b.is_card, b.confidence) > (a.is_card, a.confidence):
            quads[i], crops[i], verdicts[i] = turned[k], across[k], b


def _wide(corners: np.ndarray) -> float:
    """How much wider than tall a quad ordered as the image shows it (TL TR BR BL) is: its
    top and bottom sides' mean over its left and right sides' mean."""
    c = np.asarray(corners, np.float64)
    side = np.linalg.norm(np.roll(c, -1, axis=0) - c, axis=1)
    return float((side[0] + side[2]) / max(side[1] + side[3], 1e-6))


def _within(corners: np.ndarray, point: tuple[float, float]) -> bool:
    return cv2.pointPolygonTest(corners.reshape(-1, 1, 2).astype(np.float32), point,
                                False) > 0


def holds(corners: np.ndarray, card: Card) -> bool:
    """Whether ``card``'s centre lies within ``corners``."""
    return _within(corners, card.centre)


def _printed_figure(corners: np.ndarray, card: Card) -> bool:
    """Whether ``card`` is small and in the middle of the quad ``corners`` as a figure
    printed on a card is (PRINTED_SHARE, PRINTED_OFF): a named "card" that the enclosing
    quad does not give way to. Shrunk to 320 pixels wide, the inside of a green 5's big
    numeral (18 pixels wide) was named a red 5 at 0.9996, and the card around it, dropped
    for holding it, was never read (it reads green 5 at 1.0)."""
    outer = float(cv2.contourArea(corners.astype(np.float32)))
    inner = float(cv2.contourArea(card.corners.astype(np.float32)))
    if outer <= 0 or inner >= PRINTED_SHARE * outer:
        return False
    off = float(np.hypot(*(card.corners.mean(axis=0) - corners.mean(axis=0))))
    diag = float(np.hypot(*(corners.max(axis=0) - corners.min(axis=0))))
    return off <= PRINTED_OFF * diag


def _centre_within(corners: np.ndarray, other: np.ndarray) -> bool:
    """Whether the centre of the quad ``other`` lies within ``corners``."""
    cx, cy = other.mean(axis=0).tolist()
    return _within(corners, (cx, cy))


def _indices_read(crops: list[np.ndarray], labels: list[str]) -> list[bool]:
    """Whether a corner index of each upright card of ``crops`` reads its name of ``labels``
    (at ``INDEX_UPHOLDS``), by the standard pack's corner reader, in one pass (none trained:
    no)."""
    from vision import corner_index, fan

    if not crops or not corner_index.available():
        return [False] * len(crops)
    reads = fan.default_reader().read([p for c in crops for p in corner_index.crop_patches(c)])
    per = len(reads) // len(crops)
    return [any(r.best == label and r.confidence >= INDEX_UPHOLDS
                for r in reads[i * per:(i + 1) * per]) for i, label in enumerate(labels)]


def _gainsaid(image: np.ndarray, q: Quad, crop: np.ndarray, label: str, conf: float,
              doubted: bool) -> bool:
    """Whether a standard card named ``label`` at ``conf`` (whole, its quad ``q``, its crop
    ``crop``) is gainsaid by its pips: their count or colour where it is named under
    ``PIPS_GAINSAY_BELOW`` or ``doubted`` (a sure name of ``PIPS_ALWAYS_CHECKED`` that no
    corner index reads); where named under ``PIPS_GAINSAY_BELOW`` and the count is right, also
    their shapes, which may give the other suit of its colour (``pips.gainsaid_by_shapes``:
    a club's waist or notches; a spade, only those missing, never). Read by the shipped
    networks and the four leave-source-out builds, every standard photo here lost 6 wrong
    names to the shapes (spades at 0.5-0.9: the CC BY phone photos' clubs) and no right one;
    the card rectified finer and its pips cut out cost ~3 ms. The shapes are read on the
    card rectified to a card's shape, so a quad squarer than a card (a photo resized to
    640x640 squeezes its cards) is looked at too: the count must still be the name's (29 Nov,
    issue 33: on the CC BY photos, which their exporter squeezed so, a 2 and an 8 of clubs
    named spades at 0.74 and 0.56 left unsure, and with the notches a 2 of clubs named
    spades at 0.82 on a webcam scene; every shared photo, as taken, squeezed, widened, made
    taller, tilted, and dimmed, blurred, compressed..., read by the shipped networks and by
    three folds' networks that never learned it, named as before)."""
    shape = side_ratio(q.corners)
    unsure = conf < PIPS_GAINSAY_BELOW
    if (unsure or doubted) and gainsaid_by_pips(crop, label, shape):
        return True
    return unsure and label[:-1].isdigit() and shape <= CARD_SHAPED[1] \
        and gainsaid_by_shapes(rectify(image, q.corners, FINE), label)


def _red_suit_gainsaid(crop: np.ndarray, label: str) -> bool:
    """Whether a red number card or ace named ``label``, its crop blurred
    (``RED_SHAPE_BELOW``), shows pips of the other red suit's shape (``RED_HEART_MIRROR``...)."""
    rank, suit = label[:-1], label[-1]
    if suit not in "HD" or not (rank.isdigit() or rank == "A") or \
            sharpness(crop) >= RED_SHAPE_BELOW:
        return False
    mirror = red_mirror(crop, rank)
    if mirror is None:
        return False
    if suit == "H":
        return mirror >= (ACE_HEART_MIRROR if rank == "A" else RED_HEART_MIRROR)
    return mirror <= RED_DIAMOND_MIRROR


def _end_ink(crop: np.ndarray) -> tuple[float, float]:
    """The share of ink in the top and the bottom third of an upright card's crop: pixels
    60 grey levels darker than its paper (the 90th percentile) or saturated (red print)."""
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    sat = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV)[..., 1]
    paper = float(np.percentile(grey, 90))
    ink = (grey < paper - 60) | (sat > 90)
    band = max(1, int(0.3 * ink.shape[0]))
    return float(ink[:band].mean()), float(ink[-band:].mean())


def _inside(corners: np.ndarray, shape: tuple[int, ...]) -> bool:
    """Whether a quad lies within the image (a card top's guessed lower end may not)."""
    h, w = shape[:2]
    margin = TOPS_MARGIN * max(h, w)
    return bool((corners[:, 0] >= -margin).all() and (corners[:, 0] <= w + margin).all()
                and (corners[:, 1] >= -margin).all() and (corners[:, 1] <= h + margin).all())


def _worth_tops(cards: list[Card]) -> bool:
    """Whether a frame may hold a card no outline was found for (``_tops_look``): a corner
    index read unsure, or an unsure quad that is no single card (as big as
    ``TOPS_MERGED`` of the named cards', or not card-shaped: two cards joined). An unsure
    quad the size of a card is the card itself, which a top would find again."""
    whole = [cv2.contourArea(c.corners.astype(np.float32)) for c in cards
             if c.label is not None and not c.partial]
    usual = float(np.median(whole)) if whole else 0.0
    for c in cards:
        if c.label is not None:
            continue
        if c.partial or not usual or not CARD_SHAPED[0] <= side_ratio(c.corners) <= \
                CARD_SHAPED[1] or cv2.contourArea(c.corners.astype(np.float32)) > \
                TOPS_MERGED * usual:
            return True
    return False


class Identifier:
    """Finds and names every card of one deck in BGR images."""

    def __init__(self, deck: str, recogniser: Recogniser | None = None,
                 data_path: object = None, whole_fallback: bool = True,
                 overlaps: bool | None = None, packs: int | None = None) -> None:
        """``packs``: how many packs of the deck the photo may show, a card named no more
        often than that (``ONE_A_PACK``); None, no such rule."""
        self.deck = deck
        self.packs = packs
        self.recogniser = recogniser or get_recogniser(deck, data_path)
        self.whole_fallback = whole_fallback
        self.colour_bodies = looks_for_bodies(deck)
        # overlapping cards (a fanned Dou Di Zhu play) named from their corner index: the
        # standard pack, where a corner reader is trained (vision/fan.py); None = where one is
        if overlaps is None:
            from vision import corner_index

            overlaps = deck == "french" and corner_index.available()
        self.overlaps = overlaps

    def identify(self, image: np.ndarray, unmoved: UnmovedCards | None = None
                 ) -> list[Card]:
        """``unmoved``: a camera's cards named in the frames before, kept where they lie
        still (vision/unmoved.py; ``begin`` called for this frame)."""
        prepared: dict = {}  # the detector's working images, for the overlapping search
        # (wherever cards are looked for by their bodies too: UNO, where printed figures were
        # measured, and taught decks, whose white cards' dark pips and frames are bodies)
        enclosing: list[Quad] | None = [] if self.colour_bodies else None
        quads = find_cards(image, whole_fallback=self.whole_fallback,
                           colour_bodies=self.colour_bodies, keep=prepared,
                           enclosing=enclosing, wild_crescents=self.deck == "uno")
        kept = unmoved.kept(image, quads) if unmoved is not None else {}
        # A card seen only in part (a close-up cut by the frame or by fingers) is read from
        # a stretched piece of it: named only at the recogniser's stricter threshold for
        # parts, where it has one (on the held-out photos nearly every confident wrong name
        # came from such views, while cards seen whole had none).
        named = iter(self._named_each(image, *self._read(
            image, [q for i, q in enumerate(quads) if i not in kept])))
        each = [kept[i] if i in kept else next(named) for i in range(len(quads))]
        if unmoved is not None:
            unmoved.remember(image, quads, each, kept)
        cards = [c for c in each if c is not None]
        if enclosing:
            cards = self._enclosing(image, cards, enclosing)
        if self.whole_fallback and not any(q.whole and q.area_frac >= 1.0 for q in quads):
            cards = self._full_frame(image, cards)
        # (UNO only: measured there; a taught deck's reader has no stricter threshold for
        # cards seen in part)
        if self.deck == "uno" and self.whole_fallback and not any(
                c.confidence >= (PART_SURE if c.partial else SECOND_LOOK_BELOW) for c in cards):
            cards = self._second_look(image, cards)
        if self.deck == "uno":
            cards = _once_in_part(cards)
        if self.overlaps:
            cards = self._with_overlapping(image, cards, prepared)
        if self.deck == "french" and _worth_tops(cards):
            cards = self._tops_look(image, cards)
        # (where the detector left its working image: a stand-in detector leaves none)
        if self.deck == "french" and "gray" in prepared and not any(c.label for c in cards):
            cards = self._insides_look(image, cards, prepared)
        if self.deck in COLOUR_SPLIT and colourless(image):
            cards = [self._in_grey(image, c) for c in cards]
        if self.packs is not None and self.deck in ONE_A_PACK:
            cards = _within_packs(cards, self.packs)
        return cards

    def _in_grey(self, image: np.ndarray, card: Card) -> Card:
        """A card of a frame with no colour (``colourless``): a standard number card is
        named where its pips count the rank the networks read (named or guessed) and their
        shapes give its suit among all four (``pips.suit_in_grey``), at the share of the
        pips that agree (a spade only on a card ``GREY_SPADE_WIDE`` wide), unless it is
        blurred (``BLURRED_BELOW``: the standard photos made grey and blurred by 1% of the
        frame gave three spades of the jumbo-index printing to diamonds, their stems and
        points blurred away); any other card whose name holds its colour is left unsure
        (``COLOUR_SPLIT``)."""
        guess = card.label or card.best
        if self.deck == "french" and guess and guess[:-1].isdigit() and not card.partial \
                and sharpness(rectify(image, card.corners, (DETAIL_W, DETAIL_H))) >= BLURRED_BELOW:
            read = suit_in_grey(rectify(image, card.corners, FINE), int(guess[:-1]))
            if read is not None and (read[0] != "S" or card_width(card.corners) >= GREY_SPADE_WIDE):
                name = guess[:-1] + read[0]
                return replace(card, label=name, confidence=read[1], best=name)
        if card.label and colour_named(self.deck, card.label):
            return replace(card, label=None, confidence=card.confidence / COLOUR_SPLIT[self.deck])
        return card

    def _insides_look(self, image: np.ndarray, cards: list[Card], prepared: dict
                      ) -> list[Card]:
        """Where nothing was named, the card-shaped insides of the closed edges
        (``edge_insides``: a white card on a white desk under a shadow, on light wood whose
        grain runs into its outline), read as whole cards; the named ones are kept, once each
        name, and what they hold that was unsure goes. Card-shaped (``CARD_SHAPED``): a hole
        is a card by its shape alone, and on the CC BY webcam scenes as their exporter
        squeezed them (16:9 to a square) the squarer insides gave 6 right names and 8 wrong
        (a 2 of spades at 0.5, squeezed past where pips are counted to gainsay it), the
        card-shaped 3 and none. A court card or an ace from ``INSIDE_FACE_SURE``."""
        quads = [q for q in edge_insides(prepared)
                 if CARD_SHAPED[0] <= side_ratio(q.corners) <= CARD_SHAPED[1]]
        if not quads:
            return cards
        found = [c for c in self._named_each(image, *self._read(image, quads))
                 if c is not None and c.label is not None and (
                     c.label[:-1].isdigit() or c.confidence >= INSIDE_FACE_SURE)]
        keep: list[Card] = []
        for f in sorted(found, key=lambda f: -f.confidence):
            if all(f.label != k.label and not holds(k.corners, f) and not holds(f.corners, k)
                   for k in keep):
                keep.append(f)
        return keep + [c for c in cards if not any(
            holds(k.corners, c) or holds(c.corners, k) for k in keep)]

    def _tops_look(self, image: np.ndarray, cards: list[Card]) -> list[Card]:
        """A white card touching another or a lit table edge (light wood under a lamp) joins
        them in every mask, and no outline of it is found; but its top and two long sides
        are still straight edges (``held.card_tops``). Where that may be so
        (``_worth_tops``), such cards clear of the named ones are read as whole cards and
        kept where named at ``TOPS_SURE``; what they hold that was unsure goes. A name the
        frame already holds is not given again (one pack: the same card seen twice, along
        another pair of edges)."""
        named = [c for c in cards if c.label is not None]
        boxes = [q for q in card_tops(image, most=TOPS_MOST)
                 if _inside(q.corners, image.shape) and not any(
                     iou_box(q.corners, c.corners) >= TOPS_CLEAR or holds(q.corners, c)
                     or _centre_within(c.corners, q.corners) for c in named)]
        if not boxes:
            return cards
        whole = [replace(q, partial=False) for q in boxes]
        # (not a name the pips gainsaid of the card the box holds: seen along its tops, with
        # table around it, an eight the network calls a 9 has no pips counted to gainsay it)
        doubted = [c for c in cards if c.gainsaid]
        quads, crops, verdicts = self._read(image, whole)
        found = [f for f, crop in zip(self._named_each(image, quads, crops, verdicts), crops,
                                      strict=True)
                 if f is not None and f.label is not None and f.confidence >= TOPS_SURE
                 and not any(f.label == c.best and (holds(f.corners, c) or _centre_within(
                     c.corners, f.corners)) for c in doubted)
                 and min(_end_ink(crop)) >= TOPS_END_INK]
        keep: list[Card] = []
        for f in sorted(found, key=lambda f: -f.confidence):
            if all(iou_box(f.corners, k.corners) < TOPS_CLEAR and f.label != k.label
                   for k in keep) and all(f.label != c.label for c in named):
                keep.append(f)
        # (an unsure quad over two touching cards, or a corner of one read unsure, goes)
        rest = [c for c in cards if c.label is not None or not any(
            holds(k.corners, c) or iou_box(k.corners, c.corners) >= TOPS_REPLACE
            for k in keep)]
        return rest + keep

    def _named(self, image: np.ndarray, quads: list[Quad], crops: list[np.ndarray],
               verdicts: list) -> list[Card]:
        """The quads the recogniser calls cards, named where it is sure enough."""
        return [c for c in self._named_each(image, quads, crops, verdicts) if c is not None]

    def _named_each(self, image: np.ndarray, quads: list[Quad], crops: list[np.ndarray],
                    verdicts: list) -> list[Card | None]:
        """``_named``, a reading for each quad (None: no card, or a face-down one)."""
        part = getattr(self.recogniser, "part_threshold", None)
        floor = NAMED_WIDTH_FLOOR.get(self.deck, 0.0)
        # the sure names held to their pips (PIPS_ALWAYS_CHECKED) that no corner index reads
        # too (a name one reads stands whatever the pips): the corners asked first, of all at
        # once (a corner read is a quarter of a count of pips, and upholds nearly every
        # right name)
        sure = [i for i, (q, v) in enumerate(zip(quads, verdicts, strict=True))
                if self.deck == "french" and v.is_card and v.label is not None
                and not q.partial and v.confidence >= PIPS_GAINSAY_BELOW
                and v.label[:-1] in PIPS_ALWAYS_CHECKED]
        doubted = {i for i, yes in zip(sure, _indices_read(
            [crops[i] for i in sure], [verdicts[i].label for i in sure]), strict=True)
                   if not yes}
        cards: list[Card | None] = []
        for i, (q, v, c) in enumerate(zip(quads, verdicts, crops, strict=True)):
            if not v.is_card:
                cards.append(None)
                continue
            if self.deck == "uno" and (v.best or "").startswith(("wild", "red-")) and \
                    uno_back(c):
                cards.append(None)  # a face-down card (the draw pile) is no card to name
                continue
            label = None if q.partial and part is not None and v.confidence < part else v.label
            conf = v.confidence
            gainsaid = False
            if label is None and v.suits is not None and not q.partial:
                # a standard number card the networks are unsure of: its pips (vision/pips.py)
                pips = named_by_pips(c, v.suits, side_ratio(q.corners),
                                     rectify(image, q.corners, FINE))
                if pips is not None:
                    label, conf = pips
            elif self.deck == "french" and label is not None and not q.partial and \
                    _gainsaid(image, q, c, label, conf, i in doubted):
                label, gainsaid = None, True
            if q.whole and q.area_frac >= 1.0 and conf < WHOLE_FRAME_FLOOR:
                label = None
            if self.deck == "french" and label is not None and \
                    conf < BLURRED_SURE and sharpness(c) < BLURRED_BELOW:
                label = None
            if self.deck == "french" and label is not None and not q.partial and \
                    _red_suit_gainsaid(c, label):
                label, gainsaid = None, True
            if label is not None and floor and card_width(q.corners) < floor:
                label = None
            if self.deck == "french" and label is not None and label[-1] in "SC" and \
                    conf < SMALL_BLACK_SURE and card_width(q.corners) < SMALL_BLACK_BELOW:
                label = None
            cards.append(Card(label, conf, q.corners, label or v.best, signature(c), q.partial,
                              gainsaid))
        return cards

    def _full_frame(self, image: np.ndarray, cards: list[Card]) -> list[Card]:
        """A card filling the frame (see FRAME_RING_*): the whole frame read as one card
        replaces what was found inside it (its pips, its index) where it is named surer
        than any of them."""
        h, w = image.shape[:2]
        margin = FRAME_RING_DEPTH * min(h, w)
        if not CROP_ASPECT[0] <= max(h, w) / max(1, min(h, w)) <= CROP_ASPECT[1] or \
                sum(c.label is not None and _clear_of_edges(c.corners, w, h, margin)
                    for c in cards) >= FRAME_SCENE_CARDS or not pale_border(image):
            return cards
        corners = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
        found = self._named(image, *self._read(image, [Quad(order_portrait(corners), 1.0,
                                                             whole=True)]))
        # (a card found clear of the frame's edges and named as surely is a card in a scene;
        # one at the edge may be the card's own index corner, read as a card at 0.999)
        if not found or found[0].label is None or any(
                c.label is not None and c.confidence >= found[0].confidence
                and _clear_of_edges(c.corners, w, h, margin) for c in cards):
            return cards
        return [found[0]]

    def _enclosing(self, image: np.ndarray, cards: list[Card], enclosing: list[Quad]
                   ) -> list[Card]:
        """The detector drops a quad that holds another (a region of table around a card),
        but a card whose printing holds card-shaped figures (UNO's wild +4 and +2, the wild's
        disc) is dropped for its figures too. Where nothing inside such a quad is named, it
        is read; if the recogniser names it, it replaces the unsure cards inside it."""
        open_ = [q for q in enclosing
                 if not any(c.label is not None and holds(q.corners, c)
                            and not _printed_figure(q.corners, c) for c in cards)
                 ][:MAX_ENCLOSING]
        if not open_:
            return cards
        for found in self._named(image, *self._read(image, open_)):
            if found.label is None or any(c.label is not None and holds(found.corners, c)
                                          and not _printed_figure(found.corners, c)
                                          for c in cards):
                continue
            cards = [c for c in cards if not holds(found.corners, c)] + [found]
        return cards

    def _second_look(self, image: np.ndarray, cards: list[Card]) -> list[Card]:
        """No card sure: look again for a hand-held close-up, by its coloured body
        (``closeup_body``) and by its top and two sides (``held.card_tops``: fingers and a
        wall of the card's hue leave no outline), each read as a card seen in part. A box read
        sure (``PART_SURE``) replaces the cards it overlaps, if every sure box gives the same
        card (two boxes read apart are one confident mistake at least). Failing that, where
        nothing was read at even odds, the box read surest replaces them: a better guess for
        the phone to ask about, and named where it reaches the part threshold. (Taking the
        first box found instead, on half of uno_hemant's train photos left out of training,
        tools/measure_part_floor.py: 158 of 211 cards named and 33 best guesses wrong; the
        surest: 164 and 18; one wrong name either way.) Card tops are looked for where the
        body search found a region or the detector a card: an empty table gives neither,
        and the line segments cost ~3 ms a frame. (Only after a region: one card fewer on
        that half, a close-up's top whose coloured body joins the skin below it.)"""
        bodies = closeup_body(image)
        boxes = bodies
        if bodies or cards:
            boxes = [*bodies, *card_tops(image, frame_sides=FRAME_SIDE_TOPS),
                     _frame_as_part(image)]
        found = self._named(image, *self._read(image, boxes))
        sure = [f for f in found if f.confidence >= PART_SURE]
        if sure and len({f.best for f in sure}) == 1:
            pick = sure[0]
        elif found and not any(c.confidence >= SECOND_LOOK_BELOW for c in cards):
            pick = max(found, key=lambda f: f.confidence)
            if len({f.label for f in found if f.label}) > 1:  # two boxes named apart
                pick = replace(pick, label=None)
        else:
            return cards
        return [c for c in cards if iou_box(c.corners, pick.corners) < 0.3] + [pick]

    def _read(self, image: np.ndarray, quads: list[Quad]
              ) -> tuple[list[Quad], list[np.ndarray], list]:
        """Each quad's crop and verdict. A nearly square quad (a card in a photo stretched to
        another shape, as datasets resized to 640x640 are) may have its long side either way:
        it is read both ways and the surer reading kept, with its corners. So is a quad a
        little longer (``TILTED_TURN``) that is not read as a card, or unsure: seen from low
        down, a card can look wider than long (rdpong's tilted table: an ace of diamonds
        read along its longer side as "not a card" at 1.0); and a close-up's box wider than
        tall that is not read as a card (``SIDEWAYS_PART``: a tight crop of a card on its
        side)."""
        crops = [rectify(image, q.corners, (DETAIL_W, DETAIL_H)) for q in quads]
        # (not a close-up's box, kept upright as the image shows it: read across, its
        # confident mistakes were many)
        square = [i for i, q in enumerate(quads)
                  if not q.partial and side_ratio(q.corners) < SQUARISH]
        turned = [replace(quads[i], corners=quarter_turned(quads[i].corners)) for i in square]
        across = [rectify(image, q.corners, (DETAIL_W, DETAIL_H)) for q in turned]
        read = self._verdicts(crops + across, quads + turned)  # (one pass for both)
        n = len(quads)
        quads, verdicts = list(quads), list(read[:n])
        _keep_surer(quads, crops, verdicts, square, turned, across, read[n:])
        # (unsure: unnamed; a taught deck's and a built-in deck's confidences differ in scale)
        tilted = [i for i, q in enumerate(quads) if i not in square and not q.partial
                  and side_ratio(q.corners) < TILTED_TURN
                  and (not verdicts[i].is_card or verdicts[i].label is None)]
        sideways = [i for i, q in enumerate(quads) if q.partial and not verdicts[i].is_card
                    and _wide(q.corners) > SIDEWAYS_PART]
        if again := tilted + sideways:
            turned = [replace(quads[i], corners=quarter_turned(quads[i].corners))
                      for i in again]
            across = [rectify(image, q.corners, (DETAIL_W, DETAIL_H)) for q in turned]
            _keep_surer(quads, crops, verdicts, again, turned, across,
                        self._verdicts(across, turned))
        return quads, crops, verdicts

    def _verdicts(self, crops: list[np.ndarray], quads: list[Quad]) -> list:
        many = getattr(self.recogniser, "classify_many", None)
        if many is None:
            return [self.recogniser.classify(c) for c in crops]
        return many(crops, partial=[q.partial for q in quads])

    def _with_overlapping(self, image: np.ndarray, cards: list[Card], prepared: dict
                          ) -> list[Card]:
        """``cards`` and the cards of a fan, a spread row or an offset pile among them
        (``_overlapping``). An unsure card found whole that holds a corner index named there
        is the detector's one quad over several cards, or the same card read twice: it goes
        (counted as a card of its own, a fanned play gained a card). A named card holding no
        other name read at ``GROUP_READ`` is one card: what was read inside it goes. One
        holding such names is a row or a pile found as one quad: the names inside stand, and
        its own unless one of them repeats it (else it is the top card, whose own index was
        missed)."""
        fanned = self._overlapping(image, cards, prepared)
        read = [f for f in fanned if f.label is not None]
        kept = []
        for c in cards:
            inside = [f for f in read if holds(c.corners, f)]
            if c.label is not None and not any(f.label != c.label and f.confidence >= GROUP_READ
                                               for f in inside):
                # one card, searched for its shape: what was read inside it is its own
                # index, or a misreading of it (a squeezed photo's single card)
                fanned = [f for f in fanned if not holds(c.corners, f)]
                kept.append(c)
            elif not inside or (c.label is not None and c.label not in
                                {f.label for f in inside}):
                kept.append(c)
        return kept + fanned

    def _overlapping(self, image: np.ndarray, cards: list[Card], prepared: dict
                     ) -> list[Card]:
        """Cards of a fan, a spread row or an offset pile, each read from its visible corner
        index; the cards named whole are left out of that search (an unsure quad is not: it
        may be the detector's one wrong quad over a fan), unless less long than a card
        (``GROUP_SHAPED``): a spread row or a pile found as one quad is named, often
        surely, by the index at its corner. Their corners are those of the index patch, the
        only part of the card known to be in view."""
        from vision.fan import read_fan

        named = [c.corners for c in cards if c.label is not None and not c.partial
                 and side_ratio(c.corners) >= GROUP_SHAPED]
        floor = NAMED_WIDTH_FLOOR.get(self.deck, 0.0)
        # (the floor holds here too, on the card's width from the height the index was
        # read at: small cards left unsure above came back named from their index)
        return [Card(f.label if f.card_h / CARD_ASPECT >= floor else None, f.confidence,
                     f.corners, f.best, signature(rectify(image, f.corners, (16, 28))),
                     partial=True)
                for f in read_fan(image, exclude=named, prepared=prepared)]

    def warm_up(self) -> None:
        """Read a drawn table once, untimed: OpenCV's networks set up their buffers on the
        first forward pass of each batch size, which made the first photo's time ~80 ms
        against ~4 for the next (a camera pays that once; a photo's ``ms`` should not)."""
        from vision.recognise.builtin import DECKS
        from vision.synth import render_scene

        labels = list(DECKS.get(self.deck, ()))
        if labels:
            scene, _ = render_scene([(self.deck, labels[3]), (self.deck, labels[-5])], seed=1)
            self.identify(scene)
        self.identify(np.full((480, 640, 3), 128, np.uint8))

    def timed(self, image: np.ndarray) -> tuple[list[Card], float]:
        """The cards and the milliseconds spent finding and naming them."""
        t0 = time.perf_counter()
        cards = self.identify(image)
        return cards, (time.perf_counter() - t0) * 1000.0
