#!/usr/bin/env python3
"""The Raspberry Pi Zero 2 W profile (512 MB, of which the OS and the desktop-less Pi OS take
~150 MB): the phone UI, the scores and the narration, without the camera. Target: the server
under 120 MB RSS at its peak.

    .venv/bin/python benchmarks/bench_pi_zero.py [--seconds 90]

A real ``companion serve`` with ``camera = off`` (as a Zero is configured: no recognition on
its CPU), the GPIO layer on mock pins, speech by espeak-ng where it is installed (else the
host's phone speaks it), and for ``--seconds``: the pages every phone loads (home, each
table's page, their scripts), a score pad, an UNO table, a Werewolf village driven through
its steps with the narration's text and a Versus table with slaps, 10 phones on the live
streams (benchmarks/bench_soak.py's play, at a table's pace times a few).

Prints: the RSS after start, after the pages, the peak (the kernel's high-water mark,
VmHWM), the server with its children (espeak-ng and its player, sampled), the threads, and
whether OpenCV or numpy were loaded into the server (they must not be with the camera off:
OpenCV alone is ~40 MB).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_soak import Soak, proc_status, start_server  # noqa: E402

TARGET_MB = 120.0


def tree_rss_mb(pid: int) -> float:
    """The RSS of ``pid`` and its children (espeak-ng, aplay), in MB."""
    total = 0
    pids = [pid]
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        children = []
    pids += [int(c) for c in children]
    for p in pids:
        with contextlib.suppress(OSError):  # (a child that ended meanwhile)
            total += proc_status(p).get("VmRSS", 0)
    return total / 1024


def heavy_libraries(pid: int) -> list[str]:
    """The big native libraries mapped into the server (OpenCV, numpy, onnx...)."""
    found = set()
    for line in Path(f"/proc/{pid}/maps").read_text().splitlines():
        path = line.split()[-1] if "/" in line else ""
        for name in ("cv2", "numpy", "onnxruntime", "scipy", "PIL", "picamera2"):
            if f"/{name}/" in path or re.search(rf"/{name}[^/]*\.so", path):
                found.add(name)
    return sorted(found)


def espeak_peak_mb() -> float | None:
    """The peak RSS of one espeak-ng run on a narration-sized sentence, written to a file (a
    child of its own beside the server while it speaks; the player, aplay, is ~2 MB more)."""
    exe = shutil.which("espeak-ng")
    if exe is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([exe, "-w", str(Path(tmp) / "n.wav"),
                        "Night falls. Werewolves, open your eyes and choose your victim."],
                       check=True, capture_output=True, timeout=60)
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def load_pages(soak: Soak) -> int:
    """What a phone loads: the home page, each table's page, and the scripts they name."""
    loaded = 0
    for path in ["/", "/new", *(f"/t/{tid}" for tid in soak.tables.values())]:
        conn = soak.server.conn(timeout=30)
        conn.request("GET", path)
        resp = conn.getresponse()
        html = resp.read().decode(errors="replace")
        conn.close()
        loaded += resp.status == 200
        for src in re.findall(r'(?:src|href)="(/static/[^"?]+)', html):
            conn = soak.server.conn(timeout=30)
            conn.request("GET", src)
            r = conn.getresponse()
            r.read()
            conn.close()
            loaded += r.status == 200
    return loaded


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=90.0)
    ap.add_argument("--phones", type=int, default=10)
    ap.add_argument("--rate", type=float, default=4.0, help="actions a second, all tables")
    args = ap.parse_args()
    speech = "espeak" if shutil.which("espeak-ng") else "browser"
    espeak = espeak_peak_mb()  # (first: RUSAGE_CHILDREN's peak is that of any child so far)
    with tempfile.TemporaryDirectory() as tmp_name:
        server, log = start_server(Path(tmp_name) / "data", "off", speech)
        pid = server.proc.pid
        peak_tree = 0.0
        stop = threading.Event()

        def watch_tree() -> None:
            nonlocal peak_tree
            while not stop.is_set():
                peak_tree = max(peak_tree, tree_rss_mb(pid))
                stop.wait(0.2)

        try:
            started = proc_status(pid)["VmRSS"] / 1024
            soak = Soak(server, log, phones=args.phones, rate=args.rate, reconnect_s=30.0)
            for kind in ("scorepad", "uno", "werewolf", "versus"):
                soak.create(kind)
            pages = load_pages(soak)
            after_pages = proc_status(pid)["VmRSS"] / 1024
            watcher = threading.Thread(target=watch_tree, daemon=True)
            watcher.start()
            samples = soak.run(args.seconds, every=2.0)
            st = proc_status(pid)
            libs = heavy_libraries(pid)
        finally:
            stop.set()
            server.stop()
        said = log.read_text(errors="replace")
    peak = st["VmHWM"] / 1024
    rows = [
        ("RSS after start", started, ""),
        (f"RSS after the phone pages ({pages} files)", after_pages, ""),
        (f"RSS at the end ({soak.actions} actions, {soak.opened} streams)",
         samples[-1].rss_mb, ""),
        ("RSS peak (VmHWM)", peak, f"< {TARGET_MB:.0f}"),
        ("RSS peak, server + espeak-ng/player", max(peak_tree, peak), ""),
        ("threads at the end", float(samples[-1].threads), ""),
    ]
    if espeak is not None:
        rows.insert(5, ("espeak-ng alone, one sentence, peak", espeak, ""))
    print(f"Pi Zero 2 W profile: camera off, speech {speech}, {args.phones} phones, "
          f"{args.rate:g} actions/s for {args.seconds:g} s; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; "
          f"{len(soak.errors)} request errors")
    print(f"| {'measure':50} | {'value':>8} | target |")
    print(f"|{'-' * 52}|{'-' * 10}|--------|")
    for name, value, target in rows:
        print(f"| {name:50} | {value:8.1f} | {target:6} |")
    print("native libraries loaded:", ", ".join(libs) or "none of OpenCV, numpy, onnxruntime")
    for line in said.splitlines():  # (what the server said of its speech: espeak, or why not)
        if "speech" in line.lower() or "espeak" in line.lower():
            print("server:", line.strip()[:160])
    print("verdict:", "PASS" if peak < TARGET_MB else "OVER", f"(peak {peak:.1f} MB)")


if __name__ == "__main__":
    main()
