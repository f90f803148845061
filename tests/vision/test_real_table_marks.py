"""The whole-card outlines the CC BY scenes' corner-index boxes give (tools/train_card_finder.py
``scene_marks``): what the learned finder is taught on real tables and what
tools/measure_real_tables.py counts as a lone card."""

import math
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

from train_card_finder import CARD_ASPECT, INDEX_IN, SCENE_SQUEEZE, scene_marks


def _card(cx: float, cy: float, height: float, degrees: float) -> np.ndarray:
    """A card's corners (TL TR BR BL of the card upright) turned about its centre."""
    w, h = CARD_ASPECT * height, height
    a = math.radians(degrees)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    pts = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    return pts @ rot.T + [cx, cy]


def _index_boxes(card: np.ndarray, label: str, size: float = 12.0) -> list[dict]:
    """The two index boxes of ``card`` as the export gives them: axis-aligned, in the frame
    stretched to 640 x 640 (its height divided by ``SCENE_SQUEEZE``)."""
    tl, tr, _, bl = card
    across, down = tr - tl, bl - tl
    out = []
    for u, v in (INDEX_IN, (1 - INDEX_IN[0], 1 - INDEX_IN[1])):
        x, y = tl + u * across + v * down
        y /= SCENE_SQUEEZE
        out.append({"label": label, "box": [x - size / 2, y - size, x + size / 2, y + size]})
    return out


@pytest.mark.parametrize("degrees", [0, 37, 90, 180, 250])
def test_a_lone_card_is_outlined_from_its_two_indices(degrees: float) -> None:
    card = _card(300, 220, 120, degrees)
    cards, unknown = scene_marks(_index_boxes(card, "7H"))
    assert unknown == []
    assert len(cards) == 1
    got = cards[0]
    # the same outline, whichever corner it starts at (a card turned round is the same card)
    assert min(np.abs(np.roll(got, k, axis=0) - card).max() for k in range(4)) < 0.5


def test_overlapping_cards_teach_nothing_where_they_lie() -> None:
    """Which of two overlapping cards lies on top is not boxed: both are unknown."""
    a, b = _card(200, 200, 120, 0), _card(240, 210, 120, 10)
    alone = _card(500, 300, 120, -20)
    entries = _index_boxes(a, "2S") + _index_boxes(b, "3S") + _index_boxes(alone, "KD")
    cards, unknown = scene_marks(entries)
    assert len(cards) == 1 and np.abs(cards[0].mean(axis=0) - alone.mean(axis=0)).max() < 0.5
    assert len(unknown) == 2


def test_a_card_with_one_index_in_view_makes_its_surroundings_unknown() -> None:
    """A card one of whose indices lies inside another card's outline is under or over it."""
    over = _card(300, 240, 120, 0)
    under = _index_boxes(_card(330, 250, 120, 30), "9C")[:1]  # its other index hidden
    cards, unknown = scene_marks(_index_boxes(over, "QH") + under)
    assert cards == []
    assert len(unknown) == 2  # the card over it, and a disc about the lone index
