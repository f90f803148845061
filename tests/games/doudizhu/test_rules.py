"""Every numbered rule and worked example of rules/doudizhu.md, one named test each (the
sheet's number in the name), through the game's actions where the rule is about play and
through the classifier where it is about a combination alone."""

from __future__ import annotations

import itertools
import random

import pytest

from companion.games.base import Actor, Context, Rejection
from companion.games.doudizhu import GAME
from companion.games.doudizhu.cards import RANKS, pack_counts
from companion.games.doudizhu.combos import THREE, Rules, beats, classify
from tests.games.doudizhu.conftest import Table, counts


def kind(text: str, rules: Rules = THREE) -> str:
    c = classify(counts(text), rules)
    return c if isinstance(c, str) else c.kind


def beat(new: str, old: str, rules: Rules = THREE) -> bool:
    a, b = classify(counts(new), rules), classify(counts(old), rules)
    assert not isinstance(a, str) and not isinstance(b, str), (a, b)
    return beats(a, b, rules) is None


# -- §1 components -------------------------------------------------------------------------

def test_sec1_pack_is_54_cards_with_two_jokers_and_108_with_four_players():
    assert sum(pack_counts(3)) == 54 and pack_counts(3)[-2:] == (1, 1)
    assert sum(pack_counts(4)) == 108 and pack_counts(4)[-2:] == (2, 2)


def test_sec1_rank_order_red_joker_high_three_low_suits_ignored():
    for low, high in itertools.pairwise(RANKS):
        assert beat(high, low) and not beat(low, high)
    t = Table().landlord(0)
    t.do({"type": "play", "cards": ["9S"]}, 0)
    t.no({"type": "play", "cards": ["9H"]}, 1, "not_higher")  # another suit: the same rank


# -- §2 setup and deal ---------------------------------------------------------------------

def test_sec2_1_each_player_17_cards_kitty_3_landlord_20():
    t = Table()
    assert t.h["counts"] == [17, 17, 17] and t.h["kitty_size"] == 3
    t.landlord(1)
    assert t.h["counts"] == [17, 20, 17]


def test_sec2_2_face_up_card_holder_is_landlord_option():
    t = Table(landlord="face_up_card")
    assert t.h["phase"] == "landlord"
    t.no({"type": "bid", "bid": 1}, 0, "wrong_phase")
    t.do({"type": "landlord", "seat": 2}, None)
    assert t.h["landlord"] == 2 and t.h["bid"] == 1 and t.h["current"] == 2
    assert t.h["counts"] == [17, 17, 20]


def test_sec2_2_app_deal_face_up_card_holder_bids_first():
    t = Table(deal="app", seed=5)
    first = t.h["first"]
    assert t.h["face_up"] in t.h["dealt"][first]
    t.no({"type": "bid", "bid": 1}, (first + 1) % 3, "not_your_turn")
    t.do({"type": "bid", "bid": 1}, first)


def test_sec2_3_kitty_revealed_then_given_to_landlord():
    t = Table(deal="app", seed=3)
    kitty = list(t.h["kitty_cards"])
    first = t.h["first"]
    t.landlord(first)
    assert sorted(t.h["kitty"]) == sorted(GAME.public_view(t.state)["hand"]["kitty"])
    assert all(c in t.h["dealt"][first] for c in kitty)
    assert len(t.h["dealt"][first]) == 20
    hidden = Table(deal="app", seed=3, reveal_kitty=False)
    hidden.landlord(first)
    assert GAME.public_view(hidden.state)["hand"]["kitty"] is None
    assert "kitty" in GAME.player_view(hidden.state, first)["me"]
    assert "kitty" not in GAME.player_view(hidden.state, (first + 1) % 3)["me"]


# -- §3 auction ----------------------------------------------------------------------------

