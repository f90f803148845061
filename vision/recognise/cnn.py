"""Built-in decks read by a small convolutional network run through OpenCV's dnn module.

The network (vision/models/<deck>.onnx, made by tools/train_vision_cnn.py) has two heads,
like the factored MLPs: UNO symbol x colour, standard rank x suit, each with a "not a card"
class, so a symbol is learned from the photos of all four colours. Two networks trained
apart are averaged inside the one graph. The confidence of a card is the probability of its
symbol times that of its colour. A model trained with ``--turned`` also reads each card
turned round and averages the two readings (twice the time; off in the shipped models).

Depthwise-separable convolutions keep it at about 0.25 ms a card on one core of this box;
OpenCV runs it, so the Pi needs neither torch nor onnxruntime.
"""

from __future__ import annotations

import json
from functools import lru_cache

import cv2
import numpy as np

from companion.cards import DECKS
from vision.recognise import Verdict
from vision.recognise.builtin import FACTORS, MODELS
from vision.recognise.features import white_balance


def prepare(crop: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The crop as the network reads it: (w, h) pixels, white-balanced on the card's own
    brightest pixels (the border), because a webcam's green cast or a lamp's warm light
    must not change a blue card into a green one."""
    if crop.shape[1] != size[0] or crop.shape[0] != size[1]:
        crop = cv2.resize(crop, size, interpolation=cv2.INTER_AREA)
    return white_balance(crop)


def available(deck: str) -> bool:
    return (MODELS / f"{deck}.onnx").is_file() and (MODELS / f"{deck}.json").is_file()


@lru_cache(maxsize=4)
def _load(deck: str) -> tuple[cv2.dnn.Net, dict]:
    meta = json.loads((MODELS / f"{deck}.json").read_text())
    net = cv2.dnn.readNetFromONNX(str(MODELS / f"{deck}.onnx"))
    return net, meta


def clear_cache() -> None:
    """Forget loaded networks (after the training script wrote new ones)."""
    _load.cache_clear()


class CnnRecogniser:
    """One built-in deck's network; ``classify_many`` names all the cards of a frame in one
    forward pass."""

    def __init__(self, deck: str, threshold: float | None = None) -> None:
        if deck not in FACTORS:
            raise KeyError(f"no network layout for {deck!r}")
        self.deck = deck
        self.net, meta = _load(deck)
        self.size = (int(meta["size"][0]), int(meta["size"][1]))
        self.turned = bool(meta.get("turned", False))
        first, second = meta["heads"]
        self.split = len(first)
        _, _, parts = FACTORS[deck]
        self.combos = np.array([(first.index(parts(n)[0]), second.index(parts(n)[1]))
                                for n in DECKS[deck]])
        self.names = list(DECKS[deck])
        self.none_a = first.index(meta["none"])
        self.threshold = float(meta["threshold"]) if threshold is None else threshold
        # cards seen only in part (see Identifier): a stricter threshold of their own
        self.part_threshold = max(self.threshold, float(meta.get("part_threshold", 0.0))) \
            if threshold is None else threshold

    def classify(self, crop: np.ndarray) -> Verdict:
        return self.classify_many([crop])[0]

    def classify_many(self, crops: list[np.ndarray]) -> list[Verdict]:
        if not crops:
            return []
        ready = [prepare(c, self.size) for c in crops]
        # and each one turned round, where the model asks for it (a second opinion for the
        # price of a second pass)
        views = ready + [np.ascontiguousarray(c[::-1, ::-1]) for c in ready] \
            if self.turned else ready
        blob = cv2.dnn.blobFromImages(views, 1.0 / 255.0, self.size, (127.5,) * 3,
                                      swapRB=False, crop=False)
        self.net.setInput(blob)
        probs = self.net.forward().reshape(len(views) // len(crops), len(crops), -1)
        a = probs[..., :self.split]
        b = probs[..., self.split:]
        out = []
        for i in range(len(crops)):
            pa, pb = a[:, i], b[:, i]  # (readings, classes)
            if pa[:, self.none_a].mean() >= 0.5:
                out.append(Verdict(None, float(pa[:, self.none_a].mean()), is_card=False))
                continue
            # the best card over the readings: symbol x colour, averaged
            scores = pa[:, self.combos[:, 0]] * pb[:, self.combos[:, 1]]  # (readings, cards)
            mean = scores.mean(axis=0)
            k = int(np.argmax(mean))
            conf = float(mean[k])
            name = self.names[k]
            out.append(Verdict(name if conf >= self.threshold else None, conf, True, name))
        return out
