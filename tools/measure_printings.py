#!/usr/bin/env python3
"""Measure the Huang Di reader on printings other than our own art.

No photo of a Huang Di card exists here and its real printing is not known, so a table's
deck will look unlike anything the network learned. Three sets of drawn tables, each read
by the shipped reader (right / wrong / unsure, per card):

- "our art": ``vision/synth.py``'s own drawing (seeds 1000.., as ``synth_check``);
- "printed otherwise": printings drawn at random (``synth.random_printing``; seeds 8000..,
  never used in training or calibration);
- "plain": a layout no training set draws: the numeral alone (or the card's word) in one of
  the Hershey fonts, with or without corner indices and a frame, no underline, no figure.

OpenCV 5 (this box, and the training's) draws the Hershey font names in its own sans and
italic faces; OpenCV 4 (a Raspberry Pi's) in the Hershey strokes, a face no training set
drew. Run with the Pi's libraries, every set is a face never learned:

    .venv/bin/python tools/measure_printings.py
    .venv-pi/bin/python tools/measure_printings.py     # (the venv .ci/run makes)
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from train_vision import synth_rows  # noqa: E402

from companion.cards import DECKS  # noqa: E402
from vision import synth  # noqa: E402
from vision.identify import Identifier  # noqa: E402

PLAIN_WORDS = {"joker": "JOKER", "invert": "INVERT"}


def plain_card(label: str, rng: np.random.Generator) -> np.ndarray:
    """The numeral (or the word) alone, in a font, colours and frame drawn at random."""
    w, h = synth.CARD_PX
    font = int(rng.choice(synth.PRINTING_FONTS))
    ink = tuple(int(v) for v in rng.integers(0, 140, 3))
    img = np.full((h, w, 3), tuple(int(v) for v in rng.integers(200, 256, 3)), np.uint8)
    if rng.random() < 0.5:
        cv2.rectangle(img, (16, 16), (w - 17, h - 17), ink, 3)
    word = PLAIN_WORDS.get(label, label)
    synth._text(img, word, (w // 2, h // 2), 110 if label not in PLAIN_WORDS else 34, ink,
                font=font)
    if rng.random() < 0.67:
        index = word[0] if label in PLAIN_WORDS else label
        synth._text(img, index, (30, 36), 28, ink, font=font)
        synth._text(img, index, (w - 30, h - 36), 28, ink, font=font, rot180=True)
    return img


def plain_rows(ident: Identifier, n: int = 144) -> Counter:
    score: Counter = Counter()
    labels = DECKS["huangdi"]
    for k in range(n):
        rng = np.random.default_rng(90_000 + k)
        label = labels[k % len(labels)]
        scene = synth.table_texture(["wood", "cloth", "white", "pattern"][k % 4], (640, 480), rng)
        synth.place_card(scene, plain_card(label, rng), (320, 240), 260,
                         float(rng.uniform(-180, 180)))
        said = [c.label for c in ident.identify(cv2.GaussianBlur(scene, (3, 3), 0)) if c.label]
        score["cards"] += 1
        score["right"] += label in said
        score["wrong"] += len([s for s in said if s != label])
    return score


def scored(rows: list) -> Counter:
    score: Counter = Counter()
    for _, truth, said, _, _ in rows:
        score["cards"] += sum(truth.values())
        score["right"] += sum((truth & said).values())
        score["wrong"] += sum((said - truth).values())
    return score


def main() -> int:
    cv2.setNumThreads(1)
    ident = Identifier("huangdi", data_path="/nonexistent-taught")
    sets = {"our art": scored(synth_rows("huangdi", ident, 1000)),
            "printed otherwise": scored(synth_rows("huangdi", ident, 8000, printed=True)
                                        + synth_rows("huangdi", ident, 8500, 10, printed=True)),
            "plain": plain_rows(ident)}
    print("| set | cards | right | wrong names | not named right |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, s in sets.items():
        print(f"| {name} | {s['cards']} | {s['right']} | {s['wrong']} | "
              f"{s['cards'] - s['right']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
