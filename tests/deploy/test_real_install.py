"""deploy/install.sh run for real, not --dry-run, on a fresh Debian 12: a root made here with
debootstrap from Debian's own packages, the working tree copied in, the installer run in a
chroot with its apt and pip steps real. Then the installed ``companion doctor`` and
``companion serve`` (as the service user, as the unit runs it) must answer.

What a chroot cannot show is skipped by the installer itself, not by a flag of this test: off a
Raspberry Pi it leaves out the Pi-only packages (python3-picamera2, python3-lgpio,
avahi-daemon), and without a running systemd it installs the unit but does not start it
(``systemd-analyze verify`` on the unit is tests/deploy/test_deploy.py's).

Needs root, debootstrap, mount and chroot, and Debian's mirror (``COMPANION_DEBIAN_MIRROR``
overrides it). It takes a few minutes (debootstrap, apt, the locked wheels): marked slow.
Nothing is cached between runs but what debootstrap and apt keep themselves.

Every bind mount is undone in a ``finally``, and the root is deleted only once no mount is
left under it: a bind mount of /dev left behind would make the delete empty the host's /dev.
"""

from __future__ import annotations

import http.client
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.support import free_port

REPO = Path(__file__).resolve().parents[2]
MIRROR = os.environ.get("COMPANION_DEBIAN_MIRROR", "http://deb.debian.org/debian")
# The host's CA bundle: on a network whose proxy re-signs TLS (this sandbox, some CI runners)
# only the host's bundle reaches PyPI; pip reads its own certifi unless PIP_CERT says so.
HOST_CA = Path("/etc/ssl/certs/ca-certificates.crt")
BINDS = ("proc", "sys", "dev", "dev/pts", "dev/shm")
CHROOT_ENV = ["env", "-i", "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
              "HOME=/root", "LANG=C.UTF-8", "PIP_CERT=/etc/ssl/certs/ca-certificates.crt"]


def _why_not() -> str | None:
    if os.geteuid() != 0:
        return "needs root (debootstrap, mount, chroot)"
    for tool in ("debootstrap", "mount", "umount", "chroot"):
        if shutil.which(tool) is None and not os.environ.get("CI"):
            # (./bootstrap test installs debootstrap: in CI a missing tool fails the test)
            return f"{tool} is not installed (apt-get install debootstrap)"
    return None


pytestmark = [pytest.mark.slow, pytest.mark.skipif(_why_not() is not None,
                                                   reason=_why_not() or "")]


def mounts_under(root: Path) -> list[str]:
    """Mount points at or below ``root``, deepest first (the order to unmount them)."""
    prefix = str(root.resolve())
    found = []
    with open("/proc/self/mountinfo") as fh:
        for line in fh:
            point = line.split()[4].replace("\\040", " ")
            if point == prefix or point.startswith(prefix + "/"):
                found.append(point)
    return sorted(found, key=len, reverse=True)


def unmount_all(root: Path) -> list[str]:
    """Unmount everything under ``root``; lazily where a mount is still busy. Returns what is
    still mounted (nothing, normally)."""
    for point in mounts_under(root):
        if subprocess.run(["umount", point], capture_output=True, check=False).returncode:
            subprocess.run(["umount", "-l", point], capture_output=True, check=False)
    return mounts_under(root)


def copy_tree(dest: Path) -> None:
    """The working tree as git sees it (tracked and new files, nothing ignored): what a clean
    clone with these changes holds, without local venvs, caches or build output."""
    listed = subprocess.run(["git", "-C", str(REPO), "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard"], capture_output=True, check=True).stdout
    for rel in filter(None, listed.decode().split("\0")):
        src = REPO / rel
        if not src.is_file() and not src.is_symlink():
            continue  # (deleted here, not yet in git)
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, target, follow_symlinks=False)


def in_root(root: Path, *cmd: str, timeout: float, **kw) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["chroot", str(root), *CHROOT_ENV, *cmd], capture_output=True,
                          text=True, timeout=timeout, check=False, **kw)


