"""Quiz buzzers: the slap buttons as a lockout.

The host reads a question; the first press (by edge time) takes the floor and locks out
the others; the host marks the answer right or wrong. A wrong answer reopens the question
for everyone who has not answered it yet. Scores per player; the full press order of each
question is kept with the gaps between presses. Presses closer than the tie window are a
tie, settled by the tie rule (default: the host picks who answers).
"""

from __future__ import annotations

import json
import random
from typing import Any, ClassVar

from companion import slap
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

MAX_PRESSES = 64
HISTORY_KEPT = 50
MAX_POINTS = 1000


def _clone(state: State) -> State:
    return json.loads(json.dumps(state))


def _int(value: Any, low: int, high: int) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        return None
    return value


class Quiz:
    id: ClassVar[str] = "quiz"
    name: ClassVar[str] = N_("Quiz buzzers")
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 16
    options: ClassVar[tuple[Option, ...]] = (
        slap.TIE_WINDOW_OPTION,
        Option(
            "tie_rule",
            "simultaneous",
            N_(
                "How a tie is settled: the host picks who answers, everyone buzzes again, a "
                "random draw, or the strict order of the presses."
            ),
            choices=slap.TIE_RULES,
            labels=(N_("Together: the host picks who answers"), N_("Buzz again"),
                    N_("Drawn at random"), N_("Strict order of the presses")),
        ),
        Option(
            "points_right",
            1,
            N_("Points for a right answer."),
            kind=int,
            minimum=-MAX_POINTS,
            maximum=MAX_POINTS,
        ),
        Option(
            "points_wrong",
            0,
            N_("Points for a wrong answer (negative to take points away)."),
            kind=int,
            minimum=-MAX_POINTS,
            maximum=MAX_POINTS,
        ),
    )
    actions: ClassVar[tuple[ActionSpec, ...]] = (
        ActionSpec(
            "buzz",
            N_("Buzzer presses: the buttons' (with edge times) or one phone's."),
            {"type": "buzz", "presses": [{"seat": 0, "t_ns": 7_000_000_000}]},
            {
                "presses": "list of {seat, t_ns}",
                "seat": "instead of presses: one seat (a phone's button)",
            },
        ),
        ActionSpec(
            "mark",
            N_("Mark the answer of the player who has the floor (host)."),
            {"type": "mark", "right": True},
            {"right": "true or false"},
            host_only=True,
        ),
        ActionSpec(
            "pick",
            N_("Settle a tie, or give the floor to any player (host)."),
            {"type": "pick", "seat": 2},
            {"seat": "the player who answers"},
            host_only=True,
        ),
        ActionSpec(
            "next",
            N_("Open the next question (host)."),
            {"type": "next"},
            host_only=True,
        ),
        ActionSpec(
            "adjust",
            N_("Add (or take away) points (host)."),
            {"type": "adjust", "seat": 1, "points": -1},
            {"seat": "seat", "points": "whole number"},
            host_only=True,
        ),
        ActionSpec("end_game", N_("End the quiz (host)."), {"type": "end_game"}, host_only=True),
    )

    def setup(self, players: list[str], options: dict[str, Any], rng: random.Random) -> State:
        opts = {o.name: o.default for o in self.options}
        opts.update(options or {})
        return {
            "players": list(players),
            "options": opts,
            "scores": [0] * len(players),
            "question": 1,
            "phase": "open",  # open | locked | tie | closed
            "floor": None,
            "tied": [],
            "answered": [],
            "presses": [],
            "history": [],
            "ended": False,
        }

    def on_presses(self, state: State, presses: list[dict[str, Any]]) -> Action | None:
        return None if state.get("ended") else slap.race_action("buzz", presses)

    def on_button(self, state: State, seat: int, t_ns: int) -> Action | None:
        return self.on_presses(state, [{"seat": seat, "t_ns": t_ns}])

    def apply(self, state: State, action: Action, ctx: Context) -> Result:
        if not isinstance(action, dict):
            return reject("bad_action", N_("An action needs a type."))
        kind = action.get("type")
        handler = {
            "buzz": self._buzz,
            "mark": self._mark,
            "pick": self._pick,
            "next": self._next,
            "adjust": self._adjust,
            "end_game": self._end,
        }.get(kind if isinstance(kind, str) else "")
        if handler is None:
            return reject("unknown_action", N_("Unknown action: {action}."), action=str(kind)[:40])
        if kind != "buzz" and not ctx.actor.host:
            return reject("host_only", N_("Only the host can do that."))
        if state["ended"] and kind != "adjust":
            return reject("game_over", N_("The game is over."))
        return handler(state, action, ctx)

    def _buzz(self, state: State, action: Action, ctx: Context) -> Result:
        n = len(state["players"])
        actor = ctx.actor
        if "presses" in action:
            raw = action["presses"]
            if not isinstance(raw, list) or not 0 < len(raw) <= MAX_PRESSES:
                return reject(
                    "bad_presses", N_("Presses are a list of 1 to {n} presses."), n=MAX_PRESSES
                )
            if not all(slap.valid_press(p) and p["seat"] < n for p in raw):
                return reject("bad_press", N_("A press needs a seat and a time in ns."))
            presses = [{"seat": p["seat"], "t_ns": p["t_ns"]} for p in raw]
        else:
            seat = _int(action.get("seat"), 0, n - 1)
            if seat is None:
                return reject("bad_seat", N_("There is no such seat."))
            t = action.get("t_ns")
            if t is None:
                t = max((p["t_ns"] for p in state["presses"]), default=0) + 1
            if not slap.valid_press({"seat": seat, "t_ns": t}):
                return reject("bad_time", N_("A timestamp is a whole number of nanoseconds."))
            presses = [{"seat": seat, "t_ns": t}]
        if not (actor.host or actor.source == "button") and any(
            p["seat"] != actor.seat for p in presses
        ):
            return reject("not_your_seat", N_("You can only buzz for your own seat."))
        if state["phase"] == "closed":
            return reject("not_open", N_("The question is not open."))
        new = _clone(state)
        new["presses"] = (new["presses"] + presses)[-MAX_PRESSES:]
        order = slap.press_order(new["presses"])
        events: list[dict[str, Any]] = []
        if new["phase"] == "open":
            eligible = [p for p in presses if p["seat"] not in new["answered"]]
            window = round(float(new["options"]["tie_window_ms"]) * 1_000_000)
            verdict = slap.judge(eligible, window, new["options"]["tie_rule"], ctx.rng)
            if verdict["winner"] is not None:
                new["phase"], new["floor"], new["tied"] = "locked", verdict["winner"], []
                events.append(
                    {
                        "type": "verdict",
                        "kind": "lock",
                        "seat": verdict["winner"],
                        "tied": verdict["tied"],
                        "resolution": verdict["resolution"],
                        "order": order,
                    }
                )
            elif verdict["resolution"] == "simultaneous":
                new["phase"], new["tied"] = "tie", verdict["tied"]
                events.append(
                    {
                        "type": "verdict",
                        "kind": "tie",
                        "tied": verdict["tied"],
                        "resolution": "simultaneous",
                        "order": order,
                    }
                )
            elif verdict["resolution"] == "reslap":
                events.append(
                    {
                        "type": "verdict",
                        "kind": "reslap",
                        "tied": verdict["tied"],
                        "resolution": "reslap",
                        "order": order,
                    }
                )
        events.append({"type": "presses", "order": order})
        return Accepted(new, events)

    def _mark(self, state: State, action: Action, ctx: Context) -> Result:
        right = action.get("right")
        if not isinstance(right, bool):
            return reject("bad_mark", N_("Mark the answer right (true) or wrong (false)."))
        if state["phase"] != "locked":
            return reject("nobody_answering", N_("Nobody has the floor."))
        new = _clone(state)
        seat = new["floor"]
        points = new["options"]["points_right" if right else "points_wrong"]
        new["scores"][seat] += points
        new["answered"].append(seat)
        events: list[dict[str, Any]] = [
            {"type": "verdict", "kind": "answer", "seat": seat, "right": right, "points": points}
        ]
        new["floor"] = None
        everyone = len(new["answered"]) >= len(new["players"])
        if right or everyone:
            self._close(new)
            events.append({"type": "question_closed", "question": new["question"]})
        else:
            new["phase"] = "open"  # the race starts again for the rest
            events.append({"type": "reopened", "locked_out": list(new["answered"])})
        return Accepted(new, events)

    def _close(self, state: State) -> None:
        state["history"] = [
            *state["history"],
            {
                "question": state["question"],
                "answered": list(state["answered"]),
                "order": slap.press_order(state["presses"]),
                "scores": list(state["scores"]),
            },
        ][-HISTORY_KEPT:]
        state["phase"] = "closed"
        state["floor"] = None
        state["tied"] = []

    def _pick(self, state: State, action: Action, ctx: Context) -> Result:
        seat = _int(action.get("seat"), 0, len(state["players"]) - 1)
        if seat is None:
            return reject("bad_seat", N_("There is no such seat."))
        if state["phase"] == "closed":
            return reject("not_open", N_("The question is not open."))
        new = _clone(state)
        new["phase"], new["floor"], new["tied"] = "locked", seat, []
        if seat in new["answered"]:
            new["answered"].remove(seat)
        return Accepted(
            new,
            [
                {
                    "type": "verdict",
                    "kind": "lock",
                    "seat": seat,
                    "resolution": "host",
                    "order": slap.press_order(new["presses"]),
                }
            ],
        )

    def _next(self, state: State, action: Action, ctx: Context) -> Result:
        new = _clone(state)
        if new["phase"] != "closed":
            self._close(new)
        new.update(question=new["question"] + 1, phase="open", answered=[], presses=[])
        return Accepted(new, [{"type": "question_open", "question": new["question"]}])

    def _adjust(self, state: State, action: Action, ctx: Context) -> Result:
        seat = _int(action.get("seat"), 0, len(state["players"]) - 1)
        if seat is None:
            return reject("bad_seat", N_("There is no such seat."))
        points = _int(action.get("points"), -MAX_POINTS, MAX_POINTS)
        if points is None:
            return reject(
                "bad_points",
                N_("Points are a whole number from -{n} to {n}."),
                n=MAX_POINTS,
            )
        new = _clone(state)
        new["scores"][seat] += points
        return Accepted(new, [{"type": "adjusted", "seat": seat, "points": points}])

    def _end(self, state: State, action: Action, ctx: Context) -> Result:
        new = _clone(state)
        if new["phase"] != "closed":
            self._close(new)
        new["ended"] = True
        return Accepted(new, [{"type": "game_over"}])

    def public_view(self, state: State) -> dict[str, Any]:
        order = slap.press_order(state["presses"])
        return {
            "players": state["players"],
            "scores": state["scores"],
            "question": state["question"],
            "phase": state["phase"],
            "floor": state["floor"],
            "tied": state["tied"],
            "locked_out": state["answered"],
            "order": order,
            "order_text": slap.describe(order, state["players"]),
            "history": state["history"][-10:],
            "ended": state["ended"],
            "outcome": self.outcome(state),
        }

    def player_view(self, state: State, seat: int) -> dict[str, Any]:
        return self.public_view(state)

    def outcome(self, state: State) -> dict[str, Any] | None:
        if not state["ended"]:
            return None
        best = max(state["scores"], default=0)
        return {
            "winners": [i for i, s in enumerate(state["scores"]) if s == best],
            "scores": list(state["scores"]),
        }
