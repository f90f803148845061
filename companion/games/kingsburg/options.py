"""The table options: every [DEFAULT] of rules/kingsburg.md with the sheet's default, and the
companion's own choices where the sheet is silent (docs/games/kingsburg.md)."""

from __future__ import annotations

from companion.games.base import N_, Option

OPTIONS: tuple[Option, ...] = (
    Option("initial_order", "random",
           N_("The turn order before the first Spring: drawn at random, or in seat order."),
           choices=("random", "seats"),
           labels=(N_("Random"), N_("Seat order"))),
    Option("app_rolls", False,
           N_("The companion rolls the dice itself when a roll is sent without values (off: "
              "the dice are rolled at the table and typed in or read by the camera)."),
           kind=bool),
    Option("enemy_cards", "table",
           N_("The enemy cards: drawn at the table and entered when revealed in Winter, or "
              "drawn by the companion at setup (it then shows the General's and the Queen's "
              "peek)."),
           choices=("table", "app"),
           labels=(N_("Drawn at the table"), N_("Drawn by the companion"))),
    # K6, KA7
    Option("reward_needs_building", True,
           N_("The King's Reward needs at least one building (nobody scores it while all have "
              "none)."), kind=bool),
    # K15, KA2
    Option("plus2_limit", "season",
           N_("How many +2 tokens may be used to influence: one a season, or one on each "
              "advisor."),
           choices=("season", "advisor"),
           labels=(N_("One a season"), N_("One on each advisor"))),
    # K8a, KA8
    Option("envoy_own_advisor", True,
           N_("The Envoy may reopen an advisor the player influenced himself this season."),
           kind=bool),
    # KA1
    Option("duchess_plus2", True, N_("The Duchess (12) also gives a +2 token."), kind=bool),
    Option("queen_vp", 3, N_("Victory points the Queen (17) gives."), kind=int,
           minimum=0, maximum=5),
    # K34
    Option("crane_floor_zero", True,
           N_("The Crane's discount never takes a gold cost below 0."), kind=bool),
    # K40, KA3
    Option("barracks_pay", "good",
           N_("With Barracks a soldier costs one good of any kind, or one gold."),
           choices=("good", "gold"),
           labels=(N_("One good of any kind"), N_("One gold"))),
    # K45, KA4
    Option("lost_building", "owner_chooses",
           N_("A building lost in battle: the owner picks the right-most building of one of "
              "his rows, or the right-most of all is taken (highest column, topmost row on "
              "ties)."),
           choices=("owner_chooses", "rightmost"),
           labels=(N_("The owner chooses the row"), N_("The right-most building"))),
    Option("lost_building_vp", True,
           N_("A building lost in battle takes its victory points with it."), kind=bool),
    # KA9
    Option("strongest_bonus", 0,
           N_("Victory points for the strongest player who wins the battle (the sheet knows "
              "none)."), kind=int, minimum=0, maximum=5),
    # K50, KA5
    Option("two_player_block", True,
           N_("With two players, three dice of an unused colour are rolled each season and "
              "block the advisors they show."), kind=bool),
    # K61
    Option("cathedral_spends", False,
           N_("The Cathedral's end bonus spends the goods it counts."), kind=bool),
    # K21, K45
    Option("negative_scores", True,
           N_("Scores may go below 0 (the Smuggler, battle losses); off: a score stops at 0."),
           kind=bool),
)
