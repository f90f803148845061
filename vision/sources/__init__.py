"""Camera sources, chosen once like gpiozero chooses its pin factory.

``make_source(spec)`` takes the config's ``camera`` value (or COMPANION_CAMERA):
``picamera2``, ``opencv:<index or path>``, ``replay[:<folder or video>]``; empty means auto:
picamera2 on a Raspberry Pi, else the replay of the packaged sample photos. A source that
cannot start falls back to the replay with a loud warning, so the table still runs.
"""

from __future__ import annotations

import logging
import os
import warnings
from typing import Protocol

from vision.frame import Frame

log = logging.getLogger(__name__)


class CameraFallbackWarning(RuntimeWarning):
    """The configured camera could not start; a replay of sample photos stands in."""


class Source(Protocol):
    name: str

    def start(self) -> None: ...

    def read(self) -> Frame | None:
        """The next frame (blocking at most about a frame time); None when there is none."""
        ...

    def close(self) -> None: ...


def _spec_of(config_or_spec: object) -> str:
    if config_or_spec is None:
        return os.environ.get("COMPANION_CAMERA", "")
    if isinstance(config_or_spec, str):
        return config_or_spec
    return str(getattr(config_or_spec, "camera", "") or "")


def _build(spec: str) -> Source:
    kind, _, arg = spec.partition(":")
    if kind == "picamera2":
        from vision.sources.picam import PicameraSource

        return PicameraSource()
    if kind == "opencv":
        from vision.sources.opencv import OpenCVSource

        return OpenCVSource(arg or "0")
    if kind == "replay":
        from vision.sources.replay import ReplaySource

        return ReplaySource(arg or None)
    raise ValueError(f"unknown camera {spec!r}: use picamera2, opencv:<n|path> or replay[:path]")


def make_source(config_or_spec: object = None, start: bool = True) -> Source:
    """The configured camera, started; the sample replay (with a warning) when it fails."""
    spec = _spec_of(config_or_spec).strip()
    if not spec:
        from companion.config import is_raspberry_pi

        spec = "picamera2" if is_raspberry_pi() else "replay"
    try:
        source = _build(spec)
        if start:
            source.start()
        return source
    except Exception as exc:
        if spec.startswith("replay") and ":" not in spec:
            raise
        msg = (f"camera {spec!r} unavailable ({exc.__class__.__name__}: {exc}); "
               "FALLING BACK to the replay of sample photos: the table is NOT watching a camera")
        log.warning(msg)
        warnings.warn(msg, CameraFallbackWarning, stacklevel=2)
        from vision.sources.replay import ReplaySource

        source = ReplaySource(None)
        if start:
            source.start()
        return source
