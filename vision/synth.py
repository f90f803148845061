"""Draw cards and table scenes with OpenCV primitives.

The project may not ship the shared photos, and no photos exist of jokers or of Huang Di
cards, so the replay camera's samples, the test fixtures, the benchmark scenes and part of
the training data are drawn here. The art is our own stylised version of each deck.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

CARD_PX = (250, 350)  # w, h of a drawn card (63 x 88 mm, like the real ones)
UNO_BGR = {"red": (40, 40, 215), "yellow": (20, 200, 240), "green": (70, 160, 40),
           "blue": (200, 90, 20)}
FONT = cv2.FONT_HERSHEY_DUPLEX
BOLD = cv2.FONT_HERSHEY_TRIPLEX


def _text(img: np.ndarray, text: str, centre: tuple[int, int], height: int,
          colour: tuple[int, int, int], thick: int | None = None, font: int = BOLD,
          rot180: bool = False, outline: tuple[int, int, int] | None = None) -> None:
    """Centred text of a given pixel height (optionally upside down, as on card corners)."""
    scale = height / 22.0
    thick = thick or max(1, int(scale * 2))
    (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    layer = np.zeros((th * 2 + 8, tw + 8, 3), np.uint8)
    mask = np.zeros(layer.shape[:2], np.uint8)
    org = (4, th + 4)
    if outline is not None:
        cv2.putText(layer, text, org, font, scale, outline, thick + 4, cv2.LINE_AA)
        cv2.putText(mask, text, org, font, scale, 255, thick + 4, cv2.LINE_AA)
    cv2.putText(layer, text, org, font, scale, colour, thick, cv2.LINE_AA)
    cv2.putText(mask, text, org, font, scale, 255, thick, cv2.LINE_AA)
    layer = layer[: th + 8 + 4]
    mask = mask[: th + 8 + 4]
    if rot180:
        layer, mask = layer[::-1, ::-1], mask[::-1, ::-1]
    _paste(img, mask, layer, centre)


def _paste(img: np.ndarray, mask: np.ndarray, ink: np.ndarray | tuple[int, int, int],
           centre: tuple[int, int]) -> None:
    """Blend ``ink`` (an image of the mask's size, or one colour) into ``img`` through
    ``mask`` (0-255), centred on ``centre`` and cut at the image's edges."""
    lh, lw = mask.shape
    x0, y0 = centre[0] - lw // 2, centre[1] - lh // 2
    x1, y1 = max(0, x0), max(0, y0)
    x2, y2 = min(img.shape[1], x0 + lw), min(img.shape[0], y0 + lh)
    if x2 <= x1 or y2 <= y1:
        return
    m = mask[y1 - y0:y2 - y0, x1 - x0:x2 - x0, None].astype(np.float32) / 255
    ink = ink[y1 - y0:y2 - y0, x1 - x0:x2 - x0] if isinstance(ink, np.ndarray) else \
        np.float32(ink)
    roi = img[y1:y2, x1:x2].astype(np.float32)
    img[y1:y2, x1:x2] = (roi * (1 - m) + ink * m).astype(np.uint8)


def _suit(img: np.ndarray, suit: str, centre: tuple[int, int], size: int,
          rot180: bool = False) -> None:
    """A suit symbol drawn from circles and polygons (spade, heart, diamond, club)."""
    x, y = centre
    s = size / 2
    red = (30, 30, 200)
    black = (25, 25, 25)
    sign = -1 if rot180 else 1
    if suit == "D":
        pts = np.array([[x, y - s], [x + 0.7 * s, y], [x, y + s], [x - 0.7 * s, y]], np.int32)
        cv2.fillPoly(img, [pts], red, cv2.LINE_AA)
    elif suit in ("H", "S"):
        col = red if suit == "H" else black
        d = sign * (1 if suit == "H" else -1)  # which way the point goes
        r = int(s * 0.5)
        cy = int(y - d * s * 0.3)
        cv2.circle(img, (int(x - s * 0.45), cy), r, col, -1, cv2.LINE_AA)
        cv2.circle(img, (int(x + s * 0.45), cy), r, col, -1, cv2.LINE_AA)
        pts = np.array([[x - s * 0.95, cy + d * s * 0.1], [x + s * 0.95, cy + d * s * 0.1],
                        [x, y + d * s]], np.int32)
        cv2.fillPoly(img, [pts], col, cv2.LINE_AA)
        if suit == "S":
            stem = np.array([[x, cy], [x - s * 0.3, y - d * s * 0.95],
                             [x + s * 0.3, y - d * s * 0.95]], np.int32)
            cv2.fillPoly(img, [stem], col, cv2.LINE_AA)
    else:  # clubs
        r = int(s * 0.38)
        cv2.circle(img, (int(x), int(y - sign * s * 0.45)), r, black, -1, cv2.LINE_AA)
        cv2.circle(img, (int(x - s * 0.42), int(y + sign * s * 0.05)), r, black, -1, cv2.LINE_AA)
        cv2.circle(img, (int(x + s * 0.42), int(y + sign * s * 0.05)), r, black, -1, cv2.LINE_AA)
        stem = np.array([[x, y], [x - s * 0.3, y + sign * s], [x + s * 0.3, y + sign * s]],
                        np.int32)
        cv2.fillPoly(img, [stem], black, cv2.LINE_AA)


def _blank(fill: tuple[int, int, int] = (245, 245, 245)) -> np.ndarray:
    w, h = CARD_PX
    return np.full((h, w, 3), fill, np.uint8)


PIPS = {  # pip positions on a 3-column grid, (col, row) with rows 0..6
    1: [(1, 3)], 2: [(1, 0), (1, 6)], 3: [(1, 0), (1, 3), (1, 6)],
    4: [(0, 0), (2, 0), (0, 6), (2, 6)], 5: [(0, 0), (2, 0), (1, 3), (0, 6), (2, 6)],
    6: [(0, 0), (2, 0), (0, 3), (2, 3), (0, 6), (2, 6)],
    7: [(0, 0), (2, 0), (1, 1.5), (0, 3), (2, 3), (0, 6), (2, 6)],
    8: [(0, 0), (2, 0), (1, 1.5), (0, 3), (2, 3), (1, 4.5), (0, 6), (2, 6)],
    9: [(0, 0), (2, 0), (0, 2), (2, 2), (1, 3), (0, 4), (2, 4), (0, 6), (2, 6)],
    10: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2), (0, 4), (2, 4), (1, 5), (0, 6), (2, 6)],
}


