"""Built-in decks read by a small convolutional network run through OpenCV's dnn module.

The network (vision/models/<deck>.onnx, made by tools/train_vision_cnn.py) has two heads,
like the factored MLPs: UNO symbol x colour, standard rank x suit, Huang Di card x kind
(number, joker, invert: a second opinion), each with a "not a card" class, so a symbol is
learned from the photos of all four colours. Two networks trained apart are averaged, the
second read only where the first is not sure (``SECOND_BELOW``; Huang Di, learned from
drawings only, has one). The confidence of a card is the
probability of its symbol times that of its colour. A model trained with ``--turned`` also
reads each card turned round and averages the two readings (twice the time; off in the
shipped models).

The cards the whole-card network is not sure of are read again at their corner index, and
that reading is averaged with the whole-card one (the thresholds are calibrated on the mean).
UNO has a network of its own for it (vision/models/uno_index.onnx,
tools/train_vision_index.py): a hand-held close-up's big symbol is often under the fingers
while its index is in view. The standard pack uses the fan reader's corner network
(vision/models/french_corner.onnx, vision/corner_index.py): rank and suit are printed alike
on every printing of the pack, while the court cards' pictures and the pips' layout are not,
so on a printing the whole-card network never saw the index is the surer guide, read at two
sizes for printings with a far bigger index (``JUMBO_ZOOM``). (The four standard folders,
each left out of training in turn: their 338 cards were named 261 times with 17 wrong names
before this and the detector's edge outlines, 301 times with 3 wrong names after them, 318
times with 2 wrong with the bigger corner as well; docs/vision.md.)

Depthwise-separable convolutions keep it at about 0.25 ms a card on one core of this box;
OpenCV runs it, so the Pi needs neither torch nor onnxruntime.
"""

from __future__ import annotations

import json
import threading
from functools import lru_cache

import cv2
import numpy as np

from companion.cards import DECKS
from vision.recognise import Verdict
from vision.recognise.builtin import FACTORS, MODELS
from vision.recognise.features import (
    BALANCE_TOP,
    LEVELS,
    balance_gains,
    balance_levels,
    sharpness,
    white_balance,
)

# A crop whose darkest 2% (over its three channels) is brighter than this is hazed: every card
# prints something dark or deeply coloured (a digit's outline, a pip, a body's missing
# channel), while a low-contrast webcam or a glare lifts the black point of the whole view.
# Measured on the train and calib photos with their grey levels squeezed to 0.6 of their
# range over a floor of 90 (tools/measure_stretched.py --modes light, "washed"): UNO 605 of
# 728 cards named, the standard pack 215 of 241 and 1 wrong; with the haze taken out, 698 and
# 236, none wrong. Every other column (as taken, dim, warm lamp, blur, JPEG, far, over-exposed;
# the shapes; a cool, green or noisy cast) names the same cards, none wrong more. Tried: from
# 75 (1 in 10 of the as-taken UNO crops, against 1 in 16), a warm lamp's blue cards were read
# green at 0.99-1.0; each channel's own black point, a blurred ace of diamonds as spades at
# 0.997; after the white balance (which lifts a webcam's dark levels too: 4 in 10 crops as
# taken), unsure quads on walls and faces.
HAZE_BLACK = 90
HAZE_SHARE = 0.02
HAZE_BLANK = 230
HAZE_SHARP = 0.02  # (features.sharpness of the crop at the network's size)


def dehazed(crop: np.ndarray) -> np.ndarray:
    """The crop with its black point brought down to 0 where it is hazed (``HAZE_BLACK``);
    as it is otherwise, where it is all but blank (a corner patch of white card, a blown-out
    view: ``HAZE_BLANK``), and where it is blurred (``HAZE_SHARP``: blur lifts the black
    point too, mixing a pip's print into the white around it, and stretched so, a blurred
    4 of diamonds read as a heart at 0.99)."""
    hist = cv2.calcHist([crop.reshape(-1, 1)], [0], None, [256], [0, 256]).ravel()
    lo = int(np.searchsorted(np.cumsum(hist), HAZE_SHARE * hist.sum()))
    if not HAZE_BLACK < lo < HAZE_BLANK or sharpness(crop) < HAZE_SHARP:
        return crop
    return cv2.LUT(crop, _haze_levels(lo).astype(np.uint8))


def _haze_levels(lo: int) -> np.ndarray:
    """(256,) float32: ``dehazed``'s table for a black point at ``lo`` (whole levels)."""
    return np.rint(np.clip((LEVELS - lo) * (255.0 / (255 - lo)), 0, 255))


