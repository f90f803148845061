"""``companion hotspot on|off|status``: for a table with no Wi-Fi, the Pi makes its own network
through NetworkManager (``nmcli``), and the phones' invite shows two QR codes: the standard
``WIFI:T:WPA;S:<ssid>;P:<password>;;`` payload (a phone's camera offers to join the network)
and the table's page, so a phone is in with two scans and no typing.

* ``on`` notes the Wi-Fi connection the Pi is on (to bring it back), makes the access-point
  connection ``companion-hotspot`` afresh from the config (``[network]`` ``hotspot_ssid``,
  ``hotspot_password``, ``hotspot_interface``) and brings it up. It connects by itself at boot
  (``autoconnect``, priority 100): a Pi that was a hotspot when it was switched off is one
  again when it is switched on, so the table stays reachable.
* ``off`` takes it down and deletes it, then brings the noted connection back up (or lets
  NetworkManager pick a known network).
* An empty ``hotspot_password`` is generated on first use and saved with the state in
  ``<data_dir>/hotspot.json`` (the service reads it there for the invite), so the phones that
  joined once join again.

NetworkManager's system connections are root's to change: the command runs under sudo
(``sudo companion hotspot on``: deploy/companion runs it as root with the service's data
folder). Every command goes through an injected runner (companion/netname.py), so the tests
assert the ``nmcli`` invocations and nothing touches a real network.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
import time
from pathlib import Path
from typing import Any

from companion.netname import Result, Runner, run_command

CONNECTION = "companion-hotspot"
DEFAULT_SSID = "TableCompanion"
_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"  # (no l/1, o/0: read off a screen)
WIFI_TYPE = "802-11-wireless"
CACHE_S = 10.0


class HotspotError(Exception):
    """What stopped the hotspot, in one line, with what to do."""


def new_password() -> str:
    """12 random letters and digits in three groups (about 60 bits): typed from a screen
    when a phone cannot scan."""
    chars = "".join(secrets.choice(_ALPHABET) for _ in range(12))
    return "-".join(chars[i:i + 4] for i in range(0, 12, 4))


def _escape(value: str) -> str:
    """A WIFI: QR field with its special characters escaped (ZXing's format)."""
    for ch in "\\;,\":":
        value = value.replace(ch, "\\" + ch)
    return value


def wifi_payload(ssid: str, password: str) -> str:
    """The standard Wi-Fi QR payload for a WPA network."""
    return f"WIFI:T:WPA;S:{_escape(ssid)};P:{_escape(password)};;"


def terse_fields(line: str) -> list[str]:
    """One line of ``nmcli -t``: fields split on ':' that is not escaped (``\\:``)."""
    fields, cur, i = [], "", 0
    while i < len(line):
        ch = line[i]
        if ch == "\\" and i + 1 < len(line):
            cur += line[i + 1]
            i += 2
            continue
        if ch == ":":
            fields.append(cur)
            cur = ""
        else:
            cur += ch
        i += 1
    fields.append(cur)
    return fields


class Hotspot:
    """The hotspot of one companion: its settings from the config, its state in the data
    folder, NetworkManager through ``runner``."""

    def __init__(self, cfg: Any, runner: Runner = run_command, clock: Any = None) -> None:
        self.cfg = cfg
        self.runner = runner
        self.monotonic = clock.monotonic_ns if clock is not None else time.monotonic_ns
        self.state_path = Path(cfg.data_path) / "hotspot.json"
        self._cache: tuple[int, tuple[str, str | None] | None] | None = None

    # -- settings and state --------------------------------------------------------------------
    @property
    def ssid(self) -> str:
        return self.cfg.hotspot_ssid or DEFAULT_SSID

    @property
    def interface(self) -> str:
        return self.cfg.hotspot_interface or "wlan0"

    def state(self) -> dict[str, Any]:
        try:
            data = json.loads(self.state_path.read_text())
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _save(self, state: dict[str, Any]) -> None:
        folder = self.state_path.parent
        folder.mkdir(parents=True, exist_ok=True)
        part = self.state_path.with_suffix(".part")
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o640)
        with os.fdopen(fd, "w") as fh:
            json.dump(state, fh, indent=2)
        if os.geteuid() == 0:  # (run by root: the service's user must read it)
            st = folder.stat()
            os.chown(part, st.st_uid, st.st_gid)
        os.replace(part, self.state_path)

    def password(self) -> str:
        """The config's, else the one saved, else a new one (saved by :meth:`on`)."""
        return self.cfg.hotspot_password or self.state().get("password") or new_password()

    # -- NetworkManager ------------------------------------------------------------------------
    def _nmcli(self, *args: str, check: bool = True) -> Result:
        res = self.runner(("nmcli", *args))
        if check and not res.ok:
            why = (res.err or res.out).strip() or f"exit status {res.code}"
            if res.code == 127:
                raise HotspotError("nmcli is not here: the hotspot needs NetworkManager "
                                   "(Raspberry Pi OS Bookworm's own)")
            if "insufficient privileges" in why.lower() or "not authorized" in why.lower():
                why += " (run it with sudo: sudo companion hotspot ...)"
            raise HotspotError(f"nmcli {args[0]} {args[1] if len(args) > 1 else ''}: {why}")
        return res

    def active(self) -> list[dict[str, str]]:
        """The active connections (name, uuid, type, device)."""
        res = self._nmcli("-t", "-f", "NAME,UUID,TYPE,DEVICE", "connection", "show", "--active")
        keys = ("name", "uuid", "type", "device")
        return [dict(zip(keys, terse_fields(line), strict=False))
                for line in res.out.splitlines() if line.strip()]

    def is_on(self) -> bool:
        return any(c.get("name") == CONNECTION for c in self.active())

    def address(self) -> str | None:
        """The hotspot's own IPv4 address (10.42.0.1 with NetworkManager's sharing)."""
        res = self._nmcli("-g", "IP4.ADDRESS", "connection", "show", CONNECTION, check=False)
        first = res.out.strip().split("|")[0].strip() if res.ok else ""
        return first.split("/")[0] or None

    # -- the commands --------------------------------------------------------------------------
    def on(self) -> dict[str, Any]:
        if self.runner(("dnsmasq", "--version")).code == 127:
            raise HotspotError("dnsmasq is not here: NetworkManager shares the connection "
                               "with it (sudo apt install dnsmasq-base)")
        state = self.state()
        current = self.active()
        previous = next((c for c in current if c.get("type") == WIFI_TYPE
                         and c.get("device") == self.interface and c.get("name") != CONNECTION),
                        None)
        password = self.password()
        if not 8 <= len(password) <= 63:
            raise HotspotError("hotspot_password must be 8 to 63 characters (WPA)")
        # made afresh each time, so that it is always what the config says
        self._nmcli("connection", "delete", CONNECTION, check=False)
        self._nmcli(
            "connection", "add", "type", "wifi", "ifname", self.interface,
            "con-name", CONNECTION, "autoconnect", "yes",
            "connection.autoconnect-priority", "100", "ssid", self.ssid,
            "802-11-wireless.mode", "ap", "802-11-wireless.band", "bg",
            "ipv4.method", "shared",
            "wifi-sec.key-mgmt", "wpa-psk", "wifi-sec.proto", "rsn",
            "wifi-sec.pairwise", "ccmp", "wifi-sec.group", "ccmp", "wifi-sec.psk", password)
        new = {"on": True, "ssid": self.ssid, "password": password,
               "previous": (previous or {}).get("uuid") or state.get("previous"),
               "previous_name": (previous or {}).get("name") or state.get("previous_name")}
        self._save(new)  # (before up: if up fails, off still knows what to bring back)
        try:
            self._nmcli("connection", "up", CONNECTION)
        except HotspotError:
            self._nmcli("connection", "delete", CONNECTION, check=False)
            self._restore_previous(new)
            self._save({**new, "on": False})
            raise
        return {**new, "address": self.address()}

    def _restore_previous(self, state: dict[str, Any]) -> str | None:
        """Bring the Wi-Fi the Pi was on back; a warning, or None when it came back."""
        uuid = state.get("previous")
        res = (self._nmcli("connection", "up", "uuid", uuid, check=False) if uuid
               else self._nmcli("device", "connect", self.interface, check=False))
        if res.ok:
            return None
        return ((res.err or res.out).strip() or f"exit status {res.code}") + \
            " (NetworkManager keeps trying the known networks by itself)"

    def off(self) -> dict[str, Any]:
        state = self.state()
        self._nmcli("connection", "down", CONNECTION, check=False)
        self._nmcli("connection", "delete", CONNECTION, check=False)
        warning = self._restore_previous(state)
        self._save({**state, "on": False})
        return {"on": False, "previous_name": state.get("previous_name"), "warning": warning}

    def status(self) -> dict[str, Any]:
        state = self.state()
        on = self.is_on()
        return {"on": on, "ssid": state.get("ssid", self.ssid),
                "password": state.get("password") or self.cfg.hotspot_password or None,
                "address": self.address() if on else None,
                "previous_name": state.get("previous_name")}

    # -- the invite ------------------------------------------------------------------------------
    def invite(self) -> tuple[str, str | None] | None:
        """While the hotspot is on: its Wi-Fi QR payload and its address (the phones that
        join it reach the Pi there, .local name or not); None otherwise. Asked of
        NetworkManager at most every 10 s (the invite's QR code is fetched by every phone)."""
        now = self.monotonic()
        if self._cache is not None and now - self._cache[0] < CACHE_S * 1e9:
            return self._cache[1]
        state = self.state()
        answer = None
        if state.get("on") and state.get("password"):
            try:
                on = self.is_on()
            except HotspotError:
                on = False
            if on:
                answer = (wifi_payload(state.get("ssid") or self.ssid, state["password"]),
                          self.address())
        self._cache = (now, answer)
        return answer


