"""The choices a reward or a penalty leaves open, asked on that player's phone and answered
with one ``choose`` action: which goods (the aid K5, the Merchant, the Duchess...), which good
the Alchemist turns (K22), what the Town Hall takes, which goods and which building a lost
battle costs (K45)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from companion.games.base import N_, Rejection, reject
from companion.games.kingsburg.core import Move, acting_seat, building_id, goods_total
from companion.games.kingsburg.data import BUILDINGS, GOODS, ROWS


def alchemy(m: Move, seat: int, give: str) -> None:
    """K6's advisor: one good back, one of each of the other two kinds."""
    m.gain(seat, {g: (-1 if g == give else 1) for g in GOODS})
    m.event("alchemist", seat=seat, gave=give)


def row_ends(p: dict[str, Any]) -> list[str]:
    """K45: the right-most building of each of the player's rows."""
    out = []
    for row in ROWS:
        owned = [b for b in row if b in p["buildings"]]
        if owned:
            out.append(owned[-1])
    return out


def rightmost(p: dict[str, Any]) -> str | None:
    """EXT-KB's pick: the highest column, the topmost row on ties."""
    ends = row_ends(p)
    if not ends:
        return None
    return max(ends, key=lambda b: (BUILDINGS[b]["col"], -BUILDINGS[b]["row"]))


def lose_building(m: Move, seat: int, building: str) -> None:
    p = m.p(seat)
    p["buildings"].remove(building)
    if m.opt("lost_building_vp"):
        m.score(seat, -BUILDINGS[building]["vp"], "lost_buildings")
    m.event("building_lost", seat=seat, building=building)


def ask_lose_building(m: Move, seat: int) -> None:
    p = m.p(seat)
    ends = row_ends(p)
    if not ends:
        return
    if m.opt("lost_building") == "rightmost" or len(ends) == 1:
        lose_building(m, seat, rightmost(p) or ends[0])
        return
    m.st["pending"].append({"seat": seat, "kind": "lose_building", "from": ends})


def ask_lose_goods(m: Move, seat: int, n: int) -> None:
    """Goods of the loser's choice (K45: only what he has)."""
    p = m.p(seat)
    held = [g for g in GOODS if p[g] > 0]
    if goods_total(p) <= n or len(held) == 1:
        lost = {g: min(p[g], n) if len(held) == 1 else p[g] for g in GOODS}
        m.gain(seat, {g: -v for g, v in lost.items()})
        m.event("goods_lost", seat=seat, goods=lost)
        return
    m.st["pending"].append({"seat": seat, "kind": "lose_goods", "n": n})


def choose(m: Move, action: dict[str, Any]) -> Rejection | None:
    mine = [c for c in m.st["pending"]
            if action.get("seat", m.ctx.actor.seat) in (None, c["seat"])]
    default = mine[0]["seat"] if mine else None
    seat = acting_seat(m, action, default=default)
    if isinstance(seat, Rejection):
        return seat
    todo = next((c for c in m.st["pending"] if c["seat"] == seat), None)
    if todo is None:
        return reject("nothing_to_choose", N_("There is nothing for you to choose now."))
    refused = ANSWER[todo["kind"]](m, seat, todo, action)
    if refused is not None:
        return refused
    m.st["pending"].remove(todo)
    return None


def _goods_list(action: dict[str, Any], n: int) -> list[str] | Rejection:
    goods = action.get("goods")
    if isinstance(goods, str):
        goods = [goods]
    if not isinstance(goods, list) or len(goods) != n or not all(g in GOODS for g in goods):
        return reject("bad_goods", N_("Choose {n} goods: gold, wood or stone."), n=n)
    return goods


def _gain_goods(m: Move, seat: int, todo: dict[str, Any], action: dict[str, Any]):
    goods = _goods_list(action, todo["n"])
    if isinstance(goods, Rejection):
        return goods
    if any(g not in todo["from"] for g in goods):
        return reject("bad_goods", N_("Choose among: {goods}."), goods=", ".join(todo["from"]))
    m.gain(seat, dict(Counter(goods)))
    m.event("goods_chosen", seat=seat, goods=goods, why=todo.get("why"))
    return None


def _alchemist(m: Move, seat: int, todo: dict[str, Any], action: dict[str, Any]):
    give = action.get("give")
    if give not in GOODS or m.p(seat)[give] <= 0:
        return reject("bad_goods", N_("Give back one good you hold."))
    alchemy(m, seat, give)
    return None


def _lose_goods(m: Move, seat: int, todo: dict[str, Any], action: dict[str, Any]):
    goods = _goods_list(action, todo["n"])
    if isinstance(goods, Rejection):
        return goods
    lost = Counter(goods)
    p = m.p(seat)
    if any(p[g] < k for g, k in lost.items()):
        return reject("bad_goods", N_("You can give up only goods you hold."))
    m.gain(seat, {g: -k for g, k in lost.items()})
    m.event("goods_lost", seat=seat, goods=dict(lost))
    return None


def _lose_building(m: Move, seat: int, todo: dict[str, Any], action: dict[str, Any]):
    building = building_id(action.get("building"))
    if building not in todo["from"]:
        return reject("bad_building", N_("Give up the right-most building of one of your "
                                         "rows."))
    lose_building(m, seat, building)
    return None


def _town_hall(m: Move, seat: int, todo: dict[str, Any], action: dict[str, Any]):
    """Town Hall: pay one +2 token or one good for 1 VP, or nothing (``pay``: null)."""
    if "pay" not in action:
        return reject("bad_pay", N_("Pay with a +2 token, gold, wood or stone, or nothing."))
    pay = action["pay"]
    p = m.p(seat)
    if pay is None:
        return None
    if pay not in ("plus2", *GOODS):
        return reject("bad_pay", N_("Pay with a +2 token, gold, wood or stone, or nothing."))
    if p[pay] <= 0:
        return reject("cannot_pay", N_("You have none of that to pay with."))
    m.gain(seat, {pay: -1})
    m.score(seat, 1, "town_hall")
    m.event("town_hall", seat=seat, paid=pay)
    return None


ANSWER = {"goods": _gain_goods, "alchemist": _alchemist, "lose_goods": _lose_goods,
          "lose_building": _lose_building, "town_hall": _town_hall}
