"""A whole game of Werewolf in real headless Chromium: eight phones in Portuguese.

The table is created through the API (the companion deals; night input on the phones; long
timers so nothing times out by itself). Each phone joins its seat, peeks at its card with the
hold-to-peek pad, and the first night is played on the phones: the seer looks, the werewolves
agree on a victim, the witch poisons a werewolf. The morning shows the dead on every phone in
Portuguese; the village elects a captain and votes out the last werewolf; every phone shows
the end screen with all the cards and the story. All along, no phone's page may hold a card
it may not know (the truth comes from the host's view, read with the PIN).
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import open_as_host

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NAMES = ["Ana", "Bruno", "Carla", "Davi", "Eva", "Fábio", "Gil", "Hana"]
PIN = "2468"
PT = {"werewolf": "lobisomem", "villager": "aldeão", "seer": "vidente", "witch": "bruxa"}
TAG = re.compile(r"<[a-z]+\b[^>]*>")
SEAT, ROLE = re.compile(r'\sdata-seat="([^"]+)"'), re.compile(r'\sdata-role="([^"]+)"')


def role_tags(html: str) -> list[tuple[str, str]]:
    """Every (seat, role) a page shows: the phone writes a role as data-seat + data-role."""
    out = []
    for tag in TAG.findall(html):
        seat, role = SEAT.search(tag), ROLE.search(tag)
        if seat and role:
            out.append((seat.group(1), role.group(1)))
    return out


class Table:
    def __init__(self, server, table_id: str) -> None:
        self.server, self.id = server, table_id

    def host(self) -> dict:
        status, data = self.server.request("GET", f"/api/tables/{self.id}",
                                           headers={"X-Host-Pin": PIN})
        assert status == 200, data
        return data["host"]

    def act(self, action: dict) -> dict:
        status, data = self.server.request("POST", f"/api/tables/{self.id}/actions",
                                           {"action": action}, headers={"X-Host-Pin": PIN})
        assert status == 200, data
        return data


VIBRATE_SPY = """navigator.vibrate = (pattern) => {
    (window.__buzz = window.__buzz || []).push(JSON.stringify(pattern)); return true; };"""


def hold(page) -> None:
    """A finger on the pad (a second finger then taps the buttons)."""
    page.locator("#ww-hold").dispatch_event("pointerdown", {"pointerId": 77, "bubbles": True})


def lift(page) -> None:
    page.locator("#ww-hold").dispatch_event("pointerup", {"pointerId": 77, "bubbles": True})
    expect(page.locator("#ww-secret")).to_be_empty()


class Fingers:
    """Real multi-touch (Chrome DevTools): the thumb holds the pad, a finger taps above it."""

    def __init__(self, page) -> None:
        self.page, self.cdp = page, page.context.new_cdp_session(page)

    def _point(self, selector: str, ident: int) -> dict:
        box = self.page.locator(selector).bounding_box()
        return {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2, "id": ident}

    def touch(self, kind: str, points: list[dict]) -> None:
        self.cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def hold(self) -> None:
        self.thumb = self._point("#ww-hold", 1)
        self.touch("touchStart", [self.thumb])

    def tap(self, selector: str) -> None:
        finger = self._point(selector, 2)
        self.touch("touchStart", [self.thumb, finger])
        self.touch("touchEnd", [finger])  # the points that lift

    def lift(self) -> None:
        self.touch("touchEnd", [self.thumb])
        expect(self.page.locator("#ww-secret")).to_be_empty()


def night_screen(page) -> str:
    """What a glance at a phone shows at night (the clock's seconds aside)."""
    return page.evaluate("""() => {
        const g = document.querySelector('#game').cloneNode(true);
        g.querySelector('#ww-timer').textContent = '';
        g.querySelector('#ww-players').remove();  // names "(you)": the seat, not the card
        return document.body.className + g.innerHTML; }""")


def check_secrets(phones, table: Table, held: dict | None = None) -> None:
    """No page shows a card its phone may not know: outside the held pad only the dead's
    cards (public); inside it, the phone's own card and what that card may know."""
    host = table.host()
    st = host["state"]
    roles, alive = st["roles"], st["alive"]
    for seat, page in enumerate(phones):
        html = page.content()
        allowed = {str(seat): roles[seat]} if held and seat in held else {}
        if held and seat in held:
            allowed.update(held[seat])
        for tag_seat, role in role_tags(html):
            if tag_seat.startswith("spare"):
                assert held and seat in held and roles[seat] == "thief"
                continue
            s = int(tag_seat)
            assert role == roles[s], f"{NAMES[seat]}'s phone shows a wrong card for seat {s}"
            public = not alive[s]
            assert public or allowed.get(tag_seat) == role, (
                f"{NAMES[seat]}'s phone shows {NAMES[s]}'s card ({role})")
        if not held or seat not in held:
            assert page.locator("#ww-secret").inner_html() == ""


def test_whole_game_on_eight_portuguese_phones(server_factory, phone):
    t0 = time.monotonic()
    server = server_factory()
    timers = {k: 3600 for k in ("look", "seer", "werewolves", "witch", "captain", "debate", "vote",
                                "hunter", "successor")}
    status, made = server.request("POST", "/api/tables", {
        "game": "werewolf", "players": NAMES, "pin": PIN, "title": "Vila",
        "options": {"roles": {"werewolf": 2, "seer": 1, "witch": 1, "villager": 4},
                    "language": "pt_BR", "timers": timers}})
    assert status == 201, made
    table = Table(server, made["table"]["id"])
    url = server.url + made["url"]

    phones = []
    for seat, name in enumerate(NAMES):
        page = phone("pt-BR")
        page.add_init_script(VIBRATE_SPY)
        page.goto(url + "?join=1")
        page.locator(f'#seats button[data-seat="{seat}"]').click()
        expect(page.locator("#whoami")).to_have_text(f"Você é {name}")
        phones.append(page)
    expect(phones[0].locator("#ww-phase")).to_have_text("Preparação")
    # a friend watching on an English phone: the speaker speaks Portuguese, the phone's
    # narration card is in English (it was in the speaker's Portuguese)
    watcher = phone("en-US")
    watcher.goto(url)
    watcher.get_by_text("Just watch").click()

    table.act({"type": "start", "empty_seats": True})
    roles = table.host()["state"]["roles"]
    expect(phones[0].locator("#ww-step")).to_have_text("Olhe sua carta")
    # the checker catches a leak: a card of someone else slipped into a page
    phones[0].evaluate("""(role) => { const s = document.createElement('span'); s.id = 'leak';
        s.className = 'ww-role'; s.dataset.seat = '1'; s.dataset.role = role;
        document.querySelector('#game').append(s); }""", roles[1])
    with pytest.raises(AssertionError, match="shows Bruno's card"):
        check_secrets(phones, table)
    phones[0].evaluate("document.getElementById('leak').remove()")
    wolves = [s for s, r in enumerate(roles) if r == "werewolf"]
    seer, witch = roles.index("seer"), roles.index("witch")
    villagers = [s for s, r in enumerate(roles) if r == "villager"]

    # everyone peeks at their card (hold, see, lift: gone) and says so
    for seat, page in enumerate(phones):
        expect(page.locator("#ww-step")).to_have_text("Olhe sua carta")
        expect(page.locator("#ww-secret")).to_be_empty()
        hold(page)
        expect(page.locator("#ww-secret .ww-card-name")).to_have_text(PT[roles[seat]])
        if roles[seat] == "werewolf":
            other = next(w for w in wolves if w != seat)
            expect(page.locator("#ww-secret")).to_contain_text(NAMES[other])
        check_secrets(phones, table,
                      held={seat: {str(w): "werewolf" for w in wolves} if seat in wolves else {}})
        lift(page)
        page.get_by_role("button", name="Já vi minha carta").click()
    check_secrets(phones, table)

    # night 1: the same dark screen everywhere
    for page in phones:
        expect(page.locator("#ww-phase")).to_have_text("Noite 1")
        expect(page.locator("body")).to_have_class(re.compile("ww-dark"))
        expect(page.locator("#ww-hold-text")).to_have_text("Segure aqui para ver sua tela")
    expect(phones[0].locator("#ww-step")).to_have_text("A vidente está acordada")
    # the page's end (the history, a playing host's panel) scrolls clear of the pad: the
    # pad's room was under the game's part only, and the pad covered them at night
    phones[0].locator("#history-box summary").scroll_into_view_if_needed()
    phones[0].evaluate("window.scrollTo(0, document.scrollingElement.scrollHeight)")
    pad_top = phones[0].locator(".ww-pad").bounding_box()["y"]
    end = phones[0].locator("#history-box summary").bounding_box()
    assert end["y"] + end["height"] <= pad_top, (end, pad_top)

    # someone who is not the seer holds: "sleep"
    sleeper = villagers[0]
    hold(phones[sleeper])
    expect(phones[sleeper].locator("#ww-secret")).to_contain_text("Durma")
    # (the same buttons as an awake role's, that do nothing: issue 37 #6)
    expect(phones[sleeper].locator('#ww-secret .ww-target[aria-disabled="true"]')).to_have_count(8)
    lift(phones[sleeper])

    # the seer looks at a werewolf: her thumb holds the pad, another finger taps (real touch)
    page = phones[seer]
    fingers = Fingers(page)
    fingers.hold()
    target = f'#ww-secret .ww-target[data-seat="{wolves[0]}"]'
    expect(page.locator(target)).to_be_visible()
    fingers.tap(target)
    expect(page.locator("#ww-secret .ww-known")).to_contain_text(f"{NAMES[wolves[0]]} · lobisomem")
    check_secrets(phones, table, held={seer: {str(wolves[0]): "werewolf"}})
    fingers.lift()
    check_secrets(phones, table)

    # the werewolves agree on a villager, seeing each other's votes live
    victim = villagers[1]
    for page in phones:
        expect(page.locator("#ww-step")).to_have_text("Os lobisomens estão acordados")
    assert len({night_screen(page) for page in phones}) == 1  # the seer's looks like the others
    for w in wolves:
        hold(phones[w])
    # the victims are in view while the thumb holds the pad, on a small phone too: no
    # second finger scrolling (they came after the card and its notes, under the pad)
    phones[wolves[0]].set_viewport_size({"width": 360, "height": 640})
    pad_top = phones[wolves[0]].locator(".ww-pad").bounding_box()["y"]
    for box in (t.bounding_box() for t in phones[wolves[0]].locator("#ww-secret .ww-target")
                .all()):
        assert box["y"] + box["height"] <= pad_top, (box, pad_top)
    phones[wolves[0]].locator(f'#ww-secret .ww-target[data-seat="{victim}"]').click()
    their_pick = phones[wolves[1]].locator(f'#ww-secret .ww-target[data-seat="{victim}"]')
    expect(their_pick).to_contain_text(NAMES[wolves[0]])  # the pack's votes, live
    sleepers = [page for s, page in enumerate(phones) if s not in wolves]
    assert len({night_screen(page) for page in sleepers}) == 1
    check_secrets(phones, table, held={w: {str(x): "werewolf" for x in wolves} for w in wolves})
    phones[wolves[1]].locator(f'#ww-secret .ww-target[data-seat="{victim}"]').click()
    for w in wolves:
        lift(phones[w])

    # the witch is shown the victim and poisons the first werewolf
    for page in phones:
        expect(page.locator("#ww-step")).to_have_text("A bruxa está acordada")
    page = phones[witch]
    hold(page)
    expect(page.locator("#ww-secret")).to_contain_text(f"A vítima dos lobisomens: {NAMES[victim]}")
    page.locator(f'#ww-secret .ww-target[data-seat="{wolves[0]}"]').click()
    page.locator("#ww-confirm").click()
    lift(page)

    # morning: the dead and their cards, on every phone, in Portuguese
    for page in phones:
        expect(page.locator("#ww-phase")).to_have_text("Dia 1")
        expect(page.locator("body")).not_to_have_class(re.compile("ww-dark"))
        morning = page.locator("#ww-morning")
        expect(morning).to_contain_text("Manhã do dia 1")
        expect(morning).to_contain_text(f"Encontraram {NAMES[victim]} sem vida esta manhã.")
        expect(morning).to_contain_text(f"Encontraram {NAMES[wolves[0]]} sem vida esta manhã.")
        expect(morning.locator(f'.ww-role[data-seat="{wolves[0]}"]')).to_have_text("lobisomem")
    check_secrets(phones, table)

    # the captain election, on the phones (the seer wins it)
    living = [s for s in range(8) if s not in (victim, wolves[0])]
    expect(phones[0].locator("#ww-step")).to_have_text("Eleição do capitão")
    for s in living:
        phones[s].locator(f'.ww-cand[data-seat="{seer}"]').click()
        if s != living[-1]:  # the last vote ends the election
            expect(phones[s].locator(".ww-ok")).to_contain_text(NAMES[seer])
    for page in phones:
        expect(page.locator(f'#ww-players li[data-seat="{seer}"] .ww-badge')).to_be_visible()
    expect(phones[victim].locator("#ww-step")).to_have_text("Debate")

    table.act({"type": "skip"})  # the host ends the debate
    for page in phones:
        expect(page.locator("#ww-step")).to_have_text("Votação")
    expect(phones[victim].locator(".ww-cand").first).to_be_disabled()  # the dead watch
    for s in living:
        phones[s].locator(f'.ww-cand[data-seat="{wolves[1]}"]').click()
        if s != living[-1]:
            expect(phones[s].locator(".ww-ok")).to_contain_text(NAMES[wolves[1]])

    # the end: every phone, every card, the story; the narrator's last words on every phone
    for page in phones:
        expect(page.locator("#ww-winner")).to_have_text("Os aldeões vencem!")
        expect(page.locator("#narration")).to_have_text("O último lobisomem morreu.")
    expect(watcher.locator("#narration")).to_have_text("The last werewolf is dead.")
    for page in phones:
        final = page.locator(".ww-final li")
        expect(final).to_have_count(8)
        for s, r in enumerate(roles):
            expect(final.nth(s)).to_contain_text(PT[r])
        story = page.locator("#ww-story")
        expect(story).to_contain_text(
            f"{NAMES[seer]}, a vidente, olhou a carta de {NAMES[wolves[0]]}: lobisomem.")
        expect(story).to_contain_text(f"A bruxa envenenou {NAMES[wolves[0]]}.")
        expect(page.locator("#ww-pad")).to_be_hidden()
    # every phone buzzed the same way at every step, whatever its card
    buzzes = [page.evaluate("window.__buzz || []") for page in phones]
    assert len(buzzes[0]) >= 6 and all(b == buzzes[0] for b in buzzes), buzzes
    for page in phones:
        assert page.js_errors == []
    assert time.monotonic() - t0 < 90


def test_the_moderator_view_shows_the_night_as_the_phones_enter_it(server_factory, phone):
    """With the night entered on the phones, the host's moderator view showed the cards but
    none of the night's moves: not the wolves' votes, not whom the seer looked at."""
    server = server_factory()
    status, res = server.request("POST", "/api/tables", {
        "game": "werewolf", "players": NAMES, "pin": PIN, "options": {"deal": "host"}})
    assert status == 201, res
    table = Table(server, res["table"]["id"])
    # (Carla's and Ana's phones join before the cards are entered: a seat whose card is
    # known goes to a phone only with the host's PIN)
    _, carla = server.request("POST", f"/api/tables/{table.id}/join", {"seat": 2})
    _, ana = server.request("POST", f"/api/tables/{table.id}/join", {"seat": 0})
    roles = ["werewolf", "werewolf", "seer"] + ["villager"] * 5
    table.act({"type": "set_roles", "roles": {"werewolf": 2, "seer": 1, "villager": 5}})
    table.act({"type": "assign", "roles": roles})
    table.act({"type": "start", "empty_seats": True})
    table.act({"type": "skip"})  # (every card looked at)
    host = phone()
    host.goto(server.url + "/")
    host.evaluate(f"localStorage.setItem('tc.pin.{table.id}', JSON.stringify('{PIN}'))")
    host.goto(server.url + res["url"])
    host.locator("#just-watch").click()
    host.locator(".ww-mod-view summary").click()
    while (step := table.host()["state"]["step"])["name"] != "seer":
        table.act({"type": "skip", "step": step["id"]})
    status, _ = server.request("POST", f"/api/tables/{table.id}/actions",
                               {"action": {"type": "seer", "target": 3}},
                               {"Authorization": "Bearer " + carla["token"]})
    assert status == 200
    expect(host.locator("#ww-tonight")).to_contain_text("The seer looked at Davi.")
    status, _ = server.request("POST", f"/api/tables/{table.id}/actions",
                               {"action": {"type": "wolf_vote", "target": 4}},
                               {"Authorization": "Bearer " + ana["token"]})
    assert status == 200
    expect(host.locator("#ww-tonight")).to_contain_text("The werewolves' votes: Ana → Eva")
    # the pack agrees: the night ends, and the morning shows what it held (a witch's move
    # ends the night at once: "Tonight so far" never showed it)
    # (Bruno's phone joins after the deal: the host's PIN gives it his seat)
    _, bruno = server.request("POST", f"/api/tables/{table.id}/join", {"seat": 1, "pin": PIN})
    status, _ = server.request("POST", f"/api/tables/{table.id}/actions",
                               {"action": {"type": "wolf_vote", "target": 4}},
                               {"Authorization": "Bearer " + bruno["token"]})
    assert status == 200
    expect(host.locator("#ww-tonight h3")).to_have_text("Last night")
    expect(host.locator("#ww-tonight")).to_contain_text("The werewolves' victim: Eva.")
    assert host.js_errors == []


def test_start_uses_the_cards_the_host_sees_and_an_undone_start_leaves_no_narration(
        server_factory, phone):
    """Issue 37 #2: "Start the game" after changing the counts without "Save the cards"
    started with the old set, silently; after an undo of the start the phones still read the
    setup's "Everyone, look at your card in secret…"."""
    server = server_factory()
    status, res = server.request("POST", "/api/tables", {
        "game": "werewolf", "players": NAMES, "pin": PIN,
        "options": {"roles": {"werewolf": 2, "seer": 1, "witch": 1, "villager": 4}}})
    assert status == 201, res
    table, url = Table(server, res["table"]["id"]), server.url + res["url"]
    host = phone(width=360)
    open_as_host(host, url, table.id)
    ana = phone("pt-BR", width=360)
    ana.goto(url + "?join=1")
    ana.locator('#seats button[data-seat="0"]').click()
    expect(ana.locator("#ww-phase")).to_have_text("Preparação")
    # (this companion narrates silently: the host's page says so, and offers no sound check)
    expect(host.locator("#ww-voice-where")).to_contain_text("silent")
    expect(host.locator("#ww-voice-test")).to_have_count(0)

    # counts that do not add up: the start is refused, and says why
    host.get_by_role("button", name="One fewer villager").click()
    host.locator("#ww-start").click()
    expect(host.locator("#toast")).to_contain_text("one card per player")
    assert table.host()["state"]["phase"] == "setup"
    # a set that adds up, not saved: the game starts with it
    host.get_by_role("button", name="One more Cupid").click()
    # (only Ana has joined: the table asks the host before it deals cards to no phone)
    asked = []
    host.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    host.locator("#ww-start").click()
    expect(ana.locator("#ww-step")).to_have_text("Olhe sua carta")
    assert "Nobody has joined as Bruno" in asked[0]
    roles = table.host()["state"]["roles"]
    assert sorted(roles) == sorted(["werewolf"] * 2 + ["seer", "witch", "cupid"]
                                   + ["villager"] * 3), roles
    expect(ana.locator("#narration")).to_be_visible()

    # the start undone: the setup again, and no line of the narrator's on any phone
    host.locator("#host-panel summary", has_text="Host").click()
    host.locator("#undo").click()
    expect(ana.locator("#ww-phase")).to_have_text("Preparação")
    for page in (host, ana):
        expect(page.locator("#narration")).to_be_hidden()
    ana.reload()  # (the stream gives a phone that comes back the last line said)
    expect(ana.locator("#ww-phase")).to_have_text("Preparação")
    expect(ana.locator("#ww-hold")).to_be_attached()
    ana.wait_for_function("() => document.getElementById('live').className === 'dot on'")
    expect(ana.locator("#narration")).to_be_hidden()
    for page in (host, ana):
        assert page.js_errors == []


SPEECH_SPY = """(() => {
  window.__spoken = [];
  speechSynthesis.speak = (u) => {
    window.__spoken.push(u.text);
    setTimeout(() => (window.__mute ? u.onerror && u.onerror({ error: "not-allowed" })
                                    : u.onstart && u.onstart({})), 0);
  };
})();"""


def test_the_host_page_says_where_the_voice_comes_from_and_tests_it(server_factory, phone):
    """Issue 37 #4: off a Pi (no espeak-ng) the narration played only in the host's browser,
    with no sign, no sound check and no "say it again"; it could go silent unnoticed."""
    server = server_factory(speech="browser")
    status, res = server.request("POST", "/api/tables", {
        "game": "werewolf", "players": NAMES, "pin": PIN})
    assert status == 201, res
    table, url = Table(server, res["table"]["id"]), server.url + res["url"]
    host = phone(width=360)
    host.add_init_script(SPEECH_SPY)
    open_as_host(host, url, table.id)
    expect(host.locator("#ww-voice-where")).to_contain_text("speaks through this phone")
    spoken = lambda: host.evaluate("window.__spoken")  # noqa: E731

    host.locator("#ww-voice-test").click()
    host.wait_for_function("() => window.__spoken.length === 1")
    assert "Can everyone at the table hear me?" in spoken()[0]
    # nothing said yet: "again" says so
    host.locator("#ww-voice-again").click()
    expect(host.locator("#toast")).to_contain_text("has said nothing yet")

    table.act({"type": "start", "empty_seats": True})
    host.wait_for_function("() => window.__spoken.length === 2")
    line = spoken()[1]
    assert "card" in line
    host.locator("#ww-voice-again").click()
    host.wait_for_function("() => window.__spoken.length === 3")
    assert spoken()[2] == line

    # the phone could not speak: the host's page says so
    host.evaluate("window.__mute = true")
    host.locator("#ww-voice-again").click()
    expect(host.locator("#ww-voice-trouble")).to_contain_text("could not speak")
    host.evaluate("window.__mute = false")
    host.locator("#ww-voice-test").click()
    expect(host.locator("#ww-voice-trouble")).to_have_count(0)
    assert host.js_errors == []


SHAPE = """() => [...document.querySelectorAll(
    '#ww-secret .ww-prompt, #ww-secret .ww-target, #ww-secret .ww-act, #ww-secret .ww-card, '
    + '#ww-secret .ww-known')].map((e) => { const r = e.getBoundingClientRect();
    return [e.className.replace(/ on\\b/, ''), Math.round(r.x), Math.round(r.y),
            Math.round(r.width), Math.round(r.height)]; })"""


def ink(page) -> float:
    """The share of the held screen's pixels that are not its background."""
    import cv2
    import numpy as np

    box = page.locator("#ww-secret").bounding_box()
    png = page.screenshot(clip=box)
    img = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR).astype(int)
    bg = img[2, 2]
    return float((np.abs(img - bg).max(axis=2) > 40).mean())


