"""Frame -> named cards: detection, rectification and the deck's recogniser, timed."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from vision.detect import find_cards, rectify
from vision.recognise import Recogniser, get_recogniser


@dataclass
class Card:
    label: str | None
    confidence: float
    corners: np.ndarray  # (4, 2) float, image pixels, TL TR BR BL of the portrait card
    best: str | None = None

    def to_json(self) -> dict:
        return {"label": self.label, "confidence": round(float(self.confidence), 4),
                "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners]}

    @property
    def centre(self) -> tuple[float, float]:
        c = self.corners.mean(axis=0)
        return float(c[0]), float(c[1])


class Identifier:
    """Finds and names every card of one deck in BGR images."""

    def __init__(self, deck: str, recogniser: Recogniser | None = None,
                 data_path: object = None, whole_fallback: bool = True) -> None:
        self.deck = deck
        self.recogniser = recogniser or get_recogniser(deck, data_path)
        self.whole_fallback = whole_fallback
        self.colour_bodies = deck == "uno"

    def identify(self, image: np.ndarray) -> list[Card]:
        cards: list[Card] = []
        for quad in find_cards(image, whole_fallback=self.whole_fallback,
                               colour_bodies=self.colour_bodies):
            verdict = self.recogniser.classify(rectify(image, quad.corners))
            if not verdict.is_card:
                continue
            cards.append(Card(verdict.label, verdict.confidence, quad.corners, verdict.best))
        return cards

    def timed(self, image: np.ndarray) -> tuple[list[Card], float]:
        """The cards and the milliseconds spent finding and naming them."""
        t0 = time.perf_counter()
        cards = self.identify(image)
        return cards, (time.perf_counter() - t0) * 1000.0
