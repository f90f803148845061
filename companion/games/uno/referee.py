"""The referee's view of the table and the helpers every move uses: whose seat acts, card
and copy checks, counts, drawing with reshuffles (R18, U9), turns and the UNO window.
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

from companion.games.base import N_, Context, Rejection, State, reject
from companion.games.uno.deck import card, deck_counts, in_deck

PHASE_MESSAGES = {
    "cut": ("choose_dealer", N_("First choose the dealer: everyone turns up a card.")),
    "first_card": ("turn_up_first", N_("Turn up the first card of the discard pile.")),
    "scoring": ("round_over", N_("The round is over: enter the cards left in the hands.")),
    "round_over": ("round_over", N_("The round is over: start the next one.")),
    "match_over": ("game_over", N_("The match is over.")),
    "play": ("in_play", N_("The round is being played.")),
}


def new_round(state: State, dealer: int) -> None:
    """Deal (section 2): everyone holds ``hand_size`` cards, the rest is the draw pile; the
    first card is still to be turned up."""
    n = len(state["players"])
    hand = state["options"]["hand_size"]
    state["dealer"] = dealer
    state["phase"] = "first_card"
    state["cut"] = None
    state["round"] = {
        "number": len(state["rounds"]) + 1,
        "current": None,
        "direction": 1,
        "top": None,
        "colour": None,
        "discard": [],
        "draw_pile": state["deck_size"] - hand * n,
        "counts": [hand] * n,
        "uno": [False] * n,
        "catchable": [],
        # how each seat came to hold one card ("play", "swap", "deal", "host"; None: not one
        # card): only a player who played down to it owes the UNO call (R17, U5)
        "one_card_by": ["deal" if hand == 1 else None] * n,
        "pending": None,
        "drawn": None,
        "awaiting": None,
        "challenge": None,
        "reveal": None,
        "proposal": None,
        "winner": None,
        "tally": None,
        "hands": None,  # the hands left, once the round is scored
    }


class Referee:
    def __init__(self, state: State, ctx: Context) -> None:
        self.st: State = copy.deepcopy(state)
        self.ctx = ctx
        self.events: list[dict[str, Any]] = []

    # -- helpers ------------------------------------------------------------------------
    @property
    def r(self) -> dict[str, Any]:
        return self.st["round"]

    @property
    def opts(self) -> dict[str, Any]:
        return self.st["options"]

    @property
    def n(self) -> int:
        return len(self.st["players"])

    def name(self, seat: int) -> str:
        return self.st["players"][seat]

    def nxt(self, seat: int, steps: int = 1) -> int:
        return (seat + self.r["direction"] * steps) % self.n

    def emit(self, kind: str, **data: Any) -> None:
        self.events.append({"type": kind, **data})

    def phase_is(self, *phases: str) -> Rejection | None:
        if self.st["phase"] in phases:
            return None
        code, message = PHASE_MESSAGES[self.st["phase"]]
        return reject(code, message)

    def valid_seat(self, value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < self.n

    def seat_for(self, action: dict[str, Any], default: int | None) -> int | Rejection:
        """Who acts: the action's ``seat`` (the host may name any), else the actor's own seat;
        the host and the camera without a seat act for ``default`` (the player to move)."""
        actor = self.ctx.actor
        seat = action.get("seat")
        if seat is None:
            seat = actor.seat
            if seat is None and (actor.host or actor.source == "camera"):
                seat = default
            if seat is None:
                return reject("not_seated", N_("Join the table as a player to do that."))
        if not self.valid_seat(seat):
            return reject("bad_seat", N_("There is no such seat."))
        if not actor.can_act_for(seat):
            return reject("not_your_seat", N_("You can only act for your own seat."))
        return seat

    def seated_or_table(self) -> Rejection | None:
        """Actions anyone at the table may take (turning up a card, counting a hand): any
        seated phone, the host or the camera."""
        actor = self.ctx.actor
        if actor.seat is None and not actor.host and actor.source != "camera":
            return reject("not_seated", N_("Join the table as a player to do that."))
        return None

    def check_card(self, label: Any) -> str | Rejection:
        if card(label) is None:
            return reject("bad_card", N_("That is not an UNO card: {card}."),
                          card=str(label)[:30])
        if not in_deck(label, self.opts["custom_wilds"]):
            return reject("not_in_deck", N_("There is no {card} in this deck."), card=label)
        return label

    def check_copies(self, extra: list[str]) -> Rejection | None:
        """The deck holds only so many of each card: the discard pile plus ``extra`` (cards
        shown or counted) cannot hold more. Catches a misread card before it counts."""
        have = Counter(self.r["discard"]) + Counter(extra)
        deck = deck_counts(self.opts["custom_wilds"])
        for label, k in have.items():
            if k > deck[label]:
                return reject("too_many_copies",
                              N_("The deck has only {n} × {card}: check the card."),
                              n=deck[label], card=label)
        return None

    def set_count(self, seat: int, value: int, how: str = "host") -> None:
        """Change how many cards a seat holds; an UNO call lasts only while one card is left.
        ``how`` the seat came to hold them ("play", "swap", "draw", "host") is kept for one
        card, so that a catch refused says why (only playing down to one owes the call)."""
        if value != 1:
            self.r["uno"][seat] = False
        self.r["counts"][seat] = value
        by = self.r.setdefault("one_card_by", [None] * self.n)
        by[seat] = how if value == 1 else None

    def begin_turn_action(self) -> None:
        """The next player acts: the window to catch a missing UNO closes (R17), an unsure
        camera proposal and a revealed hand are dropped."""
        self.r["catchable"] = []
        self.r["proposal"] = None
        self.r["reveal"] = None

    # -- drawing (R5, R18, U9) ----------------------------------------------------------
    def reshuffle(self) -> bool:
        """R18: the discard pile becomes the draw pile ([DEFAULT] the top card stays)."""
        r = self.r
        keep = self.opts["reshuffle_keep_top"] and bool(r["discard"])
        movable = len(r["discard"]) - (1 if keep else 0)
        if movable <= 0:
            return False
        r["draw_pile"] += movable
        r["discard"] = [r["discard"][-1]] if keep else []
        self.emit("reshuffle", cards=movable, keep_top=keep)
        return True

    def draw_cards(self, seat: int, k: int) -> int:
        """``seat`` takes ``k`` cards, reshuffling when the pile runs out; U9: with both piles
        empty he takes what there is. Returns how many he took."""
        got = 0
        while got < k:
            if self.r["draw_pile"] == 0 and not self.reshuffle():
                break
            take = min(k - got, self.r["draw_pile"])
            self.r["draw_pile"] -= take
            got += take
        if got:
            self.set_count(seat, self.r["counts"][seat] + got, "draw")
        self.emit("draws", seat=seat, n=got, wanted=k)
        return got

    def serve_pending(self) -> None:
        """The victim of a Draw Two / Wild Draw Four draws and loses his turn (R3, R10)."""
        p = self.r["pending"]
        self.r["pending"] = None
        self.draw_cards(p["victim"], p["amount"])
        self.emit("skipped", seat=p["victim"])
        self.set_turn(self.nxt(p["victim"]))

    def pass_turn(self, seat: int) -> None:
        self.emit("passed", seat=seat)
        self.set_turn(self.nxt(seat))

    def set_turn(self, seat: int) -> None:
        self.r["current"] = seat
        self.r["drawn"] = None
        self.emit("turn", seat=seat)

    def next_may_act(self, seat: int) -> bool:
        """The player after the one to move may act when that one has only to take a pending
        draw or has drawn and may pass: his action takes the draw / passes for him. (With the
        camera nobody has to tap "draw 2" or "pass" before the next card lands.)"""
        r = self.r
        cur = r["current"]
        waiting = r["pending"] is not None or (r["drawn"] is not None and r["drawn"]["seat"] == cur)
        return waiting and r["challenge"] is None and seat == self.nxt(cur) and seat != cur

    def act_for_previous(self) -> None:
        if self.r["pending"] is not None:
            self.serve_pending()
        else:
            self.pass_turn(self.r["current"])

    def blocked(self) -> Rejection | None:
        r = self.r
        if r["awaiting"] is not None:
            a = r["awaiting"]
            message = {
                ("colour",): N_("{name} must first choose a colour."),
                ("target",): N_("{name} must first choose a player."),
            }.get(tuple(a["need"]), N_("{name} must first choose a colour and a player."))
            return reject("awaiting_choice", message, name=self.name(a["seat"]))
        if r["challenge"] is not None:
            return reject("challenge_open",
                          N_("First settle the challenge of the Wild Draw Four."))
        return None
