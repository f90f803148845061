"""`companion hotspot on|off|status` (companion/hotspot.py) through an injected runner that
stands in for nmcli: the commands NetworkManager gets, the normal Wi-Fi brought back on off,
the saved password, and the phones' invite: the standard WIFI: QR payload, then the page at
the hotspot's address. Nothing here touches a real network."""

from __future__ import annotations

import io
import json
from types import SimpleNamespace

import pytest
import segno

from companion import hotspot as hs
from companion.clock import FakeClock
from companion.config import Config, ConfigError, load_config
from companion.netname import Result

ACTIVE = ("nmcli", "-t", "-f", "NAME,UUID,TYPE,DEVICE", "connection", "show", "--active")
ADDRESS = ("nmcli", "-g", "IP4.ADDRESS", "connection", "show", "companion-hotspot")
HOME = "Home\\: 5G:7d1f0c2e-aaaa-bbbb-cccc-000000000001:802-11-wireless:wlan0"
WIRED = "Wired connection 1:0e0e0e0e-1111-2222-3333-444444444444:802-3-ethernet:eth0"
HOTSPOT = "companion-hotspot:9f9f9f9f-0000-0000-0000-000000000009:802-11-wireless:wlan0"


class FakeNM:
    """NetworkManager as nmcli shows it: the active connections, and every command kept."""

    def __init__(self, active: list[str], fail: dict[tuple[str, ...], Result] | None = None,
                 dnsmasq: bool = True) -> None:
        self.active = list(active)
        self.fail = fail or {}
        self.dnsmasq = dnsmasq
        self.calls: list[tuple[str, ...]] = []

    def __call__(self, argv) -> Result:
        argv = tuple(argv)
        self.calls.append(argv)
        if argv in self.fail:
            return self.fail[argv]
        if argv[0] == "dnsmasq":
            return Result(0, "Dnsmasq version 2.89") if self.dnsmasq else Result(127)
        if argv == ACTIVE:
            return Result(0, "".join(f"{line}\n" for line in self.active))
        if argv == ADDRESS:
            return Result(0, "10.42.0.1/24\n")
        if argv[1:4] == ("connection", "up", "companion-hotspot"):
            self.active = [HOTSPOT] + [a for a in self.active if ":wlan0" not in a]
        if argv[1:3] == ("connection", "down"):
            self.active = [a for a in self.active if not a.startswith("companion-hotspot:")]
        return Result(0)

    def nmcli(self) -> list[tuple[str, ...]]:
        return [c for c in self.calls if c[0] == "nmcli" and c not in (ACTIVE, ADDRESS)]


def _cfg(tmp_path, **kw) -> Config:
    return Config(data_dir=str(tmp_path / "data"), **kw)


def test_on_makes_the_access_point_and_notes_the_wifi_to_bring_back(tmp_path):
    nm = FakeNM([WIRED, HOME])
    done = hs.Hotspot(_cfg(tmp_path, hotspot_password="secret-pass"), nm).on()
    assert nm.calls[0] == ("dnsmasq", "--version")
    assert nm.nmcli() == [
        ("nmcli", "connection", "delete", "companion-hotspot"),
        ("nmcli", "connection", "add", "type", "wifi", "ifname", "wlan0",
         "con-name", "companion-hotspot", "autoconnect", "yes",
         "connection.autoconnect-priority", "100", "ssid", "TableCompanion",
         "802-11-wireless.mode", "ap", "802-11-wireless.band", "bg", "ipv4.method", "shared",
         "wifi-sec.key-mgmt", "wpa-psk", "wifi-sec.proto", "rsn", "wifi-sec.pairwise", "ccmp",
         "wifi-sec.group", "ccmp", "wifi-sec.psk", "secret-pass"),
        ("nmcli", "connection", "up", "companion-hotspot"),
    ]
    assert done["address"] == "10.42.0.1"
    state = json.loads((tmp_path / "data" / "hotspot.json").read_text())
    assert state == {"on": True, "ssid": "TableCompanion", "password": "secret-pass",
                     "previous": "7d1f0c2e-aaaa-bbbb-cccc-000000000001",
                     "previous_name": "Home: 5G"}
    assert (tmp_path / "data" / "hotspot.json").stat().st_mode & 0o777 == 0o640


