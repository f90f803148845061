"""Name a rectified card: built-in decks (UNO, standard, Huang Di) and decks taught at the table.

Every answer carries a confidence; below the deck's threshold the label is None ("unsure")
so the phone asks a person, because a wrong card said with confidence is the worst failure.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np


@dataclass(frozen=True)
class Verdict:
    label: str | None  # None: unsure
    confidence: float
    is_card: bool = True  # False: this quad is not a card (a phone, a box, a shadow)
    best: str | None = None  # the best guess even when unsure, for the debug preview
    # the standard pack's unsure cards: each suit's probability (summed over the ranks), for
    # naming a number card by its pips (vision/pips.py)
    suits: dict[str, float] | None = None


class UnknownDeck(KeyError):
    """A deck neither built in nor taught. A KeyError (callers catch that), but said as its
    message: a KeyError's str is its repr, and the CLI printed ``error: "unknown deck ..."``
    with stray quotes."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class Recogniser(Protocol):
    def classify(self, crop: np.ndarray) -> Verdict: ...


def get_recogniser(deck: str, data_path: object = None) -> Recogniser:
    """The recogniser for a deck: built-in model, taught examples, or both (taught first)."""
    from vision.recognise import cnn
    from vision.recognise.builtin import BUILTIN_DECKS, BuiltinRecogniser
    from vision.recognise.taught import TaughtRecogniser
    from vision.store import DeckStore

    store = DeckStore(data_path) if data_path is not None else DeckStore.default()
    taught = TaughtRecogniser.from_store(store, deck)
    if deck in BUILTIN_DECKS:
        read_as: dict[str, set[str]] = {}
        if taught is not None:  # stored folded ("as"): name them as the deck spells them
            from companion.cards import spelled

            taught.labels = [spelled(deck, n) or n for n in taught.labels]
            read_as = {spelled(deck, n) or n: r for n, r in store.read_as(deck).items()}
        # the convolutional network where one is trained (all three), else the MLP
        builtin = cnn.CnnRecogniser(deck) if cnn.available(deck) else BuiltinRecogniser(deck)
        return builtin if taught is None else TaughtFirst(taught, builtin, read_as)
    if taught is None:
        known = ", ".join(dict.fromkeys([*BUILTIN_DECKS, *store.list_decks()]))
        raise UnknownDeck(f"unknown deck {deck!r}: not built in and never taught "
                          f"(the decks: {known})")
    return taught


def _model_verdict(deck: str, crop: np.ndarray) -> Verdict | None:
    """The built-in model's verdict on a rectified card; None for a deck with no model."""
    from vision.recognise import cnn
    from vision.recognise.builtin import BUILTIN_DECKS

    if deck not in BUILTIN_DECKS or not cnn.available(deck):
        return None
    return cnn.CnnRecogniser(deck).classify(crop)


def model_reading(deck: str, crop: np.ndarray) -> str | None:
    """The built-in model's sure name for a rectified card; None where it is unsure, or the
    deck has no model."""
    verdict = _model_verdict(deck, crop)
    return None if verdict is None else verdict.label


def model_reads_other(deck: str, crop: np.ndarray, label: str) -> Verdict | None:
    """The built-in model's reading of a card about to be taught as ``label``, where it names
    another card surely (at its threshold); None for a deck with no model. A taught photo
    overrules that reading from then on, so the camera page asks first and the CLI wants
    ``--force``: one photo of the wrong frame had a blue skip read at 1.00 named red 7."""
    verdict = _model_verdict(deck, crop)
    return verdict if verdict is not None and verdict.label not in (None, label) else None


# Where the built-in model surely names another card than the taught match, the taught card
# wins only as the table's correction of that very reading (a photo of it was taught while
# the model read it so), or, where the model's card was taught too, where its keypoints
# confirm the taught one this strongly (taught.py's evidence). A few cards taught to
# correct a printing are otherwise the nearest match of every card like them: five UNO cards
# taught from one photo each, and 16 of uno_hemant's 662 cards were named wrong (a yellow 4
# as the taught red 4; 4, 3 and 2 on three other folders; none before any was taught),
# every one a card the model named right at 0.94 to 1.0. Such false matches reached
# keypoint evidence 0.93; the taught card seen again, 1.0 nearly always.
KP_OVERRULE = 0.97


# a taught photo's reading by the model, where it was not kept (taught before it was)
UNKNOWN_READING = "?"


class TaughtFirst:
    """A built-in deck corrected by the table: a confident taught match wins, unless the
    model surely reads another card that the table never taught it against
    (``KP_OVERRULE``)."""

    def __init__(self, taught: Recogniser, builtin: Recogniser,
                 read_as: dict[str, set[str]] | None = None) -> None:
        self.taught, self.builtin = taught, builtin
        self.read_as = read_as or {}
        # the model's sure readings a taught match can stand against: a taught card's own,
        # and what a taught photo was read as (every other sure reading stands as it is,
        # and the crop's taught features, ~1 ms, are not worked out)
        self.known = set(getattr(taught, "labels", ())).union(*self.read_as.values())
        # photos taught before their readings were kept may be corrections of any reading:
        # their cards are matched against every crop, and stand against the model where the
        # keypoints confirm them (a correction taught then kept working after an upgrade)
        self.unknown = {label for label, r in self.read_as.items() if UNKNOWN_READING in r}
        # the model's thresholds, which the identifier reads off its recogniser: a crop that
        # shows only part of a card is named only at the stricter one, taught or not (without
        # them here, five cards taught had the model's close-ups named at its whole-card 0.7)
        self.threshold = getattr(builtin, "threshold", 0.5)
        self.part_threshold = getattr(builtin, "part_threshold", None)

    def classify(self, crop: np.ndarray) -> Verdict:
        return self.classify_many([crop])[0]

    def classify_many(self, crops: list[np.ndarray], partial: list[bool] | None = None
                      ) -> list[Verdict]:
        """The taught match where it is confident and the model does not surely read
        another card, else the model's reading (every crop in one pass, told which show
        only part of a card)."""
        many = getattr(self.builtin, "classify_many", None)
        read = many(crops, partial=partial) if many is not None else [
            self.builtin.classify(c) for c in crops]
        out = []
        for i, m in enumerate(read):
            if m.label is not None and m.label not in self.known and not self.unknown:
                out.append(m)
                continue
            t = self._taught(crops[i])
            if t.label is None:
                out.append(m)
            elif m.label is None or m.label == t.label or m.label in self.read_as.get(
                    t.label, ()):
                out.append(t)
            elif m.label in self.known or t.label in self.unknown:
                # (the model surely reads another taught card, or the taught one may be a
                # correction of any reading)
                out.append(t if not (partial and partial[i]) and self._confirmed(
                    crops[i], t.label) else m)
            else:
                out.append(m)
        return out

    def _taught(self, crop: np.ndarray) -> Verdict:
        # (its features only: a keypoint check costs ~10 ms a crop, and the model reads them)
        return self.taught.classify(crop, check_keypoints=False)  # type: ignore[call-arg]

    def _confirmed(self, crop: np.ndarray, label: str) -> bool:
        confirms = getattr(self.taught, "confirms", None)
        return confirms is not None and confirms(crop, label, KP_OVERRULE)
