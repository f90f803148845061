"""Name a rectified card: built-in decks (UNO, standard, Huang Di) and decks taught at the table.

Every answer carries a confidence; below the deck's threshold the label is None ("unsure")
so the phone asks a person, because a wrong card said with confidence is the worst failure.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np


@dataclass(frozen=True)
class Verdict:
    label: str | None  # None: unsure
    confidence: float
    is_card: bool = True  # False: this quad is not a card (a phone, a box, a shadow)
    best: str | None = None  # the best guess even when unsure, for the debug preview
    # the standard pack's unsure cards: each suit's probability (summed over the ranks), for
    # naming a number card by its pips (vision/pips.py)
    suits: dict[str, float] | None = None


class Recogniser(Protocol):
    def classify(self, crop: np.ndarray) -> Verdict: ...


def get_recogniser(deck: str, data_path: object = None) -> Recogniser:
    """The recogniser for a deck: built-in model, taught examples, or both (taught first)."""
    from vision.recognise import cnn
    from vision.recognise.builtin import BUILTIN_DECKS, BuiltinRecogniser
    from vision.recognise.taught import TaughtRecogniser
    from vision.store import DeckStore

    store = DeckStore(data_path) if data_path is not None else DeckStore.default()
    taught = TaughtRecogniser.from_store(store, deck, keypoints=deck not in BUILTIN_DECKS)
    if deck in BUILTIN_DECKS:
        if taught is not None:  # stored folded ("as"): name them as the deck spells them
            from companion.cards import spelled

            taught.labels = [spelled(deck, n) or n for n in taught.labels]
        # the convolutional network where one is trained (all three), else the MLP
        builtin = cnn.CnnRecogniser(deck) if cnn.available(deck) else BuiltinRecogniser(deck)
        return builtin if taught is None else TaughtFirst(taught, builtin)
    if taught is None:
        raise KeyError(f"unknown deck {deck!r}: not built in and never taught")
    return taught


def model_reads_other(deck: str, crop: np.ndarray, label: str) -> Verdict | None:
    """The built-in model's reading of a card about to be taught as ``label``, where it names
    another card surely (at its threshold); None for a deck with no model. A taught photo
    overrules the model from then on, so the camera page asks first and the CLI wants
    ``--force``: one photo of the wrong frame had a blue skip read at 1.00 named red 7."""
    from vision.recognise import cnn
    from vision.recognise.builtin import BUILTIN_DECKS

    if deck not in BUILTIN_DECKS or not cnn.available(deck):
        return None
    verdict = cnn.CnnRecogniser(deck).classify(crop)
    return verdict if verdict.label is not None and verdict.label != label else None


class TaughtFirst:
    """A built-in deck corrected by the table: a confident taught match wins."""

    def __init__(self, taught: Recogniser, builtin: Recogniser) -> None:
        self.taught, self.builtin = taught, builtin

    def classify(self, crop: np.ndarray) -> Verdict:
        return self.classify_many([crop])[0]

    def classify_many(self, crops: list[np.ndarray], partial: list[bool] | None = None
                      ) -> list[Verdict]:
        """The taught match where it is confident, else the built-in model's reading (all
        of those in one pass, told which crops show only part of a card)."""
        out = [self.taught.classify(c) for c in crops]
        rest = [i for i, v in enumerate(out) if v.label is None]
        many = getattr(self.builtin, "classify_many", None)
        if many is not None:
            parts = None if partial is None else [partial[i] for i in rest]
            read = many([crops[i] for i in rest], partial=parts)
        else:
            read = [self.builtin.classify(crops[i]) for i in rest]
        for i, v in zip(rest, read, strict=True):
            out[i] = v
        return out
