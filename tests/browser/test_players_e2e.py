"""Players who last, on real phones (Chromium): a player's colour chosen on one phone,
remembered by it and shown to the others; a players file exported from one companion and
imported into a fresh one."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser
PIN = {"X-Host-Pin": "2468"}
SAID = re.compile(r"^show\s*$")  # (a toast shown, not an error)


def _finished(server, game, players, actions):
    _, res = server.request("POST", "/api/tables", {"game": game, "players": players,
                                                    "pin": "2468"})
    for action in actions:
        status, out = server.request("POST", f"/api/tables/{res['table']['id']}/actions",
                                     {"action": action}, PIN)
        assert status == 200, out
    return res["table"]["id"]


def test_a_colour_chosen_on_one_phone_is_remembered_and_shown_to_the_others(
        server_factory, phone):
    server = server_factory()
    table = _finished(server, "scorepad", ["Ana", "Bruno"],
                      [{"type": "add_round", "scores": [9, 3]}, {"type": "end_game"}])
    mine = phone("pt-BR", width=360)
    mine.goto(server.url + "/players")
    mine.locator('#leaderboard a[data-player="ana"]').click()
    # (the page's script listens once the phone's words have come)
    expect(mine.locator("html[data-players-ready]")).to_have_count(1)
    mine.locator('#colour-pick [data-colour="teal"]').click()
    expect(mine.locator("#toast")).to_have_class(SAID)
    mine.reload()
    expect(mine.locator('#colour-pick [data-colour="teal"]')).to_have_attribute(
        "aria-pressed", "true")
    expect(mine.locator("#player-dot")).to_have_class("pdot pc-teal")
    assert mine.evaluate("JSON.parse(localStorage.getItem('tc.colours'))") == {"ana": "teal"}

    # another phone sees it beside the name: the leaderboard, the table's seats, "You are"
    other = phone("zh-CN", width=320)
    other.goto(server.url + "/players")
    expect(other.locator('#leaderboard a[data-player="ana"] .pdot')).to_have_class(
        "pdot pc-teal")
    expect(other.locator('#leaderboard a[data-player="bruno"] .pdot')).to_have_class("pdot")
    other.goto(server.url + f"/t/{table}?join=1")
    expect(other.locator('#seats [data-seat="0"] .pdot')).to_have_class("pdot pc-teal")
    expect(other.locator('#seats [data-seat="1"] .pdot')).to_have_count(0)
    other.locator('#seats [data-seat="0"]').click()
    expect(other.locator("#whoami .pdot")).to_have_class("pdot pc-teal")

    # the phone brings its colour back where the companion lost it (an older backup
    # restored)
    assert server.request("PUT", "/api/players/ana/colour", {"colour": None})[0] == 200
    mine.goto(server.url + "/players/ana")
    expect(mine.locator('#colour-pick [data-colour="teal"]')).to_have_attribute(
        "aria-pressed", "true")
    _, colours = server.request("GET", "/api/players/colours")
    assert colours["colours"] == {"ana": "teal"}
    for page in (mine, other):
        assert page.evaluate("document.scrollingElement.scrollWidth") <= \
            page.viewport_size["width"]
        assert page.js_errors == []


def test_a_players_file_exported_from_one_companion_is_imported_into_a_fresh_one(
        server_factory, phone, tmp_path):
    old = server_factory(tmp_path / "old")
    _finished(old, "scorepad", ["Ana", "Bruno"],
              [{"type": "add_round", "scores": [9, 3]}, {"type": "end_game"}])
    _finished(old, "uno", ["Chen", "Ana"], [{"type": "end_match"}])
    assert old.request("PUT", "/api/players/chen/colour", {"colour": "purple"})[0] == 200
    _, exported = old.request("GET", "/api/players")
    file = tmp_path / "players.json"
    file.write_text(json.dumps(exported, ensure_ascii=False))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"players": [{"name": "Dara", "colour": "chartreuse"}]}))

    new = server_factory(tmp_path / "new")
    page = phone("pt-BR", width=360)
    page.goto(new.url + "/players")
    expect(page.locator("html[data-players-ready]")).to_have_count(1)
    expect(page.locator("#leaderboard")).to_have_count(0)
    page.locator("#players-import summary").click()
    page.locator("#import-form input[type=file]").set_input_files(str(bad))
    page.locator("#import-form button").click()
    # (the server's words, in the phone's language)
    _, refused = new.request("POST", "/api/players/import", json.loads(bad.read_text()),
                             {"Accept-Language": "pt-BR"})
    assert refused["error"]["code"] == "bad_player_entry"
    expect(page.locator("#toast")).to_have_text(refused["error"]["message"])
    expect(page.locator("#toast")).to_have_class(re.compile(r"show error"))
    page.locator("#import-form input[type=file]").set_input_files(str(file))
    page.locator("#import-form button").click()
    expect(page.locator("#toast")).to_have_class(SAID)
    expect(page.locator("#toast")).to_contain_text("3")
    expect(page.locator("#leaderboard li")).to_have_count(3)
    expect(page.locator('#leaderboard a[data-player="chen"] .pdot')).to_have_class(
        "pdot pc-purple")
    _, now = new.request("GET", "/api/players")
    assert {p["key"]: (p["played"], p["won"]) for p in now["players"]} == {
        "ana": (0, 0), "bruno": (0, 0), "chen": (0, 0)}  # (results stay where they were)

    # once a table is played here, the import asks its host's PIN
    _finished(new, "scorepad", ["Eli"], [])
    page.reload()
    page.locator("#players-import summary").click()
    page.locator("#import-form input[type=file]").set_input_files(str(file))
    page.fill("#import-form input[name=pin]", "1111")
    page.locator("#import-form button").click()
    expect(page.locator("#toast")).to_have_class(re.compile(r"show error"))
    page.fill("#import-form input[name=pin]", "2468")
    page.locator("#import-form button").click()
    expect(page.locator("#toast")).to_have_class(SAID)
    expect(page.locator("#toast")).to_contain_text("3")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 360
    assert page.js_errors == []
