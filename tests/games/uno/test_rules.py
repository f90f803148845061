"""One named test per numbered rule of rules/uno.md (section 1-4) and per edge case U1-U9."""

from __future__ import annotations

from collections import Counter

from companion.cards import uno_deck
from companion.games.uno import GAME
from companion.games.uno.deck import deck_counts, deck_size, draw4_legal, is_legal, points

# -- section 1 and 2: components and setup --------------------------------------------------


def test_components_112_cards_and_109_without_blanks():
    assert deck_size(3) == 112 == len(uno_deck(include_custom=True))
    assert deck_size(0) == 109
    counts = deck_counts(3)
    assert sum(v for k, v in counts.items() if k.split("-")[-1].isdigit()) == 76
    assert counts["red-0"] == 1 and counts["red-9"] == 2
    assert counts["wild"] == 4 and counts["wild-draw4"] == 4 and counts["wild-swap"] == 1
    assert counts["wild-custom"] == 3


def test_setup1_cut_highest_number_deals(table):
    t = table(players=3, dealer=None, first=None)
    assert t.state["phase"] == "cut"
    t.do({"type": "cut", "card": "red-5"}, 0)
    t.no({"type": "cut", "card": "red-6"}, 0, code="already_cut")
    t.do({"type": "cut", "card": "wild"}, 1)  # a wild counts 0 [DEFAULT]
    events = t.do({"type": "cut", "card": "blue-skip"}, 2)  # an action card counts 0
    assert {"type": "dealer", "seat": 0} in events
    assert t.state["dealer"] == 0 and t.state["phase"] == "first_card"


def test_setup1_tie_for_highest_cuts_again(table):
    t = table(players=3, dealer=None, first=None)
    t.do({"type": "cut", "card": "red-9"}, 0)
    t.do({"type": "cut", "card": "blue-2"}, 1)
    events = t.do({"type": "cut", "card": "green-9"}, 2)
    assert {"type": "cut_tie", "seats": [0, 2]} in events
    t.no({"type": "cut", "card": "red-1"}, 1, code="not_cutting")
    t.do({"type": "cut", "card": "red-1"}, 0)
    t.do({"type": "cut", "card": "green-3"}, 2)
    assert t.state["dealer"] == 2


def test_setup1_first_seat_option_skips_the_cut(table):
    t = table(dealer=None, first=None, first_dealer="first_seat")
    assert t.state["phase"] == "first_card" and t.state["dealer"] == 0


def test_setup2_3_deal_seven_each_rest_is_the_draw_pile(table):
    t = table(players=4, first=None)
    assert t.r["counts"] == [7, 7, 7, 7]
    assert t.r["draw_pile"] == 109 - 28


def test_setup4_5_first_card_starts_discard_dealers_left_plays_clockwise(table):
    t = table(players=4, dealer=2, first="red-3")
    assert t.r["discard"] == ["red-3"] and t.r["draw_pile"] == 109 - 28 - 1
    assert t.turn == 3 and t.r["direction"] == 1


# -- matching and drawing -----------------------------------------------------------------


def test_R1_match_by_colour_number_or_symbol_any_wild(table):
    assert is_legal("blue-2", "blue-7", "blue")
    assert is_legal("red-7", "blue-7", "blue")
    assert is_legal("green-skip", "red-skip", "red")
    assert not is_legal("green-skip", "blue-7", "blue")
    for wild in ("wild", "wild-draw4", "wild-swap", "wild-custom"):
        assert is_legal(wild, "blue-7", "blue")
    t = table(first="blue-7")
    t.play("blue-2")
    t.no({"type": "play", "card": "red-5"}, t.turn, code="illegal_card")
    t.play("red-2")


def test_R1_active_colour_is_the_named_colour_after_a_wild(table):
    t = table(first="blue-7")
    t.play("wild", colour="green")
    assert t.r["colour"] == "green"
    t.no({"type": "play", "card": "blue-3"}, t.turn, code="illegal_card")
    t.play("green-3")


