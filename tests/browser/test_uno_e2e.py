"""Three phones and the host referee a physical UNO round, in real headless Chromium.

The host creates the table through the API; Ana, Bruno (in Portuguese) and Chen join through
the seat picker. The host names the dealer, Ana turns up the first card, Bruno's illegal card
is refused in Portuguese with nothing changed, then legal plays, a wild with its colour, Draw
and Pass, an UNO call and a catch, the hands left entered (tapped and typed), and the scores
reach the other phones through the SSE stream.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import open_as_host

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def pick(page, card: str) -> None:
    """Tap a card in the picker on screen: its colour tab, then the card (wilds: no tab)."""
    if not card.startswith("wild"):
        page.locator(f'.uno-picker [data-tab="{card.split("-")[0]}"]').click()
    page.locator(f'.uno-picker [data-card="{card}"]').click()


def play(page, card: str) -> None:
    pick(page, card)
    page.locator("#uno-play").click()


def test_a_round_of_uno_on_four_phones(server_factory, phone):
    server = server_factory()
    status, res = server.request("POST", "/api/tables", {
        "game": "uno", "players": ["Ana", "Bruno", "Chen"], "pin": "2468",
        "options": {"hand_size": 3, "target": 500}})
    assert status == 201, res
    url = server.url + res["url"]
    table_id = res["table"]["id"]

    # the host: the PIN set at creation is kept on the creator's phone
    host = phone("en-US")
    host.goto(server.url + "/")
    host.evaluate(f"localStorage.setItem('tc.pin.{table_id}', JSON.stringify('2468'))")
    host.goto(url)
    host.get_by_text("Just watch").click()
    expect(host.locator("#uno-hostbar")).to_be_visible()
    # UNO's own bar picks whom the host acts for: the host panel's menu (which did nothing
    # in UNO) is not shown
    host.locator("#host-panel summary", has_text="Host").click()
    expect(host.locator("#undo")).to_be_visible()
    expect(host.locator("#as-seat")).to_be_hidden()

    phones = {}
    for name, locale in (("Ana", "en-US"), ("Bruno", "pt-BR"), ("Chen", "en-US")):
        p = phone(locale)
        p.goto(url + "?join=1")
        p.locator("#seats button", has_text=name).click()
        phones[name] = p
    ana, bruno, chen = phones["Ana"], phones["Bruno"], phones["Chen"]
    expect(bruno.locator("#whoami")).to_have_text("Você é Bruno")
    expect(ana.locator("#uno-status h2")).to_have_text("Cut for the deal")

    # the start of the round: the host names Ana the dealer, Ana turns up a blue 7
    host.locator('[data-dealer="0"]').click()
    expect(ana.locator("#uno-status")).to_contain_text("Ana deals 3 cards to everyone.")
    pick(ana, "blue-7")
    expect(chen.locator("#uno-top")).to_have_attribute("data-card", "blue-7")
    expect(bruno.locator("#uno-turn")).to_have_text("Sua vez!")
    expect(bruno.locator("#uno-status")).to_have_class("card uno-status mine")
    expect(ana.locator("#uno-turn")).to_have_text("Bruno's turn")

    # an illegal card: refused in Portuguese, card names too; nothing changes
    play(bruno, "red-5")
    alert = bruno.locator("#uno-alert")
    expect(alert).to_have_text(
        "5 vermelho não pode ir sobre 7 azul: jogue azul, um 7 ou um curinga.")
    expect(bruno.locator("#uno-top")).to_have_attribute("data-card", "blue-7")
    expect(ana.locator('.uno-count[data-seat="1"]')).to_have_text("3")

    # a legal card, tapped twice in a hurry: played once, the others see it live, and
    # Bruno's phone says nothing of a refusal (the second tap had been refused: "É a vez de
    # Chen", as if the play had failed)
    bruno.locator("#uno-back").click()
    pick(bruno, "blue-3")
    bruno.locator("#uno-play").dblclick()
    expect(ana.locator("#uno-top")).to_have_attribute("data-card", "blue-3")
    expect(ana.locator('.uno-count[data-seat="1"]')).to_have_text("2")
    expect(bruno.locator("#uno-alert")).to_be_hidden()
    expect(bruno.locator("#toast")).not_to_contain_text("Chen")
    expect(chen.locator("#uno-turn")).to_have_text("Your turn!")

    # a wild, with its colour chosen on the phone
    pick(chen, "wild")
    chen.locator('#uno-selected [data-colour="green"]').click()
    expect(ana.locator("#uno-colour")).to_have_attribute("data-colour", "green")
    expect(ana.locator("#uno-top")).to_have_attribute("data-card", "wild")

    # the host draws for Ana (the player to move), Ana passes on her phone
    expect(host.locator("#uno-actions .uno-actingfor")).to_have_text("Acting for Ana")
    host.locator("#uno-draw").click()
    expect(ana.locator("#uno-pass")).to_be_visible()
    expect(bruno.locator('.uno-count[data-seat="0"]')).to_have_text("4")
    ana.locator("#uno-pass").click()
    expect(bruno.locator("#uno-turn")).to_have_text("Sua vez!")

    # Bruno calls UNO as he plays his second-to-last card; Chen forgets and is caught
    bruno.locator("#uno-call").click()
    expect(chen.locator('.uno-flag[data-seat="1"]')).to_be_visible()
    play(bruno, "green-4")
    expect(chen.locator("#uno-turn")).to_have_text("Your turn!")
    play(chen, "green-9")
    expect(ana.locator('[data-catch="2"]')).to_be_visible()
    # Bruno called: not catchable (asked of another phone: a phone never offers its own seat)
    expect(ana.locator('[data-catch="1"]')).to_have_count(0)
    ana.locator('[data-catch="2"]').click()
    expect(bruno.locator('.uno-count[data-seat="2"]')).to_have_text("3")
    expect(ana.locator('[data-catch="2"]')).to_have_count(0)

    # Ana plays, Bruno goes out
    play(ana, "green-2")
    play(bruno, "green-5")
    expect(chen.locator("#uno-winner")).to_have_text("Bruno went out!")

    # the hands left: Ana taps her 3 cards (one by mistake, taken back), Chen types points
    ana.locator("#uno-points-0").wait_for()
    for card in ("red-7", "wild", "blue-9"):
        pick(ana, card)
    expect(chen.locator('[data-tally="0"]')).to_contain_text("3 of 3 cards")
    ana.locator('.uno-handrow[data-seat="0"] .uno-chip').nth(2).click()  # the blue 9
    expect(chen.locator('[data-tally="0"]')).to_contain_text("2 of 3 cards")
    pick(ana, "blue-skip")
    expect(chen.locator('[data-tally="0"]')).to_contain_text("3 of 3 cards · 77 points")
    # Chen types her points on her own phone (a Chinese keyboard's digits count); they reach
    # Ana's, which scores the round
    chen.fill("#uno-points-2", "１２")
    expect(ana.locator("#uno-points-2")).to_have_value("12")
    ana.locator("#uno-score").click()
    expect(bruno.locator('.uno-total[data-seat="1"]')).to_have_text("89")
    # sent once (a field rebuilt while it had the focus said "changed" again)
    _, hist = server.request("GET", f"/api/tables/{table_id}/history",
                             headers={"X-Host-Pin": "2468"})
    assert [e["body"] for e in hist["history"] if e["body"].get("type") == "count_points"] == [
        {"type": "count_points", "seat": 2, "points": 12}]

    # the scores reach every phone, Bruno's in Portuguese, with the chart
    expect(bruno.locator('.uno-total[data-seat="1"]')).to_have_text("89")
    expect(bruno.locator('#uno-rounds td[data-total="1"]')).to_have_text("89")
    expect(bruno.locator("#uno-scores svg.chart polyline")).to_have_count(3)
    expect(bruno.locator("#uno-chart .legend li")).to_have_text(["Ana", "Bruno", "Chen"])
    # the chart is drawn at the width it is shown: its ticks are as big as the page's words
    assert bruno.evaluate("""() => { const svg = document.querySelector('#uno-chart svg');
        return Math.abs(svg.viewBox.baseVal.width - svg.getBoundingClientRect().width); }""") < 1
    expect(host.locator("#uno-next")).to_have_text("Next round: Bruno deals")
    expect(bruno.locator("#uno-next")).to_have_text("Próxima rodada: Bruno dá as cartas")

    # the host deals the next round; the phones follow
    host.locator("#uno-next").click()
    expect(chen.locator("#uno-status")).to_contain_text("Bruno deals 3 cards to everyone.")

    # the history describes the plays
    ana.locator("#history-box summary").click()
    expect(ana.locator("#history")).to_contain_text("played Wild (green)")
    for p in (host, ana, bruno, chen):
        assert p.js_errors == []


def test_challenge_swap_and_camera_proposal(server_factory, phone):
    server = server_factory()
    status, res = server.request("POST", "/api/tables", {
        "game": "uno", "players": ["Ana", "Bruno", "Chen"], "pin": "2468",
        "options": {"hand_size": 3, "first_dealer": "first_seat"}})
    assert status == 201, res
    url, table_id = server.url + res["url"], res["table"]["id"]
    ana, bruno, chen = (phone("en-US") for _ in range(3))
    # Ana is the host and plays too (the PIN kept on her phone)
    ana.goto(server.url + "/")
    ana.evaluate(f"localStorage.setItem('tc.pin.{table_id}', JSON.stringify('2468'))")
    for seat, p in enumerate((ana, bruno, chen)):
        p.goto(url + "?join=1")
        p.locator(f'#seats button[data-seat="{seat}"]').click()
        expect(p.locator("#uno-status h2")).to_have_text("Round 1")

    # Ana's host bar acts for "Myself" or the others: not her own name again
    expect(ana.locator('#uno-hostbar [data-actfor="1"]')).to_have_count(1)
    expect(ana.locator('#uno-hostbar [data-actfor="0"]')).to_have_count(0)
    pick(ana, "red-5")
    expect(bruno.locator("#uno-turn")).to_have_text("Your turn!")

    # Bruno's Wild Draw Four (he holds a red card): Chen challenges, Bruno enters his hand
    pick(bruno, "wild-draw4")
    bruno.locator('#uno-selected [data-colour="blue"]').click()
    expect(chen.locator("#uno-challenge")).to_be_visible()
    # the prompt names the colour a challenge weighs: the red 5 lay on the pile
    expect(chen.get_by_text("Did they hold a red card?")).to_be_visible()
    chen.locator("#uno-challenge").click()
    bruno.locator("#uno-show").click()
    pick(bruno, "red-1")
    expect(bruno.locator("#uno-send-hand")).to_be_disabled()
    pick(bruno, "green-2")
    bruno.locator("#uno-send-hand").click()
    expect(chen.locator("#uno-reveal .uno-card")).to_have_count(2)
    # only the challenger and the accused: not Ana, though her host's view holds it
    expect(ana.locator("#uno-reveal")).to_have_count(0)
    expect(ana.locator('.uno-count[data-seat="1"]')).to_have_text("6")  # guilty: he draws 4
    expect(chen.locator("#uno-turn")).to_have_text("Your turn!")  # the victim plays on

    # Chen swaps hands with Ana: the player picker, then the colour
    pick(chen, "wild-swap")
    chen.locator('#uno-selected [data-target="0"]').click()
    chen.locator('#uno-selected [data-colour="green"]').click()
    expect(bruno.locator('.uno-count[data-seat="0"]')).to_have_text("2")
    expect(bruno.locator('.uno-count[data-seat="2"]')).to_have_text("3")
    expect(ana.locator("#uno-turn")).to_have_text("Your turn!")

    # the camera is unsure of Ana's card: her phone asks, she confirms
    status, res = server.request(
        "POST", f"/api/tables/{table_id}/actions",
        {"action": {"type": "propose", "card": "green-7", "seat": 0}}, {"X-Host-Pin": "2468"})
    assert status == 200, res
    expect(ana.locator(".uno-proposal")).to_contain_text("Did you play Green 7?")
    ana.locator("#uno-confirm").click()
    expect(chen.locator("#uno-top")).to_have_attribute("data-card", "green-7")
    expect(chen.locator("#uno-news")).to_contain_text("Ana played Green 7.")

    # the host takes it back: no phone goes on saying that Ana played it
    ana.locator("#host-panel summary", has_text="Host").click()
    ana.locator("#undo").click()
    expect(chen.locator("#uno-top")).not_to_have_attribute("data-card", "green-7")
    expect(chen.locator("#uno-news")).to_have_text("The host took back the last move.")
    for p in (ana, bruno, chen):
        assert p.js_errors == []


@pytest.mark.parametrize("width", [320, 360])
def test_the_colour_tabs_keep_each_word_whole_on_a_small_phone(server_factory, phone, width):
    """In Portuguese, "Vermelho" broke as "Vermelh/o" on the card picker's red tab."""
    server = server_factory()
    status, res = server.request("POST", "/api/tables", {
        "game": "uno", "players": ["Ana", "Bruno"], "pin": "2468",
        "options": {"first_dealer": "first_seat"}})
    assert status == 201, res
    page = phone("pt-BR", width=width)
    page.goto(server.url + res["url"] + "?join=1")
    page.locator('#seats button[data-seat="0"]').click()
    page.locator(".uno-picker .uno-tab").first.wait_for()
    lines = page.evaluate("""() => [...document.querySelectorAll('.uno-picker .uno-tab')]
      .map((t) => {
        const r = document.createRange(); r.selectNodeContents(t);
        return [t.textContent, new Set([...r.getClientRects()].map((b) => Math.round(b.top))).size];
    })""")
    assert [n for _, n in lines] == [1] * len(lines), lines
    assert "Vermelho" in [w for w, _ in lines]
    # the wilds' captions break between their words only ("Curing/a", "Compr/ar Quatro")
    captions = page.evaluate("""() => [
      ...document.querySelectorAll('.uno-grid.wilds .uno-pick-name')].map((t) => {
        const r = document.createRange(); r.selectNodeContents(t);
        return [t.textContent, new Set([...r.getClientRects()].map((b) => Math.round(b.top))).size];
    })""")
    assert captions and all(n <= len(text.split()) for text, n in captions), captions


