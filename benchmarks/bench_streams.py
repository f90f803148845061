#!/usr/bin/env python3
"""Many phones on one server (issue 34, "Connections"): 200 phones hold their streams while
10 tables take 5 actions a second each, and new pages keep loading.

    .venv/bin/python benchmarks/bench_streams.py [--engine asgi|waitress] [--seconds 30]
        [--streams 200] [--tables 10] [--rate 5] [--arrivals poisson|lockstep]

The server is ``companion serve``'s (web/asgi.py on uvicorn, or waitress's 48 threads as
before the switch) in a process of its own, with one route added for the benchmark only:
the number of listeners the tables hold (for the dropped streams). The phones are asyncio
connections in this process. Measured:

- arrivals: each table acts at random moments of its own (``poisson``, the default: a
  club's tables do not play in time with each other), or every table at the same moments
  (``lockstep``: ten actions and 200 pushes at once, five times a second; until 29 Nov the
  only load, and the harder one);
- push: from just before an action is sent to each stream's message of that version (the
  streams ask for patches, ``?diff=1``, as the phones' pages do);
- action answer: the POST's round trip (its commit is fsync'd: the push's floor);
- page load: a new connection's GET of a table's page (10 a second), to its last byte;
- errors: any answer but 2xx, a refused or timed-out connection, a stream that ended;
- dropped stream freed: 20 phones close their streams at once; the time until the tables
  hold 20 listeners fewer.

Goal (issue 34): 0 errors, page load p99 <= 1 s, push p99 <= 100 ms, freed within 5 s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TIMEOUT_S = 30.0
PIN = "2468"


def serve(engine: str, port: int, data_dir: str) -> None:
    """The server process: ``companion serve``'s app and server, with a route counting the
    tables' listeners."""
    from flask import jsonify

    from companion.config import load_config
    from companion.serve import bind, build, make_server

    cfg = load_config(env={"COMPANION_DATA_DIR": data_dir, "COMPANION_CAMERA": "off",
                           "COMPANION_CONFIG": os.path.join(data_dir, "none.toml")},
                      on_pi=False, host="127.0.0.1", port=port)
    service, app = build(cfg)

    @app.get("/bench/listeners")
    def listeners():
        return jsonify(sum(len(service.get(t["id"]).listeners)
                           for t in service.list_tables()))

    if engine == "waitress":
        from waitress.server import create_server

        server = create_server(app, host="127.0.0.1", port=port, threads=cfg.threads,
                               channel_timeout=3600)
        print("Serving", flush=True)
        server.run()
        return
    sock = bind("127.0.0.1", port)
    server = make_server(app, sock, cfg.threads)
    print("Serving", flush=True)
    server.run(sockets=[sock])


class Load:
    def __init__(self, port: int) -> None:
        self.port = port
        self.host = f"127.0.0.1:{port}"
        self.push: list[float] = []
        self.pages: list[float] = []
        self.acts: list[float] = []
        self.errors: dict[str, int] = {}
        self.sent: dict[tuple[str, int], float] = {}
        self.running = True

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1

    async def request(self, method: str, path: str, body: dict | None = None,
                      headers: dict | None = None) -> tuple[int, bytes]:
        data = b"" if body is None else json.dumps(body).encode()
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.host}", "Connection: close",
                f"Content-Length: {len(data)}", "Content-Type: application/json",
                *(f"{k}: {v}" for k, v in (headers or {}).items())]
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection("127.0.0.1", self.port), TIMEOUT_S)
        try:
            writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)
            raw = await asyncio.wait_for(reader.read(), TIMEOUT_S)
        finally:
            writer.close()
        status = int(raw.split(b" ", 2)[1])
        return status, raw.split(b"\r\n\r\n", 1)[1]

    async def stream(self, tid: str, drop: asyncio.Event | None) -> None:
        """One phone's stream: each message's version timed against its action's sending."""
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection("127.0.0.1", self.port), TIMEOUT_S)
        except (OSError, TimeoutError):
            self.error("stream refused")
            return
        writer.write(f"GET /api/tables/{tid}/stream?diff=1 HTTP/1.1\r\nHost: {self.host}"
                     "\r\n\r\n".encode())
        try:
            while self.running:
                if drop is not None and drop.is_set():
                    return
                try:
                    line = await asyncio.wait_for(reader.readline(), 1.0)
                except TimeoutError:
                    continue
                if not line:
                    self.error("stream ended")
                    return
                if line.startswith(b"data: "):
                    got = time.perf_counter()
                    message = json.loads(line[6:])
                    if "view" in message:
                        version = message["view"]["version"]
                    else:  # (a patch of the view before: ?diff=1, as the phones ask)
                        version = message["patch"].get("~", {}).get("version", {}).get("=")
                    sent = self.sent.get((tid, version))
                    if sent is not None:
                        self.push.append(got - sent)
        except OSError:
            self.error("stream broken")
        finally:
            writer.close()

    async def actions(self, tid: str, token: str, rate: float, arrivals: str,
                      seed: int) -> None:
        """One table's actions, ``rate`` a second: at random moments (``poisson``: each
        table on its own, as tables at a club are), or all tables at the same moments
        (``lockstep``: a burst of every table's action and every phone's push 5 times a
        second, the harder case)."""
        version = 0
        gaps = random.Random(seed)
        due = time.perf_counter()
        while self.running:
            due += gaps.expovariate(rate) if arrivals == "poisson" else 1 / rate
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            self.sent[(tid, version + 1)] = time.perf_counter()
            try:
                status, body = await self.request(
                    "POST", f"/api/tables/{tid}/actions",
                    {"action": {"type": "add_round", "scores": [1, 2]}},
                    {"Authorization": "Bearer " + token})
            except (OSError, TimeoutError):
                self.error("action timed out or refused")
                continue
            if status != 200:
                self.error(f"action {status}")
                continue
            version = json.loads(body)["version"]
            self.acts.append(time.perf_counter() - self.sent[(tid, version)])

    async def pages_loop(self, tids: list[str], per_s: float) -> None:
        async def one(tid: str) -> None:
            t0 = time.perf_counter()
            try:
                status, _ = await self.request("GET", f"/t/{tid}")
            except (OSError, TimeoutError):
                self.error("page timed out or refused")
                return
            if status != 200:
                self.error(f"page {status}")
                return
            self.pages.append(time.perf_counter() - t0)

        tasks = []
        i = 0
        while self.running:
            tasks.append(asyncio.ensure_future(one(tids[i % len(tids)])))
            i += 1
            await asyncio.sleep(1 / per_s)
        await asyncio.gather(*tasks)


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


