"""The timer driver with a fake clock: deadlines fire exactly when passed, never before."""

from __future__ import annotations

import threading

from companion.clock import FakeClock
from companion.games.base import HOST
from companion.store import Store
from companion.table import TableService
from companion.werewolf_driver import StepTimerDriver

NAMES = ["Ana", "Bruno", "Carla", "Davi", "Eva", "Fabio", "Gil", "Hugo"]


def _table(service, **options):
    live = service.create_table("werewolf", NAMES, "1234", options, seed=5)
    service.submit(live.id, {"type": "start"}, HOST)
    return live.id


def test_fires_only_once_the_deadline_has_passed(service, clock):
    driver = StepTimerDriver(service, clock)
    driver.attach()
    tid = _table(service, timers={"look": 20})
    state = service.get(tid).state
    assert state["step"]["name"] == "look"
    assert driver.deadlines()[tid] == (state["step"]["id"], state["step"]["deadline"])
    clock.advance(19.9)
    assert driver.poll() == []
    clock.advance(0.1)
    assert driver.poll() == [tid]
    state = service.get(tid).state
    assert state["phase"] == "night" and state["step"]["name"] == "seer"
    entry = service.get(tid).log[-1]
    assert entry.body["type"] == "timeout" and entry.actor["source"] == "timer"


def test_runs_a_whole_night_and_day_on_its_own(service, clock):
    driver = StepTimerDriver(service, clock)
    driver.attach()
    tid = _table(service, captain=False)
    names = []
    for _ in range(12):
        step = service.get(tid).state["step"]
        names.append(step["name"])
        clock.advance(step["deadline"] - clock.wall())
        assert driver.poll() == [tid]
    assert names[:6] == ["look", "seer", "werewolves", "debate", "vote", "seer"]


def test_a_step_ended_by_the_players_is_not_timed_out(service, clock):
    driver = StepTimerDriver(service, clock)
    driver.attach()
    tid = _table(service)
    for seat in range(8):
        from companion.games.base import Actor

        service.submit(tid, {"type": "ack"}, Actor(seat=seat))
    step = service.get(tid).state["step"]
    assert step["name"] == "seer"
    assert driver.deadlines()[tid][0] == step["id"]
    clock.advance(10)
    assert driver.poll() == []


def test_a_moved_deadline_is_followed(service, clock):
    driver = StepTimerDriver(service, clock)
    driver.attach()
    tid = _table(service)
    service.submit(tid, {"type": "set_timer", "step": "look", "seconds": 300}, HOST)
    clock.advance(61)
    assert driver.poll() == []
    clock.advance(240)
    assert driver.poll() == [tid]


def test_stale_deadline_is_dropped_quietly(service, clock):
    driver = StepTimerDriver(service, clock)
    tid = _table(service)
    driver.track(tid)
    service.submit(tid, {"type": "skip"}, HOST)  # the driver was not listening
    clock.advance(61)
    assert driver.poll() == []  # refused as stale, then re-read
    assert driver.deadlines()[tid][0] == service.get(tid).state["step"]["id"]


def test_picks_up_running_tables_on_attach(tmp_path):
    clock = FakeClock()
    store = Store(tmp_path / "db.sqlite3")
    tid = _table(TableService(store, clock))
    service = TableService(store, clock)  # a restart: the table is only in the log
    driver = StepTimerDriver(service, clock)
    driver.attach()
    assert tid in driver.deadlines()
    store.close()


def test_background_thread_fires_when_the_fake_clock_passes(service, clock):
    driver = StepTimerDriver(service, clock)
    driver.attach()
    tid = _table(service)
    fired = threading.Event()
    service.subscribe(tid, lambda update: fired.set() if update.actor.source == "timer" else None)
    driver.start(tick=0.01)
    try:
        assert not fired.wait(0.05)
        clock.advance(60)
        assert fired.wait(30)  # (a guard: it fires within a 10 ms tick)
    finally:
        driver.stop()
    assert service.get(tid).state["phase"] == "night"


