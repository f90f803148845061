"""Kingsburg (rules/kingsburg.md): the companion keeps the whole state of the board game:
five years of eight phases, turn order, advisors, buildings, soldiers, battles and points.
Decisions where the sheet is silent: docs/games/kingsburg.md."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from companion.games.base import (
    HOST,
    N_,
    Accepted,
    Action,
    ActionSpec,
    Context,
    Option,
    Rejection,
    Result,
    State,
    reject,
)
from companion.games.kingsburg import (
    battle,
    camera,
    choices,
    flow,
    position,
    recruit,
    season,
    views,
)
from companion.games.kingsburg.actions import ACTIONS
from companion.games.kingsburg.core import Move, new_player
from companion.games.kingsburg.data import ENEMIES
from companion.games.kingsburg.options import OPTIONS
from companion.games.kingsburg.scoring import export, finish_game, ranking, winners

HANDLERS = {
    "roll": season.roll, "roll_neutral": season.roll_neutral, "reroll": season.reroll,
    "keep": season.keep, "propose_roll": camera.propose, "influence": season.influence,
    "pass": season.pass_, "choose": choices.choose, "build": season.build,
    "done": season.done, "recruit": recruit.recruit, "reinforce": battle.reinforce,
    "reveal_enemy": battle.reveal, "position": position.position,
    "correct": position.correct,
}
HOST_ONLY = frozenset(a.type for a in ACTIONS if a.host_only)
# what may be answered while a choice is pending (the rest waits for it)
WHILE_PENDING = frozenset({"choose", "position", "correct", "end_game"})
AFTER_THE_END = frozenset({"position", "correct"})
SIMULTANEOUS = frozenset({"roll", "build", "recruit", "battle"})


class Kingsburg:
    id: ClassVar[str] = "kingsburg"
    name: ClassVar[str] = N_("Kingsburg")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    options: ClassVar[tuple[Option, ...]] = OPTIONS
    actions: ClassVar[tuple[ActionSpec, ...]] = ACTIONS
    # Dice from the camera (vision.dice): every die in the roll zone counts, as a set
    camera_deck: ClassVar[str] = "dice"
    camera_zones: ClassVar[tuple[tuple[str, tuple[float, float, float, float]], ...]] = (
        (camera.ZONE, (0.05, 0.05, 0.95, 0.95)),
    )
    camera_sets: ClassVar[tuple[str, ...]] = (camera.ZONE,)

    def setup(self, players: list[str], options: dict[str, Any], rng: random.Random) -> State:
        opts = {o.name: o.default for o in OPTIONS} | dict(options)
        order = list(range(len(players)))
        if opts["initial_order"] == "random":
            rng.shuffle(order)
        enemies = None
        if opts["enemy_cards"] == "app":  # setup 5: one card of each year, unseen
            enemies = [dict(rng.choice([e for e in ENEMIES if e["year"] == y]))
                       for y in range(1, 6)]
        state: State = {
            "players": list(players), "options": opts,
            "year": 1, "phase": 1, "step": "start", "order": order,
            "p": [new_player() for _ in players],
            "envoy": {"seat": None}, "aid_die": None, "season": None, "pending": [],
            "recruited": None, "battle": None, "enemies": enemies, "peeks": {},
            "proposals": {}, "history": [], "ended": False, "ended_by_host": False,
        }
        m = Move(state, Context(actor=HOST, rng=rng))
        flow.advance(m)
        return m.st

    def apply(self, state: State, action: Action, ctx: Context) -> Result:
        if not isinstance(action, dict):
            return reject("bad_action", N_("An action needs a type."))
        kind = action.get("type")
        if not isinstance(kind, str) or kind not in (*HANDLERS, "confirm_roll", "end_game"):
            return reject("unknown_action", N_("Unknown action: {action}."),
                          action=str(kind)[:40])
        if kind in HOST_ONLY and not ctx.actor.host:
            return reject("host_only", N_("Only the host can do that."))
        if state["ended"] and kind not in AFTER_THE_END:
            return reject("game_over", N_("The game is over."))
        if state["pending"] and kind not in WHILE_PENDING:
            c = state["pending"][0]
            return reject("choice_pending", N_("Waiting for {name} to choose."),
                          name=state["players"][c["seat"]])
        m = Move(state, ctx)
        flow.move_on(m, kind)
        if m.st["pending"] and kind not in WHILE_PENDING:
            c = m.st["pending"][0]
            return reject("choice_pending", N_("Waiting for {name} to choose."),
                          name=m.st["players"][c["seat"]])
        if kind == "end_game":
            m.st["pending"] = []
            finish_game(m)
            m.st["ended_by_host"] = True
            return Accepted(m.st, m.events)
        if kind == "confirm_roll":
            roll = camera.confirm(m, action)
            if isinstance(roll, Rejection):
                return roll
            refused = season.roll(m, roll)
        else:
            refused = HANDLERS[kind](m, action)
        if refused is not None:
            return refused
        flow.advance(m)
        return Accepted(m.st, m.events)

    # -- views ---------------------------------------------------------------------------
    def public_view(self, state: State) -> dict[str, Any]:
        return views.public_view(state)

    def player_view(self, state: State, seat: int) -> dict[str, Any]:
        return views.player_view(state, seat)

    def moderator_view(self, state: State) -> dict[str, Any]:
        return views.moderator_view(state)

    def moment(self, state: State) -> Any:
        """Rolls, buildings, recruits, the winter's die and the choices of the King's aid or
        of a battle come from several phones at once: a move sent with an older version is
        still heard in the same step. (The help's choices come one at a time, in advisor
        order: none there.)"""
        if state["ended"] or (state["step"] not in SIMULTANEOUS and not (
                state["pending"] and state["step"] != "help")):
            return None
        return (state["year"], state["phase"], state["step"], bool(state["pending"]))

    def on_card_seen(self, state: State, zone: str, label: str | None, confidence: float,
                     cards: list[tuple[str | None, float]] | None = None
                     ) -> list[Action] | None:
        return camera.on_card_seen(state, zone, label, confidence, cards)

    def on_dice_seen(self, state: State, reading: dict[str, list[int]],
                     confidence: float = 1.0) -> Action | None:
        return camera.on_dice_seen(state, reading, confidence)

    def outcome(self, state: State) -> dict[str, Any] | None:
        if not state["ended"]:
            return None
        return {"winners": winners(state), "ranking": ranking(state),
                "scores": [p["vp"] for p in state["p"]]}

    def export(self, state: State) -> dict[str, Any]:
        return export(state)
