"""UNO refereed through a camera: a replay camera plays real photos of UNO cards landing on
the discard pile; the referee judges each one and the phones (Chromium) show the verdicts.

The photos are the measurement photos in ../shared/data (read here, never copied into the
project). The test picks, among the photos the recogniser names confidently and correctly,
a sequence of legal plays with one illegal card in it, makes a video of them (each photo
held 1.5 s, as a card lies on the pile) and serves it as the camera.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import cv2
import numpy as np
import pytest
from playwright.sync_api import expect

from companion.cards import parse_uno
from tests.browser.conftest import camera_table

pytestmark = [pytest.mark.browser, pytest.mark.slow]
DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
SETS = ("uno_jx0424", "uno_nunoferreira", "uno_soloskino1")
FPS, HOLD = 10, 15
SIZE = (640, 480)
SURE = 0.8  # the UNO option camera_confirm_below: surer readings are plays, not proposals


def framed(img: np.ndarray) -> np.ndarray:
    """The photo as the camera shows it: fitted into a 640x480 frame, JPEG-compressed."""
    blank = np.full((SIZE[1], SIZE[0], 3), 25, np.uint8)
    scale = min(SIZE[0] / img.shape[1], SIZE[1] / img.shape[0])
    small = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    y, x = (SIZE[1] - small.shape[0]) // 2, (SIZE[0] - small.shape[1]) // 2
    blank[y:y + small.shape[0], x:x + small.shape[1]] = small
    return cv2.imdecode(cv2.imencode(".jpg", blank, [cv2.IMWRITE_JPEG_QUALITY, 85])[1], 1)


def confident_photos() -> dict[str, Path]:
    """One photo per card label that the recogniser names right, and surely."""
    from vision.identify import Identifier

    identifier = Identifier("uno")
    found: dict[str, Path] = {}
    for name in SETS:
        folder = DATA / name
        if not folder.is_dir():
            continue
        meta = json.loads((folder / "labels.json").read_text())
        for file, cards in sorted(meta["images"].items()):
            if len(cards) != 1 or cards[0]["label"] in found:
                continue
            label = cards[0]["label"]
            if not parse_uno(label).is_number:
                continue
            image = cv2.imread(str(folder / file))
            said = identifier.identify(framed(image)) if image is not None else []
            if len(said) == 1 and said[0].label == label and said[0].confidence >= SURE:
                found[label] = folder / file
    return found


def plan(photos: dict[str, Path]) -> tuple[list[str], int]:
    """A legal walk of at least 5 cards with an illegal card slipped in after the third."""
    labels = sorted(photos)
    for first in labels:
        walk = [first]
        while len(walk) < 6:
            top = parse_uno(walk[-1])
            nxt = next((c for c in labels if c not in walk and (
                parse_uno(c).colour == top.colour or parse_uno(c).value == top.value)), None)
            if nxt is None:
                break
            walk.append(nxt)
        if len(walk) < 5:
            continue
        top = parse_uno(walk[2])
        bad = next((c for c in labels if c not in walk and parse_uno(c).colour != top.colour
                    and parse_uno(c).value != top.value), None)
        if bad is not None:
            return [*walk[:3], bad, *walk[3:]], 3
    pytest.fail("not enough confidently recognised photos for a game")


def write_video(paths: list[Path], out: Path) -> None:
    writer = cv2.VideoWriter(str(out), cv2.VideoWriter_fourcc(*"MJPG"), FPS, SIZE)
    frame = np.full((SIZE[1], SIZE[0], 3), 25, np.uint8)
    for _ in range(FPS * 2):  # an empty table first
        writer.write(frame)
    for p in paths:
        frame = framed(cv2.imread(str(p)))
        for _ in range(HOLD):
            writer.write(frame)
    for _ in range(FPS * 120):  # then the pile stays as it is
        writer.write(frame)
    writer.release()


def test_the_camera_referees_a_game_on_the_phones(server_factory, phone, tmp_path):
    if not DATA.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"{DATA} is missing")
        pytest.skip("../shared/data is not here")
    photos = confident_photos()
    cards, illegal_at = plan(photos)
    video = tmp_path / "table.avi"
    write_video([photos[c] for c in cards], video)

    server = server_factory(camera=f"replay:{video}")
    pin = {"X-Host-Pin": "2468"}
    # The recogniser names a card only above its own calibrated threshold (else "unsure");
    # this table trusts every named card instead of asking at the default 0.8.
    tid = camera_table(server, "uno", ["Ana", "Bruno"],
                       [{"name": "discard", "rect": [0, 0, 1, 1]}], {"camera_confirm_below": 0.5})
    server.request("POST", f"/api/tables/{tid}/actions", {
        "action": {"type": "set_dealer", "dealer": 0}}, pin)

    bruno = phone("pt-BR")
    bruno.goto(f"{server.url}/t/{tid}?join=1")
    bruno.locator("#seats button", has_text="Bruno").click()
    expect(bruno.locator("#whoami")).to_have_text("Você é Bruno")

    # the camera starts watching now, from the start of the video
    status, cam = server.request("POST", f"/api/tables/{tid}/camera", {"restart": True}, pin)
    assert status == 200 and cam["table"] == tid

    top = bruno.locator("#uno-top")
    for i, card in enumerate(cards):
        if i == illegal_at:
            expect(bruno.locator("#uno-alert")).to_contain_text("não pode ir sobre", timeout=15000)
            continue
        expect(top).to_have_attribute("data-card", card, timeout=15000)

    _, hist = server.request("GET", f"/api/tables/{tid}/history")
    camera_moves = [e["body"] for e in hist["history"] if e["actor"]["source"] == "camera"]
    legal = [c for i, c in enumerate(cards) if i != illegal_at]
    assert [m.get("card") for m in camera_moves] == legal
    assert camera_moves[0]["type"] == "turn_up"
    assert all(m["type"] == "play" for m in camera_moves[1:])
    assert [m["seat"] for m in camera_moves[1:]] == [(1 + k) % 2 for k in range(len(legal) - 1)]
    assert bruno.js_errors == []
