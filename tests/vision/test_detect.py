import numpy as np
import pytest

from tests.vision.helpers import matches
from vision.detect import CARD_H, CARD_W, find_cards, order_portrait, rectify
from vision.synth import render_scene


@pytest.mark.parametrize("table", ["wood", "cloth", "white", "pattern"])
@pytest.mark.parametrize("n", [1, 3, 5])
def test_finds_every_card_on_each_surface(table: str, n: int) -> None:
    cards = [("french", "AS"), ("uno", "red-3"), ("huangdi", "7"), ("french", "KD"),
             ("uno", "wild")][:n]
    image, truth = render_scene(cards, table=table, seed=n)
    quads = find_cards(image, whole_fallback=False, colour_bodies=True)
    # known gaps: a black wild on a light table can be missed (its body splits in two),
    # and a white card on a white table under glare
    allowed_misses = 1 if table == "white" or (n == 5 and table == "wood") else 0
    assert matches([q.corners for q in quads], truth) >= n - allowed_misses
    assert len(quads) <= n + 1


def test_corners_are_ordered_portrait() -> None:
    landscape = np.array([[10, 10], [110, 10], [110, 70], [10, 70]], np.float32)
    p = order_portrait(landscape)
    assert np.linalg.norm(p[1] - p[0]) < np.linalg.norm(p[2] - p[1])


def test_tight_crop_falls_back_to_whole_image() -> None:
    crop = np.full((300, 200, 3), 200, np.uint8)
    quads = find_cards(crop)
    assert len(quads) == 1 and quads[0].whole


def test_rectify_size() -> None:
    image, truth = render_scene([("uno", "blue-1")], seed=2)
    assert rectify(image, order_portrait(truth[0])).shape == (CARD_H, CARD_W, 3)
