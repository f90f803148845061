"""Overlapping cards named from their corner index (vision/fan.py) on drawn scenes."""

from __future__ import annotations

import numpy as np
import pytest

from vision import synth, synth_fan
from vision.corner_index import available
from vision.fan import FanCard, _next_corner, find_corners, read_fan

pytestmark = pytest.mark.skipif(not available(), reason="vision/models/french_corner.onnx missing")

# seeds apart from the training (100000+), calibration (200000+) and measurement (300000+) ones
SEEDS = range(11, 19)


def score(scene: synth_fan.FanScene, cards: list[FanCard]) -> tuple[int, int, int]:
    """(right, wrong, unsure) readings, each judged by the visible index inside its patch."""
    right = wrong = unsure = 0
    for c in cards:
        owner = synth_fan.index_owner(scene, c.corners)
        if c.label is None:
            unsure += 1
        elif owner is not None and scene.labels[owner] == c.label:
            right += 1
        else:
            wrong += 1
    return right, wrong, unsure


def test_fans_are_read_without_confident_mistakes() -> None:
    total = right = wrong = 0
    for seed in SEEDS:
        scene = synth_fan.random_fan(seed)
        r, w, _ = score(scene, read_fan(scene.image))
        total += len(scene.labels)
        right += r
        wrong += w
    assert wrong == 0
    assert right >= 0.6 * total, (right, total)


@pytest.mark.parametrize("kind", ["fan", "row", "pile"])
def test_each_layout_gives_names(kind: str) -> None:
    scene = synth_fan.render_fan(["AS", "10H", "QD", "7C", "RJ"], table="cloth", seed=5,
                                 kind=kind)
    cards = read_fan(scene.image)
    right, wrong, _ = score(scene, cards)
    assert wrong == 0
    assert right >= 3, [(c.label, c.best, round(c.confidence, 2)) for c in cards]


@pytest.mark.parametrize("seed", [60, 88])
def test_a_fans_cards_the_outline_shows_no_corner_of_are_read_from_their_neighbours(
        seed: int) -> None:
    """A tight fan's corners beside the card over them make no outline corner; each is
    where the cards named beside it say the next one lies."""
    scene = synth_fan.random_fan(seed)
    assert scene.kind == "fan"
    alone, _, _ = score(scene, read_fan(scene.image, progression=False))
    right, wrong, _ = score(scene, read_fan(scene.image))
    assert alone < len(scene.labels)
    assert (right, wrong) == (len(scene.labels), 0)


@pytest.mark.parametrize("kind", ["fan", "row", "pile"])
def test_the_next_card_is_laid_as_the_one_before_it(kind: str) -> None:
    scene = synth_fan.render_fan(["AS", "10H", "QD", "7C"], table="cloth", seed=7, kind=kind,
                                 glare=False)

    def frame(i: int) -> tuple:
        q = np.asarray(scene.corners[i], np.float32)
        if q[1, 0] < q[0, 0]:  # a card lying upside down is given by its printed corners
            q = q[[2, 3, 0, 1]]
        tl, tr, _, bl = q
        u, v = tr - tl, bl - tl
        return tl, u / np.linalg.norm(u), v / np.linalg.norm(v), scene.card_h

    for i in range(2):
        p, u, v, _ = _next_corner(frame(i), frame(i + 1))
        want = frame(i + 2)
        # (a fan turns every card alike; a row and a pile lay each card up to 3 degrees and
        # 1% of a height off, taken for a turn of the progression)
        near, turn = (0.01, 0.9995) if kind == "fan" else (0.08, 0.985)
        assert np.linalg.norm(p - want[0]) < near * scene.card_h
        assert float(u @ want[1]) > turn and float(v @ want[2]) > turn


def test_one_reading_per_card() -> None:
    scene = synth_fan.render_fan(["3S", "8D", "KH", "BJ"], table="wood", seed=3, kind="fan")
    labels = [c.label for c in read_fan(scene.image) if c.label]
    assert len(labels) == len(set(labels))


def test_whole_card_is_left_to_the_detector() -> None:
    for seed, label in enumerate(["7H", "KS", "AD"]):
        image, _ = synth.render_scene([("french", label)], seed=seed, table="cloth")
        assert find_corners(image) == []
        assert read_fan(image) == []


