"""Winter, the battle (K41-K47): the King's reinforcements (one die for everyone), the year's
enemy revealed, each player's strength against it, the rewards and the losses, then every
soldier goes home."""

from __future__ import annotations

from typing import Any

from companion.games.base import N_, Rejection, reject
from companion.games.kingsburg import choices
from companion.games.kingsburg.core import Move, die_values, is_int
from companion.games.kingsburg.data import (
    BUILDINGS,
    EFFECT_KEYS,
    ENEMY_BY_ID,
    ENEMY_KINDS,
    GOODS,
)


def start(m: Move) -> None:
    st = m.st
    st["battle"] = {"reinforcement": None, "enemy": None, "results": None}
    if m.opt("app_rolls"):
        st["battle"]["reinforcement"] = m.ctx.rng.randint(1, 6)
        m.event("reinforcement", value=st["battle"]["reinforcement"])
    if st["enemies"] is not None:
        st["battle"]["enemy"] = st["enemies"][st["year"] - 1]
        m.event("enemy", enemy=st["battle"]["enemy"])
    st["step"] = "battle"


def step(m: Move) -> bool:
    st, b = m.st, m.st["battle"]
    if st["step"] == "battle":
        if b["reinforcement"] is None or b["enemy"] is None:
            return False
        resolve(m)
        st["step"] = "after_battle"
        return True
    if st["step"] == "after_battle":
        for p in st["p"]:
            p["soldiers"] = 0  # K46
        st["step"] = "finish"
        return True
    return False


def defence(p: dict[str, Any], kind: str) -> int:
    """K43: the buildings' defence against this enemy kind."""
    out = 0
    for bid in p["buildings"]:
        b = BUILDINGS[bid]
        vs = b["versus"]
        out += vs["defence"] if vs is not None and vs["kind"] == kind else b["defence"]
    return out


def strength(state: dict[str, Any], seat: int) -> int:
    b = state["battle"]
    p = state["p"][seat]
    return p["soldiers"] + (b["reinforcement"] or 0) + defence(p, b["enemy"]["kind"])


def resolve(m: Move) -> None:
    """K44, K45: more than the enemy wins (a tie too with a Stone Wall), less loses."""
    enemy = m.st["battle"]["enemy"]
    results = []
    for seat in range(m.n):
        p = m.p(seat)
        power = strength(m.st, seat)
        if power > enemy["strength"] or (power == enemy["strength"] and "stone_wall"
                                         in p["buildings"]):
            outcome = "win"
        elif power == enemy["strength"]:
            outcome = "tie"
        else:
            outcome = "loss"
        results.append({"seat": seat, "strength": power, "outcome": outcome})
    winners = [r for r in results if r["outcome"] == "win"]
    best = max((r["strength"] for r in winners), default=None)
    for r in results:
        seat = r["seat"]
        if r["outcome"] == "win":
            reward(m, seat, enemy["win"])
            if "fortress" in m.p(seat)["buildings"]:
                m.score(seat, 1, "battle")
            if m.opt("strongest_bonus") and r["strength"] == best:
                m.score(seat, m.opt("strongest_bonus"), "battle")
        elif r["outcome"] == "loss":
            penalty(m, seat, enemy["lose"])
    m.st["battle"]["results"] = results
    m.event("battle", enemy=enemy, reinforcement=m.st["battle"]["reinforcement"],
            results=results)


def reward(m: Move, seat: int, win: dict[str, int]) -> None:
    m.gain(seat, {g: win.get(g, 0) for g in GOODS})
    m.score(seat, win.get("vp", 0), "battle")
    if win.get("goods"):
        m.st["pending"].append({"seat": seat, "kind": "goods", "n": win["goods"],
                                "from": list(GOODS), "why": "battle"})


def penalty(m: Move, seat: int, lose: dict[str, int]) -> None:
    m.score(seat, -lose.get("vp", 0), "battle")
    m.gain(seat, {g: -lose.get(g, 0) for g in GOODS})
    if lose.get("goods"):
        choices.ask_lose_goods(m, seat, lose["goods"])
    for _ in range(lose.get("buildings", 0)):
        choices.ask_lose_building(m, seat)


def _effect(raw: Any) -> dict[str, int] | None:
    if not isinstance(raw, dict) or not all(k in EFFECT_KEYS and is_int(v, 0, 20)
                                            for k, v in raw.items()):
        return None
    return {k: v for k, v in raw.items() if v}


def enemy_from(action: dict[str, Any], year: int) -> dict[str, Any] | Rejection:
    """The enemy card an action names: ``card`` (an id of the sheet's list, "2-5"), or
    ``enemy`` (the printed card typed in, where the provisional list is wrong, KA6)."""
    if "card" in action:
        card = ENEMY_BY_ID.get(action["card"]) if isinstance(action["card"], str) else None
        if card is None:
            return reject("bad_enemy", N_("Unknown enemy card: {card}."),
                          card=str(action["card"])[:20])
        if card["year"] != year:
            # (K42: the top card of this year's pile; a printed card unlike the list is
            # typed in as ``enemy``)
            return reject("wrong_year_enemy",
                          N_("{card} is an enemy of year {card_year}; this is year {year}."),
                          card=card["id"], card_year=card["year"], year=year)
        return dict(card)
    raw = action.get("enemy")
    if not isinstance(raw, dict):
        return reject("bad_enemy", N_("Name the enemy card, or type it in."))
    kind, power = raw.get("kind"), raw.get("strength")
    win, lose = _effect(raw.get("win", {})), _effect(raw.get("lose", {}))
    if kind not in ENEMY_KINDS or not is_int(power, 0, 30) or win is None or lose is None:
        return reject("bad_enemy", N_("An enemy has a kind, a strength from 0 to 30, and a "
                                      "reward and a penalty of gold, wood, stone, goods, "
                                      "buildings or vp."))
    return {"id": "custom", "year": year, "kind": kind, "strength": power, "win": win,
            "lose": lose}


def reveal(m: Move, action: dict[str, Any]) -> Rejection | None:
    """K42: the year's enemy, as revealed at the table (or corrected by the host)."""
    if m.st["phase"] != 8 or m.st["step"] != "battle":
        return reject("not_battle", N_("The enemy is revealed in Winter, before the battle."))
    if m.ctx.actor.seat is None and not m.ctx.actor.host:
        return reject("not_seated", N_("Join the table as a player first."))
    card = enemy_from(action, m.st["year"])
    if isinstance(card, Rejection):
        return card
    m.st["battle"]["enemy"] = card
    m.event("enemy", enemy=card)
    return None


def reinforce(m: Move, action: dict[str, Any]) -> Rejection | None:
    """K41: the King's reinforcements, one white die rolled for everyone."""
    if m.st["phase"] != 8 or m.st["step"] != "battle":
        return reject("not_battle", N_("The King's reinforcements come in Winter."))
    if m.ctx.actor.seat is None and not m.ctx.actor.host:
        return reject("not_seated", N_("Join the table as a player first."))
    given = action.get("value")
    if given is None and m.opt("app_rolls"):
        value = m.ctx.rng.randint(1, 6)
    else:
        values = die_values([given], 1)
        if isinstance(values, Rejection):
            return values
        value = values[0]
    m.st["battle"]["reinforcement"] = value
    m.event("reinforcement", value=value)
    return None
