"""The start of a round: cutting for the deal (setup 1), naming the dealer, and the first
card turned up (R20-R26)."""

from __future__ import annotations

from typing import Any

from companion.games.base import N_, Rejection, reject
from companion.games.uno.deck import PUT_BACK_FIRST, colour_of, cut_value, symbol
from companion.games.uno.referee import Referee, new_round


class StartMoves(Referee):
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
