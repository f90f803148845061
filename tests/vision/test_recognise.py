"""The built-in recognisers on drawn scenes: jokers and Huang Di have no real photos."""

import json
from collections import Counter

import cv2
import numpy as np
import pytest

from vision.identify import Identifier
from vision.recognise.builtin import MODELS
from vision.recognise.cnn import run_net
from vision.synth import render_scene


@pytest.fixture(scope="module")
def identifiers() -> dict[str, Identifier]:
    return {d: Identifier(d, data_path="/nonexistent-taught") for d in ("uno", "french",
                                                                         "huangdi")}


@pytest.mark.parametrize("deck,cards", [
    ("french", ["BJ", "RJ", "AS", "10H"]),
    ("huangdi", ["1", "5", "10", "joker", "invert"]),
    ("uno", ["wild-swap", "wild-custom", "wild-draw4"]),
])
def test_names_drawn_cards_without_wrong_verdicts(identifiers, deck, cards) -> None:
    right = wrong = 0
    for seed, table in enumerate(["wood", "cloth", "white"]):
        image, _ = render_scene([(deck, c) for c in cards], table=table, seed=40 + seed)
        said = Counter(c.label for c in identifiers[deck].identify(image) if c.label)
        truth = Counter(cards)
        right += sum((said & truth).values())
        wrong += sum((said - truth).values())
    # precision first: never a confident wrong name; recall on our drawings is modest
    # (no photo of these exists; a table teaches its printing), so ask for a third
    assert wrong == 0
    assert right >= 0.3 * 3 * len(cards)


# Huang Di's real printing is not known: the network learned many printings besides ours
# (synth.random_printing). Learned from our art alone, it named cards printed otherwise 39
# times wrong in 198 (a 9 as a 6, an invert as the joker at 1.0: tools/measure_printings.py).
# (OpenCV 5 only: OpenCV 4 draws these fonts in other faces, see .ci/run.)
def test_huang_di_printed_otherwise_is_named_or_asked_about(identifiers) -> None:
    from companion.cards import DECKS
    from vision import synth

    right = wrong = total = 0
    for k in range(8):
        rng = np.random.default_rng(77_000 + k)  # (apart from training's and calibration's)
        printing = synth.random_printing(rng)
        cards = [("huangdi", str(rng.choice(DECKS["huangdi"]))) for _ in range(4)]
        image, _ = render_scene(cards, table=["wood", "cloth", "white", "pattern"][k % 4],
                                seed=77_000 + k,
                                art=printing.art)
        said = Counter(c.label for c in identifiers["huangdi"].identify(image) if c.label)
        truth = Counter(label for _, label in cards)
        right += sum((said & truth).values())
        wrong += sum((said - truth).values())
        total += len(cards)
    assert wrong == 0
    assert right >= 0.75 * total


def test_every_card_has_a_confidence(identifiers) -> None:
    image, _ = render_scene([("uno", "red-1"), ("uno", "green-skip")], seed=5)
    for card in identifiers["uno"].identify(image):
        assert 0.0 <= card.confidence <= 1.0
        assert card.corners.shape == (4, 2)


def test_uno_and_standard_are_read_by_the_network_through_opencv(identifiers) -> None:
    """The trained network runs through cv2.dnn: no torch (nor onnxruntime) at run time."""
    import sys

    from vision.recognise.cnn import CnnRecogniser

    for deck in ("uno", "french", "huangdi"):
        assert isinstance(identifiers[deck].recogniser, CnnRecogniser)
    image, _ = render_scene([("uno", "blue-7")], seed=3)
    identifiers["uno"].identify(image)
    assert "torch" not in sys.modules and "onnxruntime" not in sys.modules


def test_network_reads_a_card_either_way_up(identifiers) -> None:
    image, corners = render_scene([("uno", "green-draw2")], table="cloth", seed=8)
    rec = identifiers["uno"].recogniser
    from vision.detect import order_portrait, rectify
    from vision.recognise.features import DETAIL_H, DETAIL_W

    crop = rectify(image, order_portrait(corners[0]), (DETAIL_W, DETAIL_H))
    up, turned = rec.classify_many([crop, crop[::-1, ::-1].copy()])
    assert up.label == turned.label == "green-draw2"


def test_a_card_seen_only_in_part_needs_the_stricter_threshold(monkeypatch) -> None:
    """A close-up's box (no outline: cut by the frame or fingers) is named only at the
    recogniser's threshold for parts; the same reading of a whole outline is named."""
    import numpy as np

    import vision.identify as identify_mod
    from vision.detect import Quad
    from vision.recognise import Verdict

    class Sure:
        threshold, part_threshold = 0.6, 0.95

        def classify(self, crop):
            return Verdict("red-7", 0.9, True, "red-7")

    box = np.array([[10, 10], [60, 10], [60, 90], [10, 90]], np.float32)
    # (a colour camera's frame, as in the tests below: a grey one leaves a red 7 unsure)
    image = np.full((120, 120, 3), (60, 150, 220), np.uint8)
    ident = Identifier("uno", Sure())
    for partial, said in ((False, "red-7"), (True, None)):
        monkeypatch.setattr(identify_mod, "find_cards",
                            lambda *a, partial=partial, **k: [Quad(box, 0.3, partial=partial)])
        (card,) = ident.identify(image)
        assert (card.label, card.best, card.partial) == (said, "red-7", partial)


