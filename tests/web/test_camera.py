"""The camera endpoints: which table it watches, zones set from a phone, no camera at all."""

from __future__ import annotations

import pytest

from companion.camera import CameraRuntime
from companion.config import Config

PIN = {"X-Host-Pin": "2468"}


def _hub(*images):
    """A hub over ``images`` that the test steps, on a clock of its own that never moves: its
    frames stay fresh however slowly the test runs (on the real clock a loaded machine's
    camera counted as lost 2 s after the frame, and a card taught answered 409
    camera_lost)."""
    from companion.clock import FakeClock
    from vision.frame_hub import FrameHub
    from vision.sources.replay import ReplaySource

    still = FakeClock()
    return FrameHub(ReplaySource(images=list(images), stepped=True, clock_ns=still.monotonic_ns),
                    clock_ns=still.monotonic_ns)


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
        # (the preview gives up on a camera silent for 2 s: the first frame is waited for
        # here, with a guard for a loaded machine, so the preview has one at once)
        assert runtime.hub.wait_next(0, timeout=30) is not None
        part = next(runtime.preview(max_frames=1))
        assert part.startswith(b"--frame") and b"Content-Type: image/jpeg" in part
        assert runtime.status()["running"] and runtime.status()["source"] == "ReplaySource"
    finally:
        runtime.stop()


def test_the_host_teaches_the_tables_cards_from_the_camera(app, client, service, uno,
                                                            tmp_path):
    """One card alone in view, named on the phone: stored for the table's deck, spelled as
    the deck spells it, read first from then on; forgotten again by name."""
    from vision.recognise import TaughtFirst, get_recogniser
    from vision.synth import render_scene

    runtime = CameraRuntime(Config(data_dir=str(tmp_path / "data")), service)
    app.extensions["camera"] = runtime
    url = f"/api/tables/{uno}/camera/taught"
    res = client.post(url, json={"label": "red-7"}, headers=PIN)
    assert res.status_code == 503 and res.json["error"]["code"] == "no_frame"

    image, _ = render_scene([("uno", "red-7")], table="cloth", seed=4)
    runtime.hub = _hub(image)
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


def test_a_card_the_model_reads_as_another_is_taught_only_when_the_host_confirms(
        app, client, service, uno, tmp_path, clock):
    """The frame may show another card than the host thinks (a card moved, the wrong one
    picked up), and a taught photo overrules that reading from then on (a blue skip read at
    1.00 was named red 7 after one such teach). Where the model reads the card surely as
    another, nothing is taught and the phone asks, in its language; confirmed, the card asked
    about is, as the camera saw it then (not the newest frame: a joker was taught as the
    green 3 asked about, the card in view changed meanwhile). The answer shows the card as
    the camera took it."""
    import base64

    import cv2
    import numpy as np

    from vision.synth import render_scene

    runtime = CameraRuntime(Config(data_dir=str(tmp_path / "data")), service)
    app.extensions["camera"] = runtime
    image, _ = render_scene([("uno", "blue-skip")], table="cloth", seed=4)
    runtime.hub = _hub(image)
    runtime.hub.step()
    url = f"/api/tables/{uno}/camera/taught"
    res = client.post(url, json={"label": "red-7"}, headers={**PIN, "Accept-Language": "pt-BR"})
    assert res.status_code == 409 and res.json["error"]["code"] == "model_reads_other"
    message = res.json["error"]["message"]
    assert message.startswith("A câmera lê esta carta como Pular azul (")
    assert "7 vermelho" in message
    assert client.get(url).json["cards"] == {}
    res = client.post(url, json={"label": "red-7", "confirm": "yes"}, headers=PIN)
    assert res.status_code == 409  # (only true confirms)
    # meanwhile another card lies in view: the answer still teaches the one asked about
    wild, _ = render_scene([("uno", "wild")], table="cloth", seed=5)
    runtime.hub = _hub(wild)
    runtime.hub.step()
    for other in ("red-8", "Blue 7"):  # (an answer under another name answers nothing)
        res = client.post(url, json={"label": other, "confirm": True}, headers=PIN)
        assert res.status_code == 409 and res.json["error"]["code"] == "question_gone"
    res = client.post(url, json={"label": "red-7"}, headers=PIN)  # asked again: it waits
    assert res.status_code == 409 and res.json["error"]["code"] == "model_reads_other"
    runtime.hub = _hub(image)
    runtime.hub.step()
    res = client.post(url, json={"label": "red-7"}, headers=PIN)
    assert res.status_code == 409
    runtime.hub = _hub(wild)
    runtime.hub.step()
    res = client.post(url, json={"label": "red-7", "confirm": True}, headers=PIN)
    assert res.status_code == 200 and res.json["cards"] == {"red-7": 1}
    again = client.post(url, json={"label": "red-7", "confirm": True}, headers=PIN)
    assert again.status_code == 409 and again.json["error"]["code"] == "question_gone"
    head, _, data = res.json["picture"].partition(",")
    assert head == "data:image/jpeg;base64"
    picture = cv2.imdecode(np.frombuffer(base64.b64decode(data), np.uint8), cv2.IMREAD_COLOR)
    assert picture.shape[:2] == (144, 96)
    # taught against the model's reading, it is the table's correction of that reading:
    # the card is named as taught from then on, though the model still reads it otherwise
    from vision.identify import Identifier

    ident = Identifier("uno", data_path=tmp_path / "data")
    assert [c.label for c in ident.identify(image)] == ["red-7"]
    assert [c.label for c in ident.identify(wild)] == ["wild"]  # (not what was taught)
    # an answer that comes too late is no answer
    runtime.hub = _hub(image)
    runtime.hub.step()
    assert client.post(url, json={"label": "red-8"}, headers=PIN).status_code == 409
    clock.advance(121)
    res = client.post(url, json={"label": "red-8", "confirm": True}, headers=PIN)
    assert res.status_code == 409 and res.json["error"]["code"] == "question_gone"
    # the card the model reads is taught without a question
    assert client.post(url, json={"label": "blue-skip"}, headers=PIN).status_code == 200


