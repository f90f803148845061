"""Huang Di's referee (rules/huangdi.md): the walls, the piles on the table, whose turn.

The deck is physical and the referee never knows a hand: it holds every public card (each
stock's face-up top once it is turned, the discard piles, the walls and the Invert cards
beside them) and only *counts* of the hidden ones (hands, draw pile, the stocks under their
tops). So a card played from a hand is judged by the card alone, and a refill is a count:
at the start of each turn the player's hand is filled to 5 from the draw pile (R15), and again
when plays empty it (R16). Every card is always somewhere: draw pile + hands + stocks +
discard piles + walls (+ the Inverts set aside, with ``inverts_back`` off) = the deck.

A wall (three places, R4) is ``None`` or ``{"cards", "top", "inverts"}``: the cards laid on
it in order (jokers as they are), the value on top, and the Invert cards beside it (R10): it
goes up while that count is even. It needs ``top + 1`` going up, ``top - 1`` going down, a 1
when empty (R2, A4), and leaves the table on reaching 10 going up or 1 going down (R5, R9),
its cards back into the draw pile (R11).

A play whose source is not known (the camera saw a card land on a wall and no pile told where
it came from) is judged at once, then waits in ``pending`` until the player (or the camera,
seeing the pile it left) says where from.
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
    action_type,
    reject,
)
from companion.games.huangdi import camera, speech
from companion.games.huangdi.spec import ACTIONS, OPTIONS

HAND = 5
WALLS = 3
NUMBERS = tuple(str(n) for n in range(1, 11))
CARDS = (*NUMBERS, "joker", "invert")
SOURCES = ("hand", "stock", "discard0", "discard1")
# Refusals the whole table hears (the buzzer, every phone, the speaker): a card laid on a wall
# that may not go there. The player takes it back.
WRONG_PLAY = frozenset({"wrong_card", "wrong_partner", "cannot_invert", "invert_alone",
                        "joker_not_invert", "invert_needs_wall"})
_NAMES = {"joker": N_("Joker"), "invert": N_("Invert")}


def shown(card: str) -> str:
    """A card as a message names it: its number, or "Joker"/"Invert" in the phone's language."""
    return Label(_NAMES[card]) if card in _NAMES else card


def deck_counts(options: dict[str, Any]) -> dict[str, int]:
    """How many of each card the table's deck holds (section 1 / A2: configured)."""
    return {**{n: options["copies"] for n in NUMBERS}, "joker": options["jokers"],
            "invert": options["inverts"]}


def direction(wall: dict[str, Any]) -> str:
    """R10: up while the Inverts beside the wall are even in number."""
    return "up" if wall["inverts"] % 2 == 0 else "down"


def needs(wall: dict[str, Any] | None) -> int:
    """The value the wall takes next: 1 to start one (R2), else the next in its direction."""
    if wall is None:
        return 1
    return wall["top"] + (1 if direction(wall) == "up" else -1)


def invert_partner(wall: dict[str, Any] | None) -> int | None:
    """The value that must go down with an Invert on this wall (R7), None where none may
    (an empty wall; R8: 1 going up, 10 going down)."""
    if wall is None:
        return None
    value = wall["top"] + (-1 if direction(wall) == "up" else 1)
    return value if 1 <= value <= 10 else None


def _int(value: Any, low: int, high: int) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        return None
    return value


def public_cards(state: State) -> dict[str, int]:
    """Every card that lies face up on the table, by name."""
    out = dict.fromkeys(CARDS, 0)
    for stock in state["stocks"]:
        if stock["top"] is not None:
            out[stock["top"]] += 1
    for piles in state["discards"]:
        for pile in piles:
            for c in pile:
                out[c] += 1
    for wall in state["walls"]:
        if wall is not None:
            for c in wall["cards"]:
                out[c] += 1
            out["invert"] += wall["inverts"]
    return out


def accounted(state: State) -> int:
    """The cards the referee knows to be somewhere (always the deck's size)."""
    return (state["draw"] + sum(state["hands"]) + sum(s["count"] for s in state["stocks"])
            + sum(len(p) for piles in state["discards"] for p in piles)
            + sum(len(w["cards"]) + w["inverts"] for w in state["walls"] if w is not None)
            + state["out"])


