"""Read a standard card's corner index (rank + suit) from a small patch at one card corner.

Overlapping cards (a fanned Dou Di Zhu play, a spread row) hide most of each card, but the
index printed at the top-left corner (and, turned, at the bottom-right) stays in view: that
is what players read too. This module holds the one definition of the patch (where it lies
relative to a card corner, how big it is relative to the card height) shared by the trainer
(tools/train_corner_index.py) and the run-time reader (vision/fan.py), and the classifier,
a small network run through OpenCV's dnn module (no torch or onnxruntime on the Pi).

A corner is given as a point and two unit vectors along the card's edges: ``u`` along the
short (top) edge and ``v`` along the long (left) edge, with ``cross(u, v) > 0`` in image
coordinates (y down), i.e. the card is not seen mirrored. At the top-left corner of an upright
card u = (1, 0), v = (0, 1); at the bottom-right corner u = (-1, 0), v = (0, -1), where the
index is printed turned round and so reads upright in the patch.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.recognise.cnn import run_net
from vision.recognise.features import LEVELS

MODELS = Path(__file__).resolve().parent / "models"
PATCH_W, PATCH_H = 32, 56  # pixels of the patch the network reads (w, h)
# the patch's extent in card heights: along the short edge and along the long edge
# (a card is 0.714 heights wide; the index of common decks lies within 0.16 x 0.30)
SPAN_U, SPAN_V = 0.19, 0.33
CARD_ASPECT = 0.714  # a standard card's width over its height (63 x 88 mm)
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JOKER", "none")
SUITS = ("S", "H", "D", "C", "black", "red", "none")


def parts(label: str) -> tuple[str, str]:
    """A standard card name ('10H', 'RJ') as (rank, suit) classes of the two heads."""
    if label in ("BJ", "RJ"):
        return "JOKER", "black" if label == "BJ" else "red"
    return label[:-1], label[-1]


def name_of(rank: str, suit: str) -> str | None:
    """The card name of a (rank, suit) pair, or None for a pair no card has."""
    if rank == "JOKER":
        return {"black": "BJ", "red": "RJ"}.get(suit)
    if rank == "none" or suit not in ("S", "H", "D", "C"):
        return None
    return f"{rank}{suit}"


def patch_quad(corner: np.ndarray, u: np.ndarray, v: np.ndarray, card_h: float) -> np.ndarray:
    """The patch's four corners in image pixels (TL TR BR BL of the upright patch)."""
    p = np.asarray(corner, np.float32)
    a = np.asarray(u, np.float32) * (SPAN_U * card_h)
    b = np.asarray(v, np.float32) * (SPAN_V * card_h)
    return np.stack([p, p + a, p + a + b, p + b]).astype(np.float32)


def cut_patch(image: np.ndarray, corner: np.ndarray, u: np.ndarray, v: np.ndarray,
              card_h: float) -> np.ndarray:
    """The upright PATCH_W x PATCH_H patch at a card corner (an affine warp: at the size of
    an index, perspective is negligible and the affine costs less)."""
    q = patch_quad(corner, u, v, card_h)
    src = q[[0, 1, 3]]
    dst = np.array([[0, 0], [PATCH_W, 0], [0, PATCH_H]], np.float32)
    m = cv2.getAffineTransform(src, dst)
    return cv2.warpAffine(image, m, (PATCH_W, PATCH_H), flags=cv2.INTER_AREA,
                          borderMode=cv2.BORDER_REPLICATE)


def crop_patches(crop: np.ndarray, zoom: float = 1.0) -> list[np.ndarray]:
    """The two index patches of a whole card warped upright to a portrait crop (its corners
    are the crop's): the top-left corner, and the bottom-right turned round, where the index
    is printed upside down. The same extent in card heights as ``cut_patch`` gives, times
    ``zoom`` (over 1: a bigger corner, shrunk to the patch, as a jumbo index needs)."""
    h, w = crop.shape[:2]
    pw = max(1, round(SPAN_U / CARD_ASPECT * w * zoom))
    ph = max(1, round(SPAN_V * h * zoom))
    return [cv2.resize(np.ascontiguousarray(c[:ph, :pw]), (PATCH_W, PATCH_H),
                       interpolation=cv2.INTER_AREA) for c in (crop, crop[::-1, ::-1])]


def normalise(patch: np.ndarray) -> np.ndarray:
    """Stretch the patch's brightness to its own white (the card) and dark (the ink): a lamp's
    colour or a dim table must not change what the network sees, while red stays red."""
    return normalise_many(patch[None])[0]


