"""What a phone may say, presses that arrive late, the end of the game, the penalties on
one's own turn: the tester's cases, each as it was reported."""

from __future__ import annotations

import pytest

from companion import slap
from companion.games.base import HOST, Accepted, Actor, OptionError
from companion.games.versus import GAME
from companion.store import LogEntry
from companion.table import replay
from tests.games.versus.referee import BUTTONS, CAMERA, MS, Referee

PHONE_2 = Actor(seat=2)  # Chen's phone (source "web")
STAMPED_2 = Actor(seat=2, source="server")  # Chen's press, stamped by the server on arrival


def pair(r: Referee) -> None:
    """Ana and Bruno show a pair of stars from 1100 ms."""
    r.flip(0, "star", 1000)
    r.flip(1, "star", 1100)


# -- 1. a phone does not choose its own time --------------------------------------------
def test_a_phone_cannot_choose_when_it_slapped():
    """With his own token Chen sent a slap stamped with the largest time there is, or the
    pair's time + 1 ns, and won every race: a time from a phone is refused."""
    r = Referee(4)
    pair(r)
    for action in ({"type": "slap", "seat": 2, "t_ns": slap.MAX_T_NS},
                   {"type": "slap", "seat": 2, "t_ns": 1100 * MS + 1},
                   {"type": "slap", "presses": [{"seat": 2, "t_ns": 1100 * MS + 1}]},
                   {"type": "pile_top", "seat": 2, "card": "moon", "t_ns": 10**18}):
        assert r.fails(action, PHONE_2) == "untrusted_time", action
        res = r.result(action, PHONE_2)
        assert res.render() == "A phone cannot give its own time: the table stamps it."
    assert r.state["races"] == [] and r.state["t_last"] == 1100 * MS
    # Dara's button, 80 ms after the pair, beats a phone that claimed 1 ns
    r.slap((3, 1180))
    assert r.race["winner"] == 3
    # ...still for his own seat only, whatever he says
    assert r.fails({"type": "slap", "seat": 1}, PHONE_2) == "not_your_seat"


def test_who_may_give_a_time():
    """The buttons, the camera, the host, and a phone's press the server stamped on its
    arrival (source "server", for its own seat only); a phone without a time is stamped
    just after the latest time the table has seen (never past the last nanosecond)."""
    r = Referee(4)
    pair(r)
    r.do({"type": "slap", "presses": [{"seat": 2, "t_ns": 1150 * MS}]}, STAMPED_2)
    assert r.race["winner"] == 2 and r.race["order"][0]["t_ns"] == 1150 * MS
    assert r.fails({"type": "slap", "presses": [{"seat": 1, "t_ns": 1160 * MS}]},
                   STAMPED_2) == "not_your_seat"
    r.do({"type": "pile_top", "seat": 3, "card": "sun", "t_ns": 5000 * MS}, CAMERA)
    r.do({"type": "pile_top", "seat": 0, "card": "moon", "t_ns": 5100 * MS})  # the host
    r.do({"type": "pile_top", "seat": 2, "card": "moon"}, PHONE_2)  # stamped t_last + 1
    assert r.state["piles"][2]["tops"][-1] == [5100 * MS + 1, "moon"]
    r.do({"type": "slap", "seat": 2, "t_ns": None}, PHONE_2)
    assert r.race["order"][0]["t_ns"] == 5100 * MS + 2 and r.race["winner"] == 2
    r2 = Referee(4)
    r2.do({"type": "pile_top", "seat": 0, "card": "star", "t_ns": slap.MAX_T_NS})
    assert r2.fails({"type": "slap", "seat": 2}, PHONE_2) == "bad_time"  # (no overflow)


# -- 2. the winner gathering the piles, seen by the camera ---------------------------------
def test_a_slow_second_slapper_is_late_while_the_winner_gathers_the_piles():
    """Chen wins at 2.0 s; the camera reports Ana's and Bruno's piles empty at 2.2 and
    2.25 s (the winner's hand over them); Dan's slap at 2.3 s is late, as without the
    reports, and draws no penalty. Two seconds after the won slap (GATHER_NS) a slap on the
    empty piles is wrong."""
    def dan_at(t_ms: float, reports: bool) -> Referee:
        r = Referee(4)
        pair(r)
        r.slap((2, 2000))
        if reports:
            r.flip(0, None, 2200)
            r.flip(1, None, 2250)
        r.slap((3, t_ms))
        return r

    for reports in (False, True):
        r = dan_at(2300, reports)
        assert [(e["seat"], e["status"]) for e in r.race["order"]] == [(2, "right"), (3, "late")]
        assert r.race["wrong"] == [] and r.seat(3)["penalty"] is None, reports
        later = dan_at(2000 + 2000 + 1, reports)
        assert later.race["id"] == 2 and later.race["wrong"] == [3], reports
    # the collected star of an emptied pile makes no pair with a star flipped since
    r = Referee(4)
    pair(r)
    r.slap((2, 2000))
    r.flip(0, None, 2200)
    r.flip(1, "moon", 2300)
    r.flip(3, "star", 2400)
    r.slap((0, 2600))
    assert r.race["id"] == 2 and r.race["wrong"] == [0]


