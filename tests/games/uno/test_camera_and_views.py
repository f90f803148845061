"""The camera hook, the house rules, what each view shows, and the table service around it."""

from __future__ import annotations

import pytest

from companion.games.base import HOST, Actor
from companion.games.uno import GAME
from companion.table import TableError


def seen(t, label, confidence=0.95, zone="discard"):
    return GAME.on_card_seen(t.state, zone, label, confidence)


# -- the camera -----------------------------------------------------------------------------


def test_camera_first_card_is_turned_up(table):
    t = table(players=3, first=None)
    action = seen(t, "red-3")
    assert action == {"type": "turn_up", "card": "red-3"}
    t.do(action, None, source="camera")
    assert t.r["top"] == "red-3"


def test_camera_new_top_card_is_the_current_players_play(table):
    t = table(players=3, first="blue-7")
    assert seen(t, "blue-7") is None  # the same top card: nothing new
    action = seen(t, "blue-3")
    assert action == {"type": "play", "card": "blue-3", "seat": 1}
    t.do(action, action["seat"], source="camera")
    assert t.turn == 2


def test_camera_illegal_card_is_refused_and_taken_back(table):
    t = table(players=3, first="blue-7")
    action = seen(t, "red-5")
    refused = t.no(action, action["seat"], code="illegal_card", source="camera")
    assert refused.render() == "red-5 cannot go on blue-7: play blue, a 7, or a wild."
    assert seen(t, "blue-7") is None  # the player took it back


def test_camera_wild_waits_for_the_colour_from_the_phone(table):
    t = table(players=3, first="blue-7")
    action = seen(t, "wild")
    t.do(action, action["seat"], source="camera")
    assert t.r["awaiting"] == {"seat": 1, "card": "wild", "need": ["colour"], "first": False,
                               "colour": None, "target": None, "colour_before": "blue",
                               "stack": 0}
    assert seen(t, "wild") is None and seen(t, "red-2") is None
    t.do({"type": "choose", "colour": "red"}, 1)
    assert seen(t, "red-2") == {"type": "play", "card": "red-2", "seat": 2}


def test_camera_unsure_card_is_proposed_then_confirmed(table):
    t = table(players=3, first="blue-7")
    action = seen(t, "blue-3", confidence=0.5)
    assert action == {"type": "propose", "card": "blue-3", "seat": 1}
    t.do(action, 1, source="camera")
    assert GAME.player_view(t.state, 1)["me"]["can"][:2] == ["confirm", "dismiss"]
    assert seen(t, "blue-3", confidence=0.5) is None
    t.no({"type": "confirm"}, 2, code="not_your_seat")
    t.do({"type": "confirm"}, 1)
    assert t.r["top"] == "blue-3" and t.r["proposal"] is None


def test_camera_twin_of_the_top_card_is_proposed_however_sure(table):
    """The watcher saw the top card covered and then lying elsewhere (``again``): most likely
    its twin played on it, but a straightened pile looks so too, so the player confirms."""
    t = table(players=3, first="blue-7")
    assert GAME.on_card_seen(t.state, "discard", "blue-7", 0.99) is None
    action = GAME.on_card_seen(t.state, "discard", "blue-7", 0.99, again=True)
    assert action == {"type": "propose", "card": "blue-7", "seat": 1}
    assert GAME.on_card_seen(t.state, "discard", "blue-7", 0.99, again="yes") is None
    t.do(action, 1, source="camera")
    assert GAME.on_card_seen(t.state, "discard", "blue-7", 0.99, again=True) is None  # pending
    t.do({"type": "confirm"}, 1)
    assert t.r["top"] == "blue-7" and t.r["discard"][-2:] == ["blue-7", "blue-7"]
    assert t.turn == 2


def test_camera_unsure_card_dismissed(table):
    t = table(players=3, first="blue-7")
    t.do(seen(t, "wild", confidence=0.1), 1, source="camera")
    t.do({"type": "dismiss"}, 1)
    assert t.r["proposal"] is None and t.r["top"] == "blue-7"
    t.no({"type": "dismiss"}, 1, code="no_proposal")


def test_camera_unsure_first_card(table):
    t = table(players=3, first=None)
    t.do(seen(t, "red-3", confidence=0.3), None, source="camera")
    t.do({"type": "confirm"}, 0)
    assert t.r["top"] == "red-3" and t.turn == 1


def test_camera_card_after_a_draw_two_is_the_next_players(table):
    t = table(players=3, first="blue-7")
    t.play("blue-draw2")
    action = seen(t, "blue-1")
    assert action["seat"] == 0
    t.do(action, 0, source="camera")  # seat 2 took his 2 cards without tapping
    assert t.r["counts"] == [6, 6, 9] and t.turn == 1


