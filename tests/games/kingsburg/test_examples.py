"""The worked examples of rules/kingsburg.md, section 7, exactly as written."""

from __future__ import annotations

from companion.games.kingsburg.core import cost_of
from tests.games.kingsburg.conftest import Table

ANN, BRIAN, CINDY, DAVID = range(4)
ROLLS = {ANN: [1, 3, 5], BRIAN: [4, 4, 5], CINDY: [2, 2, 6], DAVID: [2, 3, 5]}


def year_one_aid(t: Table) -> None:
    for seat, good in ((ANN, "wood"), (BRIAN, "stone"), (CINDY, "gold"), (DAVID, "gold")):
        t.do({"type": "choose", "goods": [good]}, seat)


def test_example_1_turn_order_from_dice_totals_ties_keep_the_chart():
    t = Table(4)  # the chart: Ann, Brian, Cindy, David (Cindy above David)
    year_one_aid(t)
    t.roll_all(ROLLS)
    assert t.state["order"] == [ANN, CINDY, DAVID, BRIAN]
    assert t.season["totals"] == [9, 13, 10, 10]


def test_example_1_the_other_way_round_when_david_was_above_cindy():
    t = Table(4, initial_order="seats")
    t.do({"type": "correct", "order": [DAVID, CINDY, BRIAN, ANN]})
    year_one_aid(t)
    t.roll_all(ROLLS)
    assert t.state["order"] == [ANN, DAVID, CINDY, BRIAN]


def test_example_2_year_one_aid_everyone_takes_a_good_and_nobody_the_die():
    t = Table(4)
    assert t.state["phase"] == 1
    assert sorted(c["seat"] for c in t.state["pending"]) == [0, 1, 2, 3]
    year_one_aid(t)
    assert [(p["gold"], p["wood"], p["stone"]) for p in t.state["p"]] == [
        (0, 1, 0), (0, 0, 1), (1, 0, 0), (1, 0, 0)]
    assert t.state["aid_die"] is None
    assert t.state["phase"] == 2 and t.season["whites"] == [0, 0, 0, 0]


def influence_round(t: Table) -> None:
    year_one_aid(t)
    t.roll_all(ROLLS)
    t.do({"type": "influence", "advisor": 8, "values": [3, 5]}, ANN)
    t.do({"type": "influence", "advisor": 4, "values": [2, 2]}, CINDY)
    t.no({"type": "influence", "advisor": 8, "values": [3, 5]}, DAVID, "advisor_taken")
    t.do({"type": "influence", "advisor": 7, "values": [2, 5]}, DAVID)
    t.no({"type": "influence", "advisor": 8, "values": [4, 4]}, BRIAN, "advisor_taken")
    t.do({"type": "influence", "advisor": 9, "values": [4, 5]}, BRIAN)
    t.do({"type": "influence", "advisor": 1, "values": [1]}, ANN)
    t.do({"type": "influence", "advisor": 6, "values": [6]}, CINDY)


def test_example_3_influence_round():
    t = Table(4)
    influence_round(t)
    s = t.season
    assert sorted(map(int, s["advisors"])) == [1, 4, 6, 7, 8, 9]
    left = [[d["v"] for d in dice if not d["used"]] for dice in s["dice"]]
    assert left[ANN] == [] and left[CINDY] == []
    assert left[DAVID] == [3] and left[BRIAN] == [4]
    assert s["turn"] == DAVID
    from companion.games.kingsburg.placements import legal_placements
    assert [pl["advisor"] for pl in legal_placements(t.state, DAVID)] == [3]
    assert legal_placements(t.state, BRIAN) == []  # #4 is taken and he has no Market
    # Brian could have put all three on #13 in round 1 (checked on a fresh table)
    t2 = Table(4)
    year_one_aid(t2)
    t2.roll_all(ROLLS)
    assert any(pl["advisor"] == 13 and sorted(pl["values"]) == [4, 4, 5]
               for pl in legal_placements(t2.state, BRIAN))


def test_example_4_help_in_advisor_order_feeds_the_alchemist():
    t = Table(4)
    influence_round(t)
    t.do({"type": "pass"}, DAVID)  # Brian, with nothing left to place, passes by himself
    assert t.state["step"] == "help"
    assert t.p(ANN)["vp"] == 1  # the Jester paid first
    choice = t.state["pending"][0]
    assert choice["seat"] == CINDY and choice["advisor"] == 4
    t.do({"type": "choose", "goods": ["wood"]}, CINDY)
    assert (t.p(CINDY)["gold"], t.p(CINDY)["wood"]) == (1, 1)
    assert t.state["pending"][0] == {"seat": CINDY, "kind": "alchemist", "advisor": 6}
    t.do({"type": "choose", "give": "wood"}, CINDY)
    assert (t.p(CINDY)["gold"], t.p(CINDY)["wood"], t.p(CINDY)["stone"]) == (2, 0, 1)


def test_example_5_statue_then_chapel():
    t = Table(4)
    t.set_position(year=1, phase=2, players=[
        {"buildings": ["statue", "chapel", "inn", "market", "farms"]}, {}, {}, {}])
    assert t.season["whites"][ANN] == 1
    t.do({"type": "roll", "dice": [2, 2, 2], "white": [2]}, ANN)
    t.no({"type": "reroll", "building": "chapel", "values": [1, 1, 1, 1]}, ANN,
         "reroll_not_allowed")  # 8 > 7
    t.do({"type": "reroll", "building": "statue", "die": 3, "value": 1}, ANN)
    assert [d["v"] for d in t.season["dice"][ANN]] == [2, 2, 2, 1]
    assert not t.season["settled"][ANN]  # the Chapel now applies (total 7)
    t.do({"type": "reroll", "building": "chapel", "values": [3, 3, 3, 3]}, ANN)
    assert t.season["settled"][ANN]
    t.no({"type": "reroll", "building": "statue", "die": 0, "value": 1}, ANN, "reroll_used")


