"""A card that fills the whole photo (a straightened crop, its edges at the frame's) is named:
its pips and index are card-shaped quads the detector offers instead, and a drawn ten or
three was read as its pips (issue 33). Drawn cards only (never the unlicensed photos)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import synth
from vision.identify import Identifier, pale_border

# (2D is left out: our drawn two of diamonds is read as spades by the networks on a table
# too; a drawing's fault, not the frame's)
LABELS = ["10H", "10S", "10C", "9D", "7C", "3C", "5S", "AH", "KH", "QS", "JD"]


@pytest.fixture(scope="module")
def french() -> Identifier:
    return Identifier("french", data_path="/nonexistent-taught")


def _noisy(img: np.ndarray, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.clip(img + rng.normal(0, 4, img.shape), 0, 255).astype(np.uint8)


@pytest.mark.parametrize("label", LABELS)
@pytest.mark.parametrize("view", ["exact", "inset", "enlarged"])
def test_a_card_filling_the_photo_is_named_once(french: Identifier, label: str,
                                                view: str) -> None:
    card = synth.draw_card("french", label)
    if view == "inset":  # cropped a few pixels inside the card's edge
        card = card[6:-6, 5:-5]
    elif view == "enlarged":
        card = cv2.resize(card, None, fx=2.2, fy=2.2)
    names = [c.label for c in french.identify(_noisy(card, 7)) if c.label]
    assert names == [label]


def test_the_border_of_a_card_is_pale_and_a_table_is_not() -> None:
    assert pale_border(_noisy(synth.draw_card("french", "10H"), 1))
    assert pale_border(_noisy(synth.draw_card("uno", "red-7"), 1))
    rng = np.random.default_rng(3)
    for kind in ("wood", "cloth", "pattern"):
        assert not pale_border(synth.table_texture(kind, (640, 480), rng)), kind


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_cards_on_a_white_desk_are_not_taken_for_one_card(french: Identifier,
                                                          seed: int) -> None:
    # a 640x480 frame is card-shaped and a white desk's border is pale: the whole frame is
    # read, and must give way to the cards lying on it
    labels = ["9S", "4H", "KC"]
    scene, _ = synth.render_scene([("french", x) for x in labels], table="white", seed=seed,
                                  glare=False)
    assert pale_border(scene)
    names = sorted(c.label for c in french.identify(scene) if c.label)
    assert set(names) <= set(labels)
    assert len(names) >= 2
