"""A face-down UNO card (the draw pile beside the discard pile) is no card to name."""

from __future__ import annotations

import numpy as np
import pytest

from companion.cards import DECKS
from vision import synth
from vision.backs import uno_back
from vision.detect import rectify
from vision.identify import Identifier
from vision.recognise.features import DETAIL_H, DETAIL_W


def crop_of(card: np.ndarray, table: str = "wood", seed: int = 0) -> np.ndarray:
    """The card laid on a drawn table and rectified as the identifier crops it."""
    rng = np.random.default_rng(seed)
    scene = synth.table_texture(table, (640, 480), rng)
    corners = synth.place_card(scene, card, (320, 240), 260, float(rng.uniform(-180, 180)))
    return rectify(scene, np.asarray(corners, np.float32), (DETAIL_W, DETAIL_H))


@pytest.mark.parametrize("tilt,ring", [(30, 0), (20, 4), (42, 0)])
def test_an_uno_back_is_told_from_every_wild_and_red_card(tilt: float, ring: int) -> None:
    assert uno_back(crop_of(synth.draw_uno_back(tilt, ring), "cloth", seed=tilt))
    faces = [label for label in DECKS["uno"] if label.startswith(("wild", "red-"))]
    assert len(faces) > 10
    for k, label in enumerate(faces):
        for table in ("wood", "cloth"):
            assert not uno_back(crop_of(synth.draw_card("uno", label), table, seed=k)), label


def test_the_draw_pile_is_not_named_beside_the_cards_in_play() -> None:
    """Read as a black card with an oval (a wild, unsure, or at times named), the back is
    left out; the cards in play are read as they are without it. (Not a drawn wild beside
    it: the two black pieces our drawn wild's oval leaves are as small as the detector's
    pairing of pieces allows, and a black back in view lowers the frame's dark level: such a
    wild is lost on some tables, with the back named or not; docs/vision.md, Known gaps.)"""
    ident = Identifier("uno", data_path="/nonexistent-taught")
    tables = 0
    for seed in range(20):
        rng = np.random.default_rng(seed)
        scene, truth = synth.render_scene([("uno", "red-7"), ("uno", "blue-2"), ("uno", "green-3")],
                                          table=["wood", "cloth", "white"][seed % 3], seed=seed)
        if min(float(c.min()) for c in truth) < 8 or max(float(c[:, 0].max()) for c in truth) > 632:
            continue  # (a card cut by the frame's edge: found or lost by a few grey levels)
        tables += 1
        table = np.concatenate([scene, synth.table_texture("wood", (640, 240), rng)], axis=0)
        before = sorted(str(c.label) for c in ident.identify(table))
        assert len(before) >= 2, seed
        synth.place_card(table, synth.draw_uno_back(float(rng.uniform(15, 45)), 4 * (seed % 2)),
                         (float(rng.uniform(150, 490)), 600.0), 200, float(rng.uniform(-180, 180)))
        cards = ident.identify(table)
        assert [c.best for c in cards if c.centre[1] > 500] == [], seed
        assert sorted(str(c.label) for c in cards) == before, seed
    assert tables >= 6


def test_the_quick_ring_test_never_drops_a_back() -> None:
    """``uno_back`` first asks whether the ring could be dark at all (each channel under
    the dark level over the white balance's least gain, 235 / 255): a bound, so every crop
    the full judgement calls a back passes it, in any light or cast (a washed-out webcam's
    black just under that bound, beside a blown-out white, included), while a red card in
    ordinary light stops there."""
    from vision.backs import _judged_back, _ring_may_be_dark

    rng = np.random.default_rng(11)
    backs = 0
    cards = [synth.draw_uno_back(30, 0), synth.draw_uno_back(20, 4)] + \
        [synth.draw_card("uno", label) for label in ("wild", "wild-draw4", "red-5", "red-skip")]
    for k, card in enumerate(cards):
        for seed in range(12):
            crop = crop_of(card, ("wood", "cloth", "white")[seed % 3], seed=k * 12 + seed)
            lit = np.clip(crop * rng.uniform(0.25, 1.6) * rng.uniform(0.6, 1.4, 3)
                          + rng.uniform(-30, 30, 3), 0, 255).astype(np.uint8)
            # the black lifted to just under the bound, the white blown out: the least gain
            washed = np.where(crop < 60, 95, np.where(crop > 200, 255, crop)).astype(np.uint8)
            for view in (crop, lit, washed):
                if _judged_back(view):
                    backs += 1
                    assert _ring_may_be_dark(view), (k, seed)
                    assert uno_back(view)
    assert backs >= 20
    assert not _ring_may_be_dark(crop_of(synth.draw_card("uno", "red-5"), "wood"))
