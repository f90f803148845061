"""Decks taught at the table: nearest neighbour over the stored feature vectors.

A taught deck may have one photo per card, so there is nothing to train: a new photo is
compared with every stored one (cosine similarity of standardised features). Confidence
needs both a close match and a clear margin over the best other card; a taught deck has
no "none" class, so a quad that resembles nothing taught is dropped as not a card.
"""

from __future__ import annotations

import numpy as np

from vision.recognise import Verdict
from vision.recognise.features import both_ways

MIN_SIM = 0.45  # below: not one of this deck's cards
SURE_SIM = 0.7  # a match this close counts fully
SURE_MARGIN = 0.08  # best card minus second-best card needed for full confidence


class TaughtRecogniser:
    def __init__(self, examples: dict[str, np.ndarray], threshold: float = 0.6) -> None:
        self.labels = list(examples)
        feats = np.concatenate([examples[k] for k in self.labels])
        self.owner = np.concatenate([[i] * len(examples[k]) for i, k in enumerate(self.labels)])
        self.mean = feats.mean(axis=0) if len(self.labels) > 1 else np.zeros(feats.shape[1])
        self.scale = feats.std(axis=0) + 0.05 if len(feats) > 4 else np.ones(feats.shape[1])
        self.bank = self._norm(feats)
        self.threshold = threshold

    @classmethod
    def from_store(cls, store: object, deck: str) -> TaughtRecogniser | None:
        examples = store.examples(deck)  # type: ignore[attr-defined]
        return cls(examples) if examples else None

    def _norm(self, x: np.ndarray) -> np.ndarray:
        z = (x - self.mean) / self.scale
        return z / (np.linalg.norm(z, axis=1, keepdims=True) + 1e-9)

    def classify(self, crop: np.ndarray) -> Verdict:
        q = self._norm(both_ways(crop))
        sims = (q @ self.bank.T).max(axis=0)  # best of the two ways up, per stored photo
        per_label = np.full(len(self.labels), -1.0)
        np.maximum.at(per_label, self.owner, sims)
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
