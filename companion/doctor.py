"""``companion doctor``: what camera, pins, speaker and voices this machine has, and which
fallback each subsystem will use, so a host can fix the wiring before friends arrive."""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

from companion.config import (
    DEFAULT_BUTTON_PINS,
    DEFAULT_BUZZER_PIN,
    DEFAULT_LED_PINS,
    is_raspberry_pi,
    load_config,
)
from companion.narration import PLAYERS
from companion.store import database_problem


def _check_camera(cfg, probe: bool = True) -> dict[str, Any]:
    """The camera ``companion serve`` will watch: opened the way it opens it
    (``vision.sources.choose_source``) and one frame read, so a webcam that is not plugged
    in, or a wrong device path, says FALLBACK here and not only once friends sit down.
    ``probe`` False: what the config asks for, without opening anything."""
    picam = importlib.util.find_spec("picamera2") is not None
    videos = sorted(str(p) for p in Path("/dev").glob("video*"))
    out: dict[str, Any] = {"configured": cfg.camera or None, "picamera2_installed": picam,
                           "video_devices": videos}
    if cfg.camera.strip().lower() == "off":
        return {**out, "will_use": "no camera (off): the phones tap the cards",
                "fallback": False}
    if not probe:
        wanted = cfg.camera or ("picamera2" if picam and is_raspberry_pi() else "replay")
        return {**out, "will_use": wanted, "fallback": wanted.startswith("replay")}
    import warnings

    try:
        from vision.sources import CameraFallbackWarning, choose_source
    except ImportError as exc:  # (OpenCV missing: serve runs without a camera)
        return {**out, "will_use": "no camera", "fallback": True, "error": str(exc)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CameraFallbackWarning)
        source, choice = choose_source(cfg)
    try:
        frame = next((f for f in (source.read() for _ in range(20)) if f is not None), None)
    finally:
        source.close()
    names = {"picamera2": "picamera2 (Raspberry Pi camera)", "webcam": "webcam",
             "video": "video file", "replay": "replay of photos"}
    will_use = f"{names.get(choice.kind, choice.kind)}: {choice.wanted or source.name}"
    if choice.fallback:
        will_use = f"replay of the sample photos INSTEAD OF {choice.wanted}"
    elif choice.wanted is None and choice.kind == "replay":
        will_use = "replay of the sample photos (no camera set; not a Pi)"
    elif frame is None:
        out["error"] = "opened, but sent no picture"
    if choice.error:
        out["error"] = choice.error
    elif frame is not None:
        out["picture"] = f"{frame.image.shape[1]}x{frame.image.shape[0]}"
    return {**out, "wanted": choice.wanted, "will_use": will_use,
            "fallback": choice.fallback or choice.kind == "replay" or frame is None}


def _check_pins(cfg, on_pi: bool | None = None) -> dict[str, Any]:
    """The pin factory ``companion serve`` will use, loaded as it loads it
    (``hardware.pins.choose_factory``): one that fails to load leaves serve without buttons,
    LEDs or buzzer, so it is a FALLBACK here, with the reason (docs/wiring.md)."""
    env = os.environ.get("GPIOZERO_PIN_FACTORY")
    pi = is_raspberry_pi() if on_pi is None else on_pi
    out: dict[str, Any] = {
        "raspberry_pi": pi, "gpiochip": sorted(str(p) for p in Path("/dev").glob("gpiochip*")),
        "button_pins": cfg.button_pins, "led_pins": cfg.led_pins, "buzzer_pin": cfg.buzzer_pin}
    named = cfg.pin_factory or env
    if not named and not pi:  # (nothing to load: serve simulates the pins, with a warning)
        return {**out, "will_use": "mock (no GPIO here): on-screen buttons and terminal keys",
                "fallback": True}
    choice = named or "gpiozero default (lgpio on Bookworm)"
    try:
        from hardware.pins import choose_factory

        factory, simulated = choose_factory(cfg, on_pi=pi)
    except Exception as exc:  # (gpiozero's BadPinFactory, an ImportError, a busy chip...)
        return {**out, "will_use": f"no pins: {choice} did not load; on-screen buttons only",
                "fallback": True, "error": f"{exc.__class__.__name__}: {exc}"}
    with contextlib.suppress(Exception):
        factory.close()  # (the pins are serve's to claim, not the doctor's)
    return {**out, "will_use": choice, "fallback": simulated}


