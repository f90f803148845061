from itertools import pairwise
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.clock import FakeClock
from vision.frame_hub import FrameHub
from vision.sources import CameraFallbackWarning, make_source
from vision.sources.replay import SAMPLES, ReplaySource


def test_packaged_samples_exist() -> None:
    assert len(list(SAMPLES.glob("*.jpg"))) >= 3


def test_replay_folder_by_spec(tmp_path: Path) -> None:
    for i in range(3):
        cv2.imwrite(str(tmp_path / f"{i}.png"), np.full((20, 30, 3), i * 50, np.uint8))
    src = make_source(f"replay:{tmp_path}")
    try:
        frames = [src.read() for _ in range(4)]  # paced at 10 fps: ~0.3 s
    finally:
        src.close()
    assert [f.seq for f in frames] == [1, 2, 3, 4]
    assert frames[3].image.mean() == 0  # loops
    assert all(b.t_ns >= a.t_ns for a, b in pairwise(frames))


def test_config_object_and_fallback_warns_loudly() -> None:
    class Cfg:
        camera = "opencv:/no/such/video.mp4"

    with pytest.warns(CameraFallbackWarning, match="FALLING BACK"):
        src = make_source(Cfg(), start=True)
    assert src.name.startswith("replay:")
    src.close()


def test_no_camera_set_off_a_pi_says_the_samples_are_shown(monkeypatch, caplog) -> None:
    """The samples are the default off a Pi, not a failure, but the person starting the
    companion must hear that the table is not being watched, and how to point a webcam."""
    import companion.config

    monkeypatch.setattr(companion.config, "is_raspberry_pi", lambda: False)
    with caplog.at_level("WARNING", logger="vision.sources"):
        src = make_source("", start=False)
    src.close()
    said = " ".join(r.getMessage() for r in caplog.records)
    assert "sample photos" in said and "opencv:0" in said


def test_unknown_spec_falls_back_too() -> None:
    with pytest.warns(CameraFallbackWarning):
        src = make_source("betamax")
    src.close()


def test_without_fallback_a_named_camera_that_fails_raises(monkeypatch) -> None:
    """``vision preview --camera opencv:7`` previewed the sample photos instead and exited 0;
    left to choose, the camera still falls back (off a Pi: the samples, no failure)."""
    import warnings

    import companion.config
    from vision.sources import CameraUnavailable, choose_source

    with warnings.catch_warnings():
        warnings.simplefilter("error", CameraFallbackWarning)
        with pytest.raises(CameraUnavailable, match=r"camera 'opencv:/no/such/video\.mp4' cannot"):
            choose_source("opencv:/no/such/video.mp4", fallback=False)
    monkeypatch.setattr(companion.config, "is_raspberry_pi", lambda: False)
    src, choice = choose_source("", start=False, fallback=False)
    src.close()
    assert choice.kind == "replay" and choice.wanted is None


def test_stepped_replay_uses_the_injected_clock() -> None:
    clock = FakeClock(start_ns=5_000)
    imgs = [np.zeros((4, 4, 3), np.uint8), np.ones((4, 4, 3), np.uint8)]
    src = ReplaySource(images=imgs, stepped=True, loop=False, clock_ns=clock.monotonic_ns)
    src.start()
    a = src.read()
    clock.advance(0.1)
    b = src.read()
    assert (a.t_ns, b.t_ns) == (5_000, 5_000 + 100_000_000)
    assert src.read() is None and src.exhausted


def test_hub_step_and_wait_next() -> None:
    imgs = [np.full((4, 4, 3), i, np.uint8) for i in range(3)]
    hub = FrameHub(ReplaySource(images=imgs, stepped=True, loop=False))
    hub.source.start()
    assert hub.wait_next(0, timeout=0) is None
    hub.step()
    f1 = hub.wait_next(0, timeout=0)
    assert f1.seq == 1
    assert hub.wait_next(1, timeout=0) is None
    hub.step()
    assert hub.wait_next(1, timeout=0).seq == 2


def test_hub_thread_serves_many_readers() -> None:
    imgs = [np.full((4, 4, 3), i, np.uint8) for i in range(50)]
    src = ReplaySource(images=imgs, stepped=True, loop=False)
    src.start()
    hub = FrameHub(src)
    with hub:  # (30 s: a guard for a loaded machine; the first frame comes in ms)
        got = hub.wait_next(0, timeout=30.0)
        assert got is not None
        again = hub.wait_next(got.seq - 1, timeout=30.0)
        assert again is not None and again.seq >= got.seq


class _StalledCamera:
    """A source whose read blocks until the test lets it return (a network webcam whose
    stream stalled), and which records from which thread it was closed and whether a read
    was under way then."""

    name = "stalled"

    def __init__(self) -> None:
        import threading

        self.reading = threading.Event()
        self.go_on = threading.Event()
        self.closed = threading.Event()
        self.in_read = False
        self.closed_during_read: list[bool] = []
        self.closed_by: list[str] = []

    def start(self) -> None:
        pass

    def read(self):
        self.in_read = True
        self.reading.set()
        # (a guard only: a read that returned by itself before the test lets it would
        # close the source under the test's feet, so it waits far longer than any stall)
        self.go_on.wait(60)
        self.in_read = False
        return None

    def close(self) -> None:
        import threading

        self.closed_during_read.append(self.in_read)
        self.closed_by.append(threading.current_thread().name)
        self.closed.set()


def test_stop_never_closes_a_source_under_a_blocked_read() -> None:
    """OpenCV's release() under a read() in another thread crashed the process (a webcam
    stream that stalled, then the camera restarted from the phone): the capture thread
    closes its own source, once, after the read returns."""
    cam = _StalledCamera()
    hub = FrameHub(cam).start()
    assert cam.reading.wait(30)
    hub.stop(timeout=0.05)  # the read is still blocked
    assert cam.closed_by == []
    cam.go_on.set()  # the stream comes back: the read returns, the thread ends
    assert cam.closed.wait(30)
    assert cam.closed_by == ["camera"] and cam.closed_during_read == [False]


def test_stop_closes_the_source_of_a_hub_that_never_ran() -> None:
    cam = _StalledCamera()
    FrameHub(cam).stop()
    assert cam.closed_during_read == [False] and len(cam.closed_by) == 1
