"""One capture thread; the latest frame behind a Condition; any number of readers.

Like picamera2's frame server: recognition, the live preview and the slap judge each read
the newest frame at their own pace, and none of them can slow the capture down. A reader
that wants every new frame calls ``wait_next(after_seq)``.

The capture thread owns the source: it closes it after its last read. ``stop()`` waits a
while for that, but never closes a source a read is still blocked in (a network webcam that
stalled): OpenCV's ``release()`` under a ``read()`` in another thread crashed the whole
process in libavutil when the stream came back.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from vision.frame import Frame
from vision.sources import Source

log = logging.getLogger(__name__)


class FrameHub:
    def __init__(self, source: Source, clock_ns: Callable[[], int] = time.monotonic_ns) -> None:
        self.source = source
        self.clock_ns = clock_ns
        self._cond = threading.Condition()
        self._latest: Frame | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._close_lock = threading.Lock()
        self._closed = False
        self.last_frame_ns: int | None = None  # clock time the latest frame arrived
        self.error: BaseException | None = None

    # -- the producer ---------------------------------------------------------------
    def publish(self, frame: Frame) -> None:
        """Hand a frame to the readers (the capture thread does this; tests may too)."""
        with self._cond:
            self._latest = frame
            self.last_frame_ns = self.clock_ns()
            self._cond.notify_all()

    def step(self) -> Frame | None:
        """Read one frame from the source and publish it: the whole loop body, for tests."""
        frame = self.source.read()
        if frame is not None:
            self.publish(frame)
        return frame

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                try:
                    frame = self.step()
                except Exception as exc:  # a dead camera must not kill the process
                    self.error = exc
                    log.exception("camera read failed")
                    frame = None
                if frame is None:
                    if getattr(self.source, "exhausted", False):
                        break
                    self._stop.wait(0.05)
        finally:
            if self._stop.is_set():
                self._close_source()

    def _close_source(self) -> None:
        """Close the source once (the capture thread after its last read, or ``stop``
        where no read can be under way)."""
        with self._close_lock:
            if not self._closed:
                self._closed = True
                self.source.close()

    def start(self) -> FrameHub:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="camera", daemon=True)
            self._thread.start()
        return self

    def stop(self, timeout: float = 2.0) -> None:
        """Stop capturing. The source is closed by the capture thread after its read; if
        that read is still blocked after ``timeout`` s, it is left to close when the read
        returns (never under it)."""
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(timeout=timeout)
        if thread is None or not thread.is_alive():
            self._close_source()
        else:
            log.warning("camera: a read is still blocked; its source is closed when it returns")
        with self._cond:
            self._cond.notify_all()

    # -- the readers ----------------------------------------------------------------
    @property
    def latest(self) -> Frame | None:
        with self._cond:
            return self._latest

    def wait_next(self, after_seq: int = 0, timeout: float | None = 1.0) -> Frame | None:
        """The first frame newer than ``after_seq``; None on timeout or when stopped."""
        with self._cond:
            self._cond.wait_for(
                lambda: (self._latest is not None and self._latest.seq > after_seq)
                or self._stop.is_set(), timeout)
            f = self._latest
            return f if f is not None and f.seq > after_seq else None

    def stale_for_ns(self) -> int | None:
        """How long since the last frame arrived (None: none yet)."""
        if self.last_frame_ns is None:
            return None
        return self.clock_ns() - self.last_frame_ns

    def __enter__(self) -> FrameHub:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
