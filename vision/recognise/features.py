"""The feature vector every card classifier sees, computed from a rectified portrait crop.

Shape (HOG of the grey image) carries rank, number and symbol; a coarse colour layout and a
hue histogram carry the suit colour and the UNO colour. The crop is white-balanced on its
own brightest pixels first, because the card border is the only white reference we can
trust under warm room light or a Pi camera's blue cast.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.detect import CARD_H, CARD_W

CELL, BINS = 8, 9
GRID_X, GRID_Y = 4, 6
HUE_BINS = 12


def hog(gray: np.ndarray) -> np.ndarray:
    """Histogram of oriented gradients (8px cells, 9 unsigned bins, 2x2-cell L2 blocks).

    Written with numpy because OpenCV 5 dropped HOGDescriptor from the main modules.
    """
    g = gray.astype(np.float32)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=1)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=1)
    mag, ang = cv2.cartToPolar(gx, gy)
    ang = np.mod(ang, np.pi) * (BINS / np.pi)
    lo = np.floor(ang).astype(np.int32) % BINS
    hi = (lo + 1) % BINS
    w_hi = ang - np.floor(ang)
    h, w = g.shape
    cy, cx = h // CELL, w // CELL
    cell_of = (np.arange(h)[:, None] // CELL) * cx + (np.arange(w)[None, :] // CELL)
    idx_lo = (cell_of * BINS + lo).ravel()
    idx_hi = (cell_of * BINS + hi).ravel()
    hist = np.bincount(idx_lo, (mag * (1 - w_hi)).ravel(), cy * cx * BINS)
    hist += np.bincount(idx_hi, (mag * w_hi).ravel(), cy * cx * BINS)
    hist = hist.reshape(cy, cx, BINS)
    blocks = np.concatenate([hist[:-1, :-1], hist[1:, :-1], hist[:-1, 1:], hist[1:, 1:]], axis=2)
    blocks /= np.sqrt((blocks ** 2).sum(axis=2, keepdims=True)) + 1e-3
    blocks = np.minimum(blocks, 0.2)
    blocks /= np.sqrt((blocks ** 2).sum(axis=2, keepdims=True)) + 1e-3
    return blocks.ravel().astype(np.float32)


def white_balance(crop: np.ndarray) -> np.ndarray:
    """Scale each channel so the brightest pixels become neutral and bright."""
    f = crop.astype(np.float32)
    flat = f.reshape(-1, 3)
    k = max(1, int(0.03 * len(flat)))
    top = np.partition(flat, len(flat) - k, axis=0)[-k:].mean(axis=0)
    gain = 235.0 / np.maximum(top, 20.0)
    gain = np.clip(gain, 0.5, 4.0)
    return np.clip(f * gain, 0, 255).astype(np.uint8)


def card_features(crop: np.ndarray) -> np.ndarray:
    """Feature vector (float32) of a CARD_W x CARD_H BGR crop."""
    if crop.shape[:2] != (CARD_H, CARD_W):
        crop = cv2.resize(crop, (CARD_W, CARD_H), interpolation=cv2.INTER_AREA)
    crop = white_balance(crop)
    gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    gray = cv2.equalizeHist(gray)
    shape = hog(gray)
    hsv = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV).astype(np.float32)
    hue = hsv[..., 0] * (np.pi / 90.0)
    sat = hsv[..., 1] / 255.0
    val = hsv[..., 2] / 255.0
    planes = np.stack([sat * np.cos(hue), sat * np.sin(hue), val, sat], axis=-1)
    grid = cv2.resize(planes, (GRID_X, GRID_Y), interpolation=cv2.INTER_AREA).ravel()
    colourful = (sat > 0.35) & (val > 0.25)
    hist = np.bincount((hsv[..., 0][colourful] * HUE_BINS / 180).astype(np.int32),
                       minlength=HUE_BINS)[:HUE_BINS] / colourful.size
    extra = np.array([colourful.mean(), (val < 0.25).mean(), ((sat < 0.2) & (val > 0.7)).mean()])
    return np.concatenate([shape, 2.0 * grid, 4.0 * hist, 4.0 * extra]).astype(np.float32)


def both_ways(crop: np.ndarray) -> np.ndarray:
    """Features of the crop and of the crop turned 180 degrees (which end is up is unknown)."""
    return np.stack([card_features(crop), card_features(crop[::-1, ::-1])])