def test_taught_standard_cards_keep_the_decks_spelling(app, client, service, tmp_path,
                                                       monkeypatch):
    from vision.recognise import get_recogniser
    from vision.synth import render_scene

    runtime = CameraRuntime(Config(data_dir=str(tmp_path / "data")), service)
    app.extensions["camera"] = runtime
    image, _ = render_scene([("french", "10H")], table="wood", seed=2)
    runtime.hub = _hub(image)
    runtime.hub.step()
    table = service.create_table("scorepad", ["A", "B"], "2468")
    # (no game of ours uses the pack's camera yet: a score pad stands in for one)
    monkeypatch.setattr(service.get(table.id).game, "camera_deck", "french", raising=False)
    res = client.post(f"/api/tables/{table.id}/camera/taught", json={"label": "10h"},
                      headers=PIN)
    assert res.status_code == 200 and res.json["cards"] == {"10H": 1}
    assert get_recogniser("french", tmp_path / "data").taught.labels == ["10H"]


def test_the_camera_page_is_told_when_the_camera_shows_no_colour(app, client, service,
                                                                  tmp_path):
    """A monochrome camera: its cards' colours cannot be read, so the phones will ask about
    every coloured card; the status says so, for the camera page to explain why."""
    import cv2

    from vision.synth import render_scene

    runtime = CameraRuntime(Config(data_dir=str(tmp_path / "data")), service)
    app.extensions["camera"] = runtime
    assert client.get("/api/camera").json["colourless"] is False  # no frame yet
    image, _ = render_scene([("uno", "red-7")], table="wood", seed=3)
    grey = cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    for frame, colourless in ((image, False), (grey, True)):
        runtime.hub = _hub(frame)
        runtime.hub.step()
        assert client.get("/api/camera").json["colourless"] is colourless


def test_the_camera_page_is_told_what_to_fix_in_the_picture(app, client, service, tmp_path):
    """A dark picture (no card needed to judge it): the status says so, for the camera page
    to tell the host to light the table; a good picture gets no hint."""
    import numpy as np

    from vision.synth import render_scene

    runtime = CameraRuntime(Config(data_dir=str(tmp_path / "data")), service)
    app.extensions["camera"] = runtime
    assert client.get("/api/camera").json["view"] == []  # no frame yet
    image, _ = render_scene([("uno", "red-7")], table="wood", seed=3)
    good = (image.astype(np.float32) * 0.88).astype(np.uint8)
    dark = (image.astype(np.float32) * 0.2).astype(np.uint8)
    for frame, view in ((good, []), (dark, ["dark"])):
        runtime.hub = _hub(frame)
        runtime.hub.step()
        assert client.get("/api/camera").json["view"] == view


# -- zones: what is refused, what the game uses -----------------------------------------------

