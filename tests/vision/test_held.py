"""A hand-held card found by its top and two sides (vision/held.py)."""

import cv2
import numpy as np
import pytest

from vision.held import card_tops
from vision.synth import draw_card, render_scene


def _held_card(label: str, turn_deg: float, cx: float = 400.0,
               fingers_x: int = 470) -> tuple[np.ndarray, np.ndarray]:
    """A card held up to a webcam: a pale wall of the card's own hue, a face beside it, and
    fingers over its lower half running off the frame. Gives the scene and the card's true
    corners (TL, TR, BR, BL)."""
    scene = np.full((480, 640, 3), (200, 228, 205), np.uint8)  # a pale green wall
    cv2.ellipse(scene, (170, 260), (120, 170), 0, 0, 360, (95, 125, 175), -1)  # a face
    w, h = 180.0, 280.0
    centre = np.float32([cx, 250])
    a = np.deg2rad(turn_deg)
    rot = np.float32([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    corners = (np.float32([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
               @ rot.T + centre)
    card = draw_card("uno", label)
    ch, cw = card.shape[:2]
    m = cv2.getPerspectiveTransform(np.float32([[0, 0], [cw, 0], [cw, ch], [0, ch]]), corners)
    cv2.warpPerspective(card, m, (640, 480), scene, borderMode=cv2.BORDER_TRANSPARENT)
    for y in (275, 315, 355, 395):  # fingers across the lower half, from the frame's edge
        cv2.ellipse(scene, (fingers_x, y), (170, 17), 0, 0, 360, (110, 140, 195), -1)
    return cv2.GaussianBlur(scene, (3, 3), 0), corners


@pytest.mark.parametrize(("label", "turn"), [("green-7", 0.0), ("yellow-4", 8.0),
                                             ("blue-2", -10.0)])
def test_a_held_card_is_found_by_its_top_and_sides(label: str, turn: float) -> None:
    """Fingers hide the lower half and the wall is the card's hue, but the top and the two
    sides are straight edges: one quad has the card's top corners, in order, and runs down
    the card about a card's length."""
    scene, truth = _held_card(label, turn)
    quads = card_tops(scene)
    assert quads and all(q.partial for q in quads)
    width = float(np.linalg.norm(truth[1] - truth[0]))

    def fits(q: np.ndarray) -> bool:
        top = np.linalg.norm(q[:2] - truth[:2], axis=1).max()
        down = np.linalg.norm(q[3] - q[0]) / np.linalg.norm(q[1] - q[0])
        return top < 0.1 * width and 1.3 < down < 1.8

    assert any(fits(q.corners) for q in quads)


@pytest.mark.parametrize(("label", "cx"), [("green-7", 560.0), ("yellow-4", 580.0),
                                           ("blue-2", 600.0)])
def test_a_card_held_over_the_frame_s_edge_is_found_by_the_frame_as_its_side(
        label: str, cx: float) -> None:
    """Held so close that its right side runs off the frame, a card has one side the line
    finder sees: the frame's edge stands in for the other (``frame_sides``). Without it no
    quad has the card's top."""
    scene, truth = _held_card(label, 0.0, cx=cx, fingers_x=600)
    width = float(np.linalg.norm(truth[1] - truth[0]))

    def fits(q: np.ndarray) -> bool:  # its top-left corner, and its top-right on the edge
        return (np.linalg.norm(q[0] - truth[0]) < 0.1 * width and q[1][0] >= 630
                and abs(q[1][1] - truth[1][1]) < 0.1 * width)

    assert not any(fits(q.corners) for q in card_tops(scene))
    assert any(fits(q.corners) for q in card_tops(scene, frame_sides=3))


@pytest.mark.parametrize("table", ["wood", "cloth", "white", "pattern"])
def test_an_empty_table_has_no_card_tops(table: str) -> None:
    """Wood grain and checks give many straight edges, but no top between two sides."""
    for seed in range(3):
        scene, _ = render_scene([], size=(640, 480), table=table, seed=seed)
        assert card_tops(scene) == []
        assert card_tops(scene, frame_sides=3) == []


def test_card_tops_in_two_threads_at_once_give_what_one_gives() -> None:
    """Each thread has its own line detector (LSD keeps its working images in the object):
    two threads reading frames at once find what one thread finds."""
    from concurrent.futures import ThreadPoolExecutor

    scenes = [_held_card(label, turn)[0] for label, turn in
              (("green-7", 0.0), ("yellow-4", 8.0), ("blue-2", -10.0))] * 4
    alone = [[q.corners.tolist() for q in card_tops(s)] for s in scenes]
    with ThreadPoolExecutor(2) as pool:
        both = list(pool.map(lambda s: [q.corners.tolist() for q in card_tops(s)], scenes))
    assert both == alone