def test_a_card_seen_in_part_is_named_once(monkeypatch) -> None:
    """Two boxes of one close-up read as the same card (a yellow 1 at 0.91 and 1.0) are one
    card: the surer is kept. Two cards seen whole may share a name (UNO holds two of most)."""
    import numpy as np

    import vision.identify as identify_mod
    from vision.detect import Quad
    from vision.recognise import Verdict

    class ByShade:
        threshold, part_threshold = 0.7, 0.9

        def classify_many(self, crops, partial=None):
            return [Verdict("yellow-1", 0.91 if c.mean() < 128 else 1.0, True, "yellow-1")
                    for c in crops]

    left = np.array([[5, 5], [45, 5], [45, 65], [5, 65]], np.float32)
    right = left + np.float32([60, 0])
    image = np.full((80, 120, 3), (200, 200, 230), np.uint8)
    image[:, :55] = 60  # the left box reads 0.91, the right one 1.0
    for partial, kept in ((True, [1.0]), (False, [0.91, 1.0])):
        monkeypatch.setattr(identify_mod, "find_cards", lambda *a, partial=partial, **k: [
            Quad(left, 0.2, partial=partial), Quad(right, 0.2, partial=partial)])
        cards = Identifier("uno", ByShade()).identify(image)
        assert sorted(c.confidence for c in cards) == kept
        assert {c.label for c in cards} == {"yellow-1"}


def test_second_look_only_when_nothing_is_read(monkeypatch) -> None:
    """A frame whose cards are all read below even odds gets a second look for a close-up's
    body; its box, read as a card, replaces the unsure card it overlaps and is held to the
    stricter threshold for parts. A frame with a card read surely gets none."""
    import numpy as np

    import vision.identify as identify_mod
    from vision.detect import Quad
    from vision.recognise import Verdict

    first = np.array([[10, 10], [60, 10], [60, 90], [10, 90]], np.float32)
    body = first + 2

    class ByBox:
        threshold, part_threshold = 0.6, 0.95

        def __init__(self, first_conf: float) -> None:
            self.first_conf = first_conf

        def classify_many(self, crops, partial=None):
            confs = [0.97 if c.mean() > 100 else self.first_conf for c in crops]
            return [Verdict("red-7" if p >= self.threshold else None, p, True, "red-7")
                    for p in confs]

    image = np.full((120, 120, 3), (50, 50, 70), np.uint8)
    looked = []

    def closeup(img):
        looked.append(True)
        return [Quad(body, 0.0, partial=True)]

    monkeypatch.setattr(identify_mod, "find_cards", lambda *a, **k: [Quad(first, 0.3)])
    monkeypatch.setattr(identify_mod, "closeup_body", closeup)
    monkeypatch.setattr(identify_mod, "card_tops", lambda img, **_: [])
    monkeypatch.setattr(identify_mod, "rectify",
                        lambda img, corners, size: np.full((size[1], size[0], 3),
                                                           200 if corners is body else 50,
                                                           np.uint8))
    (card,) = Identifier("uno", ByBox(0.3)).identify(image)
    assert looked and card.corners is body and card.partial and card.label == "red-7"
    looked.clear()
    (card,) = Identifier("uno", ByBox(0.7)).identify(image)
    assert not looked and card.corners is first and card.label == "red-7"
    # the standard pack has no coloured bodies to look for
    Identifier("french", ByBox(0.3), overlaps=False).identify(image)
    assert not looked


def _marking_rectify(boxes: list):
    """A stand-in for ``rectify`` whose crop's pixels say which box it is: k + 1 for box k,
    0 for any other quad."""
    import numpy as np

    def rectify(img, corners, size):
        mark = next((k + 1 for k, b in enumerate(boxes) if corners is b), 0)
        return np.full((size[1], size[0], 3), mark, np.uint8)

    return rectify


@pytest.mark.parametrize(("tops", "named"), [
    (["red-7"], "red-7"),            # a card top read sure: it is the card
    (["red-7", "red-7"], "red-7"),   # two sure boxes agree
    (["red-7", "blue-2"], None),     # two sure boxes disagree: nothing is named
])
def test_second_look_names_a_box_only_where_every_sure_box_agrees(
        monkeypatch, tops: list[str], named: str | None) -> None:
    """A frame with a card read at even odds but not named still gets the second look: the
    close-up body's box and the tops found by their edges (``vision.held``). A box named
    sure enough is the card if every named box gives the same name; where two disagree, the
    frame keeps its unsure card (a wrong name said surely is the worst failure)."""
    import numpy as np

    import vision.identify as identify_mod
    from vision.detect import Quad
    from vision.recognise import Verdict

    first = np.array([[10, 10], [60, 10], [60, 90], [10, 90]], np.float32)
    boxes = [first + 2 + 3 * k for k in range(len(tops))]

    class ByBox:  # a crop's first pixel says which box it is: 0 the first quad, k + 1 box k
        threshold, part_threshold = 0.6, 0.95

        def classify_many(self, crops, partial=None):
            marks = [int(c[0, 0, 0]) for c in crops]
            return [Verdict(tops[m - 1], 0.99, True, tops[m - 1]) if m else
                    Verdict(None, 0.7, True, "red-7") for m in marks]

    rectify = _marking_rectify(boxes)

    # the first look: a close-up's box read at 0.7, short of the 0.95 a part needs
    monkeypatch.setattr(identify_mod, "find_cards",
                        lambda *a, **k: [Quad(first, 0.3, partial=True)])
    # the body search's box, read unsure; the card tops are looked for where it found one
    monkeypatch.setattr(identify_mod, "closeup_body",
                        lambda img: [Quad(first + 1, 0.2, partial=True)])
    monkeypatch.setattr(identify_mod, "card_tops",
                        lambda img, **_: [Quad(b, 0.2, partial=True) for b in boxes])
    monkeypatch.setattr(identify_mod, "rectify", rectify)
    cards = Identifier("uno", ByBox()).identify(np.full((120, 120, 3), (50, 50, 70), np.uint8))
    assert [c.label for c in cards if c.label] == ([named] if named else [])
    if named:
        assert len(cards) == 1 and cards[0].corners is boxes[0] and cards[0].partial
    else:
        assert len(cards) == 1 and cards[0].corners is first


