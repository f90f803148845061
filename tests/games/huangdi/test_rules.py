"""Every numbered rule (R1-R20), the setup and turn steps, the edge cases (A1-A10) and the
options of rules/huangdi.md, one named test each (Ana seat 0, Bia 1, Caio 2)."""

from __future__ import annotations

import random

import pytest

from companion.games.base import OptionError, resolve_options
from companion.games.huangdi import GAME
from companion.games.huangdi.spec import OPTIONS

ANA, BIA, CAIO = 0, 1, 2


# -- setup (section 2) ---------------------------------------------------------------------
def test_setup_stocks_of_10_draw_pile_and_empty_walls(table):
    t = table(players=3)
    s = t.state
    assert [st["count"] for st in s["stocks"]] == [10, 10, 10]
    assert s["walls"] == [None, None, None]
    assert s["discards"] == [[[], []]] * 3
    assert s["deck_size"] == 12 * 10 + 18 + 12
    assert s["draw"] == s["deck_size"] - 30 - 5  # the first player drew his 5
    assert s["hands"] == [5, 0, 0] and s["current"] == ANA


def test_setup_4_every_stock_top_turned_at_the_start_by_default(table):
    t = table(players=3)
    for seat, card in ((BIA, "9"), (CAIO, "joker"), (ANA, "3")):
        t.do({"type": "reveal_stock", "seat": seat, "card": card}, None)
    assert [s["top"] for s in t.state["stocks"]] == ["3", "9", "joker"]
    t.no({"type": "reveal_stock", "seat": BIA, "card": "2"}, None, code="top_known")
    t.no({"type": "reveal_stock", "seat": BIA, "card": "2"}, ANA)  # not Ana's stock


def test_A7_option_each_player_turns_his_card_at_his_first_turn(table):
    t = table(reveal_stock="first_turn")
    t.no({"type": "reveal_stock", "seat": BIA, "card": "9"}, None, code="not_yet")
    t.do({"type": "reveal_stock", "seat": ANA, "card": "4"})
    t.discard("5")
    t.do({"type": "reveal_stock", "seat": BIA, "card": "9"})


def test_option_first_player(table):
    t = table(players=3, first_player=2)
    assert t.turn == CAIO and t.state["hands"] == [0, 0, 5]
    with pytest.raises(OptionError):
        GAME.setup(["a", "b"], resolve_options(OPTIONS, {"first_player": 3}), random.Random(0))


def test_a_deck_too_small_for_the_stocks_cannot_start():
    opts = resolve_options(OPTIONS, {"copies": 1, "jokers": 0, "inverts": 0, "stock_size": 5})
    with pytest.raises(OptionError):
        GAME.setup(["a", "b"], opts, random.Random(0))


# -- turn structure (section 3) ---------------------------------------------------------------
def test_turn_passes_to_the_left_on_the_discard(table):
    t = table(players=3)
    assert [t.discard("5")[-2]["seat"], t.turn] == [BIA, BIA]
    t.discard("5")
    t.discard("5")
    assert t.turn == ANA


def test_only_the_player_to_move_plays(table):
    t = table()
    t.no({"type": "play", "card": "1", "wall": 0, "from": "hand"}, BIA, code="not_your_turn")
    t.no({"type": "play", "card": "1", "wall": 0, "from": "hand", "seat": BIA}, None,
         code="not_your_turn")
    t.no({"type": "discard", "card": "1", "pile": 0}, BIA, code="not_your_turn")
    t.do({"type": "play", "card": "1", "wall": 0, "from": "hand"}, None)  # the host for Ana


# -- the numbered rules ----------------------------------------------------------------------
def test_R1_the_last_stock_card_on_a_wall_wins_at_once(table):
    t = table(scoring="stock_left").set_stock(ANA, "1", count=1).set_stock(BIA, None, count=7)
    events = t.play("1", 0, src="stock")
    assert {"type": "won", "seat": ANA} in events and t.state["ended"]
    assert GAME.outcome(t.state) == {"winners": [ANA], "scores": [7, 0]}
    t.no({"type": "reveal_stock", "seat": BIA, "card": "2"}, None, code="game_over")


def test_R2_a_wall_starts_with_a_1_or_a_joker_as_1(table):
    t = table()
    refused = t.no({"type": "play", "card": "2", "wall": 0, "from": "hand"}, code="wrong_card")
    assert refused.render() == "Wall 1 needs a 1, not a 2."
    t.play("1", 0)
    t.play("joker", 1)
    assert t.wall(1) == {"cards": ["joker"], "top": 1, "inverts": 0}


