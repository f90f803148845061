"""The deploy/ files: install.sh (syntax, shellcheck, its dry run, its config check), the example
config against companion.config.Config, and the systemd unit against install.sh's layout.

Nothing here installs anything: install.sh only runs with --dry-run, or is sourced (which
defines its functions and runs nothing)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from dataclasses import fields
from pathlib import Path

import pytest

from companion.config import SECTIONS as CONFIG_SECTIONS
from companion.config import Config, load_config

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"
INSTALL = DEPLOY / "install.sh"
EXAMPLE = DEPLOY / "companion.example.toml"
UNIT = DEPLOY / "companion.service"

# The sections load_config reads (besides top-level keys); a key in any other section is lost.
SECTIONS = set(CONFIG_SECTIONS)
CONFIG_FIELDS = {f.name for f in fields(Config)}
# A commented-out setting in the example, e.g. `# data_dir = "/var/lib/companion"`.
COMMENTED_KEY = re.compile(r"^#\s?([a-z_]+) = (.+)$")

NOT_A_PI = "Generic x86-64 PC"
A_PI = "Raspberry Pi 5 Model B Rev 1.0"


def bash(*args: str, model: str = NOT_A_PI, **kw) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, COMPANION_INSTALL_MODEL=model)
    return subprocess.run(["bash", *args], capture_output=True, text=True, env=env,
                          timeout=60, check=False, **kw)


def dry_run(*extra: str, model: str = NOT_A_PI) -> str:
    proc = bash(str(INSTALL), "--dry-run", *extra, model=model)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def installer_vars() -> dict[str, str]:
    """The layout constants install.sh defines, read by sourcing it."""
    names = ("APP_USER", "VENV", "CONF", "DATA_DIR", "UNIT_PATH", "PYTHON")
    script = f"source {INSTALL}; " + "; ".join(f'echo "{n}=${n}"' for n in names)
    proc = bash("-c", script)
    assert proc.returncode == 0, proc.stderr
    return dict(line.split("=", 1) for line in proc.stdout.splitlines())


# ---- install.sh -----------------------------------------------------------------------------


def test_install_sh_has_valid_bash_syntax():
    proc = bash("-n", str(INSTALL))
    assert proc.returncode == 0, proc.stderr


def test_install_sh_is_strict_and_executable():
    text = INSTALL.read_text()
    assert text.startswith("#!/usr/bin/env bash\n")
    assert "\nset -euo pipefail\n" in text
    assert os.access(INSTALL, os.X_OK), "deploy/install.sh must be executable (git: mode 100755)"


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed")
@pytest.mark.parametrize("script", [INSTALL, REPO / "bootstrap", REPO / ".ci" / "run"],
                         ids=["install.sh", "bootstrap", "ci"])
def test_shell_scripts_pass_shellcheck(script: Path):
    proc = subprocess.run(["shellcheck", "--shell=bash", str(script)],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_dry_run_lists_every_install_step_in_order():
    out = dry_run()
    steps = re.findall(r"^==> \[\d+\] (.+)$", out, flags=re.M)
    assert [s.split()[0] for s in steps] == [
        "System", "Service", "Python", "Application", "Configuration", "Network", "systemd",
        "Final"]
    assert "Service user companion and data directory /var/lib/companion" in steps
    assert "Python environment /opt/companion/venv" in steps
    assert "Configuration /etc/companion/companion.toml" in steps
    assert "systemd service companion.service" in steps
    assert out.rstrip().endswith("Dry run: nothing was changed.")


def test_dry_run_shows_the_key_commands():
    out = dry_run()
    assert "packages: python3 python3-venv espeak-ng alsa-utils" in out
    if not Path("/opt/companion/venv/bin/python").exists():  # a real install here: reused
        assert "-m venv --system-site-packages /opt/companion/venv" in out
    assert "/opt/companion/venv/bin/python -m pip install --upgrade" in out
    # the locked versions, checked by hash, nothing resolved (the Pi's line on a Pi)
    assert re.search(r"pip install --require-hashes --no-deps -r \S+/requirements/run\.txt", out)
    assert re.search(r"pip install --upgrade --no-deps --no-build-isolation ", out)
    assert "companion.example.toml /etc/companion/companion.example.toml" in out
    assert "deploy/companion.service /etc/systemd/system/companion.service" in out
    assert "/opt/companion/venv/bin/companion doctor" in out
    for check in ("python3-venv installed", "user companion exists",
                  "/etc/companion/companion.toml parses and loads",
                  "the companion command runs as companion"):
        assert f"would check: {check}" in out or f"ok: {check}" in out
    if not Path("/run/systemd/system").is_dir():
        assert "systemd is not running here" in out


def test_dry_run_changes_nothing():
    out = dry_run()
    # run() prints "+ cmd" only when it really runs a command.
    assert not re.search(r"^\s+\+ ", out, flags=re.M), out


def test_dry_run_installs_picamera2_and_lgpio_only_on_a_pi():
    plain = dry_run(model=NOT_A_PI)
    pi = dry_run(model=A_PI)
    packages = re.compile(r"^\s+packages: (.+)$", flags=re.M)
    assert "python3-picamera2" not in packages.search(plain).group(1)
    assert "python3-picamera2 python3-lgpio avahi-daemon" in packages.search(pi).group(1)
    assert "avahi-daemon" not in packages.search(plain).group(1)
    assert f"Raspberry Pi: {A_PI}" in pi


def test_dry_run_uninstall_keeps_config_and_data():
    out = dry_run("--uninstall")
    assert "==> [1] Stop and remove the service" in out
    assert "==> [2] Remove the application /opt/companion/venv" in out
    assert "Kept: /etc/companion (wiring), /var/lib/companion (games and scores)" in out
    for line in re.findall(r"would run: (.+)", out):
        assert "/etc/companion" not in line and "/var/lib/companion" not in line, line


def test_unknown_option_is_refused():
    proc = bash(str(INSTALL), "--frobnicate")
    assert proc.returncode != 0
    assert "unknown option: --frobnicate" in proc.stderr


def _config_checker() -> str:
    """The Python that install.sh runs to check /etc/companion/companion.toml."""
    text = INSTALL.read_text()
    body = text[text.index("check_config() {"):]
    return body[body.index("<<'EOF'\n") + len("<<'EOF'\n"):body.index("\nEOF\n")]


def _check_config(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-", str(path)], input=_config_checker(),
                          capture_output=True, text=True, check=False, cwd=REPO)


def test_installers_config_check_accepts_the_example():
    proc = _check_config(EXAMPLE)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""


@pytest.mark.parametrize(("toml", "message"), [
    ('port = "eighty"\n', "port = 'eighty' (expected an integer from 1 to 65535)"),
    ('port = "eighty\n', "not valid TOML"),
    ('[gpio]\nbutton_pins = [4, "x"]\n', "expected a list of integers"),
    ("[server]\nthreads = true\n", "threads = True (expected an integer of 1 or more)"),
    # (the right type, but the service refuses it: it passed the install, then failed)
    ('[speech]\nspeech = "loud"\n', "speech = 'loud' (expected one of espeak, browser"),
    ('[camera]\ncamera = "webcam"\n', "camera = 'webcam' (expected one of picamera2"),
])
def test_installers_config_check_rejects_what_would_stop_the_service(tmp_path, toml, message):
    """The check is companion.config's own, so it refuses what the service would."""
    path = tmp_path / "companion.toml"
    path.write_text(toml)
    proc = _check_config(path)
    assert proc.returncode != 0
    assert proc.stderr.startswith(f"{path}: ") and message in proc.stderr
    assert "Traceback" not in proc.stderr


