"""The cards of rules/uno.md: which labels exist, how many of each, what they match and score.

Card names come from :mod:`companion.cards` (shared/cards.md); nothing here invents a spelling.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from companion.cards import UNO_COLOURS, UnoCard, parse_uno, uno_deck, uno_names

COLOURS = UNO_COLOURS
ALL_NAMES = frozenset(uno_names())
CUSTOM = "wild-custom"
DRAW4 = "wild-draw4"
SWAP = "wild-swap"
PUT_BACK_FIRST = frozenset({DRAW4, SWAP, CUSTOM})  # R24-R26: turned up first, it goes back
_BASE = Counter(uno_deck(include_custom=False))  # 109 cards: the blanks stay out (R16)


def deck_counts(custom_wilds: int) -> Counter[str]:
    """How many of each label the table's deck holds (109 + the blanks that carry a rule)."""
    counts = Counter(_BASE)
    if custom_wilds:
        counts[CUSTOM] = custom_wilds
    return counts


def deck_size(custom_wilds: int) -> int:
    return sum(_BASE.values()) + custom_wilds


def card(label: Any) -> UnoCard | None:
    """The card for a label, or None for anything that is not a card name (any JSON)."""
    if not isinstance(label, str) or label not in ALL_NAMES:
        return None
    return parse_uno(label)


def in_deck(label: str, custom_wilds: int) -> bool:
    return label in ALL_NAMES and (label != CUSTOM or custom_wilds > 0)


def colour_of(label: str) -> str | None:
    return parse_uno(label).colour


def symbol(label: str) -> str:
    """The number or symbol of a card ('7', 'skip', 'draw2', 'wild', ...)."""
    return parse_uno(label).value


def is_legal(label: str, top: str, colour: str | None) -> bool:
    """R1: same colour as the active colour, or the same number or symbol as the top card, or
    any wild. (Wild Draw Four's own condition, R9, needs the hand: see :func:`draw4_legal`.)"""
    c = parse_uno(label)
    if c.is_wild:
        return True
    return c.colour == colour or c.value == symbol(top)


def draw4_legal(hand: list[str], colour: str | None) -> bool:
    """R9/R12: a Wild Draw Four is legal only if the hand holds no card of the colour that was
    active when it was played. Number/symbol matches and wilds do not count."""
    return not any(colour_of(c) == colour for c in hand)


def points(label: str, options: dict[str, Any]) -> int:
    """Section 5: numbers at face value, actions 20, wilds 50 (Swap/custom configurable, U1)."""
    c = parse_uno(label)
    if c.is_number:
        return int(c.value)
    if not c.is_wild:
        return 20
    if c.value == SWAP:
        return int(options.get("swap_points", 50))
    if c.value == CUSTOM:
        return int(options.get("custom_points", 50))
    return 50


def cut_value(label: str) -> int:
    """Setup 1 [DEFAULT]: a number card cuts at its value; action cards and wilds count 0."""
    c = parse_uno(label)
    return int(c.value) if c.is_number else 0
