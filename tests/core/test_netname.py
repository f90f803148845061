"""The companion's name on the network (companion/netname.py): the .local name avahi really
publishes (a second Pi called companion becomes companion-2.local), carried by the URL the
phones' QR codes hold and said by `companion doctor`; the installer names the Pi after the
config's hostname. Every command goes through an injected runner: nothing here asks the
machine's avahi or renames anything."""

from __future__ import annotations

import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest

from companion import doctor, netname, serve
from companion.config import Config, ConfigError, load_config
from companion.netname import AVAHI_FQDN, AVAHI_STATE, Result

REPO = Path(__file__).resolve().parents[2]
LAN = "192.168.1.20"


class FakeRunner:
    """Answers commands from a table (argv -> Result) and keeps what was asked."""

    def __init__(self, answers: dict[tuple[str, ...], Result]) -> None:
        self.answers = answers
        self.calls: list[tuple[str, ...]] = []

    def __call__(self, argv) -> Result:
        self.calls.append(tuple(argv))
        return self.answers.get(tuple(argv), Result(1, "", "no"))


def avahi(name: str, state: int = 2) -> FakeRunner:
    return FakeRunner({AVAHI_STATE: Result(0, f"i {state}\n"),
                       AVAHI_FQDN: Result(0, f's "{name}"\n')})


def test_the_name_is_asked_of_avahi_itself():
    runner = avahi("companion-2.local")
    assert netname.mdns_name([LAN], runner) == "companion-2.local"
    server = ("busctl", "--system", "call", "org.freedesktop.Avahi", "/",
              "org.freedesktop.Avahi.Server")
    assert runner.calls == [(*server, "GetState"), (*server, "GetHostNameFqdn")]


def test_a_name_avahi_is_still_probing_for_is_not_trusted():
    """Just after boot avahi says the name it wants, which may be the other Pi's."""
    for state in (1, 3):  # (registering, collision)
        assert netname.mdns_name([LAN], avahi("companion.local", state)) is None


def test_without_busctl_the_address_is_resolved_by_avahi():
    resolved = Result(0, f"{LAN}\tcompanion.local\n")
    runner = FakeRunner({("avahi-resolve", "--address", LAN): resolved})
    assert netname.mdns_name([LAN, "10.0.0.5"], runner) == "companion.local"
    assert runner.calls[-1] == ("avahi-resolve", "--address", LAN)


def test_no_avahi_is_no_name():
    runner = FakeRunner({})
    assert netname.mdns_name([LAN], runner) is None
    odd = FakeRunner({AVAHI_STATE: Result(0, "i 2"), AVAHI_FQDN: Result(0, 's "odd"\n')})
    assert netname.mdns_name([], odd) is None


def test_a_missing_program_is_exit_127_not_an_exception():
    res = netname.run_command(["no-such-program-here", "x"])
    assert res.code == 127 and not res.ok


def test_the_phones_url_carries_the_published_name(monkeypatch):
    monkeypatch.setattr(serve, "lan_addresses", lambda: [LAN])
    lan = Config(host="0.0.0.0", port=8000)
    assert serve.public_url(lan, mdns=lambda addrs: "companion.local") == \
        "http://companion.local:8000"
    assert serve.public_url(lan, mdns=lambda addrs: None) == f"http://{LAN}:8000"
    set_by_hand = Config(host="0.0.0.0", public_url="http://10.0.0.1:8000/")
    assert serve.public_url(set_by_hand, mdns=lambda addrs: "x.local") == "http://10.0.0.1:8000"


def test_doctor_reports_the_name_avahi_publishes_after_a_conflict():
    cfg = Config(host="0.0.0.0", port=8000, hostname="companion")
    said = doctor._check_phones(cfg, avahi("companion-2.local"), addresses=[LAN])
    assert said["will_use"] == "http://companion-2.local:8000" and not said["fallback"]
    assert said["or"] == f"http://{LAN}:8000"
    assert "another machine on this network has that name" in said["note"]
    plain = doctor._check_phones(cfg, avahi("companion.local"), addresses=[LAN])
    assert plain["will_use"] == "http://companion.local:8000" and "note" not in plain