def test_R2_wild_may_name_any_colour_even_the_current_one(table):
    t = table(first="blue-7")
    events = t.play("wild", colour="blue")
    assert {"type": "colour", "seat": 1, "colour": "blue"} in events
    t.no({"type": "play", "card": "wild", "colour": "purple"}, t.turn, code="bad_colour")


def test_R2_wild_without_colour_waits_for_the_players_choice(table):
    t = table(first="blue-7")
    t.play("wild")
    assert t.r["awaiting"]["seat"] == 1 and t.turn == 1
    t.no({"type": "play", "card": "red-7"}, 2, code="awaiting_choice")
    t.no({"type": "choose", "colour": "red"}, 2, code="not_your_turn")
    t.do({"type": "choose", "colour": "red"}, 1)
    assert t.r["colour"] == "red" and t.turn == 2


def test_R3_draw_two_next_player_draws_two_and_loses_turn(table):
    t = table(players=4, first="blue-7")
    t.play("blue-draw2")  # seat 1 on seat 2
    assert t.r["pending"]["victim"] == 2 and t.turn == 2
    t.draw(2)
    assert t.r["counts"][2] == 9 and t.turn == 3 and t.r["pending"] is None


def test_R3_draw_two_only_on_its_colour_or_another_draw_two(table):
    t = table(first="blue-7")
    t.no({"type": "play", "card": "red-draw2"}, 1, code="illegal_card")
    t = table(first="red-draw2")
    t.draw(1)  # the penalty of R20 is served first
    t.play("blue-draw2")  # then the symbol matches


def test_R4_reverse_reverses_the_direction(table):
    t = table(players=4, dealer=0, first="blue-7")
    t.play("blue-reverse")  # seat 1
    assert t.r["direction"] == -1 and t.turn == 0
    t.play("blue-3")
    assert t.turn == 3
    t.play("green-3")
    t.play("green-reverse")  # seat 2 reverses back
    assert t.r["direction"] == 1 and t.turn == 3


def test_R4_skip_makes_the_next_player_miss_his_turn(table):
    t = table(players=4, first="blue-7")
    events = t.play("blue-skip")  # seat 1 skips seat 2
    assert {"type": "skipped", "seat": 2} in events and t.turn == 3
    t.play("red-skip")  # symbol match
    assert t.turn == 1


def test_R5_no_playable_card_draw_one_then_pass(table):
    t = table(first="blue-7")
    t.no({"type": "pass"}, 1, code="draw_first")
    t.draw(1)
    assert t.r["counts"][1] == 8 and t.r["drawn"] == {"seat": 1, "card": None}
    t.no({"type": "draw"}, 1, code="already_drew")
    t.do({"type": "pass"}, 1)
    assert t.turn == 2


def test_R6_drawn_card_may_be_played_at_once(table):
    t = table(first="blue-7")
    t.draw(1, card="blue-4")
    t.play("blue-4", 1)
    assert t.r["counts"][1] == 7 and t.turn == 2


def test_R6_next_players_card_ends_the_turn_of_a_player_who_drew(table):
    t = table(first="blue-7")
    t.draw(1)
    events = t.play("blue-1", 2)  # nobody tapped "pass": seat 2's play passes for seat 1
    assert {"type": "passed", "seat": 1} in events and t.turn == 0


def test_R7_after_drawing_only_the_drawn_card_may_be_played(table):
    t = table(first="green-9")
    t.draw(1, card="green-4")
    t.no({"type": "play", "card": "green-1"}, 1, code="only_drawn_card")
    t.play("green-4", 1)


def test_R8_voluntary_draw_is_allowed_by_default(table):
    assert GAME.setup(["a", "b"], {}, None)["options"]["voluntary_draw"] is True
    t = table(first="blue-7")
    t.draw(1)  # the referee cannot see hands: a draw is always accepted


# -- Wild Draw Four ----------------------------------------------------------------------


