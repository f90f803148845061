"""Werewolf's option starvation on a phone: a night without a victim, the werewolves die of
hunger, and the end's story says so in the phone's words ("Ana morreu (de fome)"): it showed
the cause's raw key, 'starved'. (The morning's line has its words too, "X starved to death in
the night.", though that dawn ends the game and the end screen comes instead.)"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_werewolf_e2e import NAMES, PIN, Table

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# (this change's words, for a catalog built before they were translated: the phone's own
# catalog wins wherever it has them)
WORDS = {"starved": "de fome",
         "{name} starved to death in the night.": "{name} morreu de fome durante a noite."}


def with_words(route) -> None:
    response = route.fetch()
    route.fulfill(response=response, json={**WORDS, **response.json()})


def a_starving_village(server) -> tuple[Table, str]:
    """A village of eight (Ana and Bruno the werewolves) with the option starvation, dealt
    by the host; the table and its page's address."""
    status, res = server.request("POST", "/api/tables", {
        "game": "werewolf", "players": NAMES, "pin": PIN,
        "options": {"deal": "host", "starvation": True, "announce_causes": True}})
    assert status == 201, res
    table = Table(server, res["table"]["id"])
    table.act({"type": "set_roles", "roles": {"werewolf": 2, "seer": 1, "villager": 5}})
    table.act({"type": "assign", "roles": ["werewolf", "werewolf", "seer"] + ["villager"] * 5})
    table.act({"type": "start", "empty_seats": True})
    return table, server.url + res["url"]


def starve(table: Table) -> None:
    """The night passes with no victim: every step ended by the host, to the end."""
    while table.host()["state"]["phase"] != "over":
        step = table.host()["state"]["step"]
        table.act({"type": "skip", **({"step": step["id"]} if step else {})})


def test_the_starved_werewolves_are_told_in_words(server_factory, phone):
    table, url = a_starving_village(server_factory())
    watcher = phone("pt-BR", width=320)
    watcher.route("**/api/i18n/*", with_words)
    watcher.goto(url)
    watcher.locator("#just-watch").click()
    starve(table)
    # the end's story says the cause in the phone's words, not the raw "starved"
    expect(watcher.locator("#ww-story")).to_contain_text("Ana morreu (de fome); carta: lobisomem.")
    expect(watcher.locator("#ww-story")).not_to_contain_text("starved")
    assert watcher.js_errors == []
