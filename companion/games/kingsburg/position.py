"""The host's hands on the state: a game already under way on paper typed in as one
``position`` action, and ``correct`` for anything the table finds wrong later (a good
miscounted, a building the sheet's provisional data got wrong, the turn order, the Envoy)."""

from __future__ import annotations

from typing import Any

from companion.games.base import N_, OptionError, Rejection, reject, resolve_options
from companion.games.kingsburg import season as seasons
from companion.games.kingsburg.core import SOURCES, Move, building_id, is_int, new_player
from companion.games.kingsburg.data import BUILDINGS, GOODS, PRODUCTIVE, ROWS, YEARS
from companion.games.kingsburg.options import OPTIONS

COUNTS = (*GOODS, "soldiers", "plus2")
MAX_COUNT = 99


def _buildings(raw: Any) -> list[str] | Rejection:
    if isinstance(raw, list):
        raw = [building_id(b) for b in raw]
    if not isinstance(raw, list) or not all(isinstance(b, str) and b in BUILDINGS for b in raw):
        return reject("bad_building", N_("Buildings are named by their ids (statue, inn, "
                                         "guard_tower...)."))
    if len(set(raw)) != len(raw):
        return reject("bad_building", N_("Each building can be owned once."))
    for row in ROWS:
        owned = [b in raw for b in row]
        if owned != sorted(owned, reverse=True):
            return reject("row_order", N_("Build the buildings of a row from left to right."))
    return [b for b in BUILDINGS if b in raw]


def _player_fields(raw: Any, p: dict[str, Any]) -> Rejection | None:
    """Copy the given counts, VP and buildings of one player into ``p``."""
    if not isinstance(raw, dict):
        return reject("bad_position", N_("Each player is given as an object."))
    for key in COUNTS:
        if key in raw:
            if not is_int(raw[key], 0, MAX_COUNT):
                return reject("bad_count", N_("“{name}” is a whole number from 0 to {max}."),
                              name=key, max=MAX_COUNT)
            p[key] = raw[key]
    if "buildings" in raw:
        built = _buildings(raw["buildings"])
        if isinstance(built, Rejection):
            return built
        p["buildings"] = built
    if "vp" in raw and not is_int(raw["vp"], -200, 200):
        return reject("bad_count", N_("“{name}” is a whole number from {min} to {max}."),
                      name="vp", min=-200, max=200)
    return None


def _order(raw: Any, n: int) -> list[int] | Rejection:
    if not isinstance(raw, list) or not all(is_int(s) for s in raw) or sorted(raw) != list(
            range(n)):
        return reject("bad_order", N_("The turn order names every seat once."))
    return list(raw)


def _envoy(raw: Any, n: int) -> Rejection | None:
    if raw is not None and not is_int(raw, 0, n - 1):
        return reject("bad_seat", N_("There is no seat {seat}."), seat=str(raw)[:20])
    return None


def position(m: Move, action: dict[str, Any]) -> Rejection | None:
    """Start from a game under way: year, phase, turn order, each player's goods, soldiers,
    +2 tokens, buildings and points, the Envoy and, in a productive season, the dice left,
    the advisors taken and who has passed (play goes on at the influence step). Without
    ``season`` play goes on at the beginning of the phase (its event is carried out)."""
    st, n = m.st, m.n
    year, phase = action.get("year"), action.get("phase")
    if not is_int(year, 1, YEARS) or not is_int(phase, 1, 8):
        return reject("bad_position", N_("A position needs a year from 1 to 5 and a phase "
                                         "from 1 to 8."))
    order = _order(action.get("order", st["order"]), n)
    if isinstance(order, Rejection):
        return order
    raw_players = action.get("players")
    if not isinstance(raw_players, list) or len(raw_players) != n:
        return reject("bad_position", N_("Give every player's position, in seat order."))
    players = []
    for raw in raw_players:
        p = new_player()
        refused = _player_fields(raw, p)
        if refused is not None:
            return refused
        vp = raw.get("vp", 0)
        p["vp"], p["points"] = vp, {s: 0 for s in SOURCES} | {"start": vp}
        players.append(p)
    envoy = action.get("envoy")
    if (r := _envoy(envoy, n)) is not None:
        return r
    aid_die = action.get("aid_die")
    if (r := _envoy(aid_die, n)) is not None:
        return r
    st.update({"year": year, "phase": phase, "order": order, "p": players,
               "envoy": {"seat": envoy}, "aid_die": aid_die, "season": None, "pending": [],
               "recruited": None, "battle": None, "peeks": {}, "proposals": {},
               "step": "start", "ended": False})
    st["history"].append({"year": year, "phase": phase, "scores": [p["vp"] for p in players],
                          "position": True})
    raw_season = action.get("season")
    m.event("position", year=year, phase=phase)
    if raw_season is None:
        return None
    if phase not in PRODUCTIVE or not isinstance(raw_season, dict):
        return reject("bad_position", N_("Dice and advisors are given only in Spring, "
                                         "Summer or Autumn."))
    return _season(m, raw_season)


