"""How the training scripts pick the quad a labelled photo teaches (tools/train_vision.py)."""

import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

from train_vision import card_around
from train_vision_cnn import CROPS_ON_TABLES, crop_on_tables

from vision import synth
from vision.detect import Quad, rectify


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



def test_a_tight_crop_is_also_learnt_lying_whole_on_tables() -> None:
    """A crop folder's photo is one card, its frame the card's edge: it is laid on drawn
    tables and learnt where it lies there (in the photo itself the detector never sees it
    whole with table round it: criscard's wild +4s were read "not a card" on any table)."""
    card = synth.draw_card("uno", "wild-draw4")
    entries = [{"label": "wild-draw4", "box": None}]
    laid = list(crop_on_tables(card, "crop: single-card crops", entries, "uno",
                               np.random.default_rng(0)))
    assert len(laid) == CROPS_ON_TABLES["uno"] > 0
    h, w = card.shape[0] // 4, card.shape[1] // 4
    small = cv2.resize(card, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32)
    for scene, corners, label in laid:
        assert label == "wild-draw4" and scene.shape == (480, 640, 3)
        # the quad taught is the card: cut out upright, it is the drawing again (either
        # way up: a portrait quad does not say which end is the top)
        back = rectify(scene, corners, (w, h)).astype(np.float32)
        assert min(float(np.abs(back - small).mean()),
                   float(np.abs(back - small[::-1, ::-1]).mean())) < 25
    # a photo of a table, a crop labelled with two cards, a deck not laid: nothing
    rng = np.random.default_rng(0)
    assert not list(crop_on_tables(card, "whole-scene: one card", entries, "uno", rng))
    assert not list(crop_on_tables(card, "crop", entries * 2, "uno", rng))
    assert not list(crop_on_tables(card, "crop", entries, "huangdi", rng))
