"""The debounce is a pure function, tested on recorded edge sequences (t_ns, level)."""

from __future__ import annotations

from hardware.buttons import DebounceSettings, LineState, debounce, held_at_start, settle
from hardware.testing import bounce

US = 1_000
MS = 1_000_000
S = 1_000_000_000
CFG = DebounceSettings()

# A press recorded on an arcade microswitch: the first falling edge, then bounce edges 5 to
# 35 us apart for ~0.1 ms; released 140 ms later with its own bounce.
RECORDED = [
    (0, 0), (7 * US, 1), (12 * US, 0), (47 * US, 1), (53 * US, 0), (88 * US, 1), (95 * US, 0),
    (140 * MS, 1), (140 * MS + 9 * US, 0), (140 * MS + 30 * US, 1), (140 * MS + 36 * US, 0),
    (140 * MS + 70 * US, 1),
]


def test_a_bouncing_press_is_one_press_stamped_with_its_first_edge():
    events, state = debounce(RECORDED, now_ns=200 * MS)
    assert events == [("press", 0), ("release", 140 * MS + 70 * US)]
    assert state == LineState(pressed=False, since_ns=140 * MS + 70 * US)


def test_release_bounce_never_makes_a_second_press():
    edges = bounce(0, 0) + bounce(50 * MS, 1) + bounce(50 * MS + 2 * MS, 0)  # re-press too soon
    events, _ = debounce(edges)
    assert [e for e in events if e[0] == "press"] == [("press", 0)]


def test_a_second_press_after_the_release_time_counts():
    edges = bounce(0, 0) + bounce(50 * MS, 1) + bounce(80 * MS, 0)
    events, _ = debounce(edges)
    presses = [t for kind, t in events if kind == "press"]
    assert presses == [0, 80 * MS]


def test_a_held_button_is_stuck_once_and_ignored_until_released():
    edges = bounce(0, 0) + [(t, 0) for t in range(1 * S, 8 * S, S)]  # noise while held
    events, state = debounce(edges, now_ns=8 * S)
    assert events == [("press", 0), ("stuck", 3 * S)]
    assert state.stuck and state.pressed
    events, state = debounce(bounce(9 * S, 1), state=state, now_ns=9 * S + 20 * MS)
    # A release is stamped where the line went idle for good (after the bounce).
    assert events == [("release", 9 * S + 90 * US), ("unstuck", 9 * S + 90 * US)]
    events, _ = debounce(bounce(10 * S, 0), state=state)
    assert events == [("press", 10 * S)]


def test_stuck_is_reported_by_the_clock_alone():
    _, state = debounce(bounce(0, 0))
    state, events = settle(state, 2 * S, CFG)
    assert events == []
    state, events = settle(state, 3 * S, CFG)
    assert events == [("stuck", 3 * S)]
    assert settle(state, 4 * S, CFG)[1] == []


def test_a_release_just_before_the_stuck_time_is_not_stuck():
    _, state = debounce([(0, 0), (2_995 * MS, 1)])
    assert settle(state, 3_001 * MS, CFG)[1] == []  # idle for 6 ms: not yet released
    _, events = settle(state, 3_010 * MS, CFG)
    assert events == [("release", 2_995 * MS)]


def test_a_button_down_at_start_is_not_a_press():
    events, _state = debounce([(5 * S, 0)], state=held_at_start(0), now_ns=5 * S)
    assert events == [("stuck", 3 * S)]


def test_active_high_wiring():
    cfg = DebounceSettings(active_level=1)
    events, _ = debounce([(0, 1), (10 * US, 0), (20 * US, 1)], cfg)
    assert events == [("press", 0)]
