"""Rendered dice scenes, for the dice reader's tests and benchmark (``vision.dice``).

No camera was at hand when the reader was written, so its tests and its benchmark run on
scenes drawn here: N dice of given colours and values rolled onto the card renderer's table
surfaces (``synth.table_texture``: light wood, dark cloth, a white table, checks), each turned
any way, seen a little in perspective with a strip of its side showing, with its shadow, and
the frame lit more or less brightly and warmly, with a lamp's glare, blurred and noisy.
Everything follows from the seed, so a failing scene is a number to replay.

Real dice differ (rounded edges that catch the light, pips painted or drilled, a camera's
own colour), so what the benchmark says of these scenes is a floor to check on photos.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.synth import add_glare, table_texture

# The Kingsburg dice (the seats' colours, data.COLOURS, and the white dice), as drawn (BGR),
# with their pips' colour: light pips on the dark dice, dark pips on the light ones.
FACE_BGR = {"red": (40, 40, 200), "blue": (180, 90, 30), "green": (60, 150, 40),
            "yellow": (30, 200, 235), "purple": (130, 40, 115), "white": (238, 240, 240)}
PIP_BGR = {"red": (240, 240, 240), "blue": (240, 240, 240), "green": (240, 240, 240),
           "yellow": (30, 30, 30), "purple": (240, 240, 240), "white": (30, 30, 30)}
COLOURS = tuple(FACE_BGR)
TABLES = ("wood", "cloth", "white", "pattern")
# pip centres of each face on a unit square (one of its two turns for 2, 3 and 6)
_A, _C, _B = 0.25, 0.5, 0.75
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((_C, _C),),
    2: ((_A, _A), (_B, _B)),
    3: ((_A, _A), (_C, _C), (_B, _B)),
    4: ((_A, _A), (_B, _A), (_A, _B), (_B, _B)),
    5: ((_A, _A), (_B, _A), (_C, _C), (_A, _B), (_B, _B)),
    6: ((_A, _A), (_A, _C), (_A, _B), (_B, _A), (_B, _C), (_B, _B)),
}


@dataclass(frozen=True)
class Die:
    """One die as drawn: its colour, the value on top, where its face's centre lies."""

    colour: str
    value: int
    centre: tuple[float, float]
    side: float  # the face's side in pixels


def draw_face(colour: str, value: int, px: int = 96) -> np.ndarray:
    """A die's top face, ``px`` square: rounded corners are left to the table (black
    outside, the mask from ``face_mask``), the face a little lighter at its middle."""
    face = np.zeros((px, px, 3), np.float32)
    base = np.asarray(FACE_BGR[colour], np.float32)
    yy, xx = np.mgrid[0:px, 0:px].astype(np.float32) / (px - 1) - 0.5
    shade = 1.0 - 0.18 * (xx ** 2 + yy ** 2)
    face[:] = base * shade[..., None]
    r = round(px * 0.085)
    for x, y in PIPS[value]:
        cv2.circle(face, (round(x * (px - 1)), round(y * (px - 1))), r,
                   PIP_BGR[colour], -1, cv2.LINE_AA)
    return np.clip(face, 0, 255).astype(np.uint8)


