"""Backups of the event log: ``companion backup``, ``companion backups``, ``companion restore``
and the schedule that ``companion serve`` keeps.

A Pi's SD card fails, and with it every table's log. A backup is taken with SQLite's online
backup API (``sqlite3.Connection.backup``), never a file copy: the live database is in WAL
mode, so its file alone can miss committed actions (they wait in the ``-wal`` file) and a copy
made while a write lands is torn. The API copies a consistent snapshot while the service
keeps writing. Each backup is written beside its final name, checked by opening it
(``PRAGMA integrity_check`` and the tables and events counted) and only then given its
name, so a file named ``companion-*.sqlite3`` in the backups folder is one that opened.

Restoring replaces the whole database, so it refuses while ``companion serve`` runs on it
(serve holds a lock beside the database; the tables it has in memory would go on from the
old log): stop the service, restore, start it. The database being replaced is itself backed
up first (``...-before-restore``), so a restore can be undone.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import logging
import os
import re
import sqlite3
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.clock import Clock, SystemClock

log = logging.getLogger(__name__)

PREFIX = "companion-"
SUFFIX = ".sqlite3"
_NAME = re.compile(r"^companion-(\d{8}-\d{6})Z(?:-(\d+))?(-before-restore)?\.sqlite3$")
_STAMP = "%Y%m%d-%H%M%S"


class BackupError(Exception):
    """A backup or a restore that could not be done, in one line (``companion`` prints it as
    ``error: ...`` and exits 2)."""


@dataclass(frozen=True)
class BackupInfo:
    """One backup file and what opening it found."""

    path: Path
    taken: float | None  # wall seconds, from the name (UTC)
    size: int
    tables: int | None = None
    events: int | None = None
    problem: str | None = None  # None: it opened, passed the check and was read

    @property
    def ok(self) -> bool:
        return self.problem is None

    def to_json(self) -> dict[str, Any]:
        return {"path": str(self.path), "taken": self.taken, "size": self.size,
                "tables": self.tables, "events": self.events, "ok": self.ok,
                "problem": self.problem}


def backup_dir(cfg: Any) -> Path:
    """Where the backups go: ``backup_dir``, else ``<data_dir>/backups``."""
    return Path(cfg.backup_dir) if cfg.backup_dir else cfg.data_path / "backups"


def taken_at(path: Path) -> float | None:
    """The UTC time in a backup's name (wall seconds), or None for a name not ours."""
    m = _NAME.match(path.name)
    if not m:
        return None
    return datetime.strptime(m.group(1), _STAMP).replace(tzinfo=UTC).timestamp()


def list_paths(folder: str | Path) -> list[Path]:
    """The backup files in ``folder``, oldest first (none opened)."""
    return _backups(Path(folder))


def _backups(folder: Path) -> list[Path]:
    """The backup files in ``folder``, oldest first (their names sort by time)."""
    if not folder.is_dir():
        return []
    found = [(m, p) for p in folder.glob(f"{PREFIX}*{SUFFIX}") if (m := _NAME.match(p.name))]
    return [p for m, p in sorted(found, key=lambda mp: (mp[0].group(1), int(mp[0].group(2) or 1),
                                                         mp[1].name))]


def check_backup(path: str | Path, thorough: bool = True) -> BackupInfo:
    """Open a backup read-only and check it: ``integrity_check`` (``quick_check`` when not
    ``thorough``: listing many backups on a Pi), then count its tables and events, which
    reads the log's pages. A file that is not a database, is damaged or lacks the log's
    tables says so in ``problem``."""
    path = Path(path)
    size = path.stat().st_size if path.exists() else 0
    info = {"path": path, "taken": taken_at(path), "size": size}
    if not path.is_file():
        return BackupInfo(**info, problem="no such file")
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        return BackupInfo(**info, problem=str(exc))
    try:
        pragma = "integrity_check" if thorough else "quick_check"
        verdict = [row[0] for row in db.execute(f"PRAGMA {pragma}")]
        if verdict != ["ok"]:
            return BackupInfo(**info, problem=f"{pragma}: {'; '.join(map(str, verdict[:3]))}")
        tables = db.execute("SELECT count(*) FROM tables").fetchone()[0]
        events = db.execute("SELECT count(*) FROM events").fetchone()[0]
    except sqlite3.Error as exc:
        return BackupInfo(**info, problem=str(exc))
    finally:
        db.close()
    return BackupInfo(**info, tables=tables, events=events)


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _new_name(folder: Path, now: float, label: str) -> Path:
    stamp = datetime.fromtimestamp(now, UTC).strftime(_STAMP)
    for n in range(1, 1000):
        count = "" if n == 1 else f"-{n}"
        path = folder / f"{PREFIX}{stamp}Z{count}{label}{SUFFIX}"
        if not path.exists():
            return path
    raise BackupError(f"too many backups named {stamp} in {folder}")