def test_camera_stacked_draw_two_is_the_victims(table):
    t = table(players=3, first="blue-7", stack_draw2=True)
    t.play("blue-draw2")
    assert seen(t, "red-draw2")["seat"] == 2


def test_camera_ignores_what_is_not_a_card_of_this_deck(table):
    t = table(players=3, first="blue-7")
    assert seen(t, "wild-custom") is None
    assert seen(t, None) is None and seen(t, "AS") is None and seen(t, 7) is None
    assert seen(t, "blue-3", confidence="high") is None
    assert seen(t, "blue-3", zone="elsewhere") is None
    assert seen(t, "blue-3", confidence=float("nan"))["type"] == "propose"


def test_camera_counts_the_hands_left(table):
    t = table(players=3, first="blue-7")
    t.do({"type": "adjust_count", "seat": 1, "count": 1})
    t.do({"type": "adjust_count", "seat": 0, "count": 1})
    t.play("blue-1", 1)
    action = seen(t, "wild", zone="hand")
    assert action == {"type": "count_card", "seat": 0, "card": "wild"}
    t.do(action, None, source="camera")
    assert seen(t, "red-4", zone="hand")["seat"] == 2
    assert seen(t, "red-4", zone="hand", confidence=0.1) is None


def test_camera_counts_a_twin_laid_on_its_double_in_a_hand(table):
    """Counting hands, the same card seen ``again`` (the watcher saw it come to rest
    elsewhere: its twin laid on it) is one more card of the hand being counted; a third
    (the pile pushed aside) is refused, the deck holding two, and ``uncount_card`` takes back
    one counted by mistake."""
    t = table(players=3, first="blue-7")
    t.do({"type": "adjust_count", "seat": 0, "count": 2})
    t.do({"type": "adjust_count", "seat": 2, "count": 2})
    t.do({"type": "adjust_count", "seat": 1, "count": 1})
    t.play("blue-1", 1)
    for again in (False, True):
        action = GAME.on_card_seen(t.state, "hand", "red-4", 0.95, again=again)
        assert action == {"type": "count_card", "seat": 0, "card": "red-4"}
        t.do(action, None, source="camera")
    assert t.r["tally"][0] == ["red-4", "red-4"]
    action = GAME.on_card_seen(t.state, "hand", "red-4", 0.95, again=True)
    assert action == {"type": "count_card", "seat": 2, "card": "red-4"}
    t.no(action, None, code="too_many_copies", source="camera")
    action = GAME.on_card_seen(t.state, "hand", "green-5", 0.95)
    t.do(action, None, source="camera")
    t.do(GAME.on_card_seen(t.state, "hand", "green-5", 0.95, again=True), None, source="camera")
    t.do({"type": "uncount_card", "seat": 2, "card": "green-5"}, None)
    assert t.r["tally"][2] == ["green-5"]


# -- house rules ----------------------------------------------------------------------------


def test_house_rule_seven_swaps_with_a_chosen_player(table):
    t = table(players=3, first="blue-7", seven_zero=True)
    t.do({"type": "adjust_count", "seat": 0, "count": 3})
    t.play("red-7")  # seat 1
    assert t.r["awaiting"]["need"] == ["target"]
    t.do({"type": "choose", "target": 0}, 1)
    assert t.r["counts"] == [6, 3, 7] and t.turn == 2


def test_house_rule_zero_passes_every_hand_on(table):
    t = table(players=3, first="blue-7", seven_zero=True)
    t.do({"type": "adjust_count", "seat": 0, "count": 3})
    t.play("blue-0")  # seat 1: [3, 6, 7] -> each hand to the next player
    assert t.r["counts"] == [7, 3, 6]


def test_house_rule_jump_in_with_an_identical_card(table):
    t = table(players=4, first="blue-7", jump_in=True)
    events = t.play("blue-7", 3)  # seat 1 is to move; seat 3 jumps in
    assert {"type": "jump_in", "seat": 3} in events and t.turn == 0
    t.no({"type": "play", "card": "red-7"}, 2, code="not_your_turn")
    t = table(players=4, first="blue-7")
    t.no({"type": "play", "card": "blue-7"}, 3, code="not_your_turn")


def test_house_rule_draw_until_playable(table):
    t = table(players=3, first="blue-7", draw_until_playable=True)
    t.draw(1)
    t.draw(1, card="blue-2")
    t.play("blue-2", 1)
    assert t.r["counts"][1] == 8


