"""deploy/update.sh: the one upgrade command. It builds and checks the new version in a venv
of its own beside the running one and switches only then, so a failed upgrade leaves the old
version running; config, games and backups are kept. Dry-run here, and its switch and
rollback run on folders in a temp dir (nothing under /opt is touched)."""

from __future__ import annotations

import os
import pwd
import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
UPDATE = REPO / "deploy" / "update.sh"
ENV = dict(os.environ, COMPANION_INSTALL_MODEL="Generic x86-64 PC")


def dry_run(*extra: str) -> str:
    proc = subprocess.run(["bash", str(UPDATE), "--dry-run", *extra], capture_output=True,
                          text=True, env=ENV, timeout=60, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def test_update_sh_is_strict_executable_and_shellcheck_clean():
    text = UPDATE.read_text()
    assert text.startswith("#!/usr/bin/env bash\n") and "\nset -euo pipefail\n" in text
    assert os.access(UPDATE, os.X_OK)
    assert subprocess.run(["bash", "-n", str(UPDATE)], check=False).returncode == 0
    if shutil.which("shellcheck"):
        proc = subprocess.run(["shellcheck", "--shell=bash", str(UPDATE)], capture_output=True,
                              text=True, check=False)
        assert proc.returncode == 0, proc.stdout


def test_the_new_version_is_built_and_checked_before_the_switch():
    out = dry_run()
    steps = re.findall(r"^==> \[\d+\] (.+)$", out, flags=re.M)
    assert [s.split()[0] for s in steps] == [
        "New", "Back", "System", "Python", "Application", "Configuration", "Check", "Network",
        "Switch", "systemd", "Final", "Remove"]
    new = re.search(r"Python environment (/opt/companion/venv-\d{8}-\d{6})$", out, re.M).group(1)
    switch_at = out.index("==> [9] Switch /opt/companion/venv to the new version")
    before = out[:switch_at]
    # every install goes into the new venv, and it passes its checks, before the switch
    assert f"{new}/bin/python -m pip install --upgrade --no-deps" in before
    assert "-m pip install --require-hashes" in before
    assert " /opt/companion/venv/bin/python -m pip" not in out
    assert "would check: companion doctor runs on the new version" in before
    assert "would check: the companion command runs as companion" in before
    assert "would run: as_app /opt/companion/venv/bin/companion backup" in before  # (the old)
    assert f"would run: ln -sfn -- {new} /opt/companion/venv.next" in out[switch_at:]
    assert "would run: mv -T -- /opt/companion/venv.next /opt/companion/venv" in out
    assert not re.search(r"^\s+\+ ", out, flags=re.M)  # (nothing really ran)
    assert out.rstrip().endswith("Dry run: nothing was changed.")


def test_config_and_games_are_kept():
    out = dry_run()
    for line in re.findall(r"would run: (.+)", out):
        assert "/var/lib/companion" not in line, line  # (the games and their backups)
        if "/etc/companion/companion.toml" in line:  # (written only where there is none)
            assert line.startswith("install -m 0644") and not Path(
                "/etc/companion/companion.toml").exists()


def test_the_pull_is_fast_forward_only_as_the_checkouts_owner_or_skipped():
    out = dry_run()
    if (REPO / ".git").exists():
        name = pwd.getpwuid(REPO.stat().st_uid).pw_name
        assert f"would run: runuser -u {name} -- git -C {REPO} pull --ff-only" in out
    skipped = dry_run("--no-pull")
    assert "--no-pull: the checkout as it is" in skipped and "git -C" not in skipped


def _bash(script: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """Run ``script`` with update.sh's functions defined (sourcing runs nothing)."""
    return subprocess.run(["bash", "-c", f"source {UPDATE}\nDRY_RUN=0\n{script}"],
                          capture_output=True, text=True, env=ENV, timeout=60, check=False,
                          cwd=tmp_path)


def test_a_first_update_moves_the_old_venv_aside_and_a_rollback_puts_it_back(tmp_path):
    live, new = tmp_path / "venv", tmp_path / "venv-20261128-150000"
    (live / "bin").mkdir(parents=True)
    (live / "bin" / "old").write_text("old")
    (new / "bin").mkdir(parents=True)
    proc = _bash(f'switch_venv {live} {new}\necho "OLD=$OLD KIND=$OLD_KIND"\n'
                 f'readlink {live}\nls $OLD/bin\n'
                 f'rollback_venv {live}\n', tmp_path)
    assert proc.returncode == 0, proc.stderr
    said = proc.stdout
    assert "KIND=dir" in said and f"\n{new}\n" in said and "\nold\n" in said
    assert live.is_dir() and not live.is_symlink() and (live / "bin" / "old").exists()
    assert not list(tmp_path.glob("venv-before-*"))


def test_a_later_update_repoints_the_link_and_a_rollback_points_it_back(tmp_path):
    live, old, new = tmp_path / "venv", tmp_path / "venv-a", tmp_path / "venv-b"
    old.mkdir()
    new.mkdir()
    live.symlink_to(old)
    proc = _bash(f"switch_venv {live} {new}\nreadlink {live}\nrollback_venv {live}\n", tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert f"\n{new}\n" in proc.stdout  # (readlink between the two)
    assert os.readlink(live) == str(old) and not (tmp_path / "venv.next").exists()


def test_a_failure_after_the_switch_goes_back_to_the_old_version(tmp_path):
    """Any step failing after the switch (the service not coming up, the page not answering:
    install.sh's die) ends in the exit trap, which points the venv back."""
    live, new = tmp_path / "venv", tmp_path / "venv-new"
    (live / "bin").mkdir(parents=True)
    (live / "bin" / "old").write_text("old")
    new.mkdir()
    proc = _bash(f"LIVE={live}\nNEW={new}\nhas_systemd() {{ return 1; }}\n"
                 "trap on_exit EXIT\n"
                 f"switch_venv {live} {new}\n"
                 'die "check failed: companion.service is running"\n', tmp_path)
    assert proc.returncode == 1
    assert "back to the old one" in proc.stderr and "The old version runs again" in proc.stderr
    assert live.is_dir() and not live.is_symlink() and (live / "bin" / "old").exists()
    assert new.is_dir()  # (left to look at)


def test_a_failure_before_the_switch_changes_nothing_in_use(tmp_path):
    live = tmp_path / "venv"
    live.mkdir()
    proc = _bash(f"LIVE={live}\nNEW={tmp_path}/venv-new\ntrap on_exit EXIT\n"
                 'die "check failed: companion doctor runs on the new version"\n', tmp_path)
    assert proc.returncode == 1 and "back to the old one" not in proc.stderr
    assert live.is_dir() and not live.is_symlink()


@pytest.mark.parametrize("option", ["--frobnicate"])
def test_unknown_options_are_refused(option):
    proc = subprocess.run(["bash", str(UPDATE), option], capture_output=True, text=True,
                          env=ENV, timeout=60, check=False)
    assert proc.returncode != 0 and f"unknown option: {option}" in proc.stderr
