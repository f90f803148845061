#!/usr/bin/env python3
"""Gather the licensed photos into one data folder the training scripts read as they are.

The licensed-only build (issue 33, docs/model_cards.md) learns from nothing without a licence
that allows shipping: ../shared/data/uno_criscard_crops (MIT) and ../shared/train's two
CC BY 4.0 folders. The training scripts read ``<data>/<folder>/labels.json`` with whole-card
boxes, one entry per card; the CC BY folders box the corner index instead, usually both
corners of one card as two entries. This writes a folder of links to the photos with labels
the scripts can use:

- a photo whose entries all name one card becomes one entry, the box nearest the top-left
  (``positives_of`` then picks the card that holds it);
- in a photo of several cards, each card the detector finds gets the label of the index
  boxes it holds, as one entry boxed by the card's outline (``positives_of`` matches a box
  to a card by overlap); a card holding two names, or none found for a name, leaves the
  photo's unlabelled outlines out of the "not a card" examples (an ``unknown`` entry);
- the jokers (``BJ``: the export labels both jokers so) are not taught; a photo with one
  gets an ``unknown`` entry for the same reason.

With ``--scoring DIR`` it also writes the CC BY folders as eval-vision can score them (each
card of a photo named once, with no box; a joker as ``unknown``): a source none of the shipped
networks learned from (``--split test``: the part the licensed-only build did not learn from).

    .venv/bin/python tools/make_licensed_set.py [--out /tmp/licensed] [--scoring /tmp/cadyze]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from train_vision import read_small, split_of  # noqa: E402

from vision.detect import find_cards  # noqa: E402

SHARED = ROOT.parent / "shared"
MIT_FOLDERS = [SHARED / "data" / "uno_criscard_crops"]
CC_BY_FOLDERS = [SHARED / "train" / "cadyze_cards_singles",
                 SHARED / "train" / "cadyze_cards_scenes"]
UNSURE_JOKERS = {"BJ", "RJ"}
UNKNOWN = {"label": "unknown"}


def _centre(box: list[float]) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def one_card(entries: list[dict]) -> list[dict] | None:
    """The one entry for a photo whose boxes all name one card, else None."""
    names = {e["label"] for e in entries}
    if len(names) != 1 or not all(e.get("box") for e in entries):
        return None
    return [min(entries, key=lambda e: e["box"][0] + e["box"][1])]


def by_outline(image: Path, entries: list[dict]) -> list[dict]:
    """One entry per card the detector finds, boxed by its outline, named by its index boxes."""
    img, s = read_small(image)
    quads = [q for q in find_cards(img) if not q.whole]
    names: list[set[str]] = [set() for _ in quads]
    unplaced = False
    for e in entries:
        cx, cy = _centre(e["box"])
        holding = [i for i, q in enumerate(quads) if cv2.pointPolygonTest(
            q.corners.reshape(-1, 1, 2).astype(np.float32), (cx * s, cy * s), False) > 0]
        if not holding:
            unplaced = True
        for i in holding:
            names[i].add(e["label"])
    out = []
    for q, n in zip(quads, names, strict=True):
        if len(n) == 1:
            xs, ys = q.corners[:, 0] / s, q.corners[:, 1] / s
            box = (xs.min(), ys.min(), xs.max(), ys.max())
            out.append({"label": next(iter(n)), "box": [round(float(v), 1) for v in box]})
        elif len(n) > 1:
            unplaced = True
    return out + ([UNKNOWN] if unplaced else [])


def relabel(image: Path, entries: list[dict]) -> list[dict]:
    jokers = any(e["label"] in UNSURE_JOKERS for e in entries)
    cards = [e for e in entries if e["label"] not in UNSURE_JOKERS]
    if not cards:
        return [UNKNOWN] if jokers else []
    out = one_card(cards) or by_outline(image, cards)
    return out + ([UNKNOWN] if jokers and UNKNOWN not in out else [])


def for_scoring(entries: list[dict]) -> list[dict]:
    """Each card once (one deck: a name boxed twice is one card's two corners), no box."""
    names = sorted({e["label"] for e in entries})
    return [{"label": "unknown" if n in UNSURE_JOKERS else n, "box": None} for n in names]


def write_scoring(out: Path, split: str | None = None) -> None:
    for folder in CC_BY_FOLDERS:
        meta = json.loads((folder / "labels.json").read_text())
        if split:
            meta["images"] = {n: e for n, e in meta["images"].items()
                              if split_of(folder.name, n) == split}
        dest = out / folder.name
        dest.mkdir(parents=True, exist_ok=True)
        for name in meta["images"]:
            if not (dest / name).exists():
                (dest / name).symlink_to((folder / name).resolve())
        meta["images"] = {n: for_scoring(e) for n, e in meta["images"].items()}
        (dest / "labels.json").write_text(json.dumps(meta, indent=1))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path("/tmp/licensed"))
    ap.add_argument("--scoring", type=Path, help="also write the CC BY folders to score here")
    ap.add_argument("--split", choices=("train", "calib", "test"),
                    help="score only this split (the licensed build learns from train)")
    args = ap.parse_args()
    if args.scoring:
        write_scoring(args.scoring, args.split)
    args.out.mkdir(parents=True, exist_ok=True)
    for folder in MIT_FOLDERS:
        link = args.out / folder.name
        if not link.exists():
            link.symlink_to(folder.resolve())
    for folder in CC_BY_FOLDERS:
        meta = json.loads((folder / "labels.json").read_text())
        dest = args.out / folder.name
        dest.mkdir(exist_ok=True)
        images, cards, outlined = {}, 0, 0
        for name, entries in meta["images"].items():
            link = dest / name
            if not link.exists():
                link.symlink_to((folder / name).resolve())
            images[name] = relabel(folder / name, entries)
            placed = [e for e in images[name] if e["label"] != "unknown"]
            cards += len(placed)
            cards_only = [e for e in entries if e["label"] not in UNSURE_JOKERS]
            outlined += bool(placed) and one_card(cards_only) is None
        meta["images"] = images
        (dest / "labels.json").write_text(json.dumps(meta, indent=1))
        print(f"{folder.name}: {len(images)} photos, {cards} cards labelled"
              f" ({outlined} photos named by the cards' outlines)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