@pytest.mark.parametrize(("seed", "kind"), [(24, "fan"), (22, "row"), (23, "pile")])
def test_a_play_on_a_pale_table_is_read_by_its_edges(seed: int, kind: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """White cards on a light-grey table are one pale blob with it, which is no group; the
    cards' closed edges are. Through identify too, where the detector's edges are reused."""
    from vision import fan
    from vision.identify import Identifier

    labels = ["AS", "10H", "QD", "7C", "RJ"]
    scene = synth_fan.render_fan(labels, table="white", seed=seed, kind=kind)
    right, wrong, _ = score(scene, read_fan(scene.image))
    assert (right, wrong) == (5, 0)
    named = [c.label for c in Identifier("french").identify(scene.image) if c.label]
    assert sorted(named) == sorted(labels)
    monkeypatch.setattr(fan, "PALE_TABLE", 2.0)  # (the pale blob taken for a group, as before)
    assert score(scene, read_fan(scene.image))[0] == 0


@pytest.mark.parametrize("table", ["wood", "cloth", "white", "pattern"])
def test_empty_table_gives_nothing(table: str) -> None:
    image = synth.table_texture(table, (640, 480), np.random.default_rng(1))
    assert read_fan(image) == []


def test_identify_names_a_fan_through_the_corner_indices() -> None:
    """The standard pack's Identifier reads overlapping cards too; UNO's does not look."""
    from collections import Counter

    from vision.identify import Identifier

    scene = synth_fan.render_fan(["AS", "10H", "QD", "7C", "RJ"], table="cloth", seed=5,
                                 kind="fan")
    cards = Identifier("french", data_path="/nonexistent-taught").identify(scene.image)
    said = Counter(c.label for c in cards if c.label)
    assert not said - Counter(scene.labels), said  # no name that is not in the fan
    assert sum((said & Counter(scene.labels)).values()) >= 3, said
    assert not Identifier("uno", data_path="/nonexistent-taught").overlaps


def test_a_row_the_detector_takes_for_one_card_is_read_by_its_indices() -> None:
    """Two cards spread in a row make one card-like outline, which the whole-card network
    names by the index at its corner (the 9 of spades): the quad, less long than a card, is
    searched for the other card's index too, and the 9 of diamonds is no longer lost."""
    from vision.detect import side_ratio
    from vision.identify import GROUP_SHAPED, Identifier

    scene = synth_fan.render_fan(["9D", "9S"], table="cloth", seed=0, kind="row",
                                 glare=False)
    ident = Identifier("french", data_path="/nonexistent-taught")
    whole = Identifier("french", data_path="/nonexistent-taught", overlaps=False)
    (group,) = whole.identify(scene.image)
    assert group.label == "9S" and side_ratio(group.corners) < GROUP_SHAPED
    assert sorted(c.label for c in ident.identify(scene.image)) == ["9D", "9S"]


def test_a_single_card_less_long_than_a_card_is_read_once() -> None:
    """A photo squeezed to another shape makes a card squarer: searched for indices for its
    shape, it is still one card, named once (what was read inside it goes)."""
    import cv2

    from vision.identify import Identifier

    scene = synth.table_texture("wood", (480, 480), np.random.default_rng(3))
    synth.place_card(scene, synth.draw_card("french", "QH"), (240, 240), 220, 0)
    squeezed = cv2.resize(scene, (560, 480))
    cards = Identifier("french", data_path="/nonexistent-taught").identify(squeezed)
    assert [(c.label, c.partial) for c in cards] == [("QH", False)]


def test_index_patches_are_normalised_as_the_corner_network_learnt_them() -> None:
    """``normalise_many`` (run time, per-patch tables) gives what the per-pixel float
    formula gives (each channel scaled so the brightest tenth's colour reaches 235, clipped,
    truncated; a flat patch by its mean colour), to the level: on drawn corners, noise,
    dim, over-exposed and blank patches, one at a time and stacked."""
    import cv2

    from vision.corner_index import _percentiles, crop_patches, normalise_many
    from vision.synth import draw_card

    def by_pixel(patches: np.ndarray) -> np.ndarray:
        f = patches.astype(np.float32).reshape(len(patches), -1, 3)
        grey = (f[..., 0] + f[..., 1] + f[..., 2]) * np.float32(1 / 3)
        hi, lo = _percentiles(grey, 90.0), _percentiles(grey, 2.0)
        top = grey >= hi[:, None]
        white = np.stack([f[i][top[i]].sum(axis=0) / max(top[i].sum(), 1)
                          for i in range(len(f))]).astype(np.float32)
        flat = hi <= lo
        white[flat] = f[flat].mean(axis=1)
        out = f * (np.float32(235.0) / np.maximum(white, np.float32(20.0)))[:, None, :]
        return np.clip(out, 0, 255).astype(np.uint8).reshape(patches.shape)

    rng = np.random.default_rng(8)
    patches = [p for label in ("AS", "7H", "QD", "10C") for p in
               crop_patches(cv2.resize(draw_card("french", label), (96, 144)))]
    patches += [rng.integers(0, 256, patches[0].shape, dtype=np.uint8),
                np.full(patches[0].shape, 200, np.uint8)]
    patches += [(p * 0.15).astype(np.uint8) for p in patches[:4]]
    patches += [np.clip(p * (2.5, 1.8, 1.2), 0, 255).astype(np.uint8) for p in patches[:4]]
    stack = np.stack(patches)
    assert np.array_equal(normalise_many(stack), by_pixel(stack))
    assert np.array_equal(normalise_many(stack[:1]), by_pixel(stack[:1]))
