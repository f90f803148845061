"""A USB webcam (``opencv:0``) or a video file (``opencv:/path/game.mp4``) via VideoCapture.

A webcam pulled out (a cable kicked under the table) and put back does not read again
through the capture that had it: V4L2 gives the device a new handle, and the old capture
fails every read for good. So after ``REOPEN_AFTER`` failed reads in a row the capture is
opened again; while the webcam is gone that raises, and the frame hub (vision/frame_hub.py)
tries again less often and reports the error (``/api/camera``'s ``read_error``); the first
frame after it clears the error, and the phones hear the camera is back."""

from __future__ import annotations

import time

import cv2

from vision.frame import Frame

REOPEN_AFTER = 10  # failed reads in a row of a webcam (not a file): open it again


class OpenCVSource:
    def __init__(self, target: str = "0") -> None:
        self.target = int(target) if target.isdigit() else target
        self.name = f"opencv:{target}"
        self._cap: cv2.VideoCapture | None = None
        self._seq = 0
        self._failed = 0  # failed reads in a row
        self._gone = False  # the webcam could not be opened again: each read tries

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
            if self._gone:  # (the webcam went: tried again at the hub's pace)
                self._reopen()
            return None
        ok, image = self._cap.read()
        t_ns = time.monotonic_ns()
        if not ok:
            self._failed += 1
            if isinstance(self.target, int) and self._failed >= REOPEN_AFTER:
                self._reopen()
            return None
        self._failed = 0
        self._seq += 1
        return Frame(image, t_ns, self._seq)

    def _reopen(self) -> None:
        """Open the webcam again (see the module's doc); raises OSError while it is gone."""
        self.close()
        self._failed = 0
        try:
            self.start()
            self._gone = False
        except OSError as exc:
            self._gone = True
            raise OSError(f"the webcam {self.target} stopped sending frames and could not "
                          f"be opened again ({exc})") from None

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None
