"""The SQLite event log: every table's definition and its append-only list of actions.

State is never stored, only derived: a table's state is the replay of its log from its
options and random seed. An action is acknowledged only after its row is committed, and the
database runs in WAL mode with ``synchronous=FULL`` so that a committed action survives a
power cut. Undo appends an ``undo`` row that names the action it takes back, so the history
keeps everything that happened.
"""

from __future__ import annotations

import json
import os
import sqlite3
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id        TEXT PRIMARY KEY,
    code      TEXT NOT NULL UNIQUE,
    game      TEXT NOT NULL,
    title     TEXT NOT NULL,
    players   TEXT NOT NULL,
    options   TEXT NOT NULL,
    seed      INTEGER NOT NULL,
    pin_hash  TEXT NOT NULL,
    created   REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    table_id  TEXT NOT NULL REFERENCES tables(id),
    seq       INTEGER NOT NULL,
    kind      TEXT NOT NULL CHECK (kind IN ('action', 'undo')),
    body      TEXT NOT NULL,
    actor     TEXT NOT NULL,
    t         REAL NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE TABLE IF NOT EXISTS archived (
    table_id  TEXT PRIMARY KEY REFERENCES tables(id)
);
CREATE TABLE IF NOT EXISTS seats (
    table_id   TEXT NOT NULL REFERENCES tables(id),
    seat       INTEGER NOT NULL,
    token_hash TEXT NOT NULL,
    joined     REAL NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS players (
    key       TEXT PRIMARY KEY,
    name      TEXT NOT NULL,
    colour    TEXT
);
"""


@dataclass(frozen=True)
class TableRecord:
    id: str
    code: str
    game: str
    title: str
    players: list[str]
    options: dict[str, Any]
    seed: int
    pin_hash: str
    created: float


@dataclass(frozen=True)
class LogEntry:
    seq: int
    kind: str  # "action" or "undo"
    body: dict[str, Any]  # the action, or {"undo": seq} for an undo
    actor: dict[str, Any]
    t: float

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "kind": self.kind,
            "body": self.body,
            "actor": self.actor,
            "t": self.t,
        }


class DatabaseError(Exception):
    """The database cannot be created or opened, said in one line with its path and why
    (``companion`` prints it as ``error: ...`` and exits 2: a data dir under /proc, a
    ``--db`` naming a folder or a text file ended in a traceback)."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"cannot open the database at {path}: {reason}")
        self.path, self.reason = path, reason


def _nearest(path: Path) -> Path:
    """The nearest folder above ``path`` that exists (or a file, where one blocks it)."""
    parent = path.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    return parent


def _why(path: Path, exc: Exception) -> str:
    """``exc``, raised creating or opening the database at ``path``, in words to act on."""
    if path.is_dir():
        return "it is a folder, not a file"
    if not _nearest(path).is_dir():
        return f"{_nearest(path)} is a file, not a folder"
    if isinstance(exc, OSError) and exc.filename and Path(exc.filename) != path:
        return f"cannot create the folder {exc.filename} ({exc.strerror})"
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    return str(exc)  # (sqlite's: "file is not a database", "attempt to write a readonly...")


def database_problem(path: str | Path) -> str | None:
    """Why :class:`Store` could not open ``path``, or None. Creates nothing (``companion
    doctor`` asks before the first start, perhaps as another user): an existing file is
    opened read-only and its header read; for a new one, a scratch file is made and removed
    in the folder where ``Store`` would start creating."""
    path = Path(path)
    nearest = _nearest(path)
    if path.is_dir() or not nearest.is_dir():
        return _why(path, IsADirectoryError())
    try:
        if path.exists():
            db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
            try:
                db.execute("PRAGMA schema_version")  # (reads the header: a text file fails)
            finally:
                db.close()
            if not os.access(path, os.R_OK | os.W_OK):
                return "permission denied (it must be readable and writable)"
            return None
        with tempfile.NamedTemporaryFile(dir=nearest):
            return None
    except sqlite3.Error as exc:
        return str(exc)
    except OSError as exc:
        return f"cannot create anything in {nearest} ({exc.strerror or exc})"


class Store:
    """One SQLite file shared by every table. Safe to use from many threads."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        db = None
        try:
            if str(path) != ":memory:":
                self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            db.executescript(SCHEMA)
        except (OSError, sqlite3.Error) as exc:
            if db is not None:
                db.close()
            raise DatabaseError(self.path, _why(self.path, exc)) from exc
        self._db = db

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -- tables ------------------------------------------------------------------------
    def create_table(self, rec: TableRecord) -> None:
        with self._lock:
            self._db.execute(
                "INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    rec.id,
                    rec.code,
                    rec.game,
                    rec.title,
                    json.dumps(rec.players),
                    json.dumps(rec.options),
                    rec.seed,
                    rec.pin_hash,
                    rec.created,
                ),
            )

    def code_in_use(self, code: str) -> bool:
        with self._lock:
            return (
                self._db.execute("SELECT 1 FROM tables WHERE code = ?", (code,)).fetchone()
                is not None
            )

    def _record(self, row: tuple) -> TableRecord:
        return TableRecord(
            row[0],
            row[1],
            row[2],
            row[3],
            json.loads(row[4]),
            json.loads(row[5]),
            row[6],
            row[7],
            row[8],
        )

    def get_table(self, table_id: str) -> TableRecord | None:
        with self._lock:
            row = self._db.execute("SELECT * FROM tables WHERE id = ?", (table_id,)).fetchone()
        return self._record(row) if row else None

    def find_code(self, code: str) -> TableRecord | None:
        with self._lock:
            row = self._db.execute("SELECT * FROM tables WHERE code = ?", (code,)).fetchone()
        return self._record(row) if row else None

    def list_tables(self) -> list[TableRecord]:
        with self._lock:
            rows = self._db.execute("SELECT * FROM tables ORDER BY created DESC").fetchall()
        return [self._record(r) for r in rows]

    # -- tidying: a title, archived, deleted --------------------------------------------
    def set_title(self, table_id: str, title: str) -> None:
        with self._lock:
            self._db.execute("UPDATE tables SET title = ? WHERE id = ?", (title, table_id))

    def set_archived(self, table_id: str, archived: bool) -> None:
        with self._lock:
            if archived:
                self._db.execute("INSERT OR IGNORE INTO archived VALUES (?)", (table_id,))
            else:
                self._db.execute("DELETE FROM archived WHERE table_id = ?", (table_id,))

    def archived(self) -> set[str]:
        with self._lock:
            return {r[0] for r in self._db.execute("SELECT table_id FROM archived")}

    def last_activity(self) -> dict[str, float]:
        """Each table's latest log entry's time (a table never played: absent)."""
        with self._lock:
            rows = self._db.execute("SELECT table_id, MAX(t) FROM events GROUP BY table_id")
            return {r[0]: r[1] for r in rows}

    def delete_table(self, table_id: str) -> None:
        """The table, its log, its seats: gone, in one transaction."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for sql in ("DELETE FROM events WHERE table_id = ?",
                            "DELETE FROM seats WHERE table_id = ?",
                            "DELETE FROM archived WHERE table_id = ?",
                            "DELETE FROM tables WHERE id = ?"):
                    self._db.execute(sql, (table_id,))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    # -- the log -----------------------------------------------------------------------
    def append(
        self,
        table_id: str,
        seq: int,
        kind: str,
        body: dict[str, Any],
        actor: dict[str, Any],
        t: float,
    ) -> None:
        """Commit one log entry. Raises sqlite3.IntegrityError if ``seq`` is taken, which
        the table's lock makes impossible unless two processes share one file."""
        with self._lock:
            self._db.execute(
                "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)",
                (
                    table_id,
                    seq,
                    kind,
                    json.dumps(body, separators=(",", ":")),
                    json.dumps(actor, separators=(",", ":")),
                    t,
                ),
            )

    def log(self, table_id: str) -> list[LogEntry]:
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, kind, body, actor, t FROM events WHERE table_id = ? ORDER BY seq",
                (table_id,),
            ).fetchall()
        return [LogEntry(r[0], r[1], json.loads(r[2]), json.loads(r[3]), r[4]) for r in rows]

    # -- seats -------------------------------------------------------------------------
    def set_seat(self, table_id: str, seat: int, token_hash: str, joined: float) -> None:
        with self._lock:
            self._db.execute(
                "INSERT INTO seats VALUES (?, ?, ?, ?) ON CONFLICT (table_id, seat) DO UPDATE "
                "SET token_hash = excluded.token_hash, joined = excluded.joined",
                (table_id, seat, token_hash, joined),
            )

    def seats(self, table_id: str) -> dict[int, str]:
        with self._lock:
            rows = self._db.execute(
                "SELECT seat, token_hash FROM seats WHERE table_id = ?", (table_id,)
            ).fetchall()
        return {seat: token_hash for seat, token_hash in rows}

    # -- players who last: a name's colour, and the names an import brought -------------
    def players(self) -> dict[str, tuple[str, str | None]]:
        """Every player kept here by key (the name folded): its name and colour. Results
        are never kept here: they are read from the tables' logs."""
        with self._lock:
            rows = self._db.execute("SELECT key, name, colour FROM players").fetchall()
        return {k: (n, c) for k, n, c in rows}

    def set_player(self, key: str, name: str, colour: str | None) -> None:
        with self._lock:
            self._db.execute(
                "INSERT INTO players VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE "
                "SET colour = excluded.colour", (key, name, colour))

    def merge_players(self, rows: list[tuple[str, str, str | None]]) -> int:
        """Names and colours from another companion's file, in one transaction: a name
        already here keeps its colour (an import never recolours this table's players);
        the count of rows that changed anything."""
        changed = 0
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for key, name, colour in rows:
                    changed += self._db.execute(
                        "INSERT INTO players VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE "
                        "SET colour = excluded.colour WHERE players.colour IS NULL "
                        "AND excluded.colour IS NOT NULL", (key, name, colour)).rowcount
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return changed