def test_bad_zones_are_refused_and_nothing_is_saved(app, client, service, uno, tmp_path):
    """The audit saved an empty name, null ("None"), an object ("{'x': 1}"), a 3,000-character
    name, a zero-size rectangle and one of booleans: each is now a 400 bad_zones that says
    what is wrong, and the zones stay as they were."""
    app.extensions["camera"] = CameraRuntime(Config(data_dir=str(tmp_path)), service)
    url = f"/api/tables/{uno}/zones"
    good = [{"name": "discard", "rect": [0.1, 0.2, 0.5, 0.6]}]
    assert client.put(url, json={"zones": good}, headers=PIN).status_code == 200
    rect = [0.1, 0.2, 0.5, 0.6]
    bad_names = ["", "   ", None, {"x": 1}, 7, "x" * 3000, "x" * 41, "a\nb"]
    bad_rects = [[0.5, 0.5, 0.5, 0.5], [True, False, True, True], [0.1, 0.1, 0.11, 0.9],
                 [0, 0, 1], [0, 0, 1, 1, 1], ["0", 0, 1, 1], [0, 0, 1.5, 1], [-0.1, 0, 1, 1],
                 None, "0,0,1,1", {"x0": 0}]
    messages = set()
    for zones in ([{"name": n, "rect": rect} for n in bad_names]
                  + [{"name": "discard", "rect": r} for r in bad_rects]):
        res = client.put(url, json={"zones": [zones]}, headers=PIN)
        assert res.status_code == 400 and res.json["error"]["code"] == "bad_zones", zones
        messages.add(res.json["error"]["message"])
    for body in ('{"zones": [{"name": "d", "rect": [0, 0, NaN, 1]}]}',
                 '{"zones": [{"name": "d", "rect": [0, 0, Infinity, 1]}]}'):
        res = client.put(url, data=body, headers={**PIN, "Content-Type": "application/json"})
        assert res.status_code == 400, body
    res = client.put(url, json={"zones": [{"name": f"z{i}", "rect": rect} for i in range(17)]},
                     headers=PIN)
    assert res.status_code == 400 and res.json["error"]["code"] == "bad_zones"
    assert messages == {"Each zone needs a name of 1 to 40 characters; names must differ.",
                        "Each zone needs a rectangle inside the picture, at least 2 percent "
                        "of it wide and tall."}
    assert client.get(url).json["zones"] == good  # nothing saved on error
    # a name is trimmed, 40 characters may be kept, and corners may come in either order
    res = client.put(url, json={"zones": [{"name": "  discard ", "rect": [0.5, 0.6, 0.1, 0.2]},
                                          {"name": "é" * 40, "rect": [0, 0, 0.02, 0.02]}]},
                     headers=PIN)
    assert res.status_code == 200, res.json
    assert res.json["zones"] == [{"name": "discard", "rect": [0.1, 0.2, 0.5, 0.6]},
                                 {"name": "é" * 40, "rect": [0, 0, 0.02, 0.02]}]


def test_the_zones_say_which_names_the_game_reacts_to(app, client, service, tmp_path):
    """UNO reacts to "discard" and "hand", Versus to each seat's "discard-<seat>" (labelled
    with the player's name), a score pad to none; zones the game never reads are saved but
    listed as unused, for the page to warn."""
    app.extensions["camera"] = CameraRuntime(Config(data_dir=str(tmp_path)), service)
    uno = service.create_table("uno", ["Ana", "Bruno"], "2468").id
    versus = service.create_table("versus", ["Ana", "Bruno", "Chen"], "2468").id
    pad = service.create_table("scorepad", ["Ana"], "2468").id

    res = client.get(f"/api/tables/{uno}/zones").json
    assert res["game_zones"] == ["discard", "hand"] and res["zone_labels"] == {}
    assert [z["name"] for z in res["zones"]] == ["discard", "hand"]
    res = client.get(f"/api/tables/{versus}/zones").json
    assert res["game_zones"] == ["discard-0", "discard-1", "discard-2"]
    assert res["zone_labels"] == {"discard-0": "Ana", "discard-1": "Bruno", "discard-2": "Chen"}
    res = client.get(f"/api/tables/{pad}/zones").json
    assert (res["game_zones"], res["zone_labels"]) == ([], {})
    assert [z["name"] for z in res["zones"]] == ["play-area"]

    rect = [0.1, 0.1, 0.4, 0.4]
    res = client.put(f"/api/tables/{uno}/zones", headers=PIN, json={"zones": [
        {"name": "discard", "rect": rect}, {"name": "bank", "rect": rect}]})
    assert res.status_code == 200 and res.json["unused"] == ["bank"]
    assert [z["name"] for z in client.get(f"/api/tables/{uno}/zones").json["zones"]] == [
        "discard", "bank"]  # saved all the same
    res = client.put(f"/api/tables/{versus}/zones", headers=PIN, json={"zones": [
        {"name": "discard-1", "rect": rect}, {"name": "pile-2", "rect": rect},
        {"name": "discard-7", "rect": rect}, {"name": "discard", "rect": rect}]})
    assert res.json["unused"] == ["discard-7", "discard"]  # (pile-2 is a seat's too)
    res = client.get(f"/api/tables/{versus}/zones").json
    assert res["zone_labels"] == {"discard-0": "Ana", "discard-1": "Bruno", "discard-2": "Chen",
                                  "pile-2": "Chen"}
    res = client.put(f"/api/tables/{pad}/zones", headers=PIN,
                     json={"zones": [{"name": "anything", "rect": rect}]})
    assert res.json["unused"] == []


