"""Dou Di Zhu (rules/doudizhu.md): the referee of a table playing with real cards, or a
dealer for a table of phones. See docs/games/doudizhu.md for the rules decisions.

With real cards (option ``deal`` "table", the common case) the referee knows what is
played, face up in the middle: it judges each play, counts each player's cards down from the
deal and keeps the score. A player may tap in his own hand for the hint (private to his
phone). With ``deal`` "app" the app deals from ``ctx.rng`` and knows every hand.

State (plain JSON): ``hand`` is the current deal; its ``counts`` are the cards each player
holds, ``played`` the ranks played so far (15 counts), ``last`` the play to beat (None: the
player to move leads), ``passes`` the passes since it.
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
    Rejection,
    Result,
    State,
    action_type,
    reject,
)
from companion.games.doudizhu import camera, speech, views
from companion.games.doudizhu.actions import ACTIONS
from companion.games.doudizhu.cards import (
    MAX_PLAY,
    RANKS,
    N,
    counts_of,
    deal_sizes,
    full_pack,
    pack_counts,
    rank_of,
    shown,
)
from companion.games.doudizhu.cards import (
    names as rank_names,
)
from companion.games.doudizhu.combos import (
    BEAT_WHY,
    KIND_NAMES,
    WHY,
    Combo,
    beats,
    classify,
    rules_of,
)
from companion.games.doudizhu.options import OPTIONS

HOST_ONLY = frozenset(a.type for a in ACTIONS if a.host_only)


def combo_of(play: dict[str, Any]) -> Combo:
    return Combo(play["kind"], play["key"], play["length"], play["size"])


def new_hand(state: State, rng: random.Random | None, number: int) -> None:
    """A fresh deal: every player holds the deal's size, nobody is landlord yet."""
    n = len(state["players"])
    size, kitty = deal_sizes(n)
    h: dict[str, Any] = {
        "number": number,
        "phase": "auction" if state["options"]["landlord"] == "auction" else "landlord",
        "first": None,  # who drew the face-up card: bids first (auction) or is landlord
        "face_up": None,  # the face-up card (app deal)
        "turn": None,  # who speaks in the auction (None: whoever drew the face-up card)
        "bids": [],  # [{"seat", "bid"}] in order; bid 0 is a pass
        "high": 0,
        "high_seat": None,
        "out": [],  # seats that passed in the auction
        "landlord": None,
        "bid": None,
        "doubles": [None] * n,
        "redouble": None,
        "kitty": None,  # the kitty's cards, when known to all
        "kitty_size": kitty,
        "counts": [size] * n,
        "adjusted": [0] * n,  # the host's corrections to the counts (a play the camera missed)
        "current": None,
        "last": None,
        "passes": 0,
        "trick": [],  # this trick: [{"seat", "cards"|None}]
        "plays": [],  # every play of the hand: [{"seat", "cards", "kind", ...}]
        "played": [0] * N,
        "played_by": [0] * n,
        "bombs": 0,
        "rockets": 0,
        "proposal": None,
        "winner": None,
        "result": None,
        "entered": [None] * n,  # hands tapped in for the hint (private, real cards)
        "dealt": None,  # the app's deal: per seat, card names (private); "kitty_cards"
        "kitty_cards": None,
    }
    if state["options"]["deal"] == "app" and rng is not None:
        pack = full_pack(n)
        rng.shuffle(pack)
        h["dealt"] = [sorted(pack[i * size:(i + 1) * size], key=_order) for i in range(n)]
        h["kitty_cards"] = pack[n * size:]
        face = rng.randrange(n * size)  # the face-up card pushed back into the stack
        h["face_up"] = pack[face]
        h["first"] = face // size
        if h["phase"] == "auction":
            h["turn"] = h["first"]
    state["hand"] = h
    if h["phase"] == "landlord" and h["first"] is not None:
        _crown(state, h["first"], 1, [])


def _order(name: str) -> tuple[int, str]:
    r = rank_of(name)
    return (r if r is not None else N, name)


