"""Versus against rules/versus.md: setup, V1-V7, the worked examples, E1-E9, the timing."""

from __future__ import annotations

import pytest

from companion.games.base import HOST, Actor
from tests.games.versus.referee import BUTTONS, CAMERA, MS, US, Referee


def tops(r: Referee, *cards: str | None, t0: float = 1000) -> None:
    """Each seat flips the given card (None: skip), 100 ms apart, in seat order."""
    for seat, card in enumerate(cards):
        if card is not None:
            r.flip(seat, card, t0 + 100 * seat)


# -- setup (section 2) -------------------------------------------------------------------
def test_all_versus_cards_are_dealt_one_at_a_time_from_the_dealers_left():
    r = Referee(5)
    assert [s["draw"] for s in r.state["seats"]] == [10, 10, 10, 9, 9]
    assert r.state["dealer"] == 4 and r.state["turn"] == 0
    assert r.state["gem_deck"] == 18 and sorted(r.state["penalty_deck"]) == sorted(
        ["hand_behind_back", "one_eye_closed", "cards_for_everyone", "play_two"]
    )
    r2 = Referee(5, dealer=1)
    assert r2.state["turn"] == 2
    assert [s["draw"] for s in r2.state["seats"]] == [9, 9, 10, 10, 10]


def test_turns_go_clockwise_and_follow_what_the_camera_saw():
    r = Referee(3)
    r.flip(0, "a", 100)
    assert r.state["turn"] == 1
    events = r.flip(2, "b", 200)  # out of turn: noted, and play goes on after seat 2
    assert {"type": "out_of_turn", "seat": 2, "expected": 1} in events
    assert r.state["turn"] == 0
    assert r.seat(2)["draw"] == 15 and r.seat(2)["discard"] == 1


# -- worked examples (section 8) ----------------------------------------------------------
def test_example_1_correct_slap():
    r = Referee(4)
    tops(r, "star", "moon", "star", "sun")
    events = r.slap((1, 2000))
    assert r.verdict()["kind"] == "right" and r.verdict()["winner"] == 1
    assert {"type": "collected", "seat": 1, "cards": 4, "gems": 2} in events
    assert r.state["gem_deck"] == 16 and r.seat(1)["gems"] == 1
    assert r.state["gifts_due"] == [1]
    assert r.fails({"type": "give_gem", "to": 3}, Actor(seat=2)) == "not_your_gift"
    assert r.fails({"type": "give_gem", "to": 1}, Actor(seat=1)) == "bad_recipient"
    r.do({"type": "give_gem", "to": 3}, Actor(seat=1))
    assert [s["gems"] for s in r.state["seats"]] == [0, 1, 0, 1]
    # Every discard pile, B's own too, is under B's draw pile.
    assert [s["discard"] for s in r.state["seats"]] == [0, 0, 0, 0]
    assert [s["draw"] for s in r.state["seats"]] == [11, 15, 11, 11]
    assert not r.state["ended"]


def test_example_2_wrong_slap_draws_the_top_penalty():
    r = Referee(4)
    r.state["penalty_deck"] = ["play_two", "one_eye_closed", "hand_behind_back",
                               "cards_for_everyone"]
    tops(r, "star", "moon", "sun", "cloud")
    events = r.slap((2, 2000))
    assert r.verdict()["kind"] == "wrong" and r.verdict()["wrong"] == [2]
    assert {"type": "penalty", "seat": 2, "penalty": "play_two"} in events
    assert r.seat(2)["penalty"] == "play_two" and r.state["gem_deck"] == 18
    # Jogue duas seguidas: two flips on each of C's turns until the next slap.
    r.flip(0, "moon", 3000)
    r.flip(1, "sun", 3100)
    assert r.state["turn"] == 2 and r.state["flips_left"] == 2
    r.flip(2, "leaf", 3200)
    assert r.state["turn"] == 2
    r.flip(2, "rock", 3300)
    assert r.state["turn"] == 3


def test_example_3_the_next_slap_ends_the_penalty():
    r = Referee(4)
    r.state["penalty_deck"] = ["hand_behind_back", "one_eye_closed", "play_two",
                               "cards_for_everyone"]
    tops(r, "star", "moon", "sun", "cloud")
    r.slap((2, 2000))
    assert r.seat(2)["penalty"] == "hand_behind_back"
    r.flip(0, "sun", 3000)  # Ana's sun matches Chen's sun
    events = r.slap((0, 3500))
    assert r.verdict()["winner"] == 0
    assert {"type": "penalty_ended", "seat": 2, "penalty": "hand_behind_back"} in events
    assert r.seat(2)["penalty"] is None
    assert r.state["penalty_deck"][-1] == "hand_behind_back"  # back to the bottom (V4)


def _down_to_last_card(r: Referee, seat: int) -> None:
    r.do({"type": "correct", "seat": seat, "draw": 1})


