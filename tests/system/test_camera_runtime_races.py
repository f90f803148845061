"""The camera runtime while the host re-points and restarts it: nothing the camera saw for one
table reaches another, a table the camera is pointed at hears that it is lost, and a restart
tapped while the camera opens leaves no capture running and no bind failing."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
import pytest

import companion.camera as cam
import vision.frame_hub as frame_hub
import vision.sources as sources
from companion.camera import CameraRuntime
from companion.config import Config
from vision.identify import Card
from vision.watcher import ZoneWatcher

MS = 1_000_000
S = 1000 * MS
PIN = {"X-Host-Pin": "2468"}
WAIT = 10  # s: a guard against a deadlock, never a timing


class Names:
    """An identifier of the UNO deck that is never asked (the cards are fed as found)."""

    deck = "uno"

    def identify(self, image: Any) -> list[Card]:
        return []


def red7() -> Card:
    """A red 7 inside UNO's discard zone on a 640x480 view."""
    return Card("red-7", 0.99, np.array([[290, 120], [350, 120], [350, 210], [290, 210]],
                                          np.float32))


def uno_table(service: Any, players: list[str]) -> str:
    return service.create_table("uno", players, "2468", {"first_dealer": "first_seat"}).id


def runtime(service: Any, tmp_path: Any, **cfg: Any) -> CameraRuntime:
    rt = CameraRuntime(Config(data_dir=str(tmp_path / "data"), **cfg), service)
    with rt._lock:
        rt.watcher = ZoneWatcher([], Names(), rt.bridge.handle)
    return rt


def lost_at(rt: CameraRuntime, table: str) -> None:
    """The camera watches ``table``, sees a frame, then none for 3 s: lost."""
    rt.bind(table)
    rt.watcher.feed_cards([], 0, 640, 480)
    rt.watcher.tick(3 * S)


def heard_by(service: Any, *tables: str) -> dict[str, list[str]]:
    heard: dict[str, list[str]] = {t: [] for t in tables}
    for t in tables:
        service.subscribe(t, lambda u, t=t: heard[t].extend(e["type"] for e in u.events))
    return heard


# -- pointed at another table -----------------------------------------------------------------

def test_a_card_half_seen_at_one_table_does_not_count_at_the_next(service, tmp_path):
    """Two frames of a red 7 at T1, then the host points the camera at T2: the watcher starts
    afresh there, so two more frames are not the three a card needs."""
    t1, t2 = uno_table(service, ["A", "B"]), uno_table(service, ["C", "D"])
    rt = runtime(service, tmp_path)
    rt.bind(t1)
    for t_ms in (0, 100):
        rt.watcher.feed_cards([red7()], t_ms * MS, 640, 480)
    rt.bind(t2)
    for t_ms in (200, 300):
        rt.watcher.feed_cards([red7()], t_ms * MS, 640, 480)
    assert service.get(t1).version == 0 and service.get(t2).version == 0
    assert rt.watcher.state()["discard"] is None  # (not known yet at T2)


def test_an_event_found_for_one_table_is_not_handed_to_the_next(service, tmp_path):
    """A frame's events are handed out after the watcher's lock is released; here T1 hears
    the camera back and, in between, the camera is pointed at T2 (a listener stands for a
    phone): the red 7 of that same frame, found for T1, must not be played at T2."""
    t1, t2 = uno_table(service, ["A", "B"]), uno_table(service, ["C", "D"])
    rt = runtime(service, tmp_path)
    heard = heard_by(service, t1, t2)
    rt.bind(t1)
    w = rt.watcher
    for t_ms in (0, 100):
        w.feed_cards([red7()], t_ms * MS, 640, 480)
    w.tick(2100 * MS)  # no frame for 2 s: lost
    service.subscribe(t1, lambda u: any(e["type"] == "camera_back" for e in u.events)
                      and rt.bind(t2))
    w.feed_cards([red7()], 2200 * MS, 640, 480)  # back, and the red 7's third frame
    assert heard[t1] == ["camera_lost", "camera_back"]
    assert service.get(t2).version == 0 and "camera_back" not in heard[t2]