def test_doctor_says_when_there_is_no_local_name():
    cfg = Config(host="0.0.0.0", port=8000)
    said = doctor._check_phones(cfg, FakeRunner({}), addresses=[LAN])
    assert said["will_use"] == f"http://{LAN}:8000" and said["fallback"]
    assert "avahi-daemon is not running" in said["why"]
    local = doctor._check_phones(Config(host="127.0.0.1"), FakeRunner({}), addresses=[LAN])
    assert local["will_use"] == "http://127.0.0.1:8000  (this computer only)"


def test_doctor_prints_the_phones_address(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(netname, "run_command", avahi("companion.local"))
    monkeypatch.setattr(serve, "lan_addresses", lambda: [LAN])
    for key, value in {"CONFIG": str(tmp_path / "none.toml"), "DATA_DIR": str(tmp_path),
                       "CAMERA": "off", "HOST": "0.0.0.0"}.items():
        monkeypatch.setenv(f"COMPANION_{key}", value)
    assert doctor.run_doctor(SimpleNamespace(config=None, json=False)) == 0
    said = capsys.readouterr().out
    assert "phones   : http://companion.local:8000  [ok]" in said
    assert f"or: http://{LAN}:8000" in said


@pytest.mark.parametrize("name", ["my pi", "-pi", "pi-", "pi.local", "x" * 64, "café"])
def test_a_hostname_avahi_cannot_publish_is_refused(name):
    with pytest.raises(ConfigError, match=r"hostname = .* \(expected one name of letters"):
        load_config(env={"COMPANION_CONFIG": "/nonexistent", "COMPANION_HOSTNAME": name})


def test_good_hostnames_load():
    for name in ("companion", "companion2", "Table-3", ""):
        cfg = load_config(env={"COMPANION_CONFIG": "/nonexistent", "COMPANION_HOSTNAME": name})
        assert cfg.hostname == name


# ---- the installer's Network name step ------------------------------------------------------

def _set_hostname(tmp_path: Path, name: str, hosts: str) -> tuple[str, str]:
    """install.sh's set_hostname run on copies of /etc/hostname and /etc/hosts."""
    text = (REPO / "deploy" / "install.sh").read_text()
    func = text[text.index("set_hostname() {"):]
    func = func[:func.index("\n}\n") + 3]
    etc = tmp_path / "etc"
    etc.mkdir()
    (etc / "hostname").write_text("raspberrypi\n")
    (etc / "hosts").write_text(hosts)
    func = func.replace("/etc/", f"{etc}/")
    subprocess.run(["bash", "-c", f"has_systemd() {{ return 1; }}\n{func}\nset_hostname \"$1\"",
                    "x", name], check=True)
    return (etc / "hostname").read_text(), (etc / "hosts").read_text()


def test_the_installer_names_the_pi_and_its_hosts_line(tmp_path):
    hosts = "127.0.0.1\tlocalhost\n::1\tlocalhost\n127.0.1.1\traspberrypi\n"
    hostname, new_hosts = _set_hostname(tmp_path, "companion", hosts)
    assert hostname == "companion\n"
    assert new_hosts == "127.0.0.1\tlocalhost\n::1\tlocalhost\n127.0.1.1\tcompanion\n"


def test_the_installer_adds_a_hosts_line_where_there_is_none(tmp_path):
    _, new_hosts = _set_hostname(tmp_path, "companion2", "127.0.0.1\tlocalhost\n")
    assert new_hosts.endswith("127.0.1.1\tcompanion2\n")


def _dry_run(model: str) -> str:
    env = {"COMPANION_INSTALL_MODEL": model, "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"}
    return subprocess.run(["bash", str(REPO / "deploy" / "install.sh"), "--dry-run"],
                          capture_output=True, text=True, env=env, timeout=60,
                          check=True).stdout


def test_the_installer_renames_only_a_pi():
    pi = _dry_run("Raspberry Pi 4 Model B Rev 1.4")
    assert "==> [6] Network name" in pi and "would run: set_hostname NAME" in pi
    plain = _dry_run("Generic x86-64 PC")
    assert "not a Raspberry Pi: this machine keeps its name" in plain
    assert "set_hostname" not in plain


def test_the_example_names_the_pi_companion():
    cfg = load_config(path=REPO / "deploy" / "companion.example.toml", env={})
    assert cfg.hostname == "companion"