async def run(args: argparse.Namespace, port: int) -> dict:
    load = Load(port)
    tables = []
    for _ in range(args.tables):
        status, body = await load.request("POST", "/api/tables",
                                          {"players": ["Ana", "Bruno"], "pin": PIN})
        assert status == 201, body
        tid = json.loads(body)["table"]["id"]
        status, body = await load.request("POST", f"/api/tables/{tid}/join", {"seat": 0})
        assert status == 201, body
        tables.append((tid, json.loads(body)["token"]))
    drops = [asyncio.Event() for _ in range(args.tables)]
    streams = []
    for i in range(args.streams):  # (the first two of each table's are the dropped ones)
        tid = tables[i % args.tables][0]
        drop = drops[i % args.tables] if i < 2 * args.tables else None
        streams.append(asyncio.ensure_future(load.stream(tid, drop)))
    expected = args.streams
    deadline = time.perf_counter() + TIMEOUT_S
    while await listeners(load) < expected and time.perf_counter() < deadline:
        await asyncio.sleep(0.05)
    held = await listeners(load)
    workers = [asyncio.ensure_future(load.actions(tid, token, args.rate, args.arrivals, i))
               for i, (tid, token) in enumerate(tables)]
    workers.append(asyncio.ensure_future(load.pages_loop([t for t, _ in tables], 10)))
    await asyncio.sleep(args.seconds)
    # 20 phones close their streams: how long until the tables let go of them
    t0 = time.perf_counter()
    for d in drops:
        d.set()
    freed = float("nan")
    while time.perf_counter() - t0 < TIMEOUT_S:
        if await listeners(load) <= held - 2 * args.tables:
            freed = time.perf_counter() - t0
            break
        await asyncio.sleep(0.02)
    load.running = False
    await asyncio.gather(*workers, return_exceptions=True)
    for s in streams:
        s.cancel()
    return {"streams held": f"{held} / {expected}", "actions/s": args.tables * args.rate,
            "action answer p50 ms": 1000 * pct(load.acts, 0.5),
            "action answer p99 ms": 1000 * pct(load.acts, 0.99),
            "pushes": len(load.push), "push p50 ms": 1000 * pct(load.push, 0.5),
            "push p99 ms": 1000 * pct(load.push, 0.99),
            "page loads": len(load.pages), "page p50 ms": 1000 * pct(load.pages, 0.5),
            "page p99 ms": 1000 * pct(load.pages, 0.99),
            "errors": sum(load.errors.values()), "errors by kind": load.errors or "-",
            "dropped stream freed s": freed}


async def listeners(load: Load) -> int:
    try:
        status, body = await load.request("GET", "/bench/listeners")
    except (OSError, TimeoutError):
        return -1
    return json.loads(body) if status == 200 else -1


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--engine", choices=("asgi", "waitress"), default="asgi")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--streams", type=int, default=200)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--rate", type=float, default=5.0)
    parser.add_argument("--arrivals", choices=("poisson", "lockstep"), default="poisson")
    parser.add_argument("--serve", nargs=2, metavar=("PORT", "DIR"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.engine, int(args.serve[0]), args.serve[1])
        return 0
    from tests.support import free_port

    port = free_port()
    with tempfile.TemporaryDirectory() as data_dir:
        env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock", "COMPANION_SPEECH": "silent"}
        proc = subprocess.Popen([sys.executable, __file__, "--engine", args.engine,
                                 "--serve", str(port), data_dir],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                                text=True)
        try:
            assert proc.stdout is not None
            while "Serving" not in (line := proc.stdout.readline()):
                if not line:
                    raise SystemExit("the server did not start")
            threading.Thread(target=proc.stdout.read, daemon=True).start()  # (drained)
            result = asyncio.run(run(args, port))
        finally:
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
    load1, load5, _ = os.getloadavg()
    print(f"bench_streams: engine {args.engine}, {args.streams} streams on {args.tables} "
          f"tables, {args.rate:g} actions/s each ({args.arrivals}), {args.seconds:g} s; "
          f"load average {load1:.2f} / {load5:.2f} (1 / 5 min), {os.cpu_count()} CPUs")
    goal = {"push p99 ms": "<= 100", "page p99 ms": "<= 1000", "errors": "0",
            "dropped stream freed s": "<= 5"}
    print(f"{'measure':<24} {'value':>14}  goal")
    for key, value in result.items():
        shown = f"{value:.1f}" if isinstance(value, float) else str(value)
        print(f"{key:<24} {shown:>14}  {goal.get(key, '')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
