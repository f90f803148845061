"""Werewolf (The Werewolves of Miller's Hollow) with the companion as the game master.

The rules sheet is ``rules/werewolf.md``; every [DEFAULT] there is an option here. The state
machine is pure: steps carry deadlines (``ctx.now`` + the step's timer) and a
``{"type": "timeout"}`` action, sent by the driver when a deadline passes, applies the
step's default. Narration lines are events ``{"type": "narrate", "key", "params"}`` whose
words live in ``script.py``.
"""

from __future__ import annotations

import copy
import random
from typing import Any, ClassVar

from companion.games.base import (
    N_,
    Accepted,
    Action,
    ActionSpec,
    Context,
    Label,
    Option,
    OptionError,
    Rejection,
    Result,
    State,
)
from companion.games.base import reject as _reject
from companion.games.werewolf import day, flow, night, setup, views

HANDLERS = {
    "set_roles": setup.set_roles,
    "assign": setup.assign,
    "claim": setup.claim,
    "start": setup.start,
    "ack": night.ack,
    "thief": night.thief,
    "cupid": night.cupid,
    "seer": night.seer,
    "wolf_vote": night.wolf_vote,
    "peek": night.peek,
    "catch_little_girl": night.catch_little_girl,
    "witch": night.witch,
    "captain_vote": day.captain_vote,
    "vote": day.vote,
    "hunter_shoot": day.hunter_shoot,
    "successor": day.successor,
    "timeout": day.timeout,
    "skip": day.skip,
    "set_timer": day.set_timer,
    "end_game": day.end_game,
    "host_seat": setup.host_seat,
}


