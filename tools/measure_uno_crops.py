#!/usr/bin/env python3
"""Measure UNO's reader on real cards lying whole on a table: criscard's crops (MIT, one real
card each, ``../shared/data/uno_criscard_crops``) laid on drawn tables and on black.

In their own photos these cards fill the frame; at a table they lie whole with table round
them, which none of the shared UNO folders shows for a white-centred wild +4. Two ways:

- ``--black``: each crop alone on a near-black 640x480 frame, turned 0, 90, 180, 15 and -30
  degrees, 180 and 300 pixels tall (a sharp single card on black, issue 33);
- tables: ``--scenes`` scenes on each drawn table (wood, cloth, white, a pattern), 3-6 crops
  a scene in a grid (none overlapping), 140-190 pixels long, turned up to 25 degrees; every
  other scene holds a wild +4 (``--focus FILE``: that crop instead, in every scene).

Per kind of card (wild +4, wild, the others): named right, wrong, unsure, and not found
(nothing reported over it: a quad read "not a card" is not reported).

    .venv/bin/python tools/measure_uno_crops.py [--scenes 30] [--black] [--focus FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision import synth  # noqa: E402
from vision.detect import iou_box  # noqa: E402
from vision.identify import Identifier  # noqa: E402

FOLDER = ROOT.parent / "shared" / "data" / "uno_criscard_crops"
TABLES = ("wood", "cloth", "white", "pattern")


def kind(label: str) -> str:
    return label if label in ("wild-draw4", "wild") else "other"


def on_black(crop: np.ndarray, angle: float, height: int) -> tuple[np.ndarray, np.ndarray]:
    """The crop ``height`` pixels tall, turned ``angle`` degrees, in the middle of a near-black
    640x480 frame; and its corners."""
    frame = np.full((480, 640, 3), 12, np.uint8)
    corners = synth.place_card(frame, crop, (320, 240), height, angle)
    return frame, corners


def score(ident: Identifier, image: np.ndarray, truth: list[tuple[str, np.ndarray]],
          res: Counter, where: str) -> None:
    cards = ident.identify(image)
    for label, corners in truth:
        key = (where, kind(label))
        res[key, "cards"] += 1
        over = [c for c in cards if iou_box(c.corners, corners) > 0.5]
        if not over:
            res[key, "not found"] += 1
        elif over[0].label == label:
            res[key, "right"] += 1
        elif over[0].label:
            res[key, "wrong"] += 1
        else:
            res[key, "unsure"] += 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=30, help="scenes on each drawn table")
    ap.add_argument("--black", action="store_true", help="each crop alone on black instead")
    ap.add_argument("--focus", help="this crop (a file name) in every scene")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    meta = json.loads((FOLDER / "labels.json").read_text())
    items = [(name, entries[0]["label"]) for name, entries in sorted(meta["images"].items())]
    crops = {name: cv2.imread(str(FOLDER / name)) for name, _ in items}
    fours = [it for it in items if it[1] == "wild-draw4"]
    ident = Identifier("uno", data_path="/nonexistent-measure")
    res: Counter = Counter()
    places: list[str] = []
    if args.black:
        places = ["black"]
        for name, label in items:
            for angle in (0, 90, 180, 15, -30):
                for height in (180, 300):
                    frame, corners = on_black(crops[name], angle, height)
                    score(ident, frame, [(label, corners)], res, "black")
    else:
        places = list(TABLES)
        for table in TABLES:
            for k in range(args.scenes):
                rng = np.random.default_rng(k)
                scene = synth.table_texture(table, (640, 480), rng)
                slots = [(80 + (i % 4) * 160, 130 + (i // 4) * 220) for i in range(8)]
                rng.shuffle(slots)
                picks = [items[int(rng.integers(len(items)))]
                         for _ in range(int(rng.integers(3, 7)))]
                if args.focus:
                    picks[0] = next(it for it in items if it[0] == args.focus)
                elif k % 2 == 0:
                    picks[0] = fours[k // 2 % len(fours)]
                truth = []
                for (name, label), (cx, cy) in zip(picks, slots, strict=False):
                    corners = synth.place_card(
                        scene, crops[name], (cx + rng.uniform(-10, 10), cy + rng.uniform(-10, 10)),
                        rng.uniform(140, 190), rng.uniform(-25, 25))
                    truth.append((label, corners))
                score(ident, scene, truth, res, table)
    cols = ("cards", "right", "wrong", "unsure", "not found")
    print("| on | card | " + " | ".join(cols) + " |")
    print("| --- | --- | " + " | ".join("---:" for _ in cols) + " |")
    for where in places:
        for k in ("wild-draw4", "wild", "other"):
            if res[(where, k), "cards"]:
                print(f"| {where} | {k} | "
                      + " | ".join(str(res[(where, k), c]) for c in cols) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
