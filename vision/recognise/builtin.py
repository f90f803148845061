"""Built-in decks read by small MLPs on hand-made features (vision/models/<deck>.npz).

A fallback only: UNO, the standard pack and Huang Di ship a convolutional network
(vision/recognise/cnn.py) and use these only when their MLP weights were built and no
network is there (tools/train_vision.py --deck uno). The class lists of both (FACTORS) live
here.

The UNO, standard and Huang Di recognisers share the pipeline and differ in their weights
and in one sanity check: on UNO the colour the model names must agree with the card's
dominant hue, a cheap second opinion against a confident wrong colour.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

import numpy as np

from companion.cards import (
    DECKS,
    FRENCH_RANKS,
    FRENCH_SUITS,
    HUANGDI_CARDS,
    UNO_ACTIONS,
    UNO_COLOURS,
    UNO_WILDS,
)
from vision.recognise import Verdict
from vision.recognise.features import HUE_BINS, both_ways
from vision.recognise.mlp import Ensemble, Joint

MODELS = Path(__file__).resolve().parent.parent / "models"
BUILTIN_DECKS = ("uno", "french", "huangdi")
NONE = "_none"  # the class for quads that are not a card face


# hue-histogram bins (15 degrees of OpenCV's 0..180 each) that belong to each UNO colour
UNO_BINS = {"red": (0, 11), "yellow": (1, 2), "green": (3, 4, 5), "blue": (6, 7, 8)}


def uno_colour_agrees(features: np.ndarray, label: str) -> bool:
    """False when the card's vivid pixels clearly show another UNO colour than the label
    says; reads the hue histogram already in the feature vector, so it costs nothing."""
    colour = label.split("-")[0]
    if colour not in UNO_BINS:
        return True
    hist = features[-(HUE_BINS + 3):-3]
    if hist.sum() < 4.0 * 0.05:  # (hist is scaled by 4) too little colour to judge
        return True
    share = {c: float(sum(hist[b] for b in bins)) for c, bins in UNO_BINS.items()}
    strongest = max(share, key=share.get)
    return strongest == colour or share[colour] >= 0.5 * share[strongest]


@lru_cache(maxsize=8)
def load_model(deck: str) -> Ensemble:
    path = MODELS / f"{deck}.npz"
    if not path.is_file():
        raise FileNotFoundError(f"no model for {deck!r} at {path}: run tools/train_vision.py")
    return Ensemble.load(path)


@lru_cache(maxsize=4)
def load_joint(deck: str) -> Joint:
    """A factored deck's two ensembles sharing one first-layer matrix."""
    return Joint([load_model(f"{deck}_a"), load_model(f"{deck}_b")])


def clear_cache() -> None:
    """Forget loaded weights (after tools/train_vision.py wrote new ones)."""
    load_model.cache_clear()
    load_joint.cache_clear()


FRENCH_RANK = [*FRENCH_RANKS, "JOKER", NONE]
FRENCH_SUIT = [*FRENCH_SUITS, "black", "red", NONE]
UNO_SYMBOL = [*map(str, range(10)), *UNO_ACTIONS, *UNO_WILDS, NONE]
UNO_COLOUR = [*UNO_COLOURS, "black", NONE]
HUANGDI_CARD = [*HUANGDI_CARDS, NONE]
HUANGDI_KIND = ["number", "joker", "invert", NONE]


def french_parts(label: str) -> tuple[str, str]:
    """(rank, suit) targets of a standard card label for the factored model."""
    if label == NONE:
        return NONE, NONE
    if label in ("BJ", "RJ"):
        return "JOKER", "black" if label == "BJ" else "red"
    return label[:-1], label[-1]


def uno_parts(label: str) -> tuple[str, str]:
    """(symbol, colour) targets of an UNO card label; wilds are black."""
    if label == NONE:
        return NONE, NONE
    if label in UNO_WILDS:
        return label, "black"
    colour, _, value = label.partition("-")
    return value, colour


def huangdi_parts(label: str) -> tuple[str, str]:
    """(card, kind) targets of a Huang Di label: the second head (number, joker or invert)
    is only a second opinion for the network, as the deck has no factors of its own."""
    if label == NONE:
        return NONE, NONE
    return label, label if label in ("joker", "invert") else "number"