# -- views ----------------------------------------------------------------------------------


def test_public_view_shows_the_table_and_nothing_private(table):
    t = table(players=3, first="blue-7")
    t.draw(1, card="green-7")  # (playable, so he still holds the turn: R6)
    view = GAME.public_view(t.state)
    r = view["round"]
    assert (r["top"], r["colour"], r["turn"], r["direction_name"]) == (
        "blue-7", "blue", 1, "clockwise")
    assert r["counts"] == [7, 8, 7] and r["draw_pile"] == 86 and r["drawn"] == 1
    assert "green-7" not in str(view)
    assert GAME.player_view(t.state, 1)["me"]["drawn_card"] == "green-7"
    assert GAME.player_view(t.state, 0)["me"]["drawn_card"] is None
    assert "green-7" not in str(GAME.player_view(t.state, 0))
    entry = {"kind": "action", "body": {"type": "draw", "card": "green-7"},
             "actor": {"seat": 1}}
    assert GAME.history_view(t.state, entry, 0)["body"] == {"type": "draw"}
    assert GAME.history_view(t.state, entry, None)["body"] == {"type": "draw"}
    assert GAME.history_view(t.state, entry, 1) == entry


def test_player_view_says_what_the_phone_may_do(table):
    t = table(players=3, first="blue-7")
    assert GAME.player_view(t.state, 1)["me"]["can"] == ["play", "draw"]
    assert GAME.player_view(t.state, 2)["me"]["can"] == []
    t.play("wild-draw4", colour="red")
    assert GAME.player_view(t.state, 2)["me"]["can"] == ["challenge", "draw"]
    assert GAME.player_view(t.state, 0)["me"]["can"] == ["play", "draw"]
    t.do({"type": "challenge"}, 2)
    assert GAME.player_view(t.state, 1)["me"]["can"] == ["show_hand", "verdict"]


# -- the table service around the rules -----------------------------------------------------


def test_with_the_table_service_replay_and_undo(service, store, clock):
    live = service.create_table("uno", ["Ana", "Bea", "Cai"], "1234", seed=7)
    tid = live.id
    service.submit(tid, {"type": "set_dealer", "dealer": 0}, HOST)
    service.submit(tid, {"type": "turn_up", "card": "blue-7"}, Actor(source="camera"))
    service.submit(tid, {"type": "play", "card": "blue-3"}, Actor(seat=1, source="camera"))
    with pytest.raises(TableError) as err:
        service.submit(tid, {"type": "play", "card": "red-5"}, Actor(seat=2))
    assert err.value.rejection.code == "illegal_card"
    service.submit(tid, {"type": "draw", "card": "red-3"}, Actor(seat=2))
    view = service.view(tid, seat=2)
    assert view["you"]["view"]["me"]["drawn_card"] == "red-3"
    assert "red-3" not in str(service.view(tid, seat=0))
    history = service.history(tid, seat=0)
    assert history[-1]["body"] == {"type": "draw"}
    service.undo(tid)
    assert service.view(tid)["public"]["round"]["counts"] == [7, 6, 7]
    from companion.table import TableService

    again = TableService(store, clock).get(tid)  # replayed from the log
    assert again.state == service.get(tid).state


def test_player_view_after_drawing_offers_play_or_pass(table):
    t = table(players=3, first="blue-7")
    t.draw(1)
    assert GAME.player_view(t.state, 1)["me"]["can"] == ["play", "pass"]
    assert GAME.player_view(t.state, 2)["me"]["can"] == ["play", "draw"]  # ends 1's turn
    t = table(players=3, first="blue-7", draw_until_playable=True)
    t.draw(1)
    assert GAME.player_view(t.state, 1)["me"]["can"] == ["play", "draw", "pass"]


def test_camera_card_it_cannot_name_is_asked_about_as_its_best_guess(table):
    """A card on the pile the camera could not name is the player's play all the same: asked
    about as its best guess, never played (dropped without a word, it let the next card
    count as this player's play)."""
    t = table(players=3, first="blue-7")
    action = GAME.on_card_seen(t.state, "discard", None, 0.3, best="blue-reverse")
    assert action == {"type": "propose", "card": "blue-reverse", "seat": 1}
    t.do(action, 1, source="camera")
    t.do({"type": "confirm"}, 1)
    assert t.r["top"] == "blue-reverse" and t.r["direction"] == -1
    assert GAME.on_card_seen(t.state, "discard", None, 0.3) is None  # no guess: nothing
    assert GAME.on_card_seen(t.state, "hand", None, 0.3, best="red-2") is None