def test_a_seated_hosts_undo_right_after_their_own_play_is_taken(server_factory, phone):
    """A host who plays tapped Undo right after their own card, before their live stream
    brought it: the Undo went with the version before the play and was refused as stale (the
    UNO moves' answers were not learned as the other games' are)."""
    server = server_factory()
    status, res = server.request("POST", "/api/tables", {
        "game": "uno", "players": ["Ana", "Bruno"], "pin": "2468",
        "options": {"hand_size": 3, "first_dealer": "first_seat"}})
    assert status == 201, res
    tid = res["table"]["id"]
    ana = phone()
    # (no live stream on Ana's phone: what it knows comes from its own calls' answers)
    ana.route("**/stream*", lambda route: route.abort())
    ana.goto(server.url + "/")
    ana.evaluate(f"localStorage.setItem('tc.pin.{tid}', JSON.stringify('2468'))")
    ana.goto(server.url + res["url"] + "?join=1")
    ana.locator('#seats button[data-seat="0"]').click()
    expect(ana.locator("#uno-status h2")).to_have_text("Round 1")
    with ana.expect_response(lambda r: r.url.endswith(f"/api/tables/{tid}/actions")) as played:
        pick(ana, "red-5")
    assert played.value.ok
    ana.locator("#host-panel summary", has_text="Host").click()
    with ana.expect_response(lambda r: r.url.endswith(f"/api/tables/{tid}/undo")) as undone:
        ana.locator("#undo").click()
    assert undone.value.status == 200, undone.value.json()
    _, table = server.request("GET", f"/api/tables/{tid}", headers={"X-Host-Pin": "2468"})
    assert table["public"]["phase"] == "first_card" and table["public"]["round"]["top"] is None
    assert ana.js_errors == []


