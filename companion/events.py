"""What adapters report to the tables: a card seen, a zone cleared, the camera lost (and back),
a press.

Each carries the monotonic time it happened (``t_ns``, from the frame or the pin edge, not
from when the software got round to it) and its source, so a judge can order them fairly.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CardSeen:
    zone: str
    label: str | None
    confidence: float
    t_ns: int
    source: str = "camera"
    signature: tuple[float, ...] | None = None
    # the zone's card seen again, come to rest elsewhere or turned: most likely its twin put
    # on top of it (an UNO deck holds two of most cards), possibly the pile pushed; a game
    # asks a person before it counts it
    again: bool = False
    # an unsure card's (label None) best guess, for a game to ask a person about it
    best: str | None = None
    # every card seen in the zone, (label or None, confidence): a play laid as a set, fanned
    # (Dou Di Zhu); None where the watcher reports the top card only
    cards: tuple[tuple[str | None, float], ...] | None = None
    # by position in ``cards``, each unnamed card's best guess (None for a named card, or
    # one with no guess); None where every card is named: a game that counts the set asks
    # about a guessed card rather than leave it out of the play
    guesses: tuple[str | None, ...] | None = None


@dataclass(frozen=True)
class ZoneCleared:
    zone: str
    t_ns: int
    source: str = "camera"


@dataclass(frozen=True)
class CameraLost:
    t_ns: int
    source: str = "camera"


@dataclass(frozen=True)
class CameraBack:
    """Frames arrive again after a ``CameraLost``: the phones may stop asking for taps.
    ``t_ns`` is the first new frame's timestamp."""

    t_ns: int
    source: str = "camera"


@dataclass(frozen=True)
class ButtonPressed:
    seat: int
    t_ns: int
    source: str = "gpio"
