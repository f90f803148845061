"""A database that cannot be created or opened is said in one line, with its path and why
(a data dir under /proc, a --db naming a folder or a text file gave a traceback), and
``database_problem`` (companion doctor) says the same without creating anything."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.store import DatabaseError, Store, database_problem


def _bad_paths(tmp_path: Path) -> list[tuple[Path, str]]:
    text = tmp_path / "notes.txt"
    text.write_text("not a database, " * 100)
    return [
        (tmp_path, "it is a folder, not a file"),
        (text, "file is not a database"),
        (text / "data" / "companion.sqlite3", f"{text} is a file, not a folder"),
    ]


def test_a_database_that_cannot_be_opened_says_where_and_why(tmp_path):
    for path, why in _bad_paths(tmp_path):
        with pytest.raises(DatabaseError) as err:
            Store(path)
        assert str(err.value) == f"cannot open the database at {path}: {why}"


def test_the_doctors_check_says_the_same_and_creates_nothing(tmp_path):
    for path, why in _bad_paths(tmp_path):
        assert database_problem(path) == why
    before = sorted(tmp_path.rglob("*"))
    new = tmp_path / "a" / "b" / "companion.sqlite3"
    assert database_problem(new) is None
    assert sorted(tmp_path.rglob("*")) == before
    Store(new).close()
    assert database_problem(new) is None


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
def test_a_data_dir_under_proc_is_refused(tmp_path):
    path = Path("/proc/companion/companion.sqlite3")
    with pytest.raises(DatabaseError, match="cannot create the folder /proc/companion"):
        Store(path)
    assert database_problem(path).startswith("cannot create anything in /proc")
