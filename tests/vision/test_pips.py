"""A standard number card named by its pips where the networks are unsure (vision/pips.py)."""

import cv2
import numpy as np
import pytest

from vision import pips
from vision.identify import Identifier
from vision.pips import count_pips, named_by_pips
from vision.recognise import Verdict
from vision.recognise.features import DETAIL_H, DETAIL_W
from vision.synth import draw_card, render_scene

NUMBERS = [f"{r}{s}" for r in range(2, 11) for s in "SHDC"]
SPADES_SURE = {"S": 0.6, "C": 0.02, "H": 0.1, "D": 0.05}


def crop_of(deck: str, label: str) -> np.ndarray:
    return cv2.resize(draw_card(deck, label), (DETAIL_W, DETAIL_H), interpolation=cv2.INTER_AREA)


def test_counts_the_pips_of_drawn_number_cards_and_never_miscounts() -> None:
    counted = 0
    for label in NUMBERS:
        found = count_pips(crop_of("french", label))
        if found is not None:
            assert found.count == int(label[:-1]), label
            assert (found.red >= pips.RED[1]) == (label[-1] in "HD"), label
            counted += 1
    assert counted >= 32  # of 36


def test_counts_a_card_the_quad_missed_a_little_of() -> None:
    """A white card's edge lost on grey paper puts the quad off its corners: the crop is
    sheared and the layout's axis leans (by ~0.08 on such photos)."""
    for label in ("6S", "8D", "9C", "10H"):
        crop = crop_of("french", label)
        h, w = crop.shape[:2]
        shear = np.float32([[1, 0.08, -0.04 * h], [0, 1, 0]])
        leaning = cv2.warpAffine(crop, shear, (w, h), borderMode=cv2.BORDER_REPLICATE)
        upright = count_pips(crop)
        assert upright is not None and count_pips(leaning) == upright, label


def test_like_shapes_along_a_slant_are_no_layout() -> None:
    card = np.full((240, 160, 3), 245, np.uint8)
    for x, y in ((50, 70), (80, 120), (110, 170)):  # three spades' worth, corner to corner
        cv2.circle(card, (x, y), 10, (20, 20, 20), -1)
    assert count_pips(card) is None
    cv2.circle(card, (50, 70), 10, (245, 245, 245), -1)
    cv2.circle(card, (110, 170), 10, (245, 245, 245), -1)
    cv2.circle(card, (80, 70), 10, (20, 20, 20), -1)
    cv2.circle(card, (80, 170), 10, (20, 20, 20), -1)
    assert count_pips(card).count == 3  # the same three, down the middle: a 3


@pytest.mark.parametrize("deck,labels", [
    ("french", ["AS", "AH", "JC", "QD", "KS", "BJ", "RJ"]),
    ("uno", ["red-8", "blue-8", "green-2", "yellow-skip", "red-draw2", "wild-draw4"]),
])
def test_no_count_on_aces_court_cards_or_other_decks(deck, labels) -> None:
    for label in labels:
        assert count_pips(crop_of(deck, label)) is None, label


def test_names_the_rank_by_count_the_colour_by_the_pips_and_the_suit_by_the_recognisers() -> None:
    crop = crop_of("french", "9S")
    assert named_by_pips(crop, SPADES_SURE, 1.4) == ("9S", pytest.approx(0.6 / 0.62))
    # the recognisers' suit counts only within the pips' colour: hearts' share is beside
    assert named_by_pips(crop, {"S": 0.02, "C": 0.9, "H": 3.0}, 1.4)[0] == "9C"


def test_stays_unsure_where_the_suit_or_the_shape_is_in_doubt() -> None:
    crop = crop_of("french", "9S")
    assert named_by_pips(crop, {"S": 0.5, "C": 0.4}, 1.4) is None  # 0.56 of black
    # a 3 of clubs went to spades at 0.82-0.93 on photos dimmed, compressed or far
    assert named_by_pips(crop, {"S": 0.93, "C": 0.07}, 1.4) is None
    assert named_by_pips(crop, {"S": 0.0, "C": 0.0, "H": 0.9}, 1.4) is None
    # a quad cut short (glare over a card's top third showed a 7's lower pips as a 5)
    assert named_by_pips(crop, SPADES_SURE, 1.15) is None
    assert named_by_pips(crop, SPADES_SURE, 1.9) is None


class Unsure:
    """A standard-pack recogniser unsure of every card, with the suits it would give."""

    threshold = 0.5

    def __init__(self, suits: dict[str, float]) -> None:
        self.suits = suits

    def classify_many(self, crops, partial=None):
        return [Verdict(None, 0.3, True, "5S", dict(self.suits)) for _ in crops]


def test_identifier_names_an_unsure_number_card_by_its_pips() -> None:
    image, _ = render_scene([("french", "7S")], table="cloth", seed=4, glare=False)
    (card,) = Identifier("french", Unsure(SPADES_SURE), overlaps=False).identify(image)
    assert card.label == "7S" and card.best == "7S"
    assert card.confidence == pytest.approx(0.6 / 0.62)
    # a court card has no pips to count: it stays unsure, with the recogniser's best guess
    image, _ = render_scene([("french", "KS")], table="cloth", seed=4, glare=False)
    (card,) = Identifier("french", Unsure(SPADES_SURE), overlaps=False).identify(image)
    assert card.label is None and card.best == "5S" and card.confidence == 0.3


def test_a_recogniser_sure_of_its_card_is_not_second_guessed_by_the_pips() -> None:
    image, _ = render_scene([("french", "7S")], table="cloth", seed=4, glare=False)

    class Sure:
        threshold = 0.5

        def classify_many(self, crops, partial=None):
            return [Verdict("7C", 0.9, True, "7C") for _ in crops]

    (card,) = Identifier("french", Sure(), overlaps=False).identify(image)
    assert card.label == "7C"


def test_the_standard_network_gives_suits_only_for_the_cards_it_is_unsure_of() -> None:
    from vision.recognise.cnn import CnnRecogniser

    crop = crop_of("french", "10H")
    (unsure,) = CnnRecogniser("french", threshold=1.0).classify_many([crop])
    assert unsure.is_card and unsure.label is None and set(unsure.suits) == set("SHDC")
    # a suit's probability holds its best card's
    assert unsure.suits[unsure.best[-1]] >= unsure.confidence - 1e-6
    (sure,) = CnnRecogniser("french", threshold=0.0).classify_many([crop])
    assert sure.label is not None and sure.suits is None
    (uno,) = CnnRecogniser("uno", threshold=1.0).classify_many([crop_of("uno", "red-7")])
    assert uno.suits is None
