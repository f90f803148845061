"""The companion's own pages on a phone (issue 37's smaller items): a wrong table code, the
join form's placeholder."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PLACEHOLDER_FITS = """() => { const i = document.getElementById('code');
  const st = getComputedStyle(i, '::placeholder');
  const c = document.createElement('canvas').getContext('2d');
  c.font = st.fontWeight + ' ' + st.fontSize + ' ' + st.fontFamily;
  const room = i.clientWidth - parseFloat(getComputedStyle(i).paddingLeft)
    - parseFloat(getComputedStyle(i).paddingRight);
  return [c.measureText(i.placeholder).width, room]; }"""


@pytest.mark.parametrize("locale", ["en-US", "pt-BR", "zh-CN"])
def test_a_wrong_code_says_so_in_words_and_offers_to_type_it_again(
        server_factory, phone, locale):
    """A wrong table code showed a bare "404" in large type."""
    server = server_factory()
    status, res = server.request("POST", "/api/tables", {
        "game": "scorepad", "players": ["Ana", "Bruno"], "pin": "2468"})
    assert status == 201, res
    page = phone(locale, width=360)
    page.goto(server.url + "/")
    page.fill("#code", "ZZZZ")
    page.locator(".join-code button").click()
    heading = page.locator("h1")
    expect(heading).not_to_have_text("404")
    assert "404" not in heading.text_content()
    assert len(heading.text_content().strip()) > 5
    # the code typed again, right, leads to the table
    page.fill("#code", res["table"]["code"].lower())
    page.locator(".join-code button").click()
    expect(page.locator("#seat-picker")).to_be_visible()
    assert page.js_errors == []


@pytest.mark.parametrize("width", [320, 360, 412])
@pytest.mark.parametrize("locale", ["en-US", "pt-BR", "zh-CN"])
def test_the_code_placeholder_is_whole(server_factory, phone, width, locale):
    """The Portuguese placeholder "Código, ex.: K7QM" was cut."""
    server = server_factory()
    page = phone(locale, width=width)
    page.goto(server.url + "/")
    text, room = page.evaluate(PLACEHOLDER_FITS)
    assert text <= room, (text, room)
