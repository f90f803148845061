"""Shared fixtures: a fake clock, a real SQLite store in a temp dir, the table service, and
the Flask ``app``/``client`` (as in Flask's tutorial)."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")

from companion.clock import FakeClock  # noqa: E402
from companion.store import Store  # noqa: E402
from companion.table import TableService  # noqa: E402


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "companion.sqlite3"


@pytest.fixture
def store(db_path):
    s = Store(db_path)
    yield s
    s.close()


@pytest.fixture
def service(store, clock) -> TableService:
    return TableService(store, clock)
