"""deploy/companion, installed as /usr/local/bin/companion: the installed command run with the
service's config, data folder and user, whoever calls it; a restore stops the service around
it. Run here with stand-ins for id, runuser and systemctl on PATH (nothing real is touched)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
WRAPPER = REPO / "deploy" / "companion"
INSTALL = REPO / "deploy" / "install.sh"


def _stub(folder: Path, name: str, body: str) -> None:
    path = folder / name
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)


def _run(tmp_path: Path, *args: str, uid: int = 0, active: bool = True,
         fails: bool = False) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    """Run the wrapper as ``uid``; the calls it made, in order, from the stand-ins' log."""
    bin_dir, calls = tmp_path / "bin", tmp_path / "calls"
    bin_dir.mkdir(exist_ok=True)
    calls.write_text("")
    _stub(bin_dir, "id", f"echo {uid}")
    _stub(bin_dir, "runuser", f'echo "runuser $*" >> {calls}; shift 3; exec "$@"')
    _stub(bin_dir, "systemctl", f'echo "systemctl $*" >> {calls}; '
                                f'[ "$1" != is-active ] || exit {0 if active else 3}')
    _stub(bin_dir, "companion-exe",
          f'echo "companion $* [$(pwd)] $COMPANION_DATA_DIR $COMPANION_CONFIG" >> {calls}; '
          f"exit {5 if fails else 0}")
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "COMPANION_EXE": str(bin_dir / "companion-exe")}
    proc = subprocess.run(["sh", str(WRAPPER), *args], capture_output=True, text=True, env=env,
                          timeout=30, check=False, cwd=tmp_path)
    return proc, calls.read_text().splitlines()


SERVICE_ENV = "/var/lib/companion /etc/companion/companion.toml"


def test_root_runs_the_command_as_the_service_user_with_its_config(tmp_path):
    proc, calls = _run(tmp_path, "backups")
    assert proc.returncode == 0, proc.stderr
    exe = str(tmp_path / "bin" / "companion-exe")
    assert calls == [f"runuser -u companion -- {exe} backups",
                     f"companion backups [/] {SERVICE_ENV}"]


def test_the_hotspot_runs_as_root(tmp_path):
    proc, calls = _run(tmp_path, "hotspot", "on")
    assert proc.returncode == 0
    assert calls == [f"companion hotspot on [{tmp_path}] {SERVICE_ENV}"]


def test_a_restore_stops_the_running_service_and_starts_it_again(tmp_path):
    proc, calls = _run(tmp_path, "restore", "companion-20260921-141320Z.sqlite3")
    assert proc.returncode == 0
    assert calls[0] == "systemctl is-active --quiet companion"
    assert calls[1] == "systemctl stop companion"
    assert calls[3] == f"companion restore companion-20260921-141320Z.sqlite3 [/] {SERVICE_ENV}"
    assert calls[4] == "systemctl start companion"


def test_a_failed_restore_still_starts_the_service_and_fails(tmp_path):
    proc, calls = _run(tmp_path, "restore", "x", fails=True)
    assert proc.returncode == 5
    assert calls[-1] == "systemctl start companion"


def test_a_stopped_service_is_left_stopped(tmp_path):
    proc, calls = _run(tmp_path, "restore", "x", active=False)
    assert proc.returncode == 0
    assert not any(c.startswith(("systemctl stop", "systemctl start")) for c in calls)


def test_a_user_runs_it_as_themself(tmp_path):
    proc, calls = _run(tmp_path, "doctor", uid=1000)
    assert proc.returncode == 0
    assert calls == [f"companion doctor [{tmp_path}] {SERVICE_ENV}"]


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed")
def test_the_wrapper_passes_shellcheck():
    proc = subprocess.run(["shellcheck", "--shell=sh", str(WRAPPER)], capture_output=True,
                          text=True, check=False)
    assert proc.returncode == 0, proc.stdout
    assert os.access(WRAPPER, os.X_OK)


def test_the_installer_installs_it():
    env = dict(os.environ, COMPANION_INSTALL_MODEL="Generic x86-64 PC")
    out = subprocess.run(["bash", str(INSTALL), "--dry-run"], capture_output=True, text=True,
                         env=env, timeout=60, check=True).stdout
    assert f"install -m 0755 {WRAPPER} /usr/local/bin/companion" in out


def test_paths_relative_to_the_callers_folder_are_made_whole(tmp_path):
    """As the service user it runs from /: `restore ./old.sqlite3` named / 's file."""
    (tmp_path / "old.sqlite3").write_text("x")
    (tmp_path / "backups").mkdir()  # (a folder named like a subcommand is left alone)
    _, calls = _run(tmp_path, "restore", "old.sqlite3", active=False)
    assert f"companion restore {tmp_path}/old.sqlite3 [/] {SERVICE_ENV}" in calls
    _, calls = _run(tmp_path, "restore", "companion-20260921-141320Z.sqlite3", active=False)
    assert "companion restore companion-20260921-141320Z.sqlite3 [/]" in calls[-1]  # (a name)
    _, calls = _run(tmp_path, "backup", "--to", "usb")
    assert calls[-1].startswith(f"companion backup --to {tmp_path}/usb [/]")
    _, calls = _run(tmp_path, "backups", "--config", "/etc/x.toml")
    assert calls[-1].startswith("companion backups --config /etc/x.toml [/]")
