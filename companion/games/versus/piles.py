"""The discard piles as the camera saw them: a short timeline of tops per pile, and which
tops make a pair at a given instant.

A pile's timeline is a list of ``[t_ns, identity]`` entries sorted by time (identity None:
the pile was seen empty). "Identical cards" means the same identity: a taught deck's label,
or ``#n``, the cluster of image signatures that look alike (:func:`identity_for`), so Versus
works with cards whose pictures the software was never told about.

Tops that a won slap has claimed (the piles it collected) no longer make a pair; pressing on
them is "late", not wrong.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from typing import Any

TIMELINE_KEEP = 16  # entries per pile: far more than a slap can reach back
MAX_ARTS = 96  # distinct card pictures remembered (Versus has 48 cards)
MAX_SIGNATURE = 1024


def top_at(pile: dict[str, Any], t_ns: int) -> tuple[int, str | None] | None:
    """The entry on top of a pile at ``t_ns`` (the last one stamped at or before it)."""
    found = None
    for t, ident in pile["tops"]:
        if t <= t_ns:
            found = (t, ident)
        else:
            break
    return found


def latest(pile: dict[str, Any]) -> tuple[int, str | None] | None:
    return tuple(pile["tops"][-1]) if pile["tops"] else None  # type: ignore[return-value]


def insert(pile: dict[str, Any], t_ns: int, ident: str | None) -> bool:
    """Add an observation in time order (the camera may report late); False if the very
    same entry is there already. Keeps the last :data:`TIMELINE_KEEP` entries."""
    tops = pile["tops"]
    if [t_ns, ident] in tops:
        return False
    i = len(tops)
    while i > 0 and tops[i - 1][0] > t_ns:
        i -= 1
    tops.insert(i, [t_ns, ident])
    del tops[: max(0, len(tops) - TIMELINE_KEEP)]
    return True


def uncover(pile: dict[str, Any], t_ns: int, ident: str) -> int | None:
    """The card last seen on the pile before ``t_ns`` seen again at ``t_ns``: the empty
    sightings between were a hand over it (the camera reports a zone empty from the first
    frame a hand hides it), and are taken back. Returns the first one's time (None: none)."""
    tops = pile["tops"]
    last = None
    for i, (t, seen) in enumerate(tops):
        if t < t_ns and seen is not None:
            last = i
    if last is None or tops[last][1] != ident:
        return None
    gone = [i for i in range(last + 1, len(tops)) if tops[i][0] < t_ns and tops[i][1] is None]
    if not gone:
        return None
    first = tops[gone[0]][0]
    for i in reversed(gone):
        del tops[i]
    return first


def last_card(pile: dict[str, Any], t_ns: int) -> tuple[int, str] | None:
    """The last card (not an empty sighting) on the pile before ``t_ns``."""
    found = None
    for t, ident in pile["tops"]:
        if t >= t_ns:
            break
        if ident is not None:
            found = (t, ident)
    return found


def before(pile: dict[str, Any], t_ns: int) -> tuple[int, str | None] | None:
    """The entry just before ``t_ns`` (what a new observation at ``t_ns`` covers)."""
    found = None
    for t, ident in pile["tops"]:
        if t < t_ns:
            found = (t, ident)
    return found