def test_example_4_last_card_fica_pra_proxima():
    r = Referee(4)
    _down_to_last_card(r, 3)
    tops(r, "star", "moon", "sun")
    events = r.flip(3, "star", 1300)  # D flips his last card: not out yet
    assert {"type": "last_card", "seat": 3} in events and not r.seat(3)["out"]
    events = r.slap((0, 1600))
    assert {"type": "eliminated", "seat": 3} in events and r.seat(3)["out"]
    # Had D won that slap he would take the piles and go on.
    r2 = Referee(4)
    _down_to_last_card(r2, 3)
    tops(r2, "star", "moon", "sun")
    r2.flip(3, "star", 1300)
    r2.slap((3, 1600))
    assert not r2.seat(3)["out"] and r2.seat(3)["draw"] == 4 and not r2.seat(3)["last_card"]


def test_an_eliminated_player_cannot_slap_or_receive_a_gem():
    r = Referee(4)
    _down_to_last_card(r, 3)
    tops(r, "star", "moon", "sun", "star")
    r.slap((0, 1600))
    assert r.seat(3)["out"]
    assert r.fails({"type": "give_gem", "to": 3}, Actor(seat=0)) == "bad_recipient"
    assert r.fails({"type": "slap", "presses": [{"seat": 3, "t_ns": 2000 * MS}]},
                   BUTTONS) == "not_in_game"


def _example_5() -> tuple[Referee, list[dict]]:
    """Example 5: Chen on his last card; Bruno slaps Ana's and Chen's pair of stars."""
    r = Referee(3)
    _down_to_last_card(r, 2)
    r.flip(0, "star", 1000)
    r.flip(1, "moon", 1100)
    r.flip(2, "star", 1200)
    return r, r.slap((1, 1500))


def test_example_5_the_game_ends_when_two_players_remain():
    r, events = _example_5()
    assert {"type": "eliminated", "seat": 2} in events
    # The gift has one possible recipient: given at once, and the game is over.
    assert {"type": "gem_given", "seat": 1, "receiver": 0} in events
    assert {"type": "game_over"} in events and r.state["ended"]
    assert r.fails({"type": "pile_top", "seat": 0, "card": "x"}, CAMERA) == "game_over"
    r.do({"type": "correct", "seat": 1, "gems": 3})
    assert GAME_outcome(r)["winners"] == [1]


def GAME_outcome(r: Referee) -> dict:
    from companion.games.versus import GAME

    return GAME.outcome(r.state)


def test_example_6_the_game_ends_when_the_gems_run_out():
    r = Referee(4, gems=2)
    tops(r, "star", "moon", "star", "sun")
    events = r.slap((1, 2000))
    # V6: the game ends at once; B still gives his second Gem, and the outcome waits for it
    assert r.state["gem_deck"] == 0 and r.state["ended"] and {"type": "game_over"} in events
    assert GAME_outcome(r) is None
    r.do({"type": "give_gem", "to": 2}, Actor(seat=1))
    assert GAME_outcome(r) == {"winners": [1, 2], "scores": [0, 1, 1, 0], "eliminated": []}


# -- edge cases (section 7) -----------------------------------------------------------------
def test_e1_three_identical_cards_are_still_one_slap():
    r = Referee(4)
    tops(r, "star", "star", "star", "sun")
    r.slap((3, 2000), (0, 2040))
    assert r.verdict()["winner"] == 3 and r.state["gem_deck"] == 16
    assert [e["status"] for e in r.race["order"]] == ["right", "late"]


def test_e2_a_card_on_its_own_twin_does_not_count():
    r = Referee(4)
    r.flip(0, "star", 1000)
    assert r.fails({"type": "pile_top", "seat": 0, "card": "star", "t_ns": 1100 * MS},
                   CAMERA) == "unchanged"
    r.slap((1, 1200))
    assert r.verdict()["kind"] == "wrong"


def test_a_hand_passing_over_a_pile_is_not_a_flip():
    r = Referee(4)
    r.flip(0, "star", 1000)
    r.flip(0, None, 1100)  # a hand covers it
    events = r.flip(0, "star", 1200)
    assert events[0]["flip"] is False
    assert r.seat(0)["draw"] == 11 and r.seat(0)["discard"] == 1


def test_e3_presses_inside_the_tie_window_are_settled_by_the_host():
    r = Referee(4)
    tops(r, "star", "moon", "star", "sun")
    r.slap((1, 2000), (3, 2000.6))  # 600 us apart: inside the 1 ms window
    v = r.verdict()
    assert v["kind"] == "tie" and v["tied"] == [1, 3] and v["winner"] is None
    assert r.state["tie"] == {"race": 1, "seats": [1, 3]}
    assert r.state["gem_deck"] == 18
    assert r.fails({"type": "settle_tie", "winner": 3}, Actor(seat=3)) == "host_only"
    assert r.fails({"type": "settle_tie", "winner": 0}) == "not_tied"
    events = r.do({"type": "settle_tie", "winner": 3})
    assert r.verdict()["winner"] == 3 and r.verdict()["by"] == "host"
    assert r.seat(3)["gems"] == 1 and r.state["tie"] is None
    assert any(e["type"] == "collected" for e in events)


