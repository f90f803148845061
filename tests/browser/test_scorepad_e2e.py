"""Two phones at one score pad, in real headless Chromium.

The host creates the table, a second phone (asking for Portuguese) joins through the URL in
the QR code the host's screen shows, and a round entered on either phone appears on the
other through the SSE stream.
"""

from __future__ import annotations

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
    # each choice by what it means, in the phone's language (not "own_hand")
    expect(host.locator("select[name=scoring] option")).to_have_text([
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