def test_card_tops_are_looked_for_only_where_the_body_search_or_the_detector_found_one(
        monkeypatch) -> None:
    """An empty table gives the body search and the detector nothing: the line segments
    (~3 ms a frame) are then not looked for. A card found but unsure is often a close-up's
    top whose coloured body joins the skin below it: they are looked for then too."""
    import numpy as np

    import vision.identify as identify_mod
    from vision.detect import Quad
    from vision.recognise import Verdict

    box = np.array([[10, 10], [60, 10], [60, 90], [10, 90]], np.float32)
    looked: list[bool] = []
    monkeypatch.setattr(identify_mod, "card_tops",
                        lambda img, **_: looked.append(True) or [])
    empty = np.full((120, 160, 3), 128, np.uint8)
    for bodies in ([], [Quad(box, 0.2, partial=True)]):
        monkeypatch.setattr(identify_mod, "closeup_body", lambda img, b=bodies: b)
        Identifier("uno", data_path="/nonexistent-taught").identify(empty)
    assert looked == [True]

    class Unsure:
        threshold = 0.6

        def classify_many(self, crops, partial=None):
            return [Verdict(None, 0.3, True, "red-1") for _ in crops]

    monkeypatch.setattr(identify_mod, "closeup_body", lambda img: [])
    monkeypatch.setattr(identify_mod, "find_cards", lambda *a, **k: [Quad(box, 0.2)])
    Identifier("uno", Unsure()).identify(empty)
    assert looked == [True, True]


@pytest.mark.parametrize(("body", "named"), [
    (("red-7", 0.6), "red-9"),   # the surest box, named at the part threshold
    (("red-7", 0.91), None),     # two boxes named apart: the surest is kept, unnamed
    (("red-9", 0.91), "red-9"),  # named alike
])
def test_second_look_takes_the_surest_box(monkeypatch, body: tuple[str, float],
                                          named: str | None) -> None:
    """Where no box is read sure (PART_SURE), the box read surest replaces the unsure card:
    not the first box found (a close-up's coloured body, read 6 as 9 under a thumb, came
    before its top, read right). It keeps its name only if no other box names another."""
    import numpy as np

    import vision.identify as identify_mod
    from vision.detect import Quad
    from vision.recognise import Verdict

    first = np.array([[10, 10], [60, 10], [60, 90], [10, 90]], np.float32)
    boxes = [first + 1, first + 2]  # the body's box, then a card top
    reads = [body, ("red-9", 0.92)]

    class ByBox:  # a crop's first pixel says which box it is: 0 the first quad, k + 1 box k
        threshold, part_threshold = 0.6, 0.9

        def classify_many(self, crops, partial=None):
            out = []
            for c in crops:
                m = int(c[0, 0, 0])
                name, p = reads[m - 1] if m else ("red-1", 0.3)
                out.append(Verdict(name if p >= self.threshold else None, p, True, name))
            return out

    rectify = _marking_rectify(boxes)

    monkeypatch.setattr(identify_mod, "find_cards",
                        lambda *a, **k: [Quad(first, 0.3, partial=True)])
    monkeypatch.setattr(identify_mod, "closeup_body",
                        lambda img: [Quad(boxes[0], 0.2, partial=True)])
    monkeypatch.setattr(identify_mod, "card_tops",
                        lambda img, **_: [Quad(boxes[1], 0.2, partial=True)])
    monkeypatch.setattr(identify_mod, "_frame_as_part",
                        lambda img: Quad(first * 0, 1.0, partial=True))
    monkeypatch.setattr(identify_mod, "rectify", rectify)
    (card,) = Identifier("uno", ByBox()).identify(np.full((120, 120, 3), (50, 50, 70), np.uint8))
    assert card.corners is boxes[1] and card.best == "red-9" and card.label == named


def test_a_card_dropped_for_its_printed_figures_is_read_when_nothing_inside_is(
        monkeypatch) -> None:
    """The detector hands back the quads it dropped for holding another (a wild +4 around
    its printed cards). Where nothing inside is named, such a quad is read, and if it is
    named it replaces the unsure cards inside it; where a card inside is named (a region of
    table around a card) it is not even read."""
    import numpy as np

    import vision.identify as identify_mod
    from vision.detect import Quad
    from vision.recognise import Verdict

    outer = np.array([[10, 10], [110, 10], [110, 160], [10, 160]], np.float32)
    figure = np.array([[40, 60], [60, 60], [60, 90], [40, 90]], np.float32)
    read: list[int] = []

    class ByBox:
        threshold = 0.6

        def __init__(self, figure_conf: float) -> None:
            self.figure_conf = figure_conf

        def classify_many(self, crops, partial=None):
            read.extend(int(c.mean()) for c in crops)
            return [Verdict("wild-draw4", 0.98, True, "wild-draw4") if c.mean() > 100 else
                    Verdict("red-7" if self.figure_conf >= 0.6 else None, self.figure_conf,
                            True, "red-7") for c in crops]

    inner = [figure]

    def find_cards(image, enclosing=None, **kwargs):
        enclosing.append(Quad(outer, 0.3))
        return [Quad(inner[0], 0.01)]

    monkeypatch.setattr(identify_mod, "find_cards", find_cards)
    monkeypatch.setattr(identify_mod, "rectify",
                        lambda img, corners, size: np.full((size[1], size[0], 3),
                                                           200 if corners is outer else 50,
                                                           np.uint8))
    image = np.full((200, 200, 3), (50, 50, 70), np.uint8)
    (card,) = Identifier("uno", ByBox(0.3)).identify(image)  # the figure: unsure
    assert card.corners is outer and card.label == "wild-draw4" and read == [50, 200]
    read.clear()
    # a card named off the middle of the quad around it (a figure named in its middle is
    # read around all the same: tests/vision/test_printed_figure.py)
    inner[0] = figure - 25
    (card,) = Identifier("uno", ByBox(0.9)).identify(image)
    assert card.corners is inner[0] and card.label == "red-7" and read == [50]


