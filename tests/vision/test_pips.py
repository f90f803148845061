"""A standard number card named by its pips where the networks are unsure (vision/pips.py)."""

import cv2
import numpy as np
import pytest

from vision import pips, synth
from vision.identify import Identifier
from vision.pips import count_pips, named_by_pips
from vision.recognise import Verdict
from vision.recognise.features import DETAIL_H, DETAIL_W
from vision.synth import PIPS, draw_card, render_scene

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


# -- the suit by the pips' shapes ---------------------------------------------------------

def fine_of(label: str) -> np.ndarray:
    return cv2.resize(draw_card("french", label), pips.FINE, interpolation=cv2.INTER_AREA)


def card_of_clubs(count: int) -> np.ndarray:
    """A number card of clubs as printings draw them: three round leaves apart, a waist
    between the top one and the two beside it (our drawings' leaves run together)."""
    img = np.full((pips.FINE[1], pips.FINE[0], 3), 245, np.uint8)
    w, h = pips.FINE
    for col, row in PIPS[count]:
        x, y, s = w * 0.32 + col * w * 0.18, h * 0.18 + row * h * 0.64 / 6, 20.0
        sign = -1 if row > 3 else 1  # the lower half's pips stand on their heads
        for dx, dy in ((0, -0.55), (-0.42, 0.1), (0.42, 0.1)):
            cv2.circle(img, (round(x + dx * s), round(y + sign * dy * s)), round(0.36 * s),
                       (25, 25, 25), -1, cv2.LINE_AA)
        for shape in ([(0, -0.35), (-0.35, 0.1), (0.35, 0.1)],  # the leaves' joint
                      [(0, 0), (-0.25, 1), (0.25, 1)]):  # the stem
            pts = np.array([(x + dx * s, y + sign * dy * s) for dx, dy in shape], np.int32)
            cv2.fillPoly(img, [pts], (25, 25, 25), cv2.LINE_AA)
    return img


def test_the_pips_shapes_tell_hearts_from_diamonds_and_clubs_from_spades() -> None:
    for n in range(2, 11):
        assert pips.suit_by_shape(fine_of(f"{n}H"), n, ("H", "D")) == "H", n
        assert pips.suit_by_shape(fine_of(f"{n}D"), n, ("H", "D")) == "D", n
        assert pips.suit_by_shape(fine_of(f"{n}S"), n, ("S", "C")) in ("S", None), n
        assert pips.suit_by_shape(card_of_clubs(n), n, ("S", "C")) == "C", n
    # another count than the recognisers' crop gave: no suit
    assert pips.suit_by_shape(fine_of("7H"), 6, ("H", "D")) is None
    # blur fills a club's waist in: it is a spade's shape then, never a club's
    blurred = cv2.GaussianBlur(card_of_clubs(5), (0, 0), 4)
    assert pips.suit_by_shape(blurred, 5, ("S", "C")) != "C"


def test_a_clubs_notches_outlast_its_waist_to_gainsay_a_spade() -> None:
    """Blurred a little (a small club on a webcam), a club's waist closes while the notches
    between its leaves stay (``pips.CLUB_NOTCH``): a club still, where a name is gainsaid;
    a spade has none, and a club blurred past them is no club."""
    for n in (3, 6, 9):
        club = cv2.GaussianBlur(card_of_clubs(n), (0, 0), 2)
        assert pips.suit_by_shape(club, n, ("S", "C")) != "C", n  # the waist alone: shut
        assert pips.suit_by_shape(club, n, ("S", "C"), notches=True) == "C", n
        assert pips.gainsaid_by_shapes(club, f"{n}S")
        assert not pips.gainsaid_by_shapes(club, f"{n}C")
        assert pips.suit_by_shape(fine_of(f"{n}S"), n, ("S", "C"), notches=True) != "C", n
        assert not pips.gainsaid_by_shapes(fine_of(f"{n}S"), f"{n}S")
        shut = cv2.GaussianBlur(card_of_clubs(n), (0, 0), 4)
        assert pips.suit_by_shape(shut, n, ("S", "C"), notches=True) != "C", n


def test_the_pips_shape_names_the_suit_where_the_recognisers_lean_its_way() -> None:
    leaning = {"H": 0.3, "D": 0.2, "S": 0.1}
    assert named_by_pips(crop_of("french", "7H"), leaning, 1.4) is None  # 0.6: not sure
    assert named_by_pips(crop_of("french", "7H"), leaning, 1.4, fine_of("7H")) == \
        ("7H", pytest.approx(0.8))
    # the recognisers lean the other way: no name
    assert named_by_pips(crop_of("french", "7D"), leaning, 1.4, fine_of("7D")) is None
    clubs = cv2.resize(card_of_clubs(9), (DETAIL_W, DETAIL_H), interpolation=cv2.INTER_AREA)
    assert named_by_pips(clubs, {"S": 0.3, "C": 0.5}, 1.4, card_of_clubs(9)) == \
        ("9C", pytest.approx(0.8125))
    # a shape with no waist names no spade alone, and gainsays clubs the recognisers give
    spades = crop_of("french", "9S")
    assert named_by_pips(spades, {"S": 0.5, "C": 0.3}, 1.4, fine_of("9S")) is None
    assert named_by_pips(spades, SPADES_SURE, 1.4, fine_of("9S"))[0] == "9S"
    assert named_by_pips(spades, {"S": 0.01, "C": 0.9}, 1.4, fine_of("9S")) is None


