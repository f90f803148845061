#!/usr/bin/env python3
"""Train a learned card finder: a small fully convolutional network that marks, for a whole
frame, the inside of every card lying on top (each card's outline shrunk about its centre to
``SHRINK``), so that cards touching one another, or white cards on a white desk, would stay
apart where no threshold or edge map of the classical detector (vision/detect.py) parts them.

**Tried on 29 Nov and not shipped** (docs/vision.md, Known gaps: "A learned card finder"):
it marked drawn scenes well and real desks badly (the desk and a keyboard's keys marked with
the cards), and named no more cards on the CC BY webcam scenes or the shared folders. Kept
for the next try, which needs real tables under the cards.

It learns from licensed and project-made pictures only, so that every photo in
../shared/data stays a source it never saw:

- cards drawn by vision/synth.py (UNO in both wild designs, the standard pack, Huang Di in
  random printings, made-up picture cards) and real cards cut from licensed photos: the
  standard pack from ../shared/train/cadyze_cards_singles (CC BY 4.0) where the classical
  detector and the shipped reader found and named every labelled card, UNO from
  ../shared/data/uno_criscard_crops (MIT, tight crops);
- laid at random (apart, touching, overlapping, in rows, fans and piles; turned, seen at a
  slant, shaded), on drawn tables (wood, cloth, white and grey desks with keyboards, sheets
  of paper, knit, checks) and on those licensed single-card photos themselves, whose card is
  then marked too;
- with hands, keys and phones over and among them, uneven light, glare, blur, noise, JPEG.

../shared/train/cadyze_cards_scenes (many cards on a desk, the case this is for) is never
learned from: it measures.

Needs torch and onnx, as tools/train_vision_cnn.py does (a throw-away venv)::

    /tmp/tv/bin/python tools/train_card_finder.py --preview /tmp/finder-scenes
    /tmp/tv/bin/python tools/train_card_finder.py [--scenes 6000] [--epochs 10]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.cards import french_names, huangdi_names, uno_names  # noqa: E402
from vision import synth  # noqa: E402

SHARED = ROOT.parent / "shared"
SINGLES = SHARED / "train" / "cadyze_cards_singles"
UNO_CROPS = SHARED / "data" / "uno_criscard_crops"
IN_W, IN_H = 256, 192  # the network's input (a frame letterboxed into it)
STRIDE = 2  # its output is IN_W / STRIDE x IN_H / STRIDE
SHRINK = 0.8  # a card's mark: its outline shrunk about its centre to this
TEX_W, TEX_H = 160, 224  # a card's picture, portrait


# ---------------------------------------------------------------- real cards (licensed)

def real_cards(log=print) -> tuple[list[np.ndarray], list[tuple[np.ndarray, list[np.ndarray]]]]:
    """Card pictures cut from the licensed photos, and the single-card photos whose every
    labelled card the classical detector found and the shipped reader named (photo, quads)."""
    from vision.detect import rectify
    from vision.identify import Identifier

    crops: list[np.ndarray] = []
    photos: list[tuple[np.ndarray, list[np.ndarray]]] = []
    ident = Identifier("french", data_path="/nonexistent-finder", overlaps=False)
    meta = json.loads((SINGLES / "labels.json").read_text())
    for name, entries in sorted(meta["images"].items()):
        img = cv2.imread(str(SINGLES / name))
        if img is None:
            continue
        truth = {e["label"] for e in entries}
        cards = ident.identify(img)
        named = [c for c in cards if c.label]
        if not named or any(c.label not in truth for c in named) or \
                {c.label for c in named} != truth or len(cards) != len(named):
            continue
        for c in named:
            crops.append(rectify(img, c.corners, (TEX_W, TEX_H)))
        photos.append((img, [c.corners.astype(np.float32) for c in named]))
    log(f"standard cards cut from {SINGLES.name}: {len(crops)} ({len(photos)} photos)")
    n = 0
    for p in sorted(UNO_CROPS.glob("*")):
        img = cv2.imread(str(p))
        if img is None:
            continue
        if img.shape[1] > img.shape[0]:
            img = cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE)
        crops.append(cv2.resize(img, (TEX_W, TEX_H), interpolation=cv2.INTER_AREA))
        n += 1
    log(f"UNO cards from {UNO_CROPS.name}: {n}")
    return crops, photos


def drawn_cards(rng: np.random.Generator, n: int) -> list[np.ndarray]:
    """``n`` cards drawn by vision/synth.py, every deck and printing."""
    out = []
    uno, french, hd = uno_names(), french_names(), huangdi_names()
    for i in range(n):
        k = i % 5
        if k == 0:
            card = synth.draw_uno(str(rng.choice(uno)))
        elif k == 1:
            card = synth.draw_french(str(rng.choice(french)))
        elif k == 2:
            card = synth.draw_huangdi(str(rng.choice(hd)), synth.random_printing(rng))
        elif k == 3:
            card = synth.draw_picture(int(rng.integers(0, 200)))
        else:
            card = synth.draw_uno(str(rng.choice([x for x in uno if x.startswith("wild")])))
        out.append(cv2.resize(card, (TEX_W, TEX_H), interpolation=cv2.INTER_AREA))
    return out


# ---------------------------------------------------------------- tables

def _noise_field(rng: np.random.Generator, h: int, w: int, scale: float) -> np.ndarray:
    small = rng.normal(0, 1, (max(2, int(h / scale)), max(2, int(w / scale)))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def table(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A drawn table: wood, cloth, a white or grey desk, knit, checks, or a plain colour."""
    kind = rng.choice(["wood", "cloth", "desk", "desk", "knit", "checks", "plain", "dark"])
    if kind in ("wood", "cloth", "checks"):
        img = synth.table_texture({"checks": "pattern"}.get(kind, kind), (w, h), rng
                                  ).astype(np.float32)
        img *= rng.uniform(0.6, 1.3, 3)[None, None, :]
    elif kind == "desk":  # white or pale grey, faintly tinted: white cards' hardest case
        base = rng.uniform(185, 250) + rng.uniform(-10, 10, 3)
        img = np.ones((h, w, 3), np.float32) * base
        if rng.random() < 0.5:  # a keyboard along one side: rows of pale keys
            drawn = np.clip(img, 0, 255).astype(np.uint8)
            _keyboard(rng, drawn)
            img = drawn.astype(np.float32)
    elif kind == "knit":
        base = rng.uniform(120, 235, 3)
        a = rng.uniform(0, np.pi)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        u = xx * np.cos(a) + yy * np.sin(a)
        v = -xx * np.sin(a) + yy * np.cos(a)
        p = rng.uniform(3, 7)
        knit = np.sin(u / p * np.pi) * np.sin(v / (p * 1.6) * np.pi)
        img = base[None, None, :] * (0.8 + 0.2 * knit[..., None])
        img *= (1 + 0.15 * _noise_field(rng, h, w, 40))[..., None]
    elif kind == "dark":
        img = np.ones((h, w, 3), np.float32) * rng.uniform(10, 70, 3)
    else:
        img = np.ones((h, w, 3), np.float32) * rng.uniform(30, 230, 3)
    img += rng.normal(0, rng.uniform(1, 8), img.shape).astype(np.float32)
    img *= (1 + rng.uniform(0, 0.08) * _noise_field(rng, h, w, 16))[..., None]
    return img


