"""Card backs: a face-down card is no card to name.

An UNO game always has its draw pile face down on the table, in the camera's view. UNO's
back is the same in every printing: a black card with a big red oval and the yellow "UNO"
across it. To the networks, which never saw one, that is a black-bodied card with an oval:
a wild (our drawn back was named "wild-custom" at 0.72-0.94 on every table) or, by its
oval, a red card. The back's oval is one colour where every wild's is four (or shows the
wild +4's four cards), and a red card's body is red, not black; so a card read as a wild or
a red card whose middle is red and yellow with no green or blue, inside a black body, is a
back (``uno_back``): not a card. No wild of the shared photos passes (each middle holds
green or blue, 5% of its vivid pixels or more, or is less than half red; a drawn back's is
two thirds red, a third yellow), and what every shared photo and drawn table reads is
unchanged by it.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.recognise.features import balance_gains, white_balance

# The border ring (outside the middle 60% x 70%, inside the white edge) is a black body
# from this share of it dark (value under BACK_DARK_V)
BACK_DARK = 0.4
BACK_DARK_V = 90
# The middle (the central half across, 40% down) is the red oval: this share of it vivid
# (saturation over 90, value over 70), this share of that red (hue under 10 or from 165),
# and at most this share green or blue (hue 40-135)
BACK_VIVID = 0.5
BACK_RED = 0.5
BACK_COOL = 0.05


# A pixel the white balance leaves under BACK_DARK_V in every channel was under this in
# each before it (the balance's least gain is a top of 255's: no channel's top is over
# 255): the ring's share of such pixels bounds its dark share from above, without
# balancing the crop
_RAW_DARK_BOUND = int(np.ceil(BACK_DARK_V / float(balance_gains(255))))


def _ring_may_be_dark(crop: np.ndarray) -> bool:
    """False where the border ring cannot be dark whatever the white balance does (a red
    card's body, in all but dim light): one range test, where the balance and the colour
    conversion cost ~0.15 ms a card read as red or wild."""
    h, w = crop.shape[:2]
    low = cv2.inRange(crop, (0, 0, 0), (_RAW_DARK_BOUND,) * 3)
    y0, y1, x0, x1 = int(0.04 * h), h - int(0.04 * h), int(0.05 * w), w - int(0.05 * w)
    # (the middle as uno_back cuts it, inside the inner box)
    my0, my1 = max(y0, int(0.15 * h)), min(y1, int(0.85 * h))
    mx0, mx1 = max(x0, int(0.2 * w)), min(x1, int(0.8 * w))
    if my1 <= my0 or mx1 <= mx0:
        return True  # (a crop too small to cut so: judged in full)
    count = cv2.countNonZero(low[y0:y1, x0:x1]) - cv2.countNonZero(low[my0:my1, mx0:mx1])
    area = (y1 - y0) * (x1 - x0) - (my1 - my0) * (mx1 - mx0)
    return area > 0 and count >= BACK_DARK * area


def uno_back(crop: np.ndarray) -> bool:
    """Whether a portrait crop of an UNO card is its back (``BACK_*``)."""
    crop = np.ascontiguousarray(crop)
    return _ring_may_be_dark(crop) and _judged_back(crop)


def _judged_back(crop: np.ndarray) -> bool:
    """``uno_back`` judged in full: the crop white-balanced, its ring's and middle's HSV."""
    hsv = cv2.cvtColor(white_balance(crop), cv2.COLOR_BGR2HSV)
    h, w = hsv.shape[:2]
    ring = np.ones((h, w), bool)
    ring[int(0.15 * h):int(0.85 * h), int(0.2 * w):int(0.8 * w)] = False
    ring[:int(0.04 * h)] = ring[h - int(0.04 * h):] = False
    ring[:, :int(0.05 * w)] = ring[:, w - int(0.05 * w):] = False
    if float((hsv[..., 2][ring] < BACK_DARK_V).mean()) < BACK_DARK:
        return False
    middle = hsv[int(0.3 * h):int(0.7 * h), int(0.25 * w):int(0.75 * w)].reshape(-1, 3)
    vivid = middle[(middle[:, 1] > 90) & (middle[:, 2] > 70), 0].astype(int)
    if len(vivid) < BACK_VIVID * len(middle):
        return False
    red = float(((vivid < 10) | (vivid >= 165)).mean())
    cool = float(((vivid >= 40) & (vivid < 135)).mean())
    return red >= BACK_RED and cool <= BACK_COOL
