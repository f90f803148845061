"""Defects found by replaying independent rules scenarios through the HTTP API (issue 36):
each test here failed on the code before its fix."""

from __future__ import annotations

from companion.games.uno import GAME


def test_R6_a_named_drawn_card_that_cannot_be_played_ends_the_turn(table):
    """R6: "If not, his turn ends": the next player is to move, not the one who drew."""
    t = table(players=3, first="blue-7")
    events = t.draw(1, card="red-2")
    assert {"type": "passed", "seat": 1} in events
    assert t.turn == 2 and t.r["drawn"] is None and t.r["counts"][1] == 8
    assert "play" not in GAME.player_view(t.state, 1)["me"]["can"]
    t.no({"type": "play", "card": "red-2"}, 1, code="not_your_turn")
    t.play("blue-3", 2)


def test_R6_a_playable_named_drawn_card_still_waits_for_play_or_pass(table):
    t = table(players=3, first="blue-7")
    t.draw(1, card="red-7")
    assert t.turn == 1 and GAME.player_view(t.state, 1)["me"]["can"][-2:] == ["play", "pass"]


def test_R6_under_draw_until_playable_an_unplayable_drawn_card_draws_again(table):
    t = table(players=3, first="blue-7", draw_until_playable=True)
    t.draw(1, card="red-2")
    assert t.turn == 1
    t.draw(1, card="green-7")
    t.play("green-7", 1)
    assert t.turn == 2


def test_R10_going_out_on_a_wild_keeps_the_colour_named(table):
    """R10 / R28: the last card a Wild Draw Four with a colour named: the next player draws 4
    and the colour named is the pile's colour (it was accepted and dropped)."""
    t = table(players=3, first="blue-7")
    t.do({"type": "adjust_count", "seat": 1, "count": 1})
    events = t.play("wild-draw4", 1, colour="green")
    view = GAME.public_view(t.state)["round"]
    assert (view["top"], view["colour"], view["winner"]) == ("wild-draw4", "green", 1)
    assert {"type": "colour", "seat": 1, "colour": "green"} in events
    assert view["counts"][2] == 11


def test_going_out_on_a_coloured_card_makes_it_the_colour(table):
    t = table(players=3, first="blue-7")
    t.do({"type": "adjust_count", "seat": 1, "count": 1})
    t.play("red-7", 1)
    assert GAME.public_view(t.state)["round"]["colour"] == "red"


def test_catch_after_a_swap_says_no_uno_call_is_owed_not_too_late(table):
    """U5: a player left with one card by Wild Swap Hands owes no UNO call; the refusal said
    "too late: the next player has already started" while nobody had started."""
    t = table(players=3, first="blue-7")
    t.do({"type": "adjust_count", "seat": 0, "count": 1})
    t.play("wild-swap", 1, colour="red", target=0)  # seat 1 now holds seat 0's one card
    refusal = t.no({"type": "catch", "target": 1}, 2, code="no_uno_owed")
    assert "swap" in refusal.render()
    assert "started" not in refusal.render()


def test_each_catch_refusal_gives_its_true_reason(table):
    # dealt one card: nobody played down to it
    t = table(players=3, first="blue-7", hand_size=1)
    t.no({"type": "catch", "target": 0}, 2, code="no_uno_owed")
    # put right by the host: not played down to either
    t = table(players=3, first="blue-7")
    t.do({"type": "adjust_count", "seat": 0, "count": 1})
    t.no({"type": "catch", "target": 0}, 2, code="no_uno_owed")
    # played down to one without calling, and the next player has started: too late
    t = table(players=3, first="blue-7")
    t.do({"type": "adjust_count", "seat": 1, "count": 2})
    t.play("blue-1", 1)
    t.do({"type": "catch", "target": 1}, 0)  # in time: he draws 2
    t = table(players=3, first="blue-7")
    t.do({"type": "adjust_count", "seat": 1, "count": 2})
    t.play("blue-1", 1)
    t.play("blue-2", 2)
    t.no({"type": "catch", "target": 1}, 0, code="too_late")