def test_b1_bids_are_1_2_3_and_higher_than_the_last():
    t = Table()
    t.no({"type": "bid", "bid": 4}, 0, "bad_bid")
    t.no({"type": "bid", "bid": 0}, 0, "bad_bid")
    t.no({"type": "bid", "bid": True}, 0, "bad_bid")
    t.do({"type": "bid", "bid": 2}, 0)
    t.no({"type": "bid", "bid": 2}, 1, "bid_too_low")
    t.no({"type": "bid", "bid": 1}, 1, "bid_too_low")
    t.do({"type": "bid", "bid": 3}, 1)


def test_b2_a_bid_of_3_ends_the_auction_at_once():
    t = Table()
    t.do({"type": "bid", "bid": 3}, 0)
    assert t.h["landlord"] == 0 and t.h["phase"] == "play"


def test_b3_auction_ends_when_the_others_passed_after_a_bid():
    t = Table()
    t.auction((1, 1), (2, 0))
    assert t.h["landlord"] is None
    t.auction((0, 0))
    assert t.h["landlord"] == 1 and t.h["bid"] == 1


def test_b3_single_round_option_everyone_speaks_once():
    t = Table(auction="single_round")
    t.auction((0, 1), (1, 0), (2, 2))
    assert t.h["landlord"] == 2 and t.h["bid"] == 2


def test_b3_open_option_a_passed_player_bids_again():
    t = Table(auction="open")
    t.auction((0, 0), (1, 1), (2, 0), (0, 2))  # 0 passed, then bids 2
    assert t.h["landlord"] is None
    t.auction((1, 0), (2, 0))
    assert t.h["landlord"] == 0 and t.h["bid"] == 2


def test_b4_everyone_passes_the_hand_is_dealt_again():
    t = Table()
    events = []
    for seat in (0, 1, 2):
        events += t.do({"type": "pass"}, seat)
    assert {"type": "redeal"} in events
    assert t.h["phase"] == "auction" and t.h["bids"] == [] and t.h["counts"] == [17] * 3


def test_b5_highest_bidder_is_landlord_bid_is_stake():
    t = Table()
    t.auction((0, 1), (1, 2), (2, 0), (0, 0))
    assert t.h["landlord"] == 1 and t.h["bid"] == 2
    assert GAME.public_view(t.state)["hand"]["stake"] == 2


def test_b6_auction_goes_in_seat_order_like_play():
    t = Table()
    t.do({"type": "bid", "bid": 1}, 1)  # whoever drew the face-up card opens
    t.no({"type": "bid", "bid": 2}, 0, "not_your_turn")
    t.do({"type": "bid", "bid": 2}, 2)


def test_b_variant_doubling_peasants_double_landlord_redoubles():
    t = Table(doubling=True)
    t.landlord(0, 1)
    assert t.h["phase"] == "doubling" and t.h["turn"] == 1
    t.no({"type": "play", "cards": ["3"]}, 0, "wrong_phase")
    t.do({"type": "double", "double": True}, 1)
    t.do({"type": "double", "double": False}, 2)
    t.do({"type": "redouble", "redouble": True}, 0)
    assert t.h["phase"] == "play" and t.h["current"] == 0


def test_b_variant_doubling_without_doubles_skips_the_redouble():
    t = Table(doubling=True)
    t.landlord(0, 1)
    t.do({"type": "pass"}, 1)
    t.do({"type": "pass"}, 2)
    assert t.h["phase"] == "play" and t.h["redouble"] is None


# -- §4 play -------------------------------------------------------------------------------

def test_p1_landlord_leads_with_any_legal_combination():
    t = Table().landlord(2)
    assert t.h["current"] == 2
    t.no({"type": "play", "cards": ["3"]}, 0, "not_your_turn")
    t.no({"type": "pass"}, 2, "must_lead")
    t.play("8-9-10-J-Q")


def test_p2_follow_with_same_type_and_number_of_cards_higher():
    t = Table().landlord(0)
    t.play("8-9-10-J-Q")
    t.cannot("9-10-J-Q-K-A", "other_kind")
    t.cannot("7-8-9-10-J", "not_higher")
    t.cannot("K-K", "other_kind")
    t.play("9-10-J-Q-K")


