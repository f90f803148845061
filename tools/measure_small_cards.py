#!/usr/bin/env python3
"""Measure how small a card may be and still be named: the shared photos shrunk as a camera
far above the table sees its cards, cards named and wrong by their width in pixels.

Each photo is shrunk to a third, a fifth and a seventh of its size, given a webcam's sensor
noise (sigma 6) and saved as a JPEG at quality 70, then read; every card named is counted
in the 10-pixel band of its width (the mean of its two shorter sides; for a card read from
its index in a fan, the index patch's), wrong where the photo's labels do not hold it. The
floor under which the standard pack names nothing (``vision.identify.NAMED_WIDTH_FLOOR``)
came from this.

    .venv/bin/python tools/measure_small_cards.py [--deck french] [--data ../shared/data]
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

from train_vision import NOT_CARDS, load_sets  # noqa: E402

from vision.detect import card_width  # noqa: E402
from vision.identify import Identifier  # noqa: E402

SHRINK = (0.33, 0.2, 0.15)


def far(img: np.ndarray, f: float, rng: np.random.Generator) -> np.ndarray:
    h, w = img.shape[:2]
    small = cv2.resize(img, (round(w * f), round(h * f)), interpolation=cv2.INTER_AREA)
    noisy = np.clip(small.astype(np.float32) + rng.normal(0, 6, small.shape), 0, 255)
    _ok, jpeg = cv2.imencode(".jpg", noisy.astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 70])
    return cv2.imdecode(jpeg, cv2.IMREAD_COLOR)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument("--deck", default="french", choices=["uno", "french"])
    args = ap.parse_args()
    cv2.setNumThreads(1)
    ident = Identifier(args.deck, data_path="/nonexistent-taught")
    rng = np.random.default_rng(0)
    named: Counter = Counter()
    wrong: Counter = Counter()
    for ds in load_sets(args.data):
        if ds["deck"] != args.deck:
            continue
        for name, entries in sorted(ds["images"].items()):
            truth = Counter(e["label"] for e in entries if e["label"] not in NOT_CARDS)
            if not truth:
                continue
            img = cv2.imread(str(ds["folder"] / name))
            for f in SHRINK:
                left = truth.copy()
                cards = ident.identify(far(img, f, rng))
                for c in sorted(cards, key=lambda c: -c.confidence):
                    if c.label is None:
                        continue
                    band = min(int(card_width(c.corners) // 10) * 10, 100)
                    named[band] += 1
                    if left[c.label] > 0:
                        left[c.label] -= 1
                    else:
                        wrong[band] += 1
    print(f"| {args.deck}: card width (pixels) | named | wrong |")
    print("| --- | ---: | ---: |")
    for band in sorted(named):
        span = f"{band}-{band + 9}" if band < 100 else "100 and more"
        print(f"| {span} | {named[band]} | {wrong[band]} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
