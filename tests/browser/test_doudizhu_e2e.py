"""Dou Di Zhu refereed on real headless Chromium phones.

1. Through a real ``companion serve`` camera: a replayed video of fanned plays laid in the
   middle (drawn with vision.synth_fan from real card art: there are no photos of real Dou Di
   Zhu plays in ../shared/data), read by their corner indices; the seed's example trick is
   played, Bea passes on her phone, Cai's four-card "sequence" is refused and every phone
   shows the verdict, the counts follow the plays (``camera_confirm`` off); and with it on,
   the default, a play read is confirmed on its player's phone.
2. Tapped on the phones: a play picked in the rank picker, a tapped-in hand's hint (only on
   its owner's phone) that fills the picker, a refused play shown on the other phones, a
   play whose answer comes late.

The server's camera starts with the video; it is parked on a score pad until the table has
its landlord and zone, then restarted on it, so the video plays from its start for the table.
"""

from __future__ import annotations

import re

import cv2
import numpy as np
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import camera_table

pytestmark = [pytest.mark.browser, pytest.mark.slow]
PIN = {"X-Host-Pin": "2468"}
MIDDLE = [{"name": "middle", "rect": [0, 0, 1, 1]}]
FPS = 10
SIZE = (640, 480)
# (cards laid in the middle, seconds they lie there before the next play replaces them)
SCENE = [
    (None, 3),
    (["3S", "3H", "3D", "9C"], 12),  # Ana leads; Bea passes on her phone meanwhile
    (["6S", "7H", "8D", "9S"], 6),  # Cai: four cards are no sequence
    (["5S", "5H", "5D", "7C"], 7),  # Cai
    (["KS", "KH", "KD", "JC"], 7),  # Ana
    (["AS", "AH", "AD", "3C"], 12),  # Bea; Cai and Ana pass meanwhile
    (["4D"], 90),  # Bea leads again
]


def fan(labels: list[str] | None) -> np.ndarray:
    from vision import synth
    from vision.synth_fan import render_fan

    if labels is None:
        return synth.table_texture("cloth", SIZE, np.random.default_rng(0))
    return render_fan(labels, SIZE, table="cloth", seed=0, kind="fan", glare=False).image


def write_video(path, scene=SCENE) -> None:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), FPS, SIZE)
    for labels, seconds in scene:
        frame = fan(labels)
        for _ in range(FPS * seconds):
            writer.write(frame)
    writer.release()


def seat_phone(phone, server, tid: str, name: str, locale: str = "en-US", width=None):
    page = phone(locale) if width is None else phone(locale, width=width)
    page.goto(f"{server.url}/t/{tid}?join=1")
    page.locator("#seats button", has_text=name).click()
    expect(page.locator("#whoami")).to_contain_text(name)
    return page


def test_a_trick_through_the_camera_on_the_phones(server_factory, phone, tmp_path):
    video = tmp_path / "middle.avi"
    write_video(video)
    server = server_factory(camera=f"replay:{video}")
    tid = camera_table(server, "doudizhu", ["Ana", "Bea", "Cai"], MIDDLE,
                       {"camera_confirm": False, "camera_confirm_below": 0.5})

    ana = seat_phone(phone, server, tid, "Ana")
    bea = seat_phone(phone, server, tid, "Bea")
    ana.locator("#ddz-bid-3").click()  # Ana drew the face-up card: she bids 3, landlord
    expect(bea.locator("#ddz-players li[data-seat='0'] .tag.lord")).to_be_visible()

    status, cam = server.request("POST", f"/api/tables/{tid}/camera", {"restart": True}, PIN)
    assert status == 200 and cam["table"] == tid

    last = bea.locator("#ddz-last")
    expect(last).to_have_attribute("data-cards", "3-3-3-9", timeout=20000)
    expect(bea.locator("#ddz-turn")).to_have_text("Your turn!")
    bea.locator("#ddz-pass").click()
    expect(bea.locator("#ddz-verdict")).to_contain_text(
        "Cai: A sequence needs at least five cards.", timeout=20000)
    expect(ana.locator("#ddz-verdict")).to_contain_text("A sequence needs at least five cards.")
    expect(last).to_have_attribute("data-cards", "5-5-5-7", timeout=20000)
    expect(bea.locator("#ddz-verdict")).to_be_hidden()
    expect(last).to_have_attribute("data-cards", "K-K-K-J", timeout=20000)
    expect(last).to_have_attribute("data-cards", "A-A-A-3", timeout=20000)
    for seat in (2, 0):  # Cai and Ana pass (the host taps for them)
        assert server.request("POST", f"/api/tables/{tid}/actions", {
            "action": {"type": "pass"}, "as_seat": seat}, PIN)[0] == 200
    expect(last).to_have_attribute("data-cards", "4", timeout=30000)
    counts = bea.locator("#ddz-players .ddz-count")
    expect(counts).to_have_text(["12", "12", "13"])

    _, hist = server.request("GET", f"/api/tables/{tid}/history")
    camera = [e["body"] for e in hist["history"] if e["actor"]["source"] == "camera"]
    assert [m["cards"] for m in camera] == [["3", "3", "3", "9"], ["5", "5", "5", "7"],
                                           ["K", "K", "K", "J"], ["A", "A", "A", "3"], ["4"]]
    assert [m["seat"] for m in camera] == [0, 2, 0, 1, 1]
    assert ana.js_errors == [] and bea.js_errors == []


