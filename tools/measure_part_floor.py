#!/usr/bin/env python3
"""Measure where UNO cards seen only in part can be named: networks that never saw them.

A card seen in part (a hand-held close-up: its coloured body's box, its top and sides) is
named only at the deck's threshold for parts, which the calib split alone cannot pick: it
holds ~40 such cards, too few to resolve a 1% wrong rate. uno_hemant (the webcam close-ups)
holds most of them, and is two thirds of the UNO photos, so it cannot be left out whole
(``leave_source_out.py``). This script leaves out half of its *train* photos instead:

1. copies the working tree (tracked files) to ``WORK/repo``, beside a ``WORK/shared/data``
   of links to every other folder and an ``uno_hemant`` of half its train photos, chosen by
   a hash of the file name (its held-out and calib photos are not there at all, so the
   copy's split of the rest is the shipped one's);
2. trains UNO there as shipped (the whole-card networks and the corner-index network);
3. reads the other half with that copy at threshold 0 and prints, for the cards seen in part
   and seen whole, how many a threshold names and how many of those are wrong, and what the
   copy names at its own thresholds (webcam close-ups of a session it never saw); and the
   same for the calib split read by the working tree's networks.

About 30 minutes on this 2-core box. The floor it gave (tools/train_vision_cnn.PART_FLOOR):
0.9.

    .venv/bin/python tools/measure_part_floor.py --python /tmp/tv/bin/python \\
        [--work /tmp/part_floor] [--score-only]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
sys.path.insert(0, str(ROOT / "tools"))
from leave_source_out import TRAIN, copy_working_tree  # noqa: E402
from train_vision import split_of  # noqa: E402

SOURCE = "uno_hemant"
LEVELS = (0.7, 0.8, 0.85, 0.9, 0.92, 0.94, 0.95, 0.97)

READ = r"""
import json, sys
from collections import Counter
from pathlib import Path
import cv2
from vision.identify import Identifier
from vision.recognise.cnn import CnnRecogniser
NOT = {"back", "rules-card", "unknown"}
at_zero = Identifier("uno", CnnRecogniser("uno", threshold=0.0))
shipped = Identifier("uno", CnnRecogniser("uno"))  # the copy's own thresholds
rows, named = [], [0, 0, 0]
for path, entries in json.loads(sys.stdin.read()):
    image = cv2.imread(path)
    truth = Counter(e["label"] for e in entries if e["label"] not in NOT)
    said = Counter(c.label for c in shipped.identify(image) if c.label)
    named = [named[0] + sum(truth.values()), named[1] + sum((truth & said).values()),
             named[2] + sum((said - truth).values())]
    for card in sorted(at_zero.identify(image), key=lambda c: -c.confidence):
        ok = card.best is not None and truth[card.best] > 0
        if ok:
            truth[card.best] -= 1
        rows.append([card.partial, card.confidence, ok])
print(json.dumps([rows, named]))
"""


def halves() -> tuple[dict, dict]:
    """uno_hemant's train photos: (the half the copy learns, the half it reads)."""
    meta = json.loads((DATA / SOURCE / "labels.json").read_text())
    learn, read = {}, {}
    for name, entries in meta["images"].items():
        if split_of(SOURCE, name) == "train":
            (learn if zlib.crc32(name.encode()) % 2 == 0 else read)[name] = entries
    return learn, read


def prepare(work: Path) -> Path:
    """The copy of the working tree that learns only ``halves()[0]`` of uno_hemant."""
    data = work / "shared" / "data"
    data.mkdir(parents=True, exist_ok=True)
    for folder in DATA.iterdir():
        link = data / folder.name
        if folder.is_dir() and folder.name != SOURCE and not link.exists():
            link.symlink_to(folder.resolve())
    learn, _ = halves()
    half = data / SOURCE
    half.mkdir(exist_ok=True)
    for name in learn:
        if not (half / name).exists():
            (half / name).symlink_to((DATA / SOURCE / name).resolve())
    meta = json.loads((DATA / SOURCE / "labels.json").read_text())
    (half / "labels.json").write_text(json.dumps({**meta, "images": learn}))
    repo = work / "repo"
    copy_working_tree(repo)
    return repo


def read(repo: Path, items: list) -> tuple[list, list]:
    """[partial, confidence, right] of every card the repo's UNO reader finds at threshold
    0, and [cards, right, wrong] of its reading at its own thresholds."""
    out = subprocess.run([sys.executable, "-c", READ], cwd=repo, input=json.dumps(items),
                         env={**os.environ, "PYTHONPATH": str(repo)}, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def table(title: str, read_out: tuple[list, list]) -> str:
    rows, (cards, right, wrong) = read_out
    lines = [f"{title}: at its thresholds {right} of {cards} cards named right, {wrong} wrong",
             "| seen | cards | " + " | ".join(f">= {t}" for t in LEVELS) + " |",
             "| --- | ---: | " + " | ".join("---:" for _ in LEVELS) + " |"]
    for partial in (True, False):
        these = [r for r in rows if r[0] == partial]
        cells = []
        for t in LEVELS:
            named = [r for r in these if r[1] >= t]
            cells.append(f"{len(named)} / {sum(not r[2] for r in named)}")
        lines.append(f"| {'in part' if partial else 'whole'} | {len(these)} | "
                     + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n(named / wrong)"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--python", default="/tmp/tv/bin/python", help="a python with torch")
    ap.add_argument("--work", type=Path, default=Path("/tmp/part_floor"))
    ap.add_argument("--score-only", action="store_true", help="the copy is trained")
    args = ap.parse_args()
    repo = args.work / "repo"
    if not args.score_only:
        repo = prepare(args.work)
        for cmd in TRAIN["uno"][:2]:  # (the copy's thresholds are not used: read at 0)
            print("$", " ".join(cmd), flush=True)
            subprocess.run([args.python, *cmd], cwd=repo, check=True,
                           env={**os.environ, "PYTHONPATH": str(repo)})
    _, unseen = halves()
    items = [(str(DATA / SOURCE / n), e) for n, e in sorted(unseen.items())]
    print(table(f"{SOURCE}: the {len(items)} train photos the copy never saw", read(repo, items)))
    calib = []
    for folder in sorted(DATA.iterdir()):
        if (folder / "labels.json").is_file():
            meta = json.loads((folder / "labels.json").read_text())
            if meta["deck"] == "uno":
                calib += [(str(folder / n), e) for n, e in sorted(meta["images"].items())
                          if split_of(folder.name, n) == "calib"]
    print(table(f"the calib split ({len(calib)} photos), the working tree's networks",
                read(ROOT, calib)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
