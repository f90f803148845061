#!/usr/bin/env python3
"""Copy labelled photo folders shrunk to one width, to score the recogniser on small photos.

Issue 33: shrunk to 320 pixels wide was the one change to the photos that made the reader
name a card wrong. Each folder's photos are written resized (INTER_AREA, JPEG quality 90) to
``OUT/<folder>/`` beside its ``labels.json`` (eval-vision reads no boxes, so they are left as
they are). Nothing is written into the project: the shared photos are for measuring only.

    .venv/bin/python tools/shrink_folders.py --width 320 --out /tmp/s320 ../shared/data/*/
    PATH=$PWD/.venv/bin:$PATH ../shared/tools/eval-vision /tmp/s320/*/
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

import cv2


def shrink_folder(folder: Path, out: Path, width: int) -> int:
    """Write ``folder``'s labelled photos ``width`` pixels wide under ``out``; their count."""
    meta = json.loads((folder / "labels.json").read_text())
    dest = out / folder.name
    dest.mkdir(parents=True, exist_ok=True)
    for name in meta["images"]:
        img = cv2.imread(str(folder / name))
        if img is None:
            continue
        h, w = img.shape[:2]
        size = (width, max(1, round(h * width / w)))
        cv2.imwrite(str(dest / name), cv2.resize(img, size, interpolation=cv2.INTER_AREA),
                    [cv2.IMWRITE_JPEG_QUALITY, 90])
    shutil.copyfile(folder / "labels.json", dest / "labels.json")
    return len(meta["images"])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="+", type=Path)
    ap.add_argument("--width", type=int, default=320)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    for folder in args.folders:
        if (folder / "labels.json").is_file():
            print(folder.name, shrink_folder(folder, args.out, args.width))
    return 0


if __name__ == "__main__":
    sys.exit(main())
