#!/usr/bin/env python3
"""Soak: hours of table play, compressed, against a real ``companion serve`` on loopback, with
the server's RSS, thread count, database size and log size sampled as it goes. A server that
runs all evening on a Pi must not grow with time: memory and threads level off, and only the
event log grows, by a bounded amount per action.

    .venv/bin/python benchmarks/bench_soak.py [--minutes 10] [--camera replay|off]

The play (all through the HTTP API, as phones send it):
  * a score pad table: rounds added by the host;
  * an UNO table of four: the seat to play draws and passes (a refusal is played too: the
    server answers it and the buzzer event goes out);
  * a Werewolf village of eight, dealt with empty seats and driven by the steps' timeouts
    (the narration's text follows each step);
  * a Versus table of four: phones' slap buttons (POST /slap, judged as the GPIO presses) and
    pile tops;
  * phones holding live streams (SSE), each reconnecting now and then as a phone does when
    its screen sleeps (a thread or buffer kept per closed connection would show here);
  * the replay camera, judging frames beside it (``--camera replay``).
A finished game is followed by a rematch (a new table), as an evening goes.

Compression: a real table acts about once every 10 s (6 actions a minute per table). The
"simulated hours" column is the actions sent divided by that rate for the tables played.

Prints a table of each measure's first and last value and its slope per real hour and per
simulated hour (least squares over the samples after the first fifth, the warm-up).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.support import Server  # noqa: E402

PIN = "2468"
REAL_ACTIONS_PER_TABLE_MINUTE = 6.0
HOST = {"X-Host-Pin": PIN}


def proc_status(pid: int) -> dict[str, int]:
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM", "Threads"):
            out[key] = int(value.split()[0])
    return out


def dir_bytes(path: Path, suffix: str = "") -> int:
    total = 0
    for p in path.rglob("*"):
        if p.is_file() and p.name.startswith(suffix):
            with contextlib.suppress(FileNotFoundError):  # (a WAL checkpointed meanwhile)
                total += p.stat().st_size
    return total


@dataclass
class Sample:
    t: float           # seconds since the start
    actions: int       # actions sent so far
    rss_mb: float
    threads: int
    db_kb: float       # the SQLite file with its WAL
    log_kb: float      # what the server printed (its journal on a Pi)
    data_kb: float     # the whole data folder (backups included)


@dataclass
class Soak:
    """The load generator and the sampler, around one server."""

    server: Server
    log_path: Path
    phones: int = 12
    rate: float = 20.0          # actions a second, all tables together
    reconnect_s: float = 20.0   # a phone's stream is dropped and reopened this often
    seed: int = 1
    samples: list[Sample] = field(default_factory=list)
    actions: int = 0
    refused: int = 0
    opened: int = 0             # streams opened (each phone reopens its own now and then)
    errors: list[str] = field(default_factory=list)
    tables: dict[str, str] = field(default_factory=dict)  # kind -> table id
    tokens: dict[str, list[str]] = field(default_factory=dict)
    _stop: threading.Event = field(default_factory=threading.Event)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    # ---- the tables -------------------------------------------------------------------

    def req(self, method: str, path: str, body=None, headers=None):
        return self.server.request(method, path, body, headers)

    def create(self, kind: str) -> None:
        game, players, options = {
            "scorepad": ("scorepad", ["Ana", "Bruno", "Chen"], None),
            "uno": ("uno", ["Ana", "Bruno", "Chen", "Dara"], None),
            "werewolf": ("werewolf", [f"P{i}" for i in range(8)], None),
            "versus": ("versus", ["Ana", "Bruno", "Chen", "Dara"], None),
        }[kind]
        status, got = self.req("POST", "/api/tables", {"game": game, "players": players,
                                                       "pin": PIN, "options": options})
        if status != 201:
            raise RuntimeError(f"create {kind}: {status} {got}")
        tid = got["table"]["id"]
        self.tables[kind] = tid
        self.tokens[kind] = []
        for seat in range(len(players)):
            if kind == "werewolf" and seat >= 2:
                break  # (the rest are empty seats: the deal is told so)
            status, joined = self.req("POST", f"/api/tables/{tid}/join", {"seat": seat})
            if status == 201:
                self.tokens[kind].append(joined["token"])
        if kind == "uno":
            self.act(kind, {"type": "set_dealer", "dealer": 0})
        if kind == "werewolf":
            self.act(kind, {"type": "start", "empty_seats": True})

    def rematch(self, kind: str) -> None:
        old = self.tables[kind]
        status, got = self.req("POST", f"/api/tables/{old}/rematch", None, HOST)
        if status != 201:
            self.create(kind)
            return
        self.req("DELETE", f"/api/tables/{old}", None, HOST)
        self.tables[kind] = got["table"]["id"]
        self.tokens[kind] = []
        tid = got["table"]["id"]
        for seat in range(2 if kind == "werewolf" else 3):
            status, joined = self.req("POST", f"/api/tables/{tid}/join", {"seat": seat})
            if status == 201:
                self.tokens[kind].append(joined["token"])
        if kind == "uno":
            self.act(kind, {"type": "set_dealer", "dealer": 0})
        if kind == "werewolf":
            self.act(kind, {"type": "start", "empty_seats": True})

    def act(self, kind: str, action: dict, as_seat: int | None = None) -> dict:
        body: dict = {"action": action}
        if as_seat is not None:
            body["as_seat"] = as_seat
        status, got = self.req("POST", f"/api/tables/{self.tables[kind]}/actions", body, HOST)
        with self._lock:
            self.actions += 1
            if status != 200:
                self.refused += 1
            if status >= 500:
                self.errors.append(f"{kind} {action}: {status} {got}")
        return got if isinstance(got, dict) else {}

    def view(self, kind: str) -> dict:
        """The table as the host's phone sees it (``public``, ``host``)."""
        status, got = self.req("GET", f"/api/tables/{self.tables[kind]}", None, HOST)
        return got if status == 200 and isinstance(got, dict) else {}

    def step(self, rng: random.Random, n: int) -> None:
        """One turn of one table, round robin."""
        kind = ("scorepad", "uno", "werewolf", "versus")[n % 4]
        if kind == "scorepad":
            self.act(kind, {"type": "add_round",
                            "scores": [rng.randint(-5, 20) for _ in range(3)]})
            if n % 400 == 0:
                self.rematch(kind)
        elif kind == "uno":
            public = self.view(kind).get("public", {})
            if public.get("ended") or n % 600 == 1:
                self.rematch(kind)
                return
            if public.get("phase") == "first_card":
                self.act(kind, {"type": "turn_up", "card": rng.choice(
                    ["red-5", "blue-7", "green-2", "yellow-9"])})
                return
            turn = (public.get("round") or {}).get("turn")
            turn = turn if isinstance(turn, int) else 0
            if rng.random() < 0.05:  # a refused card: the buzzer's event goes out
                self.act(kind, {"type": "play", "card": "wild-draw4", "colour": "red"},
                         as_seat=(turn + 1) % 4)
            self.act(kind, {"type": "draw"}, as_seat=turn)
            self.act(kind, {"type": "pass"}, as_seat=turn)
        elif kind == "werewolf":
            # (the steps' timers run on the server's clock: the host skips them instead)
            self.act(kind, {"type": "skip"} if rng.random() < 0.9 else {"type": "timeout"})
            if n % 300 == 2:
                self.rematch(kind)
        else:
            tid = self.tables[kind]
            tokens = self.tokens[kind]
            if tokens and rng.random() < 0.5:
                token = rng.choice(tokens)
                status, _ = self.req("POST", f"/api/tables/{tid}/slap", {},
                                     {"Authorization": "Bearer " + token})
                with self._lock:
                    self.actions += 1
                    self.refused += status not in (200, 202)
            else:
                self.act(kind, {"type": "pile_top", "seat": rng.randrange(4),
                                "card": rng.choice(["star", "moon", "sun", "drop"])})
            if n % 500 == 3:
                self.rematch(kind)

    def player(self) -> None:
        rng = random.Random(self.seed)
        n = 0
        period = 1.0 / self.rate
        next_at = time.monotonic()
        while not self._stop.is_set():
            try:
                self.step(rng, n)
            except Exception as exc:  # (a dropped connection is recorded, not fatal)
                self.errors.append(f"step {n}: {exc!r}")
            n += 1
            next_at += period
            delay = next_at - time.monotonic()
            if delay > 0:
                self._stop.wait(delay)
            else:
                next_at = time.monotonic()

    # ---- the phones -------------------------------------------------------------------

    def phone(self, k: int) -> None:
        """A phone on a table's stream; it drops the connection and opens a new one every
        ``reconnect_s`` (staggered), as a phone whose screen sleeps does."""
        kinds = ("scorepad", "uno", "werewolf", "versus")
        while not self._stop.is_set():
            kind = kinds[k % 4]
            tid = self.tables.get(kind)
            query = ""
            tokens = self.tokens.get(kind) or []
            if tokens and k % 3 == 0:
                status, got = self.req("POST", f"/api/tables/{tid}/stream-ticket", None,
                                       {"Authorization": "Bearer " + tokens[k % len(tokens)]})
                if status == 201:
                    query = "?ticket=" + got["ticket"]
            conn = self.server.conn(timeout=5)
            try:
                conn.request("GET", f"/api/tables/{tid}/stream{query}")
                resp = conn.getresponse()
                with self._lock:
                    self.opened += 1
                until = time.monotonic() + self.reconnect_s * (0.5 + (k % 5) / 5)
                while not self._stop.is_set() and time.monotonic() < until:
                    try:
                        line = resp.fp.readline()
                    except TimeoutError:
                        continue
                    if not line:
                        break
            except (OSError, json.JSONDecodeError):
                self._stop.wait(0.5)
            finally:
                conn.close()

    # ---- the sampler ------------------------------------------------------------------

    def sample(self, t0: float) -> Sample:
        pid = self.server.proc.pid
        st = proc_status(pid)
        data = self.server.data_dir
        return Sample(t=time.monotonic() - t0, actions=self.actions,
                      rss_mb=st["VmRSS"] / 1024, threads=st["Threads"],
                      db_kb=dir_bytes(data, "companion.sqlite3") / 1024,
                      log_kb=self.log_path.stat().st_size / 1024,
                      data_kb=dir_bytes(data) / 1024)

    def run(self, seconds: float, every: float = 5.0) -> list[Sample]:
        for kind in ("scorepad", "uno", "werewolf", "versus"):
            if kind not in self.tables:
                self.create(kind)
        workers = [threading.Thread(target=self.player, daemon=True)]
        workers += [threading.Thread(target=self.phone, args=(k,), daemon=True)
                    for k in range(self.phones)]
        t0 = time.monotonic()
        for w in workers:
            w.start()
        try:
            while True:
                self.samples.append(self.sample(t0))
                left = seconds - (time.monotonic() - t0)
                if left <= 0:
                    break
                time.sleep(min(every, left))  # (the sampling period, not a wait for a result)
        finally:
            self._stop.set()
            for w in workers:
                w.join(15)
        return self.samples