def _crown(state: State, seat: int, bid: int, events: list[dict[str, Any]]) -> None:
    """The landlord is known: he takes the kitty (shown first, D2) and leads (P1)."""
    h = state["hand"]
    h["landlord"], h["bid"] = seat, bid
    h["turn"] = None
    h["counts"][seat] += h["kitty_size"]
    if h["dealt"] is not None:
        h["dealt"][seat] = sorted(h["dealt"][seat] + h["kitty_cards"], key=_order)
        if state["options"]["reveal_kitty"]:
            h["kitty"] = [RANKS[rank_of(c)] for c in h["kitty_cards"]]  # type: ignore[index]
    events.append({"type": "landlord", "seat": seat, "bid": bid, "kitty": h["kitty"]})
    if state["options"]["doubling"]:
        h["phase"] = "doubling"
        h["turn"] = (seat + 1) % len(state["players"])
    else:
        _start_play(h)


def _start_play(h: dict[str, Any]) -> None:
    h["phase"] = "play"
    h["turn"] = None
    h["current"] = h["landlord"]


class Move:
    """One action on a private copy of the state (``apply`` never mutates its input)."""

    def __init__(self, state: State, ctx: Context) -> None:
        self.st = copy.deepcopy(state)
        self.h: dict[str, Any] = self.st["hand"]
        self.ctx = ctx
        self.n = len(self.st["players"])
        self.events: list[dict[str, Any]] = []

    # -- helpers -------------------------------------------------------------------------
    def seat(self, action: Action, expected: int | None) -> int | Rejection:
        """The seat acting: the one named, else the phone's own, else (host, camera) the
        one expected to act."""
        seat = action.get("seat")
        if seat is None:
            seat = self.ctx.actor.seat if self.ctx.actor.seat is not None else expected
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.n:
            return reject("bad_seat", N_("Name a seat from 0 to {last}."), last=self.n - 1)
        if not self.ctx.actor.can_act_for(seat):
            return reject("not_your_seat", N_("You can only act for your own seat."))
        return seat

    def on_turn(self, action: Action, expected: int | None) -> int | Rejection:
        seat = self.seat(action, expected)
        if isinstance(seat, Rejection):
            return seat
        if expected is not None and seat != expected:
            return reject("not_your_turn", N_("It is {player}'s turn."),
                          player=self.st["players"][expected])
        return seat

    def phase(self, *phases: str) -> Rejection | None:
        if self.h["phase"] not in phases:
            return reject("wrong_phase", N_("That is not possible now."))
        return None

    def cards(self, action: Action, key: str = "cards") -> list[int] | Rejection:
        """The rank counts of a list of cards, checked against what the pack can still hold."""
        raw = action.get(key)
        if not isinstance(raw, list) or len(raw) > MAX_PLAY:
            return reject("bad_cards", N_("Send the cards as a list of names."))
        ranks = []
        for token in raw:
            r = rank_of(token)
            if r is None:
                return reject("unknown_card", N_("Unknown card: {card}."), card=str(token)[:12])
            ranks.append(r)
        return counts_of(ranks)

    def pack_left(self, counts: list[int]) -> Rejection | None:
        pack = pack_counts(self.n)
        for r in range(N):
            if counts[r] + self.h["played"][r] > pack[r]:
                return reject("not_in_pack",
                              N_("The pack holds {n} × {rank}, and {played} were played "
                                 "already."), n=pack[r], rank=RANKS[r],
                              played=self.h["played"][r])
        return None

    # -- the auction (§3) ----------------------------------------------------------------
    def bid(self, action: Action) -> Rejection | None:
        if (refused := self.phase("auction")) is not None:
            return refused
        bid = action.get("bid")
        if isinstance(bid, bool) or bid not in (1, 2, 3):
            return reject("bad_bid", N_("Bid 1, 2 or 3."))
        seat = self.on_turn(action, self.h["turn"])
        if isinstance(seat, Rejection):
            return seat
        if bid <= self.h["high"]:
            return reject("bid_too_low", N_("Bid higher than {high}."), high=self.h["high"])
        self._speak(seat, bid)
        return None

    def _speak(self, seat: int, bid: int) -> None:
        h, mode = self.h, self.st["options"]["auction"]
        if h["first"] is None:
            h["first"] = seat
        h["bids"].append({"seat": seat, "bid": bid})
        self.events.append({"type": "bid", "seat": seat, "bid": bid})
        if bid:
            h["high"], h["high_seat"] = bid, seat
            if seat in h["out"]:
                h["out"].remove(seat)  # ("open": a passed player bids again)
        elif seat not in h["out"]:
            h["out"].append(seat)
        if bid == 3:  # B2
            _crown(self.st, seat, 3, self.events)
            return
        spoken = len(h["bids"])
        if mode == "single_round":
            done = spoken >= self.n
        elif mode == "open":
            tail = h["bids"][-(self.n - 1):]
            done = (h["high_seat"] is not None and len(tail) == self.n - 1
                    and all(b["bid"] == 0 for b in tail)) or (
                        h["high_seat"] is None and spoken >= self.n)
        else:  # pass_is_final (B3, D10)
            done = len(h["out"]) >= self.n - (h["high_seat"] is not None)
        if done:
            if h["high_seat"] is None:  # B4: everyone passed, a new deal
                self.events.append({"type": "redeal"})
                new_hand(self.st, self.ctx.rng, h["number"])
                return
            _crown(self.st, h["high_seat"], h["high"], self.events)
            return
        nxt = (seat + 1) % self.n
        if mode == "pass_is_final":
            while nxt in h["out"]:
                nxt = (nxt + 1) % self.n
        h["turn"] = nxt

    def landlord(self, action: Action) -> Rejection | None:
        if (refused := self.phase("landlord")) is not None:
            return refused
        seat = self.seat(action, None)
        if isinstance(seat, Rejection):
            return seat
        self.h["first"] = seat
        _crown(self.st, seat, 1, self.events)
        return None

    def double(self, action: Action) -> Rejection | None:
        if (refused := self.phase("doubling")) is not None:
            return refused
        h = self.h
        if h["turn"] == h["landlord"]:
            return reject("not_your_turn", N_("It is {player}'s turn."),
                          player=self.st["players"][h["landlord"]])
        seat = self.on_turn(action, h["turn"])
        if isinstance(seat, Rejection):
            return seat
        if not isinstance(action.get("double"), bool):
            return reject("bad_double", N_("Say true or false."))
        h["doubles"][seat] = action["double"]
        self.events.append({"type": "double", "seat": seat, "double": action["double"]})
        nxt = (seat + 1) % self.n
        if nxt == h["landlord"]:
            if any(h["doubles"]):
                h["turn"] = h["landlord"]
            else:
                _start_play(h)
        else:
            h["turn"] = nxt
        return None

    def redouble(self, action: Action) -> Rejection | None:
        if (refused := self.phase("doubling")) is not None:
            return refused
        h = self.h
        if h["turn"] != h["landlord"]:
            return reject("not_your_turn", N_("It is {player}'s turn."),
                          player=self.st["players"][h["turn"]])
        seat = self.on_turn(action, h["landlord"])
        if isinstance(seat, Rejection):
            return seat
        if not isinstance(action.get("redouble"), bool):
            return reject("bad_double", N_("Say true or false."))
        h["redouble"] = action["redouble"]
        self.events.append({"type": "redouble", "seat": seat, "redouble": action["redouble"]})
        _start_play(h)
        return None

    def kitty(self, action: Action) -> Rejection | None:
        if self.h["landlord"] is None or self.h["dealt"] is not None:
            return reject("wrong_phase", N_("That is not possible now."))
        counts = self.cards(action)
        if isinstance(counts, Rejection):
            return counts
        if sum(counts) != self.h["kitty_size"]:
            return reject("bad_kitty", N_("The kitty has {n} cards."), n=self.h["kitty_size"])
        self.h["kitty"] = [RANKS[r] for r in range(N) for _ in range(counts[r])]
        self.events.append({"type": "kitty", "cards": self.h["kitty"]})
        return None

    # -- play (§4) -----------------------------------------------------------------------
    def play(self, action: Action, proposal: bool = False) -> Rejection | None:
        if (refused := self.phase("play")) is not None:
            return refused
        h = self.h
        if h["proposal"] is not None and not proposal:
            return reject("proposal_pending",
                          N_("Confirm or dismiss the play the camera proposed first."))
        seat = self.on_turn(action, h["current"])
        if isinstance(seat, Rejection):
            return seat
        counts = self.cards(action)
        if isinstance(counts, Rejection):
            return counts
        judged = self.judge(seat, counts)
        if isinstance(judged, Rejection):
            return judged
        self._take(seat, counts, judged)
        return None

    def judge(self, seat: int, counts: list[int]) -> Combo | Rejection:
        """The combination a play makes, or why it may not be played now (P2, P3, §5)."""
        h = self.h
        if (refused := self.pack_left(counts)) is not None:
            return refused
        size = sum(counts)
        if size > h["counts"][seat]:
            return reject("too_many", N_("{player} holds only {n} cards."),
                          player=self.st["players"][seat], n=h["counts"][seat])
        if h["dealt"] is not None:
            held = counts_of([rank_of(c) for c in h["dealt"][seat]])  # type: ignore[misc]
            if any(counts[r] > held[r] for r in range(N)):
                return reject("not_held", N_("{player} does not hold these cards."),
                              player=self.st["players"][seat])
        combo = classify(counts, rules_of(self.st))
        if isinstance(combo, str):
            return reject(combo, WHY[combo], cards=shown(counts))
        last = h["last"]
        if last is not None:
            why = beats(combo, combo_of(last), rules_of(self.st))
            if why is not None:
                return reject(why, BEAT_WHY[why], cards=shown(counts),
                              kind=Label(KIND_NAMES[combo.kind]),
                              last=shown(counts_of(_ranks(last["cards"]))),
                              last_kind=Label(KIND_NAMES[last["kind"]]))
        return combo

    def _take(self, seat: int, counts: list[int], combo: Combo) -> None:
        h = self.h
        names = rank_names(counts)
        play = {"seat": seat, "cards": names, "kind": combo.kind, "key": combo.key,
                "length": combo.length, "size": combo.size}
        h["counts"][seat] -= combo.size
        for r in range(N):
            h["played"][r] += counts[r]
        h["played_by"][seat] += 1
        h["bombs"] += combo.kind == "bomb"
        h["rockets"] += combo.kind == "rocket"
        h["plays"].append(play)
        h["trick"].append({"seat": seat, "cards": names})
        h["last"], h["passes"] = play, 0
        h["proposal"] = None
        self._take_from_hands(seat, counts)
        self.events.append({"type": "played", "seat": seat, "cards": names,
                            "kind": combo.kind, "left": h["counts"][seat]})
        if h["counts"][seat] == 0:
            self._hand_over(seat)
        else:
            h["current"] = (seat + 1) % self.n

    def _take_from_hands(self, seat: int, counts: list[int]) -> None:
        """The played ranks leave the player's dealt or tapped-in hand."""
        h = self.h
        for key in ("dealt", "entered"):
            hands = h[key]
            if hands is None or hands[seat] is None:
                continue
            need = list(counts)
            kept = []
            for c in hands[seat]:
                r = rank_of(c)
                if r is not None and need[r] > 0:
                    need[r] -= 1
                else:
                    kept.append(c)
            hands[seat] = kept

    def pass_(self, action: Action) -> Rejection | None:
        if self.h["phase"] == "auction":
            seat = self.on_turn(action, self.h["turn"])
            if isinstance(seat, Rejection):
                return seat
            self._speak(seat, 0)
            return None
        if self.h["phase"] == "doubling":
            if self.h["turn"] == self.h["landlord"]:
                return self.redouble({**action, "redouble": False})
            return self.double({**action, "double": False})
        if (refused := self.phase("play")) is not None:
            return refused
        h = self.h
        if h["proposal"] is not None:
            return reject("proposal_pending",
                          N_("Confirm or dismiss the play the camera proposed first."))
        seat = self.on_turn(action, h["current"])
        if isinstance(seat, Rejection):
            return seat
        if h["last"] is None:
            return reject("must_lead", N_("You lead: play any combination."))
        h["passes"] += 1
        h["trick"].append({"seat": seat, "cards": None})
        self.events.append({"type": "passed", "seat": seat})
        if h["passes"] >= self.n - 1:  # P4: the others all passed
            leader = h["last"]["seat"]
            h["last"], h["passes"], h["trick"] = None, 0, []
            h["current"] = leader
            self.events.append({"type": "lead", "seat": leader})
        else:
            h["current"] = (seat + 1) % self.n
        return None

    def _hand_over(self, seat: int) -> None:
        """P6 and §6: who won, the multipliers, each player's points."""
        h, o = self.h, self.st["options"]
        lord = h["landlord"]
        lord_won = seat == lord
        peasants = [s for s in range(self.n) if s != lord]
        spring = lord_won and all(h["played_by"][s] == 0 for s in peasants)
        anti = (not lord_won and o["anti_spring"] and h["played_by"][lord] <= 1)
        multiplier = 2 ** (h["bombs"] + h["rockets"])
        if spring or anti:
            multiplier *= o["spring_multiplier"]
        stake = h["bid"] * multiplier
        points = [0] * self.n
        for p in peasants:
            each = stake
            if h["doubles"][p]:
                each *= 4 if h["redouble"] else 2
            points[p] = -each if lord_won else each
            points[lord] -= points[p]
        h["phase"] = "over"
        h["current"] = None
        h["winner"] = seat
        h["result"] = {"landlord": lord, "landlord_won": lord_won, "winner": seat, "spring": spring,
                       "anti_spring": anti, "bid": h["bid"], "bombs": h["bombs"],
                       "rockets": h["rockets"], "stake": stake, "points": points}
        self.st["totals"] = [a + b for a, b in zip(self.st["totals"], points, strict=True)]
        self.st["results"].append(h["result"])
        self.events.append({"type": "hand_over", **h["result"]})
        if o["hands"] and len(self.st["results"]) >= o["hands"]:
            self.st["ended"] = True

    # -- the camera's unsure plays ------------------------------------------------------
    def propose(self, action: Action) -> Rejection | None:
        if (refused := self.phase("play")) is not None:
            return refused
        seat = self.on_turn(action, self.h["current"])
        if isinstance(seat, Rejection):
            return seat
        counts = self.cards(action)
        if isinstance(counts, Rejection):
            return counts
        if sum(counts) == 0:
            return reject("empty", WHY["empty"])
        unsure = action.get("unsure", [])
        if not isinstance(unsure, list) or any(rank_of(u) is None for u in unsure):
            unsure = []
        names = rank_names(counts)
        self.h["proposal"] = {"seat": seat, "cards": names,
                              "unsure": [RANKS[rank_of(u)] for u in unsure][:MAX_PLAY]}  # type: ignore[index]
        self.events.append({"type": "proposed", **self.h["proposal"]})
        return None

    def confirm(self, action: Action) -> Rejection | None:
        p = self.h["proposal"]
        if self.h["phase"] != "play" or p is None:
            return reject("no_proposal", N_("No play is waiting to be confirmed."))
        cards = action.get("cards", p["cards"])
        return self.play({"type": "play", "cards": cards, "seat": p["seat"]}, proposal=True)

    def dismiss(self, action: Action) -> Rejection | None:
        p = self.h["proposal"]
        if self.h["phase"] != "play" or p is None:
            return reject("no_proposal", N_("No play is waiting to be confirmed."))
        seat = self.seat({"seat": p["seat"]}, p["seat"])
        if isinstance(seat, Rejection):
            return seat
        self.h["proposal"] = None
        self.events.append({"type": "dismissed", "seat": p["seat"]})
        return None

    # -- hands, corrections, the match ---------------------------------------------------
    def set_hand(self, action: Action) -> Rejection | None:
        if self.h["dealt"] is not None:
            return reject("dealt", N_("The app dealt the hands already."))
        seat = self.seat(action, None)
        if isinstance(seat, Rejection):
            return seat
        counts = self.cards(action)
        if isinstance(counts, Rejection):
            return counts
        if (refused := self.pack_left(counts)) is not None:
            return refused
        self.h["entered"][seat] = [RANKS[r] for r in range(N) for _ in range(counts[r])]
        return None  # (no event: the hand is private)

    def next_hand(self, action: Action) -> Rejection | None:
        if (refused := self.phase("over")) is not None:
            return refused
        new_hand(self.st, self.ctx.rng, self.h["number"] + 1)
        self.events.append({"type": "new_hand", "number": self.st["hand"]["number"]})
        return None

    def adjust_count(self, action: Action) -> Rejection | None:
        seat, count = action.get("seat"), action.get("count")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.n:
            return reject("bad_seat", N_("Name a seat from 0 to {last}."), last=self.n - 1)
        if isinstance(count, bool) or not isinstance(count, int) or not 0 < count <= 40:
            return reject("bad_count", N_("A count from 1 to 40."))
        self.h["adjusted"][seat] += count - self.h["counts"][seat]
        self.h["counts"][seat] = count
        self.events.append({"type": "count_adjusted", "seat": seat, "count": count})
        return None

    def end_match(self, action: Action) -> Rejection | None:
        self.st["ended"] = True
        self.events.append({"type": "match_over"})
        return None


