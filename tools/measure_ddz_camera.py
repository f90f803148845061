#!/usr/bin/env python3
"""Measure what the Dou Di Zhu camera does with a play: drawn plays, the real recogniser,
the zone watcher in its whole-set mode and the game's hook, play by play.

Each scene is one play as a table lays it (a single, a pair, a trio, a trio with a single,
a bomb, a five-card sequence; suits drawn at random) in a fan, a spread row or an offset
pile (vision/synth_fan.py: every card's top-left index in view), on wood, a dark cloth, a
pink check or a light-grey (white) table, half of them with a lamp's glare, as a JPEG. The
frame is fed to a ZoneWatcher over the whole frame until it commits the set, and its
``CardSeen`` goes to ``GAME.on_card_seen`` on a fresh 3-player hand (seat 0 leads). The
outcome, per table and layout: the play counted at once (right ranks, or wrong: a card
missed or misread, the one outcome that records a wrong play silently), proposed to the
player (right or wrong cards: the player confirms or corrects it), or nothing (the
player taps the play). With ``camera_confirm`` on (the default) every play is proposed.

    .venv/bin/python tools/measure_ddz_camera.py [--scenes 400]
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.games.base import Actor, Context
from companion.games.doudizhu import GAME
from companion.games.doudizhu.cards import rank_of
from vision.identify import Identifier
from vision.synth_fan import render_fan
from vision.watcher import ZoneWatcher
from vision.zones import Zone

SUITS = "SHDC"
RANKS = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]
TABLES = ("wood", "cloth", "pattern", "white")
LAYS = ("fan", "row", "pile")
SEEDS_FROM = 400_000  # apart from the fan reader's training, calibration and measure_fan
OUTCOMES = ("played right", "played wrong", "proposed right", "proposed wrong", "nothing")


def a_play(rng: random.Random) -> list[str]:
    kind = rng.choice(["single", "pair", "trio", "trio1", "bomb", "seq"])
    if kind == "single":
        return [rng.choice(RANKS) + rng.choice(SUITS)]
    if kind in ("pair", "trio", "bomb"):
        r = rng.choice(RANKS)
        return [r + s for s in rng.sample(SUITS, {"pair": 2, "trio": 3, "bomb": 4}[kind])]
    if kind == "trio1":
        r, k = rng.sample(RANKS, 2)
        return [r + s for s in rng.sample(SUITS, 3)] + [k + rng.choice(SUITS)]
    start = rng.randrange(0, 8)  # 3-7 up to 10-A
    return [RANKS[start + j] + rng.choice(SUITS) for j in range(5)]


def hand_to_lead(options: dict) -> dict:
    """A fresh 3-player hand, seat 0 the landlord to lead (bid 3 ends the auction)."""
    state = GAME.setup(["A", "B", "C"], options, random.Random(0))
    result = GAME.apply(state, {"type": "bid", "bid": 3},
                        Context(Actor(seat=0), random.Random(1)))
    return result.state


def outcome(state: dict, play: list[str], seen) -> str:
    action = None if seen is None else GAME.on_card_seen(
        state, "middle", seen.label, seen.confidence, cards=seen.cards, guesses=seen.guesses)
    if action is None:
        return "nothing"
    right = sorted(rank_of(c) for c in action["cards"]) == sorted(rank_of(c) for c in play)
    return {"play": "played", "propose": "proposed"}[action["type"]] + (
        " right" if right else " wrong")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=400)
    args = ap.parse_args()
    ident = Identifier("french")
    states = {on: hand_to_lead({"camera_confirm": on}) for on in (False, True)}
    rng = random.Random(36)
    by_cell: dict[tuple[str, str], Counter] = {}
    totals = {on: Counter() for on in (False, True)}
    cards = named = 0
    for i in range(args.scenes):
        play = a_play(rng)
        table, lay = TABLES[i % len(TABLES)], LAYS[(i // len(TABLES)) % len(LAYS)]
        scene = render_fan(play, seed=SEEDS_FROM + i, kind=lay, table=table,
                           glare=rng.random() < 0.5)
        frame = cv2.imdecode(cv2.imencode(".jpg", scene.image,
                                          [cv2.IMWRITE_JPEG_QUALITY, 85])[1], 1)
        events: list = []
        watcher = ZoneWatcher([Zone("middle", (0, 0, 1, 1))], None, events.append)
        watcher.whole_sets = frozenset(GAME.camera_sets)
        found = ident.identify(frame)
        for k in range(6):  # the same frame, 100 ms apart, until the set holds
            watcher.feed_cards(found, k * 100_000_000, frame.shape[1], frame.shape[0])
        seen = next((e for e in events if getattr(e, "cards", None) is not None), None)
        cards += len(play)
        named += len({c.label for c in found if c.label in play})
        cell = by_cell.setdefault((table, lay), Counter())
        cell["plays"] += 1
        for on in (False, True):
            result = outcome(states[on], play, seen)
            totals[on][result] += 1
            if not on:
                cell[result] += 1
    print(f"{args.scenes} drawn plays, {cards} cards, {named} named right "
          f"({100 * named / max(1, cards):.1f}%)\n")
    print("camera_confirm off (plays read surely count at once):\n")
    print("| table | layout | plays | " + " | ".join(OUTCOMES) + " |")
    print("| --- | --- | ---: |" + " ---: |" * len(OUTCOMES))
    for (table, lay), cell in sorted(by_cell.items()):
        print(f"| {table} | {lay} | {cell['plays']} | "
              + " | ".join(str(cell[o]) for o in OUTCOMES) + " |")
    print("\n| camera_confirm | " + " | ".join(OUTCOMES) + " |")
    print("| --- |" + " ---: |" * len(OUTCOMES))
    for on in (False, True):
        print(f"| {'on' if on else 'off'} | "
              + " | ".join(str(totals[on][o]) for o in OUTCOMES) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
