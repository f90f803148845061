"""What a stable card seen by the camera means for Huang Di (``GAME.on_card_seen``).

Zones (set from the camera page; these are only where they start): ``wall-1`` .. ``wall-3``
in the middle, and for each seat ``stock-<seat>``, ``discard-<seat>-1`` and
``discard-<seat>-2`` (seats counted from 0, piles and walls from 1, as the phones name them).

* A card landing on a wall is judged at once: a ``play`` of the player to move. Where it came
  from is told by the pile that changed: a pile whose top the camera saw taken just before
  (a ``lifted`` note), else the only place that could hold that card (the hand when no pile
  top shows it); when several could, ``from`` is null and the player's phone asks
  (``source``). A number that is the wall's Invert partner (8 going up: a 7) is a play with an
  Invert laid beside it, its pile told the same way (else ``"unknown"``: asked too).
* A stock zone: the first card seen on a stock whose top is not known is its ``reveal_stock``;
  another card than the known top, or none the camera can name (a face-down card, a cleared
  zone), means the top was taken: it answers a card waiting for its source (``source``
  with the new top as ``next``), or it is noted (``lifted``) for the card about to land.
* A discard zone of the player to move: the card under the top (or nothing, for a pile of one)
  means the top was taken, as for a stock; any other new card is the turn's ``discard``.
  An opponent's zone showing the card under its top: taken (a ``lifted`` note, or a source).
* A pile showing its known top again after it was seen taken: put back (the note goes).
* A card seen ``again`` on a wall (the watcher saw its twin come to rest there: a joker on a
  joker) is a play the player confirms; ``again`` on a pile is ignored (tapped instead).
* An unsure reading (under ``camera_confirm_below``, or the camera's best guess of a card it
  could not name) on a wall that it would fit is a play whose source is asked, so that the
  player confirms it or dismisses it; one that would not fit is ignored, never announced as
  a wrong play. Unsure readings elsewhere are ignored (tap instead).
"""

from __future__ import annotations

from typing import Any

CARDS = (*(str(n) for n in range(1, 11)), "joker", "invert")
MAX_ZONES = 16  # (vision.zones.MAX_ZONES: what one printed marker page holds)


def zones(players: list[str]) -> list[tuple[str, tuple[float, ...]]]:
    """The three walls across the middle, and each seat's stock and two discard piles in a
    row along the bottom; past 16 zones (five players or more) the last seats' piles are
    left out: they are tapped."""
    out: list[tuple[str, tuple[float, ...]]] = [
        (f"wall-{i + 1}", (round(0.2 + 0.2 * i, 3), 0.2, round(0.38 + 0.2 * i, 3), 0.5))
        for i in range(3)]
    n = max(1, len(players))
    w = 1.0 / n
    for seat in range(n):
        x0 = seat * w
        third = w / 3
        for k, name in enumerate((f"stock-{seat}", f"discard-{seat}-1", f"discard-{seat}-2")):
            out.append((name, (round(x0 + k * third + 0.005, 3), 0.6,
                               round(x0 + (k + 1) * third - 0.005, 3), 0.95)))
    return out[:MAX_ZONES]


def parse(zone: Any, n: int) -> tuple[str, int, int] | None:
    """("wall", -1, wall) / ("stock", seat, -1) / ("discard", seat, pile), counted from 0."""
    if not isinstance(zone, str):
        return None
    parts = zone.split("-")
    if len(parts) == 2 and parts[0] == "wall" and parts[1] in ("1", "2", "3"):
        return "wall", -1, int(parts[1]) - 1
    if len(parts) == 2 and parts[0] == "stock" and parts[1].isdigit() and int(parts[1]) < n:
        return "stock", int(parts[1]), -1
    if (len(parts) == 3 and parts[0] == "discard" and parts[1].isdigit()
            and int(parts[1]) < n and parts[2] in ("1", "2")):
        return "discard", int(parts[1]), int(parts[2]) - 1
    return None


def zone_seat(zone: Any, n: int) -> int | None:
    """The seat whose pile a zone watches (the camera page names it after the player)."""
    where = parse(zone, n)
    return None if where is None or where[0] == "wall" else where[1]


def _direction(wall: dict[str, Any]) -> str:
    return "up" if wall["inverts"] % 2 == 0 else "down"


def _tops(state: dict[str, Any], seat: int) -> list[tuple[dict[str, Any], str]]:
    """The face-up tops the player to move may build from: ({"from", "owner"}, card)."""
    out = []
    stock = state["stocks"][seat]
    if stock["count"] and stock["top"] is not None:
        out.append(({"from": "stock", "owner": seat}, stock["top"]))
    access = state["options"]["discard_access"]
    for owner, piles in enumerate(state["discards"]):
        if owner != seat and (access == "own_only" or (
                access == "own_plus_one" and owner in state["turn"]["taken_from"])):
            continue
        for p, pile in enumerate(piles):
            if pile:
                out.append(({"from": f"discard{p}", "owner": owner}, pile[-1]))
    return out


def _where(state: dict[str, Any], seat: int, card: str, hand_needed: int = 1
           ) -> tuple[dict[str, Any] | None, str | None]:
    """The one place ``card`` came from, and the stock's new top if the camera saw it; None
    when it cannot tell."""
    for note in state["lifted"]:
        if note["card"] == card:
            return {"from": note["from"], "owner": note["owner"]}, note["next"]
    places = [src for src, top in _tops(state, seat) if top == card]
    if state["hands"][seat] >= hand_needed:
        places.append({"from": "hand", "owner": seat})
    return (places[0], None) if len(places) == 1 else (None, None)


