#!/usr/bin/env python3
"""Measure the identifier on the shared photos as they are and stretched to another shape.

Datasets and apps often resize photos without keeping their shape (a 4:3 or 16:9 frame
squeezed to 640x640), which makes cards fatter or thinner than a card can be. Each photo is
read as it is, squeezed to 640x640 ("square"), widened by a third ("wide"), made a third
taller ("tall"), and tilted away as a camera held low sees it ("tilted": the far edge 60% as
wide, the height 60%); per deck: cards named right, wrong names, and cards.

    .venv/bin/python tools/measure_stretched.py [--data ../shared/data] [--split all]
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

MODES = ("as is", "square", "wide", "tall", "tilted")


def stretched(img: np.ndarray, mode: str) -> np.ndarray:
    h, w = img.shape[:2]
    if mode == "square":
        return cv2.resize(img, (640, 640), interpolation=cv2.INTER_AREA)
    if mode == "wide":
        return cv2.resize(img, (round(w * 4 / 3), h))
    if mode == "tall":
        return cv2.resize(img, (w, round(h * 4 / 3)))
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
    args = ap.parse_args()
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
            for mode in MODES:
                said = Counter(c.label for c in ident.identify(stretched(img, mode)) if c.label)
                score[deck, mode, "cards"] += sum(truth.values())
                score[deck, mode, "right"] += sum((truth & said).values())
                score[deck, mode, "wrong"] += sum((said - truth).values())
    print("| deck | photos | cards | " + " | ".join(f"{m}: right / wrong" for m in MODES) + " |")
    print("| --- | --- | ---: | " + " | ".join("---:" for _ in MODES) + " |")
    for deck in idents:
        cells = [f"{score[deck, m, 'right']} / {score[deck, m, 'wrong']}" for m in MODES]
        print(f"| {deck} | {args.split} | {score[deck, 'as is', 'cards']} | "
              + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
