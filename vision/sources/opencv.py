"""A USB webcam (``opencv:0``) or a video file (``opencv:/path/game.mp4``) via VideoCapture."""

from __future__ import annotations

import time

import cv2

from vision.frame import Frame


class OpenCVSource:
    def __init__(self, target: str = "0") -> None:
        self.target = int(target) if target.isdigit() else target
        self.name = f"opencv:{target}"
        self._cap: cv2.VideoCapture | None = None
        self._seq = 0

    def start(self) -> None:
        cap = cv2.VideoCapture(self.target)
        if not cap.isOpened():
            cap.release()
            raise OSError(f"VideoCapture could not open {self.target!r}")
        from vision.sources.replay import MAX_FRAME_PIXELS

        # (a video file of huge frames: refused before the first is decoded)
        if cap.get(cv2.CAP_PROP_FRAME_WIDTH) * cap.get(cv2.CAP_PROP_FRAME_HEIGHT) > \
                MAX_FRAME_PIXELS:
            cap.release()
            raise OSError(f"{self.target!r} sends frames of over {MAX_FRAME_PIXELS} pixels")
        self._cap = cap

    def read(self) -> Frame | None:
        if self._cap is None:
            return None
        ok, image = self._cap.read()
        t_ns = time.monotonic_ns()
        if not ok:
            return None
        self._seq += 1
        return Frame(image, t_ns, self._seq)

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None
