"""Dice from the camera on two phones in Chromium: the server's camera replays a rendered
photo of the players' dice (vision.synth_dice: no real dice were photographed), Ann's roll
is filled in by itself, and Brian's, one of whose dice the reader is unsure of, is asked on
his phone and counts once he confirms it."""

from __future__ import annotations

import cv2
import pytest
from playwright.sync_api import expect

from tests.browser.test_kingsburg_e2e import seated, table

pytestmark = [pytest.mark.browser, pytest.mark.slow]
PIN = {"X-Host-Pin": "2468"}


def test_the_camera_fills_in_one_roll_and_asks_about_the_other(server_factory, phone,
                                                                tmp_path):
    from vision.synth_dice import render_dice

    image, drawn = render_dice([("red", 1), ("red", 3), ("red", 5), ("blue", 4), ("blue", 6),
                                ("blue", 2)], seed=3, table="cloth", glare=0)
    x, y = (round(v) for v in drawn[4].centre)  # a speck of light on Brian's 6
    cv2.rectangle(image, (x - 1, y - 1), (x, y), (250, 250, 250), -1)
    folder = tmp_path / "dice"
    folder.mkdir()
    cv2.imwrite(str(folder / "roll.png"), image)
    server = server_factory(camera=f"replay:{folder}")
    tid = table(server)
    ann = seated(phone, server, tid, "Ann")
    brian = seated(phone, server, tid, "Brian")
    # (past the King's aid: the camera watches the table from its first move)
    ann.locator('#kb-choice [data-good="wood"]').click()
    brian.locator('#kb-choice [data-good="gold"]').click()
    expect(ann.locator("#kb-year")).to_have_text("Year 1 of 5 · Spring")
    server.request("POST", f"/api/tables/{tid}/camera", {}, PIN)
    expect(ann.locator("#kb-line")).to_have_text("Waiting for Brian", timeout=15_000)
    expect(brian.locator("#kb-confirm")).to_be_visible()
    expect(brian.locator("#kb-act")).to_contain_text("The camera read")
    expect(ann.locator("#kb-confirm")).to_have_count(0)
    brian.locator("#kb-confirm").click()
    # Ann (9) before Brian (12): her move
    expect(ann.locator("#kb-line")).to_have_text("Your move")
    expect(brian.locator("#kb-line")).to_have_text("Waiting for Ann")
    assert ann.js_errors == [] and brian.js_errors == []
