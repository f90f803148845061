"""What the table and each phone see. Public: the whole board (goods, soldiers, buildings,
points and dice are all in sight at a real table). Private: the enemy card a player peeked
at with the General or the Queen (only with the companion's own enemy deck)."""

from __future__ import annotations

from typing import Any

from companion.games.kingsburg import flow, season
from companion.games.kingsburg.core import buildable
from companion.games.kingsburg.data import ENEMIES, PHASES, PRODUCTIVE
from companion.games.kingsburg.placements import legal_placements
from companion.games.kingsburg.scoring import breakdown, ranking, score_series, winners


def public_view(state: dict[str, Any]) -> dict[str, Any]:
    s = state["season"] if state["phase"] in PRODUCTIVE else None
    battle = state["battle"] if state["phase"] == 8 else None
    return {
        "players": state["players"],
        "options": state["options"],
        "year": state["year"],
        "phase": state["phase"],
        "phase_name": PHASES[state["phase"]][0],
        "step": state["step"],
        "order": state["order"],
        "p": [{k: p[k] for k in ("gold", "wood", "stone", "soldiers", "plus2", "buildings",
                                 "vp")} for p in state["p"]],
        "breakdown": breakdown(state),
        "buildable": [buildable(state, seat) for seat in range(len(state["players"]))],
        "envoy": state["envoy"]["seat"],
        "aid_die": state.get("aid_die"),
        "season": None if s is None else {
            k: s[k] for k in ("dice", "whites", "rerolls", "settled", "neutral", "blocked",
                              "advisors", "placed", "passed", "turn", "plus2_used",
                              "market_used", "built", "done", "totals")},
        "pending": [{k: v for k, v in c.items()} for c in state["pending"]],
        "recruited": state.get("recruited"),
        "battle": battle,
        # (the player to move's legal placements: the dice are in everyone's sight, and a
        # host's phone without a seat plays for him)
        "placements": (legal_placements(state, s["turn"])
                       if s is not None and state["step"] == "influence"
                       and s["turn"] is not None else None),
        # (the cards this winter's enemy may be, for the phone that enters it)
        "year_enemies": ([e for e in ENEMIES if e["year"] == state["year"]]
                         if battle is not None and battle["enemy"] is None else None),
        "history": state["history"],
        "series": score_series(state),
        "ended": state["ended"],
        "ranking": ranking(state) if state["ended"] else None,
        "winners": winners(state) if state["ended"] else None,
    }


def player_view(state: dict[str, Any], seat: int) -> dict[str, Any]:
    view = public_view(state)
    me: dict[str, Any] = {"seat": seat, "can": can(state, seat)}
    if "influence" in me["can"]:
        me["placements"] = legal_placements(state, seat)
    me["choice"] = next((c for c in state["pending"] if c["seat"] == seat), None)
    me["proposal"] = state["proposals"].get(str(seat))
    if state["phase"] == 7 and state.get("recruited") and not state["recruited"][seat]:
        me["recruit_price"] = flow.recruit_price(state, seat)
    peek = state["peeks"].get(str(seat))
    if peek == state["year"] and state["enemies"] is not None:
        me["peek"] = state["enemies"][state["year"] - 1]
    view["me"] = me
    return view


def moderator_view(state: dict[str, Any]) -> dict[str, Any]:
    view = public_view(state)
    view["enemies"] = state["enemies"]
    return view


def can(state: dict[str, Any], seat: int) -> list[str]:
    """What this seat's phone should offer now (a hint; ``apply`` still judges)."""
    if state["ended"]:
        return []
    out: list[str] = []
    if any(c["seat"] == seat for c in state["pending"]):
        return ["choose"]
    if state["pending"]:
        return []
    step, s = state["step"], state["season"]
    if step == "roll":
        out.append("roll")
        if s["dice"][seat] is not None and not s["settled"][seat]:
            out += [*season_rerolls(state, seat), "keep"]
        if season.needs_neutral(state) and s["neutral"] is None:
            out.append("roll_neutral")
        if str(seat) in state["proposals"]:
            out.append("confirm_roll")
    elif step == "influence" and s["turn"] == seat:
        out += ["influence", "pass"]
    elif step == "build" and not s["done"][seat]:
        out += ["build", "done"]
    elif step == "recruit" and not state["recruited"][seat]:
        out.append("recruit")
    elif step == "battle":
        b = state["battle"]
        if b["reinforcement"] is None:
            out.append("reinforce")
        if b["enemy"] is None:
            out.append("reveal_enemy")
    return out


def season_rerolls(state: dict[str, Any], seat: int) -> list[str]:
    return ["reroll"] if season.reroll_open(state, seat) else []
