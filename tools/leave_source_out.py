#!/usr/bin/env python3
"""Measure a deck's reader on a source of photos it never learned from.

The held-out split keeps a quarter of every folder out of training, but the other three
quarters of the same folder (the same printing, camera and table) are learned. The photos
the recogniser is judged on elsewhere are of other printings, cameras and tables, which is
what leaving a whole folder out measures. For each chosen folder this script:

1. copies the working tree (tracked files) to ``WORK/<folder>/repo``, beside a
   ``WORK/<folder>/shared/data`` of links to every other folder (the training scripts read
   ``../shared/data`` from the repo they run in, and write its ``vision/models``);
2. trains that folder's deck there as shipped (the whole-card network and the corner-index
   network: the fan reader's for the standard pack, UNO's own for UNO), and picks the
   thresholds;
3. reads every photo of the left-out folder with that copy, and prints right / wrong /
   unsure, with the shipped networks' score on the same photos beside it (which learned
   three quarters of them).

Training needs torch (a throw-away venv, see docs/vision.md); on this 2-core box about 20
minutes a standard folder, 30 a UNO one.

    .venv/bin/python tools/leave_source_out.py --python /tmp/tv/bin/python \\
        [--deck uno] [--source playing_wmcnicho ...] [--work /tmp/leave_out] [--score-only]
        [--extra /tmp/licensed/cadyze_cards_singles ...]

Trained copies can be read again with this tree's code (their networks kept) and with the
photos dimmed, blurred, compressed, stretched... as ``measure_stretched.py`` takes them:

    .venv/bin/python tools/leave_source_out.py --score-only --refresh-code --modes light
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from measure_stretched import LIGHT, SHAPES  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
TRAIN = {
    "french": (["tools/train_vision_cnn.py", "--deck", "french", "--aug", "16", "--epochs",
                "30", "--members", "2"],
               ["tools/train_corner_index.py", "--cache", "corner_index_data.npz"],
               ["tools/train_vision_cnn.py", "--deck", "french", "--calibrate-only"]),
    "uno": (["tools/train_vision_cnn.py", "--deck", "uno", "--aug", "16", "--epochs", "35",
             "--members", "2"],
            ["tools/train_vision_index.py"],
            ["tools/train_vision_cnn.py", "--deck", "uno", "--calibrate-only"]),
}

SCORE = r"""
import json, sys
from collections import Counter
from pathlib import Path
import cv2
sys.path.insert(0, "tools")
from measure_stretched import as_taken
from vision.identify import Identifier
NOT = {"back", "rules-card", "unknown"}
folder, deck, modes = Path(sys.argv[1]), sys.argv[2], sys.argv[3].split(",")
ident = Identifier(deck, data_path="/nonexistent-taught")
score = {m: [0, 0, 0] for m in modes}
for name, entries in sorted(json.loads((folder / "labels.json").read_text())["images"].items()):
    truth = Counter(e["label"] for e in entries if e["label"] not in NOT)
    image = cv2.imread(str(folder / name))
    for mode in modes:
        said = Counter(c.label for c in ident.identify(as_taken(image, mode)) if c.label)
        score[mode][0] += sum(truth.values())
        score[mode][1] += sum((truth & said).values())
        score[mode][2] += sum((said - truth).values())
print(json.dumps(score))
"""


def deck_of(source: str) -> str:
    return json.loads((DATA / source / "labels.json").read_text())["deck"]


def sources(deck: str) -> list[str]:
    return sorted(f.name for f in DATA.iterdir()
                  if (f / "labels.json").is_file() and deck_of(f.name) == deck)


def prepare(work: Path, source: str, extra: tuple[Path, ...] = ()) -> Path:
    """The copy of the working tree that will not see ``source``, learning from ``extra``
    folders as well (in the training scripts' form: ``make_licensed_set.py --out``)."""
    repo = work / source / "repo"
    data = work / source / "shared" / "data"
    data.mkdir(parents=True, exist_ok=True)
    for folder in [*DATA.iterdir(), *extra]:
        link = data / folder.name
        if folder.is_dir() and folder.name != source and not link.exists():
            link.symlink_to(folder.resolve())
    copy_working_tree(repo)
    return repo


def copy_working_tree(repo: Path, skip: str | None = None) -> None:
    """The tracked files of this working tree, as they are now, copied to ``repo``, but
    for those under ``skip`` (``vision/models/``: a trained copy keeps its networks)."""
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True,
                           capture_output=True).stdout.decode().split("\0")
    for rel in filter(None, files):
        if skip and rel.startswith(skip):
            continue
        dst = repo / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        if (ROOT / rel).is_file():
            dst.write_bytes((ROOT / rel).read_bytes())