def test_the_camera_page_offers_only_tables_whose_game_uses_the_camera(app, client, service,
                                                                       tmp_path):
    app.extensions["camera"] = CameraRuntime(Config(data_dir=str(tmp_path)), service)
    uno = service.create_table("uno", ["Ana", "Bruno"], "2468")
    pad = service.create_table("scorepad", ["Ana"], "2468")
    page = client.get("/camera").get_data(as_text=True)
    assert f'value="{uno.id}"' in page and f'value="{pad.id}"' not in page


# -- the camera's health: lost, back, fallback ------------------------------------------------

def test_a_camera_that_stopped_is_lost_and_teaches_nothing(app, client, service, uno, tmp_path):
    """No new frame for the watcher's 2 s: the status says lost, and a card is not taught
    from the old picture (409 camera_lost); a new frame and it is taught."""
    from companion.clock import FakeClock
    from vision.frame_hub import FrameHub
    from vision.sources.replay import ReplaySource
    from vision.synth import render_scene
    from vision.watcher import ZoneWatcher

    runtime = CameraRuntime(Config(data_dir=str(tmp_path / "data")), service)
    app.extensions["camera"] = runtime
    clock = FakeClock()
    image, _ = render_scene([("uno", "red-7")], table="cloth", seed=4)
    runtime.hub = FrameHub(ReplaySource(images=[image], stepped=True, clock_ns=clock.monotonic_ns),
                           clock_ns=clock.monotonic_ns)
    runtime.watcher = ZoneWatcher([], None, runtime.bridge.handle)
    runtime.hub.step()
    url = f"/api/tables/{uno}/camera/taught"
    clock.advance(1.9)
    assert client.get("/api/camera").json["lost"] is False
    clock.advance(0.1)
    status = client.get("/api/camera").json
    assert status["lost"] is True and status["stale_ms"] == 2000
    res = client.post(url, json={"label": "red-7"}, headers=PIN)
    assert res.status_code == 409 and res.json["error"]["code"] == "camera_lost"
    assert res.json["error"]["message"] == ("The camera has stopped sending pictures: check "
                                            "it, then try again.")
    assert client.get(url).json["cards"] == {}
    runtime.hub.step()  # frames again
    assert client.get("/api/camera").json["lost"] is False
    assert client.post(url, json={"label": "red-7"}, headers=PIN).json["cards"] == {"red-7": 1}


def test_the_status_says_what_kind_of_camera_runs_and_whether_it_stands_in(monkeypatch):
    """The page shows a kind for people, the camera asked for, and whether the sample replay
    stands in because that camera failed; off a Pi with nothing asked, the samples are the
    default, not a failure."""
    import warnings

    import companion.config
    from vision.sources import CameraFallbackWarning, choose_source, source_kind
    from vision.sources.opencv import OpenCVSource
    from vision.sources.picam import PicameraSource
    from vision.sources.replay import SAMPLES, ReplaySource

    monkeypatch.setattr(companion.config, "is_raspberry_pi", lambda: False)
    source, choice = choose_source("", start=False)
    assert (choice.kind, choice.wanted, choice.fallback) == ("replay", None, False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CameraFallbackWarning)
        source, choice = choose_source("opencv:/dev/video9", start=True)
        source.close()
        assert (choice.kind, choice.wanted, choice.fallback) == ("replay", "opencv:/dev/video9",
                                                                 True)
        assert "video9" in choice.error
        monkeypatch.setattr(companion.config, "is_raspberry_pi", lambda: True)
        source, choice = choose_source("", start=True)  # (no picamera2 here: it fails)
        source.close()
        assert (choice.kind, choice.wanted, choice.fallback) == ("replay", "picamera2", True)
    source, choice = choose_source("replay", start=False)
    assert (choice.kind, choice.wanted, choice.fallback) == ("replay", "replay", False)
    assert source_kind(OpenCVSource("0")) == "webcam"
    assert source_kind(OpenCVSource("/dev/video2")) == "webcam"
    assert source_kind(OpenCVSource(str(next(SAMPLES.iterdir())))) == "video"
    assert source_kind(PicameraSource()) == "picamera2"
    assert source_kind(ReplaySource(images=[])) == "replay"


def test_the_camera_runtime_reports_its_fallback(service, tmp_path):
    """End to end: a configured camera that is missing runs on the sample replay, and the
    status says so (fallback, wanted, kind); it is lost only once frames stop."""
    import warnings

    from vision.sources import CameraFallbackWarning

    runtime = CameraRuntime(Config(camera="opencv:/no/such/video.mp4",
                                   data_dir=str(tmp_path)), service)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CameraFallbackWarning)
        runtime.start()
        try:
            assert runtime.ready.wait(30), runtime.error
            status = runtime.status()
        finally:
            runtime.stop()
    assert (status["kind"], status["wanted"], status["fallback"]) == (
        "replay", "opencv:/no/such/video.mp4", True)
    assert status["running"] and status["lost"] is False and status["frame_error"] is None