def _keyboard(rng: np.random.Generator, img: np.ndarray) -> None:
    """Rows of pale keys with dark gaps and letters, across the bottom or the top."""
    h, w = img.shape[:2]
    key = rng.uniform(0.05, 0.09) * w
    rows = int(rng.integers(2, 5))
    top = h - rows * key * 1.05 if rng.random() < 0.7 else 0.0
    cv2.rectangle(img, (0, int(top)), (w, int(top + rows * key * 1.05)),
                  tuple(int(v) for v in rng.uniform(40, 200, 3)), -1)
    face = int(rng.uniform(170, 245))
    for r in range(rows):
        x = rng.uniform(-key, 0)
        while x < w:
            kw = key * rng.choice([1, 1, 1, 1.5, 2, 5])
            y0 = top + r * key * 1.05 + key * 0.06
            cv2.rectangle(img, (int(x + key * 0.06), int(y0)), (int(x + kw - key * 0.06),
                          int(y0 + key * 0.9)), (face, face, face), -1)
            if rng.random() < 0.7:
                cv2.putText(img, str(rng.choice(list("ABCDEFGHJKLMNPQRSTUVWXYZ"))),
                            (int(x + key * 0.3), int(y0 + key * 0.6)),
                            cv2.FONT_HERSHEY_SIMPLEX, key / 60, (60, 60, 60), 1)
            x += kw


# ---------------------------------------------------------------- a scene

