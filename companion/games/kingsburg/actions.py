"""The actions Kingsburg accepts, for the OpenAPI document (each with an example).

``seat`` is optional wherever a player acts: a phone acts for its own seat; the host may name
any seat, and without one acts for the player the game waits for. Dice values are typed (the
dice are rolled at the table) or read by the camera; the companion rolls only with the
``app_rolls`` option and a roll sent without values."""

from __future__ import annotations

from companion.games.base import N_, ActionSpec

SEAT = "optional: the seat acting (default: your own; the host may name any)"

ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec("roll", N_("Your roll at the start of a productive season: your three dice "
                          "and your white dice this season (typed again before the advisors "
                          "are influenced, it replaces the first)."),
               {"type": "roll", "seat": 0, "dice": [1, 3, 5], "white": [4]},
               {"dice": "three values 1-6 (your colour); or all your dice, the white last",
                "white": "values 1-6 of your white dice this season (Farms, the King's aid)",
                "seat": SEAT}),
    ActionSpec("roll_neutral", N_("Two players: the three dice of an unused colour, which "
                                  "block the advisors they show this season."),
               {"type": "roll_neutral", "dice": [2, 5, 5]}, {"dice": "three values 1-6"}),
    ActionSpec("reroll", N_("Reroll with the Statue (one die, when all show the same) or the "
                            "Chapel (all dice, when they total 7 or less)."),
               {"type": "reroll", "building": "statue", "die": 3, "value": 1},
               {"building": "statue|chapel", "die": "statue: the die's number from 0",
                "value": "statue: the new value", "values": "chapel: all new values",
                "seat": SEAT}),
    ActionSpec("keep", N_("Keep your dice: no (more) reroll this season."), {"type": "keep"},
               {"seat": SEAT}),
    ActionSpec("propose_roll", N_("The camera is unsure of a roll: the player confirms it."),
               {"type": "propose_roll", "seat": 1, "dice": [2, 2, 6], "white": []},
               {"dice": "three values", "white": "white values", "seat": SEAT}),
    ActionSpec("confirm_roll", N_("Confirm the camera's reading of your roll."),
               {"type": "confirm_roll"}, {"seat": SEAT}),
    ActionSpec("influence", N_("Influence an advisor with the named dice (their numbers in "
                               "your dice, or their values); with a +2 token, the Market's "
                               "±1 or the Envoy where needed."),
               {"type": "influence", "advisor": 8, "values": [3, 5]},
               {"advisor": "1-18", "values": "the values of the dice placed, or",
                "dice": "their numbers in your dice (from 0: the coloured, then the white)",
                "white": "with values: which of those values are white dice",
                "plus2": "optional true|false: use a +2 token",
                "market": "optional -1|0|1: the Market's move",
                "envoy": "optional: the Envoy is used by itself on a taken advisor",
                "seat": SEAT}),
    ActionSpec("pass", N_("Pass: influence no more advisors this season."), {"type": "pass"},
               {"seat": SEAT}),
    ActionSpec("choose", N_("Answer a choice a reward or a loss leaves open: goods, the "
                            "good given to the Alchemist, the Town Hall's payment, the "
                            "building lost."),
               {"type": "choose", "goods": ["gold", "stone"]},
               {"goods": "list of gold|wood|stone", "give": "Alchemist: the good given",
                "pay": "Town Hall: plus2|gold|wood|stone|null",
                "building": "the building lost", "seat": SEAT}),
    ActionSpec("build", N_("Build a building (a second one in the season uses the Envoy)."),
               {"type": "build", "building": "chapel"},
               {"building": "a building id (statue, chapel, ... embassy) or its printed name",
                "seat": SEAT}),
    ActionSpec("done", N_("End your construction step."), {"type": "done"}, {"seat": SEAT}),
    ActionSpec("recruit", N_("Recruit soldiers, paying 2 goods each (1 with Barracks)."),
               {"type": "recruit", "soldiers": 2, "pay": {"gold": 3, "wood": 1}},
               {"soldiers": "0 or more", "pay": "goods paid: {gold, wood, stone}",
                "seat": SEAT}),
    ActionSpec("reinforce", N_("The King's reinforcements: the white die rolled in Winter."),
               {"type": "reinforce", "value": 4}, {"value": "1-6"}),
    ActionSpec("reveal_enemy", N_("The year's enemy card, as revealed (or typed in)."),
               {"type": "reveal_enemy", "card": "2-5"},
               {"card": "year-number of the sheet's list, e.g. 2-5", "enemy":
                "or the card typed in: {kind, strength, win: {...}, lose: {...}}"}),
    ActionSpec("position", N_("Start from a game under way on paper (host)."),
               {"type": "position", "year": 2, "phase": 4, "order": [2, 0, 1],
                "envoy": None,
                "players": [{"gold": 1, "wood": 0, "stone": 2, "soldiers": 0, "plus2": 1,
                             "vp": 7, "buildings": ["statue", "inn"]},
                            {"gold": 0, "wood": 3, "stone": 0, "vp": 4,
                             "buildings": ["guard_tower"]},
                            {"gold": 2, "wood": 1, "stone": 1, "vp": 5,
                             "buildings": ["palisade", "stable"]}],
                "season": {"dice": [[6], [1, 2], [4]], "white": [[], [], []],
                           "advisors": {"8": [0], "3": [2]}, "passed": [False, False, False],
                           "turn": 1}},
               {"year": "1-5", "phase": "1-8", "order": "seats, first to move first",
                "players": "per seat: gold, wood, stone, soldiers, plus2, vp, buildings",
                "envoy": "seat holding the Envoy or null", "aid_die": "seat or null",
                "season": "optional, productive phases: dice and white left per seat, "
                          "advisors {n: [seats]}, blocked, passed, turn"},
               host_only=True),
    ActionSpec("correct", N_("Correct a player's goods, soldiers, tokens, points or "
                             "buildings, the turn order, the Envoy or a rule option (host)."),
               {"type": "correct", "seat": 1, "gold": 2, "vp": 9},
               {"seat": "whose values", "gold|wood|stone|soldiers|plus2|vp": "new value",
                "buildings": "list of building ids", "order": "seats",
                "envoy": "seat or null",
                "options": "rule options to change for the rest of the game, e.g. "
                           "{\"barracks_pay\": \"gold\"}"}, host_only=True),
    ActionSpec("end_game", N_("End the game now (host)."), {"type": "end_game"},
               host_only=True),
)
