"""Influencing advisors (K10-K16, K8a): every legal placement of a player's remaining dice,
and the check of one placement a phone sends.

A placement is a group of the player's unused dice (at least one coloured die, K14) whose
total, plus 2 with a "+2" token (K15) and plus or minus 1 with the Market (K16), names an
advisor nobody influenced this season (K12) or, with the King's Envoy, one already taken
(K8a). Dice of the same colour kind and value are interchangeable, so the listing names one
group per distinct set of values (with the indices of the dice it would use)."""

from __future__ import annotations

from typing import Any

from companion.games.base import N_, Rejection, State, reject
from companion.games.kingsburg.core import has, is_int


def taken(state: State) -> dict[int, list[int]]:
    """Advisor -> the seats on it this season (-1 for the neutral dice of two players)."""
    season = state.get("season") or {}
    out = {int(k): list(v) for k, v in (season.get("advisors") or {}).items()}
    for a in season.get("blocked") or []:
        out.setdefault(a, []).append(-1)
    return out


def envoy_usable(state: State, seat: int) -> bool:
    """K8/K9: held since the last King's Envoy phase and not used yet (using it puts it
    back on the board)."""
    return state["envoy"]["seat"] == seat


def plus2_usable(state: State, seat: int) -> bool:
    season = state["season"]
    if state["p"][seat]["plus2"] <= 0:
        return False
    return state["options"]["plus2_limit"] == "advisor" or not season["plus2_used"][seat]


def market_usable(state: State, seat: int) -> bool:
    return has(state["p"][seat], "market") and not state["season"]["market_used"][seat]


def _open(state: State, seat: int, advisor: int, on: dict[int, list[int]]) -> str | None:
    """How ``seat`` may go on ``advisor``: "free", "envoy", or None."""
    if not 1 <= advisor <= 18:
        return None
    if advisor not in on:
        return "free"
    if not envoy_usable(state, seat):
        return None
    if seat in on[advisor] and not state["options"]["envoy_own_advisor"]:
        return None
    return "envoy"


def legal_placements(state: State, seat: int) -> list[dict[str, Any]]:
    """Every legal placement for ``seat`` now (his turn or not): advisor, the dice (indices
    and values), whether it spends the +2 token, the Market (-1, 0, +1) or the Envoy."""
    season = state.get("season")
    if not season or season["dice"][seat] is None:
        return []
    dice = season["dice"][seat]
    free = [i for i, d in enumerate(dice) if not d["used"]]
    on = taken(state)
    plus2s = (False, True) if plus2_usable(state, seat) else (False,)
    markets = (0, 1, -1) if market_usable(state, seat) else (0,)
    seen: set[tuple[Any, ...]] = set()
    out: list[dict[str, Any]] = []
    for mask in range(1, 1 << len(free)):
        group = [free[k] for k in range(len(free)) if mask >> k & 1]
        if all(dice[i]["white"] for i in group):
            continue  # K14: never white dice alone
        values = tuple(sorted((dice[i]["white"], dice[i]["v"]) for i in group))
        total = sum(dice[i]["v"] for i in group)
        for plus2 in plus2s:
            for market in markets:
                advisor = total + 2 * plus2 + market
                how = _open(state, seat, advisor, on)
                if how is None:
                    continue
                key = (values, plus2, market, advisor)
                if key in seen:
                    continue
                seen.add(key)
                out.append({"advisor": advisor, "dice": group,
                            "values": [dice[i]["v"] for i in group],
                            "white": [dice[i]["v"] for i in group if dice[i]["white"]],
                            "plus2": plus2, "market": market, "envoy": how == "envoy"})
    out.sort(key=lambda x: (x["advisor"], len(x["dice"]), x["plus2"], abs(x["market"]),
                            x["dice"]))
    return out


