"""Who slapped first: the press order with its gaps, the tie window and the tie rules.

Pure functions over presses (``{"seat": int, "t_ns": int}``, the edge timestamps of the
buttons), plus :class:`Collector`, which gathers the presses of one slap by *event* time
(a press belongs to a slap when its edge lies within the collection window after the first
edge, whenever its callback happens to run). Nothing here reads a clock or sleeps: the
caller says what time it is, so tests and replays are exact.

Every game that judges a race of buttons (Versus, the quiz lockout) calls :func:`judge`.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Mapping
from typing import Any

from companion.games.base import N_, Option

#: How presses closer than the tie window are settled.
#: ``simultaneous``: they count as one simultaneous slap and the game's rules decide (the
#: default); ``reslap``: nobody wins, slap again; ``random``: a fair draw among them;
#: ``strict``: the strict timestamp order (a window of 0; an exact tie is drawn).
TIE_RULES = ("simultaneous", "reslap", "random", "strict")

# Shared by every game played with the buttons (Versus, the quiz).
TIE_WINDOW_OPTION = Option(
    "tie_window_ms", 1.0, N_("Presses closer than this many milliseconds are a tie."),
    kind=(int, float), minimum=0, maximum=100)
DEFAULT_TIE_WINDOW_NS = 1_000_000
MAX_T_NS = 2**63 - 1


def valid_press(press: Any) -> bool:
    """A press as the rules accept it: a seat and a timestamp, both non-negative ints."""
    if not isinstance(press, Mapping):
        return False
    seat, t_ns = press.get("seat"), press.get("t_ns")
    return (
        isinstance(seat, int)
        and not isinstance(seat, bool)
        and isinstance(t_ns, int)
        and not isinstance(t_ns, bool)
        and seat >= 0
        and 0 <= t_ns <= MAX_T_NS
    )


def press_order(presses: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The presses by edge time, each seat once (its earliest press), with the gaps.

    Each entry: ``seat``, ``t_ns``, ``gap_ns`` (after the press before it; 0 for the first)
    and ``behind_ns`` (after the first press). Equal timestamps keep the lower seat first
    only for a stable display; :func:`judge` treats them as a tie whatever the window.
    """
    first_by_seat: dict[int, int] = {}
    for p in presses:
        if valid_press(p):
            seat, t = p["seat"], p["t_ns"]
            if seat not in first_by_seat or t < first_by_seat[seat]:
                first_by_seat[seat] = t
    ordered = sorted(first_by_seat.items(), key=lambda st: (st[1], st[0]))
    out: list[dict[str, Any]] = []
    for seat, t in ordered:
        prev = out[-1]["t_ns"] if out else t
        first = out[0]["t_ns"] if out else t
        out.append({"seat": seat, "t_ns": t, "gap_ns": t - prev, "behind_ns": t - first})
    return out


def leaders(order: list[dict[str, Any]], tie_window_ns: int) -> list[int]:
    """The seats that cannot fairly be told from the first: closer than the window to it
    (with a window of 0, only an identical timestamp)."""
    return [e["seat"] for e in order if e["behind_ns"] == 0 or e["behind_ns"] < tie_window_ns]


def judge(
    presses: Iterable[Mapping[str, Any]],
    tie_window_ns: int = DEFAULT_TIE_WINDOW_NS,
    tie_rule: str = "simultaneous",
    rng: random.Random | None = None,
) -> dict[str, Any]:
    """The verdict of one race: ``order`` (see :func:`press_order`), ``winner`` (a seat, or
    None when the race is tied and the rule leaves it to the game or a re-slap), ``tied``
    (the seats inside the tie window, when more than one), and ``resolution``: "none" (no
    presses), "first" (one clear first), or the tie rule that settled a tie.

    A random draw needs ``rng`` (a game passes ``ctx.rng``); without one the draw falls
    to the earliest timestamp.
    """
    order = press_order(presses)
    if not order:
        return {"order": [], "winner": None, "tied": [], "resolution": "none"}
    rule = tie_rule if tie_rule in TIE_RULES else "simultaneous"
    window = 0 if rule == "strict" else max(0, int(tie_window_ns))
    lead = leaders(order, window)
    if len(lead) == 1:
        return {"order": order, "winner": lead[0], "tied": [], "resolution": "first"}
    if rule in ("simultaneous", "reslap"):
        return {"order": order, "winner": None, "tied": lead, "resolution": rule}
    winner = rng.choice(lead) if rng is not None else lead[0]
    return {"order": order, "winner": winner, "tied": lead, "resolution": "random"}


