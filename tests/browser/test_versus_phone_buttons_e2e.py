"""The host hides the phones' slap buttons (docs/wiring.md: with buttons wired, a phone's
press, stamped on arrival, is not fair against them), and shows them again, in Chromium."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import open_as_host

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_the_host_hides_and_shows_the_phones_slap_buttons(server_factory, phone):
    server = server_factory()
    status, created = server.request("POST", "/api/tables", {
        "game": "versus", "players": ["Ana", "Bruno", "Chen"], "pin": "2468"})
    assert status == 201, created
    table_id, url = created["table"]["id"], server.url + created["url"]
    host = phone("en-US")
    open_as_host(host, url, table_id)
    ana = phone("en-US")
    ana.goto(url + "?join=1")
    ana.locator("#seats button", has_text="Ana").click()
    expect(ana.locator("#vs-slap")).to_be_visible()
    toggle = host.locator("#vs-phone-buttons")
    expect(toggle).to_have_text("Hide the phones' slap buttons (wired buttons only)")
    toggle.click()
    expect(ana.locator("#vs-slap")).to_be_hidden()
    expect(toggle).to_have_text("Show the phones' slap buttons")
    _, view = server.request("GET", f"/api/tables/{table_id}")
    assert view["public"]["phone_buttons"] is False
    toggle.click()
    expect(ana.locator("#vs-slap")).to_be_visible()
