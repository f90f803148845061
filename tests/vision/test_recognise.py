"""The built-in recognisers on drawn scenes: jokers and Huang Di have no real photos."""

from collections import Counter

import pytest

from vision.identify import Identifier
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


def test_every_card_has_a_confidence(identifiers) -> None:
    image, _ = render_scene([("uno", "red-1"), ("uno", "green-skip")], seed=5)
    for card in identifiers["uno"].identify(image):
        assert 0.0 <= card.confidence <= 1.0
        assert card.corners.shape == (4, 2)
