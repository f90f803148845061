"""The one spelling of every card (../shared/cards.md), both ways: name <-> value.

Recognisers, rules engines, the HTTP API and the data all go through these functions, so a
card name that is not in this module can never reach a game.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

UNO_COLOURS = ("red", "yellow", "green", "blue")
UNO_ACTIONS = ("skip", "reverse", "draw2")
UNO_WILDS = ("wild", "wild-draw4", "wild-swap", "wild-custom")

FRENCH_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
FRENCH_SUITS = ("S", "H", "D", "C")
FRENCH_JOKERS = ("BJ", "RJ")

HUANGDI_CARDS = (*(str(n) for n in range(1, 11)), "joker", "invert")


@dataclass(frozen=True)
class UnoCard:
    """An UNO card: ``colour`` is None for wilds; ``value`` is '0'..'9', an action or a wild."""

    colour: str | None
    value: str

    @property
    def name(self) -> str:
        return self.value if self.colour is None else f"{self.colour}-{self.value}"

    @property
    def is_wild(self) -> bool:
        return self.colour is None

    @property
    def is_number(self) -> bool:
        return self.value.isdigit()


def uno_names() -> list[str]:
    """Every distinct UNO card name, in a stable order."""
    names = [f"{c}-{v}" for c in UNO_COLOURS for v in [*map(str, range(10)), *UNO_ACTIONS]]
    return names + list(UNO_WILDS)


def uno_deck(include_custom: bool = False) -> list[str]:
    """The 112-card deck of rules/uno.md (109 without the blank wilds), as names."""
    deck: list[str] = []
    for colour in UNO_COLOURS:
        deck.append(f"{colour}-0")
        for value in [*map(str, range(1, 10)), *UNO_ACTIONS]:
            deck += [f"{colour}-{value}"] * 2
    deck += ["wild"] * 4 + ["wild-draw4"] * 4 + ["wild-swap"]
    if include_custom:
        deck += ["wild-custom"] * 3
    return deck


def parse_uno(name: str) -> UnoCard:
    """Turn an UNO card name into a card; ValueError for anything not in cards.md."""
    if name in UNO_WILDS:
        return UnoCard(None, name)
    colour, _, value = name.partition("-")
    if colour in UNO_COLOURS and (value in UNO_ACTIONS or (len(value) == 1 and value.isdigit())):
        return UnoCard(colour, value)
    raise ValueError(f"not an UNO card: {name!r}")


def french_names() -> list[str]:
    """The 54 names of the standard pack: 52 rank+suit and the two jokers."""
    return [r + s for s in FRENCH_SUITS for r in FRENCH_RANKS] + list(FRENCH_JOKERS)


_FRENCH = re.compile(r"^(A|10|[2-9]|J|Q|K)([SHDC])$")


def parse_french(name: str) -> tuple[str, str | None]:
    """(rank, suit) of a standard card; jokers give (name, None). ValueError otherwise."""
    if name in FRENCH_JOKERS:
        return name, None
    m = _FRENCH.match(name)
    if not m:
        raise ValueError(f"not a standard card: {name!r}")
    return m.group(1), m.group(2)


def huangdi_names() -> list[str]:
    return list(HUANGDI_CARDS)


DECKS: dict[str, list[str]] = {
    "uno": uno_names(),
    "french": french_names(),
    "huangdi": huangdi_names(),
}


def fold_taught_name(text: str) -> str:
    """Fold a name typed on a phone to a taught card's name: letters and digits of any
    script, lower-cased, with every run of anything else one '-'.

    Latin letters lose their accents ("Ataque três" -> "ataque-tres"), so a phone with or
    without the accent names one card; other scripts keep their letters ("攻击三" stays
    itself: folding to ASCII left nothing of a Chinese name, and the card was refused). The
    result is safe as a file name (vision.store keeps one file per name): no '/', '.', space
    or control character survives, and NFKC gives one spelling for one look (full-width
    "Ａ１" -> "a1")."""
    import unicodedata

    # Latin accents go (a combining mark on an ASCII letter, after NFKD); another script's
    # marks stay, part of its letters (a Devanagari vowel sign, a Thai tone mark)
    kept: list[str] = []
    for c in unicodedata.normalize("NFKD", text.lower()):
        if unicodedata.combining(c) and kept and kept[-1].isascii():
            continue
        kept.append(c)
    return _fold_runs(unicodedata.normalize("NFKC", "".join(kept)).lower())


def _fold_runs(text: str) -> str:
    """Letters and digits kept (with the marks written on them), every run of anything
    else one '-', none at either end."""
    import unicodedata

    out: list[str] = []
    gap = False
    for c in text:
        if c.isalnum() or (out and not gap and unicodedata.category(c).startswith("M")):
            if gap and out:
                out.append("-")
            out.append(c)
            gap = False
        else:
            gap = True
    return "".join(out)


def spelled(deck: str, typed: str) -> str | None:
    """A built-in deck's own spelling of a name typed on a phone or stored folded ("10h",
    "Red 7" -> "10H", "red-7"); None when it is no card of that deck (or no built-in deck)."""
    folded = fold_taught_name(typed)
    return next((n for n in DECKS.get(deck, ()) if fold_taught_name(n) == folded), None)


def is_card(deck: str, name: str) -> bool:
    return name in DECKS.get(deck, ())