# -- the invite's picture: two QR codes ----------------------------------------------------------

def invite_svg(wifi: str, url: str, ssid: str, password: str) -> bytes:
    """The invite while the hotspot is on: 1, the Wi-Fi QR code (with the network's name and
    password written under it, for a phone that cannot scan it), 2, the table's page."""
    import io
    from xml.sax.saxutils import escape

    import segno

    width, label = 340, 22
    parts, y = [], 0
    for n, (payload, caption) in enumerate(
            ((wifi, f"Wi-Fi {ssid}  ·  {password}"), (url, url.split("://", 1)[-1])), 1):
        code = segno.make(payload, error="m")
        size = code.symbol_size(scale=1, border=2)[0]
        scale = (width - 20) / size
        buf = io.BytesIO()
        code.save(buf, kind="svg", scale=1, border=2, dark="#000", light="#fff",
                  xmldecl=False, svgns=True)
        inner = buf.getvalue().decode()
        parts.append(f'<text x="10" y="{y + 16}" font-size="15" font-weight="bold" '
                     f'font-family="sans-serif" fill="#000">{n}</text>')
        parts.append(f'<text x="{width / 2}" y="{y + 16}" font-size="13" text-anchor="middle" '
                     f'font-family="sans-serif" fill="#000">{escape(caption)}</text>')
        parts.append(f'<g transform="translate(10 {y + label}) scale({scale:.4f})">{inner}</g>')
        y += label + (width - 20) + 12
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{y}" '
            f'viewBox="0 0 {width} {y}"><rect width="{width}" height="{y}" fill="#fff"/>'
            + "".join(parts) + "</svg>").encode()