def test_a_frame_that_fails_leaves_the_camera_running(monkeypatch, service, tmp_path):
    """The audit's KeyError killed the camera thread for good; now the frame is logged, its
    error shown in the status, and the next frames are watched."""
    import threading

    import cv2
    import numpy as np

    import companion.camera

    for i in range(2):
        cv2.imwrite(str(tmp_path / f"{i}.png"), np.full((48, 64, 3), 60 + 100 * i, np.uint8))
    calls, again = [], threading.Event()

    class Flaky:
        deck = "uno"

        def identify(self, image):
            calls.append(1)
            if len(calls) == 1:
                raise KeyError("discard-2")
            again.set()
            return []

    monkeypatch.setattr(companion.camera, "identifier_for", lambda deck, path: Flaky())
    runtime = CameraRuntime(Config(camera=f"replay:{tmp_path}", data_dir=str(tmp_path / "d")),
                            service)
    runtime.looked()  # (a phone on the camera page: it recognises, no table bound)
    runtime.start()
    try:
        assert again.wait(30), runtime.error
        status = runtime.status()
    finally:
        runtime.stop()
    assert status["running"] and status["error"] is None
    assert status["frame_error"] == "KeyError: 'discard-2'"


# -- the picture the cards are drawn on -------------------------------------------------------

def _decoded(jpeg: bytes):
    import cv2
    import numpy as np

    return cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR).astype(np.float32)


def test_cards_are_drawn_on_the_frame_they_were_found_in(app, client, service, tmp_path):
    """The watcher found a red 7 in one frame; the camera has sent another picture since
    (a blue 5): the snapshot, the preview and the view hints use the watcher's frame, so no
    box of one picture lands on another."""
    import numpy as np

    from vision.preview import draw
    from vision.synth import render_scene
    from vision.watcher import ZoneWatcher
    from vision.zones import Zone

    runtime = CameraRuntime(Config(data_dir=str(tmp_path / "data")), service)
    app.extensions["camera"] = runtime
    red, quads = render_scene([("uno", "red-7")], table="wood", seed=3)
    red = (red.astype(np.float32) * 0.2).astype(np.uint8)  # (and dark: a view hint)
    blue, _ = render_scene([("uno", "blue-5")], table="wood", seed=5)
    from vision.identify import Card

    card = Card("red-7", 0.99, np.asarray(quads[0], np.float32), "red-7")

    class Found:
        deck = "uno"

        def identify(self, image):
            return [card] if image is red else []

    runtime.hub = _hub(red, blue)
    runtime.watcher = ZoneWatcher([Zone("discard", (0, 0, 1, 1))], Found(), lambda e: None)
    runtime.watcher.feed(runtime.hub.step())  # the watcher reads the red 7 ...
    runtime.hub.step()  # ... and the camera has sent the blue 5 since
    assert runtime.hub.latest.image is blue

    expected = draw(red, [card], []).astype(np.float32)
    snap = _decoded(runtime.snapshot())
    assert np.abs(snap - expected).mean() < 3 < np.abs(snap - blue.astype(np.float32)).mean()
    part = next(runtime.preview(max_frames=1))
    jpeg = part[part.index(b"\xff\xd8"):]
    shown = _decoded(jpeg)
    expected = draw(red, [card], list(runtime.watcher.zones)).astype(np.float32)
    assert np.abs(shown - expected).mean() < 3 < np.abs(shown - blue.astype(np.float32)).mean()
    assert client.get("/api/camera").json["view"] == ["dark"]
    assert _decoded(runtime.snapshot(annotate=False)).mean() > shown.mean()  # (the latest)


# -- markers ----------------------------------------------------------------------------------

def _with_markers(pairs: dict[int, tuple[int, int]], size=(640, 480)):
    """A light table photo with ArUco markers (DICT_4X4_50) centred at ``pairs``."""
    import cv2
    import numpy as np

    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    table = np.full((size[1], size[0], 3), 200, np.uint8)
    for mid, (x, y) in pairs.items():
        m = cv2.aruco.generateImageMarker(dictionary, mid, 50)
        pad = cv2.copyMakeBorder(m, 10, 10, 10, 10, cv2.BORDER_CONSTANT, value=255)
        table[y - 35:y + 35, x - 35:x + 35] = pad[..., None]
    return table


