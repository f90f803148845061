"""How the training scripts pick the quad a labelled photo teaches (tools/train_vision.py)."""

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

from train_vision import card_around

from vision.detect import Quad


def _quad(x0: float, y0: float, x1: float, y1: float, whole: bool = False) -> Quad:
    corners = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
    return Quad(corners, (x1 - x0) * (y1 - y0) / (640 * 480), whole=whole)


def test_a_figure_printed_on_a_card_gives_way_to_the_card() -> None:
    """A photo without a labelled box teaches its first quad; where that is a wild +4's
    printed card, the card around it is taught instead (and was "not a card" before)."""
    figure = _quad(300, 220, 330, 262)                 # 30 x 42: a printed card
    card = _quad(250, 160, 380, 360)                   # 130 x 200: the card around it
    region = _quad(100, 60, 540, 440)                  # the table around the card
    frame = _quad(0, 0, 640, 480, whole=True)
    assert card_around(figure, [figure, region, card, frame]) is card


def test_a_card_on_a_table_stays_the_card() -> None:
    """A card is a larger share of the table region outlined around it, and the frame holds
    every card: neither is taken for the card."""
    card = _quad(250, 160, 380, 360)
    region = _quad(150, 80, 480, 420)                  # the card is ~0.23 of it
    frame = _quad(0, 0, 640, 480, whole=True)
    assert card_around(card, [card, region, frame]) is None
    square = _quad(200, 140, 430, 370)                 # around a figure, but not card-shaped
    figure = _quad(300, 220, 330, 262)
    assert card_around(figure, [figure, square]) is None