def test_R3_an_ascending_wall_takes_n_plus_1(table):
    t = table().set_wall(0, 4)
    t.no({"type": "play", "card": "6", "wall": 0, "from": "hand"}, code="wrong_card")
    t.no({"type": "play", "card": "4", "wall": 0, "from": "hand"}, code="wrong_card")
    t.no({"type": "play", "card": "3", "wall": 0, "from": "hand"}, code="wrong_card")
    t.play("5", 0)
    assert t.wall(0)["top"] == 5


def test_R4_up_to_three_walls_several_started_in_one_turn(table):
    t = table()
    for wall in range(3):
        t.play("1", wall)
    assert all(w["top"] == 1 for w in t.state["walls"])


def test_R5_a_wall_reaching_10_leaves_and_a_new_one_starts_in_its_place(table):
    t = table().set_wall(0, 9)
    t.play("joker", 0)  # A10: a joker as the 10 completes it too
    assert t.wall(0) is None
    t.play("1", 0)
    assert t.wall(0)["top"] == 1


def test_R6_an_invert_reverses_the_direction_and_back(table):
    t = table().set_wall(0, 6)
    t.play("5", 0, invert="hand")
    assert GAME.public_view(t.state)["walls"][0]["needs"] == 4
    t.play("6", 0, invert="hand")
    view = GAME.public_view(t.state)["walls"][0]
    assert view["direction"] == "up" and view["needs"] == 7 and view["inverts"] == 2


def test_R7_an_invert_is_never_played_alone(table):
    t = table().set_wall(0, 8)
    refused = t.no({"type": "play", "card": "invert", "wall": 0, "from": "hand"},
                   code="invert_alone")
    assert "never played alone" in refused.render()
    t.no({"type": "play", "card": "9", "wall": 0, "from": "hand", "invert": "hand"},
         code="wrong_partner")


def test_R8_no_inversion_at_1_going_up(table):
    t = table().set_wall(0, 1)
    t.no({"type": "play", "card": "joker", "wall": 0, "from": "hand", "invert": "hand"},
         code="cannot_invert")
    assert GAME.public_view(t.state)["walls"][0]["invert_with"] is None


def test_R8_an_empty_wall_has_no_direction_to_invert(table):
    t = table()
    t.no({"type": "play", "card": "1", "wall": 0, "from": "hand", "invert": "hand"},
         code="invert_needs_wall")


def test_R9_a_descending_wall_reaching_1_leaves(table):
    t = table().set_wall(0, 3, down=True)
    t.play("2", 0)
    t.play("1", 0)
    assert t.wall(0) is None


def test_R9_a_wall_inverted_twice_completes_at_10(table):
    t = table().set_wall(0, 8)
    t.play("7", 0, invert="hand")
    t.play("8", 0, invert="hand")
    t.play("9", 0)
    assert t.wall(0)["inverts"] == 2
    draw = t.state["draw"]
    t.play("10", 0)
    assert t.wall(0) is None and t.state["draw"] == draw + 11 + 2 + 1


def test_R10_inverts_counted_beside_the_wall_not_in_it(table):
    t = table().set_wall(0, 8)
    t.play("7", 0, invert="hand")
    assert "invert" not in t.wall(0)["cards"] and t.wall(0)["inverts"] == 1
    assert t.wall(0)["top"] == 7


def test_R11_completed_walls_go_back_into_the_draw_pile_with_their_inverts(table):
    t = table().set_wall(0, 2, down=True)
    draw = t.state["draw"]
    t.play("1", 0)
    assert t.state["draw"] == draw + 4 + 1 + 1 and t.state["out"] == 0


def test_R11_option_inverts_leave_the_game(table):
    t = table(inverts_back=False).set_wall(0, 2, down=True)
    draw = t.state["draw"]
    events = t.play("1", 0)
    assert t.state["draw"] == draw + 5 and t.state["out"] == 1
    assert {"type": "wall_completed", "wall": 0, "cards": 5} in events
    t.state["discards"][BIA][0] = ["invert"] * 11  # (a position: the other 11 face up)
    t.state["draw"] -= 11
    t.set_wall(1, 5)
    t.no({"type": "play", "card": "4", "wall": 1, "from": "hand", "invert": "hand"},
         code="no_more")  # the 12th left the game


def test_R12_own_discard_tops_without_limit(table):
    t = table().set_discard(ANA, 0, ["9", "2", "1"]).set_discard(ANA, 1, ["3"])
    t.play("1", 0, src="discard0")
    t.play("2", 0, src="discard0")
    t.play("3", 0, src="discard1")
    t.no({"type": "play", "card": "4", "wall": 0, "from": "discard0"}, code="not_pile_top")
    t.no({"type": "play", "card": "4", "wall": 0, "from": "discard1"}, code="pile_empty")
    assert t.state["discards"][ANA] == [["9"], []]