def test_installers_config_check_only_warns_about_unknown_keys(tmp_path):
    path = tmp_path / "companion.toml"
    path.write_text("[gpio]\nbuton_pins = [4]\n[hardware]\nx = 1\n")
    proc = _check_config(path)
    assert proc.returncode == 0, proc.stderr
    assert "ignored, not settings: gpio.buton_pins, [hardware]" in proc.stderr


# ---- companion.example.toml -------------------------------------------------------------------


def _example_items() -> list[tuple[str, str, object]]:
    """(section or "", key, value) for every setting the example sets."""
    with EXAMPLE.open("rb") as fh:
        data = tomllib.load(fh)
    items = []
    for key, value in data.items():
        if isinstance(value, dict):
            items += [(key, k, v) for k, v in value.items()]
        else:
            items.append(("", key, value))
    return items


def test_example_uses_only_sections_load_config_reads():
    with EXAMPLE.open("rb") as fh:
        data = tomllib.load(fh)
    tables = {k for k, v in data.items() if isinstance(v, dict)}
    assert tables <= SECTIONS, f"load_config ignores [{'], ['.join(sorted(tables - SECTIONS))}]"


def test_every_key_in_the_example_is_a_config_field():
    items = _example_items()
    unknown = [f"{s}.{k}" if s else k for s, k, _ in items if k not in CONFIG_FIELDS]
    assert not unknown, f"not Config fields (misspelt?): {unknown}"
    keys = [k for _, k, _ in items]
    assert len(keys) == len(set(keys)), "a key set twice: which one wins depends on section order"


