"""The default sample-photo camera sleeps when no table uses it (companion/camera.py
``CameraRuntime.awake``): it recognised its photos for no one, 38% of a core at idle. The
camera still captures (the picture, the camera's status), but the watcher reads no frame
until a camera game is watched, or a phone looks at the camera."""

from __future__ import annotations

from companion.camera import CameraRuntime
from companion.config import Config
from companion.games.base import HOST


def _frames(runtime, n: int) -> None:
    """Let ``n`` new frames be captured (a guard for a loaded machine, no sleep)."""
    seq = runtime.hub.latest.seq if runtime.hub.latest else 0
    for _ in range(n):
        frame = runtime.hub.wait_next(seq, timeout=30)
        assert frame is not None
        seq = frame.seq


def _reads(runtime, more_than: int) -> int:
    """Wait (by frames captured, at most 100) until the watcher read more than
    ``more_than`` frames; how many it read."""
    for _ in range(100):
        if runtime.watcher.frames_read > more_than:
            break
        _frames(runtime, 1)
    return runtime.watcher.frames_read


def test_the_camera_sleeps_until_a_camera_game_is_watched(service, tmp_path, monkeypatch):
    runtime = CameraRuntime(Config(camera="replay", data_dir=str(tmp_path)), service).start()
    service.add_listener(runtime.on_update)  # (as ``companion serve`` wires it)
    try:
        assert runtime.ready.wait(30), runtime.error
        _frames(runtime, 12)  # (more than the six sample photos: each one new)
        assert runtime.watcher.frames_read == 0  # asleep: nothing recognised
        # a score pad uses no camera: still asleep
        pad = service.create_table("scorepad", ["Ana", "Bruno"], "2468")
        service.submit(pad.id, {"type": "add_round", "scores": [1, 2]}, HOST)
        _frames(runtime, 6)
        assert runtime.watcher.frames_read == 0
        # an UNO table's move: the camera follows it, and reads
        uno = service.create_table("uno", ["Ana", "Bruno"], "2468")
        service.submit(uno.id, {"type": "set_dealer", "dealer": 0}, HOST)
        assert runtime.table_id == uno.id
        read = _reads(runtime, 0)
        assert read > 0
        # the game over: asleep again (no more reads, whatever comes)
        service.submit(uno.id, {"type": "end_match"}, HOST)
        assert service.get(uno.id).game.outcome(service.get(uno.id).state) is not None
        _frames(runtime, 3)  # (a frame being read as it ended)
        read = runtime.watcher.frames_read
        _frames(runtime, 12)
        assert runtime.watcher.frames_read == read
    finally:
        runtime.stop()


def test_a_phone_looking_at_the_camera_wakes_it_for_a_while(service, tmp_path, monkeypatch):
    import companion.camera as camera

    now = [1000.0]
    monkeypatch.setattr(camera.time, "monotonic", lambda: now[0])
    runtime = CameraRuntime(Config(camera="replay", data_dir=str(tmp_path)), service)
    assert not runtime.awake()
    runtime.looked()  # (the camera page: its status, a snapshot, the preview)
    assert runtime.awake()
    now[0] += camera.LOOKED_S
    assert not runtime.awake()
    runtime.status()
    assert runtime.awake()
