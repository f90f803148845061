"""A real server killed with SIGKILL in the middle of a burst of actions from several phones
loses no acknowledged action, and restarts with every table intact."""

from __future__ import annotations

import http.client
import threading

import pytest

pytestmark = pytest.mark.slow


def test_sigkill_mid_burst_loses_no_acknowledged_action(server_factory, tmp_path):
    server = server_factory(tmp_path / "data")
    tables = []
    for n in range(2):
        status, body = server.request("POST", "/api/tables", {
            "game": "scorepad", "players": ["A", "B", "C"], "pin": "2468", "title": f"t{n}"})
        assert status == 201
        tables.append(body["table"]["id"])

    acknowledged: list[tuple[str, list[int]]] = []
    lock = threading.Lock()
    enough = threading.Event()

    def phone(k: int) -> None:
        tid = tables[k % 2]
        for i in range(10_000):
            scores = [k, i, 0]
            try:
                status, _ = server.request("POST", f"/api/tables/{tid}/actions", {
                    "action": {"type": "add_round", "scores": scores}},
                    {"X-Host-Pin": "2468"})
            except (OSError, http.client.HTTPException):
                return  # the server is gone: this action was never acknowledged
            if status == 200:
                with lock:
                    acknowledged.append((tid, scores))
                    if len(acknowledged) >= 60:
                        enough.set()

    phones = [threading.Thread(target=phone, args=(k,)) for k in range(4)]
    for p in phones:
        p.start()
    assert enough.wait(60), "the burst never got going"
    server.kill()  # SIGKILL: no clean shutdown, no flush
    for p in phones:
        p.join(30)
    assert len(acknowledged) >= 60

    again = server_factory(tmp_path / "data")
    status, listing = again.request("GET", "/api/tables")
    assert status == 200 and sorted(t["id"] for t in listing["tables"]) == sorted(tables)
    for tid in tables:
        status, hist = again.request("GET", f"/api/tables/{tid}/history")
        logged = [e["body"]["scores"] for e in hist["history"]]
        mine = [s for t, s in acknowledged if t == tid]
        assert set(map(tuple, mine)) <= set(map(tuple, logged))
        _, view = again.request("GET", f"/api/tables/{tid}")
        assert len(view["public"]["rounds"]) == len(logged) == view["version"]
        # and the table still takes actions after the restart
        status, _ = again.request("POST", f"/api/tables/{tid}/actions", {
            "action": {"type": "add_round", "scores": [1, 1, 1]}}, {"X-Host-Pin": "2468"})
        assert status == 200
