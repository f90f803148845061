"""Huang Di refereed through a camera, with the phones in Chromium: a replayed camera scene
plays Ana's turn (her stock's top turned up, taken and laid on a wall, a wrong card laid and
taken back, a card from her hand, her discard), then Bia plays her turn by taps alone.

No photo of a real Huang Di deck exists here: the scenes are drawn by the recogniser's own
renderer (``vision.synth.draw_huangdi``) on a wood table, JPEG-compressed as a camera's
frames are. Real photos will be used to check it later.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import camera_table, open_as_host

pytestmark = [pytest.mark.browser, pytest.mark.slow]
PIN = {"X-Host-Pin": "2468"}
FPS, HOLD = 10, 20
SIZE = (640, 480)
# where each zone's card lies in the picture, and the zones the host sets around them
AT = {"wall-1": (320, 150), "stock-0": (120, 370), "discard-0-1": (520, 370)}
ZONES = [{"name": "wall-1", "rect": [0.35, 0.05, 0.65, 0.5]},
         {"name": "stock-0", "rect": [0.02, 0.55, 0.35, 0.98]},
         {"name": "discard-0-1", "rect": [0.65, 0.55, 0.98, 0.98]}]
# Ana's turn as the camera sees it, one picture a step
STEPS = [
    {"stock-0": "1"},                                      # her stock's top turned up
    {"stock-0": "6"},                                      # the 1 taken, the 6 under it turned
    {"stock-0": "6", "wall-1": "1"},                       # the 1 starts wall 1
    {"stock-0": "6", "wall-1": "3"},                       # a 3: wrong (wall 1 needs a 2)
    {"stock-0": "6", "wall-1": "2"},                       # taken back; a 2 from her hand
    {"stock-0": "6", "wall-1": "2", "discard-0-1": "9"},   # her discard ends the turn
]


def frame(cards: dict[str, str]) -> np.ndarray:
    from vision.synth import draw_card, place_card, table_texture

    img = table_texture("wood", SIZE, np.random.default_rng(0))
    for zone, label in cards.items():
        place_card(img, draw_card("huangdi", label), AT[zone], 150, 8)
    img = cv2.GaussianBlur(img, (3, 3), 0)
    return cv2.imdecode(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 85])[1], 1)


def write_video(path) -> None:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), FPS, SIZE)
    still = frame({})
    for _ in range(FPS * 2):  # the table before the game
        writer.write(still)
    for step in STEPS:
        still = frame(step)
        for _ in range(HOLD):
            writer.write(still)
    for _ in range(FPS * 120):  # then the table stays as it is
        writer.write(still)
    writer.release()


def test_a_turn_seen_by_the_camera_and_one_tapped(server_factory, phone, tmp_path):
    video = tmp_path / "huangdi.avi"
    write_video(video)
    server = server_factory(camera=f"replay:{video}")
    tid = camera_table(server, "huangdi", ["Ana", "Bia"], ZONES)
    # Bia's stock top is turned up by a tap (her piles are outside the camera's zones)
    assert server.request("POST", f"/api/tables/{tid}/actions", {
        "action": {"type": "reveal_stock", "seat": 1, "card": "5"}}, PIN)[0] == 200

    def camera_asked(r):
        return r.url.endswith("/api/camera")

    pages = {}
    for name in ("Ana", "Bia"):
        page = phone("en-US")
        with page.expect_response(camera_asked):
            page.goto(f"{server.url}/t/{tid}?join=1")
        with page.expect_response(camera_asked):
            page.locator("#seats button", has_text=name).click()
        expect(page.locator("#whoami")).to_have_text(f"You are {name}")
        pages[name] = page
    ana, bia = pages["Ana"], pages["Bia"]
    expect(ana.locator("#hd-head")).to_have_text("Your turn")
    expect(bia.locator("#hd-head")).to_have_text("Ana's turn")

    status, cam = server.request("POST", f"/api/tables/{tid}/camera", {"restart": True}, PIN)
    assert status == 200 and cam["table"] == tid

    wall = bia.locator('.hd-wall[data-wall="0"]')
    stock = bia.locator('.hd-player[data-seat="0"] .hd-stock .hd-pile-top')
    expect(stock).to_have_text("1", timeout=20000)  # turned up
    expect(wall.locator(".hd-needs")).to_have_text("Needs 2", timeout=20000)
    expect(stock).to_have_text("6")  # the card under it, seen with the play
    # the wrong card: every phone says why (the speaker too, see test_camera.py)
    expect(bia.locator("#toast")).to_have_text("Wall 1 needs a 2, not a 3.", timeout=20000)
    expect(ana.locator("#toast")).to_have_text("Wall 1 needs a 2, not a 3.")
    expect(wall.locator(".hd-needs")).to_have_text("Needs 3", timeout=20000)
    expect(bia.locator("#hd-head")).to_have_text("Your turn", timeout=20000)
    expect(ana.locator("#hd-head")).to_have_text("Bia's turn")
    expect(bia.locator('.hd-player[data-seat="0"] .hd-discard[data-pile="0"] .hd-pile-top')
           ).to_have_text("9")

    # Bia's turn by taps alone: a 3 from her hand on wall 1, then a 4 on her first pile
    bia.locator('#hd-sources button[data-from="hand"]').click()
    bia.locator('#hd-play-pad button[data-card="3"]').click()
    bia.locator('#hd-targets button[data-wall="0"]').click()
    expect(wall.locator(".hd-needs")).to_have_text("Needs 4")
    bia.locator('#hd-discard-pad button[data-card="4"]').click()
    bia.locator('#hd-discard button[data-pile="0"]').click()
    expect(ana.locator("#hd-head")).to_have_text("Your turn")
    expect(ana.locator('.hd-player[data-seat="1"] .hd-discard[data-pile="0"] .hd-pile-top')
           ).to_have_text("4")

    _, hist = server.request("GET", f"/api/tables/{tid}/history")
    camera = [e["body"] for e in hist["history"] if e["actor"]["source"] == "camera"]
    assert [(m["type"], m.get("card"), m.get("from")) for m in camera] == [
        ("reveal_stock", "1", None), ("lifted", None, "stock"), ("play", "1", "stock"),
        ("play", "2", "hand"), ("discard", "9", None)]
    _, view = server.request("GET", f"/api/tables/{tid}")
    pub = view["public"]
    assert pub["stocks"][0] == {"count": 9, "top": "6"} and pub["hands"] == [5, 3]
    assert ana.js_errors == [] and bia.js_errors == []


def test_an_invert_by_taps_and_a_source_asked_on_the_phone(server_factory, phone):
    server = server_factory()
    _, created = server.request("POST", "/api/tables", {
        "game": "huangdi", "players": ["Ana", "Bia"], "pin": "2468"})
    tid = created["table"]["id"]

    def act(action):
        status, body = server.request("POST", f"/api/tables/{tid}/actions", {"action": action},
                                      PIN)
        assert status == 200, body

    for card in map(str, range(1, 9)):  # wall 1 up to 8, from Ana's hand
        act({"type": "play", "card": card, "from": "hand", "wall": 0})
    ana = phone("en-US", width=320)
    ana.goto(f"{server.url}/t/{tid}?join=1")
    ana.locator("#seats button", has_text="Ana").click()
    wall = ana.locator('.hd-wall[data-wall="0"]')
    expect(wall.locator(".hd-wall-top")).to_have_text("↑ 8")
    expect(wall.locator(".hd-inv-with")).to_have_text("Invert + 7")
    # a 7 from her hand with an Invert from her hand: the seed's own example
    ana.locator('#hd-sources button[data-from="hand"]').click()
    ana.locator('#hd-play-pad button[data-card="7"]').click()
    ana.locator('#hd-targets button[data-wall="0"][data-invert="hand"]').click()
    expect(wall.locator(".hd-wall-top")).to_have_text("↓ 7")
    expect(wall.locator(".hd-needs")).to_have_text("Needs 6")
    # the camera saw a 6 land and could not tell from where: her phone asks
    act({"type": "play", "card": "6", "wall": 0, "from": None})
    ask = ana.locator("#hd-ask")
    expect(ask).to_contain_text("Where did the 6 come from?")
    expect(ana.locator("#hd-move")).to_be_hidden()
    ask.locator('button[data-from="hand"]').click()
    expect(ask).to_be_hidden()
    expect(wall.locator(".hd-needs")).to_have_text("Needs 5")
    assert ana.evaluate("document.documentElement.scrollWidth") <= 320
    assert ana.js_errors == []


def test_the_host_ends_the_game_by_tap(server_factory, phone):
    server = server_factory()
    _, created = server.request("POST", "/api/tables", {
        "game": "huangdi", "players": ["Ana", "Bia"], "pin": "2468"})
    tid = created["table"]["id"]
    host = phone("en-US")
    open_as_host(host, f"{server.url}/t/{tid}", tid)
    expect(host.locator("#hd-head")).to_have_text("Ana's turn")
    host.once("dialog", lambda d: d.accept())
    host.locator("#hd-end-game").click()
    expect(host.locator("#hd-head")).to_have_text("The game is over.")
    expect(host.locator("#hd-host")).to_be_hidden()
    assert host.js_errors == []


def test_long_names_and_every_panel_fit_a_small_phone(server_factory, phone):
    """Names of 24 letters without a space, every panel open (the source asked, a card
    picked, the discard keypad, the stock to turn up, the host's button), at 320 px, in the
    dark and the light scheme."""
    server = server_factory()
    long = "W" * 24
    _, created = server.request("POST", "/api/tables", {
        "game": "huangdi", "players": [long, "Maximiliano1", "Maximiliano2"], "pin": "2468"})
    tid = created["table"]["id"]
    for action in ({"type": "reveal_stock", "seat": 1, "card": "invert"},
                   {"type": "play", "card": "1", "from": "hand", "wall": 0},
                   {"type": "discard", "card": "joker", "pile": 0},
                   {"type": "play", "card": "joker", "from": "discard0", "owner": 0, "wall": 0},
                   {"type": "discard", "card": "10", "pile": 1}):
        status, body = server.request("POST", f"/api/tables/{tid}/actions", {"action": action},
                                      PIN)
        assert status == 200, body
    for scheme in ("dark", "light"):
        page = phone("en-US", width=320, scheme=scheme)
        open_as_host(page, f"{server.url}/t/{tid}", tid)  # (acts for the player to move)
        page.locator('#hd-sources button[data-from="stock"]').click()
        page.locator('#hd-play-pad button[data-card="joker"]').click()
        page.locator('#hd-discard-pad button[data-card="invert"]').click()
        page.locator("#hd-reveal-pad").wait_for()
        assert page.evaluate("document.scrollingElement.scrollWidth") <= 320
        status, _ = server.request("POST", f"/api/tables/{tid}/actions", {
            "action": {"type": "play", "card": "3", "from": None, "wall": 0}}, PIN)
        assert status == 200
        expect(page.locator("#hd-ask")).to_be_visible()
        assert page.evaluate("document.scrollingElement.scrollWidth") <= 320
        server.request("POST", f"/api/tables/{tid}/actions", {"action": {"type": "dismiss"}},
                       PIN)
        assert page.js_errors == []
