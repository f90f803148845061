"""Fixtures for the vision tests: drawn scenes (never the unlicensed shared photos)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHARED_DATA = ROOT.parent / "shared" / "data"


@pytest.fixture
def shared_data() -> Path:
    """../shared/data beside the clone: skipped when absent, except on CI where it must be."""
    if not SHARED_DATA.is_dir():
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true but {SHARED_DATA} is missing")
        pytest.skip("../shared/data not present")
    return SHARED_DATA