def test_off_brings_the_normal_wifi_back(tmp_path):
    nm = FakeNM([HOME])
    spot = hs.Hotspot(_cfg(tmp_path), nm)
    spot.on()
    nm.calls.clear()
    done = spot.off()
    assert nm.nmcli() == [
        ("nmcli", "connection", "down", "companion-hotspot"),
        ("nmcli", "connection", "delete", "companion-hotspot"),
        ("nmcli", "connection", "up", "uuid", "7d1f0c2e-aaaa-bbbb-cccc-000000000001"),
    ]
    assert done == {"on": False, "previous_name": "Home: 5G", "warning": None}
    assert spot.state()["on"] is False


def test_off_without_a_noted_wifi_lets_networkmanager_pick_one(tmp_path):
    nm = FakeNM([WIRED])
    spot = hs.Hotspot(_cfg(tmp_path), nm)
    spot.on()
    nm.calls.clear()
    spot.off()
    assert nm.nmcli()[-1] == ("nmcli", "device", "connect", "wlan0")


def test_a_wifi_that_does_not_come_back_is_a_warning(tmp_path):
    back = ("nmcli", "connection", "up", "uuid", "7d1f0c2e-aaaa-bbbb-cccc-000000000001")
    nm = FakeNM([HOME], fail={back: Result(4, "", "Error: no network with SSID 'Home'")})
    spot = hs.Hotspot(_cfg(tmp_path), nm)
    spot.on()
    assert "no network with SSID" in spot.off()["warning"]


def test_the_generated_password_is_saved_and_kept(tmp_path):
    nm = FakeNM([HOME])
    spot = hs.Hotspot(_cfg(tmp_path), nm)
    first = spot.on()["password"]
    assert len(first) == 14 and first.count("-") == 2
    spot.off()
    assert spot.on()["password"] == first  # (the phones that joined once join again)
    assert spot.on()["previous"] == "7d1f0c2e-aaaa-bbbb-cccc-000000000001"  # (not lost)


def test_a_hotspot_that_will_not_come_up_is_undone(tmp_path):
    up = ("nmcli", "connection", "up", "companion-hotspot")
    nm = FakeNM([HOME], fail={up: Result(4, "", "Error: Connection activation failed: "
                                                 "No suitable device found")})
    spot = hs.Hotspot(_cfg(tmp_path), nm)
    with pytest.raises(hs.HotspotError, match="No suitable device found"):
        spot.on()
    assert nm.nmcli()[-2:] == [("nmcli", "connection", "delete", "companion-hotspot"),
                               ("nmcli", "connection", "up", "uuid",
                                "7d1f0c2e-aaaa-bbbb-cccc-000000000001")]
    assert spot.state()["on"] is False


def test_missing_pieces_and_privileges_are_said_plainly(tmp_path):
    with pytest.raises(hs.HotspotError, match="dnsmasq-base"):
        hs.Hotspot(_cfg(tmp_path), FakeNM([], dnsmasq=False)).on()
    no_nm = FakeNM([], fail={ACTIVE: Result(127)})
    with pytest.raises(hs.HotspotError, match="nmcli is not here"):
        hs.Hotspot(_cfg(tmp_path), no_nm).on()
    add = FakeNM([HOME])

    def refuse(argv):
        if tuple(argv[:3]) == ("nmcli", "connection", "add"):
            return Result(1, "", "Error: failed to add: Insufficient privileges.")
        return add(argv)

    with pytest.raises(hs.HotspotError, match="run it with sudo"):
        hs.Hotspot(_cfg(tmp_path), refuse).on()


def test_status(tmp_path):
    nm = FakeNM([HOME])
    spot = hs.Hotspot(_cfg(tmp_path, hotspot_password="secret-pass"), nm)
    assert spot.status()["on"] is False
    spot.on()
    st = spot.status()
    assert (st["on"], st["ssid"], st["password"], st["address"]) == (
        True, "TableCompanion", "secret-pass", "10.42.0.1")


def test_the_wifi_qr_payload_is_the_standard_one_escaped():
    assert hs.wifi_payload("TableCompanion", "abcd-efgh-jkmn") == \
        "WIFI:T:WPA;S:TableCompanion;P:abcd-efgh-jkmn;;"
    assert hs.wifi_payload('Ana;s "net"', "a:b,c\\d") == \
        'WIFI:T:WPA;S:Ana\\;s \\"net\\";P:a\\:b\\,c\\\\d;;'