def test_the_zones_are_set_from_the_printed_markers_in_view(app, client, service, uno, tmp_path):
    """The sheet for the table marks its zones in order (UNO: discard, hand); the pair in
    view sets its zone (saved, and watched at once), the other keeps its rectangle; no pair
    in view is a 422, no picture a 503, an old one a 409."""
    import pytest

    from companion.clock import FakeClock
    from vision.frame_hub import FrameHub
    from vision.sources.replay import ReplaySource
    from vision.watcher import ZoneWatcher

    runtime = CameraRuntime(Config(data_dir=str(tmp_path / "data")), service)
    app.extensions["camera"] = runtime
    runtime.bridge.bind(uno)
    runtime.watcher = ZoneWatcher([], None, runtime.bridge.handle)
    url = f"/api/tables/{uno}/zones/markers"
    assert client.post(url).status_code == 403
    res = client.post(url, headers=PIN)
    assert res.status_code == 503 and res.json["error"]["code"] == "no_frame"

    clock = FakeClock()
    marked = _with_markers({0: (64, 48), 1: (320, 288)})  # discard's pair, not hand's
    bare = _with_markers({})
    runtime.hub = FrameHub(ReplaySource(images=[bare, marked], stepped=True,
                                        clock_ns=clock.monotonic_ns), clock_ns=clock.monotonic_ns)
    runtime.hub.step()
    res = client.post(url, headers=PIN)
    assert res.status_code == 422 and res.json["error"]["code"] == "no_markers"
    assert res.json["error"]["message"] == (
        "No marker pair is in view: lay each zone's two markers at its corners, in the "
        "camera's view, and try again.")
    runtime.hub.step()
    res = client.post(url, headers=PIN)
    assert res.status_code == 200 and res.json["found"] == 1 and res.json["unused"] == []
    discard, hand = res.json["zones"]
    assert discard["name"] == "discard"
    assert discard["rect"] == pytest.approx([0.1, 0.1, 0.5, 0.6], abs=0.01)
    assert all(v == round(v, 3) for v in discard["rect"])  # (as dragged zones: 17 digits were kept)
    assert hand == {"name": "hand", "rect": [0.05, 0.66, 0.95, 0.98]}
    assert client.get(f"/api/tables/{uno}/zones").json["zones"] == res.json["zones"]
    assert [(z.name, z.rect) for z in runtime.watcher.zones] == [
        (z["name"], tuple(z["rect"])) for z in res.json["zones"]]
    clock.advance(2.0)
    res = client.post(url, headers=PIN)
    assert res.status_code == 409 and res.json["error"]["code"] == "camera_lost"


def test_the_marker_sheet_prints_the_tables_zones(app, client, service, tmp_path):
    """With ?table=, the sheet marks that table's zones in order, captioned with the name
    and, for a seat's zone, its player (ASCII only: cv2 prints nothing else); without it,
    the default sheet, as before."""
    import cv2
    import numpy as np

    from vision.zones import marker_sheet

    app.extensions["camera"] = CameraRuntime(Config(data_dir=str(tmp_path)), service)
    versus = service.create_table("versus", ["Ana", "Bruno", "陈"], "2468").id

    def png(url):
        res = client.get(url)
        assert res.status_code == 200 and res.mimetype == "image/png"
        return cv2.imdecode(np.frombuffer(res.data, np.uint8), cv2.IMREAD_GRAYSCALE)

    sheet = png(f"/camera/markers.png?table={versus}")
    assert np.array_equal(sheet, marker_sheet(3, ["discard-0 (Ana)", "discard-1 (Bruno)",
                                                  "discard-2"]))
    assert not np.array_equal(sheet, marker_sheet(3))
    assert np.array_equal(png("/camera/markers.png"), marker_sheet())
    assert client.get("/camera/markers.png?table=nope").status_code == 404


def test_the_printable_marker_page_names_each_zone_in_the_phones_language(
        app, client, service, tmp_path):
    """The PNG sheet prints ASCII only: 陈's pile was captioned "discard-2" and every word was
    English. The page to print names each zone as the camera page does, in the phone's
    language, with its two markers (each a marker the detector reads, with its id)."""
    import cv2
    import numpy as np

    from vision.zones import marker_quads

    app.extensions["camera"] = CameraRuntime(Config(data_dir=str(tmp_path)), service)
    versus = service.create_table("versus", ["Ana", "Bruno", "陈"], "2468").id
    page = client.get(f"/camera/markers?table={versus}", headers={"Accept-Language": "zh-CN"})
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    for k, name in enumerate(["Ana", "Bruno", "陈"]):
        assert f"{k + 1}. {name}</h2>" in html
        assert f'src="/camera/marker/{2 * k}.png"' in html
        assert f"右下角 (#{2 * k + 1})" in html
    uno = service.create_table("uno", ["Ana", "Bruno"], "2468").id
    html = client.get(f"/camera/markers?table={uno}",
                      headers={"Accept-Language": "pt-BR"}).get_data(as_text=True)
    assert "1. Descarte</h2>" in html and "canto superior esquerdo (#0)" in html
    assert client.get("/camera/markers?table=nope").status_code == 404
    for mid in (0, 5, 31):
        res = client.get(f"/camera/marker/{mid}.png")
        image = cv2.imdecode(np.frombuffer(res.data, np.uint8), cv2.IMREAD_GRAYSCALE)
        assert len(marker_quads(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR))) == 1
        _corners, ids, _ = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(
            cv2.aruco.DICT_4X4_50)).detectMarkers(image)
        assert ids.ravel().tolist() == [mid]
    assert client.get("/camera/marker/32.png").status_code == 404


