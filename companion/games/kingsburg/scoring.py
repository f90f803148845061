"""The end (K60-K63): the Cathedral's goods bonus, the ranking with its tie-breakers, the
per-player breakdown of the points, and the score sheet for the CSV/JSON export."""

from __future__ import annotations

from typing import Any

from companion.games.base import N_
from companion.games.kingsburg.core import SOURCES, Move, building_count, goods_total
from companion.games.kingsburg.data import GOODS, PHASES


def finish_game(m: Move) -> None:
    """After the fifth winter: +1 VP per 2 goods with a Cathedral (K61), then the end."""
    for seat in range(m.n):
        p = m.p(seat)
        if "cathedral" in p["buildings"]:
            bonus = goods_total(p) // 2
            m.score(seat, bonus, "cathedral")
            if m.opt("cathedral_spends"):
                spend = 2 * bonus  # (taken from the largest piles first)
                while spend:
                    g = max(GOODS, key=lambda k: p[k])
                    p[g] -= 1
                    spend -= 1
    m.st["ended"] = True
    m.event("game_over", ranking=ranking(m.st))


def rank_key(p: dict[str, Any]) -> tuple[int, int, int]:
    """K62, K63: most VP, then most goods left, then most buildings."""
    return (p["vp"], goods_total(p), building_count(p))


def ranking(state: dict[str, Any]) -> list[int]:
    return sorted(range(len(state["players"])), key=lambda s: rank_key(state["p"][s]),
                  reverse=True)


def winners(state: dict[str, Any]) -> list[int]:
    """Still tied after both tie-breakers: a shared win."""
    best = max(rank_key(p) for p in state["p"])
    return [s for s, p in enumerate(state["p"]) if rank_key(p) == best]


def breakdown(state: dict[str, Any]) -> list[dict[str, int]]:
    """Where each player's points came from (the sources that gave any)."""
    return [{k: v for k, v in p["points"].items() if v} for p in state["p"]]


def score_series(state: dict[str, Any]) -> list[list[int]]:
    """Per player, the score after each phase so far, from 0 (or from a position typed in
    at the start): the chart's lines."""
    n = len(state["players"])
    history = state["history"]
    start = [] if history and history[0].get("position") else [0]
    return [start + [h["scores"][s] for h in history] for s in range(n)]


def export(state: dict[str, Any]) -> dict[str, Any]:
    """A row per phase played (year, phase, each score), and the breakdown for the JSON."""
    players = state["players"]
    columns = ["year", "phase", *players]
    header: list[Any] = [[N_("year"), {}], [N_("phase"), {}], *players]
    rows = [[h["year"], PHASES[h["phase"]][0], *h["scores"]] for h in state["history"]]
    return {"columns": columns, "header": header, "rows": rows,
            "breakdown": [{"player": name, **{s: p["points"].get(s, 0) for s in SOURCES},
                           "total": p["vp"]} for name, p in zip(players, state["p"],
                                                                 strict=True)]}
