import pytest

from companion.events import CameraBack, CameraLost, CardSeen, ZoneCleared
from tests.vision.helpers import fake_card
from vision.watcher import ZoneWatcher
from vision.zones import Zone

MS = 1_000_000
W, H = 640, 480
PILE = Zone("discard", (0.0, 0.0, 0.5, 1.0))
OTHER = Zone("wall-1", (0.5, 0.0, 1.0, 1.0))


def make():
    events = []
    w = ZoneWatcher([PILE, OTHER], None, events.append, stable_frames=3, stable_ms=300,
                    clear_ms=800, lost_ms=2000)
    return w, events


def feed(w, cards, t_ms):
    w.feed_cards(cards, t_ms * MS, W, H)


def test_card_counts_once_stable_with_its_first_frame_time() -> None:
    w, events = make()
    for t in range(0, 500, 100):  # 10 fps
        feed(w, [fake_card("red-7", (100, 200))], 1000 + t)
    assert events == [CardSeen("discard", "red-7", 0.99, 1000 * MS)]
    assert w.state()["discard"] == "red-7"


def test_a_hand_passing_over_is_not_a_play() -> None:
    w, events = make()
    for t in range(0, 500, 100):
        feed(w, [fake_card("red-7", (100, 200))], t)
    events.clear()
    feed(w, [fake_card("blue-2", (100, 200))], 500)  # a flicker of something else
    feed(w, [], 600)  # the hand hides the pile
    feed(w, [], 700)
    for t in range(800, 1300, 100):
        feed(w, [fake_card("red-7", (100, 200))], t)
    assert events == []


def test_change_of_top_card_and_clear() -> None:
    w, events = make()
    t = 0
    for label in ["red-7", "red-3"]:
        for _ in range(5):
            feed(w, [fake_card(label, (100, 200))], t)
            t += 100
    for _ in range(12):
        feed(w, [], t)
        t += 100
    assert [type(e).__name__ for e in events] == ["CardSeen", "CardSeen", "ZoneCleared"]
    assert events[1].label == "red-3" and events[1].t_ns == 500 * MS
    assert isinstance(events[2], ZoneCleared) and events[2].t_ns == 1000 * MS


def test_unsure_card_is_reported_without_a_label() -> None:
    w, events = make()
    for t in range(0, 500, 100):
        feed(w, [fake_card(None, (100, 200), conf=0.4)], t)
    assert events == [CardSeen("discard", None, 0.4, 0)]


def test_zones_are_independent() -> None:
    w, events = make()
    for t in range(0, 500, 100):
        feed(w, [fake_card("red-1", (100, 200)), fake_card("green-2", (500, 200))], t)
    assert {(e.zone, e.label) for e in events} == {("discard", "red-1"), ("wall-1", "green-2")}


def test_camera_lost_within_two_seconds_once() -> None:
    w, events = make()
    feed(w, [], 0)
    w.tick(1_500 * MS)
    assert events == []
    w.tick(2_000 * MS)
    w.tick(2_500 * MS)
    assert events == [CameraLost(2_000 * MS)]
    feed(w, [], 3_000)  # frames are back: said once, with the first new frame's time
    feed(w, [], 3_100)
    w.tick(4_000 * MS)
    assert events == [CameraLost(2_000 * MS), CameraBack(3_000 * MS)]
    w.tick(5_100 * MS)
    assert events == [CameraLost(2_000 * MS), CameraBack(3_000 * MS), CameraLost(5_100 * MS)]


def test_no_frame_ever_is_lost_too() -> None:
    w, events = make()
    w.tick(0)
    w.tick(2_100 * MS)
    assert events == [CameraLost(2_100 * MS)]