def test_a_play_the_camera_reads_is_confirmed_on_the_players_phone(server_factory, phone,
                                                                    tmp_path):
    """By default (``camera_confirm``) a play the camera reads is proposed: the player to
    move confirms it on the phone, or corrects it in the picker the proposal filled; another
    phone sees it but cannot answer for him."""
    video = tmp_path / "middle.avi"
    write_video(video, [(None, 3), (["3S", "3H", "3D", "9C"], 90)])
    server = server_factory(camera=f"replay:{video}")
    tid = camera_table(server, "doudizhu", ["Ana", "Bea", "Cai"], MIDDLE)
    ana = seat_phone(phone, server, tid, "Ana", "pt-BR", width=320)
    bea = seat_phone(phone, server, tid, "Bea")
    ana.locator("#ddz-bid-3").click()
    expect(bea.locator("#ddz-players li[data-seat='0'] .tag.lord")).to_be_visible()
    assert server.request("POST", f"/api/tables/{tid}/camera", {"restart": True}, PIN)[0] == 200

    proposal = ana.locator("#ddz-proposal")
    expect(proposal).to_contain_text("A câmera leu a sua jogada. Está certo?", timeout=20000)
    expect(bea.locator("#ddz-proposal")).to_contain_text("The camera read Ana's play.")
    expect(bea.locator("#ddz-proposal #ddz-confirm")).to_be_disabled()
    expect(bea.locator("#ddz-last")).to_have_attribute("data-cards", "")
    # the proposal fills Ana's picker (a missed card is one tap away), not Bea's
    expect(ana.locator("#ddz-picked .ddz-chip")).to_have_text(["3", "3", "3", "9"])
    expect(bea.locator("#ddz-picked .ddz-chip")).to_have_count(0)
    assert ana.evaluate("document.documentElement.scrollWidth") <= 320  # nothing cut
    ana.locator("#ddz-picked .ddz-chip", has_text="9").click()  # she corrects: 3-3-3 only
    proposal.locator(".ddz-row .btn").nth(1).click()  # "Use the cards picked"
    expect(bea.locator("#ddz-last")).to_have_attribute("data-cards", "3-3-3")
    expect(ana.locator("#ddz-proposal")).to_have_count(0)
    expect(ana.locator("#ddz-picked .ddz-chip")).to_have_count(0)
    expect(bea.locator("#ddz-turn")).to_have_text("Your turn!")
    assert ana.js_errors == [] and bea.js_errors == []


