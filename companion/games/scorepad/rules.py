"""Score pad rules: rounds of per-player scores, a target or a fixed number of rounds.

Any number of players; scores may be negative; the highest or the lowest total wins. A round
is added by any seated player (one phone usually keeps the pad, as one person keeps the paper
sheet at a real table); editing a past round and ending early are the host's.
"""

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
    Result,
    State,
    reject,
)

MAX_ABS_SCORE = 1_000_000


class ScorePad:
    id: ClassVar[str] = "scorepad"
    name: ClassVar[str] = N_("Score pad")
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 20
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "target",
            None,
            N_("End when a total reaches this score (none: no target)."),
            kind=int,
            minimum=1,
            maximum=MAX_ABS_SCORE,
        ),
        Option(
            "rounds",
            None,
            N_("End after this many rounds (none: no limit)."),
            kind=int,
            minimum=1,
            maximum=1000,
        ),
        Option(
            "winner",
            "highest",
            N_("Who wins: the highest or the lowest total."),
            choices=("highest", "lowest"),
            labels=(N_("The highest total"), N_("The lowest total")),
        ),
    )
    actions: ClassVar[tuple[ActionSpec, ...]] = (
        ActionSpec(
            "add_round",
            N_("Add a round: one score per seat, in seat order."),
            {"type": "add_round", "scores": [12, -3, 0]},
            {"scores": "list of integers, one per seat"},
        ),
        ActionSpec(
            "edit_round",
            N_("Correct a past round (host)."),
            {"type": "edit_round", "round": 0, "scores": [10, -3, 0]},
            {"round": "round index from 0", "scores": "list of integers"},
            host_only=True,
        ),
        ActionSpec(
            "end_game", N_("End the game now (host)."), {"type": "end_game"}, host_only=True
        ),
    )

    def setup(self, players: list[str], options: dict[str, Any], rng: random.Random) -> State:
        return {
            "players": list(players),
            "options": dict(options),
            "rounds": [],
            "ended": False,
            "ended_by_host": False,
        }

    # -- moves -------------------------------------------------------------------------
    def apply(self, state: State, action: Action, ctx: Context) -> Result:
        kind = action.get("type")
        if kind == "add_round":
            return self._add_round(state, action, ctx)
        if kind == "edit_round":
            return self._edit_round(state, action, ctx)
        if kind == "end_game":
            if not ctx.actor.host:
                return reject("host_only", N_("Only the host can do that."))
            if state["ended"]:
                return reject("game_over", N_("The game is over."))
            return Accepted(
                {**state, "ended": True, "ended_by_host": True}, [{"type": "game_over"}]
            )
        return reject("unknown_action", N_("Unknown action: {action}."), action=str(kind)[:40])

    def _scores(self, state: State, action: Action) -> list[int] | Any:
        scores = action.get("scores")
        n = len(state["players"])
        if not isinstance(scores, list) or len(scores) != n:
            return reject(
                "bad_scores", N_("Give exactly one score for each of the {n} players."), n=n
            )
        for s in scores:
            if isinstance(s, bool) or not isinstance(s, int):
                return reject("bad_scores", N_("Scores must be whole numbers."))
            if abs(s) > MAX_ABS_SCORE:
                return reject(
                    "bad_scores",
                    N_("A score must be between -{limit} and {limit}."),
                    limit=MAX_ABS_SCORE,
                )
        return list(scores)

    def _add_round(self, state: State, action: Action, ctx: Context) -> Result:
        if ctx.actor.seat is None and not ctx.actor.host:
            return reject("not_seated", N_("Join the table as a player to enter scores."))
        if state["ended"]:
            return reject("game_over", N_("The game is over."))
        scores = self._scores(state, action)
        if not isinstance(scores, list):
            return scores
        new = {**state, "rounds": [*state["rounds"], scores]}
        events: list[dict[str, Any]] = [{"type": "round_added", "round": len(state["rounds"])}]
        if finished(new):
            new["ended"] = True
            events.append({"type": "game_over"})
        return Accepted(new, events)

    def _edit_round(self, state: State, action: Action, ctx: Context) -> Result:
        if not ctx.actor.host:
            return reject("host_only", N_("Only the host can do that."))
        index = action.get("round")
        if (
            isinstance(index, bool)
            or not isinstance(index, int)
            or not (0 <= index < len(state["rounds"]))
        ):
            # (numbered as the phones number the rounds, from 1: "There is no round 2." came
            # back for the host's "Correct round 3" after an undo had taken round 3 away)
            shown = index + 1 if isinstance(index, int) and not isinstance(index, bool) else index
            return reject("bad_round", N_("There is no round {round}."), round=str(shown)[:20])
        scores = self._scores(state, action)
        if not isinstance(scores, list):
            return scores
        rounds = list(state["rounds"])
        rounds[index] = scores
        new = {**state, "rounds": rounds}
        events: list[dict[str, Any]] = [{"type": "round_edited", "round": index}]
        # An edit can make the game end (or no longer end) by the target: recompute.
        done = finished(new)
        if done != state["ended"] and not state["ended_by_host"]:
            new["ended"] = done
            events.append({"type": "game_over" if done else "game_resumed"})
        return Accepted(new, events)

    # -- views -------------------------------------------------------------------------
    def public_view(self, state: State) -> dict[str, Any]:
        totals = running_totals(state)
        return {
            "players": state["players"],
            "rounds": state["rounds"],
            "totals": totals[-1] if totals else [0] * len(state["players"]),
            "history": totals,
            "ended": state["ended"],
            "options": state["options"],
        }

    def player_view(self, state: State, seat: int) -> dict[str, Any]:
        return self.public_view(state)  # a score pad has no secrets

    def export(self, state: State) -> dict[str, Any]:
        """The score sheet for the CSV/JSON export: a row a round, scores then totals.

        ``columns`` are the headings in English (the JSON's); ``header`` the same for the CSV
        in the reader's language: a player's name as it is, or ``[template, params]`` (an
        ``N_`` template the web layer translates, then fills)."""
        players = state["players"]
        rows = [[i + 1, *scores, *totals] for i, (scores, totals) in enumerate(
            zip(state["rounds"], running_totals(state), strict=True))]
        header: list[Any] = [[N_("round"), {}], *players,
                             *[[N_("total {name}"), {"name": p}] for p in players]]
        return {"columns": ["round", *players, *[f"total {p}" for p in players]],
                "header": header, "rows": rows}

    def outcome(self, state: State) -> dict[str, Any] | None:
        if not state["ended"]:
            return None
        totals = running_totals(state)
        if not totals:  # ended by the host before any round: nobody won (all had tied at 0)
            return {"winners": [], "scores": [0] * len(state["players"])}
        final = totals[-1]
        lowest = state["options"].get("winner") == "lowest"
        best = min(final) if lowest else max(final)
        return {"winners": [i for i, t in enumerate(final) if t == best], "scores": final}


def finished(state: State) -> bool:
    """The end condition: the round limit is played, or some total reached the target.

    With a target the game ends when any total reaches it, whoever wins: "first to 500"
    games crown the highest, "bust at 100" games (Hearts, UNO's own-hand scoring) the lowest.
    """
    if not state["rounds"]:
        return False
    opts = state["options"]
    if opts.get("rounds") is not None and len(state["rounds"]) >= opts["rounds"]:
        return True
    target = opts.get("target")
    return target is not None and max(running_totals(state)[-1]) >= target


def running_totals(state: State) -> list[list[int]]:
    """Totals after each round: the data behind the chart and the CSV export."""
    out: list[list[int]] = []
    current = [0] * len(state["players"])
    for scores in state["rounds"]:
        current = [a + b for a, b in zip(current, scores, strict=True)]
        out.append(current)
    return out
