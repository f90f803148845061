"""Defects found by replaying independent rules scenarios through the HTTP API (issue 36):
each test here failed on the code before its fix."""

from __future__ import annotations

from companion.games.base import Actor
from tests.conftest import join
from tests.games.versus.referee import Referee

PIN = {"X-Host-Pin": "2468"}
PHONE = Actor(seat=2, source="server")  # a phone's on-screen button, stamped by the server


def test_the_host_hides_the_phones_slap_buttons():
    """docs/wiring.md: "with buttons wired, the host may hide the phones' slap buttons" (no
    such control existed). Off, a phone's press is refused; the wired buttons still slap."""
    r = Referee()
    assert r.state["phone_buttons"] is True
    assert r.fails({"type": "phone_buttons", "on": False}, Actor(seat=0)) == "host_only"
    r.do({"type": "phone_buttons", "on": False})
    assert r.events == [{"type": "phone_buttons", "on": False}]
    from companion.games.versus import GAME

    assert GAME.public_view(r.state)["phone_buttons"] is False
    assert r.fails({"type": "slap", "seat": 2}, PHONE) == "phone_buttons_off"
    assert r.fails({"type": "slap", "seat": 2}, Actor(seat=2)) == "phone_buttons_off"
    r.slap((2, 1000))  # the table's button
    assert r.verdict()["wrong"] == [2]
    assert r.fails({"type": "phone_buttons", "on": "no"}) == "bad_value"
    r.do({"type": "phone_buttons", "on": True})
    r.do({"type": "slap", "seat": 1}, Actor(seat=1, source="server"))


def test_the_phones_slap_endpoint_says_the_buttons_are_off(client):
    res = client.post("/api/tables", json={"game": "versus", "players": ["Ana", "Bruno", "Chen"],
                                           "pin": "2468"})
    tid = res.json["table"]["id"]
    chen = join(client, tid, 2)
    res = client.post(f"/api/tables/{tid}/actions",
                      json={"action": {"type": "phone_buttons", "on": False}}, headers=PIN)
    assert res.status_code == 200, res.json
    assert client.get(f"/api/tables/{tid}").json["public"]["phone_buttons"] is False
    res = client.post(f"/api/tables/{tid}/slap", json={}, headers=chen)
    assert res.json["error"]["code"] == "phone_buttons_off"
    assert client.get(f"/api/tables/{tid}").json["public"]["races"] == []


def _wrong_then_right(**options) -> Referee:
    """Chen slaps at nothing; Dara's star then makes a pair with Ana's; Bruno slaps right,
    30 ms after Chen, inside the same slap (late_ms)."""
    r = Referee(**options)
    r.flip(0, "star", 1000)
    r.flip(1, "moon", 1010)
    r.slap((2, 1100))
    r.flip(3, "star", 1120)
    r.slap((1, 1130))
    return r


def test_a_right_slap_after_a_wrong_one_wins_by_default():
    """V2: "the first player to slap correctly" wins: a wrong slap before it does not stop
    it (the sheet's words; the default). The wrong slapper draws his Penalty (V3)."""
    r = _wrong_then_right()
    assert r.state["options"]["right_after_wrong"] == "wins"
    race = r.race
    assert (race["winner"], race["wrong"]) == (1, [2])
    assert r.seat(1)["gems"] == 1 and r.seat(2)["penalty"] is not None


def test_the_first_hand_on_the_gems_option_voids_a_right_slap_after_a_wrong_one():
    """The sheet is silent on whether the first hand on the Gems, a wrong one, ends that
    slap; option: then the right slap under it wins nothing (the pair stays for the next)."""
    r = _wrong_then_right(right_after_wrong="void")
    race = r.race
    assert (race["winner"], race["wrong"], race["resolution"]) == (None, [2], "wrong")
    assert r.events[-1]["type"] == "race_updated"  # (the verdict stands: no "verdict changed")
    assert [o["status"] for o in race["order"]] == ["wrong", "late"]
    assert r.seat(1)["gems"] == 0 and r.state["gem_deck"] == 18
    assert r.seat(2)["penalty"] is not None
    r.slap((0, 1800))  # the next slap, past late_ms: the pair is still there
    assert r.race["winner"] == 0
