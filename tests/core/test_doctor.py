"""`companion doctor` opens the camera the way `companion serve` does, so what it says is
what the table will get: a camera that will not open says FALLBACK before friends arrive."""

from __future__ import annotations

from types import SimpleNamespace

import cv2

from companion import doctor
from vision.synth import render_scene


def test_a_camera_that_will_not_open_is_a_fallback_and_says_why(tmp_path):
    missing = tmp_path / "video9"
    report = doctor._check_camera(SimpleNamespace(camera=f"opencv:{missing}"))
    assert report["fallback"] is True
    assert report["will_use"] == f"replay of the sample photos INSTEAD OF opencv:{missing}"
    assert "could not open" in report["error"]
    assert "picture" not in report  # (the samples' picture is not the camera's)


def test_a_camera_that_sends_pictures_says_their_size(tmp_path):
    video = tmp_path / "table.avi"
    image, _ = render_scene([("uno", "red-7")], size=(320, 240), seed=2)
    out = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 10, (320, 240))
    for _ in range(5):
        out.write(image)
    out.release()
    report = doctor._check_camera(SimpleNamespace(camera=f"opencv:{video}"))
    assert report["will_use"] == f"video file: opencv:{video}"
    assert report["picture"] == "320x240"
    assert report["fallback"] is False and "error" not in report


def test_off_and_the_samples_are_said_as_they_are():
    off = doctor._check_camera(SimpleNamespace(camera="off"))
    assert off["fallback"] is False and off["will_use"].startswith("no camera")
    samples = doctor._check_camera(SimpleNamespace(camera=""))
    if samples["wanted"] is None:  # (not a Pi)
        assert samples["will_use"].startswith("replay of the sample photos")
        assert samples["fallback"] is True


def _pins_cfg(**kw):
    return SimpleNamespace(pin_factory="", button_pins=[4], led_pins=[], buzzer_pin=None, **kw)


def test_a_pin_factory_that_will_not_load_on_a_pi_is_a_fallback_and_says_why(monkeypatch):
    """It said [ok] on a Pi whatever happened: serve then runs without buttons, LEDs or
    buzzer (docs/wiring.md), so the doctor loads the factory as serve does."""
    cfg = _pins_cfg()
    cfg.pin_factory = "nosuchfactory"
    named = doctor._check_pins(cfg, on_pi=True)
    assert named["fallback"] is True and "nosuchfactory did not load" in named["will_use"]
    assert "nosuchfactory" in named["error"]

    from gpiozero import Device
    from gpiozero.exc import BadPinFactory

    def broken():
        raise BadPinFactory("Unable to load any default pin factory!")

    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(broken))
    default = doctor._check_pins(_pins_cfg(), on_pi=True)
    assert default["fallback"] is True
    assert "BadPinFactory: Unable to load any default pin factory" in default["error"]


def test_a_pin_factory_that_loads_on_a_pi_is_ok(monkeypatch):
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    class Real(MockFactory):  # (stands in for lgpio: loads, and is not the simulation)
        pass

    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(Real))
    report = doctor._check_pins(_pins_cfg(), on_pi=True)
    assert report["fallback"] is False and "error" not in report
    assert doctor._check_pins(_pins_cfg(), on_pi=False)["fallback"] is True  # (mock off a Pi)


def test_a_database_that_cannot_be_opened_is_flagged_and_exits_2(tmp_path, monkeypatch, capsys):
    """It printed the bad path and exited 0; serve then stops on it."""
    text = tmp_path / "notes.txt"
    text.write_text("not a folder")
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "none.toml"))
    monkeypatch.setenv("COMPANION_DATA_DIR", str(text / "data"))
    monkeypatch.setenv("COMPANION_CAMERA", "off")
    args = SimpleNamespace(config=None, json=False)
    assert doctor.run_doctor(args) == 2
    said = capsys.readouterr().out
    assert f"[ERROR: {text} is a file, not a folder]" in said
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    assert doctor.run_doctor(args) == 0
    assert not (tmp_path / "data").exists()  # (the doctor creates nothing)