def test_p3_rocket_beats_anything_bomb_beats_all_but_higher_bomb_and_rocket():
    t = Table().landlord(0)
    t.play("2")
    t.play("3-3-3-3")
    t.cannot("A-A-A-A-5-6", "bomb_lower")
    t.play("4-4-4-4")
    t.play("BJ-RJ")
    t.cannot("A-A-A-A", "rocket_top")


def test_p4_two_passes_and_the_last_player_leads_again():
    t = Table().landlord(0)
    t.play("5")
    t.play("9")
    t.pass_()
    events = t.pass_()
    assert {"type": "lead", "seat": 1} in events
    assert t.h["current"] == 1 and t.h["last"] is None
    t.play("3-3")  # anything


def test_p5_passing_does_not_stop_a_later_play():
    t = Table().landlord(0)
    t.play("5")
    t.pass_()
    t.play("7")
    t.play("8")
    t.play("9")  # seat 1 passed, plays again
    assert t.h["last"]["seat"] == 1


def test_p6_landlord_goes_out_and_wins():
    t = Table().landlord(0)
    t.do({"type": "adjust_count", "seat": 0, "count": 2})
    t.play("K-K")
    assert t.h["phase"] == "over" and t.h["result"]["landlord_won"] is True


def test_p6_a_peasant_goes_out_and_both_peasants_win():
    t = Table().landlord(0, 2)
    t.play("3")
    t.do({"type": "adjust_count", "seat": 1, "count": 1})
    t.play("5")
    r = t.h["result"]
    assert not r["landlord_won"] and r["winner"] == 1
    assert r["points"][1] > 0 and r["points"][2] > 0 and r["points"][0] < 0


def test_p_play_after_the_hand_and_unknown_cards_are_refused():
    t = Table().landlord(0)
    t.no({"type": "play", "cards": ["X9"]}, 0, "unknown_card")
    t.no({"type": "play", "cards": "3-3"}, 0, "bad_cards")
    t.no({"type": "play", "cards": ["3"] * 5}, 0, "not_in_pack")


# -- §5 the 13 combinations (rows 1-13) and their comparison -------------------------------

def test_t1_single_ranks_3_low_red_joker_high():
    assert kind("3") == "single" and kind("RJ") == "single"
    assert beat("RJ", "BJ") and beat("BJ", "2") and not beat("3", "4")


def test_t2_pair_3_to_2_and_two_jokers_are_a_rocket():
    assert kind("2-2") == "pair" and beat("2-2", "A-A")
    assert kind("BJ-RJ") == "rocket"


def test_t3_triplet():
    assert kind("7-7-7") == "triplet" and beat("8-8-8", "7-7-7")


def test_t4_triplet_with_single_ranked_by_triplet():
    assert kind("6-6-6-8") == "triplet_single"
    assert beat("9-9-9-3", "8-8-8-A")


def test_t5_triplet_with_pair_ranked_by_triplet():
    assert kind("Q-Q-Q-6-6") == "triplet_pair"
    assert beat("Q-Q-Q-6-6", "10-10-10-K-K")


def test_t6_sequence_five_or_more_3_to_a_top_card_equal_length():
    assert kind("8-9-10-J-Q") == "sequence" and kind("3-4-5-6-7-8-9-10-J-Q-K-A") == "sequence"
    assert kind("Q-K-A-2-3") == "seq_twos"  # no wrap, no 2s
    assert beat("4-5-6-7-8", "3-4-5-6-7")
    assert beats(classify(counts("4-5-6-7-8-9")), classify(counts("3-4-5-6-7"))) == \
        "other_kind"


def test_t7_pair_sequence_three_or_more_pairs():
    assert kind("10-10-J-J-Q-Q-K-K") == "pair_sequence"
    assert kind("3-3-4-4") == "pair_seq_short"
    assert kind("K-K-A-A-2-2") == "seq_twos"
    assert beat("4-4-5-5-6-6", "3-3-4-4-5-5")


