"""Decks taught at the table: nearest neighbour over the stored feature vectors, checked by
keypoints.

A taught deck may have one photo per card, so there is nothing to train: a new photo is
compared with every stored one (cosine similarity of standardised features). Confidence
needs both a close match and a clear margin over the best other card; a taught deck has
no "none" class, so a quad that resembles nothing taught is dropped as not a card.
Where that leaves a card unsure, its SIFT keypoints may still name it: when the card whose
photos share the most keypoints with it, at the same places and in like colours, is also
the nearest card by the features (``keypoints.py``).
"""

from __future__ import annotations

import numpy as np

from vision.recognise import Verdict
from vision.recognise.builtin import MODELS
from vision.recognise.features import COLOUR_DIMS, both_ways
from vision.recognise.keypoints import Keypoints, keypoints, placed_matches, squared_distances

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

# Keypoints name a card the features leave unsure where the card with the most placed
# keypoint matches is the features' nearest card too, and the evidence
#   min(1, matches / SURE_MATCHES) * min(1, matches / the crop's keypoints / SURE_SHARE)
# reaches KP_SURE. Matches count in full for a card whose colour likeness (cosine of the
# colour features) is COLOUR_FULL, none below COLOUR_FROM: keypoints see no colour.
# tools/measure_teaching.py, every folder, one photo a card: 232 of 856 cards named, 2 wrong
# (features alone: 129, 1 wrong); two photos a card: 179 of 652, none wrong (100, none).
# KP_SURE 0.5: 275 named, 10 wrong (two standard cards whose pips sit alike, 8D and 8H);
# 0.7: 257 and 4. Not for a close-up cut by the frame: 3 wrong with two photos a card.
SURE_MATCHES = 16
SURE_SHARE = 0.16  # a card that shares only part of the layout explains few keypoints
KP_SURE = 0.8
COLOUR_FROM, COLOUR_FULL = 0.8, 0.95
CANDIDATES = 16  # cards matched, the features' nearest first (~10 ms a crop on this box)


