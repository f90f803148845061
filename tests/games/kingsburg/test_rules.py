"""Every numbered rule of rules/kingsburg.md (K1-K63) as a named test."""

from __future__ import annotations

import random

from companion.games.base import Actor, Context, Rejection
from companion.games.kingsburg import GAME
from companion.games.kingsburg.core import buildable
from companion.games.kingsburg.data import BUILDINGS, ENEMIES, ENEMY_BY_ID, PHASES
from companion.games.kingsburg.options import OPTIONS
from companion.games.kingsburg.placements import legal_placements
from tests.games.kingsburg.conftest import Table

A, B, C = range(3)


def season_table(players=None, season=None, n=2, envoy=None, order=None, **opts) -> Table:
    """A table at the influence step of Spring, year 1 (or at the roll without dice)."""
    opts.setdefault("two_player_block", False)
    t = Table(n, **opts)
    t.set_position(year=1, phase=2, players=players or [{} for _ in range(n)], envoy=envoy,
                   order=order or list(range(n)), **({"season": season} if season else {}))
    return t


def test_k1_k2_turn_order_by_ascending_totals_ties_keep_the_chart():
    t = season_table(n=3)
    t.do({"type": "correct", "order": [C, B, A]})
    t.roll_all({A: [1, 1, 1], B: [2, 2, 2], C: [1, 1, 4]})
    assert t.state["order"] == [A, C, B]  # 3, 6 (C above B before: first), 6


def test_calendar_five_years_of_eight_phases():
    assert [PHASES[k][0] for k in range(1, 9)] == [
        "aid", "spring", "reward", "summer", "envoy", "autumn", "recruit", "winter"]


def test_k3_fewest_buildings_gets_a_white_die_for_spring_only():
    t = Table(3)
    t.set_position(year=2, phase=1, players=[{"buildings": ["statue"]}, {},
                                             {"buildings": ["inn"]}])
    assert t.state["aid_die"] == B and t.state["pending"] == []
    assert t.season["whites"] == [0, 1, 0]
    t.no({"type": "roll", "dice": [1, 2, 3]}, B, "bad_white")
    t.do({"type": "roll", "dice": [1, 2, 3], "white": [6]}, B)
    t.set_position(year=2, phase=4, players=[{}, {}, {}], aid_die=B)
    assert t.season["whites"] == [0, 0, 0]


def test_k4_a_tie_on_buildings_goes_to_the_fewest_goods():
    t = Table(3)
    t.set_position(year=2, phase=1, players=[{"buildings": ["statue"]}, {"gold": 2},
                                             {"wood": 1}])
    assert t.state["aid_die"] == C


def test_k5_still_tied_each_takes_a_good_and_nobody_gets_the_die():
    t = Table(3)
    t.set_position(year=2, phase=1, players=[{"buildings": ["statue"]}, {"gold": 1},
                                             {"wood": 1}])
    assert t.state["aid_die"] is None
    assert [c["seat"] for c in t.state["pending"]] == [B, C]
    t.no({"type": "roll", "dice": [1, 2, 3]}, A, "choice_pending")
    t.no({"type": "choose", "goods": ["gold", "wood"]}, B, "bad_goods")
    t.do({"type": "choose", "goods": ["stone"]}, B)
    t.do({"type": "choose", "goods": ["gold"]}, C)
    assert (t.p(B)["stone"], t.p(C)["gold"]) == (1, 1) and t.state["phase"] == 2


def test_k6_the_most_buildings_score_one_vp_each_and_none_without_buildings():
    t = Table(3)
    t.set_position(year=1, phase=3, players=[{"buildings": ["statue", "inn"]},
                                             {"buildings": ["inn", "guard_tower"]},
                                             {"buildings": ["statue"]}])
    assert [p["points"]["kings_reward"] for p in t.state["p"]] == [1, 1, 0]
    t.set_position(year=1, phase=3, players=[{}, {}, {}])
    assert [p["vp"] for p in t.state["p"]] == [0, 0, 0]
    t = Table(3, reward_needs_building=False)
    t.set_position(year=1, phase=3, players=[{}, {}, {}])
    assert [p["vp"] for p in t.state["p"]] == [1, 1, 1]


def test_k7_the_envoy_goes_to_the_fewest_buildings_then_goods_else_nobody():
    t = Table(3)
    t.set_position(year=1, phase=5, players=[{"buildings": ["statue"]}, {"gold": 2},
                                             {"gold": 1}])
    assert t.state["envoy"]["seat"] == C
    t.set_position(year=1, phase=5, players=[{"buildings": ["statue"]}, {"gold": 1},
                                             {"wood": 1}])
    assert t.state["envoy"]["seat"] is None


