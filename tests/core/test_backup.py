"""Backups of the event log (companion/backup.py) on a real SQLite file: taken with the online
backup API while the service keeps writing, checked by opening them, kept to the newest few,
restored only while the service is stopped, and scheduled on an injected clock."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from companion import backup
from companion.clock import FakeClock
from companion.config import Config, ConfigError, load_config
from companion.games.base import Actor
from companion.store import Store
from companion.table import TableService

T0 = 1_790_000_000.0  # 2026-09-21 14:13:20 UTC


def _table(service: TableService, rounds: int = 2) -> str:
    live = service.create_table("scorepad", ["Ana", "Bruno"], "2468")
    for n in range(rounds):
        service.submit(live.record.id, {"type": "add_round", "scores": [n, 1]}, Actor(host=True))
    return live.record.id


@pytest.fixture
def live_db(tmp_path, clock):
    """A live database (WAL, held open by a Store as serve holds it) with one table."""
    store = Store(tmp_path / "data" / "companion.sqlite3")
    service = TableService(store, clock)
    table_id = _table(service)
    yield SimpleNamespace(store=store, service=service, path=store.path, table_id=table_id)
    store.close()


def test_a_backup_of_a_live_database_holds_every_committed_action(live_db, tmp_path):
    """The live file alone lacks the actions still in its -wal file: the API copies them."""
    folder = tmp_path / "backups"
    info = backup.make_backup(live_db.path, folder, T0)
    assert info.path == folder / "companion-20260921-141320Z.sqlite3"
    assert info.ok and (info.tables, info.events) == (1, 2)
    assert list(folder.iterdir()) == [info.path]  # (no .part left, no -wal beside it)
    # the copy is one self-contained file: it opens read-only and replays the same table
    copy = TableService(Store(info.path), FakeClock())
    assert copy.get(live_db.table_id).state == live_db.service.get(live_db.table_id).state


def test_the_service_keeps_writing_while_a_backup_is_taken(live_db, tmp_path):
    first = backup.make_backup(live_db.path, tmp_path / "b", T0)
    live_db.service.submit(live_db.table_id, {"type": "add_round", "scores": [5, 5]},
                           Actor(host=True))
    second = backup.make_backup(live_db.path, tmp_path / "b", T0 + 1)
    assert (first.events, second.events) == (2, 3)
    assert second.path.name == "companion-20260921-141321Z.sqlite3"


def test_two_backups_in_the_same_second_get_two_names(live_db, tmp_path):
    a = backup.make_backup(live_db.path, tmp_path / "b", T0)
    b = backup.make_backup(live_db.path, tmp_path / "b", T0)
    assert a.path != b.path and b.path.name == "companion-20260921-141320Z-2.sqlite3"
    assert [i.path for i in backup.list_backups(tmp_path / "b")] == [b.path, a.path]


def test_no_database_is_a_clear_error(tmp_path):
    with pytest.raises(backup.BackupError, match="no database at"):
        backup.make_backup(tmp_path / "none.sqlite3", tmp_path / "b", T0)


def test_damaged_and_foreign_files_are_found_by_opening_them(live_db, tmp_path):
    folder = tmp_path / "b"
    good = backup.make_backup(live_db.path, folder, T0).path
    torn = folder / "companion-20260921-140000Z.sqlite3"
    data = bytearray(good.read_bytes())
    data[len(data) // 2:] = b"\0" * (len(data) - len(data) // 2)  # (the log's pages zeroed)
    torn.write_bytes(bytes(data))
    text = folder / "companion-20260921-150000Z.sqlite3"
    text.write_text("not a database")
    empty = folder / "companion-20260921-160000Z.sqlite3"
    sqlite3.connect(empty).close()  # (a database, but not the companion's)
    found = {i.path: i for i in backup.list_backups(folder, thorough=True)}
    assert found[good].ok
    for bad in (torn, text, empty):
        assert not found[bad].ok and found[bad].problem, bad
    assert "no such table" in found[empty].problem


def test_only_the_newest_are_kept(live_db, tmp_path):
    folder = tmp_path / "b"
    made = [backup.make_backup(live_db.path, folder, T0 + 3600 * n).path for n in range(5)]
    (folder / "notes.txt").write_text("mine")  # (not a backup: never touched)
    assert backup.prune(folder, 2) == made[:3]
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        [made[3].name, made[4].name, "notes.txt"])
    assert backup.prune(folder, 0) == [made[3]]  # (at least one is always kept)


def test_restore_is_refused_while_serve_holds_the_database(live_db, tmp_path):
    saved = backup.make_backup(live_db.path, tmp_path / "b", T0)
    with backup.serving(live_db.path) as held:
        assert held and backup.service_running(live_db.path)
        with pytest.raises(backup.BackupError, match="stop it first"):
            backup.restore(saved.path, live_db.path, tmp_path / "b", T0 + 10)
        with backup.serving(live_db.path) as second:  # (a second serve on the same file)
            assert second is False
    assert not backup.service_running(live_db.path)


def test_restore_brings_the_log_back_and_keeps_the_replaced_one(live_db, tmp_path):
    folder = tmp_path / "b"
    saved = backup.make_backup(live_db.path, folder, T0)
    for n in range(3):  # (played on after the backup: lost by the restore, kept aside)
        live_db.service.submit(live_db.table_id, {"type": "add_round", "scores": [n, n]},
                               Actor(host=True))
    live_db.store.close()
    mode = live_db.path.stat().st_mode
    before = backup.restore(saved.path, live_db.path, folder, T0 + 60)
    assert before.path.name == "companion-20260921-141420Z-before-restore.sqlite3"
    assert before.events == 5
    assert live_db.path.stat().st_mode == mode
    reopened = TableService(Store(live_db.path), FakeClock())
    assert len(reopened.store.log(live_db.table_id)) == 2
    reopened.store.close()
    assert backup.restore(before.path, live_db.path, folder, T0 + 120).events == 2  # (undo)
    assert backup.check_backup(live_db.path).events == 5


def test_a_damaged_backup_is_never_restored(live_db, tmp_path):
    bad = tmp_path / "companion-20260921-141320Z.sqlite3"
    bad.write_text("garbage")
    live_db.store.close()
    with pytest.raises(backup.BackupError, match="not a usable backup"):
        backup.restore(bad, live_db.path, tmp_path / "b", T0)
    assert backup.check_backup(live_db.path).events == 2


def test_the_schedule_backs_up_every_interval_on_the_clock(live_db, tmp_path):
    clock = FakeClock(wall=T0)
    folder = tmp_path / "b"
    sched = backup.BackupScheduler(live_db.path, folder, every_s=6 * 3600, keep=3, clock=clock)
    first = sched.tick()  # (no backup yet: one at once)
    assert first is not None and first.events == 2
    assert sched.tick() is None
    clock.advance(6 * 3600 - 1)
    assert sched.tick() is None
    for _ in range(4):
        clock.advance(6 * 3600)
        assert sched.tick() is not None
    assert len(backup.list_backups(folder)) == 3 and sched.error is None


def test_a_restarted_service_waits_for_the_newest_backups_age(live_db, tmp_path):
    folder = tmp_path / "b"
    backup.make_backup(live_db.path, folder, T0)
    clock = FakeClock(wall=T0 + 4 * 3600)  # (restarted 4 h after the last backup)
    sched = backup.BackupScheduler(live_db.path, folder, every_s=6 * 3600, keep=7, clock=clock)
    assert sched.tick() is None
    clock.advance(2 * 3600)
    assert sched.tick() is not None
    # a wall clock set back (a Pi without its NTP time) waits one interval, no more
    late = backup.BackupScheduler(live_db.path, folder, 6 * 3600, 7, FakeClock(wall=T0 - 10**6))
    assert late.next_ns - late.clock.monotonic_ns() == 6 * 3600 * 10**9


def test_a_failed_scheduled_backup_is_logged_and_the_next_one_tried(tmp_path, caplog):
    clock = FakeClock(wall=T0)
    sched = backup.BackupScheduler(tmp_path / "none.sqlite3", tmp_path / "b", 3600, 7, clock)
    assert sched.tick() is None and "no database at" in sched.error
    assert "scheduled backup failed" in caplog.text


def test_the_config_keys_and_their_checks(tmp_path):
    cfg = Config()
    assert (cfg.backup_every_hours, cfg.backup_keep, cfg.backup_dir) == (6, 7, "")
    path = tmp_path / "c.toml"
    path.write_text('[backup]\nbackup_every_hours = 0\nbackup_keep = 3\nbackup_dir = "/srv/b"\n')
    cfg = load_config(path=path, env={})
    assert (cfg.backup_every_hours, cfg.backup_keep) == (0, 3)
    assert backup.backup_dir(cfg) == Path("/srv/b")
    assert backup.start_backups(cfg)() is None  # (0: no schedule, nothing started)
    with pytest.raises(ConfigError, match=r"backup_keep = 0 \(expected an integer of 1 or more"):
        load_config(env={"COMPANION_CONFIG": str(path), "COMPANION_BACKUP_KEEP": "0"})
    with pytest.raises(ConfigError, match="backup_every_hours = -1"):
        load_config(env={"COMPANION_CONFIG": str(path), "COMPANION_BACKUP_EVERY_HOURS": "-1"})
    assert backup.backup_dir(Config(data_dir="/d")) == Path("/d/backups")


def _cli(*args: str, data: Path) -> subprocess.CompletedProcess[str]:
    env = {"COMPANION_DATA_DIR": str(data), "COMPANION_CONFIG": str(data / "none.toml"),
           "PATH": "/usr/bin:/bin"}
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], capture_output=True,
                          text=True, env=env, timeout=60, check=False)


def test_the_commands_backup_list_and_restore(live_db, tmp_path):
    data = live_db.path.parent
    made = _cli("backup", data=data)
    assert made.returncode == 0, made.stderr
    assert "(1 tables, 2 events" in made.stdout and "checked" in made.stdout
    name = next((data / "backups").glob("companion-*.sqlite3")).name
    listed = _cli("backups", data=data)
    assert listed.returncode == 0 and name in listed.stdout
    assert "1 tables, 2 events" in listed.stdout
    with backup.serving(live_db.path):
        refused = _cli("restore", name, data=data)
    assert refused.returncode == 2
    assert refused.stderr.startswith("error: the companion is running on")
    live_db.store.close()
    done = _cli("restore", name, data=data)
    assert done.returncode == 0, done.stderr
    assert "restored" in done.stdout and "-before-restore.sqlite3" in done.stdout
    (data / "backups" / "companion-20000101-000000Z.sqlite3").write_text("torn")
    damaged = _cli("backups", data=data)
    assert damaged.returncode == 1 and "DAMAGED" in damaged.stdout


def test_doctor_says_whether_the_games_are_backed_up(live_db, tmp_path):
    from companion import doctor

    cfg = Config(data_dir=str(live_db.path.parent))
    none = doctor._check_backups(cfg)
    assert none["will_use"] == "every 6 h, the newest 7 kept; none yet"
    assert none["fallback"] is True  # (a table with actions and no backup)
    assert doctor._check_backups(Config(data_dir=str(tmp_path / "new")))["fallback"] is False
    made = backup.make_backup(live_db.path, backup.backup_dir(cfg), T0)
    fresh = doctor._check_backups(cfg, now=T0 + 2 * 3600)
    assert fresh["will_use"] == ("every 6 h, the newest 7 kept; 1, the newest 2 h old "
                                 "(1 tables, 2 events)")
    assert fresh["fallback"] is False and fresh["newest"] == made.path.name
    stale = doctor._check_backups(cfg, now=T0 + 13 * 3600)
    assert stale["fallback"] is True and "is the service running?" in stale["why"]
    made.path.write_bytes(b"\0" * 4096)
    damaged = doctor._check_backups(cfg, now=T0 + 3600)
    assert "the newest is DAMAGED" in damaged["will_use"] and damaged["fallback"] is True
    off = doctor._check_backups(Config(data_dir=str(tmp_path / "new"), backup_every_hours=0))
    assert off["will_use"].startswith("no scheduled backups (backup_every_hours = 0)")


def test_the_schedule_thread_backs_up_at_once_and_stops(live_db, tmp_path):
    cfg = Config(data_dir=str(live_db.path.parent), database=str(live_db.path))
    sched = backup.BackupScheduler(live_db.path, tmp_path / "b", 3600, 7, FakeClock(),
                                   poll_s=3600)
    sched.start()
    sched.stop()  # (joins the thread: its first tick has run)
    assert sched.last is not None and sched.last.events == 2
    assert backup.backup_dir(cfg) == live_db.path.parent / "backups"
