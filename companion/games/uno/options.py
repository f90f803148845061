"""Table options: every [DEFAULT] of rules/uno.md with that default, the scoring choices of
section 5, and the well-known house rules (all off by default)."""

from __future__ import annotations

from companion.games.base import N_, Option

MAX_CUSTOM_RULE = 200

OPTIONS: tuple[Option, ...] = (
    # -- match and scoring (section 5) -----------------------------------------------------
    Option("target", 500, N_("The match ends when a total reaches this score."),
           kind=int, minimum=1, maximum=100_000),
    Option("scoring", "standard",
           N_("How points are scored: the round's winner scores the cards left in the other "
              "hands and the first to reach the target wins, or everyone scores his own hand "
              "and the lowest total wins."),
           choices=("standard", "own_hand"),
           labels=(N_("The round's winner scores the other hands"),
                   N_("Everyone scores his own hand"))),
    Option("swap_points", 50, N_("Points of Wild Swap Hands (50; some printings say 40)."),  # U1
           kind=int, minimum=0, maximum=100),
    Option("custom_points", 50, N_("Points of a customisable wild (50; some say 40)."),  # U1
           kind=int, minimum=0, maximum=100),
    # -- deck and deal ------------------------------------------------------------------
    Option("hand_size", 7, N_("Cards dealt to each player."), kind=int, minimum=1, maximum=10),
    # R16
    Option("custom_wilds", 0,
           N_("How many blank wilds carry a written rule and are in the deck (blanks "
              "without a rule stay out)."), kind=int, minimum=0, maximum=3),
    Option("custom_rule", "", N_("The rule the table wrote on the blank wilds (shown when one "
                                 "is played)."), kind=str),
    Option("custom_effect", "none",
           N_("What the referee does for a blank wild besides the wild itself: nothing more "
              "(the table applies the written rule), or what a Skip, a Reverse or a Draw Two "
              "does."),
           choices=("none", "skip", "reverse", "draw2"),
           labels=(N_("None: the table applies the written rule"), N_("Skip"), N_("Reverse"),
                   N_("Draw Two"))),
    Option("first_dealer", "cut",
           N_("Who deals first: everyone turns a card and the highest number deals (action "
              "cards and wilds count 0, a tie turns again), or the player in seat 1 deals."),
           choices=("cut", "first_seat"),
           labels=(N_("Everyone cuts: the highest deals"), N_("Seat 1 deals"))),
    # -- rules [DEFAULT]s ---------------------------------------------------------------
    # R8
    Option("voluntary_draw", True,
           N_("A player may draw even with a playable card."), kind=bool),
    # R11
    Option("challenge_by", "victim",
           N_("Who may challenge a Wild Draw Four: the victim only, or anyone."),
           choices=("victim", "anyone"),
           labels=(N_("The victim only"), N_("Anyone"))),
    # R11, U3
    Option("challenge_won_victim_plays", True,
           N_("After a won challenge the victim takes his turn normally."), kind=bool),
    # R17, U2
    Option("uno_penalty", 2, N_("Cards drawn when caught without calling UNO."),
           kind=int, minimum=1, maximum=10),
    # U5
    Option("uno_after_swap", False,
           N_("A player left with one card by a swap must call UNO too."), kind=bool),
    # R18
    Option("reshuffle_keep_top", True,
           N_("Keep the top card as the new discard pile when reshuffling."), kind=bool),
    # R23
    Option("first_wild_chooser_plays", True,
           N_("The player who names the colour of a Wild turned up first also plays "
              "first."), kind=bool),
    # -- house rules (off by default) ---------------------------------------------------
    Option("stack_draw2", False,
           N_("House rule: a Draw Two may be answered with a Draw Two, passing the sum on."),
           kind=bool),
    Option("seven_zero", False,
           N_("House rule: a 7 swaps hands with a chosen player; a 0 passes every hand on in "
              "the direction of play."), kind=bool),
    Option("jump_in", False,
           N_("House rule: a card identical to the top card may be played out of turn."),
           kind=bool),
    Option("draw_until_playable", False,
           N_("House rule: keep drawing until you draw a card you can play."), kind=bool),
    # -- camera -------------------------------------------------------------------------
    Option("camera_confirm_below", 0.8,
           N_("A card the camera recognised with less confidence than this is only proposed: "
              "the player confirms it on the phone."), kind=(int, float), minimum=0, maximum=1),
)