def _card_quad(rng: np.random.Generator, centre: tuple[float, float], long_side: float,
               angle: float, slant: float) -> np.ndarray:
    """A card's corners (TL TR BR BL of its picture) laid at ``centre``, turned, slanted."""
    hh, hw = long_side / 2, long_side / 2 * rng.uniform(0.66, 0.74)
    pts = np.array([[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]], np.float32)
    pts += rng.uniform(-slant, slant, pts.shape).astype(np.float32) * long_side
    a = np.deg2rad(angle)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
    return pts @ rot.T + np.asarray(centre, np.float32)


def _layout(rng: np.random.Generator, n: int, w: int, h: int, long_side: float
            ) -> list[tuple[tuple[float, float], float]]:
    """Centres and angles: apart, in a row (touching or overlapping), a fan, a pile, a grid,
    or each beside the one before."""
    kind = rng.choice(["apart", "apart", "row", "fan", "pile", "grid", "touching"])
    out = []
    if kind == "row":
        x, y = rng.uniform(0.1, 0.5) * w, rng.uniform(0.2, 0.8) * h
        a = rng.uniform(-30, 30)
        step = long_side * rng.uniform(0.55, 0.9) * 0.7
        for _ in range(n):
            out.append(((x, y), a + rng.uniform(-4, 4) + (90 if rng.random() < 0.15 else 0)))
            x += step * np.cos(np.deg2rad(a))
            y += step * np.sin(np.deg2rad(a))
    elif kind == "fan":
        cx, cy = rng.uniform(0.3, 0.7) * w, rng.uniform(0.4, 0.8) * h
        spread = rng.uniform(6, 18)
        for i in range(n):
            a = (i - n / 2) * spread
            r = long_side * 0.45
            out.append(((cx + r * np.sin(np.deg2rad(a)), cy - r * np.cos(np.deg2rad(a))), a))
    elif kind == "pile":
        cx, cy = rng.uniform(0.3, 0.7) * w, rng.uniform(0.3, 0.7) * h
        for _ in range(n):
            out.append(((cx + rng.uniform(-0.2, 0.2) * long_side,
                         cy + rng.uniform(-0.2, 0.2) * long_side), rng.uniform(-60, 60)))
    elif kind == "grid":
        cols = max(1, int(np.ceil(np.sqrt(n * w / h))))
        gap = rng.uniform(0.75, 1.05)
        x0, y0 = rng.uniform(0.05, 0.2) * w, rng.uniform(0.1, 0.3) * h
        a0 = rng.uniform(-8, 8)
        for i in range(n):
            out.append(((x0 + (i % cols) * long_side * 0.72 * gap + long_side * 0.36,
                         y0 + (i // cols) * long_side * gap + long_side * 0.5),
                        a0 + rng.uniform(-5, 5)))
    elif kind == "touching":  # laid at random, but each beside the one before
        x, y = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h
        for _ in range(n):
            out.append(((x, y), rng.uniform(-180, 180)))
            a = rng.uniform(0, 2 * np.pi)
            x = float(np.clip(x + np.cos(a) * long_side * 0.8, 0, w))
            y = float(np.clip(y + np.sin(a) * long_side * 0.8, 0, h))
    else:
        for _ in range(n):
            out.append(((rng.uniform(0.05, 0.95) * w, rng.uniform(0.05, 0.95) * h),
                        rng.uniform(-180, 180)))
    return out


def _skin(rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.uniform(90, 200), rng.uniform(120, 210), rng.uniform(170, 250)],
                    np.float32)


def make_scene(rng: np.random.Generator, cards: list[np.ndarray],
               photos: list[tuple[np.ndarray, list[np.ndarray]]]
               ) -> tuple[np.ndarray, np.ndarray]:
    """One frame (IN_H x IN_W BGR) and its mark (IN_H/STRIDE x IN_W/STRIDE, 0/1)."""
    w, h = IN_W, IN_H
    oh, ow = h // STRIDE, w // STRIDE
    mark = np.zeros((oh, ow), np.uint8)
    quads: list[np.ndarray] = []  # every card's outline, in the frame's pixels
    if photos and rng.random() < 0.25:  # a licensed photo of a card on a real table
        img, qs = photos[int(rng.integers(len(photos)))]
        ph, pw = img.shape[:2]
        s = min(w / pw, h / ph) * rng.uniform(1.0, 1.6)
        tx, ty = rng.uniform(min(0, w - pw * s), 0), rng.uniform(min(0, h - ph * s), 0)
        m = np.array([[s, 0, tx], [0, s, ty]], np.float32)
        if rng.random() < 0.5:
            m = np.array([[-s, 0, w - tx], [0, s, ty]], np.float32)
        scene = cv2.warpAffine(img, m, (w, h), flags=cv2.INTER_AREA,
                               borderMode=cv2.BORDER_REFLECT).astype(np.float32)
        for q in qs:
            quads.append(cv2.transform(q.reshape(-1, 1, 2), m).reshape(4, 2))
    else:
        scene = table(rng, h, w)
    # the light over the table, on cards and table alike, comes at the end
    for _ in range(int(rng.choice([0, 0, 0, 1, 2]))):  # a sheet of paper under the cards:
        # white, bigger than a card, no print, often cut by the frame
        sheet = _card_quad(rng, (rng.uniform(0, w), rng.uniform(0, h)),
                           rng.uniform(0.5, 1.2) * h, rng.uniform(-90, 90), 0.0)
        cv2.fillPoly(scene, [sheet.astype(np.int32)],
                     tuple(float(v) for v in rng.uniform(200, 250) + rng.uniform(-8, 8, 3)))
    n = int(rng.choice([0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 14, 18]))
    long_side = rng.uniform(0.1, 0.45) * h * (1.0 if n < 8 else 0.7)
    slant = rng.choice([0.0, 0.02, 0.06])
    for (cx, cy), angle in _layout(rng, n, w, h, long_side):
        tex = cards[int(rng.integers(len(cards)))].astype(np.float32)
        tex = tex * rng.uniform(0.8, 1.1) + rng.uniform(-15, 15, 3)[None, None, :]
        ls = long_side * rng.uniform(0.9, 1.1)
        q = _card_quad(rng, (cx, cy), ls, angle + rng.choice([0, 180]), slant)
        src = np.array([[0, 0], [TEX_W - 1, 0], [TEX_W - 1, TEX_H - 1], [0, TEX_H - 1]],
                       np.float32)
        m = cv2.getPerspectiveTransform(src, q)
        warped = cv2.warpPerspective(tex, m, (w, h), flags=cv2.INTER_AREA)
        alpha = cv2.warpPerspective(np.ones((TEX_H, TEX_W), np.float32), m, (w, h),
                                    flags=cv2.INTER_LINEAR)
        # a card's shadow on what lies under it (faint, a little to one side)
        k = int(rng.integers(1, 4)) * 2 + 1
        off = rng.uniform(-2, 2, 2)
        sh = cv2.GaussianBlur(cv2.warpAffine(alpha, np.float32([[1, 0, off[0]], [0, 1, off[1]]]),
                                             (w, h)), (k, k), 0)
        scene *= (1 - rng.uniform(0.05, 0.35) * sh)[..., None]
        scene = scene * (1 - alpha[..., None]) + warped * alpha[..., None]
        quads.append(q)
    # things that are no card, over the cards: a hand, loose keys, a phone
    occluders: list[np.ndarray] = []
    for _ in range(int(rng.choice([0, 0, 1, 2, 3]))):
        kind = rng.choice(["hand", "key", "phone"])
        if kind == "hand":
            col = _skin(rng)
            c = (rng.uniform(0, w), rng.uniform(0, h))
            axes = (rng.uniform(0.08, 0.25) * w, rng.uniform(0.05, 0.12) * w)
            poly = cv2.ellipse2Poly((int(c[0]), int(c[1])), (int(axes[0]), int(axes[1])),
                                    int(rng.uniform(0, 180)), 0, 360, 10)
        else:
            col = (np.ones(3, np.float32) * (rng.uniform(150, 235) if kind == "key"
                                              else rng.uniform(5, 50)))
            side = rng.uniform(0.04, 0.1) * w if kind == "key" else rng.uniform(0.15, 0.3) * w
            poly = _card_quad(rng, (rng.uniform(0, w), rng.uniform(0, h)), side,
                              rng.uniform(-30, 30), 0.0)
            if kind == "key":  # square-ish
                c = poly.mean(axis=0)
                poly = (poly - c) * np.array([1.3, 0.95], np.float32) + c
            poly = poly.astype(np.int32)
        layer = np.zeros((h, w), np.float32)
        cv2.fillPoly(layer, [poly.reshape(-1, 1, 2).astype(np.int32)], 1.0)
        layer = cv2.GaussianBlur(layer, (3, 3), 0)
        shade = col[None, None, :] * (1 + 0.1 * _noise_field(rng, h, w, 10))[..., None]
        scene = scene * (1 - layer[..., None]) + shade * layer[..., None]
        occluders.append(poly.reshape(-1, 2).astype(np.float32))
    # the marks: each card's shrunk outline, cut by every card and thing above it
    for i, q in enumerate(quads):
        c = q.mean(axis=0)
        inner = (q - c) * SHRINK + c
        cv2.fillPoly(mark, [np.round(inner / STRIDE * 8).astype(np.int32)], 1, shift=3)
        for above in quads[i + 1:]:
            cv2.fillPoly(mark, [np.round(above / STRIDE * 8).astype(np.int32)], 0, shift=3)
    for poly in occluders:
        cv2.fillPoly(mark, [np.round(poly / STRIDE * 8).astype(np.int32)], 0, shift=3)
    # light, camera
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    g = rng.uniform(-0.35, 0.35, 2)
    scene *= (1 + g[0] * (xx / w - 0.5) + g[1] * (yy / h - 0.5))[..., None]
    scene *= rng.uniform(0.55, 1.25)
    scene = scene * rng.uniform(0.9, 1.1, 3)[None, None, :]
    if rng.random() < 0.4:
        gx, gy = rng.uniform(0, w), rng.uniform(0, h)
        blob = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * (rng.uniform(0.05, 0.2) * w) ** 2))
        scene += rng.uniform(20, 90) * blob[..., None]
    if rng.random() < 0.6:
        k = rng.uniform(0.3, 1.4)
        scene = cv2.GaussianBlur(scene, (0, 0), k)
    scene += rng.normal(0, rng.uniform(0, 8), scene.shape).astype(np.float32)
    out = np.clip(scene, 0, 255).astype(np.uint8)
    if rng.random() < 0.6:
        q = int(rng.integers(35, 90))
        out = cv2.imdecode(cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, q])[1], 1)
    if rng.random() < 0.5:  # a camera that saves a smaller frame, scaled up again
        f = rng.uniform(0.5, 0.9)
        out = cv2.resize(cv2.resize(out, (int(w * f), int(h * f)), interpolation=cv2.INTER_AREA),
                         (w, h), interpolation=cv2.INTER_LINEAR)
    return out, mark