def test_nmcli_terse_fields_keep_escaped_colons():
    assert hs.terse_fields(HOME) == ["Home: 5G", "7d1f0c2e-aaaa-bbbb-cccc-000000000001",
                                     "802-11-wireless", "wlan0"]


def test_the_invite_while_on_and_asked_at_most_every_10_s(tmp_path):
    clock = FakeClock()
    nm = FakeNM([HOME])
    spot = hs.Hotspot(_cfg(tmp_path, hotspot_password="secret-pass"), nm, clock)
    assert spot.invite() is None  # (never turned on: not even asked)
    assert nm.calls == []
    hs.Hotspot(_cfg(tmp_path, hotspot_password="secret-pass"), nm).on()
    clock.advance(11)
    assert spot.invite() == ("WIFI:T:WPA;S:TableCompanion;P:secret-pass;;", "10.42.0.1")
    asked = len(nm.calls)
    clock.advance(5)
    assert spot.invite() is not None and len(nm.calls) == asked
    nm.active = [HOME]  # (taken down behind its back: no Wi-Fi code once seen)
    clock.advance(6)
    assert spot.invite() is None


def _qr_path(payload: str, scale: int = 1) -> str:
    """The path segno draws for ``payload``: found in an SVG, that QR code carries it."""
    buf = io.BytesIO()
    segno.make(payload, error="m").save(buf, kind="svg", scale=scale, border=2, xmldecl=False)
    text = buf.getvalue().decode()
    start = text.index(' d="', text.index('class="qrline"')) + 4
    return text[start:text.index('"', start)]


def test_the_phones_invite_carries_the_wifi_then_the_page(app, client, scorepad, tmp_path):
    nm = FakeNM([HOME])
    cfg = _cfg(tmp_path, hotspot_password="secret-pass")
    hs.Hotspot(cfg, nm).on()
    app.extensions["hotspot"] = hs.Hotspot(cfg, nm, FakeClock())
    res = client.get(f"/api/tables/{scorepad['id']}/qr.svg")
    assert res.status_code == 200 and res.mimetype == "image/svg+xml"
    svg = res.get_data(as_text=True)
    page = f"http://10.42.0.1/join/{scorepad['code']}"  # (public_url: no port)
    wifi_at, page_at = (svg.index(_qr_path(p)) for p in (
        "WIFI:T:WPA;S:TableCompanion;P:secret-pass;;", page))
    assert wifi_at < page_at
    assert "Wi-Fi TableCompanion  ·  secret-pass" in svg
    hs.Hotspot(cfg, nm).off()
    app.extensions["hotspot"] = hs.Hotspot(cfg, nm, FakeClock())
    plain = client.get(f"/api/tables/{scorepad['id']}/qr.svg").get_data(as_text=True)
    assert "WIFI" not in plain and "Wi-Fi" not in plain
    assert _qr_path(f"http://table.test/join/{scorepad['code']}", scale=8) in plain


def test_the_command_prints_the_network(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "none.toml"))
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COMPANION_HOTSPOT_PASSWORD", "secret-pass")
    nm = FakeNM([HOME])
    args = SimpleNamespace(config=None, action="on")
    assert hs.run(args, nm) == 0
    assert ("Hotspot on: Wi-Fi network 'TableCompanion', password 'secret-pass', this Pi at "
            "10.42.0.1.") in capsys.readouterr().out
    assert hs.run(SimpleNamespace(config=None, action="off"), nm) == 0
    assert "Hotspot off; back on Home: 5G." in capsys.readouterr().out
    assert hs.run(args, FakeNM([], dnsmasq=False)) == 2
    assert capsys.readouterr().err.startswith("error: dnsmasq is not here")


@pytest.mark.parametrize(("key", "value", "said"), [
    ("COMPANION_HOTSPOT_PASSWORD", "short", "8 to 63 plain characters"),
    ("COMPANION_HOTSPOT_SSID", "x" * 33, "a network name of 1 to 32 bytes"),
])
def test_bad_hotspot_settings_are_refused(key, value, said):
    with pytest.raises(ConfigError, match=said):
        load_config(env={"COMPANION_CONFIG": "/nonexistent", key: value})