def score(repo: Path, source: str, modes: tuple[str, ...] = ("as is",)
          ) -> dict[str, tuple[int, int, int]]:
    """(cards, right, wrong) for each of ``modes`` (``measure_stretched.as_taken``'s ways
    of taking the photos) of ``source``'s photos, read by the copy at ``repo``."""
    out = subprocess.run([sys.executable, "-c", SCORE, str(DATA / source), deck_of(source),
                          ",".join(modes)],
                         cwd=repo,
                         env={**os.environ, "PYTHONPATH": str(repo)}, check=True,
                         capture_output=True, text=True).stdout
    return {m: tuple(v) for m, v in json.loads(out.strip().splitlines()[-1]).items()}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--python", default="/tmp/tv/bin/python", help="a python with torch")
    ap.add_argument("--source", action="append",
                    help="folder to leave out (default: every folder of --deck)")
    ap.add_argument("--deck", default="french", choices=sorted(TRAIN))
    ap.add_argument("--work", type=Path, default=Path("/tmp/leave_out"))
    ap.add_argument("--score-only", action="store_true", help="the copies are trained")
    ap.add_argument("--extra", type=Path, action="append", default=[],
                    help="one more folder to learn from in every copy (as make_licensed_set.py"
                         " --out writes them: the CC BY photos of ../shared/train)")
    ap.add_argument("--refresh-code", action="store_true",
                    help="with --score-only: copy this tree's code over the copies first "
                         "(their networks kept)")
    ap.add_argument("--modes", choices=["as-is", "light", "shape"], default="as-is",
                    help="the photos as taken, or as measure_stretched.py's light or shape "
                         "modes give them")
    args = ap.parse_args()
    modes = {"as-is": ("as is",), "light": LIGHT, "shape": SHAPES}[args.modes]
    rows = []
    for source in args.source or sources(args.deck):
        repo = prepare(args.work, source, tuple(args.extra)) if not args.score_only else \
            args.work / source / "repo"
        if args.score_only and args.refresh_code:  # today's code, the copy's networks
            copy_working_tree(repo, skip="vision/models/")
        if not args.score_only:
            for cmd in TRAIN[deck_of(source)]:
                with open(args.work / source / "train.log", "a") as log:
                    subprocess.run([args.python, *cmd], cwd=repo, check=True, stdout=log,
                                   stderr=subprocess.STDOUT,
                                   env={**os.environ, "PYTHONPATH": str(repo)})
        # (the shipped networks' score beside it only for the photos as taken)
        rows.append((source, score(repo, source, modes),
                     score(ROOT, source) if modes == ("as is",) else None))
    if modes == ("as is",):
        print("| left out | cards | right | wrong | not named right"
              " | shipped networks: right / wrong |")
        print("| --- | ---: | ---: | ---: | ---: | --- |")
        for source, fold, shipped in rows:
            (n, right, wrong), (_, s_right, s_wrong) = fold["as is"], shipped["as is"]
            print(f"| {source} | {n} | {right} | {wrong} | {n - right} "
                  f"| {s_right} / {s_wrong} |")
        return 0
    print("| left out | cards | " + " | ".join(f"{m}: right / wrong" for m in modes) + " |")
    print("| --- | ---: | " + " | ".join("---" for _ in modes) + " |")
    for source, fold, _ in rows:
        cells = [f"{fold[m][1]} / {fold[m][2]}" for m in modes]
        print(f"| {source} | {fold[modes[0]][0]} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