def make_set(n: int, seed: int, cards: list[np.ndarray],
             photos: list[tuple[np.ndarray, list[np.ndarray]]]) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    xs = np.zeros((n, IN_H, IN_W, 3), np.uint8)
    ys = np.zeros((n, IN_H // STRIDE, IN_W // STRIDE), np.uint8)
    for i in range(n):
        xs[i], ys[i] = make_scene(rng, cards, photos)
    return xs, ys


# ---------------------------------------------------------------- the network

def build_net():
    import torch
    from torch import nn

    def cbr(i, o, s=1):
        return nn.Sequential(nn.Conv2d(i, o, 3, s, 1, bias=False), nn.BatchNorm2d(o),
                             nn.ReLU(inplace=True))

    def sep(i, o, s=1, d=1):  # depthwise then pointwise
        return nn.Sequential(nn.Conv2d(i, i, 3, s, d, dilation=d, groups=i, bias=False),
                             nn.BatchNorm2d(i), nn.ReLU(inplace=True),
                             nn.Conv2d(i, o, 1, bias=False), nn.BatchNorm2d(o),
                             nn.ReLU(inplace=True))

    def pw(i, o):
        return nn.Sequential(nn.Conv2d(i, o, 1, bias=False), nn.BatchNorm2d(o),
                             nn.ReLU(inplace=True))

    class Finder(nn.Module):
        def __init__(self):
            super().__init__()
            self.e1 = cbr(3, 12, 2)  # /2
            self.e2 = nn.Sequential(sep(12, 24, 2), sep(24, 24))  # /4
            self.e3 = nn.Sequential(sep(24, 48, 2), sep(48, 48, d=2))  # /8
            self.e4 = nn.Sequential(sep(48, 64, 2), sep(64, 64, d=2), sep(64, 64, d=4))  # /16
            self.d3 = nn.Sequential(pw(112, 32), sep(32, 32))
            self.d2 = nn.Sequential(pw(56, 16), sep(16, 16))
            self.d1 = nn.Sequential(pw(28, 8), sep(8, 8))
            self.out = nn.Conv2d(8, 1, 1)
            self.up = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False)

        def forward(self, x):
            x1 = self.e1(x)
            x2 = self.e2(x1)
            x3 = self.e3(x2)
            x4 = self.e4(x3)
            y = self.d3(torch.cat([self.up(x4), x3], 1))
            y = self.d2(torch.cat([self.up(y), x2], 1))
            y = self.d1(torch.cat([self.up(y), x1], 1))
            return self.out(y)

    return Finder()


def to_input(bgr: np.ndarray):
    """What the network reads: BGR as 0-1 floats, NCHW (``cv2.dnn.blobFromImage(frame,
    1 / 255)`` gives the same)."""
    import torch
    return torch.from_numpy(bgr).permute(0, 3, 1, 2).float() / 255.0


def train(args) -> None:
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(args.threads)
    t0 = time.time()
    real, photos = real_cards()
    rng = np.random.default_rng(args.seed)
    cards = real * 3 + drawn_cards(rng, args.drawn)
    print(f"{len(real)} real cards (x3) and {args.drawn} drawn; making {args.scenes} scenes")
    xs, ys = make_set(args.scenes, args.seed + 1, cards, photos)
    vx, vy = make_set(args.scenes // 10, args.seed + 2, cards, photos)
    print(f"scenes made in {time.time() - t0:.0f} s; mark share {ys.mean():.3f}")
    net = build_net()
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    steps = args.epochs * (len(xs) // args.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=steps,
                                                pct_start=0.15)
    for epoch in range(args.epochs):
        net.train()
        order = np.random.default_rng(epoch).permutation(len(xs))
        total = 0.0
        for b in range(len(xs) // args.batch):
            idx = order[b * args.batch:(b + 1) * args.batch]
            x, y = xs[idx], ys[idx]
            if epoch % 2:
                x, y = x[:, ::-1].copy(), y[:, ::-1].copy()
            xt = to_input(x)
            yt = torch.from_numpy(y).float()[:, None]
            logit = net(xt)
            p = torch.sigmoid(logit)
            dice = 1 - (2 * (p * yt).sum() + 1) / (p.sum() + yt.sum() + 1)
            loss = F.binary_cross_entropy_with_logits(logit, yt) + dice
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach())
        net.eval()
        with torch.no_grad():
            inter = union = 0.0
            for b in range(0, len(vx), 64):
                p = torch.sigmoid(net(to_input(vx[b:b + 64]))).numpy()[:, 0] > 0.5
                t = vy[b:b + 64] > 0
                inter += (p & t).sum()
                union += (p | t).sum()
        print(f"epoch {epoch + 1}/{args.epochs} loss {total / (len(xs) // args.batch):.4f} "
              f"val IoU {inter / max(union, 1):.3f} ({time.time() - t0:.0f} s)", flush=True)
    out = Path(args.out)
    net.eval()

    class WithSigmoid(torch.nn.Module):
        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def forward(self, x):
            return torch.sigmoid(self.inner(x))

    torch.onnx.export(WithSigmoid(net), torch.zeros(1, 3, IN_H, IN_W), str(out),
                      input_names=["frame"], output_names=["cards"], opset_version=13,
                      dynamo=False)
    meta = {"input": [IN_W, IN_H], "stride": STRIDE, "shrink": SHRINK,
            "trained": {"scenes": args.scenes, "epochs": args.epochs, "seed": args.seed,
                        "real_cards": len(real), "photos": len(photos), "drawn": args.drawn}}
    out.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n")
    print(f"wrote {out} ({time.time() - t0:.0f} s)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=6000)
    ap.add_argument("--drawn", type=int, default=600)
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--lr", type=float, default=4e-3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", default="/tmp/card_finder.onnx")
    ap.add_argument("--preview", help="write 16 scenes and their marks here and stop")
    args = ap.parse_args()
    if args.preview:
        real, photos = real_cards()
        rng = np.random.default_rng(args.seed)
        cards = real + drawn_cards(rng, 60)
        xs, ys = make_set(16, args.seed, cards, photos)
        Path(args.preview).mkdir(parents=True, exist_ok=True)
        for i, (x, y) in enumerate(zip(xs, ys, strict=True)):
            m = cv2.resize(y * 255, (IN_W, IN_H), interpolation=cv2.INTER_NEAREST)
            cv2.imwrite(f"{args.preview}/{i:02d}.png", np.hstack([x, cv2.merge([m, m, m])]))
        return
    train(args)


if __name__ == "__main__":
    main()
