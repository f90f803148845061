"""Configuration: built-in defaults < /etc/companion/companion.toml < COMPANION_* variables.

The file holds the wiring of one physical table (pins, camera, speaker); the environment
overrides any key for a run (``COMPANION_PORT=9000``, ``COMPANION_CAMERA=replay``). Every
value is checked as it is loaded (:class:`ConfigError`), so a typo stops the program at once
with the key named, not later with a traceback.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from companion.netname import valid_hostname

SYSTEM_CONFIG = Path("/etc/companion/companion.toml")


def is_raspberry_pi() -> bool:
    """True on a Raspberry Pi (the device tree names the model)."""
    try:
        return "raspberry pi" in Path("/proc/device-tree/model").read_text(errors="ignore").lower()
    except OSError:
        return False


def default_data_dir() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("companion", appauthor=False))


@dataclass
class Config:
    host: str = ""  # empty: 0.0.0.0 on a Pi (the LAN), 127.0.0.1 elsewhere
    port: int = 8000
    threads: int = 48  # the app's worker threads (the live streams hold none: web/asgi.py)
    data_dir: str = ""  # empty: the user's data directory (XDG)
    database: str = ""  # empty: <data_dir>/companion.sqlite3
    camera: str = ""  # picamera2 | opencv:<index or path> | replay[:<folder>] | off; empty: auto
    speech: str = ""  # espeak | browser | silent ; empty: auto
    language: str = "en"  # the table's default language: en | pt_BR | zh_Hans
    pin_factory: str = ""  # gpiozero factory name; empty: gpiozero's own choice, mock off a Pi
    button_pins: list[int] = field(default_factory=list)
    led_pins: list[int] = field(default_factory=list)
    buzzer_pin: int | None = None
    max_body_bytes: int = 64 * 1024
    public_url: str = ""  # the URL phones should open, if the host's address is not enough
    # Names besides its own that the companion answers to (web/guard.py: any IP address,
    # localhost, this machine's name and <name>.local, public_url's host are always served;
    # a name no one configured is refused, against DNS rebinding). Comma or space separated;
    # "*" answers to any name (behind a proxy that checks names itself).
    allowed_hosts: str = ""
    # Backups of the database (companion/backup.py): every N hours while serve runs (0: none),
    # the newest N kept, in backup_dir (empty: <data_dir>/backups).
    backup_every_hours: int = 6
    backup_keep: int = 7
    backup_dir: str = ""
    # The Pi's name on the network ([network]): deploy/install.sh names the machine so, and
    # avahi publishes <hostname>.local for the phones (companion/netname.py). Empty: keep the
    # machine's own name.
    hostname: str = ""
    # `companion hotspot on` (companion/hotspot.py): the Pi's own Wi-Fi network for a table
    # with none. An empty password is generated on first use and kept in the data folder.
    hotspot_ssid: str = "TableCompanion"
    hotspot_password: str = ""
    hotspot_interface: str = "wlan0"

    @property
    def data_path(self) -> Path:
        return Path(self.data_dir) if self.data_dir else default_data_dir()

    @property
    def database_path(self) -> Path:
        return Path(self.database) if self.database else self.data_path / "companion.sqlite3"

    @property
    def bind_host(self) -> str:
        if self.host:
            return self.host
        return "0.0.0.0" if is_raspberry_pi() else "127.0.0.1"


# The wiring docs/wiring.md draws (docs/wiring.svg) and deploy/companion.example.toml sets, in
# BCM numbers; seat N is the Nth button and the Nth LED. A Pi whose config says nothing of
# the wiring gets it (load_config): a button wired as the docs draw works with no file.
DEFAULT_BUTTON_PINS = (4, 17, 27, 22, 5, 6, 13, 26)
DEFAULT_LED_PINS = (23, 24, 25, 8, 7, 16, 10, 9)
DEFAULT_BUZZER_PIN = 12
WIRING_KEYS = ("button_pins", "led_pins", "buzzer_pin")

# The file's sections load_config reads (a key may also sit at the top level).
SECTIONS = ("companion", "gpio", "camera", "speech", "server", "backup", "network")
SPEECH_CHOICES = ("espeak", "browser", "silent")  # (and "espeak-ng"; "": auto)
CAMERA_KINDS = ("picamera2", "opencv", "replay", "off")  # (opencv:<n|path>, replay:<path>)
# The table's languages (companion.games.werewolf.script.LANGUAGES; a test keeps them equal)
LANGUAGES = ("en", "pt_BR", "zh_Hans")
_LANGUAGE_PREFIXES = ("en", "pt", "zh", "cmn")  # what script.language reads as each of them


class ConfigError(ValueError):
    """A setting the table cannot run with, in one line: where it came from (the file, a
    COMPANION_* variable, the command line), the key, its value and what it may be.

    Raised by :func:`load_config`, so that ``companion serve`` stops with ``error: ...``
    before it binds the port or opens anything (a bad ``speech`` used to crash it after
    "ready"), and ``deploy/install.sh`` refuses the same file the service would."""


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)  # (TOML's true is no port)


def _expected(name: str, value: Any) -> str | None:
    """What ``value`` should be for the field ``name``, or None when it is fine."""
    if name == "port":
        return None if _is_int(value) and 1 <= value <= 65535 else "an integer from 1 to 65535"
    if name == "backup_every_hours":
        return None if _is_int(value) and value >= 0 else "an integer of 0 (none) or more"
    if name in ("threads", "max_body_bytes", "backup_keep"):
        return None if _is_int(value) and value >= 1 else "an integer of 1 or more"
    if name == "buzzer_pin":
        ok = value is None or (_is_int(value) and value >= 0)
        return None if ok else "a pin number (an integer), or left out for no buzzer"
    if name in ("button_pins", "led_pins"):
        ok = isinstance(value, list) and all(_is_int(v) and v >= 0 for v in value)
        return None if ok else "a list of integers (pin numbers)"
    if not isinstance(value, str):
        return "a string"
    if name == "hotspot_ssid" and not 1 <= len(value.encode()) <= 32:
        return "a network name of 1 to 32 bytes"
    if name == "hotspot_password" and value and not (
            8 <= len(value) <= 63 and value.isascii() and value.isprintable()):
        return "8 to 63 plain characters (WPA), or empty for a generated one"
    if name == "hostname" and value and not valid_hostname(value):
        return ("one name of letters, digits and hyphens (up to 63, no hyphen at either end), "
                "or empty to keep the machine's own")
    choice = value.strip().lower()
    if name == "speech" and choice not in ("", "espeak-ng", *SPEECH_CHOICES):
        return f"one of {', '.join(SPEECH_CHOICES)}, or empty for auto"
    kind = value.strip().partition(":")[0]  # (vision.sources reads the kind as written)
    if name == "camera" and kind and kind not in CAMERA_KINDS and choice != "off":
        return ('one of picamera2, opencv:<index or path>, replay[:<folder>], off, '
                "or empty for auto")
    language = choice.replace("-", "_").split("_")[0]
    if name == "language" and choice and language not in _LANGUAGE_PREFIXES:
        return f"one of {', '.join(LANGUAGES)}"
    return None


def _from_env(text: str, default: Any) -> Any:
    """A COMPANION_* variable's text as the field's type; the text itself where it does not
    parse, for :func:`_expected` to refuse with the variable's name."""
    try:
        if isinstance(default, list):
            return [int(v) for v in text.replace(",", " ").split()]
        if isinstance(default, int) or default is None:  # (None: buzzer_pin; empty: none)
            return int(text) if text.strip() or default is not None else None
    except ValueError:
        return text
    return text


