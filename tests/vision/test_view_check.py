"""The camera page's hints about the picture (vision/view_check.py): each comes for the fault
it names, on the cards the recogniser found, and not for a good picture."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.identify import Identifier
from vision.synth import render_scene
from vision.view_check import measure, view_hints


@dataclass
class Found:
    corners: np.ndarray


@pytest.fixture(scope="module")
def uno() -> Identifier:
    return Identifier("uno", data_path="/nonexistent-taught")


def hints(image: np.ndarray, ident: Identifier) -> list[str]:
    return view_hints(image, ident.identify(image), ident.deck)


def drawn(cards: list[tuple[str, str]], table: str, seed: int) -> np.ndarray:
    """A drawn table as a camera exposed for it gives it: our drawings' whites are pure 255,
    which is what too much light does (tools/make_vision_samples.EXPOSURE)."""
    image, _ = render_scene(cards, table=table, seed=seed)
    return (image.astype(np.float32) * 0.88).astype(np.uint8)


@pytest.mark.parametrize("table", ["wood", "cloth", "white", "pattern"])
def test_a_good_picture_gets_no_hint(uno, table):
    image = drawn([("uno", "red-7"), ("uno", "blue-3"), ("uno", "wild")], table, seed=5)
    assert hints(image, uno) == []


def test_a_dark_picture_is_said_to_be_dark(uno):
    image = drawn([("uno", "red-7"), ("uno", "green-2")], "wood", seed=6)
    dim = (image.astype(np.float32) * 0.2).astype(np.uint8)
    assert hints(dim, uno) == ["dark"]
    assert hints((image.astype(np.float32) * 0.5).astype(np.uint8), uno) == []


def test_cards_blown_out_are_said_so_but_a_white_table_is_not(uno):
    image = drawn([("uno", "yellow-7"), ("uno", "green-2")], "cloth", seed=7)
    lit = np.clip(image.astype(np.float32) * 1.6, 0, 255).astype(np.uint8)
    assert "bright" in hints(lit, uno)
    # a table blown out around cards that are not: no hint
    white = image.copy()
    cards = uno.identify(image)
    mask = np.full(image.shape[:2], 255, np.uint8)
    for c in cards:
        cv2.fillConvexPoly(mask, np.int32(np.round(c.corners)), 0)
    white[mask > 0] = 255
    assert "bright" not in view_hints(white, cards, "uno")


def test_a_blurred_picture_is_said_to_be_blurred(uno):
    image = drawn([("uno", "red-7"), ("uno", "blue-3")], "wood", seed=8)
    blurred = cv2.GaussianBlur(image, (0, 0), 0.015 * image.shape[1])
    assert hints(blurred, uno) == ["blurred"]


def test_the_standard_pack_is_judged_blurred_sooner_than_uno():
    """A standard card's index and pips blur away where an UNO card's colours do not, and
    its crops are sharper as taken: it has a level of its own."""
    image = drawn([("french", "7H"), ("french", "KS")], "wood", seed=9)
    blurred = cv2.GaussianBlur(image, (0, 0), 0.002 * image.shape[1])
    cards = Identifier("french", data_path="/nonexistent-taught").identify(image)
    assert cards
    assert view_hints(blurred, cards, "french") == ["blurred"]
    assert view_hints(blurred, cards, "uno") == []


def test_small_cards_are_said_to_be_small():
    frame = np.random.default_rng(1).integers(60, 200, (720, 1280, 3), dtype=np.uint8)
    narrow = Found(np.float32([[100, 100], [190, 100], [190, 240], [100, 240]]))  # 7% wide
    wide = Found(np.float32([[300, 100], [420, 100], [420, 290], [300, 290]]))  # 9.4%
    assert view_hints(frame, [narrow, narrow, wide], "uno") == ["small"]
    assert view_hints(frame, [narrow, wide, wide], "uno") == []
    assert measure(frame, [narrow]).width == pytest.approx(90 / 1280)


def test_no_card_judges_only_the_light_and_bad_input_gives_no_hint():
    frame = np.full((480, 640, 3), 30, np.uint8)
    assert view_hints(frame, []) == ["dark"]
    assert view_hints(None) == [] and view_hints(np.zeros((0, 0, 3), np.uint8)) == []
    nan = Found(np.full((4, 2), np.nan, np.float32))
    off = Found(np.float32([[-900, -900], [-800, -900], [-800, -700], [-900, -700]]))
    bright = np.full((480, 640, 3), 200, np.uint8)
    assert view_hints(bright, [nan]) == []
    assert measure(bright, [off]).clipped == 0.0
    # a camera's other pixel formats: grey (one channel, or none) and BGRA
    card = Found(np.float32([[100, 100], [200, 100], [200, 240], [100, 240]]))
    for odd in (frame[..., :1], frame[..., 0], np.dstack([frame, frame[..., :1]])):
        assert view_hints(odd, [card]) == ["dark", "blurred"]


def test_real_photos_as_taken_get_no_hint(shared_data: Path):
    """A slice of the shared photos as their cameras took them (the levels were chosen so
    that at most 1 in 100 of them gets one: tools/measure_view_hints.py)."""
    import json

    fired = total = 0
    for folder in ("uno_jx0424", "uno_hemant", "playing_rdpong", "playing_wmcnicho"):
        meta = json.loads((shared_data / folder / "labels.json").read_text())
        ident = Identifier(meta["deck"], data_path="/nonexistent-taught")
        for name in sorted(meta["images"])[::max(1, len(meta["images"]) // 10)][:10]:
            total += 1
            fired += bool(hints(cv2.imread(str(shared_data / folder / name)), ident))
    assert total == 40 and fired == 0
