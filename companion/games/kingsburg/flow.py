"""The calendar (section 3): five years of eight phases. ``advance`` carries the game on by
itself through everything that needs nobody (the King's aid, reward and envoy, a season's
start, the payouts, the end of a year) and stops where it waits for the players: a roll,
a placement, a choice, a building, a recruit, the winter's die and enemy."""

from __future__ import annotations

from typing import Any

from companion.games.kingsburg import battle, season, speech
from companion.games.kingsburg.core import Move, building_count, goods_total
from companion.games.kingsburg.data import GOODS, PHASES, PRODUCTIVE, YEARS
from companion.games.kingsburg.scoring import finish_game


def advance(m: Move) -> None:
    """Run every step that needs nobody, until the game waits for someone (or is over)."""
    for _ in range(200):  # (a guard: each step moves on or waits)
        if m.st["ended"] or m.st["pending"]:
            return
        if not step_once(m):
            return


def move_on(m: Move, kind: str) -> None:
    """Moving on implies the optional steps nobody took: a placement (or a pass) once every
    die is rolled means no more rerolls; the winter's die or enemy means no more recruits;
    the next season's roll means no more buildings. (A table, or a script replayed through
    the API, that goes on without saying "keep" or "done" is not stuck.)"""
    st = m.st
    if st["pending"] or st["ended"]:
        return
    s = st["season"]
    if kind in ("influence", "pass") and st["step"] == "roll":
        if all(d is not None for d in s["dice"]) and not (
                season.needs_neutral(st) and s["neutral"] is None):
            s["settled"] = [True] * m.n
            advance(m)
    elif kind in ("reinforce", "reveal_enemy") and st["step"] == "recruit":
        st["recruited"] = [True] * m.n
        advance(m)
    elif kind == "roll" and st["step"] == "build":
        s["done"] = [True] * m.n
        advance(m)


def step_once(m: Move) -> bool:
    st = m.st
    phase, step = st["phase"], st["step"]
    if step == "start":
        m.event("phase", year=st["year"], phase=phase, name=PHASES[phase][0])
        m.events.append(speech.phase_line(st["year"], PHASES[phase][0]))
        if phase == 1:
            aid(m)
            st["step"] = "finish"
        elif phase in PRODUCTIVE:
            season.start(m)
        elif phase == 3:
            kings_reward(m)
            st["step"] = "finish"
        elif phase == 5:
            kings_envoy(m)
            st["step"] = "finish"
        elif phase == 7:
            st["recruited"] = [False] * m.n
            st["step"] = "recruit"
            for seat in range(m.n):
                if goods_total(m.p(seat)) < recruit_price(m.st, seat):
                    st["recruited"][seat] = True  # (nothing to pay with: nothing to ask)
        else:
            battle.start(m)
        return True
    if step == "finish":
        next_phase(m)
        return True
    if phase in PRODUCTIVE:
        return season.step(m)
    if phase == 7:
        if all(st["recruited"]):
            st["step"] = "finish"
            st["recruited"] = None
            return True
        return False
    if phase == 8:
        return battle.step(m)
    return False


def snapshot(m: Move) -> None:
    """The scores after a phase: the chart's points and the export's rows."""
    m.st["history"].append({"year": m.st["year"], "phase": m.st["phase"],
                            "scores": [p["vp"] for p in m.st["p"]]})


def next_phase(m: Move) -> None:
    st = m.st
    snapshot(m)
    if st["phase"] == 8:
        if st["year"] >= YEARS:
            finish_game(m)
            return
        st["year"] += 1
        st["phase"] = 1
    else:
        st["phase"] += 1
    st["step"] = "start"


def _fewest(m: Move, seats: list[int], key) -> list[int]:
    low = min(key(m.p(s)) for s in seats)
    return [s for s in seats if key(m.p(s)) == low]


def aid(m: Move) -> None:
    """K3-K5: the fewest buildings gets a white die for Spring; a tie goes to the fewest
    goods; still tied, each of those takes one good of his choice and nobody gets the die."""
    m.st["aid_die"] = None
    tied = _fewest(m, list(range(m.n)), building_count)
    if len(tied) > 1:
        tied = _fewest(m, tied, goods_total)
    if len(tied) == 1:
        m.st["aid_die"] = tied[0]
        m.event("aid_die", seat=tied[0])
        return
    for seat in tied:
        m.st["pending"].append({"seat": seat, "kind": "goods", "n": 1, "from": list(GOODS),
                                "why": "aid"})
    m.event("aid_goods", seats=tied)


def kings_reward(m: Move) -> None:
    """K6: the most buildings score 1 VP each (with at least one building, KA7)."""
    most = max(building_count(p) for p in m.st["p"])
    if most == 0 and m.opt("reward_needs_building"):
        m.event("kings_reward", seats=[])
        return
    seats = [s for s in range(m.n) if building_count(m.p(s)) == most]
    for s in seats:
        m.score(s, 1, "kings_reward")
    m.event("kings_reward", seats=seats)


def kings_envoy(m: Move) -> None:
    """K7, K9: an unused Envoy comes back; the fewest buildings receive it, a tie goes to
    the fewest goods, and still tied nobody gets it."""
    tied = _fewest(m, list(range(m.n)), building_count)
    if len(tied) > 1:
        tied = _fewest(m, tied, goods_total)
    seat = tied[0] if len(tied) == 1 else None
    m.st["envoy"] = {"seat": seat}
    m.event("envoy", seat=seat)


def recruit_price(state: dict[str, Any], seat: int) -> int:
    """The fewest goods one soldier can cost this player (K40): 2, or 1 with Barracks (of
    gold only with ``barracks_pay`` = gold)."""
    p = state["p"][seat]
    if "barracks" in p["buildings"] and (state["options"]["barracks_pay"] == "good"
                                         or p["gold"] > 0):
        return 1
    return 2
