"""Small helpers shared by the vision tests."""

from __future__ import annotations

import argparse

import numpy as np

from vision.cli import add_parser
from vision.identify import Card


def run(argv: list[str]) -> int:
    """``companion vision ...`` with these arguments, in this process: its exit status."""
    parser = argparse.ArgumentParser()
    add_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.func(args)


def fake_card(label: str | None, centre: tuple[float, float], conf: float = 0.99,
              size: float = 40.0) -> Card:
    x, y = centre
    corners = np.array([[x - size / 2, y - size * 0.7], [x + size / 2, y - size * 0.7],
                        [x + size / 2, y + size * 0.7], [x - size / 2, y + size * 0.7]],
                       np.float32)
    return Card(label, conf, corners, label)


def matches(found: list[np.ndarray], truth: list[np.ndarray], tol: float = 0.12) -> int:
    """How many true cards have a found quad whose centre lies near theirs."""
    n = 0
    for t in truth:
        side = float(np.linalg.norm(t[0] - t[1]))
        if any(np.linalg.norm(f.mean(axis=0) - t.mean(axis=0)) < tol * 3 * side for f in found):
            n += 1
    return n
