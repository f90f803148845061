"""Versus referee: the rules of ../shared/rules/versus.md as pure functions.

The physical cards stay on the table; the state counts them. The camera reports each
player's discard-pile top (``pile_top``, stamped with the frame's ``t_ns``), which is how
the referee sees flips; the buttons report slaps (``slap``, stamped with the pin edges).
A slap is judged against the pile tops *at the instant of each press*, from a short
timeline kept per pile, never against what the table shows when the action arrives.

Races: the presses of one slap on the Gems (every press within ``late_ms`` of the first)
form a race. A race is settled from the state just before it (``undo_point``) plus
everything that happened since, so a press that arrives late, a camera report stamped
before a press, or the host's overruling all re-settle it the same way, and the log replays
exactly. Only the latest race can be re-settled; older decisions are fixed with ``correct``
or the table's undo.

Seats are numbered clockwise [DEFAULT]; the dealer is the last seat unless chosen, so seat 0
(the dealer's left) starts and gets the first of any extra cards.
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
    Label,
    Option,
    OptionError,
    Rejection,
    Result,
    State,
    reject,
)
from companion.games.versus import piles as P

VERSUS_CARDS = 48
GEM_CARDS = 18
PENALTIES = {
    "hand_behind_back": N_("Hand behind your back: flip and slap with one hand only."),
    "one_eye_closed": N_("One eye closed while the penalty lasts."),
    "cards_for_everyone": N_("Cards for everyone: give one card of your draw pile to each player."),
    "play_two": N_("Play two in a row: flip two cards on each of your turns."),
}
PENALTY_TITLES = {
    "hand_behind_back": N_("Hand behind your back"),
    "one_eye_closed": N_("One eye closed"),
    "cards_for_everyone": N_("Cards for everyone"),
    "play_two": N_("Play two in a row"),
}
MAX_PRESSES = 32
RACES_KEPT = 8
DECISIONS_KEPT = 40
CLAIMS_KEPT = 64
MAX_IDENT = 64
MAX_COUNT = 10_000
MAX_TIME = slap.MAX_T_NS + 1  # after every timestamp
# How long after a won slap its pair may still lie on the table while the winner gathers
# the piles: a slap on it is late until then, and a slap on nothing after it (no camera
# reports the piles empty; the phones show them empty at once)
GATHER_NS = 2_000_000_000
COLLECTS_KEPT = 16
# Who may say when a slap or a flip happened (a ``t_ns`` of its own): the buttons (the
# hardware layer stamps their edges, and a phone's press it takes), the camera (its
# frames), a phone's press stamped by the server on arrival (``Actor.source`` "server"),
# and the host. A time a phone sends is never believed: a player could choose his own press
# time (the pair's time + 1 ns, and win every slap) or a far-future one (and hide every
# later pair from the slaps). A phone's move without a time is stamped just after the
# latest time the table has seen.
TIMED_SOURCES = ("button", "camera", "server")


SHARED = ("undo_point", "piles", "arts")


def _clone(state: State) -> State:
    """A copy to change, in the time a slap allows: everything is copied except the big
    parts that moves replace rather than change in place (the undo point, the pile
    timelines, the known pictures); :func:`_since` and :func:`_own_pile` copy those on
    write."""
    out = json.loads(json.dumps({k: v for k, v in state.items() if k not in SHARED}))
    out.update({k: state[k] for k in SHARED if k in state})
    return out


def _since(state: State, item: dict[str, Any]) -> None:
    """Record what happened after the latest race, for settling it again (copy on write)."""
    up = state["undo_point"]
    if up is not None:
        state["undo_point"] = {**up, "since": [*up["since"], item]}


def _own_pile(state: State, seat: int) -> dict[str, Any]:
    """The seat's pile timeline, copied so it may be changed (copy on write)."""
    piles = list(state["piles"])
    piles[seat] = {**piles[seat], "tops": list(piles[seat]["tops"])}
    state["piles"] = piles
    return piles[seat]


def _collected(state: State, seat: int, t: int) -> bool:
    """Whether the seat's pile top just before ``t`` was taken by a won slap before ``t``
    (V2b: every discard pile goes under the winner's draw pile), so the pile is empty at
    ``t`` even though nobody has reported it empty. A top stamped after the slap is a new
    card."""
    prev = P.before(state["piles"][seat], t)
    if prev is None or prev[1] is None:
        return False
    # (any won slap between that top and ``t``: a report stamped before the latest one
    # but arriving after it is judged against the collection of its own time)
    return any(prev[0] <= c["t_ns"] < t for c in state["collects"])


def _gives_time(actor: Any) -> bool:
    """Whether the actor may give the time of a press or a sighting (:data:`TIMED_SOURCES`)."""
    return bool(actor.host or actor.source in TIMED_SOURCES)


def _untrusted_time() -> Rejection:
    return reject(
        "untrusted_time", N_("A phone cannot give its own time: the table stamps it.")
    )


def _last_collect(state: State) -> dict[str, Any] | None:
    """The latest won slap ({t_ns, winner}), or None before any."""
    return state["collects"][-1] if state["collects"] else None


def _kind(race: dict[str, Any]) -> str:
    """A race's verdict in one word: right | tie | wrong | late, or void (the Amulet) and
    reslap (nobody wins, slap again)."""
    if race["resolution"] in ("amulet", "reslap"):
        return "void" if race["resolution"] == "amulet" else "reslap"
    if race["winner"] is not None:
        return "right"
    return "tie" if race["tied"] else "wrong" if race["wrong"] else "late"


def _game_over() -> Rejection:
    return reject("game_over", N_("The game is over."))


def _int(value: Any, low: int, high: int) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        return None
    return value


def _seat_zone(zone: Any, n: int) -> int | None:
    if not isinstance(zone, str):
        return None
    for prefix in ("discard-", "pile-", "seat-"):
        if zone.startswith(prefix) and zone[len(prefix) :].isdigit():
            seat = int(zone[len(prefix) :])
            return seat if seat < n else None
    return None