# deck -> (first factor's classes, second factor's classes, label -> (first, second))
FACTORS: dict[str, tuple[list[str], list[str], Callable[[str], tuple[str, str]]]] = {
    "french": (FRENCH_RANK, FRENCH_SUIT, french_parts),
    "uno": (UNO_SYMBOL, UNO_COLOUR, uno_parts),
    "huangdi": (HUANGDI_CARD, HUANGDI_KIND, huangdi_parts),
}


def factored(deck: str) -> bool:
    return deck in FACTORS and all((MODELS / f"{deck}_{k}.npz").is_file() for k in "ab")


class BuiltinRecogniser:
    """One deck's model. UNO and the standard pack are factored (two ensembles): symbol x
    colour, rank x suit. Each symbol or rank is then learned from the photos of all four
    colours or suits, which matters with a few photos per card."""

    def __init__(self, deck: str, threshold: float | None = None) -> None:
        self.deck = deck
        if factored(deck):
            first, second, parts = FACTORS[deck]
            self.part_a = load_model(f"{deck}_a")
            self.part_b = load_model(f"{deck}_b")
            self.threshold = self.part_a.threshold if threshold is None else threshold
            self.combos = [(n, first.index(parts(n)[0]), second.index(parts(n)[1]))
                           for n in DECKS[deck]]
            return
        self.model = load_model(deck)
        self.threshold = self.model.threshold if threshold is None else threshold
        self._none = self.model.labels.index(NONE) if NONE in self.model.labels else -1

    def scores(self, crop: np.ndarray) -> np.ndarray:
        """Class probabilities, averaged over the members and the two ways up."""
        return self.model.all_probs(both_ways(crop)).mean(axis=(0, 1))

    def classify(self, crop: np.ndarray) -> Verdict:
        return self.classify_many([crop])[0]

    def classify_many(self, crops: list[np.ndarray], partial: list[bool] | None = None
                      ) -> list[Verdict]:
        """All the cards of a frame in one matrix product per network (cheaper on a Pi).
        ``partial`` (which crops show only part of a card) is read the same here."""
        if not crops:
            return []
        feats = np.concatenate([both_ways(c) for c in crops])
        if hasattr(self, "part_a"):
            a, b = load_joint(self.deck).all_probs(feats)
            na, nb = a.shape[-1], b.shape[-1]
            return [self._factored(feats[2 * i], a[:, 2 * i: 2 * i + 2].reshape(-1, na),
                                   b[:, 2 * i: 2 * i + 2].reshape(-1, nb))
                    for i in range(len(crops))]
        probs = self.model.all_probs(feats)  # (members, 2 * cards, classes)
        k = len(self.model.labels)
        out = []
        for i in range(len(crops)):
            readings = probs[:, 2 * i: 2 * i + 2].reshape(-1, k)
            out.append(self._verdict(feats[2 * i], readings))
        return out

    def _verdict(self, features: np.ndarray, readings: np.ndarray) -> Verdict:
        p = readings.mean(axis=0)
        if self._none >= 0 and p[self._none] >= 0.5:
            return Verdict(None, float(p[self._none]), is_card=False)
        if self._none >= 0:  # doubt about card-ness stays in the confidence
            p = p.copy()
            p[self._none] = 0.0
        top = int(np.argmax(p))
        # every member, reading the card either way up, must agree: the weakest one counts
        conf = float(readings[:, top].min())
        best = self.model.labels[top]
        if self.deck == "uno" and not uno_colour_agrees(features, best):
            conf = min(conf, 0.5 * self.threshold)
        label = best if conf >= self.threshold else None
        return Verdict(label, conf, True, best)

    def _factored(self, features: np.ndarray, r: np.ndarray, s: np.ndarray) -> Verdict:
        """First-factor readings x second-factor readings -> the best valid card."""
        pr, ps = r.mean(axis=0), s.mean(axis=0)
        if pr[-1] >= 0.5:
            return Verdict(None, float(pr[-1]), is_card=False)
        scores = [pr[ri] * ps[si] for _, ri, si in self.combos]
        k = int(np.argmax(scores))
        name, ri, si = self.combos[k]
        # the mean reading over members and both ways up: on the held-out photos it ranks
        # right above wrong better than the weakest single reading did (which let one
        # member's doubt about a blurry corner veto a card every other reading agreed on)
        conf = float(pr[ri] * ps[si])
        if self.deck == "uno" and not uno_colour_agrees(features, name):
            conf = min(conf, 0.5 * self.threshold)
        return Verdict(name if conf >= self.threshold else None, conf, True, name)
