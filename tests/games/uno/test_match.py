"""The match: rounds, totals to the target, both scorings, dealer rotation, counting the hands
left, editing a past round, the export data."""

from __future__ import annotations

from companion.games.uno import GAME


def _go_out(t, winner: int, hands: list) -> None:
    """Play the current round out: ``winner`` plays his last card, the others hold
    ``hands``."""
    if t.state["phase"] == "first_card":
        t.do({"type": "turn_up", "card": "blue-7"})
    while t.turn != winner:
        t.draw()
        t.do({"type": "pass"}, t.turn)
    for seat, hand in enumerate(hands):
        if isinstance(hand, list) and seat != winner:
            t.do({"type": "adjust_count", "seat": seat, "count": len(hand)})
    t.do({"type": "adjust_count", "seat": winner, "count": 1})
    t.play("blue-1" if "blue-1" not in t.r["discard"] else "wild", winner)


def _round(t, winner: int, hands: list) -> None:
    _go_out(t, winner, hands)
    t.do({"type": "end_round", "hands": hands})
    if t.state["phase"] == "round_over":
        t.do({"type": "next_round"}, 0)


def test_standard_scoring_first_to_500_wins(table):
    t = table(players=3, first=None)
    _round(t, 0, [[], 200, 99])
    _round(t, 1, [100, [], 0])
    assert GAME.public_view(t.state)["totals_by_round"] == [[299, 0, 0], [299, 100, 0]]
    assert GAME.outcome(t.state) is None
    _round(t, 0, [[], 101, 100])  # exactly 500
    assert t.state["phase"] == "match_over" and t.state["ended"]
    assert GAME.outcome(t.state) == {"winners": [0], "scores": [500, 100, 0]}
    t.no({"type": "next_round"}, 0, code="game_over")


def test_alternative_scoring_own_hand_lowest_wins(table):
    t = table(players=3, first=None, scoring="own_hand", target=100)
    _round(t, 0, [[], ["wild", "wild-draw4"], 30])
    assert GAME.public_view(t.state)["totals"] == [0, 100, 30]
    assert GAME.outcome(t.state) == {"winners": [0], "scores": [0, 100, 30]}


def test_alternative_scoring_tie_for_lowest_is_shared(table):
    t = table(players=3, first=None, scoring="own_hand", target=100)
    _round(t, 0, [[], 50, 20])
    _round(t, 2, [20, 60, []])
    assert GAME.outcome(t.state)["winners"] == [0, 2]


def test_target_is_configurable(table):
    t = table(players=2, first=None, target=50)
    _round(t, 1, [50, []])
    assert GAME.outcome(t.state) == {"winners": [1], "scores": [0, 50]}


def test_dealer_passes_to_the_left_each_round(table):
    t = table(players=3, dealer=1, first=None)
    _round(t, 0, [[], 1, 1])
    assert t.state["dealer"] == 2 and t.state["phase"] == "first_card"
    assert t.r["counts"] == [7, 7, 7] and t.r["number"] == 2
    _round(t, 0, [[], 1, 1])
    assert t.state["dealer"] == 0
    assert [r["dealer"] for r in t.state["rounds"]] == [1, 2]


def test_hands_entered_card_by_card(table):
    t = table(players=3, first="blue-7")
    t.do({"type": "adjust_count", "seat": 1, "count": 1})
    t.do({"type": "adjust_count", "seat": 2, "count": 2})
    t.play("blue-1", 1)
    t.do({"type": "count_card", "seat": 0, "card": "wild"}, 2)
    t.no({"type": "count_card", "seat": 1, "card": "wild"}, 2, code="bad_seat")
    t.no({"type": "end_round"}, 2, code="hand_incomplete")
    for card in ("red-1", "red-2", "red-3", "red-4", "red-5", "red-6"):
        t.do({"type": "count_card", "seat": 0, "card": card}, 0)
    t.no({"type": "count_card", "seat": 0, "card": "red-7"}, 0, code="hand_full")
    t.do({"type": "count_card", "seat": 2, "card": "green-skip"}, 2)
    t.do({"type": "count_card", "seat": 2, "card": "green-9"}, 2)
    t.do({"type": "uncount_card", "seat": 2, "card": "green-9"}, 2)
    t.no({"type": "uncount_card", "seat": 2, "card": "green-9"}, 2, code="not_counted")
    assert GAME.public_view(t.state)["round"]["tally"][2] == ["green-skip"]
    t.do({"type": "count_card", "seat": 2, "card": "green-8"}, 2)
    t.do({"type": "end_round"}, 1)
    assert GAME.public_view(t.state)["totals"] == [0, 50 + 21 + 28, 0]