def test_every_held_screen_at_night_looks_the_same_whatever_the_role(server_factory, phone):
    """Issue 37 #6: at night an awake seer's held screen (a grid of names, her role in very
    large type) was told from a sleeper's one line across the table."""
    server = server_factory()
    status, res = server.request("POST", "/api/tables", {
        "game": "werewolf", "players": NAMES, "pin": PIN,
        "options": {"deal": "host", "timers": {"seer": 3600, "werewolves": 3600}}})
    assert status == 201, res
    table, url = Table(server, res["table"]["id"]), server.url + res["url"]
    roles = ["werewolf", "werewolf", "seer", "witch"] + ["villager"] * 4
    phones = {}
    for seat in (0, 2, 3, 4):  # a wolf, the seer, the witch, a villager (joined before the deal)
        page = phone("pt-BR", width=360)
        page.goto(url + "?join=1")
        page.locator(f'#seats button[data-seat="{seat}"]').click()
        expect(page.locator("#whoami")).to_have_text(f"Você é {NAMES[seat]}")
        phones[seat] = page
    table.act({"type": "set_roles", "roles": {"werewolf": 2, "seer": 1, "witch": 1, "villager": 4}})
    table.act({"type": "assign", "roles": roles})
    table.act({"type": "start", "empty_seats": True})
    table.act({"type": "skip"})
    for page in phones.values():
        expect(page.locator("#ww-phase")).to_have_text("Noite 1")
    for step, awake in (("A vidente está acordada", 2), ("Os lobisomens estão acordados", 0)):
        for page in phones.values():
            expect(page.locator("#ww-step")).to_have_text(step)
            hold(page)
            expect(page.locator("#ww-secret .ww-target")).to_have_count(8)
        shapes = {seat: page.evaluate(SHAPE) for seat, page in phones.items()}
        for seat, shape in shapes.items():
            assert shape == shapes[awake], (seat, shape)
        inks = {seat: ink(page) for seat, page in phones.items()}
        # (the prompts differ by a few words: the shapes are the same)
        assert max(inks.values()) <= 1.3 * min(inks.values()), inks
        # the awake role acts from it: a tap on a name
        target = phones[awake].locator('#ww-secret .ww-target[data-seat="5"]')
        target.click()
        if awake == 0:
            expect(target).to_contain_text(NAMES[0])  # (the pack's vote, live)
        else:
            expect(phones[2].locator("#ww-secret .ww-known")).to_contain_text(NAMES[5])
        for page in phones.values():
            lift(page)
        if awake == 0:
            break
        assert table.host()["state"]["step"]["name"] == "werewolves"
    for page in phones.values():
        assert page.js_errors == []


