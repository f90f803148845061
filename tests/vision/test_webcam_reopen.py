"""A USB webcam pulled out and put back reads again by itself (vision/sources/opencv.py): the
capture that had it fails every read for good once the device is gone, so the camera stayed
lost until the host restarted it, and ``/api/camera`` said nothing was wrong. A webcam
cannot exist on the test machine: ``cv2.VideoCapture`` is a fake device here, whose captures
opened before a replug never read again (as V4L2's)."""

from __future__ import annotations

import numpy as np
import pytest

import vision.sources.opencv as opencv_source
from vision.frame_hub import FrameHub
from vision.sources.opencv import REOPEN_AFTER, OpenCVSource


class Device:
    """The webcam on its cable: plugged in or not; each plug-in a new device handle."""

    plugged = True
    handle = 0


class Capture:
    def __init__(self, target) -> None:
        self.handle = Device.handle if Device.plugged else None
        self.released = False

    def isOpened(self) -> bool:  # (OpenCV's name)
        return self.handle is not None and not self.released

    def get(self, prop) -> float:
        return 640.0 if prop == opencv_source.cv2.CAP_PROP_FRAME_WIDTH else 480.0

    def read(self):
        if self.isOpened() and Device.plugged and self.handle == Device.handle:
            return True, np.zeros((480, 640, 3), np.uint8)
        return False, None

    def release(self) -> None:
        self.released = True


def unplug() -> None:
    Device.plugged = False


def plug() -> None:
    Device.plugged, Device.handle = True, Device.handle + 1


@pytest.fixture
def webcam(monkeypatch):
    monkeypatch.setattr(opencv_source.cv2, "VideoCapture", Capture)
    Device.plugged, Device.handle = True, 0
    source = OpenCVSource("0")
    source.start()
    yield source
    source.close()


def test_a_webcam_put_back_reads_again_without_a_restart(webcam):
    assert webcam.read() is not None
    unplug()
    for _ in range(REOPEN_AFTER - 1):  # (a few failed reads: a glitch, not yet gone)
        assert webcam.read() is None
    with pytest.raises(OSError, match="could not be opened again"):
        webcam.read()
    with pytest.raises(OSError):  # (still gone: each read tries again)
        webcam.read()
    plug()
    assert webcam.read() is None  # (opened again by this read)
    frame = webcam.read()
    assert frame is not None and frame.seq == 2


def test_a_glitch_shorter_than_the_reopen_keeps_the_capture(webcam):
    first = webcam._cap
    Device.plugged = False
    for _ in range(REOPEN_AFTER - 1):
        assert webcam.read() is None
    Device.plugged = True  # (the same handle: a dropped frame or two)
    assert webcam.read() is not None and webcam._cap is first


def test_a_video_file_at_its_end_is_not_reopened(monkeypatch):
    monkeypatch.setattr(opencv_source.cv2, "VideoCapture", Capture)
    Device.plugged, Device.handle = True, 0
    source = OpenCVSource("/videos/game.mp4")
    source.start()
    unplug()
    for _ in range(3 * REOPEN_AFTER):
        assert source.read() is None


def test_the_hub_says_the_webcam_is_gone_and_clears_it_once_it_is_back(webcam):
    """The capture thread's loop (the hub's ``_run``), its waits the test's: the webcam goes
    after the first frame, comes back after three failed tries to open it again; the hub
    holds the error meanwhile (``/api/camera``'s ``read_error``) and clears it."""
    errors: list[object] = []
    tries = []

    def wait(seconds: float) -> None:
        errors.append(hub.error)
        if hub.error is not None and not Device.plugged:
            tries.append(seconds)
            if len(tries) == 3:
                plug()

    hub = FrameHub(webcam, wait=wait)
    webcam_read = webcam.read

    def read():
        frame = webcam_read()
        if frame is not None and frame.seq == 1:
            unplug()
        if frame is not None and frame.seq == 2:
            hub._stop.set()  # (back: the loop ends after this frame)
        return frame

    webcam.read = read  # type: ignore[method-assign]
    hub._run()
    assert hub.latest is not None and hub.latest.seq == 2
    assert len(tries) == 3 and tries == sorted(tries)  # (ever less often)
    assert any(isinstance(e, OSError) for e in errors) and hub.error is None
    assert hub.read_errors == 3