# What a phone hears: every live-stream message and every API answer, as its page got them.
RECORD = """(() => {
  window.__heard = [];
  const add = EventSource.prototype.addEventListener;
  EventSource.prototype.addEventListener = function (type, fn, opts) {
    return add.call(this, type, (ev) => { window.__heard.push(String(ev.data)); fn(ev); }, opts);
  };
  const f = window.fetch;
  window.fetch = async (...args) => {
    const r = await f(...args);
    r.clone().text().then((s) => window.__heard.push(s), () => null);
    return r;
  };
})();"""


def test_a_refused_tap_is_told_to_the_phone_that_tapped_only(server_factory, phone):
    """Issue 37 #1: Bruno's illegal tapped card was announced to every phone ("Red 5 cannot
    go on Blue 7": a card of Bruno's hand), and shown twice on his own (a toast over the
    red box). Every stream and answer of every other phone is read: the card is in none."""
    server = server_factory()
    status, res = server.request("POST", "/api/tables", {
        "game": "uno", "players": ["Ana", "Bruno", "Chen"], "pin": "2468",
        "options": {"hand_size": 3}})
    assert status == 201, res
    url, tid = server.url + res["url"], res["table"]["id"]
    pin = {"X-Host-Pin": "2468"}
    for action in ({"type": "set_dealer", "dealer": 0}, {"type": "turn_up", "card": "blue-7"}):
        status, _ = server.request("POST", f"/api/tables/{tid}/actions", {"action": action}, pin)
        assert status == 200
    host = phone("en-US", width=360)
    host.add_init_script(RECORD)
    open_as_host(host, url, tid)
    phones = {}
    people = (("Ana", "en-US"), ("Bruno", "pt-BR"), ("Chen", "zh-CN"))
    for seat, (name, locale) in enumerate(people):
        p = phone(locale, width=360)
        p.add_init_script(RECORD)
        p.goto(url + "?join=1")
        p.locator(f'#seats button[data-seat="{seat}"]').click()
        phones[name] = p
    ana, bruno, chen = phones["Ana"], phones["Bruno"], phones["Chen"]
    expect(bruno.locator("#uno-turn")).to_have_text("Sua vez!")

    play(bruno, "red-5")
    alert = bruno.locator("#uno-alert")
    expect(alert).to_have_text(
        "5 vermelho não pode ir sobre 7 azul: jogue azul, um 7 ou um curinga.")
    expect(alert).to_be_in_viewport()
    # said once: no toast over the red box
    expect(bruno.locator("#toast")).not_to_have_class("show error")
    assert "vermelho" not in bruno.locator("#toast").text_content()
    # a legal card after it: every stream has carried whatever the refusal sent
    bruno.locator("#uno-back").click()
    play(bruno, "blue-3")
    for p in (host, ana, chen):
        expect(p.locator("#uno-top")).to_have_attribute("data-card", "blue-3")
    for p in (host, ana, chen):
        heard = "\n".join(p.evaluate("window.__heard"))
        assert "red-5" not in heard and "Red 5" not in heard and "illegal_card" not in heard
        expect(p.locator("#uno-alert")).to_be_hidden()
        assert "5" not in (p.locator("#toast").text_content() or "")
    # nor Bruno's own stream: his answer told him, once
    assert "illegal_card" not in "\n".join(
        s for s in bruno.evaluate("window.__heard") if '"view"' in s)
    for p in (host, ana, bruno, chen):
        assert p.js_errors == []


