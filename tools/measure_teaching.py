#!/usr/bin/env python3
"""Measure teaching a deck at the table: each card taught from its first photo(s), then
every other photo of that folder read with the taught deck alone.

A table teaches a printing the networks never saw (a Versus deck, the real Huang Di, a
house deck) from a photo or two per card. The shared photos stand in for such a printing:
each folder is taught as a deck of its own (no network of ours is asked), from the first
``--shots`` photos of each card that show that card alone (sorted by file name, as a
table shows them one after another), and its other photos are read. Cards with no photo
left to read are still taught: they are the wrong answers the reader can give.

    .venv/bin/python tools/measure_teaching.py [--data ../shared/data] [--shots 1]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from train_vision import NOT_CARDS, load_sets  # noqa: E402

from companion.cards import fold_taught_name  # noqa: E402
from vision.identify import Identifier  # noqa: E402
from vision.store import DeckStore  # noqa: E402


def measure(ds: dict, shots: int, data_path: Path, part: int = 1) -> Counter:
    """Right, wrong and unsure names on ``ds``'s photos not used to teach. ``part``: only
    every ``part``-th card (in label order) is taught, as a table part-way through teaching
    its deck; the others' photos are still read, and any name said for them is wrong
    (counted apart too, as "untaught named")."""
    alone: dict[str, list[str]] = defaultdict(list)
    for name in sorted(ds["images"]):
        labels = [e["label"] for e in ds["images"][name] if e["label"] not in NOT_CARDS]
        if len(labels) == 1 and len(ds["images"][name]) == 1:
            alone[labels[0]].append(name)
    deck = fold_taught_name(f"t-{ds['folder'].name}")
    store = DeckStore(data_path)
    taught = set()
    kept = sorted(alone)[::part]
    for label in kept:
        for name in alone[label][:shots]:
            store.teach(deck, label, cv2.imread(str(ds["folder"] / name)))
            taught.add(name)
    score: Counter = Counter()
    if not taught:  # (scenes only: no photo shows a card alone)
        return score
    ident = Identifier(deck, data_path=data_path)
    taught_labels = {fold_taught_name(label) for label in kept}
    for name, entries in sorted(ds["images"].items()):
        if name in taught:
            continue
        truth = Counter(fold_taught_name(e["label"]) for e in entries
                        if e["label"] not in NOT_CARDS)
        cards = ident.identify(cv2.imread(str(ds["folder"] / name)))
        said = Counter(c.label for c in cards if c.label)
        score["cards"] += sum(truth.values())
        score["right"] += sum((truth & said).values())
        score["wrong"] += sum((said - truth).values())
        score["unsure"] += sum(1 for c in cards if not c.label)
        untaught = Counter({k: v for k, v in truth.items() if k not in taught_labels})
        score["untaught"] += sum(untaught.values())
        score["untaught named"] += min(sum((said - (truth - untaught)).values()),
                                       sum(untaught.values()))
    score["taught"] = len(kept)
    return score


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument("--shots", type=int, default=1, help="photos taught per card")
    ap.add_argument("--folder", action="append", help="only these folders (by name)")
    ap.add_argument("--part", type=int, default=1,
                    help="teach only every N-th card (a deck part-way taught)")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    print(f"| folder | deck | cards taught | cards read | right | wrong | unsure |"
          f" right % | wrong % | untaught read | untaught named |  (shots: {args.shots},"
          f" every {args.part} card taught)")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    total: Counter = Counter()
    for ds in load_sets(args.data):
        if args.folder and ds["folder"].name not in args.folder:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            s = measure(ds, args.shots, Path(tmp), args.part)
        if not s["taught"]:
            continue
        total.update(s)
        n = max(1, s["cards"])
        print(f"| {ds['folder'].name} | {ds['deck']} | {s['taught']} | {s['cards']} |"
              f" {s['right']} | {s['wrong']} | {s['unsure']} | {s['right'] / n:.1%} |"
              f" {s['wrong'] / n:.1%} | {s['untaught']} | {s['untaught named']} |", flush=True)
    n = max(1, total["cards"])
    print(f"| all | | {total['taught']} | {total['cards']} | {total['right']} |"
          f" {total['wrong']} | {total['unsure']} | {total['right'] / n:.1%} |"
          f" {total['wrong'] / n:.1%} | {total['untaught']} | {total['untaught named']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
