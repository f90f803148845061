#!/usr/bin/env python3
"""The zone watcher on a camera's stream: what a minute of an UNO game costs, with the frames
of a still table kept (vision/motion.py, as shipped) and with every frame read.

A drawn 640x480 table at 30 fps with two cards lying apart and a discard pile in the middle.
Each play: a hand comes in from the table's edge (half a second), leaves a card on the pile
and goes; then the table lies still for 2.5 s. Every frame gets its own sensor noise and
JPEG, as a webcam's do. Per way of watching: the frames read, the mean, median, p90 and p99
ms a frame fed (reading it or keeping the last cards, the zones' update), the share of one
core at 30 fps, and whether the plays counted are the plays made, at the frames they were
first seen. One OpenCV thread, as on a Pi.

    .venv/bin/python benchmarks/bench_watcher.py [--plays 20] [--deck french] [--cards 10]

Three ways: as shipped (a frame read where it moved, and in it the cards lying still since
they were named keep their names: vision/unmoved.py), without keeping still cards, and every
frame read.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.cards import DECKS
from companion.events import CardSeen
from vision.frame import Frame
from vision.identify import Identifier
from vision.motion import MotionGate
from vision.synth import draw_card, place_card, table_texture
from vision.watcher import ZoneWatcher
from vision.zones import Zone

FPS = 30
FRAME_NS = 1_000_000_000 // FPS
HAND_FRAMES = 15  # half a second of a hand over the table
STILL_FRAMES = 75  # 2.5 s of a still table after each play
PILE = (320, 250)


def hand(scene: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    """The table with a hand and forearm reaching from the bottom edge to the pile and back
    (``k``: its frame of HAND_FRAMES)."""
    out = scene.copy()
    reach = 1 - abs(2 * k / (HAND_FRAMES - 1) - 1)  # 0 -> 1 -> 0
    x = int(PILE[0] + 40 * np.sin(k))
    y = int(480 + (PILE[1] - 480) * reach)
    skin = (int(rng.integers(90, 120)), int(rng.integers(140, 170)), 205)
    cv2.line(out, (x + 60, 520), (x, y + 40), skin, 70)
    cv2.ellipse(out, (x, y), (55, 70), 15, 0, 360, skin, -1)
    return out


def webcam(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    noisy = np.clip(image + rng.normal(0, 4, image.shape), 0, 255).astype(np.uint8)
    return cv2.imdecode(cv2.imencode(".jpg", noisy, [cv2.IMWRITE_JPEG_QUALITY, 80])[1],
                        cv2.IMREAD_COLOR)


# where ``--cards`` more than two lie, clear of the pile and of the hand's way (100 pixels long)
AROUND = [(50, 65), (150, 65), (250, 65), (390, 65), (490, 65), (590, 65),
          (60, 410), (160, 410), (480, 410), (580, 410), (50, 240), (590, 240)]


def game(plays: int, seed: int = 0, deck: str = "uno", cards: int = 2):
    """(frame, label put down on this frame or None) for the whole game."""
    rng = np.random.default_rng(seed)
    # (UNO's coloured cards; the standard pack but its jokers, BJ and RJ)
    names = [n for n in DECKS[deck]
             if (n[0] in "rgby" if deck == "uno" else n not in ("BJ", "RJ"))]
    table = table_texture("wood", (640, 480), rng)
    if cards == 2 and deck == "uno":
        lying = [((110, 120), "green-3", 150), ((540, 380), "yellow-skip", 150)]
    else:
        lying = [(c, names[(7 * k + 3) % len(names)], 100) for k, c in enumerate(AROUND[:cards])]
    for centre, label, long in lying:
        place_card(table, draw_card(deck, label), centre, long, float(rng.uniform(-30, 30)))
    for _ in range(STILL_FRAMES):
        yield webcam(table, rng), None
    for _ in range(plays):
        label = names[int(rng.integers(len(names)))]
        before = table.copy()
        place_card(table, draw_card(deck, label), PILE, 150, float(rng.uniform(-20, 20)))
        for k in range(HAND_FRAMES):
            yield webcam(hand(before if k < HAND_FRAMES // 2 else table, k, rng), rng), None
        yield webcam(table, rng), label  # the first frame that shows it lying there
        for _ in range(STILL_FRAMES - 1):
            yield webcam(table, rng), None


def watch(plays: int, gate: MotionGate, unmoved: bool, deck: str, cards: int) -> dict:
    events: list = []
    watcher = ZoneWatcher([Zone("discard", (0.35, 0.3, 0.65, 0.75))],
                          Identifier(deck, data_path="/nonexistent-bench"), events.append,
                          gate=gate, unmoved=unmoved)
    times, shown = [], []
    for i, (image, label) in enumerate(game(plays, deck=deck, cards=cards)):
        frame = Frame(image, i * FRAME_NS, i + 1)
        if label is not None:
            shown.append((label, frame.t_ns))
        t0 = time.perf_counter()
        watcher.feed(frame)
        times.append((time.perf_counter() - t0) * 1000)
    seen = [(e.label, e.t_ns) for e in events if isinstance(e, CardSeen)]
    # (a card is often seen under the leaving hand, before the frame that shows it alone)
    late = [(t - first) / 1e6 for (_, t), (_, first) in zip(seen, shown, strict=False)]
    times.sort()
    kept = 0 if watcher.unmoved is None else watcher.unmoved.kept_count
    return {"frames": len(times), "read": watcher.frames_read, "seen": seen, "kept": kept,
            "mean": statistics.fmean(times), "median": statistics.median(times),
            "p90": times[int(0.9 * (len(times) - 1))], "p99": times[int(0.99 * (len(times) - 1))],
            "right": [s[0] for s in seen] == [s[0] for s in shown],
            "named": sum(s[0] == t[0] for s, t in zip(seen, shown, strict=False)),
            "plays": f"{len(seen)}/{len(shown)}", "late": max(late, default=0.0)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--plays", type=int, default=20)
    ap.add_argument("--deck", choices=["uno", "french"], default="uno")
    ap.add_argument("--cards", type=int, default=2, choices=range(len(AROUND) + 1),
                    help="cards lying beside the pile (2: two UNO cards 150 pixels long)")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    ways = [("still frames and still cards kept (shipped)", MotionGate(), True),
            ("still frames kept, every card of a frame read named", MotionGate(), False),
            ("every frame read", MotionGate(refresh_ms=0), False)]
    rows = [(name, watch(args.plays, gate, unmoved, args.deck, args.cards))
            for name, gate, unmoved in ways]
    print(f"{args.deck}, {args.cards} cards beside the pile, {args.plays} plays; "
          f"OpenCV {cv2.__version__}")
    print("| watching | frames | read | cards kept | mean ms | median | p90 | p99 "
          "| one core at 30 fps | plays counted (right, or how many named right) "
          "| first seen, ms after the hand left (most) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |")
    for name, r in rows:
        print(f"| {name} | {r['frames']} | {r['read']} | {r['kept']} | {r['mean']:.2f}"
              f" | {r['median']:.2f} | {r['p90']:.2f} | {r['p99']:.2f}"
              f" | {r['mean'] * FPS / 10:.0f}% | {r['plays']}"
              f" ({'yes' if r['right'] else r['named']})"
              f" | {r['late']:.0f} |")
    for (name, r), (other, o) in ((rows[0], rows[1]), (rows[1], rows[2])):
        same = r["seen"] == o["seen"]
        print(f"the same events, at the same frames: {name} and {other}: "
              f"{'yes' if same else 'NO'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
