"""companion.slap: press order, gaps, the tie window and rules, the collector."""

from __future__ import annotations

import random

import pytest

from companion.slap import Collector, describe, format_gap, judge, press_order

US = 1_000
MS = 1_000_000


def p(seat, t):
    return {"seat": seat, "t_ns": t}


def test_order_and_gaps_keep_each_seats_first_press():
    order = press_order([p(5, 23 * MS), p(2, 0), p(5, 40 * MS), p(1, 23 * MS + 100 * US),
                         {"seat": True, "t_ns": 1}, {"seat": 3}, "junk"])
    assert [(e["seat"], e["gap_ns"], e["behind_ns"]) for e in order] == [
        (2, 0, 0), (5, 23 * MS, 23 * MS), (1, 100 * US, 23 * MS + 100 * US)]
    assert describe(order) == "seat 2 by 23 ms over seat 5, seat 5 by 100 µs over seat 1"
    assert describe(order[:1], ["Ana", "Bo", "Cy"]) == "Cy alone"
    assert describe([]) == "no presses"


@pytest.mark.parametrize("ns,text", [(999, "999 ns"), (100 * US, "100 µs"),
                                     (2_500_000, "2.5 ms"), (23 * MS, "23 ms"),
                                     (1_200 * MS, "1.20 s")])
def test_gap_text(ns, text):
    assert format_gap(ns) == text


def test_100_microseconds_apart_is_a_clear_first_with_a_smaller_window():
    v = judge([p(5, 100 * US), p(2, 0)], tie_window_ns=50 * US)
    assert v["winner"] == 2 and v["resolution"] == "first" and v["tied"] == []


def test_inside_the_window_the_rule_decides():
    presses = [p(5, 999 * US), p(2, 0), p(1, 1 * MS)]  # 1 ms exactly is not "closer than"
    assert judge(presses)["tied"] == [2, 5] and judge(presses)["winner"] is None
    assert judge(presses, tie_rule="reslap")["resolution"] == "reslap"
    v = judge(presses, tie_rule="random", rng=random.Random(3))
    assert v["winner"] in (2, 5) and v["resolution"] == "random"
    assert judge(presses, tie_rule="strict")["winner"] == 2
    exact = judge([p(4, 10), p(6, 10)], tie_rule="strict", rng=random.Random(1))
    assert exact["tied"] == [4, 6] and exact["winner"] in (4, 6)
    assert judge([])["resolution"] == "none"


def test_the_collector_gathers_by_edge_time_not_arrival():
    c = Collector(window_ns=1 * MS, grace_ns=1 * MS)
    c.add(p(5, 10 * MS + 100 * US))  # its callback ran first...
    c.add(p(2, 10 * MS))  # ...but seat 2's edge was earlier
    assert c.deadline_ns() == 12 * MS
    assert c.due(12 * MS - 1) == []
    c.add(p(7, 11 * MS + 500 * US))  # outside the window: the next race
    assert c.due(12 * MS) == [[p(2, 10 * MS), p(5, 10 * MS + 100 * US)]]
    assert c.pending() == 1
    assert c.due(13 * MS + 500 * US) == [[p(7, 11 * MS + 500 * US)]]
    assert c.deadline_ns() is None
    with pytest.raises(ValueError):
        Collector(-1)
