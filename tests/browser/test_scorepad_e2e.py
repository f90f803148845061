"""Two phones at one score pad, in real headless Chromium.

The host creates the table, a second phone (asking for Portuguese) joins through the URL in
the QR code the host's screen shows, and a round entered on either phone appears on the
other through the SSE stream.
"""

from __future__ import annotations

import re
from pathlib import Path

import cv2
import numpy as np
import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def decode_qr(png: bytes) -> str:
    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_GRAYSCALE)
    image = cv2.copyMakeBorder(image, 40, 40, 40, 40, cv2.BORDER_CONSTANT, value=255)
    text, _points, _ = cv2.QRCodeDetector().detectAndDecode(image)
    assert text, "the QR code on the host's screen could not be read"
    return text


def test_two_phones_share_a_score_pad_live(server_factory, phone):
    server = server_factory()
    host = phone("en-US")
    host.goto(server.url + "/new")
    for i, name in enumerate(["Ana", "Bruno", "Chen"]):
        host.locator("input[name=player]").nth(i).fill(name)
    host.fill("input[name=title]", "Friday")
    host.fill("input[name=pin]", "2468")
    host.get_by_role("button", name="Create the table").click()
    expect(host.locator("h1")).to_have_text("Friday")
    host.get_by_text("Just watch").click()  # the host keeps score for everyone
    host.locator("#host-panel summary", has_text="Host").click()
    expect(host.locator("#host-tools")).to_be_visible()  # the PIN set at creation unlocks it

    host.get_by_text("Invite: show the QR code").click()
    qr = host.locator("#qr")
    expect(qr).to_be_visible()
    host.wait_for_function("() => { const i = document.querySelector('#qr');"
                           " return i.complete && i.naturalWidth > 0; }")
    url = decode_qr(qr.screenshot())
    assert url.startswith(server.url + "/join/")

    guest = phone("pt-BR")
    guest.goto(url)
    expect(guest.locator("html")).to_have_attribute("lang", "pt-BR")
    expect(guest.locator("#seat-picker h2")).to_have_text("Quem é você?")
    guest.locator("#seats button", has_text="Bruno").click()
    expect(guest.locator("#whoami")).to_have_text("Você é Bruno")
    expect(guest.locator("#sp-entry h2")).to_have_text("Adicionar uma rodada")

    # the host enters a round (tapping Save twice in a hurry: one round); Bruno's phone shows
    # it without reloading
    for seat, value in enumerate(["12", "-3", "0"]):
        host.fill(f"#sp-in-{seat}", value)
    host.get_by_role("button", name="Save the round").dblclick()
    expect(guest.locator('.total[data-seat="0"]')).to_have_text("12")
    expect(guest.locator('.total[data-seat="1"]')).to_have_text("-3")
    expect(host.locator("#toast")).to_have_text("Round saved.")  # (not a refusal of the 2nd)

    # Bruno enters one (with the ± key for a negative score); the host sees it
    guest.fill("#sp-in-0", "5")
    guest.fill("#sp-in-2", "4")
    guest.locator("#sp-inputs .sign").nth(2).click()
    guest.get_by_role("button", name="Salvar a rodada").click()
    expect(host.locator('.total[data-seat="0"]')).to_have_text("17")
    expect(host.locator('.total[data-seat="2"]')).to_have_text("-4")
    expect(host.locator("#sp-rounds tbody tr")).to_have_count(2)
    # (Bruno's own answer is in: his form cleared, as the live update alone does not prove)
    expect(guest.locator("#toast")).to_have_text("Rodada salva.")
    # the link under the QR code outlives the live updates (each one had blanked it)
    expect(host.locator("#join-url")).to_have_text(url)

    # a bad score is refused on the phone, in Portuguese, and nothing changes
    guest.fill("#sp-in-1", "abc")
    guest.get_by_role("button", name="Salvar a rodada").click()
    expect(guest.locator("#toast")).to_have_text("As pontuações devem ser números inteiros.")

    # the host corrects round 1 and undoes it
    host.locator('button[data-round="0"]').click()
    host.fill("#sp-in-0", "20")
    host.get_by_role("button", name="Save the round").click()
    expect(guest.locator('.total[data-seat="0"]')).to_have_text("25")
    # the host's own screen shows the correction too (its stream may be behind the guest's)
    expect(host.locator('.total[data-seat="0"]')).to_have_text("25")
    host.get_by_role("button", name="Undo the last action").click()
    expect(guest.locator('.total[data-seat="0"]')).to_have_text("17")
    assert host.js_errors == [] and guest.js_errors == []


def test_a_phone_may_undo_its_own_round_before_its_live_stream_shows_it(server_factory, phone):
    """The host saves a round and at once taps Undo, before the live stream has brought the
    round back to that phone (here the stream never comes). The round it made came right
    after the version it had seen, so the phone knows the table's version: the undo is not
    refused as stale."""
    server = server_factory()
    _, created = server.request("POST", "/api/tables", {
        "game": "scorepad", "players": ["Ana", "Bruno"], "pin": "2468"})
    tid = created["table"]["id"]
    host = phone("en-US")
    host.route("**/stream*", lambda route: route.abort())
    host.goto(f"{server.url}/t/{tid}")
    host.locator("#host-panel summary", has_text="Host").click()
    host.fill("#host-login input[name=pin]", "2468")
    host.get_by_role("button", name="Unlock").click()
    expect(host.locator("#host-tools")).to_be_visible()
    host.fill("#sp-in-0", "7")
    with host.expect_response(lambda r: r.url.endswith(f"/api/tables/{tid}/actions")) as saved:
        host.get_by_role("button", name="Save the round").click()
    assert saved.value.status == 200
    # (the answer taken in by the page, which learns the version from it: not only received)
    expect(host.locator("#toast")).to_have_text("Round saved.")
    with host.expect_response(lambda r: r.url.endswith(f"/api/tables/{tid}/undo")) as undone:
        host.get_by_role("button", name="Undo the last action").click()
    assert undone.value.status == 200
    expect(host.locator("#toast")).to_have_text("Undone.")
    status, view = server.request("GET", f"/api/tables/{tid}")
    assert status == 200 and view["public"]["totals"] == [0, 0] and view["version"] == 2