def test_e3_a_reslap_reopens_the_pair():
    r = Referee(4)
    tops(r, "star", "moon", "star", "sun")
    r.slap((1, 2000), (3, 2000.2))
    events = r.do({"type": "settle_tie", "reslap": True})
    assert events[0]["kind"] == "reslap" and events[0]["by"] == "host"
    assert r.state["tie"] is None and r.state["gem_deck"] == 18
    r.slap((3, 2300))  # inside late_ms, but the re-slap is a new race
    assert r.verdict()["winner"] == 3 and r.race["id"] == 2


@pytest.mark.parametrize("rule", ["random", "strict", "reslap"])
def test_tie_rule_options(rule):
    r = Referee(4, tie_rule=rule)
    tops(r, "star", "moon", "star", "sun")
    r.slap((3, 2000.1), (1, 2000))  # seat 1 first by 100 us
    v = r.verdict()
    if rule == "strict":
        assert v["winner"] == 1 and v["resolution"] == "first"
    elif rule == "random":
        assert v["winner"] in (1, 3) and v["resolution"] == "random" and v["tied"] == [1, 3]
    else:
        assert v["winner"] is None and v["resolution"] == "reslap" and v["kind"] == "reslap"
        assert r.race["closed"]


def test_the_order_is_right_at_100_microseconds_and_kept_with_its_gaps():
    r = Referee(4, tie_window_ms=0.05)
    tops(r, "star", "moon", "star", "sun")
    r.slap((2, 2000.1), (0, 2000.2), (1, 2000))
    order = r.race["order"]
    assert [(e["seat"], e["gap_ns"]) for e in order] == [(1, 0), (2, 100 * US), (0, 100 * US)]
    assert r.race["text"] == "Bruno by 100 µs over Chen, Chen by 100 µs over Ana"
    assert r.verdict()["winner"] == 1  # a pair is showing: whoever slaps first is right


def test_e4_the_last_gem_is_taken_without_a_gift_and_ends_the_game():
    r = Referee(4, gems=1)
    tops(r, "star", "moon", "star", "sun")
    events = r.slap((1, 2000))
    assert r.seat(1)["gems"] == 1 and r.state["gifts_due"] == []
    assert {"type": "game_over"} in events


def test_e5_no_penalty_when_all_four_are_in_use():
    r = Referee(6)
    for seat, card in enumerate("abcdef"):
        r.flip(seat, card, 1000 + seat)
    events = r.slap((0, 2000), (1, 2010), (2, 2020), (3, 2030), (4, 2040))
    assert [e["penalty"] for e in events if e["type"] == "penalty"] != []
    assert sum(1 for s in r.state["seats"] if s["penalty"]) == 4
    assert {"type": "no_penalty_left", "seat": 4} in events
    assert r.race["penalties"]["4"] is None


def test_e6_cards_for_everyone_gives_what_he_can_in_turn_order():
    r = Referee(4)
    r.state["penalty_deck"] = ["cards_for_everyone", "play_two", "one_eye_closed",
                               "hand_behind_back"]
    r.do({"type": "correct", "seat": 2, "draw": 2})
    events = r.slap((2, 2000))
    assert [e["receiver"] for e in events if e["type"] == "card_given"] == [3, 0]
    assert [s["draw"] for s in r.state["seats"]] == [13, 12, 0, 13]
    assert r.seat(2)["last_card"]


def test_e9_turn_order_simply_continues_after_a_won_slap():
    r = Referee(4)
    tops(r, "star", "moon", "star")
    assert r.state["turn"] == 3
    r.slap((0, 2000))
    assert r.state["turn"] == 3


# -- judging at the instant of the press -------------------------------------------------------
def test_a_slap_while_the_matching_card_is_being_covered_counts_by_its_timestamp():
    r = Referee(4)
    tops(r, "star", "moon", "star")  # the pair shows from 1200 ms
    r.flip(3, "sun", 1300)
    r.flip(0, "leaf", 1400.0)  # Ana covers her star at 1400 ms: the pair is gone
    # The buttons' race reaches the referee after the camera's report of the cover.
    r.slap((1, 1399.9))
    assert r.verdict()["kind"] == "right" and r.verdict()["winner"] == 1
    assert r.seat(1)["draw"] == 11 + 5  # every pile, the covering leaf included
    r2 = Referee(4)
    tops(r2, "star", "moon", "star")
    r2.flip(3, "sun", 1300)
    r2.flip(0, "leaf", 1400.0)
    r2.slap((1, 1400.1))
    assert r2.verdict()["kind"] == "wrong"


