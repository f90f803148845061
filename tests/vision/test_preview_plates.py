"""The names drawn on the camera page's picture (issue 37: every sample card read "? 0.00",
a number a person cannot read)."""

from __future__ import annotations

import numpy as np

from vision import preview
from vision.identify import Card

CORNERS = np.array([[10, 10], [60, 10], [60, 90], [10, 90]], float)


def test_a_plate_says_a_name_a_guess_or_a_question_mark_and_no_number(monkeypatch):
    cards = [Card("red-7", 0.93, CORNERS), Card(None, 0.41, CORNERS + 100, best="blue-7"),
             Card(None, 0.0, CORNERS + 200)]
    written = []
    real = preview.cv2.putText
    monkeypatch.setattr(preview.cv2, "putText",
                        lambda img, text, *a, **k: (written.append(text), real(img, text, *a, **k)))
    preview.draw(np.zeros((400, 400, 3), np.uint8), cards)
    assert written == ["red-7", "blue-7?", "?"]