def test_a_seat_moved_to_a_new_phone_leaves_the_old_one_watching(server_factory, phone):
    """Ana's phone is swapped: the new phone takes her seat with the host's PIN, and the old
    phone, still open, is told at once and watches from then on (it offers the seats again)."""
    server = server_factory()
    _, created = server.request("POST", "/api/tables", {
        "players": ["Ana", "Bruno"], "pin": "2468"})
    url = server.url + created["url"]
    old = phone("pt-BR")
    old.goto(url + "?join=1")
    old.locator("#seats button", has_text="Ana").click()
    expect(old.locator("#whoami")).to_have_text("Você é Ana")
    expect(old.locator("#live")).to_have_class("dot on")

    new = phone()
    new.on("dialog", lambda d: d.accept("2468"))
    new.goto(url + "?join=1")
    new.locator("#seats button", has_text="Ana").click()
    expect(new.locator("#whoami")).to_have_text("You are Ana")
    expect(old.locator("#toast")).to_have_text("Seu lugar passou para outro celular.")
    expect(old.locator("#whoami")).to_have_text("Assistindo")
    expect(old.locator("#seat-picker")).to_be_visible()
    assert old.evaluate("Object.keys(localStorage).filter(k => k.startsWith('tc.token.'))") == []
    expect(old.locator("#live")).to_have_class("dot on")  # (its stream open again, as a watcher)
    assert old.js_errors == [] and new.js_errors == []


def test_an_uno_table_with_house_rules_is_created_from_the_form(server_factory, phone):
    """The form on /new sends each option as its kind: the house rule's text as text (an
    empty box is the default, not null, which the server refuses), whole numbers and
    decimals (a Portuguese phone types a comma) as numbers; Werewolf's roles are set on its
    own page, not here."""
    server = server_factory()
    host = phone("pt-BR")
    host.goto(server.url + "/new")
    host.select_option("#game", "uno")
    for i, name in enumerate(["Ana", "Bruno"]):
        host.locator("input[name=player]").nth(i).fill(name)
    host.locator("input[name=player]").nth(2).fill("")
    host.fill("input[name=pin]", "2468")
    expect(host.locator("input[name=custom_rule]")).not_to_have_attribute("inputmode", "numeric")
    host.locator("#rules summary").click()  # (the rules sheet's, until "Change the rules")
    # each choice by what it means, in the phone's language (not "own_hand")
    expect(host.locator("[data-option=scoring] label")).to_have_text([
        "Quem vence a rodada marca as mãos dos outros", "Cada um conta a própria mão"])
    host.fill("input[name=custom_wilds]", "2")
    host.fill("input[name=custom_rule]", "Todos trocam de mão")
    host.fill("input[name=camera_confirm_below]", "0,9")
    host.get_by_role("button", name="Criar a mesa").click()
    expect(host.locator("#whoami")).to_be_visible()
    tid = host.url.rstrip("/").split("/")[-1].split("?")[0]
    options = server.request("GET", f"/api/tables/{tid}")[1]["table"]["options"]
    assert options["custom_wilds"] == 2 and options["custom_rule"] == "Todos trocam de mão"
    assert options["camera_confirm_below"] == 0.9 and options["hand_size"] == 7

    host.goto(server.url + "/new")  # the defaults, untouched, make a table too
    host.select_option("#game", "uno")
    for i, name in enumerate(["Ana", "Bruno"]):
        host.locator("input[name=player]").nth(i).fill(name)
    host.fill("input[name=pin]", "2468")
    host.get_by_role("button", name="Criar a mesa").click()
    expect(host.locator("#whoami")).to_be_visible()
    host.goto(server.url + "/new")
    host.select_option("#game", "werewolf")
    expect(host.locator("input[name=roles]")).to_have_count(0)
    # the nights are narrated in the host's language (the companion's default is English)
    expect(host.locator("select[name=language]")).to_have_value('"pt_BR"')
    expect(host.locator("input[name=timers]")).to_have_count(0)
    assert host.js_errors == []


def test_a_seat_option_offers_the_players_by_name(server_factory, phone):
    """Versus's dealer is a seat: the form lists the players as they are typed (a number
    counted from 0 made "1" the second player), and sends the seat's number."""
    server = server_factory()
    host = phone("zh-CN")
    host.goto(server.url + "/new")
    host.select_option("#game", "versus")
    host.locator("#rules summary").click()
    dealer = host.locator("select[name=dealer] option")
    expect(dealer).to_have_text(["最后一位玩家", "玩家 1", "玩家 2", "玩家 3"])
    host.select_option("select[name=dealer]", label="玩家 3")  # before any name is typed
    for i, name in enumerate(["Ana", "Bruno", "Chen"]):
        host.locator("input[name=player]").nth(i).fill(name)
    expect(dealer).to_have_text(["最后一位玩家", "Ana", "Bruno", "Chen"])
    expect(host.locator("select[name=dealer]")).to_have_value("2")  # Chen's row
    host.select_option("select[name=dealer]", label="Ana")
    host.locator("#add-player").click()
    host.locator("input[name=player]").nth(3).fill("Dara")
    expect(dealer).to_have_text(["最后一位玩家", "Ana", "Bruno", "Chen", "Dara"])
    expect(host.locator("select[name=dealer]")).to_have_value("0")  # (the choice is kept)
    # the choice follows the player, not the place: Bruno chosen, Ana's row cleared
    host.select_option("select[name=dealer]", label="Bruno")
    host.locator("input[name=player]").nth(0).fill("")
    expect(dealer).to_have_text(["最后一位玩家", "Bruno", "Chen", "Dara"])
    expect(host.locator("select[name=dealer]")).to_have_value("0")
    host.locator("input[name=player]").nth(0).fill("Ana")
    host.select_option("select[name=dealer]", label="Ana")
    host.fill("input[name=pin]", "2468")
    host.locator("button[type=submit]").click()
    expect(host.locator("#whoami")).to_be_visible()
    tid = host.url.rstrip("/").split("/")[-1].split("?")[0]
    _, table = server.request("GET", f"/api/tables/{tid}")
    assert table["table"]["options"]["dealer"] == 0
    assert table["public"]["turn"] == 1  # Bruno, at Ana's left, starts
    assert host.js_errors == []


