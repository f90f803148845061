"""A camera frame: the image and the monotonic time it was taken."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Frame:
    image: np.ndarray  # BGR, as OpenCV and picamera2's "RGB888" both lay it out
    t_ns: int  # monotonic ns when the sensor took it (or when we got it, at worst)
    seq: int  # 1, 2, 3 ... per source; lets readers ask for "the next one after mine"