class _Move:
    """One action worked out on a copy of the state (refusals leave the input untouched)."""

    def __init__(self, state: State, ctx: Context) -> None:
        self.st = copy.deepcopy(state)
        self.ctx = ctx
        self.events: list[dict[str, Any]] = []

    # -- helpers ----------------------------------------------------------------------
    @property
    def n(self) -> int:
        return len(self.st["players"])

    def hidden(self, card: str) -> int:
        """Copies of ``card`` not face up on the table (in a hand, the draw pile, a stock);
        the Inverts set aside with a completed wall (``out``) are in none of them."""
        gone = self.st["out"] if card == "invert" else 0
        return deck_counts(self.st["options"])[card] - public_cards(self.st)[card] - gone

    def acting(self, action: Action) -> int | Rejection:
        """The seat to move, if the actor may act for it (a phone for its own seat; the host
        and the camera for the player to move)."""
        cur = self.st["current"]
        seat = action.get("seat", cur)
        if seat is None:
            seat = cur
        if _int(seat, 0, self.n - 1) is None:
            return reject("bad_seat", N_("There is no such seat."))
        if seat != cur:
            return reject("not_your_turn", N_("It is {name}'s turn."),
                          name=self.st["players"][cur])
        if not self.ctx.actor.can_act_for(seat):
            return reject("not_your_turn", N_("It is {name}'s turn."),
                          name=self.st["players"][cur])
        return seat

    def parse_source(self, seat: int, src: Any, owner: Any) -> tuple[str, int, int] | Rejection:
        """(kind, owner, pile) of a source: ("hand", seat, -1), ("stock", seat, -1),
        ("discard", owner, 0|1)."""
        if src not in SOURCES:
            return reject("bad_source", N_("Say where the card comes from: your hand, your "
                                           "stock or a discard pile."))
        if src in ("hand", "stock"):
            if owner is not None and owner != seat:
                return reject("bad_source", N_("Only discard piles may be another player's."))
            return src, seat, -1
        who = seat if owner is None else _int(owner, 0, self.n - 1)
        if who is None:
            return reject("bad_seat", N_("There is no such seat."))
        return "discard", who, int(src[-1])

    def check_take(self, seat: int, where: tuple[str, int, int], card: str,
                   taking: list[tuple[str, int, int]]) -> Rejection | None:
        """Whether ``card`` can be taken from ``where`` after the cards already ``taking``
        (an Invert taken first uncovers the card under it)."""
        kind, owner, pile = where
        earlier = [w for w in taking if w == where]
        if kind == "hand":
            if self.st["hands"][seat] - len(earlier) < 1:
                return reject("hand_empty", N_("Your hand is empty."))
            if self.hidden(card) < 1:
                return reject("no_more", N_("All {n} “{card}” cards are already face up on the "
                                            "table."), n=deck_counts(self.st["options"])[card],
                              card=shown(card))
            return None
        if kind == "stock":
            stock = self.st["stocks"][seat]
            if stock["count"] - len(earlier) < 1:
                return reject("stock_empty", N_("Your stock is empty."))
            top = stock["top"] if not earlier else None
            if top is not None and top != card:
                return reject("not_stock_top", N_("The top of your stock is {top}, not {card}."),
                              top=shown(top), card=shown(card))
            if top is None and self.hidden(card) < 1:
                return reject("no_more", N_("All {n} “{card}” cards are already face up on the "
                                            "table."), n=deck_counts(self.st["options"])[card],
                              card=shown(card))
            return None
        cards = self.st["discards"][owner][pile]
        if len(cards) - len(earlier) < 1:
            return reject("pile_empty", N_("That discard pile is empty."))
        top = cards[-1 - len(earlier)]
        if top != card:
            return reject("not_pile_top", N_("The top of that discard pile is {top}, not "
                                              "{card}."), top=shown(top), card=shown(card))
        if owner != seat:
            access = self.st["options"]["discard_access"]
            if access == "own_only":
                return reject("own_piles_only", N_("Only your own discard piles may be used."))
            if access == "own_plus_one" and (
                    owner in self.st["turn"]["taken_from"]
                    or any(w[0] == "discard" and w[1] == owner for w in taking)):
                return reject("one_per_opponent", N_("Only one card a turn may come from "
                                                     "{name}'s discard piles."),
                              name=self.st["players"][owner])
        return None

    def take(self, seat: int, where: tuple[str, int, int]) -> None:
        kind, owner, pile = where
        if kind == "hand":
            self.st["hands"][seat] -= 1
        elif kind == "stock":
            stock = self.st["stocks"][seat]
            stock["count"] -= 1
            stock["top"] = None  # R20: the next card is turned up (``reveal_stock``)
        else:
            self.st["discards"][owner][pile].pop()
            if owner != seat:
                self.st["turn"]["taken_from"].append(owner)

    def refill(self, seat: int, to: int = HAND) -> None:
        """Draw until the hand holds ``to`` cards, or what the draw pile has (A5)."""
        want = to - self.st["hands"][seat]
        if want <= 0:
            return
        if self.st["draw"] == 0 and self.st["options"]["empty_draw"] == "end":
            self.st["ended"] = True
            self.events.append({"type": "draw_pile_empty", "seat": seat})
            return
        got = min(want, self.st["draw"])
        self.st["draw"] -= got
        self.st["hands"][seat] += got
        self.events.append({"type": "drew", "seat": seat, "count": got})

    def start_turn(self, seat: int) -> None:
        st = self.st
        st["current"] = seat
        st["turn"] = {"number": st["turn"]["number"] + 1, "taken_from": []}
        st["lifted"] = []
        if seat not in st["started"]:
            st["started"].append(seat)
        self.events.append({"type": "turn", "seat": seat})
        self.refill(seat)  # R15

    # -- the wall -----------------------------------------------------------------------
    def judge(self, action: Action, seat: int) -> dict[str, Any] | Rejection:
        """The card against its wall, and the sources against the table: a plan to carry out,
        or the refusal (a wrong card is one the whole table hears)."""
        card = action.get("card")
        wall_no = _int(action.get("wall"), 0, WALLS - 1)
        if wall_no is None:
            return reject("bad_wall", N_("Choose wall 1, 2 or 3."))
        if card == "invert":
            return reject("invert_alone", N_("An Invert card is never played alone: lay it "
                                             "with the card that follows in the new "
                                             "direction."))  # R7
        if card not in NUMBERS and card != "joker":
            return reject("bad_card", N_("That is not a Huang Di card."))
        wall = self.st["walls"][wall_no]
        inverting = action.get("invert") is not None
        number = wall_no + 1
        if inverting:
            inv_card = action.get("invert_card", "invert")
            if inv_card == "joker":
                return reject("joker_not_invert", N_("A joker can stand for any number but "
                                                     "never for an Invert card."))  # R13
            if inv_card != "invert":
                return reject("not_invert", N_("Only an Invert card reverses a wall."))
            if wall is None:
                return reject("invert_needs_wall", N_("Wall {wall} is empty: there is no "
                                                      "direction to reverse."), wall=number)
            partner = invert_partner(wall)
            if partner is None:  # R8
                return reject("cannot_invert", N_("Wall {wall} cannot be inverted with {top} "
                                                  "on top."), wall=number, top=wall["top"])
            value = partner if card == "joker" else int(card)  # R14: a joker may go with it
            if value != partner:
                return reject("wrong_partner", N_("With an Invert, wall {wall} needs a {need}, "
                                                  "not a {card}."), wall=number, need=partner,
                              card=shown(card))
        else:
            need = needs(wall)
            value = need if card == "joker" else int(card)  # R13: a joker stands for any
            if value != need:
                return reject("wrong_card", N_("Wall {wall} needs a {need}, not a {card}."),
                              wall=number, need=need, card=shown(card))
        return {"card": card, "wall": wall_no, "value": value, "invert": inverting}

    def sources(self, action: Action, seat: int, plan: dict[str, Any],
                src_key: str = "from", owner_key: str = "owner"
                ) -> list[tuple[tuple[str, int, int], str]] | Rejection:
        """The cards taken, in order: the Invert first (it uncovers what lies under it),
        then the card laid on the wall."""
        taking: list[tuple[tuple[str, int, int], str]] = []
        wanted: list[tuple[Any, Any, str]] = []
        if plan["invert"]:
            wanted.append((action.get("invert"), action.get("invert_owner"), "invert"))
        wanted.append((action.get(src_key), action.get(owner_key), plan["card"]))
        for src, owner, card in wanted:
            where = self.parse_source(seat, src, owner)
            if isinstance(where, Rejection):
                return where
            refused = self.check_take(seat, where, card, [w for w, _c in taking])
            if refused is not None:
                return refused
            taking.append((where, card))
        return taking

    def lay(self, seat: int, plan: dict[str, Any],
            taking: list[tuple[tuple[str, int, int], str]], nxt: str | None = None) -> None:
        st = self.st
        for where, _card in taking:
            self.take(seat, where)
        st["lifted"] = []
        stock = st["stocks"][seat]
        if (nxt is not None and stock["count"] and any(w[0] == "stock" for w, _c in taking)
                and self.hidden(nxt) >= 1):
            stock["top"] = nxt  # the camera saw the card turned up under it (R20)
            self.events.append({"type": "stock_revealed", "seat": seat, "card": nxt})
        wall_no = plan["wall"]
        wall = st["walls"][wall_no] or {"cards": [], "top": 0, "inverts": 0}
        if plan["invert"]:
            wall["inverts"] += 1
        wall["cards"].append(plan["card"])
        wall["top"] = plan["value"]
        st["walls"][wall_no] = wall
        froms = [{"from": w[0] if w[0] != "discard" else f"discard{w[2]}", "owner": w[1]}
                 for w, _c in taking]
        self.events.append({"type": "played", "seat": seat, "card": plan["card"],
                            "value": plan["value"], "wall": wall_no, "invert": plan["invert"],
                            "from": froms[-1]["from"], "owner": froms[-1]["owner"],
                            "direction": direction(wall)})
        if (direction(wall) == "up" and wall["top"] == 10) or (
                direction(wall) == "down" and wall["top"] == 1):  # R5, R9
            back = len(wall["cards"]) + (wall["inverts"] if st["options"]["inverts_back"] else 0)
            st["draw"] += back  # R11
            st["out"] += len(wall["cards"]) + wall["inverts"] - back
            st["walls"][wall_no] = None
            self.events.append({"type": "wall_completed", "wall": wall_no, "cards": back})
            self.events.append(speech.narrate("wall_completed", wall=wall_no + 1))
        if st["stocks"][seat]["count"] == 0 and any(w[0] == "stock" for w, _c in taking):
            st["ended"] = True  # R1: the game ends at once
            st["winner"] = seat
            self.events.append({"type": "won", "seat": seat})
            self.events.append(speech.narrate("won", name=st["players"][seat]))
            return
        if st["hands"][seat] == 0:
            self.refill(seat)  # R16

    # -- the actions --------------------------------------------------------------------
    def reveal_stock(self, action: Action) -> Rejection | None:
        seat = action.get("seat")
        if seat is None:
            seat = self.ctx.actor.seat if self.ctx.actor.seat is not None else self.st["current"]
        if _int(seat, 0, self.n - 1) is None:
            return reject("bad_seat", N_("There is no such seat."))
        if not self.ctx.actor.can_act_for(seat):
            return reject("not_your_stock", N_("Only {name} turns up that stock's card."),
                          name=self.st["players"][seat])
        card = action.get("card")
        if card not in CARDS:
            return reject("bad_card", N_("That is not a Huang Di card."))
        stock = self.st["stocks"][seat]
        if stock["count"] == 0:
            return reject("stock_empty", N_("That stock is empty."))
        if stock["top"] is not None:
            return reject("top_known", N_("The top of that stock is already {top}."),
                          top=shown(stock["top"]))
        if (self.st["options"]["reveal_stock"] == "first_turn"
                and seat not in self.st["started"]):  # A7
            return reject("not_yet", N_("{name} turns up his stock's card at the start of his "
                                        "first turn."), name=self.st["players"][seat])
        if self.hidden(card) < 1:
            return reject("no_more", N_("All {n} “{card}” cards are already face up on the "
                                        "table."), n=deck_counts(self.st["options"])[card],
                          card=shown(card))
        stock["top"] = card
        self.events.append({"type": "stock_revealed", "seat": seat, "card": card})
        return None

    def play(self, action: Action) -> Rejection | None:
        seat = self.acting(action)
        if isinstance(seat, Rejection):
            return seat
        if self.st["pending"] is not None:
            return self._pending_first()
        plan = self.judge(action, seat)
        if isinstance(plan, Rejection):
            return plan
        nxt = action.get("next")
        if nxt is not None and nxt not in CARDS:
            return reject("bad_card", N_("That is not a Huang Di card."))
        known = {"from": action.get("from"), "owner": action.get("owner"),
                 "invert": action.get("invert"), "invert_owner": action.get("invert_owner"),
                 "next": nxt}
        if known["from"] is None or known["invert"] == "unknown":
            # the camera saw it land and no pile told where from: judged now, taken later
            return self._ask(seat, plan, known)
        taking = self.sources(known, seat, plan)
        if isinstance(taking, Rejection):
            return taking
        self.lay(seat, plan, taking, nxt)
        return None

    def _ask(self, seat: int, plan: dict[str, Any], known: dict[str, Any]) -> Rejection | None:
        """Keep a judged play until its sources are told (``known``: those already told)."""
        for key, owner_key, card in (("from", "owner", plan["card"]),
                                     ("invert", "invert_owner", "invert")):
            if key == "invert" and not plan["invert"]:
                known[key] = known[owner_key] = None
            elif known[key] in (None, "unknown"):
                known[key] = known[owner_key] = None
                if not self.possible(seat, card):
                    return reject("no_source", N_("No {card} is in your hand, on your stock or "
                                                  "on a discard pile you may use."),
                                  card=shown(card))
            else:
                where = self.parse_source(seat, known[key], known[owner_key])
                if isinstance(where, Rejection):
                    return where
                refused = self.check_take(seat, where, card, [])
                if refused is not None:
                    return refused
        self.st["pending"] = {"seat": seat, **plan, "from": known["from"],
                              "owner": known["owner"], "invert_from": known["invert"],
                              "invert_owner": known["invert_owner"], "next": known["next"]}
        self.events.append({"type": "source_asked", "seat": seat, "card": plan["card"],
                            "wall": plan["wall"], "invert": plan["invert"]})
        return None

    def possible(self, seat: int, card: str) -> list[dict[str, Any]]:
        """Where ``card`` could come from (what the phone offers when asked)."""
        out = []
        for i in range(self.n):
            for src in (SOURCES if i == seat else ("discard0", "discard1")):
                where = self.parse_source(seat, src, i)
                if not isinstance(where, Rejection) and self.check_take(
                        seat, where, card, []) is None:
                    out.append({"from": src, "owner": i})
        return out

    def _pending_first(self) -> Rejection:
        p = self.st["pending"]
        return reject("source_pending", N_("Say first where the {card} on wall {wall} came "
                                           "from."), card=shown(p["card"]), wall=p["wall"] + 1)

    def source(self, action: Action) -> Rejection | None:
        seat = self.acting(action)
        if isinstance(seat, Rejection):
            return seat
        p = self.st["pending"]
        if p is None:
            return reject("no_pending", N_("No card is waiting to be placed."))
        nxt = action.get("next", p["next"])
        if nxt is not None and nxt not in CARDS:
            return reject("bad_card", N_("That is not a Huang Di card."))
        known = {"from": p["from"], "owner": p["owner"], "invert": p["invert_from"],
                 "invert_owner": p["invert_owner"], "next": nxt}
        given = False
        for key, owner_key in (("from", "owner"), ("invert", "invert_owner")):
            if action.get(key) is not None:
                if key == "invert" and not p["invert"]:
                    return reject("no_invert", N_("No Invert card was played with it."))
                known[key], known[owner_key] = action.get(key), action.get(owner_key)
                given = True
        if not given:
            return reject("bad_source", N_("Say where the card comes from: your hand, your "
                                           "stock or a discard pile."))
        plan = {k: p[k] for k in ("card", "wall", "value", "invert")}
        if known["from"] is None or (plan["invert"] and known["invert"] is None):
            self.st["pending"] = None
            return self._ask(seat, plan, known)  # (one of two told: the other still asked)
        taking = self.sources(known, seat, plan)
        if isinstance(taking, Rejection):
            return taking
        self.st["pending"] = None
        self.lay(seat, plan, taking, nxt)
        return None

    def lifted(self, action: Action) -> Rejection | None:
        """The camera saw a pile's top taken (its new top, or nothing): a note, so that the
        card it then sees land on a wall is known to come from there."""
        seat = self.acting(action)
        if isinstance(seat, Rejection):
            return seat
        where = self.parse_source(seat, action.get("from"), action.get("owner"))
        if isinstance(where, Rejection):
            return where
        if where[0] == "hand":
            return reject("bad_source", N_("Only a pile's top can be seen taken."))
        kept = [n for n in self.st["lifted"]
                if (n["from"], n["owner"]) != (action["from"], where[1])]
        if action.get("back") is True:  # the card was put back where it lay
            if len(kept) == len(self.st["lifted"]):
                return reject("not_lifted", N_("No card was seen taken from that pile."))
            self.st["lifted"] = kept
            return None
        nxt = action.get("next")
        if nxt is not None and nxt not in CARDS:
            return reject("bad_card", N_("That is not a Huang Di card."))
        kind, owner, pile = where
        if kind == "stock":
            top = self.st["stocks"][seat]["top"] if self.st["stocks"][seat]["count"] else None
        else:
            cards = self.st["discards"][owner][pile]
            top = cards[-1] if cards else None
        if top is None:
            return reject("pile_empty", N_("That pile shows no card to take."))
        note = {"from": action["from"], "owner": owner, "card": top, "next": nxt}
        self.st["lifted"] = [*kept[-3:], note]
        return None

    def dismiss(self, action: Action) -> Rejection | None:
        seat = self.acting(action)
        if isinstance(seat, Rejection):
            return seat
        if self.st["pending"] is None:
            return reject("no_pending", N_("No card is waiting to be placed."))
        self.st["pending"] = None
        self.st["lifted"] = []
        self.events.append({"type": "dismissed", "seat": seat})
        return None

    def discard(self, action: Action) -> Rejection | None:
        seat = self.acting(action)
        if isinstance(seat, Rejection):
            return seat
        if self.st["pending"] is not None:
            return self._pending_first()
        card = action.get("card")
        if card not in CARDS:
            return reject("bad_card", N_("That is not a Huang Di card."))
        pile = _int(action.get("pile"), 0, 1)
        if pile is None:
            return reject("bad_pile", N_("Choose discard pile 1 or 2."))
        if self.st["hands"][seat] < 1:  # R17: the discard comes from the hand
            return reject("hand_empty", N_("Your hand is empty: end your turn instead."))
        if self.hidden(card) < 1:
            return reject("no_more", N_("All {n} “{card}” cards are already face up on the "
                                        "table."), n=deck_counts(self.st["options"])[card],
                          card=shown(card))
        self.st["hands"][seat] -= 1
        self.st["discards"][seat][pile].append(card)
        self.events.append({"type": "discarded", "seat": seat, "card": card, "pile": pile})
        self.start_turn((seat + 1) % self.n)  # to the left; no draw now (section 3, 5)
        return None

    def end_turn(self, action: Action) -> Rejection | None:
        seat = self.acting(action)
        if isinstance(seat, Rejection):
            return seat
        if self.st["pending"] is not None:
            return self._pending_first()
        if self.st["hands"][seat] > 0:  # R17; A6 only with nothing to discard
            return reject("must_discard", N_("End your turn by discarding a card from your "
                                             "hand."))
        self.events.append({"type": "turn_ended", "seat": seat})
        self.start_turn((seat + 1) % self.n)
        return None

    def end_game(self, action: Action) -> Rejection | None:
        self.st["ended"] = True
        self.st["ended_by_host"] = True
        self.events.append({"type": "game_ended"})
        return None


