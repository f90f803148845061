"""The worked examples of rules/huangdi.md section 7, one test each (W1..W3 are walls 0..2;
Ana is seat 0, the player to move)."""

from __future__ import annotations

from companion.games.huangdi import GAME

ANA = 0


def test_example_1_invert_from_the_seed(table):
    t = table().set_wall(0, 8)
    events = t.play("7", 0, invert="hand")
    assert t.wall(0)["top"] == 7 and t.wall(0)["inverts"] == 1
    view = GAME.public_view(t.state)["walls"][0]
    assert view["direction"] == "down" and view["needs"] == 6 and view["inverts"] == 1
    assert events[0]["direction"] == "down" and events[0]["invert"] is True


def test_example_2_invert_with_the_wrong_partner(table):
    t = table().set_wall(0, 8)
    refused = t.no({"type": "play", "card": "9", "wall": 0, "from": "hand", "invert": "hand"},
                   code="wrong_partner")
    assert refused.render() == "With an Invert, wall 1 needs a 7, not a 9."


def test_example_3_no_inversion_at_1(table):
    for card in ("2", "joker", "1", "10"):
        t = table().set_wall(0, 1)
        refused = t.no({"type": "play", "card": card, "wall": 0, "from": "hand",
                        "invert": "hand"}, code="cannot_invert")
        assert refused.render() == "Wall 1 cannot be inverted with 1 on top."


def test_example_4_wild_as_the_partner(table):
    t = table().set_wall(0, 8)
    t.play("joker", 0, invert="hand")
    assert t.wall(0)["top"] == 7 and t.wall(0)["cards"][-1] == "joker"
    assert GAME.public_view(t.state)["walls"][0]["direction"] == "down"


def test_example_5_wild_cannot_be_an_invert(table):
    t = table().set_wall(0, 8)
    refused = t.no({"type": "play", "card": "7", "wall": 0, "from": "hand", "invert": "hand",
                    "invert_card": "joker"}, code="joker_not_invert")
    assert "never for an Invert" in refused.render()
    # and without an Invert, the 7 is no card for an ascending 8
    t.no({"type": "play", "card": "7", "wall": 0, "from": "hand"}, code="wrong_card")


def test_example_6_completion_going_up(table):
    t = table().set_wall(1, 9)
    draw = t.state["draw"]
    events = t.play("10", 1)
    assert t.wall(1) is None
    assert {"type": "wall_completed", "wall": 1, "cards": 10} in events
    assert t.state["draw"] == draw + 10
    assert sum(w is not None for w in t.state["walls"]) == 0


def test_example_7_completion_going_down(table):
    t = table().set_wall(2, 2, down=True)  # 1..3 up, Invert, 2
    draw = t.state["draw"]
    t.play("1", 2)
    assert t.wall(2) is None
    assert t.state["draw"] == draw + 5 + 1  # the cards and the Invert beside them (R11)


def test_example_8_wall_limit(table):
    t = table().set_wall(0, 3).set_wall(1, 5).set_wall(2, 7)
    for wall in range(3):
        t.no({"type": "play", "card": "1", "wall": wall, "from": "hand"}, code="wrong_card")
    t.no({"type": "play", "card": "1", "wall": 3, "from": "hand"}, code="bad_wall")
    t.discard("1")  # the 1 stays in the hand or is discarded
    assert t.state["discards"][ANA][0] == ["1"]


def test_example_9_hand_refill(table):
    t = table()
    t.discard("9")  # Bia's turn
    t.set_hand(ANA, 2)
    draw = t.state["draw"]
    events = t.discard("8")  # Bia ends; Ana's turn starts with 2 cards: she draws 3
    assert t.turn == ANA and t.state["hands"][ANA] == 5 and t.state["draw"] == draw - 3
    assert {"type": "drew", "seat": ANA, "count": 3} in events
    draw = t.state["draw"]
    for card, wall in (("1", 0), ("2", 0), ("3", 0), ("4", 0), ("5", 0)):
        events = t.play(card, wall)
    assert t.state["hands"][ANA] == 5 and t.state["draw"] == draw - 5
    assert {"type": "drew", "seat": ANA, "count": 5} in events
    # the alternative: four played and the fifth discarded: no draw this turn
    t = table()
    for card in ("1", "2", "3", "4"):
        t.play(card, 0)
    draw = t.state["draw"]
    t.discard("9")
    assert t.state["hands"][ANA] == 0 and t.state["draw"] == draw - 5  # Bia drew hers
    t.discard("7")
    assert t.turn == ANA and t.state["hands"][ANA] == 5  # at his next turn he draws 5


def test_example_10_win(table):
    t = table().set_stock(ANA, "4", count=1).set_wall(0, 3)
    events = t.play("4", 0, src="stock")
    assert t.state["stocks"][ANA]["count"] == 0
    assert {"type": "won", "seat": ANA} in events
    assert GAME.outcome(t.state) == {"winners": [ANA], "scores": [1, 0]}
    t.no({"type": "discard", "card": "5", "pile": 0}, code="game_over")  # no discard