def prepare(crop: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The crop as the network reads it: (w, h) pixels, its haze taken out (``dehazed``) and
    white-balanced on the card's own brightest pixels (the border), because a webcam's
    green cast or a lamp's warm light must not change a blue card into a green one.
    (What training stores; at run time ``prepare_blob`` gives the same numbers, faster.)"""
    if crop.shape[1] != size[0] or crop.shape[0] != size[1]:
        crop = cv2.resize(crop, size, interpolation=cv2.INTER_AREA)
    return white_balance(dehazed(np.ascontiguousarray(crop)))



def _prepared_levels(crops: list[np.ndarray]) -> np.ndarray:
    """(crops, 256, 1, 3) float32: for each crop (all of one size: the network's), channel
    and grey level, that level after ``prepare`` (the haze taken out, then the white
    balance), centred and scaled as the network reads it ((v - 127.5) / 255). The two steps
    are each a table of the levels, and the white balance's gains come from the dehazed
    crop's histograms, which are the crop's own moved through the haze table: so one pass
    over the pixels (three histograms) and one table look-up replace ``prepare``'s five
    passes and the blob's conversion, and the tables of all the crops are worked out
    together (numpy's cost here is per call, not per number)."""
    hists = np.array([[cv2.calcHist([c], [ch], None, [256], [0, 256]).ravel()
                       for ch in range(3)] for c in crops])  # (crops, 3, 256)
    n = crops[0].shape[0] * crops[0].shape[1]
    # dehazed: the black point of the three channels' pixels taken together (the level where
    # the count from the bottom reaches HAZE_SHARE: searchsorted's, as a count of the levels
    # short of it)
    every = np.cumsum(hists.sum(axis=1), axis=1)
    lo = (every < HAZE_SHARE * every[:, -1:]).sum(axis=1)
    hazes = {}
    for i in np.nonzero((lo > HAZE_BLACK) & (lo < HAZE_BLANK))[0]:
        if sharpness(crops[i]) >= HAZE_SHARP:
            k = int(lo[i])
            haze = _haze_levels(k).astype(np.intp)
            hists[i] = [np.bincount(haze, weights=h, minlength=256) for h in hists[i]]
            hazes[i] = haze
    # white_balance: each channel's brightest 3% brought to 235
    short = (np.cumsum(hists[:, :, ::-1], axis=2) < BALANCE_TOP * n).sum(axis=2)  # (crops, 3)
    levels = balance_levels(balance_gains(255 - short))  # (crops, 256, 3)
    for i, haze in hazes.items():
        levels[i] = levels[i][haze]
    tables = (levels - np.float32(127.5)) * np.float32(1.0 / 255.0)
    return tables.reshape(len(crops), 256, 1, 3)


def prepare_blob(crops: list[np.ndarray], size: tuple[int, int]) -> np.ndarray:
    """The network's input blob (N, 3, h, w) float32 for BGR crops of any size: each one as
    ``prepare`` makes it, centred and scaled as ``cv2.dnn.blobFromImages(prepared, 1 / 255,
    size, 127.5)`` would give it (tests hold the two equal)."""
    w, h = size
    blob = np.empty((len(crops), 3, h, w), np.float32)
    if not crops:
        return blob
    small = []
    for crop in crops:
        crop = np.ascontiguousarray(crop)
        if crop.shape[1] != w or crop.shape[0] != h:
            crop = cv2.resize(crop, size, interpolation=cv2.INTER_AREA)
        small.append(crop)
    for i, (crop, table) in enumerate(zip(small, _prepared_levels(small), strict=True)):
        blob[i] = cv2.LUT(crop, table).transpose(2, 0, 1)
    return blob


# The standard pack's two index corners read alike are believed on their own (the surer of
# that agreement and the mean with the whole-card reading), unless the whole-card network is
# this sure of a card. On a printing it never saw, the whole-card network spreads its
# probability over wrong cards, and the mean stayed under even odds for a card both corners
# read at 0.9: trained without one folder of photos (a deck whose index is twice the size of
# the others'), it named 4 of that folder's 46 train and calib cards with the mean, 28 with
# this, and none wrong in either way, nor on the three other folders left out in turn.
# Where the whole-card network is sure of another card, the corners do not overrule it: a
# jack of hearts read as the jack of clubs at 0.96 and as the jack of spades at both corners
# was named wrong when they did, and is unsure now.
CORNERS_ALONE_BELOW = 0.9
# The corners are read again from a patch this much bigger, shrunk to the network's size: a
# printing whose index is about twice the usual one's (a jumbo index) fills the usual patch
# and runs out of it, and in the bigger one looks as usual. The two corners' agreement there
# counts where it reaches JUMBO_SURE. Trained without that deck's photos, the reader named
# 25 of its 46 train and calib cards before, 38 with this, and the other three folders left
# out in turn were named as before (no wrong name on any). A bigger patch (1.5) or no floor
# said wrong names there (a 9 of clubs read as a 5): pips creep into the patch.
JUMBO_ZOOM = (1.3,)
JUMBO_SURE = 0.6
# (not read where the usual patches agree on a card at this or more)
JUMBO_SKIP = 0.9


# A card seen only in part (a close-up's box, a hand over its lower half) is read mostly from
# its corner index: the part is stretched to a whole card's shape, which the whole-card
# network learnt from far fewer crops than whole cards, while the index patch looks as it
# does on any card. On the calib photos the close-ups read at 0.86-0.9 with the even mean
# (the index sure at 0.98-0.999, the whole-card network at 0.81-0.94) were named: 2 more of
# 110 cards at 0.8 (3 at 1.0), none wrong there, on the other decks' 286 photos or on drawn
# tables. On close-ups of a session the networks never saw (half of uno_hemant's train
# photos left out: tools/measure_part_floor.py) the index is surer still: 153 of 211 cards
# named at 0.8, 158 at 0.9, 168 at 1.0, one wrong name each time. But the shipped networks
# at 1.0 named 3 uno_hemant cards wrong (an index misread surely, a 7 as a 6, where the
# whole card said otherwise), and at 0.9 none: the whole-card reading keeps a tenth.
PART_INDEX_WEIGHT = 0.9


def combined(whole: np.ndarray, corner: np.ndarray, weight: float | np.ndarray,
             both: np.ndarray | None = None) -> np.ndarray:
    """(crops, cards): the whole-card reading and the corner index's, averaged (``weight``:
    the index's share, one or one per crop as a column); where the two index corners'
    agreement ``both`` is given (the standard pack), it stands on its own, unless the
    whole-card network is sure of a card (``CORNERS_ALONE_BELOW``)."""
    mean = (1 - weight) * whole + weight * corner
    if both is None:
        return mean
    sure = whole.max(axis=1, keepdims=True) >= CORNERS_ALONE_BELOW
    return np.where(sure, mean, np.maximum(mean, both))


# Where a card's corner index lies in its portrait crop: this share of the width and of the
# height at the top-left, and (printed turned round) at the bottom-right
INDEX_SPAN = (0.42, 0.30)


def _index_cuts(crop: np.ndarray) -> list[np.ndarray]:
    """The crop's top-left corner and its bottom-right corner turned round (``INDEX_SPAN``)."""
    h, w = crop.shape[:2]
    pw, ph = max(1, round(INDEX_SPAN[0] * w)), max(1, round(INDEX_SPAN[1] * h))
    return [np.ascontiguousarray(c[:ph, :pw]) for c in (crop, crop[::-1, ::-1])]


def index_patches(crop: np.ndarray, size: tuple[int, int]) -> list[np.ndarray]:
    """The top-left corner of the crop and its bottom-right corner turned round, each as the
    index network reads it ((w, h) pixels, white-balanced on its own brightest pixels)."""
    return [prepare(c, size) for c in _index_cuts(crop)]


def index_blob(crops: list[np.ndarray], size: tuple[int, int]) -> np.ndarray:
    """``index_patches`` of every crop (two each, in order) as the network's input blob."""
    return prepare_blob([c for crop in crops for c in _index_cuts(crop)], size)


def available(deck: str) -> bool:
    return (MODELS / f"{deck}.onnx").is_file() and (MODELS / f"{deck}.json").is_file()


# OpenCV's dnn nets keep their blobs in the object while they run, and every recogniser of a
# deck shares one net (``_load`` is cached): one forward pass at a time in the process. Two
# threads identifying at once failed inside OpenCV without it.
_NET_LOCK = threading.Lock()


def run_net(net: cv2.dnn.Net, blob: np.ndarray) -> np.ndarray:
    """``net``'s output for ``blob``, safe to call from several threads."""
    with _NET_LOCK:
        net.setInput(blob)
        return net.forward()


@lru_cache(maxsize=8)
def _load(deck: str) -> tuple[cv2.dnn.Net, dict]:
    meta = json.loads((MODELS / f"{deck}.json").read_text())
    net = cv2.dnn.readNetFromONNX(str(MODELS / f"{deck}.onnx"))
    return net, meta


# The whole-card networks are two, trained apart (different seeds), and a card's reading is
# the mean of theirs; the second (vision/models/<deck>_second.onnx) reads only the crops the
# first is not sure of (a card under SECOND_BELOW, or "not a card" under SECOND_BELOW), where
# the mean can change the verdict: on a table most cards are read surely by either, and the
# second network was half the time of every card (0.2 of ~0.4 ms). At 0.99 a train photo
# under a warm lamp (tools/measure_stretched.py) was named red 9 at 0.991 by the first
# network alone, where the mean of both said red 5; at 0.995 the second still skips 3 of 4
# drawn cards.
SECOND_BELOW = 0.995


@lru_cache(maxsize=4)
def _load_second(deck: str) -> cv2.dnn.Net | None:
    path = MODELS / f"{deck}_second.onnx"
    return cv2.dnn.readNetFromONNX(str(path)) if path.is_file() else None


def clear_cache() -> None:
    """Forget loaded networks (after the training script wrote new ones)."""
    _load.cache_clear()
    _load_second.cache_clear()


class CnnRecogniser:
    """One built-in deck's network; ``classify_many`` names all the cards of a frame in one
    forward pass."""

    def __init__(self, deck: str, threshold: float | None = None) -> None:
        if deck not in FACTORS:
            raise KeyError(f"no network layout for {deck!r}")
        self.deck = deck
        self.net, meta = _load(deck)
        self.second = _load_second(deck)
        self.size = (int(meta["size"][0]), int(meta["size"][1]))
        self.turned = bool(meta.get("turned", False))
        first, second = meta["heads"]
        self.split = len(first)
        _, _, parts = FACTORS[deck]
        self.combos = np.array([(first.index(parts(n)[0]), second.index(parts(n)[1]))
                                for n in DECKS[deck]])
        self.names = list(DECKS[deck])
        self.none_a = first.index(meta["none"])
        # the corner-index network, where one is trained (UNO: a close-up's index stays in
        # view when fingers or the frame hide the big symbol in the middle)
        self.index = _load(f"{deck}_index") if available(f"{deck}_index") else None
        # the standard pack's: the fan reader's corner network (its own heads: rank, suit)
        self.corner = None
        if deck == "french":
            from vision import corner_index  # (not at the top: it imports run_net from here)

            if corner_index.available():
                self.corner = corner_index.CornerReader()
                self.corner_cols = np.array([self.corner.names.index(n) for n in self.names])
        # the standard pack's suit of each card (a joker's is its colour), for ``Verdict.suits``
        self.suit_of = np.array([parts(n)[1] for n in self.names]) if deck == "french" \
            else None
        self.index_weight = float(meta.get("index_weight", 0.5))
        # a whole card the whole-card network is this sure of is not read again: on a table
        # most cards are, and the index network would add ~60% to the time of every one
        self.index_below = float(meta.get("index_below", 0.99))
        self.threshold = float(meta["threshold"]) if threshold is None else threshold
        # cards seen only in part (see Identifier): a stricter threshold of their own
        self.part_threshold = max(self.threshold, float(meta.get("part_threshold", 0.0))) \
            if threshold is None else threshold

    def classify(self, crop: np.ndarray) -> Verdict:
        return self.classify_many([crop])[0]

    def classify_many(self, crops: list[np.ndarray], partial: list[bool] | None = None
                      ) -> list[Verdict]:
        """``partial``: which crops show only part of a card (a close-up's box); their index
        is always read, as a second opinion on a stretched view the whole-card network can
        be sure of and wrong about (a whole frame boxed as a card read as a wild +4 at 0.999,
        0.55 with the index)."""
        if not crops:
            return []
        blob = prepare_blob(crops, self.size)
        # and each one turned round, where the model asks for it (a second opinion for the
        # price of a second pass)
        if self.turned:
            blob = np.concatenate([blob, np.ascontiguousarray(blob[:, :, ::-1, ::-1])])
        probs = run_net(self.net, blob).reshape(len(blob) // len(crops), len(crops), -1)
        if self.second is not None:
            self._second_opinion(probs, blob)
        a = probs[..., :self.split]
        b = probs[..., self.split:]
        # the best card over the readings: symbol x colour, averaged
        scores = (a[..., self.combos[:, 0]] * b[..., self.combos[:, 1]]).mean(axis=0)
        card = a[..., self.none_a].mean(axis=0) < 0.5
        if self.index is not None or self.corner is not None:
            unsure = scores.max(axis=1) < self.index_below
            if partial is not None:
                unsure |= np.asarray(partial, bool)
            again = np.nonzero(card & unsure)[0]
            if len(again):
                both = None
                if self.index is not None:
                    corner = self._index_scores([crops[i] for i in again])
                else:
                    corner, both = self._corner_scores([crops[i] for i in again])
                weight = np.full((len(again), 1), self.index_weight)
                if partial is not None and self.index is not None:  # (UNO's: measured there)
                    weight[np.asarray(partial, bool)[again]] = PART_INDEX_WEIGHT
                scores[again] = combined(scores[again], corner, weight, both)
        out = []
        for i in range(len(crops)):
            if not card[i]:
                out.append(Verdict(None, float(a[:, i, self.none_a].mean()), is_card=False))
                continue
            mean = scores[i]
            k = int(np.argmax(mean))
            conf = float(mean[k])
            name = self.names[k]
            suits = None
            if self.suit_of is not None and conf < self.threshold:
                suits = {s: float(mean[self.suit_of == s].sum()) for s in "SHDC"}
            out.append(Verdict(name if conf >= self.threshold else None, conf, True, name,
                               suits))
        return out

    def _second_opinion(self, probs: np.ndarray, blob: np.ndarray) -> None:
        """Average, in place, the second network's reading into ``probs`` (views, crops,
        outputs) for the crops the first network is not sure of (``blob``: the first's
        input, views by crops)."""
        a, b = probs[..., :self.split], probs[..., self.split:]
        card = (a[..., self.combos[:, 0]] * b[..., self.combos[:, 1]]).max(axis=2).min(axis=0)
        none = a[..., self.none_a].min(axis=0)
        doubt = np.nonzero((card < SECOND_BELOW) & (none < SECOND_BELOW))[0]
        if not len(doubt):
            return
        n = probs.shape[1]
        picked = blob[[v * n + i for v in range(probs.shape[0]) for i in doubt]]
        other = run_net(self.second, picked).reshape(probs.shape[0], len(doubt), -1)
        probs[:, doubt] = (probs[:, doubt] + other) / 2

    def _corner_scores(self, crops: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """Two (crops, cards) arrays for the standard pack, read by the corner network at the
        top-left and, turned round, at the bottom-right: ``_index_scores`` (the corner less
        sure that no index is there believed), and the two corners' agreement (the geometric
        mean of their probabilities: high only where both read the same card surely), the
        better of the usual patches' and, where it reaches ``JUMBO_SURE``, the bigger ones'."""
        from vision.corner_index import crop_patches

        scores, none = self.corner.scores([p for c in crops for p in crop_patches(c)])
        scores = scores.reshape(len(crops), 2, -1)[..., self.corner_cols]
        pick = np.argmin(none.reshape(len(crops), 2), axis=1)
        agree = np.sqrt(scores[:, 0] * scores[:, 1])
        # the bigger patches, only where the usual ones do not already agree surely (most
        # printings: a read of ~0.3 ms a frame saved)
        open_ = np.nonzero(agree.max(axis=1) < JUMBO_SKIP)[0]
        for zoom in JUMBO_ZOOM if len(open_) else ():
            big, _ = self.corner.scores([p for i in open_ for p in crop_patches(crops[i], zoom)])
            big = big.reshape(len(open_), 2, -1)[..., self.corner_cols]
            big = np.sqrt(big[:, 0] * big[:, 1])
            agree[open_] = np.maximum(agree[open_], np.where(big >= JUMBO_SURE, big, 0.0))
        return scores[np.arange(len(crops)), pick], agree

    def _index_scores(self, crops: list[np.ndarray]) -> np.ndarray:
        """(crops, cards): each card's probability from the corner index, read at the
        top-left and, turned round, at the bottom-right; the corner less sure that no index
        is there is believed (a finger or the frame's edge hides the other)."""
        net, meta = self.index
        size = (int(meta["size"][0]), int(meta["size"][1]))
        probs = run_net(net, index_blob(crops, size)).reshape(len(crops), 2, -1)
        a, b = probs[..., :self.split], probs[..., self.split:]
        pick = np.argmin(a[..., self.none_a], axis=1)  # (crops,)
        rows = np.arange(len(crops))
        a, b = a[rows, pick], b[rows, pick]
        return a[:, self.combos[:, 0]] * b[:, self.combos[:, 1]]