def test_example_loads_into_config_with_the_same_values():
    cfg = load_config(path=EXAMPLE, env={})
    defaults = Config()
    for _section, key, value in _example_items():
        assert getattr(cfg, key) == value, key
        default = getattr(defaults, key)
        want = int if default is None else type(default)
        assert type(value) is want, f"{key}: {type(value).__name__}, Config wants {want.__name__}"


def test_example_documents_every_config_field():
    set_keys = {k for _, k, _ in _example_items()}
    commented = {}
    for line in EXAMPLE.read_text().splitlines():
        if m := COMMENTED_KEY.match(line):
            commented[m.group(1)] = m.group(2)
    missing = CONFIG_FIELDS - set_keys - commented.keys()
    assert not missing, f"Config fields the example does not mention: {sorted(missing)}"
    for key, value in commented.items():  # uncommenting one must give a valid setting
        assert key in CONFIG_FIELDS, key
        tomllib.loads(f"{key} = {value}")


def test_example_is_a_lan_server_on_port_8000():
    cfg = load_config(path=EXAMPLE, env={})
    assert cfg.host == "0.0.0.0"
    assert cfg.port == 8000
    assert cfg.threads >= 16


def test_example_pin_layout_is_eight_seats_and_a_buzzer_on_free_bcm_pins():
    cfg = load_config(path=EXAMPLE, env={})
    assert len(cfg.button_pins) == len(cfg.led_pins) == 8
    pins = [*cfg.button_pins, *cfg.led_pins, cfg.buzzer_pin]
    assert len(set(pins)) == len(pins), "a pin used twice"
    assert all(isinstance(p, int) and 2 <= p <= 27 for p in pins), "BCM numbers of the header"
    # As the example promises: I2C, the UART and I2S audio stay free.
    assert not set(pins) & {2, 3, 14, 15, 18, 19, 20, 21}


def test_environment_still_overrides_the_example():
    cfg = load_config(path=EXAMPLE, env={"COMPANION_PORT": "9000",
                                         "COMPANION_DATA_DIR": "/var/lib/companion"})
    assert cfg.port == 9000
    assert cfg.database_path == Path("/var/lib/companion/companion.sqlite3")


# ---- companion.service ----------------------------------------------------------------------