def test_the_host_ends_a_pad_that_has_no_target(server_factory, phone):
    """A score pad with no target and no round count ends when the host says so, from the
    page (it could only be ended through the API); a player has no such button."""
    server = server_factory()
    _, created = server.request("POST", "/api/tables", {"players": ["Ana", "Bruno"],
                                                        "pin": "2468"})
    tid = created["table"]["id"]
    server.request("POST", f"/api/tables/{tid}/actions",
                   {"action": {"type": "add_round", "scores": [3, 5]}}, {"X-Host-Pin": "2468"})
    host = phone()
    host.goto(server.url + "/")
    host.evaluate(f"localStorage.setItem('tc.pin.{tid}', JSON.stringify('2468'))")
    host.goto(server.url + created["url"])
    host.get_by_text("Just watch").click()
    ana = phone()
    ana.goto(server.url + created["url"] + "?join=1")
    ana.locator("#seats button", has_text="Ana").click()
    expect(ana.locator("#whoami")).to_have_text("You are Ana")
    expect(ana.locator("#sp-end")).to_be_hidden()
    asked = []
    host.on("dialog", lambda d: (asked.append(d.message), d.accept()))
    host.locator("#sp-end").click()
    expect(ana.locator("#sp-result")).to_have_text("Game over: Bruno won.")
    assert asked == ["End the game now?"]
    expect(host.locator("#sp-end")).to_be_hidden()
    assert host.js_errors == [] and ana.js_errors == []


def test_a_full_name_says_where_it_stops(server_factory, phone):
    """A name stops at the table's 24 letters (the input's maxlength): the form says so,
    where typing on had simply done nothing; in the phone's language."""
    server = server_factory()
    host = phone("pt-BR")
    host.goto(server.url + "/new")
    note = host.locator("#name-full")
    expect(note).to_be_hidden()
    name = host.locator("input[name=player]").nth(1)
    name.press_sequentially("Maria Eduarda dos Santos Oliveira")
    expect(name).to_have_value("Maria Eduarda dos Santos")
    expect(note).to_be_visible()
    expect(note).to_have_text("Um nome tem no máximo 24 letras.")
    name.press("Backspace")
    expect(note).to_be_hidden()
    name.press("s")
    expect(note).to_be_visible()
    host.locator("input[name=player]").nth(1).locator("xpath=..").get_by_role("button").click()
    expect(note).to_be_hidden()  # (its row removed)
    assert host.js_errors == []


def test_the_form_says_how_many_players_a_game_takes(server_factory, phone):
    """Werewolf needs 8 players: the form said so only as the refusal, once sent. It says
    it as the game is chosen, in the phone's language, and offers rows enough."""
    server = server_factory()
    host = phone("pt-BR")
    host.goto(server.url + "/new")
    note = host.locator("#player-count")
    host.select_option("#game", "werewolf")
    expect(note).to_have_text("Lobisomem: de 8 a 18 jogadores.")
    expect(host.locator("input[name=player]")).to_have_count(8)
    host.select_option("#game", "uno")
    expect(note).to_contain_text("de 2 a 10 jogadores.")
    expect(host.locator("input[name=player]")).to_have_count(8)  # (the names typed stay)
    assert host.js_errors == []


def test_a_stream_answered_with_an_error_is_opened_again(server_factory, phone):
    """The browser retries a dropped live stream by itself, but not one answered with an
    error (the companion restarting behind the Wi-Fi): the phone stayed stale, its dot
    grey, until reloaded. It opens the stream again, and catches up."""
    server = server_factory()
    _, created = server.request("POST", "/api/tables", {
        "game": "scorepad", "players": ["Ana", "Bruno"], "pin": "2468"})
    tid = created["table"]["id"]
    page = phone()
    refused = []

    def busy(route):
        refused.append(route.request.url)
        route.fulfill(status=503, body="restarting")

    page.route("**/stream*", busy)
    page.goto(server.url + created["url"])
    expect(page.locator("#live")).to_have_class("dot off")
    page.unroute("**/stream*")
    status, _ = server.request("POST", f"/api/tables/{tid}/actions", {
        "action": {"type": "add_round", "scores": [3, 4]}}, {"X-Host-Pin": "2468"})
    assert status == 200 and refused
    expect(page.locator("#live")).to_have_class("dot on")
    # the round entered while the stream was refused: the first message brings it
    expect(page.locator('.total[data-seat="0"]')).to_have_text("3")
    expect(page.locator('.total[data-seat="1"]')).to_have_text("4")
    assert page.js_errors == []


# ---- a score pad on a small phone (the tester's 360 px phones) ------------------------------

PIN = {"X-Host-Pin": "2468"}


def new_pad(server, players, played=(), options=None):
    _, created = server.request("POST", "/api/tables", {
        "game": "scorepad", "players": list(players), "pin": "2468", "options": options or {}})
    tid = created["table"]["id"]
    for scores in played:
        status, _ = server.request("POST", f"/api/tables/{tid}/actions",
                                   {"action": {"type": "add_round", "scores": scores}}, PIN)
        assert status == 200
    return tid


