"""Decks taught at the table: nearest neighbour over the stored feature vectors.

A taught deck may have one photo per card, so there is nothing to train: a new photo is
compared with every stored one (cosine similarity of standardised features). Confidence
needs both a close match and a clear margin over the best other card; a taught deck has
no "none" class, so a quad that resembles nothing taught is dropped as not a card.
"""

from __future__ import annotations

import numpy as np

from vision.recognise import Verdict
from vision.recognise.builtin import MODELS
from vision.recognise.features import COLOUR_DIMS, both_ways

# A taught match is sure from THRESHOLD: closeness to the card times (half plus half the
# margin over the next card). tools/measure_teaching.py teaches each folder of the shared
# photos as a deck of its own from one photo a card and reads its other photos. With the
# margin counting fully from 0.06 and sure from 0.65, 216 of their 856 cards were named and
# 44 named wrong (5%: a table's own printing named wrong one time in six that it was
# named). The three below were picked on the UNO folders' reads, as the lowest threshold
# with at most 1% of the names wrong; all folders then: 129 named, 1 wrong (the standard
# pack's folders, not looked at for the pick: 13 named, 1 wrong). A taught deck names
# fewer cards surely and asks the table about the rest (two photos a card: the same).
MIN_SIM = 0.5  # below: not one of this deck's cards
SURE_SIM = 0.92  # a match this close counts fully
SURE_MARGIN = 0.2  # best card minus second-best card needed for full confidence
THRESHOLD = 0.61


class TaughtRecogniser:
    def __init__(self, examples: dict[str, np.ndarray], threshold: float = THRESHOLD) -> None:
        self.labels = list(examples)
        feats = np.concatenate([examples[k] for k in self.labels])
        self.owner = np.concatenate([[i] * len(examples[k]) for i, k in enumerate(self.labels)])
        # a few taught photos cannot say which features vary: borrow the scaling measured
        # on hundreds of real cards (tools/train_vision.py writes it from its UNO features)
        scale = MODELS / "feature_scale.npz"
        if scale.is_file():
            with np.load(scale) as d:
                self.mean, self.scale = d["mean"], d["std"]
        else:
            self.mean, self.scale = feats.mean(axis=0), feats.std(axis=0) + 0.05
        self.bank = self._norm(feats)
        self.bank_colour = self._norm_colour(feats)
        self.threshold = threshold

    @classmethod
    def from_store(cls, store: object, deck: str) -> TaughtRecogniser | None:
        examples = store.examples(deck)  # type: ignore[attr-defined]
        return cls(examples) if examples else None

    def _norm(self, x: np.ndarray) -> np.ndarray:
        z = ((x - self.mean) / self.scale)[:, :-COLOUR_DIMS]
        return z / (np.linalg.norm(z, axis=1, keepdims=True) + 1e-9)

    @staticmethod
    def _norm_colour(x: np.ndarray) -> np.ndarray:
        z = x[:, -COLOUR_DIMS:]
        return z / (np.linalg.norm(z, axis=1, keepdims=True) + 1e-9)

    def similarities(self, crop: np.ndarray) -> np.ndarray:
        """Best similarity to each taught card: shape and colour, both ways up.

        Colour gets its own share: in the full vector it is a hundred numbers among
        thousands, and a blue 5 must not pass for a red 5.
        """
        f = both_ways(crop)
        sims = 0.65 * (self._norm(f) @ self.bank.T) + 0.35 * (
            self._norm_colour(f) @ self.bank_colour.T)
        sims = sims.max(axis=0)
        per_label = np.full(len(self.labels), -1.0)
        np.maximum.at(per_label, self.owner, sims)
        return per_label

    def classify(self, crop: np.ndarray) -> Verdict:
        per_label = self.similarities(crop)
        order = np.argsort(-per_label)
        best = float(per_label[order[0]])
        second = float(per_label[order[1]]) if len(order) > 1 else MIN_SIM
        if best < MIN_SIM:
            return Verdict(None, 1.0 - best, is_card=False)
        closeness = min(1.0, (best - MIN_SIM) / (SURE_SIM - MIN_SIM))
        margin = min(1.0, max(0.0, best - second) / SURE_MARGIN)
        conf = float(closeness * (0.5 + 0.5 * margin))
        name = self.labels[order[0]]
        return Verdict(name if conf >= self.threshold else None, conf, True, name)
