"""The printed tables of the rules sheet (rules/kingsburg.md): the calendar, the 18 advisors,
the 20 buildings and the 25 enemy cards. Plain data, so that a correction of the sheet is an
edit here and nowhere else (the enemy list is a provisional fan transcription, KA6)."""

from __future__ import annotations

from typing import Any

from companion.games.base import N_

GOODS = ("gold", "wood", "stone")
YEARS = 5
COLOURED_DICE = 3
# Each seat's dice colour, for the camera (seat order); "white" are the extra dice.
COLOURS = ("red", "blue", "green", "yellow", "purple")

# The calendar (section 3): phase number -> id, name.
PHASES: dict[int, tuple[str, str]] = {
    1: ("aid", N_("Aid from the King")),
    2: ("spring", N_("Spring")),
    3: ("reward", N_("The King's Reward")),
    4: ("summer", N_("Summer")),
    5: ("envoy", N_("The King's Envoy")),
    6: ("autumn", N_("Autumn")),
    7: ("recruit", N_("Recruit soldiers")),
    8: ("winter", N_("Winter: the battle")),
}
PRODUCTIVE = (2, 4, 6)

# Advisor number -> (id, name, fixed gains, choice) (section 4, the 18 advisors).
# fixed gains: goods / "soldiers" / "vp" / "plus2". choice: None, or (how many goods, from
# which kinds), or "alchemist" (give one good back, take one of each other kind).
ADVISORS: dict[int, dict[str, Any]] = {
    1: {"id": "jester", "name": N_("Jester"), "gain": {"vp": 1}},
    2: {"id": "squire", "name": N_("Squire"), "gain": {"gold": 1}},
    3: {"id": "architect", "name": N_("Architect"), "gain": {"wood": 1}},
    4: {"id": "merchant", "name": N_("Merchant"), "gain": {}, "choose": (1, ("wood", "gold"))},
    5: {"id": "sergeant", "name": N_("Sergeant"), "gain": {"soldiers": 1}},
    6: {"id": "alchemist", "name": N_("Alchemist"), "gain": {}, "choose": "alchemist"},
    7: {"id": "astronomer", "name": N_("Astronomer"), "gain": {"plus2": 1},
        "choose": (1, GOODS)},
    8: {"id": "treasurer", "name": N_("Treasurer"), "gain": {"gold": 2}},
    9: {"id": "master_hunter", "name": N_("Master Hunter"), "gain": {"wood": 1},
        "choose": (1, ("gold", "stone"))},
    10: {"id": "general", "name": N_("General"), "gain": {"soldiers": 2}, "peek": True},
    11: {"id": "swordsmith", "name": N_("Swordsmith"), "gain": {"stone": 1},
         "choose": (1, ("wood", "gold"))},
    12: {"id": "duchess", "name": N_("Duchess"), "gain": {"plus2": 1}, "choose": (2, GOODS)},
    13: {"id": "champion", "name": N_("Champion"), "gain": {"stone": 3}},
    14: {"id": "smuggler", "name": N_("Smuggler"), "gain": {"vp": -1}, "choose": (3, GOODS)},
    15: {"id": "inventor", "name": N_("Inventor"), "gain": {"gold": 1, "wood": 1, "stone": 1}},
    16: {"id": "wizard", "name": N_("Wizard"), "gain": {"gold": 4}},
    17: {"id": "queen", "name": N_("Queen"), "gain": {"vp": 3}, "choose": (2, GOODS),
         "peek": True},
    18: {"id": "king", "name": N_("King"),
         "gain": {"gold": 1, "wood": 1, "stone": 1, "soldiers": 1}},
}

# The province sheet (K36): row, column (1-based), cost, VP, defence, defence against a kind.
BUILDINGS: dict[str, dict[str, Any]] = {}
_ROWS = (
    ("statue", N_("Statue"), (2, 0, 0), 3, 0, None),
    ("chapel", N_("Chapel"), (3, 0, 1), 5, 0, None),
    ("church", N_("Church"), (3, 1, 2), 7, 0, ("demons", 1)),
    ("cathedral", N_("Cathedral"), (5, 0, 3), 9, 0, None),
    ("inn", N_("Inn"), (1, 1, 0), 0, 0, None),
    ("market", N_("Market"), (2, 2, 0), 1, 0, None),
    ("farms", N_("Farms"), (2, 3, 1), 2, -1, None),
    ("merchants_guild", N_("Merchants' Guild"), (3, 1, 2), 4, 0, None),
    ("guard_tower", N_("Guard Tower"), (1, 0, 1), 1, 1, None),
    ("blacksmith", N_("Blacksmith"), (1, 2, 0), 2, 1, None),
    ("barracks", N_("Barracks"), (2, 2, 1), 4, 0, None),
    ("wizards_guild", N_("Wizards' Guild"), (3, 2, 2), 6, 2, None),
    ("palisade", N_("Palisade"), (0, 2, 0), 0, 1, ("zombies", 2)),
    ("stable", N_("Stable"), (1, 1, 1), 2, 0, None),
    ("stone_wall", N_("Stone Wall"), (2, 0, 2), 2, 1, None),
    ("fortress", N_("Fortress"), (3, 0, 2), 4, 1, None),
    ("barricade", N_("Barricade"), (0, 1, 0), 0, 0, ("goblins", 1)),
    ("crane", N_("Crane"), (0, 1, 1), 1, 0, None),
    ("town_hall", N_("Town Hall"), (2, 1, 1), 2, 0, None),
    ("embassy", N_("Embassy"), (2, 2, 2), 4, 0, None),
)
for _i, (_id, _name, _cost, _vp, _def, _vs) in enumerate(_ROWS):
    BUILDINGS[_id] = {
        "id": _id, "name": _name, "row": _i // 4 + 1, "col": _i % 4 + 1,
        "cost": dict(zip(GOODS, _cost, strict=True)), "vp": _vp, "defence": _def,
        # (against that enemy kind the building's defence is this instead)
        "versus": None if _vs is None else {"kind": _vs[0], "defence": _vs[1]},
    }
