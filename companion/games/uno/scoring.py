"""Match scoring (section 5): round points from the hands left, running totals, the end of the
match, the winners, and the rows of the CSV/JSON export."""

from __future__ import annotations

from typing import Any

from companion.games.base import N_
from companion.games.uno.deck import points

Hand = list[str] | int  # the cards left (labels), or their points counted by the players


def hand_points(hand: Hand, options: dict[str, Any]) -> int:
    if isinstance(hand, int):
        return hand
    return sum(points(c, options) for c in hand)


def round_points(record: dict[str, Any], options: dict[str, Any]) -> list[int]:
    """Standard: the round winner scores every other hand, the others 0. Own-hand: each player
    scores his own hand (the winner's is empty)."""
    own = [hand_points(h, options) for h in record["hands"]]
    if options.get("scoring") == "own_hand":
        return own
    winner = record["winner"]
    return [sum(own) - own[winner] if i == winner else 0 for i in range(len(own))]


def carried(state: dict[str, Any]) -> list[int]:
    """The totals the match started at (a match resumed from paper: the host's
    ``set_totals``), zeros for a new match."""
    return list(state.get("carried") or [0] * len(state["players"]))


def running_totals(state: dict[str, Any]) -> list[list[int]]:
    """Totals after each round, from the totals carried over: the data behind the chart."""
    out: list[list[int]] = []
    current = carried(state)
    for record in state["rounds"]:
        pts = round_points(record, state["options"])
        current = [a + b for a, b in zip(current, pts, strict=True)]
        out.append(current)
    return out


def totals(state: dict[str, Any]) -> list[int]:
    history = running_totals(state)
    return history[-1] if history else carried(state)


def target_reached(state: dict[str, Any]) -> bool:
    """Reaching the target exactly counts (section 5)."""
    return bool(state["rounds"]) and max(totals(state)) >= state["options"]["target"]


def winners(state: dict[str, Any]) -> list[int]:
    """Standard: the highest total; own-hand: the lowest (a tie is a shared win)."""
    final = totals(state)
    best = min(final) if state["options"].get("scoring") == "own_hand" else max(final)
    return [i for i, t in enumerate(final) if t == best]


def export(state: dict[str, Any]) -> dict[str, Any]:
    """Table data for the CSV/JSON export: one row per round with each player's points and
    running total (a first row, round 0, holds the totals carried over, if any). The web layer
    writes it out; rounds keep the hands for the JSON.
    ``columns`` are the headings in English (the JSON's); ``header`` the same for the CSV in
    the reader's language (``[template, params]``: an ``N_`` template the web layer
    translates, then fills)."""
    players = state["players"]
    columns = ["round", "dealer", "winner"]
    columns += [f"{p} points" for p in players] + [f"{p} total" for p in players]
    header: list[Any] = [[N_("round"), {}], [N_("dealer"), {}], [N_("winner"), {}]]
    header += [[N_("{name} points"), {"name": p}] for p in players]
    header += [[N_("{name} total"), {"name": p}] for p in players]
    rows = []
    start = carried(state)
    if any(start):  # round 0: the totals carried over
        rows.append([0, "", "", *start, *start])
    for i, (record, running) in enumerate(zip(state["rounds"], running_totals(state),
                                              strict=True)):
        pts = round_points(record, state["options"])
        rows.append([i + 1, players[record["dealer"]], players[record["winner"]], *pts,
                     *running])
    return {"columns": columns, "header": header, "rows": rows, "rounds": state["rounds"],
            "carried": start}
