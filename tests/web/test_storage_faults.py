"""The storage failing under the companion (web/errors.py): a full SD card, a file system
remounted read-only. Nothing is committed, so nothing is lost; the phone is told what is
wrong in its language (a generic 500 said nothing), and the log gets one line a minute, not
a traceback per request. Real SQLite: a page limit fills the file, ``query_only`` makes it
refuse writes."""

from __future__ import annotations

import logging

import pytest

PIN = {"X-Host-Pin": "2468"}
ROUND = {"action": {"type": "add_round", "scores": [1, 2, 3]}}


def _fill(store) -> None:
    """The database file can grow no more, and its pages are full: the next row written
    finds the disk full (SQLite's own SQLITE_FULL)."""
    import sqlite3

    db = store._db
    db.execute("PRAGMA foreign_keys = OFF")  # (rows of no table, to fill the log's pages)
    db.execute(f"PRAGMA max_page_count = {db.execute('PRAGMA page_count').fetchone()[0] + 8}")
    seq = 0
    for size in (2000, 200, 20, 1):
        try:
            while True:
                seq += 1
                db.execute("INSERT INTO events VALUES ('~filler', ?, 'action', ?, '{}', 0)",
                           (seq, "x" * size))
        except sqlite3.OperationalError as exc:
            assert "full" in str(exc)
    db.execute("PRAGMA foreign_keys = ON")


def _mend(store) -> None:
    store._db.execute("DELETE FROM events WHERE table_id = '~filler'")
    store._db.execute("PRAGMA max_page_count = 1073741823")


@pytest.mark.parametrize(("fault", "code"), [("full", "storage_full"),
                                             ("read_only", "storage_read_only")])
def test_a_storage_fault_is_told_clearly_and_logged_once(app, client, scorepad, store,
                                                         caplog, fault, code):
    tid = scorepad["id"]
    if fault == "full":
        _fill(store)
    else:
        store._db.execute("PRAGMA query_only = ON")
    caplog.set_level(logging.INFO)
    now = [100.0]
    app.config["STORAGE_LOG_CLOCK"] = lambda: now[0]
    answers = [client.post(f"/api/tables/{tid}/actions", json=ROUND, headers=PIN)
               for _ in range(5)]
    if fault == "read_only":  # (a full file may still hold a small row in a page's room)
        answers.append(client.post("/api/tables", json={
            "game": "scorepad", "players": ["Ana"], "pin": "2468"}))
    for res in answers:
        assert res.status_code == 503 and res.json["error"]["code"] == code
        assert "nothing was saved" in res.json["error"]["message"]
        assert res.headers["Retry-After"]
    lines = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(lines) == 1 and lines[0].exc_info is None and code in lines[0].getMessage()
    now[0] += 61  # (still failing a minute later: one more line)
    client.post(f"/api/tables/{tid}/actions", json=ROUND, headers=PIN)
    assert len([r for r in caplog.records if r.levelno >= logging.WARNING]) == 2
    # nothing half-done: the table is as it was, and takes the round once mended
    assert client.get(f"/api/tables/{tid}").json["version"] == 0
    if fault == "full":
        _mend(store)
    else:
        store._db.execute("PRAGMA query_only = OFF")
    res = client.post(f"/api/tables/{tid}/actions", json=ROUND, headers=PIN)
    assert res.status_code == 200 and res.json["version"] == 1


def test_a_storage_fault_on_a_page_is_a_page_in_the_phone_s_language(app, client, scorepad,
                                                                    store):
    from flask_babel import gettext

    from web.errors import STORAGE

    store._db.execute("PRAGMA query_only = ON")
    res = client.post("/api/tables", json={"game": "scorepad", "players": ["Ana"],
                                           "pin": "2468"}, headers={"Accept-Language": "zh"})
    import sqlite3

    with app.test_request_context(headers={"Accept-Language": "zh"}):
        assert res.json["error"]["message"] == gettext(STORAGE[sqlite3.SQLITE_READONLY][1])
