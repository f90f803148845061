"""Edge sequences through real gpiozero MockFactory pins, with their timestamps injected."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockPin

from companion.clock import FakeClock
from companion.slap import judge
from hardware.buttons import ButtonBank, DebounceSettings
from hardware.testing import ManualTicksFactory, bounce

US = 1_000
MS = 1_000_000
S = 1_000_000_000
PINS = [5, 6, 13, 19, 26, 12, 16, 20]
T0 = 2 * S


@pytest.fixture
def bank():
    clock = FakeClock(start_ns=T0)
    factory = ManualTicksFactory(start_ns=T0, clock=clock)
    presses, stuck = [], []
    b = ButtonBank(factory, PINS, clock, presses.append, lambda s, on: stuck.append((s, on)))
    b.factory, b.clock, b.presses, b.stuck = factory, clock, presses, stuck
    yield b
    b.close()


def test_the_pins_are_real_mock_pins_with_the_pull_up_on(bank):
    pin = bank.factory.pin(PINS[0])
    assert isinstance(pin, MockPin) and pin.pull == "up" and pin.state == 1
    assert pin.when_changed is not None and pin.bounce is None


def test_order_comes_from_edge_times_even_when_callbacks_run_in_the_other_order(bank):
    t = T0 + 500 * MS
    # Seat 5's callback runs first, but seat 2's edge came 100 us earlier.
    bank.factory.drive_all([(t + 100 * US, PINS[5], 0), (t, PINS[2], 0)])
    assert [(p.seat, p.t_ns, p.source) for p in bank.presses] == [
        (5, t + 100 * US, "gpio"), (2, t, "gpio")]
    v = judge([{"seat": p.seat, "t_ns": p.t_ns} for p in bank.presses], tie_window_ns=50 * US)
    assert v["winner"] == 2 and v["order"][1]["gap_ns"] == 100 * US


def test_eight_buttons_bouncing_at_once_give_eight_presses_stamped_at_their_first_edges(bank):
    t = T0 + 1 * S
    edges = []
    for seat, pin in enumerate(PINS):
        start = t + seat * 100 * US
        gaps = [5 * US + 3 * US * seat, 35 * US, 12 * US, 20 * US - seat * US]
        edges += [(e_t, pin, lv) for e_t, lv in bounce(start, 0, gaps)]
    bank.factory.drive_all(sorted(edges))  # all eight interleaved, in time order
    assert [(p.seat, p.t_ns - t) for p in bank.presses] == [
        (s, s * 100 * US) for s in range(8)]


def test_ties_inside_the_window_stay_ties(bank):
    t = T0 + 1 * S
    bank.factory.drive_all([(t, PINS[1], 0), (t + 400 * US, PINS[3], 0)])
    v = judge([{"seat": p.seat, "t_ns": p.t_ns} for p in bank.presses])
    assert v["tied"] == [1, 3] and v["winner"] is None


def test_a_stuck_button_is_reported_and_not_a_stream_of_slaps(bank):
    pin = PINS[4]
    bank.factory.drive(pin, bounce(T0 + 1 * S, 0))
    for k in range(2, 8):  # held: contact noise, and the clock moving on
        bank.factory.drive(pin, [(T0 + k * S, 1), (T0 + k * S + 10 * US, 0)])
        bank.poll(T0 + k * S + 1 * MS)
    assert [p.seat for p in bank.presses] == [4]
    assert bank.stuck == [(4, True)]
    bank.factory.drive(pin, bounce(T0 + 9 * S, 1))
    bank.poll(T0 + 9 * S + 50 * MS)
    assert bank.stuck == [(4, True), (4, False)]
    bank.factory.drive(pin, bounce(T0 + 10 * S, 0))
    assert [p.seat for p in bank.presses] == [4, 4]


def test_active_high_wiring_uses_the_pull_down():
    clock = FakeClock(start_ns=T0)
    factory = ManualTicksFactory(start_ns=T0, clock=clock)
    presses = []
    b = ButtonBank(factory, [PINS[0]], clock, presses.append,
                   settings=DebounceSettings(active_level=1))
    assert factory.pin(PINS[0]).pull == "down"
    factory.drive(PINS[0], bounce(T0 + S, 1))
    assert [p.t_ns for p in presses] == [T0 + S]
    b.close()


def test_closing_releases_the_pins(bank):
    bank.close()
    assert bank.factory.pin(PINS[0]).when_changed is None


def test_edge_stamps_on_another_clock_are_re_anchored(caplog):
    clock = FakeClock(start_ns=T0)
    factory = ManualTicksFactory(start_ns=T0)
    presses = []
    b = ButtonBank(factory, [PINS[0]], clock, presses.append)
    factory.drive(PINS[0], [(T0 + 3600 * S, 0)])  # an hour ahead of the clock: not ours
    assert [p.t_ns for p in presses] == [T0] and "re-anchoring" in caplog.text
    factory.drive(PINS[0], [(T0 + 3600 * S + 50 * MS, 1), (T0 + 3600 * S + 90 * MS, 0)])
    assert [p.t_ns for p in presses] == [T0, T0 + 90 * MS]  # differences still exact
    b.close()