def _ranks(names: list[str]) -> list[int]:
    return [rank_of(c) for c in names]  # type: ignore[misc]


HANDLERS = {
    "bid": "bid", "pass": "pass_", "landlord": "landlord", "double": "double",
    "redouble": "redouble", "kitty": "kitty", "play": "play", "propose": "propose",
    "confirm": "confirm", "dismiss": "dismiss", "set_hand": "set_hand",
    "next_hand": "next_hand", "adjust_count": "adjust_count", "end_match": "end_match",
}


class DouDiZhu:
    id: ClassVar[str] = "doudizhu"
    name: ClassVar[str] = N_("Dou Di Zhu")
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 4
    options: ClassVar[tuple[Option, ...]] = OPTIONS
    actions: ClassVar[tuple[ActionSpec, ...]] = ACTIONS
    # The camera reads the standard pack, fanned cards by their corner index, in the middle
    # of the table where every play is laid.
    camera_deck: ClassVar[str] = "french"
    camera_zones: ClassVar[tuple[tuple[str, tuple[float, float, float, float]], ...]] = (
        ("middle", (0.2, 0.2, 0.8, 0.8)),
    )
    # the zones where the camera reports every card it reads, not only the top one
    camera_sets: ClassVar[tuple[str, ...]] = ("middle",)
    # A refused play lies face up in the middle: every phone reads the verdict, the buzzer
    # sounds and the speaker says it (web.api.announce_refusal, narration.refusal_speech).
    buzz_codes: ClassVar[frozenset[str]] = speech.SPOKEN
    refusals_public: ClassVar[bool] = True

    def setup(self, players: list[str], options: dict[str, Any], rng: random.Random) -> State:
        opts = {o.name: o.default for o in OPTIONS} | dict(options)
        state: State = {"players": list(players), "options": opts,
                        "totals": [0] * len(players), "results": [], "ended": False,
                        "hand": None}
        new_hand(state, rng, 1)
        return state

    def apply(self, state: State, action: Action, ctx: Context) -> Result:
        kind = action_type(state, action, ctx, HANDLERS, HOST_ONLY)
        if isinstance(kind, Rejection):
            return kind
        move = Move(state, ctx)
        refused = getattr(move, HANDLERS[kind])(action)
        if refused is not None:
            return refused
        return Accepted(move.st, move.events)

    def public_view(self, state: State) -> dict[str, Any]:
        return views.public_view(state)

    def player_view(self, state: State, seat: int) -> dict[str, Any]:
        return views.player_view(state, seat)

    def history_view(self, state: State, entry: dict[str, Any], seat: int | None
                     ) -> dict[str, Any] | None:
        return views.history_view(state, entry, seat)

    def on_card_seen(self, state: State, zone: str, label: str | None, confidence: float,
                     cards: list[tuple[str | None, float]] | None = None,
                     best: str | None = None,
                     guesses: list[str | None] | None = None) -> Action | None:
        return camera.on_card_seen(state, zone, label, confidence, cards, best, guesses)

    def speak_refusal(self, state: State, code: str, params: dict[str, Any],
                      seat: int | None) -> dict[str, str] | None:
        """The speaker's words for a refused play, in each language (``narration``)."""
        return speech.refusal_lines(state, code, params, seat)

    def outcome(self, state: State) -> dict[str, Any] | None:
        if not state["ended"]:
            return None
        top = max(state["totals"]) if state["totals"] else 0
        return {"winners": [i for i, t in enumerate(state["totals"]) if t == top],
                "scores": list(state["totals"])}

    def export(self, state: State) -> dict[str, Any]:
        """One row a hand: the landlord, the bid, the multipliers and each player's points."""
        columns = ["hand", "landlord", "bid", "bombs", "rockets", "spring", "stake",
                   *state["players"]]
        rows = []
        for i, r in enumerate(state["results"]):
            rows.append([i + 1, state["players"][r["landlord"]], r["bid"], r["bombs"],
                         r["rockets"], r["spring"] or r["anti_spring"], r["stake"],
                         *r["points"]])
        return {"columns": columns, "rows": rows}