def test_R12_one_card_a_turn_from_each_opponent_by_default(table):
    t = table(players=3).set_discard(BIA, 0, ["2"]).set_discard(BIA, 1, ["3"])
    t.set_discard(CAIO, 0, ["3"])
    t.play("1", 0)
    t.play("2", 0, src="discard0", owner=BIA)
    refused = t.no({"type": "play", "card": "3", "wall": 0, "from": "discard1", "owner": BIA},
                   code="one_per_opponent")
    assert refused.render() == "Only one card a turn may come from Bia's discard piles."
    t.play("3", 0, src="discard0", owner=CAIO)
    t.discard("5")  # a new turn, Bia's: the limit starts again (her own piles: no limit)
    assert t.state["turn"]["taken_from"] == []


def test_A1_option_own_discard_piles_only(table):
    t = table(discard_access="own_only").set_discard(BIA, 0, ["1"])
    t.no({"type": "play", "card": "1", "wall": 0, "from": "discard0", "owner": BIA},
         code="own_piles_only")


def test_A1_option_any_discard_pile_without_limit(table):
    t = table(discard_access="any").set_discard(BIA, 0, ["2", "1"])
    t.play("1", 0, src="discard0", owner=BIA)
    t.play("2", 0, src="discard0", owner=BIA)


def test_R13_a_joker_stands_for_any_number(table):
    t = table().set_wall(0, 5).set_wall(1, 4, down=True)
    t.play("joker", 0)
    t.play("joker", 1)
    assert t.wall(0)["top"] == 6 and t.wall(1)["top"] == 3


def test_R13_a_joker_never_stands_for_an_invert(table):
    t = table().set_wall(0, 8)
    t.no({"type": "play", "card": "7", "wall": 0, "from": "hand", "invert": "hand",
          "invert_card": "joker"}, code="joker_not_invert")
    t.no({"type": "play", "card": "7", "wall": 0, "from": "hand", "invert": "hand",
          "invert_card": "5"}, code="not_invert")


def test_R14_a_joker_may_go_down_with_an_invert(table):
    t = table().set_wall(0, 3, down=True)
    t.play("joker", 0, invert="hand")  # ↓3 + Invert + joker as 4: ↑4
    assert t.wall(0)["top"] == 4 and GAME.public_view(t.state)["walls"][0]["direction"] == "up"


def test_R15_draw_to_5_at_the_start_of_each_turn(table):
    t = table(players=3)
    t.set_hand(BIA, 3)
    t.discard("6")
    assert t.turn == BIA and t.state["hands"][BIA] == 5


def test_R16_an_emptied_hand_draws_5_and_plays_on(table):
    t = table().set_hand(ANA, 1)
    events = t.play("1", 0)
    assert {"type": "drew", "seat": ANA, "count": 5} in events
    assert t.state["hands"][ANA] == 5 and t.turn == ANA


def test_R16_an_invert_and_its_partner_from_the_hand_count_two(table):
    t = table().set_wall(0, 8).set_hand(ANA, 1)
    t.no({"type": "play", "card": "7", "wall": 0, "from": "hand", "invert": "hand"},
         code="hand_empty")
    t.set_hand(ANA, 2)
    events = t.play("7", 0, invert="hand")
    assert {"type": "drew", "seat": ANA, "count": 5} in events


def test_R17_the_turn_ends_with_a_discard_from_the_hand(table):
    t = table()
    t.no({"type": "end_turn"}, code="must_discard")
    t.no({"type": "discard", "card": "5", "pile": 2}, code="bad_pile")
    t.discard("5", 1)
    assert t.state["discards"][ANA] == [[], ["5"]] and t.state["hands"][ANA] == 4


def test_R18_any_card_on_either_pile(table):
    t = table()
    for card, pile in (("invert", 0), ("joker", 1)):
        t.discard(card, pile)
    assert t.state["discards"][ANA][0] == ["invert"]
    assert t.state["discards"][BIA][1] == ["joker"]


def test_R19_stock_advice_is_no_rule(table):
    """R19 is advice: a hand card may be played though the stock top fits too."""
    t = table().set_stock(ANA, "1")
    t.play("1", 0)
    assert t.state["stocks"][ANA] == {"count": 10, "top": "1"}


