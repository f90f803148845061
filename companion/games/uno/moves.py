"""The referee's moves on one copy of the state.

The referee knows what the table can see: the top card and the active colour, the direction,
whose turn it is, pending draws, the discard pile, the size of the draw pile, and how many
cards each player holds (from deals, draws and plays). It never knows a hand, so where
legality depends on one (R9) it runs the challenge procedure (R11).

A :class:`Move` deep-copies the state once; every method then changes the copy freely and
returns None when it accepted, or a :class:`Rejection` (the copy is then thrown away, so a
rejected action never changes anything).
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

from companion.games.base import N_, Context, Rejection, State, reject
from companion.games.uno.deck import (
    COLOURS,
    CUSTOM,
    DRAW4,
    PUT_BACK_FIRST,
    SWAP,
    card,
    colour_of,
    cut_value,
    deck_counts,
    draw4_legal,
    in_deck,
    is_legal,
    symbol,
)
from companion.games.uno.scoring import target_reached

MAX_HAND_POINTS = 100_000
MAX_COUNT = 120

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
        "pending": None,
        "drawn": None,
        "awaiting": None,
        "challenge": None,
        "reveal": None,
        "proposal": None,
        "winner": None,
        "tally": None,
    }


class Move:
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

    def set_count(self, seat: int, value: int) -> None:
        """Change how many cards a seat holds; an UNO call lasts only while one card is left."""
        if value != 1:
            self.r["uno"][seat] = False
        self.r["counts"][seat] = value

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
        self.set_count(seat, self.r["counts"][seat] + got)
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
            return reject("awaiting_choice", N_("{name} must first choose {what}."),
                          name=self.name(a["seat"]), what=" + ".join(a["need"]))
        if r["challenge"] is not None:
            return reject("challenge_open",
                          N_("First settle the challenge of the Wild Draw Four."))
        return None

    # -- playing (R1-R4, R7, R9-R16, R19, R27-R29) --------------------------------------
    def play(self, action: dict[str, Any]) -> Rejection | None:
        if (bad := self.phase_is("play")) is not None:
            return bad
        r = self.r
        label = self.check_card(action.get("card"))
        if isinstance(label, Rejection):
            return label
        seat = self.seat_for(action, r["current"])
        if isinstance(seat, Rejection):
            return seat
        colour, target = action.get("colour"), action.get("target")
        if colour is not None and colour not in COLOURS:
            return reject("bad_colour", N_("Choose red, yellow, green or blue."))
        if target is not None and (not self.valid_seat(target) or target == seat):
            return reject("bad_target", N_("Choose another player."))
        if (bad := self.blocked()) is not None:
            return bad
        cur, pending, drawn = r["current"], r["pending"], r["drawn"]
        jump = for_previous = False
        stack = 0
        if seat == cur:
            if pending is not None:
                if not (self.opts["stack_draw2"] and pending["kind"] == "draw2"
                        and symbol(label) == "draw2"):
                    return reject("must_draw",
                                  N_("{name} must draw {n} first: no stacking (R13)."),
                                  name=self.name(seat), n=pending["amount"])
                stack = pending["amount"]
            if drawn is not None and drawn["seat"] == seat and drawn["card"] not in (None, label):
                return reject("only_drawn_card",
                              N_("After drawing you may play only the card you drew (R7)."))
        elif self.next_may_act(seat):
            for_previous = True
        elif (self.opts["jump_in"] and label == r["top"] and colour_of(label) is not None
              and pending is None):
            jump = True
        else:
            return reject("not_your_turn", N_("It is {name}'s turn."), name=self.name(cur))
        if r["counts"][seat] < 1:
            return reject("no_cards", N_("{name} has no cards."), name=self.name(seat))
        if (bad := self.check_copies([label])) is not None:
            return bad
        if label == SWAP and r["counts"][seat] == 1:
            return reject("swap_last_card",
                          N_("Wild Swap Hands cannot be your last card (R15): draw instead."))
        if not is_legal(label, r["top"], r["colour"]):
            return self.illegal(label)
        if for_previous:
            self.act_for_previous()
        self.begin_turn_action()
        if jump:
            self.emit("jump_in", seat=seat)
        r["pending"] = None
        r["drawn"] = None
        colour_before = r["colour"]
        self.set_count(seat, r["counts"][seat] - 1)
        r["discard"].append(label)
        r["top"] = label
        self.emit("played", seat=seat, card=label)
        if r["counts"][seat] == 0:
            self.go_out(seat, label, stack)
            return None
        if r["counts"][seat] == 1 and not r["uno"][seat]:
            r["catchable"] = [seat]
        need = []
        if colour_of(label) is None and colour is None:
            need.append("colour")
        if (label == SWAP or (self.opts["seven_zero"] and symbol(label) == "7")) and target is None:
            need.append("target")
        if need:
            r["current"] = seat
            r["colour"] = colour_of(label)
            r["awaiting"] = {"seat": seat, "card": label, "need": need, "first": False,
                             "colour": colour, "target": target,
                             "colour_before": colour_before, "stack": stack}
            self.emit("choose", seat=seat, need=need)
            return None
        self.complete(seat, label, colour, target, colour_before, stack)
        return None

    def illegal(self, label: str) -> Rejection:
        """R1 explained in the player's words: what would have gone on the pile."""
        top, colour = self.r["top"], self.r["colour"]
        if colour_of(top) is None:
            return reject("illegal_card",
                          N_("{card} cannot go on {top}: the colour is {colour}; play "
                             "{colour} or a wild."),
                          card=label, top=top, colour=colour)
        return reject("illegal_card",
                      N_("{card} cannot go on {top}: play {colour}, a {symbol}, or a wild."),
                      card=label, top=top, colour=colour, symbol=symbol(top))

    def effect_of(self, label: str) -> str:
        """The action a card performs: its symbol; a blank wild does what the table chose."""
        if label == CUSTOM:
            return {"none": "wild"}.get(self.opts["custom_effect"], self.opts["custom_effect"])
        return symbol(label)

    def complete(self, seat: int, label: str, colour: str | None, target: int | None,
                 colour_before: str | None, stack: int) -> None:
        """The card's effect once its colour (and target) is known; then whose turn it is."""
        r = self.r
        r["awaiting"] = None
        r["colour"] = colour_of(label) or colour
        if colour_of(label) is None:
            self.emit("colour", seat=seat, colour=r["colour"])
        if label == CUSTOM:
            self.emit("custom_rule", text=self.opts["custom_rule"])
        effect = self.effect_of(label)
        if effect == "skip":
            self.emit("skipped", seat=self.nxt(seat))
            self.set_turn(self.nxt(seat, 2))
        elif effect == "reverse":
            r["direction"] = -r["direction"]
            self.emit("reversed", direction=r["direction"])
            if self.n == 2:  # R19: Reverse works like Skip
                self.emit("skipped", seat=self.nxt(seat))
                self.set_turn(seat)
            else:
                self.set_turn(self.nxt(seat))
        elif effect in ("draw2", DRAW4):
            victim = self.nxt(seat)
            r["pending"] = {"victim": victim, "amount": (4 if effect == DRAW4 else 2) + stack,
                            "kind": "draw4" if effect == DRAW4 else "draw2", "by": seat,
                            "colour_before": colour_before}
            self.emit("must_draw", seat=victim, n=r["pending"]["amount"])
            self.set_turn(victim)
        elif label == SWAP or (self.opts["seven_zero"] and effect == "7"):
            self.swap(seat, target)
            self.set_turn(self.nxt(seat))
        elif self.opts["seven_zero"] and effect == "0":
            self.rotate()
            self.set_turn(self.nxt(seat))
        else:
            self.set_turn(self.nxt(seat))

    def swap(self, a: int, b: int) -> None:
        """R14 (and the 7 of 7-0): two players swap their whole hands."""
        counts = self.r["counts"]
        ca, cb = counts[a], counts[b]
        self.r["catchable"] = [s for s in self.r["catchable"] if s not in (a, b)]
        self.set_count(a, cb)
        self.set_count(b, ca)
        self.r["uno"][a] = self.r["uno"][b] = False
        self.emit("swapped", seats=[a, b])
        self.after_swap([a, b])

    def rotate(self) -> None:
        """The 0 of 7-0: every hand passes to the next player in the direction of play."""
        old = list(self.r["counts"])
        self.r["catchable"] = []
        for seat in range(self.n):
            self.set_count(self.nxt(seat), old[seat])
            self.r["uno"][seat] = False
        self.emit("rotated", direction=self.r["direction"])
        self.after_swap(list(range(self.n)))

    def after_swap(self, seats: list[int]) -> None:
        """U5 [DEFAULT]: one card after a swap creates no UNO obligation (option)."""
        if self.opts["uno_after_swap"]:
            self.r["catchable"] += [s for s in seats if self.r["counts"][s] == 1]

    def go_out(self, seat: int, label: str, stack: int) -> None:
        """R27: the round ends at once. R28: a final Draw Two / Wild Draw Four still makes the
        next player draw, and those cards count. (A Wild Draw Four played as the last card
        cannot be challenged: its player held no other card.)"""
        r = self.r
        effect = self.effect_of(label)
        r["catchable"] = []
        r["awaiting"] = None
        self.emit("went_out", seat=seat)
        if effect in ("draw2", DRAW4):
            self.draw_cards(self.nxt(seat), (4 if effect == DRAW4 else 2) + stack)
        r["winner"] = seat
        r["current"] = None
        r["tally"] = [[] for _ in range(self.n)]
        self.st["phase"] = "scoring"
        self.emit("round_over", winner=seat)

    def choose(self, action: dict[str, Any]) -> Rejection | None:
        """Complete a wild (its colour), Swap Hands or a 7-0 seven (the target)."""
        if (bad := self.phase_is("play")) is not None:
            return bad
        a = self.r["awaiting"]
        if a is None:
            return reject("nothing_to_choose", N_("There is nothing to choose now."))
        seat = self.seat_for(action, a["seat"])
        if isinstance(seat, Rejection):
            return seat
        if seat != a["seat"]:
            return reject("not_your_turn", N_("{name} chooses, not you."),
                          name=self.name(a["seat"]))
        colour, target = action.get("colour", a["colour"]), action.get("target", a["target"])
        if "colour" in a["need"] and colour not in COLOURS:
            return reject("bad_colour", N_("Choose red, yellow, green or blue."))
        if "target" in a["need"] and (not self.valid_seat(target) or target == seat):
            return reject("bad_target", N_("Choose another player."))
        if a["first"]:  # R23: the first card was a Wild
            self.r["awaiting"] = None
            self.r["colour"] = colour
            self.emit("colour", seat=seat, colour=colour)
            self.set_turn(seat if self.opts["first_wild_chooser_plays"] else self.nxt(seat))
            return None
        self.complete(seat, a["card"], colour, target, a["colour_before"], a["stack"])
        return None

    def draw(self, action: dict[str, Any]) -> Rejection | None:
        """R5/R8: draw one card on your turn (the phone may say privately which card, so that
        R7 can be checked); or take a pending Draw Two / Wild Draw Four."""
        if (bad := self.phase_is("play")) is not None:
            return bad
        r = self.r
        seat = self.seat_for(action, r["current"])
        if isinstance(seat, Rejection):
            return seat
        drawn_card = action.get("card")
        if drawn_card is not None:
            drawn_card = self.check_card(drawn_card)
            if isinstance(drawn_card, Rejection):
                return drawn_card
        if (bad := self.blocked()) is not None:
            return bad
        if seat == r["current"] and r["pending"] is not None:
            self.begin_turn_action()
            self.serve_pending()
            return None
        if seat == r["current"]:
            if (r["drawn"] is not None and r["drawn"]["seat"] == seat
                    and not self.opts["draw_until_playable"]):
                return reject("already_drew",
                              N_("You have drawn: play the card you drew or pass (R6)."))
        elif self.next_may_act(seat):
            self.act_for_previous()
        else:
            return reject("not_your_turn", N_("It is {name}'s turn."),
                          name=self.name(r["current"]))
        self.begin_turn_action()
        if self.draw_cards(seat, 1) == 0:  # U9: nothing left to draw anywhere
            self.emit("cannot_draw", seat=seat)
            self.pass_turn(seat)
            return None
        r["current"] = seat
        r["drawn"] = {"seat": seat, "card": drawn_card}
        return None

    def pass_(self, action: dict[str, Any]) -> Rejection | None:
        """R6: after drawing, keep the card and end the turn."""
        if (bad := self.phase_is("play")) is not None:
            return bad
        r = self.r
        seat = self.seat_for(action, r["current"])
        if isinstance(seat, Rejection):
            return seat
        if (bad := self.blocked()) is not None:
            return bad
        if seat != r["current"]:
            return reject("not_your_turn", N_("It is {name}'s turn."),
                          name=self.name(r["current"]))
        if r["pending"] is not None:
            return reject("must_draw", N_("{name} must draw {n} first: no stacking (R13)."),
                          name=self.name(seat), n=r["pending"]["amount"])
        if r["drawn"] is None or r["drawn"]["seat"] != seat:
            return reject("draw_first", N_("Play a card or draw one before passing (R5)."))
        self.begin_turn_action()
        self.pass_turn(seat)
        return None

    # -- UNO (R17) ----------------------------------------------------------------------
    def uno(self, action: dict[str, Any]) -> Rejection | None:
        if (bad := self.phase_is("play")) is not None:
            return bad
        r = self.r
        seat = self.seat_for(action, r["current"])
        if isinstance(seat, Rejection):
            return seat
        count = r["counts"][seat]
        if r["uno"][seat]:
            return reject("already_called", N_("{name} has already called UNO."),
                          name=self.name(seat))
        about_to = count == 2 and seat == r["current"] and r["pending"] is None
        if count != 1 and not about_to:
            return reject("no_uno", N_("Call UNO when you play your second-to-last card."))
        r["uno"][seat] = True
        r["catchable"] = [s for s in r["catchable"] if s != seat]
        self.emit("uno", seat=seat)
        return None

    def catch(self, action: dict[str, Any]) -> Rejection | None:
        if (bad := self.phase_is("play")) is not None:
            return bad
        r = self.r
        target = action.get("target")
        if not self.valid_seat(target):
            return reject("bad_target", N_("Choose another player."))
        actor = self.ctx.actor
        catcher = action.get("seat", actor.seat)
        if catcher is None and not actor.host:
            return reject("not_seated", N_("Join the table as a player to do that."))
        if catcher is not None and (not self.valid_seat(catcher) or not actor.can_act_for(catcher)):
            return reject("not_your_seat", N_("You can only act for your own seat."))
        if catcher == target:
            return reject("bad_target", N_("Choose another player."))
        if r["counts"][target] != 1:
            return reject("not_one_card", N_("{name} does not hold one card."),
                          name=self.name(target))
        if target not in r["catchable"]:
            if r["uno"][target]:
                return reject("called_uno", N_("{name} called UNO."), name=self.name(target))
            return reject("too_late",
                          N_("Too late: the next player has already started (R17)."))
        r["catchable"].remove(target)
        self.emit("caught", seat=target, by=catcher)
        self.draw_cards(target, self.opts["uno_penalty"])
        return None

    # -- the Wild Draw Four challenge (R9-R12) ------------------------------------------
    def challenge(self, action: dict[str, Any]) -> Rejection | None:
        if (bad := self.phase_is("play")) is not None:
            return bad
        r = self.r
        p = r["pending"]
        if p is None or p["kind"] != "draw4" or p["by"] is None or r["challenge"] is not None:
            return reject("nothing_to_challenge", N_("There is no Wild Draw Four to challenge."))
        seat = self.seat_for(action, p["victim"])
        if isinstance(seat, Rejection):
            return seat
        if self.opts["challenge_by"] == "victim" and seat != p["victim"]:
            return reject("not_victim", N_("Only {name}, who would draw, may challenge."),
                          name=self.name(p["victim"]))
        if seat == p["by"]:
            return reject("not_victim", N_("Only {name}, who would draw, may challenge."),
                          name=self.name(p["victim"]))
        self.begin_turn_action()
        r["challenge"] = {"accused": p["by"], "challenger": seat, "victim": p["victim"],
                          "colour": p["colour_before"]}
        self.emit("challenge", accused=p["by"], challenger=seat)
        return None

    def show_hand(self, action: dict[str, Any]) -> Rejection | None:
        """The accused enters his hand on his phone; only the challenger is shown it, and the
        referee judges R9 itself."""
        if (bad := self.phase_is("play")) is not None:
            return bad
        ch = self.r["challenge"]
        if ch is None:
            return reject("no_challenge", N_("Nobody is challenging now."))
        seat = self.seat_for(action, ch["accused"])
        if isinstance(seat, Rejection):
            return seat
        if seat != ch["accused"]:
            return reject("not_accused", N_("Only {name} shows his hand."),
                          name=self.name(ch["accused"]))
        cards = action.get("cards")
        count = self.r["counts"][seat]
        if not isinstance(cards, list) or len(cards) != count:
            return reject("hand_count", N_("{name} holds {n} cards: enter exactly those."),
                          name=self.name(seat), n=count)
        for label in cards:
            if isinstance(bad := self.check_card(label), Rejection):
                return bad
        if (bad := self.check_copies(cards)) is not None:
            return bad
        self.r["reveal"] = {"seat": seat, "to": ch["challenger"], "cards": list(cards)}
        self.resolve(not draw4_legal(cards, ch["colour"]))
        return None

    def verdict(self, action: dict[str, Any]) -> Rejection | None:
        """The hand was shown physically: the challenger says what he saw (the accused may
        only admit it)."""
        if (bad := self.phase_is("play")) is not None:
            return bad
        ch = self.r["challenge"]
        if ch is None:
            return reject("no_challenge", N_("Nobody is challenging now."))
        guilty = action.get("guilty")
        if not isinstance(guilty, bool):
            return reject("bad_verdict", N_("Say whether the Wild Draw Four was legal."))
        seat = self.seat_for(action, ch["challenger"])
        if isinstance(seat, Rejection):
            return seat
        if seat != ch["challenger"] and not (seat == ch["accused"] and guilty):
            return reject("not_challenger", N_("Only {name}, who saw the hand, decides."),
                          name=self.name(ch["challenger"]))
        self.resolve(guilty)
        return None

    def resolve(self, guilty: bool) -> None:
        """R11: guilty, the accused draws the 4 and ([DEFAULT] U3) the victim plays on;
        innocent, the challenger draws 4 + 2 and the victim loses his turn. With
        ``challenge_by=anyone`` a losing third party draws the 2 and the victim the 4."""
        r = self.r
        ch, victim = r["challenge"], r["pending"]["victim"]
        r["challenge"] = None
        r["pending"] = None
        self.emit("challenge_result", guilty=guilty, accused=ch["accused"],
                  challenger=ch["challenger"])
        if guilty:
            self.draw_cards(ch["accused"], 4)
            self.set_turn(victim if self.opts["challenge_won_victim_plays"] else self.nxt(victim))
            return
        if ch["challenger"] == victim:
            self.draw_cards(victim, 6)
        else:
            self.draw_cards(victim, 4)
            self.draw_cards(ch["challenger"], 2)
        self.emit("skipped", seat=victim)
        self.set_turn(self.nxt(victim))

    # -- the camera's unsure cards ------------------------------------------------------
    def propose(self, action: dict[str, Any]) -> Rejection | None:
        if (bad := self.phase_is("play", "first_card")) is not None:
            return bad
        label = self.check_card(action.get("card"))
        if isinstance(label, Rejection):
            return label
        seat = None
        if self.st["phase"] == "play":
            seat = self.seat_for(action, self.r["current"])
            if isinstance(seat, Rejection):
                return seat
        elif (bad := self.seated_or_table()) is not None:
            return bad
        self.r["proposal"] = {"seat": seat, "card": label}
        self.emit("confirm_card", seat=seat, card=label)
        return None

    def confirm(self, action: dict[str, Any]) -> Rejection | None:
        if (bad := self.phase_is("play", "first_card")) is not None:
            return bad
        p = self.r["proposal"]
        if p is None:
            return reject("no_proposal", N_("There is no card to confirm."))
        if self.st["phase"] == "first_card":
            return self.turn_up({"card": p["card"]})
        return self.play({"card": p["card"], "seat": p["seat"], "colour": action.get("colour"),
                          "target": action.get("target")})

    def dismiss(self, action: dict[str, Any]) -> Rejection | None:
        if (bad := self.phase_is("play", "first_card")) is not None:
            return bad
        if self.r["proposal"] is None:
            return reject("no_proposal", N_("There is no card to confirm."))
        if (bad := self.seated_or_table()) is not None:
            return bad
        self.r["proposal"] = None
        self.emit("dismissed")
        return None

    # -- the start of a round (section 2, R20-R26) --------------------------------------
    def cut(self, action: dict[str, Any]) -> Rejection | None:
        """Setup 1: everyone turns up a card; the highest number deals; [DEFAULT] action
        cards and wilds count 0 and a tie for the highest cuts again."""
        if (bad := self.phase_is("cut")) is not None:
            return bad
        seat = self.seat_for(action, None)
        if isinstance(seat, Rejection):
            return seat
        label = self.check_card(action.get("card"))
        if isinstance(label, Rejection):
            return label
        cut = self.st["cut"]
        if seat not in cut["contenders"]:
            return reject("not_cutting", N_("{name} is not cutting for the deal."),
                          name=self.name(seat))
        if cut["cards"][seat] is not None:
            return reject("already_cut", N_("{name} has already turned up a card."),
                          name=self.name(seat))
        cut["cards"][seat] = label
        self.emit("cut", seat=seat, card=label)
        if any(cut["cards"][s] is None for s in cut["contenders"]):
            return None
        values = {s: cut_value(cut["cards"][s]) for s in cut["contenders"]}
        best = max(values.values())
        tied = [s for s in cut["contenders"] if values[s] == best]
        if len(tied) == 1:
            self.emit("dealer", seat=tied[0])
            new_round(self.st, tied[0])
            return None
        cut["contenders"] = tied
        for s in tied:
            cut["cards"][s] = None
        self.emit("cut_tie", seats=tied)
        return None

    def set_dealer(self, action: dict[str, Any]) -> Rejection | None:
        if (bad := self.phase_is("cut", "first_card")) is not None:
            return bad
        if (bad := self.seated_or_table()) is not None:
            return bad
        dealer = action.get("dealer")
        if not self.valid_seat(dealer):
            return reject("bad_seat", N_("There is no such seat."))
        self.emit("dealer", seat=dealer)
        if self.st["phase"] == "cut":
            new_round(self.st, dealer)
        else:
            self.st["dealer"] = dealer
        return None

    def turn_up(self, action: dict[str, Any]) -> Rejection | None:
        if (bad := self.phase_is("first_card")) is not None:
            return bad
        if (bad := self.seated_or_table()) is not None:
            return bad
        label = self.check_card(action.get("card"))
        if isinstance(label, Rejection):
            return label
        r = self.r
        r["proposal"] = None
        if label in PUT_BACK_FIRST:  # R24-R26
            self.emit("put_back", card=label)
            return None
        dealer = self.st["dealer"]
        r["draw_pile"] -= 1
        r["discard"] = [label]
        r["top"] = label
        r["colour"] = colour_of(label)
        self.st["phase"] = "play"
        self.emit("first_card", card=label)
        first = self.nxt(dealer)
        effect = symbol(label)
        if effect == "draw2":  # R20
            r["pending"] = {"victim": first, "amount": 2, "kind": "draw2", "by": None,
                            "colour_before": None}
            self.emit("must_draw", seat=first, n=2)
            self.set_turn(first)
        elif effect == "reverse":  # R21 (U8: also with two players)
            r["direction"] = -1
            self.emit("reversed", direction=-1)
            self.set_turn(dealer)
        elif effect == "skip":  # R22
            self.emit("skipped", seat=first)
            self.set_turn(self.nxt(dealer, 2))
        elif effect == "wild":  # R23
            r["current"] = first
            r["awaiting"] = {"seat": first, "card": label, "need": ["colour"], "first": True,
                             "colour": None, "target": None, "colour_before": None, "stack": 0}
            self.emit("choose", seat=first, need=["colour"])
        else:
            self.set_turn(first)
        return None

    # -- the end of a round (section 5) -------------------------------------------------
    def count_card(self, action: dict[str, Any], remove: bool = False) -> Rejection | None:
        """Enter the cards left in a hand one by one (tapped, or read by the camera)."""
        if (bad := self.phase_is("scoring")) is not None:
            return bad
        if (bad := self.seated_or_table()) is not None:
            return bad
        r = self.r
        seat = action.get("seat")
        if not self.valid_seat(seat) or seat == r["winner"]:
            return reject("bad_seat", N_("There is no such seat."))
        label = self.check_card(action.get("card"))
        if isinstance(label, Rejection):
            return label
        tally = r["tally"][seat]
        if remove:
            if label not in tally:
                return reject("not_counted", N_("{card} was not entered for {name}."),
                              card=label, name=self.name(seat))
            tally.remove(label)
            return None
        if len(tally) >= r["counts"][seat]:
            return reject("hand_full", N_("{name} holds only {n} cards."),
                          name=self.name(seat), n=r["counts"][seat])
        if (bad := self.check_copies([c for t in r["tally"] for c in t] + [label])) is not None:
            return bad
        tally.append(label)
        self.emit("counted", seat=seat, card=label)
        return None

    def check_hands(self, hands: Any, winner: int, counts: list[int] | None
                    ) -> list[Any] | Rejection:
        """Hands left: one entry per seat, a list of card names or the points counted."""
        if not isinstance(hands, list) or len(hands) != self.n:
            return reject("bad_hands", N_("Give the hand left for each of the {n} players."),
                          n=self.n)
        out: list[Any] = []
        for seat, hand in enumerate(hands):
            if isinstance(hand, int) and not isinstance(hand, bool):
                if not 0 <= hand <= MAX_HAND_POINTS:
                    return reject("bad_hands", N_("Points must be between 0 and {n}."),
                                  n=MAX_HAND_POINTS)
            elif isinstance(hand, list):
                for label in hand:
                    if isinstance(bad := self.check_card(label), Rejection):
                        return bad
                if counts is not None and len(hand) != counts[seat]:
                    return reject("hand_count",
                                  N_("{name} holds {n} cards; {m} were entered."),
                                  name=self.name(seat), n=counts[seat], m=len(hand))
                hand = list(hand)
            else:
                return reject("bad_hands", N_("A hand is a list of cards or its points."))
            if seat == winner and hand not in ([], 0):
                return reject("winner_has_cards", N_("{name} went out and holds no cards."),
                              name=self.name(seat))
            out.append(hand)
        return out

    def end_round(self, action: dict[str, Any]) -> Rejection | None:
        if (bad := self.phase_is("scoring")) is not None:
            return bad
        if (bad := self.seated_or_table()) is not None:
            return bad
        r = self.r
        if action.get("hands") is None:
            for seat, tally in enumerate(r["tally"]):
                if len(tally) != r["counts"][seat]:
                    return reject("hand_incomplete",
                                  N_("{name}'s hand: {m} of {n} cards entered."),
                                  name=self.name(seat), m=len(tally), n=r["counts"][seat])
            hands: Any = r["tally"]
        else:
            hands = self.check_hands(action["hands"], r["winner"], r["counts"])
            if isinstance(hands, Rejection):
                return hands
            listed = [c for h in hands if isinstance(h, list) for c in h]
            if (bad := self.check_copies(listed)) is not None:
                return bad
        self.st["rounds"].append({"number": r["number"], "dealer": self.st["dealer"],
                                  "winner": r["winner"], "hands": hands})
        self.emit("round_scored", round=len(self.st["rounds"]) - 1)
        self.st["round"] = None
        if target_reached(self.st):
            self.st["phase"] = "match_over"
            self.st["ended"] = True
            self.emit("game_over")
        else:
            self.st["phase"] = "round_over"
        return None

    def next_round(self, action: dict[str, Any]) -> Rejection | None:
        """The deal passes to the left ([DEFAULT]: clockwise, whatever the last direction)."""
        if (bad := self.phase_is("round_over")) is not None:
            return bad
        if (bad := self.seated_or_table()) is not None:
            return bad
        dealer = (self.st["dealer"] + 1) % self.n
        new_round(self.st, dealer)
        self.emit("dealer", seat=dealer)
        return None

    # -- the host's corrections ---------------------------------------------------------
    def edit_round(self, action: dict[str, Any]) -> Rejection | None:
        index = action.get("round")
        rounds = self.st["rounds"]
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(rounds):
            return reject("bad_round", N_("There is no round {round}."), round=str(index)[:20])
        winner = action.get("winner", rounds[index]["winner"])
        if not self.valid_seat(winner):
            return reject("bad_seat", N_("There is no such seat."))
        hands = self.check_hands(action.get("hands", rounds[index]["hands"]), winner, None)
        if isinstance(hands, Rejection):
            return hands
        rounds[index] = {**rounds[index], "winner": winner, "hands": hands}
        self.emit("round_edited", round=index)
        if self.st["ended_by_host"]:
            return None
        done = target_reached(self.st)
        if done and not self.st["ended"]:
            self.st.update(ended=True, phase="match_over", round=None)
            self.emit("game_over")
        elif not done and self.st["ended"]:
            self.st.update(ended=False, phase="round_over")
            self.emit("game_resumed")
        return None

    def adjust_count(self, action: dict[str, Any]) -> Rejection | None:
        """Put the referee right about a hand size; the draw pile gives or takes the cards."""
        if (bad := self.phase_is("play")) is not None:
            return bad
        seat, count = action.get("seat"), action.get("count")
        if not self.valid_seat(seat):
            return reject("bad_seat", N_("There is no such seat."))
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_COUNT:
            return reject("bad_count", N_("A hand holds 1 to {n} cards."), n=MAX_COUNT)
        delta = count - self.r["counts"][seat]
        if delta > self.r["draw_pile"]:
            return reject("bad_count", N_("The draw pile holds only {n} cards."),
                          n=self.r["draw_pile"])
        self.r["draw_pile"] -= delta
        self.set_count(seat, count)
        self.emit("count_adjusted", seat=seat, count=count)
        return None

    def end_match(self, action: dict[str, Any]) -> Rejection | None:
        if self.st["ended"]:
            return reject("game_over", N_("The match is over."))
        self.st.update(ended=True, ended_by_host=True, phase="match_over", round=None)
        self.emit("game_over")
        return None
