"""Built-in decks: a small MLP per deck (weights in vision/models/<deck>.npz).

The UNO, standard and Huang Di recognisers share the pipeline and differ in their weights
and in one sanity check: on UNO the colour the model names must agree with the card's
dominant hue, a cheap second opinion against a confident wrong colour.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from vision.recognise import Verdict
from vision.recognise.features import both_ways
from vision.recognise.mlp import MLP

MODELS = Path(__file__).resolve().parent.parent / "models"
BUILTIN_DECKS = ("uno", "french", "huangdi")
NONE = "_none"  # the class for quads that are not a card face


@lru_cache(maxsize=8)
def load_model(deck: str) -> MLP:
    path = MODELS / f"{deck}.npz"
    if not path.is_file():
        raise FileNotFoundError(f"no model for {deck!r} at {path}: run tools/train_vision.py")
    return MLP.load(path)


class BuiltinRecogniser:
    def __init__(self, deck: str, threshold: float | None = None) -> None:
        self.deck = deck
        self.model = load_model(deck)
        self.threshold = self.model.threshold if threshold is None else threshold
        self._none = self.model.labels.index(NONE) if NONE in self.model.labels else -1

    def scores(self, crop: np.ndarray) -> np.ndarray:
        """Class probabilities, averaged over the two ways up."""
        return self.model.probs(both_ways(crop)).mean(axis=0)

    def classify(self, crop: np.ndarray) -> Verdict:
        p = self.scores(crop)
        if self._none >= 0 and p[self._none] >= 0.5:
            return Verdict(None, float(p[self._none]), is_card=False)
        if self._none >= 0:  # doubt about card-ness stays in the confidence
            p = p.copy()
            p[self._none] = 0.0
        top = int(np.argmax(p))
        conf = float(p[top])
        best = self.model.labels[top]
        label = best if conf >= self.threshold else None
        return Verdict(label, conf, True, best)
