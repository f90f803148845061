"""Versus at a table of three phones and the host, in real headless Chromium.

The piles are reported through the API with the host's PIN, the way the camera reports them
(source-less ``pile_top`` actions: stamped just after the latest time the table has seen);
a phone's SLAP button is pressed (on pointerdown, through ``POST .../slap``, stamped on
arrival by the hardware layer of ``companion serve``); every phone shows the verdict, the
winner gives the second Gem with the chooser, and every phone shows the new counts.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import open_as_host

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PIN = "2468"
PLAYERS = ["Ana", "Bruno", "Chen"]


def act(server, table_id: str, action: dict) -> dict:
    status, body = server.request(
        "POST", f"/api/tables/{table_id}/actions", {"action": action}, headers={"X-Host-Pin": PIN}
    )
    assert status == 200, body
    return body


def test_a_slap_on_a_pair_is_judged_on_every_phone(server_factory, phone):
    server = server_factory()
    status, created = server.request(
        "POST",
        "/api/tables",
        # (late_ms 0: the phones' presses are stamped on arrival, and on a fast run Chen's
        # slap came within the default 500 ms of Bruno's and joined his race as late)
        {"game": "versus", "players": PLAYERS, "pin": PIN, "title": "Versus night",
         "options": {"late_ms": 0}},
    )
    assert status == 201, created
    table_id, url = created["table"]["id"], server.url + created["url"]

    host = phone("en-US")
    open_as_host(host, url, table_id, PIN)
    expect(host.locator("#vs-host h2")).to_have_text("Host tools")

    phones = []
    for name in PLAYERS:
        p = phone("en-US")
        p.goto(url + "?join=1")
        p.locator("#seats button", has_text=name).click()
        expect(p.locator("#whoami")).to_have_text(f"You are {name}")
        expect(p.locator("#vs-slap")).to_be_visible()
        phones.append(p)
    ana, bruno, chen = phones
    everyone = [host, *phones]
    expect(ana.locator(".vs-turn")).to_have_text("Your turn: flip a card.")
    expect(bruno.locator(".vs-turn")).to_have_text("Ana's turn")

    # the "camera" sees Ana flip a star, then Bruno flip another star: a pair
    act(server, table_id, {"type": "pile_top", "seat": 0, "card": "star"})
    act(server, table_id, {"type": "pile_top", "seat": 1, "card": "star"})
    for p in everyone:
        expect(p.locator('.vs-seat[data-seat="1"] .vs-top b')).to_have_text("star")
        expect(p.locator('.vs-seat[data-seat="0"] .vs-discard')).to_have_text("1")
    expect(chen.locator(".vs-turn")).to_have_text("Your turn: flip a card.")

    # Bruno slaps the Gems on his phone (pointerdown, not click)
    bruno.locator("#vs-slap").tap()
    expect(bruno.locator("#vs-head")).to_have_text("You win the slap!")
    for p in (host, ana, chen):
        expect(p.locator("#vs-head")).to_have_text("Bruno wins the slap!")
        expect(p.locator("#vs-order li")).to_have_count(1)
        expect(p.locator("#vs-order li").first).to_contain_text("Bruno")
        expect(p.locator("#vs-decisions li").first).to_contain_text("Bruno won a slap")
        expect(p.locator("#vs-decisions li .vs-by").first).to_have_text("by the rules")

    # only the winner (and the host) are asked whom the second Gem goes to
    expect(bruno.locator("#vs-gift h2")).to_have_text("Give your second Gem to:")
    expect(host.locator("#vs-gift h2")).to_have_text("Bruno gives a Gem to:")
    expect(ana.locator("#vs-gift")).to_be_hidden()
    expect(bruno.locator("#vs-gift-choices button")).to_have_count(2)  # Ana, Chen
    bruno.locator('#vs-gift-choices button[data-seat="2"]').click()

    for p in everyone:
        expect(p.locator("#vs-gift")).to_be_hidden()
        expect(p.locator('.vs-seat[data-seat="1"] .vs-gems b')).to_have_text("1")
        expect(p.locator('.vs-seat[data-seat="2"] .vs-gems b')).to_have_text("1")
        expect(p.locator('.vs-seat[data-seat="0"] .vs-gems b')).to_have_text("0")
        expect(p.locator('.vs-seat[data-seat="1"] .vs-draw')).to_have_text("17")  # 15 + 2 piles
        expect(p.locator('.vs-seat[data-seat="0"] .vs-discard')).to_have_text("0")
        expect(p.locator(".vs-decks")).to_contain_text("Gem deck: 16")
        expect(p.locator("#vs-decisions li").first).to_contain_text("Bruno gave a Gem to Chen")

    # Chen reports his own pile by tapping a picture (no camera on his side); the camera
    # sees Ana's next card and Bruno's pile gone; then Chen slaps: no pair, a wrong slap.
    # (With both collected piles only seen empty, a slap within 2 s of the won one is late:
    # the winner's hand gathering them, rules.GATHER_NS.)
    chen.locator('#vs-palette button[data-card="moon"]').click()
    expect(host.locator('.vs-seat[data-seat="2"] .vs-top b')).to_have_text("moon")
    act(server, table_id, {"type": "pile_top", "seat": 0, "card": "sun"})
    act(server, table_id, {"type": "pile_top", "seat": 1, "card": None})
    chen.locator("#vs-slap").tap()
    for p in everyone:
        expect(p.locator("#vs-verdict")).to_have_attribute("data-kind", "wrong")
        expect(p.locator(".vs-seat[data-seat='2'] .vs-penalty")).to_be_visible()
    expect(ana.locator("#vs-head")).to_have_text("Chen slapped wrong")
    expect(chen.locator("#vs-head")).to_have_text("You slapped wrong!")  # (his own phone)

    # the host overrules it: nobody right, nobody wrong; the penalty goes back
    host.locator("summary", has_text="Overrule the latest slap").click()
    host.locator("#vs-overrule select[name=winner]").select_option("")
    host.locator("#vs-overrule input[name=wrong][value='2']").uncheck()
    host.locator("#vs-overrule button[type=submit]").click()
    for p in everyone:
        expect(p.locator(".vs-seat[data-seat='2'] .vs-penalty")).to_have_count(0)
        expect(p.locator("#vs-decisions li .vs-by").first).to_have_text("by the host")
    expect(ana.locator(".vs-tag.host")).to_have_text("decided by the host")

    # the table's history tells the moves in words
    host.locator("#history-box summary").click()
    expect(host.locator("#history li").first).to_contain_text("overruled the slap: nobody right")
    expect(host.locator("#history li", has_text="gave a Gem to Chen")).to_have_count(1)

    for p in everyone:
        assert p.js_errors == []


def test_the_phones_explain_turns_refusals_and_changed_verdicts_in_their_language(
        server_factory, phone):
    """A pt-BR and a zh phone at one table: a card reported out of turn and a refused report
    are told on the phone that sent them; "Ana and Bruno slapped wrong" agrees in number
    (pt: "bateram") and lists the names the Chinese way (Ana、Bruno); a verdict that a late
    pile report changes says why and what it was; a right slap shows every pile empty."""
    server = server_factory()
    status, created = server.request(
        "POST", "/api/tables",
        {"game": "versus", "players": PLAYERS, "pin": PIN, "options": {"late_ms": 0}})
    assert status == 201, created
    table_id, url = created["table"]["id"], server.url + created["url"]
    pages = {}
    for seat, locale in ((2, "pt-BR"), (1, "zh-CN")):
        p = phone(locale)
        p.goto(url + "?join=1")
        p.locator("#seats button", has_text=PLAYERS[seat]).click()
        expect(p.locator("#vs-slap")).to_be_visible()
        pages[seat] = p
    chen, bruno = pages[2], pages[1]

    # Chen (pt-BR) taps his pile's picture while it is Ana's turn: it counts, and he hears
    chen.locator('#vs-palette button[data-card="moon"]').click()
    expect(chen.locator("#toast")).to_have_text(
        "Não era a sua vez: era a vez de Ana. Sua carta vale, e o jogo segue depois de você.")
    expect(chen.locator('.vs-seat[data-seat="2"] .vs-top b')).to_have_text("lua")
    # the same picture again: refused, and the phone says why, in its language
    chen.locator('#vs-palette button[data-card="moon"]').click()
    expect(chen.locator("#toast")).to_have_text("Essa pilha já mostra essa carta.")

    # no pair on the table, and Ana and Bruno both slap: both wrong
    act(server, table_id, {"type": "pile_top", "seat": 0, "card": "star"})
    act(server, table_id, {"type": "pile_top", "seat": 1, "card": "sun"})
    act(server, table_id, {"type": "slap", "presses": [{"seat": 0, "t_ns": 100_000_000},
                                                       {"seat": 1, "t_ns": 120_000_000}]})
    expect(chen.locator("#vs-head")).to_have_text("Ana e Bruno bateram errado")
    expect(bruno.locator("#vs-head")).to_have_text("Ana、Bruno 拍错了")
    expect(bruno.locator("#vs-decisions li").first).to_contain_text("Ana、Bruno 拍错了")

    # the camera's report comes late: Bruno's star had landed before the presses
    act(server, table_id, {"type": "pile_top", "seat": 1, "card": "star", "t_ns": 90_000_000})
    expect(chen.locator("#vs-head")).to_have_text("Ana ganhou a batida!")
    expect(chen.locator(".vs-tag.changed")).to_have_text("veredito mudou")
    expect(chen.locator("#vs-why")).to_have_text(
        "A pilha de Bruno já mostrava estrela na hora da batida; isso só foi informado depois,"
        " então as regras julgaram a batida de novo. O veredito antes: Ana e Bruno bateram"
        " errado.")
    expect(bruno.locator("#vs-why")).to_have_text(
        "拍牌时 Bruno 的牌堆顶上其实已经是“星星”，只是之后才报告，所以规则重新判定了这次拍牌。"
        "原来的裁决：Ana、Bruno 拍错了。")
    # Ana collected every pile: nobody has to report them empty
    for p, empty in ((chen, "vazio"), (bruno, "空")):
        for seat in range(3):
            expect(p.locator(f'.vs-seat[data-seat="{seat}"] .vs-top b')).to_have_text(empty)
    expect(chen.locator("#vs-palette button.on")).to_have_count(0)
    # ...and Chen's next moon is a flip, not "already shows that card"
    chen.locator('#vs-palette button[data-card="moon"]').click()
    expect(bruno.locator('.vs-seat[data-seat="2"] .vs-top b')).to_have_text("月亮")
    expect(bruno.locator('.vs-seat[data-seat="2"] .vs-discard')).to_have_text("1")
    for p in pages.values():
        assert p.js_errors == []


VIBRATE_SPY = """navigator.vibrate = (pattern) => {
    (window.__buzz = window.__buzz || []).push(JSON.stringify(pattern)); return true; };"""


def test_a_wrong_slapper_buzzes_once_when_a_second_joins_the_race(server_factory, phone):
    """Bruno slaps at nothing, then Ana a moment later (within late_ms: the same race). The
    race's verdict is sent again with both names; Bruno's phone had buzzed already and stays
    still, Ana's buzzes for her own wrong slap."""
    server = server_factory()
    status, created = server.request(
        "POST", "/api/tables", {"game": "versus", "players": PLAYERS, "pin": PIN})
    assert status == 201, created
    table_id, url = created["table"]["id"], server.url + created["url"]
    pages = []
    for seat in (0, 1):
        p = phone("en-US")
        p.add_init_script(VIBRATE_SPY)
        p.goto(url + "?join=1")
        p.locator("#seats button", has_text=PLAYERS[seat]).click()
        expect(p.locator("#vs-slap")).to_be_visible()
        pages.append(p)
    ana, bruno = pages
    act(server, table_id, {"type": "pile_top", "seat": 0, "card": "star"})
    act(server, table_id, {"type": "pile_top", "seat": 1, "card": "sun"})
    act(server, table_id, {"type": "slap", "presses": [{"seat": 1, "t_ns": 100_000_000}]})
    expect(bruno.locator("#vs-head")).to_have_text("You slapped wrong!")
    expect(ana.locator("#vs-head")).to_have_text("Bruno slapped wrong")
    act(server, table_id, {"type": "slap", "presses": [{"seat": 0, "t_ns": 150_000_000}]})
    for p in pages:
        expect(p.locator("#vs-head")).to_have_text("Bruno and Ana slapped wrong")
    assert bruno.evaluate("window.__buzz") == ["[250,80,250]"]
    assert ana.evaluate("window.__buzz") == ["[250,80,250]"]
    for p in pages:
        assert p.js_errors == []