# -- taught names in any script ---------------------------------------------------------------

def test_a_card_named_in_chinese_is_taught_listed_and_forgotten(app, client, service, tmp_path):
    """A Versus card named 攻击三 on a Chinese phone was refused (ASCII only): it is taught,
    listed and forgotten by its name (URL-encoded in the path); Latin names still fold."""
    from urllib.parse import quote

    from vision.synth import render_scene

    runtime = CameraRuntime(Config(data_dir=str(tmp_path / "data")), service)
    app.extensions["camera"] = runtime
    versus = service.create_table("versus", ["A", "B", "C"], "2468").id
    image, _ = render_scene([("huangdi", "7")], table="cloth", seed=1, card_height=260)
    runtime.hub = _hub(image)
    runtime.hub.step()
    url = f"/api/tables/{versus}/camera/taught"
    res = client.post(url, json={"label": "攻击三"}, headers=PIN)
    assert res.status_code == 200, res.json
    assert res.json["cards"] == {"攻击三": 1}
    res = client.post(url, json={"label": "Ataque três"}, headers=PIN)
    assert res.json["cards"] == {"攻击三": 1, "ataque-tres": 1}
    assert res.json["label"] == "ataque-tres"  # (told as it is listed)
    assert client.get(url).json["cards"] == {"攻击三": 1, "ataque-tres": 1}
    res = client.delete(f"{url}/{quote('攻击三')}", headers=PIN)
    assert res.status_code == 200 and res.json["cards"] == {"ataque-tres": 1}
    assert client.delete(f"{url}/{quote('攻击三')}", headers=PIN).status_code == 404
    res = client.post(url, json={"label": "?!"}, headers=PIN)
    assert res.status_code == 400 and res.json["error"]["code"] == "bad_card_name"


def test_an_empty_table_teaches_nothing(app, client, service, uno, tmp_path):
    """The camera's view is never itself a tight crop of a card: with no card in view,
    teaching is refused and nothing is stored (the detector's whole-photo guess, taught as a
    red 7, had the camera see a red 7 on the empty table and play it)."""
    from vision.synth import render_scene

    runtime = CameraRuntime(Config(data_dir=str(tmp_path / "data")), service)
    app.extensions["camera"] = runtime
    empty, _ = render_scene([], table="wood", seed=4)
    runtime.hub = _hub(empty)
    runtime.hub.step()
    url = f"/api/tables/{uno}/camera/taught"
    res = client.post(url, json={"label": "red-7"}, headers=PIN)
    assert res.status_code == 422 and res.json["error"]["code"] == "no_card"
    assert client.get(url).json["cards"] == {}
    assert not (tmp_path / "data" / "decks" / "uno").is_dir()


def test_a_table_the_camera_does_not_watch_is_not_taught_nor_set_from_markers(
        app, client, service, uno, tmp_path):
    """Teaching and the markers read the camera's picture: while the camera watches another
    table, a card laid to be taught would count there as played (the host's pause is that
    table's). Refused, in the phone's language, until the camera is pointed here."""
    from vision.synth import render_scene

    runtime = CameraRuntime(Config(data_dir=str(tmp_path / "data")), service)
    app.extensions["camera"] = runtime
    image, _ = render_scene([("uno", "red-7")], table="cloth", seed=4)
    runtime.hub = _hub(image)
    runtime.hub.step()
    other = service.create_table("uno", ["Cy", "Di"], "2468").id
    runtime.bridge.bind(other)
    res = client.post(f"/api/tables/{uno}/camera/taught", json={"label": "red-7"},
                      headers={**PIN, "Accept-Language": "pt-BR"})
    assert res.status_code == 409 and res.json["error"]["code"] == "not_watched"
    assert res.json["error"]["message"].startswith("A câmera")
    res = client.post(f"/api/tables/{uno}/zones/markers", headers=PIN)
    assert res.status_code == 409 and res.json["error"]["code"] == "not_watched"
    assert client.get(f"/api/tables/{uno}/camera/taught").json["cards"] == {}
    runtime.bridge.bind(uno)
    res = client.post(f"/api/tables/{uno}/camera/taught", json={"label": "red-7"}, headers=PIN)
    assert res.status_code == 200 and res.json["cards"] == {"red-7": 1}


