"""``companion serve``: the table service, the phone web app, and whatever hardware is there.

Off a Pi it runs on the embedded defaults: the database in the user's data directory, mock
pins (with a warning), keys in the terminal and on-screen buttons for slaps.
"""

from __future__ import annotations

import argparse
import logging
import shutil
import signal
import subprocess
import sys
from pathlib import Path

from companion.config import Config, load_config
from companion.store import Store
from companion.table import TableService

log = logging.getLogger("companion")


def lan_addresses() -> list[str]:
    """The machine's IPv4 addresses as phones on the LAN would reach them (no packets sent)."""
    exe = shutil.which("hostname")
    if not exe:
        return []
    try:
        out = subprocess.run([exe, "-I"], capture_output=True, text=True, timeout=2).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    return [a for a in out.split() if "." in a and not a.startswith("127.")]


def public_url(cfg: Config) -> str:
    if cfg.public_url:
        return cfg.public_url.rstrip("/")
    host = cfg.bind_host
    if host in ("0.0.0.0", ""):
        addrs = lan_addresses()
        host = addrs[0] if addrs else "127.0.0.1"
    return f"http://{host}:{cfg.port}"


def local_only_hint() -> str:
    """Off a Pi the server listens on this machine only (a laptop does not expose itself by
    accident): say so, and how to let the table's phones in."""
    return ("Only this machine can open it. To serve the phones on this network, run "
            "./bootstrap run --host 0.0.0.0")


def build(cfg: Config):
    """The service and the app, ready to serve (shared with the tests and benchmarks)."""
    from web import create_app

    store = Store(cfg.database_path)
    service = TableService(store)
    app = create_app(service, cfg)
    return service, app


def serve(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    cfg = load_config(path=Path(args.config) if args.config else None,
                      host=args.host, port=args.port, database=args.db)
    url = public_url(cfg)
    cfg.public_url = cfg.public_url or url
    service, app = build(cfg)
    from waitress.server import create_server

    try:  # (bound before anything starts or "ready" is said)
        server = create_server(app, host=cfg.bind_host, port=cfg.port, threads=cfg.threads,
                               channel_timeout=3600, ident="companion")
    except OSError as exc:
        print(f"Cannot listen on {cfg.bind_host}:{cfg.port} ({exc.strerror or exc}): is "
              "another companion running? Stop it, or choose another port with --port.",
              file=sys.stderr, flush=True)
        return 1
    stop_hw = start_hardware(cfg, service, use_keys=not args.no_keys)
    if getattr(stop_hw, "press", None) is not None:
        app.config["HARDWARE"] = stop_hw  # the phones' on-screen slap buttons join the race
    stop_narration = start_narration(cfg, service)
    stop_camera = start_camera(cfg, service, app)
    print(f"Table Companion is ready: open {url} on the phones at the table.", flush=True)
    if cfg.bind_host.startswith("127."):
        print(local_only_hint(), flush=True)
    print(f"Database: {cfg.database_path}", flush=True)
    if not args.no_qr and sys.stdout.isatty():
        try:
            import segno

            segno.make(url, error="m").terminal(compact=True)
        except Exception:  # a terminal that cannot draw it still has the URL above
            pass
    # systemd stops the service with SIGTERM: shut down as on Ctrl-C (the camera released,
    # the LEDs off), not killed mid-way; either way the phones' streams end first, or
    # waitress waits 5 s for the threads that serve them
    stop = _stopper(app)
    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        server.print_listen("Serving on http://{}:{}")
        sys.stdout.flush()
        server.run()
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        server.close()
        stop_camera()
        stop_narration()
        stop_hw()
    return 0


def _stopper(app):
    """The handler of SIGTERM and SIGINT: end the open event streams (each holds a thread
    of waitress's until the phone goes), then stop as on Ctrl-C."""
    from web.stream import end_streams

    def stop(signum: int, frame: object) -> None:
        end_streams(app)
        if signum == signal.SIGINT:
            raise KeyboardInterrupt
        raise SystemExit(0)

    return stop


def start_camera(cfg: Config, service: TableService, app):
    """The camera watching the active camera game (replay of sample photos off a Pi)."""
    if cfg.camera.strip().lower() == "off":
        return lambda: None
    from companion.camera import CameraRuntime

    runtime = CameraRuntime(cfg, service)
    service.add_listener(runtime.on_update)
    app.extensions["camera"] = runtime
    runtime.start()
    return runtime.stop


def start_narration(cfg: Config, service: TableService):
    """The speaker (espeak-ng, else the host phone's browser) and the step timers of the
    narrated games. Lines also go to the phones as ``narration`` events (the host's screen
    shows the words); with the browser backend the host phone speaks ``speak`` events."""
    from companion.clock import SystemClock
    from companion.narration import Narrator, make_backend
    from companion.werewolf_driver import StepTimerDriver

    def publish(message: dict) -> None:
        table_id = message.get("table_id")
        if table_id:
            service.announce(table_id, [{k: v for k, v in message.items() if k != "table_id"}])

    def language_for(table_id: str):
        return service.get(table_id).state.get("options", {}).get("language")

    backend = make_backend(cfg.speech, publish=publish)
    narrator = Narrator(backend, cfg.language, language_for=language_for,
                        on_line=lambda tid, line: tid and service.announce(tid, [line]))
    service.add_listener(narrator.handle)
    driver = StepTimerDriver(service, SystemClock())
    driver.attach()
    driver.start()

    def stop() -> None:
        driver.stop()
        backend.close()

    return stop


def start_hardware(cfg: Config, service: TableService, use_keys: bool = True):
    """Buttons, LEDs, buzzer (and terminal keys off a Pi), if the hardware layer offers them."""
    try:
        import hardware
    except ImportError:
        return lambda: None
    start = getattr(hardware, "start", None)
    if start is None:
        return lambda: None
    try:
        return start(cfg, service, use_keys=use_keys) or (lambda: None)
    except Exception:  # no hardware must never stop the scores from being kept
        log.exception("hardware failed to start; on-screen buttons only")
        return lambda: None