def _score_round(t, winner: int, hands: list, card: str = "blue-3") -> None:
    """``winner`` goes out on ``card`` (the host puts his hand at one card first)."""
    t.do({"type": "adjust_count", "seat": winner, "count": 1})
    t.play(card, winner)
    t.do({"type": "end_round", "hands": hands})


def test_the_host_starts_a_match_at_totals_carried_over_from_paper(table):
    """A match resumed from paper: the host types the totals so far, and the rounds add to
    them (before, the only way was to fake earlier rounds)."""
    t = table(players=3, first="blue-7", target=500)
    t.do({"type": "set_totals", "totals": [480, 120, 0]})
    view = GAME.public_view(t.state)
    assert view["totals"] == [480, 120, 0] and view["carried"] == [480, 120, 0]
    assert view["rounds"] == [] and not view["ended"]
    _score_round(t, 1, [30, [], 12])  # seat 1 scores 42
    assert GAME.public_view(t.state)["totals"] == [480, 162, 0]
    t.do({"type": "next_round"})
    t.do({"type": "turn_up", "card": "green-5"})
    t.play("green-4", 2)
    _score_round(t, 0, [[], 10, 15], card="green-3")
    assert t.state["ended"] and GAME.outcome(t.state) == {"winners": [0],
                                                          "scores": [505, 162, 0]}
    rows = GAME.export(t.state)["rows"]
    assert rows[0][:3] == [0, "", ""] and rows[0][-3:] == [480, 120, 0]
    assert rows[-1][-3:] == [505, 162, 0]


def test_carried_totals_are_the_hosts_and_checked(table):
    t = table(players=3, first="blue-7", target=500)
    t.no({"type": "set_totals", "totals": [1, 2, 3]}, 0, code="host_only")
    t.no({"type": "set_totals", "totals": [1, 2]}, code="bad_totals")
    t.no({"type": "set_totals", "totals": [1, -2, 3]}, code="bad_totals")
    t.no({"type": "set_totals", "totals": [1, True, 3]}, code="bad_totals")
    t.no({"type": "set_totals", "totals": "1,2,3"}, code="bad_totals")
    t.no({"type": "set_totals", "totals": [500, 2, 3]}, code="target_reached")
    t.do({"type": "set_totals", "totals": [0, 0, 0]})


def test_a_scored_round_stays_readable_until_the_next_one_starts(table):
    """After end_round the public view kept no round: the last top card, colour, direction
    and the hands left were readable only through the history."""
    t = table(players=3, first="blue-7")
    t.play("blue-reverse", 1)  # counterclockwise: seat 0 next
    t.do({"type": "adjust_count", "seat": 0, "count": 1})
    t.do({"type": "adjust_count", "seat": 2, "count": 2})
    t.play("wild", 0, colour="green")
    t.do({"type": "end_round", "hands": [[], 12, ["red-9", "wild"]]})
    view = GAME.public_view(t.state)
    assert view["phase"] == "round_over"
    r = view["round"]
    assert (r["number"], r["top"], r["colour"], r["direction"], r["winner"]) == (
        1, "wild", "green", -1, 0)
    assert r["hands"] == [[], 12, ["red-9", "wild"]] and r["counts"] == [0, 6, 2]
    assert GAME.player_view(t.state, 1)["me"]["can"] == ["next_round"]
    t.do({"type": "next_round"})
    r = GAME.public_view(t.state)["round"]
    assert (r["number"], r["top"], r["hands"]) == (2, None, None)


def test_the_last_round_stays_readable_when_it_ends_the_match(table):
    t = table(players=2, first="blue-7", target=10)
    t.do({"type": "adjust_count", "seat": 1, "count": 1})
    t.play("blue-2", 1)
    t.do({"type": "end_round", "hands": [40, []]})
    view = GAME.public_view(t.state)
    assert view["ended"] and view["round"]["top"] == "blue-2"
    assert view["round"]["hands"] == [40, []]


def test_a_correction_of_the_round_shown_is_shown(table):
    t = table(players=2, first="blue-7")
    t.do({"type": "adjust_count", "seat": 1, "count": 1})
    t.play("blue-2", 1)
    t.do({"type": "end_round", "hands": [40, []]})
    t.do({"type": "edit_round", "round": 0, "hands": [45, []]})
    assert GAME.public_view(t.state)["round"]["hands"] == [45, []]