def test_R9_draw4_legal_only_without_a_card_of_the_current_colour():
    assert not draw4_legal(["red-9", "green-3", "wild-draw4"], "red")
    assert draw4_legal(["green-3", "blue-skip", "wild-draw4"], "red")
    assert draw4_legal(["wild", "green-skip"], "red")


def test_R10_draw4_next_draws_four_and_loses_turn(table):
    t = table(players=3, first="blue-7")
    t.play("wild-draw4", colour="red")  # seat 1 on seat 2
    assert t.r["pending"] == {"victim": 2, "amount": 4, "kind": "draw4", "by": 1,
                              "colour_before": "blue"}
    assert t.r["colour"] == "red"
    # every phone sees the colour a challenge weighs (it lay on the pile for all to see)
    assert GAME.player_view(t.state, 2)["round"]["pending"]["colour_before"] == "blue"
    t.draw(2)
    assert t.r["counts"][2] == 11 and t.turn == 0


def test_R11_challenge_innocent_challenger_draws_six_and_loses_turn(table):
    t = table(players=3, first="blue-7")
    t.play("wild-draw4", colour="red")
    t.do({"type": "challenge"}, 2)
    t.no({"type": "play", "card": "red-1"}, 0, code="challenge_open")
    t.do({"type": "verdict", "guilty": False}, 2)
    assert t.r["counts"] == [7, 6, 13] and t.turn == 0


def test_R11_challenge_guilty_accused_draws_four_victim_plays(table):
    t = table(players=3, first="blue-7")
    t.play("wild-draw4", colour="red")
    t.do({"type": "challenge"}, 2)
    t.do({"type": "show_hand", "cards": ["blue-1", "green-2", "red-3", "wild", "red-4",
                                          "yellow-5"]}, 1)
    assert t.r["counts"] == [7, 10, 7] and t.turn == 2


def test_R11_hand_is_shown_only_to_the_challenger(table):
    t = table(players=3, first="blue-7")
    t.play("wild-draw4", colour="red")
    t.do({"type": "challenge"}, 2)
    hand = ["green-1", "blue-2", "red-3", "wild", "red-4", "yellow-5"]
    t.do({"type": "show_hand", "cards": hand}, 1)
    assert GAME.player_view(t.state, 2)["me"]["revealed_hand"] == {"seat": 1, "cards": hand}
    assert GAME.player_view(t.state, 0)["me"]["revealed_hand"] is None
    assert "green-1" not in str(GAME.public_view(t.state))
    entry = {"kind": "action", "body": {"type": "show_hand", "cards": hand},
             "actor": {"seat": 1}}
    assert "cards" not in GAME.history_view(t.state, entry, 0)["body"]
    assert GAME.history_view(t.state, entry, 1)["body"]["cards"] == hand
    t.play("red-9", 2)  # the next action puts the hand away
    assert GAME.player_view(t.state, 2)["me"]["revealed_hand"] is None


def test_R11_shown_hand_must_have_the_right_size(table):
    t = table(players=3, first="blue-7")
    t.play("wild-draw4", colour="red")
    t.do({"type": "challenge"}, 2)
    t.no({"type": "show_hand", "cards": ["red-1"]}, 1, code="hand_count")
    t.no({"type": "show_hand", "cards": ["red-1"] * 6}, 2, code="not_accused")
    t.no({"type": "show_hand", "cards": ["red-1"] * 6, "seat": 1}, 2, code="not_your_seat")
    t.no({"type": "show_hand", "cards": ["red-1"] * 6}, 1, code="too_many_copies")


def test_R11_only_the_victim_may_challenge_by_default(table):
    t = table(players=3, first="blue-7")
    t.play("wild-draw4", colour="red")
    t.no({"type": "challenge"}, 0, code="not_victim")
    t.no({"type": "challenge"}, 1, code="not_victim")


