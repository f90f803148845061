"""``companion serve``: the table service, the phone web app, and whatever hardware is there.

Off a Pi it runs on the embedded defaults: the database in the user's data directory, mock
pins (with a warning), keys in the terminal and on-screen buttons for slaps.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import ipaddress
import logging
import shutil
import signal
import socket
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
    try:  # (bound before anything starts or "ready" is said)
        sock = bind(cfg.bind_host, cfg.port)
    except socket.gaierror:  # (the host name does not resolve)
        print(f"error: cannot listen on {cfg.bind_host}:{cfg.port}: {cfg.bind_host!r} is "
              "neither an address nor a name this machine can resolve. Give --host one of "
              "its addresses, or 0.0.0.0 for all of them.", file=sys.stderr, flush=True)
        return 2
    except OSError as exc:
        print(listen_error(exc, cfg.bind_host, cfg.port), file=sys.stderr, flush=True)
        return 1
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
    # the LEDs off), not killed mid-way; either way the phones' streams end first, and the
    # server waits for no connection that is not answering a request
    server = make_server(app, sock, cfg.threads)
    previous = {sig: signal.signal(sig, _stopper(app, server))
                for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        # (the lock tells `companion restore` that this process has the database open)
        with serving(cfg.database_path):
            host, port = sock.getsockname()[:2]
            print(f"Serving on http://{host}:{port}", flush=True)
            server.run(sockets=[sock])
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        sock.close()
        server.config.app.close()
        stop_backups()
        stop_camera()
        stop_narration()
        stop_hw()
    return 0


def bind(host: str, port: int) -> socket.socket:
    """The listening socket (bound before the hardware starts, so that a port in use is
    said first and plainly)."""
    infos = socket.getaddrinfo(host or "0.0.0.0", port, type=socket.SOCK_STREAM,
                               flags=socket.AI_PASSIVE)
    family, kind, proto, _, addr = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(addr)
        sock.listen(2048)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


KEEP_ALIVE_S = 5  # an idle keep-alive connection (a phone gone off the Wi-Fi) is closed
MAX_CONNECTIONS = 1000  # (beyond, a request is answered 503 at once, never left waiting)


def make_server(app, sock: socket.socket, threads: int):
    """uvicorn serving the app through web/asgi.CompanionASGI: the streams on the event loop,
    the rest on ``threads`` worker threads. Its own signal handling is left out (ours ends the
    streams first, then asks it to stop)."""
    import uvicorn

    from web.asgi import CompanionASGI

    class Server(uvicorn.Server):
        @contextlib.contextmanager
        def capture_signals(self):  # (serve() installs its own handlers)
            yield

    config = uvicorn.Config(CompanionASGI(app, threads=threads), http="h11", ws="none",
                            lifespan="off", loop="asyncio", log_config=None, log_level="warning",
                            access_log=False, proxy_headers=False, server_header=False,
                            timeout_keep_alive=KEEP_ALIVE_S,
                            limit_concurrency=MAX_CONNECTIONS, timeout_graceful_shutdown=5)
    return Server(config)


def _stopper(app, server):
    """The handler of SIGTERM and SIGINT: end the open event streams, then ask the server to
    stop (a second signal: at once, whatever is still open)."""
    from web.stream import end_streams

    def stop(signum: int, frame: object) -> None:
        end_streams(app)
        if server.should_exit:
            server.force_exit = True
        server.should_exit = True

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
