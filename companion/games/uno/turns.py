"""Moves on a turn: play (R1-R4, R7, R13-R16, R19, R27-R29), choose, draw and pass
(R5-R8, R18), and the UNO call and catch (R17)."""

from __future__ import annotations

from typing import Any

from companion.games.base import N_, Rejection, reject
from companion.games.uno.deck import COLOURS, CUSTOM, DRAW4, SWAP, colour_of, is_legal, symbol
from companion.games.uno.referee import Referee


class TurnMoves(Referee):
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
                stacking = self.opts["stack_draw2"] and pending["kind"] == "draw2"
                if not (stacking and symbol(label) == "draw2"):
                    return self.must_draw(seat, pending, stacking)
                stack = pending["amount"]
            if drawn is not None and drawn["seat"] == seat and drawn["card"] not in (None, label):
                return reject("only_drawn_card",
                              N_("After drawing you may play only the card you drew."))
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
                          N_("Wild Swap Hands cannot be your last card: draw instead."))
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
        self.set_count(seat, r["counts"][seat] - 1, "play")
        r["discard"].append(label)
        r["top"] = label
        self.emit("played", seat=seat, card=label)
        if r["counts"][seat] == 0:
            self.go_out(seat, label, stack, colour)
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

    def must_draw(self, seat: int, pending: dict[str, Any], stacking: bool) -> Rejection:
        """A draw penalty waits: the player draws it, or, where +2s stack (an option), plays
        a +2 on it. ("No stacking" was said where the table stacks.)"""
        if stacking:
            return reject("must_draw",
                          N_("{name} must draw {n} first, or play a Draw Two on it."),
                          name=self.name(seat), n=pending["amount"])
        return reject("must_draw", N_("{name} must draw {n} first: no stacking."),
                      name=self.name(seat), n=pending["amount"])

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
        self.set_count(a, cb, "swap")
        self.set_count(b, ca, "swap")
        self.r["uno"][a] = self.r["uno"][b] = False
        self.emit("swapped", seats=[a, b])
        self.after_swap([a, b])

    def rotate(self) -> None:
        """The 0 of 7-0: every hand passes to the next player in the direction of play."""
        old = list(self.r["counts"])
        self.r["catchable"] = []
        for seat in range(self.n):
            self.set_count(self.nxt(seat), old[seat], "swap")
            self.r["uno"][seat] = False
        self.emit("rotated", direction=self.r["direction"])
        self.after_swap(list(range(self.n)))

    def after_swap(self, seats: list[int]) -> None:
        """U5 [DEFAULT]: one card after a swap creates no UNO obligation (option)."""
        if self.opts["uno_after_swap"]:
            self.r["catchable"] += [s for s in seats if self.r["counts"][s] == 1]

    def go_out(self, seat: int, label: str, stack: int, colour: str | None = None) -> None:
        """R27: the round ends at once. R28: a final Draw Two / Wild Draw Four still makes the
        next player draw, and those cards count. (A Wild Draw Four played as the last card
        cannot be challenged: its player held no other card.) The last card is the pile's
        colour: its own, or the colour named with a wild (R10; a wild needs none now, and
        without one the pile has no colour rather than the one before it)."""
        r = self.r
        effect = self.effect_of(label)
        r["catchable"] = []
        r["awaiting"] = None
        r["colour"] = colour_of(label) or colour
        if colour_of(label) is None and colour is not None:
            self.emit("colour", seat=seat, colour=colour)
        self.emit("went_out", seat=seat)
        if effect in ("draw2", DRAW4):
            self.draw_cards(self.nxt(seat), (4 if effect == DRAW4 else 2) + stack)
        r["winner"] = seat
        r["current"] = None
        r["tally"] = [[] for _ in range(self.n)]
        r["points"] = [None] * self.n  # (a hand's points typed instead of its cards)
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
                              N_("You have drawn: play the card you drew or pass."))
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
        if (drawn_card is not None and not is_legal(drawn_card, r["top"], r["colour"])
                and not self.opts["draw_until_playable"]):
            # R6: "if not, his turn ends" (a named card that cannot go on the pile; under the
            # draw-until-playable house rule he draws again instead)
            self.emit("unplayable", seat=seat)
            self.pass_turn(seat)
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
            pending = r["pending"]
            return self.must_draw(seat, pending,
                                  self.opts["stack_draw2"] and pending["kind"] == "draw2")
        if r["drawn"] is None or r["drawn"]["seat"] != seat:
            return reject("draw_first", N_("Play a card or draw one before passing."))
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
        about_to = count == 2 and (
            (seat == r["current"] and r["pending"] is None) or self.next_may_act(seat))
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
            return self.not_catchable(target)
        r["catchable"].remove(target)
        self.emit("caught", seat=target, by=catcher)
        self.draw_cards(target, self.opts["uno_penalty"])
        return None

    def not_catchable(self, target: int) -> Rejection:
        """Why a player with one card cannot be caught, truly: he called; he owes no call
        (U5: a swap gave him one card; or the deal or the host's correction did, not his
        play); or he did owe it and the next player has started since (R17)."""
        r = self.r
        if r["uno"][target]:
            return reject("called_uno", N_("{name} called UNO."), name=self.name(target))
        how = (r.get("one_card_by") or [None] * self.n)[target]
        if how == "swap" and not self.opts["uno_after_swap"]:
            return reject("no_uno_owed",
                          N_("{name} was left with one card by a swap, not by playing: no "
                             "UNO call is owed."), name=self.name(target))
        if how not in ("play", "swap"):
            return reject("no_uno_owed",
                          N_("{name} did not play down to one card: no UNO call is owed."),
                          name=self.name(target))
        return reject("too_late", N_("Too late: the next player has already started."))
