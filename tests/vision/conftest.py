"""Fixtures for the vision tests: drawn scenes, and the shared photos beside the clone."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHARED_DATA = ROOT.parent / "shared" / "data"
SHARED_TRAIN = ROOT.parent / "shared" / "train"


@pytest.fixture
def shared_data() -> Path:
    """../shared/data beside the clone: skipped when absent, except on CI where it must be."""
    return _beside_the_clone(SHARED_DATA)


def _beside_the_clone(path: Path) -> Path:
    if not path.is_dir():
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true but {path} is missing")
        pytest.skip(f"{path} not present")
    return path


@pytest.fixture
def shared_train() -> Path:
    """../shared/train beside the clone (licensed photos, CC BY 4.0): as ``shared_data``."""
    return _beside_the_clone(SHARED_TRAIN)
