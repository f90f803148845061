"""Every page fits a small phone: nothing wider than the screen at 320, 360 and 412 px, in
each language. (At 360 px the header's brand and language picker made every page 380 px wide,
so Werewolf's fixed hold pad was cut off at the right and its buttons pushed past the edge;
the phone tests ran at 390 px, where it fitted.)"""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.parametrize("locale", ["en-US", "pt-BR", "zh-CN"])
def test_every_page_fits_a_small_phone(server_factory, browser, locale):
    server = server_factory(camera="replay")
    _, created = server.request("POST", "/api/tables", {
        "game": "werewolf", "players": [f"P{i}" for i in range(8)], "pin": "2468"})
    # the camera's table, with a zone named as long as a name may be, in one word
    _, uno = server.request("POST", "/api/tables", {
        "game": "uno", "players": ["Ana", "Bruno"], "pin": "2468"})
    status, _ = server.request("PUT", f"/api/tables/{uno['table']['id']}/zones", {"zones": [
        {"name": "discard", "rect": [0.1, 0.1, 0.5, 0.5]},
        {"name": "x" * 40, "rect": [0.5, 0.5, 0.9, 0.9]}]}, headers={"X-Host-Pin": "2468"})
    assert status == 200
    for width in (320, 360, 412):
        ctx = browser.new_context(locale=locale, viewport={"width": width, "height": 740},
                                  device_scale_factor=2, is_mobile=True, has_touch=True)
        page = ctx.new_page()
        # (the host's PIN, asked for by the camera page: answered from the start, as the page
        # may ask while it opens, where the camera already watches the table; a dialog with
        # no handler yet is dismissed, and the zones never came: a flaky CI run)
        page.on("dialog", lambda d: d.accept("2468"))
        try:
            # (and issue 37's new pages: UNO's rules opened on the form, a wrong code's
            # page with its form, the offline page, the camera page asking the PIN on it)
            for path in ("/", "/new", created["url"] + "?join=1", "/camera",
                         f"/camera/markers?table={uno['table']['id']}", "/join/ZZZZ",
                         "/offline", "/new#uno"):
                page.goto(server.url + path)
                if path == "/camera":
                    page.select_option("#cam-table", uno["table"]["id"])
                    page.locator("#zone-list li").nth(1).wait_for()
                if path == "/new#uno":
                    page.select_option("#game", "uno")
                    page.locator("#rules summary").click()
                    page.locator("[data-option=jump_in]").wait_for()
                wide = page.evaluate("document.scrollingElement.scrollWidth")
                assert wide <= width, (locale, width, path, wide)
                # the language picker shows its whole name ("Português (B" was cut off)
                short = page.evaluate("""() => { const s = document.getElementById('lang');
                    const cs = getComputedStyle(s), c = document.createElement('canvas')
                        .getContext('2d');
                    c.font = cs.font;
                    return s.clientWidth - parseFloat(cs.paddingLeft)
                        - parseFloat(cs.paddingRight) - 16
                        - c.measureText(s.options[s.selectedIndex].text).width; }""")
                assert short >= 0, (locale, width, path, short)
                # and the brand beside it is not cut ("Companion" lost its last letter)
                brand = page.evaluate("""() => { const b = document.querySelector('.brand');
                    return b.scrollWidth - b.clientWidth; }""")
                assert brand <= 0, (locale, width, path, brand)
        finally:
            ctx.close()


def test_a_long_name_of_one_word_fits_every_game(server_factory, browser):
    """A player named with 24 letters and no space (as long as a name may be): every table
    page was 450-620 px wide at 360, the seat cards, the slap button and the counts off the
    screen. Names now break anywhere."""
    server = server_factory()
    long = "W" * 24
    pages, tables = [], []
    for game, n in (("versus", 3), ("uno", 3), ("scorepad", 2), ("quiz", 2), ("werewolf", 8)):
        _, created = server.request("POST", "/api/tables", {
            "game": game, "players": [long] + [f"Maximiliano{i}" for i in range(n - 1)],
            "pin": "2468"})
        pages += [created["url"], created["url"] + "?join=1"]
        tables.append(created)
    for width in (320, 360):
        ctx = browser.new_context(viewport={"width": width, "height": 740},
                                  device_scale_factor=2, is_mobile=True, has_touch=True)
        page = ctx.new_page()
        try:
            for path in pages:
                page.goto(server.url + path)
                page.locator("#seats button").first.wait_for()
                wide = page.evaluate("document.scrollingElement.scrollWidth")
                assert wide <= width, (width, path, wide)
            # the host's page too, whose bar names every player on a button ("Act for")
            for created in tables:
                page.goto(server.url + "/")
                page.evaluate(f"localStorage.setItem('tc.pin.{created['table']['id']}', "
                              "JSON.stringify('2468'))")
                page.goto(server.url + created["url"])
                page.locator("#just-watch").click()
                page.locator("#host-panel summary", has_text="Host").click()
                page.locator("#host-tools").wait_for()
                wide = page.evaluate("document.scrollingElement.scrollWidth")
                assert wide <= width, (width, "host", created["table"]["game"], wide)
        finally:
            ctx.close()


