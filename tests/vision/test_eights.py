"""Eights of a printing no shipped network learned, named 9 or 6 at 0.995-1.0 by the whole-card
network, are left unsure where their pips count 8 (issue 33: the one place the reader broke
its "almost never wrong": webcam photos from above, ``../shared/train/cadyze_cards_scenes``,
CC BY 4.0; the exporter stretched each 16:9 frame to 640x640, made 16:9 again here)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from vision.identify import Identifier

SCENES = "cadyze_cards_scenes"


@pytest.mark.parametrize("name, least", [("WIN_20240627_17_19_07_Pro.jpg", 1),
                                         # (its 8 of clubs, read as spades at 0.78, is left
                                         # unsure by its pips' notches: nothing is named)
                                         ("WIN_20240627_17_19_11_Pro.jpg", 0),
                                         ("WIN_20240627_11_37_20_Pro.jpg", 1)])
def test_an_eight_is_not_named_a_nine_or_a_six(shared_train: Path, name: str,
                                               least: int) -> None:
    truth = {e["label"] for e in
             json.loads((shared_train / SCENES / "labels.json").read_text())["images"][name]}
    image = cv2.resize(cv2.imread(str(shared_train / SCENES / name)), (1138, 640),
                       interpolation=cv2.INTER_AREA)
    named = [c.label for c in Identifier("french").identify(image) if c.label]
    assert len(named) >= least and set(named) <= truth, (named, sorted(truth))
