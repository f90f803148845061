#!/usr/bin/env python3
"""Draw the replay camera's sample photos (vision/samples/) with vision/synth.py.

Our own drawings, so they may ship in the package: the shared photos carry no licence.
A UNO game on light wood (a pile that changes), standard cards on dark cloth, Huang Di on a
white table and a patterned tablecloth. The file names say what is on them. Each is saved as
a camera exposed for the table would give it (``EXPOSURE``): our drawings' whites are pure
255, which a camera's exposure keeps below, and the camera page would take them for cards
blown out by too much light (vision/view_check.py).
"""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.synth import render_scene  # noqa: E402

EXPOSURE = 0.88  # the drawing's white at 224

SCENES = [
    ("01_uno_wood", [("uno", "red-7")], "wood"),
    ("02_uno_wood", [("uno", "red-7"), ("uno", "blue-skip")], "wood"),
    ("03_uno_wood", [("uno", "green-reverse"), ("uno", "wild-draw4"), ("uno", "yellow-2")],
     "wood"),
    ("04_french_cloth", [("french", "AS"), ("french", "10H"), ("french", "KD"),
                         ("french", "RJ"), ("french", "7C")], "cloth"),
    ("05_huangdi_white", [("huangdi", "3"), ("huangdi", "10"), ("huangdi", "joker")], "white"),
    ("06_mixed_pattern", [("uno", "blue-5"), ("french", "QH"), ("huangdi", "invert")],
     "pattern"),
]


def main() -> int:
    out = ROOT / "vision" / "samples"
    out.mkdir(parents=True, exist_ok=True)
    for i, (name, cards, table) in enumerate(SCENES):
        image, _ = render_scene(cards, table=table, seed=100 + i)
        image = (image.astype(np.float32) * EXPOSURE).astype(np.uint8)
        cv2.imwrite(str(out / f"{name}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 85])
    (out / "README.txt").write_text(
        "Drawn by tools/make_vision_samples.py with vision/synth.py (project's own art, MIT).\n")
    print(f"wrote {len(SCENES)} samples to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
