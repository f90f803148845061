"""A Kingsburg season played on two phones in Chromium: the King's aid chosen, the rolls
typed on the keypads, the advisors influenced from the legal moves each phone highlights, a
building built, and the board at a glance agreeing on both phones; and the page fits a
360 px phone in every language (and 320 px) with the board full."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.slow]
PIN = {"X-Host-Pin": "2468"}


def table(server, players=("Ann", "Brian"), **options) -> str:
    options = {"initial_order": "seats", "two_player_block": False, **options}
    status, created = server.request("POST", "/api/tables", {
        "game": "kingsburg", "players": list(players), "pin": "2468", "options": options})
    assert status == 201, created
    return created["table"]["id"]


def seated(phone, server, tid, name, locale="en-US", width=None):
    page = phone(locale, width=width)
    page.goto(f"{server.url}/t/{tid}?join=1")
    page.locator("#seats button", has_text=name).click()
    expect(page.locator("#kb-head")).to_be_visible()
    return page


def type_roll(page, values):
    rows = page.locator("#kb-act .kb-die-row")
    for i, v in enumerate(values):
        rows.nth(i).get_by_role("button", name=str(v), exact=True).click()
    page.locator("#kb-roll").click()


def test_a_slow_answer_keeps_the_roll_typed_after_it(server_factory, phone):
    """Ann's answer to her choice of the King's aid comes late (a phone's slow network), after
    Brian's choice has opened the spring and she has typed her roll: the late answer spends
    what was picked when she chose, not the roll (it had wiped it, and a CI run under load
    found "Send the roll" disabled)."""
    server = server_factory()
    tid = table(server)
    ann = seated(phone, server, tid, "Ann")
    brian = seated(phone, server, tid, "Brian")
    held = []
    # (the action reaches the server at once; only its answer is kept back)
    ann.route("**/actions", lambda route: held.append((route, route.fetch())))
    ann.locator('#kb-choice [data-good="wood"]').click()
    brian.locator('#kb-choice [data-good="gold"]').click()
    expect(ann.locator("#kb-year")).to_have_text("Year 1 of 5 · Spring")
    rows = ann.locator("#kb-act .kb-die-row")
    for i, v in enumerate([1, 3, 5]):
        rows.nth(i).get_by_role("button", name=str(v), exact=True).click()
    assert len(held) == 1
    route, answer = held[0]
    route.fulfill(response=answer)
    ann.unroute("**/actions")
    expect(ann.locator("#kb-act .kb-pad button[aria-pressed=true]")).to_have_count(3)
    ann.locator("#kb-roll").click()
    expect(ann.locator("#kb-line")).to_have_text("Waiting for Brian")
    assert ann.js_errors == []


def test_a_spring_through_two_phones(server_factory, phone):
    server = server_factory()
    tid = table(server)
    ann = seated(phone, server, tid, "Ann")
    brian = seated(phone, server, tid, "Brian")
    expect(ann.locator("#kb-year")).to_have_text("Year 1 of 5 · Aid from the King")
    expect(ann.locator("#kb-act h2")).to_have_text("Choose a good")
    ann.locator('#kb-choice [data-good="wood"]').click()
    brian.locator('#kb-choice [data-good="gold"]').click()
    expect(ann.locator("#kb-year")).to_have_text("Year 1 of 5 · Spring")

    type_roll(ann, [1, 3, 5])
    expect(ann.locator("#kb-line")).to_have_text("Waiting for Brian")
    type_roll(brian, [4, 4, 5])
    # Ann (9) before Brian (13): her phone lists her legal placements, his does not
    expect(ann.locator("#kb-line")).to_have_text("Your move")
    expect(brian.locator("#kb-line")).to_have_text("Waiting for Ann")
    expect(ann.locator('#kb-moves [data-advisor="8"]')).to_have_count(1)
    expect(ann.locator('#kb-advisors .kb-adv.legal[data-advisor="9"]')).to_have_count(1)
    expect(brian.locator("#kb-moves")).to_have_count(0)
    ann.locator('#kb-moves [data-advisor="8"]').click()
    expect(brian.locator('#kb-moves [data-advisor="13"]')).to_have_count(1)
    expect(brian.locator('#kb-advisors .kb-adv.taken[data-advisor="8"]')).to_have_count(1)
    brian.locator('#kb-moves [data-advisor="13"]').click()
    ann.locator('#kb-moves [data-advisor="1"]').click()
    # the help is paid (Jester, Treasurer, Champion); Ann builds the Statue
    expect(ann.locator("#kb-act h2")).to_have_text("Build")
    expect(ann.locator('#kb-build [data-building="church"]')).to_have_count(0)
    ann.locator('#kb-build [data-building="statue"]').click()
    brian.locator("#kb-done").click()
    # the King's Reward goes to Ann (the most buildings); Summer's roll is next
    for page in (ann, brian):
        expect(page.locator("#kb-year")).to_have_text("Year 1 of 5 · Summer")
        expect(page.locator('.kb-player[data-seat="0"] .kb-vp')).to_have_text("5 VP")
        expect(page.locator('.kb-player[data-seat="1"] .kb-good.stone')).to_have_text("Stone 3")
        expect(page.locator('.kb-player[data-seat="0"] .kb-buildings')).to_have_text("Statue")
    assert ann.js_errors == [] and brian.js_errors == []


@pytest.mark.parametrize(("locale", "width"), [("en-US", 360), ("pt-BR", 360), ("zh-CN", 360),
                                               ("en-US", 320)])
def test_the_board_fits_a_small_phone(server_factory, phone, locale, width):
    """The board full (13 buildings, every good, the Envoy, a white die, the legal moves) and
    the other player named with 24 letters and no space."""
    server = server_factory()
    tid = table(server, players=("Ann", "W" * 24))
    buildings = ["statue", "chapel", "church", "cathedral", "inn", "market", "farms",
                 "guard_tower", "palisade", "stable", "stone_wall", "barricade", "crane"]
    status, _ = server.request("POST", f"/api/tables/{tid}/actions", {"action": {
        "type": "position", "year": 4, "phase": 4, "envoy": 0,
        "players": [{"gold": 12, "wood": 10, "stone": 9, "plus2": 3, "vp": 48,
                     "buildings": buildings},
                    {"gold": 1, "vp": 7, "buildings": ["inn", "market"]}],
        "season": {"dice": [[6, 5, 4], [1, 2, 3]], "white": [[3], []], "turn": 0}}}, PIN)
    assert status == 200
    page = seated(phone, server, tid, "Ann", locale=locale, width=width)
    expect(page.locator("#kb-moves .kb-move").first).to_be_visible()
    overflow = page.evaluate("""() => {
        const out = [];
        if (document.documentElement.scrollWidth > window.innerWidth) out.push('page');
        for (const e of document.querySelectorAll('#game *')) {
            const r = e.getBoundingClientRect();
            if (r.width && (r.right > window.innerWidth + 0.5 || r.left < -0.5))
                out.push(e.className || e.tagName);
            if (e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX === 'visible'
                && e.children.length === 0 && e.clientWidth) out.push('cut:' + e.textContent);
        }
        return out;
    }""")
    assert overflow == [], overflow
    assert page.js_errors == []


def test_the_host_corrects_the_board_and_starts_from_a_game_on_paper(server_factory, phone):
    from tests.browser.conftest import open_as_host

    server = server_factory()
    tid = table(server)
    host = phone("en-US")
    open_as_host(host, f"{server.url}/t/{tid}", tid)
    fix = host.locator("#kb-fix")
    expect(fix).to_be_visible()
    fix.locator("summary").click()
    expect(host.locator("#kb-fix-gold-0")).to_have_value("0")
    host.fill("#kb-fix-gold-0", "7")
    host.locator('.kb-fix-player[data-seat="1"] input[data-building="palisade"]').check()
    host.locator("#kb-fix-apply").click()
    expect(host.locator("#toast")).to_have_text("The board is corrected.")
    expect(host.locator('.kb-player[data-seat="0"] .kb-good.gold')).to_have_text("Gold 7")
    expect(host.locator('.kb-player[data-seat="1"] .kb-buildings')).to_have_text("Palisade")
    assert host.locator("#kb-year").text_content() == "Year 1 of 5 · Aid from the King"
    # a game under way: year 3, Autumn, with Brian first (the form filled afresh)
    expect(host.locator("#kb-fix-year")).to_have_count(0)
    fix.locator("summary").click()
    expect(host.locator("#kb-fix-gold-0")).to_have_value("7")
    host.select_option("#kb-fix-year", value="3")
    host.select_option("#kb-fix-phase", value="6")
    host.select_option("#kb-fix-place-1", value="1")
    host.select_option("#kb-fix-place-0", value="2")
    host.fill("#kb-fix-vp-0", "21")
    host.locator("#kb-fix-apply").click()
    expect(host.locator("#kb-year")).to_have_text("Year 3 of 5 · Autumn")
    expect(host.locator(".kb-player").first).to_have_attribute("data-seat", "1")
    expect(host.locator('.kb-player[data-seat="0"] .kb-vp')).to_have_text("21 VP")
    assert host.js_errors == []


def test_the_host_s_page_fits_320_px_with_a_long_name(server_factory, phone):
    """The host acts for whoever the game waits for (a button a player) and has the board's
    form: nothing wider than a 320 px phone, a 24-letter name included."""
    from tests.browser.conftest import open_as_host

    server = server_factory()
    tid = table(server, players=("Ann", "W" * 24))
    host = phone("en-US", width=320)
    open_as_host(host, f"{server.url}/t/{tid}", tid)
    expect(host.get_by_role("group", name="Acting for").locator(".btn")).to_have_count(2)
    host.locator("#kb-fix summary").click()
    expect(host.locator("#kb-fix-year")).to_be_visible()
    assert host.evaluate("document.scrollingElement.scrollWidth") <= 320
    assert host.js_errors == []


def test_recruiting_and_a_winter_battle_through_the_phones(server_factory, phone):
    server = server_factory()
    tid = table(server)
    status, _ = server.request("POST", f"/api/tables/{tid}/actions", {"action": {
        "type": "position", "year": 1, "phase": 7,
        "players": [{"gold": 2, "wood": 1, "vp": 3},
                    {"gold": 1, "stone": 1, "vp": 5, "buildings": ["statue", "inn"]}]}}, PIN)
    assert status == 200
    ann = seated(phone, server, tid, "Ann")
    brian = seated(phone, server, tid, "Brian")
    expect(ann.locator("#kb-act h2")).to_have_text("Recruit soldiers")
    ann.locator('.kb-pay [data-good="gold"]').click()
    ann.locator('.kb-pay [data-good="wood"]').click()
    ann.locator("#kb-recruit").click()  # 1 soldier for a gold and a wood
    brian.locator('.kb-pay [data-good="gold"]').click()
    expect(brian.locator("#kb-recruit")).to_have_text("Pay an even number of goods")
    brian.locator('.kb-pay [data-good="stone"]').click()
    expect(brian.locator("#kb-recruit")).to_have_text("Recruit 1 soldier")
    brian.locator('.kb-pay [aria-label="Less Stone"]').click()
    brian.locator('.kb-pay [aria-label="Less Gold"]').click()
    brian.locator("#kb-recruit").click()  # none
    expect(ann.locator("#kb-year")).to_have_text("Year 1 of 5 · Winter: the battle")
    ann.get_by_role("group", name="The King's reinforcements").get_by_role(
        "button", name="1", exact=True).click()
    brian.locator('#kb-enemies [data-card="1-1"]').click()  # Barbarians, 2
    # Ann (1 + 1 = 2 against 2) ties; Brian (0 + 1) loses a good and a building
    expect(brian.locator("#kb-act h2")).to_have_text("Give up a good")
    brian.locator('#kb-choice [data-good="stone"]').click()
    expect(brian.locator("#kb-act h2")).to_have_text("Which building do you lose?")
    brian.locator('#kb-choice [data-building="inn"]').click()
    for page in (ann, brian):
        expect(page.locator("#kb-year")).to_have_text("Year 2 of 5 · Spring")
        expect(page.locator('.kb-player[data-seat="1"] .kb-buildings')).to_have_text("Statue")
        expect(page.locator('.kb-player[data-seat="1"] .kb-good.stone')).to_have_text("Stone 0")
        expect(page.locator('.kb-player[data-seat="0"] .kb-good').nth(3)).to_have_text(
            "Soldiers 0")
    assert ann.js_errors == [] and brian.js_errors == []
