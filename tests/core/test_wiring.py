"""Wiring out of the box: a Pi whose config names no pins wires the layout docs/wiring.md
draws (it wired no buttons, and a press on a wired one did nothing), `companion doctor` says
plainly which buttons are wired or that none are and how, and the drawn diagram, the docs and
the example config all show the same layout as the code."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path
from types import SimpleNamespace

import pytest

from companion import doctor
from companion.config import (
    DEFAULT_BUTTON_PINS,
    DEFAULT_BUZZER_PIN,
    DEFAULT_LED_PINS,
    load_config,
)

REPO = Path(__file__).resolve().parents[2]
NO_FILE = {"COMPANION_CONFIG": "/nonexistent/companion.toml"}
LAYOUT = (list(DEFAULT_BUTTON_PINS), list(DEFAULT_LED_PINS), DEFAULT_BUZZER_PIN)


def _wiring(cfg) -> tuple:
    return cfg.button_pins, cfg.led_pins, cfg.buzzer_pin


def test_a_pi_without_a_config_file_wires_the_documented_layout():
    assert _wiring(load_config(env=NO_FILE, on_pi=True)) == LAYOUT
    assert _wiring(load_config(env=NO_FILE, on_pi=False)) == ([], [], None)  # (a laptop)


def test_a_config_that_names_no_pins_still_gets_the_layout(tmp_path):
    path = tmp_path / "companion.toml"
    path.write_text('[gpio]\npin_factory = "lgpio"\n[server]\nport = 8001\n')
    assert _wiring(load_config(path=path, env={}, on_pi=True)) == LAYOUT


@pytest.mark.parametrize(("toml", "env", "wired"), [
    ("[gpio]\nbutton_pins = []\n", {}, ([], [], None)),
    ("[gpio]\nbutton_pins = [5, 6]\n", {}, ([5, 6], [], None)),
    ("buzzer_pin = 12\n", {}, ([], [], 12)),
    ("", {"COMPANION_BUTTON_PINS": "20 21"}, ([20, 21], [], None)),
])
def test_naming_any_pin_key_makes_the_config_the_whole_wiring(tmp_path, toml, env, wired):
    path = tmp_path / "companion.toml"
    path.write_text(toml)
    assert _wiring(load_config(path=path, env=env, on_pi=True)) == wired


def _doctor_text(monkeypatch, capsys, tmp_path, toml: str | None) -> str:
    """`companion doctor`'s words on a Pi (mock pins) with this config file (None: none)."""
    config = tmp_path / "companion.toml"
    if toml is not None:
        config.write_text(toml)
    monkeypatch.setattr("companion.config.is_raspberry_pi", lambda: True)
    monkeypatch.setattr("companion.doctor.is_raspberry_pi", lambda: True)
    monkeypatch.setenv("COMPANION_CONFIG", str(config))
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COMPANION_CAMERA", "off")
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    for key in ("BUTTON_PINS", "LED_PINS", "BUZZER_PIN"):
        monkeypatch.delenv(f"COMPANION_{key}", raising=False)
    assert doctor.run_doctor(SimpleNamespace(config=None, json=False)) == 0
    return capsys.readouterr().out


def test_doctor_names_the_documented_layout_on_a_pi_without_a_config(
        monkeypatch, capsys, tmp_path):
    said = _doctor_text(monkeypatch, capsys, tmp_path, None)
    assert "buttons  : 8 buttons, the layout docs/wiring.md draws  [ok]" in said
    assert "seats: seat 1 GPIO4, seat 2 GPIO17, seat 3 GPIO27" in said
    assert "buzzer: GPIO12" in said


def test_doctor_says_plainly_that_no_buttons_are_wired_and_how(monkeypatch, capsys, tmp_path):
    said = _doctor_text(monkeypatch, capsys, tmp_path, "[gpio]\nbutton_pins = []\n")
    line = next(x for x in said.splitlines() if x.startswith("buttons  :"))
    assert line == ("buttons  : NO BUTTONS WIRED: a press on a wired button does nothing  "
                    "[FALLBACK]")
    assert ("how: wire them as docs/wiring.md draws, and set button_pins = "
            "[4, 17, 27, 22, 5, 6, 13, 26] under [gpio]") in said