def slope(xs: list[float], ys: list[float]) -> float:
    """Least-squares slope of ys on xs."""
    n = len(xs)
    if n < 2:
        return 0.0
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx if sxx else 0.0


MEASURES = (("RSS", "rss_mb", "MB"), ("threads", "threads", ""), ("database", "db_kb", "KB"),
            ("log", "log_kb", "KB"), ("data folder", "data_kb", "KB"))


def settled(samples: list[Sample]) -> list[Sample]:
    """The samples after the warm-up (the first fifth of the run)."""
    return [s for s in samples if s.t >= samples[-1].t / 5] or samples


def report(samples: list[Sample], tables: int = 4) -> str:
    late = settled(samples)
    secs = samples[-1].t
    sim_h = samples[-1].actions / (REAL_ACTIONS_PER_TABLE_MINUTE * 60 * tables)
    xs_h = [s.t / 3600 for s in late]
    xs_sim = [s.actions / (REAL_ACTIONS_PER_TABLE_MINUTE * 60 * tables) for s in late]
    lines = [f"{secs / 60:.1f} min real, {samples[-1].actions} actions "
             f"= {sim_h:.1f} simulated hours of {tables} tables; {len(samples)} samples",
             f"| {'measure':12} | {'first':>9} | {'after warm-up':>13} | {'last':>9} | "
             f"{'peak':>9} | {'slope /real h':>13} | {'slope /sim h':>12} |",
             f"|{'-' * 14}|{'-' * 11}|{'-' * 15}|{'-' * 11}|{'-' * 11}|{'-' * 15}|{'-' * 14}|"]
    for name, attr, unit in MEASURES:
        ys = [getattr(s, attr) for s in late]
        label = f"{name} {unit}".strip()
        lines.append(
            f"| {label:12} | {getattr(samples[0], attr):9.1f} | {ys[0]:13.1f} | {ys[-1]:9.1f} | "
            f"{max(getattr(s, attr) for s in samples):9.1f} | {slope(xs_h, ys):13.2f} | "
            f"{slope(xs_sim, ys):12.2f} |")
    return "\n".join(lines)


