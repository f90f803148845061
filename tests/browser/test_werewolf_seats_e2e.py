"""Werewolf's seats after the deal, in Chromium (issue 36): the host's Start asks before it
deals cards to a seat no phone holds, and such a seat then goes to a phone only with the
host's PIN (any phone on the network had taken it and read its card)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import open_as_host
from tests.browser.test_werewolf_e2e import hold

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NAMES = ["Ana", "Bruno", "Carla", "Davi", "Eva", "Fabio", "Gil", "Hugo"]


def test_a_seat_empty_at_the_deal_needs_the_hosts_pin(server_factory, phone):
    server = server_factory()
    status, res = server.request("POST", "/api/tables", {
        "game": "werewolf", "players": NAMES, "pin": "2468"})
    assert status == 201, res
    tid, url = res["table"]["id"], server.url + res["url"]
    host = phone("en-US")
    open_as_host(host, url, tid)
    asked: list[str] = []
    host.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    host.locator("#ww-start").click()
    expect(host.locator("#toast")).to_contain_text("Nobody has joined as Ana")
    assert "Deal anyway?" in asked[0]
    _, view = server.request("GET", f"/api/tables/{tid}")
    assert view["public"]["phase"] == "setup"  # (dismissed: nothing dealt)
    host.once("dialog", lambda d: d.accept())
    host.locator("#ww-start").click()
    expect(host.locator("#ww-phase")).to_have_text("Before the first night")

    stranger = phone("en-US")
    stranger.goto(url + "?join=1")
    # (the PIN is asked once the table has refused the seat: "Watching" is also what the
    # page says before, so the dialog itself is waited for. It is dismissed by a handler as
    # it opens: a dialog still open holds the click that opened it, which then never returns)
    asked.clear()
    stranger.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    with stranger.expect_event("dialog"):
        stranger.locator('#seats button[data-seat="7"]').click()
    assert "only the host's PIN" in asked[0]
    expect(stranger.locator("#whoami")).to_have_text("Watching")
    hugo = phone("en-US")
    hugo.goto(url + "?join=1")
    hugo.once("dialog", lambda d: d.accept("2468"))
    hugo.locator('#seats button[data-seat="7"]').click()
    expect(hugo.locator("#whoami")).to_have_text("You are Hugo")


def test_a_host_who_plays_sees_their_own_card_not_everyone_s(server_factory, phone):
    """A host who plays (the table's host_seat) with the PIN alone was shown the moderator
    view: every card. The page now holds that seat's view only."""
    server = server_factory()
    status, res = server.request("POST", "/api/tables", {
        "game": "werewolf", "players": NAMES, "pin": "2468", "options": {"host_seat": 2}})
    assert status == 201, res
    tid, url = res["table"]["id"], server.url + res["url"]
    host = phone("en-US")
    open_as_host(host, url, tid)
    host.once("dialog", lambda d: d.accept())
    host.locator("#ww-start").click()
    expect(host.locator("#ww-phase")).to_have_text("Before the first night")
    _, view = server.request("GET", f"/api/tables/{tid}", None, {"X-Host-Pin": "2468"})
    mine = view["you"]["view"]["you"]["role"]
    assert "host" not in view
    hold(host)  # (the hold-to-peek card: the host's own)
    expect(host.locator(".ww-card")).to_have_attribute("data-role", mine)
    shown = host.locator(".ww-role[data-seat]:not([data-public])").evaluate_all(
        "els => els.map(e => e.dataset.seat)")
    # (the seat's own card, and what that card knows: a werewolf's pack)
    known = {str(k["seat"]) for k in view["you"]["view"]["you"].get("known", [])}
    assert set(shown) <= {"2"} | known, shown
    assert host.js_errors == []