def test_an_undone_step_starts_again_its_timer_and_its_narration(tmp_path):
    """An undo brought the step back with its old deadline, long past: the driver ended it
    at once (an undone look after 13 s of a 10 s timer was night again), and the phones and
    the speaker kept the later step's line. The step now starts again at the undo's time,
    its line said again; a restart replays it to the same state."""
    from companion.games.base import Actor

    clock = FakeClock()
    store = Store(tmp_path / "db.sqlite3")
    service = TableService(store, clock)
    driver = StepTimerDriver(service, clock)
    driver.attach()
    tid = _table(service, timers={"look": 10})
    for seat in range(7):
        service.submit(tid, {"type": "ack"}, Actor(seat=seat))
    clock.advance(13)
    service.submit(tid, {"type": "ack"}, Actor(seat=7))  # the last one: night falls
    assert service.get(tid).state["step"]["name"] == "seer"
    update = service.undo(tid)
    step = service.get(tid).state["step"]
    assert step["name"] == "look" and step["deadline"] == clock.wall() + 10
    assert {"type": "narrate", "key": "look_at_cards", "params": {}} in update.events
    assert driver.poll() == []  # (it fired at once before)
    clock.advance(9.9)
    assert driver.poll() == []
    service.submit(tid, {"type": "ack"}, Actor(seat=7))
    assert service.get(tid).state["step"]["name"] == "seer"
    again = TableService(store, clock)  # a restart: the state is the log's replay
    assert again.get(tid).state == service.get(tid).state
    store.close()


def test_a_clock_set_forward_mid_step_does_not_end_it(service, clock):
    """A Pi that syncs its clock mid-game (+1 h) ended the step under way at once."""
    driver = StepTimerDriver(service, clock)
    driver.attach()
    tid = _table(service, timers={"look": 60})
    step = service.get(tid).state["step"]
    clock.advance(10)
    clock.set_wall(3600)
    assert driver.poll() == []
    assert service.get(tid).state["step"]["id"] == step["id"]
    clock.advance(49.9)
    assert driver.poll() == []
    clock.advance(0.1)
    assert driver.poll() == [tid]
    assert service.get(tid).state["step"]["name"] == "seer"


def test_a_clock_set_back_mid_step_does_not_stall_it(service, clock):
    """A clock set back 2 h stalled the step for two hours (and its timeout, when sent, was
    refused as "not yet"); the next step runs its own time too."""
    driver = StepTimerDriver(service, clock)
    driver.attach()
    tid = _table(service, timers={"look": 60, "seer": 30})
    clock.advance(30)
    clock.set_wall(-7200)
    clock.advance(29.9)
    assert driver.poll() == []
    clock.advance(0.1)
    assert driver.poll() == [tid]
    step = service.get(tid).state["step"]
    assert step["name"] == "seer"
    clock.set_wall(-7200)  # (again, in the next step)
    clock.advance(30)
    assert driver.poll() == [tid]
    assert service.get(tid).state["step"]["name"] != "seer"


def test_a_restart_mid_step_resumes_it_with_the_time_it_had_left(tmp_path):
    """The companion restarts (the machine rebooted: its monotonic clock starts again) 20 s
    into a 60 s step: the step ends 40 s of wall time after its start, not at once nor 60 s
    after the restart."""
    clock = FakeClock(start_ns=50 * 10**9)
    store = Store(tmp_path / "db.sqlite3")
    service = TableService(store, clock)
    tid = _table(service, timers={"look": 60})
    step = service.get(tid).state["step"]
    clock.advance(20)
    after = FakeClock(start_ns=3 * 10**9, wall=clock.wall() + 5)  # (5 s to boot)
    service = TableService(store, after)
    driver = StepTimerDriver(service, after)
    driver.attach()
    after.advance(34.9)
    assert driver.poll() == []
    assert service.get(tid).state["step"]["id"] == step["id"]
    after.advance(0.1)
    assert driver.poll() == [tid]
    store.close()