class Versus:
    id: ClassVar[str] = "versus"
    name: ClassVar[str] = N_("Versus")
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 8
    # Versus art is unknown: pile tops are compared as images (a taught deck names them).
    camera_deck: ClassVar[str] = "taught"
    options: ClassVar[tuple[Option, ...]] = (
        slap.TIE_WINDOW_OPTION,
        Option(
            "tie_rule",
            "simultaneous",
            N_(
                "How a tie between right slaps is settled: the host picks the winner or calls "
                "a re-slap, everyone slaps again, a random draw, or the strict order of the "
                "presses."
            ),
            choices=slap.TIE_RULES,
            labels=(N_("Together: the host picks the winner or a re-slap"), N_("Slap again"),
                    N_("Drawn at random"), N_("Strict order of the presses")),
        ),
        Option(
            "right_after_wrong",
            "wins",
            N_(
                "A right slap after a wrong one in the same slap: it wins (V2, the first to "
                "slap correctly), or the first hand on the Gems, a wrong one, ends that slap "
                "and the right one under it wins nothing."
            ),
            choices=("wins", "void"),
            labels=(N_("The first right slap wins"), N_("A wrong first hand voids the slap")),
        ),
        Option(
            "late_ms",
            500,
            N_("Presses within this many milliseconds of the first belong to the same slap."),
            kind=int,
            minimum=0,
            maximum=5000,
        ),
        Option("gems", GEM_CARDS, N_("Gem cards in the deck."), kind=int, minimum=1, maximum=100),
        Option(
            "cards",
            VERSUS_CARDS,
            N_("Versus cards dealt out."),
            kind=int,
            minimum=3,
            maximum=500,
        ),
        Option(
            "dealer",
            None,
            N_("Who deals: the player to the dealer's left starts. Unless chosen, the last "
               "player deals, so the first player starts."),
            kind=int,
            minimum=0,
            maximum=7,
            seat=True,
        ),
        Option(
            "penalties",
            True,
            N_("Wrong slaps draw Penalty cards."),
            kind=bool,
        ),
        Option(
            "amulet",
            False,
            N_(
                "Play with the Lucky Amulet: one of the Gems; once, its holder may void a right "
                "slap on a pair he flipped (low-confidence reading of the rules)."
            ),
            kind=bool,
        ),
        Option(
            "same_art",
            0.85,  # vision.signature.SAME: the camera's signatures are compared at it
            N_("How alike two card images must be (cosine, 0 to 1) to count as identical."),
            kind=(int, float),
            minimum=0,
            maximum=1,
        ),
    )
    actions: ClassVar[tuple[ActionSpec, ...]] = (
        ActionSpec(
            "pile_top",
            N_("The top card of a seat's discard pile, as the camera (or a phone) saw it."),
            {"type": "pile_top", "seat": 1, "card": "star", "t_ns": 5_000_000_000},
            {
                "seat": "the pile's seat",
                "card": "identity (a taught label), or null with a signature, or null: empty",
                "signature": "optional list of numbers: the image signature",
                "t_ns": "optional monotonic ns of the frame (the camera, the host; a phone's "
                        "report is stamped by the table)",
            },
        ),
        ActionSpec(
            "slap",
            N_("Slaps on the Gem deck: the buttons' presses, or one phone's."),
            {
                "type": "slap",
                "presses": [
                    {"seat": 2, "t_ns": 5_300_000_000},
                    {"seat": 0, "t_ns": 5_323_000_000},
                ],
            },
            {
                "presses": "list of {seat, t_ns}: edge timestamps, monotonic ns",
                "seat": "instead of presses: one seat (a phone's on-screen button)",
                "t_ns": "with seat: optional press time (the host; a phone's press is "
                        "stamped by the table)",
            },
        ),
        ActionSpec(
            "give_gem",
            N_("The slap's winner gives the second Gem to another player."),
            {"type": "give_gem", "to": 3},
            {"to": "the seat that gets the Gem"},
        ),
        ActionSpec(
            "settle_tie",
            N_("Settle a tie: name the winner, or call a re-slap (host)."),
            {"type": "settle_tie", "winner": 2},
            {"winner": "a tied seat", "reslap": "true instead of a winner"},
            host_only=True,
        ),
        ActionSpec(
            "overrule",
            N_("Overrule the latest slap's verdict (host)."),
            {"type": "overrule", "winner": 4, "wrong": [1]},
            {
                "winner": "the seat that slapped right first, or null: nobody",
                "wrong": "the seats that slapped wrong (each draws a Penalty)",
            },
            host_only=True,
        ),
        ActionSpec(
            "set_penalty",
            N_("Set or clear a player's penalty (host)."),
            {"type": "set_penalty", "seat": 1, "penalty": "play_two"},
            {"seat": "seat", "penalty": "one of the penalties, or null"},
            host_only=True,
        ),
        ActionSpec(
            "correct",
            N_("Correct the counts: a player's cards or Gems, or the Gem deck (host)."),
            {"type": "correct", "seat": 1, "draw": 10, "discard": 0, "gems": 2, "out": False},
            {
                "seat": "seat (leave out for the Gem deck)",
                "draw": "cards in the draw pile",
                "discard": "cards in the discard pile",
                "gems": "Gems held",
                "out": "eliminated",
                "gem_deck": "Gems left in the deck",
                "turn": "whose turn it is",
            },
            host_only=True,
        ),
        ActionSpec(
            "use_amulet",
            N_("Use the Lucky Amulet on the latest right slap (its holder, or the host)."),
            {"type": "use_amulet", "seat": 0},
            {"seat": "the Amulet's holder, who flipped one of the matching cards"},
        ),
        ActionSpec(
            "phone_buttons",
            N_("Show or hide the phones' slap buttons: with the table's buttons wired, a "
               "phone's press (stamped on arrival, Wi-Fi late) is not fair against them (host)."),
            {"type": "phone_buttons", "on": False},
            {"on": "true: the phones may slap; false: only the table's buttons"},
            host_only=True,
        ),
        ActionSpec(
            "end_game", N_("End the game now (host)."), {"type": "end_game"}, host_only=True
        ),
    )

    # -- setup -------------------------------------------------------------------------
    def setup(self, players: list[str], options: dict[str, Any], rng: random.Random) -> State:
        opts = {o.name: o.default for o in self.options}
        opts.update(options or {})
        n = len(players)
        by_name = {o.name: o for o in self.options}
        if isinstance(opts["dealer"], int) and not 0 <= opts["dealer"] < n:
            # (the dealer is one of the players: a seat past the last one was taken for
            # "none" without a word)
            raise OptionError(Rejection(
                "bad_option", N_("“{option}”: enter a whole number from {low} to {high}."),
                {"option": Label(by_name["dealer"].help), "low": 0, "high": n - 1}))
        if int(opts["cards"]) < n:
            # (a player dealt no card never flips, so he never reached his last card and
            # was never eliminated)
            raise OptionError(Rejection(
                "bad_option", N_("“{option}”: enter a whole number from {low} to {high}."),
                {"option": Label(by_name["cards"].help), "low": n,
                 "high": by_name["cards"].maximum}))
        dealer = n - 1 if opts["dealer"] is None else opts["dealer"]
        first = (dealer + 1) % n
        draws = [0] * n
        for i in range(int(opts["cards"])):  # one at a time, from the dealer's left
            draws[(first + i) % n] += 1
        deck = list(PENALTIES) if opts["penalties"] else []
        rng.shuffle(deck)
        return {
            "players": list(players),
            "options": opts,
            "seats": [
                {
                    "draw": draws[s],
                    "discard": 0,
                    "gems": 0,
                    "penalty": None,
                    "out": False,
                    "last_card": False,
                }
                for s in range(n)
            ],
            "piles": [{"tops": []} for _ in range(n)],
            "arts": [],
            "gem_deck": int(opts["gems"]),
            "penalty_deck": deck,
            "dealer": dealer,
            "turn": first,
            "flips_left": 1,
            "gifts_due": [],
            "tie": None,
            "claimed": [],
            "collects": [],  # the latest won slaps, {t_ns, winner}, the last last (COLLECTS_KEPT)
            "races": [],
            "next_race": 1,
            "decisions": [],
            "undo_point": None,
            "t_last": 0,
            "ended": False,
            "ended_by_host": False,
            "amulet_used": False,
            "phone_buttons": True,  # the phones' on-screen slap buttons (the host's switch)
        }

    # -- what the adapters send -------------------------------------------------------
    def camera_zones(self, players: list[str]) -> list[tuple[str, tuple[float, ...]]]:
        """One discard zone per seat, side by side across the picture, in seat order: a
        start the host drags into place from the camera page."""
        n = max(1, len(players))
        w = 1.0 / n
        return [(f"discard-{i}", (round(i * w + 0.01, 3), 0.15, round((i + 1) * w - 0.01, 3),
                                  0.85)) for i in range(n)]

    def camera_zone_seat(self, zone: str, players: list[str]) -> int | None:
        """The seat whose discard pile a camera zone watches (None: no seat's, and the
        game ignores it): the camera page labels the zone with that player's name and warns
        of a zone the game never reads."""
        return _seat_zone(zone, len(players))

    def on_card_seen(
        self,
        state: State,
        zone: str,
        label: str | None,
        confidence: float,
        t_ns: int | None = None,
        signature: Any = None,
    ) -> Action | None:
        """A stable top card in a seat's discard zone (``discard-<seat>``) -> ``pile_top``.
        A cleared zone is a sighting with neither label nor signature."""
        seat = _seat_zone(zone, len(state["players"]))
        if seat is None:
            return None
        action: Action = {"type": "pile_top", "seat": seat, "card": label}
        if signature is not None:
            action["signature"] = [float(x) for x in signature]
        if t_ns is not None:
            action["t_ns"] = int(t_ns)
        return action

    def on_presses(self, state: State, presses: list[dict[str, Any]]) -> Action | None:
        """The presses of one race from the buttons -> one ``slap``. Once the game is over,
        only presses that belong to the last race (which may still change its verdict)."""
        if state.get("ended"):
            times = [p["t_ns"] for p in presses if slap.valid_press(p)]
            if state.get("ended_by_host") or not times or not self._joins(state, min(times)):
                return None
        return slap.race_action("slap", presses)

    def on_button(self, state: State, seat: int, t_ns: int) -> Action | None:
        return self.on_presses(state, [{"seat": seat, "t_ns": t_ns}])

    # -- moves -------------------------------------------------------------------------
    def apply(self, state: State, action: Action, ctx: Context) -> Result:
        if not isinstance(action, dict):
            return reject("bad_action", N_("An action needs a type."))
        kind = action.get("type")
        handler = {
            "pile_top": self._pile_top,
            "slap": self._slap,
            "give_gem": self._give_gem,
            "settle_tie": self._settle_tie,
            "overrule": self._overrule,
            "use_amulet": self._use_amulet,
            "set_penalty": self._set_penalty,
            "correct": self._correct,
            "end_game": self._end_game,
            "phone_buttons": self._phone_buttons,
        }.get(kind if isinstance(kind, str) else "")
        if handler is None:
            return reject("unknown_action", N_("Unknown action: {action}."), action=str(kind)[:40])
        if kind in ("settle_tie", "overrule", "set_penalty", "correct", "end_game",
                    "phone_buttons") and not ctx.actor.host:
            return reject("host_only", N_("Only the host can do that."))
        if state["ended"]:
            if kind in ("slap", "pile_top") and not state["ended_by_host"]:
                # (V6 ends the game at once; what the last race is still judging, a press
                # of it or a report stamped before its presses, is judged still)
                return handler(state, action, ctx, after_end=True)
            if kind == "give_gem" and state["gifts_due"]:
                return handler(state, action, ctx)  # (the last slap's gift is still given)
            if kind not in ("overrule", "use_amulet", "correct", "set_penalty"):
                return _game_over()
        return handler(state, action, ctx)

    def _phone_buttons(self, state: State, action: Action, ctx: Context) -> Result:
        """The host shows or hides the phones' slap buttons (docs/wiring.md): a phone's
        press is stamped when it reaches the server, Wi-Fi late, so against wired buttons it
        is not fair. Hidden, a phone's slap is refused; the wired buttons still slap."""
        on = action.get("on")
        if not isinstance(on, bool):
            return reject("bad_value", N_("Say true (the phones may slap) or false."))
        new = _clone(state)
        new["phone_buttons"] = on
        return Accepted(new, [{"type": "phone_buttons", "on": on}])

    # pile tops ------------------------------------------------------------------------
    def _pile_top(
        self, state: State, action: Action, ctx: Context, after_end: bool = False
    ) -> Result:
        n = len(state["players"])
        seat = _int(action.get("seat"), 0, n - 1)
        if seat is None:
            return reject("bad_seat", N_("There is no such seat."))
        actor = ctx.actor
        if not (actor.host or actor.source == "camera" or actor.seat == seat):
            return reject("not_your_seat", N_("You can only report your own pile."))
        card = action.get("card")
        if card is not None and (not isinstance(card, str) or not 0 < len(card) <= MAX_IDENT):
            return reject("bad_card", N_("A card is named by up to {n} characters."), n=MAX_IDENT)
        signature = action.get("signature")
        if signature is not None and not P.valid_signature(signature):
            return reject("bad_signature", N_("An image signature is a list of numbers."))
        t = self._time(state, action.get("t_ns", None))
        if t is None:
            return reject("bad_time", N_("A timestamp is a whole number of nanoseconds."))
        if after_end:
            race = self._open_race(state)
            if race is None or t > max(p["t_ns"] for p in race["presses"]):
                return _game_over()
        new = _clone(state)
        ident, new["arts"] = P.identity_for(
            new["arts"], card, signature, float(new["options"]["same_art"])
        )
        if ident is None and signature is not None:
            return reject("too_many_pictures", N_("Too many different card pictures."))
        pile = _own_pile(new, seat)
        # a pile a won slap collected is empty, whatever the camera (or the phone) last saw
        collected = _collected(new, seat, t)
        prev = None if collected else P.before(pile, t)
        if prev is not None and prev[1] == ident:
            return reject("unchanged", N_("That pile already shows that card."))
        is_flip = ident is not None and (collected or not self._resighting(new, seat, t, ident))
        # the same card seen again: the pile was never empty, a hand was over it (a slap
        # while it hid the pile is judged again below, on the card that lay there)
        covered = P.uncover(pile, t, ident) if ident is not None and not is_flip else None
        if covered is None:
            P.insert(pile, t, ident)
        # (else the card that lay there stands, as first seen: a sighting of it anew would
        # be a top no slap has claimed, and a pair collected could be won again)
        new["t_last"] = max(new["t_last"], t)
        events: list[dict[str, Any]] = [
            {"type": "pile_top", "seat": seat, "card": ident, "t_ns": t, "flip": is_flip}
        ]
        if is_flip:
            events += self._count_flip(new, seat, t)
            _since(new, {"op": "flip", "seat": seat, "t_ns": t})
        race = self._open_race(new)
        if (
            race is not None
            and min(t, t if covered is None else covered) <= max(
                p["t_ns"] for p in race["presses"])
        ):
            new, more = self._resettle_quietly(
                new, ctx, {"cause": "pile_top", "seat": seat, "card": ident})
            events += more
        self._finish(new, events, state["ended"])
        return Accepted(new, events)

    def _resighting(self, state: State, seat: int, t: int, ident: str) -> bool:
        """The camera seeing again the card it saw last on this pile (a hand passed over it):
        not a flip. A same-picture card flipped onto its twin cannot be told apart (E2)."""
        pile = state["piles"][seat]
        last_card = None
        cleared_after_claim = False
        claimed = {(s, ct) for s, ct in state["claimed"]}
        for et, eid in pile["tops"]:
            if et >= t:
                break
            if eid is not None:
                last_card = (et, eid)
                cleared_after_claim = False
            elif last_card is not None and (seat, last_card[0]) in claimed:
                cleared_after_claim = True
        return last_card is not None and last_card[1] == ident and not cleared_after_claim

    def _count_flip(self, state: State, seat: int, t: int) -> list[dict[str, Any]]:
        """One card from the seat's draw pile onto its discard pile (or, when the camera
        reports a flip stamped before the last collection, into the collector's pile)."""
        events: list[dict[str, Any]] = []
        me = state["seats"][seat]
        collect = _last_collect(state)
        if me["draw"] == 0:  # the counts are wrong somewhere: the host corrects them
            events.append({"type": "count_mismatch", "seat": seat})
        elif collect is not None and t < collect["t_ns"]:
            me["draw"] -= 1  # flipped before the last collection: the collector has it
            state["seats"][collect["winner"]]["draw"] += 1
        else:
            me["draw"] -= 1
            me["discard"] += 1
        if me["draw"] == 0 and not me["out"] and not me["last_card"]:
            me["last_card"] = True
            events.append({"type": "last_card", "seat": seat})  # "fica pra próxima" (V5)
        # Turns (advisory: the camera reports what happened, out of turn or not).
        if state["turn"] is not None and state["turn"] != seat:
            events.append({"type": "out_of_turn", "seat": seat, "expected": state["turn"]})
            state["turn"] = seat
            state["flips_left"] = self._flips_needed(state, seat)
        state["flips_left"] = max(0, state["flips_left"] - 1)
        if state["flips_left"] == 0:
            self._advance(state, seat)
        return events

    def _play_two(self, state: State, seat: int, on: bool) -> None:
        """"Play two in a row" drawn (``on``) or ended on the seat's own turn: one flip more
        this turn; or back to one flip a turn, so a turn already flipped once is over."""
        if state["turn"] != seat:
            return
        if on:
            state["flips_left"] += 1
        elif state["flips_left"] < 2:
            self._advance(state, seat)
        else:
            state["flips_left"] = 1

    def _flips_needed(self, state: State, seat: int) -> int:
        return 2 if state["seats"][seat]["penalty"] == "play_two" else 1

    def _advance(self, state: State, seat: int) -> None:
        n = len(state["players"])
        for step in range(1, n + 1):
            nxt = (seat + step) % n
            s = state["seats"][nxt]
            if not s["out"] and s["draw"] > 0:
                state["turn"] = nxt
                state["flips_left"] = self._flips_needed(state, nxt)
                return
        state["turn"], state["flips_left"] = None, 0

    # slaps ----------------------------------------------------------------------------
    def _slap(
        self, state: State, action: Action, ctx: Context, after_end: bool = False
    ) -> Result:
        n = len(state["players"])
        actor = ctx.actor
        trusted = actor.host or actor.source == "button"
        if not trusted and not state.get("phone_buttons", True):
            return reject("phone_buttons_off",
                          N_("The host has turned the phones' slap buttons off: slap the "
                             "table's button."))
        if "presses" in action:
            raw = action["presses"]
            if not isinstance(raw, list) or not 0 < len(raw) <= MAX_PRESSES:
                return reject(
                    "bad_presses", N_("Presses are a list of 1 to {n} presses."), n=MAX_PRESSES
                )
            presses = []
            for p in raw:
                if not slap.valid_press(p) or p["seat"] >= n:
                    return reject("bad_press", N_("A press needs a seat and a time in ns."))
                presses.append({"seat": p["seat"], "t_ns": p["t_ns"]})
        else:
            seat = _int(action.get("seat"), 0, n - 1)
            if seat is None:
                return reject("bad_seat", N_("There is no such seat."))
            if not trusted and seat != actor.seat:
                return reject("not_your_seat", N_("You can only slap for your own seat."))
            t = self._time(state, action.get("t_ns", None))
            if t is None:
                return reject("bad_time", N_("A timestamp is a whole number of nanoseconds."))
            presses = [{"seat": seat, "t_ns": t}]
        if not trusted and any(p["seat"] != actor.seat for p in presses):
            return reject("not_your_seat", N_("You can only slap for your own seat."))
        if all(state["seats"][p["seat"]]["out"] for p in presses):
            return reject("not_in_game", N_("That player is out of the game."))
        first = min(p["t_ns"] for p in presses)
        joins = self._joins(state, first)
        if after_end and not joins:
            return _game_over()
        t_last = max(state["t_last"], max(p["t_ns"] for p in presses))
        if joins:
            new = _clone(state)
            new["t_last"] = t_last
            race = new["races"][-1]
            race["presses"] = (race["presses"] + presses)[-MAX_PRESSES:]
            race["first_t_ns"] = min(race["first_t_ns"], first)
            earliest = min(presses, key=lambda p: p["t_ns"])
            new, events = self._resettle_quietly(
                new, ctx, {"cause": "press", "seat": earliest["seat"]})
        else:
            race = {"id": state["next_race"], "first_t_ns": first, "presses": presses}
            # The state before the race, kept to settle it again; it shares the input's
            # parts, which nothing changes in place.
            snapshot = {k: v for k, v in state.items() if k != "undo_point"}
            snapshot.update(t_last=t_last, next_race=race["id"] + 1)
            new, events = self._settle(_clone(snapshot), race, state["piles"], ctx)
            new["undo_point"] = {"race": race["id"], "state": snapshot, "since": []}
        self._finish(new, events, state["ended"])
        return Accepted(new, events)

    def _open_race(self, state: State) -> dict[str, Any] | None:
        """The latest race while what comes in may still settle it again (not decided by
        the host), else None."""
        race = state["races"][-1] if state["races"] else None
        up = state["undo_point"]
        if race is None or up is None or up["race"] != race["id"] or race.get("forced"):
            return None
        return race

    def _joins(self, state: State, first: int) -> bool:
        """Whether presses whose earliest is at ``first`` belong to the latest race: within
        ``late_ms`` of its first press, after it or before it (a press stamped earlier that
        reaches the table after the verdict is the same race, and may win it)."""
        race = self._open_race(state)
        late_ns = int(state["options"]["late_ms"]) * 1_000_000
        return (
            race is not None
            and not race.get("closed")
            and race["first_t_ns"] - late_ns <= first <= race["first_t_ns"] + late_ns
        )

    def _resettle_quietly(
        self, state: State, ctx: Context, cause: dict[str, Any]
    ) -> tuple[State, list[dict[str, Any]]]:
        """Settle the latest race again with what is known now (a press or a camera report
        that came late). Same verdict: only the race's record changes (``race_updated``);
        another verdict: its events, and ``verdict_changed`` for the phones and the LEDs.
        The race's record then says why (``changed``: the late report, ``cause`` "pile_top"
        with its ``seat`` and ``card`` or "press" with its ``seat``, and the verdict it
        ``was``), so every phone can tell the players what changed and why."""
        race = state["races"][-1]
        before = (race["winner"], race["wrong"], race["tied"])
        was = {"kind": _kind(race), "winner": race["winner"], "wrong": race["wrong"],
               "tied": race["tied"]}
        new, events = self._resettle(state, None, ctx)
        after = new["races"][-1]
        if before == (after["winner"], after["wrong"], after["tied"]):
            return new, [{"type": "race_updated", "race": after["id"], "order": after["order"]}]
        kept = all((after.get("penalties") or {}).get(str(w)) ==
                   (race.get("penalties") or {}).get(str(w)) for w in before[1])
        if cause["cause"] == "press" and (after["winner"], after["tied"]) == before[::2] and \
                set(before[1]) <= set(after["wrong"]) and kept:
            # one more wrong slapper (two players slapping at nothing, the second press a
            # moment later): the verdict stands for everyone judged before, their penalties
            # too (a press stamped before theirs deals first: that changes them), so no
            # "verdict changed"; its events give the new one his penalty
            return new, [*events, {"type": "race_updated", "race": after["id"],
                                   "order": after["order"]}]
        after["changed"] = {**cause, "was": was}
        return new, [*events, {"type": "verdict_changed", "race": after["id"], **cause}]

    def _resettle(
        self, state: State, forced: dict[str, Any] | None, ctx: Context
    ) -> tuple[State, list[dict[str, Any]]]:
        """Settle the latest race again from the state before it, then redo what followed."""
        up = state["undo_point"]
        race = dict(state["races"][-1])
        if forced is not None:
            race["forced"] = forced
            race["closed"] = True
        base = _clone(up["state"])
        for key in ("piles", "arts", "t_last", "next_race"):
            base[key] = state[key]
        new, events = self._settle(base, race, state["piles"], ctx)
        for item in up["since"]:
            new = self._redo(new, item, ctx)
        new["undo_point"] = up
        return new, events

    def _redo(self, state: State, item: dict[str, Any], ctx: Context) -> State:
        if item.get("op") == "flip":
            self._count_flip(state, item["seat"], item["t_ns"])
            return state
        handler = {
            "give_gem": self._give_gem,
            "set_penalty": self._set_penalty,
            "correct": self._correct,
            "end_game": self._end_game,
        }.get(item.get("type", ""))
        if handler is None:
            return state
        result = handler(state, item, ctx, redo=True)
        return result.state if isinstance(result, Accepted) else state

    def _settle(
        self,
        state: State,
        race: dict[str, Any],
        judging_piles: list[dict[str, Any]],
        ctx: Context,
    ) -> tuple[State, list[dict[str, Any]]]:
        """Judge every press of a race against the tops at its own instant, then apply the
        verdict to ``state`` (the state just before the race). Mutates ``state``."""
        opts = state["options"]
        active = [not s["out"] for s in state["seats"]]
        claimed = {(s, t) for s, t in state["claimed"]}
        collect = _last_collect(state)
        # (a claimed top from before the last won slap went under the winner's draw pile)
        gone = set() if collect is None else {c for c in claimed if c[1] <= collect["t_ns"]}
        order = slap.press_order(race["presses"])
        status: dict[int, str] = {}
        first_right: int | None = None
        for e in order:
            if not active[e["seat"]]:
                status[e["seat"]] = "out"
                continue
            away = collect is not None and e["t_ns"] - collect["t_ns"] > GATHER_NS
            fresh_pair, stale_pair = P.pair_at(judging_piles, e["t_ns"], claimed, active, gone,
                                               away)
            if not fresh_pair and not stale_pair and first_right is not None:
                # the pair an earlier press of this race was right on: the winner may be
                # gathering it (the camera reporting those piles empty), so late, not wrong
                taken = set(P.tops_at(judging_piles, first_right))
                _, stale_pair = P.pair_at(judging_piles, e["t_ns"], claimed | taken, active,
                                          gone | taken, e["t_ns"] - first_right > GATHER_NS)
            status[e["seat"]] = "right" if fresh_pair else "late" if stale_pair else "wrong"
            if fresh_pair and first_right is None:
                first_right = e["t_ns"]
        first_in = next((e for e in order if status[e["seat"]] != "out"), None)
        if (opts.get("right_after_wrong") == "void" and first_in is not None
                and status[first_in["seat"]] == "wrong"):
            # (the option: the first hand on the Gems was wrong, and it ends this slap; a
            # right one under it wins nothing and claims nothing: the pair stays)
            for e in order:
                if status[e["seat"]] == "right":
                    status[e["seat"]] = "late"
        rights = [e for e in order if status[e["seat"]] == "right"]
        forced = race.get("forced")
        winner: int | None
        tied: list[int] = []
        if forced is not None:
            winner = forced.get("winner")
            wrong = [s for s in forced.get("wrong", []) if active[s]]
            resolution = (
                "reslap" if forced.get("reslap") else "amulet" if "amulet" in forced else "host"
            )
            for seat in status:
                if status[seat] != "out":
                    status[seat] = "wrong" if seat in wrong else "late"
            if winner is not None:
                status[winner] = "right"
        else:
            window = round(float(opts["tie_window_ms"]) * 1_000_000)
            rule = opts["tie_rule"]
            wrong = [e["seat"] for e in order if status[e["seat"]] == "wrong"]
            verdict = slap.judge(rights, window, rule, ctx.rng)
            if verdict["resolution"] == "random":
                pick = race.get("pick")
                if pick not in verdict["tied"]:
                    race["pick"] = pick = verdict["winner"]
                verdict["winner"] = pick
            winner, tied = verdict["winner"], verdict["tied"]
            resolution = verdict["resolution"] if rights else "wrong" if wrong else "late"
            if resolution == "reslap":
                race["closed"] = True
            for e in rights:
                if e["seat"] != winner:
                    status[e["seat"]] = "tied" if e["seat"] in tied and winner is None else "late"
        events: list[dict[str, Any]] = []
        any_slap = any(v != "out" for v in status.values())
        # V4: any slap on the Gems ends the penalties in force; the cards go to the bottom.
        if any_slap:
            for s, seat in enumerate(state["seats"]):
                if seat["penalty"] is not None:
                    state["penalty_deck"].append(seat["penalty"])
                    events.append({"type": "penalty_ended", "seat": s, "penalty": seat["penalty"]})
                    if seat["penalty"] == "play_two":
                        self._play_two(state, s, False)
                    seat["penalty"] = None
        penalties: dict[str, str | None] = {}
        for s in wrong:  # V3, E5
            card = state["penalty_deck"].pop(0) if state["penalty_deck"] else None
            penalties[str(s)] = card
            if card is None:
                events.append({"type": "no_penalty_left", "seat": s})
                continue
            state["seats"][s]["penalty"] = card
            if card == "play_two":
                self._play_two(state, s, True)
            events.append({"type": "penalty", "seat": s, "penalty": card})
            if card == "cards_for_everyone":
                events += self._cards_for_everyone(state, s)
        if state["tie"] is not None:  # a tie the host left unsettled expires with a new race
            if state["tie"]["race"] != race["id"]:
                events.append({"type": "tie_expired", "race": state["tie"]["race"]})
            state["tie"] = None
        gems_taken = 0
        if winner is not None:
            win_t = next((e["t_ns"] for e in order if e["seat"] == winner), race["first_t_ns"])
            gems_taken = self._win(state, winner, win_t, judging_piles, events)
        elif tied and resolution == "simultaneous":
            first_t = min(e["t_ns"] for e in order if e["seat"] in tied)
            state["tie"] = {"race": race["id"], "seats": tied}
            self._claim(state, judging_piles, first_t)
        if forced is not None and forced.get("amulet") is not None:
            events += self._amulet(state, forced["amulet"], forced.get("amulet_t"))
        gaps = [{**e, "status": status[e["seat"]]} for e in order]
        record = {
            "id": race["id"],
            "first_t_ns": race["first_t_ns"],
            "presses": race["presses"],
            "order": gaps,
            "winner": winner,
            "tied": tied,
            "wrong": wrong,
            "resolution": resolution,
            "penalties": penalties,
            "gems_taken": gems_taken,
            "text": slap.describe(order, state["players"]),
        }
        for key in ("forced", "closed", "pick", "changed"):
            if key in race:
                record[key] = race[key]
        state["races"] = [*state["races"], record][-RACES_KEPT:]
        kind = _kind(record)
        verdict_event = {
            "type": "verdict",
            "race": race["id"],
            "kind": kind,
            "winner": winner,
            "tied": tied,
            "wrong": wrong,
            "resolution": resolution,
            "order": gaps,
            "by": "host" if forced is not None else "rules",
        }
        events.insert(0, verdict_event)
        self._decide(state, {k: v for k, v in verdict_event.items() if k not in ("type", "order")})
        if winner is not None:
            self._auto_gift(state, events)
        return state, events

    def _win(
        self,
        state: State,
        winner: int,
        win_t: int,
        judging_piles: list[dict[str, Any]],
        events: list[dict[str, Any]],
    ) -> int:
        """V2: two Gems (keep one, give one), every discard pile under the winner's draw
        pile; V5: whoever was down to the last card and did not win is out."""
        seats = state["seats"]
        take = min(2, state["gem_deck"])
        state["gem_deck"] -= take
        if take >= 1:
            seats[winner]["gems"] += 1
        if take == 2:
            state["gifts_due"] = [*state["gifts_due"], winner]
        collected = 0
        for seat in seats:
            collected += seat["discard"]
            seat["discard"] = 0
        seats[winner]["draw"] += collected
        seats[winner]["last_card"] = seats[winner]["draw"] == 0
        events.append({"type": "collected", "seat": winner, "cards": collected, "gems": take})
        state["collects"] = [*state["collects"], {"t_ns": win_t, "winner": winner}
                             ][-COLLECTS_KEPT:]
        self._claim(state, judging_piles, win_t)
        for s, seat in enumerate(seats):
            if s != winner and seat["last_card"] and seat["draw"] == 0 and not seat["out"]:
                seat["out"] = True
                seat["last_card"] = False
                events.append({"type": "eliminated", "seat": s})
        if state["turn"] is not None and seats[state["turn"]]["out"]:
            self._advance(state, state["turn"])
        elif state["turn"] is None:
            self._advance(state, winner - 1)
        return take

    def _claim(self, state: State, judging_piles: list[dict[str, Any]], t: int) -> None:
        claims = [list(c) for c in P.tops_at(judging_piles, t)]
        state["claimed"] = (state["claimed"] + claims)[-CLAIMS_KEPT:]

    def _cards_for_everyone(self, state: State, giver: int) -> list[dict[str, Any]]:
        """One card of the giver's draw pile to each other player, in turn order, while he
        has cards (E6)."""
        n = len(state["players"])
        events = []
        for step in range(1, n):
            to = (giver + step) % n
            if state["seats"][to]["out"] or state["seats"][giver]["draw"] == 0:
                continue
            state["seats"][giver]["draw"] -= 1
            state["seats"][to]["draw"] += 1
            state["seats"][to]["last_card"] = False
            events.append({"type": "card_given", "seat": giver, "receiver": to})
        if state["seats"][giver]["draw"] == 0 and not state["seats"][giver]["last_card"]:
            state["seats"][giver]["last_card"] = True
            events.append({"type": "last_card", "seat": giver})
        return events

    def _auto_gift(self, state: State, events: list[dict[str, Any]]) -> None:
        """A gift with only one possible recipient needs no choice; one with none (the slap
        put every other player out) is no gift: the Gem goes back to the Gem deck."""
        while state["gifts_due"]:
            giver = state["gifts_due"][0]
            options = self._recipients(state, giver)
            if len(options) > 1:
                return
            if options:
                self._give(state, giver, options[0], events)
            else:
                state["gifts_due"].remove(giver)
                state["gem_deck"] += 1
                events.append({"type": "gem_returned", "seat": giver})

    def _recipients(self, state: State, giver: int) -> list[int]:
        return [s for s, seat in enumerate(state["seats"]) if s != giver and not seat["out"]]

    def _give(self, state: State, giver: int, to: int, events: list[dict[str, Any]]) -> None:
        state["gifts_due"].remove(giver)
        state["seats"][to]["gems"] += 1
        events.append({"type": "gem_given", "seat": giver, "receiver": to})

    # decisions after a slap ------------------------------------------------------------
    def _give_gem(self, state: State, action: Action, ctx: Context, redo: bool = False) -> Result:
        n = len(state["players"])
        to = _int(action.get("to"), 0, n - 1)
        if to is None:
            return reject("bad_seat", N_("There is no such seat."))
        due = state["gifts_due"]
        if not due:
            return reject("no_gift", N_("Nobody has a Gem to give."))
        if ctx.actor.host or redo:
            giver = action.get("from", due[0])
            if giver not in due:
                giver = due[0]
        elif ctx.actor.seat in due:
            giver = ctx.actor.seat
        else:
            return reject("not_your_gift", N_("Only the slap's winner gives the Gem."))
        if to not in self._recipients(state, giver):
            return reject(
                "bad_recipient",
                N_("The Gem goes to another player who is still in the game."),
            )
        new = _clone(state)
        events: list[dict[str, Any]] = []
        self._give(new, giver, to, events)
        self._decide(new, {"kind": "gift", "seat": giver, "to": to})
        return self._after_plain(new, {"type": "give_gem", "from": giver, "to": to}, events, redo)

    def _settle_tie(self, state: State, action: Action, ctx: Context) -> Result:
        tie = state["tie"]
        if (
            tie is None
            or state["undo_point"] is None
            or (state["undo_point"]["race"] != tie["race"])
        ):
            return reject("no_tie", N_("There is no tie to settle."))
        race = state["races"][-1]
        if action.get("reslap") is True:
            forced = {"winner": None, "wrong": list(race["wrong"]), "reslap": True}
        else:
            winner = action.get("winner")
            if winner not in tie["seats"] or isinstance(winner, bool):
                return reject("not_tied", N_("Pick one of the tied players."))
            forced = {"winner": winner, "wrong": list(race["wrong"])}
        new, events = self._resettle(state, forced, ctx)
        self._finish(new, events, state["ended"])
        return Accepted(new, events)

    def _overrule(self, state: State, action: Action, ctx: Context) -> Result:
        if (
            not state["races"]
            or state["undo_point"] is None
            or (state["undo_point"]["race"] != state["races"][-1]["id"])
        ):
            return reject(
                "nothing_to_overrule",
                N_("Only the latest slap can be overruled; use undo or correct the counts."),
            )
        n = len(state["players"])
        race = state["races"][-1]
        if "race" in action and action["race"] != race["id"]:
            return reject(
                "nothing_to_overrule",
                N_("Only the latest slap can be overruled; use undo or correct the counts."),
            )
        winner = action.get("winner")
        if winner is not None and _int(winner, 0, n - 1) is None:
            return reject("bad_seat", N_("There is no such seat."))
        base = state["undo_point"]["state"]
        if winner is not None and base["seats"][winner]["out"]:
            return reject("not_in_game", N_("That player is out of the game."))
        wrong = action.get("wrong", [])
        if not isinstance(wrong, list) or len(wrong) > n:
            return reject("bad_seat", N_("There is no such seat."))
        for s in wrong:
            if _int(s, 0, n - 1) is None or s == winner:
                return reject("bad_seat", N_("There is no such seat."))
        forced = {"winner": winner, "wrong": sorted(set(wrong))}
        new, events = self._resettle(state, forced, ctx)
        self._finish(new, events, state["ended"])
        return Accepted(new, events)

    def _use_amulet(self, state: State, action: Action, ctx: Context) -> Result:
        """Section 6 [SEED-L]: right after a correct slap, the Amulet's holder who flipped one
        of the matching cards puts it back under his draw pile and flips a new one; the slap
        does not count. Once a game; the Amulet is one of his Gems and is then discarded."""
        n = len(state["players"])
        seat = _int(action.get("seat"), 0, n - 1)
        if seat is None:
            return reject("bad_seat", N_("There is no such seat."))
        if not (ctx.actor.host or ctx.actor.seat == seat):
            return reject("not_your_seat", N_("Only the Amulet's holder can use it."))
        if not state["options"].get("amulet") or state["amulet_used"]:
            return reject("no_amulet", N_("There is no Amulet to use."))
        race = state["races"][-1] if state["races"] else None
        if (
            race is None
            or race["winner"] is None
            or state["undo_point"] is None
            or state["undo_point"]["race"] != race["id"]
        ):
            return reject("no_right_slap", N_("The Amulet only answers a right slap."))
        if state["undo_point"]["state"]["seats"][seat]["gems"] < 1:
            return reject("no_amulet", N_("There is no Amulet to use."))
        win_t = next(e["t_ns"] for e in race["order"] if e["status"] == "right")
        claimed = {(s, t) for s, t in state["undo_point"]["state"]["claimed"]}
        active = [not s["out"] for s in state["undo_point"]["state"]["seats"]]
        pair, _ = P.pair_at(state["piles"], win_t, claimed, active)
        if seat not in pair:
            return reject(
                "not_your_pair", N_("The Amulet's holder must have flipped a matching card.")
            )
        forced = {"winner": None, "wrong": list(race["wrong"]), "amulet": seat,
                  "amulet_t": win_t}
        new, events = self._resettle(state, forced, ctx)
        self._finish(new, events, state["ended"])
        return Accepted(new, events)

    def _amulet(self, state: State, seat: int, win_t: int | None) -> list[dict[str, Any]]:
        """The holder's matching card goes back under his draw pile: his pile shows the card
        it had covered from just after the slap (``win_t``), so the voided pair is no pair
        any more, and the camera seeing that card again is no flip."""
        if win_t is not None:
            top = P.top_at(state["piles"][seat], win_t)
            if top is not None and top[1] is not None:
                under = P.before(state["piles"][seat], top[0])
                P.insert(_own_pile(state, seat), win_t + 1, None if under is None else under[1])
        me = state["seats"][seat]
        if me["discard"] > 0:
            me["discard"] -= 1
            me["draw"] += 1
            me["last_card"] = False
        me["gems"] = max(0, me["gems"] - 1)
        state["amulet_used"] = True
        self._decide(state, {"kind": "amulet", "seat": seat})
        return [{"type": "amulet", "seat": seat}]

    # host corrections -----------------------------------------------------------------
    def _set_penalty(
        self, state: State, action: Action, ctx: Context, redo: bool = False
    ) -> Result:
        n = len(state["players"])
        seat = _int(action.get("seat"), 0, n - 1)
        if seat is None:
            return reject("bad_seat", N_("There is no such seat."))
        penalty = action.get("penalty")
        if penalty is not None and penalty not in PENALTIES:
            return reject(
                "bad_penalty",
                N_("A penalty is one of: {choices}."),
                choices=", ".join(PENALTIES),
            )
        new = _clone(state)
        old = new["seats"][seat]["penalty"]
        if old is not None:
            new["penalty_deck"].append(old)
        if penalty is not None and penalty in new["penalty_deck"]:
            new["penalty_deck"].remove(penalty)
        new["seats"][seat]["penalty"] = penalty
        if "play_two" in (old, penalty) and old != penalty:
            self._play_two(new, seat, penalty == "play_two")
        events = [{"type": "penalty_set", "seat": seat, "penalty": penalty}]
        self._decide(new, {"kind": "penalty_set", "seat": seat, "penalty": penalty, "by": "host"})
        norm = {"type": "set_penalty", "seat": seat, "penalty": penalty}
        return self._after_plain(new, norm, events, redo)

    def _correct(self, state: State, action: Action, ctx: Context, redo: bool = False) -> Result:
        n = len(state["players"])
        new = _clone(state)
        changed: dict[str, Any] = {}
        if "seat" in action:
            seat = _int(action.get("seat"), 0, n - 1)
            if seat is None:
                return reject("bad_seat", N_("There is no such seat."))
            target = new["seats"][seat]
            for key in ("draw", "discard", "gems"):
                if key in action:
                    value = _int(action[key], 0, MAX_COUNT)
                    if value is None:
                        return reject(
                            "bad_count",
                            N_("{field} must be a whole number from 0 to {high}."),
                            field=key,
                            high=MAX_COUNT,
                        )
                    target[key] = changed[key] = value
            if "out" in action:
                if not isinstance(action["out"], bool):
                    return reject("bad_count", N_("Out is true or false."))
                target["out"] = changed["out"] = action["out"]
            target["last_card"] = (
                not target["out"]
                and target["draw"] == 0
                and (target["last_card"] or "draw" in changed)
            )
            changed["seat"] = seat
        if "gem_deck" in action:
            value = _int(action["gem_deck"], 0, MAX_COUNT)
            if value is None:
                return reject(
                    "bad_count",
                    N_("{field} must be a whole number from 0 to {high}."),
                    field="gem_deck",
                    high=MAX_COUNT,
                )
            new["gem_deck"] = changed["gem_deck"] = value
        if "turn" in action:
            turn = _int(action["turn"], 0, n - 1)
            if turn is None:
                return reject("bad_seat", N_("There is no such seat."))
            new["turn"] = changed["turn"] = turn
            new["flips_left"] = self._flips_needed(new, turn)
        if not changed or list(changed) == ["seat"]:
            return reject("nothing_to_correct", N_("Say what to correct."))
        events = [{"type": "corrected", **changed}]
        self._decide(new, {"kind": "corrected", **changed, "by": "host"})
        return self._after_plain(new, {"type": "correct", **changed}, events, redo)

    def _end_game(self, state: State, action: Action, ctx: Context, redo: bool = False) -> Result:
        new = _clone(state)
        new["ended_by_host"] = True
        self._decide(new, {"kind": "ended", "by": "host"})
        return self._after_plain(new, {"type": "end_game"}, [], redo)

    # shared tails ---------------------------------------------------------------------
    def _after_plain(
        self, new: State, norm: dict[str, Any], events: list[dict[str, Any]], redo: bool
    ) -> Result:
        if not redo:
            _since(new, norm)
        self._finish(new, events)
        return Accepted(new, events)

    def _decide(self, state: State, decision: dict[str, Any]) -> None:
        state["decisions"] = [*state["decisions"], decision][-DECISIONS_KEPT:]

    def _finish(
        self, state: State, events: list[dict[str, Any]], was: bool | None = None
    ) -> None:
        """V6: the game ends at once when the Gem deck is empty or two players remain. (A
        gift still due is given after the end: the outcome waits for it.) ``was``: whether
        it had ended before the action (a race settled again starts from the state before
        it), so the end is announced once."""
        was = state["ended"] if was is None else was
        active = sum(1 for s in state["seats"] if not s["out"])
        if active <= 2:
            self._auto_gift(state, events)
        ended = state["ended_by_host"] or active <= 2 or state["gem_deck"] == 0
        if ended and not was:
            events.append({"type": "game_over"})
        elif was and not ended:
            events.append({"type": "game_resumed"})
        state["ended"] = ended

    def admit(self, action: Any, actor: Any) -> Rejection | None:
        """Whether a new move may come from ``actor`` (asked by the table of each move as it
        comes, never of a logged one on replay: a phone's slaps logged with the time the
        server gave them still replay). A time a phone gives is never believed."""
        if _gives_time(actor) or not isinstance(action, dict):
            return None
        if action.get("type") in ("slap", "pile_top") and (
                action.get("t_ns") is not None or "presses" in action):
            return _untrusted_time()
        return None

    def latest_time(self, state: State) -> int:
        """The latest time the table has seen (TableService.stamp goes on from it after a
        reboot, whose monotonic clock starts again near 0)."""
        return int(state["t_last"])

    def _time(self, state: State, t_ns: Any) -> int | None:
        """A given timestamp (from a source that may give one: :func:`_gives_time`), or
        (none given: a phone) just after the latest one seen."""
        if t_ns is None:
            t_ns = int(state["t_last"]) + 1
        return t_ns if slap.valid_press({"seat": 0, "t_ns": t_ns}) else None

    # -- views -------------------------------------------------------------------------
    def public_view(self, state: State) -> dict[str, Any]:
        # (a top a won slap collected shows as empty: the piles went under the winner's draw
        # pile, so nobody has to report them empty; the timelines keep them for judging)
        tops = []
        for seat, pile in enumerate(state["piles"]):
            last = P.latest(pile)
            tops.append(None if not last or _collected(state, seat, MAX_TIME) else last[1])
        return {
            "players": state["players"],
            "seats": state["seats"],
            "tops": tops,
            "gem_deck": state["gem_deck"],
            "penalties_left": len(state["penalty_deck"]),
            "turn": state["turn"],
            "flips_left": state["flips_left"],
            "gifts_due": state["gifts_due"],
            "tie": state["tie"],
            "races": state["races"][-3:],
            "decisions": state["decisions"][-10:],
            "ended": state["ended"],
            "outcome": self.outcome(state),
            "options": state["options"],
            "phone_buttons": state.get("phone_buttons", True),
        }

    def player_view(self, state: State, seat: int) -> dict[str, Any]:
        return self.public_view(state)  # nothing is secret in Versus

    def moderator_view(self, state: State) -> dict[str, Any]:
        full = {k: v for k, v in state.items() if k != "undo_point"}
        return {**self.public_view(state), "state": full}

    def outcome(self, state: State) -> dict[str, Any] | None:
        """V7: the most Gems among the players still in; a tie is a shared win (E7). None
        while the game runs, and while the last slap's gift is still to be given (V6 ended
        the game, but the gift decides who has the most Gems)."""
        if not state["ended"] or (state["gifts_due"] and not state["ended_by_host"]):
            return None
        gems = [s["gems"] for s in state["seats"]]
        alive = [i for i, s in enumerate(state["seats"]) if not s["out"]]
        best = max((gems[i] for i in alive), default=0)
        return {
            "winners": [i for i in alive if gems[i] == best],
            "scores": gems,
            "eliminated": [i for i, s in enumerate(state["seats"]) if s["out"]],
        }
