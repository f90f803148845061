"""A white card on light wood is found by its saturation (issue 33: on phone photos of single
cards on wood, ``../shared/train/cadyze_cards_singles``, CC BY 4.0 and learned by no shipped
network, the grain ran into the card's edge outline and nothing else was card-shaped: the
cards below were not named at all; 36 of those photos gained a card, none lost one)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.detect import find_cards
from vision.identify import Identifier
from vision.synth import render_scene

SINGLES = "cadyze_cards_singles"


@pytest.mark.parametrize("name", ["IMG_20220921_193915.jpg", "IMG_20220921_193931.jpg",
                                  "IMG_20220921_193938.jpg", "IMG_20220921_193939.jpg"])
def test_a_white_card_on_light_wood_is_found_and_named(shared_train: Path, name: str) -> None:
    entries = json.loads((shared_train / SINGLES / "labels.json").read_text())["images"][name]
    image = cv2.imread(str(shared_train / SINGLES / name))
    cards = Identifier("french").identify(image)
    assert [c.label for c in cards] == [entries[0]["label"]]
    # the card's outline runs round both its corner indices, and no further than the wood
    # beside them (the edge outline with the grain had reached the photo's sides)
    x0 = cards[0].corners[:, 0].min()
    x1 = cards[0].corners[:, 0].max()
    boxes = np.array([e["box"] for e in entries])
    assert x0 <= boxes[:, 0].min() + 16 and x1 >= boxes[:, 2].max() - 16  # (loose boxes)
    assert x0 > 4 and x1 < image.shape[1] - 5


def test_a_neutral_table_costs_one_histogram() -> None:
    from vision.detect import _pale_level

    grey = np.full((360, 480), 6, np.uint8)
    grey[100:250, 150:260] = 2  # a white card on a grey table: both all but unsaturated
    assert _pale_level(grey) is None


def test_a_frame_printed_inside_a_card_is_not_taken_for_it() -> None:
    """Huang Di's cards print a red frame inside a white border: the pale mask closes across
    it, so the card found is the whole card, as without the mask."""
    scene, truth = render_scene([("huangdi", "4")], table="wood", seed=8)
    (quad,) = find_cards(scene)
    assert cv2.contourArea(quad.corners) > 0.9 * cv2.contourArea(truth[0])
