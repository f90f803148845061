"""Table options: every [DEFAULT] of rules/doudizhu.md with that default, the sheet's
variants (off), and what the sheet leaves to the table (docs/games/doudizhu.md)."""

from __future__ import annotations

from companion.games.base import N_, Option

OPTIONS: tuple[Option, ...] = (
    # D1, §2.2
    Option("landlord", "auction",
           N_("How the landlord is chosen: an auction (bids 1, 2 or 3; whoever drew the "
              "face-up card bids first), or whoever draws the face-up card is the landlord."),
           choices=("auction", "face_up_card"),
           labels=(N_("Auction: bid 1, 2 or 3"), N_("Whoever draws the face-up card"))),
    # B3, D10
    Option("auction", "pass_is_final",
           N_("How the auction runs: a player who passes is out and it ends when the others "
              "have passed after a bid; or everyone speaks once; or a player who passed may "
              "bid again until the others pass in a row."),
           choices=("pass_is_final", "single_round", "open"),
           labels=(N_("A pass is final"), N_("Everyone speaks once"),
                   N_("Passed players may bid again"))),
    # D2, §2.3
    Option("reveal_kitty", True,
           N_("Show the three kitty cards to everyone before the landlord takes them."),
           kind=bool),
    # §3 variant (EXT-HH)
    Option("doubling", False,
           N_("Variant: once the landlord is known each peasant may double, and the landlord "
              "may then redouble."), kind=bool),
    # S3
    Option("spring_multiplier", 2,
           N_("How a spring (or an anti-spring) multiplies the stake: 2, or 3 as some "
              "tables play."), choices=(2, 3), labels=(N_("Doubles it"), N_("Triples it"))),
    # D9
    Option("anti_spring", True,
           N_("Anti-spring counts too: the peasants win and the landlord played nothing "
              "after his opening lead."), kind=bool),
    # §5 variant (EXT-HH)
    Option("quad_two_pairs", False,
           N_("Variant: four of a kind with two pairs is a combination too."), kind=bool),
    # §8 [DEFAULT]
    Option("big_bombs", True,
           N_("Four players: five to eight cards of one rank are bombs too (more cards beat "
              "fewer)."), kind=bool),
    # the sheet plays with real cards; the app may deal too
    Option("deal", "table",
           N_("Who deals: the players, with real cards (the referee knows only what is "
              "played), or the app, which deals every hand to the phones."),
           choices=("table", "app"),
           labels=(N_("Real cards at the table"), N_("The app deals to the phones"))),
    Option("hands", 0,
           N_("The match ends after this many hands (0: when the host ends it)."),
           kind=int, minimum=0, maximum=1000),
    # (silent) the fan reader misses a card of a drawn play often enough (tools/
    # measure_ddz_camera.py) that a play it reads is only counted once the player says so
    Option("camera_confirm", True,
           N_("Every play the camera reads is proposed first: the player confirms it on the "
              "phone (the camera may miss a card of a fan)."), kind=bool),
    Option("camera_confirm_below", 0.8,
           N_("A card the camera recognised with less confidence than this is only proposed: "
              "the player confirms the play on the phone."),
           kind=(int, float), minimum=0, maximum=1),
)
