"""A productive season (Spring, Summer, Autumn; section 3): a) roll and set the turn order
(K1, K2, rerolls K18-K20, white dice K17, the two-player block K50), b) influence advisors in
turn order (K10-K16), c) receive help in advisor order (K21-K23), d) construct (K30-K35),
then the end-of-season buildings (Inn, Town Hall, Embassy)."""

from __future__ import annotations

from typing import Any

from companion.games.base import N_, Label, Rejection, reject
from companion.games.kingsburg import choices
from companion.games.kingsburg.core import (
    Move,
    acting_seat,
    buildable,
    building_id,
    can_afford,
    cost_of,
    die_values,
    goods_total,
    has,
    reachable,
)
from companion.games.kingsburg.data import ADVISORS, BUILDINGS, COLOURED_DICE, GOODS
from companion.games.kingsburg.placements import check_placement, legal_placements


def start(m: Move) -> None:
    """Step a's beginning: the Merchants' Guild's gold (before rolling), the white dice."""
    n, st = m.n, m.st
    for seat in range(n):
        if has(m.p(seat), "merchants_guild"):
            m.gain(seat, {"gold": 1})
    whites = []
    for seat in range(n):
        k = 1 if has(m.p(seat), "farms") else 0
        if st["phase"] == 2 and st.get("aid_die") == seat:
            k += 1
        whites.append(min(2, k))  # K17
    st["season"] = {
        "dice": [None] * n, "whites": whites,
        "rerolls": [{"statue": False, "chapel": False} for _ in range(n)],
        "settled": [False] * n,
        "neutral": None, "blocked": [],
        "advisors": {}, "placed": [], "passed": [False] * n, "turn": None,
        "plus2_used": [False] * n, "market_used": [False] * n,
        "queue": [], "built": [0] * n, "done": [False] * n, "totals": None,
    }
    st["step"] = "roll"
    if m.opt("app_rolls") and needs_neutral(m.st):
        st["season"]["neutral"] = [m.ctx.rng.randint(1, 6) for _ in range(3)]
        st["season"]["blocked"] = sorted(set(st["season"]["neutral"]))


def needs_neutral(state: dict[str, Any]) -> bool:
    return len(state["players"]) == 2 and state["options"]["two_player_block"]


def step(m: Move) -> bool:
    st, s = m.st, m.st["season"]
    if st["step"] == "roll":
        if not all(s["settled"]) or (needs_neutral(st) and s["neutral"] is None):
            return False
        set_order(m)
        st["step"] = "influence"
        s["turn"] = None
        next_turn(m)
        return True
    if st["step"] == "influence":
        if not all(s["passed"]):
            return False
        s["turn"] = None
        s["queue"] = [[pl["advisor"], pl["seat"]] for pl in
                      sorted(s["placed"], key=lambda pl: pl["advisor"])]  # (stable: K8a's 2nd)
        st["step"] = "help"
        return True
    if st["step"] == "help":
        if not s["queue"]:
            st["step"] = "build"
            for seat in range(m.n):
                settle_building(m, seat)
            return True
        advisor, seat = s["queue"].pop(0)
        pay(m, advisor, seat)
        return True
    if st["step"] == "build":
        if not all(s["done"]):
            return False
        end_of_season(m)
        st["step"] = "finish"
        return True
    return False


# -- a) rolls ---------------------------------------------------------------------------
def total(die_list: list[dict[str, Any]]) -> int:
    return sum(d["v"] for d in die_list)


def reroll_open(state: dict[str, Any], seat: int) -> list[str]:
    """K18-K20: the rerolls this player may still take with the dice he shows now."""
    s, p = state["season"], state["p"][seat]
    dice = s["dice"][seat]
    if dice is None:
        return []
    out = []
    if has(p, "statue") and not s["rerolls"][seat]["statue"] and len({d["v"] for d in dice}) == 1:
        out.append("statue")
    if has(p, "chapel") and not s["rerolls"][seat]["chapel"] and total(dice) <= 7:
        out.append("chapel")
    return out


def _in_roll_step(m: Move) -> Rejection | None:
    if m.st["step"] != "roll":
        return reject("not_rolling", N_("The dice are rolled at the start of a productive "
                                        "season."))
    return None


