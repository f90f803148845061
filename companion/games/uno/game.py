"""UNO (rules/uno.md, 112 cards): a referee for a physical game that watches the discard pile,
and the score keeper of a match to 500. See docs/games/uno.md for the rules decisions."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from companion.games.base import (
    N_,
    Accepted,
    Action,
    ActionSpec,
    Context,
    Option,
    Rejection,
    Result,
    State,
    action_type,
)
from companion.games.uno import camera, views
from companion.games.uno.actions import ACTIONS
from companion.games.uno.deck import deck_size
from companion.games.uno.moves import Move, new_round
from companion.games.uno.options import MAX_CUSTOM_RULE, OPTIONS
from companion.games.uno.scoring import export, totals, winners

# action type -> Move method
HANDLERS = {
    "cut": "cut", "set_dealer": "set_dealer", "turn_up": "turn_up", "play": "play",
    "choose": "choose", "draw": "draw", "pass": "pass_", "uno": "uno", "catch": "catch",
    "challenge": "challenge", "show_hand": "show_hand", "verdict": "verdict",
    "propose": "propose", "confirm": "confirm", "dismiss": "dismiss",
    "count_card": "count_card", "uncount_card": "uncount_card",
    "count_points": "count_points", "end_round": "end_round",
    "next_round": "next_round", "edit_round": "edit_round", "adjust_count": "adjust_count",
    "end_match": "end_match", "set_totals": "set_totals",
}
HOST_ONLY = frozenset(a.type for a in ACTIONS if a.host_only)
AFTER_THE_END = frozenset({"edit_round"})


class Uno:
    id: ClassVar[str] = "uno"
    # What the camera watches: the recogniser's deck, the discard pile in the middle and,
    # nearer the edge, where a hand is laid out card by card to be counted at the round's end.
    camera_deck: ClassVar[str] = "uno"
    # Refusals the whole table hears (the buzzer): a card put on the pile that may not go there.
    buzz_codes: ClassVar[frozenset[str]] = frozenset({"illegal_card"})
    camera_zones: ClassVar[tuple[tuple[str, tuple[float, float, float, float]], ...]] = (
        ("discard", (0.3, 0.15, 0.7, 0.6)),
        ("hand", (0.05, 0.66, 0.95, 0.98)),
    )
    name: ClassVar[str] = N_("UNO")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 10
    options: ClassVar[tuple[Option, ...]] = OPTIONS
    actions: ClassVar[tuple[ActionSpec, ...]] = ACTIONS

    def setup(self, players: list[str], options: dict[str, Any], rng: random.Random) -> State:
        opts = {o.name: o.default for o in OPTIONS} | dict(options)
        opts["custom_rule"] = str(opts["custom_rule"] or "")[:MAX_CUSTOM_RULE]
        n = len(players)
        state: State = {
            "players": list(players),
            "options": opts,
            "deck_size": deck_size(opts["custom_wilds"]),
            "phase": "cut",
            "dealer": None,
            "cut": {"contenders": list(range(n)), "cards": [None] * n},
            "round": None,
            "rounds": [],
            "carried": [0] * n,  # the totals the match started at (set_totals)
            "ended": False,
            "ended_by_host": False,
        }
        if opts["first_dealer"] == "first_seat":
            new_round(state, 0)
        return state

    def apply(self, state: State, action: Action, ctx: Context) -> Result:
        kind = action_type(state, action, ctx, HANDLERS, HOST_ONLY, AFTER_THE_END)
        if isinstance(kind, Rejection):
            return kind
        move = Move(state, ctx)
        refused = getattr(move, HANDLERS[kind])(action)
        if refused is not None:
            return refused
        return Accepted(move.st, move.events)

    # -- views ---------------------------------------------------------------------------
    def public_view(self, state: State) -> dict[str, Any]:
        return views.public_view(state)

    def player_view(self, state: State, seat: int) -> dict[str, Any]:
        return views.player_view(state, seat)

    def history_view(self, state: State, entry: dict[str, Any], seat: int | None
                     ) -> dict[str, Any] | None:
        return views.history_view(state, entry, seat)

    def on_card_seen(self, state: State, zone: str, label: str | None, confidence: float,
                     again: bool = False, best: str | None = None) -> Action | None:
        return camera.on_card_seen(state, zone, label, confidence, again, best)

    def outcome(self, state: State) -> dict[str, Any] | None:
        if not state["ended"]:
            return None
        return {"winners": winners(state), "scores": totals(state)}

    def export(self, state: State) -> dict[str, Any]:
        """Rows for the CSV export and the rounds (with hands) for the JSON one."""
        return export(state)