def test_a_camera_report_stamped_before_a_slap_rejudges_it():
    r = Referee(4)
    r.state["penalty_deck"] = ["play_two", "one_eye_closed", "hand_behind_back",
                               "cards_for_everyone"]
    tops(r, "star", "moon", "sun")
    r.slap((1, 1350))  # no pair known yet: wrong, a penalty
    assert r.verdict()["kind"] == "wrong" and r.seat(1)["penalty"] == "play_two"
    events = r.flip(3, "star", 1340)  # ...but Dara's star had landed 10 ms before the press
    assert {"type": "verdict_changed", "race": 1, "cause": "pile_top", "seat": 3,
            "card": "star"} in events
    # the phones say why: Dara's star, reported after the slap; it was a wrong slap
    assert r.race["changed"] == {"cause": "pile_top", "seat": 3, "card": "star", "was": {
        "kind": "wrong", "winner": None, "wrong": [1], "tied": []}}
    r.slap((0, 1400))  # a later press joins the race: the explanation stays
    assert r.race["order"][-1]["status"] == "late" and r.race["changed"]["cause"] == "pile_top"
    assert r.race["winner"] == 1 and r.seat(1)["penalty"] is None
    assert r.state["penalty_deck"][0] == "play_two"
    assert r.seat(1)["gems"] == 1 and r.state["gem_deck"] == 16
    assert [s["discard"] for s in r.state["seats"]] == [0, 0, 0, 0]
    assert r.seat(1)["draw"] == 11 + 4 and r.seat(3)["draw"] == 11


def test_later_presses_join_the_race_and_are_late_not_wrong():
    r = Referee(4)
    tops(r, "star", "moon", "star", "sun")
    r.slap((1, 2000))
    events = r.slap((3, 2180), (0, 2250))
    assert [e["type"] for e in events] == ["race_updated"]  # no second verdict, no buzz
    assert [(e["seat"], e["status"]) for e in r.race["order"]] == [
        (1, "right"), (3, "late"), (0, "late")]
    assert r.race["text"] == "Bruno by 180 ms over Dara, Dara by 70 ms over Ana"
    assert r.state["gem_deck"] == 16
    # After the race, slapping the collected pair the camera still shows is late too.
    r.slap((2, 3000))
    assert r.race["id"] == 2 and r.race["order"][0]["status"] == "late"
    assert r.seat(2)["penalty"] is None
    # Once the winner has picked the piles up and new cards pair up, it is a slap again.
    for seat in range(4):
        r.flip(seat, None, 3500 + seat)
    r.flip(0, "star", 4000)
    r.flip(1, "star", 4100)
    r.slap((2, 4300))
    assert r.verdict()["kind"] == "right" and r.verdict()["winner"] == 2


def test_the_host_overrules_a_right_slap_as_wrong_and_later_flips_are_kept():
    r = Referee(4)
    r.state["penalty_deck"] = ["one_eye_closed", "play_two", "hand_behind_back",
                               "cards_for_everyone"]
    tops(r, "star", "moon", "star", "sun")
    r.slap((1, 2000))
    r.do({"type": "give_gem", "to": 2}, Actor(seat=1))
    r.flip(0, None, 2500)
    r.flip(0, "leaf", 3000)  # play went on before the host looked
    assert r.fails({"type": "overrule", "winner": None, "wrong": [1]}, Actor(seat=0)) == (
        "host_only")
    events = r.do({"type": "overrule", "winner": None, "wrong": [1]})
    v = next(e for e in events if e["type"] == "verdict")
    assert v["kind"] == "wrong" and v["by"] == "host"
    assert r.state["gem_deck"] == 18 and [s["gems"] for s in r.state["seats"]] == [0, 0, 0, 0]
    assert r.seat(1)["penalty"] == "one_eye_closed"
    assert [s["discard"] for s in r.state["seats"]] == [2, 1, 1, 1]
    assert [s["draw"] for s in r.state["seats"]] == [10, 11, 11, 11]
    assert r.race["forced"] == {"winner": None, "wrong": [1]}
    assert r.state["decisions"][-1]["by"] == "host"
    # ...and back again: the host makes Chen the winner.
    r.do({"type": "overrule", "winner": 2})
    assert r.seat(2)["gems"] == 1 and r.seat(1)["penalty"] is None
    assert r.state["gifts_due"] == [2]


def test_only_the_latest_race_can_be_overruled():
    r = Referee(4)
    assert r.fails({"type": "overrule", "winner": 1}) == "nothing_to_overrule"
    tops(r, "star", "moon", "star", "sun")
    r.slap((1, 2000))
    r.slap((2, 5000))
    assert r.fails({"type": "overrule", "race": 1, "winner": 3}) == "nothing_to_overrule"
    assert r.fails({"type": "overrule", "winner": 9}) == "bad_seat"
    assert r.fails({"type": "overrule", "winner": 1, "wrong": [1]}) == "bad_seat"