# Each name, gap and status of the slap order: [text, lines it takes, whether a word of it
# breaks across lines] (a text range has a box per line)
ORDER_LINES = """() => {
    const lines = (node, from, to) => {
        const r = document.createRange();
        if (from === undefined) r.selectNodeContents(node);
        else { r.setStart(node, from); r.setEnd(node, to); }
        const boxes = [...r.getClientRects()].filter((b) => b.width > 0);
        return new Set(boxes.map((b) => Math.round(b.top))).size;
    };
    const items = document.querySelectorAll(
        "#vs-order .vs-who, #vs-order .vs-gap, #vs-order .vs-st");
    return [...items].map((s) => {
        const words = [...s.textContent.matchAll(/\\S+/g)].map(
            (m) => lines(s.firstChild, m.index, m.index + m[0].length));
        return [s.textContent, lines(s), words.some((n) => n > 1)];
    });
}"""


@pytest.mark.parametrize("width", [320, 360])
def test_the_slap_order_keeps_each_name_whole_on_a_small_phone(server_factory, phone, width):
    """pt-BR at 320 px: "Bruno" went one letter a line and the "empatado" pill wrapped, the
    name shrinking beside the gap and the status; at 360 px "Brun/o", "Nascime/nto". A name
    of one word stays on one line (the gap and the status move below it), a name of two
    keeps its words whole, a 24-letter one may break rather than widen the page. A tie
    4 µs apart reads "+4,0 µs", not "+0,00 ms"."""
    server = server_factory()
    players = ["Ana Beatriz", "Bruno", "Nascimento", "Maria Eduarda", "W" * 24]
    status, created = server.request(
        "POST", "/api/tables", {"game": "versus", "players": players, "pin": PIN})
    assert status == 201, created
    table_id, url = created["table"]["id"], server.url + created["url"]
    act(server, table_id, {"type": "pile_top", "seat": 0, "card": "star", "t_ns": 500_000_000})
    act(server, table_id, {"type": "pile_top", "seat": 3, "card": "star", "t_ns": 600_000_000})
    act(server, table_id, {"type": "slap", "presses": [
        {"seat": 1, "t_ns": 1_000_000_000}, {"seat": 2, "t_ns": 1_000_004_000},  # a tie
        {"seat": 3, "t_ns": 1_030_000_000}, {"seat": 4, "t_ns": 1_041_000_000},
        {"seat": 0, "t_ns": 1_052_000_000}]})
    page = phone("pt-BR", width=width)
    page.goto(url + "?join=1")
    page.locator("#seats button", has_text="Ana Beatriz").click()
    expect(page.locator("#vs-order li")).to_have_count(5)
    expect(page.locator('#vs-order li[data-seat="2"] .vs-st')).to_have_text("empatado")
    expect(page.locator('#vs-order li[data-seat="2"] .vs-gap')).to_have_text("+4,0 µs")
    rows = page.evaluate(ORDER_LINES)
    by_text = {text: (n, broken) for text, n, broken in rows}
    for name in ("Bruno", "Nascimento"):
        assert by_text[name] == (1, False), rows
    for name in ("Ana Beatriz", "Maria Eduarda"):
        assert by_text[name][1] is False, rows  # (may take two lines, never half a word)
    for text, n, _ in rows:
        if text not in players:  # the gaps and the status pills
            assert n == 1, rows
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width
    assert page.js_errors == []