BUILDING_ORDER = tuple(b[0] for b in _ROWS)
ROWS = tuple(BUILDING_ORDER[r * 4:(r + 1) * 4] for r in range(5))

ENEMY_KINDS = ("barbarians", "goblins", "orcs", "zombies", "demons", "dragons")
ENEMY_NAMES = {"barbarians": N_("Barbarians"), "goblins": N_("Goblins"), "orcs": N_("Orcs"),
               "zombies": N_("Zombies"), "demons": N_("Demons"), "dragons": N_("Dragons")}


def _enemy(year: int, k: int, kind: str, strength: int, win: dict[str, int],
           lose: dict[str, int]) -> dict[str, Any]:
    return {"id": f"{year}-{k}", "year": year, "kind": kind, "strength": strength,
            "win": win, "lose": lose}


# The provisional enemy list (section 4, "Enemy cards"): a reward and a penalty are
# {"vp", "gold", "wood", "stone": amounts, "goods": goods of the player's choice,
# "buildings": buildings lost}.
ENEMIES: tuple[dict[str, Any], ...] = (
    _enemy(1, 1, "barbarians", 2, {"gold": 1}, {"goods": 1, "buildings": 1}),
    _enemy(1, 2, "goblins", 2, {"wood": 1}, {"vp": 1, "wood": 1, "stone": 1, "buildings": 1}),
    _enemy(1, 3, "goblins", 3, {"stone": 1}, {"gold": 1, "buildings": 1}),
    _enemy(1, 4, "orcs", 3, {"gold": 1}, {"vp": 1, "goods": 2}),
    _enemy(1, 5, "zombies", 4, {"vp": 1}, {"vp": 2}),
    _enemy(2, 1, "goblins", 3, {"wood": 1}, {"vp": 1, "wood": 2, "stone": 2, "buildings": 1}),
    _enemy(2, 2, "goblins", 4, {"stone": 1}, {"gold": 2, "buildings": 1}),
    _enemy(2, 3, "orcs", 4, {"gold": 1}, {"goods": 2, "buildings": 1}),
    _enemy(2, 4, "barbarians", 5, {"gold": 1}, {"vp": 1, "goods": 2}),
    _enemy(2, 5, "zombies", 5, {"vp": 1}, {"vp": 2}),
    _enemy(3, 1, "goblins", 4, {"wood": 1}, {"vp": 1, "wood": 3, "stone": 3, "buildings": 1}),
    _enemy(3, 2, "goblins", 5, {"stone": 1}, {"gold": 3, "buildings": 1}),
    _enemy(3, 3, "orcs", 5, {"gold": 1}, {"goods": 2, "buildings": 1}),
    _enemy(3, 4, "demons", 6, {"vp": 1}, {"vp": 1, "gold": 2, "wood": 1, "stone": 1}),
    _enemy(3, 5, "zombies", 6, {"vp": 1}, {"vp": 2}),
    _enemy(4, 1, "goblins", 5, {"wood": 1}, {"vp": 1, "wood": 4, "stone": 4, "buildings": 1}),
    _enemy(4, 2, "goblins", 6, {"stone": 1}, {"gold": 4, "buildings": 1}),
    _enemy(4, 3, "demons", 6, {"gold": 1}, {"goods": 4, "buildings": 1}),
    _enemy(4, 4, "orcs", 7, {"goods": 1}, {"goods": 2, "buildings": 1}),
    _enemy(4, 5, "zombies", 7, {"vp": 1}, {"vp": 2}),
    _enemy(5, 1, "barbarians", 7, {"vp": 1}, {"vp": 8}),
    _enemy(5, 2, "barbarians", 8, {"vp": 1}, {"buildings": 1}),
    _enemy(5, 3, "demons", 8, {"vp": 2}, {"vp": 2, "buildings": 1}),
    _enemy(5, 4, "demons", 9, {"vp": 2}, {"buildings": 1}),
    _enemy(5, 5, "dragons", 9, {"vp": 3}, {"vp": 5}),
)
ENEMY_BY_ID = {e["id"]: e for e in ENEMIES}
EFFECT_KEYS = ("vp", "gold", "wood", "stone", "goods", "buildings")