def test_watcher_end_to_end_on_drawn_frames() -> None:
    from companion.clock import FakeClock
    from vision.frame_hub import FrameHub
    from vision.identify import Identifier
    from vision.sources.replay import ReplaySource
    from vision.synth import render_scene

    clock = FakeClock(0)
    a, _ = render_scene([("huangdi", "7")], table="cloth", seed=1, card_height=260)
    frames = [a] * 5
    src = ReplaySource(images=frames, stepped=True, loop=False, clock_ns=clock.monotonic_ns)
    src.start()
    hub = FrameHub(src, clock_ns=clock.monotonic_ns)
    events = []
    w = ZoneWatcher([Zone("discard", (0, 0, 1, 1))],
                    Identifier("huangdi", data_path="/nonexist"), events.append)
    for _ in range(5):
        w.feed(hub.step())
        clock.advance(0.1)
    assert [(e.zone, e.label) for e in events] == [("discard", "7")]
    assert events[0].t_ns == 0


def test_signature_tells_pile_tops_apart() -> None:
    from vision.detect import find_cards, rectify
    from vision.identify import signature, signature_distance
    from vision.synth import render_scene

    def sig(card, seed):
        img, _ = render_scene([card], table="cloth", seed=seed)
        return signature(rectify(img, find_cards(img)[0].corners))

    same = signature_distance(sig(("uno", "red-4"), 1), sig(("uno", "red-4"), 2))
    other = signature_distance(sig(("uno", "red-4"), 1), sig(("uno", "blue-4"), 2))
    assert same < 12 < other


class _Counting:
    """An identifier that counts the frames it reads."""

    def __init__(self, inner) -> None:
        self.inner, self.deck, self.read = inner, inner.deck, 0

    def identify(self, image):
        self.read += 1
        return self.inner.identify(image)


def _camera(image, rng, sigma: float = 6, quality: int = 70):
    """The frame a webcam gives of a still scene: its own sensor noise, then JPEG."""
    import cv2
    import numpy as np

    noisy = np.clip(image + rng.normal(0, sigma, image.shape), 0, 255).astype(np.uint8)
    return cv2.imdecode(cv2.imencode(".jpg", noisy, [cv2.IMWRITE_JPEG_QUALITY, quality])[1],
                        cv2.IMREAD_COLOR)


def test_a_still_table_is_read_once_a_second_and_its_card_still_counts() -> None:
    """Frames of a table that has not moved since the last frame read keep that frame's
    cards (vision.motion), once the frames read have agreed for as long as a card needs to
    count (3 frames, 300 ms): a noisy webcam's 2 s of a still pile is read 11 times (its
    first 300 ms and once after a second), not 60, and the card counts after its frames and
    time, with its first frame's time."""
    import numpy as np

    from vision.frame import Frame
    from vision.identify import Identifier
    from vision.synth import render_scene

    scene, _ = render_scene([("uno", "red-7")], table="wood", seed=3)
    rng = np.random.default_rng(0)
    reader = _Counting(Identifier("uno", data_path="/nonexist"))
    events = []
    w = ZoneWatcher([Zone("discard", (0, 0, 1, 1))], reader, events.append)
    for i in range(60):  # 30 fps
        w.feed(Frame(_camera(scene, rng), 1000 * MS + i * 33 * MS, i + 1))
    assert reader.read == 11 and w.frames_read == 11  # 0 to 297 ms, and after a second
    assert [(e.zone, e.label, e.t_ns) for e in events] == [("discard", "red-7", 1000 * MS)]
    assert [c.label for c in w.last_cards] == ["red-7"]


