"""A match resumed from paper (issue 36): the host types the totals so far in UNO's
corrections, and every phone's score table starts from them (round 0), in real Chromium."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import open_as_host

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_the_host_sets_the_totals_carried_over(server_factory, phone):
    server = server_factory()
    status, res = server.request("POST", "/api/tables", {
        "game": "uno", "players": ["Ana", "Bruno", "Chen"], "pin": "2468"})
    assert status == 201, res
    url, table_id = server.url + res["url"], res["table"]["id"]
    host = phone("en-US")
    open_as_host(host, url, table_id)
    host.locator("#uno-fix summary").click()
    for i, total in enumerate(("120", "45", "300")):
        host.locator(f"#uno-carry-{i}").fill(total)
    host.locator("#uno-carry-save").click()
    watcher = phone("pt-BR")
    watcher.goto(url)
    watcher.get_by_text("Só assistir").click()
    for page in (host, watcher):
        expect(page.locator('#uno-rounds [data-total="2"]')).to_have_text("300")
        expect(page.locator("#uno-rounds tr.carried td").first).to_have_text("0")
    _, view = server.request("GET", f"/api/tables/{table_id}")
    assert view["public"]["totals"] == [120, 45, 300]
