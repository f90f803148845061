"""Recruit soldiers (phase 7, K40): any number at 2 goods each, any mix of kinds; 1 good each
with Barracks (or 1 gold each, with the ``barracks_pay`` option). Each player recruits once,
naming what he pays."""

from __future__ import annotations

from typing import Any

from companion.games.base import N_, Rejection, reject
from companion.games.kingsburg.core import Move, acting_seat, has, is_int
from companion.games.kingsburg.data import GOODS


def recruit(m: Move, action: dict[str, Any]) -> Rejection | None:
    if m.st["phase"] != 7 or m.st["step"] != "recruit":
        return reject("not_recruiting", N_("Soldiers are recruited in phase 7."))
    seat = acting_seat(m, action)
    if isinstance(seat, Rejection):
        return seat
    if m.st["recruited"][seat]:
        return reject("recruited", N_("You have already recruited this year."))
    soldiers = action.get("soldiers", 0)
    if not is_int(soldiers, 0, 50):
        return reject("bad_soldiers", N_("Recruit a whole number of soldiers."))
    pay = action.get("pay", {})
    if not isinstance(pay, dict) or not all(k in GOODS and is_int(v, 0, 99)
                                            for k, v in pay.items()):
        return reject("bad_pay", N_("Pay with goods: gold, wood and stone counts."))
    p = m.p(seat)
    if any(p[g] < pay.get(g, 0) for g in GOODS):
        return reject("cannot_pay", N_("You do not have those goods."))
    paid = sum(pay.values())
    if not fair_price(m, seat, soldiers, pay):
        return reject("wrong_price", N_("{soldiers} soldiers cost {price} goods, not {paid}."),
                      soldiers=soldiers, price=soldiers * (1 if has(p, "barracks") else 2),
                      paid=paid)
    m.gain(seat, {g: -pay.get(g, 0) for g in GOODS})
    m.gain(seat, {"soldiers": soldiers})
    m.st["recruited"][seat] = True
    m.event("recruited", seat=seat, soldiers=soldiers, pay=pay)
    return None


def fair_price(m: Move, seat: int, soldiers: int, pay: dict[str, int]) -> bool:
    paid = sum(pay.values())
    if not has(m.p(seat), "barracks"):
        return paid == 2 * soldiers
    if m.opt("barracks_pay") == "good":
        return paid == soldiers
    # one gold each with Barracks, or two goods each as without: a soldiers at 1 gold
    cheap = 2 * soldiers - paid
    return 0 <= cheap <= soldiers and pay.get("gold", 0) >= cheap