def test_example_6_market_once_and_white_dice_never_alone():
    from companion.games.kingsburg.placements import legal_placements
    t = Table(2, two_player_block=False)
    t.set_position(year=1, phase=2, players=[{"buildings": ["inn", "market"]}, {}],
                   season={"dice": [[4, 5, 1], [3]], "white": [[], [4]]})
    nine = {pl["advisor"] for pl in legal_placements(t.state, ANN)
            if sorted(pl["values"]) == [4, 5]}
    assert nine == {8, 9, 10}
    t.do({"type": "influence", "advisor": 10, "values": [4, 5], "market": 1}, ANN)
    # Brian: the white 4 alone is illegal, 3+4 on #7 and the 3 alone on #3 are legal
    brian = legal_placements(t.state, BRIAN)
    assert {(pl["advisor"], tuple(pl["values"])) for pl in brian} == {(3, (3,)), (7, (3, 4))}
    t.no({"type": "influence", "advisor": 4, "values": [4], "white": [4]}, BRIAN,
         "white_alone")
    t.do({"type": "influence", "advisor": 7, "values": [3, 4], "white": [4]}, BRIAN)
    # a second ±1 in the same season is illegal
    t.no({"type": "influence", "advisor": 2, "values": [1], "market": 1}, ANN, "market_used")


def test_example_7_build_order_and_the_crane():
    t = Table(4)
    t.set_position(year=1, phase=2, players=[
        {"gold": 5, "stone": 3, "buildings": ["statue"]}, {}, {}, {}])
    from companion.games.kingsburg.core import buildable
    afford = {b["building"] for b in buildable(t.state, ANN) if b["affordable"]}
    assert afford == {"chapel", "guard_tower"}
    assert "church" not in {b["building"] for b in buildable(t.state, ANN)}
    p = dict(t.p(ANN), buildings=["statue", "chapel", "barricade", "crane"])
    assert cost_of(t.state, p, "church") == {"gold": 2, "wood": 1, "stone": 2}


def battle_table(buildings: list[str], soldiers: int = 2) -> Table:
    t = Table(2, two_player_block=False)
    t.set_position(year=2, phase=8, players=[
        {"soldiers": soldiers, "buildings": buildings, "vp": 10}, {"vp": 10}])
    return t


def test_example_8_battle_palisade_against_zombies():
    t = battle_table(["palisade", "guard_tower"])
    t.do({"type": "reinforce", "value": 1})
    t.do({"type": "reveal_enemy", "card": "2-5"})  # Zombies, 5
    [ann, brian] = t.state["battle"]["results"]
    assert ann == {"seat": ANN, "strength": 6, "outcome": "win"}
    assert t.p(ANN)["vp"] == 11  # +1 VP
    assert brian["outcome"] == "loss" and t.p(BRIAN)["vp"] == 8  # −2 VP
    t = battle_table(["guard_tower"])
    t.do({"type": "reinforce", "value": 1})
    t.do({"type": "reveal_enemy", "card": "2-5"})
    assert t.state["battle"]["results"][ANN]["strength"] == 4
    assert t.state["battle"]["results"][ANN]["outcome"] == "loss"
    t = battle_table(["guard_tower", "palisade", "stable", "stone_wall"], soldiers=0)
    t.do({"type": "reinforce", "value": 1})
    t.do({"type": "reveal_enemy", "card": "2-5"})  # 0 + 1 + 2 + 1 + 1 = 5: the wall wins it
    assert t.state["battle"]["results"][ANN] == {"seat": ANN, "strength": 5, "outcome": "win"}


def test_example_9_recruiting_two_goods_a_soldier_or_one_with_barracks():
    t = Table(2, two_player_block=False)
    t.set_position(year=1, phase=7, players=[{"gold": 3, "wood": 2}, {"gold": 3, "wood": 2}])
    t.no({"type": "recruit", "soldiers": 3, "pay": {"gold": 3, "wood": 2}}, ANN, "wrong_price")
    t.do({"type": "recruit", "soldiers": 2, "pay": {"gold": 3, "wood": 1}}, ANN)
    assert t.p(ANN)["soldiers"] == 2 and t.p(ANN)["wood"] == 1
    t = Table(2, two_player_block=False)
    t.set_position(year=1, phase=7, players=[
        {"gold": 3, "wood": 2, "buildings": ["guard_tower", "blacksmith", "barracks"]}, {}])
    t.do({"type": "recruit", "soldiers": 5, "pay": {"gold": 3, "wood": 2}}, ANN)
    assert t.p(ANN)["soldiers"] == 5


def test_example_10_cathedral_bonus_and_goods_break_a_tie():
    t = Table(2, two_player_block=False)
    cathedral = ["statue", "chapel", "church", "cathedral"]
    t.set_position(year=5, phase=8, players=[
        {"gold": 4, "wood": 3, "buildings": cathedral, "vp": 30, "soldiers": 20},
        {"gold": 9, "vp": 33, "soldiers": 20}])
    t.do({"type": "reinforce", "value": 6})
    t.do({"type": "reveal_enemy", "card": "5-2"})  # both win: +1 VP each
    assert t.state["ended"]
    assert t.p(ANN)["points"]["cathedral"] == 3
    assert [p["vp"] for p in t.state["p"]] == [34, 34]
    assert t.state["p"][ANN]["gold"] == 4  # the goods are not spent (K61 default)
    from companion.games.kingsburg import GAME
    assert GAME.outcome(t.state)["winners"] == [BRIAN]  # 9 goods left against 7
