"""Configuration: built-in defaults < /etc/companion/companion.toml < COMPANION_* variables.

The file holds the wiring of one physical table (pins, camera, speaker); the environment
overrides any key for a run (``COMPANION_PORT=9000``, ``COMPANION_CAMERA=replay``).
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

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
    threads: int = 48  # SSE holds a thread per phone: ten phones a table, several tables
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


def _coerce(value: str, current: Any) -> Any:
    if isinstance(current, bool):
        return value.lower() in ("1", "true", "yes", "on")
    if isinstance(current, int):
        return int(value)
    if isinstance(current, list):
        return [int(v) for v in value.replace(",", " ").split()]
    if current is None:
        return int(value) if value.strip().lstrip("-").isdigit() else None
    return value


def load_config(
    path: Path | None = None, env: dict[str, str] | None = None, **overrides: Any
) -> Config:
    """Build the config from the file (if any), then the environment, then explicit values."""
    env = os.environ if env is None else env
    cfg = Config()
    path = path or Path(env.get("COMPANION_CONFIG", SYSTEM_CONFIG))
    if path.is_file():
        with path.open("rb") as fh:
            data = tomllib.load(fh)
        flat = dict(
            data.get("companion", {}), **{k: v for k, v in data.items() if not isinstance(v, dict)}
        )
        for section in ("gpio", "camera", "speech", "server"):
            flat.update(data.get(section, {}))
        for f in fields(cfg):
            if f.name in flat:
                setattr(cfg, f.name, flat[f.name])
    for f in fields(cfg):
        key = "COMPANION_" + f.name.upper()
        if key in env:
            setattr(cfg, f.name, _coerce(env[key], getattr(cfg, f.name)))
    for name, value in overrides.items():
        if value is not None:
            setattr(cfg, name, value)
    return cfg