def _values(m: Move, given: Any, count: int) -> list[int] | Rejection:
    if given is None and m.opt("app_rolls"):
        return [m.ctx.rng.randint(1, 6) for _ in range(count)]
    return die_values(given, count)


def roll(m: Move, action: dict[str, Any]) -> Rejection | None:
    """A player's roll: his three coloured dice and the white dice he has this season. A
    roll typed again before the advisors are influenced replaces the first (a typo)."""
    if (r := _in_roll_step(m)) is not None:
        return r
    seat = acting_seat(m, action)
    if isinstance(seat, Rejection):
        return seat
    s = m.st["season"]
    whites = s["whites"][seat]
    given = action.get("dice")
    if ("white" not in action and whites and isinstance(given, list)
            and len(given) == COLOURED_DICE + whites):
        # (all his dice in one list: the coloured ones first, then the white)
        action = {**action, "dice": given[:COLOURED_DICE], "white": given[COLOURED_DICE:]}
    coloured = _values(m, action.get("dice"), COLOURED_DICE)
    if isinstance(coloured, Rejection):
        return coloured
    white = _values(m, action.get("white", [] if not whites else None), whites)
    if isinstance(white, Rejection):
        if whites == 0:
            return reject("no_white_dice", N_("You have no white die this season."))
        return reject("bad_white", N_("Give the {n} white dice's values."), n=whites)
    s["dice"][seat] = ([{"v": v, "white": False, "used": False} for v in coloured]
                       + [{"v": v, "white": True, "used": False} for v in white])
    s["rerolls"][seat] = {"statue": False, "chapel": False}
    s["settled"][seat] = not reroll_open(m.st, seat)
    m.st["proposals"].pop(str(seat), None)
    m.event("rolled", seat=seat, dice=coloured, white=white)
    return None


def roll_neutral(m: Move, action: dict[str, Any]) -> Rejection | None:
    """K50: the two-player game's three dice of an unused colour."""
    if (r := _in_roll_step(m)) is not None:
        return r
    if not needs_neutral(m.st):
        return reject("no_neutral", N_("Neutral dice are rolled only by two players."))
    if m.ctx.actor.seat is None and not m.ctx.actor.host:
        return reject("not_seated", N_("Join the table as a player first."))
    values = _values(m, action.get("dice"), 3)
    if isinstance(values, Rejection):
        return values
    m.st["season"]["neutral"] = values
    m.st["season"]["blocked"] = sorted(set(values))
    m.event("neutral_dice", dice=values)
    return None


def reroll(m: Move, action: dict[str, Any]) -> Rejection | None:
    """The Statue rerolls one die when all show the same (``die``: its number, ``value``: the
    new face); the Chapel all of them when they total 7 or less (``values``)."""
    if (r := _in_roll_step(m)) is not None:
        return r
    seat = acting_seat(m, action)
    if isinstance(seat, Rejection):
        return seat
    s = m.st["season"]
    dice = s["dice"][seat]
    if dice is None:
        return reject("not_rolled", N_("Roll your dice first."))
    which = building_id(action.get("building"))
    if which not in ("statue", "chapel"):
        return reject("bad_reroll", N_("Reroll with the Statue or the Chapel."))
    if which not in reroll_open(m.st, seat):
        if not has(m.p(seat), which):
            return reject("no_building", N_("You have no {building}."),
                          building=Label(BUILDINGS[which]["name"]))
        if s["rerolls"][seat][which]:
            return reject("reroll_used", N_("That reroll is used once a season."))
        if which == "statue":
            return reject("reroll_not_allowed",
                          N_("The Statue rerolls only when all your dice show the same."))
        return reject("reroll_not_allowed",
                      N_("The Chapel rerolls only when your dice total 7 or less."))
    if which == "statue":
        index = action.get("die", 0)
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(dice):
            return reject("bad_dice", N_("Name the die you reroll by its number."))
        new = _values(m, None if "value" not in action else [action["value"]], 1)
        if isinstance(new, Rejection):
            return new
        dice[index]["v"] = new[0]
    else:
        new = _values(m, action.get("values"), len(dice))
        if isinstance(new, Rejection):
            return new
        for d, v in zip(dice, new, strict=True):
            d["v"] = v
    s["rerolls"][seat][which] = True
    s["settled"][seat] = not reroll_open(m.st, seat)
    m.event("rerolled", seat=seat, building=which, dice=[d["v"] for d in dice])
    return None