def face_mask(px: int) -> np.ndarray:
    """The face's outline: a square with rounded corners."""
    mask = np.zeros((px, px), np.uint8)
    r = int(px * 0.14)
    cv2.rectangle(mask, (r, 0), (px - 1 - r, px - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (px - 1, px - 1 - r), 255, -1)
    for cx, cy in ((r, r), (px - 1 - r, r), (r, px - 1 - r), (px - 1 - r, px - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return mask


def _quad(centre: tuple[float, float], side: float, angle: float,
          rng: np.random.Generator, skew: float) -> np.ndarray:
    """The face's corners in the frame: a square turned by ``angle``, each corner moved by
    up to ``skew`` of the side (the camera not straight above it)."""
    a = np.deg2rad(angle)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    unit = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])
    quad = unit @ rot.T * side + np.asarray(centre)
    quad += rng.uniform(-skew, skew, (4, 2)) * side
    return quad.astype(np.float32)


def _paste(scene: np.ndarray, img: np.ndarray, mask: np.ndarray, quad: np.ndarray) -> None:
    px = img.shape[0]
    src = np.array([[0, 0], [px - 1, 0], [px - 1, px - 1], [0, px - 1]], np.float32)
    m = cv2.getPerspectiveTransform(src, quad)
    h, w = scene.shape[:2]
    warped = cv2.warpPerspective(img, m, (w, h), flags=cv2.INTER_AREA)
    alpha = cv2.warpPerspective(mask, m, (w, h), flags=cv2.INTER_LINEAR)[..., None] / 255.0
    scene[:] = (scene * (1 - alpha) + warped * alpha).astype(np.uint8)


def place_die(scene: np.ndarray, colour: str, value: int, centre: tuple[float, float],
              side: float, angle: float, rng: np.random.Generator, skew: float = 0.04,
              tilt: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
    """Draw one die onto ``scene`` (in place): its shadow, the side the camera sees
    (``tilt``: where the face is moved from the die's foot, as shares of its side), its face.
    Returns the face's corners."""
    px = 96
    mask = face_mask(px)
    foot = _quad(centre, side, angle, rng, 0.0)
    quad = _quad((centre[0] + tilt[0] * side, centre[1] + tilt[1] * side), side, angle, rng,
                 skew)
    # the shadow: a soft dark copy of the foot, pushed away from the light
    h, w = scene.shape[:2]
    shadow = np.zeros((h, w), np.uint8)
    off = rng.uniform(0.05, 0.25, 2) * side * rng.choice([-1, 1], 2)
    cv2.fillConvexPoly(shadow, np.round(foot + off).astype(np.int32), 255, cv2.LINE_AA)
    k = int(side * 0.4) | 1
    shadow = cv2.GaussianBlur(shadow, (k, k), 0)
    scene[:] = (scene * (1 - 0.45 * shadow[..., None] / 255.0)).astype(np.uint8)
    # the side: the die's body between its foot and its face, darker than the face
    body = np.asarray(FACE_BGR[colour], np.float32) * rng.uniform(0.5, 0.7)
    hull = cv2.convexHull(np.round(np.vstack([foot, quad])).astype(np.int32))
    cv2.fillConvexPoly(scene, hull, tuple(int(v) for v in body), cv2.LINE_AA)
    _paste(scene, draw_face(colour, value, px), mask, quad)
    return quad


def render_dice(dice: list[tuple[str, int]], seed: int = 0, size: tuple[int, int] = (640, 480),
                table: str | None = None, side: tuple[float, float] = (30.0, 46.0),
                light: tuple[float, float] = (0.7, 1.1), blur: float = 1.2,
                noise: float = 5.0, glare: float = 40.0,
                ) -> tuple[np.ndarray, list[Die]]:
    """A frame of ``dice`` ((colour, value) pairs) rolled apart on a table (``table``: one
    of TABLES, else one drawn from the seed), each turned any way and ``side`` pixels across
    (a 16 mm die from a camera 45-70 cm above a 640x480 frame), lit at ``light`` times the
    drawing's brightness with a warm or cool cast, blurred up to ``blur`` (sigma, pixels),
    with sensor ``noise`` and a lamp's ``glare``. Returns the frame and the dice as drawn."""
    rng = np.random.default_rng(seed)
    w, h = size
    table = table or str(rng.choice(TABLES))
    scene = table_texture(table, size, rng).copy()
    placed: list[Die] = []
    for colour, value in dice:
        s = float(rng.uniform(*side))
        for _ in range(200):  # (dice apart: a die's diagonal and its shadow from another's)
            c = (float(rng.uniform(s, w - s)), float(rng.uniform(s, h - s)))
            if all(np.hypot(c[0] - d.centre[0], c[1] - d.centre[1]) > 1.7 * max(s, d.side)
                   for d in placed):
                break
        tilt = tuple(float(v) for v in rng.uniform(-0.12, 0.12, 2))
        quad = place_die(scene, colour, int(value), c, s, float(rng.uniform(0, 360)), rng,
                         tilt=tilt)
        cx, cy = quad.mean(axis=0)
        placed.append(Die(colour, int(value), (float(cx), float(cy)), s))
    if glare:
        scene = add_glare(scene, rng, float(rng.uniform(0, glare)))
    cast = np.array([rng.uniform(0.9, 1.05), 1.0, rng.uniform(0.95, 1.1)], np.float32)
    img = scene.astype(np.float32) * float(rng.uniform(*light)) * cast
    sigma = float(rng.uniform(0.3, blur)) if blur else 0.0
    if sigma > 0:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    img += rng.normal(0, noise, img.shape).astype(np.float32) if noise else 0
    return np.clip(img, 0, 255).astype(np.uint8), placed


def random_roll(rng: np.random.Generator, n: int | None = None,
                colours: tuple[str, ...] = COLOURS) -> list[tuple[str, int]]:
    """A roll as a table shows it: ``n`` dice (else 1 to 8) of the given colours."""
    n = n if n is not None else int(rng.integers(1, 9))
    return [(str(rng.choice(colours)), int(rng.integers(1, 7))) for _ in range(n)]