def test_doctor_off_a_pi_and_with_the_configs_own_pins():
    off = doctor._check_buttons(SimpleNamespace(button_pins=[], led_pins=[], buzzer_pin=None),
                                on_pi=False)
    assert off["fallback"] and off["will_use"].startswith("no buttons (not a Pi)")
    own = doctor._check_buttons(SimpleNamespace(button_pins=[5, 6], led_pins=[], buzzer_pin=None),
                                on_pi=True)
    assert own["will_use"] == "2 buttons, as the config sets them" and not own["fallback"]


def test_the_documented_layout_is_wired_by_serve(service, clock):
    """A press on the docs' seat 2 button (GPIO17) buzzes in a quiz, with no config file."""
    from hardware.runtime import start
    from hardware.testing import ManualTicksFactory, bounce

    pins = ManualTicksFactory(start_ns=clock.monotonic_ns(), clock=clock)
    hw = start(load_config(env=NO_FILE, on_pi=True), service, clock, keys=False, factory=pins,
               background=False)
    try:
        table = service.create_table("quiz", ["Ana", "Bo", "Cy"], "2468")
        t_ns = clock.monotonic_ns() + 1_000_000
        pins.drive(DEFAULT_BUTTON_PINS[1], bounce(t_ns, 0))
        clock.advance(ns=t_ns + 50_000_000 - clock.monotonic_ns())
        hw.buttons.poll()
        [update] = hw.router.poll()
        assert update.table_id == table.id
        assert service.get(table.id).state["floor"] == 1
        assert len(hw.indicators.leds) == 8 and hw.indicators.buzzer is not None
    finally:
        hw.stop()


def test_the_example_config_and_the_docs_show_the_same_layout():
    with (REPO / "deploy" / "companion.example.toml").open("rb") as fh:
        gpio = tomllib.load(fh)["gpio"]
    assert (gpio["button_pins"], gpio["led_pins"], gpio["buzzer_pin"]) == LAYOUT
    docs = (REPO / "docs" / "wiring.md").read_text()
    block = tomllib.loads(re.search(r"```toml\n(.+?)```", docs, re.S).group(1))["gpio"]
    assert (block["button_pins"], block["led_pins"], block["buzzer_pin"]) == LAYOUT
    assert "![" in docs and "(wiring.svg)" in docs and "### Bill of materials" in docs


def test_the_committed_diagram_is_the_one_the_script_draws():
    proc = subprocess.run([sys.executable, str(REPO / "tools" / "draw_wiring.py"), "--check"],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr


def test_the_diagram_labels_every_wired_pin_with_its_physical_number():
    svg = ET.parse(REPO / "docs" / "wiring.svg").getroot()
    words = [t.text for t in svg.iter("{http://www.w3.org/2000/svg}text")]
    for seat, bcm in enumerate(DEFAULT_BUTTON_PINS, 1):
        assert f"GPIO{bcm}" in words and f"seat {seat}" in words
    for seat, bcm in enumerate(DEFAULT_LED_PINS, 1):
        assert f"GPIO{bcm}" in words and f"LED {seat}" in words
    assert f"GPIO{DEFAULT_BUZZER_PIN}" in words and "active buzzer" in words
    sys.path.insert(0, str(REPO / "tools"))
    from draw_wiring import PHYSICAL

    # the physical numbers the example config's comment gives
    assert [PHYSICAL[b] for b in DEFAULT_BUTTON_PINS] == [7, 11, 13, 15, 29, 31, 33, 37]
    assert [PHYSICAL[b] for b in DEFAULT_LED_PINS] == [16, 18, 22, 24, 26, 36, 19, 21]
    assert PHYSICAL[DEFAULT_BUZZER_PIN] == 32
