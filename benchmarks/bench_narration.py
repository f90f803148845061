"""How long from a werewolf step starting to its narration playing, per language.

A real TableService (in-memory store) runs werewolf tables whose steps the host skips one
after another; the Narrator hears every update and speaks through espeak-ng (text to speech
included). For each step we time, from just before the action that starts it:

* first line: the first narration line of the step change (often "X, go back to sleep")
  starts playing;
* step line: the line that announces the new step ("Seer, wake up...") starts playing.

With no sound player (aplay/paplay/pw-play) here, "playing" is the moment the WAV is
rendered and would be handed to the player; with one, the step line also waits for the
previous line to finish playing, which is pacing rather than latency.

    .venv/bin/python benchmarks/bench_narration.py [--steps 60] [--json]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.clock import FakeClock
from companion.games.base import HOST
from companion.narration import EspeakBackend, Narrator, Spoken
from companion.store import Store
from companion.table import TableService

LANGS = ("en", "pt_BR", "zh_Hans")
NAMES = [
    "Ana",
    "Bruno",
    "Carla",
    "Davi",
    "Eva",
    "Fabio",
    "Gil",
    "Hugo",
    "Iris",
    "Joao",
    "Kai",
    "Lia",
]


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]


def run_language(lang: str, steps: int, player: str | None) -> dict:
    spoken: list[Spoken] = []
    backend = EspeakBackend(player=player, on_spoken=spoken.append)
    service = TableService(Store(":memory:"), FakeClock())
    service.add_listener(Narrator(backend, lang).handle)
    first, step_line, render = [], [], []
    table = None
    done = 0
    while done < steps:
        if table is None or service.get(table).state["phase"] == "over":
            live = service.create_table("werewolf", NAMES, "1234", {"language": lang}, seed=done)
            table = live.id
            service.submit(table, {"type": "start"}, HOST)
            backend.flush()
            spoken.clear()
        t0 = time.perf_counter()
        service.submit(table, {"type": "skip"}, HOST)
        backend.flush()
        lines = [s for s in spoken if s.asked >= t0]
        spoken.clear()
        if not lines:
            continue
        first.append(lines[0].playing - t0)
        wake = [s for s in lines if not str(s.meta.get("key", "")).endswith("_sleep")]
        if wake:
            step_line.append(wake[0].playing - t0)
        render += [s.rendered - s.started for s in lines]
        done += 1
    backend.close()
    return {
        "language": lang,
        "voice": backend.command(lang)[2],
        "steps": done,
        "first_p50_ms": 1000 * pct(first, 50),
        "first_p99_ms": 1000 * pct(first, 99),
        "step_p50_ms": 1000 * pct(step_line, 50),
        "step_p99_ms": 1000 * pct(step_line, 99),
        "tts_mean_ms": 1000 * statistics.mean(render) if render else float("nan"),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=60, help="steps per language")
    ap.add_argument("--player", default="auto", help="aplay|paplay|pw-play|none|auto")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if not shutil.which("espeak-ng"):
        print("espeak-ng is not installed: nothing to measure", file=sys.stderr)
        return 1
    player = None if args.player == "none" else (True if args.player == "auto" else args.player)
    rows = [run_language(lang, args.steps, player) for lang in LANGS]
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    probe = EspeakBackend(player=player)
    print(f"narration latency, step start -> line playing (player: {probe.player or 'none'})")
    head = (
        f"{'language':<9}{'voice':<17}{'steps':>6}{'first p50':>11}{'first p99':>11}"
        f"{'step p50':>10}{'step p99':>10}{'tts/line':>10}"
    )
    print(head)
    print("-" * len(head))
    for r in rows:
        print(
            f"{r['language']:<9}{r['voice']:<17}{r['steps']:>6}"
            f"{r['first_p50_ms']:>9.1f}ms{r['first_p99_ms']:>9.1f}ms"
            f"{r['step_p50_ms']:>8.1f}ms{r['step_p99_ms']:>8.1f}ms{r['tts_mean_ms']:>8.1f}ms"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