def open_as(page, server, tid, pin=None, token=None):
    """The table's page on a phone that is already the host (its PIN kept) or a seat."""
    page.goto(server.url + "/")
    if pin:
        page.evaluate(f"localStorage.setItem('tc.pin.{tid}', JSON.stringify('{pin}'))")
    if token:
        page.evaluate(f"localStorage.setItem('tc.token.{tid}', JSON.stringify({token}))")
    page.evaluate(f"localStorage.setItem('tc.watch.{tid}', 'true')")
    page.goto(f"{server.url}/t/{tid}")


def expect_scores(page, values):
    """The round form's boxes hold these values (waited for, as expect() does)."""
    got = """() => [...document.querySelectorAll('#sp-inputs input')].map((i) => i.value)"""
    try:
        page.wait_for_function(f"(want) => JSON.stringify(({got})()) === JSON.stringify(want)",
                               arg=values, timeout=5000)
    except Exception:
        assert page.evaluate(got) == values
        raise


def seat_token(server, tid, seat):
    status, res = server.request("POST", f"/api/tables/{tid}/join", {"seat": seat})
    assert status == 201
    return {"token": res["token"], "seat": seat}


# every number cell on one line, whole (not "210/0"), and what overflows scrolls in its card
NUMBERS_WHOLE = """() => {
  const bad = [];
  for (const c of document.querySelectorAll('#sp-rounds td, #sp-rounds th')) {
    if (!/^-?[0-9]+$/.test(c.textContent)) continue;
    const r = document.createRange(); r.selectNodeContents(c);
    const lines = new Set([...r.getClientRects()].map((x) => Math.round(x.top)));
    if (lines.size !== 1) bad.push(c.textContent);
  }
  return bad;
}"""
INSIDE_CARD = """() => {
  const card = document.querySelector('#sp-rounds').closest('.card').getBoundingClientRect();
  const out = [];
  for (const b of document.querySelectorAll('#sp-rounds button')) {
    const r = b.getBoundingClientRect();
    if (r.left < card.left || r.right > card.right) out.push([b.dataset.round, r.left, r.right]);
  }
  return out;
}"""


def test_the_rounds_table_never_breaks_a_number_on_a_small_phone(server_factory, phone):
    """At 360 px, with 5 players, "2100" showed as "210/0" and "-1500" as "-15/00" (the
    body's overflow-wrap: anywhere reached the table); with 8 players even "25" as "2/5",
    and at 320 px the host's Edit button stuck out of its card. Numbers stay whole; the table
    scrolls sideways inside its card; the page itself never gets wider than the phone."""
    server = server_factory()
    five = new_pad(server, ["Guilherme", "Fernanda", "Rafael", "Beatriz", "Leonardo"],
                   [[1200, -350, 35, 0, 480], [0, 2100, -1500, 15, 12]])
    eight = new_pad(server, ["Guilherme", "Fernanda", "Rafael", "Beatriz", "Leonardo",
                             "W" * 24, "Maria Eduarda", "Chen"],
                    [[25, -350, 35, 0, 480, 1, 2, 3], [0, 2100, -1500, 15, 12, -999999, 7, 8]])
    for width in (320, 360):
        for tid in (five, eight):
            for host in (False, True):
                page = phone(width=width, scheme="dark")
                open_as(page, server, tid, pin="2468" if host else None)
                expect(page.locator("#sp-rounds tbody tr")).to_have_count(2)
                if host:
                    expect(page.locator('#sp-rounds button[data-round="1"]')).to_be_visible()
                where = (width, tid == eight, host)
                assert page.evaluate(NUMBERS_WHOLE) == [], where
                cells = page.locator("#sp-rounds td").all_text_contents()
                assert "2100" in cells and "-1500" in cells, where
                assert page.evaluate("document.scrollingElement.scrollWidth") <= width, where
                assert page.evaluate(INSIDE_CARD) == [], where
                # the table scrolls in its card, not the page (read in one go: a live update
                # may draw the table again between finding it and reading it)
                assert page.evaluate("""() => {
                    const b = document.querySelector('#sp-rounds .rounds-scroll');
                    return b.clientWidth <= b.closest('.card').clientWidth; }"""), where
                assert page.js_errors == [], where


TICKS = """() => {
  const svg = document.querySelector('#sp-chart svg').getBoundingClientRect();
  return [...document.querySelectorAll('#sp-chart text.tick[data-value]')].map((t) => {
    const r = t.getBoundingClientRect();
    return { text: t.textContent, inside: r.left >= svg.left - 0.5 && r.right <= svg.right + 0.5,
             px: parseFloat(getComputedStyle(t).fontSize) * svg.width
                 / document.querySelector('#sp-chart svg').viewBox.baseVal.width,
             fill: getComputedStyle(t).fill };
  });
}"""


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_the_chart_keeps_the_minus_sign_is_readable_and_says_whose_line(
        server_factory, phone, scheme):
    """Totals 2350 and -1200 showed the axis labels "2" and "1200": the minus cut off, a
    negative read as a positive, in 9.7 px text; and nothing said which line was whose."""
    server = server_factory()
    tid = new_pad(server, ["Ana", "Bruno"], [[2350, -1200]])
    page = phone(width=360, scheme=scheme)
    open_as(page, server, tid)
    expect(page.locator("#sp-chart svg")).to_be_visible()
    ticks = page.evaluate(TICKS)
    assert sorted(t["text"] for t in ticks) == ["-1200", "0", "2350"]
    for t in ticks:
        assert t["inside"], t  # whole, the minus too
        assert t["px"] >= 13, t  # at arm's length
    muted = {"dark": "rgb(154, 163, 173)", "light": "rgb(92, 100, 112)"}[scheme]
    assert {t["fill"] for t in ticks} == {muted}
    # the legend: each line's colour and its player
    legend = page.locator("#sp-chart .legend li")
    expect(legend).to_have_text(["Ana", "Bruno"])
    keys = page.evaluate("""() => [...document.querySelectorAll('#sp-chart .legend .key')]
        .map((k) => getComputedStyle(k).backgroundColor)""")
    lines = page.evaluate("""() => [...document.querySelectorAll('#sp-chart .series')]
        .map((l) => { const d = document.createElement('i');
                      d.style.color = l.getAttribute('stroke'); document.body.append(d);
                      const c = getComputedStyle(d).color; d.remove(); return c; })""")
    assert keys == lines and len(set(keys)) == 2
    names = page.evaluate("""() => [...document.querySelectorAll('#sp-chart .legend li')]
        .map((l) => getComputedStyle(l).color)""")
    fg = {"dark": "rgb(241, 243, 245)", "light": "rgb(21, 23, 28)"}[scheme]
    assert set(names) == {fg}
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 360
    assert page.js_errors == []