def test_identical_pictures_are_recognised_by_their_signatures():
    r = Referee(4)
    sig_a = [0.9, 0.1, 0.3, 0.0]
    sig_b = [0.0, 0.8, 0.1, 0.6]
    near_a = [0.88, 0.12, 0.31, 0.01]
    for seat, sig, t in [(0, sig_a, 1000), (1, sig_b, 1100), (2, near_a, 1200)]:
        r.do({"type": "pile_top", "seat": seat, "card": None, "signature": sig,
              "t_ns": t * MS}, CAMERA)
    assert [r.state["piles"][s]["tops"][-1][1] for s in range(3)] == ["#1", "#2", "#1"]
    r.slap((3, 1500))
    assert r.verdict()["winner"] == 3


def test_a_taught_label_names_the_picture_for_later_sightings():
    r = Referee(4)
    r.do({"type": "pile_top", "seat": 0, "card": "owl", "signature": [1.0, 0.0],
          "t_ns": 1000 * MS}, CAMERA)
    r.do({"type": "pile_top", "seat": 1, "card": None, "signature": [0.99, 0.02],
          "t_ns": 1100 * MS}, CAMERA)
    assert r.state["piles"][1]["tops"][-1][1] == "owl"


def test_a_label_that_does_not_look_like_its_known_picture_is_not_believed():
    """A deck taught in part names a picture it was never taught as the taught one it looks
    most like. The game already knows the owl by how it looked; a sighting called owl that
    looks otherwise is known by its signature alone, and makes no pair with the owl."""
    r = Referee(4)
    owl, fox, moon = [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]
    for seat, card, sig, t in [(0, "owl", owl, 1000), (1, "owl", fox, 1100),
                               (2, None, moon, 1200)]:
        r.do({"type": "pile_top", "seat": seat, "card": card, "signature": sig,
              "t_ns": t * MS}, CAMERA)
    assert [r.state["piles"][s]["tops"][-1][1] for s in range(3)] == ["owl", "#1", "#2"]
    r.slap((3, 1500))  # no two tops show one picture
    assert r.verdict()["kind"] == "wrong"
    r.do({"type": "pile_top", "seat": 2, "card": "owl", "signature": [0.99, 0.05, 0.0],
          "t_ns": 2000 * MS}, CAMERA)
    assert r.state["piles"][2]["tops"][-1][1] == "owl"  # (the owl as the game knows it)
    r.do({"type": "pile_top", "seat": 3, "card": None, "signature": [0.02, 0.98, 0.0],
          "t_ns": 2100 * MS}, CAMERA)
    assert r.state["piles"][3]["tops"][-1][1] == "#1"  # (the fox called owl, seen again)


def test_on_card_seen_maps_the_discard_zones():
    from companion.games.versus import GAME

    r = Referee(4)
    assert GAME.on_card_seen(r.state, "discard-2", "owl", 0.9, t_ns=5) == {
        "type": "pile_top", "seat": 2, "card": "owl", "t_ns": 5}
    assert GAME.on_card_seen(r.state, "discard-2", None, 0.0, t_ns=5, signature=(1, 2)) == {
        "type": "pile_top", "seat": 2, "card": None, "signature": [1.0, 2.0], "t_ns": 5}
    assert GAME.on_card_seen(r.state, "discard-9", "owl", 0.9) is None
    assert GAME.on_card_seen(r.state, "gems", "owl", 0.9) is None
    assert GAME.on_presses(r.state, [{"seat": 1, "t_ns": 7}]) == {
        "type": "slap", "presses": [{"seat": 1, "t_ns": 7}]}


def test_a_phone_slaps_only_for_its_own_seat_against_the_current_tops():
    r = Referee(4)
    tops(r, "star", "moon", "star", "sun")
    assert r.fails({"type": "slap", "seat": 2}, Actor(seat=1)) == "not_your_seat"
    assert r.fails({"type": "slap", "presses": [{"seat": 2, "t_ns": 1}]},
                   Actor(seat=1, source="server")) == "not_your_seat"
    assert r.fails({"type": "pile_top", "seat": 2, "card": "x"}, Actor(seat=1)) == (
        "not_your_seat")
    r.do({"type": "slap", "seat": 1}, Actor(seat=1))
    assert r.verdict()["winner"] == 1
    assert r.race["order"][0]["t_ns"] == 1300 * MS + 1


