#!/usr/bin/env python3
"""The table service's speed and size, on this machine, through the real server.

    .venv/bin/python benchmarks/bench_table.py

Targets (issue #2, on a 2-core machine): commit p99 <= 20 ms, SSE push to 10 phones p99
<= 50 ms, server RSS <= 120 MB idle and with 10 phones, cold start <= 3 s.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.games.base import HOST  # noqa: E402
from companion.store import Store  # noqa: E402
from companion.table import TableService  # noqa: E402
from tests.support import Server  # noqa: E402

N_ACTIONS = 400
N_PHONES = 10
N_PUSHES = 100


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(p / 100 * (len(values) - 1)))]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def bench_commit(tmp: Path) -> list[float]:
    """submit() of one score pad round, judged and committed with fsync (synchronous=FULL)."""
    service = TableService(Store(tmp / "commit.sqlite3"))
    t = service.create_table("scorepad", ["A", "B", "C", "D"], "2468")
    times = []
    for i in range(N_ACTIONS):
        start = time.perf_counter()
        service.submit(t.id, {"type": "add_round", "scores": [i, -i, 0, 1]}, HOST)
        times.append((time.perf_counter() - start) * 1000)
    return times


def bench_http_action(server: Server, tid: str) -> list[float]:
    times = []
    conn = server.conn()
    for i in range(N_ACTIONS // 2):
        start = time.perf_counter()
        conn.request("POST", f"/api/tables/{tid}/actions", body=json.dumps(
            {"action": {"type": "add_round", "scores": [i, 0, 0]}}),
            headers={"Content-Type": "application/json", "X-Host-Pin": "2468"})
        resp = conn.getresponse()
        resp.read()
        assert resp.status == 200
        times.append((time.perf_counter() - start) * 1000)
    conn.close()
    return times


def bench_push(server: Server, tid: str) -> tuple[list[float], float]:
    """Time from sending an action to each of 10 phones' SSE streams receiving it."""
    arrivals: dict[int, list[float]] = {}
    lock = threading.Lock()
    ready = threading.Barrier(N_PHONES + 1)
    conns = []

    def phone(k: int) -> None:
        c = server.conn(timeout=30)
        conns.append(c)
        c.request("GET", f"/api/tables/{tid}/stream")
        resp = c.getresponse()
        first = True
        while True:
            line = resp.fp.readline()
            if not line:
                return
            if line.startswith(b"data: "):
                now = time.perf_counter()
                version = json.loads(line[6:])["view"]["version"]
                if first:
                    first = False
                    ready.wait()
                    continue
                with lock:
                    arrivals.setdefault(version, []).append(now)
                if len(arrivals.get(version, [])) and version >= 10_000:
                    return

    threads = [threading.Thread(target=phone, args=(k,), daemon=True) for k in range(N_PHONES)]
    for th in threads:
        th.start()
    ready.wait()
    rss_with_phones = rss_mb(server.proc.pid)
    sent: dict[int, float] = {}
    conn = server.conn()
    latencies = []
    for i in range(N_PUSHES):
        start = time.perf_counter()
        conn.request("POST", f"/api/tables/{tid}/actions", body=json.dumps(
            {"action": {"type": "add_round", "scores": [i, 1, 1]}}),
            headers={"Content-Type": "application/json", "X-Host-Pin": "2468"})
        resp = conn.getresponse()
        version = json.loads(resp.read())["version"]
        sent[version] = start
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:  # wait until all 10 phones have it
            with lock:
                if len(arrivals.get(version, [])) >= N_PHONES:
                    break
            time.sleep(0.0005)
        with lock:
            latencies += [(t - start) * 1000 for t in arrivals.get(version, [])]
    conn.close()
    for c in conns:
        c.close()
    return latencies, rss_with_phones


def bench_cold_start(tmp: Path, runs: int = 3) -> list[float]:
    out = []
    for k in range(runs):
        s = Server(tmp / f"cold{k}")
        start = time.perf_counter()
        s.start()
        # first answer to a real page request
        c = s.conn()
        c.request("GET", "/api/tables")
        c.getresponse().read()
        out.append(time.perf_counter() - start)
        s.stop()
    return out


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        commit = bench_commit(tmp)
        server = Server(tmp / "data").start()
        try:
            _, created = server.request("POST", "/api/tables", {
                "players": ["A", "B", "C"], "pin": "2468"})
            tid = created["table"]["id"]
            idle = rss_mb(server.proc.pid)
            http = bench_http_action(server, tid)
            push, rss_phones = bench_push(server, tid)
        finally:
            server.stop()
        cold = bench_cold_start(tmp)
        camera = Server(tmp / "camera", camera="replay").start()
        try:
            # the whole product: the replay camera recognising frames beside the tables
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline and not camera.request(
                    "GET", "/api/camera")[1].get("top_cards"):
                time.sleep(0.2)  # until the watcher has judged its first frames
            time.sleep(2)
            rss_camera = rss_mb(camera.proc.pid)
            status = camera.request("GET", "/api/camera")[1]
        finally:
            camera.stop()
    rows = [
        ("commit: submit() judged + fsync'd, p50", statistics.median(commit), "ms", ""),
        ("commit: submit() judged + fsync'd, p99", pct(commit, 99), "ms", "<= 20"),
        ("action over HTTP, acknowledged, p50", statistics.median(http), "ms", ""),
        ("action over HTTP, acknowledged, p99", pct(http, 99), "ms", "<= 20"),
        (f"SSE push to {N_PHONES} phones, p50", statistics.median(push), "ms", ""),
        (f"SSE push to {N_PHONES} phones, p99", pct(push, 99), "ms", "<= 50"),
        ("server RSS, idle", idle, "MB", "<= 120"),
        (f"server RSS, {N_PHONES} phones streaming", rss_phones, "MB", "<= 120"),
        ("server RSS, replay camera running" + ("" if status.get("running") else " (!)"),
         rss_camera, "MB", "<= 120"),
        ("cold start to first answer (median of 3)", statistics.median(cold), "s", "<= 3"),
    ]
    print(f"| {'measure':46} | {'value':>8} | unit | target |")
    print(f"|{'-' * 48}|{'-' * 10}|------|--------|")
    for name, value, unit, target in rows:
        print(f"| {name:46} | {value:8.2f} | {unit:4} | {target:6} |")


if __name__ == "__main__":
    main()