def format_gap(ns: int) -> str:
    """A gap as people read it: "100 µs", "23 ms", "1.20 s"."""
    ns = abs(int(ns))
    if ns < 1_000:
        return f"{ns} ns"
    if ns < 1_000_000:
        return f"{ns / 1_000:.0f} µs"
    if ns < 10_000_000:
        return f"{ns / 1_000_000:.1f} ms"
    if ns < 1_000_000_000:
        return f"{ns / 1_000_000:.0f} ms"
    return f"{ns / 1_000_000_000:.2f} s"


def describe(order: list[dict[str, Any]], names: list[str] | None = None) -> str:
    """The press order in English for logs: "seat 2 by 23 ms over seat 5, seat 5 by 100 µs
    over seat 1". Seats are the data's indexes unless ``names`` are given. (Phones render
    the order themselves, in their language, from the same data.)"""

    def name(seat: int) -> str:
        if names is not None and 0 <= seat < len(names):
            return names[seat]
        return f"seat {seat}"

    if not order:
        return "no presses"
    if len(order) == 1:
        return f"{name(order[0]['seat'])} alone"
    return ", ".join(
        f"{name(a['seat'])} by {format_gap(b['gap_ns'])} over {name(b['seat'])}"
        for a, b in itertools.pairwise(order)
    )


class Collector:
    """Gathers presses into races by their edge timestamps.

    A race opens at the earliest edge it holds and takes every press whose edge is at most
    ``window_ns`` later; it is ready once the clock passes ``window_ns + grace_ns`` after
    that first edge (``grace_ns`` allows for callbacks that run late). A press whose edge
    falls outside an open race starts the next one. Not thread-safe: the caller locks.
    """

    def __init__(self, window_ns: int = 2 * DEFAULT_TIE_WINDOW_NS, grace_ns: int = 500_000):
        if window_ns < 0 or grace_ns < 0:
            raise ValueError("window and grace must not be negative")
        self.window_ns = int(window_ns)
        self.grace_ns = int(grace_ns)
        self._open: list[dict[str, Any]] = []
        self._ready: list[list[dict[str, Any]]] = []

    def add(self, press: Mapping[str, Any]) -> None:
        if not valid_press(press):
            return
        p = dict(press)
        if self._open:
            first = min(q["t_ns"] for q in self._open)
            if p["t_ns"] > first + self.window_ns:
                self._ready.append(self._open)
                self._open = []
        self._open.append(p)

    def deadline_ns(self) -> int | None:
        """When the open race is ready (None: nothing is waiting); ready races: now."""
        if self._ready:
            return 0
        if not self._open:
            return None
        return self._open_deadline()

    def _open_deadline(self) -> int:
        return min(q["t_ns"] for q in self._open) + self.window_ns + self.grace_ns

    def due(self, now_ns: int) -> list[list[dict[str, Any]]]:
        """The races ready at ``now_ns``, oldest first, each sorted by edge time."""
        if self._open and now_ns >= self._open_deadline():
            self._ready.append(self._open)
            self._open = []
        out, self._ready = self._ready, []
        return [sorted(batch, key=lambda q: (q["t_ns"], q["seat"])) for batch in out]

    def pending(self) -> int:
        return len(self._open) + sum(len(b) for b in self._ready)


def race_action(action_type: str, presses: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """One judged race of button presses as a game's action (``slap``, ``buzz``): the seats
    and edge times only, so the log holds exactly what the rules judged."""
    return {"type": action_type,
            "presses": [{"seat": p["seat"], "t_ns": p["t_ns"]} for p in presses]}