class Werewolf:
    id: ClassVar[str] = "werewolf"
    name: ClassVar[str] = N_("Werewolf")
    min_players: ClassVar[int] = 8
    max_players: ClassVar[int] = 18
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "roles",
            None,
            N_("Role set as role: count (none: the suggested set for the player count)."),
            kind=dict,
        ),
        Option(
            "deal",
            "companion",
            N_("Who deals: the companion, the host entering the cards, or each player."),
            choices=("companion", "host", "players"),
            labels=(N_("The companion deals"), N_("The host enters the cards"),
                    N_("Each player enters their own card")),
        ),
        Option(
            "input",
            "phones",
            N_("Night actions on each player's phone, or tapped by a moderator on the host's."),
            choices=("phones", "host"),
            labels=(N_("On each player's phone"), N_("Tapped by a moderator")),
        ),
        Option(
            "host_seat",
            None,
            N_("The host plays in this seat (none: the host runs the game without a card and "
               "sees every card)."),
            kind=int,
            minimum=0,
            maximum=17,
            seat=True,
        ),
        Option("captain", True, N_("Elect a captain whose vote counts double."), kind=bool),
        Option(
            "captain_election",
            "day1",
            N_("When the captain is elected: at the start of day 1, or before night 1."),
            choices=("day1", "before_night1"),
            labels=(N_("At the start of day 1"), N_("Before night 1")),
        ),
        Option(
            "wolves_win",
            "seed",
            N_(
                "When the werewolves win: once at most one other player is left, or at parity "
                "(as many werewolves as other players)."
            ),
            choices=("seed", "parity"),
            labels=(N_("When one other player at most is left"), N_("At parity")),
        ),
        Option(
            "starvation",
            False,
            N_("A night without a victim starves the werewolves: the village wins."),
            kind=bool,
        ),
        Option(
            "revote",
            "tied",
            N_("After a tie, the second vote is between the tied players, or everyone."),
            choices=("tied", "all"),
            labels=(N_("Between the tied players"), N_("Everyone")),
        ),
        Option(
            "revote_tie",
            "nobody",
            N_("If the second vote ties too: nobody is eliminated, or one is drawn by lot."),
            choices=("nobody", "lot"),
            labels=(N_("Nobody is eliminated"), N_("One is drawn by lot")),
        ),
        Option(
            "lovers_vs_wolves",
            "wolves_win",
            N_(
                "Lovers who are a werewolf and a villager, alive with the last werewolves: "
                "the werewolves win as usual, or play goes on (the lovers win as the last two "
                "alive)."
            ),
            choices=("wolves_win", "play_on"),
            labels=(N_("The werewolves win"), N_("Play on")),
        ),
        Option(
            "announce_causes",
            False,
            N_("The morning says how each player died (werewolves or poison)."),
            kind=bool,
        ),
        Option(
            "peek_catch_chance",
            0.25,
            N_("Chance that the little girl is caught when she peeks."),
            kind=(int, float),
            minimum=0,
            maximum=1,
        ),
        Option(
            "timers",
            None,
            N_('Seconds per step, e.g. {"seer": 30, "werewolves": 90, "debate": 300}.'),
            kind=dict,
        ),
        Option(
            "night_pace",
            "early",
            N_("How long a night step lasts: until its holders have acted, or always its "
               "timer plus a short random spread, whoever acts (no one can tell from its "
               "length whether the role is dead or among the thief's spares)."),
            choices=("early", "steady"),
            labels=(N_("Until its holders have acted (faster; its length can tell)"),
                    N_("Always its timer, whoever acts")),
        ),
        Option(
            "night_spread",
            5,
            N_("Seconds of random spread added to each night step's timer."),
            kind=(int, float),
            minimum=0,
            maximum=60,
        ),
        Option(
            "background_sound", False, N_("Soft night sounds while the village sleeps."), kind=bool
        ),
        Option(
            "language",
            None,
            N_("The language the narrator speaks: the table's, or another one."),
            choices=(None, "en", "pt_BR", "zh_Hans"),
            # (each language by its own name, as language pickers show them)
            labels=(N_("The table's language"), "English", "Português (Brasil)", "简体中文"),
        ),
    )
    actions: ClassVar[tuple[ActionSpec, ...]] = (
        ActionSpec(
            "set_roles",
            N_("Set the role set (host, before the deal; null: suggested)."),
            {"type": "set_roles", "roles": {"werewolf": 2, "seer": 1, "villager": 5}},
            {"roles": "role: count, or null"},
            host_only=True,
        ),
        ActionSpec(
            "assign",
            N_("Enter who holds which card (host, physical deal)."),
            {"type": "assign", "seat": 2, "role": "seer"},
            {"seat": "seat", "role": "role or null", "roles": "or: one role per seat"},
            host_only=True,
        ),
        ActionSpec(
            "claim",
            N_("Enter your own card, secretly (deal: players)."),
            {"type": "claim", "role": "witch"},
            {"role": "role or null"},
        ),
        ActionSpec(
            "start",
            N_("Deal (or check the entered cards) and begin (host)."),
            {"type": "start"},
            {"empty_seats": "true: deal even though a seat has no phone (the table asks "
                            "first, refusing with empty_seats)"},
            host_only=True,
        ),
        ActionSpec("ack", N_("I have seen my card / my lover."), {"type": "ack"}),
        ActionSpec(
            "thief",
            N_("Thief: take spare card 0 or 1, or keep yours (null)."),
            {"type": "thief", "take": 1},
            {"take": "0, 1 or null"},
        ),
        ActionSpec(
            "cupid",
            N_("Cupid: name the two lovers."),
            {"type": "cupid", "lovers": [0, 3]},
            {"lovers": "two seats"},
        ),
        ActionSpec(
            "seer",
            N_("Seer: look at a player's card."),
            {"type": "seer", "target": 4},
            {"target": "seat"},
        ),
        ActionSpec(
            "wolf_vote",
            N_("Werewolf: choose the victim (null: no victim)."),
            {"type": "wolf_vote", "target": 5},
            {"target": "seat or null"},
        ),
        ActionSpec("peek", N_("Little girl: peek at the werewolves."), {"type": "peek"}),
        ActionSpec(
            "catch_little_girl",
            N_("The werewolves caught the little girl (host)."),
            {"type": "catch_little_girl"},
            host_only=True,
        ),
        ActionSpec(
            "witch",
            N_("Witch: heal the victim and/or poison a player."),
            {"type": "witch", "heal": True, "poison": None},
            {"heal": "bool", "poison": "seat or null"},
        ),
        ActionSpec(
            "captain_vote",
            N_("Vote for the captain."),
            {"type": "captain_vote", "target": 1},
            {"target": "seat", "voter": "seat (host only)"},
        ),
        ActionSpec(
            "vote",
            N_("Day vote: eliminate a player (null: abstain)."),
            {"type": "vote", "target": 6},
            {"target": "seat or null", "voter": "seat (host only)"},
        ),
        ActionSpec(
            "hunter_shoot",
            N_("The dead hunter shoots a player (null: nobody)."),
            {"type": "hunter_shoot", "target": 2},
            {"target": "seat or null"},
        ),
        ActionSpec(
            "successor",
            N_("The dying captain names the next captain."),
            {"type": "successor", "target": 3},
            {"target": "seat"},
        ),
        ActionSpec(
            "timeout",
            N_("A step's time is up (sent by the timer driver)."),
            {"type": "timeout", "step": 7},
            {"step": "the step id (optional)"},
        ),
        ActionSpec(
            "skip", N_("End the current step now (host)."), {"type": "skip"}, host_only=True
        ),
        ActionSpec(
            "set_timer",
            N_("Change a step's timer (host)."),
            {"type": "set_timer", "step": "debate", "seconds": 240},
            {"step": "step name", "seconds": "5 to 3600"},
            host_only=True,
        ),
        ActionSpec(
            "end_game", N_("End the game now (host)."), {"type": "end_game"}, host_only=True
        ),
        ActionSpec(
            "host_seat",
            N_("The seat the host plays in (host; null: the host only runs the game). Set "
               "when the host's phone first joins a seat; changed only before the deal."),
            {"type": "host_seat", "seat": 2},
            {"seat": "seat, or null"},
            host_only=True,
        ),
    )

    def setup(self, players: list[str], options: dict[str, Any], rng: random.Random) -> State:
        opts = {o.name: o.default for o in self.options}
        opts.update(options or {})
        if isinstance(opts["host_seat"], int) and not 0 <= opts["host_seat"] < len(players):
            # (the host's seat is one of the players': a seat past the last one was no seat)
            by_name = {o.name: o for o in self.options}
            raise OptionError(Rejection(
                "bad_option", N_("“{option}”: enter a whole number from {low} to {high}."),
                {"option": Label(by_name["host_seat"].help), "low": 0,
                 "high": len(players) - 1}))
        return setup.initial_state(players, opts, rng)

    def apply(self, state: State, action: Action, ctx: Context) -> Result:
        if not isinstance(action, dict):
            return _reject("bad_action", N_("An action needs a type."))
        kind = action.get("type")
        handler = HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            return _reject("unknown_action", N_("Unknown action: {action}."), action=str(kind)[:40])
        try:
            return handler(state, action, ctx)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            # Defensive only (the fuzz test asserts it never happens): a malformed field that
            # slipped past a check is refused rather than raised.
            return _reject("rules_error", N_("That action is not valid."))

    def resumes(self, before: State, after: State) -> bool:
        """Whether an undo brought another step back (``before``: the state it undid, and
        ``after``: the state it leads to). A move taken back within the same step (a wolf's
        vote) leaves that step running as it was: starting it again told every phone that a
        secret move had been undone."""
        step = (before.get("step") or {}).get("id"), (after.get("step") or {}).get("id")
        return step[0] != step[1] or before["phase"] != after["phase"]

    def resumed(self, state: State, ctx: Context) -> Accepted:
        """After an undo (``ctx.now``: its time): the step it brought back starts again,
        its timer anew and its narration said again (``flow.resume_step``)."""
        if state["phase"] in ("setup", "over") or not state.get("step"):
            return Accepted(state, [])
        s = copy.deepcopy(state)
        ev: list[dict[str, Any]] = []
        flow.resume_step(s, ctx, ev)
        return Accepted(s, ev)

    def public_view(self, state: State) -> dict[str, Any]:
        return views.public_view(state)

    def player_view(self, state: State, seat: int) -> dict[str, Any]:
        return views.player_view(state, seat)

    def moderator_view(self, state: State) -> dict[str, Any]:
        return views.moderator_view(state)

    def history_view(self, state: State, entry: dict, seat: int | None) -> dict | None:
        return views.history_view(state, entry, seat)

    # Actions that deal each seat its secret card: started with a seat no phone holds, the
    # table asks the host first (TableService, ``empty_seats``).
    deal_actions: ClassVar[frozenset[str]] = frozenset({"start"})

    def host_seat(self, state: State) -> int | None:
        """The seat the host plays in (option ``host_seat``, or the seat the host's phone
        first joined), or None: a host who plays reads that seat's view whatever the phone
        sends (the PIN alone had shown the moderator view, every card); the moderator view
        is for a host who does not play (TableService)."""
        return state.get("host_seat")

    def seat_locked(self, state: State, seat: int) -> bool:
        """Whether a free seat goes to a phone only with the host's PIN: once its card is
        dealt (or entered by the host), a phone that joins it reads the card. (Any phone on
        the network could take a seat left empty at the deal.)"""
        return state["phase"] != "setup" or state["roles"][seat] is not None

    def moment(self, state: State) -> Any:
        """The step under way (each has an id of its own): in it every living player votes,
        or every phone says it has seen its card, at once, so a phone's view a vote behind is
        still heard (the rules judge each move). None while the host sets the game up or it
        is over: there every move waits for the phone's view to be the latest."""
        step = state.get("step")
        return None if not step or state["phase"] == "over" else step["id"]

    def outcome(self, state: State) -> dict[str, Any] | None:
        if state["phase"] != "over":
            return None
        return dict(state["result"])


__all__ = ["Accepted", "Werewolf"]