def _read_file(path: Path, explicit: bool) -> dict[str, Any]:
    """The settings in the config file, flattened; {} when the default file is absent.

    A file named with ``--config`` must exist (a typo was silently ignored and the table ran
    on defaults); the default path, or COMPANION_CONFIG (the systemd unit sets it to the
    default path), may be missing: a laptop has no /etc/companion."""
    if not explicit and not path.exists():
        return {}
    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except FileNotFoundError:
        raise ConfigError(f"no config file at {path}") from None
    except OSError as exc:
        raise ConfigError(f"cannot read the config file {path}: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    section = data.get("companion")
    flat = dict(section) if isinstance(section, dict) else {}
    flat.update({k: v for k, v in data.items() if not isinstance(v, dict)})
    for name in SECTIONS[1:]:
        if isinstance(data.get(name), dict):
            flat.update(data[name])
    return flat


def load_config(
    path: Path | None = None, env: dict[str, str] | None = None, *, on_pi: bool | None = None,
    **overrides: Any
) -> Config:
    """Build the config from the file (if any), then the environment, then explicit values
    (the command line's); ``path`` is ``--config``, which must exist.

    On a Raspberry Pi (``on_pi``: None asks the machine) where none of them names any of
    ``button_pins``, ``led_pins``, ``buzzer_pin``, the wiring is the documented one
    (``DEFAULT_*_PINS``): the service used to wire no buttons without a config file, and a
    button wired as docs/wiring.md draws did nothing. Naming any of the three (``[]`` for
    none) makes the config's wiring the whole of it.

    Raises :class:`ConfigError` for a file that does not parse or a value that is not what
    its key takes, naming where it came from."""
    env = os.environ if env is None else env
    cfg = Config()
    source: dict[str, str] = {}
    explicit = path is not None
    path = path or Path(env.get("COMPANION_CONFIG", SYSTEM_CONFIG))
    flat = _read_file(path, explicit)
    for f in fields(cfg):
        if f.name in flat:
            setattr(cfg, f.name, flat[f.name])
            source[f.name] = str(path)
    defaults = Config()
    for f in fields(cfg):
        key = "COMPANION_" + f.name.upper()
        if key in env:
            setattr(cfg, f.name, _from_env(env[key], getattr(defaults, f.name)))
            source[f.name] = key
    for name, value in overrides.items():
        if value is not None:
            setattr(cfg, name, value)
            source[name] = "the command line"
    bad = [f"{where}: {name} = {getattr(cfg, name)!r} (expected {expected})"
           for name, where in source.items()
           if (expected := _expected(name, getattr(cfg, name))) is not None]
    if bad:  # (every bad value at once: one fix per run is slow on a Pi over ssh)
        raise ConfigError("; ".join(bad))
    if not source.keys() & set(WIRING_KEYS) and (is_raspberry_pi() if on_pi is None else on_pi):
        cfg.button_pins = list(DEFAULT_BUTTON_PINS)
        cfg.led_pins = list(DEFAULT_LED_PINS)
        cfg.buzzer_pin = DEFAULT_BUZZER_PIN
    return cfg
