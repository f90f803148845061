"""A frame with no colour (a monochrome camera, a black-and-white photo): a standard number
card is named by its pips, their count the rank the networks read and their shapes the suit
among all four (``pips.suit_in_grey``, ``Identifier._in_grey``; issue 33: the CC BY phone
photos of single cards, ``../shared/train/cadyze_cards_singles``, learned by no shipped
network, hold 137 greyscale ones, where nothing was named: now 40 of their 146 cards, none
wrong). A court card or an ace stays unsure: only its colour tells it from its twin."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import pips
from vision.detect import rectify
from vision.identify import Identifier

SINGLES = "cadyze_cards_singles"


def _grey(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)


@pytest.mark.parametrize(("name", "label"), [
    ("IMG_20220921_195916.jpg", "9H"), ("IMG_20220921_195930.jpg", "4D"),
    ("IMG_20220921_195942.jpg", "9S"), ("IMG_20220921_195944.jpg", "9C"),
])
def test_a_number_card_in_a_grey_photo_is_named_by_its_pips(shared_train: Path, name: str,
                                                             label: str) -> None:
    entries = json.loads((shared_train / SINGLES / "labels.json").read_text())["images"][name]
    assert {e["label"] for e in entries} == {label}
    image = cv2.imread(str(shared_train / SINGLES / name))
    (card,) = Identifier("french").identify(image)
    assert card.label == label
    fine = rectify(image, card.corners, pips.FINE)
    assert pips.suit_in_grey(fine, int(label[:-1]))[0] == label[-1]
    # (the same card counted as another rank is no reading)
    assert pips.suit_in_grey(fine, int(label[:-1]) + 1) is None


def test_each_suit_in_a_shared_photo_made_grey(shared_data: Path) -> None:
    """The shared standard photos' number cards, made grey: each suit named as itself (the
    four printings of ../shared/data: 236 of their 338 cards named grey, none wrong), and a
    court card left unsure."""
    folder = shared_data / "playing_rdpong"
    labels = json.loads((folder / "labels.json").read_text())["images"]
    named: dict[str, str] = {}
    ident = Identifier("french")
    for name in ("2hearts.jpg", "5diamonds.jpg", "7spades.jpg", "4clubs.jpg", "Kspades.jpg"):
        (truth,) = {e["label"] for e in labels[name]}
        said = [c.label for c in ident.identify(_grey(cv2.imread(str(folder / name))))]
        named[truth] = said
    assert named == {"2H": ["2H"], "5D": ["5D"], "7S": ["7S"], "4C": ["4C"], "KS": [None]}


def test_a_blurred_grey_card_is_not_named(shared_data: Path) -> None:
    """Blurred, a spade's stem and point go and it passes for a diamond: in a grey frame
    only the shapes tell the suit, so a blurred card stays unsure."""
    image = _grey(cv2.imread(str(shared_data / "playing_rdpong" / "7spades.jpg")))
    blurred = cv2.GaussianBlur(image, (0, 0), 0.015 * image.shape[1])
    assert [c.label for c in Identifier("french").identify(blurred)] in ([None], [])


def test_a_small_grey_spade_is_left_unsure() -> None:
    """A spade's shape is a club's with its notches gone, as they go on a small card: in a
    grey frame a spade is named only on a card GREY_SPADE_WIDE wide."""
    from vision.synth import render_scene

    for height in (90, 260):
        scene, _ = render_scene([("french", "6S")], table="cloth", seed=2, glare=False,
                                card_height=height)
        (card,) = Identifier("french").identify(_grey(scene))
        assert card.label == ("6S" if height == 260 else None)