def _pins_text(pins: list[int]) -> str:
    return ", ".join(f"GPIO{p}" for p in pins)


def _check_buttons(cfg, on_pi: bool | None = None) -> dict[str, Any]:
    """Which buttons, LEDs and buzzer ``companion serve`` wires, said plainly: a Pi with no
    buttons in its config wired none, and a press on a wired button did nothing with no
    word anywhere. None wired is a FALLBACK, with how to wire them."""
    pi = is_raspberry_pi() if on_pi is None else on_pi
    buttons, leds, buzzer = list(cfg.button_pins), list(cfg.led_pins), cfg.buzzer_pin
    out: dict[str, Any] = {}
    if leds:
        out["leds"] = f"{len(leds)} ({_pins_text(leds)})"
    out["buzzer"] = f"GPIO{buzzer}" if buzzer is not None else "none"
    if not buttons:
        if not pi:
            return {"will_use": "no buttons (not a Pi): the phones' on-screen buttons and the "
                                "terminal's number keys", "fallback": True, **out}
        layout = ", ".join(map(str, DEFAULT_BUTTON_PINS))
        return {"will_use": "NO BUTTONS WIRED: a press on a wired button does nothing",
                "fallback": True, **out,
                "how": "wire them as docs/wiring.md draws, and set button_pins = "
                       f"[{layout}] under [gpio] in the config "
                       "(/etc/companion/companion.toml), or leave out button_pins, led_pins "
                       "and buzzer_pin for that layout; then sudo systemctl restart companion"}
    documented = (tuple(buttons) == DEFAULT_BUTTON_PINS and tuple(leds) == DEFAULT_LED_PINS
                  and buzzer == DEFAULT_BUZZER_PIN)
    where = "the layout docs/wiring.md draws" if documented else "as the config sets them"
    seats = ", ".join(f"seat {n} GPIO{p}" for n, p in enumerate(buttons, 1))
    return {"will_use": f"{len(buttons)} buttons, {where}", "fallback": False,
            "seats": seats, **out}


def _voices(exe: str) -> list[str]:
    try:
        out = subprocess.run([exe, "--voices"], capture_output=True, text=True, timeout=5).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    names = {line.split()[1] for line in out.splitlines()[1:] if len(line.split()) > 1}
    # espeak-ng answers to "en" with its default English voice even though it lists en-gb...
    found = {"en"} if any(n == "en" or n.startswith("en-") for n in names) else set()
    return sorted(found | (names & {"pt-br", "cmn-latn-pinyin"}))


def _check_speech(cfg) -> dict[str, Any]:
    exe = shutil.which("espeak-ng")
    player = next((p for p in PLAYERS if shutil.which(p)), None)
    sound = bool(list(Path("/dev/snd").glob("pcm*p"))) if Path("/dev/snd").exists() else False
    voices = _voices(exe) if exe else []
    if cfg.speech:
        choice = cfg.speech
    elif exe and player:
        choice = "espeak-ng"
    else:  # (narration.make_backend: a voice nobody hears is no choice)
        choice = "browser (the host phone speaks)"
    return {"espeak_ng": exe, "voices": voices, "player": player, "sound_device": sound,
            "will_use": choice, "fallback": not (exe and player)}


