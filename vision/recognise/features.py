"""The feature vector every card classifier sees, computed from a rectified portrait crop.

Shape (HOG of the grey image) carries rank, number and symbol; a coarse colour layout and a
hue histogram carry the suit colour and the UNO colour. The crop is white-balanced on its
own brightest pixels first, because the card border is the only white reference we can
trust under warm room light or a Pi camera's blue cast.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from vision.detect import CARD_H, CARD_W

BINS = 9
DETAIL_W, DETAIL_H = 96, 144  # recognisers get crops this size (a finer look than 64x96)
GRID_X, GRID_Y = 4, 6
HUE_BINS = 12
COLOUR_DIMS = GRID_X * GRID_Y * 4 + HUE_BINS + 3  # the colour part at the end of a vector


@lru_cache(maxsize=16)
def _cell_bins(h: int, w: int, cell: int) -> np.ndarray:
    """First histogram slot of each pixel's cell, for an h x w image cut to whole cells."""
    cx = w // cell
    return ((np.arange(h)[:, None] // cell) * cx + (np.arange(w)[None, :] // cell)) * BINS


def hog(gray: np.ndarray, cell: int = 8) -> np.ndarray:
    """Histogram of oriented gradients (8px cells, 9 unsigned bins, 2x2-cell L2 blocks).

    Written with numpy because OpenCV 5 dropped HOGDescriptor from the main modules.
    """
    g = gray.astype(np.float32)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=1)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=1)
    mag, ang = cv2.cartToPolar(gx, gy)
    h, w = g.shape
    cy, cx = h // cell, w // cell
    h, w = cy * cell, cx * cell
    a = ang[:h, :w] * np.float32(BINS / np.pi)  # 0..18: the unsigned bin is this mod 9
    a[a >= BINS] -= BINS
    lo = a.astype(np.int32)  # a >= 0: truncation is floor
    np.minimum(lo, BINS - 1, out=lo)
    m = mag[:h, :w]
    m_hi = m * (a - lo)
    hi = lo + 1
    hi[hi == BINS] = 0
    base = _cell_bins(h, w, cell)
    hist = np.bincount(np.concatenate([(base + lo).ravel(), (base + hi).ravel()]),
                       np.concatenate([(m - m_hi).ravel(), m_hi.ravel()]), cy * cx * BINS)
    hist = hist.reshape(cy, cx, BINS)
    blocks = np.concatenate([hist[:-1, :-1], hist[1:, :-1], hist[:-1, 1:], hist[1:, 1:]], axis=2)
    blocks /= np.sqrt((blocks ** 2).sum(axis=2, keepdims=True)) + 1e-3
    blocks = np.minimum(blocks, 0.2)
    blocks /= np.sqrt((blocks ** 2).sum(axis=2, keepdims=True)) + 1e-3
    return blocks.reshape(cy - 1, cx - 1, 4, BINS).astype(np.float32)


def _turn(blocks: np.ndarray) -> np.ndarray:
    """HOG blocks of the image turned 180 degrees: unsigned orientations do not change,
    so only the order of blocks and of the cells inside each block is reversed."""
    return blocks[::-1, ::-1, ::-1, :]


# white_balance: the brightest BALANCE_TOP of a crop's pixels, per channel, brought to 235
BALANCE_TOP = 0.03
LEVELS = np.arange(256, dtype=np.float32)


def balance_gains(tops: np.ndarray) -> np.ndarray:
    """float32 gains (any shape) for channels whose brightest BALANCE_TOP reach ``tops``."""
    return np.clip(235.0 / np.maximum(np.asarray(tops, np.float32), 20.0), 0.5, 4.0)


def balance_levels(gains: np.ndarray) -> np.ndarray:
    """(..., 256, 3) float32: each level of each channel times its gain, rounded and
    clipped (gains (..., 3)): the white balance as a table."""
    return np.clip(np.rint(LEVELS[:, None] * gains[..., None, :]), 0, 255)


def white_balance(crop: np.ndarray) -> np.ndarray:
    """Scale each channel so the brightest 3% of pixels become neutral and bright."""
    n = crop.shape[0] * crop.shape[1]
    tops = []
    for ch in range(3):
        hist = cv2.calcHist([crop], [ch], None, [256], [0, 256]).ravel()
        tail = np.cumsum(hist[::-1])
        k = int(np.searchsorted(tail, BALANCE_TOP * n))
        tops.append(255 - k)
    gain = balance_gains(tops)
    if crop.dtype != np.uint8 or crop.ndim != 3 or crop.shape[2] != 3:
        return cv2.convertScaleAbs(crop * gain[None, None, :])
    # a table per channel: the same rounding as convertScaleAbs(crop * gain), cheaper
    return cv2.LUT(crop, balance_levels(gain).astype(np.uint8).reshape(256, 1, 3))