def test_a_table_the_lost_camera_is_pointed_at_hears_it_is_lost(service, tmp_path):
    """The camera is lost while it watches T1: once pointed at T2, T2's phones hear
    camera_lost (they fall back to tapping), and camera_back when frames return; T1 hears
    no more."""
    t1, t2 = uno_table(service, ["A", "B"]), uno_table(service, ["C", "D"])
    rt = runtime(service, tmp_path)
    heard = heard_by(service, t1, t2)
    lost_at(rt, t1)
    rt.bind(t2)
    for k in range(4, 10):
        rt.watcher.tick(k * S)
    rt.watcher.feed_cards([], 10 * S, 640, 480)
    assert heard[t1] == ["camera_lost"]
    assert heard[t2] == ["camera_lost", "camera_back"]


def test_a_table_pointed_at_while_the_camera_sees_hears_nothing_of_it(service, tmp_path):
    t1, t2 = uno_table(service, ["A", "B"]), uno_table(service, ["C", "D"])
    rt = runtime(service, tmp_path)
    heard = heard_by(service, t1, t2)
    rt.bind(t1)
    rt.watcher.feed_cards([], 0, 640, 480)
    rt.bind(t2)
    rt.watcher.tick(1 * S)
    rt.watcher.feed_cards([], 1 * S, 640, 480)
    assert heard == {t1: [], t2: []}


# -- restarted while it opens -----------------------------------------------------------------

class Source:
    """A camera that sends no picture; it says whether it was closed."""

    def __init__(self) -> None:
        self.closed = False

    def read(self) -> None:
        return None

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def opening(monkeypatch):
    """``choose_source`` that blocks its first call until the test sets ``go`` (a Pi camera
    takes a second or two to open), and the sources and hubs it gave."""
    entered, go = threading.Event(), threading.Event()
    made: dict[str, list[Any]] = {"sources": [], "hubs": []}

    def choose(cfg: Any, start: bool = True) -> tuple[Source, None]:
        first = not made["sources"]
        source = Source()
        made["sources"].append(source)
        if first:
            entered.set()
            go.wait(WAIT)
        return source, None

    start = frame_hub.FrameHub.start

    def tracked(self: frame_hub.FrameHub) -> frame_hub.FrameHub:
        made["hubs"].append(self)
        return start(self)

    monkeypatch.setattr(sources, "choose_source", choose)
    monkeypatch.setattr(frame_hub.FrameHub, "start", tracked)
    monkeypatch.setattr(cam, "identifier_for", lambda deck, path=None: Names())
    return entered, go, made


def test_a_camera_stopped_while_it_opens_leaves_no_capture_running(service, tmp_path, opening):
    entered, go, made = opening
    rt = CameraRuntime(Config(data_dir=str(tmp_path / "data")), service).start()
    assert entered.wait(WAIT)
    thread = rt._thread
    rt.stop(timeout=0)  # (the source still opening)
    go.set()
    thread.join(WAIT)
    assert not thread.is_alive()
    assert made["hubs"] == [] and rt.hub is None and rt.watcher is None
    assert [s.closed for s in made["sources"]] == [True]


def test_a_restart_tapped_while_the_camera_opens_leaves_one_capture(service, tmp_path, opening):
    entered, go, made = opening
    rt = CameraRuntime(Config(data_dir=str(tmp_path / "data")), service).start()
    assert entered.wait(WAIT)
    first = rt._thread
    rt.restart(timeout=0)  # the host taps "restart" while the camera still opens
    second = rt._thread
    go.set()
    first.join(WAIT)
    assert rt.ready.wait(WAIT), rt.error
    assert not first.is_alive() and len(made["hubs"]) == 1 and rt.hub is made["hubs"][0]
    rt.stop()
    second.join(WAIT)
    assert all(s.closed for s in made["sources"]) and len(made["sources"]) == 2
    assert not any(h._thread is not None and h._thread.is_alive() for h in made["hubs"])