def draw_french(label: str) -> np.ndarray:
    img = _blank()
    w, h = CARD_PX
    if label in ("BJ", "RJ"):
        col = (25, 25, 25) if label == "BJ" else (30, 30, 200)
        for i, ch in enumerate("JOKER"):
            _text(img, ch, (24, 30 + i * 26), 24, col, font=FONT)
            _text(img, ch, (w - 24, h - 30 - i * 26), 24, col, font=FONT, rot180=True)
        cv2.circle(img, (w // 2, h // 2 - 30), 45, col, 4, cv2.LINE_AA)
        cv2.ellipse(img, (w // 2, h // 2 + 60), (60, 35), 0, 180, 360, col, -1, cv2.LINE_AA)
        for k in range(3):
            cv2.circle(img, (w // 2 - 40 + 40 * k, h // 2 - 95), 9, col, -1, cv2.LINE_AA)
        return img
    rank, suit = label[:-1], label[-1]
    col = (30, 30, 200) if suit in "HD" else (25, 25, 25)
    _text(img, rank, (24, 28), 28, col, font=FONT)
    _suit(img, suit, (24, 62), 22)
    _text(img, rank, (w - 24, h - 28), 28, col, font=FONT, rot180=True)
    _suit(img, suit, (w - 24, h - 62), 22, rot180=True)
    if rank in ("J", "Q", "K"):
        cv2.rectangle(img, (50, 45), (w - 50, h - 45), col, 2)
        cv2.rectangle(img, (58, 53), (w - 58, h // 2), (60, 160, 220), -1)
        cv2.rectangle(img, (58, h // 2), (w - 58, h - 53), (180, 80, 60), -1)
        _text(img, rank, (w // 2, h // 2 - 50), 70, col, outline=(255, 255, 255))
        _text(img, rank, (w // 2, h // 2 + 50), 70, col, outline=(255, 255, 255), rot180=True)
        _suit(img, suit, (w // 2, h // 2), 36)
        return img
    n = 1 if rank == "A" else int(rank)
    for cx, ry in PIPS[n]:
        px = int(w * 0.32 + cx * w * 0.18)
        py = int(h * 0.18 + ry * h * 0.64 / 6)
        _suit(img, suit, (px, py), 64 if n == 1 else 34, rot180=ry > 3)
    return img


def draw_uno(label: str) -> np.ndarray:
    w, h = CARD_PX
    img = _blank((250, 250, 250))
    colour, _, value = label.partition("-")
    wild = label.startswith("wild")
    if wild:
        value = label
    body = (20, 20, 20) if wild else UNO_BGR[colour]
    cv2.rectangle(img, (14, 14), (w - 15, h - 15), body, -1, cv2.LINE_AA)
    centre = (w // 2, h // 2)
    cv2.ellipse(img, centre, (90, 150), 30, 0, 360, (250, 250, 250), -1, cv2.LINE_AA)
    if wild:
        for k, c in enumerate(("red", "blue", "yellow", "green")):
            cv2.ellipse(img, centre, (80, 138), 30, 90 * k, 90 * (k + 1), UNO_BGR[c], -1,
                        cv2.LINE_AA)
    ink = body if not wild else (250, 250, 250)
    outline = (20, 20, 20)
    symbol = {"skip": "/", "reverse": "<>", "draw2": "+2", "wild": "", "wild-draw4": "+4",
              "wild-swap": "SW", "wild-custom": ""}.get(value, value)
    if value == "skip":
        cv2.circle(img, centre, 55, ink, 16, cv2.LINE_AA)
        cv2.line(img, (centre[0] - 38, centre[1] + 38), (centre[0] + 38, centre[1] - 38), ink,
                 16, cv2.LINE_AA)
    elif value == "reverse":
        for s in (1, -1):
            p1 = (centre[0] - 45 * s, centre[1] + 45 * s)
            p2 = (centre[0] + 35 * s, centre[1] - 35 * s)
            cv2.arrowedLine(img, p1, p2, ink, 16, cv2.LINE_AA, tipLength=0.5)
            centre = (centre[0] + 25 * s, centre[1] + 25 * s)
        centre = (w // 2, h // 2)
    elif value == "wild-custom":
        cv2.rectangle(img, (70, 130), (w - 70, h - 130), (250, 250, 250), -1)
    elif symbol:
        _text(img, symbol, centre, 95 if len(symbol) == 1 else 70, ink, outline=outline)
    corner = {"skip": "o", "reverse": "<>", "wild": "W", "wild-custom": ""}.get(value, symbol)
    if corner:
        _text(img, corner, (40, 42), 30, (250, 250, 250), outline=outline)
        _text(img, corner, (w - 40, h - 42), 30, (250, 250, 250), outline=outline, rot180=True)
    if value in ("6", "9"):
        cv2.line(img, (centre[0] - 28, centre[1] + 58), (centre[0] + 28, centre[1] + 58), ink, 9)
    return img


@dataclass(frozen=True)
class Printing:
    """One way a Huang Di deck may be printed (``draw_huangdi``): the real printing is not
    known, so the network learns the big numeral in many (``random_printing``), not ours."""

    font: int
    paper: tuple[int, int, int]
    ink: tuple[int, int, int]
    numeral: int  # the big numeral's height in pixels
    frame: int  # a rectangle inside the edge, this many pixels wide (0: none)
    corners: int  # the index printed in 0, 2 or 4 corners
    underline: bool  # 6 and 9 underlined (else only the corners' upright index tells them)
    body: tuple[int, int, int] | None  # a coloured body inside the white edge (ink then light)
    joker: str
    invert: str
    mark: bool  # a figure beside the word (a circle on the joker, two arrows on the invert)
    # how heavy the strokes are, 100 (a pen's line) to 900 (black): OpenCV 5 draws its own
    # faces at any weight; OpenCV 4 (a Raspberry Pi's) the Hershey strokes, thicker with it
    weight: int = 400

    def art(self, _deck: str, label: str) -> np.ndarray:
        """A card of this printing, drawn as ``render_scene``'s ``art`` draws one."""
        return draw_huangdi(label, self)


PRINTING_FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
                  cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
                  cv2.FONT_HERSHEY_SCRIPT_COMPLEX)
JOKER_WORDS = ("JOKER", "CORINGA", "CURINGA", "WILD", "JOKER!")
INVERT_WORDS = ("INVERTE", "INVERT", "INV", "REVERSE", "INVERSO")


def random_printing(rng: np.random.Generator) -> Printing:
    """A Huang Di printing drawn at random: font (with italics), paper and ink, the numeral's
    size, a frame, corner indices, 6 and 9 underlined or not, a coloured body, the words on
    the joker and the invert card."""
    body = None
    if rng.random() < 0.3:
        body = tuple(int(v) for v in rng.integers(20, 200, 3))
    paper = tuple(int(v) for v in rng.integers(215, 256, 3))
    ink = (tuple(int(v) for v in rng.integers(225, 256, 3)) if body is not None
           else tuple(int(v) for v in rng.integers(0, 150, 3)))
    font = int(rng.choice(PRINTING_FONTS)) | (cv2.FONT_ITALIC if rng.random() < 0.2 else 0)
    return Printing(font, paper, ink, int(rng.integers(80, 140)), int(rng.choice([0, 0, 3, 6])),
                    int(rng.choice([0, 2, 2, 4])), bool(rng.random() < 0.7), body,
                    str(rng.choice(JOKER_WORDS)), str(rng.choice(INVERT_WORDS)),
                    bool(rng.random() < 0.6), int(rng.integers(1, 10)) * 100)


def _inked(img: np.ndarray, text: str, centre: tuple[int, int], height: int,
           colour: tuple[int, int, int], p: Printing, rot180: bool = False,
           widest: int | None = None) -> None:
    """``text`` in printing ``p``'s face and weight, its ink ``height`` pixels tall (less
    where it would be wider than ``widest``), centred."""
    canvas = np.zeros((4 * height, 4 * height * max(1, len(text)) + 8), np.uint8)
    if hasattr(cv2, "FontFace"):  # OpenCV 5: its own faces, at any weight
        face = "italic" if p.font & cv2.FONT_ITALIC or p.font in (
            cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, cv2.FONT_HERSHEY_SCRIPT_COMPLEX) else "sans"
        cv2.putText(canvas, text, (4, 3 * height), 255, cv2.FontFace(face), height, p.weight)
    else:
        cv2.putText(canvas, text, (4, 3 * height), p.font, height / 22.0, 255,
                    max(1, round(height / 22.0 * p.weight / 250)), cv2.LINE_AA)
    ys, xs = np.nonzero(canvas)
    if not len(ys):
        return
    ink = canvas[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    w = max(1, round(ink.shape[1] * height / ink.shape[0]))
    if widest is not None and w > widest:
        height, w = max(1, round(height * widest / w)), widest
    ink = cv2.resize(ink, (min(w, img.shape[1]), height), interpolation=cv2.INTER_AREA)
    _paste(img, ink[::-1, ::-1] if rot180 else ink, colour, centre)


def _printed_huangdi(label: str, p: Printing) -> np.ndarray:
    w, h = CARD_PX
    img = _blank(p.paper)
    if p.body is not None:
        cv2.rectangle(img, (14, 14), (w - 15, h - 15), p.body, -1, cv2.LINE_AA)
    if p.frame:
        cv2.rectangle(img, (20, 20), (w - 21, h - 21), p.ink, p.frame)
    centre = (w // 2, h // 2)
    special = {"joker": p.joker, "invert": p.invert}.get(label)
    if special is None:
        _inked(img, label, centre, p.numeral, p.ink, p)
        if p.underline and label in ("6", "9"):
            cv2.line(img, (centre[0] - 25, centre[1] + p.numeral // 2 + 12),
                     (centre[0] + 25, centre[1] + p.numeral // 2 + 12), p.ink, 6)
    else:
        _inked(img, special, centre, 44, p.ink, p, widest=w - 50)
        if label == "joker":
            if p.mark:
                cv2.circle(img, (centre[0], centre[1] - 75), 28, p.ink, 4, cv2.LINE_AA)
        elif p.mark:
            cv2.arrowedLine(img, (60, centre[1] - 70), (w - 60, centre[1] - 70), p.ink, 6,
                            tipLength=0.2)
            cv2.arrowedLine(img, (w - 60, centre[1] + 70), (60, centre[1] + 70), p.ink, 6,
                            tipLength=0.2)
    index = {"joker": p.joker[0], "invert": p.invert[0]}.get(label, label)
    spots = [((34, 40), False), ((w - 34, h - 40), True), ((w - 34, 40), False),
             ((34, h - 40), True)][:p.corners]
    for at, turned in spots:
        _inked(img, index, at, 24, p.ink, p, rot180=turned)
    return img


def draw_huangdi(label: str, printing: Printing | None = None) -> np.ndarray:
    """Our own Huang Di art, or ``printing`` (one of many ways it may be printed: the real
    printing is not known, so tables should teach theirs)."""
    if printing is not None:
        return _printed_huangdi(label, printing)
    w, h = CARD_PX
    img = _blank((215, 235, 245))
    cv2.rectangle(img, (12, 12), (w - 13, h - 13), (30, 60, 150), 5)
    col = (20, 40, 140)
    if label == "joker":
        _text(img, "JOKER", (w // 2, h // 2), 40, (20, 20, 20))
        cv2.circle(img, (w // 2, h // 2 - 80), 35, (20, 120, 200), -1, cv2.LINE_AA)
        _text(img, "J", (30, 36), 30, col)
        _text(img, "J", (w - 30, h - 36), 30, col, rot180=True)
    elif label == "invert":
        _text(img, "INV", (w // 2, h // 2), 52, (120, 30, 120))
        cv2.arrowedLine(img, (60, h // 2 - 80), (w - 60, h // 2 - 80), (120, 30, 120), 8,
                        tipLength=0.2)
        cv2.arrowedLine(img, (w - 60, h // 2 + 80), (60, h // 2 + 80), (120, 30, 120), 8,
                        tipLength=0.2)
        _text(img, "I", (30, 36), 30, col)
        _text(img, "I", (w - 30, h - 36), 30, col, rot180=True)
    else:
        _text(img, label, (w // 2, h // 2), 110, col)
        _text(img, label, (30, 36), 30, col)
        _text(img, label, (w - 30, h - 36), 30, col, rot180=True)
        for k in range(int(label)):
            cv2.circle(img, (40 + k * 19, h - 80), 6, (30, 140, 200), -1, cv2.LINE_AA)
    return img


DRAW = {"uno": draw_uno, "french": draw_french, "huangdi": draw_huangdi}


def draw_uno_back(tilt: float = 30.0, ring: int = 0) -> np.ndarray:
    """The back of an UNO card (a face-down card: the draw pile), in our own style: a black
    card with a red oval leaning ``tilt`` degrees and the yellow UNO across it; ``ring``: a
    white line round the oval, this many pixels wide."""
    w, h = CARD_PX
    img = _blank((248, 248, 248))
    cv2.rectangle(img, (14, 14), (w - 15, h - 15), (22, 22, 22), -1, cv2.LINE_AA)
    centre = (w // 2, h // 2)
    cv2.ellipse(img, centre, (85, 145), tilt, 0, 360, (35, 35, 210), -1, cv2.LINE_AA)
    if ring:
        cv2.ellipse(img, centre, (85, 145), tilt, 0, 360, (250, 250, 250), ring, cv2.LINE_AA)
    word = np.zeros_like(img)
    _text(word, "UNO", centre, 60, (20, 205, 245), outline=(15, 15, 15))
    word = cv2.warpAffine(word, cv2.getRotationMatrix2D(centre, 90 - tilt, 1.0), (w, h))
    inked = word.sum(axis=2) > 0
    img[inked] = word[inked]
    return img


def draw_card(deck: str, label: str) -> np.ndarray:
    """A flat, upright BGR image of one card of a built-in deck."""
    return DRAW[deck](label)


def table_texture(kind: str, size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A table surface: 'wood' (light), 'cloth' (dark), 'white' or 'pattern' (checks)."""
    w, h = size
    if kind == "wood":
        x = np.linspace(0, 1, w, dtype=np.float32)[None, :]
        y = np.linspace(0, 1, h, dtype=np.float32)[:, None]
        grain = np.sin((x * 40 + np.sin(y * 6) * 1.5) * np.pi) * 0.5 + 0.5
        base = np.array([120, 170, 205], np.float32)
        img = base[None, None, :] * (0.85 + 0.15 * grain[..., None])
    elif kind == "cloth":
        img = np.full((h, w, 3), (45, 60, 35), np.float32)
    elif kind == "white":
        img = np.full((h, w, 3), (225, 228, 230), np.float32)
    else:
        yy, xx = np.mgrid[0:h, 0:w]
        checks = ((xx // 40 + yy // 40) % 2).astype(np.float32)
        img = np.stack([60 + 120 * checks, 60 + 40 * checks, 150 + 60 * checks], axis=-1)
    img = img + rng.normal(0, 6, img.shape).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


def place_card(scene: np.ndarray, card: np.ndarray, centre: tuple[float, float],
               height_px: float, angle_deg: float) -> np.ndarray:
    """Paste ``card`` rotated about ``centre``; returns its corners (TL, TR, BR, BL)."""
    ch, cw = card.shape[:2]
    s = height_px / ch
    src = np.array([[0, 0], [cw - 1, 0], [cw - 1, ch - 1], [0, ch - 1]], np.float32)
    a = np.deg2rad(angle_deg)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
    dst = (src - [cw / 2, ch / 2]) * s @ rot.T + np.asarray(centre, np.float32)
    m = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
    sh, sw = scene.shape[:2]
    warped = cv2.warpPerspective(card, m, (sw, sh), flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full((ch, cw), 255, np.uint8), m, (sw, sh))
    # a faint shadow and the card itself
    shadow = cv2.GaussianBlur(mask, (9, 9), 0)
    scene[:] = (scene.astype(np.float32) * (1 - 0.25 * shadow[..., None] / 255)).astype(np.uint8)
    scene[mask > 127] = warped[mask > 127]
    return dst.astype(np.float32)


def render_pile(top: str, under: list[str], table: str, seed: int, glare: int,
                deck: str = "uno") -> np.ndarray:
    """A discard pile as a table's camera sees it: ``under`` then ``top`` dropped on one
    spot of a 640x480 frame, each turned up to 40 degrees and shifted a little, cards
    110-170 pixels long, with a lamp's glare (seed ``glare``), at a camera's light (0.88 of
    the drawing's: its whites are pure 255, which only too much light gives a camera)."""
    rng = np.random.default_rng(seed)
    image = table_texture(table, (640, 480), rng).copy()
    size = rng.uniform(110, 170)
    for label in [*under, top]:
        place_card(image, draw_card(deck, label),
                   (320 + rng.uniform(-15, 15), 220 + rng.uniform(-15, 15)), size,
                   rng.uniform(-40, 40))
    image = add_glare(image, np.random.default_rng(glare), 25)
    return (cv2.GaussianBlur(image, (3, 3), 0).astype(np.float32) * 0.88).astype(np.uint8)


def render_scene(cards: list[tuple[str, str]], size: tuple[int, int] = (640, 480),
                 table: str = "wood", seed: int = 0, glare: bool = True,
                 card_height: float | None = None,
                 art: Callable[[str, str], np.ndarray] | None = None
                 ) -> tuple[np.ndarray, list[np.ndarray]]:
    """A table photo with ``cards`` ((deck, label) pairs) laid out apart, randomly turned;
    ``art`` draws a card (default ``draw_card``: our own art of each deck)."""
    rng = np.random.default_rng(seed)
    w, h = size
    scene = table_texture(table, size, rng)
    n = max(1, len(cards))
    cols = 1 if n == 1 else int(np.ceil(np.sqrt(n * w / h)))  # one card: mid-table
    rows = int(np.ceil(n / cols))
    cell_w, cell_h = w / cols, h / rows
    # the diagonal of a card turned any way must fit its cell, or neighbours would touch
    ch = card_height or (0.55 if n == 1 else 0.75) * min(cell_h, cell_w)
    corners = []
    for i, (deck, label) in enumerate(cards):
        cx = (i % cols + 0.5) * cell_w + rng.uniform(-0.06, 0.06) * cell_w
        cy = (i // cols + 0.5) * cell_h + rng.uniform(-0.06, 0.06) * cell_h
        corners.append(place_card(scene, (art or draw_card)(deck, label), (cx, cy), ch,
                                  rng.uniform(-180, 180) if n > 1 else rng.uniform(-25, 25)))
    if glare:
        scene = add_glare(scene, rng, 40)
    scene = cv2.GaussianBlur(scene, (3, 3), 0)
    return scene, corners


def add_glare(scene: np.ndarray, rng: np.random.Generator, strength: float) -> np.ndarray:
    """A lamp's reflection: a soft bright spot somewhere on the table (and the cards)."""
    h, w = scene.shape[:2]
    gx, gy = rng.uniform(0, w), rng.uniform(0, h)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    blob = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * (0.15 * w) ** 2))
    return np.clip(scene.astype(np.float32) + strength * blob[..., None], 0, 255
                   ).astype(np.uint8)


PICTURE_SHAPES = ("circle", "triangle", "square", "star", "moon", "diamond", "cross", "ring",
                  "arrow", "hexagon", "drop", "bolt")
PICTURE_COLOURS = ((40, 40, 215), (200, 90, 20), (70, 160, 40), (20, 190, 240),
                   (150, 40, 140), (20, 120, 240), (40, 40, 40), (170, 170, 40))


def _shape(img: np.ndarray, shape: str, centre: tuple[int, int], r: int,
           colour: tuple[int, int, int]) -> None:
    x, y = centre

    def poly(points: list[tuple[float, float]]) -> None:
        pts = np.array([[x + px * r, y + py * r] for px, py in points], np.int32)
        cv2.fillPoly(img, [pts], colour, cv2.LINE_AA)

    if shape == "circle":
        cv2.circle(img, centre, r, colour, -1, cv2.LINE_AA)
    elif shape == "ring":
        cv2.circle(img, centre, r, colour, max(3, r // 3), cv2.LINE_AA)
    elif shape == "triangle":
        poly([(0, -1), (0.95, 0.8), (-0.95, 0.8)])
    elif shape == "square":
        poly([(-0.8, -0.8), (0.8, -0.8), (0.8, 0.8), (-0.8, 0.8)])
    elif shape == "diamond":
        poly([(0, -1.1), (0.75, 0), (0, 1.1), (-0.75, 0)])
    elif shape == "star":
        a = np.deg2rad(np.arange(10) * 36 - 90)
        rad = np.where(np.arange(10) % 2 == 0, 1.0, 0.42)
        poly(list(zip(np.cos(a) * rad, np.sin(a) * rad, strict=True)))
    elif shape == "hexagon":
        a = np.deg2rad(np.arange(6) * 60)
        poly(list(zip(np.cos(a), np.sin(a), strict=True)))
    elif shape == "moon":
        cv2.circle(img, centre, r, colour, -1, cv2.LINE_AA)
        cv2.circle(img, (x + r // 2, y - r // 4), int(r * 0.85), (245, 245, 245), -1,
                   cv2.LINE_AA)
    elif shape == "cross":
        poly([(-0.3, -1), (0.3, -1), (0.3, -0.3), (1, -0.3), (1, 0.3), (0.3, 0.3), (0.3, 1),
              (-0.3, 1), (-0.3, 0.3), (-1, 0.3), (-1, -0.3), (-0.3, -0.3)])
    elif shape == "arrow":
        poly([(0, -1.1), (0.8, -0.2), (0.3, -0.2), (0.3, 1), (-0.3, 1), (-0.3, -0.2),
              (-0.8, -0.2)])
    elif shape == "drop":
        cv2.circle(img, (x, y + r // 4), int(r * 0.7), colour, -1, cv2.LINE_AA)
        poly([(0, -1.1), (0.62, 0.1), (-0.62, 0.1)])
    else:  # bolt
        poly([(0.2, -1.1), (-0.6, 0.15), (-0.05, 0.15), (-0.3, 1.1), (0.6, -0.2),
              (0.05, -0.2)])


def draw_picture(k: int) -> np.ndarray:
    """Picture card ``k`` of a made-up deck with distinct art per picture (as Versus cards
    have): a big coloured shape, a small second one near a corner, a frame. Pictures share
    shapes and colours with others, so telling them apart needs both."""
    w, h = CARD_PX
    img = _blank()
    shape = PICTURE_SHAPES[k % len(PICTURE_SHAPES)]
    colour = PICTURE_COLOURS[(k * 5 + k // len(PICTURE_SHAPES)) % len(PICTURE_COLOURS)]
    small = PICTURE_SHAPES[(k * 7 + 3) % len(PICTURE_SHAPES)]
    small_colour = PICTURE_COLOURS[(k * 3 + 1) % len(PICTURE_COLOURS)]
    cv2.rectangle(img, (12, 12), (w - 13, h - 13), colour, 4)
    _shape(img, shape, (w // 2, h // 2 + 10), 80, colour)
    _shape(img, small, (w // 4 if k % 2 else 3 * w // 4, 58), 26, small_colour)
    return img