def test_two_phones_typing_the_same_round_save_it_once(server_factory, phone):
    """Ana's and Bruno's phones both typed 7, 8, 9, 10 and tapped Save: Bruno's was refused
    as stale and kept its scores, and Save again added the round twice. Bruno's form now says
    that Ana's phone saved it and clears itself; a different round is saved when he taps
    Save again, once told."""
    server = server_factory()
    tid = new_pad(server, ["Ana", "Bruno", "Chen", "Dara"])
    ana, bruno = phone(), phone("pt-BR")
    # (Bruno's live stream does not come: his phone has not seen Ana's round when he taps)
    bruno.route("**/stream*", lambda route: route.abort())
    open_as(ana, server, tid, token=seat_token(server, tid, 0))
    open_as(bruno, server, tid, token=seat_token(server, tid, 1))
    for page in (ana, bruno):
        expect(page.locator("#sp-in-3")).to_be_visible()
        for seat, value in enumerate(["7", "8", "9", "10"]):
            page.fill(f"#sp-in-{seat}", value)
    ana.get_by_role("button", name="Save the round").click()
    expect(ana.locator("#toast")).to_have_text("Round saved.")
    bruno.get_by_role("button", name="Salvar a rodada").click()
    notice = bruno.locator("#sp-notice")
    expect(notice).to_have_text(
        "O celular de Ana já salvou estas pontuações como rodada 1 (7, 8, 9, 10): as suas não "
        "foram salvas de novo. Se for outra rodada, digite-a de novo.")
    expect_scores(bruno, ["", "", "", ""])
    bruno.get_by_role("button", name="Salvar a rodada").click()  # (an empty form: nothing)
    expect(bruno.locator("#toast")).to_have_text("Digite primeiro as pontuações da rodada.")
    assert server.request("GET", f"/api/tables/{tid}")[1]["public"]["rounds"] == [[7, 8, 9, 10]]

    # another round, typed on both again but different on Bruno's: kept, and said
    for seat, value in enumerate(["1", "2", "3", "4"]):
        ana.fill(f"#sp-in-{seat}", value)
        bruno.fill(f"#sp-in-{seat}", str(int(value) * 10))
    ana.get_by_role("button", name="Save the round").click()
    expect(ana.locator("#sp-rounds tbody tr")).to_have_count(2)  # (saved)
    expect_scores(ana, ["", "", "", ""])  # (and the answer taken in: her form cleared)
    bruno.get_by_role("button", name="Salvar a rodada").click()
    expect(notice).to_have_text("O celular de Ana acabou de salvar a rodada 2 (1, 2, 3, 4). "
                                "Salve a sua só se for outra rodada.")
    expect_scores(bruno, ["10", "20", "30", "40"])
    bruno.get_by_role("button", name="Salvar a rodada").click()
    expect(bruno.locator("#toast")).to_have_text("Rodada salva.")
    expect(notice).to_be_hidden()
    assert server.request("GET", f"/api/tables/{tid}")[1]["public"]["rounds"] == [
        [7, 8, 9, 10], [1, 2, 3, 4], [10, 20, 30, 40]]

    # with the live stream: the host's round comes while Ana has one typed; she is told at
    # once, and the same scores saved again are not sent
    for seat, value in enumerate(["5", "5", "5", "5"]):
        ana.fill(f"#sp-in-{seat}", value)
    server.request("POST", f"/api/tables/{tid}/actions",
                   {"action": {"type": "add_round", "scores": [5, 5, 5, 5]}}, PIN)
    expect(ana.locator("#sp-notice")).to_have_text(
        "The host's phone just saved round 4 (5, 5, 5, 5). Save yours only if it is another "
        "round.")
    ana.get_by_role("button", name="Save the round").click()
    expect(ana.locator("#sp-notice")).to_contain_text(
        "The host's phone already saved these scores as round 4 (5, 5, 5, 5)")
    expect_scores(ana, ["", "", "", ""])
    assert len(server.request("GET", f"/api/tables/{tid}")[1]["public"]["rounds"]) == 4
    assert ana.js_errors == [] and bruno.js_errors == []