class NotingLock:
    """A lock that says when a thread has to wait for it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.waited = threading.Event()

    def __enter__(self) -> NotingLock:
        if not self._lock.acquire(blocking=False):
            self.waited.set()
            self._lock.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self._lock.release()


def test_a_restart_while_a_table_is_bound_does_not_fail_the_bind(app, client, service,
                                                                 tmp_path, monkeypatch):
    """A phone points the camera at a Versus table (its deck loads, a while) while another
    restarts the camera: the bind finishes on the watcher it began with (it once answered
    500, the watcher taken from under it)."""
    uno = uno_table(service, ["A", "B"])
    versus = service.create_table("versus", ["A", "B", "C"], "2468").id
    rt = runtime(service, tmp_path)
    app.extensions["camera"] = rt
    rt.bind(uno)
    lock = rt._lock = NotingLock()  # type: ignore[assignment]
    loading, go, opened = threading.Event(), threading.Event(), threading.Event()

    def slow_identifier(deck: str, data_path: Any = None) -> Names:
        loading.set()
        go.wait(WAIT)
        return Names()

    monkeypatch.setattr(cam, "identifier_for", slow_identifier)
    monkeypatch.setattr(sources, "choose_source",
                        lambda cfg, start=True: (opened.wait(WAIT), (Source(), None))[1])
    out: dict[str, Any] = {}
    phone = threading.Thread(target=lambda: out.setdefault(
        "res", client.post(f"/api/tables/{versus}/camera", headers=PIN)))
    phone.start()
    assert loading.wait(WAIT)
    restarting = threading.Thread(target=lambda: (rt.restart(), lock.waited.set()))
    restarting.start()
    assert lock.waited.wait(WAIT)  # the restart waits for the bind (or, unfixed, is done)
    go.set()
    phone.join(WAIT)
    restarting.join(WAIT)
    opened.set()
    assert rt.ready.wait(WAIT), rt.error
    rt.stop()
    assert out["res"].status_code == 200, out["res"].json
    assert rt.table_id == versus


# -- a camera whose reads fail ----------------------------------------------------------------

def test_the_status_says_why_the_cameras_reads_fail(service, tmp_path):
    class Broken(Source):
        def read(self) -> None:
            raise RuntimeError("Camera frontend has timed out!")

    rt = CameraRuntime(Config(data_dir=str(tmp_path / "data")), service)
    hub = rt.hub = frame_hub.FrameHub(Broken(), wait=lambda s: hub._stop.set())
    assert rt.status()["read_error"] is None
    hub._run()
    assert rt.status()["read_error"] == "RuntimeError: Camera frontend has timed out!"


class Pictures:
    """A camera that sends a picture at each read (the one opened by a restart)."""

    def __init__(self) -> None:
        self.seq = 0

    def read(self) -> Any:
        import time

        from vision.frame import Frame

        self.seq += 1
        return Frame(np.zeros((480, 640, 3), np.uint8), time.monotonic_ns(), self.seq)

    def close(self) -> None:
        pass


def test_a_restart_of_a_lost_camera_tells_the_table_it_is_back(service, tmp_path,
                                                               monkeypatch):
    """The table heard camera_lost; the host restarts the camera and it sees again: the
    phones hear camera_back (the new capture's watcher was never lost, so it told nothing,
    and the phones said "camera lost" until a reload). Pointed at another table by the
    restart, that table hears no camera_back it was never told was coming."""
    t1, t2 = uno_table(service, ["A", "B"]), uno_table(service, ["C", "D"])
    rt = runtime(service, tmp_path)
    heard = heard_by(service, t1, t2)
    lost_at(rt, t1)
    assert heard[t1] == ["camera_lost"]
    monkeypatch.setattr(sources, "choose_source", lambda cfg, start=True: (Pictures(), None))
    monkeypatch.setattr(cam, "identifier_for", lambda deck, path=None: Names())
    back = threading.Event()
    service.subscribe(t1, lambda u: any(e["type"] == "camera_back" for e in u.events)
                      and back.set())
    rt.restart()
    try:
        assert back.wait(WAIT), rt.error
    finally:
        rt.stop()
    assert heard[t1] == ["camera_lost", "camera_back"]
    # the camera lost again, then restarted for another table
    rt = runtime(service, tmp_path)
    lost_at(rt, t1)
    rt.restart(t2)
    try:
        assert rt.ready.wait(WAIT), rt.error
        assert rt.table_id == t2 and not rt.watcher.lost  # (its first frame tells nothing)
    finally:
        rt.stop()
    assert "camera_back" not in heard[t2]