def test_R11_challenge_by_anyone_option(table):
    t = table(players=4, first="blue-7", challenge_by="anyone")
    t.play("wild-draw4", colour="red")  # seat 1 on seat 2
    t.do({"type": "challenge"}, 3)
    t.do({"type": "verdict", "guilty": False}, 3)  # the victim draws 4, the challenger 2
    assert t.r["counts"] == [7, 6, 11, 9] and t.turn == 3


def test_R11_accused_may_admit_but_not_acquit_himself(table):
    t = table(players=3, first="blue-7")
    t.play("wild-draw4", colour="red")
    t.do({"type": "challenge"}, 2)
    t.no({"type": "verdict", "guilty": False}, 1, code="not_challenger")
    t.do({"type": "verdict", "guilty": True}, 1)
    assert t.r["counts"][1] == 10


def test_R12_current_colour_is_the_one_before_the_new_colour_is_named(table):
    t = table(players=3, first="blue-7")
    t.play("wild-draw4", colour="red")
    t.do({"type": "challenge"}, 2)
    # he holds red cards (the colour he named) but no blue: innocent
    t.do({"type": "show_hand", "cards": ["red-1", "red-2", "red-3", "red-4", "red-5",
                                          "green-5"]}, 1)
    assert t.r["counts"] == [7, 6, 13]


# -- stacking -----------------------------------------------------------------------------


def test_R13_no_stacking_of_draw_two_or_draw_four(table):
    t = table(players=3, first="blue-7")
    t.play("blue-draw2")
    t.no({"type": "play", "card": "red-draw2"}, 2, code="must_draw")
    t.no({"type": "play", "card": "wild-draw4", "colour": "red"}, 2, code="must_draw")
    t.no({"type": "pass"}, 2, code="must_draw")
    t = table(players=3, first="blue-7")
    t.play("wild-draw4", colour="red")
    t.no({"type": "play", "card": "red-draw2"}, 2, code="must_draw")


def test_house_rule_stacking_draw_twos(table):
    t = table(players=3, first="blue-7", stack_draw2=True)
    t.play("blue-draw2")  # 1 -> 2
    t.play("red-draw2", 2)  # 2 passes 4 on to 0
    assert t.r["pending"]["victim"] == 0 and t.r["pending"]["amount"] == 4
    t.draw(0)
    assert t.r["counts"][0] == 11 and t.turn == 1


def test_with_stacking_on_a_refusal_under_a_draw_two_says_a_draw_two_may_go_on_it(table):
    """"No stacking" was said at a table that stacks +2s."""
    t = table(players=3, first="blue-7", stack_draw2=True)
    t.play("blue-draw2")
    for action in ({"type": "play", "card": "blue-5"}, {"type": "pass"}):
        rej = t.no(action, 2, code="must_draw")
        assert "or play a Draw Two" in rej.message and "no stacking" not in rej.message
    t = table(players=3, first="blue-7")
    t.play("blue-draw2")
    assert "no stacking" in t.no({"type": "play", "card": "blue-5"}, 2, code="must_draw").message


# -- Wild Swap Hands and the blank wilds ----------------------------------------------------


def test_R14_swap_hands_names_a_colour_and_swaps_with_another_player(table):
    t = table(players=3, first="blue-7")
    t.play("blue-1")  # seat 1 holds 6
    t.play("wild-swap", 2, colour="green", target=1)  # seat 2: 6 after playing, swaps
    assert t.r["counts"] == [7, 6, 6]
    t = table(players=3, first="blue-7")
    t.play("blue-1")
    t.play("wild-swap", 2, colour="red", target=0)
    assert t.r["counts"] == [6, 6, 7] and t.r["colour"] == "red" and t.turn == 0


def test_R14_swap_without_target_waits_for_it(table):
    t = table(players=3, first="blue-7")
    t.play("wild-swap")
    assert t.r["awaiting"]["need"] == ["colour", "target"]
    t.no({"type": "choose", "colour": "red", "target": 1}, 1, code="bad_target")
    t.do({"type": "choose", "colour": "red", "target": 0}, 1)
    assert t.r["counts"] == [6, 7, 7]


