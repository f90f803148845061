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


WAKE_SPY = """(() => {
  window.__wake = [];
  Object.defineProperty(navigator, "wakeLock", { value: { request: async (kind) => {
    window.__wake.push(kind);
    return { addEventListener() {}, release: async () => null };
  } } });
})();"""


def test_the_app_installs_stays_awake_and_opens_offline(server_factory, phone):
    """The phone stays awake during a game (Screen Wake Lock); the app installs to the home
    screen (a web manifest and its icons) and opens with its last pages, or an offline page,
    when the companion cannot be reached."""
    import cv2
    import numpy as np

    server = server_factory()
    status, res = server.request("POST", "/api/tables", {
        "game": "scorepad", "players": ["Ana", "Bruno"], "pin": "2468"})
    assert status == 201, res
    page = phone(width=360)
    page.add_init_script(WAKE_SPY)
    page.goto(server.url + "/")
    # the manifest, and icons that are the sizes it says
    href = page.locator("link[rel=manifest]").get_attribute("href")
    got = page.request.get(server.url + href)
    assert got.ok and got.headers["content-type"].startswith("application/manifest+json")
    manifest = got.json()
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    pngs = [i for i in manifest["icons"] if i["type"] == "image/png"]
    assert {i["sizes"] for i in pngs} == {"192x192", "512x512"}
    for icon in pngs:
        body = page.request.get(server.url + icon["src"]).body()
        image = cv2.imdecode(np.frombuffer(body, np.uint8), cv2.IMREAD_COLOR)
        assert f"{image.shape[1]}x{image.shape[0]}" == icon["sizes"]
    # a table's page keeps the screen on
    page.goto(server.url + res["url"] + "?join=1")
    page.locator('#seats button[data-seat="0"]').click()
    page.wait_for_function("() => window.__wake.includes('screen')")
    # the offline shell: once installed, a page opened before comes from it, and a page
    # never opened is the offline page, which comes back by itself
    page.goto(server.url + "/")
    page.evaluate("() => navigator.serviceWorker.ready.then(() => null)")
    page.reload()  # (the shell now answers for the page)
    page.wait_for_function("() => !!navigator.serviceWorker.controller")
    page.context.set_offline(True)
    page.goto(server.url + "/")
    expect(page.locator("h1")).to_have_text("Tables")
    page.goto(server.url + "/new")
    expect(page.locator("#offline")).to_be_visible()
    page.context.set_offline(False)
    page.wait_for_url(server.url + "/new")
    expect(page.locator("#new-table")).to_be_visible(timeout=10000)
    assert page.js_errors == []


def test_the_host_tidies_the_tables_and_today_s_come_first(server_factory, phone):
    """Tables you can tidy: rename, archive, delete (with the host's PIN); the home page lists
    the tables played today first, the latest first, the archived ones apart."""
    server = server_factory()
    made = {}
    for title in ("Kitchen", "Garden", "Attic"):
        status, res = server.request("POST", "/api/tables", {
            "game": "scorepad", "players": ["Ana", "Bruno"], "pin": "2468", "title": title})
        assert status == 201, res
        made[title] = res
    ids = {k: v["table"]["id"] for k, v in made.items()}
    # the oldest table is played now: it comes first
    status, _ = server.request("POST", f"/api/tables/{ids['Kitchen']}/actions",
                               {"action": {"type": "add_round", "scores": [1, 2]}},
                               {"X-Host-Pin": "2468"})
    assert status == 200
    home = phone(width=360)
    home.goto(server.url + "/")
    expect(home.locator("#tables-today strong")).to_have_text(["Kitchen", "Attic", "Garden"])

    # the host renames and archives the garden's table, from its page
    host = phone(width=360)
    host.goto(server.url + "/")
    host.evaluate(f"localStorage.setItem('tc.pin.{ids['Garden']}', JSON.stringify('2468'))")
    host.goto(server.url + made["Garden"]["url"])
    host.locator("#just-watch").click()
    host.locator("#host-panel summary", has_text="Host").click()
    host.fill("#rename-title", "Porch")
    host.locator("#rename button").click()
    expect(host.locator("#table h1")).to_have_text("Porch")
    host.locator("#archive").click()
    expect(host.locator("#archive")).to_have_attribute("data-archived", "true")
    home.reload()
    expect(home.locator("#tables-today strong")).to_have_text(["Kitchen", "Attic"])
    expect(home.locator("#archived-box summary")).to_contain_text("1")
    expect(home.locator("#tables-archived strong")).to_have_text(["Porch"])

    # deleting takes the PIN; a player's phone at the table is sent home
    status, _ = server.request("DELETE", f"/api/tables/{ids['Attic']}")
    assert status == 403
    player = phone(width=360)
    player.goto(server.url + made["Attic"]["url"] + "?join=1")
    player.locator('#seats button[data-seat="0"]').click()
    expect(player.locator("#live")).to_have_class("dot on")
    status, _ = server.request("DELETE", f"/api/tables/{ids['Attic']}", headers={
        "X-Host-Pin": "2468"})
    assert status == 200
    player.wait_for_url(server.url + "/")
    expect(player.locator("#tables-today strong")).to_have_text(["Kitchen"])
    assert server.request("GET", f"/api/tables/{ids['Attic']}")[0] == 404
    for page in (home, host, player):
        assert page.js_errors == []


