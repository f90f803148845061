"""The camera endpoints: which table it watches, zones set from a phone, no camera at all."""

from __future__ import annotations

import pytest

from companion.camera import CameraRuntime
from companion.config import Config

PIN = {"X-Host-Pin": "2468"}


@pytest.fixture
def uno(client):
    res = client.post("/api/tables", json={"game": "uno", "players": ["A", "B"], "pin": "2468"})
    return res.json["table"]["id"]


def test_without_a_camera_the_endpoints_say_so(client, uno):
    res = client.get("/api/camera")
    assert res.status_code == 503 and res.json["error"]["code"] == "no_camera"


def test_zones_default_to_the_games_own_and_the_host_can_move_them(app, client, service, uno,
                                                                   tmp_path):
    app.extensions["camera"] = CameraRuntime(Config(data_dir=str(tmp_path)), service)
    assert client.get(f"/api/tables/{uno}/zones").json["zones"] == [
        {"name": "discard", "rect": [0.3, 0.15, 0.7, 0.6]},
        {"name": "hand", "rect": [0.05, 0.66, 0.95, 0.98]}]
    new = [{"name": "discard", "rect": [0.1, 0.2, 0.5, 0.6]}]
    assert client.put(f"/api/tables/{uno}/zones", json={"zones": new}).status_code == 403
    res = client.put(f"/api/tables/{uno}/zones", json={"zones": new}, headers=PIN)
    assert res.status_code == 200 and res.json["zones"] == new
    assert client.get(f"/api/tables/{uno}/zones").json["zones"] == new
    for bad in ([], [{"name": "a", "rect": [0, 0, 2, 1]}], [{"rect": [0, 0, 1, 1]}],
                [{"name": "a", "rect": [0, 0, 1, 1]}, {"name": "a", "rect": [0, 0, 1, 1]}],
                "discard", [1]):
        res = client.put(f"/api/tables/{uno}/zones", json={"zones": bad}, headers=PIN)
        assert res.status_code == 400 and res.json["error"]["code"] == "bad_zones", bad
    assert client.get(f"/api/tables/{uno}/zones").json["zones"] == new


def test_the_host_points_the_camera_at_a_table(app, client, service, uno, tmp_path):
    runtime = CameraRuntime(Config(data_dir=str(tmp_path)), service)
    app.extensions["camera"] = runtime
    assert client.post(f"/api/tables/{uno}/camera").status_code == 403
    res = client.post(f"/api/tables/{uno}/camera", headers=PIN)
    assert res.status_code == 200 and res.json["table"] == uno and not res.json["running"]
    assert runtime.bridge.table_id == uno and runtime.explicit


def test_versus_gets_one_discard_zone_per_seat(app, client, service, tmp_path):
    app.extensions["camera"] = CameraRuntime(Config(data_dir=str(tmp_path)), service)
    res = client.post("/api/tables", json={"game": "versus", "players": ["A", "B", "C"],
                                           "pin": "2468"})
    zones = client.get(f"/api/tables/{res.json['table']['id']}/zones").json["zones"]
    assert [z["name"] for z in zones] == ["discard-0", "discard-1", "discard-2"]
    assert all(0 <= z["rect"][0] < z["rect"][2] <= 1 for z in zones)
    assert zones[0]["rect"][2] <= zones[1]["rect"][0]  # side by side, not overlapping


def test_the_camera_runs_on_the_sample_replay_and_streams_the_preview(service, tmp_path):
    runtime = CameraRuntime(Config(camera="replay", data_dir=str(tmp_path)), service).start()
    try:
        assert runtime.ready.wait(30), runtime.error
        part = next(runtime.preview(max_frames=1))
        assert part.startswith(b"--frame") and b"Content-Type: image/jpeg" in part
        assert runtime.status()["running"] and runtime.status()["source"] == "ReplaySource"
    finally:
        runtime.stop()
