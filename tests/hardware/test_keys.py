"""Terminal keys as slap buttons: autorepeat is one press, a held key is stuck."""

from __future__ import annotations

from hardware.keys import KeyButtons

MS = 1_000_000


def test_keys_press_seats_and_autorepeat_is_one_press():
    presses, stuck = [], []
    keys = KeyButtons(presses.append, on_stuck=lambda s, on: stuck.append((s, on)))
    keys.feed("2", 1000 * MS)
    for k in range(1, 20):  # the terminal repeats a held key every ~33 ms after 500 ms
        keys.feed("2", 1500 * MS + k * 33 * MS)
    keys.feed("x", 1600 * MS)
    keys.feed("1", 1600 * MS)
    assert [(p.seat, p.t_ns, p.source) for p in presses] == [
        (1, 1000 * MS, "keys"), (0, 1600 * MS, "keys")]
    keys.poll(3000 * MS)
    keys.feed("2", 3100 * MS)  # let go long enough: a new press
    assert [p.seat for p in presses] == [1, 0, 1]
    assert stuck == []


def test_a_key_held_for_seconds_is_stuck():
    presses, stuck = [], []
    keys = KeyButtons(presses.append, on_stuck=lambda s, on: stuck.append((s, on)))
    for k in range(200):
        keys.feed("3", 1000 * MS + k * 33 * MS)
    keys.poll(1000 * MS + 200 * 33 * MS + 800 * MS)
    assert len(presses) == 1 and stuck == [(2, True), (2, False)]


def test_fewer_seats_than_keys():
    presses = []
    keys = KeyButtons(presses.append, seats=3)
    keys.feed("4", 0)
    assert presses == [] and sorted(keys.seat_of) == ["1", "2", "3"]