def test_k8a_the_envoy_reopens_a_taken_advisor_once():
    t = season_table(players=[{}, {}], season={"dice": [[3, 5, 1], [4, 4, 2]],
                                               "advisors": {"8": [B]}}, envoy=A)
    moves = legal_placements(t.state, A)
    assert any(pl["advisor"] == 8 and pl["envoy"] for pl in moves)
    t.do({"type": "influence", "advisor": 8, "values": [3, 5]}, A)
    assert t.state["envoy"]["seat"] is None and t.season["advisors"]["8"] == [B, A]
    t.do({"type": "influence", "advisor": 4, "values": [4]}, B)
    t.no({"type": "influence", "advisor": 4, "values": [1], "plus2": False}, A)
    assert t.season["advisors"]["4"] == [B]


def test_k8a_the_envoy_on_ones_own_advisor_is_an_option():
    season = {"dice": [[3, 5, 4], [1, 1, 1]], "advisors": {"4": [A]}}
    t = season_table(season=season, envoy=A)
    assert any(pl["advisor"] == 4 and pl["envoy"] for pl in legal_placements(t.state, A))
    t = season_table(season=season, envoy=A, envoy_own_advisor=False)
    assert not any(pl["advisor"] == 4 for pl in legal_placements(t.state, A))


def test_k8b_the_envoy_builds_a_second_building():
    t = Table(2, two_player_block=False)
    t.set_position(year=1, phase=6, envoy=A, players=[{"gold": 5, "wood": 5, "stone": 5}, {}],
                   season={"dice": [[], []], "passed": [True, True]})
    assert t.state["step"] == "build"
    t.do({"type": "build", "building": "statue"}, A)
    t.do({"type": "build", "building": "inn"}, A)
    assert t.state["envoy"]["seat"] is None
    assert t.state["phase"] == 7  # nothing more to build: done by himself
    t = Table(2, two_player_block=False)
    t.set_position(year=1, phase=6, players=[{"gold": 5, "wood": 5, "stone": 5}, {}],
                   season={"dice": [[], []], "passed": [True, True]})
    t.do({"type": "build", "building": "statue"}, A)
    assert t.state["phase"] == 7  # K30: one a season without the Envoy


def test_k9_an_unused_envoy_goes_back_and_is_reassigned():
    t = Table(2, two_player_block=False)
    t.set_position(year=2, phase=5, envoy=A, players=[{"gold": 3}, {"buildings": ["inn"]}])
    assert t.state["envoy"]["seat"] == A  # fewest buildings again
    t.set_position(year=2, phase=5, envoy=A, players=[{"buildings": ["inn"]}, {}])
    assert t.state["envoy"]["seat"] == B


def test_k10_turns_go_round_until_everyone_passes():
    t = season_table(season={"dice": [[1, 2, 3], [4, 5, 6]]})
    order = t.state["order"]
    assert t.season["turn"] == order[0]
    t.no({"type": "influence", "advisor": 4, "values": [4]}, order[0] ^ 1, "not_your_turn")
    first = order[0]
    t.do({"type": "influence", "advisor": 1, "values": [1]} if first == A else
         {"type": "influence", "advisor": 4, "values": [4]}, first)
    assert t.season["turn"] == order[1]
    t.do({"type": "pass"}, order[1])
    assert t.season["turn"] == order[0]
    t.do({"type": "pass"}, order[0])
    assert (t.state["phase"], t.state["step"]) == (4, "roll")  # nothing paid needs a choice


def test_k11_dice_must_sum_exactly_to_the_advisor():
    t = season_table(season={"dice": [[1, 2, 3], [4, 5, 6]]}, order=[A, B])
    t.no({"type": "influence", "advisor": 5, "values": [1, 2]}, A, "wrong_total")
    t.no({"type": "influence", "advisor": 19, "values": [6]}, A, "bad_advisor")
    t.no({"type": "influence", "advisor": 2, "values": [5]}, A, "no_such_die")
    t.do({"type": "influence", "advisor": 6, "dice": [0, 1, 2]}, A)


def test_k12_an_influenced_advisor_is_closed():
    t = season_table(season={"dice": [[1, 2, 3], [3, 5, 6]]}, order=[A, B])
    t.do({"type": "influence", "advisor": 3, "values": [3]}, A)
    t.no({"type": "influence", "advisor": 3, "values": [3]}, B, "advisor_taken")
    assert all(pl["advisor"] != 3 for pl in legal_placements(t.state, B))


