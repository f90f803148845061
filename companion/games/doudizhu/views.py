"""What the table, each phone and the history may show.

Everything played is public (it lies face up in the middle), and so are the counts of cards
each player holds, the auction and the kitty once shown. Private: a hand tapped in for the
hint (its owner's phone only) and, when the app deals, each dealt hand (and a kitty not
revealed, which only the landlord's hand shows).
"""

from __future__ import annotations

from typing import Any

from companion.games.base import State
from companion.games.doudizhu.cards import RANKS, counts_of, names, rank_of
from companion.games.doudizhu.combos import KINDS, Combo, plays, rules_of

HINT_MAX = 120  # plays listed on a phone: a 20-card hand leading can make hundreds
PUBLIC = ("number", "phase", "first", "face_up", "turn", "bids", "high", "high_seat", "out",
          "landlord", "bid", "doubles", "redouble", "kitty", "kitty_size", "counts", "adjusted",
          "current", "last", "passes", "trick", "plays", "played", "bombs", "rockets",
          "proposal", "winner", "result")


def public_view(state: State) -> dict[str, Any]:
    h = state["hand"]
    hand = {k: h[k] for k in PUBLIC}
    hand["stake"] = None if h["bid"] is None else h["bid"] * 2 ** (h["bombs"] + h["rockets"])
    return {
        "players": state["players"],
        "options": state["options"],
        "four_players": len(state["players"]) == 4,
        "hand": hand,
        "totals": state["totals"],
        "results": state["results"],
        "ended": state["ended"],
    }


def own_hand(state: State, seat: int) -> list[str] | None:
    """The hand the referee knows for a seat: dealt by the app, or tapped in by its player."""
    h = state["hand"]
    if h["dealt"] is not None:
        return list(h["dealt"][seat])
    return None if h["entered"][seat] is None else list(h["entered"][seat])


def hint(state: State, hand: list[str]) -> list[dict[str, Any]]:
    """The plays of ``hand`` that may follow the last play (every play when leading), the
    weakest first within each kind."""
    h = state["hand"]
    last = h["last"]
    combo = None if last is None else Combo(last["kind"], last["key"], last["length"],
                                            last["size"])
    counts = counts_of([r for r in (rank_of(c) for c in hand) if r is not None])
    found = plays(counts, rules_of(state), combo)
    found.sort(key=lambda p: (KINDS[p[0].kind] in (11, 12), p[0].size, p[0].key))
    return [{"cards": names(v), "kind": c.kind} for c, v in found[:HINT_MAX]]


def player_view(state: State, seat: int) -> dict[str, Any]:
    view = public_view(state)
    h = state["hand"]
    hand = own_hand(state, seat)
    me: dict[str, Any] = {"seat": seat, "hand": hand, "hint": None,
                          "my_turn": seat in (h["current"], h["turn"])}
    if hand is not None and h["phase"] == "play":
        me["hint"] = hint(state, hand)
    if h["dealt"] is not None and not state["options"]["reveal_kitty"] and \
            h["landlord"] == seat and h["kitty_cards"] is not None:
        me["kitty"] = [RANKS[rank_of(c)] for c in h["kitty_cards"]]  # type: ignore[index]
    view["me"] = me
    return view


def history_view(state: State, entry: dict[str, Any], seat: int | None
                 ) -> dict[str, Any] | None:
    """A hand tapped in is its owner's: the others see that it was entered, not the cards."""
    body = entry.get("body")
    if entry.get("kind") != "action" or not isinstance(body, dict):
        return entry
    if body.get("type") != "set_hand":
        return entry
    owner = body.get("seat", (entry.get("actor") or {}).get("seat"))
    if seat is not None and owner == seat:
        return entry
    return {**entry, "body": {k: v for k, v in body.items() if k != "cards"}}
