#!/usr/bin/env python3
"""UNO referee through the camera: from the frame that makes a card stable in the discard
zone to the verdict arriving on a phone's SSE stream.

    .venv/bin/python benchmarks/bench_uno_camera.py

Per play: that frame's recognition (finding and naming every card, 640x480), the zone
watcher, the bridge, the rules, the fsync'd commit and the SSE push through waitress to a
phone. Target (issue #4): p99 <= 150 ms on this machine. The frames are drawn scenes
(vision/synth.py), one legal card after another, 33 ms apart in camera time.
"""

from __future__ import annotations

import http.client
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
from waitress.server import create_server  # noqa: E402

from companion.camera_bridge import CameraBridge  # noqa: E402
from companion.cards import parse_uno, uno_deck  # noqa: E402
from companion.config import Config  # noqa: E402
from companion.games.base import HOST  # noqa: E402
from companion.store import Store  # noqa: E402
from companion.table import TableService  # noqa: E402
from vision.frame import Frame  # noqa: E402
from vision.identify import Identifier  # noqa: E402
from vision.synth import render_scene  # noqa: E402
from vision.watcher import ZoneWatcher  # noqa: E402
from vision.zones import Zone  # noqa: E402
from web import create_app  # noqa: E402

PLAYS_PER_TABLE = int(__import__("os").environ.get("PLAYS", 28))
TABLES = int(__import__("os").environ.get("TABLES", 3))
FRAME_NS = 33_000_000


def legal_walk(first: str, n: int, rng: random.Random) -> list[str]:
    """Number cards that each match the previous by colour or number, within the deck."""
    left = {c: uno_deck().count(c) for c in set(uno_deck()) if parse_uno(c).is_number}
    left[first] -= 1
    walk, top = [], parse_uno(first)
    while len(walk) < n:
        options = [c for c, k in left.items() if k > 0 and c != top.name and (
            parse_uno(c).colour == top.colour or parse_uno(c).value == top.value)]
        card = rng.choice(options)
        left[card] -= 1
        walk.append(card)
        top = parse_uno(card)
    return walk


def main() -> None:
    cv2.setNumThreads(1)
    rng = random.Random(7)
    latencies: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        service = TableService(Store(Path(tmp) / "bench.sqlite3"))
        server = create_server(create_app(service, Config()), host="127.0.0.1", port=0,
                               threads=8)
        threading.Thread(target=server.run, daemon=True).start()
        port = server.effective_port
        identifier = Identifier("uno")
        scenes: dict[str, object] = {}
        for _table in range(TABLES):
            t = service.create_table("uno", ["A", "B", "C", "D"], "2468", {"hand_size": 10})
            service.submit(t.id, {"type": "set_dealer", "dealer": 0}, HOST)
            service.submit(t.id, {"type": "turn_up", "card": "red-5"}, HOST)
            arrivals: dict[int, float] = {}
            got = threading.Condition()

            def phone(tid: str = t.id, arrivals=arrivals, got=got) -> None:
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                c.request("GET", f"/api/tables/{tid}/stream")
                resp = c.getresponse()
                while True:
                    line = resp.fp.readline()
                    if not line:
                        return
                    if line.startswith(b"data: "):
                        now = time.perf_counter()
                        version = json.loads(line[6:])["view"]["version"]
                        with got:
                            arrivals.setdefault(version, now)
                            got.notify_all()

            threading.Thread(target=phone, daemon=True).start()
            bridge = CameraBridge(service, t.id)
            watcher = ZoneWatcher([Zone("discard", (0.3, 0.25, 0.7, 0.75))], identifier,
                                  bridge.handle)
            t_ns, seq = 10**12, 0
            for card in ["red-5", *legal_walk("red-5", PLAYS_PER_TABLE, rng)]:
                if card not in scenes:
                    scenes[card] = render_scene([("uno", card)], seed=len(scenes),
                                                card_height=220)[0]
                image = scenes[card]
                version_before = service.get(t.id).version
                for _ in range(30):  # frames until the card is stable (300 ms, 3 frames)
                    seq += 1
                    t_ns += FRAME_NS
                    start = time.perf_counter()
                    watcher.feed(Frame(image, t_ns, seq))  # recognition included
                    if service.get(t.id).version != version_before:
                        break
                version = service.get(t.id).version
                if version == version_before:
                    continue  # the card already turned up, or a reading left unsure
                with got:
                    got.wait_for(lambda v=version, a=arrivals: v in a, timeout=5)
                if version in arrivals:
                    latencies.append((arrivals[version] - start) * 1000)
        server.close()
    latencies.sort()
    p99 = latencies[min(len(latencies) - 1, round(0.99 * (len(latencies) - 1)))]
    print(f"| {'measure':54} | {'value':>8} | target |")
    print(f"|{'-' * 56}|{'-' * 10}|--------|")
    print(f"| {'plays judged through the camera':54} | {len(latencies):8d} |        |")
    print(f"| {'stable card -> verdict on the phone, p50 (ms)':54} | "
          f"{statistics.median(latencies):8.1f} |        |")
    print(f"| {'stable card -> verdict on the phone, p99 (ms)':54} | {p99:8.1f} | <= 150 |")
    print(f"| {'of which recognition of that frame, median (ms)':54} | "
          f"{statistics.median([identifier.timed(s)[1] for s in scenes.values()]):8.1f} |"
          f"        |")


if __name__ == "__main__":
    main()