def test_k13_a_passed_player_influences_no_more():
    t = season_table(season={"dice": [[1, 2, 3], [3, 5, 6]]}, order=[A, B])
    t.do({"type": "pass"}, A)
    t.do({"type": "influence", "advisor": 3, "values": [3]}, B)
    t.no({"type": "influence", "advisor": 1, "values": [1]}, A, "passed")
    assert t.season["turn"] == B


def test_k14_white_dice_never_alone_but_in_any_group():
    t = season_table(season={"dice": [[1, 1, 1], [2, 2, 2]], "white": [[6], []]},
                     order=[A, B])
    moves = legal_placements(t.state, A)
    assert all(pl["values"] != [6] for pl in moves)
    assert any(pl["advisor"] == 7 and pl["white"] == [6] for pl in moves)
    t.no({"type": "influence", "advisor": 6, "dice": [3]}, A, "white_alone")


def test_k15_one_plus2_token_a_season():
    t = season_table(players=[{"plus2": 2}, {}], order=[A, B],
                     season={"dice": [[1, 2, 3], [6, 6, 6]]})
    t.do({"type": "influence", "advisor": 3, "values": [1], "plus2": True}, A)
    assert t.p(A)["plus2"] == 1
    t.do({"type": "pass"}, B)
    t.no({"type": "influence", "advisor": 4, "values": [2], "plus2": True}, A, "plus2_used")
    assert all(not pl["plus2"] for pl in legal_placements(t.state, A))
    t = season_table(players=[{"plus2": 2}, {}], order=[A, B], plus2_limit="advisor",
                     season={"dice": [[1, 2, 6], [6, 6, 6]]})
    t.do({"type": "influence", "advisor": 3, "values": [1], "plus2": True}, A)
    t.do({"type": "pass"}, B)
    t.do({"type": "influence", "advisor": 4, "values": [2], "plus2": True}, A)
    assert t.p(A)["plus2"] == 0
    t.no({"type": "influence", "advisor": 8, "values": [6], "plus2": True}, A, "no_plus2")


def test_k16_the_market_moves_a_total_once_a_season():
    t = season_table(players=[{"buildings": ["inn", "market"]}, {}], order=[A, B],
                     season={"dice": [[2, 4, 6], [1, 1, 1]]})
    assert {pl["advisor"] for pl in legal_placements(t.state, A) if pl["values"] == [4]} == {
        3, 4, 5}
    t.do({"type": "influence", "advisor": 5, "values": [4]}, A)  # the Market taken by itself
    assert t.season["market_used"][A]
    t.do({"type": "pass"}, B)
    t.no({"type": "influence", "advisor": 7, "values": [6]}, A, "market_used")
    t = season_table(players=[{}, {}], order=[A, B], season={"dice": [[2, 4, 6], [1, 1, 1]]})
    t.no({"type": "influence", "advisor": 5, "values": [4]}, A, "wrong_total")
    t.no({"type": "influence", "advisor": 5, "values": [4], "market": 1}, A, "no_market")


def test_k17_white_dice_farms_every_season_and_aid_in_spring_at_most_two():
    t = Table(2, two_player_block=False)
    t.set_position(year=2, phase=1, players=[{}, {"buildings": ["statue"]}])
    assert t.state["aid_die"] == A
    t.do({"type": "correct", "seat": A, "buildings": ["inn", "market", "farms"]})
    t.set_position(year=2, phase=2, aid_die=A, players=[
        {"buildings": ["inn", "market", "farms"]}, {"buildings": ["inn", "market", "farms"]}])
    assert t.season["whites"] == [2, 1]
    t.set_position(year=2, phase=4, aid_die=A, players=[
        {"buildings": ["inn", "market", "farms"]}, {}])
    assert t.season["whites"] == [1, 0]


def test_k18_statue_rerolls_one_die_when_all_are_equal():
    t = season_table(players=[{"buildings": ["statue"]}, {}])
    t.do({"type": "roll", "dice": [1, 1, 1]}, B)
    t.no({"type": "reroll", "building": "statue", "die": 0, "value": 1}, B, "no_building")
    t.do({"type": "roll", "dice": [5, 5, 5]}, A)
    assert "reroll" in GAME.player_view(t.state, A)["me"]["can"]
    t.do({"type": "reroll", "building": "statue", "die": 1, "value": 2}, A)
    assert [d["v"] for d in t.season["dice"][A]] == [5, 2, 5] and t.season["settled"][A]


def test_k19_chapel_rerolls_all_when_they_total_seven_or_less():
    t = season_table(players=[{"buildings": ["statue", "chapel"]}, {}])
    t.do({"type": "roll", "dice": [1, 2, 5]}, A)  # 8: no
    assert t.season["settled"][A]
    t.do({"type": "roll", "dice": [1, 2, 4]}, A)  # a typo corrected: 7
    assert not t.season["settled"][A]
    t.no({"type": "reroll", "building": "chapel", "values": [6, 6]}, A, "bad_dice")
    t.do({"type": "reroll", "building": "chapel", "values": [6, 6, 5]}, A)
    assert t.season["totals"] is None and t.season["settled"][A]