@pytest.mark.parametrize("deck,label", [("uno", "blue-7"), ("french", "7H")])
def test_a_card_in_a_stretched_photo_is_read_across(identifiers, deck: str, label: str
                                                     ) -> None:
    """A photo stretched to another shape (a 4:3 frame resized to square, as datasets do)
    can make an upright card wider than tall: it is still found, and read the right way
    across."""
    import cv2
    import numpy as np

    from vision import synth

    scene = synth.table_texture("wood", (480, 480), np.random.default_rng(3))
    synth.place_card(scene, synth.draw_card(deck, label), (240, 240), 220, 0)
    stretched = cv2.resize(scene, (760, 480))  # the card: ~233 wide, 220 tall
    assert [c.label for c in identifiers[deck].identify(stretched)] == [label]


def test_the_whole_frame_read_as_a_card_needs_more_than_even_odds() -> None:
    """Where no card is found the whole frame is read, on the guess that the photo is a tight
    crop: that guess is named only from WHOLE_FRAME_FLOOR, a card found in it from the
    recogniser's own threshold."""
    import numpy as np

    from vision.identify import WHOLE_FRAME_FLOOR
    from vision.recognise import Verdict

    class Sure:
        threshold = 0.5

        def __init__(self, conf: float) -> None:
            self.conf = conf

        def classify_many(self, crops, partial=None):
            return [Verdict("7H", self.conf, True, "7H") for _ in crops]

    # nothing card-shaped (a grey table's fine grain, sharp: a flat grey frame is as blurred
    # as a frame can be, identify.BLURRED_SURE): read whole
    blank = np.random.default_rng(0).integers(118, 138, (300, 200, 3)).astype(np.uint8)
    (card,) = Identifier("french", Sure(WHOLE_FRAME_FLOOR - 0.05), overlaps=False
                         ).identify(blank)
    assert card.label is None and card.best == "7H"
    (card,) = Identifier("french", Sure(WHOLE_FRAME_FLOOR + 0.05), overlaps=False
                         ).identify(blank)
    assert card.label == "7H"


def test_index_patches_are_the_two_index_corners() -> None:
    """The index network reads the crop's top-left corner and its bottom-right corner turned
    round (where UNO prints the index upside down), both at the network's size."""
    import numpy as np

    from vision.recognise.cnn import index_patches

    crop = np.full((144, 96, 3), 230, np.uint8)
    crop[5:25, 5:20] = (0, 0, 200)  # a red mark at the top-left
    crop[-25:-5, -20:-5] = (200, 0, 0)  # a blue one at the bottom-right
    top, bottom = index_patches(crop, (40, 44))
    assert top.shape == bottom.shape == (44, 40, 3)
    assert top[5:12, 5:10, 2].mean() > 150 > top[5:12, 5:10, 0].mean()
    assert bottom[5:12, 5:10, 0].mean() > 150 > bottom[5:12, 5:10, 2].mean()


@pytest.mark.parametrize("label", ["red-7", "blue-3", "green-skip", "yellow-draw2",
                                   "wild-draw4"])
def test_uno_card_with_its_middle_under_a_hand_is_read_from_its_index(identifiers,
                                                                      label: str) -> None:
    """Fingers over the big symbol in the middle: the corner index still names the card
    (the whole-card network alone got 8 of the 56 drawn cards right this way)."""
    import cv2

    from vision.recognise.features import DETAIL_H, DETAIL_W
    from vision.synth import draw_card

    card = draw_card("uno", label)
    h, w = card.shape[:2]
    cv2.rectangle(card, (int(0.2 * w), int(0.3 * h)), (w, int(0.85 * h)), (130, 160, 210), -1)
    crop = cv2.resize(card, (DETAIL_W, DETAIL_H), interpolation=cv2.INTER_AREA)
    (verdict,) = identifiers["uno"].recogniser.classify_many([crop])
    assert verdict.best == label


def test_standard_index_patches_are_the_two_index_corners() -> None:
    """The corner network reads a whole standard card's top-left corner and its bottom-right
    turned round, each as far into the card as the fan reader's patch (0.19 x 0.33 card
    heights), at the network's size."""
    import numpy as np

    from vision.corner_index import PATCH_H, PATCH_W, crop_patches

    crop = np.full((144, 96, 3), 230, np.uint8)
    # 0.19 / 0.714 of the width by 0.33 of the height (26 x 48 pixels): red over the top-left
    # patch's extent and no further, blue over the bottom-right's
    crop[:48, :26] = (0, 0, 200)
    crop[-48:, -26:] = (200, 0, 0)
    top, bottom = crop_patches(crop)
    assert top.shape == bottom.shape == (PATCH_H, PATCH_W, 3)
    assert (top[..., 2] > 150).all() and (top[..., 0] < 50).all()
    assert (bottom[..., 0] > 150).all() and (bottom[..., 2] < 50).all()


@pytest.mark.parametrize("label", ["7H", "QS", "AC", "8S", "4C"])
def test_standard_card_with_its_middle_covered_is_read_from_its_index(label: str) -> None:
    """A finger or another card over a standard card's middle: the corner index still names
    it. The whole-card network alone took these five for another card (the ace of clubs for
    the ace of spades at 0.9); rank and suit in the corner are printed alike on every
    printing, so they are the second opinion."""
    import cv2

    from vision.recognise.cnn import CnnRecogniser
    from vision.recognise.features import DETAIL_H, DETAIL_W
    from vision.synth import draw_card

    crop = cv2.resize(draw_card("french", label), (DETAIL_W, DETAIL_H),
                      interpolation=cv2.INTER_AREA)
    cv2.rectangle(crop, (int(0.2 * DETAIL_W), int(0.3 * DETAIL_H)),
                  (int(0.85 * DETAIL_W), int(0.75 * DETAIL_H)), (130, 160, 210), -1)
    recogniser = CnnRecogniser("french")
    assert recogniser.corner is not None
    (verdict,) = recogniser.classify_many([crop])
    assert verdict.best == label


