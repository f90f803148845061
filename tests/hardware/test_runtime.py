"""hardware.start: buttons, keys and phones' presses -> races -> the right table."""

from __future__ import annotations

import threading

import pytest

from companion.clock import SystemClock
from companion.config import Config
from companion.games.base import Actor
from companion.store import Store
from companion.table import TableService
from hardware.runtime import Hardware, start
from hardware.testing import ManualTicksFactory, bounce

MS = 1_000_000
PINS = [5, 6, 13, 19]
CAMERA = Actor(source="camera")


@pytest.fixture
def rig(service, clock):
    pins = ManualTicksFactory(start_ns=clock.monotonic_ns(), clock=clock)
    cfg = Config(button_pins=PINS, led_pins=[17, 27, 22, 23], buzzer_pin=24)
    hw = start(cfg, service, clock, keys=False, factory=pins, background=False)
    yield service, clock, pins, hw
    hw.stop()


def press(clock, pins, seat, t_ns):
    pins.drive(PINS[seat], bounce(t_ns, 0))
    pins.drive(PINS[seat], bounce(t_ns + 80 * MS, 1))


def settle(clock, hw, t_ns):
    clock.advance(ns=t_ns - clock.monotonic_ns())
    return hw.router.poll()


def versus(service):
    t = service.create_table("versus", ["Ana", "Bo", "Cy", "Di"], "2468", seed=1)
    for seat, card in enumerate(["star", "moon", "star", "sun"]):
        service.submit(t.id, {"type": "pile_top", "seat": seat, "card": card,
                              "t_ns": 1_100 * MS + seat}, CAMERA)
    return t


def test_presses_reach_the_most_recently_active_table_with_buttons(rig):
    service, clock, pins, hw = rig
    t = versus(service)
    service.create_table("scorepad", ["A", "B"], "2468")  # newer, but has no buttons
    start_ns = 1_500 * MS
    press(clock, pins, 2, start_ns + 300_000)
    press(clock, pins, 1, start_ns)
    assert hw.router.deadline_ns() == start_ns + 1_500_000  # tie window 1 ms + 0.5 ms grace
    assert settle(clock, hw, start_ns + 1_500_000 - 1) == []
    [update] = settle(clock, hw, start_ns + 1_500_000)
    assert update.table_id == t.id and update.actor.source == "button"
    v = update.events[0]
    assert v["kind"] == "tie" and v["tied"] == [1, 2]
    assert [led.is_lit for led in hw.indicators.leds] == [False, True, True, False]


def test_a_phones_on_screen_button_is_stamped_on_arrival(rig):
    service, clock, _pins, hw = rig
    t = versus(service)
    clock.advance(ns=2_000 * MS - clock.monotonic_ns())
    hw.press(t.id, 3)
    [update] = settle(clock, hw, 2_002 * MS)
    assert update.events[0]["order"][0] == {"seat": 3, "t_ns": 2_000 * MS, "gap_ns": 0,
                                            "behind_ns": 0, "status": "right"}


def test_bind_and_no_table(rig, caplog):
    service, clock, pins, hw = rig
    press(clock, pins, 0, 1_100 * MS)
    assert settle(clock, hw, 1_200 * MS) == []  # no table plays with buttons: ignored
    quiz = service.create_table("quiz", ["A", "B", "C", "D"], "2468")
    versus(service)  # the most recent activity...
    hw.bind(quiz.id)  # ...but the host bound the buttons to the quiz
    press(clock, pins, 3, 1_300 * MS)
    [update] = settle(clock, hw, 1_400 * MS)
    assert update.table_id == quiz.id
    assert update.events[0] == {"type": "verdict", "kind": "lock", "seat": 3, "tied": [],
                                "resolution": "first", "order": update.events[0]["order"]}
    assert hw.indicators.leds[3].is_lit


def test_stop_releases_every_pin(rig):
    _service, _clock, pins, hw = rig
    hw()
    assert all(pins.pin(n).when_changed is None for n in PINS)
    hw.stop()  # twice is fine


def test_the_judging_thread_publishes_by_itself(tmp_path):
    svc = TableService(Store(tmp_path / "db.sqlite3"), SystemClock())
    t = svc.create_table("quiz", ["A", "B"], "2468")
    heard = threading.Event()
    svc.add_listener(lambda u: heard.set())
    hw = start(Config(), svc, SystemClock(), keys=False)
    try:
        hw.press(t.id, 1)
        assert heard.wait(30)  # (a guard: judged 1.5 ms after the press)
        assert svc.get(t.id).state["floor"] == 1
    finally:
        hw.stop()


def test_a_phone_press_for_a_game_without_buttons_is_ignored(rig):
    service, clock, _pins, hw = rig
    pad = service.create_table("scorepad", ["A", "B"], "2468")
    hw.press(pad.id, 1, t_ns=clock.monotonic_ns())
    assert settle(clock, hw, clock.monotonic_ns() + 10 * MS) == []
    assert service.get(pad.id).version == 0


def test_serve_starts_it_the_way_companion_serve_does(service):
    from companion.serve import start_hardware

    stop = start_hardware(Config(button_pins=[5, 6], led_pins=[17], buzzer_pin=None), service,
                          use_keys=False)
    assert isinstance(stop, Hardware) and stop.buttons is not None and stop.keys is None
    stop()


def test_a_tied_press_whose_callback_ran_late_turns_the_verdict_into_a_tie(rig):
    service, clock, pins, hw = rig
    t = versus(service)
    start_ns = 1_500 * MS
    pins.drive(PINS[2], bounce(start_ns, 0))
    [first] = settle(clock, hw, start_ns + 2 * MS)
    assert first.events[0]["kind"] == "right" and first.events[0]["winner"] == 2
    # Seat 1 pressed 300 us after seat 2, but its callback only runs now.
    hw.buttons.edge(1, start_ns + 300_000, 0)
    [second] = settle(clock, hw, start_ns + 5 * MS)
    kinds = [e["type"] for e in second.events]
    assert "verdict_changed" in kinds
    verdict = second.events[0]
    assert verdict["kind"] == "tie" and verdict["tied"] == [2, 1]  # in press order
    state = service.get(t.id).state
    assert state["tie"]["seats"] == [2, 1] and state["gem_deck"] == 18
    assert [led.is_lit for led in hw.indicators.leds] == [False, True, True, False]
