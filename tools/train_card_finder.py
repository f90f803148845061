#!/usr/bin/env python3
"""Train a learned card finder: a small fully convolutional network that marks, for a whole
frame, the inside of every card lying on top (each card's outline shrunk about its centre to
``SHRINK``), so that cards touching one another, or white cards on a white desk, would stay
apart where no threshold or edge map of the classical detector (vision/detect.py) parts them.

**Tried twice on 29 Nov and not shipped** (docs/vision.md, Known gaps: "A learned card
finder"). Learned from drawn tables only (session 33) it marked real desks and keyboard keys
as cards. Learned also from real tables (session 34: ``--learn-scenes``, the CC BY webcam
scenes of some sittings, each card's outline had from its two corner-index boxes,
``scene_marks``) it marked 2.7 times as many of the lone cards of the sittings it never saw
as the classical detector found (tools/measure_real_tables.py --finder), but the product
named few more of them (the reader, not only the finder, falls short on that printing).

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
- with hands, keys and phones over and among them, uneven light, glare, blur, noise, JPEG;
- with ``--learn-scenes`` (names of CC BY scenes, e.g. ``20240627_11,20240627_12``: the
  morning sitting), those real tables too (``--scene-share`` of the scenes), turned, scaled
  and flipped, a few drawn cards laid over them. Only the cards lying alone are marked;
  where cards overlap, or a card shows one index, which lies on top is not boxed, and the
  network is taught nothing there (``UNKNOWN``). ``--measure-scenes`` names the sittings
  never learned, whose marks' IoU is printed each epoch.

Needs torch and onnx, as tools/train_vision_cnn.py does (a throw-away venv); ``--workers``
draws the scenes in that many processes, and a GPU is used where torch sees one (on the
lent H200, two 12000-scene, 20-epoch builds side by side took under 3 minutes; ``--budget``
stops training after the epoch that passes that many seconds)::

    /tmp/tv/bin/python tools/train_card_finder.py --preview /tmp/finder-scenes
    /tmp/tv/bin/python tools/train_card_finder.py [--scenes 6000] [--epochs 10] \
        [--learn-scenes 20240627_11,20240627_12 --measure-scenes 20240627_17,20240630]
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
SCENES = SHARED / "train" / "cadyze_cards_scenes"
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


# The CC BY scenes box each card's two corner indices. Where both of a card are boxed, its
# whole outline follows: the index's centre lies this share of the width and of the height
# in from its corner (measured on the cards the classical detector found, singles and
# scenes: 0.09-0.11 and 0.14), and a card is 63 x 88. The exporter stretched the webcam's
# 4:3 frames to 640 x 640 (the found cards' sides give 0.73-0.75).
INDEX_IN = (0.098, 0.14)
CARD_ASPECT = 63 / 88
SCENE_SQUEEZE = 0.75


def _box_centre(b: list[float]) -> tuple[float, float]:
    return (b[0] + b[2]) / 2, (b[1] + b[3]) / 2


def _outline_from_indices(c1: tuple[float, float], c2: tuple[float, float]) -> np.ndarray:
    """A card's outline (4, 2) from the centres of its two index boxes (unstretched frame):
    the one similarity that takes the card's two index centres onto them (a card is never
    mirrored; which box is which gives the same outline turned round)."""
    a, b = INDEX_IN
    p1, p2 = complex(a * CARD_ASPECT, b), complex((1 - a) * CARD_ASPECT, 1 - b)
    q1, q2 = complex(*c1), complex(*c2)
    k = (q2 - q1) / (p2 - p1)
    out = [k * (z - p1) + q1 for z in (0, CARD_ASPECT, CARD_ASPECT + 1j, 1j)]
    return np.float32([[z.real, z.imag] for z in out])


def scene_marks(entries: list[dict], squeeze: float = SCENE_SQUEEZE
                ) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """From a CC BY scene's index boxes (640 x 640 as exported), in the frame made 4:3 again
    (its height times ``squeeze``): the outlines of the cards that lie alone (both indices
    boxed, overlapping no other card and holding no other card's index), and the regions
    whose marks are unknown (cards that overlap, a card with one index in view: which lies
    on top is not boxed), as polygons; the network is taught nothing there."""
    by: dict[str, list[tuple[float, float]]] = {}
    for e in entries:
        x, y = _box_centre(e["box"])
        by.setdefault(e["label"], []).append((x, y * squeeze))
    pairs, lone = [], []
    for pts in by.values():
        if len(pts) == 2:
            pairs.append(_outline_from_indices(*pts))
        else:
            lone += pts
    unknown: list[np.ndarray] = []
    diag = float(np.median([np.linalg.norm(q[2] - q[0]) for q in pairs])) if pairs else 0.0
    alone = []
    for q in pairs:  # two boxes of one name far apart or close: two cards of that name
        (alone if 0.7 * diag < np.linalg.norm(q[2] - q[0]) < 1.4 * diag else unknown).append(q)
    hulls = [cv2.convexHull(q) for q in alone]
    areas = [cv2.contourArea(h) for h in hulls]
    bad = set()
    for i in range(len(alone)):
        for j in range(i + 1, len(alone)):
            if cv2.intersectConvexConvex(hulls[i], hulls[j])[0] > 0.03 * min(areas[i], areas[j]):
                bad |= {i, j}
        if any(cv2.pointPolygonTest(hulls[i], (float(x), float(y)), False) >= 0
               for x, y in lone):
            bad.add(i)
    cards = [q for i, q in enumerate(alone) if i not in bad]
    unknown += [q for i, q in enumerate(alone) if i in bad]
    r = 0.6 * (diag or 100.0)  # a card with one index in view lies within this of it
    for x, y in lone:
        unknown.append(cv2.ellipse2Poly((int(x), int(y)), (int(r), int(r)), 0, 0, 360, 20)
                       .astype(np.float32))
    return cards, unknown


def real_scenes(only: list[str]) -> list[tuple[np.ndarray, list[np.ndarray], list[np.ndarray]]]:
    """The CC BY scenes whose file name holds one of ``only``, made 4:3 again (640 x 480),
    with ``scene_marks``."""
    meta = json.loads((SCENES / "labels.json").read_text())
    out = []
    for name, entries in sorted(meta["images"].items()):
        if not any(o in name for o in only):
            continue
        img = cv2.imread(str(SCENES / name))
        if img is None:
            continue
        h, w = img.shape[:2]
        img = cv2.resize(img, (w, round(h * SCENE_SQUEEZE)), interpolation=cv2.INTER_AREA)
        cards, unknown = scene_marks(entries)
        out.append((img, cards, unknown))
    return out


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


UNKNOWN = 2  # a mark's value where the network is taught nothing


def make_scene(rng: np.random.Generator, cards: list[np.ndarray],
               photos: list[tuple[np.ndarray, list[np.ndarray]]],
               scenes: list | tuple = (), scene_share: float = 0.0
               ) -> tuple[np.ndarray, np.ndarray]:
    """One frame (IN_H x IN_W BGR) and its mark (IN_H/STRIDE x IN_W/STRIDE: 0, 1 or
    ``UNKNOWN``)."""
    w, h = IN_W, IN_H
    oh, ow = h // STRIDE, w // STRIDE
    mark = np.zeros((oh, ow), np.uint8)
    quads: list[np.ndarray] = []  # every card's outline, in the frame's pixels
    unknown: list[np.ndarray] = []
    real_table = False
    if scenes and rng.random() < scene_share:  # a real table of many cards (CC BY)
        img, qs, unk = scenes[int(rng.integers(len(scenes)))]
        ph, pw = img.shape[:2]
        s = w / pw * rng.uniform(0.8, 1.8)
        m = cv2.getRotationMatrix2D((pw / 2, ph / 2), float(rng.choice([0, 0, 90, 180, 270])
                                                            + rng.uniform(-15, 15)), s)
        m[:, 2] += [rng.uniform(0.2, 0.8) * w - pw / 2, rng.uniform(0.2, 0.8) * h - ph / 2]
        if rng.random() < 0.5:
            m = (np.float64([[-1, 0, w], [0, 1, 0], [0, 0, 1]]) @ np.vstack([m, [0, 0, 1]]))[:2]
        m = m.astype(np.float32)
        scene = cv2.warpAffine(img, m, (w, h), flags=cv2.INTER_AREA,
                               borderMode=cv2.BORDER_REFLECT).astype(np.float32)
        quads += [cv2.transform(q.reshape(-1, 1, 2), m).reshape(4, 2) for q in qs]
        unknown += [cv2.transform(q.reshape(-1, 1, 2), m).reshape(-1, 2) for q in unk]
        real_table = True
    elif photos and rng.random() < 0.25:  # a licensed photo of a card on a real table
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
    for _ in range(0 if real_table else int(rng.choice([0, 0, 0, 1, 2]))):
        # a sheet of paper under the cards (drawn tables only: on a photo it would hide
        # cards whose marks stay):
        # white, bigger than a card, no print, often cut by the frame
        sheet = _card_quad(rng, (rng.uniform(0, w), rng.uniform(0, h)),
                           rng.uniform(0.5, 1.2) * h, rng.uniform(-90, 90), 0.0)
        cv2.fillPoly(scene, [sheet.astype(np.int32)],
                     tuple(float(v) for v in rng.uniform(200, 250) + rng.uniform(-8, 8, 3)))
    n = int(rng.choice([0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 14, 18] if not real_table
                       else [0, 0, 0, 0, 1, 2, 3]))
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
    for poly in unknown:
        cv2.fillPoly(mark, [np.round(poly / STRIDE * 8).astype(np.int32)], UNKNOWN, shift=3)
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


_POOL_ARGS: tuple = ()


def _make_chunk(job: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    n, seed = job
    cards, photos, scenes, share = _POOL_ARGS
    rng = np.random.default_rng(seed)
    xs = np.zeros((n, IN_H, IN_W, 3), np.uint8)
    ys = np.zeros((n, IN_H // STRIDE, IN_W // STRIDE), np.uint8)
    for i in range(n):
        xs[i], ys[i] = make_scene(rng, cards, photos, scenes, share)
    return xs, ys


def make_set(n: int, seed: int, cards: list[np.ndarray],
             photos: list[tuple[np.ndarray, list[np.ndarray]]], scenes: list | tuple = (),
             scene_share: float = 0.0, workers: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """``n`` scenes, in chunks of 250 (each its own seed), over ``workers`` processes."""
    global _POOL_ARGS
    _POOL_ARGS = (cards, photos, scenes, scene_share)
    jobs = [(min(250, n - i), seed * 100003 + i) for i in range(0, n, 250)]
    if workers > 1:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(workers) as pool:
            parts = pool.map(_make_chunk, jobs)
    else:
        parts = [_make_chunk(j) for j in jobs]
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


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


def _iou(net, xs: np.ndarray, ys: np.ndarray, dev) -> float:
    """The marks' IoU over the pixels whose mark is known."""
    import torch

    inter = union = 0.0
    with torch.no_grad():
        for b in range(0, len(xs), 64):
            p = torch.sigmoid(net(to_input(xs[b:b + 64]).to(dev))).cpu().numpy()[:, 0] > 0.5
            known = ys[b:b + 64] != UNKNOWN
            t = ys[b:b + 64] == 1
            inter += (p & t & known).sum()
            union += ((p | t) & known).sum()
    return inter / max(union, 1)


def train(args) -> None:
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(args.threads)
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    t0 = time.time()
    real, photos = real_cards()
    rng = np.random.default_rng(args.seed)
    cards = real * 3 + drawn_cards(rng, args.drawn)
    scenes = real_scenes(args.learn_scenes.split(",")) if args.learn_scenes else []
    held = real_scenes(args.measure_scenes.split(",")) if args.measure_scenes else []
    print(f"{len(real)} real cards (x3) and {args.drawn} drawn; {len(scenes)} CC BY scenes "
          f"learned ({sum(len(c) for _, c, _ in scenes)} cards alone), {len(held)} measured; "
          f"making {args.scenes} scenes on {dev}", flush=True)
    xs, ys = make_set(args.scenes, args.seed + 1, cards, photos, scenes, args.scene_share,
                      args.workers)
    vx, vy = make_set(args.scenes // 10, args.seed + 2, cards, photos, workers=args.workers)
    # the held-out real tables, as they are (a 4:3 frame letterboxed: none needed)
    hx = np.stack([cv2.resize(img, (IN_W, IN_H), interpolation=cv2.INTER_AREA)
                   for img, _, _ in held]) if held else None
    hy = None
    if held:
        hy = np.zeros((len(held), IN_H // STRIDE, IN_W // STRIDE), np.uint8)
        for i, (img, qs, unk) in enumerate(held):
            f = IN_W / img.shape[1]
            for poly in unk:
                cv2.fillPoly(hy[i], [np.round(poly * f / STRIDE * 8).astype(np.int32)], UNKNOWN,
                             shift=3)
            for q in qs:
                c = q.mean(axis=0)
                inner = ((q - c) * SHRINK + c) * f
                cv2.fillPoly(hy[i], [np.round(inner / STRIDE * 8).astype(np.int32)], 1, shift=3)
    print(f"scenes made in {time.time() - t0:.0f} s; mark share {(ys == 1).mean():.3f}, "
          f"unknown {(ys == UNKNOWN).mean():.3f}", flush=True)
    net = build_net().to(dev)
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    steps = args.epochs * (len(xs) // args.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=steps,
                                                pct_start=0.15)
    gx = torch.from_numpy(xs).to(dev)
    gy = torch.from_numpy(ys).to(dev)
    for epoch in range(args.epochs):
        net.train()
        order = torch.from_numpy(np.random.default_rng(epoch).permutation(len(xs))).to(dev)
        total = 0.0
        for b in range(len(xs) // args.batch):
            idx = order[b * args.batch:(b + 1) * args.batch]
            x, y = gx[idx], gy[idx]
            if epoch % 2:
                x, y = x.flip(2), y.flip(2)
            xt = x.permute(0, 3, 1, 2).float() / 255.0
            known = (y != UNKNOWN).float()[:, None]
            yt = (y == 1).float()[:, None]
            logit = net(xt)
            p = torch.sigmoid(logit) * known
            dice = 1 - (2 * (p * yt).sum() + 1) / (p.sum() + yt.sum() + 1)
            bce = (F.binary_cross_entropy_with_logits(logit, yt, reduction="none") * known).sum() \
                / known.sum().clamp(min=1)
            loss = bce + dice
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach())
        net.eval()
        line = (f"epoch {epoch + 1}/{args.epochs} loss {total / (len(xs) // args.batch):.4f} "
                f"val IoU {_iou(net, vx, vy, dev):.3f}")
        if held:
            line += f" real tables never learned {_iou(net, hx, hy, dev):.3f}"
        print(f"{line} ({time.time() - t0:.0f} s)", flush=True)
        if args.budget and time.time() - t0 > args.budget:
            print(f"stopped after epoch {epoch + 1}: over --budget", flush=True)
            break
    out = Path(args.out)
    net = net.cpu().eval()

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
                        "real_cards": len(real), "photos": len(photos), "drawn": args.drawn,
                        "real_tables": [args.learn_scenes, len(scenes), args.scene_share]}}
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
    ap.add_argument("--workers", type=int, default=1, help="processes drawing the scenes")
    ap.add_argument("--shared", type=Path, default=SHARED, help="the shared folder")
    ap.add_argument("--learn-scenes", default="",
                    help="learn from the CC BY scenes whose names hold one of these "
                         "(comma-separated), e.g. 20240627_11,20240627_12")
    ap.add_argument("--measure-scenes", default="",
                    help="report the marks' IoU on these CC BY scenes, never learned")
    ap.add_argument("--scene-share", type=float, default=0.35,
                    help="the share of training scenes that are learned CC BY scenes")
    ap.add_argument("--budget", type=float, default=0,
                    help="seconds: stop after the epoch that passes them (a lent machine)")
    ap.add_argument("--out", default="/tmp/card_finder.onnx")
    ap.add_argument("--preview", help="write 16 scenes and their marks here and stop")
    args = ap.parse_args()
    global SINGLES, UNO_CROPS, SCENES
    SINGLES = args.shared / "train" / "cadyze_cards_singles"
    UNO_CROPS = args.shared / "data" / "uno_criscard_crops"
    SCENES = args.shared / "train" / "cadyze_cards_scenes"
    if args.preview:
        real, photos = real_cards()
        rng = np.random.default_rng(args.seed)
        cards = real + drawn_cards(rng, 60)
        scenes = real_scenes(args.learn_scenes.split(",")) if args.learn_scenes else []
        xs, ys = make_set(16, args.seed, cards, photos, scenes, args.scene_share)
        Path(args.preview).mkdir(parents=True, exist_ok=True)
        for i, (x, y) in enumerate(zip(xs, ys, strict=True)):
            shown = np.where(y == UNKNOWN, 128, y * 255).astype(np.uint8)
            m = cv2.resize(shown, (IN_W, IN_H), interpolation=cv2.INTER_NEAREST)
            cv2.imwrite(f"{args.preview}/{i:02d}.png", np.hstack([x, cv2.merge([m, m, m])]))
        return
    train(args)


if __name__ == "__main__":
    main()
