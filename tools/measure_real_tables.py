#!/usr/bin/env python3
"""Measure finding and naming standard cards on real tables: the CC BY webcam scenes.

../shared/train/cadyze_cards_scenes holds 86 overhead webcam photos of 3 to 26 standard cards
on a white desk or a knit blanket, taken on three sittings (27 June morning, 27 June
evening, 30 June evening), boxed at their corner indices. No shipped network learned from
them. Each photo is made 4:3 again (the exporter stretched the webcam's frames to 640 x 640)
and read as the camera would give it. Per sitting this prints:

- the cards (each card of a photo once) and how many the product names right and wrong
  (``Identifier.identify``, counted as eval-vision counts);
- the cards lying alone (both corner indices boxed, overlapping no other card: their
  outline follows from the two boxes, ``train_card_finder.scene_marks``) and how many of
  them the product outlines (a quad it reports, named or not, over the card with an
  intersection over union of at least ``FOUND_IOU``: the classical detector's outlines and
  the cards found by their tops); with ``--finder MODEL``, how many a learned card
  finder's marks find (``tools/train_card_finder.py``; measured only, not read: the product
  has no such hook).

Most of these cards overlap one another (fans, piles), which only the fan reader's corner
indices can name; the lone cards measure the whole-card detector on a white desk.

With ``--teach-from``, the deck is first taught at the table (vision/store.py) from the first
``--shots`` photos of each card in a folder of single-card photos boxed the same way
(../shared/train/cadyze_cards_singles: the same printing, on a phone, in 2022), and the
scenes (a webcam, 2024: another day, camera and light, as the issue asks teaching to be
measured) are read with the taught deck: as a deck of its own (``--as-deck own``: no network
of ours asked) or as the standard pack the table corrected (``--as-deck french``).

    .venv/bin/python tools/measure_real_tables.py [--finder /tmp/card_finder.onnx]
    .venv/bin/python tools/measure_real_tables.py --teach-from \
        ../shared/train/cadyze_cards_singles [--shots 2] [--as-deck french]
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import sys
import tempfile
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from train_card_finder import SCENE_SQUEEZE, scene_marks  # noqa: E402

from companion.cards import fold_taught_name  # noqa: E402
from vision.identify import Identifier  # noqa: E402
from vision.store import DeckStore, NoCardInView  # noqa: E402

SCENES = ROOT.parent / "shared" / "train" / "cadyze_cards_scenes"
FOUND_IOU = 0.6
# the sittings, by the photos' names (WIN_<date>_<hour>_...)
SITTINGS = (("27 Jun, morning", "WIN_20240627_1[12]"), ("27 Jun, evening", "WIN_20240627_17"),
            ("30 Jun, evening", "WIN_20240630_19"))
NOT_NAMED = {"BJ", "RJ"}  # the export labels both jokers BJ: not scored


def sitting_of(name: str) -> str:
    for title, pattern in SITTINGS:
        if fnmatch.fnmatch(name, pattern + "*"):
            return title
    return "other"


def iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex quads."""
    a = cv2.convexHull(np.asarray(a, np.float32).reshape(-1, 1, 2))
    b = cv2.convexHull(np.asarray(b, np.float32).reshape(-1, 1, 2))
    inter = cv2.intersectConvexConvex(a, b)[0]
    return inter / max(cv2.contourArea(a) + cv2.contourArea(b) - inter, 1e-6)


class FinderMarks:
    """A learned card finder's quads for a frame (as train_card_finder.py writes it: a
    network and its .json): its marks over 0.5, each blob's rotated box grown back by the
    marks' shrink."""

    def __init__(self, model: Path) -> None:
        self.net = cv2.dnn.readNetFromONNX(str(model))
        meta = json.loads(model.with_suffix(".json").read_text())
        self.size = tuple(meta["input"])
        self.stride, self.shrink = meta["stride"], meta["shrink"]

    def quads(self, frame: np.ndarray) -> list[np.ndarray]:
        w, h = self.size
        s = min(w / frame.shape[1], h / frame.shape[0])
        canvas = np.zeros((h, w, 3), np.uint8)
        small = cv2.resize(frame, (round(frame.shape[1] * s), round(frame.shape[0] * s)),
                           interpolation=cv2.INTER_AREA)
        canvas[:small.shape[0], :small.shape[1]] = small
        self.net.setInput(cv2.dnn.blobFromImage(canvas, 1 / 255.0))
        marks = (self.net.forward()[0, 0] > 0.5).astype(np.uint8)
        n, labels, stats, _ = cv2.connectedComponentsWithStats(marks, connectivity=4)
        out = []
        for i in range(1, n):
            if stats[i, cv2.CC_STAT_AREA] < 20:
                continue
            cnts, _ = cv2.findContours((labels == i).astype(np.uint8), cv2.RETR_EXTERNAL,
                                       cv2.CHAIN_APPROX_SIMPLE)
            (cx, cy), (bw, bh), angle = cv2.minAreaRect(max(cnts, key=cv2.contourArea))
            box = cv2.boxPoints(((cx + 0.5, cy + 0.5), ((bw + 1) / self.shrink,
                                                        (bh + 1) / self.shrink), angle))
            out.append(box * self.stride / s)
        return out