def test_host_corrections_are_checked_and_logged():
    r = Referee(4)
    assert r.fails({"type": "correct", "seat": 1}) == "nothing_to_correct"
    assert r.fails({"type": "correct", "seat": 1, "draw": -1}) == "bad_count"
    assert r.fails({"type": "correct", "seat": 1, "out": "yes"}) == "bad_count"
    assert r.fails({"type": "set_penalty", "seat": 1, "penalty": "dance"}) == "bad_penalty"
    r.do({"type": "set_penalty", "seat": 1, "penalty": "play_two"})
    assert r.seat(1)["penalty"] == "play_two" and "play_two" not in r.state["penalty_deck"]
    r.do({"type": "correct", "gem_deck": 5, "turn": 1})
    assert r.state["gem_deck"] == 5 and r.state["flips_left"] == 2
    assert r.state["decisions"][-1] == {"kind": "corrected", "gem_deck": 5, "turn": 1,
                                        "by": "host"}
    r.do({"type": "end_game"})
    assert r.state["ended"] and GAME_outcome(r)["winners"] == [0, 1, 2, 3]


def test_views_hide_nothing_but_the_undo_point():
    from companion.games.versus import GAME

    r = Referee(4)
    tops(r, "star", "moon", "star", "sun")
    r.slap((1, 2000))
    view = GAME.public_view(r.state)
    assert view["tops"] == [None, None, None, None]  # the piles went under Bruno's draw pile
    assert view["races"][-1]["winner"] == 1 and view["gifts_due"] == [1]
    assert "undo_point" not in GAME.moderator_view(r.state)["state"]
    assert GAME.player_view(r.state, 2) == view
    assert HOST.host


def test_example_7_the_amulet_voids_a_right_slap_once():
    r = Referee(4, amulet=True)
    r.do({"type": "correct", "seat": 0, "gems": 1})  # Ana holds the Amulet, one of the Gems
    r.do({"type": "correct", "seat": 3, "gems": 1})  # Dara has a Gem, but no card in the pair
    r.flip(0, "star", 1000)
    r.flip(1, "moon", 1100)
    r.flip(2, "star", 1200)
    r.slap((1, 1500))
    assert r.fails({"type": "use_amulet", "seat": 1}, Actor(seat=1)) == "no_amulet"
    assert r.fails({"type": "use_amulet", "seat": 3}, Actor(seat=3)) == "not_your_pair"
    assert r.fails({"type": "use_amulet", "seat": 0}, Actor(seat=2)) == "not_your_seat"
    events = r.do({"type": "use_amulet", "seat": 0}, Actor(seat=0))
    assert {"type": "amulet", "seat": 0} in events
    assert next(e for e in events if e["type"] == "verdict")["kind"] == "void"
    # B's slap is void: no Gems, no collection; Ana's star is back under her draw pile.
    assert r.state["gem_deck"] == 18 and r.seat(1)["gems"] == 0
    assert [s["discard"] for s in r.state["seats"]] == [0, 1, 1, 0]
    assert r.seat(0)["draw"] == 12 and r.seat(0)["gems"] == 0
    r.flip(0, "sun", 1800)  # she flips a new one
    r.flip(3, "sun", 1900)
    r.slap((3, 2500))
    assert r.verdict()["winner"] == 3
    assert r.fails({"type": "use_amulet", "seat": 3}, Actor(seat=3)) == "no_amulet"
    assert Referee(4).fails({"type": "use_amulet", "seat": 0}) == "no_amulet"


def test_after_the_amulet_the_voided_pair_is_no_pair_and_the_uncovered_card_no_flip():
    """Ana's star went back under her draw pile: her pile shows the moon it had covered, so a
    slap on Chen's star alone is wrong (not a second right slap on a pair that is gone), and
    the camera seeing her moon again is no flip (her counts stay as the Amulet left them)."""
    r = Referee(3, amulet=True)
    r.do({"type": "correct", "seat": 0, "gems": 1})
    r.flip(0, "moon", 900)
    r.flip(0, "star", 1000)
    r.flip(2, "star", 1200)
    r.slap((1, 1500))
    r.do({"type": "use_amulet", "seat": 0}, Actor(seat=0))
    counts = [(s["draw"], s["discard"]) for s in r.state["seats"]]
    assert counts[0] == (15, 1)  # (16 dealt, two flipped, the star back)
    assert r.fails({"type": "pile_top", "seat": 0, "card": "moon", "t_ns": 1700 * MS},
                   CAMERA) == "unchanged"
    assert [(s["draw"], s["discard"]) for s in r.state["seats"]] == counts
    r.slap((1, 2000))
    assert r.verdict()["kind"] == "wrong" and r.verdict()["wrong"] == [1]