def test_pips_gainsay_a_number_card_named_with_another_count_or_colour() -> None:
    six = crop_of("french", "6S")
    assert pips.gainsaid_by_pips(six, "8S", 1.4)  # another count
    assert pips.gainsaid_by_pips(six, "6H", 1.4)  # black pips, named red
    assert not pips.gainsaid_by_pips(six, "6S", 1.4)
    assert not pips.gainsaid_by_pips(six, "6C", 1.4)  # the suit within a colour: not theirs
    assert not pips.gainsaid_by_pips(six, "KS", 1.4)  # no count to hold a court card to
    assert pips.gainsaid_by_pips(six, "AS", 1.4)  # an ace has one pip: no layout
    assert not pips.gainsaid_by_pips(crop_of("french", "AS"), "AS", 1.4)
    assert not pips.gainsaid_by_pips(crop_of("french", "AH"), "AH", 1.4)
    assert not pips.gainsaid_by_pips(six, "8S", 1.15)  # a quad cut short counts no pips
    assert not pips.gainsaid_by_pips(six, "8S", 2.9)  # nor one far longer than a card
    assert pips.gainsaid_by_pips(six, "8S", 1.25)  # a webcam's perspective: still a card
    assert pips.gainsaid_by_pips(six, "8S", 2.1)  # a photo squeezed to a square: still one
    # an ace has no layout to count short: any quad, however square (a photo widened)
    assert pips.gainsaid_by_pips(six, "AS", 1.05)
    assert not pips.gainsaid_by_pips(crop_of("french", "AS"), "AS", 1.05)


def test_identifier_leaves_unsure_a_card_its_pips_gainsay() -> None:
    image, _ = render_scene([("french", "6S")], table="cloth", seed=4, glare=False)

    class Named:
        threshold = 0.5

        def __init__(self, label: str, confidence: float) -> None:
            self.verdict = Verdict(label, confidence, True, label)

        def classify_many(self, crops, partial=None):
            return [self.verdict for _ in crops]

    def read(label: str, confidence: float) -> str | None:
        ident = Identifier("french", Named(label, confidence), overlaps=False)
        (card,) = ident.identify(image)
        return card.label

    assert read("8S", 0.67) is None  # six pips: not an 8
    assert read("6S", 0.67) == "6S"
    assert read("8S", 0.95) == "8S"  # sure: not second-guessed
    # ... but a 9 or a 6 is, however sure (unseen printings' eights were named so at 0.999)
    assert read("9S", 0.9997) is None
    assert read("6H", 0.9997) is None  # the colour too
    assert read("6S", 0.9997) == "6S"
    assert read("AS", 0.999) is None  # an ace: one pip, no layout of six


def test_identifier_leaves_unsure_a_club_named_a_spade_by_the_pips_shapes() -> None:
    """Under 0.9, a count that agrees is not enough: the pips' shapes give the suit within
    the colour where they can (a club's waist); a spade is never named by its shape."""
    def read(drawn: str, label: str, confidence: float) -> str | None:
        if drawn == "6C":  # (our drawings' clubs have no waist: a printing's, on a table)
            image = synth.table_texture("cloth", (640, 480), np.random.default_rng(4))
            image[60:420, 200:440] = card_of_clubs(6)
        else:
            image, _ = render_scene([("french", drawn)], table="cloth", seed=4, glare=False)
        verdict = Verdict(label, confidence, True, label)

        class Named:
            threshold = 0.5

            def classify_many(self, crops, partial=None):
                return [verdict for _ in crops]

        (card,) = Identifier("french", Named(), overlaps=False).identify(image)
        return card.label

    assert read("6C", "6S", 0.67) is None  # a club's waist
    assert read("6C", "6C", 0.67) == "6C"
    assert read("6S", "6C", 0.67) == "6C"  # no waist: blur gives a club none either
    assert read("6C", "6S", 0.95) == "6S"  # sure: not second-guessed

    # a photo squeezed to another shape (a dataset's 640x640) makes the card squarer than a
    # card (1.19 here): its pips are read on the card rectified to a card's shape all the same
    squeezed = synth.table_texture("cloth", (640, 480), np.random.default_rng(4))
    squeezed[60:420, 200:440] = card_of_clubs(6)
    squeezed = cv2.resize(squeezed, (640, 380), interpolation=cv2.INTER_AREA)

    class Spade:
        threshold = 0.5

        def classify_many(self, crops, partial=None):
            return [Verdict("6S", 0.67, True, "6S") for _ in crops]

    (card,) = Identifier("french", Spade(), overlaps=False).identify(squeezed)
    assert card.label is None and card.best == "6S"


def test_the_print_level_is_the_percentile_numpy_gives() -> None:
    """``_percentile`` (from a histogram, for speed) is ``np.percentile`` of a uint8 image."""
    rng = np.random.default_rng(3)
    for _ in range(300):
        h, w = rng.integers(1, 50, 2)
        grey = rng.integers(0, 256, (h, w)).astype(np.uint8)
        if rng.random() < 0.5:
            grey = (grey // 37 * 37).astype(np.uint8)  # few levels: ties
        for q in (5, 50, 90, 99.5):
            assert pips._percentile(grey, q) == pytest.approx(float(np.percentile(grey, q)))