def test_cannot_be_reached_goes_once_the_companion_is_back(server_factory, phone):
    """Issue 37 #5: "The companion cannot be reached" stayed on screen after the connection
    was back (a server restart)."""
    server = server_factory()
    status, res = server.request("POST", "/api/tables", {
        "game": "uno", "players": ["Ana", "Bruno"], "pin": "2468",
        "options": {"first_dealer": "first_seat"}})
    assert status == 201, res
    ana = phone("en-US", width=360)
    ana.goto(server.url + res["url"] + "?join=1")
    ana.locator('#seats button[data-seat="0"]').click()
    # (seated, and the seat's view and stream on screen before the companion goes: the
    # watcher's page shows "Round 1" and a live dot too, before the seat is taken)
    expect(ana.locator("#whoami")).to_have_text("You are Ana")
    expect(ana.locator("#uno-status h2")).to_have_text("Round 1")
    expect(ana.locator(".uno-picker")).to_be_visible()
    expect(ana.locator("#live")).to_have_class("dot on")

    server.stop()
    expect(ana.locator("#live")).to_have_class("dot off")
    pick(ana, "red-5")
    offline = "The companion cannot be reached. Check the Wi-Fi."
    expect(ana.locator("#uno-alert")).to_have_text(offline)
    server.start()
    expect(ana.locator("#live")).to_have_class("dot on", timeout=15000)
    expect(ana.locator("#uno-alert")).to_be_hidden(timeout=500)
    assert offline not in (ana.locator("#toast").text_content() or "") or \
        "show" not in (ana.locator("#toast").get_attribute("class") or "")
    # and the table works again
    expect(ana.locator("#whoami")).to_have_text("You are Ana")
    expect(ana.locator(".uno-picker")).to_be_visible()
    pick(ana, "red-5")
    expect(ana.locator("#uno-top")).to_have_attribute("data-card", "red-5")
    assert ana.js_errors == []