@pytest.mark.parametrize("label", ["5C", "JC", "10H", "8H"])
def test_a_jumbo_index_is_read_from_a_bigger_corner(label: str) -> None:
    """A printing whose index is about twice the usual size: the corners are read again from
    a patch 1.3 times bigger (``JUMBO_ZOOM``), where such an index looks as usual. Trained
    without the photos of a jumbo-index deck, the corners named 25 of its 46 train and calib
    cards before, 38 after, no wrong name on any of the four standard folders."""
    import cv2
    import numpy as np

    from vision.recognise.cnn import JUMBO_SURE, CnnRecogniser
    from vision.recognise.features import DETAIL_H, DETAIL_W
    from vision.synth import draw_card

    card = draw_card("french", label)
    h, w = card.shape[:2]
    index = card[: int(0.22 * h), : int(0.2 * w)]  # the drawn index, pasted 1.9 times as big
    big = cv2.resize(index, None, fx=1.9, fy=1.9, interpolation=cv2.INTER_LINEAR)
    card[: big.shape[0], : big.shape[1]] = big
    card[h - big.shape[0]:, w - big.shape[1]:] = big[::-1, ::-1]
    crop = cv2.resize(card, (DETAIL_W, DETAIL_H), interpolation=cv2.INTER_AREA)
    recogniser = CnnRecogniser("french")
    _, agree = recogniser._corner_scores([crop])
    k = recogniser.names.index(label)
    assert int(np.argmax(agree[0])) == k and agree[0, k] >= max(JUMBO_SURE, 0.9)


def test_two_index_corners_read_alike_name_a_card_the_whole_card_network_does_not_know(
) -> None:
    """On a printing the whole-card network never saw, its probability is spread over wrong
    cards: the two index corners read alike are believed on their own, but not against a
    whole-card reading sure of another card, and a single corner is only averaged in."""
    import numpy as np

    from vision.recognise.cnn import CORNERS_ALONE_BELOW, combined

    lost = np.array([[0.3, 0.05, 0.2]])  # card 1 is the one in view
    corner = np.array([[0.0, 0.9, 0.0]])
    agree = np.array([[0.0, 0.9, 0.0]])
    out = combined(lost, corner, 0.5, agree)
    assert out.argmax() == 1 and out[0, 1] == 0.9
    assert combined(lost, corner, 0.5)[0, 1] < 0.5  # the mean alone: unsure
    sure = np.array([[CORNERS_ALONE_BELOW + 0.05, 0.0, 0.0]])
    assert combined(sure, corner, 0.5, agree)[0, 1] < 0.5  # sure of another card: no
    apart = np.array([[0.0, 0.2, 0.0]])  # the corners disagree: their mean is low
    assert combined(lost, corner, 0.5, apart)[0, 1] < 0.5


def test_taught_cards_win_unless_the_model_surely_reads_a_card_never_taught_against(
) -> None:
    """A table's taught printing wins where the model is unsure or agrees. Where the model
    surely reads another card, the taught card wins only as the table's correction of that
    very reading (taught while the model read it so), or where the model's card was taught
    too and the keypoints confirm the taught one: a few taught cards are otherwise the
    nearest match of every card like them. The model reads every crop, told which show only
    part of a card; a card it surely reads that nothing taught has to do with is not
    matched against the taught ones at all."""
    import numpy as np

    from vision.recognise import KP_OVERRULE, UNKNOWN_READING, TaughtFirst, Verdict

    class Taught:
        def __init__(self) -> None:
            self.labels, self.asked, self.read = ["red-7", "red-5"], [], 0

        def classify(self, crop, check_keypoints=True):
            assert check_keypoints is False  # (~10 ms a crop: only where the two disagree)
            self.read += 1
            sure = crop.mean() > 100
            return Verdict("red-7" if sure else None, 0.9 if sure else 0.2, True, "red-7")

        def confirms(self, crop, label, at):
            self.asked.append((label, at))
            return crop[0, 0, 0] == 255  # (a crop whose keypoints name the taught card)

    class Model:
        threshold, part_threshold = 0.7, 0.9

        def __init__(self, reads: list[Verdict]) -> None:
            self.reads, self.seen = reads, []

        def classify_many(self, crops, partial=None):
            self.seen.append(partial)
            return self.reads[:len(crops)]

    bright, dark = np.full((8, 8, 3), 200, np.uint8), np.full((8, 8, 3), 20, np.uint8)
    unsure, agrees = Verdict(None, 0.4, True, "red-1"), Verdict("red-7", 0.95, True, "red-7")
    red_1, red_5 = Verdict("red-1", 0.99, True, "red-1"), Verdict("red-5", 0.99, True, "red-5")
    model = Model([Verdict("blue-1", 0.99, True, "blue-1"), unsure, agrees, red_5, red_1])
    first = TaughtFirst(Taught(), model)
    out = first.classify_many([dark, bright, bright, bright, bright],
                              partial=[True, False, False, False, False])
    assert [v.label for v in out] == ["blue-1", "red-7", "red-7", "red-5", "red-1"]
    assert model.seen == [[True, False, False, False, False]]
    assert first.taught.asked == [("red-7", KP_OVERRULE)]
    assert first.taught.read == 3  # (not for the blue 1 nor the red 1: nothing taught)
    assert (first.threshold, first.part_threshold) == (0.7, 0.9)  # (the identifier's)

    # taught while the model read it as red 1: the table's correction of that reading
    corrected = TaughtFirst(Taught(), Model([red_1]), {"red-7": {"red-1"}})
    assert corrected.classify(bright).label == "red-7"
    assert TaughtFirst(Taught(), Model([red_1]), {"red-7": {"red-5"}}).classify(
        bright).label == "red-1"
    confirmed = bright.copy()
    confirmed[0, 0, 0] = 255
    assert TaughtFirst(Taught(), Model([red_5])).classify(confirmed).label == "red-7"
    # (a part of a card: its keypoints are not where the taught card has them)
    assert TaughtFirst(Taught(), Model([red_5])).classify_many(
        [confirmed], partial=[True])[0].label == "red-5"
    # taught before the readings were kept: a correction of any reading, where the keypoints
    # confirm it (one taught then kept working after an upgrade)
    old = {"red-7": {UNKNOWN_READING}}
    assert TaughtFirst(Taught(), Model([red_1]), old).classify(confirmed).label == "red-7"
    assert TaughtFirst(Taught(), Model([red_1]), old).classify(bright).label == "red-1"


