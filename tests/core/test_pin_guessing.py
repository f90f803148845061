"""Guessing the host's PIN from many addresses (companion/table.py ``check_pin``): 200
addresses on a LAN, five tries each, found a 4-digit PIN in 112 s. Past a few wrong PINs the
table hears one try a minute, from any address but one that gave the right PIN before."""

from __future__ import annotations

import pytest

from companion.table import (
    PIN_GLOBAL_SPACING_S,
    PIN_GLOBAL_TRIES,
    TableError,
)


@pytest.fixture
def table(service):
    return service.create_table("scorepad", ["Ana", "Bruno", "Chen"], pin="2468")


def _guess(service, table, pin: str, client: str) -> int:
    try:
        service.check_pin(table.id, pin, client)
    except TableError as exc:
        return exc.status
    return 200


def test_many_addresses_cannot_guess_a_pin_in_a_day(service, table, clock):
    """A swarm of addresses, each a new one, tries every PIN as fast as it is heard: in 6
    hours it tries under 400 of the 10,000 PINs (it found it in 112 s), so finding one takes
    days on average."""
    tried = 0
    pins = (f"{n:04d}" for n in range(10_000) if f"{n:04d}" != "2468")
    addresses = (f"10.0.{n // 250}.{n % 250}" for n in range(10**6))
    end = clock.wall() + 6 * 3600
    pin = next(pins)
    while clock.wall() < end:
        status = _guess(service, table, pin, next(addresses))
        if status == 403:  # heard, and wrong: the next PIN
            tried += 1
            pin = next(pins)
        else:
            assert status == 429
            clock.advance(5.0)  # (a script asking again every few seconds)
    assert tried <= PIN_GLOBAL_TRIES + 6 * 3600 / PIN_GLOBAL_SPACING_S + 1 < 400, tried


def test_the_host_s_own_phone_is_never_held_and_a_new_one_waits_a_minute(service, table,
                                                                         clock):
    assert _guess(service, table, "2468", "10.0.0.2") == 200  # the host's phone, unlocked
    for n in range(PIN_GLOBAL_TRIES):
        assert _guess(service, table, "0000", f"10.0.1.{n}") == 403
    with pytest.raises(TableError) as err:  # another address: held, told for how long
        service.check_pin(table.id, "2468", "10.0.2.1")
    assert err.value.status == 429 and err.value.rejection.code == "pin_busy"
    assert err.value.rejection.params == {"s": int(PIN_GLOBAL_SPACING_S) + 1}
    assert _guess(service, table, "2468", "10.0.0.2") == 200  # the host's, still heard
    clock.advance(PIN_GLOBAL_SPACING_S)
    assert _guess(service, table, "2468", "10.0.2.1") == 200  # a minute later, heard
    # and once the guessing stops, the table forgets it
    clock.advance(600)
    for n in range(PIN_GLOBAL_TRIES - 1):
        assert _guess(service, table, "1111", f"10.0.3.{n}") == 403
    assert _guess(service, table, "2468", "10.0.4.1") == 200
