"""Replay a folder of photos or a video as a camera: the off-Pi default and what tests use.

Two modes. Paced (default): ``read()`` waits so frames come at ``fps``, looping forever,
like a real camera. Stepped (``stepped=True``): ``read()`` never waits and frames get their
timestamps from an injected clock, so a test decides exactly which frame arrives when.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import cv2
import numpy as np

from vision.frame import Frame

log = logging.getLogger(__name__)
SAMPLES = Path(__file__).resolve().parent.parent / "samples"
IMAGE_EXT = {".jpg", ".jpeg", ".png", ".bmp"}
# The most pixels a camera frame may have (a Pi HQ camera's full sensor is 12.3 MP): a photo
# of more in a camera folder is refused by its header, before anything is decoded. A 50 MP
# photo, or a small file that claims a huge picture (a decompression bomb), took the server
# to 1.6 GB; every photo is held decoded while the replay runs.
MAX_FRAME_PIXELS = 16_000_000


def frame_size_refused(path: Path) -> str | None:
    """Why the photo at ``path`` may not be a camera frame (too many pixels by its header,
    or a header that gives no size), or None: it may be decoded."""
    from vision.photo_read import read_header

    header = read_header(path)
    if header is None:
        return "its header gives no picture size"
    if header.width * header.height > MAX_FRAME_PIXELS or not header.width or \
            not header.height:
        return f"{header.width}x{header.height} is over {MAX_FRAME_PIXELS} pixels"
    return None


def _load(files: list[Path]) -> list[np.ndarray]:
    images = []
    for p in files:
        why = frame_size_refused(p)
        if why is not None:
            log.warning("camera: %s left out: %s", p, why)
            continue
        if (img := cv2.imread(str(p))) is not None:
            images.append(img)
    return images


class ReplaySource:
    def __init__(self, path: str | Path | None = None, fps: float = 10.0, loop: bool = True,
                 stepped: bool = False, clock_ns: Callable[[], int] | None = None,
                 images: Sequence[np.ndarray] | None = None) -> None:
        self.path = Path(path) if path else SAMPLES
        self.name = f"replay:{self.path}" if images is None else "replay:memory"
        self.fps, self.loop, self.stepped = fps, loop, stepped
        self.clock_ns = clock_ns or time.monotonic_ns
        self._images: list[np.ndarray] | None = list(images) if images is not None else None
        self._video: cv2.VideoCapture | None = None
        self._i = 0
        self._seq = 0
        self._next_t = 0.0
        self.exhausted = False

    def start(self) -> None:
        if self._images is not None:
            return
        if self.path.is_dir():
            files = sorted(p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_EXT)
            if not files:
                raise FileNotFoundError(f"no photos in {self.path}")
            self._images = _load(files)
            if not self._images:
                raise FileNotFoundError(f"no photo in {self.path} can be a camera frame")
        elif self.path.is_file():
            self._video = cv2.VideoCapture(str(self.path))
            if not self._video.isOpened():
                raise OSError(f"cannot open video {self.path}")
            size = (self._video.get(cv2.CAP_PROP_FRAME_WIDTH) *
                    self._video.get(cv2.CAP_PROP_FRAME_HEIGHT))
            if size > MAX_FRAME_PIXELS:
                self.close()
                raise OSError(f"the video {self.path} has frames of over "
                              f"{MAX_FRAME_PIXELS} pixels")
        else:
            raise FileNotFoundError(self.path)

    def _next_image(self) -> np.ndarray | None:
        if self._images is not None:
            if self._i >= len(self._images):
                if not self.loop:
                    return None
                self._i = 0
            img = self._images[self._i]
            self._i += 1
            return img
        assert self._video is not None
        ok, img = self._video.read()
        if not ok and self.loop:
            self._video.set(cv2.CAP_PROP_POS_FRAMES, 0)
            ok, img = self._video.read()
        return img if ok else None

    def read(self) -> Frame | None:
        if not self.stepped:
            now = time.monotonic()
            if self._next_t > now:
                time.sleep(self._next_t - now)
            self._next_t = max(now, self._next_t) + 1.0 / self.fps
        img = self._next_image()
        if img is None:
            self.exhausted = True
            return None
        self._seq += 1
        return Frame(img, self.clock_ns(), self._seq)

    def close(self) -> None:
        if self._video is not None:
            self._video.release()
            self._video = None