@pytest.mark.parametrize("deck", ["uno", "french"])
def test_two_threads_identifying_at_once_read_what_one_reads(deck: str) -> None:
    """Every recogniser of a deck shares one OpenCV network, which keeps its blobs in the
    object while it runs: two threads identifying frames at once (a camera's and a
    command's) must read what one thread reads, not fail inside OpenCV."""
    from concurrent.futures import ThreadPoolExecutor

    from companion.cards import DECKS

    names = DECKS[deck]
    scenes = [render_scene([(deck, names[(i * 7 + k * 13) % len(names)]) for k in range(5)],
                           seed=i)[0] for i in range(12)]

    def read(scene) -> list:
        cards = Identifier(deck, data_path="/nonexistent-taught").identify(scene)
        return [(c.label, round(c.confidence, 4)) for c in cards]

    alone = [read(s) for s in scenes]
    with ThreadPoolExecutor(2) as pool:
        assert list(pool.map(read, scenes)) == alone


def test_the_second_network_reads_only_the_crops_the_first_is_unsure_of(monkeypatch) -> None:
    """Two networks trained apart are averaged; the second is read only where the first is
    not sure (a card or "not a card" under cnn.SECOND_BELOW), where the mean can change the
    verdict, and its reading is averaged into those crops alone."""
    import numpy as np

    from vision.recognise import cnn

    rec = cnn.CnnRecogniser("uno")
    assert rec.second is not None
    n_out = rec.split + len(cnn._load("uno")[1]["heads"][1])
    probs = np.zeros((1, 3, n_out), np.float32)
    red = rec.split + 0  # the colour head's first class
    probs[0, 0, 0], probs[0, 0, red] = 1.0, 1.0  # a "0" surely: a card at 1.0
    probs[0, 1, 0], probs[0, 1, 1], probs[0, 1, red] = 0.6, 0.4, 1.0  # "0" or "1": unsure
    probs[0, 2, rec.none_a], probs[0, 2, red] = 1.0, 1.0  # surely not a card
    sent: list[int] = []

    def second(net, blob):
        assert net is rec.second
        sent.append(len(blob))
        assert np.allclose(blob, 0.1)  # the unsure crop's own input, not another's
        out = np.zeros((len(blob), n_out), np.float32)
        out[:, 1], out[:, red] = 1.0, 1.0
        return out

    monkeypatch.setattr(cnn, "run_net", second)
    blob = np.stack([np.full((3, 96, 64), k * 0.1, np.float32) for k in range(3)])
    before = probs.copy()
    rec._second_opinion(probs, blob)
    assert sent == [1]
    assert np.allclose(probs[0, 0], before[0, 0]) and np.allclose(probs[0, 2], before[0, 2])
    assert probs[0, 1, 0] == pytest.approx(0.3) and probs[0, 1, 1] == pytest.approx(0.7)


def test_sharpness_tells_blur_from_dim_light() -> None:
    """identify.sharpness: a drawn card's crop is sharp, blurred it is not; a third of the
    light (the same card, less contrast) is not taken for blur."""
    import cv2
    import numpy as np

    from vision.identify import BLURRED_BELOW, sharpness
    from vision.synth import draw_card

    crop = cv2.resize(draw_card("french", "KC"), (96, 144), interpolation=cv2.INTER_AREA)
    dim = (crop.astype(np.float32) / 3).astype(np.uint8)
    blurred = cv2.GaussianBlur(crop, (0, 0), 3.0)
    assert sharpness(crop) > 5 * BLURRED_BELOW
    assert sharpness(dim) > 5 * BLURRED_BELOW
    assert sharpness(blurred) < BLURRED_BELOW


def _touching(table: str, left: str, right: str):
    """Two standard cards side by side, touching: every mask joins them in one blob."""
    import cv2
    import numpy as np

    from vision import synth

    scene = synth.table_texture(table, (640, 480), np.random.default_rng(3))
    a = synth.place_card(scene, synth.draw_card("french", left), (230, 250), 260, 3)
    b = synth.place_card(scene, synth.draw_card("french", right), (417, 250), 260, 3)
    return cv2.GaussianBlur(scene, (3, 3), 0), (a, b)


@pytest.mark.parametrize("table", ["wood", "cloth"])
def test_standard_cards_touching_are_found_by_their_tops(identifiers, table: str) -> None:
    from vision.detect import find_cards, iou_box

    image, truth = _touching(table, "9H", "KS")
    assert not any(iou_box(q.corners, t) > 0.8 for q in find_cards(image) for t in truth)
    cards = identifiers["french"].identify(image)
    named = {c.label: c for c in cards if c.label}
    assert set(named) == {"9H", "KS"}
    assert iou_box(named["9H"].corners, truth[0]) > 0.8
    assert iou_box(named["KS"].corners, truth[1]) > 0.8
    assert len(cards) == 2  # the unsure quad over both is gone