def _check_phones(cfg, runner=None, addresses: list[str] | None = None) -> dict[str, Any]:
    """The address the phones open, as ``companion serve`` works it out and its QR code
    carries: the name avahi really publishes (``companion-2.local`` when a second Pi took
    ``companion``), and the LAN addresses beside it for a phone that cannot resolve
    ``.local`` names (Android before 12)."""
    from companion.netname import mdns_name, run_command
    from companion.serve import is_loopback, lan_addresses

    runner = runner or run_command
    addrs = lan_addresses() if addresses is None else addresses
    name = mdns_name(addrs, runner) if addrs else None
    out: dict[str, Any] = {"mdns_name": name, "addresses": addrs}
    if cfg.hostname:
        out["hostname"] = cfg.hostname
    if cfg.public_url:
        return {**out, "will_use": cfg.public_url.rstrip("/") + "  (public_url)",
                "fallback": False}
    if cfg.bind_host not in ("0.0.0.0", "", "::"):
        only = "  (this computer only)" if is_loopback(cfg.bind_host) else ""
        return {**out, "will_use": f"http://{cfg.bind_host}:{cfg.port}{only}", "fallback": False}
    if name:
        if cfg.hostname and name.split(".")[0] != cfg.hostname:
            out["note"] = (f"avahi publishes {name}, not {cfg.hostname}.local: another machine "
                           "on this network has that name (set another hostname in [network] "
                           "and run deploy/install.sh again, or use this one)")
        also = ", ".join(f"http://{a}:{cfg.port}" for a in addrs)
        return {**out, "will_use": f"http://{name}:{cfg.port}", "fallback": False,
                "or": also}
    first = f"http://{addrs[0]}:{cfg.port}" if addrs else f"http://127.0.0.1:{cfg.port}"
    return {**out, "will_use": first, "fallback": True,
            "why": "no .local name: avahi-daemon is not running (sudo apt install "
                   "avahi-daemon); the phones need the address, which a new DHCP lease changes"}


def _check_backups(cfg, now: float | None = None) -> dict[str, Any]:
    """Whether the games are backed up (companion/backup.py): the schedule, how many, and
    the newest one opened and counted. None, a damaged newest one, or one older than two
    intervals (the service stopped, or its backups failing: the journal says why) is a
    FALLBACK: a failing SD card would take the games along."""
    import time

    from companion.backup import backup_dir, check_backup, list_paths

    folder = backup_dir(cfg)
    paths = list_paths(folder)
    every = cfg.backup_every_hours
    plan = (f"every {every} h, the newest {cfg.backup_keep} kept" if every
            else "no scheduled backups (backup_every_hours = 0)")
    out: dict[str, Any] = {"folder": str(folder), "count": len(paths)}
    if not paths:
        live = check_backup(cfg.database_path, thorough=False)
        at_stake = bool(live.events)  # (a new, empty database has nothing to lose yet)
        return {**out, "will_use": f"{plan}; none yet", "fallback": at_stake,
                "how": "the service makes one when it starts, if one is due; "
                       "or now: sudo companion backup"}
    newest = check_backup(paths[-1], thorough=False)
    out["newest"] = paths[-1].name
    if not newest.ok:
        return {**out, "will_use": f"{plan}; the newest is DAMAGED: {newest.problem}",
                "fallback": True}
    age_h = ((time.time() if now is None else now) - (newest.taken or 0)) / 3600
    said = (f"{plan}; {len(paths)}, the newest {age_h:.0f} h old ({newest.tables} tables, "
            f"{newest.events} events)")
    stale = not every or age_h > 2 * every
    if stale and every:
        out["why"] = (f"no backup for {age_h:.0f} h: is the service running? "
                      "journalctl -u companion says why backups fail")
    return {**out, "will_use": said, "fallback": stale}


def report(cfg=None) -> dict[str, Any]:
    cfg = cfg or load_config()
    problem = database_problem(cfg.database_path)
    return {
        "database": str(cfg.database_path),
        **({"database_error": problem} if problem else {}),
        "listen": f"{cfg.bind_host}:{cfg.port}",
        "phones": _check_phones(cfg),
        "camera": _check_camera(cfg),
        "pins": _check_pins(cfg),
        "buttons": _check_buttons(cfg),
        "backups": _check_backups(cfg),
        "speech": _check_speech(cfg),
    }


def run_doctor(args: argparse.Namespace) -> int:
    cfg = load_config(path=Path(args.config) if args.config else None)
    rep = report(cfg)
    # (a database serve cannot open stops it: exit 2, as serve does; fallbacks still run)
    status = 2 if "database_error" in rep else 0
    if args.json:
        print(json.dumps(rep, indent=2))
        return status
    if status:
        print(f"database : {rep['database']}  [ERROR: {rep['database_error']}]")
    else:
        print(f"database : {rep['database']}")
    print(f"listen   : {rep['listen']}")
    for part in ("phones", "camera", "pins", "buttons", "speech", "backups"):
        info = rep[part]
        flag = "FALLBACK" if info["fallback"] else "ok"
        print(f"{part:9}: {info['will_use']}  [{flag}]")
        for k, v in info.items():
            if k not in ("will_use", "fallback"):
                print(f"           {k}: {v}")
    return status
