"""Keypoint evidence for taught decks: does this crop show the same printed things, at the
same places, as a photo the table taught?

A taught deck has one photo or two a card, so nothing can be trained; the nearest-neighbour
features of ``taught.py`` find the right card first for only about half of the cards seen
again in another photo. SIFT keypoints matched between two rectified crops, and kept only
where they also sit at the same place on the card (both crops are the card's own rectangle,
so a match must land within a few pixels of its twin after one common shift, either way up),
are independent evidence: the inliers count what the two pictures share, and the share of the
crop's keypoints they explain counts against a card that merely shares part of the layout
(a four of spades's pips sit where a six's corner pips sit). Keypoints see no colour, so
the caller weighs them by colour likeness (a red 7 and a blue 7 share every keypoint).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import cv2
import numpy as np

from vision.recognise.features import DETAIL_H, DETAIL_W, white_balance

UPSCALE = 2  # SIFT on the crop at twice its size: 96x144 gave ~40 keypoints, too few to tell
MAX_KEYPOINTS = 300
RATIO = 0.8  # Lowe's ratio test, within each taught photo
PLACE_TOL = 12.0  # pixels of a 96x144 crop: a match must land this near its twin
_SIZE = np.array([DETAIL_W, DETAIL_H], np.float32)

# one detector per thread, as held.py keeps its LSD: the camera's watcher, a command and the
# web's teaching may read crops at once
_LOCAL = threading.local()


@dataclass(frozen=True)
class Keypoints:
    points: np.ndarray  # (n, 2) float32, in the coordinates of a DETAIL_W x DETAIL_H crop
    descriptors: np.ndarray  # (n, 128) float32 SIFT descriptors (whole numbers 0-255)


def keypoints(crop: np.ndarray) -> Keypoints:
    """SIFT keypoints of a rectified portrait crop, white-balanced on its own border."""
    sift = getattr(_LOCAL, "sift", None)
    if sift is None:
        sift = _LOCAL.sift = cv2.SIFT_create(nfeatures=MAX_KEYPOINTS)
    if crop.shape[:2] != (DETAIL_H, DETAIL_W):
        crop = cv2.resize(crop, (DETAIL_W, DETAIL_H), interpolation=cv2.INTER_AREA)
    grey = cv2.cvtColor(white_balance(crop), cv2.COLOR_BGR2GRAY)
    grey = cv2.resize(grey, (DETAIL_W * UPSCALE, DETAIL_H * UPSCALE),
                      interpolation=cv2.INTER_CUBIC)
    kps, desc = sift.detectAndCompute(grey, None)
    if desc is None or not kps:
        return Keypoints(np.zeros((0, 2), np.float32), np.zeros((0, 128), np.float32))
    pts = np.array([k.pt for k in kps], np.float32) / UPSCALE
    return Keypoints(pts, desc.astype(np.float32))


def placed_matches(query: Keypoints, taught: Keypoints, dist: np.ndarray | None = None) -> int:
    """How many of ``query``'s keypoints match one of ``taught``'s (ratio test) and land
    where it sits on the card, after one common shift, the best of either way up.

    ``dist``: the squared descriptor distances (query x taught), where already computed."""
    if len(query.points) < 2 or len(taught.points) < 2:
        return 0
    if dist is None:
        dist = squared_distances(query.descriptors, taught.descriptors)
    two = np.partition(dist, 1, axis=1)[:, :2]
    good = two[:, 0] < (RATIO * RATIO) * two[:, 1]
    if not good.any():
        return 0
    q = query.points[good]
    t = taught.points[np.argmin(dist[good], axis=1)]
    best = 0
    for other in (t, _SIZE - t):  # the taught photo as it is, and turned 180 degrees
        d = q - other
        off = np.median(d, axis=0)
        best = max(best, int((np.linalg.norm(d - off, axis=1) < PLACE_TOL).sum()))
    return best


def squared_distances(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Squared Euclidean distances between the rows of ``a`` and of ``b`` (one product)."""
    d = (a * a).sum(axis=1)[:, None] - 2.0 * (a @ b.T) + (b * b).sum(axis=1)[None, :]
    return np.maximum(d, 0.0)


def to_arrays(kps: list[Keypoints]) -> dict[str, np.ndarray]:
    """Several photos' keypoints as flat arrays (for an .npz): points, descriptors as bytes
    and the photo each keypoint came from."""
    if not kps:
        return {"kp_points": np.zeros((0, 2), np.float32),
                "kp_descriptors": np.zeros((0, 128), np.uint8),
                "kp_photo": np.zeros(0, np.int32)}
    return {"kp_points": np.concatenate([k.points for k in kps]).astype(np.float32),
            "kp_descriptors": np.clip(np.concatenate([k.descriptors for k in kps]), 0,
                                      255).astype(np.uint8),
            "kp_photo": np.concatenate([np.full(len(k.points), i, np.int32)
                                        for i, k in enumerate(kps)])}


def from_arrays(points: np.ndarray, descriptors: np.ndarray, photo: np.ndarray
                ) -> list[Keypoints]:
    """The inverse of :func:`to_arrays`: one :class:`Keypoints` per photo."""
    n = int(photo.max()) + 1 if len(photo) else 0
    return [Keypoints(points[photo == i].astype(np.float32),
                      descriptors[photo == i].astype(np.float32)) for i in range(n)]