def make_backup(db_path: str | Path, folder: str | Path, now: float,
                label: str = "") -> BackupInfo:
    """Back the database up into ``folder`` as ``companion-<UTC time>Z.sqlite3`` and check
    the copy by opening it. The copy is a plain (rollback-journal) database: one file that
    opens anywhere, read-only too."""
    db_path, folder = Path(db_path), Path(folder)
    if not db_path.is_file():
        raise BackupError(f"no database at {db_path}")
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o750)
    except OSError as exc:
        raise BackupError(f"cannot create the backups folder {folder}: "
                          f"{exc.strerror or exc}") from None
    final = _new_name(folder, now, label)
    part = final.with_name(final.name + ".part")
    try:
        src = sqlite3.connect(str(db_path))
        try:
            dst = sqlite3.connect(str(part))
            try:
                src.backup(dst)  # (all pages in one step: one consistent snapshot)
                dst.execute("PRAGMA journal_mode=DELETE")
            finally:
                dst.close()
        finally:
            src.close()
        with open(part, "rb+") as fh:
            os.fsync(fh.fileno())
    except (OSError, sqlite3.Error) as exc:
        part.unlink(missing_ok=True)
        raise BackupError(f"backup of {db_path} into {folder} failed: {exc}") from None
    info = check_backup(part)
    if not info.ok:
        part.unlink(missing_ok=True)
        raise BackupError(f"the backup of {db_path} failed its check: {info.problem}")
    os.replace(part, final)
    _fsync_dir(folder)
    return BackupInfo(final, taken_at(final), info.size, info.tables, info.events)


def prune(folder: str | Path, keep: int) -> list[Path]:
    """Delete all but the newest ``keep`` backups (at least one is always kept); the
    deleted paths."""
    files = _backups(Path(folder))
    gone = files[:max(0, len(files) - max(1, keep))]
    for path in gone:
        path.unlink(missing_ok=True)
    return gone


def list_backups(folder: str | Path, thorough: bool = False) -> list[BackupInfo]:
    """Every backup in ``folder``, newest first, each checked by opening it."""
    return [check_backup(p, thorough) for p in reversed(_backups(Path(folder)))]


# -- is the service running on this database? ---------------------------------------------

def lock_path(db_path: str | Path) -> Path:
    return Path(f"{db_path}.lock")


@contextlib.contextmanager
def serving(db_path: str | Path) -> Iterator[bool]:
    """Held by ``companion serve`` while it runs on ``db_path`` (an flock on
    ``<database>.lock``, released by the kernel even if it is killed), so that a restore can
    tell. Yields False when another process holds it already (a second serve: logged)."""
    path = lock_path(db_path)
    try:
        fh = open(path, "a+")  # noqa: SIM115 (held for the whole run)
    except OSError as exc:
        log.warning("cannot create %s (%s): a restore cannot tell that this runs", path, exc)
        yield False
        return
    try:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
            held = True
        except OSError:
            log.warning("another companion serve holds %s: two services on one database", path)
            held = False
        yield held
    finally:
        fh.close()


def service_running(db_path: str | Path) -> bool:
    """Whether a ``companion serve`` holds the database's lock."""
    path = lock_path(db_path)
    if not path.exists():
        return False
    try:
        with open(path) as fh:
            try:
                fcntl.flock(fh, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except OSError:
                return True
    except OSError:
        return False
    return False


def restore(backup: str | Path, db_path: str | Path, folder: str | Path,
            now: float) -> BackupInfo | None:
    """Put a backup in place of the database; the backup of the database it replaced
    (None when there was none). Refused when the backup fails its check or while the
    service runs on the database. Written through the backup API into the database file
    itself, so the file keeps its owner and mode (the service's user)."""
    backup, db_path = Path(backup), Path(db_path)
    info = check_backup(backup)
    if not info.ok:
        raise BackupError(f"{backup} is not a usable backup: {info.problem}")
    if service_running(db_path):
        raise BackupError(
            f"the companion is running on {db_path}: stop it first (sudo systemctl stop "
            "companion, or Ctrl-C), restore, then start it again")
    before = make_backup(db_path, folder, now, "-before-restore") if db_path.exists() else None
    try:
        db_path.parent.mkdir(parents=True, exist_ok=True)
        src = sqlite3.connect(f"{backup.resolve().as_uri()}?mode=ro", uri=True)
        try:
            dst = sqlite3.connect(str(db_path))
            try:
                src.backup(dst)
                dst.execute("PRAGMA journal_mode=WAL")  # (as the Store opens it)
            finally:
                dst.close()
        finally:
            src.close()
    except (OSError, sqlite3.Error) as exc:
        raise BackupError(f"restore of {backup} into {db_path} failed: {exc}") from None
    return before


# -- the schedule -----------------------------------------------------------------------------

class BackupScheduler:
    """Backs the database up every ``every_s`` seconds and keeps the newest ``keep``.

    Timed on the monotonic clock: a Pi has no real-time clock, and its wall time jumps when
    NTP sets it after boot. At start the newest backup's age sets the first one (a service
    restarted often still backs up on time; none yet: one at once). :meth:`tick`
    does the work; :meth:`start` runs it in a thread every ``poll_s`` (tests tick by hand
    with a FakeClock). A failure is logged and never stops the service."""

    def __init__(self, db_path: str | Path, folder: str | Path, every_s: float, keep: int,
                 clock: Clock | None = None, poll_s: float = 60.0) -> None:
        self.db_path, self.folder = Path(db_path), Path(folder)
        self.every_ns = int(every_s * 1e9)
        self.keep = keep
        self.clock = clock or SystemClock()
        self.poll_s = poll_s
        self.last: BackupInfo | None = None
        self.error: str | None = None
        files = _backups(self.folder)
        age = self.clock.wall() - taken_at(files[-1]) if files else None
        wait_ns = 0 if age is None else min(max(self.every_ns - int(age * 1e9), 0),
                                             self.every_ns)
        self.next_ns = self.clock.monotonic_ns() + wait_ns
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def tick(self) -> BackupInfo | None:
        """Back up if one is due; the new backup, or None."""
        now_ns = self.clock.monotonic_ns()
        if now_ns < self.next_ns:
            return None
        self.next_ns = now_ns + self.every_ns
        try:
            info = make_backup(self.db_path, self.folder, self.clock.wall())
            gone = prune(self.folder, self.keep)
        except BackupError as exc:
            self.error = str(exc)
            log.error("scheduled backup failed: %s", exc)
            return None
        self.last, self.error = info, None
        log.info("backup %s (%d tables, %d events)%s", info.path, info.tables, info.events,
                 f"; {len(gone)} old one(s) removed" if gone else "")
        return info

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="backups", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while True:
            self.tick()  # (at once first: a service that restarts often still backs up)
            if self._stop.wait(self.poll_s):
                return

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)


