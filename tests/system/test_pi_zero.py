"""The Raspberry Pi Zero 2 W profile (512 MB): with the camera off the server loads none of
the vision stack (OpenCV alone is ~40 MB of a Zero's memory, numpy ~15), and serving the
phones their pages and a game stays well under the profile's 120 MB.
benchmarks/bench_pi_zero.py measures the whole profile (peak, narration, phones streaming)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

HEAVY = ("cv2", "numpy", "onnxruntime", "picamera2")


def mapped_libraries(pid: int) -> set[str]:
    found = set()
    for line in Path(f"/proc/{pid}/maps").read_text().splitlines():
        path = line.split()[-1] if "/" in line else ""
        for name in HEAVY:
            if f"/{name}/" in path or re.search(rf"/{name}[^/]*\.so", path):
                found.add(name)
    return found


def test_with_the_camera_off_the_vision_stack_is_never_loaded(server_factory):
    server = server_factory(camera="off")
    status, created = server.request("POST", "/api/tables", {
        "game": "uno", "players": ["Ana", "Bruno", "Chen"], "pin": "2468"})
    assert status == 201, created
    tid = created["table"]["id"]
    for path in ("/", "/new", f"/t/{tid}", f"/api/tables/{tid}", "/api/games"):
        conn = server.conn()
        conn.request("GET", path)
        assert conn.getresponse().status == 200, path
        conn.close()
    status, _ = server.request("POST", f"/api/tables/{tid}/actions", {
        "action": {"type": "set_dealer", "dealer": 0}}, {"X-Host-Pin": "2468"})
    assert status == 200
    assert mapped_libraries(server.proc.pid) == set()
    rss_kb = next(int(line.split()[1]) for line in
                  Path(f"/proc/{server.proc.pid}/status").read_text().splitlines()
                  if line.startswith("VmRSS:"))
    assert rss_kb < 120 * 1024, f"{rss_kb / 1024:.0f} MB"
