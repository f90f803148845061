"""The Raspberry Pi camera through picamera2 (imported only when chosen: it exists only on a Pi).

Frames carry the sensor's own timestamp (``SensorTimestamp``, ns, CLOCK_MONOTONIC-based
in libcamera), so a slap judge can order a frame against a button edge.
"""

from __future__ import annotations

import time

from vision.frame import Frame


class PicameraSource:
    name = "picamera2"

    def __init__(self, size: tuple[int, int] = (1280, 720), lores: tuple[int, int] = (640, 360)):
        self.size, self.lores = size, lores
        self._cam = None
        self._seq = 0

    def start(self) -> None:
        from picamera2 import Picamera2  # lazy: only on a Pi

        cam = Picamera2()
        cam.configure(cam.create_video_configuration(main={"size": self.size,
                                                           "format": "RGB888"}))
        cam.start()
        self._cam = cam

    def read(self) -> Frame | None:
        if self._cam is None:
            return None
        request = self._cam.capture_request()
        try:
            image = request.make_array("main")
            meta = request.get_metadata()
        finally:
            request.release()
        self._seq += 1
        t_ns = int(meta.get("SensorTimestamp") or time.monotonic_ns())
        return Frame(image, t_ns, self._seq)

    def close(self) -> None:
        if self._cam is not None:
            self._cam.stop()
            self._cam.close()
            self._cam = None