def start_backups(cfg: Any, clock: Clock | None = None):
    """The schedule of ``companion serve`` (``backup_every_hours``, 0: none); its stop."""
    if not cfg.backup_every_hours or str(cfg.database) == ":memory:":
        return lambda: None
    scheduler = BackupScheduler(cfg.database_path, backup_dir(cfg),
                                cfg.backup_every_hours * 3600, cfg.backup_keep, clock)
    scheduler.start()
    return scheduler.stop


# -- the commands ---------------------------------------------------------------------------

def _size(n: int) -> str:
    return f"{n / 1e6:.1f} MB" if n >= 1e5 else f"{n / 1e3:.0f} kB"


def _when(t: float | None) -> str:
    return "?" if t is None else datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M UTC")


def _load(args: argparse.Namespace):
    from companion.config import load_config

    return load_config(path=Path(args.config) if args.config else None)


def _cmd_backup(args: argparse.Namespace) -> int:
    cfg = _load(args)
    folder = Path(args.to) if args.to else backup_dir(cfg)
    info = make_backup(cfg.database_path, folder, SystemClock().wall())
    gone = [] if args.to else prune(folder, cfg.backup_keep)
    print(f"backup: {info.path} ({info.tables} tables, {info.events} events, "
          f"{_size(info.size)}; checked)")
    for path in gone:
        print(f"removed the old backup {path} (backup_keep = {cfg.backup_keep})")
    return 0


def _cmd_backups(args: argparse.Namespace) -> int:
    cfg = _load(args)
    folder = backup_dir(cfg)
    infos = list_backups(folder, thorough=args.check)
    if not infos:
        print(f"no backups in {folder}")
        return 0
    print(f"backups in {folder} (newest first; restore one with: companion restore FILE):")
    for info in infos:
        what = (f"{info.tables} tables, {info.events} events" if info.ok
                else f"DAMAGED: {info.problem}")
        print(f"  {info.path.name}  {_when(info.taken)}  {_size(info.size):>8}  {what}")
    return 1 if any(not i.ok for i in infos) else 0


def _cmd_restore(args: argparse.Namespace) -> int:
    cfg = _load(args)
    folder = backup_dir(cfg)
    backup = Path(args.file)
    if not backup.exists() and (folder / args.file).exists():
        backup = folder / args.file  # (a name as `companion backups` lists it)
    before = restore(backup, cfg.database_path, folder, SystemClock().wall())
    info = check_backup(cfg.database_path)
    print(f"restored {backup} into {cfg.database_path} ({info.tables} tables, "
          f"{info.events} events)")
    if before is not None:
        print(f"the database it replaced is kept as {before.path} (restore it to undo)")
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("backup", help="back the games up now (SQLite's online backup, checked)")
    p.add_argument("--config", help="config file")
    p.add_argument("--to", help="folder to write it to (default: backup_dir); not pruned")
    p.set_defaults(func=_cmd_backup)
    p = sub.add_parser("backups", help="list the backups, each checked by opening it")
    p.add_argument("--config", help="config file")
    p.add_argument("--check", action="store_true",
                   help="a full integrity_check of each (default: quick_check)")
    p.set_defaults(func=_cmd_backups)
    p = sub.add_parser("restore", help="put a backup in place of the database (service stopped)")
    p.add_argument("file", help="the backup file (or its name in the backups folder)")
    p.add_argument("--config", help="config file")
    p.set_defaults(func=_cmd_restore)
