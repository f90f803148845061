"""A card's picture as a short vector: tells "the same picture in another frame" from "another
picture", for decks whose art the software was never told about (Versus).

The rectified portrait crop is inset (the outline wanders by a pixel or two), white-balanced
on its brightest pixels (warm lamps, a Pi camera's blue cast) and cut to the picture's own
box (so a crop at the card's outline and one at a printed frame inside it agree). Three
parts, each of a set size: a small grey thumbnail (contrast-normalised, so exposure drops
out), a coarser chroma thumbnail (Lab a, b, kept absolute: a red star is not a blue one) and
per-cell edge directions (the outlines a thumbnail blurs away).

A card lies on the table either way up, so the vector must not change when the crop is
turned 180 degrees. Each part ``T`` is split into its symmetric half ``S = (T + rT)/2``
(unchanged by the turn) and the size of its antisymmetric half ``|A| = |T - rT|/2`` (the
turn only negates ``A``); only the top half of each is kept, the rest being its mirror. The
vector is turn-invariant (exactly, but for resampling: above 0.99), continuous, and unit
length, so a plain cosine compares two (:func:`similarity`, as the Versus referee does).

Margins (``tests/vision/test_signature.py``, docs/games/versus.md): the same drawn picture in
two photos (other table, light, angle, blur, JPEG) scores median 0.97, different pictures
median 0.1; the tails meet near :data:`SAME` when the detector takes a printed frame for
the outline. Frame to frame of a card lying still it is above 0.98.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

GREY_W, GREY_H = 8, 12  # the grey thumbnail (portrait)
CHROMA_W, CHROMA_H = 4, 6  # the a, b thumbnails
INSET = 0.1  # of each side, cut off before shrinking (outlines wander, frames vary)
CHROMA_WEIGHT = 1.4  # the chroma part's norm for a fully saturated card (grey part: 1)
CHROMA_FULL = 20.0  # Lab a/b distance from neutral that counts as fully saturated
HOG_SIZE, HOG_CELLS, HOG_BINS = (32, 48), (4, 6), 6  # (w, h) pixels, (x, y) cells, bins
HOG_WEIGHT = 1.0  # the edge part's norm (grey part: 1)
INK_DELTA = 30.0  # Lab distance from the card's ground that counts as picture
INK_MIN = 0.02  # less picture than this: take the whole crop
SAME = 0.85  # similarity at or above which two signatures show the same picture
DIMS = GREY_W * GREY_H + 2 * CHROMA_W * CHROMA_H + HOG_CELLS[0] * HOG_CELLS[1] * HOG_BINS
WORK = (48, 64)  # the crop is first brought to this size (w, h)


def _white_balance(crop: np.ndarray) -> np.ndarray:
    """Scale each channel so its brightest 3% become neutral (the card's white border)."""
    flat = crop.reshape(-1, 3).astype(np.float32)
    top = np.percentile(flat, 97, axis=0)
    gain = np.clip(235.0 / np.maximum(top, 20.0), 0.5, 4.0)
    return np.clip(crop.astype(np.float32) * gain[None, None, :], 0, 255).astype(np.uint8)


def _split(t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(symmetric, antisymmetric) parts of a (h, w, c) thumbnail under the 180-degree turn."""
    turned = t[::-1, ::-1]
    return (t + turned) / 2.0, (t - turned) / 2.0


def _content(lab: np.ndarray) -> np.ndarray:
    """The picture's own box inside the crop: pixels unlike the crop's outer ring (the card's
    ground), from the 1st to the 99th percentile of their positions. So a crop taken at the
    card's outline and one taken at a printed frame inside it show the picture at the same
    scale. Symmetric under the turn; the whole crop when little stands out (full-bleed art)."""
    h, w = lab.shape[:2]
    ring = np.concatenate([lab[:2].reshape(-1, 3), lab[-2:].reshape(-1, 3),
                           lab[:, :2].reshape(-1, 3), lab[:, -2:].reshape(-1, 3)])
    ground = np.median(ring, axis=0)
    ink = np.linalg.norm(lab - ground[None, None, :], axis=2) > INK_DELTA
    ys, xs = np.nonzero(ink)
    if len(ys) < INK_MIN * h * w:
        return lab
    y0, y1 = np.percentile(ys, [1, 99])
    x0, x1 = np.percentile(xs, [1, 99])
    my, mx = 0.04 * h, 0.04 * w
    y0, y1 = max(0, int(y0 - my)), min(h, int(np.ceil(y1 + my)) + 1)
    x0, x1 = max(0, int(x0 - mx)), min(w, int(np.ceil(x1 + mx)) + 1)
    if y1 - y0 < h // 4 or x1 - x0 < w // 4:
        return lab
    return lab[y0:y1, x0:x1]


def _gradients(lum: np.ndarray) -> np.ndarray:
    """Edge directions per cell (HOG-like): the outline of the picture's shapes and of its
    numerals, which a coarse thumbnail blurs away. Unsigned directions do not change when the
    card is turned, only the cells' order does. Square-rooted, then scaled to HOG_WEIGHT."""
    lum = cv2.resize(lum, HOG_SIZE, interpolation=cv2.INTER_AREA)
    gx = cv2.Sobel(lum, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(lum, cv2.CV_32F, 0, 1, ksize=3)
    mag, ang = cv2.cartToPolar(gx, gy)
    bins = (np.mod(ang, np.pi) * (HOG_BINS / np.pi)).astype(np.int32) % HOG_BINS
    h, w = lum.shape
    cy = np.minimum(np.arange(h) * HOG_CELLS[1] // h, HOG_CELLS[1] - 1)
    cx = np.minimum(np.arange(w) * HOG_CELLS[0] // w, HOG_CELLS[0] - 1)
    idx = ((cy[:, None] * HOG_CELLS[0] + cx[None, :]) * HOG_BINS + bins).ravel()
    hist = np.bincount(idx, mag.ravel(), HOG_CELLS[0] * HOG_CELLS[1] * HOG_BINS)
    hist = np.sqrt(hist.reshape(HOG_CELLS[1], HOG_CELLS[0], HOG_BINS))
    hist = hist - hist.mean()
    return hist * (HOG_WEIGHT / (np.linalg.norm(hist) + 1e-6))


def compute(crop: np.ndarray) -> tuple[float, ...]:
    """The signature of a rectified portrait card crop (BGR, any size): unit length."""
    if crop.ndim != 3 or crop.shape[0] < 8 or crop.shape[1] < 8:
        raise ValueError("a BGR card crop is needed")
    h, w = crop.shape[:2]
    dy, dx = round(h * INSET), round(w * INSET)
    inner = cv2.resize(crop[dy:h - dy, dx:w - dx], WORK, interpolation=cv2.INTER_AREA)
    inner = cv2.GaussianBlur(_white_balance(inner), (5, 5), 0)
    lab = cv2.cvtColor(inner, cv2.COLOR_BGR2LAB).astype(np.float32)
    lab = _content(lab)
    grey = cv2.resize(lab[..., 0], (GREY_W, GREY_H), interpolation=cv2.INTER_AREA)
    grey = (grey - grey.mean()) / (grey.std() + 4.0)  # +4: a blank card stays near zero
    grey = grey / (np.linalg.norm(grey) + 1e-6)
    chroma = cv2.resize(lab[..., 1:], (CHROMA_W, CHROMA_H), interpolation=cv2.INTER_AREA)
    chroma = (chroma - 128.0) / (CHROMA_FULL * np.sqrt(CHROMA_W * CHROMA_H))
    chroma = chroma * CHROMA_WEIGHT
    parts = []
    for t in (grey[..., None], chroma, _gradients(lab[..., 0])):
        s, a = _split(t)
        half = t.shape[0] // 2
        # the turn negates A: keep its size per place (centred), not its sign
        size = np.abs(a[:half])
        parts += [s[:half].ravel(), (size - size.mean()).ravel()]
    vec = np.concatenate(parts)
    vec = vec / (np.linalg.norm(vec) + 1e-9)
    return tuple(round(float(v), 4) for v in vec)


def of_card(image: np.ndarray, corners: np.ndarray) -> tuple[float, ...]:
    """The signature of the card at ``corners`` (TL, TR, BR, BL) in a BGR frame."""
    from vision.detect import rectify

    return compute(rectify(image, corners, (WORK[0] * 2, WORK[1] * 2)))


def similarity(a: Sequence[float] | None, b: Sequence[float] | None) -> float:
    """Cosine similarity (-1..1); -1 when either is missing or they differ in length."""
    if a is None or b is None or len(a) != len(b) or not len(a):
        return -1.0
    va, vb = np.asarray(a, np.float64), np.asarray(b, np.float64)
    na, nb = np.linalg.norm(va), np.linalg.norm(vb)
    if na == 0 or nb == 0:
        return -1.0
    return float(va @ vb / (na * nb))


def same_picture(a: Sequence[float] | None, b: Sequence[float] | None,
                 threshold: float = SAME) -> bool:
    return similarity(a, b) >= threshold


class UnnamedCards:
    """The recogniser for a deck whose art nobody told the software about (Versus): every
    card the detector finds is a card, and none is named (the watcher and the game compare
    them by signature). When the table taught the deck, its confident names are used."""

    def __init__(self, taught: object = None) -> None:
        self.taught = taught

    def classify(self, crop: np.ndarray, partial: bool = False) -> object:
        from vision.recognise import Verdict

        if self.taught is not None:
            many = getattr(self.taught, "classify_many", None)
            v = many([crop], partial=[partial])[0] if many is not None else \
                self.taught.classify(crop)  # type: ignore[attr-defined]
            if v.label is not None:
                return v
            return Verdict(None, float(v.confidence) if v.is_card else 0.0, True, v.best)
        return Verdict(None, 0.0, True, None)

    def classify_many(self, crops: list[np.ndarray], partial: list[bool] | None = None
                      ) -> list[object]:
        """Each crop's verdict, told which crops show only part of a card."""
        partial = partial or [False] * len(crops)
        return [self.classify(c, p) for c, p in zip(crops, partial, strict=True)]


CARD_RATIO = (0.58, 0.88)  # short side / long side of a card (63 x 88 mm: 0.72), any view
MIN_STD = 8.0  # grey spread of a crop below which it is a bare surface, not a card


def plausible_card(image: np.ndarray, corners: np.ndarray) -> bool:
    """Whether a quad found in the frame can be a card of unknown art: card proportions,
    corners near square, and something printed on it. A recogniser of known art rejects
    table patches, shadows and boxes itself; a deck nobody taught cannot, so this does."""
    from vision.detect import rectify

    p = np.asarray(corners, np.float64)
    sides = [float(np.linalg.norm(p[(i + 1) % 4] - p[i])) for i in range(4)]
    short, long_ = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    if long_ <= 0 or not CARD_RATIO[0] <= min(short, long_) / max(short, long_) <= CARD_RATIO[1]:
        return False
    for i in range(4):
        a, b = p[i - 1] - p[i], p[(i + 1) % 4] - p[i]
        cos = abs(float(a @ b)) / (np.linalg.norm(a) * np.linalg.norm(b) + 1e-9)
        if cos > 0.34:  # a corner further than 20 degrees from square
            return False
    grey = cv2.cvtColor(rectify(image, p.astype(np.float32), (32, 48)), cv2.COLOR_BGR2GRAY)
    return float(grey.std()) >= MIN_STD


def unknown_art_identifier(deck: str, data_path: object = None) -> object:
    """An :class:`vision.identify.Identifier` for a deck whose art is unknown (Versus): every
    plausible card is found and named only as far as the table taught ``deck``. No whole-
    frame fallback: an empty table must not pass for one big card."""
    from vision.identify import Identifier

    class UnknownArtIdentifier(Identifier):
        def identify(self, image: np.ndarray, unmoved: object = None) -> list:
            return [c for c in super().identify(image, unmoved) if c.label is not None
                    or plausible_card(image, c.corners)]

    ident = UnknownArtIdentifier("taught", unnamed_or_taught(deck, data_path),
                                 data_path=data_path, whole_fallback=False)
    ident.deck = f"taught:{deck}"
    return ident


def unnamed_or_taught(deck: str, data_path: object = None) -> UnnamedCards:
    """Cards of ``deck`` named only as far as the table taught them (nothing taught: none)."""
    from vision.recognise.taught import TaughtRecogniser
    from vision.store import DeckStore

    store = DeckStore(data_path) if data_path is not None else DeckStore.default()
    try:
        taught = TaughtRecogniser.from_store(store, deck)
    except ValueError:  # not a name a deck can be taught under
        taught = None
    return UnnamedCards(taught)