def test_R20_a_played_stock_card_uncovers_the_next_one(table):
    t = table().set_stock(ANA, "1")
    t.no({"type": "play", "card": "joker", "wall": 0, "from": "stock"}, code="not_stock_top")
    t.play("1", 0, src="stock")
    assert t.state["stocks"][ANA] == {"count": 9, "top": None}
    events = t.do({"type": "reveal_stock", "card": "2"})
    assert {"type": "stock_revealed", "seat": ANA, "card": "2"} in events
    # the camera may name the card turned up with the play itself
    t.play("2", 0, src="stock", next="8")
    assert t.state["stocks"][ANA] == {"count": 8, "top": "8"}


def test_R20_a_stock_card_not_yet_turned_is_taken_as_named(table):
    t = table()
    t.play("1", 0, src="stock")
    assert t.state["stocks"][ANA]["count"] == 9


# -- edge cases A1-A10 ---------------------------------------------------------------------
def test_A3_the_wall_top_is_the_partner_not_the_invert(table):
    t = table().set_wall(0, 8)
    t.play("7", 0, invert="hand")
    assert GAME.public_view(t.state)["walls"][0]["top"] == 7


def test_A4_a_wall_never_starts_descending_from_10(table):
    t = table()
    t.no({"type": "play", "card": "10", "wall": 0, "from": "hand"}, code="wrong_card")


def test_A5_an_empty_draw_pile_draws_what_there_is(table):
    t = table().set_hand(BIA, 3)
    t.state["stocks"][BIA]["count"] += t.state["draw"] - 1  # a position: one card left
    t.state["draw"] = 1
    events = t.discard("9")
    assert {"type": "drew", "seat": BIA, "count": 1} in events
    assert t.state["hands"][BIA] == 4 and t.state["draw"] == 0


def test_A6_an_empty_hand_with_an_empty_draw_pile_ends_without_a_discard(table):
    t = table().set_hand(ANA, 1)
    t.state["stocks"][BIA]["count"] += t.state["draw"]
    t.state["draw"] = 0
    t.play("1", 0)
    assert t.state["hands"][ANA] == 0 and t.turn == ANA  # nothing to draw: plays on
    t.no({"type": "discard", "card": "5", "pile": 0}, code="hand_empty")
    t.do({"type": "end_turn"})
    assert t.turn == BIA


def test_A5_option_an_empty_draw_pile_ends_the_game_without_a_winner(table):
    t = table(empty_draw="end").set_hand(ANA, 1)
    t.state["stocks"][BIA]["count"] += t.state["draw"]
    t.state["draw"] = 0
    events = t.play("1", 0)
    assert {"type": "draw_pile_empty", "seat": ANA} in events
    assert GAME.outcome(t.state) == {"winners": [], "scores": [0, 0]}


def test_A8_invert_on_9_going_up_with_an_8(table):
    t = table().set_wall(0, 9)
    t.play("8", 0, invert="hand")
    assert t.wall(0)["top"] == 8 and GAME.public_view(t.state)["walls"][0]["needs"] == 7


def test_A9_invert_with_a_card_that_reads_like_an_end(table):
    t = table().set_wall(0, 2, down=True)
    t.play("3", 0, invert="hand")
    assert t.wall(0)["top"] == 3 and GAME.public_view(t.state)["walls"][0]["direction"] == "up"
    t = table().set_wall(0, 2)  # ↑2 + Invert + 1: going down at 1, it completes
    t.play("1", 0, invert="hand")
    assert t.wall(0) is None


def test_A10_a_joker_as_the_last_1_completes_a_descending_wall(table):
    t = table().set_wall(0, 2, down=True)
    t.play("joker", 0)
    assert t.wall(0) is None


# -- sources and what the referee knows ------------------------------------------------------
def test_an_invert_from_a_pile_uncovers_its_partner(table):
    t = table().set_wall(0, 8).set_discard(ANA, 0, ["7", "invert"])
    t.play("7", 0, src="discard0", invert="discard0")
    assert t.state["discards"][ANA][0] == [] and t.wall(0)["top"] == 7


def test_an_invert_from_the_stock_then_the_card_under_it(table):
    t = table().set_wall(0, 8).set_stock(ANA, "invert")
    t.play("7", 0, src="stock", invert="stock")
    assert t.state["stocks"][ANA] == {"count": 8, "top": None}


def test_an_opponents_invert_and_partner_count_two_cards_from_him(table):
    t = table().set_wall(0, 8).set_discard(BIA, 0, ["7", "invert"])
    t.no({"type": "play", "card": "7", "wall": 0, "from": "discard0", "owner": BIA,
          "invert": "discard0", "invert_owner": BIA}, code="one_per_opponent")
    t.play("7", 0, src="hand", invert="discard0", invert_owner=BIA)


