"""The Wild Draw Four challenge (R9-R12): challenge, show the hand or give the verdict."""

from __future__ import annotations

from typing import Any

from companion.games.base import N_, Rejection, reject
from companion.games.uno.deck import draw4_legal
from companion.games.uno.referee import Referee


class ChallengeMoves(Referee):
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