def test_the_end_of_play_two_ends_a_turn_already_flipped_once():
    """A slap ends the penalties (V4): the player under "play two" who has flipped once has
    had the one flip a turn is now, so play goes on; one who has not flipped flips once."""
    r = Referee(3)
    r.do({"type": "set_penalty", "seat": 1, "penalty": "play_two"})
    r.flip(0, "a", 100)
    assert (r.state["turn"], r.state["flips_left"]) == (1, 2)
    r.flip(1, "b", 200)
    assert (r.state["turn"], r.state["flips_left"]) == (1, 1)
    r.slap((2, 300))  # a wrong slap: no pair on the table
    assert r.seat(1)["penalty"] is None
    assert r.state["turn"] == 2
    events = r.flip(2, "c", 400)
    assert not [e for e in events if e["type"] == "out_of_turn"]


def test_every_phone_hears_a_gift():
    """A gift's recipient is its ``receiver``: ``to`` is an event's audience, a list of
    seats, everywhere (a Versus gift with ``to: <seat>`` broke every phone's live stream
    and answered the giver 500 after the gift was saved)."""
    from companion.table import Update
    from web.api import events_for

    _, events = _example_5()
    update = Update(table_id="t", version=1, kind="action", events=events, actor=BUTTONS)
    for seat in (0, 1, 2, None):
        heard = events_for(update, seat, host=False)
        assert {"type": "gem_given", "seat": 1, "receiver": 0} in heard, seat
    assert all(isinstance(e["to"], list) for e in events if "to" in e)


def test_a_hand_over_the_piles_during_a_slap_is_no_empty_pile():
    """A hand covering two piles is reported by the camera as the piles emptied from its
    first frame, late (the zone must stay empty 0.8 s). A slap while it hid the pair was
    judged again as wrong, and stayed wrong when the same cards reappeared: seen again,
    the cards take back the hand's empty sightings and the race is judged on them."""
    r = Referee(4)
    r.state["penalty_deck"] = ["play_two", "one_eye_closed", "hand_behind_back",
                               "cards_for_everyone"]
    tops(r, "moon", "star", "star")
    r.slap((0, 1430))
    assert r.race["winner"] == 0
    events = r.flip(1, None, 1200)  # the hand, reported late: stamped before the press
    assert {"type": "verdict_changed", "race": 1, "cause": "pile_top", "seat": 1,
            "card": None} in events
    r.flip(2, None, 1200)
    assert r.race["winner"] is None and r.seat(0)["penalty"] == "play_two"
    r.flip(1, "star", 2950)  # the hand leaves: the same cards
    events = r.flip(2, "star", 2950)
    assert {"type": "verdict_changed", "race": 1, "cause": "pile_top", "seat": 2,
            "card": "star"} in events
    assert r.race["changed"]["was"]["kind"] == "wrong"
    assert r.race["winner"] == 0 and r.seat(0)["penalty"] is None
    assert r.state["penalty_deck"][0] == "play_two"
    assert [s["discard"] for s in r.state["seats"]] == [0, 0, 0, 0]  # no flip counted
    # the pair the slap collected is shown gone, and is not won a second time
    from companion.games.versus import GAME

    assert GAME.public_view(r.state)["tops"] == [None, None, None, None]
    r.slap((3, 6000))
    assert r.race["winner"] is None and r.race["wrong"] == [3]


def test_a_right_slap_clears_the_piles_it_collected_and_nothing_else_does():
    """V2b: the winner takes every discard pile, so the phones show them empty at once; no
    one has to report "empty". The timelines keep the collected tops (a press on them is
    still late), a card flipped after the slap shows, and a verdict undone shows them again."""
    from companion.games.versus import GAME

    r = Referee(4)
    tops(r, "star", "moon", "sun", "cloud")
    r.slap((2, 1500))  # no pair: wrong, nothing collected
    assert GAME.public_view(r.state)["tops"] == ["star", "moon", "sun", "cloud"]
    r.flip(0, "sun", 2000)
    r.slap((1, 2100), (3, 2100.4))  # a tie: the host has not decided, the piles lie there
    assert GAME.public_view(r.state)["tops"] == ["sun", "moon", "sun", "cloud"]
    r.do({"type": "settle_tie", "winner": 3})
    assert GAME.public_view(r.state)["tops"] == [None, None, None, None]
    r.slap((0, 2300))  # the collected pair is late to slap, not wrong
    assert r.race["order"][0]["status"] == "late" and r.seat(0)["penalty"] is None
    # The next player flips a card with the picture that lay on his pile: a flip, which a
    # phone reports by tapping the picture (no "empty" in between), not "already shows".
    assert r.state["turn"] == 1 and r.seat(1)["draw"] == 11
    events = r.do({"type": "pile_top", "seat": 1, "card": "moon"}, Actor(seat=1))
    assert events[0]["flip"] is True and not any(e["type"] == "out_of_turn" for e in events)
    assert r.seat(1)["draw"] == 10 and r.seat(1)["discard"] == 1
    assert GAME.public_view(r.state)["tops"] == [None, "moon", None, None]
    # the host overrules the slap: nobody collected anything, the old tops show again
    r2 = Referee(4)
    tops(r2, "star", "moon", "star", "sun")
    r2.slap((1, 2000))
    assert GAME.public_view(r2.state)["tops"] == [None, None, None, None]
    r2.do({"type": "overrule", "winner": None, "wrong": []})
    assert GAME.public_view(r2.state)["tops"] == ["star", "moon", "star", "sun"]
    # the camera's empty sightings after the collection are still taken (nothing to refuse)
    r.flip(2, None, 9000)
    assert GAME.public_view(r.state)["tops"][2] is None