def teach(store: DeckStore, deck: str, folder: Path, shots: int) -> int:
    """Teach ``deck`` each card from the first ``shots`` photos (by name) that show that card
    alone (every box of the photo names it); the cards taught."""
    meta = json.loads((folder / "labels.json").read_text())["images"]
    taught: Counter = Counter()
    for name, entries in sorted(meta.items()):
        names = {e["label"] for e in entries}
        if len(names) != 1 or names & NOT_NAMED:
            continue
        label = names.pop()
        if taught[label] >= shots:
            continue
        img = cv2.imread(str(folder / name))
        if img is None:
            continue
        try:
            store.teach(deck, label, img)
        except NoCardInView:
            continue
        taught[label] += 1
    return len(taught)


def measure(meta: dict, folder: Path, ident: Identifier, finder: FinderMarks | None
            ) -> dict[str, Counter]:
    """Each sitting's counts (see the module's docstring)."""
    rows: dict[str, Counter] = {}
    for name, entries in sorted(meta.items()):
        img = cv2.imread(str(folder / name))
        if img is None:
            continue
        h, w = img.shape[:2]
        frame = cv2.resize(img, (w, round(h * SCENE_SQUEEZE)), interpolation=cv2.INTER_AREA)
        row = rows.setdefault(sitting_of(name), Counter())
        truth = {fold_taught_name(e["label"]) for e in entries if e["label"] not in NOT_NAMED}
        cards = ident.identify(frame)
        said = Counter(fold_taught_name(c.label) for c in cards if c.label)
        row["photos"] += 1
        row["cards"] += len(truth)
        row["right"] += sum((said & Counter(truth)).values())
        row["wrong"] += sum((said - Counter(truth)).values())
        alone, _ = scene_marks(entries)
        row["alone"] += len(alone)
        found = [c.corners for c in cards]
        learned = finder.quads(frame) if finder else []
        for q in alone:
            by_outline = any(iou(q, f) >= FOUND_IOU for f in found)
            by_finder = any(iou(q, f) >= FOUND_IOU for f in learned)
            row["alone found"] += by_outline
            row["alone marked"] += by_finder
            row["alone either"] += by_outline or by_finder
        row["finder quads"] += len(learned)
    return rows


def print_rows(rows: dict[str, Counter], finder: bool) -> None:
    head = "| sitting | photos | cards | named right | wrong | lone cards | found by outline |"
    if finder:
        head += " marked by the finder | either | the finder's quads |"
    print(head)
    print("| --- " + "| ---: " * (head.count("|") - 2) + "|")
    total = Counter()
    order = [t for t, _ in SITTINGS] + ["other"]
    for title, row in [*sorted(rows.items(), key=lambda r: order.index(r[0])), ("all", None)]:
        row = total if row is None else row
        if row is not total:
            total.update(row)
        line = (f"| {title} | {row['photos']} | {row['cards']} | {row['right']} | "
                f"{row['wrong']} | {row['alone']} | {row['alone found']} |")
        if finder:
            line += f" {row['alone marked']} | {row['alone either']} | {row['finder quads']} |"
        print(line)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=Path, default=SCENES)
    ap.add_argument("--finder", type=Path, help="a learned card finder (.onnx beside its .json)")
    ap.add_argument("--teach-from", type=Path,
                    help="teach the deck from this folder's single-card photos first")
    ap.add_argument("--shots", type=int, default=1, help="photos taught per card")
    ap.add_argument("--as-deck", choices=["own", "french"], default="own",
                    help="the taught cards as a deck of their own, or taught to the standard "
                         "pack")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    meta = json.loads((args.scenes / "labels.json").read_text())["images"]
    with tempfile.TemporaryDirectory(prefix="real-tables-") as tmp:
        deck = "french"
        if args.teach_from:
            deck = "french" if args.as_deck == "french" else "t-cadyze"
            n = teach(DeckStore(Path(tmp)), deck, args.teach_from, args.shots)
            print(f"{n} cards taught to {deck!r} from {args.teach_from.name} "
                  f"({args.shots} photo(s) a card)")
        # (one pack in every scene, read as `companion vision identify` reads a photo)
        rows = measure(meta, args.scenes, Identifier(deck, data_path=Path(tmp), packs=1),
                       FinderMarks(args.finder) if args.finder else None)
    print_rows(rows, finder=bool(args.finder))
    return 0


if __name__ == "__main__":
    sys.exit(main())
