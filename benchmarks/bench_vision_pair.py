#!/usr/bin/env python3
"""Two versions of the recogniser timed in pairs, for a change smaller than the box's swings.

A shared 2-core box runs the same code 30% slower in one hour than in the next, so two runs
of bench_vision.py minutes apart cannot tell a 10% change. Here two worker processes, one
per source tree (this checkout and, say, ``git worktree add /tmp/old <rev>``), are handed
the same drawn frame in turn, each frame timed ``--repeat`` times in each (alternating which
goes first) and the fastest kept; the table gives the median over frames and the ratio.

    git worktree add /tmp/old HEAD~3
    .venv/bin/python benchmarks/bench_vision_pair.py /tmp/old [--frames 30] [--repeat 5]

``--other-python`` runs the other worker on another interpreter: this tree on the Raspberry
Pi's libraries (OpenCV 4.11 with numpy 1.24.2, the .venv-pi that CI makes) against this box's
OpenCV 5. The two versions draw a card's text apart, so give ``--scenes DIR`` too: the drawn
frames are kept there as PNG files (bench_vision.py's names) and both workers read the same:

    .venv/bin/python benchmarks/bench_vision_pair.py . --other-python .venv-pi/bin/python \
        --scenes /tmp/scenes
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CELLS = [("uno", 640, 480, 5), ("french", 640, 480, 5), ("huangdi", 640, 480, 5),
         ("uno", 640, 480, 0), ("uno", 1280, 720, 10)]


def worker(root: str, scenes: str | None = None) -> None:
    """Read "deck w h n seed" lines; answer each with the ms of one identify() of that frame
    (drawn, or read from ``scenes`` where it was kept there)."""
    sys.path.insert(0, root)
    import cv2

    import vision
    from companion.cards import DECKS
    from vision.identify import Identifier
    from vision.synth import render_scene

    cv2.setNumThreads(1)
    idents = {d: Identifier(d, data_path="/nonexistent-bench") for d in DECKS
              if d in ("uno", "french", "huangdi")}
    # (which tree it runs, on which OpenCV)
    print(f"{Path(vision.__file__).resolve().parent.parent}, OpenCV {cv2.__version__}",
          flush=True)
    frames: dict[tuple, object] = {}
    for line in sys.stdin:
        deck, w, h, n, seed = line.split()
        key = (deck, int(w), int(h), int(n), int(seed))
        if key not in frames:
            names, i = DECKS[deck], int(seed)
            cards = [(deck, names[(i * 7 + k * 13) % len(names)]) for k in range(int(n))]
            kept = Path(scenes) / f"{deck}-{w}x{h}-{n}-{i:03d}.png" if scenes else None
            frame = cv2.imread(str(kept)) if kept is not None and kept.is_file() else None
            if frame is None:
                frame = render_scene(cards, size=(int(w), int(h)),
                                     table=["wood", "cloth", "white", "pattern"][i % 4],
                                     seed=i)[0]
                if kept is not None:  # (written once: the other worker reads the same)
                    kept.parent.mkdir(parents=True, exist_ok=True)
                    tmp = kept.with_suffix(f".{os.getpid()}.png")
                    cv2.imwrite(str(tmp), frame)
                    os.replace(tmp, kept)
                    frame = cv2.imread(str(kept))
            frames[key] = frame
            idents[deck].identify(frames[key])  # warm up
        t0 = time.perf_counter()
        idents[deck].identify(frames[key])
        print(f"{(time.perf_counter() - t0) * 1000:.4f}", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("other", nargs="?", help="the other source tree (a git worktree)")
    ap.add_argument("--frames", type=int, default=30)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--other-python", default=sys.executable,
                    help="the interpreter of the other worker (default: this one)")
    ap.add_argument("--scenes", type=Path, help="keep the drawn frames here, read by both")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args.worker, str(args.scenes) if args.scenes else None)
        return 0
    if not args.other:
        ap.error("give the other source tree")
    trees = {"other": str(Path(args.other).resolve()), "this": str(ROOT)}
    python = {"other": args.other_python, "this": sys.executable}
    kept = ["--scenes", str(args.scenes.resolve())] if args.scenes else []
    procs = {k: subprocess.Popen([python[k], __file__, "--worker", root, *kept], cwd=root,
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
             for k, root in trees.items()}

    for k, p in procs.items():
        print(f"{k}: {p.stdout.readline().strip()}")

    def ask(k: str, query: str) -> float:
        procs[k].stdin.write(query + "\n")
        procs[k].stdin.flush()
        return float(procs[k].stdout.readline())

    print(f"{'cell':22} {'other ms':>9} {'this ms':>8} {'ratio':>6}")
    for deck, w, h, n in CELLS:
        best: dict[str, list[float]] = {k: [] for k in trees}
        for seed in range(args.frames):
            query = f"{deck} {w} {h} {n} {seed}"
            fastest = {k: float("inf") for k in trees}
            for r in range(args.repeat):
                for k in (list(trees) if r % 2 == 0 else list(trees)[::-1]):
                    fastest[k] = min(fastest[k], ask(k, query))
            for k in trees:
                best[k].append(fastest[k])
        m = {k: statistics.median(v) for k, v in best.items()}
        print(f"{deck + f' {w}x{h} {n}':22} {m['other']:9.2f} {m['this']:8.2f}"
              f" {m['this'] / m['other']:6.3f}", flush=True)
    for p in procs.values():
        p.stdin.close()
        p.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
