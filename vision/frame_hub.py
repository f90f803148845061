"""One capture thread; the latest frame behind a Condition; any number of readers.

Like picamera2's frame server: recognition, the live preview and the slap judge each read
the newest frame at their own pace, and none of them can slow the capture down. A reader
that wants every new frame calls ``wait_next(after_seq)``.

The capture thread owns the source: it closes it after its last read. ``stop()`` waits a
while for that, but never closes a source a read is still blocked in (a network webcam that
stalled): OpenCV's ``release()`` under a ``read()`` in another thread crashed the whole
process in libavutil when the stream came back.

A source whose reads fail (a Pi camera whose ribbon came loose: "frontend has timed out")
is read again and again, never given up, but logged with its traceback only when its error
changes, and read ever less often, up to once every ``BACKOFF_MAX_S``: at 20 tracebacks a
second it once filled the journal. ``error`` holds the failure while it lasts, for the
camera's status.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from vision.frame import Frame
from vision.sources import Source

log = logging.getLogger(__name__)
IDLE_S = 0.05  # no frame yet: read again after this long (and after a first failed read)
BACKOFF_MAX_S = 1.0  # failed reads: twice as long each time, up to this


class FrameHub:
    def __init__(self, source: Source, clock_ns: Callable[[], int] = time.monotonic_ns,
                 wait: Callable[[float], Any] | None = None) -> None:
        self.source = source
        self.clock_ns = clock_ns
        self._cond = threading.Condition()
        self._latest: Frame | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        # the capture loop's pause between reads (tests pass one that only records it);
        # the default ends at once on ``stop``
        self._wait = wait if wait is not None else self._stop.wait
        self._close_lock = threading.Lock()
        self._closed = False
        self.last_frame_ns: int | None = None  # clock time the latest frame arrived
        self.error: BaseException | None = None  # the read failing now (None: reads work)
        self.read_errors = 0  # reads failed since the start

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
        logged: str | None = None  # the error last logged with its traceback
        backoff = 0.0
        try:
            while not self._stop.is_set():
                try:
                    frame = self.step()
                except Exception as exc:  # a dead camera must not kill the process
                    self.error = exc
                    self.read_errors += 1
                    why = f"{exc.__class__.__name__}: {exc}"
                    if why != logged:
                        log.exception("camera read failed; trying again, less often")
                        logged = why
                    backoff = min(BACKOFF_MAX_S, backoff * 2 or IDLE_S)
                    self._wait(backoff)
                    continue
                if frame is not None:
                    if self.error is not None:
                        log.info("camera reads again")
                    self.error, backoff = None, 0.0
                    continue
                if getattr(self.source, "exhausted", False):
                    break
                self._wait(IDLE_S)
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