def test_cannot_be_reached_toast_goes_once_the_companion_is_back(server_factory, phone):
    """The same on a page whose moves toast their refusals (the score pad)."""
    server = server_factory()
    status, res = server.request("POST", "/api/tables", {
        "game": "scorepad", "players": ["Ana", "Bruno"], "pin": "2468"})
    assert status == 201, res
    ana = phone("en-US", width=360)
    ana.goto(server.url + res["url"] + "?join=1")
    ana.locator('#seats button[data-seat="0"]').click()
    expect(ana.locator("#whoami")).to_have_text("You are Ana")
    expect(ana.locator("#live")).to_have_class("dot on")
    server.stop()
    expect(ana.locator("#live")).to_have_class("dot off")
    ana.locator("#history-box summary").click()  # (asks the companion: cannot)
    offline = "The companion cannot be reached. Check the Wi-Fi."
    expect(ana.locator("#toast")).to_have_text(offline)
    server.start()
    expect(ana.locator("#live")).to_have_class("dot on", timeout=15000)
    expect(ana.locator("#toast")).not_to_have_class("show error", timeout=500)
    assert ana.js_errors == []


BROKEN_WORDS = """(sel) => { const out = [];
  for (const e of document.querySelectorAll(sel)) {
    const walk = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      for (const m of n.textContent.matchAll(/[^\\s\\-]+/g)) {
        const r = document.createRange();
        r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
        const tops = new Set([...r.getClientRects()].map((b) => Math.round(b.top)));
        if (tops.size > 1) out.push(m[0]);
      }
    }
  }
  return out; }"""


