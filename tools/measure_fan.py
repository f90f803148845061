#!/usr/bin/env python3
"""Measure vision/fan.py on drawn scenes of overlapping cards (held-out seeds).

Per card of each scene: right (some reading on it names it), wrong (a reading on it, or on
the table, names another card), unsure (read, but below the threshold), missed; and the time
per 640x480 frame (median of the best of 3).

    .venv/bin/python tools/measure_fan.py [--scenes 200] [--table white]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision import synth_fan
from vision.fan import default_reader, read_fan

AGREE = True
SEEDS_FROM = 300_000  # apart from training (100000+), calibration (200000+) and tests


def photos() -> None:
    """read_fan on the "test" split of ../shared/data/playing_* (read in place). These show
    no overlapping cards, so this measures only what it says where it should say nothing
    or only a card that is there."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from train_vision import load_sets, read_small, split_of

    from vision.identify import Identifier

    ident = Identifier("french")
    data = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
    n = said = bad = 0
    said_alone = bad_alone = 0
    for s in load_sets(data):
        if s["deck"] != "french":
            continue
        for name, entries in sorted(s["images"].items()):
            if split_of(s["folder"].name, name) != "test":
                continue
            img, _ = read_small(s["folder"] / name)
            truth = {e["label"] for e in entries}
            n += 1
            # alone: every blob that is not one card-shaped quad
            for c in read_fan(img, agree=AGREE):
                if c.label is not None:
                    said_alone += 1
                    bad_alone += c.label not in truth
            named = [c.corners for c in ident.identify(img) if c.label is not None]
            for c in read_fan(img, exclude=named, agree=AGREE):  # as identify would call it
                if c.label is not None:
                    said += 1
                    if c.label not in truth:
                        bad += 1
                        print("  wrong on photo:", s["folder"].name, name, c.label, sorted(truth),
                              round(c.confidence, 3))
    print(f"held-out photos: {n}; read_fan alone: names said {said_alone}, not in the photo "
          f"{bad_alone}; after identify (its named cards excluded): said {said}, wrong {bad}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=200)
    ap.add_argument("--no-agree", action="store_true", help="read_fan(agree=False)")
    ap.add_argument("--table", choices=["wood", "cloth", "pattern", "white"],
                    help="every scene on this table (default: wood, cloth or a check, drawn)")
    ap.add_argument("--photos", action="store_true",
                    help="also run on the held-out real photos (single cards, a few scenes):"
                         " every name said there must be one of the photo's cards")
    args = ap.parse_args()
    global AGREE
    AGREE = not args.no_agree
    if args.photos:
        photos()
    default_reader()
    per_kind: dict[str, Counter] = {}
    times = []
    wrong_list = []
    for seed in range(SEEDS_FROM, SEEDS_FROM + args.scenes):
        sc = synth_fan.random_fan(seed, table=args.table)
        best = 1e9
        for _ in range(3):
            t0 = time.perf_counter()
            cards = read_fan(sc.image, agree=AGREE)
            best = min(best, time.perf_counter() - t0)
        times.append(best * 1000)
        cnt = per_kind.setdefault(sc.kind, Counter())
        cnt["cards"] += len(sc.labels)
        state: dict[int, str] = {}
        for c in cards:
            owner = synth_fan.index_owner(sc, c.corners)
            if c.label is None:
                if owner is not None:
                    state.setdefault(owner, "unsure")
                continue
            if owner is not None and sc.labels[owner] == c.label:
                state[owner] = "right"
            else:
                cnt["wrong"] += 1
                wrong_list.append((seed, c.label, None if owner is None else sc.labels[owner],
                                   round(c.confidence, 3)))
        for s in state.values():
            if s != "right":
                cnt[s] += 1
        cnt["right"] += sum(s == "right" for s in state.values())
    total = Counter()
    for kind, cnt in sorted(per_kind.items()):
        total.update(cnt)
        print(f"{kind:5s} cards {cnt['cards']:4d}  right {cnt['right']:4d} "
              f"({100 * cnt['right'] / cnt['cards']:.1f}%)  wrong {cnt['wrong']:3d}  "
              f"unsure {cnt['unsure']:3d}")
    if not total['cards']:
        return 0
    print(f"all   cards {total['cards']:4d}  right {total['right']:4d} "
          f"({100 * total['right'] / total['cards']:.1f}%)  wrong {total['wrong']:3d}  "
          f"unsure {total['unsure']:3d}")
    print("wrong (seed, said, truth, conf):", wrong_list[:20])
    t = np.array(times)
    print(f"read_fan 640x480: median {np.median(t):.1f} ms, p90 {np.percentile(t, 90):.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