def test_t8_airplane_two_or_more_consecutive_triplets():
    assert kind("4-4-4-5-5-5") == "airplane"
    assert kind("4-4-4-6-6-6") == "seq_gap"
    assert kind("A-A-A-2-2-2") == "seq_twos"
    assert beat("5-5-5-6-6-6", "4-4-4-5-5-5")


def test_t9_airplane_with_singles_distinct_a_two_and_a_joker_not_both_jokers():
    assert kind("7-7-7-8-8-8-3-6") == "airplane_singles"
    assert kind("7-7-7-8-8-8-2-BJ") == "airplane_singles"
    assert kind("7-7-7-8-8-8-BJ-RJ") == "attach_jokers"
    assert kind("7-7-7-8-8-8-3-3") == "attach_same"  # two singles alike
    assert kind("7-7-7-8-8-8-9-9-9-3-3-4") == "attach_mixed"
    assert beat("8-8-8-9-9-9-3-4", "7-7-7-8-8-8-A-K")


def test_t10_airplane_with_pairs_only_triplets_consecutive_twos_allowed():
    assert kind("8-8-8-9-9-9-4-4-J-J") == "airplane_pairs"
    assert kind("8-8-8-9-9-9-2-2-J-J") == "airplane_pairs"
    assert kind("8-8-8-9-9-9-4-4") == "attach_same"  # one pair: two singles alike
    assert kind("8-8-8-9-9-9-4-4-5-5-6-6") == "attach_count"


def test_t11_bomb_beats_every_non_bomb_and_lower_bombs():
    assert kind("5-5-5-5") == "bomb"
    for other in ("2", "A-A", "3-4-5-6-7", "7-7-7-8-8-8-3-6", "6-6-6-6-8-9"):
        assert beat("3-3-3-3", other)
    assert beat("6-6-6-6", "5-5-5-5") and not beat("5-5-5-5", "6-6-6-6")


def test_t12_rocket_beats_everything_bombs_included():
    assert beat("BJ-RJ", "2-2-2-2") and beat("BJ-RJ", "3")
    assert not beat("2-2-2-2", "BJ-RJ")


def test_t13_quadplex_two_singles_of_different_ranks_not_both_jokers():
    assert kind("6-6-6-6-8-9") == "quadplex"
    assert kind("6-6-6-6-2-BJ") == "quadplex"
    assert kind("6-6-6-6-BJ-RJ") == "quad_attach"
    assert kind("6-6-6-6-8-8") == "quad_attach"
    assert beat("7-7-7-7-3-4", "6-6-6-6-8-9") and beat("3-3-3-3", "6-6-6-6-8-9")
    assert not beat("6-6-6-6-8-9", "3-3-3-3")
    assert not beat("7-7-7-7-3-4", "A")


def test_t_mixed_attachments_are_invalid():
    assert kind("3-3-3-4-4-4-6-7-7") == "attach_mixed"


def test_t_variant_four_with_two_pairs():
    assert kind("6-6-6-6-8-8-9-9") == "quad_attach"
    assert kind("6-6-6-6-8-8-9-9", Rules(quad_pairs=True)) == "quad_pairs"
    t = Table(quad_two_pairs=True).landlord(0)
    t.play("6-6-6-6-8-8-9-9")
    t.cannot("5-5-5-5-8-8-9-9", "not_higher")
    t.play("7-7-7-7-3-3-4-4")


# -- §6 scoring ----------------------------------------------------------------------------