def test_a_collected_picture_makes_no_pair_with_a_card_flipped_after_the_slap():
    """Without a camera nobody reports the collected piles empty: a card flipped after a won
    slap with the picture one of them showed is no pair (that card is under the winner's
    draw pile), so a slap on it is wrong, not late; the collected pair itself is late."""
    r = Referee(3)
    tops(r, "star", "star", None)
    r.slap((2, 1500))  # Chen wins: every pile goes under his draw pile
    assert r.race["winner"] == 2
    r.do({"type": "give_gem", "to": 0}, Actor(seat=2))
    r.flip(2, "star", 5000)  # Chen flips a star: Ana's and Bruno's piles are empty
    events = r.slap((0, 5500))
    assert r.race["order"][0]["status"] == "wrong" and r.race["wrong"] == [0]
    assert any(e["type"] == "penalty" and e["seat"] == 0 for e in events)
    # the collected pair itself, while the winner may still be gathering it: late, no
    # penalty; once he has had the time to, it is no pair any more (the phones showed
    # those piles empty all along)
    r2 = Referee(3)
    tops(r2, "star", "star", None)
    r2.slap((2, 1500))
    r2.slap((1, 2500))
    assert r2.race["order"][0]["status"] == "late" and r2.race["wrong"] == []
    r2.slap((0, 1500 + 2000 + 1))
    assert r2.race["order"][0]["status"] == "wrong" and r2.race["wrong"] == [0]


def test_a_card_reported_after_a_later_slap_is_judged_by_the_collection_of_its_time():
    """A flip stamped between two won slaps, reported after the second: the pile it landed
    on had been collected by the first, so it is a new card (a flip), not "unchanged",
    whichever order the reports arrive in."""
    def play(late: bool) -> list[int]:
        r = Referee(5)
        tops(r, "star", "star", None, None, None)
        r.slap((2, 1500))
        r.flip(3, "moon", 5000)
        r.flip(4, "moon", 5100)
        if not late:
            r.flip(0, "star", 5200)
        r.slap((2, 5300))
        if late:
            events = r.flip(0, "star", 5200)
            assert events[0]["flip"] is True
        return [s["draw"] + s["discard"] for s in r.state["seats"]]

    assert play(late=True) == play(late=False)


def test_a_second_wrong_slapper_is_no_changed_verdict():
    """Two players slap at nothing, the second press reaching the table a moment later: both
    slapped wrong, each draws a penalty, and the first one's verdict did not change."""
    r = Referee(3)
    r.state["penalty_deck"] = ["play_two", "one_eye_closed", "hand_behind_back",
                               "cards_for_everyone"]
    tops(r, "star", "moon", "sun")
    r.slap((0, 2000))
    assert r.race["wrong"] == [0]
    events = r.slap((1, 2150))
    assert r.race["wrong"] == [0, 1] and "changed" not in r.race
    assert not any(e["type"] == "verdict_changed" for e in events)
    assert {"type": "penalty", "seat": 1, "penalty": "one_eye_closed"} in events
    assert [s["penalty"] for s in r.state["seats"]] == ["play_two", "one_eye_closed", None]
    # a press stamped before another's but arriving after it deals first: the penalty of
    # the one judged before changes, and that is a changed verdict
    r2 = Referee(3)
    r2.state["penalty_deck"] = ["play_two", "one_eye_closed", "hand_behind_back"]
    tops(r2, "star", "moon", "sun")
    r2.slap((0, 3000))
    r2.slap((2, 3300))
    assert r2.seat(2)["penalty"] == "one_eye_closed"
    events = r2.slap((1, 3200))
    assert r2.seat(2)["penalty"] == "hand_behind_back"
    assert any(e["type"] == "verdict_changed" for e in events)


def test_a_press_that_arrives_late_and_changes_the_verdict_says_so():
    r = Referee(4)
    tops(r, "star", "moon", "star", "sun")
    r.slap((1, 2000))
    assert r.verdict()["winner"] == 1
    events = r.slap((3, 2000.5))  # Dara's press, 0.5 ms later, reaches the table late: a tie
    assert {"type": "verdict_changed", "race": 1, "cause": "press", "seat": 3} in events
    assert r.race["tied"] == [1, 3]
    assert r.race["changed"] == {"cause": "press", "seat": 3, "was": {
        "kind": "right", "winner": 1, "wrong": [], "tied": []}}