def test_tops_are_looked_for_only_where_something_is_unsure(monkeypatch) -> None:
    """A frame whose cards are all named costs no line search; a top that overlaps a named
    card, or runs off the image, is not read."""
    import numpy as np

    import vision.identify as identify_mod
    from vision.detect import Quad
    from vision.recognise import Verdict

    image, _ = render_scene([("french", "7S")], table="cloth", seed=4, glare=False)
    looked: list[int] = []
    clear = np.array([[520, 330], [580, 330], [580, 420], [520, 420]], np.float32)
    off = clear + np.float32([100, 0])  # past the right edge of the 640-wide frame

    def tops(img, most=3):
        looked.append(most)
        return [Quad(off, 0.02, partial=True), Quad(clear, 0.02, partial=True)]

    monkeypatch.setattr(identify_mod, "card_tops", tops)

    class Reader:
        threshold = part_threshold = 0.5

        def __init__(self, card: Verdict, top: float = 0.9) -> None:
            self.card, self.top = card, top

        def classify_many(self, crops, partial=None):
            # the drawn card's crop is its own; a plain patch of cloth stands for a top
            assert partial == [False] * len(crops)  # (tops are read as whole cards)
            return [self.card if c.std() > 30 else Verdict("QD", self.top, True, "QD")
                    for c in crops]

    sure = Identifier("french", Reader(Verdict("7S", 0.99, True, "7S")), overlaps=False)
    assert [c.label for c in sure.identify(image)] == ["7S"] and looked == []
    unsure = Identifier("french", Reader(Verdict(None, 0.3, True, "7S")), overlaps=False)
    cards = unsure.identify(image)
    assert looked and [c.label for c in cards] == [None, "QD"]
    assert np.allclose(cards[1].corners, clear)
    # a top read below TOPS_SURE is not kept (read without its printing learnt, such cards
    # were named wrong at 0.62-0.75)
    doubtful = Reader(Verdict(None, 0.3, True, "7S"), top=0.7)
    assert [c.label for c in Identifier("french", doubtful, overlaps=False).identify(image)] \
        == [None]


@pytest.mark.parametrize("bare_end", [True, False])
def test_a_top_running_on_into_bare_table_is_no_card(monkeypatch, bare_end: bool) -> None:
    """A card's bottom edge taken for a top: the quad holds the card's lower half and as much
    bare table beyond it. Every standard card prints both its ends, so such a quad is not
    named however surely it reads (an 8 of hearts on a white desk so held was named the 4 of
    hearts at 0.998); the card's own quad, read as surely, is."""
    import vision.identify as identify_mod
    from vision.detect import Quad, order_portrait
    from vision.recognise import Verdict

    image, truth = render_scene([("french", "8H")], table="white", seed=4, glare=False,
                                card_height=160)
    tl, tr, br, bl = order_portrait(truth[0])
    if bare_end:
        mid_l, mid_r = (tl + bl) / 2, (tr + br) / 2
        top = np.float32([mid_l, mid_r, br + (br - mid_r), bl + (bl - mid_l)])
    else:
        top = np.float32([tl, tr, br, bl])
    looked: list[bool] = []

    def tops(img, most=3):
        looked.append(True)
        return [Quad(top, 0.02, partial=True)]

    monkeypatch.setattr(identify_mod, "card_tops", tops)
    # (this reader names whatever it reads after the tops' look, and nothing was named before
    # it: the insides' look, after it, is left out)
    monkeypatch.setattr(identify_mod, "edge_insides", lambda keep: [])

    class Reader:
        """Unsure of the card found by its outline; sure of whatever a top holds."""

        threshold = part_threshold = 0.5

        def classify_many(self, crops, partial=None):
            if not looked:
                return [Verdict(None, 0.3, True, "8H") for _ in crops]
            return [Verdict("4H", 0.998, True, "4H") for _ in crops]

    cards = Identifier("french", Reader(), overlaps=False).identify(image)
    assert looked  # the top was read
    assert ("4H" in [c.label for c in cards]) is not bare_end


def test_tops_are_looked_for_where_an_unsure_quad_may_be_two_cards() -> None:
    """An unsure quad the size and shape of the named cards is a card the reader is unsure
    of (its top would find it again); one twice their size, or a corner index read unsure,
    may hide a card no outline was found for."""
    import numpy as np

    from vision.identify import Card, _worth_tops

    def card(x: float, w: float, label: str | None, partial: bool = False) -> Card:
        corners = np.float32([[x, 0], [x + w, 0], [x + w, 140], [x, 140]])
        return Card(label, 0.9 if label else 0.3, corners, partial=partial)

    named = [card(0, 100, "7S"), card(120, 100, "KD")]
    assert not _worth_tops(named)
    assert not _worth_tops([*named, card(240, 100, None)])
    assert _worth_tops([*named, card(240, 200, None)])  # two cards joined side by side
    assert _worth_tops([*named, card(240, 20, None, partial=True)])  # an index unsure
    assert _worth_tops([card(0, 100, None)])  # nothing named to compare with


@pytest.mark.parametrize("model", sorted(p.stem for p in MODELS.glob("*.onnx")))
def test_every_network_reads_a_batch_as_it_reads_each_crop_alone(model: str) -> None:
    """Crops are read in batches (every card of a frame, both index corners at once). The
    averaged corner-index network was once exported as a stacked mean, which OpenCV 4.x
    read as one row for the whole batch (UNO failed on every card); whichever OpenCV is
    installed, a batch must give each crop's own reading."""
    meta = json.loads((MODELS / f"{model.removesuffix('_second')}.json").read_text())
    w, h = (int(v) for v in meta.get("size", meta.get("patch", (0, 0))))
    net = cv2.dnn.readNetFromONNX(str(MODELS / f"{model}.onnx"))
    crops = np.random.default_rng(3).random((3, 3, h, w), dtype=np.float32)
    batch = run_net(net, crops)
    alone = np.concatenate([run_net(net, crops[i:i + 1]) for i in range(3)])
    assert batch.shape == alone.shape == (3, alone.shape[1])
    assert np.allclose(batch, alone, atol=1e-5)