class TaughtRecogniser:
    def __init__(self, examples: dict[str, np.ndarray], threshold: float = THRESHOLD,
                 kps: dict[str, list[Keypoints]] | None = None) -> None:
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
        # each card's photos' keypoints (cards taught before the store kept them: none)
        kps = kps or {}
        self.kps = [kps.get(k, []) for k in self.labels]

    @classmethod
    def from_store(cls, store: object, deck: str, keypoints: bool = True
                   ) -> TaughtRecogniser | None:
        """The deck as the table taught it; ``keypoints=False``: without the keypoint
        check (its keypoints are not loaded)."""
        examples = store.examples(deck)  # type: ignore[attr-defined]
        if not examples:
            return None
        kps = store.keypoints(deck) if keypoints else None  # type: ignore[attr-defined]
        return cls(examples, kps=kps)

    def _norm(self, x: np.ndarray) -> np.ndarray:
        z = ((x - self.mean) / self.scale)[:, :-COLOUR_DIMS]
        return z / (np.linalg.norm(z, axis=1, keepdims=True) + 1e-9)

    @staticmethod
    def _norm_colour(x: np.ndarray) -> np.ndarray:
        z = x[:, -COLOUR_DIMS:]
        return z / (np.linalg.norm(z, axis=1, keepdims=True) + 1e-9)

    def similarities(self, crop: np.ndarray) -> np.ndarray:
        """Best similarity to each taught card: shape and colour, both ways up."""
        return self._similarities(crop)[0]

    def _similarities(self, crop: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Best similarity to each taught card (shape and colour, both ways up), and its
        colour likeness alone.

        Colour gets its own share: in the full vector it is a hundred numbers among
        thousands, and a blue 5 must not pass for a red 5.
        """
        f = both_ways(crop)
        colour = self._norm_colour(f) @ self.bank_colour.T
        sims = (0.65 * (self._norm(f) @ self.bank.T) + 0.35 * colour).max(axis=0)
        per_label = np.full(len(self.labels), -1.0)
        np.maximum.at(per_label, self.owner, sims)
        per_colour = np.full(len(self.labels), -1.0)
        np.maximum.at(per_colour, self.owner, colour.max(axis=0))
        return per_label, per_colour

    def keypoint_evidence(self, crop: np.ndarray, per_label: np.ndarray,
                          per_colour: np.ndarray) -> tuple[int, float]:
        """The card with the most placed keypoint matches (weighed by colour likeness)
        among the features' CANDIDATES nearest, and the evidence for it (0..1)."""
        order = [i for i in np.argsort(-per_label)[:CANDIDATES] if self.kps[i]]
        if not order:
            return -1, 0.0
        query = keypoints(crop)
        if len(query.points) < 2:
            return -1, 0.0
        photos = [(i, t) for i in order for t in self.kps[i]]
        dist = squared_distances(query.descriptors,
                                 np.concatenate([t.descriptors for _, t in photos]))
        matches = np.zeros(len(self.labels))
        start = 0
        for i, t in photos:
            n = placed_matches(query, t, dist[:, start:start + len(t.points)])
            start += len(t.points)
            matches[i] = max(matches[i], n)
        matches *= np.clip((per_colour - COLOUR_FROM) / (COLOUR_FULL - COLOUR_FROM), 0.0, 1.0)
        best = int(np.argmax(matches))
        m = float(matches[best])
        return best, min(1.0, m / SURE_MATCHES) * min(1.0, m / len(query.points) / SURE_SHARE)

    def confirms(self, crop: np.ndarray, label: str, at: float) -> bool:
        """Do the crop's keypoints name ``label`` with evidence ``at`` or more, in that
        card's colours (``COLOUR_FULL``)? Keypoints see no colour, and their weighing by
        colour likeness still let a blue reverse pass for a taught green one (likeness
        0.87, evidence 0.998)."""
        if label not in self.labels:
            return False
        per_label, per_colour = self._similarities(crop)
        if per_colour[self.labels.index(label)] < COLOUR_FULL:
            return False
        best, evidence = self.keypoint_evidence(crop, per_label, per_colour)
        return best >= 0 and self.labels[best] == label and evidence >= at

    def classify_many(self, crops: list[np.ndarray], partial: list[bool] | None = None
                      ) -> list[Verdict]:
        """Each crop's verdict; a crop of part of a card (cut by the frame) is not checked
        by keypoints: stretched to a card's shape, its keypoints are not where the taught
        card has them, and they named such close-ups wrong."""
        partial = partial or [False] * len(crops)
        return [self.classify(c, check_keypoints=not p)
                for c, p in zip(crops, partial, strict=True)]

    def classify(self, crop: np.ndarray, check_keypoints: bool = True) -> Verdict:
        per_label, per_colour = self._similarities(crop)
        order = np.argsort(-per_label)
        best = float(per_label[order[0]])
        second = float(per_label[order[1]]) if len(order) > 1 else MIN_SIM
        if best < MIN_SIM:
            return Verdict(None, 1.0 - best, is_card=False)
        closeness = min(1.0, (best - MIN_SIM) / (SURE_SIM - MIN_SIM))
        margin = min(1.0, max(0.0, best - second) / SURE_MARGIN)
        conf = float(closeness * (0.5 + 0.5 * margin))
        name = self.labels[order[0]]
        if conf < self.threshold and check_keypoints and any(self.kps):
            best_kp, evidence = self.keypoint_evidence(crop, per_label, per_colour)
            if best_kp == order[0] and evidence >= KP_SURE:
                # named by its keypoints: the confidence goes on from the threshold, so that
                # a name is said exactly when the confidence reaches it
                conf = self.threshold + (1.0 - self.threshold) * (evidence - KP_SURE) / (
                    1.0 - KP_SURE)
        return Verdict(name if conf >= self.threshold else None, conf, True, name)
