#!/usr/bin/env python3
"""Measure the camera page's hints (vision/view_check.py) on the shared photos, as taken and
as a worse camera or light would give them.

Each photo (every ``--every``-th of a folder, sorted by name) is read as taken, dimmer (a
half, a third, a fifth of the light, with a webcam's sensor noise), brighter (1.3, 1.6 and 2
times, clipped), out of focus (Gaussian blur, sigma 0.3%, 0.6% and 1% of the frame's width)
and from further away (the frame a third as wide). Per deck and way: the cards named right
and wrong, and on how many photos each hint comes. A hint should come where the readings fall
off, and on few photos as taken.

    .venv/bin/python tools/measure_view_hints.py [--data ../shared/data] [--every 2]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from measure_stretched import as_taken  # noqa: E402
from train_vision import NOT_CARDS, load_sets  # noqa: E402

from vision.identify import Identifier  # noqa: E402
from vision.view_check import HINTS, view_hints  # noqa: E402

WAYS = ("as is", "light 0.5", "light 0.33", "light 0.2", "light 1.3", "light 1.6",
        "light 2", "blur 0.003", "blur 0.006", "blur 0.01", "far 0.33")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument("--every", type=int, default=2, help="read every N-th photo of a folder")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    idents: dict[str, Identifier] = {}
    score: Counter = Counter()
    for ds in load_sets(args.data):
        deck = ds["deck"]
        ident = idents.setdefault(deck, Identifier(deck, data_path="/nonexistent-taught"))
        for k, (name, entries) in enumerate(sorted(ds["images"].items())):
            truth = Counter(e["label"] for e in entries if e["label"] not in NOT_CARDS)
            if k % args.every or not truth:
                continue
            img = cv2.imread(str(ds["folder"] / name))
            for way in WAYS:
                seen = as_taken(img, way)
                cards = ident.identify(seen)
                said = Counter(c.label for c in cards if c.label)
                score[deck, way, "photos"] += 1
                score[deck, way, "cards"] += sum(truth.values())
                score[deck, way, "right"] += sum((truth & said).values())
                score[deck, way, "wrong"] += sum((said - truth).values())
                for hint in view_hints(seen, cards, deck):
                    score[deck, way, hint] += 1
    print("| deck | way | photos | cards named | wrong | " + " | ".join(HINTS) + " |")
    print("| --- | --- | ---: | ---: | ---: | " + " | ".join("---:" for _ in HINTS) + " |")
    for deck in idents:
        for way in WAYS:
            n = score[deck, way, "photos"]
            cards = max(1, score[deck, way, "cards"])
            print(f"| {deck} | {way} | {n} | {score[deck, way, 'right'] / cards:.0%} | "
                  f"{score[deck, way, 'wrong']} | "
                  + " | ".join(f"{score[deck, way, h]}" for h in HINTS) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