def _finish(t: Table, winner: int, single: str = "K") -> None:
    """Play on until ``winner`` goes out with the single ``single`` (his count set to 1):
    the others pass, or lead the lowest single left in the pack."""
    t.do({"type": "adjust_count", "seat": winner, "count": 1})
    pack = pack_counts(len(t.state["players"]))
    for _ in range(50):
        h = t.h
        last = h["last"]
        if h["current"] == winner and (last is None or (
                last["kind"] == "single" and beat(single, last["cards"][0]))):
            t.play(single, winner)
            return
        if last is None:
            low = next(r for r in range(15) if h["played"][r] < pack[r] and r != 14)
            t.play(RANKS[low])
        else:
            t.pass_()
    raise AssertionError("the hand did not end")


def test_s1_stake_is_the_winning_bid():
    t = Table().landlord(0, 3)
    t.play("5")
    t.play("6")
    _finish(t, 0, "Q")
    assert t.h["result"]["stake"] == 3


def test_s2_every_bomb_and_rocket_doubles():
    t = Table().landlord(0, 1)
    t.play("3-3-3-3")
    t.play("4-4-4-4")
    t.pass_()
    t.pass_()
    t.play("5")  # seat 1 leads
    t.pass_()
    t.play("6")  # the landlord plays again: no anti-spring
    _finish(t, 2, "9")
    assert t.h["result"]["stake"] == 4 and t.h["result"]["bombs"] == 2


def test_s3_spring_landlord_out_before_any_peasant_played():
    t = Table().landlord(0, 1)
    t.do({"type": "adjust_count", "seat": 0, "count": 3})
    t.play("3")
    t.pass_()
    t.pass_()
    t.play("4-4")
    r = t.h["result"]
    assert r["spring"] and r["stake"] == 2


def test_s3_anti_spring_landlord_played_only_his_lead_and_option():
    for on, stake in ((True, 2), (False, 1)):
        t = Table(anti_spring=on).landlord(0, 1)
        t.play("3")
        t.do({"type": "adjust_count", "seat": 1, "count": 1})
        t.play("9")
        assert t.h["result"]["anti_spring"] is on and t.h["result"]["stake"] == stake


def test_s4_settlement_is_zero_sum():
    t = Table().landlord(1, 2)
    t.play("3")
    _finish(t, 0, "8")
    pts = t.h["result"]["points"]
    assert sum(pts) == 0 and pts[1] == -2 * pts[0] and t.state["totals"] == pts


def test_s5_hands_accumulate_and_the_match_ends_after_the_hands_option():
    t = Table(hands=2).landlord(0, 1)
    t.play("3")
    _finish(t, 0, "8")
    t.do({"type": "next_hand"})
    assert t.h["number"] == 2 and t.h["phase"] == "auction"
    t.landlord(2, 1)
    t.play("3")
    _finish(t, 1, "8")
    assert t.state["ended"] and GAME.outcome(t.state)["scores"] == t.state["totals"]
    t.no({"type": "next_hand"}, None, "game_over")


# -- §7 edge cases D1-D10 ------------------------------------------------------------------

def test_d1_both_ways_of_choosing_the_landlord():
    assert Table().h["phase"] == "auction"
    assert Table(landlord="face_up_card").h["phase"] == "landlord"


def test_d2_kitty_revealed_by_default_entered_at_a_real_table():
    t = Table().landlord(0)
    t.no({"type": "kitty", "cards": ["3", "4"]}, 0, "bad_kitty")
    t.do({"type": "kitty", "cards": ["2S", "7H", "BJ"]}, 0)
    assert GAME.public_view(t.state)["hand"]["kitty"] == ["7", "2", "BJ"]


def test_d3_four_of_a_kind_is_a_bomb_never_triplet_with_single():
    assert kind("6-6-6-6") == "bomb"
    t = Table().landlord(0)
    t.play("3-3-3-4")
    events = t.play("6-6-6-6")
    assert events[0]["kind"] == "bomb" and t.h["bombs"] == 1


def test_d4_jokers_are_no_pair_to_attach():
    assert kind("5-5-5-BJ-RJ") == "not_combo"
    assert kind("BJ-RJ") == "rocket"


def test_d5_no_pair_of_2s_in_a_pair_sequence():
    assert kind("Q-Q-K-K-A-A-2-2") == "seq_twos"