def test_points_typed_on_each_losers_phone_are_kept_for_the_table(table):
    """Each loser types the points in their own hand on their own phone; whoever taps
    "Score the round" scores them all (typed points had stayed on the phone that typed them,
    and the round was refused for the hands that phone had not been given)."""
    t = table(players=3, first="blue-7")
    t.do({"type": "adjust_count", "seat": 2, "count": 2})
    t.play("blue-1", 1)
    t.do({"type": "adjust_count", "seat": 1, "count": 1})
    t.play("blue-2", 2)
    t.play("blue-3", 0)
    t.play("blue-4", 1)  # seat 1 goes out; seat 2 holds one card
    assert t.state["phase"] == "scoring"
    t.do({"type": "count_points", "seat": 0, "points": 100}, 0)
    t.no({"type": "count_points", "seat": 1, "points": 5}, 1, code="bad_seat")  # the winner
    t.no({"type": "count_points", "seat": 2, "points": -1}, 2, code="bad_hands")
    t.no({"type": "count_points", "seat": 2, "points": "7"}, 2, code="bad_hands")
    assert GAME.public_view(t.state)["round"]["points"] == [100, None, None]
    t.no({"type": "end_round"}, 0, code="hand_incomplete")  # seat 2: neither
    t.do({"type": "count_points", "seat": 2, "points": 30}, 2)
    t.do({"type": "count_points", "seat": 2, "points": None}, 2)  # cleared: cards again
    t.do({"type": "count_card", "seat": 2, "card": "green-8"}, 2)
    t.do({"type": "end_round"}, 0)  # Ana's phone scores Chen's cards and its own points
    assert GAME.public_view(t.state)["totals"] == [0, 100 + 8, 0]


def test_end_round_checks_the_hands(table):
    t = table(players=3, first="blue-7")
    t.do({"type": "adjust_count", "seat": 1, "count": 1})
    t.play("blue-1", 1)
    t.no({"type": "end_round", "hands": [5, 3]}, code="bad_hands")
    t.no({"type": "end_round", "hands": [5, 1, 4]}, code="winner_has_cards")
    t.no({"type": "end_round", "hands": [5, [], "x"]}, code="bad_hands")
    t.no({"type": "end_round", "hands": [5, [], -1]}, code="bad_hands")
    t.no({"type": "end_round", "hands": [["wild-swap"] * 2 + ["red-1"] * 5, [], 4]},
         code="too_many_copies")
    t.no({"type": "end_round", "hands": [["nope"] * 7, [], 4]}, code="bad_card")


def test_edit_a_past_round_host_only_recomputes(table):
    t = table(players=2, first=None, target=100)
    _round(t, 0, [[], 60])
    _round(t, 0, [[], 30])
    t.no({"type": "edit_round", "round": 0, "hands": [[], 80]}, 0, code="host_only")
    t.no({"type": "edit_round", "round": 5, "hands": [[], 80]}, code="bad_round")
    events = t.do({"type": "edit_round", "round": 0, "hands": [[], 80]})
    assert {"type": "game_over"} in events and GAME.outcome(t.state)["scores"] == [110, 0]
    events = t.do({"type": "edit_round", "round": 0, "hands": [60, []], "winner": 1})
    assert {"type": "game_resumed"} in events and t.state["phase"] == "round_over"
    assert GAME.public_view(t.state)["totals"] == [30, 60]


def test_host_ends_the_match(table):
    t = table(players=2, first=None)
    _round(t, 0, [[], 60])
    t.no({"type": "end_match"}, 0, code="host_only")
    t.do({"type": "end_match"})
    assert GAME.outcome(t.state) == {"winners": [0], "scores": [60, 0]}


def test_export_rows(table):
    t = table(players=2, first=None)
    _round(t, 0, [[], ["red-7", "wild"]])
    _round(t, 1, [12, []])
    data = GAME.export(t.state)
    assert data["columns"] == ["round", "dealer", "winner", "Ana points", "Bea points",
                               "Ana total", "Bea total"]
    assert data["rows"] == [[1, "Ana", "Ana", 57, 0, 57, 0], [2, "Bea", "Bea", 0, 12, 57, 12]]
    assert data["rounds"][0]["hands"] == [[], ["red-7", "wild"]]
    # the CSV's headings, as templates the web layer writes in the reader's language
    assert data["header"] == [["round", {}], ["dealer", {}], ["winner", {}],
                              ["{name} points", {"name": "Ana"}],
                              ["{name} points", {"name": "Bea"}],
                              ["{name} total", {"name": "Ana"}], ["{name} total", {"name": "Bea"}]]
