"""The worked examples of rules/uno.md section 7, one test each (A, B, C are seats 0, 1, 2)."""

from __future__ import annotations

from companion.games.uno import GAME
from companion.games.uno.deck import draw4_legal

A, B, C = 0, 1, 2


def _a_to_move(table, players=3, **options):
    """A table where A (seat 0) is to move on a Blue 7: seat 2 dealt."""
    return table(players=players, dealer=players - 1, first="blue-7", **options)


def test_example_1_match(table):
    for legal in ("blue-2", "blue-skip", "red-7", "green-7", "wild", "wild-swap"):
        _a_to_move(table).do({"type": "play", "card": legal, "colour": "red", "target": 1}, A)
    t = _a_to_move(table)
    refused = t.no({"type": "play", "card": "red-5"}, A, code="illegal_card")
    assert refused.params == {"card": "red-5", "top": "blue-7", "colour": "blue", "symbol": "7"}
    assert refused.render() == "red-5 cannot go on blue-7: play blue, a 7, or a wild."
    t.no({"type": "play", "card": "green-skip"}, A, code="illegal_card")
    t = table(players=3, dealer=2, first="blue-skip")  # unless the top card were a Skip
    t.play("green-skip")  # (the first Skip skipped A: B plays it)
    assert not draw4_legal(["blue-1", "wild-draw4"], "blue")
    assert draw4_legal(["red-7", "wild-draw4"], "blue")


def test_example_2_wild_draw_four_legality(table):
    assert not draw4_legal(["red-9", "green-3"], "red")
    assert draw4_legal(["green-3", "blue-skip"], "red")
    for hand, guilty in ((["red-9", "green-3"], True), (["green-3", "blue-skip"], False)):
        t = table(players=3, dealer=2, first="red-3")
        t.do({"type": "adjust_count", "seat": A, "count": 3})
        t.play("wild-draw4", A, colour="blue")
        t.do({"type": "challenge"}, B)
        t.do({"type": "show_hand", "cards": hand}, A)
        assert t.r["counts"][A] == (6 if guilty else 2)


def test_example_3_challenge_lost_by_the_challenger(table):
    t = _a_to_move(table)
    t.play("wild-draw4", A, colour="red")
    t.do({"type": "challenge"}, B)
    events = t.do({"type": "verdict", "guilty": False}, B)
    assert {"type": "draws", "seat": B, "n": 6, "wanted": 6} in events
    assert t.r["counts"][B] == 13 and t.turn == C


def test_example_4_challenge_won(table):
    t = _a_to_move(table)
    t.play("wild-draw4", A, colour="red")
    t.do({"type": "challenge"}, B)
    t.do({"type": "verdict", "guilty": True}, B)
    assert t.r["counts"][A] == 6 + 4 and t.r["counts"][B] == 7 and t.turn == B


def test_example_5_no_stacking(table):
    t = _a_to_move(table)
    t.play("blue-draw2", A)
    t.no({"type": "play", "card": "red-draw2"}, B, code="must_draw")
    t.draw(B)
    assert t.r["counts"][B] == 9 and t.turn == C


def test_example_6_draw_and_play(table):
    t = table(players=3, dealer=0, first="green-9")  # B to move
    t.draw(B, card="green-4")
    t.no({"type": "play", "card": "green-1"}, B, code="only_drawn_card")
    t.play("green-4", B)
    t = table(players=3, dealer=0, first="green-9")
    t.draw(B, card="green-4")
    t.do({"type": "pass"}, B)  # or keep it and end his turn
    assert t.turn == C and t.r["counts"][B] == 8


def test_example_7_two_players_reverse(table):
    t = table(players=2, dealer=1, first="blue-7")
    t.play("blue-reverse", A)
    assert t.turn == A


def test_example_8_first_card_draw_four_goes_back_then_reverse(table):
    t = table(players=4, dealer=1, first=None)
    assert t.do({"type": "turn_up", "card": "wild-draw4"}) == [
        {"type": "put_back", "card": "wild-draw4"}]
    t.do({"type": "turn_up", "card": "yellow-reverse"})
    assert t.turn == 1 and t.r["direction"] == -1
    t.play("yellow-3")
    assert t.turn == 0


def _a_goes_out(table, last="blue-1", **options):
    t = _a_to_move(table, **options)
    t.do({"type": "adjust_count", "seat": A, "count": 1})
    t.do({"type": "adjust_count", "seat": B, "count": 3})
    t.do({"type": "adjust_count", "seat": C, "count": 3})
    t.play(last, A)
    return t


def test_example_9_round_scoring(table):
    t = _a_goes_out(table)
    hands = [[], ["red-7", "blue-draw2", "wild"], ["green-0", "yellow-3", "wild-swap"]]
    t.do({"type": "end_round", "hands": hands})
    rec = t.state["rounds"][0]
    assert rec["winner"] == A and rec["hands"] == hands
    assert t.state["phase"] == "round_over"
    view = GAME.public_view(t.state)
    assert view["rounds"][0]["points"] == [130, 0, 0] and view["totals"] == [130, 0, 0]
    t = _a_goes_out(table, swap_points=40)
    t.do({"type": "end_round", "hands": hands})
    assert GAME.public_view(t.state)["totals"] == [120, 0, 0]


def test_example_10_last_card_draw_two_counts(table):
    t = _a_goes_out(table, last="blue-draw2")
    assert t.r["counts"][B] == 5  # B draws 2 first
    t.no({"type": "end_round", "hands": [[], ["red-7", "blue-draw2", "wild"],
                                         ["red-1", "red-2", "red-3"]]}, code="hand_count")
    t.do({"type": "end_round", "hands": [[], ["red-7", "blue-draw2", "wild", "red-9",
                                              "green-9"], ["red-1", "red-2", "red-3"]]})
    assert GAME.public_view(t.state)["totals"] == [77 + 18 + 6, 0, 0]