def test_a_blank_card_is_not_taught(app, client, service, uno, tmp_path):
    """A card with nothing printed on it (a blank card, a plain piece of paper) in view:
    its featureless crop, taught, would name every blank patch the camera sees. Teaching is
    refused (422 ``blank_card``, a message the phone shows) and nothing is stored; the
    same card with its face printed is taught."""
    import numpy as np

    from vision.synth import draw_card, render_scene

    runtime = CameraRuntime(Config(data_dir=str(tmp_path / "data")), service)
    app.extensions["camera"] = runtime
    blank, _ = render_scene([("uno", "red-7")], table="wood", seed=0,
                            art=lambda deck, label: np.full_like(draw_card(deck, label), 240))
    face, _ = render_scene([("uno", "red-7")], table="wood", seed=0)
    runtime.hub = _hub(blank, face)
    runtime.hub.step()
    url = f"/api/tables/{uno}/camera/taught"
    res = client.post(url, json={"label": "red-7"}, headers=PIN)
    assert res.status_code == 422 and res.json["error"]["code"] == "blank_card"
    assert "Nothing is printed on the card" in res.json["error"]["message"]
    assert client.get(url).json["cards"] == {}
    runtime.hub.step()
    res = client.post(url, json={"label": "red-7"}, headers=PIN)
    assert res.status_code == 200 and res.json["cards"] == {"red-7": 1}


def test_a_name_too_long_to_be_taught_is_not_taught(app, client, service, uno, tmp_path):
    app.extensions["camera"] = CameraRuntime(Config(data_dir=str(tmp_path)), service)
    res = client.delete(f"/api/tables/{uno}/camera/taught/{'x' * 5000}", headers=PIN)
    assert res.status_code == 404 and res.json["error"]["code"] == "not_taught"


def test_a_game_without_the_camera_teaches_nothing(app, client, service, uno, tmp_path):
    """A score pad has no deck: teaching from it, or forgetting, had changed the UNO deck's
    taught cards. (Pointing the camera at it parks the camera: no table hears it.)"""
    runtime = CameraRuntime(Config(data_dir=str(tmp_path)), service)
    app.extensions["camera"] = runtime
    pad = client.post("/api/tables", json={"game": "scorepad", "players": ["A", "B"],
                                           "pin": "2468"}).json["table"]["id"]
    for method, url, payload in (
            ("post", f"/api/tables/{pad}/camera/taught", {"label": "red-7"}),
            ("delete", f"/api/tables/{pad}/camera/taught/red-7", None)):
        res = getattr(client, method)(url, json=payload, headers=PIN)
        assert res.status_code == 409 and res.json["error"]["code"] == "no_camera_game", url
    assert not (tmp_path / "decks").exists()


def test_zones_saved_at_once_from_many_phones_land_whole(service, uno, tmp_path):
    """Two phones saving at the same moment had shared one temporary file: one save
    answered 500 after the other had written. Each lands whole, and the last one wins."""
    import json
    import threading

    runtime = CameraRuntime(Config(data_dir=str(tmp_path)), service)
    start = threading.Barrier(8)
    errors: list[BaseException] = []
    sets = [[{"name": "discard", "rect": [0.1, 0.1, 0.2 + k / 100, 0.5]}] for k in range(8)]

    def save(zones):
        start.wait()
        try:
            for _ in range(20):
                runtime.set_zones(uno, zones)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=save, args=(z,)) for z in sets]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert json.loads(runtime.zones_path(uno).read_text()) in sets
    assert [p.name for p in runtime.zones_path(uno).parent.iterdir()] == [f"{uno}.json"]


def test_the_host_pauses_the_cameras_plays_to_teach_mid_game(app, client, service, uno,
                                                             tmp_path, clock):
    runtime = CameraRuntime(Config(data_dir=str(tmp_path)), service)
    runtime.bridge.clock = clock.monotonic_ns  # (the pause counts down on the test's clock)
    app.extensions["camera"] = runtime
    url = f"/api/tables/{uno}/camera/pause"
    assert client.post(url, json={"on": True}).status_code == 403
    other = client.post("/api/tables", json={"game": "uno", "players": ["C", "D"],
                                             "pin": "2468"}).json["table"]["id"]
    runtime.bind(other)
    res = client.post(url, json={"on": True}, headers=PIN)
    assert res.status_code == 409 and res.json["error"]["code"] == "not_watched"
    assert runtime.bridge.paused_for() == 0
    runtime.bind(uno)
    for bad in ({}, {"on": "yes"}, {"on": 1}):
        res = client.post(url, json=bad, headers=PIN)
        assert res.status_code == 400 and res.json["error"]["code"] == "bad_pause", bad
    assert runtime.bridge.paused_for() == 0
    res = client.post(url, json={"on": True}, headers=PIN)
    assert res.status_code == 200 and res.json["paused_s"] == 300
    clock.advance(0.5)
    assert client.get("/api/camera").json["paused_s"] == 299.5
    res = client.post(url, json={"on": False}, headers=PIN)
    assert res.status_code == 200 and res.json["paused_s"] == 0