# -- 3. a press stamped earlier, arriving after the verdict --------------------------------
def test_a_press_stamped_earlier_that_arrives_later_wins_the_race():
    r = Referee(4)
    pair(r)
    r.slap((2, 2000))
    assert r.race["winner"] == 2
    events = r.slap((3, 1990))  # Dan, 10 ms before Chen, reaches the table after the verdict
    assert r.race["id"] == 1 and r.race["winner"] == 3 and r.race["first_t_ns"] == 1990 * MS
    assert [(e["seat"], e["status"]) for e in r.race["order"]] == [(3, "right"), (2, "late")]
    assert {"type": "verdict_changed", "race": 1, "cause": "press", "seat": 3} in events
    assert r.race["changed"]["was"]["winner"] == 2
    assert r.race["text"] == "Dara by 10 ms over Chen"
    assert [s["gems"] for s in r.state["seats"]] == [0, 0, 0, 1]
    assert r.state["gifts_due"] == [3] and r.seat(3)["draw"] == 12 + 2
    # within the tie window it is a tie; more than late_ms before, a race of its own
    r2 = Referee(4)
    pair(r2)
    r2.slap((2, 2000))
    r2.slap((3, 2000 - 0.5))
    assert r2.race["tied"] == [3, 2] and r2.race["winner"] is None
    r3 = Referee(4)
    pair(r3)
    r3.slap((2, 2000))
    r3.slap((3, 1400))
    assert r3.race["id"] == 2


# -- 4. V6: the game ends at once when the Gem deck is empty --------------------------------
def _last_gems() -> Referee:
    """gems=2, cards=7 (Ana 3, Bruno 2, Chen 2): Chen wins the last two Gems at 1.5 s and has
    not chosen whom the second goes to; Bruno has one card left."""
    r = Referee(3, gems=2, cards=7)
    r.flip(0, "star", 1000)
    r.flip(1, "moon", 1100)
    r.flip(2, "star", 1200)
    r.slap((2, 1500))
    assert r.state["gem_deck"] == 0 and r.state["gifts_due"] == [2]
    assert r.seat(1)["draw"] == 1
    return r


def test_the_game_ends_at_once_when_the_gems_run_out_though_a_gift_is_due():
    r = _last_gems()
    assert r.state["ended"] and any(e["type"] == "game_over" for e in r.events)
    assert GAME.outcome(r.state) is None  # (the gift decides who has the most Gems)
    # play has stopped: Ana's and Bruno's x/x (Bruno's last card) and Ana's slap
    assert r.fails({"type": "pile_top", "seat": 0, "card": "x", "t_ns": 3000 * MS},
                   CAMERA) == "game_over"
    assert r.fails({"type": "pile_top", "seat": 1, "card": "x", "t_ns": 3100 * MS},
                   CAMERA) == "game_over"
    assert r.fails({"type": "slap", "presses": [{"seat": 0, "t_ns": 3200 * MS}]},
                   BUTTONS) == "game_over"
    assert GAME.on_presses(r.state, [{"seat": 0, "t_ns": 3200 * MS}]) is None
    assert not r.seat(1)["out"] and r.seat(1)["draw"] == 1
    # the gift is still given, and then the game has its outcome
    assert r.fails({"type": "give_gem", "to": 1}, Actor(seat=0)) == "not_your_gift"
    r.do({"type": "give_gem", "to": 1}, Actor(seat=2))
    assert GAME.outcome(r.state) == {"winners": [1, 2], "scores": [0, 1, 1], "eliminated": []}
    assert r.fails({"type": "give_gem", "to": 0}, Actor(seat=2)) == "game_over"


def test_after_the_end_the_last_race_is_still_judged():
    """A press of the last race (within late_ms of it) joins it; a camera report stamped
    before its press re-judges it, and the game goes on if the Gems come back."""
    r = _last_gems()
    action = GAME.on_presses(r.state, [{"seat": 0, "t_ns": 1700 * MS}])
    assert action is not None
    events = r.do(action, BUTTONS)
    assert [e["type"] for e in events] == ["race_updated"]
    assert [(e["seat"], e["status"]) for e in r.race["order"]] == [(2, "right"), (0, "late")]
    events = r.flip(0, "leaf", 1400)  # Ana's star was covered before Chen's press
    assert any(e["type"] == "verdict_changed" for e in events)
    assert {"type": "game_resumed"} in events and not r.state["ended"]
    assert r.race["winner"] is None and r.state["gem_deck"] == 2