def test_R15_swap_hands_may_not_be_the_last_card(table):
    t = table(players=2, first="blue-7")
    t.do({"type": "adjust_count", "seat": 1, "count": 1})
    t.no({"type": "play", "card": "wild-swap", "colour": "red", "target": 0}, 1,
         code="swap_last_card")
    t.draw(1)  # [DEFAULT] he draws instead (R5)


def test_R16_blank_wilds_stay_out_unless_the_table_wrote_a_rule(table):
    t = table(first="blue-7")
    t.no({"type": "play", "card": "wild-custom", "colour": "red"}, 1, code="not_in_deck")
    t = table(first="blue-7", custom_wilds=3, custom_rule="Everyone sings")
    assert t.state["deck_size"] == 112
    events = t.play("wild-custom", colour="red")
    assert {"type": "custom_rule", "text": "Everyone sings"} in events
    assert t.turn == 2 and t.r["colour"] == "red"


def test_R16_blank_wild_effect_chosen_by_the_table(table):
    t = table(players=4, first="blue-7", custom_wilds=1, custom_effect="skip")
    t.play("wild-custom", colour="red")
    assert t.turn == 3


# -- UNO ----------------------------------------------------------------------------------


def _two_cards(table, **options):
    t = table(players=3, first="blue-7", **options)
    t.do({"type": "adjust_count", "seat": 1, "count": 2})
    return t


def test_R17_uno_not_called_caught_before_next_player_draws_two(table):
    t = _two_cards(table)
    t.play("blue-1")
    assert t.r["catchable"] == [1]
    t.no({"type": "catch", "target": 1}, 1, code="bad_target")
    events = t.do({"type": "catch", "target": 1}, 0)
    assert {"type": "caught", "seat": 1, "by": 0} in events and t.r["counts"][1] == 3


def test_R17_catch_window_closes_when_the_next_player_acts(table):
    t = _two_cards(table)
    t.play("blue-1")
    t.play("blue-2", 2)
    t.no({"type": "catch", "target": 1}, 0, code="too_late")


def test_R17_called_uno_cannot_be_caught(table):
    t = _two_cards(table)
    t.do({"type": "uno"}, 1)  # called as he plays his second-to-last card
    t.play("blue-1")
    assert t.r["catchable"] == []
    t.no({"type": "catch", "target": 1}, 0, code="called_uno")
    t = _two_cards(table)
    t.play("blue-1")
    t.do({"type": "uno"}, 1)  # late but before anyone caught him
    t.no({"type": "catch", "target": 1}, 0, code="called_uno")


def test_R17_uno_only_with_one_card_or_playing_the_second_to_last(table):
    t = table(first="blue-7")
    t.no({"type": "uno"}, 1, code="no_uno")


def test_R17_penalty_is_configurable(table):
    t = _two_cards(table, uno_penalty=4)
    t.play("blue-1")
    t.do({"type": "catch", "target": 1}, 2)
    assert t.r["counts"][1] == 5


# -- reshuffling --------------------------------------------------------------------------


def _empty_draw_pile(t):
    t.do({"type": "adjust_count", "seat": 0, "count": 7 + t.r["draw_pile"]})
    assert t.r["draw_pile"] == 0


def test_R18_empty_draw_pile_reshuffles_the_discard_pile_keeping_the_top(table):
    t = table(players=3, first="blue-7")
    t.play("blue-1")
    t.play("blue-2")
    _empty_draw_pile(t)
    events = t.draw(0)
    assert {"type": "reshuffle", "cards": 2, "keep_top": True} in events
    assert t.r["discard"] == ["blue-2"] and t.r["draw_pile"] == 1


def test_R18_option_reshuffle_everything(table):
    t = table(players=3, first="blue-7", reshuffle_keep_top=False)
    t.play("blue-1")
    _empty_draw_pile(t)
    t.draw(2)
    assert t.r["discard"] == [] and t.r["draw_pile"] == 1 and t.r["top"] == "blue-1"
    t.play("blue-5", 0)  # the top card still rules the match