HANDLERS = {"reveal_stock", "play", "source", "dismiss", "lifted", "discard", "end_turn",
            "end_game"}
HOST_ONLY = frozenset(a.type for a in ACTIONS if a.host_only)


class HuangDi:
    id: ClassVar[str] = "huangdi"
    name: ClassVar[str] = N_("Huang Di")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    options: ClassVar[tuple[Option, ...]] = OPTIONS
    actions: ClassVar[tuple[ActionSpec, ...]] = ACTIONS
    camera_deck: ClassVar[str] = "huangdi"
    buzz_codes: ClassVar[frozenset[str]] = WRONG_PLAY
    # A wrong card lies face up on a wall: every phone reads why (no hand is told).
    refusals_public: ClassVar[bool] = True

    def setup(self, players: list[str], options: dict[str, Any], rng: random.Random) -> State:
        opts = {o.name: o.default for o in OPTIONS} | dict(options)
        n = len(players)
        size = sum(deck_counts(opts).values())
        if n * opts["stock_size"] + HAND > size:
            raise OptionError(Rejection(
                "bad_option", N_("The deck ({size} cards) is too small for {n} stocks of "
                                 "{stock} and a hand."), {"size": size, "n": n,
                                                          "stock": opts["stock_size"]}))
        if opts["first_player"] >= n:
            raise OptionError(Rejection("bad_option", N_("There is no such seat.")))
        first = opts["first_player"]
        state: State = {
            "players": list(players),
            "options": opts,
            "deck_size": size,
            "draw": size - n * opts["stock_size"],
            "hands": [0] * n,
            "stocks": [{"count": opts["stock_size"], "top": None} for _ in range(n)],
            "discards": [[[], []] for _ in range(n)],
            "walls": [None] * WALLS,
            "out": 0,
            "current": first,
            "started": [],
            "turn": {"number": 0, "taken_from": []},
            "pending": None,
            "lifted": [],
            "ended": False,
            "ended_by_host": False,
            "winner": None,
        }
        move = _Move(state, None)  # type: ignore[arg-type]
        move.start_turn(first)
        return move.st

    def apply(self, state: State, action: Action, ctx: Context) -> Result:
        kind = action_type(state, action, ctx, HANDLERS, HOST_ONLY,
                           over=N_("The game is over."))
        if isinstance(kind, Rejection):
            return kind
        move = _Move(state, ctx)
        refused = getattr(move, kind)(action)
        if refused is not None:
            return refused
        return Accepted(move.st, move.events)

    # -- views --------------------------------------------------------------------------
    def public_view(self, state: State) -> dict[str, Any]:
        """Everything: the referee holds no secret (the hands are only counts)."""
        walls = []
        for wall in state["walls"]:
            if wall is None:
                walls.append({"cards": [], "top": None, "direction": "up", "inverts": 0,
                              "needs": 1, "invert_with": None})
            else:
                walls.append({"cards": wall["cards"], "top": wall["top"],
                              "direction": direction(wall), "inverts": wall["inverts"],
                              "needs": needs(wall), "invert_with": invert_partner(wall)})
        return {
            "players": state["players"],
            "options": state["options"],
            "current": state["current"],
            "turn": state["turn"],
            "started": state["started"],
            "walls": walls,
            "stocks": state["stocks"],
            "discards": state["discards"],
            "hands": state["hands"],
            "draw": state["draw"],
            "out": state["out"],
            "deck_size": state["deck_size"],
            "pending": state["pending"],
            "ended": state["ended"],
            "winner": state["winner"],
            "outcome": self.outcome(state),
        }

    def player_view(self, state: State, seat: int) -> dict[str, Any]:
        return {**self.public_view(state), "seat": seat}

    def outcome(self, state: State) -> dict[str, Any] | None:
        if not state["ended"]:
            return None
        winner = state["winner"]
        n = len(state["players"])
        if winner is None:
            return {"winners": [], "scores": [0] * n}
        if state["options"]["scoring"] == "stock_left":
            left = sum(s["count"] for s in state["stocks"])
            return {"winners": [winner], "scores": [left if i == winner else 0 for i in range(n)]}
        return {"winners": [winner], "scores": [1 if i == winner else 0 for i in range(n)]}

    def export(self, state: State) -> dict[str, Any]:
        """The score sheet: each player's stock left and score."""
        out = self.outcome(state) or {"scores": [0] * len(state["players"])}
        return {"columns": ["player", "stock_left", "score"],
                "header": [[N_("player"), {}], [N_("cards left in the stock"), {}],
                           [N_("score"), {}]],
                "rows": [[p, state["stocks"][i]["count"], out["scores"][i]]
                         for i, p in enumerate(state["players"])]}

    def speak_refusal(self, state: State, code: str, params: dict[str, Any],
                      seat: int | None) -> dict[str, str] | None:
        """The speaker's words for a wrong play, in each language (``narration``)."""
        return speech.refusal_lines(state, code, params, seat)

    # -- the camera ---------------------------------------------------------------------
    def camera_zones(self, players: list[str]) -> list[tuple[str, tuple[float, ...]]]:
        return camera.zones(players)

    def camera_zone_seat(self, zone: str, players: list[str]) -> int | None:
        return camera.zone_seat(zone, len(players))

    def camera_zone_label(self, zone: str, players: list[str]
                          ) -> tuple[str, dict[str, Any]] | None:
        """What the camera page calls a zone: three zones a seat all named after the
        player told nobody which was the stock."""
        where = camera.parse(zone, len(players))
        if where is None:
            return None
        kind, seat, k = where
        if kind == "wall":
            return N_("Wall {n}"), {"n": k + 1}
        if kind == "stock":
            return N_("{name}'s stock"), {"name": players[seat]}
        return N_("{name}'s pile {n}"), {"name": players[seat], "n": k + 1}

    def on_card_seen(self, state: State, zone: str, label: str | None, confidence: float,
                     t_ns: int | None = None, best: str | None = None,
                     again: bool = False) -> Action | None:
        return camera.on_card_seen(state, zone, label, confidence, best, again)