def test_plays_tapped_with_the_picker_and_the_hint(server_factory, phone):
    server = server_factory()
    _, created = server.request("POST", "/api/tables", {
        "game": "doudizhu", "players": ["Ana", "Bea", "Cai"], "pin": "2468"})
    tid = created["table"]["id"]
    ana = seat_phone(phone, server, tid, "Ana")
    bea = seat_phone(phone, server, tid, "Bea", "en-US")
    cai = phone("en-US", width=320)
    cai.goto(f"{server.url}/t/{tid}?join=1")
    cai.locator("#seats button", has_text="Cai").click()

    ana.locator("#ddz-bid-1").click()
    expect(bea.locator("#ddz-bid-1")).to_be_disabled()
    bea.locator("#ddz-nobid").click()
    cai.locator("#ddz-nobid").click()
    expect(ana.locator("#ddz-turn")).to_have_text("Your turn!")

    for rank in ("9", "9"):
        ana.locator(f".ddz-picker [data-rank='{rank}']").click()
    ana.locator("#ddz-play").click()
    expect(bea.locator("#ddz-last")).to_have_attribute("data-cards", "9-9")

    # Bea taps in her hand: the hint is on her phone only, and a tap fills the picker
    bea.locator("#ddz-enter-hand").click()
    for rank in ("3", "8", "8", "J", "J", "K", "2", "RJ"):
        bea.locator(f".ddz-picker [data-rank='{rank}']").click()
    bea.locator("#ddz-save").click()
    hints = bea.locator("#ddz-hints .ddz-hint")
    expect(hints).to_have_count(1)  # J-J beats 9-9; 8-8 does not; no bomb, no rocket
    expect(cai.locator("#ddz-hints")).to_have_count(0)
    # an illegal pair tapped by Bea: refused, and every phone reads why
    bea.locator(".ddz-picker [data-rank='8']").click()
    bea.locator(".ddz-picker [data-rank='8']").click()
    bea.locator("#ddz-play").click()
    expect(cai.locator("#ddz-verdict")).to_contain_text("Bea: 8-8 cannot beat 9-9")
    bea.locator(".btn", has_text="Clear").click()
    hints.first.click()
    expect(bea.locator("#ddz-picked .ddz-chip")).to_have_count(2)
    bea.locator("#ddz-play").click()
    expect(cai.locator("#ddz-last")).to_have_attribute("data-cards", "J-J")
    expect(bea.locator("#ddz-mine .ddz-chips").first.locator(".ddz-chip")).to_have_count(6)
    # nothing is cut or overflowing on the 320 px phone
    width = cai.evaluate("document.documentElement.scrollWidth")
    assert width <= 320
    assert ana.js_errors == [] and bea.js_errors == [] and cai.js_errors == []


def test_a_slow_answer_to_a_play_keeps_a_rank_tapped_after_it(server_factory, phone):
    """Ana's play's answer comes late (a slow network) and she has tapped a rank meanwhile:
    the answer spends the cards she played, not the rank tapped since (it had cleared the
    picker, as the Kingsburg page's late answer had wiped a roll)."""
    server = server_factory()
    _, created = server.request("POST", "/api/tables", {
        "game": "doudizhu", "players": ["Ana", "Bea", "Cai"], "pin": "2468"})
    tid = created["table"]["id"]
    ana = seat_phone(phone, server, tid, "Ana")
    ana.locator("#ddz-bid-1").click()
    for seat in (1, 2):  # Bea and Cai pass, by the host's hand
        assert server.request("POST", f"/api/tables/{tid}/actions", {
            "action": {"type": "pass"}, "as_seat": seat}, PIN)[0] == 200
    expect(ana.locator("#ddz-turn")).to_have_text("Your turn!")
    held = []
    # (the play reaches the server at once; only its answer is kept back)
    ana.route("**/actions", lambda route: held.append((route, route.fetch())))
    for rank in ("9", "9"):
        ana.locator(f".ddz-picker [data-rank='{rank}']").click()
    ana.locator("#ddz-play").click()
    expect(ana.locator("#ddz-last")).to_have_attribute("data-cards", "9-9")
    ana.locator(".ddz-picker [data-rank='3']").click()
    assert len(held) == 1
    route, answer = held[0]
    route.fulfill(response=answer)
    ana.unroute("**/actions")
    expect(ana.locator("#ddz-picked .ddz-chip")).to_have_count(1)
    expect(ana.locator(".ddz-picker [data-rank='3']")).to_have_class(re.compile(r"\bon\b"))
    assert ana.js_errors == []
