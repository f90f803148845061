"""A Versus game resumed after a power cut: the machine's monotonic clock, which the buttons
and the camera stamp with, starts again near 0, but the table's timeline goes on."""

from __future__ import annotations

from companion.camera_bridge import CameraBridge
from companion.clock import FakeClock
from companion.config import Config
from companion.events import CardSeen
from companion.store import Store
from companion.table import RESUME_GAP_NS, TableService
from hardware.runtime import start
from hardware.testing import ManualTicksFactory, bounce

MS = 1_000_000
PINS = [5, 6, 13]


def play(service: TableService, clock: FakeClock, table_id: str, pins, hw, flips, slapper):
    """Flips seen by the camera (zone, picture) 400 ms apart, then a button's slap."""
    bridge = CameraBridge(service, table_id)
    for zone, card in flips:
        clock.advance(0.4)
        bridge.handle(CardSeen(zone, card, 1.0, clock.monotonic_ns()))
    clock.advance(0.3)
    t = clock.monotonic_ns()
    pins.drive(PINS[slapper], bounce(t, 0))
    pins.drive(PINS[slapper], bounce(t + 80 * MS, 1))
    clock.advance(ns=hw.router.deadline_ns() - clock.monotonic_ns())
    [update] = hw.router.poll()
    return next(e for e in update.events if e["type"] == "verdict")


def rig(path, clock):
    service = TableService(Store(path), clock)
    pins = ManualTicksFactory(start_ns=clock.monotonic_ns(), clock=clock)
    hw = start(Config(button_pins=PINS), service, clock, keys=False, factory=pins,
               background=False)
    return service, pins, hw


def test_a_pair_after_a_reboot_is_judged_as_before(tmp_path):
    db = tmp_path / "companion.sqlite3"
    clock = FakeClock(start_ns=5_000 * 1_000_000_000)  # 83 minutes after the boot
    service, pins, hw = rig(db, clock)
    table = service.create_table("versus", ["Ana", "Bo", "Cy"], "2468", seed=1)
    verdict = play(service, clock, table.id, pins, hw,
                   [("discard-0", "star"), ("discard-1", "moon"), ("discard-2", "sun")], 0)
    assert verdict["kind"] == "wrong"
    last = service.get(table.id).state["t_last"]
    hw.stop()

    # the power cut: the server starts again 30 s after the machine's next boot
    clock = FakeClock(start_ns=30 * 1_000_000_000)
    service, pins, hw = rig(db, clock)
    assert service.stamp(table.id, clock.monotonic_ns()) == last + RESUME_GAP_NS
    verdict = play(service, clock, table.id, pins, hw,
                   [("discard-1", "star"), ("discard-2", "star")], 2)
    assert verdict["kind"] == "right" and verdict["winner"] == 2
    hw.stop()


def test_a_server_restarted_on_a_running_machine_keeps_the_clock_as_it_is(tmp_path):
    db = tmp_path / "companion.sqlite3"
    clock = FakeClock(start_ns=5_000 * 1_000_000_000)
    service = TableService(Store(db), clock)
    table = service.create_table("versus", ["Ana", "Bo", "Cy"], "2468", seed=1)
    CameraBridge(service, table.id).handle(CardSeen("discard-0", "star", 1.0,
                                                    clock.monotonic_ns()))
    clock.advance(5.0)
    again = TableService(Store(db), clock)
    assert again.stamp(table.id, 123) == 123
