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
