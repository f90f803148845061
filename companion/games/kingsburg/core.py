"""The state's shape and the small helpers every module shares: a move works on its own deep
copy of the state (``apply`` never mutates its input), adds goods, soldiers and VP with the
source of every point kept for the breakdown, and checks a seat or a die value."""

from __future__ import annotations

import copy
import re
from typing import Any

from companion.games.base import N_, Context, Rejection, State, reject
from companion.games.kingsburg.data import BUILDINGS, GOODS, PHASES, ROWS

# where points come from, for the per-player breakdown (views, export)
SOURCES = ("start", "buildings", "advisors", "kings_reward", "town_hall", "embassy", "battle",
           "cathedral", "lost_buildings", "corrections", "floor")


def new_player() -> dict[str, Any]:
    return {"gold": 0, "wood": 0, "stone": 0, "soldiers": 0, "plus2": 0, "buildings": [],
            "vp": 0, "points": {s: 0 for s in SOURCES}}


class Move:
    """One action's work: ``st`` is a private copy of the state, ``events`` what it caused."""

    def __init__(self, state: State, ctx: Context) -> None:
        self.st: State = copy.deepcopy(state)
        self.ctx = ctx
        self.events: list[dict[str, Any]] = []

    # -- small accessors ---------------------------------------------------------------
    @property
    def n(self) -> int:
        return len(self.st["players"])

    def p(self, seat: int) -> dict[str, Any]:
        return self.st["p"][seat]

    def opt(self, name: str) -> Any:
        return self.st["options"][name]

    def event(self, kind: str, **data: Any) -> None:
        self.events.append({"type": kind, **data})

    # -- resources ---------------------------------------------------------------------
    def gain(self, seat: int, what: dict[str, int], why: str = "") -> None:
        """Goods, soldiers and +2 tokens (never below 0: you lose only what you have, K45),
        and VP through :meth:`score`."""
        p = self.p(seat)
        for key, amount in what.items():
            if key == "vp":
                self.score(seat, amount, why or "advisors")
            elif key in (*GOODS, "soldiers", "plus2") and amount:
                p[key] = max(0, p[key] + amount)

    def score(self, seat: int, amount: int, source: str) -> None:
        """Move a player on the score track, keeping where the points came from. With
        ``negative_scores`` off a score stops at 0; the shortfall is booked as "floor" so the
        breakdown still adds up to the score."""
        if not amount:
            return
        p = self.p(seat)
        p["points"][source] = p["points"].get(source, 0) + amount
        new = p["vp"] + amount
        if new < 0 and not self.opt("negative_scores"):
            p["points"]["floor"] = p["points"].get("floor", 0) - new
            new = 0
        p["vp"] = new


def goods_total(p: dict[str, Any]) -> int:
    return sum(p[g] for g in GOODS)


def building_count(p: dict[str, Any]) -> int:
    return len(p["buildings"])


def has(p: dict[str, Any], building: str) -> bool:
    return building in p["buildings"]


def phase_id(state: State) -> str:
    return PHASES[state["phase"]][0]


def is_int(x: Any, low: int | None = None, high: int | None = None) -> bool:
    if isinstance(x, bool) or not isinstance(x, int):
        return False
    return (low is None or x >= low) and (high is None or x <= high)


def die_values(values: Any, count: int | None = None) -> list[int] | Rejection:
    """Typed dice: a list of whole numbers 1 to 6 (``count`` of them when given)."""
    if not isinstance(values, list) or not all(is_int(v, 1, 6) for v in values):
        return reject("bad_dice", N_("Dice values are whole numbers from 1 to 6."))
    if count is not None and len(values) != count:
        return reject("bad_dice", N_("Give exactly {n} dice values."), n=count)
    return list(values)


def acting_seat(m: Move, action: dict[str, Any], default: int | None = None
                ) -> int | Rejection:
    """The seat an action is for: a phone acts for its own seat, the host names any (or
    acts for ``default``, the player the game waits for)."""
    seat = action.get("seat")
    if seat is None:
        seat = m.ctx.actor.seat if m.ctx.actor.seat is not None else default
    if seat is None:
        return reject("no_seat", N_("Say which player this is for."))
    if not is_int(seat, 0, m.n - 1):
        return reject("bad_seat", N_("There is no seat {seat}."), seat=str(seat)[:20])
    if not m.ctx.actor.can_act_for(seat):
        return reject("not_your_seat", N_("You can only act for your own seat."))
    return seat


def cost_of(state: State, p: dict[str, Any], building: str) -> dict[str, int]:
    """A building's cost for this player: the Crane takes 1 gold off columns III and IV
    (K34; never below 0 with ``crane_floor_zero``)."""
    b = BUILDINGS[building]
    cost = dict(b["cost"])
    if has(p, "crane") and b["col"] >= 3:
        cost["gold"] -= 1
        if state["options"]["crane_floor_zero"]:
            cost["gold"] = max(0, cost["gold"])
    return cost


def can_afford(p: dict[str, Any], cost: dict[str, int]) -> bool:
    return all(p[g] >= cost[g] for g in GOODS)


def reachable(p: dict[str, Any], building: str) -> bool:
    """K31/K32: not owned yet, and the building left of it in its row is (column I needs
    nothing); at most 17 tokens."""
    b = BUILDINGS[building]
    if has(p, building) or len(p["buildings"]) >= 17:
        return False
    if b["col"] == 1:
        return True
    return has(p, ROWS[b["row"] - 1][b["col"] - 2])


def buildable(state: State, seat: int) -> list[dict[str, Any]]:
    """Every building this player could build now if it were his construction step, with
    its cost for him (K31-K34), and those he cannot afford yet: the phone shows both."""
    p = state["p"][seat]
    out = []
    for bid in BUILDINGS:
        if reachable(p, bid):
            cost = cost_of(state, p, bid)
            out.append({"building": bid, "cost": cost, "affordable": can_afford(p, cost)})
    return out


def building_id(name: Any) -> Any:
    """A building named by its id or as printed ("Guard Tower", "Merchants' Guild")."""
    if not isinstance(name, str):
        return name
    return re.sub(r"[^a-z]+", "_", name.lower().replace("'", "")).strip("_")