def test_an_empty_form_saves_nothing_and_phone_keyboards_digits_count(server_factory, phone):
    """An empty form saved a round of zeros ("Round saved."; with 3 rounds to play, three
    stray taps ended the game). A box left empty among typed ones is 0, as the form says;
    full-width digits (a Chinese keyboard's) and "+5" are numbers."""
    server = server_factory()
    tid = new_pad(server, ["Ana", "Bruno", "Chen"], options={"rounds": 3})
    page = phone("zh-CN")
    open_as(page, server, tid, token=seat_token(server, tid, 0))
    expect(page.locator("#sp-hint")).to_have_text("留空的格子计为 0。")
    save = page.locator("#sp-save")
    for _ in range(3):
        save.click()
        expect(page.locator("#toast")).to_have_text("请先输入本轮的分数。")
    assert server.request("GET", f"/api/tables/{tid}")[1]["public"]["rounds"] == []
    page.fill("#sp-in-0", "５")  # (full-width)
    page.fill("#sp-in-1", "+5")
    save.click()
    expect(page.locator('.total[data-seat="0"]')).to_have_text("5")
    expect(page.locator('.total[data-seat="1"]')).to_have_text("5")
    expect(page.locator('.total[data-seat="2"]')).to_have_text("0")
    # (the totals come by the live stream, which may beat the save's answer; the form is
    # cleared on the answer, and what is typed before it would be wiped)
    expect_scores(page, ["", "", ""])
    page.fill("#sp-in-0", "0")  # (a typed 0 is a score)
    save.click()
    expect(page.locator("#sp-rounds tbody tr")).to_have_count(2)
    expect_scores(page, ["", "", ""])
    page.fill("#sp-in-2", "－１２")  # (a full-width minus)
    save.click()
    expect(page.locator('.total[data-seat="2"]')).to_have_text("-12")
    assert server.request("GET", f"/api/tables/{tid}")[1]["public"]["rounds"] == [
        [5, 5, 0], [0, 0, 0], [0, 0, -12]]
    assert page.js_errors == []


def test_a_correction_whose_round_is_undone_closes_and_a_half_typed_round_is_kept(
        server_factory, phone):
    """The host tapped Edit on round 3, Undo took round 3 away, and the form still offered
    "Correct round 3" (Save: "There is no round 2."). It closes and says why. A new round
    half typed before Edit is back after Cancel or the correction (it was thrown away)."""
    server = server_factory()
    tid = new_pad(server, ["Ana", "Bruno"], [[1, 2], [3, 4], [5, 6]])
    host = phone()
    open_as(host, server, tid, pin="2468")
    expect(host.locator("#sp-rounds tbody tr")).to_have_count(3)
    host.fill("#sp-in-0", "42")  # a new round, half typed
    host.locator('button[data-round="2"]').click()
    expect(host.locator("#sp-entry-title")).to_have_text("Correct round 3")
    expect_scores(host, ["5", "6"])
    host.get_by_role("button", name="Cancel").click()
    expect(host.locator("#sp-entry-title")).to_have_text("Add a round")
    expect_scores(host, ["42", ""])

    host.locator('button[data-round="2"]').click()
    host.fill("#sp-in-0", "50")
    host.locator("#host-panel summary", has_text="Host").click()
    host.get_by_role("button", name="Undo the last action").click()
    expect(host.locator("#sp-rounds tbody tr")).to_have_count(2)
    expect(host.locator("#sp-entry-title")).to_have_text("Add a round")
    expect(host.locator("#sp-notice")).to_have_text(
        "Round 3 was undone: there is nothing to correct.")
    expect_scores(host, ["42", ""])

    host.locator('button[data-round="0"]').click()
    host.fill("#sp-in-0", "10")
    host.get_by_role("button", name="Save the round").click()
    expect(host.locator("#toast")).to_have_text("Round corrected.")
    expect_scores(host, ["42", ""])
    assert server.request("GET", f"/api/tables/{tid}")[1]["public"]["rounds"] == [[10, 2], [3, 4]]
    assert host.js_errors == []


def test_a_pad_ended_before_any_round_names_no_winner(server_factory, phone):
    server = server_factory()
    tid = new_pad(server, ["Ana", "Bo"])
    status, _ = server.request("POST", f"/api/tables/{tid}/actions",
                               {"action": {"type": "end_game"}}, PIN)
    assert status == 200
    page = phone("pt-BR")
    open_as(page, server, tid)
    expect(page.locator("#sp-result")).to_have_text("Fim de jogo: nenhuma rodada foi jogada.")
    assert page.js_errors == []


def test_a_bad_option_on_the_form_is_named_as_the_form_shows_it(server_factory, phone):
    """Typing abc, 1.5 or 100,5 as the target answered "A opção target tem o tipo errado.":
    the option's id, and not what it takes."""
    server = server_factory()
    page = phone("pt-BR")
    page.goto(server.url + "/new")
    for i, name in enumerate(["Ana", "Bruno"]):
        page.locator("input[name=player]").nth(i).fill(name)
    page.fill("input[name=pin]", "2468")
    for typed in ("abc", "1.5", "100,5"):
        page.fill("input[name=target]", typed)
        page.get_by_role("button", name="Criar a mesa").click()
        expect(page.locator("#toast")).to_have_text(
            "“Termina quando um total atinge esta pontuação (nenhum: sem meta)”: digite um "
            "número inteiro de 1 a 1000000.")
        page.locator("#toast").evaluate("t => t.className = ''")
    assert page.js_errors == []


def test_the_round_form_keeps_a_name_on_one_line_on_a_small_phone(server_factory, phone):
    """At 320 px the 7rem score boxes left the names about 60 px: "Beatriz" broke as
    "Beatri/z", "Guilherme" as "Guilhe/rme". A name of one ordinary word stays whole; one
    of 24 letters still breaks rather than widen the page."""
    server = server_factory()
    players = ["Guilherme", "Fernanda", "Beatriz", "Maria Eduarda", "W" * 24]
    tid = new_pad(server, players, [])
    _, joined = server.request("POST", f"/api/tables/{tid}/join", {"seat": 0})
    page = phone(width=320)
    open_as(page, server, tid, token={"token": joined["token"], "seat": 0})
    page.locator("#sp-in-0").wait_for()
    # the lines each name takes (a text's range has a box per line)
    lines = page.evaluate("""() => [...document.querySelectorAll('.score-row label')].map((l) => {
        const r = document.createRange(); r.selectNodeContents(l);
        return new Set([...r.getClientRects()].map((b) => Math.round(b.top))).size; })""")
    assert lines[:3] == [1, 1, 1] and lines[4] > 1, lines
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 320