def test_haze_is_taken_out_of_a_crop_and_only_of_a_hazed_one() -> None:
    """Every card prints something dark or deeply coloured; a crop whose darkest pixels are
    all light grey is a hazed view (a low-contrast webcam, a glare), brought back to black
    before the network reads it. A crop with dark pixels is read as it is."""
    from vision.recognise.cnn import dehazed, prepare
    from vision.synth import draw_card

    card = cv2.resize(draw_card("uno", "blue-7"), (64, 96), interpolation=cv2.INTER_AREA)
    assert dehazed(card) is card
    hazed = np.clip(card * 0.6 + 90, 0, 255).astype(np.uint8)
    back = dehazed(hazed)
    assert hazed.min() >= 90 and back.min() == 0
    # what the network reads: the hazed crop as the crop, within a few grey levels
    assert np.abs(prepare(hazed, (64, 96)).astype(int) - prepare(card, (64, 96))).mean() < 6
    blank = np.full((44, 40, 3), 255, np.uint8)  # a corner patch of white card, blown out
    assert dehazed(blank) is blank


def test_the_networks_input_is_what_training_prepared() -> None:
    """At run time the blob is made in one table look-up per crop (``prepare_blob``); the
    networks learnt from ``prepare``'s crops, so the two must give the same numbers to the
    bit: as taken, hazed (the haze step's path), under a cast, blown out and dark, at the
    whole card's size and at the index patches' (``index_blob``)."""
    from vision.recognise.cnn import index_blob, index_patches, prepare, prepare_blob
    from vision.synth import draw_card

    def reference(crops: list[np.ndarray], size: tuple[int, int]) -> np.ndarray:
        return cv2.dnn.blobFromImages([prepare(c, size) for c in crops], 1.0 / 255.0, size,
                                      (127.5,) * 3, swapRB=False, crop=False)

    rng = np.random.default_rng(5)
    crops = []
    for label in ("blue-7", "wild-draw4", "red-skip", "yellow-0"):
        card = cv2.resize(draw_card("uno", label), (96, 144), interpolation=cv2.INTER_AREA)
        noisy = np.clip(card + rng.normal(0, 6, card.shape), 0, 255).astype(np.uint8)
        crops += [card, noisy,
                  np.clip(noisy * 0.6 + 90, 0, 255).astype(np.uint8),  # hazed
                  np.clip(noisy * (0.7, 1.0, 1.3), 0, 255).astype(np.uint8),  # a warm cast
                  np.clip(noisy * 2.5, 0, 255).astype(np.uint8),  # over-exposed
                  (noisy * 0.2).astype(np.uint8)]  # dark
    crops.append(np.full((144, 96, 3), 255, np.uint8))  # blank
    assert np.array_equal(prepare_blob(crops, (64, 96)), reference(crops, (64, 96)))
    patches = [p for c in crops for p in index_patches(c, (40, 44))]
    # (index_patches gives them prepared: prepare of a prepared patch would balance twice)
    assert np.array_equal(index_blob(crops, (40, 44)), cv2.dnn.blobFromImages(
        patches, 1.0 / 255.0, (40, 44), (127.5,) * 3, swapRB=False, crop=False))


@pytest.mark.parametrize("size,least", [((1280, 720), 46), ((640, 480), 48)])
def test_ten_uno_cards_in_a_wide_view_are_named(identifiers, size, least) -> None:
    """A camera that sees the whole table (ten cards, about 130 pixels tall at 1280x720):
    the detector works at 480 pixels, where a body the oval cuts in two is thin strips that
    its opening wipes out; the mended mask's pieces are paired instead (``PAIR_PIECES``),
    also where the vivid mask left pieces in no card. Until 24 Nov 40 and 44 of these 60
    cards were named; none may be named wrong."""
    from collections import Counter

    from companion.cards import DECKS

    names = DECKS["uno"]
    right = wrong = 0
    for seed in range(6):
        cards = [("uno", names[(seed * 11 + k * 13) % len(names)]) for k in range(10)]
        img = render_scene(cards, size=size, table=("white", "wood")[seed % 2], seed=seed)[0]
        truth = Counter(label for _, label in cards)
        named = Counter(c.label for c in identifiers["uno"].identify(img) if c.label)
        right += sum((named & truth).values())
        wrong += sum((named - truth).values())
    assert wrong == 0
    # (1280x720: 52 on OpenCV 5, 48 on a Pi's 4.11, whose drawn cards differ; 640x480: 55, 50)
    assert right >= least


def test_a_standard_card_too_small_to_show_its_suit_is_never_named(monkeypatch):
    """A standard card narrower than ``NAMED_WIDTH_FLOOR`` pixels is left unsure, with its
    best guess: its suit is a few pixels (shrunk shared photos named a 7 of hearts as
    diamonds at 1.0 there). Without the floor the 5 of hearts here is named; drawn twice as
    large, it is named with it."""
    import vision.identify as identify
    from vision.detect import card_width
    from vision.synth import render_scene

    ident = identify.Identifier("french", data_path="/nonexistent-taught")
    cards = [("french", "9C"), ("french", "KD"), ("french", "5H")]
    small, _ = render_scene(cards, table="cloth", seed=0, card_height=50)
    found = ident.identify(small)
    assert len(found) == 3 and all(card_width(c.corners) < 40 for c in found)
    assert [c.label for c in found] == [None] * 3
    assert sorted(c.best for c in found) == ["5H", "9C", "KD"]
    monkeypatch.setitem(identify.NAMED_WIDTH_FLOOR, "french", 0.0)
    assert "5H" in [c.label for c in ident.identify(small)]
    monkeypatch.undo()
    large, _ = render_scene(cards, table="cloth", seed=0, card_height=90)
    assert {"5H", "9C"} <= {c.label for c in ident.identify(large)}