@pytest.mark.parametrize("width", [320, 360])
def test_the_host_panel_s_unlock_button_holds_its_word(server_factory, phone, width):
    """In Portuguese "Desbloquear" spilled out of its button beside the PIN box; the
    UNO players' "dá as cartas" tag split in two."""
    server = server_factory()
    _, created = server.request("POST", "/api/tables", {
        "game": "uno", "players": ["Guilherme", "Fernanda"], "pin": "2468",
        "options": {"first_dealer": "first_seat"}})
    page = phone("pt-BR", width=width)
    page.goto(server.url + created["url"])
    page.locator("#just-watch").click()
    page.locator("#host-panel summary").first.click()
    button = page.locator("#host-login .btn")
    button.wait_for()
    assert button.evaluate("b => b.scrollWidth <= b.clientWidth"), button.inner_text()
    page.locator(".uno-players .tag").first.wait_for()
    # (read in one go: a live update may draw the players again between finding and reading)
    assert page.evaluate("""() => { const t = document.querySelector('.uno-players .tag');
        return [t.textContent, t.getClientRects().length]; }""") == ["dá as cartas", 1]


@pytest.mark.parametrize("locale", ["en-US", "pt-BR", "zh-CN"])
def test_the_players_pages_fit_a_small_phone(server_factory, browser, locale):
    """The leaderboard, a player's page (its colours, its games, Kingsburg's and UNO's scores,
    Werewolf's cards), the import form opened, and a table's seats with their colours: at
    320, 360 and 412 px, with a name as long as a name may be, in one word."""
    server = server_factory()
    long = "W" * 24
    pin = {"X-Host-Pin": "2468"}

    def table(game, players, actions, options=None):
        _, res = server.request("POST", "/api/tables", {"game": game, "players": players,
                                                        "pin": "2468", "options": options or {}})
        for action in actions:
            status, out = server.request("POST", f"/api/tables/{res['table']['id']}/actions",
                                         {"action": action}, pin)
            assert status == 200, out
        return res

    table("kingsburg", [long, "Bruno"], [{"type": "end_game"}])
    table("uno", [long, "Bruno"], [{"type": "end_match"}])
    table("werewolf", [long] + [f"Maximiliano{i}" for i in range(7)], [
        {"type": "set_roles", "roles": {"werewolf": 2, "seer": 1, "villager": 5}},
        {"type": "assign", "roles": ["werewolf", "werewolf", "seer"] + ["villager"] * 5},
        {"type": "start", "empty_seats": True}, {"type": "end_game"}], {"deal": "host"})
    seats = table("scorepad", [long, "Bruno", "Chen"], [])
    for key, colour in ((long.lower(), "teal"), ("bruno", "yellow")):
        assert server.request("PUT", f"/api/players/{key}/colour", {"colour": colour})[0] == 200
    for width in (320, 360, 412):
        ctx = browser.new_context(locale=locale, viewport={"width": width, "height": 740},
                                  device_scale_factor=2, is_mobile=True, has_touch=True)
        page = ctx.new_page()
        try:
            for path in ("/players", f"/players/{long.lower()}", seats["url"] + "?join=1"):
                page.goto(server.url + path)
                if path == "/players":
                    page.locator("#players-import summary").click()
                    page.locator("#import-form input[name=pin]").wait_for()
                if "join" in path:
                    page.locator('#seats [data-seat="0"] .pdot').wait_for()
                wide = page.evaluate("document.scrollingElement.scrollWidth")
                assert wide <= width, (locale, width, path, wide)
        finally:
            ctx.close()
