"""The locked dependencies (requirements/, made by tools/deps): every install path takes them,
each pins every package to one version with its hashes, and they agree with each other and
with pyproject.toml. (`tools/deps check`, run by .ci/run, re-resolves them; these tests need
no network.)"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
REQ = REPO / "requirements"
LOCKS = ("run.txt", "test.txt", "pi-run.txt", "pi-test.txt", "pip.txt")
ENTRY = re.compile(
    r"^([A-Za-z0-9_.\-]+)==(\S+) \\\n((?:    --hash=sha256:[0-9a-f]{64}(?: \\)?\n)+)", re.M)


def entries(name: str) -> dict[str, str]:
    text = (REQ / name).read_text()
    found = {m.group(1).lower().replace("_", "-"): m.group(2) for m in ENTRY.finditer(text)}
    # every requirement line is a pinned, hashed entry (nothing unpinned slips in)
    reqs = [ln for ln in text.splitlines() if ln and not ln.startswith((" ", "#"))]
    assert len(reqs) == len(found), f"{name}: an entry without == or hashes"
    return found


def name_of(req: str) -> str:
    return re.split(r"[<>=!~ \[;]", req, maxsplit=1)[0].lower().replace("_", "-")


@pytest.mark.parametrize("name", LOCKS)
def test_each_lock_pins_every_package_with_hashes(name):
    assert entries(name)


def test_the_run_locks_are_the_test_locks_runtime_at_the_same_versions():
    for run, test in (("run.txt", "test.txt"), ("pi-run.txt", "pi-test.txt")):
        r, t = entries(run), entries(test)
        assert set(r) < set(t)
        assert {k: t[k] for k in r} == r


def test_every_dependency_of_pyproject_is_locked():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    runtime = {name_of(d) for d in project["dependencies"]}
    tests = {name_of(d) for d in project["optional-dependencies"]["test"]}
    for lock in ("run.txt", "pi-run.txt"):
        assert runtime <= set(entries(lock)), lock
    for lock in ("test.txt", "pi-test.txt"):
        assert runtime | tests | {"rlcard", "douzero", "setuptools"} <= set(entries(lock)), lock


def test_the_pi_line_is_raspberry_pi_os_bookworms_numpy_and_opencv_4():
    for lock in ("pi-run.txt", "pi-test.txt"):
        pins = entries(lock)
        assert pins["numpy"] == "1.24.2"
        assert pins["opencv-python-headless"].startswith("4.11.")


def test_the_pi_lock_holds_files_for_the_pi_and_for_ci():
    """One lock serves the Pi (aarch64) and CI's run of the Pi's line (x86_64): it carries the
    hashes of both wheels of each compiled package."""
    text = (REQ / "pi-test.txt").read_text()
    block = text.split("numpy==1.24.2", 1)[1].split("\n    # via", 1)[0]
    assert block.count("--hash=") >= 2


@pytest.mark.parametrize("script, locks", [
    ("bootstrap", ("requirements/pip.txt", "requirements/$kind.txt", "requirements/pi-$kind.txt")),
    (".ci/run", ("requirements/pip.txt", "requirements/pi-test.txt", "tools/deps check")),
    ("deploy/install.sh", ("requirements/pip.txt", "requirements/run.txt",
                           "requirements/pi-run.txt")),
])
def test_every_install_path_takes_the_locks_by_hash(script, locks):
    text = (REPO / script).read_text()
    for lock in locks:
        assert lock in text, f"{script} does not use {lock}"
    installs = re.findall(r"-m pip install\b[^\n]*", text.replace("\\\n", " "))
    assert installs
    for cmd in installs:
        # each install takes a lock by hash, or the project itself without resolving anything
        assert "--no-deps" in cmd, f"{script}: {cmd!r} resolves dependencies"
