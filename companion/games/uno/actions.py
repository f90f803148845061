"""The actions UNO accepts, for the OpenAPI document (each with an example).

Card names are those of shared/cards.md. ``seat`` is optional everywhere a player acts: it
defaults to the phone's own seat; the host (and the camera) may name any seat, and without
one act for the player to move.
"""

from __future__ import annotations

from companion.games.base import N_, ActionSpec

SEAT = "optional: the seat acting (default: your own; the host may name any)"

ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec("cut", N_("Cut for the deal: the card you turned up (first round)."),
               {"type": "cut", "card": "green-7"}, {"card": "card name", "seat": SEAT}),
    ActionSpec("set_dealer", N_("Name the dealer instead of cutting (before the first card)."),
               {"type": "set_dealer", "dealer": 0}, {"dealer": "seat index"}),
    ActionSpec("turn_up", N_("The first card turned up on the discard pile."),  # R20-R26
               {"type": "turn_up", "card": "yellow-reverse"}, {"card": "card name"}),
    ActionSpec("play", N_("Play a card on the discard pile; a wild with its colour, Swap Hands "
                          "(and a 7 under 7-0) with the target player. Without them the "
                          "player is asked to choose."),
               {"type": "play", "card": "wild-swap", "colour": "blue", "target": 2},
               {"card": "card name", "colour": "red|yellow|green|blue (wilds)",
                "target": "seat index (Swap Hands, 7-0 sevens)", "seat": SEAT}),
    ActionSpec("choose", N_("Complete a wild: its colour (and the target of Swap Hands)."),
               {"type": "choose", "colour": "red", "target": 1},
               {"colour": "red|yellow|green|blue", "target": "seat index", "seat": SEAT}),
    ActionSpec("draw", N_("Draw one card on your turn, or take the pending Draw Two / Wild Draw "
                          "Four. The drawn card may be named privately, so that the referee "
                          "knows whether it may be played."),  # R5, R7
               {"type": "draw", "card": "green-4"},
               {"card": "optional, private: the card drawn", "seat": SEAT}),
    ActionSpec("pass", N_("Keep the drawn card and end your turn."),  # R6
               {"type": "pass"}, {"seat": SEAT}),
    ActionSpec("uno", N_("Call UNO (with one card left, or as you play your second-to-last)."),
               {"type": "uno"}, {"seat": SEAT}),
    ActionSpec("catch", N_("Catch a player who did not call UNO before the next player acted: "
                           "he draws the penalty."),  # R17
               {"type": "catch", "target": 1}, {"target": "seat index", "seat": SEAT}),
    ActionSpec("challenge", N_("Challenge the Wild Draw Four played on you."),  # R11
               {"type": "challenge"}, {"seat": SEAT}),
    ActionSpec("show_hand", N_("The challenged player enters his hand; only the challenger "
                               "sees it, and the referee judges whether the Wild Draw Four "
                               "was played legally."),  # R9
               {"type": "show_hand", "cards": ["red-9", "green-3"]},
               {"cards": "list of card names, the whole hand", "seat": SEAT}),
    ActionSpec("verdict", N_("After seeing the hand physically, the challenger says whether "
                             "the Wild Draw Four was illegal (the accused may admit it)."),
               {"type": "verdict", "guilty": False}, {"guilty": "true|false", "seat": SEAT}),
    ActionSpec("propose", N_("The camera is unsure of a card: ask the player to confirm it."),
               {"type": "propose", "card": "blue-7", "seat": 1},
               {"card": "card name", "seat": SEAT}),
    ActionSpec("confirm", N_("Confirm the proposed card (as a play, with colour/target)."),
               {"type": "confirm", "colour": "green"},
               {"colour": "for a wild", "target": "for Swap Hands"}),
    ActionSpec("dismiss", N_("The proposed card was misread: drop it."), {"type": "dismiss"}),
    ActionSpec("count_card", N_("Enter one card left in a hand at the end of the round."),
               {"type": "count_card", "seat": 1, "card": "wild"},
               {"seat": "whose hand", "card": "card name"}),
    ActionSpec("uncount_card", N_("Take back a card entered by mistake."),
               {"type": "uncount_card", "seat": 1, "card": "wild"},
               {"seat": "whose hand", "card": "card name"}),
    ActionSpec("count_points", N_("Enter the points counted in a hand left (null: clear them)."),
               {"type": "count_points", "seat": 1, "points": 53},
               {"seat": "whose hand", "points": "whole number, or null"}),
    ActionSpec("end_round", N_("Score the round with the hands left (without hands: the points "
                               "or the cards entered)."),
               {"type": "end_round", "hands": [[], ["red-7", "blue-draw2", "wild"], 53]},
               {"hands": "optional: per seat, a list of card names or the points counted"}),
    ActionSpec("next_round", N_("Deal the next round (the deal passes to the left)."),
               {"type": "next_round"}),
    ActionSpec("edit_round", N_("Correct a past round (host)."),
               {"type": "edit_round", "round": 0, "hands": [[], ["red-7"], 12], "winner": 0},
               {"round": "index from 0", "hands": "as in end_round",
                "winner": "optional seat"}, host_only=True),
    ActionSpec("adjust_count", N_("Correct how many cards a player holds (host)."),
               {"type": "adjust_count", "seat": 2, "count": 5},
               {"seat": "seat index", "count": "1.."}, host_only=True),
    ActionSpec("set_totals", N_("Start the match at the totals so far, one per seat (a "
                                "match resumed from paper); the rounds add to them (host)."),
               {"type": "set_totals", "totals": [120, 45, 300]},
               {"totals": "per seat, a whole number from 0"}, host_only=True),
    ActionSpec("end_match", N_("End the match now (host)."), {"type": "end_match"},
               host_only=True),
)