def _season(m: Move, raw: dict[str, Any]) -> Rejection | None:
    """A season in the middle of influencing: the dice each player has left, the advisors
    taken (advisor -> seats), the blocked ones (two players), who passed, whose turn."""
    st, n = m.st, m.n
    seasons.start(m)
    s = st["season"]
    dice, whites = raw.get("dice"), raw.get("white", [[] for _ in range(n)])
    if not isinstance(dice, list) or len(dice) != n or not isinstance(whites, list) or len(
            whites) != n:
        return reject("bad_position", N_("Give every player's dice left, in seat order."))
    for seat in range(n):
        c, w = dice[seat], whites[seat]
        if not isinstance(c, list) or not isinstance(w, list) or not all(
                is_int(v, 1, 6) for v in [*c, *w]) or len(c) > 3 or len(w) > 2:
            return reject("bad_dice", N_("Dice values are whole numbers from 1 to 6."))
        s["dice"][seat] = ([{"v": v, "white": False, "used": False} for v in c]
                           + [{"v": v, "white": True, "used": False} for v in w])
    advisors = raw.get("advisors", {})
    if not isinstance(advisors, dict):
        return reject("bad_position", N_("Advisors taken are given as advisor: seats."))
    for key, seats in advisors.items():
        if not str(key).isdigit() or not is_int(int(key), 1, 18) or not isinstance(
                seats, list) or not seats or not all(is_int(x, 0, n - 1) for x in seats):
            return reject("bad_position", N_("Advisors taken are given as advisor: seats."))
        s["advisors"][str(int(key))] = list(seats)
        for seat in seats:
            s["placed"].append({"seat": seat, "advisor": int(key), "dice": [], "values": [],
                                "white": [], "plus2": False, "market": 0, "envoy": False})
    blocked = raw.get("blocked", [])
    if not isinstance(blocked, list) or not all(is_int(a, 1, 18) for a in blocked):
        return reject("bad_position", N_("Blocked advisors are numbers from 1 to 18."))
    s["blocked"], s["neutral"] = sorted(set(blocked)), list(blocked)
    passed = raw.get("passed", [False] * n)
    if not isinstance(passed, list) or len(passed) != n or not all(
            isinstance(x, bool) for x in passed):
        return reject("bad_position", N_("Say for every player whether he has passed."))
    s["passed"] = list(passed)
    for flag in ("plus2_used", "market_used"):
        given = raw.get(flag, [False] * n)
        if not isinstance(given, list) or len(given) != n or not all(
                isinstance(x, bool) for x in given):
            return reject("bad_position", N_("Say for every player whether he has passed."))
        s[flag] = list(given)
    s["settled"] = [True] * n
    s["totals"] = [sum(d["v"] for d in dd) for dd in s["dice"]]
    st["step"] = "influence"
    turn = raw.get("turn")
    if turn is not None:
        if not is_int(turn, 0, n - 1) or s["passed"][turn]:
            return reject("bad_position", N_("The player to move has not passed."))
        before = st["order"][(st["order"].index(turn) - 1) % n]
        s["turn"] = before
    seasons.next_turn(m)
    return None


# options the host may change during a game (the sheet's unconfirmed rules); the order
# before the first Spring and where the enemy cards come from are settled at setup
FIXED_OPTIONS = frozenset({"initial_order", "enemy_cards"})


def _options(m: Move, given: Any) -> Rejection | None:
    """A rule the table finds the sheet got wrong (the Barracks' price, the two-player
    rule...) is corrected for the rest of the game."""
    if not isinstance(given, dict) or not given:
        return reject("bad_correction", N_("Name the options to change and their values."))
    fixed = [k for k in given if k in FIXED_OPTIONS]
    if fixed:
        return reject("fixed_option", N_("“{name}” is settled when the table is created."),
                      name=str(fixed[0]))
    try:
        m.st["options"] = resolve_options(OPTIONS, {**m.st["options"], **given})
    except OptionError as exc:
        return exc.rejection
    return None


def correct(m: Move, action: dict[str, Any]) -> Rejection | None:
    """The host sets what is wrong: a player's counts, VP or buildings (``seat`` and the
    fields), the turn order, the Envoy's holder, a rule option. VP set here are booked as
    corrections."""
    st, n = m.st, m.n
    changed = []
    if "seat" in action:
        seat = action["seat"]
        if not is_int(seat, 0, n - 1):
            return reject("bad_seat", N_("There is no seat {seat}."), seat=str(seat)[:20])
        p = m.p(seat)
        refused = _player_fields(action, p)
        if refused is not None:
            return refused
        if "vp" in action:
            m.score(seat, action["vp"] - p["vp"], "corrections")
        changed.append("player")
    if "order" in action:
        order = _order(action["order"], n)
        if isinstance(order, Rejection):
            return order
        st["order"] = order
        changed.append("order")
    if "envoy" in action:
        if (r := _envoy(action["envoy"], n)) is not None:
            return r
        st["envoy"] = {"seat": action["envoy"]}
        changed.append("envoy")
    if "options" in action:
        refused = _options(m, action["options"])
        if refused is not None:
            return refused
        changed.append("options")
    if not changed:
        return reject("bad_correction", N_("Say what to correct: a seat and its values, the "
                                           "order, the Envoy or the options."))
    m.event("corrected", what=changed, seat=action.get("seat"))
    return None