def start_server(data: Path, camera: str, speech: str = "silent") -> tuple[Server, Path]:
    """A server whose output goes to a file (its size is the log's), as journald keeps it."""
    server = Server(data, camera=camera, speech=speech)
    server.start()
    log = data.parent / "server.log"
    fd = server.proc.stdout.fileno()
    out = open(log, "ab")  # noqa: SIM115 (closed by the drain thread)

    def drain() -> None:
        with out:
            while chunk := os.read(fd, 65536):
                out.write(chunk)
                out.flush()

    out.write(server.startup.encode())
    threading.Thread(target=drain, daemon=True).start()
    return server, log


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--rate", type=float, default=20.0, help="actions a second (all tables)")
    ap.add_argument("--phones", type=int, default=12)
    ap.add_argument("--camera", default="replay", help="replay (default) or off")
    ap.add_argument("--every", type=float, default=10.0, help="seconds between samples")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp_name:
        server, log = start_server(Path(tmp_name) / "data", args.camera)
        try:
            soak = Soak(server, log, phones=args.phones, rate=args.rate)
            samples = soak.run(args.minutes * 60, every=args.every)
        finally:
            server.stop()
        print(f"camera {args.camera}, {args.phones} phones, {args.rate:g} actions/s, "
              f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; "
              f"{soak.refused} of {soak.actions} actions refused by the rules, "
              f"{soak.opened} streams opened, "
              f"{len(soak.errors)} errors")
        for e in soak.errors[:5]:
            print("  error:", e)
        print(report(samples))


if __name__ == "__main__":
    main()