def test_no_more_copies_than_the_deck_holds(table):
    t = table(copies=2).set_discard(BIA, 0, ["1"]).set_discard(BIA, 1, ["1"])
    refused = t.no({"type": "play", "card": "1", "wall": 0, "from": "hand"}, code="no_more")
    assert refused.render() == "All 2 “1” cards are already face up on the table."


def test_bad_input_is_refused_and_changes_nothing(table):
    t = table()
    for action in (None, [], "play", {}, {"type": 3}, {"type": "fly"},
                   {"type": "play", "card": "11", "wall": 0, "from": "hand"},
                   {"type": "play", "card": "1", "wall": True, "from": "hand"},
                   {"type": "play", "card": "1", "wall": 0, "from": "pocket"},
                   {"type": "play", "card": "1", "wall": 0, "from": "discard0", "owner": 9},
                   {"type": "play", "card": "1", "wall": 0, "from": "stock", "owner": 1},
                   {"type": "play", "card": ["1"], "wall": 0, "from": "hand"},
                   {"type": "discard", "card": "1", "pile": "0"},
                   {"type": "reveal_stock", "card": "x"},
                   {"type": "source", "from": "hand"}, {"type": "dismiss"},
                   {"type": "end_game"}):
        t.no(action)


def test_the_host_ends_the_game_without_a_winner(table):
    t = table()
    t.do({"type": "end_game"}, None)
    assert GAME.outcome(t.state) == {"winners": [], "scores": [0, 0]}


# -- a play whose source is asked ----------------------------------------------------------
def test_a_play_without_source_is_judged_now_and_placed_when_told(table):
    t = table().set_stock(ANA, "1")
    t.no({"type": "play", "card": "2", "wall": 0, "from": None}, code="wrong_card")
    events = t.do({"type": "play", "card": "1", "wall": 0, "from": None})
    assert events[0]["type"] == "source_asked" and t.state["pending"]["card"] == "1"
    assert t.wall(0) is None
    t.no({"type": "play", "card": "1", "wall": 1, "from": "hand"}, code="source_pending")
    t.no({"type": "discard", "card": "1", "pile": 0}, code="source_pending")
    t.no({"type": "source", "from": "discard0"}, code="pile_empty")
    t.do({"type": "source", "from": "stock", "next": "5"})
    assert t.wall(0)["top"] == 1 and t.state["stocks"][ANA] == {"count": 9, "top": "5"}
    assert t.state["pending"] is None


def test_a_dismissed_card_was_never_played(table):
    t = table()
    t.do({"type": "play", "card": "1", "wall": 0, "from": None})
    t.do({"type": "dismiss"})
    assert t.state["pending"] is None and t.wall(0) is None and t.state["hands"][ANA] == 5


def test_an_invert_of_unknown_source_is_asked_too(table):
    t = table().set_wall(0, 8).set_discard(ANA, 1, ["invert"]).set_stock(ANA, "2")
    t.do({"type": "play", "card": "7", "wall": 0, "from": "hand", "invert": "unknown"})
    t.no({"type": "source", "from": "stock"}, code="not_stock_top")  # (no 7 there)
    t.do({"type": "source", "invert": "discard1"})
    assert t.wall(0)["inverts"] == 1 and t.state["discards"][ANA][1] == []
    assert t.state["hands"][ANA] == 4


def test_a_lifted_note_is_kept_until_the_play(table):
    t = table().set_stock(ANA, "1")
    t.do({"type": "lifted", "from": "stock", "next": "6"}, source="camera")
    assert t.state["lifted"] == [{"from": "stock", "owner": ANA, "card": "1", "next": "6"}]
    t.play("1", 0, src="stock", next="6")
    assert t.state["lifted"] == []


def test_A2_the_deck_and_the_players_are_configured(table):
    t = table(players=4, copies=8, jokers=6, inverts=4, stock_size=5)
    assert t.state["deck_size"] == 8 * 10 + 6 + 4
    assert t.state["draw"] == 90 - 4 * 5 - 5
    t.set_discard(BIA, 0, ["invert"] * 4)
    t.set_wall(0, 8)
    t.no({"type": "play", "card": "7", "wall": 0, "from": "hand", "invert": "hand"},
         code="no_more")  # all four Inverts lie face up already


def test_section_5_the_winner_scores_one_win_by_default(table):
    t = table(players=3).set_stock(BIA, None, count=1)
    t.discard("4")
    t.play("1", 0, src="stock")
    assert GAME.outcome(t.state) == {"winners": [BIA], "scores": [0, 1, 0]}
    assert GAME.export(t.state)["rows"][1] == ["Bia", 0, 1]