def _wall_play(state: dict[str, Any], wall_no: int, label: str, sure: bool
               ) -> dict[str, Any] | None:
    seat = state["current"]
    wall = state["walls"][wall_no]
    if wall is None:
        need, partner = 1, None
    else:
        up = _direction(wall) == "up"
        need = wall["top"] + (1 if up else -1)
        partner = wall["top"] + (-1 if up else 1)
        partner = partner if 1 <= partner <= 10 else None
    value = None if label == "joker" else int(label)
    inverting = value is not None and value != need and value == partner
    if not sure and value is not None and value != need and not inverting:
        return None  # a misreading is never announced as a wrong play
    action: dict[str, Any] = {"type": "play", "card": label, "wall": wall_no, "seat": seat}
    if inverting:
        inv, inv_nxt = _where(state, seat, "invert")
        src, nxt = _where(state, seat, label, 2 if inv and inv["from"] == "hand" else 1)
        nxt = nxt if nxt is not None else inv_nxt  # (an Invert off the stock uncovered it)
        action["invert"] = inv["from"] if inv else "unknown"
        if inv and inv["from"].startswith("discard"):
            action["invert_owner"] = inv["owner"]
    else:
        src, nxt = _where(state, seat, label)
    if not sure:
        src, nxt = None, None  # (asked, so that the player confirms the card)
    action["from"] = src["from"] if src else None
    if src and src["from"].startswith("discard"):
        action["owner"] = src["owner"]
    if nxt is not None:
        action["next"] = nxt
    return action


def _pile_taken(state: dict[str, Any], source: dict[str, Any], top: str,
                nxt: str | None) -> dict[str, Any]:
    """A pile's top seen taken: the source of the card waiting for one, else a note."""
    seat = state["current"]
    pending = state["pending"]
    if pending is not None and pending["seat"] == seat:
        if pending["from"] is None and pending["card"] == top:
            action = {"type": "source", "seat": seat, **source}
        elif pending["invert"] and pending["invert_from"] is None and top == "invert":
            action = {"type": "source", "seat": seat, "invert": source["from"],
                      "invert_owner": source["owner"]}
        else:
            action = {"type": "lifted", "seat": seat, **source}
    else:
        action = {"type": "lifted", "seat": seat, **source}
    if nxt is not None and source["from"] == "stock":
        action["next"] = nxt
    return action


def _put_back(state: dict[str, Any], src: str, owner: int) -> dict[str, Any] | None:
    """A pile showing its top again, after the camera saw it taken: it was put back."""
    if any((n["from"], n["owner"]) == (src, owner) for n in state["lifted"]):
        return {"type": "lifted", "seat": state["current"], "from": src, "owner": owner,
                "back": True}
    return None


def on_card_seen(state: dict[str, Any], zone: Any, label: Any, confidence: Any,
                 best: Any = None, again: Any = False) -> dict[str, Any] | None:
    if state["ended"]:
        return None
    n = len(state["players"])
    where = parse(zone, n)
    if where is None:
        return None
    kind, seat, k = where
    if kind == "wall" and label is None and best in CARDS:
        label, confidence = best, 0.0  # (a card the camera could not name: only asked)
    if label is not None and label not in CARDS:
        return None
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)):
        return None
    # (on a pile, no name is news too: a face-down card, or none, where the top lay)
    sure = label is not None and confidence >= state["options"]["camera_confirm_below"]
    cur = state["current"]
    if kind == "wall":
        if label is None or label == "invert":
            return None  # (an Invert lies beside the wall: its partner tells it)
        # (while a card waits for its source, the next one is refused as such and every
        # phone says why: answer, then lay it again or tap it; dropped, it was lost unsaid)
        wall = state["walls"][k]
        if wall is not None and wall["cards"] and wall["cards"][-1] == label:
            if again is not True:
                return None  # the same top seen again
            sure = False  # a twin laid on it (a joker on a joker): the player confirms it
        return _wall_play(state, k, label, sure)
    if again is True:
        return None  # (a pile's twin, or the pile pushed: tapped)
    if kind == "stock":
        stock = state["stocks"][seat]
        if stock["count"] == 0:
            return None
        if stock["top"] is None:
            if not sure or label is None:
                return None
            if state["options"]["reveal_stock"] == "first_turn" and seat not in state["started"]:
                return None
            return {"type": "reveal_stock", "seat": seat, "card": label}
        if label == stock["top"]:
            return _put_back(state, "stock", seat)
        if seat != cur or (label is not None and not sure):
            return None
        return _pile_taken(state, {"from": "stock", "owner": seat}, stock["top"], label)
    pile = state["discards"][seat][k]
    top = pile[-1] if pile else None
    under = pile[-2] if len(pile) >= 2 else None
    if label is not None and not sure:
        return None
    if label == top:
        return _put_back(state, f"discard{k}", seat) if top is not None else None
    source = {"from": f"discard{k}", "owner": seat}
    if top is not None and label == under:
        return _pile_taken(state, source, top, None)
    if seat == cur and label is not None and state["pending"] is None:
        return {"type": "discard", "seat": seat, "card": label, "pile": k}
    return None
