#!/usr/bin/env python3
"""How fast the UNO referee judges a card: the rules alone (``GAME.apply``), the camera hook,
and the views, over random legal games; plus the size of the state.

    .venv/bin/python benchmarks/bench_uno.py [--games 20]

The referee must answer "at once" when a card lands on the pile; on a Pi 4 aim for a p99 of
a few milliseconds for ``apply`` so that the table service's commit stays well under 20 ms.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.games.base import HOST, Accepted, Actor, Context  # noqa: E402
from companion.games.uno import GAME  # noqa: E402
from companion.games.uno.deck import COLOURS, deck_counts, is_legal  # noqa: E402


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(p / 100 * (len(values) - 1)))]


def game(rnd: random.Random, timings: dict[str, list[float]], players: int) -> int:
    """One round with random plays; returns the state size in bytes at the end."""
    state = GAME.setup([f"P{i}" for i in range(players)], {"first_dealer": "first_seat"}, rnd)
    deck = [c for c, k in deck_counts(0).items() for _ in range(k)]
    rnd.shuffle(deck)

    def apply(action, actor, kind):
        nonlocal state
        t0 = time.perf_counter()
        result = GAME.apply(state, action, Context(actor, rnd))
        timings[kind].append((time.perf_counter() - t0) * 1000)
        if isinstance(result, Accepted):
            state = result.state
        return result

    first = next(c for c in deck if c[0] != "w")
    apply({"type": "turn_up", "card": first}, HOST, "turn_up")
    for _ in range(300):
        r = state["round"]
        if state["phase"] != "play":
            break
        if r["awaiting"] is not None:
            seat = r["awaiting"]["seat"]
            apply({"type": "choose", "colour": rnd.choice(COLOURS),
                   "target": (seat + 1) % players}, Actor(seat=seat), "choose")
            continue
        label = rnd.choice(deck)
        t0 = time.perf_counter()
        action = GAME.on_card_seen(state, "discard", label, 0.95)
        timings["on_card_seen"].append((time.perf_counter() - t0) * 1000)
        if action is None or r["pending"] is not None or not is_legal(label, r["top"],
                                                                         r["colour"]):
            apply({"type": "draw"}, Actor(seat=r["current"]), "draw")
            if state["round"] and state["round"]["drawn"] is not None:
                apply({"type": "pass"}, Actor(seat=r["current"]), "pass")
            continue
        apply(action, Actor(seat=action["seat"], source="camera"), "play")
        t0 = time.perf_counter()
        GAME.public_view(state)
        GAME.player_view(state, 0)
        timings["views"].append((time.perf_counter() - t0) * 1000)
    return len(json.dumps(state))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    rnd = random.Random(1)
    timings: dict[str, list[float]] = {k: [] for k in
                                       ("turn_up", "play", "choose", "draw", "pass",
                                        "on_card_seen", "views")}
    sizes = [game(rnd, timings, args.players) for _ in range(args.games)]
    print(f"{'what':<14}{'n':>7}{'median ms':>12}{'p99 ms':>10}{'max ms':>10}")
    for kind, values in timings.items():
        if values:
            print(f"{kind:<14}{len(values):>7}{statistics.median(values):>12.3f}"
                  f"{pct(values, 99):>10.3f}{max(values):>10.3f}")
    print(f"state JSON at the end of a round: median {statistics.median(sizes):.0f} B, "
          f"max {max(sizes)} B")


if __name__ == "__main__":
    main()