def test_the_result_is_a_picture_to_share(server_factory, phone):
    """A result worth sharing: once the game is over, the phone makes a picture of it (the
    title, the winner, each score) to share, or saves it where it has no share sheet."""
    import cv2
    import numpy as np

    server = server_factory()
    status, res = server.request("POST", "/api/tables", {
        "game": "scorepad", "players": ["Ana", "Bruno"], "pin": "2468", "title": "Friday"})
    assert status == 201, res
    tid = res["table"]["id"]
    page = phone("pt-BR", width=360)
    page.goto(server.url + res["url"] + "?join=1")
    page.locator('#seats button[data-seat="0"]').click()
    expect(page.locator("#result-share")).to_be_hidden()  # (not before the end)
    for action in ({"type": "add_round", "scores": [12, 7]}, {"type": "end_game"}):
        status, out = server.request("POST", f"/api/tables/{tid}/actions", {"action": action},
                                     {"X-Host-Pin": "2468"})
        assert status == 200, out
    expect(page.locator("#result-share")).to_be_visible()
    with page.expect_download() as got:
        page.locator("#share-result").click()
    image = cv2.imread(str(got.value.path()))
    # (portrait: the scores, then the chart of the totals)
    assert image.shape[:2] == (1350, 1080)
    # the winner's line in the lead's yellow (#ffd43b), on the dark ground
    yellow = np.all(np.abs(image.astype(int) - [0x3b, 0xd4, 0xff]) < 30, axis=2)
    assert yellow.sum() > 2000
    # the chart below the scores: each player's line in the page chart's colour for them
    chart = image[560:1230].astype(int)
    for colour in page.evaluate("[TC.chartColour(0), TC.chartColour(1)]"):
        bgr = [int(colour[5:7], 16), int(colour[3:5], 16), int(colour[1:3], 16)]
        assert np.all(np.abs(chart - bgr) < 30, axis=2).sum() > 3000, colour
    assert page.js_errors == []


def test_a_werewolf_result_tells_the_story(server_factory, phone):
    """The Werewolf result's picture carries the story of the game (the issue named it), the
    sentences the end screen shows, night by night, in the phone's language."""
    import cv2
    import numpy as np

    from tests.browser.test_werewolf_starved_e2e import a_starving_village, starve

    table, url = a_starving_village(server_factory())
    page = phone("zh-CN", width=360)
    page.goto(url)
    page.locator("#just-watch").click()
    starve(table)
    expect(page.locator("#result-share")).to_be_visible()
    expect(page.locator("#ww-story li").first).to_be_visible()
    told = page.evaluate("TC.games.werewolf.share().lines")
    sentences = page.locator("#ww-story li").all_inner_texts()
    nights = page.locator("#ww-story h3").all_inner_texts()
    assert [x["text"] for x in told if "text" in x] == sentences
    assert [x["head"] for x in told if "head" in x] == nights
    with page.expect_download() as got:
        page.locator("#share-result").click()
    image = cv2.imread(str(got.value.path())).astype(int)
    assert image.shape[:2] == (1350, 1080)
    story = image[900:1230]  # (below eight players' scores)
    blue = np.all(np.abs(story - [0xf7, 0xab, 0x4d]) < 30, axis=2).sum()  # a night's name
    light = np.all(np.abs(story - [0xef, 0xec, 0xe9]) < 40, axis=2).sum()  # its sentences
    assert blue > 100 and light > 2000, (blue, light)
    assert page.js_errors == []


def test_players_last_across_games_and_tables(server_factory, phone):
    """Players who last: the companion keeps each player's results across games and tables (a
    leaderboard, a page per player, one JSON file), and the phone offers the names it seated
    before."""
    server = server_factory()
    pin = {"X-Host-Pin": "2468"}

    def finished(game, players, actions):
        _, res = server.request("POST", "/api/tables", {
            "game": game, "players": players, "pin": "2468"})
        for action in actions:
            status, out = server.request("POST", f"/api/tables/{res['table']['id']}/actions",
                                         {"action": action}, pin)
            assert status == 200, out
        return res["table"]["id"]

    finished("scorepad", ["Ana", "Bruno"], [{"type": "add_round", "scores": [9, 3]},
                                            {"type": "end_game"}])
    finished("scorepad", ["ana", "Chen"], [{"type": "add_round", "scores": [5, 1]},
                                           {"type": "end_game"}])
    finished("uno", ["Bruno", "Chen"], [{"type": "end_match"}])
    page = phone("pt-BR", width=360)
    page.goto(server.url + "/")
    page.locator("#players-link").click()
    expect(page.locator("#leaderboard strong").first).to_have_text("Ana")
    page.locator('#leaderboard a[data-player="ana"]').click()
    expect(page.locator("#player-tables li")).to_have_count(2)
    expect(page.locator("#player-record")).to_contain_text("2")
    _, data = server.request("GET", "/api/players")
    ana = next(p for p in data["players"] if p["key"] == "ana")
    assert ana["played"] == 2 and ana["won"] == 2 and len(ana["tables"]) == 2
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 360

    # the names seated from this phone are offered on the next new table
    page.goto(server.url + "/new")
    for i, name in enumerate(["Dara", "Eli"]):
        page.locator("input[name=player]").nth(i).fill(name)
    page.locator("input[name=player]").nth(2).fill("")
    page.fill("input[name=pin]", "2468")
    page.locator("#new-table button[type=submit]").click()
    page.wait_for_url("**/t/*")
    page.goto(server.url + "/new")
    expect(page.locator("#known-players option")).to_have_count(2)
    assert page.locator("input[name=player]").first.get_attribute("list") == "known-players"
    assert page.js_errors == []
