#!/usr/bin/env python3
"""Train UNO's corner-index reader (vision/models/uno_index.onnx + uno_index.json).

A card held up to a webcam is often read from a box around part of it: fingers or the
frame's edge hide the big symbol in the middle, which the whole-card network leans on, while
the small index printed at the top-left corner (and turned round at the bottom-right) stays
in view. ``CnnRecogniser`` averages this network's reading of the two index corners (the one
less sure that no index is there) with the whole-card reading.

The patch is ``vision.recognise.cnn.index_patches`` of the same portrait crop the recogniser
gets, so training and play cut it the same way. Data: tools/train_vision.py's "train" split
of the labelled UNO photos (read in place, nothing copied), each card found by the detector
or by the close-up second look (``vision.detect.closeup_body``) and matched to its label, cut
with jitter, light and compression, and as a stretched part of the card (one end hidden); the
middle of a part, non-card quads, other decks' photos and drawn tables teach "no index";
drawn cards (vision/synth.py) cover the classes no photo shows. The network is
train_vision_cnn.py's, at patch size, never turned round. Then run
``train_vision_cnn.py --deck uno --calibrate-only`` to pick the unsure thresholds again on
the calib split with both networks.

    PYTHONPATH=. /tmp/tv/bin/python tools/train_vision_index.py [--epochs 30]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

import train_vision_cnn as cnn  # noqa: E402
from train_vision import (  # noqa: E402
    held_positives,
    jitter,
    load_sets,
    positives_of,
    random_negative,
    read_small,
    split_of,
)

from companion.cards import DECKS  # noqa: E402
from vision.detect import quarter_turned, rectify  # noqa: E402
from vision.recognise.builtin import FACTORS, MODELS, NONE  # noqa: E402
from vision.recognise.cnn import index_patches  # noqa: E402
from vision.recognise.features import DETAIL_H, DETAIL_W  # noqa: E402

DECK = "uno"
NAME = f"{DECK}_index"
SIZE = (40, 44)  # (w, h) the network reads: 0.42 x 0.30 of a 96x144 crop, about 1:1
# blurred and dimmed crops, as for the whole-card network (train_vision_cnn.DEGRADED)
SHARES = cnn.DEGRADED[DECK]


def gather(sets: list[dict], rng: np.random.Generator, n_aug: int
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Index patches (N, h, w, 3, prepared), symbol and colour targets, weights."""
    first, second, parts = FACTORS[DECK]
    patches, ya, yb, ws = [], [], [], []

    def add(patch: np.ndarray, label: str, weight: float = 1.0) -> None:
        a, b = parts(label)
        patches.append(patch)
        ya.append(first.index(a))
        yb.append(second.index(b))
        ws.append(weight)

    def crop_of(img: np.ndarray, corners: np.ndarray) -> np.ndarray:
        return rectify(img, corners, (DETAIL_W, DETAIL_H))

    seen: Counter = Counter()
    t0 = time.time()
    for ds in sets:
        source = ds["folder"].name
        for name, entries in ds["images"].items():
            if split_of(source, name) != "train":
                continue
            img, s = read_small(ds["folder"] / name)
            if ds["deck"] != DECK:
                if rng.random() < 0.3:  # another deck's corners: no UNO index there
                    q = random_negative(img, [], rng)
                    if q is not None:
                        for p in index_patches(cnn.degraded(crop_of(img, q), rng, SHARES), SIZE):
                            add(p, NONE, 0.5)
                continue
            pos, neg = positives_of(img, s, entries, DECK, cnn.play_quads(img, DECK))
            pos += held_positives(img, s, entries)
            for corners, label in pos:
                seen[label] += 1
                for k in range(n_aug):
                    c = corners if k == 0 else jitter(corners, rng)
                    part = k % 3 == 2
                    if part:
                        c = cnn.part_of(c, rng)
                    crop = crop_of(img, c)
                    if k:
                        crop = cnn.degraded(crop, rng, SHARES)
                    top, bottom = index_patches(crop, SIZE)
                    add(top, label)
                    # a part's far end is its middle: no index there
                    add(bottom, NONE if part else label, 0.5 if part else 1.0)
                # the card read a quarter turned (a nearly square quad is read both ways)
                for p in index_patches(cnn.degraded(crop_of(img, quarter_turned(corners)), rng,
                                                    SHARES),
                                       SIZE):
                    add(p, NONE, 0.5)
            for corners in neg[:3]:
                for p in index_patches(cnn.degraded(crop_of(img, corners), rng, SHARES), SIZE):
                    add(p, NONE, 0.5)
    print(f"[{NAME}] photos: {sum(seen.values())} cards, {len(seen)} labels,"
          f" {time.time() - t0:.0f}s", flush=True)
    for label in DECKS[DECK]:
        # drawn cards for every class: the only source for the classes no photo shows
        for _ in range(12 if seen[label] >= 3 else 40):
            scene, corners = cnn.drawn_card(DECK, label, rng)
            crop = cnn.degraded(crop_of(scene, jitter(corners, rng, 0.02)), rng, SHARES)
            for p in index_patches(crop, SIZE):
                add(p, label, 0.7)
    for scene, q in cnn.drawn_negatives(300, rng):
        add(index_patches(cnn.degraded(crop_of(scene, q), rng, SHARES), SIZE)[0], NONE)
    return np.stack(patches), np.array(ya), np.array(yb), np.array(ws, np.float32)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument("--aug", type=int, default=12, help="patches per labelled card")
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--members", type=int, default=2, help="networks averaged")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    # the trainer's network and loop, at patch size, with the deck's two heads
    cnn.SIZES[NAME] = SIZE
    FACTORS[NAME] = FACTORS[DECK]
    data = gather(load_sets(args.data), np.random.default_rng(11), args.aug)
    print(f"[{NAME}] training on {len(data[0])} patches", flush=True)
    nets = [cnn.train(NAME, data, args.epochs, seed=1 + m, turn_round=False, occlude=0.1)
            for m in range(args.members)]
    cnn.export(nets[0] if len(nets) == 1 else cnn.average(nets), NAME)
    first, second, _ = FACTORS[DECK]
    meta = {"deck": DECK, "size": list(SIZE), "heads": [list(first), list(second)],
            "none": NONE}
    (MODELS / f"{NAME}.json").write_text(json.dumps(meta, indent=1) + "\n")
    print(f"[{NAME}] now pick the thresholds: train_vision_cnn.py --deck {DECK}"
          " --calibrate-only", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
