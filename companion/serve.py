"""``companion serve``: the table service, the phone web app, and whatever hardware is there.

Off a Pi it runs on the embedded defaults: the database in the user's data directory, mock
pins (with a warning), keys in the terminal and on-screen buttons for slaps.
"""

from __future__ import annotations

import argparse
import errno
import ipaddress
import logging
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from companion.backup import serving, start_backups
from companion.config import Config, load_config
from companion.netname import mdns_name
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


def public_url(cfg: Config, mdns: Callable[[list[str]], str | None] = mdns_name) -> str:
    """The URL the phones open (and the QR code carries): ``public_url``, else on the LAN
    the ``.local`` name avahi publishes (it survives a new DHCP lease, and nobody has to find
    the Pi's address), else the first LAN address."""
    if cfg.public_url:
        return cfg.public_url.rstrip("/")
    host = cfg.bind_host
    if host in ("0.0.0.0", ""):
        addrs = lan_addresses()
        name = mdns(addrs) if addrs else None
        host = name or (addrs[0] if addrs else "127.0.0.1")
    return f"http://{host}:{cfg.port}"


def is_loopback(host: str) -> bool:
    """Whether ``host`` is this machine only (127.x.x.x, ::1, localhost): no phone can open
    an address on it."""
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def ready_text(url: str, port: int, local_only: bool) -> tuple[list[str], str | None]:
    """What ``serve`` says once it listens, and the URL to draw as a QR code (None: none).

    Off a Pi it listens on this machine only (a laptop must not expose itself by accident):
    then the URL is for this computer's browser, the phones need ``--host 0.0.0.0`` (with the
    same port), and no QR code is drawn, since no phone could open it."""
    if not local_only:
        return [f"Table Companion is ready: open {url} on the phones at the table."], url
    return [f"Table Companion is ready: open {url} in this computer's browser.",
            "Phones cannot open that address: only this computer can. To serve the phones on "
            f"this network, run ./bootstrap run --host 0.0.0.0 --port {port}"], None


def listen_error(exc: OSError, host: str, port: int) -> str:
    """Why the port could not be bound, and what to do: "another companion?" only where the
    address is in use; an address this machine does not have is said to be just that."""
    where = f"Cannot listen on {host}:{port}"
    if exc.errno == errno.EADDRINUSE:
        return (f"{where} (the address is in use): is another companion running? Stop it, "
                "or choose another port with --port.")
    if exc.errno == errno.EADDRNOTAVAIL:
        mine = ", ".join(lan_addresses()) or "127.0.0.1"
        return (f"{where}: this machine has no address {host}. Give --host one of its addresses "
                f"({mine}), or 0.0.0.0 for all of them.")
    return f"{where} ({exc.strerror or exc}). Choose another port with --port, or another --host."


def build(cfg: Config):
    """The service and the app, ready to serve (shared with the tests and benchmarks)."""
    from web import create_app

    store = Store(cfg.database_path)
    service = TableService(store)
    app = create_app(service, cfg)
    return service, app


def serve(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    # (a bad setting or database raises here, before the port is bound: cli.main says it)
    cfg = load_config(path=Path(args.config) if args.config else None,
                      host=args.host, port=args.port, database=args.db)
    local_only = not cfg.public_url and is_loopback(cfg.bind_host)
    url = public_url(cfg)
    cfg.public_url = cfg.public_url or url
    service, app = build(cfg)
    from waitress.server import create_server

    try:  # (bound before anything starts or "ready" is said)
        server = create_server(app, host=cfg.bind_host, port=cfg.port, threads=cfg.threads,
                               channel_timeout=3600, ident="companion")
    except OSError as exc:
        print(listen_error(exc, cfg.bind_host, cfg.port), file=sys.stderr, flush=True)
        return 1
    except ValueError:  # (waitress: the host name does not resolve)
        print(f"error: cannot listen on {cfg.bind_host}:{cfg.port}: {cfg.bind_host!r} is "
              "neither an address nor a name this machine can resolve. Give --host one of "
              "its addresses, or 0.0.0.0 for all of them.", file=sys.stderr, flush=True)
        return 2
    stop_hw = start_hardware(cfg, service, use_keys=not args.no_keys)
    if getattr(stop_hw, "press", None) is not None:
        app.config["HARDWARE"] = stop_hw  # the phones' on-screen slap buttons join the race
    stop_narration = start_narration(cfg, service)
    # (the host's page says where the voice comes from, tests it and says a line again)
    app.extensions["narrator"] = getattr(stop_narration, "narrator", None)
    stop_camera = start_camera(cfg, service, app)
    stop_backups = start_backups(cfg)
    from companion.hotspot import Hotspot

    app.extensions["hotspot"] = Hotspot(cfg)  # (the invite's Wi-Fi QR code while it is on)
    lines, qr_url = ready_text(url, cfg.port, local_only)
    for line in lines:
        print(line, flush=True)
    print(f"Database: {cfg.database_path}", flush=True)
    if qr_url and not args.no_qr and sys.stdout.isatty():
        try:
            import segno

            segno.make(qr_url, error="m").terminal(compact=True)
        except Exception:  # a terminal that cannot draw it still has the URL above
            pass
    # systemd stops the service with SIGTERM: shut down as on Ctrl-C (the camera released,
    # the LEDs off), not killed mid-way; either way the phones' streams end first, or
    # waitress waits 5 s for the threads that serve them
    stop = _stopper(app)
    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        # (the lock tells `companion restore` that this process has the database open)
        with serving(cfg.database_path):
            server.print_listen("Serving on http://{}:{}")
            sys.stdout.flush()
            server.run()
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        server.close()
        stop_backups()
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

    stop.narrator = narrator  # type: ignore[attr-defined]
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
