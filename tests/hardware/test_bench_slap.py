"""The slap benchmark's bookkeeping (benchmarks/bench_slap.py, the source of the latency table
in docs/wiring.md): it crashed on a "late" verdict (KeyError) and, under load, on a round whose
presses reached the judge in two batches (IndexError). Its pure parts, without timing."""

from __future__ import annotations

from benchmarks.bench_slap import round_verdict, tally


def verdict(race: int, kind: str, first_edge: int) -> dict:
    return {"type": "verdict", "race": race, "kind": kind,
            "order": [{"seat": 0, "t_ns": first_edge}]}


def test_a_round_is_found_by_its_race_not_its_place_in_the_lists():
    # round 1 (race 3) was judged in two batches: its second verdict came during round 2
    r3a, r3b, r4 = verdict(3, "tie", 1_000), verdict(3, "right", 1_000), verdict(4, "late", 9_000)
    early = [(3_000, r3a), (7_000, r3b), (12_000, r4)]
    published = [(5_000, r3a), (8_000, r3b)]
    assert round_verdict(early, published, last_race=3) is None  # not committed yet
    published.append((15_000, r4))
    assert round_verdict(early, published, last_race=3) == (4, 12_000, 15_000, r4)
    assert round_verdict(early, published, last_race=-1)[:3] == (3, 3_000, 5_000)


def test_every_kind_of_verdict_is_counted_late_too():
    results: dict[str, list[float]] = {"all": [], "committed": []}
    tally(results, 3_000_000, 6_000_000, verdict(4, "late", 1_000_000))
    tally(results, 2_000_000, 2_500_000, verdict(5, "void", 1_000_000))
    assert results == {"all": [2.0, 1.0], "committed": [5.0, 1.5], "late": [2.0],
                       "void": [1.0]}
