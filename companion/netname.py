"""The companion's name on the network: ``http://companion.local:8000`` instead of an address
the phones' owners must find.

Raspberry Pi OS runs avahi-daemon, which answers mDNS queries for ``<hostname>.local``.
The name phones should open is the one avahi *publishes*, which is not always the machine's
hostname: when a second Pi on the network is also called ``companion``, avahi renames the
newcomer ``companion-2.local``. So it is asked (its D-Bus ``GetHostNameFqdn`` through
``busctl``, else ``avahi-resolve`` on the LAN address), never guessed from ``hostname``.
``deploy/install.sh`` names the Pi after the config's ``hostname`` (``[network]``).

Every outside command goes through a runner (``run_command``), so the tests hand in their
own and assert the commands without touching the machine's network.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Result:
    """What a command did: its exit status and its output."""

    code: int
    out: str = ""
    err: str = ""

    @property
    def ok(self) -> bool:
        return self.code == 0


Runner = Callable[[Sequence[str]], Result]


def run_command(argv: Sequence[str], timeout: float = 15.0) -> Result:
    """Run ``argv`` (no shell); a missing program is exit 127, as a shell says it."""
    if shutil.which(argv[0]) is None:
        return Result(127, "", f"{argv[0]}: not installed")
    try:
        proc = subprocess.run(list(argv), capture_output=True, text=True, timeout=timeout,
                              check=False)
    except subprocess.TimeoutExpired:
        return Result(124, "", f"{argv[0]}: no answer in {timeout:g} s")
    except OSError as exc:
        return Result(126, "", f"{argv[0]}: {exc.strerror or exc}")
    return Result(proc.returncode, proc.stdout, proc.stderr)


_AVAHI = ("busctl", "--system", "call", "org.freedesktop.Avahi", "/",
          "org.freedesktop.Avahi.Server")
AVAHI_STATE = (*_AVAHI, "GetState")  # "i 2": running, its name established
AVAHI_FQDN = (*_AVAHI, "GetHostNameFqdn")
_BUSCTL_STRING = re.compile(r'^s\s+"(.+)"\s*$')
_LABEL = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)$", re.I)


def valid_hostname(name: str) -> bool:
    """A name avahi can publish as ``<name>.local``: one DNS label (letters, digits,
    hyphens; not at the ends)."""
    return bool(_LABEL.match(name))


def mdns_name(addresses: Sequence[str] = (), runner: Runner = run_command) -> str | None:
    """The ``.local`` name avahi publishes for this machine (``companion-2.local`` after a
    conflict), or None when no avahi-daemon answers. While avahi is still probing for its
    name (just after boot), or has found it taken, the name it would say may be another
    machine's: None then too (the phones get the address)."""
    state = runner(AVAHI_STATE)
    if state.ok and state.out.split() != ["i", "2"]:
        return None
    res = runner(AVAHI_FQDN) if state.ok else Result(1)
    if res.ok and (m := _BUSCTL_STRING.match(res.out.strip())) and m.group(1).endswith(".local"):
        return m.group(1)
    for address in addresses[:1]:  # (avahi-utils without busctl: the name of our address)
        res = runner(("avahi-resolve", "--address", address))
        fields = res.out.split()
        if res.ok and len(fields) == 2 and fields[1].endswith(".local"):
            return fields[1]
    return None