def test_a_host_who_holds_a_seat_acts_as_that_seat(server_factory, phone):
    """With "Act for: (my own seat)", a host's phone that holds a seat sent no seat at all,
    and its moves were the host's alone: in Werewolf a wolf's tap chose for the whole pack,
    and "I have seen my card" was refused."""
    server = server_factory()
    tid = new_pad(server, ["Ana", "Bruno"], [])
    _, joined = server.request("POST", f"/api/tables/{tid}/join", {"seat": 1})
    page = phone()
    open_as(page, server, tid, pin="2468", token={"token": joined["token"], "seat": 1})
    page.locator("#sp-in-0").fill("3")
    # The response, not the request: the history is read only once the table has answered.
    with page.expect_response(lambda r: r.url.endswith(f"/api/tables/{tid}/actions")) as sent:
        page.get_by_role("button", name="Save the round").click()
    assert sent.value.ok
    assert sent.value.request.post_data_json["as_seat"] == 1
    _, history = server.request("GET", f"/api/tables/{tid}/history",
                                headers={"X-Host-Pin": "2468"})
    assert history["history"][-1]["actor"] == {"seat": 1, "host": True, "source": "web"}


def test_a_pin_the_table_refuses_is_dropped_and_the_page_still_opens(server_factory, phone):
    """A wrong PIN kept on a phone left the table page blank: no game, no stream, and no
    way even to watch."""
    server = server_factory()
    tid = new_pad(server, ["Ana", "Bruno"], [[1, 2]])
    page = phone()
    open_as(page, server, tid, pin="0000")
    expect(page.locator("#sp-rounds tbody tr")).to_have_count(1)
    expect(page.locator("#live")).to_have_class("dot on")
    assert page.evaluate(f"localStorage.getItem('tc.pin.{tid}')") is None


def test_the_next_round_begun_before_the_save_is_answered_is_kept(server_factory, phone):
    """The live stream may bring a saved round's totals before the save's own answer; the
    form was cleared on the answer, and what a player had begun typing for the next round
    was lost. Only what was saved is cleared."""
    server = server_factory()
    tid = new_pad(server, ["Ana", "Bruno", "Chen"])
    page = phone()
    held = []  # (the save's answer, held back until the live stream has come)

    def hold(route):
        if route.request.method == "POST":
            held.append((route, route.fetch()))  # (the server has done it; the page waits)
        else:
            route.continue_()

    page.route("**/actions", hold)
    open_as(page, server, tid, token=seat_token(server, tid, 0))
    page.fill("#sp-in-0", "5")
    page.fill("#sp-in-1", "7")
    page.locator("#sp-save").click()
    expect(page.locator('.total[data-seat="1"]')).to_have_text("7")  # (by the stream)
    page.fill("#sp-in-2", "9")  # the next round, begun
    for _ in range(100):  # (the handler may still be storing the answer it fetched)
        if held:
            break
        page.evaluate("0")
    route, answer = held.pop()
    route.fulfill(response=answer)
    expect(page.locator("#toast")).to_have_text("Round saved.")
    expect_scores(page, ["", "", "9"])
    assert page.js_errors == []


def test_a_form_sent_before_the_page_is_ready_does_not_put_the_pin_in_the_address(
        server_factory, phone):
    """The new-table and host PIN forms get their handlers once the page's words came (pt-BR,
    a slow link). A tap before that had the browser send the form itself: the page reloaded
    with the PIN in its address (and the history). Now such a tap sends nothing."""
    server = server_factory()
    _, created = server.request("POST", "/api/tables", {
        "game": "scorepad", "players": ["Ana", "Bruno"], "pin": "2468"})
    page = phone("pt-BR")
    sent = []
    page.on("request", lambda r: sent.append(r.url) if "pin=" in r.url else None)
    held, hold = [], []  # (the words held back for the page opened, not for a page sent)
    page.route("**/api/i18n/*", lambda route: held.append(route) if hold.pop() else
               route.continue_())
    for path, form in (("/new", "#new-table"), (created["url"], "#host-login")):
        hold[:] = [False, True]
        with page.expect_request(lambda r: "/api/i18n/" in r.url):
            page.goto(server.url + path)
        page.locator(form + " input[name=pin]").evaluate("(i) => { i.value = '2468'; }")
        page.locator(form).evaluate("(f) => f.requestSubmit()")
        assert len(held) == 1
        held.pop().continue_()
        # the page ready: the new-table form's players, the table's seats
        page.locator("input[name=player], #seats button").first.wait_for(state="attached")
        assert sent == [] and "pin=" not in page.url, (path, sent)
    assert page.js_errors == []


SEEN_WHOLE = """() => {
  const box = document.querySelector('#sp-rounds .rounds-scroll');
  const out = [];
  // every name whole: nothing of its text cut off in its cell
  for (const th of box.querySelectorAll('thead th')) {
    const n = th.querySelector('.name');
    if (!n) continue;
    const r = n.getBoundingClientRect(), c = th.getBoundingClientRect();
    if (n.scrollWidth > n.clientWidth + 1 || r.left < c.left - 1 || r.right > c.right + 1)
      out.push('cut: ' + n.textContent);
  }
  // every cell of every column can be seen: scrolled to, it is not under the sticky edges
  for (const td of box.querySelectorAll('tbody td.num, thead th[title]')) {
    td.scrollIntoView({ block: 'nearest', inline: 'center' });
    const r = td.getBoundingClientRect();
    const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!at || !td.contains(at)) out.push('hidden: ' + td.textContent);
  }
  return out;
}"""