def pick_dice(dice: list[dict[str, Any]], action: dict[str, Any]) -> list[int] | Rejection:
    """The dice an ``influence`` names: ``dice`` (indices into the player's dice) or
    ``values`` (their faces; ``white`` lists which of those faces are white dice)."""
    if "dice" in action:
        idx = action["dice"]
        if (not isinstance(idx, list) or not idx
                or not all(is_int(i, 0, len(dice) - 1) for i in idx) or len(set(idx)) != len(idx)):
            return reject("bad_dice", N_("Name your dice by their numbers, each once."))
        if any(dice[i]["used"] for i in idx):
            return reject("die_used", N_("That die is already on an advisor."))
        return list(idx)
    values, whites = action.get("values"), action.get("white", [])
    if (not isinstance(values, list) or not values or not isinstance(whites, list)
            or not all(is_int(v, 1, 6) for v in [*values, *whites])):
        return reject("bad_dice", N_("Name the dice you place: their numbers or their values."))
    wanted_white = list(whites)
    picked: list[int] = []
    for v in values:
        white = v in wanted_white
        if white:
            wanted_white.remove(v)
        match = next((i for i, d in enumerate(dice) if not d["used"] and i not in picked
                      and d["v"] == v and d["white"] == white), None)
        if match is None:
            return reject("no_such_die", N_("You have no unplaced die showing {value}."),
                          value=v)
        picked.append(match)
    if wanted_white:
        return reject("bad_dice", N_("The white dice must be among the values placed."))
    return picked


def check_placement(state: State, seat: int, action: dict[str, Any]
                    ) -> dict[str, Any] | Rejection:
    """The placement an ``influence`` action asks for, or why it is illegal. Without
    ``plus2``/``market`` the cheapest way to reach the advisor is taken (no token, then the
    Market, then the token)."""
    advisor = action.get("advisor")
    if not is_int(advisor, 1, 18):
        return reject("bad_advisor", N_("Advisors are numbered 1 to 18."))
    dice = state["season"]["dice"][seat]
    idx = pick_dice(dice, action)
    if isinstance(idx, Rejection):
        return idx
    if all(dice[i]["white"] for i in idx):
        return reject("white_alone", N_("White dice can never be placed alone."))
    for name in ("plus2", "envoy"):
        if name in action and not isinstance(action[name], bool):
            return reject("bad_flag", N_("“{name}” is true or false."), name=name)
    market_given = action.get("market", 0)
    if isinstance(market_given, bool) or market_given not in (-1, 0, 1):
        return reject("bad_market", N_("The Market moves a total by -1, 0 or +1."))
    total = sum(dice[i]["v"] for i in idx)
    ways = [(p2, mk) for p2 in (False, True) for mk in (0, 1, -1)]
    if "plus2" in action:
        ways = [w for w in ways if w[0] == action["plus2"]]
    if "market" in action:
        ways = [w for w in ways if w[1] == action["market"]]
    ways = [w for w in ways if total + 2 * w[0] + w[1] == advisor]
    if not ways:
        return reject("wrong_total", N_("Those dice make {total}, not {advisor}."),
                      total=total, advisor=advisor)
    ways.sort(key=lambda w: (w[0], w[1] != 0))
    p = state["p"][seat]
    owned = [w for w in ways if (not w[0] or p["plus2"] > 0) and (not w[1] or has(p, "market"))]
    if not owned:
        if action.get("plus2") is True:
            return reject("no_plus2", N_("You have no +2 token."))
        if action.get("market", 0):
            return reject("no_market", N_("Only the Market lets a total move by one."))
        return reject("wrong_total", N_("Those dice make {total}, not {advisor}."),
                      total=total, advisor=advisor)
    usable = [w for w in owned if (not w[0] or plus2_usable(state, seat))
              and (not w[1] or market_usable(state, seat))]
    if not usable:
        if owned[0][0] and not plus2_usable(state, seat):
            return reject("plus2_used", N_("You have already used a +2 token this season."))
        return reject("market_used", N_("The Market is used once a season."))
    plus2, market = usable[0]
    how = _open(state, seat, advisor, taken(state))
    if how is None:
        return reject("advisor_taken",
                      N_("Advisor {advisor} has already been influenced this season."),
                      advisor=advisor)
    if action.get("envoy") is True and how != "envoy":
        return reject("envoy_not_needed", N_("Advisor {advisor} is free: no Envoy needed."),
                      advisor=advisor)
    return {"advisor": advisor, "dice": idx, "values": [dice[i]["v"] for i in idx],
            "white": [dice[i]["v"] for i in idx if dice[i]["white"]],
            "plus2": plus2, "market": market, "envoy": how == "envoy"}