def test_a_card_put_down_or_swapped_is_read_at_once() -> None:
    """The first frame that shows a card put down on a still table, or a card swapped for
    another of its colour where it lay (no hand seen in between), is read, and the change
    counts as soon as it has held for the watcher's frames and time."""
    import numpy as np

    from vision.frame import Frame
    from vision.identify import Identifier
    from vision.synth import render_scene

    rng = np.random.default_rng(1)
    empty, _ = render_scene([], table="cloth", seed=5)
    seven, _ = render_scene([("uno", "blue-7")], table="cloth", seed=5)
    five, _ = render_scene([("uno", "blue-5")], table="cloth", seed=5)
    reader = _Counting(Identifier("uno", data_path="/nonexist"))
    events = []
    w = ZoneWatcher([Zone("discard", (0, 0, 1, 1))], reader, events.append)
    t = 0
    for scene, frames in ((empty, 10), (seven, 12), (five, 12)):
        for _ in range(frames):  # 30 fps, under a second each
            w.feed(Frame(_camera(scene, rng), t, t // (33 * MS) + 1))
            t += 33 * MS
    assert reader.read == 3 * 10  # the first 300 ms of each scene, no other
    assert [(e.label, e.t_ns) for e in events if isinstance(e, CardSeen)] == [
        ("blue-7", 10 * 33 * MS), ("blue-5", 22 * 33 * MS)]


def test_one_frame_misread_on_a_still_table_does_not_stand_for_the_next() -> None:
    """A still table's frame read once a second may be misread (a borderline card read
    unsure, or missed); the still frames after it are read again until the readings have
    agreed for 300 ms, so the misreading lasts one frame, never the 300 ms a change needs."""
    import numpy as np

    from vision.frame import Frame

    class Flicker:
        deck = "uno"

        def __init__(self) -> None:
            self.read = 0

        def identify(self, image):
            self.read += 1
            return [] if self.read == 11 else [fake_card("red-7", (100, 200))]

    scene = np.random.default_rng(0).integers(0, 255, (H, W, 3), dtype=np.uint8)
    reader, events = Flicker(), []
    w = ZoneWatcher([PILE], reader, events.append)
    for i in range(90):  # 3 s at 30 fps: the 11th reading, at 1 s, misses the card
        w.feed(Frame(scene, i * 33 * MS, i + 1))
    assert [(e.zone, e.label) for e in events] == [("discard", "red-7")]
    assert reader.read == 10 + 1 + 10 + 1  # 300 ms, the miss at 1 s, 300 ms again, 2 s


def test_another_deck_or_other_zones_are_read_again() -> None:
    """A new identifier (another deck, a deck taught more) or new zones: the next frame is
    read, still or not; a gate with refresh_ms=0 reads every frame."""
    import numpy as np

    from vision.frame import Frame
    from vision.identify import Identifier
    from vision.motion import MotionGate
    from vision.synth import render_scene

    scene, _ = render_scene([("uno", "green-2")], table="white", seed=2)
    first = _Counting(Identifier("uno", data_path="/nonexist"))
    w = ZoneWatcher([PILE], first, lambda e: None)
    for i in range(15):  # half a second: read for 300 ms, then kept
        w.feed(Frame(scene, i * 33 * MS, i + 1))
    assert first.read == 10
    w.identifier = second = _Counting(Identifier("uno", data_path="/nonexist"))
    for i in range(15, 30):
        w.feed(Frame(scene, i * 33 * MS, i + 1))
    w.set_zones([PILE, OTHER])
    for i in range(30, 45):
        w.feed(Frame(scene, i * 33 * MS, i + 1))
    assert (first.read, second.read) == (10, 20)
    every = ZoneWatcher([PILE], first, lambda e: None, gate=MotionGate(refresh_ms=0))
    for i in range(15):
        every.feed(Frame(np.copy(scene), i * 33 * MS, i + 1))
    assert first.read == 25


def test_the_motion_gate_tells_noise_from_a_card() -> None:
    """vision.motion: two frames of a still scene with their own noise and JPEG blocks have
    not moved; a card moved by a few pixels, or another card where one lay, has; so has a
    frame whose timestamp ran backwards (another camera)."""
    import numpy as np

    from vision.motion import MotionGate
    from vision.synth import render_scene

    rng = np.random.default_rng(2)
    for seed, table in enumerate(["wood", "cloth", "white", "pattern"]):
        scene, _ = render_scene([("french", "7H"), ("french", "2S")], table=table, seed=seed)
        other, _ = render_scene([("french", "8H"), ("french", "2S")], table=table, seed=seed)
        gate = MotionGate()
        assert gate.moved(_camera(scene, rng), 0)
        for i in range(1, 10):
            assert not gate.moved(_camera(scene, rng, sigma=10, quality=50), i * 33 * MS)
        assert gate.moved(_camera(np.roll(scene, 3, axis=1), rng), 400 * MS)
        assert not gate.moved(_camera(np.roll(scene, 3, axis=1), rng), 433 * MS)
        assert gate.moved(_camera(other, rng), 466 * MS)
        assert gate.moved(_camera(other, rng), 0)


def _turned(label: str, centre: tuple[float, float], degrees: float, size: float = 40.0):
    import numpy as np

    card = fake_card(label, centre, size=size)
    a = np.radians(degrees)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
    card.corners = (card.corners - card.corners.mean(axis=0)) @ rot.T + card.corners.mean(axis=0)
    return card


def test_the_same_card_come_to_rest_elsewhere_is_reported_again() -> None:
    """UNO holds two of most cards: a twin played on its double shows the same face all the
    way down and comes to rest elsewhere or turned. The top card resting (3 frames, 300 ms)
    a fifth of its width away or 10 degrees turned from where it lay is reported once more
    with ``again``, from the first frame it rested there; a hand passing over, a nudge of a
    few pixels, or a part of it seen under a hand is not. (A pile pushed aside is, too: UNO
    asks the player.)"""
    w, events = make()
    t = 0

    def show(cards, frames):
        nonlocal t
        for _ in range(frames):
            feed(w, cards, t)
            t += 100

    show([fake_card("red-7", (100, 200))], 5)
    show([], 3)  # a hand over the pile
    show([_turned("red-7", (101, 201), 2)], 5)  # where it lay: the hand went past
    for k in range(1, 4):  # nudged, 2 px a frame
        show([fake_card("red-7", (100 + 2 * k, 200))], 1)
    show([fake_card("red-7", (106, 200))], 5)
    show([fake_card("red-7", (106, 214), size=28)], 5)  # a part: a hand over its top
    assert [e.again for e in events] == [False]
    for k in range(1, 5):  # the twin coming down, turning, always in view
        show([_turned("red-7", (106 + 10 * k, 200 - 6 * k), 7 * k)], 1)
    since = t
    show([_turned("red-7", (156, 170), 35)], 6)
    assert [(e.label, e.again) for e in events] == [("red-7", False), ("red-7", True)]
    assert events[-1].t_ns == since * MS
    show([_turned("red-7", (156, 170), 35)], 5)
    show([_turned("red-7", (156, 170), 70)], 5)  # turned where it lies: its twin turned
    assert [e.again for e in events] == [False, True, True]
    show([], 3)
    show([fake_card("blue-7", (100, 200))], 5)  # another card: a play as ever
    assert [(e.label, e.again) for e in events][3:] == [("blue-7", False)]


def test_a_twin_dropped_on_its_double_is_seen_through_the_camera() -> None:
    """Drawn frames through the real reader: a red 7 on the pile, a hand over it, then its
    twin dropped turned on it (reported again), or the first left as it lay (not)."""
    import cv2
    import numpy as np

    from vision.frame import Frame
    from vision.identify import Identifier
    from vision.synth import draw_card, place_card, table_texture

    reader = Identifier("uno", data_path="/nonexist")
    for table in ("wood", "cloth"):
        rng = np.random.default_rng(0)
        first = table_texture(table, (640, 480), rng)
        place_card(first, draw_card("uno", "red-7"), (320, 250), 150, 5.0)
        twin = first.copy()
        place_card(twin, draw_card("uno", "red-7"), (320, 250), 150, 30.0)
        covered = first.copy()
        cv2.ellipse(covered, (330, 260), (120, 150), 20, 0, 360, (110, 150, 205), -1)
        for after, again in ((first, False), (twin, True)):
            events = []
            w = ZoneWatcher([Zone("discard", (0.3, 0.2, 0.7, 0.8))], reader, events.append)
            frames = [first] * 12 + [covered] * 6 + [after] * 12
            for i, image in enumerate(frames):
                w.feed(Frame(_camera(image, rng), i * 33 * MS, i + 1))
            assert [(e.label, e.again) for e in events] == \
                [("red-7", False)] + [("red-7", True)] * again, table


SEATS = [Zone(f"discard-{i}", (i / 3, 0.0, (i + 1) / 3, 1.0)) for i in range(3)]


def test_new_zones_set_while_a_frame_is_fed_do_not_break_it() -> None:
    """The audit's crash: zones saved (or the camera moved to another table) while the
    camera thread was inside feed_cards, looping over the old zones, left it looking up a
    zone the new tracks no longer had (KeyError: 'discard-2') and the camera thread died.
    Here the event handler itself sets the new zones, as the bridge can (a card seen -> an
    action -> the runtime rebinds): it runs once the frame is done and the watcher's lock
    released (another thread could take it: no lock-order deadlock with the table's locks),
    and the next frame uses the new zones, a kept zone keeping its track."""
    import threading

    events, free = [], []
    w = ZoneWatcher(SEATS, None, events.append, stable_frames=3, stable_ms=300)

    def try_lock() -> None:
        if w._lock.acquire(blocking=False):
            free.append(True)
            w._lock.release()

    def emit(event) -> None:
        events.append(event)
        other = threading.Thread(target=try_lock)
        other.start()
        other.join()
        w.set_zones(SEATS[:2])  # discard-2 goes (the old watcher: while its loop went on)

    w.emit = emit
    for t in (0, 100, 200, 300):
        feed(w, [fake_card("red-7", (100, 200))], t)  # commits at 300: the handler runs
    assert [(e.zone, e.label) for e in events] == [("discard-0", "red-7")]
    assert free == [True]  # the handler ran outside the watcher's lock
    assert w.state() == {"discard-0": "red-7", "discard-1": None}  # (empty: not yet)
    feed(w, [fake_card("red-7", (100, 200)), fake_card("blue-1", (600, 200))], 400)
    assert set(w.state()) == {"discard-0", "discard-1"}


def test_zones_set_from_another_thread_wait_for_the_frame_being_fed() -> None:
    """The web thread's set_zones and the camera thread's feed_cards do not interleave:
    while a frame is fed the watcher's lock is held (the web thread waits for the frame
    to finish, a few milliseconds), and set, from the other thread, once it is done."""
    import threading

    inside, release = threading.Event(), threading.Event()
    watcher = ZoneWatcher(SEATS, None, lambda e: None)

    class Blocking(Zone):
        def contains(self, x, y, width, height):  # (the camera thread, mid-frame)
            inside.set()
            assert release.wait(10)
            return super().contains(x, y, width, height)

    watcher.set_zones([Blocking("discard-0", SEATS[0].rect), *SEATS[1:]])
    errors: list[BaseException] = []

    def camera() -> None:
        try:
            feed(watcher, [fake_card("red-7", (100, 200))], 0)
        except BaseException as exc:  # (reported below)
            errors.append(exc)

    thread = threading.Thread(target=camera)
    thread.start()
    assert inside.wait(10)
    assert not watcher._lock.acquire(blocking=False)  # held by the frame being fed
    setter = threading.Thread(target=watcher.set_zones, args=(SEATS[:1],))
    setter.start()
    release.set()
    thread.join(10)
    setter.join(10)
    assert errors == [] and set(watcher.state()) == {"discard-0"}


class _FakeHub:
    """A hub whose camera gave ``frames`` and then blocked: each wait for a frame moves the
    fake clock on by the wait's timeout (as a blocked source would), until ``until_ns``."""

    def __init__(self, clock, frames, stop, until_ns) -> None:
        self.clock, self.frames, self.stop, self.until_ns = clock, list(frames), stop, until_ns
        self.waits: list[float] = []

    def wait_next(self, after_seq, timeout):
        self.waits.append(timeout)
        if self.frames:
            return self.frames.pop(0)
        self.clock.advance(ns=round(timeout * 1e9))
        if self.clock.monotonic_ns() >= self.until_ns:
            self.stop.set()
        return None


def test_a_camera_that_blocks_is_told_to_the_table_within_two_seconds(service) -> None:
    """No frame at all after the last one (the source thread blocked): the watcher's loop
    does not wait a whole poll past the deadline, so the table hears camera_lost 2 s after
    the last frame, not up to a quarter second later; and camera_back once frames return."""
    import threading

    import numpy as np

    from companion.camera_bridge import CameraBridge
    from companion.clock import FakeClock
    from vision.frame import Frame

    table = service.create_table("uno", ["A", "B"], "2468")
    heard = []
    service.subscribe(table.id, heard.append)
    clock = FakeClock(200 * MS)  # the last frame, taken at 0.1 s, arrives at 0.2 s: the
    stop = threading.Event()     # 0.25 s polls from then on would tick at 2.2 s
    last = Frame(np.zeros((48, 64, 3), np.uint8), 100 * MS, 1)
    hub = _FakeHub(clock, [last], stop, until_ns=4_000 * MS)
    w = ZoneWatcher([PILE], None, CameraBridge(service, table.id).handle)
    w.feed = lambda frame: w.feed_cards([], frame.t_ns, 64, 48, frame.image)
    w.run(hub, clock.monotonic_ns, stop)
    said = [e for u in heard for e in u.events]
    assert said == [{"type": "camera_lost", "t_ns": 2_100 * MS}]  # 2 s after the last frame
    assert max(hub.waits) <= 0.25

    heard.clear()
    stop.clear()
    hub.frames = [Frame(last.image, clock.monotonic_ns(), 2)]
    hub.until_ns = clock.monotonic_ns() + 1
    w.run(hub, clock.monotonic_ns, stop)
    assert [e for u in heard for e in u.events] == [
        {"type": "camera_back", "t_ns": hub.until_ns - 1}]


def test_a_frame_that_fails_does_not_end_the_watchers_loop() -> None:
    """An exception in one frame (a bug, an OpenCV error) is handed to ``on_error`` and the
    loop reads the next frame: the camera keeps watching."""
    import threading

    import numpy as np

    from companion.clock import FakeClock
    from vision.frame import Frame

    class Flaky:
        deck = "uno"

        def __init__(self) -> None:
            self.calls = 0

        def identify(self, image):
            self.calls += 1
            if self.calls == 1:
                raise KeyError("discard-2")
            return [fake_card("red-7", (100, 200))]

    clock = FakeClock(0)
    stop = threading.Event()
    frames = [Frame(np.full((H, W, 3), i, np.uint8), i * 100 * MS, i) for i in range(1, 6)]
    hub = _FakeHub(clock, frames, stop, until_ns=0)
    events, errors = [], []
    w = ZoneWatcher([PILE], Flaky(), events.append)
    w.run(hub, clock.monotonic_ns, stop, on_error=errors.append)
    assert [type(e) for e in errors] == [KeyError]
    assert w.identifier.calls >= 4 and w.state()["discard"] == "red-7"
    stop.clear()
    hub.frames = [Frame(np.full((H, W, 3), 200, np.uint8), 600 * MS, 6)]  # (moved: read)
    w.identifier.calls = 0
    with pytest.raises(KeyError):  # without on_error the loop ends as before
        w.run(hub, clock.monotonic_ns, stop)


def test_a_frame_finishes_on_the_zones_it_began_with() -> None:
    """Zones replaced while the loop over them runs (here by a zone's own test, in the same
    thread: the lock is re-entrant) do not pull the tracks from under it."""
    w = ZoneWatcher(SEATS, None, lambda e: None)

    class Replacing(Zone):
        def contains(self, x, y, width, height):
            if len(w.zones) == 3:
                w.set_zones(SEATS[:1])
            return super().contains(x, y, width, height)

    w.set_zones([Replacing("discard-0", SEATS[0].rect), *SEATS[1:]])
    feed(w, [fake_card("red-7", (100, 200))], 0)
    assert set(w.state()) == {"discard-0"}


def test_an_unsure_card_comes_with_its_best_guess() -> None:
    """A card the recogniser cannot name still counts as a new top card, with the best guess
    it read at its surest: a game asks a person about it (UNO: "did you play ...?")."""
    from dataclasses import replace

    w, events = make()
    for t, (best, conf) in enumerate([("green-2", 0.3), ("green-reverse", 0.6),
                                      ("green-2", 0.4), ("green-reverse", 0.5)]):
        feed(w, [replace(fake_card(None, (100, 200), conf), best=best)], t * 100)
    assert [(e.label, e.best, e.confidence) for e in events] == [(None, "green-reverse", 0.6)]
    for t in range(4, 9):  # a card it names has no guess to ask about
        feed(w, [fake_card("blue-3", (100, 200))], t * 100)
    assert (events[-1].label, events[-1].best) == ("blue-3", None)


def test_a_whole_set_hands_over_its_unnamed_cards_guesses() -> None:
    """A zone read as a whole set (a fanned play) reports every card, and for each card it
    cannot name, by position, its best guess: a game counting the set must not lose it."""
    from dataclasses import replace

    w, events = make()
    w.whole_sets = frozenset({"discard"})
    fan = [fake_card("7H", (100, 200)), replace(fake_card(None, (120, 200), 0.5), best="7D"),
           fake_card("7S", (140, 200), 0.98)]
    for t in range(0, 500, 100):
        feed(w, fan, t)
    assert events == [CardSeen("discard", "7H", 0.5, 0, cards=(("7H", 0.99), ("7S", 0.98),
                                                                (None, 0.5)),
                               guesses=(None, None, "7D"))]
    w, events = make()  # every card named: no guesses
    w.whole_sets = frozenset({"discard"})
    for t in range(0, 500, 100):
        feed(w, [fan[0], fan[2]], t)
    assert events[0].guesses is None and events[0].cards == (("7H", 0.99), ("7S", 0.98))


def test_every_event_of_a_frame_is_handed_out_though_one_fails() -> None:
    """Both piles flip in one frame and the handler fails on the first (a table's database
    busy): the second is handed out all the same (the watcher committed both), and the
    failure is raised once they are all out, for ``run``'s ``on_error``."""
    got = []

    def emit(event) -> None:
        if not got:
            got.append(None)
            raise RuntimeError("database is locked")
        got.append((event.zone, event.label))

    w = ZoneWatcher([PILE, OTHER], None, emit)
    cards = [fake_card("red-1", (100, 200)), fake_card("green-2", (500, 200))]
    for t in range(0, 300, 100):
        feed(w, cards, t)
    with pytest.raises(RuntimeError, match="database is locked"):
        feed(w, cards, 300)
    assert got == [None, ("wall-1", "green-2")]
    assert w.state() == {"discard": "red-1", "wall-1": "green-2"}


def test_a_reset_starts_afresh_and_hands_each_event_out_with_its_binding() -> None:
    """Pointed at another table (``reset(binding)``): a card half-way to counting starts
    again, stamped with the frame after the reset, and each event goes out with the binding
    it was found for; a camera lost is told again."""
    events = []
    w = ZoneWatcher([PILE], None, lambda *e: events.append(e))
    feed(w, [fake_card("red-7", (100, 200))], 0)
    feed(w, [fake_card("red-7", (100, 200))], 100)
    w.reset("T2")
    for t in (200, 300, 400):
        feed(w, [fake_card("red-7", (100, 200))], t)
    assert events == []
    feed(w, [fake_card("red-7", (100, 200))], 500)
    assert events == [(CardSeen("discard", "red-7", 0.99, 200 * MS), "T2")]
    w.tick(2_500 * MS)
    w.reset("T3")
    assert w.state() == {"discard": None} and not w.lost
    w.tick(2_600 * MS)
    assert events[1:] == [(CameraLost(2_500 * MS), "T2"), (CameraLost(2_600 * MS), "T3")]