@pytest.mark.parametrize("host", [False, True])
def test_the_rounds_table_shows_every_name_whole_and_says_it_scrolls(
        server_factory, phone, host):
    """Issue 37 #7: at 360 px a long name was cut, its column's values hidden, and the last
    player off-screen with no sign that the table scrolls."""
    server = server_factory()
    tid = new_pad(server, ["Maria Eduarda Nascimento", "Bartholomew", "Guilherme", "W" * 24,
                           "Leonardo", "Chen"],
                  [[120, -35, 35, 0, 480, 7], [0, 2100, -1500, 15, 12, 9]])
    page = phone(width=360)
    open_as(page, server, tid, pin="2468" if host else None)
    expect(page.locator("#sp-rounds tbody tr")).to_have_count(2)
    # (the live stream's first view redraws the table, its scroll back at the start: it is
    # waited for before the test scrolls)
    expect(page.locator("#live")).to_have_class("dot on")
    box = page.locator("#sp-rounds .rounds-scroll")
    assert page.evaluate("""() => { const b = document.querySelector('#sp-rounds .rounds-scroll');
        return b.scrollWidth > b.clientWidth; }""")  # (six players: wider than the phone)
    hint = page.locator("#sp-rounds .scroll-hint")
    expect(hint).to_be_visible()
    expect(box).to_have_class("rounds-scroll more-right")
    assert page.evaluate(SEEN_WHOLE) == []
    box.evaluate("(b) => { b.scrollLeft = b.scrollWidth; }")
    expect(box).to_have_class("rounds-scroll more-left")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 360
    assert page.js_errors == []


def test_a_new_round_leaves_the_rounds_table_where_it_was_scrolled(server_factory, phone):
    """A round entered at another phone redrew the table at its first column, under the eyes
    of a player reading the last ones."""
    server = server_factory()
    players = ["Maria Eduarda Nascimento", "Bartholomew", "Guilherme", "W" * 24, "Leonardo",
               "Chen"]
    tid = new_pad(server, players, [[120, -35, 35, 0, 480, 7]])
    page = phone(width=360)
    open_as(page, server, tid)
    expect(page.locator("#sp-rounds tbody tr")).to_have_count(1)
    expect(page.locator("#live")).to_have_class("dot on")
    box = page.locator("#sp-rounds .rounds-scroll")
    box.evaluate("(b) => { b.scrollLeft = b.scrollWidth; }")
    expect(box).to_have_class("rounds-scroll more-left")
    status, _ = server.request("POST", f"/api/tables/{tid}/actions",
                               {"action": {"type": "add_round", "scores": [1, 2, 3, 4, 5, 6]}},
                               PIN)
    assert status == 200
    expect(page.locator("#sp-rounds tbody tr")).to_have_count(2)
    expect(box).to_have_class("rounds-scroll more-left")
    assert box.evaluate("(b) => b.scrollLeft + b.clientWidth >= b.scrollWidth - 1")
    assert page.js_errors == []


@pytest.mark.parametrize("width", [320, 360])
def test_the_uno_form_shows_the_rules_sheet_in_one_line_until_changed(
        server_factory, phone, width):
    """Issue 37 #8: UNO's new-table form was one 3,750 px page of 19 open options, choices
    cut off in their selects and checkboxes between two labels."""
    server = server_factory()
    page = phone("pt-BR", width=width)
    page.goto(server.url + "/new")
    page.select_option("#game", "uno")
    summary = page.locator("#rules-summary")
    expect(summary).to_contain_text("21")
    expect(page.locator("#rules")).not_to_have_attribute("open", "")
    assert page.evaluate("document.scrollingElement.scrollHeight") < 2.5 * 740
    page.locator("#rules summary").click()
    # each checkbox with its own words on its line, inside the same label
    boxes = page.locator("#rules label.check:has(input[type=checkbox])")
    assert boxes.count() >= 8
    assert page.evaluate("""() => [...document.querySelectorAll('#rules input[type=checkbox]')]
        .every((i) => i.closest('label') && i.closest('label').textContent.trim().length > 3
                 && Math.abs(i.getBoundingClientRect().top
                     - i.closest('label').getBoundingClientRect().top) < 12)""")
    # no choice cut off: a few choices are each a line of their own, whole
    cut = page.evaluate("""() => [...document.querySelectorAll('#options select')].filter(
        (s) => s.scrollWidth > s.clientWidth + 1).map((s) => s.name)""")
    assert cut == []
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width
    # a rule changed is counted on the line
    page.locator("[data-option=jump_in] input").check()
    expect(summary).to_have_text(re.compile(r"^1 "))
    for i, name in enumerate(["Ana", "Bruno"]):
        page.locator("input[name=player]").nth(i).fill(name)
    page.locator("[data-option=first_dealer] input[value='\"first_seat\"']").check()
    page.fill("input[name=pin]", "2468")
    page.get_by_role("button", name="Criar a mesa").click()
    expect(page.locator("#whoami")).to_be_visible()
    tid = page.url.rstrip("/").split("/")[-1].split("?")[0]
    options = server.request("GET", f"/api/tables/{tid}")[1]["table"]["options"]
    assert options["jump_in"] is True and options["first_dealer"] == "first_seat"
    assert options["scoring"] == "standard"
    assert page.js_errors == []


def test_every_player_can_export_the_scores(server_factory, phone):
    """CSV/JSON export for every player, not only the host (the links were among the host's
    tools)."""
    server = server_factory()
    tid = new_pad(server, ["Ana", "Bruno"], [[12, 7]])
    page = phone(width=360)
    page.goto(f"{server.url}/t/{tid}?join=1")
    page.locator('#seats button[data-seat="1"]').click()
    expect(page.locator("#whoami")).to_have_text("You are Bruno")
    expect(page.locator("#host-tools")).to_be_hidden()
    with page.expect_download() as got:
        page.locator("#export-csv").click()
    text = Path(got.value.path()).read_text(encoding="utf-8-sig")
    assert "Ana" in text and "Bruno" in text and "12" in text
    with page.expect_download() as got:
        page.locator("#export-json").click()
    assert '"Bruno"' in Path(got.value.path()).read_text(encoding="utf-8")
    assert page.js_errors == []