# -- the command -------------------------------------------------------------------------------

def _print_qr(payload: str) -> None:
    if not sys.stdout.isatty():
        return
    try:
        import segno

        segno.make(payload, error="m").terminal(compact=True)
    except Exception:  # (a terminal that cannot draw it still has the words)
        pass


def run(args: argparse.Namespace, runner: Runner = run_command) -> int:
    from companion.config import load_config

    cfg = load_config(path=Path(args.config) if args.config else None)
    hotspot = Hotspot(cfg, runner)
    try:
        if args.action == "on":
            done = hotspot.on()
            where = done["address"] or "10.42.0.1"
            print(f"Hotspot on: Wi-Fi network {done['ssid']!r}, password {done['password']!r}, "
                  f"this Pi at {where}.")
            print("The phones' invite now shows two QR codes: the Wi-Fi's, then the table's. "
                  "Turn it off with: sudo companion hotspot off")
            _print_qr(wifi_payload(done["ssid"], done["password"]))
        elif args.action == "off":
            done = hotspot.off()
            back = done["previous_name"] or "a known Wi-Fi network"
            print(f"Hotspot off; back on {back}.")
            if done["warning"]:
                print(f"warning: the Wi-Fi did not come back at once: {done['warning']}")
        else:
            st = hotspot.status()
            if st["on"]:
                print(f"Hotspot on: Wi-Fi network {st['ssid']!r}, password {st['password']!r}, "
                      f"this Pi at {st['address'] or '?'}")
            else:
                print("Hotspot off" + (f" (normal Wi-Fi: {st['previous_name']})"
                                       if st["previous_name"] else ""))
    except HotspotError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("hotspot", help="the Pi's own Wi-Fi network for a table with none "
                                       "(NetworkManager; run with sudo)")
    p.add_argument("action", choices=("on", "off", "status"))
    p.add_argument("--config", help="config file")
    p.set_defaults(func=run)