@pytest.mark.parametrize("width", [320, 360])
@pytest.mark.parametrize("locale", ["en-US", "pt-BR"])
def test_no_word_is_broken_on_the_table(server_factory, phone, width, locale):
    """Issue 37 #9: "Counterclockwis/e" beside the top card, a short name "Ch/en" squeezed
    beside the Catch! button."""
    server = server_factory()
    status, res = server.request("POST", "/api/tables", {
        "game": "uno", "players": ["Ana", "Bruno", "Chen"], "pin": "2468",
        "options": {"hand_size": 2, "first_dealer": "first_seat"}})
    assert status == 201, res
    tid = res["table"]["id"]
    for action, seat in (({"type": "turn_up", "card": "red-5"}, None),
                         ({"type": "play", "card": "red-reverse"}, 1),
                         ({"type": "play", "card": "red-7"}, 0),
                         ({"type": "play", "card": "red-2"}, 2)):
        body = {"action": action, **({"as_seat": seat} if seat is not None else {})}
        status, out = server.request("POST", f"/api/tables/{tid}/actions", body,
                                     {"X-Host-Pin": "2468"})
        assert status == 200, out
    page = phone(locale, width=width)
    page.goto(server.url + res["url"] + "?join=1")
    page.locator('#seats button[data-seat="0"]').click()
    expect(page.locator('[data-catch="2"]')).to_be_visible()
    expect(page.locator("#uno-dir")).to_have_attribute("data-direction", "-1")
    assert page.evaluate(BROKEN_WORDS, "#uno-dir, .uno-name, .uno-turn, .uno-topname") == []
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width
    assert page.js_errors == []