def test_d6_sequences_of_other_lengths_cannot_be_compared():
    t = Table().landlord(0)
    t.play("3-4-5-6-7")
    t.cannot("5-6-7-8-9-10", "other_kind")


def test_d7_attached_card_completing_a_bomb_is_illegal():
    assert kind("3-3-3-4-4-4-4-9") == "attach_same"


def test_d8_several_bombs_each_double():
    t = Table().landlord(0, 1)
    for bomb in ("3-3-3-3", "4-4-4-4", "5-5-5-5"):
        t.play(bomb)
    t.play("BJ-RJ")
    t.pass_()
    t.pass_()
    _finish(t, 1, "7")
    assert t.h["result"]["stake"] == 16


def test_d9_anti_spring_is_checked():
    t = Table().landlord(0, 1)
    t.play("3")
    t.do({"type": "adjust_count", "seat": 2, "count": 1})
    t.pass_()
    t.play("2")
    assert t.h["result"]["anti_spring"]


def test_d10_no_reentry_after_passing_by_default():
    t = Table()
    t.auction((0, 0), (1, 1))
    t.no({"type": "bid", "bid": 2}, 0, "not_your_turn")
    t.auction((2, 2))
    assert t.h["turn"] == 1  # 0 is out: back to 1
    t.auction((1, 0))
    assert t.h["landlord"] == 2


# -- §8 four players -----------------------------------------------------------------------

def test_sec8_four_players_two_packs_25_cards_8_kitty_33_landlord():
    t = Table(players=4)
    assert t.h["counts"] == [25] * 4 and t.h["kitty_size"] == 8
    t.landlord(3)
    assert t.h["counts"] == [25, 25, 25, 33]


def test_sec8_four_players_bigger_bombs_beat_smaller_rocket_is_four_jokers():
    four = Rules(four=True)
    assert kind("BJ-BJ-RJ-RJ", four) == "rocket" and kind("BJ-RJ", four) == "not_combo"
    assert kind("BJ-BJ", four) == "pair"
    assert kind("3-3-3-3-3", four) == "bomb"
    assert beat("3-3-3-3-3", "2-2-2-2", four) and not beat("2-2-2-2", "3-3-3-3-3", four)
    assert beat("4-4-4-4-4", "3-3-3-3-3", four)
    assert beat("BJ-BJ-RJ-RJ", "2-2-2-2-2-2-2-2", four)
    assert kind("3-3-3-3-3", Rules(four=True, big_bombs=False)) == "not_combo"


def test_sec8_four_players_peasants_each_pay_and_pack_holds_eight_of_a_rank():
    t = Table(players=4).landlord(0, 2)
    t.play("3-3-3-3-3-3-3-3")
    t.cannot("3", "not_in_pack")
    t.pass_()
    t.pass_()
    t.pass_()
    _finish(t, 0, "9")
    r = t.h["result"]  # bid 2, one bomb, a spring: 8 from each of three peasants
    assert r["spring"] and r["points"] == [24, -8, -8, -8]


# -- §9 worked examples --------------------------------------------------------------------

def test_ex1_seed_trick_sequence():
    t = Table()
    t.auction((0, 3))  # A is landlord; order A -> B -> C
    t.play("3-3-3-9", 0)
    t.pass_(1)
    t.play("5-5-5-7", 2)
    t.play("K-K-K-J", 0)
    t.play("A-A-A-3", 1)
    t.pass_(2)
    events = t.pass_(0)
    assert {"type": "lead", "seat": 1} in events
    t.play("4", 1)
    assert t.h["counts"] == [20 - 8, 17 - 5, 17 - 4]


def test_ex2_attachments_ignored_in_comparison():
    assert beat("9-9-9-3", "8-8-8-A")
    assert beat("Q-Q-Q-6-6", "10-10-10-K-K")
    t = Table().landlord(0)
    t.play("Q-Q-Q-6-6")
    r = t.cannot("9-9-9-3", "other_kind")
    assert "triplet with a single" in r.render() and "triplet with a pair" in r.render()


