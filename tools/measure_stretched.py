#!/usr/bin/env python3
"""Measure the identifier on the shared photos as they are, stretched to another shape, and as
another camera under other light would take them.

Datasets and apps often resize photos without keeping their shape (a 4:3 or 16:9 frame
squeezed to 640x640), which makes cards fatter or thinner than a card can be. Each photo is
read as it is, squeezed to 640x640 ("square"), widened by a third ("wide"), made a third
taller ("tall"), and tilted away as a camera held low sees it ("tilted": the far edge 60% as
wide, the height 60%); per deck: cards named right, wrong names, and cards.

``--modes light`` reads them instead as a cheaper camera or another room would give them: a
dim room ("dim": a third of the light, and the sensor noise a webcam adds there), a warm
lamp ("warm": blue at 70%, red at 110%), out of focus ("blur": Gaussian, sigma 1% of the
frame's width), heavily compressed ("jpeg 30"), far away ("far": the frame a third as
wide), hazed ("washed": a low-contrast webcam or a glare, the grey levels squeezed to 0.6 of
their range over a floor of 90) and over-exposed ("bright": every level 1.6 times, clipped).

    .venv/bin/python tools/measure_stretched.py [--data ../shared/data] [--split all]
                                                [--modes light]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from train_vision import NOT_CARDS, load_sets, split_of  # noqa: E402

from vision.identify import Identifier  # noqa: E402

SHAPES = ("as is", "square", "wide", "tall", "tilted")
LIGHT = ("as is", "dim", "warm", "blur", "jpeg 30", "far", "washed", "bright")


def as_taken(img: np.ndarray, mode: str) -> np.ndarray:
    """The photo as ``mode`` (one of SHAPES or LIGHT, see the module's docstring) gives it;
    or ``"light F"`` (every level F times, clipped; below 1 with the sensor's noise),
    ``"blur F"`` (sigma F of the frame's width), ``"far F"`` (the frame F times as wide)."""
    h, w = img.shape[:2]
    kind, _, value = mode.partition(" ")
    if kind == "light" and value:
        out = img.astype(np.float32) * float(value)
        if float(value) < 1:  # a dim room: the sensor's noise stays
            out += np.random.default_rng(0).normal(0, 4, img.shape).astype(np.float32)
        return np.clip(out, 0, 255).astype(np.uint8)
    if kind == "blur" and value:
        return cv2.GaussianBlur(img, (0, 0), float(value) * w)
    if kind == "far" and value:
        return cv2.resize(img, (round(w * float(value)), round(h * float(value))),
                          interpolation=cv2.INTER_AREA)
    if mode == "square":
        return cv2.resize(img, (640, 640), interpolation=cv2.INTER_AREA)
    if mode == "wide":
        return cv2.resize(img, (round(w * 4 / 3), h))
    if mode == "tall":
        return cv2.resize(img, (w, round(h * 4 / 3)))
    if mode == "dim":
        noise = np.random.default_rng(0).normal(0, 4, img.shape).astype(np.float32)
        return np.clip(img.astype(np.float32) / 3 + noise, 0, 255).astype(np.uint8)
    if mode == "warm":
        return np.clip(img.astype(np.float32) * np.float32([0.7, 1.0, 1.1]), 0,
                       255).astype(np.uint8)
    if mode == "blur":
        return cv2.GaussianBlur(img, (0, 0), 0.01 * w)
    if mode == "jpeg 30":
        return cv2.imdecode(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 30])[1],
                            cv2.IMREAD_COLOR)
    if mode == "washed":
        return np.clip(img.astype(np.float32) * 0.6 + 90, 0, 255).astype(np.uint8)
    if mode == "bright":
        return np.clip(img.astype(np.float32) * 1.6, 0, 255).astype(np.uint8)
    if mode == "far":
        return cv2.resize(img, (round(w / 3), round(h / 3)), interpolation=cv2.INTER_AREA)
    if mode == "tilted":
        far = 0.2 * w  # the far (top) edge 60% as wide
        src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
        dst = np.float32([[far, 0], [w - far, 0], [w, 0.6 * h], [0, 0.6 * h]])
        return cv2.warpPerspective(img, cv2.getPerspectiveTransform(src, dst),
                                   (w, round(0.6 * h)), borderMode=cv2.BORDER_REPLICATE)
    return img


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument("--split", default="all", help="all, or a comma list of train,calib,test")
    ap.add_argument("--modes", choices=["shape", "light"], default="shape")
    args = ap.parse_args()
    modes = LIGHT if args.modes == "light" else SHAPES
    cv2.setNumThreads(1)
    splits = None if args.split == "all" else set(args.split.split(","))
    idents: dict[str, Identifier] = {}
    score: Counter = Counter()
    for ds in load_sets(args.data):
        deck, source = ds["deck"], ds["folder"].name
        ident = idents.setdefault(deck, Identifier(deck, data_path="/nonexistent-taught"))
        for name, entries in ds["images"].items():
            if splits is not None and split_of(source, name) not in splits:
                continue
            truth = Counter(e["label"] for e in entries if e["label"] not in NOT_CARDS)
            img = cv2.imread(str(ds["folder"] / name))
            for mode in modes:
                said = Counter(c.label for c in ident.identify(as_taken(img, mode)) if c.label)
                score[deck, mode, "cards"] += sum(truth.values())
                score[deck, mode, "right"] += sum((truth & said).values())
                score[deck, mode, "wrong"] += sum((said - truth).values())
    print("| deck | photos | cards | " + " | ".join(f"{m}: right / wrong" for m in modes) + " |")
    print("| --- | --- | ---: | " + " | ".join("---:" for _ in modes) + " |")
    for deck in idents:
        cells = [f"{score[deck, m, 'right']} / {score[deck, m, 'wrong']}" for m in modes]
        print(f"| {deck} | {args.split} | {score[deck, 'as is', 'cards']} | "
              + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
