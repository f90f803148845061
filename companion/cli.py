"""The ``companion`` command: ``serve``, ``doctor``, the backups and the ``vision`` tools.

Subsystems add their own subcommands through an ``add_parser(subparsers)`` function, so this
file stays a table of contents.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def _add_serve(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve", help="run the table service and the phone web app")
    p.add_argument("--host", help="address to bind (default: the LAN on a Pi, localhost elsewhere)")
    p.add_argument("--port", type=int, help="port (default 8000)")
    p.add_argument("--db", help="SQLite file (default: in the user's data directory)")
    p.add_argument("--config", help="config file (default /etc/companion/companion.toml)")
    p.add_argument("--no-qr", action="store_true", help="do not print the QR code")
    p.add_argument("--no-keys", action="store_true", help="do not read slap keys from the terminal")
    p.set_defaults(func=_serve)


def _serve(args: argparse.Namespace) -> int:
    from companion.serve import serve

    return serve(args)


def _add_doctor(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("doctor", help="say what camera, pins, speaker and voices were found")
    p.add_argument("--config", help="config file")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=_doctor)


def _doctor(args: argparse.Namespace) -> int:
    from companion.doctor import run_doctor

    return run_doctor(args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    _add_serve(sub)
    _add_doctor(sub)
    from companion.backup import add_parser as add_backup

    add_backup(sub)
    from companion.hotspot import add_parser as add_hotspot

    add_hotspot(sub)
    try:
        from vision.cli import add_parser as add_vision
    except ImportError as exc:  # the vision tools are optional only while being written
        print(f"warning: vision tools unavailable: {exc}", file=sys.stderr)
    else:
        add_vision(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run a subcommand. A bad setting or a database that cannot be opened is a person's
    to fix, not a bug: one ``error:`` line and exit 2 (as argparse does), no traceback."""
    from companion.backup import BackupError
    from companion.config import ConfigError
    from companion.store import DatabaseError

    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except (ConfigError, DatabaseError, BackupError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