def pair_at(
    piles: list[dict[str, Any]], t_ns: int, claimed: set[tuple[int, int]], active: list[bool],
    gone: Collection[tuple[int, int]] = frozenset(),
    gone_away: bool = False,
) -> tuple[list[int], list[int]]:
    """At ``t_ns``: the seats whose tops form a fresh pair (two piles or more, same
    identity, not claimed by a won slap), and the seats whose tops form a claimed pair.
    ``gone``: the claimed tops a won slap collected (under the winner's draw pile, though
    no one may have reported the piles empty). One of them and a card flipped since are no
    pair (that picture is not on the table any more); two of them are the claimed pair while
    the winner may still be gathering them (slapping it is late), even where the camera has
    since seen those piles emptied, and nothing at all once ``gone_away``."""
    by_ident: dict[str, list[tuple[int, bool, bool]]] = {}
    for seat, pile in enumerate(piles):
        if seat < len(active) and not active[seat]:
            continue
        entry = top_at(pile, t_ns)
        if entry is not None and entry[1] is None:
            # seen empty: if a won slap collected the card it showed, that is the winner's
            # hand gathering the piles (the camera reports a zone empty as it is cleared),
            # and the collected card is still the claimed pair it was, until ``gone_away``
            entry = last_card(pile, entry[0])
            if entry is None or (seat, entry[0]) not in gone:
                continue
        if entry is None:
            continue
        key = (seat, entry[0])
        if gone_away and key in gone:
            continue
        by_ident.setdefault(entry[1], []).append((seat, key in claimed, key in gone))
    fresh: list[int] = []
    stale: list[int] = []
    for group in by_ident.values():
        unclaimed = [s for s, c, _ in group if not c]
        collected = [s for s, _, g in group if g]
        lying = [s for s, _, g in group if not g]  # (on the table: a tie's claim keeps them)
        if len(unclaimed) >= 2:
            fresh += unclaimed
        elif len(collected) >= 2 or len(lying) >= 2:
            stale += collected if len(collected) >= 2 else []
            stale += lying if len(lying) >= 2 else []
    return sorted(fresh), sorted(stale)


def tops_at(piles: list[dict[str, Any]], t_ns: int) -> list[tuple[int, int]]:
    """Every non-empty top at ``t_ns`` as ``(seat, entry time)``: what a won slap collects."""
    out = []
    for seat, pile in enumerate(piles):
        entry = top_at(pile, t_ns)
        if entry is not None and entry[1] is not None:
            out.append((seat, entry[0]))
    return out


def valid_signature(sig: Any) -> bool:
    return (
        isinstance(sig, list)
        and 0 < len(sig) <= MAX_SIGNATURE
        and all(
            isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
            for x in sig
        )
    )


def _cosine(a: list[float], b: list[float]) -> float:
    if len(a) != len(b):
        return -1.0
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    na = math.sqrt(sum(x * x for x in a))
    nb = math.sqrt(sum(y * y for y in b))
    if na == 0 or nb == 0 or not math.isfinite(na * nb):
        return -1.0
    return dot / (na * nb)


def identity_for(
    arts: list[dict[str, Any]], label: str | None, signature: list[float] | None, same: float
) -> tuple[str | None, list[dict[str, Any]]]:
    """The identity of a sighting and the (possibly extended) list of known pictures.

    A label wins (a taught deck); with a signature too, the picture is remembered under the
    label, so later unlabelled sightings of the same art get the same name. A signature alone
    joins the most similar known picture when the cosine similarity reaches ``same``, else it
    starts a new one, ``#1``, ``#2`` ... Deterministic, so a replay clusters the same way.

    A label whose picture this game already knows, with a signature that does not look like
    it (under ``same``), is not believed: the sighting is known by its signature alone. A
    deck taught in part names a picture it was never taught as the taught one it looks most
    like, and two piles would then show a pair that is none.
    """
    if signature is None:
        return label, arts
    best, best_sim = None, same
    for art in arts:
        sim = _cosine(signature, art["v"])
        if sim >= best_sim:
            best, best_sim = art, sim
    if label is not None:
        own = next((a for a in arts if a["id"] == label), None)
        if own is None:
            if len(arts) < MAX_ARTS:
                arts = [*arts, {"id": label, "v": list(signature)}]
            return label, arts
        if _cosine(signature, own["v"]) >= same:
            return label, arts
    if best is not None:
        return best["id"], arts
    if len(arts) >= MAX_ARTS:
        return None, arts
    n = 1 + sum(1 for a in arts if str(a["id"]).startswith("#"))
    ident = f"#{n}"
    return ident, [*arts, {"id": ident, "v": list(signature)}]
