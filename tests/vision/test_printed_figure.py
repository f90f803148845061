"""A small "card" named in the middle of a quad dropped for holding it is a figure printed on
the card (issue 33: shrunk to 320 pixels wide, the inside of a green 5's numeral was named a
red 5 and the card around it was never read). The quad around it is read and, named,
replaces it; a card lying off the middle of a region of table, or filling much of it, keeps
the region from being read."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import vision.identify as identify_mod
from vision.detect import Quad
from vision.identify import Identifier
from vision.recognise import Verdict

OUTER = np.array([[60, 40], [220, 40], [220, 140], [60, 140]], np.float32)


def _square(cx: float, cy: float, half: float) -> np.ndarray:
    return np.array([[cx - half, cy - half], [cx + half, cy - half], [cx + half, cy + half],
                     [cx - half, cy + half]], np.float32)


class BySize:
    """A crop's grey level says how big its quad was: the big one reads green 5, a small
    one red 5 (as the 320-pixel photo read them)."""

    threshold, part_threshold = 0.7, 0.9

    def classify_many(self, crops, partial=None):
        return [Verdict("green-5", 1.0, True, "green-5") if c[0, 0, 0] > 100 else
                Verdict("red-5", 0.9996, True, "red-5") for c in crops]


@pytest.mark.parametrize(("inner", "named"), [
    (_square(140, 90, 10), "green-5"),   # 2.5% of the quad, in its middle: a printed figure
    (_square(80, 60, 10), "red-5"),      # off its middle: a card in a region of table
    (_square(140, 90, 30), "red-5"),     # 22% of it: a card, the region of table around it
])
def test_a_figure_in_the_middle_of_a_card_gives_way_to_the_card(monkeypatch, inner,
                                                                named) -> None:
    def find(image, *, enclosing=None, **_):
        enclosing.append(Quad(OUTER, 0.3))
        return [Quad(inner, 0.01)]

    def rectify(image, corners, size):
        big = cv2.contourArea(np.asarray(corners, np.float32)) > 5000
        return np.full((size[1], size[0], 3), 200 if big else 50, np.uint8)

    monkeypatch.setattr(identify_mod, "find_cards", find)
    monkeypatch.setattr(identify_mod, "rectify", rectify)
    monkeypatch.setattr(identify_mod, "closeup_body", lambda img: [])
    monkeypatch.setattr(identify_mod, "card_tops", lambda img, **_: [])
    monkeypatch.setattr(identify_mod, "uno_back", lambda crop: False)
    image = np.full((180, 320, 3), (40, 160, 60), np.uint8)  # (colour: see colourless)
    cards = Identifier("uno", BySize()).identify(image)
    assert [c.label for c in cards if c.label] == [named]
