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

    .venv/bin/python benchmarks/bench_watcher.py [--plays 20]
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


def game(plays: int, seed: int = 0):
    """(frame, label put down on this frame or None) for the whole game."""
    rng = np.random.default_rng(seed)
    names = [n for n in DECKS["uno"] if n[0] in "rgby"]
    table = table_texture("wood", (640, 480), rng)
    for centre, label in (((110, 120), "green-3"), ((540, 380), "yellow-skip")):
        place_card(table, draw_card("uno", label), centre, 150, float(rng.uniform(-30, 30)))
    for _ in range(STILL_FRAMES):
        yield webcam(table, rng), None
    for _ in range(plays):
        label = names[int(rng.integers(len(names)))]
        before = table.copy()
        place_card(table, draw_card("uno", label), PILE, 150, float(rng.uniform(-20, 20)))
        for k in range(HAND_FRAMES):
            yield webcam(hand(before if k < HAND_FRAMES // 2 else table, k, rng), rng), None
        yield webcam(table, rng), label  # the first frame that shows it lying there
        for _ in range(STILL_FRAMES - 1):
            yield webcam(table, rng), None


def watch(plays: int, gate: MotionGate) -> dict:
    events: list = []
    watcher = ZoneWatcher([Zone("discard", (0.35, 0.3, 0.65, 0.75))],
                          Identifier("uno", data_path="/nonexistent-bench"), events.append,
                          gate=gate)
    times, shown = [], []
    for i, (image, label) in enumerate(game(plays)):
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
    return {"frames": len(times), "read": watcher.frames_read, "seen": seen,
            "mean": statistics.fmean(times), "median": statistics.median(times),
            "p90": times[int(0.9 * (len(times) - 1))], "p99": times[int(0.99 * (len(times) - 1))],
            "right": [s[0] for s in seen] == [s[0] for s in shown],
            "plays": f"{len(seen)}/{len(shown)}", "late": max(late, default=0.0)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--plays", type=int, default=20)
    args = ap.parse_args()
    cv2.setNumThreads(1)
    rows = [("still frames kept (shipped)", watch(args.plays, MotionGate())),
            ("every frame read", watch(args.plays, MotionGate(refresh_ms=0)))]
    print("| watching | frames | read | mean ms | median | p90 | p99 | one core at 30 fps "
          "| plays counted (right) | first seen, ms after the hand left (most) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |")
    for name, r in rows:
        print(f"| {name} | {r['frames']} | {r['read']} | {r['mean']:.2f} | {r['median']:.2f}"
              f" | {r['p90']:.2f} | {r['p99']:.2f} | {r['mean'] * FPS / 10:.0f}% "
              f"| {r['plays']} ({'yes' if r['right'] else 'NO'}) | {r['late']:.0f} |")
    same = rows[0][1]["seen"] == rows[1][1]["seen"]
    print(f"the same events, at the same frames, either way: {'yes' if same else 'NO'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