def keep(m: Move, action: dict[str, Any]) -> Rejection | None:
    """Keep the dice as they are: no (more) reroll this season."""
    if (r := _in_roll_step(m)) is not None:
        return r
    seat = acting_seat(m, action)
    if isinstance(seat, Rejection):
        return seat
    if m.st["season"]["dice"][seat] is None:
        return reject("not_rolled", N_("Roll your dice first."))
    m.st["season"]["settled"][seat] = True
    return None


def set_order(m: Move) -> None:
    """K1, K2: ascending totals of all dice rolled; a tie keeps the earlier chart order."""
    s = m.st["season"]
    totals = [total(d) for d in s["dice"]]
    s["totals"] = totals
    m.st["order"] = sorted(m.st["order"], key=lambda seat: totals[seat])
    m.event("turn_order", order=list(m.st["order"]), totals=totals)


# -- b) influence -------------------------------------------------------------------------
def next_turn(m: Move) -> None:
    """The next player in turn order who has not passed (K10); one with no legal placement
    left passes by himself (placements only ever shrink in a season)."""
    s, order = m.st["season"], m.st["order"]
    start = -1 if s["turn"] is None else order.index(s["turn"])
    for k in range(1, m.n + 1):
        seat = order[(start + k) % m.n]
        if s["passed"][seat]:
            continue
        if not legal_placements(m.st, seat):
            s["passed"][seat] = True
            m.event("passed", seat=seat, auto=True)
            continue
        s["turn"] = seat
        return
    s["turn"] = None


def influence(m: Move, action: dict[str, Any]) -> Rejection | None:
    s = m.st["season"]
    if m.st["step"] != "influence":
        return reject("not_influencing", N_("Advisors are influenced after everyone has "
                                            "rolled."))
    seat = acting_seat(m, action, default=s["turn"])
    if isinstance(seat, Rejection):
        return seat
    if s["passed"][seat]:
        return reject("passed", N_("You have passed this season."))
    if seat != s["turn"]:
        return reject("not_your_turn", N_("It is {name}'s turn."),
                      name=m.st["players"][s["turn"]])
    placement = check_placement(m.st, seat, action)
    if isinstance(placement, Rejection):
        return placement
    for i in placement["dice"]:
        s["dice"][seat][i]["used"] = True
    if placement["plus2"]:
        m.p(seat)["plus2"] -= 1
        s["plus2_used"][seat] = True
    if placement["market"]:
        s["market_used"][seat] = True
    if placement["envoy"]:
        m.st["envoy"] = {"seat": None}
    s["advisors"].setdefault(str(placement["advisor"]), []).append(seat)
    s["placed"].append({"seat": seat, **placement})
    m.event("influenced", seat=seat, advisor=placement["advisor"], dice=placement["values"],
            plus2=placement["plus2"], market=placement["market"], envoy=placement["envoy"])
    next_turn(m)
    return None


def pass_(m: Move, action: dict[str, Any]) -> Rejection | None:
    """K10, K13: pass for the rest of the season (again: nothing happens)."""
    s = m.st["season"]
    if m.st["step"] != "influence":
        return reject("not_influencing", N_("Advisors are influenced after everyone has "
                                            "rolled."))
    seat = acting_seat(m, action, default=s["turn"])
    if isinstance(seat, Rejection):
        return seat
    if s["passed"][seat]:
        return None  # (passed already, or by himself with nothing left to place)
    if seat != s["turn"]:
        return reject("not_your_turn", N_("It is {name}'s turn."),
                      name=m.st["players"][s["turn"]])
    s["passed"][seat] = True
    m.event("passed", seat=seat, auto=False)
    next_turn(m)
    return None