def sharpness(crop: np.ndarray) -> float:
    """How sharp a card's crop is: the variance of the Laplacian of its grey levels over
    their spread (5th to 95th percentile), so that a dim or low-contrast card is not taken
    for a blurred one."""
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop
    cum = np.cumsum(cv2.calcHist([grey], [0], None, [256], [0, 256]).ravel())
    lo, hi = np.searchsorted(cum, (0.05 * cum[-1], 0.95 * cum[-1]))
    lap = cv2.Laplacian(grey.astype(np.float32) / float(hi - lo + 1), cv2.CV_32F)
    return float(lap.var())


def _views(crop: np.ndarray) -> tuple[np.ndarray, ...]:
    if crop.shape[:2] != (DETAIL_H, DETAIL_W):
        crop = cv2.resize(crop, (DETAIL_W, DETAIL_H), interpolation=cv2.INTER_AREA)
    crop = white_balance(crop)
    big = cv2.equalizeHist(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY))
    centre = cv2.resize(big[DETAIL_H // 4: DETAIL_H * 3 // 4, DETAIL_W // 8: DETAIL_W * 7 // 8],
                        (48, 48), interpolation=cv2.INTER_AREA)
    ch, cw = DETAIL_H * 22 // 100, DETAIL_W // 4
    corner_a = cv2.resize(big[:ch, :cw], (32, 48), interpolation=cv2.INTER_AREA)
    corner_b = cv2.resize(big[::-1, ::-1][:ch, :cw], (32, 48), interpolation=cv2.INTER_AREA)
    small = cv2.resize(crop, (CARD_W, CARD_H), interpolation=cv2.INTER_AREA)
    gray = cv2.resize(big, (CARD_W, CARD_H), interpolation=cv2.INTER_AREA)
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV).astype(np.float32)
    hue = hsv[..., 0] * (np.pi / 90.0)
    sat = hsv[..., 1] / 255.0
    val = hsv[..., 2] / 255.0
    planes = np.stack([sat * np.cos(hue), sat * np.sin(hue), val, sat], axis=-1)
    grid = cv2.resize(planes, (GRID_X, GRID_Y), interpolation=cv2.INTER_AREA)
    colourful = (sat > 0.35) & (val > 0.25)
    hist = np.bincount((hsv[..., 0][colourful] * HUE_BINS / 180).astype(np.int32),
                       minlength=HUE_BINS)[:HUE_BINS] / colourful.size
    extra = np.array([colourful.mean(), (val < 0.25).mean(), ((sat < 0.2) & (val > 0.7)).mean()])
    return hog(gray), hog(centre), hog(corner_a), hog(corner_b), grid, hist, extra


def _assemble(main: np.ndarray, centre: np.ndarray, corner: np.ndarray, grid: np.ndarray,
              hist: np.ndarray, extra: np.ndarray) -> np.ndarray:
    return np.concatenate([main.ravel(), centre.ravel(), corner.ravel(), 2.0 * grid.ravel(),
                           4.0 * hist, 4.0 * extra]).astype(np.float32)


def card_features(crop: np.ndarray) -> np.ndarray:
    """Feature vector (float32) of a portrait BGR crop (best: DETAIL_W x DETAIL_H).

    Three shape views: the whole card at 64x96, the centre (UNO's big symbol, the pips)
    and the top-left corner index (rank and suit of a standard card) at finer detail;
    then a coarse colour layout and a hue histogram.
    """
    main, centre, corner_a, _, grid, hist, extra = _views(crop)
    return _assemble(main, centre, corner_a, grid, hist, extra)


def both_ways(crop: np.ndarray) -> np.ndarray:
    """Features of the crop and of the crop turned 180 degrees (which end is up is unknown),
    for the price of one pass."""
    main, centre, corner_a, corner_b, grid, hist, extra = _views(crop)
    return np.stack([_assemble(main, centre, corner_a, grid, hist, extra),
                     _assemble(_turn(main), _turn(centre), corner_b, grid[::-1, ::-1], hist,
                               extra)])
