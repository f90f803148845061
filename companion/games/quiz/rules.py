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
    Rejection,
    Result,
    State,
    reject,
)

MAX_PRESSES = 64
HISTORY_KEPT = 50
MAX_POINTS = 1000
# Who may say when a buzz happened (a ``t_ns`` of its own): the buttons (the hardware layer
# stamps their edges, and a phone's press it takes), a phone's press stamped by the server
# on arrival (``Actor.source`` "server"), and the host. A time a phone sends is never
# believed: a player could buzz "before" everyone. A phone's buzz without a time is
# stamped just after the latest press.
TIMED_SOURCES = ("button", "server")


def _clone(state: State) -> State:
    return json.loads(json.dumps(state))


def _untrusted_time() -> Rejection:
    return reject(
        "untrusted_time", N_("A phone cannot give its own time: the table stamps it.")
    )


def _int(value: Any, low: int, high: int) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        return None
    return value



def _order(state: State) -> list[dict[str, Any]]:
    """The question's presses in order (``slap.press_order``), each with its ``race``: 0
    until the first wrong answer reopened the question, then 1, ... A gap between two
    presses of different races is no gap of a race."""
    bounds = state.get("reopened") or []
    return [{**e, "race": sum(1 for b in bounds if e["t_ns"] > b)}
            for e in slap.press_order(state["presses"])]

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
                "t_ns": "with seat: the press time (the host; a phone's press is stamped by "
                        "the table)",
            },
        ),
        ActionSpec(
            "mark",
            N_("Mark the answer of the player who has the floor (host)."),
            {"type": "mark", "right": True, "seat": 2},
            {"right": "true or false",
             "seat": "whose answer it is (the player the host's screen showed answering); a "
                     "mark for a player who does not have the floor is refused"},
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
            # the presses since the question (re)opened, judged again as more come in (a
            # press stamped earlier that arrives later takes the floor), until the host
            # gives the floor himself ("picked")
            "round": [],
            "picked": False,
            "history": [],
            "ended": False,
        }

    def on_presses(self, state: State, presses: list[dict[str, Any]]) -> Action | None:
        return None if state.get("ended") else slap.race_action("buzz", presses)

    def on_button(self, state: State, seat: int, t_ns: int) -> Action | None:
        return self.on_presses(state, [{"seat": seat, "t_ns": t_ns}])

    def admit(self, action: Any, actor: Any) -> Rejection | None:
        """Whether a new move may come from ``actor`` (asked by the table of each move as it
        comes, never of a logged one on replay: a phone's buzzes logged with the time the
        server gave them still replay). A time a phone gives is never believed."""
        if actor.host or actor.source in TIMED_SOURCES or not isinstance(action, dict):
            return None
        if action.get("type") == "buzz" and (action.get("t_ns") is not None or "presses" in action):
            return _untrusted_time()
        return None

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
            if not (actor.host or actor.source == "button") and seat != actor.seat:
                return reject("not_your_seat", N_("You can only buzz for your own seat."))
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
        if not new["picked"]:
            # Every press since the question (re)opened is judged again with the new ones:
            # a press stamped before the one that took the floor, arriving after it, takes
            # the floor (a tie, if inside the window), as the order shows.
            new["round"] = (new["round"] + presses)[-MAX_PRESSES:]
            eligible = [p for p in new["round"] if p["seat"] not in new["answered"]]
            window = round(float(new["options"]["tie_window_ms"]) * 1_000_000)
            verdict = slap.judge(eligible, window, new["options"]["tie_rule"], ctx.rng)
            was = (new["phase"], new["floor"], new["tied"])
            if verdict["resolution"] == "random" and new["floor"] in verdict["tied"]:
                verdict["winner"] = new["floor"]  # (the draw made stands)
            if verdict["winner"] is not None:
                new["phase"], new["floor"], new["tied"] = "locked", verdict["winner"], []
                kind = "lock"
            elif verdict["resolution"] == "simultaneous":
                new["phase"], new["floor"], new["tied"] = "tie", None, verdict["tied"]
                kind = "tie"
            elif verdict["resolution"] == "reslap":
                # nobody takes the floor: everyone buzzes again, a new round
                new["phase"], new["floor"], new["tied"], new["round"] = "open", None, [], []
                kind = "reslap"
            else:
                kind = None  # (only presses of players who have answered)
            now = (new["phase"], new["floor"], new["tied"])
            if kind is not None and (now != was or kind == "reslap"):
                verdict_event: dict[str, Any] = {
                    "type": "verdict",
                    "kind": kind,
                    "tied": verdict["tied"],
                    "resolution": verdict["resolution"],
                    "order": order,
                }
                if kind == "lock":
                    verdict_event["seat"] = verdict["winner"]
                if was[0] != "open":
                    # (a press stamped earlier came in late: the floor changes hands)
                    verdict_event["was"] = {"phase": was[0], "floor": was[1], "tied": was[2]}
                events.append(verdict_event)
        events.append({"type": "presses", "order": order})
        return Accepted(new, events)

    def _mark(self, state: State, action: Action, ctx: Context) -> Result:
        right = action.get("right")
        if not isinstance(right, bool):
            return reject("bad_mark", N_("Mark the answer right (true) or wrong (false)."))
        if state["phase"] != "locked":
            return reject("nobody_answering", N_("Nobody has the floor."))
        if "seat" in action:
            # whose answer the host judged: the player his screen showed answering
            seat = _int(action["seat"], 0, len(state["players"]) - 1)
            if seat is None:
                return reject("bad_seat", N_("There is no such seat."))
            if seat != state["floor"]:
                # (the host's second tap on "wrong" landed after the question reopened and
                # someone else took the floor: it judged the answer before, not his)
                return reject(
                    "not_answering",
                    N_("{name} does not have the floor: the mark was not counted."),
                    name=state["players"][seat],
                )
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
            new["round"], new["picked"] = [], False
            # (where the race started again: a gap between presses across it means nothing,
            # and "Bruno by 35.70 s over Ana" was said across a reopening)
            new["reopened"] = [*new.get("reopened", []),
                               max((p["t_ns"] for p in new["presses"]), default=0)]
            events.append({"type": "reopened", "locked_out": list(new["answered"])})
        return Accepted(new, events)

    def _close(self, state: State) -> None:
        state["history"] = [
            *state["history"],
            {
                "question": state["question"],
                "answered": list(state["answered"]),
                "order": _order(state),
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
        new["picked"] = True  # (a press arriving later does not take it from him)
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
        new.update(question=new["question"] + 1, phase="open", answered=[], presses=[],
                   round=[], picked=False, reopened=[])
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
        order = _order(state)
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

    def export(self, state: State) -> dict[str, Any]:
        """The scores for the CSV export, a row a player (the host panel offered a CSV that
        opened a 404). ``header``: the headings as templates for the reader's language."""
        return {"columns": ["player", "score"],
                "header": [[N_("player"), {}], [N_("score"), {}]],
                "rows": [[name, score] for name, score in
                         zip(state["players"], state["scores"], strict=True)]}

    def outcome(self, state: State) -> dict[str, Any] | None:
        if not state["ended"]:
            return None
        best = max(state["scores"], default=0)
        return {
            "winners": [i for i, s in enumerate(state["scores"]) if s == best],
            "scores": list(state["scores"]),
        }
