"""The end of a round and the match: counting the hands left, scoring, the next deal, and
the host's corrections."""

from __future__ import annotations

from typing import Any

from companion.games.base import N_, Rejection, reject
from companion.games.uno.referee import Referee, new_round
from companion.games.uno.scoring import target_reached, totals

MAX_HAND_POINTS = 100_000  # points counted by hand for one hand left
MAX_COUNT = 120  # cards in one hand
MAX_TOTAL = 1_000_000  # a total carried over from paper


class EndMoves(Referee):
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

    def uncount_card(self, action: dict[str, Any]) -> Rejection | None:
        return self.count_card(action, remove=True)

    def count_points(self, action: dict[str, Any]) -> Rejection | None:
        """The points counted in a hand left, typed on any phone, kept for the whole table as
        the tapped cards are (typed on each loser's own phone, they had stayed there, and the
        phone that scored the round refused it for the hands it had not been given)."""
        if (bad := self.phase_is("scoring")) is not None:
            return bad
        if (bad := self.seated_or_table()) is not None:
            return bad
        r = self.r
        seat, points = action.get("seat"), action.get("points")
        if not self.valid_seat(seat) or seat == r["winner"]:
            return reject("bad_seat", N_("There is no such seat."))
        if points is not None and (isinstance(points, bool) or not isinstance(points, int)
                                   or not 0 <= points <= MAX_HAND_POINTS):
            return reject("bad_hands", N_("Points must be between 0 and {n}."),
                          n=MAX_HAND_POINTS)
        if r.get("points") is None:  # (a round that ended before points were kept)
            r["points"] = [None] * self.n
        r["points"][seat] = points
        self.emit("points_counted", seat=seat, points=points)
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
            # each hand by its points where they were typed, else by its cards
            points = r.get("points") or [None] * self.n
            for seat, tally in enumerate(r["tally"]):
                if points[seat] is None and len(tally) != r["counts"][seat]:
                    return reject("hand_incomplete",
                                  N_("{name}'s hand: {m} of {n} cards entered."),
                                  name=self.name(seat), m=len(tally), n=r["counts"][seat])
            hands: Any = [list(tally) if points[seat] is None else points[seat]
                          for seat, tally in enumerate(r["tally"])]
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
        # the finished round stays readable (its last top card, colour, direction, the hands
        # left) until the next one is dealt
        r["hands"] = hands
        r["proposal"] = None
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
            # (numbered as the phones number the rounds, from 1)
            return reject("bad_round", N_("There is no round {round}."), round=(
                index + 1 if isinstance(index, int) and not isinstance(index, bool)
                else str(index)[:20]))
        winner = action.get("winner", rounds[index]["winner"])
        if not self.valid_seat(winner):
            return reject("bad_seat", N_("There is no such seat."))
        hands = self.check_hands(action.get("hands", rounds[index]["hands"]), winner, None)
        if isinstance(hands, Rejection):
            return hands
        rounds[index] = {**rounds[index], "winner": winner, "hands": hands}
        shown = self.st["round"]
        if (shown is not None and shown.get("hands") is not None
                and shown["number"] == rounds[index]["number"]):  # the finished round shown
            shown.update(winner=winner, hands=hands)
        self.emit("round_edited", round=index)
        if self.st["ended_by_host"]:
            return None
        done = target_reached(self.st)
        if done and not self.st["ended"]:
            self.st.update(ended=True, phase="match_over")
            self.emit("game_over")
        elif not done and self.st["ended"]:
            self.st.update(ended=False, phase="round_over")
            self.emit("game_resumed")
        return None

    def set_totals(self, action: dict[str, Any]) -> Rejection | None:
        """A match resumed from paper starts at the totals so far (before, the only way was
        to fake earlier rounds); the rounds played here add to them. The host may set them
        again (a typo) while the match runs, never to totals that already end it."""
        given = action.get("totals")
        if not isinstance(given, list) or len(given) != self.n or any(
                isinstance(t, bool) or not isinstance(t, int) or not 0 <= t <= MAX_TOTAL
                for t in given):
            return reject("bad_totals",
                          N_("Give each of the {n} players a total from 0 to {max}."),
                          n=self.n, max=MAX_TOTAL)
        before = self.st.get("carried") or [0] * self.n
        self.st["carried"] = list(given)
        if max(totals(self.st)) >= self.opts["target"]:
            self.st["carried"] = before
            return reject("target_reached",
                          N_("A total would reach the target ({target}): the match would be "
                             "over."), target=self.opts["target"])
        self.emit("totals_set", totals=list(given))
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
        self.st.update(ended=True, ended_by_host=True, phase="match_over")
        self.emit("game_over")
        return None