def wait_for_tables(port: int, proc: subprocess.Popen, timeout: float) -> int:
    """The status of GET /api/tables once the server answers (0: it never did)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        try:
            conn.request("GET", "/api/tables")
            return conn.getresponse().status
        except OSError:
            time.sleep(0.5)  # (polling for a start, not an assertion)
        finally:
            conn.close()
    return 0


def test_install_sh_for_real_on_a_fresh_debian_12(tmp_path):
    root = tmp_path / "root"
    timings: dict[str, float] = {}
    serve: subprocess.Popen | None = None
    left: list[str] = []
    try:
        t0 = time.monotonic()
        boot = subprocess.run(
            ["debootstrap", "--variant=minbase",
             "--include=python3,python3-venv,ca-certificates,git,sudo",
             "bookworm", str(root), MIRROR],
            capture_output=True, text=True, timeout=1200, check=False)
        assert boot.returncode == 0, "debootstrap failed:\n" + (boot.stdout + boot.stderr)[-4000:]
        timings["debootstrap"] = time.monotonic() - t0

        for sub in BINDS:
            (root / sub).mkdir(parents=True, exist_ok=True)
            subprocess.run(["mount", "--bind", f"/{sub}", str(root / sub)], check=True)
        resolv = root / "etc/resolv.conf"
        if resolv.is_symlink():  # (written through, a link would reach the host's files)
            resolv.unlink()
        shutil.copy(Path("/etc/resolv.conf").resolve(), resolv)
        if HOST_CA.is_file():
            shutil.copy(HOST_CA, root / "etc/ssl/certs/ca-certificates.crt")
        src = root / "usr/src/table-companion"
        copy_tree(src)

        t0 = time.monotonic()
        inst = in_root(root, "/usr/src/table-companion/deploy/install.sh", timeout=1800)
        timings["install.sh"] = time.monotonic() - t0
        said = inst.stdout + inst.stderr
        assert inst.returncode == 0, "install.sh failed:\n" + said[-6000:]
        # Off a Pi and without systemd, by the installer's own tests of the machine:
        assert "not a Raspberry Pi: python3-picamera2 python3-lgpio avahi-daemon skipped" in said
        assert "systemd is not running here" in said
        assert (root / "etc/systemd/system/companion.service").is_file()
        assert (root / "etc/companion/companion.toml").is_file()
        assert "Table Companion is installed." in said

        # Debian's own python3 and apt's packages, installed for real:
        dpkg = in_root(root, "dpkg-query", "-W", "-f=${Package} ${Status}\\n", "espeak-ng",
                       "alsa-utils", "python3-venv", timeout=60)
        assert dpkg.stdout.count("install ok installed") == 3, dpkg.stdout + dpkg.stderr

        doctor = in_root(root, "/usr/local/bin/companion", "doctor", timeout=300)
        assert doctor.returncode == 0, doctor.stdout + doctor.stderr
        assert "/var/lib/companion" in doctor.stdout + doctor.stderr

        # Serve as the unit runs it: the service user, its data folder, the installed config
        # (whose port is overridden here, so a test run never collides with a real one).
        port = free_port()
        t0 = time.monotonic()
        serve = subprocess.Popen(
            ["chroot", str(root), *CHROOT_ENV, "runuser", "-u", "companion", "--",
             "env", "COMPANION_DATA_DIR=/var/lib/companion",
             "COMPANION_CONFIG=/etc/companion/companion.toml", "COMPANION_CAMERA=off",
             "COMPANION_SPEECH=silent", "/opt/companion/venv/bin/companion", "serve",
             "--host", "127.0.0.1", "--port", str(port), "--no-qr", "--no-keys"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            start_new_session=True)
        status = wait_for_tables(port, serve, timeout=180)
        timings["serve"] = time.monotonic() - t0
        if status != 200:
            serve.kill()
            out = serve.communicate(timeout=30)[0]
            pytest.fail(f"companion serve did not answer GET /api/tables (got {status}):\n{out}")
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", "/")
        assert conn.getresponse().status == 200
        conn.close()
        # Its database is the service user's, in the unit's data folder:
        db = root / "var/lib/companion/companion.sqlite3"
        assert db.is_file()
        owner = in_root(root, "stat", "-c", "%U", "/var/lib/companion/companion.sqlite3",
                        timeout=30)
        assert owner.stdout.strip() == "companion"
    finally:
        if serve is not None and serve.poll() is None:
            os.killpg(serve.pid, signal.SIGTERM)
            try:
                serve.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(serve.pid, signal.SIGKILL)
                serve.wait(30)
        if serve is not None and serve.stdout:
            serve.stdout.close()
        left = unmount_all(root)
        if not left and root.exists():
            shutil.rmtree(root, ignore_errors=True)
        print("real install timings (s):",
              ", ".join(f"{k} {v:.0f}" for k, v in timings.items()))
    assert not left, f"still mounted under {root}: {left} (the root was kept, not deleted)"
