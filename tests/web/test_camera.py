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


def test_the_host_teaches_the_tables_cards_from_the_camera(app, client, service, uno,
                                                            tmp_path):
    """One card alone in view, named on the phone: stored for the table's deck, spelled as
    the deck spells it, read first from then on; forgotten again by name."""
    from vision.frame_hub import FrameHub
    from vision.recognise import TaughtFirst, get_recogniser
    from vision.sources.replay import ReplaySource
    from vision.synth import render_scene

    runtime = CameraRuntime(Config(data_dir=str(tmp_path / "data")), service)
    app.extensions["camera"] = runtime
    url = f"/api/tables/{uno}/camera/taught"
    res = client.post(url, json={"label": "red-7"}, headers=PIN)
    assert res.status_code == 503 and res.json["error"]["code"] == "no_frame"

    image, _ = render_scene([("uno", "red-7")], table="cloth", seed=4)
    runtime.hub = FrameHub(ReplaySource(images=[image], stepped=True))
    runtime.hub.step()
    before = client.get(url).json
    assert before["deck"] == "uno" and before["cards"] == {} and "wild-draw4" in before["names"]
    assert client.post(url, json={"label": "red-7"}).status_code == 403
    for bad, code in (("  ", "bad_card_name"), (7, "bad_card_name"), (None, "bad_card_name"),
                      ("purple-7", "not_in_deck"), ("x" * 41, "bad_card_name")):
        res = client.post(url, json={"label": bad}, headers=PIN)
        assert res.status_code == 400 and res.json["error"]["code"] == code, bad
    res = client.post(url, json={"label": "roxo-7"},
                      headers={**PIN, "Accept-Language": "pt-BR"})
    assert res.json["error"]["message"] != "roxo-7 is not a card of this deck."
    assert "roxo-7" in res.json["error"]["message"]
    assert client.get(url).json["cards"] == {}  # refused: nothing stored

    res = client.post(url, json={"label": "Red 7"}, headers=PIN)
    assert res.status_code == 200 and (res.json["label"], res.json["photos"]) == ("red-7", 1)
    assert client.post(url, json={"label": "red-7"}, headers=PIN).json["cards"] == {"red-7": 2}
    rec = get_recogniser("uno", tmp_path / "data")
    assert isinstance(rec, TaughtFirst) and rec.taught.labels == ["red-7"]

    assert client.delete(f"{url}/red-7").status_code == 403
    assert client.delete(f"{url}/red-7", headers=PIN).json["cards"] == {}
    assert client.delete(f"{url}/red-7", headers=PIN).status_code == 404


def test_taught_standard_cards_keep_the_decks_spelling(app, client, service, tmp_path):
    from vision.frame_hub import FrameHub
    from vision.recognise import get_recogniser
    from vision.sources.replay import ReplaySource
    from vision.synth import render_scene

    runtime = CameraRuntime(Config(data_dir=str(tmp_path / "data")), service)
    app.extensions["camera"] = runtime
    image, _ = render_scene([("french", "10H")], table="wood", seed=2)
    runtime.hub = FrameHub(ReplaySource(images=[image], stepped=True))
    runtime.hub.step()
    table = service.create_table("scorepad", ["A", "B"], "2468")
    runtime.deck_for = lambda table_id: "french"  # no game of ours uses the pack's camera yet
    res = client.post(f"/api/tables/{table.id}/camera/taught", json={"label": "10h"},
                      headers=PIN)
    assert res.status_code == 200 and res.json["cards"] == {"10H": 1}
    assert get_recogniser("french", tmp_path / "data").taught.labels == ["10H"]


def test_the_camera_page_is_told_when_the_camera_shows_no_colour(app, client, service,
                                                                  tmp_path):
    """A monochrome camera: its cards' colours cannot be read, so the phones will ask about
    every coloured card; the status says so, for the camera page to explain why."""
    import cv2

    from vision.frame_hub import FrameHub
    from vision.sources.replay import ReplaySource
    from vision.synth import render_scene

    runtime = CameraRuntime(Config(data_dir=str(tmp_path / "data")), service)
    app.extensions["camera"] = runtime
    assert client.get("/api/camera").json["colourless"] is False  # no frame yet
    image, _ = render_scene([("uno", "red-7")], table="wood", seed=3)
    grey = cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    for frame, colourless in ((image, False), (grey, True)):
        runtime.hub = FrameHub(ReplaySource(images=[frame], stepped=True))
        runtime.hub.step()
        assert client.get("/api/camera").json["colourless"] is colourless


def test_the_camera_page_is_told_what_to_fix_in_the_picture(app, client, service, tmp_path):
    """A dark picture (no card needed to judge it): the status says so, for the camera page
    to tell the host to light the table; a good picture gets no hint."""
    import numpy as np

    from vision.frame_hub import FrameHub
    from vision.sources.replay import ReplaySource
    from vision.synth import render_scene

    runtime = CameraRuntime(Config(data_dir=str(tmp_path / "data")), service)
    app.extensions["camera"] = runtime
    assert client.get("/api/camera").json["view"] == []  # no frame yet
    image, _ = render_scene([("uno", "red-7")], table="wood", seed=3)
    good = (image.astype(np.float32) * 0.88).astype(np.uint8)
    dark = (image.astype(np.float32) * 0.2).astype(np.uint8)
    for frame, view in ((good, []), (dark, ["dark"])):
        runtime.hub = FrameHub(ReplaySource(images=[frame], stepped=True))
        runtime.hub.step()
        assert client.get("/api/camera").json["view"] == view