# -- two players --------------------------------------------------------------------------


def test_R19_two_players_reverse_is_a_skip(table):
    t = table(players=2, dealer=0, first="blue-7")
    t.play("blue-reverse")  # seat 1
    assert t.turn == 1


def test_R19_two_players_skip_plays_again(table):
    t = table(players=2, first="blue-7")
    t.play("blue-skip")
    assert t.turn == 1


def test_R19_two_players_after_draw_two_it_is_your_turn_again(table):
    t = table(players=2, first="blue-7")
    t.play("blue-draw2")
    t.draw(0)
    assert t.turn == 1 and t.r["counts"][0] == 9
    t.play("wild-draw4", colour="red")
    t.draw(0)
    assert t.turn == 1


# -- the first card turned up ---------------------------------------------------------------


def test_R20_first_card_draw_two_first_player_draws_two_and_loses_turn(table):
    t = table(players=4, dealer=0, first="red-draw2")
    assert t.r["pending"]["victim"] == 1
    t.draw(1)
    assert t.r["counts"][1] == 9 and t.turn == 2


def test_R21_first_card_reverse_dealer_plays_first_counter_clockwise(table):
    t = table(players=4, dealer=2, first="green-reverse")
    assert t.turn == 2 and t.r["direction"] == -1
    t.play("green-1")
    assert t.turn == 1


def test_R22_first_card_skip_dealers_left_is_skipped(table):
    t = table(players=4, dealer=0, first="green-skip")
    assert t.turn == 2


def test_R23_first_card_wild_dealers_left_names_colour_and_plays(table):
    t = table(players=4, dealer=0, first="wild")
    assert t.r["awaiting"]["seat"] == 1
    t.no({"type": "play", "card": "red-1"}, 1, code="awaiting_choice")
    t.do({"type": "choose", "colour": "yellow"}, 1)
    assert t.r["colour"] == "yellow" and t.turn == 1


def test_R23_option_chooser_does_not_play_first(table):
    t = table(players=4, first="wild", colour="yellow", first_wild_chooser_plays=False)
    assert t.turn == 2


def _goes_back(table, card):
    t = table(players=3, first=None, custom_wilds=3)
    pile = t.r["draw_pile"]
    assert t.do({"type": "turn_up", "card": card}) == [{"type": "put_back", "card": card}]
    assert t.state["phase"] == "first_card" and t.r["draw_pile"] == pile
    t.do({"type": "turn_up", "card": "red-4"})
    assert t.turn == 1 and t.r["draw_pile"] == pile - 1


def test_R24_first_card_wild_draw_four_goes_back(table):
    _goes_back(table, "wild-draw4")


def test_R25_first_card_swap_hands_goes_back(table):
    _goes_back(table, "wild-swap")


def test_R26_first_card_blank_wild_goes_back(table):
    _goes_back(table, "wild-custom")


# -- going out ----------------------------------------------------------------------------


def test_R27_round_ends_as_soon_as_a_player_has_no_cards(table):
    t = table(players=3, first="blue-7")
    t.do({"type": "adjust_count", "seat": 1, "count": 1})
    events = t.play("blue-1")
    assert {"type": "round_over", "winner": 1} in events
    assert t.state["phase"] == "scoring" and t.r["winner"] == 1
    t.no({"type": "play", "card": "blue-3"}, 2, code="round_over")


def test_R28_last_card_draw_two_next_player_still_draws(table):
    t = table(players=3, first="blue-7")
    t.do({"type": "adjust_count", "seat": 1, "count": 1})
    t.play("blue-draw2")
    assert t.r["counts"] == [7, 0, 9]


def test_R28_last_card_draw_four_next_player_still_draws_four(table):
    t = table(players=3, first="blue-7")
    t.do({"type": "adjust_count", "seat": 1, "count": 1})
    t.play("wild-draw4")  # no colour needed to go out
    assert t.r["counts"] == [7, 0, 11]


