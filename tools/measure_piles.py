#!/usr/bin/env python3
"""Measure UNO discard piles: the top card named where a table's camera sees it.

Every card the camera referees lands on a pile. Each pile is drawn as a table shows it:
0, 1 or 2 cards dropped on one spot, then the top card, each turned (up to 40 degrees) and
shifted a little, cards 110-170 pixels long in a 640x480 frame, on wood, a green felt, a
white table and a pink check in turn, with a lamp's glare, at a camera's light (0.88 of
the drawing's). Per kind of top card (wilds, the others) and cards under it: the top card
named, missed, and any name that is neither the top card nor one under it; then empty
tables (nothing may be named).

    .venv/bin/python tools/measure_piles.py [--tables 16]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.identify import Identifier
from vision.synth import add_glare, render_pile, table_texture

TABLES = ("wood", "cloth", "white", "pattern")
UNDER = ("green-4", "red-9", "yellow-2", "blue-skip")
TOPS = ("wild", "wild-draw4", "blue-3", "red-skip", "green-draw2", "yellow-0")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=16, help="piles per top card and depth")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    ident = Identifier("uno", data_path="/nonexistent-taught")
    score: Counter = Counter()
    wrong = []
    for top in TOPS:
        kind = "wild" if top.startswith("wild") else "other"
        for depth in (0, 1, 2):
            for s in range(args.tables):
                under = [UNDER[(s + k) % len(UNDER)] for k in range(depth)]
                image = render_pile(top, under, TABLES[s % len(TABLES)], 1000 * depth + s,
                                    s + 7)
                said = [c.label for c in ident.identify(image) if c.label]
                score[kind, depth, "piles"] += 1
                score[kind, depth, "named"] += top in said
                for label in said:
                    if label != top and label not in under:
                        score[kind, depth, "wrong"] += 1
                        wrong.append(f"{top} over {under} (table {s}): {label}")
    empty = Counter()
    for s in range(40):
        rng = np.random.default_rng(5000 + s)
        image = table_texture(TABLES[s % len(TABLES)], (640, 480), rng).copy()
        image = add_glare(image, np.random.default_rng(s), 25)
        cards = ident.identify((image.astype(np.float32) * 0.88).astype(np.uint8))
        empty["tables"] += 1
        empty["named"] += sum(1 for c in cards if c.label)
        empty["unsure"] += sum(1 for c in cards if not c.label)
    print("| top card | cards under it | piles | top card named | wrong names |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for kind in ("other", "wild"):
        for depth in (0, 1, 2):
            print(f"| {kind} | {depth} | {score[kind, depth, 'piles']} "
                  f"| {score[kind, depth, 'named']} | {score[kind, depth, 'wrong']} |")
    print(f"\nempty tables: {empty['tables']}, cards named {empty['named']}, "
          f"unsure quads {empty['unsure']}")
    for line in wrong:
        print("wrong:", line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
