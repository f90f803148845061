"""LEDs and buzzer: the pure mapping from events, and the devices on MockFactory pins."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.indicators import LED_RIGHT_S, TONES, Indicators, feedback


def verdict(**kw):
    return {"type": "verdict", **kw}


def test_feedback_for_each_verdict():
    assert feedback([verdict(kind="right", winner=2)]) == [
        ("leds_off",), ("led", 2, LED_RIGHT_S), ("tone", "right")]
    assert feedback([verdict(kind="wrong", wrong=[1, 3])]) == [
        ("leds_off",), ("blink", 1, 3), ("blink", 3, 3), ("tone", "wrong")]
    assert feedback([verdict(kind="tie", tied=[0, 4])]) == [
        ("leds_off",), ("led", 0, None), ("led", 4, None), ("tone", "tie")]
    assert feedback([verdict(kind="lock", seat=5)]) == [
        ("leds_off",), ("led", 5, None), ("tone", "lock")]
    assert feedback([verdict(kind="reslap", tied=[0, 4])]) == [("leds_off",), ("tone", "tie")]
    assert feedback([verdict(kind="void")]) == [("leds_off",)]
    assert feedback([{"type": "race_updated"}, {"type": "pile_top"}]) == []
    assert feedback([{"type": "game_over"}]) == [("leds_off",), ("tone", "end")]
    assert TONES["right"] != TONES["wrong"]


class Update:
    def __init__(self, events):
        self.events = events


@pytest.fixture
def lights():
    scheduled = []
    ind = Indicators(MockFactory(), [17, 27, 22], 24, later=lambda d, fn: scheduled.append(
        (d, fn)))
    ind.scheduled = scheduled
    yield ind
    ind.close()


def run_due(ind, until):
    for d, fn in sorted(ind.scheduled, key=lambda x: x[0]):
        if d <= until:
            fn()


def test_the_winners_led_lights_and_the_buzzer_sounds_at_once(lights):
    lights(Update([verdict(kind="right", winner=1)]))
    assert [led.is_lit for led in lights.leds] == [False, True, False]
    assert lights.buzzer.is_active
    run_due(lights, LED_RIGHT_S)
    assert not any(led.is_lit for led in lights.leds) and not lights.buzzer.is_active


def test_a_newer_verdict_is_not_switched_off_by_an_older_timer(lights):
    lights(Update([verdict(kind="right", winner=1)]))
    first_off = [fn for d, fn in lights.scheduled if d == LED_RIGHT_S]
    lights(Update([verdict(kind="tie", tied=[1, 2])]))
    for fn in first_off:
        fn()
    assert [led.is_lit for led in lights.leds] == [False, True, True]


def test_leds_for_seats_without_one_are_skipped_and_closing_silences(lights):
    lights(Update([verdict(kind="right", winner=7)]))
    lights.close()
    lights(Update([verdict(kind="right", winner=0)]))  # after close: ignored, no error