def test_R29_going_out_on_an_action_card_is_allowed(table):
    for last in ("blue-skip", "blue-reverse", "wild"):
        t = table(players=3, first="blue-7")
        t.do({"type": "adjust_count", "seat": 1, "count": 1})
        t.play(last)
        assert t.state["phase"] == "scoring"


# -- scoring (section 5) --------------------------------------------------------------------


def test_scoring_card_values():
    opts = {"swap_points": 50, "custom_points": 50}
    assert [points(c, opts) for c in ("red-0", "blue-9", "green-skip", "red-reverse",
                                      "yellow-draw2", "wild", "wild-draw4", "wild-swap",
                                      "wild-custom")] == [0, 9, 20, 20, 20, 50, 50, 50, 50]


# -- the edge cases of section 6 --------------------------------------------------------------


def test_U1_swap_and_custom_points_default_50_configurable_40():
    state = GAME.setup(["a", "b"], {}, None)
    assert state["options"]["swap_points"] == 50 and state["options"]["custom_points"] == 50
    assert points("wild-swap", {"swap_points": 40}) == 40


def test_U2_uno_penalty_default_two():
    assert GAME.setup(["a", "b"], {}, None)["options"]["uno_penalty"] == 2


def test_U3_won_challenge_victim_plays_normally_or_option_skips(table):
    t = table(players=3, first="blue-7", challenge_won_victim_plays=False)
    t.play("wild-draw4", colour="red")
    t.do({"type": "challenge"}, 2)
    t.do({"type": "verdict", "guilty": True}, 2)
    assert t.turn == 0 and t.r["counts"][2] == 7


def test_U4_voluntary_draw_with_a_playable_card_is_allowed(table):
    t = table(first="blue-7")
    t.draw(1, card="red-7")  # (playable: he may keep it, R6)
    t.do({"type": "pass"}, 1)


def test_U5_one_card_after_a_swap_creates_no_uno_obligation(table):
    t = table(players=3, first="blue-7")
    t.do({"type": "adjust_count", "seat": 0, "count": 1})
    t.play("wild-swap", 1, colour="red", target=0)  # seat 1 now holds 1 card
    assert t.r["counts"][1] == 1 and t.r["catchable"] == []
    t = table(players=3, first="blue-7", uno_after_swap=True)
    t.do({"type": "adjust_count", "seat": 0, "count": 1})
    t.play("wild-swap", 1, colour="red", target=0)
    assert t.r["catchable"] == [1]
    t.do({"type": "catch", "target": 1}, 2)


def test_U6_draw4_on_a_wild_whose_named_colour_you_hold_is_illegal(table):
    t = table(players=3, first="blue-7")
    t.play("wild", colour="green")
    t.play("wild-draw4", colour="red")  # seat 2
    t.do({"type": "challenge"}, 0)
    t.do({"type": "show_hand", "cards": ["green-1", "red-1", "red-2", "red-3", "red-4",
                                          "red-5"]}, 2)
    assert t.r["counts"][2] == 10  # guilty: green was the current colour


def test_U7_draw_two_on_a_wild_whose_named_colour_matches_is_legal(table):
    t = table(players=3, first="blue-7")
    t.play("wild", colour="green")
    t.play("green-draw2")


def test_U8_reverse_first_with_two_players_dealer_starts(table):
    t = table(players=2, dealer=1, first="red-reverse")
    assert t.turn == 1


def test_U9_both_piles_exhausted_player_cannot_draw_and_passes(table):
    t = table(players=3, first="blue-7")
    _empty_draw_pile(t)
    events = t.draw(1)
    assert {"type": "cannot_draw", "seat": 1} in events and t.turn == 2


def test_deck_copies_are_checked(table):
    t = table(players=2, first="blue-7")
    t.play("wild-swap", colour="blue", target=0)
    t.no({"type": "play", "card": "wild-swap", "colour": "red", "target": 1}, 0,
         code="too_many_copies")
    assert Counter(deck_counts(0))["red-0"] == 1