def _unit() -> dict[str, dict[str, list[str]]]:
    """The unit as section -> key -> values (systemd allows a key more than once, which
    configparser does not)."""
    sections: dict[str, dict[str, list[str]]] = {}
    current = None
    for raw in UNIT.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], {})
            continue
        assert current is not None, f"setting outside a section: {line}"
        assert "=" in line, f"not a key=value line: {line}"
        key, value = (part.strip() for part in line.split("=", 1))
        current.setdefault(key, []).append(value)
    return sections


def test_unit_has_the_three_sections():
    assert set(_unit()) == {"Unit", "Service", "Install"}


def test_unit_runs_the_venvs_companion_serve_as_its_own_user():
    service = _unit()["Service"]
    layout = installer_vars()
    assert service["User"] == [layout["APP_USER"]] == ["companion"]
    assert service["ExecStart"] == [f"{layout['VENV']}/bin/companion serve --no-keys"]
    assert service["Restart"] == ["on-failure"]


def test_unit_keeps_data_in_its_state_directory():
    service = _unit()["Service"]
    layout = installer_vars()
    assert service["StateDirectory"] == ["companion"]
    env = dict(v.split("=", 1) for v in service["Environment"])
    assert env["COMPANION_DATA_DIR"] == layout["DATA_DIR"] == "/var/lib/companion"
    assert env["COMPANION_CONFIG"] == layout["CONF"]
    assert layout["UNIT_PATH"] == "/etc/systemd/system/companion.service"


def test_unit_waits_for_the_network_and_starts_at_boot():
    unit = _unit()
    assert "network-online.target" in " ".join(unit["Unit"]["After"])
    assert "network-online.target" in " ".join(unit["Unit"]["Wants"])
    assert unit["Install"]["WantedBy"] == ["multi-user.target"]


def test_unit_hardening_leaves_gpio_camera_and_sound_reachable():
    service = _unit()["Service"]
    assert service["NoNewPrivileges"] == ["yes"]
    assert service["ProtectSystem"] == ["strict"]
    # Each of these would cut off /dev/gpiochip*, /dev/video*, /dev/snd/* (see the unit).
    for key in ("PrivateDevices", "ProtectClock", "DeviceAllow", "DevicePolicy", "PrivateUsers"):
        assert key not in service, f"{key}= would break the hardware"
    # A group named here that the machine lacks (no gpio on plain Debian) stops the unit.
    assert "SupplementaryGroups" not in service


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze")
def test_unit_passes_systemd_analyze_verify(tmp_path):
    # verify insists that ExecStart's program exists: stand in /bin/true for the venv's.
    layout = installer_vars()
    unit = tmp_path / "companion.service"
    unit.write_text(UNIT.read_text().replace(f"{layout['VENV']}/bin/companion", "/bin/true"))
    proc = subprocess.run(["systemd-analyze", "verify", str(unit)],
                          capture_output=True, text=True, check=False)
    ours = [line for line in (proc.stdout + proc.stderr).splitlines()
            if "companion.service" in line]
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert not ours, "\n".join(ours)


def test_the_install_copies_the_source_without_venvs_or_build_output(tmp_path):
    """install.sh builds from a copy of the checkout: the developer's venvs (.venv, CI's
    .venv-pi), VCS data and build output stay behind (hundreds of MB, and a root-owned build/
    would break the user's next pip install)."""
    src, dst = tmp_path / "src", tmp_path / "dst"
    for rel in ("vision/detect.py", ".venv/lib/x", ".venv-pi/lib/x", ".git/HEAD",
                "build/lib/x", "vision/__pycache__/detect.pyc", "companion.egg-info/PKG-INFO"):
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text("x")
    dst.mkdir()
    text = INSTALL.read_text()
    func = text[text.index("copy_source() {"):]
    func = func[:func.index("\n}\n") + 3]
    subprocess.run(["bash", "-c", f'{func}\ncopy_source "$1" "$2"', "copy", str(src), str(dst)],
                   check=True)
    assert sorted(str(p.relative_to(dst)) for p in dst.rglob("*") if p.is_file()) == [
        "vision/detect.py"]