def test_ex3_invalid_mix_valid_airplanes():
    assert kind("3-3-3-4-4-4-6-7-7") == "attach_mixed"
    assert kind("7-7-7-8-8-8-3-6") == "airplane_singles"
    assert kind("8-8-8-9-9-9-4-4-J-J") == "airplane_pairs"


def test_ex4_sequences():
    assert kind("10-J-Q-K-A") == "sequence"
    assert kind("J-Q-K-A-2") == "seq_twos"
    assert kind("3-4-5-6") == "seq_short"
    assert kind("10-10-J-J-Q-Q-K-K") == "pair_sequence"
    t = Table().landlord(0)
    assert t.cannot("3-4-5-6", "seq_short").render() == "A sequence needs at least five cards."


def test_ex5_bomb_against_quadplex():
    t = Table().landlord(0)
    t.play("6-6-6-6-8-9")
    t.play("7-7-7-7-3-4")
    t.play("5-5-5-5")


def test_ex6_only_the_rocket_beats_2222():
    t = Table().landlord(0)
    t.play("2-2-2-2")
    t.cannot("A-A-A-A", "bomb_lower")
    t.play("BJ-RJ")


def test_ex7_scoring_landlord_wins_bid2_bomb_rocket():
    t = Table().landlord(0, 2)
    t.play("3-3-3-3")
    t.play("BJ-RJ")
    t.pass_()
    t.pass_()
    t.play("5", 1)
    _finish(t, 0, "9")
    r = t.h["result"]
    assert r["stake"] == 8 and r["points"][0] == 16 and r["points"][1:] == [-8, -8]


@pytest.mark.parametrize("mult,stake", [(2, 6), (3, 9)])
def test_ex8_scoring_spring(mult, stake):
    t = Table(spring_multiplier=mult).landlord(0, 3)
    t.do({"type": "adjust_count", "seat": 0, "count": 1})
    t.play("9")
    r = t.h["result"]
    assert r["spring"] and r["stake"] == stake
    assert r["points"] == [2 * stake, -stake, -stake]


def test_ex9_scoring_landlord_loses_bid1_two_bombs():
    t = Table().landlord(0, 1)
    t.play("3")
    t.play("4-4-4-4")
    t.play("5-5-5-5")
    t.pass_()
    t.pass_()
    t.play("6", 2)
    t.play("7", 0)  # the landlord plays again: no anti-spring
    _finish(t, 1, "Q")
    r = t.h["result"]
    assert r["stake"] == 4 and r["points"] == [-8, 4, 4] and not r["anti_spring"]


def test_ex10_auction():
    t = Table()
    t.auction((0, 1), (1, 0), (2, 2), (0, 0))
    assert t.h["landlord"] == 2 and t.h["bid"] == 2
    t = Table()
    t.auction((0, 3))
    assert t.h["landlord"] == 0 and t.h["bid"] == 3


# -- purity and refusals -------------------------------------------------------------------

@pytest.mark.parametrize("action", [
    None, 5, [], {}, {"type": 3}, {"type": "nope"}, {"type": "bid", "bid": "2"},
    {"type": "play", "cards": [None]}, {"type": "play", "cards": [["3"]]},
    {"type": "bid", "bid": 1, "seat": 9}, {"type": "bid", "bid": 1, "seat": True},
    {"type": "adjust_count", "seat": 0, "count": 3}, {"type": "confirm"},
    {"type": "dismiss"}, {"type": "set_hand", "cards": 3}, {"type": "next_hand"},
    {"type": "redouble", "redouble": True}, {"type": "double", "double": True},
])
def test_bad_input_is_refused_and_changes_nothing(action):
    t = Table()
    result = GAME.apply(t.state, action, Context(Actor(seat=0), random.Random(0)))
    assert isinstance(result, Rejection) and result.render()