# -- c) help ------------------------------------------------------------------------------
def pay(m: Move, advisor: int, seat: int) -> None:
    """One advisor's help (K21-K23); a choice it leaves open is asked on the phone."""
    a = ADVISORS[advisor]
    gain = dict(a["gain"])
    if advisor == 12 and not m.opt("duchess_plus2"):
        gain.pop("plus2")
    if advisor == 17:
        gain["vp"] = m.opt("queen_vp")
    m.gain(seat, gain, "advisors")
    if gain.get("soldiers", 0) > 0 and has(m.p(seat), "stable"):
        m.gain(seat, {"soldiers": 1})  # K23
    if a.get("peek"):
        m.st["peeks"][str(seat)] = m.st["year"]
    m.event("help", seat=seat, advisor=advisor, gain=gain)
    what = a.get("choose")
    if what == "alchemist":
        held = [g for g in GOODS if m.p(seat)[g] > 0]
        if len(held) == 1:
            choices.alchemy(m, seat, held[0])
        elif held:
            m.st["pending"].append({"seat": seat, "kind": "alchemist", "advisor": advisor})
        else:
            m.event("alchemist_idle", seat=seat)  # (no good to give back, K22)
    elif what is not None:
        n, kinds = what
        m.st["pending"].append({"seat": seat, "kind": "goods", "n": n, "from": list(kinds),
                                "why": "advisor", "advisor": advisor})


# -- d) construction ----------------------------------------------------------------------
def build_limit(m: Move, seat: int) -> int:
    """K30: one building a season, two with the Envoy (K8b)."""
    return 2 if m.st["envoy"]["seat"] == seat else 1


def settle_building(m: Move, seat: int) -> None:
    """A player with nothing more he may build is done by himself."""
    s = m.st["season"]
    if s["done"][seat]:
        return
    if s["built"][seat] >= build_limit(m, seat) or not any(
            b["affordable"] for b in buildable(m.st, seat)):
        s["done"][seat] = True


def build(m: Move, action: dict[str, Any]) -> Rejection | None:
    if m.st["step"] != "build":
        return reject("not_building", N_("Buildings are built at the end of a productive "
                                         "season."))
    seat = acting_seat(m, action)
    if isinstance(seat, Rejection):
        return seat
    s, p = m.st["season"], m.p(seat)
    bid = building_id(action.get("building"))
    if bid not in BUILDINGS:
        return reject("bad_building", N_("Unknown building: {building}."),
                      building=str(bid)[:40])
    if s["built"][seat] >= build_limit(m, seat):
        return reject("built_already", N_("You have already built this season."))
    if has(p, bid):
        return reject("owned", N_("You already own the {building}."),
                      building=Label(BUILDINGS[bid]["name"]))
    if not reachable(p, bid):
        return reject("row_order", N_("Build the buildings of a row from left to right."))
    cost = cost_of(m.st, p, bid)
    if not can_afford(p, cost):
        return reject("cannot_afford", N_("You cannot afford the {building}."),
                      building=Label(BUILDINGS[bid]["name"]))
    envoy = s["built"][seat] >= 1
    for g in GOODS:
        p[g] -= cost[g]
    p["buildings"].append(bid)
    m.score(seat, BUILDINGS[bid]["vp"], "buildings")  # K33
    s["built"][seat] += 1
    if envoy:
        m.st["envoy"] = {"seat": None}
    s["done"][seat] = False
    settle_building(m, seat)
    m.event("built", seat=seat, building=bid, cost=cost, envoy=envoy)
    return None


def done(m: Move, action: dict[str, Any]) -> Rejection | None:
    """A player ends his construction step (again: nothing happens)."""
    if m.st["step"] != "build":
        return reject("not_building", N_("Buildings are built at the end of a productive "
                                         "season."))
    seat = acting_seat(m, action)
    if isinstance(seat, Rejection):
        return seat
    m.st["season"]["done"][seat] = True
    return None


def end_of_season(m: Move) -> None:
    """K35: the Inn's token (Summer), the Embassy's VP, then the Town Hall's offer (the Inn
    first, so that its token may be paid at once, KA10)."""
    summer = m.st["phase"] == 4
    for seat in m.st["order"]:
        p = m.p(seat)
        if summer and has(p, "inn"):
            m.gain(seat, {"plus2": 1})
            m.event("inn", seat=seat)
        if has(p, "embassy"):
            m.score(seat, 1, "embassy")
            m.event("embassy", seat=seat)
        if has(p, "town_hall") and (p["plus2"] > 0 or goods_total(p) > 0):
            m.st["pending"].append({"seat": seat, "kind": "town_hall"})