PHONE_CLOCK_AHEAD = """(() => { const real = Date.now.bind(Date);
    Date.now = () => real() + 3600 * 1000; })();"""


def test_a_phone_opened_mid_step_counts_the_time_left_by_the_servers_clock(
        server_factory, phone, tmp_path):
    """An offline Pi's clock need not match the phones' (it has no clock of its own to keep
    while off). A phone an hour ahead, opening the table 60 s into a 120 s step, counts
    down from 1:00; it showed the whole 2:00 again, as it took the step to start as it
    opened."""
    from companion.clock import FakeClock
    from companion.games.base import HOST
    from companion.store import Store
    from companion.table import TableService

    data = tmp_path / "data"
    data.mkdir()
    store = Store(data / "companion.sqlite3")
    service = TableService(store, FakeClock(wall=time.time() - 60))  # (the step began then)
    live = service.create_table("werewolf", NAMES, PIN, {
        "roles": {"werewolf": 2, "seer": 1, "witch": 1, "villager": 4},
        "timers": {"look": 120}})
    service.submit(live.id, {"type": "start", "empty_seats": True}, HOST)
    store.close()
    server = server_factory(data)

    page = phone("en-US")
    page.add_init_script(PHONE_CLOCK_AHEAD)
    page.goto(server.url + f"/t/{live.id}")
    page.get_by_text("Just watch").click()
    expect(page.locator("#ww-step")).to_have_text("Look at your card")
    expect(page.locator("#ww-timer")).to_have_text(re.compile(r"^(0:5\d|1:00)$"))