@pytest.mark.parametrize("width", [360, 412])
def test_the_slap_button_never_moves_nor_leaves_the_screen(server_factory, phone, width):
    """Issue 37 #3: after each verdict the result box and the Gem chooser pushed the SLAP!
    button down, off a 360x740 screen."""
    server = server_factory()
    status, created = server.request("POST", "/api/tables", {
        "game": "versus", "players": PLAYERS, "pin": PIN, "options": {"late_ms": 0}})
    assert status == 201, created
    table_id, url = created["table"]["id"], server.url + created["url"]
    bruno = phone("pt-BR", width=width)
    bruno.goto(url + "?join=1")
    bruno.locator('#seats button[data-seat="1"]').click()
    slap = bruno.locator("#vs-slap")
    expect(slap).to_be_visible()
    height = bruno.viewport_size["height"]

    def where() -> dict:
        box = slap.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, box
        return box

    before = where()
    act(server, table_id, {"type": "pile_top", "seat": 0, "card": "star"})
    act(server, table_id, {"type": "pile_top", "seat": 1, "card": "star"})
    slap.tap()
    expect(bruno.locator("#vs-verdict")).to_be_visible()
    expect(bruno.locator("#vs-gift-choices button")).to_have_count(2)
    # (pressed down for a moment: moved and scaled, until its transition is over)
    bruno.wait_for_function("""() => { const b = document.getElementById('vs-slap');
        return !b.classList.contains('down') && getComputedStyle(b).transform === 'none'
          && b.getAnimations().length === 0; }""")
    assert where() == before
    # scrolled to the end, the page's last part shows above the button, not under it
    bruno.evaluate("window.scrollTo(0, document.scrollingElement.scrollHeight)")
    assert where() == before
    end = bruno.locator("#history-box summary").bounding_box()
    assert end["y"] + end["height"] <= before["y"], (end, before)
    bruno.locator('#vs-gift-choices button[data-seat="2"]').click()
    expect(bruno.locator("#vs-gift")).to_be_hidden()
    assert where() == before
    assert bruno.js_errors == []
