"""The actions Dou Di Zhu accepts, for the OpenAPI document (each with an example).

Cards are the shared names (``9H``, ``10S``, ``BJ``, ``RJ``) or bare ranks (``9``, ``10``,
``A``, ``2``, ``BJ``, ``RJ``): suits are ignored. Seats are in playing order (counter-clockwise
round the table, §3 B6): the next player is the next seat. ``seat`` is optional wherever a
player acts: it defaults to the phone's own seat; the host (and the camera) may name any seat,
and without one act for the player to move.
"""

from __future__ import annotations

from companion.games.base import N_, ActionSpec

SEAT = "optional: the seat acting (default: your own; the host may name any)"
CARDS = "list of card names or ranks (suits ignored): 9H, 10, A, 2, BJ, RJ"

ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec("bid", N_("Bid 1, 2 or 3 for the landlord's seat (higher than the bid so far; "
                         "3 ends the auction). At a table with real cards the first bid "
                         "comes from whoever drew the face-up card."),
               {"type": "bid", "bid": 2}, {"bid": "1, 2 or 3", "seat": SEAT}),
    ActionSpec("pass", N_("In the auction: no bid. In play: pass (not when you lead)."),
               {"type": "pass"}, {"seat": SEAT}),
    ActionSpec("landlord", N_("Name the landlord: whoever drew the face-up card (option "
                              "'face_up_card' with real cards)."),
               {"type": "landlord", "seat": 1}, {"seat": "the landlord's seat"}),
    ActionSpec("double", N_("Variant 'doubling': a peasant doubles the stake against the "
                            "landlord, or not."),
               {"type": "double", "double": True}, {"double": "true|false", "seat": SEAT}),
    ActionSpec("redouble", N_("Variant 'doubling': the landlord redoubles against the "
                              "peasants who doubled, or not."),
               {"type": "redouble", "redouble": False},
               {"redouble": "true|false", "seat": SEAT}),
    ActionSpec("kitty", N_("The kitty cards as they were shown (real cards): public, for the "
                           "record."),
               {"type": "kitty", "cards": ["2S", "7H", "BJ"]}, {"cards": CARDS}),
    ActionSpec("play", N_("Play a combination; the referee classifies it and judges it "
                          "against the last play."),
               {"type": "play", "cards": ["3S", "3H", "3D", "9C"]},
               {"cards": CARDS, "seat": SEAT}),
    ActionSpec("propose", N_("The camera is unsure of some cards of a play: the player "
                             "confirms it (or corrects it) on the phone."),
               {"type": "propose", "cards": ["9S", "9H"], "unsure": ["9H"], "seat": 0},
               {"cards": CARDS, "unsure": "the cards read unsurely", "seat": SEAT}),
    ActionSpec("confirm", N_("Confirm the proposed play, with the cards corrected if needed."),
               {"type": "confirm", "cards": ["9S", "9H"]},
               {"cards": "optional: the play as it really is"}),
    ActionSpec("dismiss", N_("The proposed play was misread: drop it."), {"type": "dismiss"}),
    ActionSpec("set_hand", N_("Tap in your own hand (real cards) for the hint: only your "
                              "phone sees it; your plays are taken out of it."),
               {"type": "set_hand", "cards": ["3", "3", "5", "9", "J", "Q", "2", "RJ"]},
               {"cards": CARDS, "seat": SEAT}),
    ActionSpec("next_hand", N_("Deal the next hand."), {"type": "next_hand"}),
    ActionSpec("adjust_count", N_("Correct how many cards a player holds (host)."),
               {"type": "adjust_count", "seat": 2, "count": 5},
               {"seat": "seat index", "count": "0.."}, host_only=True),
    ActionSpec("end_match", N_("End the match now (host)."), {"type": "end_match"},
               host_only=True),
)
