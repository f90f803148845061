from companion.events import CameraLost, CardSeen, ZoneCleared
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
    feed(w, [], 3_000)  # frames are back
    w.tick(4_000 * MS)
    w.tick(5_000 * MS)
    assert len(events) == 2


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