def test_the_status_says_each_thing_once_and_the_chart_shows_every_line(server_factory, phone):
    """Issue 37 #10: the challenge line twice, "Chen must draw 4." still shown during the
    challenge, "Guilty: Bruno draws 4." then "Bruno draws 4."; the scoring row said "0 of 1
    cards · 0 points" beside 20 points typed; two players on the same score shared one line
    of the chart, one hidden."""
    server = server_factory()
    status, res = server.request("POST", "/api/tables", {
        "game": "uno", "players": ["Ana", "Bruno", "Chen"], "pin": "2468",
        "options": {"hand_size": 3, "first_dealer": "first_seat"}})
    assert status == 201, res
    tid = res["table"]["id"]

    def act(action, seat=None):
        body = {"action": action, **({"as_seat": seat} if seat is not None else {})}
        status, out = server.request("POST", f"/api/tables/{tid}/actions", body,
                                     {"X-Host-Pin": "2468"})
        assert status == 200, out

    ana = phone(width=360)
    ana.goto(server.url + res["url"] + "?join=1")
    ana.locator('#seats button[data-seat="0"]').click()
    act({"type": "turn_up", "card": "red-5"})
    act({"type": "play", "card": "wild-draw4", "colour": "blue"}, 1)
    status_box = ana.locator("#uno-status")
    expect(status_box).to_contain_text("Chen must draw 4.")
    act({"type": "challenge"}, 2)
    line = "Chen challenges the Wild Draw Four of Bruno."
    expect(status_box).to_contain_text(line)
    expect(status_box.locator("p", has_text=line)).to_have_count(1)
    expect(status_box).not_to_contain_text("must draw 4")
    act({"type": "verdict", "guilty": True}, 2)
    expect(ana.locator("#uno-news")).to_contain_text("Guilty: Bruno draws 4.")
    expect(ana.locator("#uno-news p", has_text="draws 4")).to_have_count(1)

    # Chen goes out: Ana types 20 points for her hand, and her row says so
    act({"type": "play", "card": "blue-1"}, 2)
    act({"type": "play", "card": "blue-2"}, 0)
    act({"type": "draw"}, 1)
    act({"type": "pass"}, 1)
    act({"type": "play", "card": "blue-3"}, 2)
    act({"type": "play", "card": "blue-4"}, 0)
    act({"type": "play", "card": "blue-5"}, 1)
    act({"type": "play", "card": "blue-6"}, 2)
    expect(ana.locator("#uno-winner")).to_have_text("Chen went out!")
    ana.fill("#uno-points-0", "20")
    expect(ana.locator('[data-tally="0"]')).to_have_text("20 points typed")
    ana.fill("#uno-points-1", "20")
    ana.locator("#uno-score").click()
    expect(ana.locator('.uno-total[data-seat="2"]')).to_have_text("40")
    # Ana and Bruno both on 20: two lines, side by side
    lines = ana.locator("#uno-chart polyline")
    expect(lines).to_have_count(3)
    points = [lines.nth(i).get_attribute("points") for i in range(3)]
    assert points[0] != points[1], points
    assert ana.js_errors == []