def _percentiles(rows: np.ndarray, q: float) -> np.ndarray:
    """np.percentile(rows, q, axis=1) (linear interpolation, the same numbers) through a
    partial sort, several times faster on small rows."""
    pos = q / 100.0 * (rows.shape[1] - 1)
    k = int(pos)
    k1 = min(k + 1, rows.shape[1] - 1)
    part = np.partition(rows, [k, k1], axis=1)
    return part[:, k] + (pos - k) * (part[:, k1] - part[:, k])


def normalise_many(patches: np.ndarray) -> np.ndarray:
    """``normalise`` of a stack of patches (N, h, w, 3) in one pass: per patch, the colour of
    its brightest tenth is scaled to 235 (numpy per patch cost ~60 us, too much at 60 a frame)."""
    f = patches.astype(np.float32).reshape(len(patches), -1, 3)
    grey = (f[..., 0] + f[..., 1] + f[..., 2]) * np.float32(1 / 3)  # (numpy's mean over a
    # 3-long axis is ~10x slower)
    hi, lo = _percentiles(grey, 90.0), _percentiles(grey, 2.0)
    top = (grey >= hi[:, None]).astype(np.float32)
    # (a batched product, not einsum: ~10x faster, and the same numbers, since these sums of
    # whole levels stay exact in float32 in any order)
    white = np.matmul(top[:, None, :], f)[:, 0, :] / np.maximum(top.sum(axis=1), 1.0)[:, None]
    flat = hi <= lo  # a blank patch: its mean colour instead
    if flat.any():
        white[flat] = f[flat].mean(axis=1)
    gain = 235.0 / np.maximum(white, 20.0)  # (patches, 3)
    # each level times its channel's gain, clipped: a table per patch (the same float32
    # products as scaling every pixel, at a look-up's cost)
    tables = np.clip(LEVELS[None, :, None] * gain[:, None, :], 0, 255).astype(np.uint8)
    flat_patches = np.ascontiguousarray(patches).reshape(len(patches), -1, 1, 3)
    out = np.empty_like(flat_patches)
    for i in range(len(patches)):
        out[i] = cv2.LUT(flat_patches[i], tables[i].reshape(256, 1, 3))
    return out.reshape(patches.shape)



@dataclass
class IndexReading:
    """What the classifier says about one patch: the best card, its confidence (rank
    probability x suit probability) and how sure it is that no index is there at all."""

    best: str | None
    confidence: float
    none: float


@lru_cache(maxsize=2)
def _load(name: str) -> tuple[cv2.dnn.Net, dict]:
    meta = json.loads((MODELS / f"{name}.json").read_text())
    net = cv2.dnn.readNetFromONNX(str(MODELS / f"{name}.onnx"))
    return net, meta


def available(name: str = "french_corner") -> bool:
    return (MODELS / f"{name}.onnx").is_file() and (MODELS / f"{name}.json").is_file()


class CornerReader:
    """The corner-index network: ``read(patches)`` names every patch in one forward pass."""

    def __init__(self, name: str = "french_corner", threshold: float | None = None) -> None:
        self.net, meta = _load(name)
        self.threshold = float(meta["threshold"]) if threshold is None else threshold
        self.ranks = list(meta["ranks"])
        self.suits = list(meta["suits"])
        names, ia, ib = [], [], []
        for i, r in enumerate(self.ranks):
            for j, s in enumerate(self.suits):
                n = name_of(r, s)
                if n is not None:
                    names.append(n)
                    ia.append(i)
                    ib.append(j)
        self.names, self.ia, self.ib = names, np.array(ia), np.array(ib)
        self.none_a, self.none_b = self.ranks.index("none"), self.suits.index("none")

    def scores(self, patches: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """Every patch's probability of each card of ``names`` (rank x suit), (patches,
        cards), and how sure it is that no index is there, (patches,)."""
        views = normalise_many(np.stack(patches))
        # (N, h, w, 3) -> (N, 3, h, w), centred as in training: x / 255 - 0.5
        blob = np.ascontiguousarray(views.transpose(0, 3, 1, 2), dtype=np.float32)
        blob = blob * np.float32(1 / 255.0) - np.float32(0.5)
        probs = run_net(self.net, blob).reshape(len(patches), -1)
        a, b = probs[:, :len(self.ranks)], probs[:, len(self.ranks):]
        return a[:, self.ia] * b[:, self.ib], np.maximum(a[:, self.none_a], b[:, self.none_b])

    def read(self, patches: list[np.ndarray]) -> list[IndexReading]:
        if not patches:
            return []
        scores, none = self.scores(patches)
        best = scores.argmax(axis=1)
        return [IndexReading(self.names[int(k)], float(scores[i, k]), float(none[i]))
                for i, k in enumerate(best)]

    def __call__(self, patches: list[np.ndarray]) -> list[IndexReading]:
        return self.read(patches)