# -- 5. "Play two in a row" drawn on one's own turn -------------------------------------------
def test_play_two_drawn_on_your_own_turn_gives_two_flips_this_turn():
    r = Referee(3)
    r.state["penalty_deck"] = ["play_two", "one_eye_closed", "hand_behind_back",
                               "cards_for_everyone"]
    assert (r.state["turn"], r.state["flips_left"]) == (0, 1)
    r.slap((0, 500))  # Ana, before flipping, slaps at nothing
    assert r.seat(0)["penalty"] == "play_two"
    assert (r.state["turn"], r.state["flips_left"]) == (0, 2)
    r.flip(0, "a", 1000)
    assert (r.state["turn"], r.state["flips_left"]) == (0, 1)
    r.flip(0, "b", 1100)
    assert r.state["turn"] == 1


def test_the_host_setting_play_two_on_the_players_turn_changes_his_flips():
    r = Referee(3)
    r.do({"type": "set_penalty", "seat": 0, "penalty": "play_two"})
    assert (r.state["turn"], r.state["flips_left"]) == (0, 2)
    r.do({"type": "set_penalty", "seat": 0, "penalty": "one_eye_closed"})
    assert (r.state["turn"], r.state["flips_left"]) == (0, 1)
    r.do({"type": "set_penalty", "seat": 0, "penalty": "play_two"})
    r.flip(0, "a", 1000)
    r.do({"type": "set_penalty", "seat": 0, "penalty": None})  # flipped once: turn over
    assert (r.state["turn"], r.state["flips_left"]) == (1, 1)
    r.do({"type": "set_penalty", "seat": 2, "penalty": "play_two"})  # not his turn yet
    assert (r.state["turn"], r.state["flips_left"]) == (1, 1)


# -- nitpicks ------------------------------------------------------------------------------
def test_a_slap_that_puts_everyone_else_out_leaves_no_gift_hanging():
    """Ana and Bruno on their last cards, Chen wins: both are out, nobody can get the
    second Gem; it goes back to the Gem deck (it was never given)."""
    r = Referee(3)
    r.do({"type": "correct", "seat": 0, "draw": 1})
    r.do({"type": "correct", "seat": 1, "draw": 1})
    pair(r)
    events = r.slap((2, 1500))
    assert r.seat(0)["out"] and r.seat(1)["out"]
    assert r.state["gifts_due"] == [] and r.state["gem_deck"] == 17
    assert {"type": "gem_returned", "seat": 2} in events
    assert GAME.outcome(r.state) == {"winners": [2], "scores": [0, 0, 1], "eliminated": [0, 1]}


@pytest.mark.parametrize(("players", "options"), [
    (3, {"dealer": 7}), (3, {"dealer": 3}), (4, {"cards": 3})])
def test_options_that_do_not_fit_the_table_are_refused(players, options):
    """A dealer past the last seat was taken for "none" without a word; fewer cards than
    players dealt someone no card, who was then never eliminated."""
    with pytest.raises(OptionError) as err:
        Referee(players, **options)
    assert err.value.rejection.code == "bad_option"
    assert err.value.rejection.params["low"] == (4 if "cards" in options else 0)
    r = Referee(4, dealer=3, cards=4)
    assert [s["draw"] for s in r.state["seats"]] == [1, 1, 1, 1]
    assert isinstance(r.result({"type": "end_game"}, HOST), Accepted)


def test_a_phone_s_slaps_logged_with_the_server_s_time_still_replay(service):
    """Before a phone's time was refused, the slap button's presses were logged as the
    phone's ("web") with the time the server gave them: such a log still replays (the
    refusal is asked of a move as it comes, not of the log)."""
    live = service.create_table("versus", ["Ana", "Bruno", "Chen"], "2468", {})
    record, game = live.record, live.game
    log_entries = []
    for seq, (action, actor) in enumerate([
            ({"type": "pile_top", "seat": 0, "card": "star", "t_ns": 1000 * MS}, CAMERA),
            ({"type": "pile_top", "seat": 1, "card": "star", "t_ns": 1100 * MS}, CAMERA),
            ({"type": "slap", "presses": [{"seat": 2, "t_ns": 1150 * MS}]}, PHONE_2)], 1):
        log_entries.append(LogEntry(seq, "action", action, actor.to_json(), 0.0))
    state = replay(record, game, log_entries)
    assert state["races"][-1]["winner"] == 2
