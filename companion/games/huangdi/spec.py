"""Huang Di's table options and actions (rules/huangdi.md; decisions in docs/games/huangdi.md).

Every [DEFAULT] of the sheet is an option with that default; the deck's make-up, which the
seed never gives (section 1, A2), is configuration too. The actions are what a phone (or the
camera, or the host) tells the referee about the physical table; the referee never knows a
hand, only how many cards it holds.

A card's place is a *source*: ``"hand"``, ``"stock"`` (the player's own), ``"discard0"`` or
``"discard1"`` (one of the two discard piles of ``owner``, by default the player's own).
"""

from __future__ import annotations

from companion.games.base import N_, ActionSpec, Option

OPTIONS: tuple[Option, ...] = (
    # -- the deck and the deal (section 1: the seed gives no make-up) -------------------
    Option("stock_size", 10, N_("Cards in each player's stock pile (the rules say 10)."),
           kind=int, minimum=1, maximum=30),
    Option("copies", 12, N_("Copies of each number card, 1 to 10, in the deck."),
           kind=int, minimum=1, maximum=30),
    Option("jokers", 18, N_("Jokers in the deck."), kind=int, minimum=0, maximum=60),
    Option("inverts", 12, N_("Invert cards in the deck."), kind=int, minimum=0, maximum=60),
    Option("first_player", 0, N_("Who plays first (the player to the dealer's left)."),
           kind=int, minimum=0, maximum=5, seat=True),
    # -- the rules' [DEFAULT]s ----------------------------------------------------------
    # Setup 4, A7
    Option("reveal_stock", "setup",
           N_("When each stock's top card is turned face up: by everyone at the start, or "
              "by each player at the start of his own first turn."),
           choices=("setup", "first_turn"),
           labels=(N_("Everyone at the start"), N_("Each player at his first turn"))),
    # R12, A1
    Option("discard_access", "own_plus_one",
           N_("Which discard piles a player may build from: the tops of his own two piles, "
              "plus at most one card a turn from each opponent's tops; only his own; or "
              "any pile's top, without limit."),
           choices=("own_plus_one", "own_only", "any"),
           labels=(N_("Own piles, and one card a turn from each opponent"),
                   N_("Own piles only"), N_("Any pile, without limit"))),
    # R11
    Option("inverts_back", True,
           N_("The Invert cards kept beside a completed wall are shuffled back into the draw "
              "pile with it (otherwise they leave the game)."), kind=bool),
    # A5, A6
    Option("empty_draw", "continue",
           N_("When a player must draw and the draw pile is empty: he draws what there is "
              "and the game goes on (an empty hand ends its turn without a discard), or the "
              "game ends without a winner."),
           choices=("continue", "end"),
           labels=(N_("Draw what there is and go on"), N_("The game ends without a winner"))),
    # Section 5
    Option("scoring", "win",
           N_("What the winner scores: one win, or the cards left in the other players' "
              "stocks."),
           choices=("win", "stock_left"),
           labels=(N_("One win"), N_("The cards left in the other stocks"))),
    # -- camera -------------------------------------------------------------------------
    Option("camera_confirm_below", 0.8,
           N_("A card the camera recognised with less confidence than this is only proposed: "
              "the player confirms it on the phone."), kind=(int, float), minimum=0, maximum=1),
)

SEAT = "optional: the seat acting (default: the player to move; the host may name any)"
SOURCE = ("hand | stock | discard0 | discard1 (null: not known yet, the player is asked; "
          "discard piles are the owner's)")

ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec("reveal_stock", N_("The card turned face up on top of a stock pile (at the "
                                  "start, and after each card played from it)."),  # R20
               {"type": "reveal_stock", "seat": 1, "card": "7"},
               {"card": "card name: 1..10, joker, invert", "seat": SEAT}),
    ActionSpec("play", N_("Lay a card on a wall: a number or a joker, from the hand, the stock "
                          "or a discard pile's top; with an Invert card (its own source) laid "
                          "beside the wall together with it."),  # R2-R14
               {"type": "play", "card": "7", "from": "hand", "wall": 0, "invert": "discard1"},
               {"card": "1..10 or joker", "from": SOURCE, "owner": "seat whose discard pile "
                "(default: your own)", "wall": "0, 1 or 2", "invert": "optional: the source "
                "of the Invert card played with it", "invert_owner": "seat of that discard "
                "pile", "invert_card": "optional, 'invert' (a joker never stands for one)",
                "seat": SEAT}),
    ActionSpec("source", N_("Say where the card just laid on a wall came from (when the camera "
                            "could not tell)."),
               {"type": "source", "from": "stock"},
               {"from": "hand | stock | discard0 | discard1", "owner": "seat of that discard "
                "pile", "invert": "the Invert card's source, when one was played with it",
                "invert_owner": "seat of that discard pile", "next": "optional: the stock's "
                "new top", "seat": SEAT}),
    ActionSpec("lifted", N_("The camera saw a pile's top card taken (the stock's new top as "
                            "next): the card it then sees on a wall came from there."),
               {"type": "lifted", "from": "stock", "next": "3"},
               {"from": "stock | discard0 | discard1", "owner": "seat of that discard pile",
                "next": "optional: the stock's new top", "back": "true: it was put back "
                "(the note goes)", "seat": SEAT}),
    ActionSpec("dismiss", N_("The card the camera saw on a wall was not played (misread or "
                             "taken back): drop it."), {"type": "dismiss"}, {"seat": SEAT}),
    ActionSpec("discard", N_("End the turn: a card from the hand onto one of your two discard "
                             "piles."),  # R17, R18
               {"type": "discard", "card": "4", "pile": 0},
               {"card": "card name", "pile": "0 or 1", "seat": SEAT}),
    ActionSpec("end_turn", N_("End the turn without a discard: only with an empty hand and an "
                              "empty draw pile."), {"type": "end_turn"}, {"seat": SEAT}),  # A6
    ActionSpec("end_game", N_("End the game now, without a winner (host)."),
               {"type": "end_game"}, host_only=True),
)
