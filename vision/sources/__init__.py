"""Camera sources, chosen once like gpiozero chooses its pin factory.

``make_source(spec)`` takes the config's ``camera`` value (or COMPANION_CAMERA):
``picamera2``, ``opencv:<index or path>``, ``replay[:<folder or video>]``; empty means auto:
picamera2 on a Raspberry Pi, else the replay of the packaged sample photos. A source that
cannot start falls back to the replay with a loud warning, so the table still runs.
``choose_source`` also says what was asked for and whether the fallback stands in (the
camera page shows it: a table that believes it is watched, and is not, plays on regardless).
"""

from __future__ import annotations

import logging
import os
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from vision.frame import Frame

log = logging.getLogger(__name__)


class CameraFallbackWarning(RuntimeWarning):
    """The configured camera could not start; a replay of sample photos stands in."""


class CameraUnavailable(RuntimeError):
    """A camera named by the caller cannot start, and no fallback was wanted (``companion
    vision preview --camera ...``: frames of the sample photos are no preview of it)."""


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


@dataclass(frozen=True)
class SourceChoice:
    """What runs and why: ``kind`` for people (``picamera2``, ``webcam``, ``video``,
    ``replay``), ``wanted`` the camera asked for (the config's spec, or picamera2 chosen on a
    Pi; None: nothing asked, the samples off a Pi), ``fallback`` whether the sample replay
    stands in for it, ``error`` why."""

    kind: str
    wanted: str | None
    fallback: bool = False
    error: str | None = None


def source_kind(source: object) -> str:
    """A source's kind for people, not its class name: ``picamera2``, ``webcam`` (a device
    number, a /dev path, a stream URL), ``video`` (a file), ``replay`` (photos, a folder)."""
    name = str(getattr(source, "name", "") or "")
    kind, _, arg = name.partition(":")
    if kind == "opencv":
        return "video" if arg and not arg.isdigit() and Path(arg).is_file() else "webcam"
    if kind in ("picamera2", "replay"):
        return kind
    return "replay" if type(source).__name__ == "ReplaySource" else "webcam"


def make_source(config_or_spec: object = None, start: bool = True) -> Source:
    """The configured camera, started; the sample replay (with a warning) when it fails."""
    return choose_source(config_or_spec, start)[0]


def choose_source(config_or_spec: object = None, start: bool = True, fallback: bool = True
                  ) -> tuple[Source, SourceChoice]:
    """``make_source``, and what it chose (:class:`SourceChoice`). ``fallback`` False: a
    camera named in the spec that cannot start raises :class:`CameraUnavailable` instead of
    the sample replay standing in (the automatic choice still falls back)."""
    spec = _spec_of(config_or_spec).strip()
    named = bool(spec)
    wanted: str | None = spec or None
    if not spec:
        from companion.config import is_raspberry_pi

        spec = "picamera2" if is_raspberry_pi() else "replay"
        wanted = "picamera2" if spec == "picamera2" else None  # (the samples: no failure)
        if wanted is None:  # (the default off a Pi, but a new user must hear it)
            log.warning("no camera set and no Raspberry Pi camera here: the camera shows "
                        "the sample photos. For a USB webcam set camera = \"opencv:0\" in the "
                        "config, or COMPANION_CAMERA=opencv:0")
    try:
        source = _build(spec)
        if start:
            source.start()
        return source, SourceChoice(source_kind(source), wanted)
    except Exception as exc:
        if spec.startswith("replay") and ":" not in spec:
            raise
        if not fallback and named:
            raise CameraUnavailable(f"camera {spec!r} cannot be opened "
                                    f"({exc.__class__.__name__}: {exc})") from exc
        msg = (f"camera {spec!r} unavailable ({exc.__class__.__name__}: {exc}); "
               "FALLING BACK to the replay of sample photos: the table is NOT watching a camera")
        log.warning(msg)
        warnings.warn(msg, CameraFallbackWarning, stacklevel=2)
        from vision.sources.replay import ReplaySource

        source = ReplaySource(None)
        if start:
            source.start()
        return source, SourceChoice("replay", spec, True, f"{exc.__class__.__name__}: {exc}")