def test_k20_statue_and_chapel_each_once_and_keep_ends_the_rerolls():
    t = season_table(players=[{"buildings": ["statue", "chapel"]}, {}])
    t.do({"type": "roll", "dice": [1, 1, 1]}, A)
    t.do({"type": "reroll", "building": "chapel", "values": [2, 2, 2]}, A)
    assert not t.season["settled"][A]  # all equal again: the Statue now applies
    t.do({"type": "keep"}, A)
    assert t.season["settled"][A]
    t.do({"type": "roll", "dice": [3, 4, 5]}, B)
    assert t.state["step"] == "influence"


def pay_table(advisor: int, dice: list[int], **player) -> Table:
    """Ann influences ``advisor`` and both pass: the help is paid."""
    t = season_table(players=[player, {}], order=[A, B],
                     season={"dice": [dice, [6, 6, 6]]}, **player.pop("opts", {}))
    t.do({"type": "influence", "advisor": advisor, "values": dice}, A)
    if t.state["step"] == "influence":
        t.do({"type": "pass"}, t.season["turn"])
    return t


def test_the_18_advisors_pay_as_the_table_says():
    fixed = {1: {"vp": 1}, 2: {"gold": 1}, 3: {"wood": 1}, 5: {"soldiers": 1},
             8: {"gold": 2}, 10: {"soldiers": 2}, 13: {"stone": 3},
             15: {"gold": 1, "wood": 1, "stone": 1}, 16: {"gold": 4},
             18: {"gold": 1, "wood": 1, "stone": 1, "soldiers": 1}}
    for advisor, gain in fixed.items():
        dice = [6] * (advisor // 6) + ([advisor % 6] if advisor % 6 else [])
        t = pay_table(advisor, dice)
        got = {k: t.p(A)[k] for k in ("gold", "wood", "stone", "soldiers", "vp") if t.p(A)[k]}
        assert got == gain, advisor


def test_advisors_with_a_choice_ask_the_player():
    cases = {4: (1, ["wood", "gold"], {}), 7: (1, ["gold", "wood", "stone"], {"plus2": 1}),
             9: (1, ["gold", "stone"], {"wood": 1}), 11: (1, ["wood", "gold"], {"stone": 1}),
             12: (2, ["gold", "wood", "stone"], {"plus2": 1}),
             14: (3, ["gold", "wood", "stone"], {"vp": -1}),
             17: (2, ["gold", "wood", "stone"], {"vp": 3})}
    for advisor, (n, kinds, fixed) in cases.items():
        dice = [6] * (advisor // 6) + ([advisor % 6] if advisor % 6 else [])
        t = pay_table(advisor, dice)
        c = t.state["pending"][0]
        assert (c["seat"], c["n"], c["from"]) == (A, n, kinds), advisor
        for k, v in fixed.items():
            assert t.p(A)[k] == v, advisor
        t.no({"type": "choose", "goods": ["gold"] * (n + 1)}, A, "bad_goods")
        t.do({"type": "choose", "goods": [kinds[-1]] * n}, A)
        assert t.p(A)[kinds[-1]] == n + fixed.get(kinds[-1], 0)


def test_ka1_duchess_token_and_queen_points_are_options():
    t = pay_table(12, [6, 6], opts={"duchess_plus2": False})
    assert t.p(A)["plus2"] == 0
    t = pay_table(17, [6, 6, 5], opts={"queen_vp": 0})
    assert t.p(A)["vp"] == 0


def test_k21_the_smuggler_at_zero_takes_the_score_below_zero():
    t = pay_table(14, [6, 6, 2])
    assert t.p(A)["vp"] == -1
    t = pay_table(14, [6, 6, 2], opts={"negative_scores": False})
    assert t.p(A)["vp"] == 0 and t.p(A)["points"] == {**t.p(A)["points"], "advisors": -1,
                                                       "floor": 1}


def test_k22_the_alchemist_with_nothing_to_give_does_nothing():
    t = pay_table(6, [6])
    assert (t.p(A)["gold"], t.p(A)["wood"], t.p(A)["stone"]) == (0, 0, 0)
    t = pay_table(6, [6], stone=1)  # one kind only: no question
    assert (t.p(A)["gold"], t.p(A)["wood"], t.p(A)["stone"]) == (1, 1, 0)


def test_k23_the_stable_adds_a_soldier_to_soldier_advisors():
    for advisor, dice, soldiers in ((5, [5], 2), (10, [6, 4], 3), (18, [6, 6, 6], 2)):
        t = pay_table(advisor, dice, buildings=["palisade", "stable"])
        assert t.p(A)["soldiers"] == soldiers


def build_table(**player) -> Table:
    t = Table(2, two_player_block=False)
    t.set_position(year=1, phase=2, players=[player, {}],
                   season={"dice": [[], []], "passed": [True, True]})
    return t


def test_k30_one_building_a_season():
    t = build_table(gold=9, wood=9, stone=9)
    t.do({"type": "build", "building": "statue"}, A)
    # Ann done by herself, Brian had nothing to build: the King's Reward, then Summer
    assert (t.state["phase"], t.state["step"]) == (4, "roll")


def test_k31_rows_are_built_left_to_right():
    t = build_table(gold=9, wood=9, stone=9)
    t.no({"type": "build", "building": "chapel"}, A, "row_order")
    t.no({"type": "build", "building": "castle"}, A, "bad_building")
    t.do({"type": "build", "building": "guard_tower"}, A)


def test_k32_each_building_is_owned_once():
    t = build_table(gold=9, wood=9, stone=9, buildings=["statue"])
    t.no({"type": "build", "building": "statue"}, A, "owned")


def test_k33_a_building_scores_when_built():
    t = build_table(gold=9, wood=9, stone=9, buildings=["statue"])
    t.do({"type": "build", "building": "chapel"}, A)
    assert t.p(A)["points"]["buildings"] == 5
    assert (t.p(A)["gold"], t.p(A)["stone"]) == (6, 8)


def test_k34_the_crane_takes_a_gold_off_columns_three_and_four():
    t = build_table(gold=1, wood=3, stone=1, buildings=["inn", "market", "barricade", "crane"])
    assert {b["building"]: b["cost"] for b in buildable(t.state, A)}["farms"] == {
        "gold": 1, "wood": 3, "stone": 1}
    t.do({"type": "build", "building": "farms"}, A)


def test_k35_an_inn_built_in_summer_gives_its_token_and_the_town_hall_asks():
    t = Table(2, two_player_block=False)
    t.set_position(year=1, phase=4, players=[
        {"gold": 1, "wood": 1, "buildings": ["barricade", "crane", "town_hall"]}, {}],
        season={"dice": [[], []], "passed": [True, True]})
    t.do({"type": "build", "building": "inn"}, A)
    assert t.p(A)["plus2"] == 1
    assert t.state["pending"] == [{"seat": A, "kind": "town_hall"}]
    t.no({"type": "choose", "pay": "gold"}, A, "cannot_pay")
    t.do({"type": "choose", "pay": "plus2"}, A)
    assert t.p(A)["plus2"] == 0 and t.p(A)["points"]["town_hall"] == 1


def test_embassy_scores_at_the_end_of_each_productive_season():
    t = Table(2, two_player_block=False)
    t.set_position(year=1, phase=6, players=[
        {"buildings": ["barricade", "crane", "town_hall", "embassy"]}, {}],
        season={"dice": [[], []], "passed": [True, True]})
    assert t.p(A)["points"]["embassy"] == 1


def test_merchants_guild_gold_comes_before_rolling():
    t = season_table(players=[{"buildings": ["inn", "market", "farms", "merchants_guild"]}, {}])
    assert t.p(A)["gold"] == 1 and t.state["step"] == "roll"


def test_k36_twenty_buildings_worth_59_points():
    assert len(BUILDINGS) == 20 and sum(b["vp"] for b in BUILDINGS.values()) == 59
    assert BUILDINGS["church"]["cost"] == {"gold": 3, "wood": 1, "stone": 2}
    assert BUILDINGS["farms"]["defence"] == -1


def test_k40_barracks_one_good_a_soldier_or_one_gold_with_the_option():
    t = Table(2, two_player_block=False, barracks_pay="gold")
    t.set_position(year=1, phase=7, players=[
        {"gold": 1, "wood": 4, "buildings": ["guard_tower", "blacksmith", "barracks"]}, {}])
    t.no({"type": "recruit", "soldiers": 3, "pay": {"gold": 1, "wood": 2}}, A, "wrong_price")
    t.do({"type": "recruit", "soldiers": 3, "pay": {"gold": 1, "wood": 4}}, A)
    assert t.p(A)["soldiers"] == 3 and t.state["phase"] == 8


def test_k40_recruiting_refuses_goods_one_does_not_hold():
    t = Table(2, two_player_block=False)
    t.set_position(year=1, phase=7, players=[{"gold": 2}, {"wood": 2}])
    t.no({"type": "recruit", "soldiers": 1, "pay": {"wood": 2}}, A, "cannot_pay")
    t.no({"type": "recruit", "soldiers": 1, "pay": {"gold": 2}, "seat": B}, A, "not_your_seat")
    t.do({"type": "recruit", "soldiers": 0}, A)
    t.no({"type": "recruit", "soldiers": 0}, A, "recruited")


def winter(players, card="1-1", die=3, **opts) -> Table:
    t = Table(len(players), two_player_block=False, **opts)
    t.set_position(year=int(card[0]), phase=8, players=players)
    t.do({"type": "reinforce", "value": die})
    t.do({"type": "reveal_enemy", "card": card})
    return t


def test_k41_k43_strength_is_soldiers_reinforcements_and_defence():
    t = winter([{"soldiers": 1, "buildings": ["statue"]},
                {"soldiers": 2, "buildings": ["inn", "market", "farms"]},
                {"buildings": ["guard_tower", "blacksmith", "barracks", "wizards_guild"]}],
               card="1-5", die=2)
    assert [r["strength"] for r in t.state["battle"]["results"]] == [3, 3, 6]


def test_k42_the_battle_waits_for_the_enemy_revealed_and_fights_that_card():
    season_table().no({"type": "reveal_enemy", "card": "1-1"}, A, "not_battle")
    t = Table(2, two_player_block=False)
    t.set_position(year=2, phase=8, players=[{"soldiers": 3}, {"soldiers": 1}])
    t.do({"type": "reinforce", "value": 2})
    assert t.state["step"] == "battle" and t.state["battle"]["results"] is None
    assert "reveal_enemy" in GAME.player_view(t.state, A)["me"]["can"]
    assert [e["id"] for e in GAME.public_view(t.state)["year_enemies"]] == [
        "2-1", "2-2", "2-3", "2-4", "2-5"]  # this year's pile
    # (this year's pile only: a card of another year is refused, and changes nothing)
    t.no({"type": "reveal_enemy", "card": "1-1"}, B, "wrong_year_enemy")
    t.do({"type": "reveal_enemy", "card": "2-5"}, B)  # zombies, strength 5
    enemy = next(e["enemy"] for e in t.events if e["type"] == "enemy")
    assert enemy == ENEMY_BY_ID["2-5"] and t.state["battle"]["enemy"] == enemy
    assert [r["outcome"] for r in t.state["battle"]["results"]] == ["tie", "loss"]
    assert [p["vp"] for p in t.state["p"]] == [0, -2] and t.state["year"] == 3


def test_k42_the_app_deck_reveals_the_top_card_this_year_s_own():
    t = Table(2, two_player_block=False, enemy_cards="app")
    assert [e["year"] for e in t.state["enemies"]] == [1, 2, 3, 4, 5]  # I on top, V last
    top = t.state["enemies"][2]
    t.set_position(year=3, phase=8, players=[{"soldiers": 9}, {}])
    assert [e["enemy"] for e in t.events if e["type"] == "enemy"] == [top]
    assert t.state["battle"]["enemy"] == top and t.state["battle"]["results"] is None
    t.do({"type": "reinforce", "value": 1})  # the die was all the battle waited for
    assert t.state["year"] == 4
    assert [e["enemy"] for e in t.events if e["type"] == "battle"] == [top]


def test_k43_the_church_and_the_barricade_count_against_their_enemy_only():
    church = ["statue", "chapel", "church"]
    t = winter([{"buildings": church}, {"buildings": ["barricade"]}], card="3-4", die=1)
    assert [r["strength"] for r in t.state["battle"]["results"]] == [2, 1]  # demons
    t = winter([{"buildings": church}, {"buildings": ["barricade"]}], card="1-2", die=1)
    assert [r["strength"] for r in t.state["battle"]["results"]] == [1, 2]  # goblins


def test_k44_fortress_adds_a_point_to_a_win_a_tie_does_nothing():
    fort = ["palisade", "stable", "stone_wall", "fortress"]
    t = winter([{"buildings": fort, "soldiers": 5}, {"soldiers": 1}], card="1-1", die=1)
    assert t.p(A)["points"]["battle"] == 1 and t.p(A)["gold"] == 1
    assert t.state["battle"]["results"][B]["outcome"] == "tie"
    assert t.p(B)["gold"] == 0 and t.p(B)["vp"] == 0


def test_k45_a_loss_costs_what_one_has_and_the_owner_picks_a_row_end():
    t = winter([{"buildings": ["statue", "inn", "market"], "vp": 10, "gold": 3, "wood": 1},
                {"soldiers": 9}], card="1-1", die=1)  # -1 good, -1 building
    kinds = [c["kind"] for c in t.state["pending"]]
    assert kinds == ["lose_goods", "lose_building"]
    t.no({"type": "choose", "goods": ["stone"]}, A, "bad_goods")
    t.do({"type": "choose", "goods": ["wood"]}, A)
    assert t.state["pending"][0]["from"] == ["statue", "market"]
    t.no({"type": "choose", "building": "inn"}, A, "bad_building")
    t.do({"type": "choose", "building": "statue"}, A)
    assert t.p(A)["buildings"] == ["inn", "market"] and t.p(A)["vp"] == 7
    assert t.p(A)["points"]["lost_buildings"] == -3 and t.state["year"] == 2


def test_k45_the_rightmost_option_takes_the_building_itself():
    t = winter([{"buildings": ["statue", "inn", "market"], "vp": 10}, {"soldiers": 9}],
               card="1-3", die=1, lost_building="rightmost", lost_building_vp=False)
    assert t.p(A)["buildings"] == ["statue", "inn"] and t.p(A)["vp"] == 10


def test_k45_a_loss_takes_the_score_below_zero():
    t = winter([{"vp": 1}, {"soldiers": 9}], card="5-1", die=1)
    assert t.p(A)["vp"] == -7


def test_k46_soldiers_go_home_after_the_battle():
    t = winter([{"soldiers": 4}, {"soldiers": 9}], card="1-5")
    assert [p["soldiers"] for p in t.state["p"]] == [0, 0]
    assert (t.state["year"], t.state["phase"]) == (2, 1)


def test_k47_general_and_queen_peek_at_the_enemy_with_the_app_deck():
    t = season_table(players=[{}, {}], order=[A, B], enemy_cards="app",
                     season={"dice": [[6, 4, 1], [1, 1, 1]]})
    t.do({"type": "influence", "advisor": 10, "values": [6, 4]}, A)
    t.do({"type": "pass"}, B)
    t.do({"type": "pass"}, A)
    assert GAME.player_view(t.state, A)["me"]["peek"] == t.state["enemies"][0]
    assert "peek" not in GAME.player_view(t.state, B)["me"]
    assert "enemies" not in GAME.public_view(t.state)


def test_k50_two_players_neutral_dice_block_advisors():
    t = Table(2)
    t.set_position(year=1, phase=2, players=[{}, {}])
    t.roll_all({A: [1, 2, 3], B: [4, 5, 6]})
    assert t.state["step"] == "roll"  # waits for the neutral dice
    t.no({"type": "roll_neutral", "dice": [5, 5]}, A, "bad_dice")
    t.do({"type": "roll_neutral", "dice": [5, 5, 2]}, A)
    assert t.season["blocked"] == [2, 5] and t.state["step"] == "influence"
    seat = t.season["turn"]
    assert all(pl["advisor"] not in (2, 5) for pl in legal_placements(t.state, seat))
    t3 = Table(3)
    t3.set_position(year=1, phase=2, players=[{}, {}, {}])
    t3.no({"type": "roll_neutral", "dice": [1, 2, 3]}, A, "no_neutral")


def test_k60_k62_the_game_ends_after_the_fifth_winter():
    t = winter([{"vp": 5, "soldiers": 9}, {"vp": 3, "soldiers": 9}], card="5-5", die=1)
    assert t.state["ended"]
    out = GAME.outcome(t.state)
    assert out["winners"] == [A] and out["scores"] == [8, 6]  # both beat the dragon: +3


CATHEDRAL = ["statue", "chapel", "church", "cathedral"]


def test_k61_the_cathedral_scores_a_vp_per_two_goods_kept_at_the_end():
    t = winter([{"soldiers": 9, "gold": 4, "wood": 2, "stone": 1, "buildings": CATHEDRAL},
                {"soldiers": 9, "gold": 1, "buildings": CATHEDRAL},
                {"soldiers": 9, "gold": 9}], card="5-2", die=1)  # all win: +1 VP
    assert t.state["ended"]
    assert [p["points"]["cathedral"] for p in t.state["p"]] == [3, 0, 0]  # 7 // 2, 1 // 2
    assert [p["vp"] for p in t.state["p"]] == [4, 1, 1]
    assert (t.p(A)["gold"], t.p(A)["wood"], t.p(A)["stone"]) == (4, 2, 1)  # not spent


def test_k61_the_cathedral_counts_only_at_the_end_and_after_the_last_losses():
    t = winter([{"soldiers": 9, "gold": 6, "buildings": CATHEDRAL}, {}], card="4-1", die=1)
    assert t.state["year"] == 5 and t.p(A)["points"]["cathedral"] == 0
    t = Table(2, two_player_block=False)
    t.set_position(year=5, phase=8, players=[{"gold": 4, "wood": 3, "buildings": CATHEDRAL},
                                             {"soldiers": 20}])
    t.do({"type": "reinforce", "value": 1})
    t.do({"type": "reveal_enemy", "enemy": {"kind": "orcs", "strength": 9,
                                            "lose": {"goods": 2}}})
    assert not t.state["ended"] and t.p(A)["points"]["cathedral"] == 0
    t.do({"type": "choose", "goods": ["gold", "gold"]}, A)
    assert t.state["ended"] and t.p(A)["points"]["cathedral"] == 2  # 5 goods still held
    t = winter([{"gold": 6, "buildings": [*CATHEDRAL, "inn"]}, {"soldiers": 20}],
               card="5-2", die=1)  # -1 building
    t.do({"type": "choose", "building": "cathedral"}, A)
    assert t.state["ended"] and t.p(A)["points"]["cathedral"] == 0  # no owner any more


def test_k61_the_cathedral_spends_option_pays_the_goods_it_counts():
    players = [{"soldiers": 9, "vp": 30, "gold": 5, "wood": 1, "stone": 1,
                "buildings": CATHEDRAL}, {"soldiers": 9, "vp": 33, "wood": 2}]
    t = winter(players, card="5-2", die=1)  # the default: kept, and they break the tie
    assert [p["vp"] for p in t.state["p"]] == [34, 34]
    assert GAME.outcome(t.state)["winners"] == [A]
    t = winter(players, card="5-2", die=1, cathedral_spends=True)
    assert t.p(A)["points"]["cathedral"] == 3 and [p["vp"] for p in t.state["p"]] == [34, 34]
    assert t.p(A)["gold"] + t.p(A)["wood"] + t.p(A)["stone"] == 1  # 7 - 2 * 3
    assert t.p(A)["gold"] <= 1  # taken from the largest pile first
    assert GAME.outcome(t.state)["winners"] == [B]  # 1 good left against 2


def test_k63_tie_breakers_goods_then_buildings_then_shared():
    t = winter([{"vp": 5, "soldiers": 9, "gold": 2, "buildings": ["inn"]},
                {"vp": 5, "soldiers": 9, "wood": 2}], card="5-1", die=1)
    assert GAME.outcome(t.state)["winners"] == [A]
    t = winter([{"vp": 5, "soldiers": 9, "gold": 2}, {"vp": 5, "soldiers": 9, "wood": 2}],
               card="5-1", die=1)
    assert GAME.outcome(t.state)["winners"] == [A, B]


def test_every_default_of_the_sheet_is_an_option():
    names = {o.name for o in OPTIONS}
    assert {"reward_needs_building", "crane_floor_zero", "barracks_pay", "lost_building",
            "lost_building_vp", "two_player_block", "cathedral_spends", "plus2_limit",
            "envoy_own_advisor", "strongest_bonus"} <= names


def test_the_enemy_list_has_five_cards_a_year_and_year_one_is_two_to_four():
    for year in range(1, 6):
        assert len([e for e in ENEMIES if e["year"] == year]) == 5
    assert {e["strength"] for e in ENEMIES if e["year"] == 1} <= {2, 3, 4}


def test_a_custom_enemy_card_corrects_the_provisional_list():
    t = Table(2, two_player_block=False)
    t.set_position(year=1, phase=8, players=[{"soldiers": 3}, {}])
    t.do({"type": "reinforce", "value": 1})
    t.no({"type": "reveal_enemy", "enemy": {"kind": "trolls", "strength": 3}}, A, "bad_enemy")
    t.do({"type": "reveal_enemy", "enemy": {"kind": "orcs", "strength": 3,
                                            "win": {"vp": 2}, "lose": {"vp": 1}}})
    assert [p["vp"] for p in t.state["p"]] == [2, -1]


def test_dice_values_are_checked():
    t = season_table(players=[{}, {}])
    for bad in ([0, 1, 2], [1, 2, 7], [1, 2], [1, 2, "3"], [1.0, 2, 3], "123", None,
                [True, 2, 3]):
        t.no({"type": "roll", "dice": bad}, A, "bad_dice")


def test_no_action_raises_or_changes_the_state_for_junk():
    t = season_table(players=[{}, {}])
    for junk in (None, [], "roll", {"type": 3}, {"type": "influence", "advisor": "8"},
                 {"type": "choose"}, {"type": "position", "year": 9}, {"type": "correct"},
                 {"type": "build", "building": ["x"]}, {"type": "recruit", "pay": 3}):
        result = GAME.apply(t.state, junk, Context(Actor(seat=0), random.Random(0)))
        assert isinstance(result, Rejection)
