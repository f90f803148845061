"""A camera whose reads fail (a Pi camera whose ribbon came loose) is read again, ever less
often, and its traceback logged once per error, not twenty times a second."""

from __future__ import annotations

import logging

import numpy as np

from vision.frame import Frame
from vision.frame_hub import BACKOFF_MAX_S, IDLE_S, FrameHub

TIMED_OUT = RuntimeError("Camera frontend has timed out!")


class Scripted:
    """A source that plays a script: an exception is raised, a frame returned; after the
    script it is exhausted."""

    def __init__(self, script: list[object]) -> None:
        self.script = list(script)
        self.exhausted = False
        self.closed = False

    def read(self) -> Frame | None:
        if not self.script:
            self.exhausted = True
            return None
        step = self.script.pop(0)
        if isinstance(step, BaseException):
            raise step
        return step  # type: ignore[return-value]

    def close(self) -> None:
        self.closed = True


def frame(seq: int) -> Frame:
    return Frame(np.zeros((4, 4, 3), np.uint8), seq, seq)


def test_failed_reads_back_off_and_log_each_error_once(caplog) -> None:
    caplog.set_level(logging.INFO, logger="vision.frame_hub")
    other = OSError("ribbon")
    source = Scripted([TIMED_OUT] * 8 + [other, frame(1), other, None])  # (then flapping)
    waits: list[float] = []
    hub = FrameHub(source, wait=waits.append)
    errors = []
    source_read = source.read

    def read() -> Frame | None:  # (what the status would show before each read)
        errors.append(hub.error)
        return source_read()

    source.read = read  # type: ignore[method-assign]
    hub._run()
    assert waits == [IDLE_S * 2 ** k for k in range(5)] + [BACKOFF_MAX_S] * 4 + [IDLE_S, IDLE_S]
    assert [r.exc_info[1] for r in caplog.records if r.exc_info] == [TIMED_OUT, other]
    assert errors[1] is TIMED_OUT and errors[9] is other and errors[10] is None
    assert hub.read_errors == 10 and hub.latest.seq == 1
