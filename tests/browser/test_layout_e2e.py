"""Every page fits a small phone: nothing wider than the screen at 320 and 360 px, in each
language. (At 360 px the header's brand and language picker made every page 380 px wide,
so Werewolf's fixed hold pad was cut off at the right and its buttons pushed past the edge;
the phone tests ran at 390 px, where it fitted.)"""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.parametrize("locale", ["en-US", "pt-BR", "zh-CN"])
def test_every_page_fits_a_small_phone(server_factory, browser, locale):
    server = server_factory()
    _, created = server.request("POST", "/api/tables", {
        "game": "werewolf", "players": [f"P{i}" for i in range(8)], "pin": "2468"})
    for width in (320, 360):
        ctx = browser.new_context(locale=locale, viewport={"width": width, "height": 740},
                                  device_scale_factor=2, is_mobile=True, has_touch=True)
        page = ctx.new_page()
        try:
            for path in ("/", "/new", created["url"] + "?join=1", "/camera"):
                page.goto(server.url + path)
                wide = page.evaluate("document.scrollingElement.scrollWidth")
                assert wide <= width, (locale, width, path, wide)
        finally:
            ctx.close()