def test_the_chart_names_a_round_as_the_status_does(server_factory, phone):
    """Chinese read 第 2 局 in the status and 第 1 轮 on the chart."""
    server = server_factory()
    status, res = server.request("POST", "/api/tables", {
        "game": "uno", "players": ["Ana", "Bruno"], "pin": "2468",
        "options": {"hand_size": 1, "first_dealer": "first_seat"}})
    assert status == 201, res
    tid = res["table"]["id"]
    for action, seat in (({"type": "turn_up", "card": "red-5"}, None),
                         ({"type": "play", "card": "red-6"}, 1),
                         ({"type": "count_points", "seat": 0, "points": 9}, None),
                         ({"type": "end_round"}, None),
                         ({"type": "next_round"}, None)):
        body = {"action": action, **({"as_seat": seat} if seat is not None else {})}
        status, out = server.request("POST", f"/api/tables/{tid}/actions", body,
                                     {"X-Host-Pin": "2468"})
        assert status == 200, out
    page = phone("zh-CN", width=360)
    page.goto(server.url + res["url"] + "?join=1")
    page.locator('#seats button[data-seat="0"]').click()
    expect(page.locator("#uno-status h2")).to_have_text("第 2 局")
    expect(page.locator("#uno-chart svg text.tick").last).to_have_text("第 1 局")
    assert page.js_errors == []


def test_a_rematch_takes_every_phone_to_the_next_match_at_its_seat(server_factory, phone):
    """Rematch: one tap of the host's starts the same game with the same players and options
    (the next UNO match); each phone follows to its own seat, the host's PIN kept."""
    server = server_factory()
    status, res = server.request("POST", "/api/tables", {
        "game": "uno", "players": ["Ana", "Bruno"], "pin": "2468", "title": "Friday",
        "options": {"hand_size": 5, "target": 200}})
    assert status == 201, res
    tid, url = res["table"]["id"], server.url + res["url"]
    status, _ = server.request("POST", f"/api/tables/{tid}/actions",
                               {"action": {"type": "end_match"}}, {"X-Host-Pin": "2468"})
    assert status == 200
    host = phone(width=360)
    open_as_host(host, url, tid)
    players = []
    for seat in (0, 1):
        p = phone(width=360)
        p.goto(url + "?join=1")
        p.locator(f'#seats button[data-seat="{seat}"]').click()
        expect(p.locator("#uno-over")).to_be_visible()
        players.append(p)
    host.locator("#host-panel summary", has_text="Host").click()
    host.locator("#rematch").click()
    for page in (host, *players):
        page.wait_for_url(lambda u: f"/t/{tid}" not in u and "/t/" in u)
    new = host.url.rstrip("/").split("/")[-1].split("?")[0]
    assert new != tid
    _, table = server.request("GET", f"/api/tables/{new}")
    assert table["table"]["players"] == ["Ana", "Bruno"]
    options = table["table"]["options"]
    assert options["hand_size"] == 5 and options["target"] == 200
    assert table["table"]["title"] == "Friday"
    for seat, page in enumerate(players):
        expect(page.locator("#whoami")).to_have_text(f"You are {['Ana', 'Bruno'][seat]}")
        expect(page.locator("#uno-status h2")).to_have_text("Cut for the deal")
    expect(host.locator("#whoami")).to_have_text("Host")  # (its PIN kept: the host)
    assert sorted(table["table"]["seats_taken"]) == [0, 1]
    for page in (host, *players):
        assert page.js_errors == []
