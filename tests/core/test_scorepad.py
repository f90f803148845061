"""The score pad's rules: rounds, totals, target and round limits, who wins, edits, ending."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.games.base import HOST, Accepted, Actor, Context, Rejection, resolve_options
from companion.games.scorepad import GAME


def start(players=("Ana", "Bruno", "Chen"), **options):
    return GAME.setup(list(players), resolve_options(GAME.options, options), random.Random(0))


SEAT0 = Actor(seat=0)


def act(state, action, actor=SEAT0):
    return GAME.apply(state, action, Context(actor, random.Random(0)))


def test_rounds_add_up_with_negative_scores():
    s = act(start(), {"type": "add_round", "scores": [10, -5, 0]}).state
    s = act(s, {"type": "add_round", "scores": [3, 7, -2]}).state
    view = GAME.public_view(s)
    assert view["totals"] == [13, 2, -2]
    assert view["history"] == [[10, -5, 0], [13, 2, -2]]
    assert GAME.outcome(s) is None


def test_target_ends_the_game_and_highest_wins():
    s = act(start(target=20), {"type": "add_round", "scores": [15, 5, 0]}).state
    res = act(s, {"type": "add_round", "scores": [5, 30, 1]})
    assert isinstance(res, Accepted)
    assert {"type": "game_over"} in res.events
    assert GAME.outcome(res.state) == {"winners": [1], "scores": [20, 35, 1]}


def test_lowest_wins_when_someone_busts_the_target():
    s = act(start(target=100, winner="lowest"), {"type": "add_round", "scores": [40, 101, 10]})
    assert GAME.outcome(s.state) == {"winners": [2], "scores": [40, 101, 10]}


def test_fixed_number_of_rounds_and_shared_win():
    s = start(rounds=2)
    s = act(s, {"type": "add_round", "scores": [1, 2, 3]}).state
    assert GAME.outcome(s) is None
    s = act(s, {"type": "add_round", "scores": [2, 1, 0]}).state
    assert GAME.outcome(s) == {"winners": [0, 1, 2], "scores": [3, 3, 3]}
    res = act(s, {"type": "add_round", "scores": [1, 1, 1]})
    assert isinstance(res, Rejection) and res.code == "game_over"


@pytest.mark.parametrize("scores", [[1, 2], [1, 2, 3, 4], [1, "2", 3], [1.5, 2, 3], [True, 1, 2],
                                    None, "1,2,3", [10**9, 0, 0]])
def test_bad_scores_are_rejected_with_a_reason(scores):
    state = start()
    res = act(state, {"type": "add_round", "scores": scores})
    assert isinstance(res, Rejection) and res.code == "bad_scores"
    assert res.render()  # readable
    assert state == start()  # unchanged


def test_only_the_host_edits_a_past_round_and_the_edit_can_end_the_game():
    s = act(start(target=50), {"type": "add_round", "scores": [10, 20, 30]}).state
    edit = {"type": "edit_round", "round": 0, "scores": [10, 60, 30]}
    assert act(s, edit).code == "host_only"
    res = act(s, edit, HOST)
    assert res.state["rounds"] == [[10, 60, 30]]
    assert GAME.outcome(res.state)["winners"] == [1]
    # correcting the round back re-opens the game: the target was not really reached
    back = act(res.state, {"type": "edit_round", "round": 0, "scores": [10, 20, 30]}, HOST)
    assert GAME.outcome(back.state) is None and {"type": "game_resumed"} in back.events


def test_edit_of_a_missing_round_is_rejected():
    assert act(start(), {"type": "edit_round", "round": 3, "scores": [1, 1, 1]}, HOST).code == \
        "bad_round"


def test_host_ends_the_game_early_and_an_edit_does_not_reopen_it():
    s = act(start(target=100), {"type": "add_round", "scores": [1, 2, 3]}).state
    assert act(s, {"type": "end_game"}).code == "host_only"
    s = act(s, {"type": "end_game"}, HOST).state
    assert GAME.outcome(s) == {"winners": [2], "scores": [1, 2, 3]}
    s = act(s, {"type": "edit_round", "round": 0, "scores": [5, 2, 3]}, HOST).state
    assert GAME.outcome(s)["winners"] == [0]


def test_a_watcher_cannot_enter_scores_and_unknown_actions_are_refused():
    assert act(start(), {"type": "add_round", "scores": [1, 2, 3]}, Actor()).code == "not_seated"
    assert act(start(), {"type": "fly"}).code == "unknown_action"


def test_options_are_checked():
    from companion.games.base import OptionError

    with pytest.raises(OptionError):
        resolve_options(GAME.options, {"winner": "loudest"})
    with pytest.raises(OptionError):
        resolve_options(GAME.options, {"target": "500"})
    with pytest.raises(OptionError):
        resolve_options(GAME.options, {"speed": 3})
    assert resolve_options(GAME.options, {}) == {"target": None, "rounds": None,
                                                 "winner": "highest"}


def test_a_missing_round_is_named_as_the_phones_number_it():
    """The host tapped Edit on round 3, an undo took round 3 away, and Save answered "There
    is no round 2." (the index from 0). The phones number the rounds from 1."""
    s = act(start(), {"type": "add_round", "scores": [1, 2, 3]}).state
    s = act(s, {"type": "add_round", "scores": [4, 5, 6]}).state
    res = act(s, {"type": "edit_round", "round": 2, "scores": [1, 1, 1]}, HOST)
    assert res.code == "bad_round" and res.render() == "There is no round 3."
    res = act(s, {"type": "edit_round", "round": "x", "scores": [1, 1, 1]}, HOST)
    assert res.code == "bad_round" and res.render() == "There is no round x."


def test_a_game_ended_before_any_round_has_no_winner():
    """The host ending a pad with no rounds announced everyone as winners (all tied at 0)."""
    s = act(start(), {"type": "end_game"}, HOST).state
    assert GAME.outcome(s) == {"winners": [], "scores": [0, 0, 0]}
    s = act(act(start(), {"type": "add_round", "scores": [0, 0, 0]}).state, {"type": "end_game"},
            HOST).state
    assert GAME.outcome(s)["winners"] == [0, 1, 2]  # (a round was played: a real tie)


def test_the_score_sheet_gives_its_headings_as_templates_to_translate():
    s = act(start(("Ana", "=1+1")), {"type": "add_round", "scores": [5, -3]}).state
    sheet = GAME.export(s)
    assert sheet["columns"] == ["round", "Ana", "=1+1", "total Ana", "total =1+1"]
    assert sheet["header"] == [["round", {}], "Ana", "=1+1", ["total {name}", {"name": "Ana"}],
                               ["total {name}", {"name": "=1+1"}]]
    assert sheet["rows"] == [[1, 5, -3, 5, -3]]


TARGET = "End when a total reaches this score (none: no target)"


@pytest.mark.parametrize("typed", ["abc", 1.5, "100,5", 0, 10**7, True])
def test_an_option_is_refused_by_its_name_on_the_form_and_what_it_takes(typed):
    """/new sent "abc", 1.5 or "100,5" as the target and heard "Option target has the wrong
    type.": the option's id, and not what it takes. It is named as the form shows it (its
    help, without the full stop), with what to enter; the code stays bad_option."""
    from companion.games.base import OptionError

    with pytest.raises(OptionError) as err:
        resolve_options(GAME.options, {"target": typed})
    rej = err.value.rejection
    assert rej.code == "bad_option"
    assert rej.render() == f"“{TARGET}”: enter a whole number from 1 to 1000000."
    with pytest.raises(OptionError) as err:
        resolve_options(GAME.options, {"winner": "loudest"})
    assert err.value.rejection.code == "bad_option"
    assert err.value.rejection.render() == (
        "“Who wins: the highest or the lowest total”: choose one of highest, lowest.")


def test_an_option_refusal_is_said_in_the_phones_language():
    """The option's name in the message is translated with it (pt-BR had "A opção target tem
    o tipo errado.")."""
    from babel.support import Translations

    from companion.games.base import OptionError

    with pytest.raises(OptionError) as err:
        resolve_options(GAME.options, {"rounds": "abc"})
    rej = err.value.rejection
    root = Path(__file__).resolve().parents[2] / "web" / "translations"
    pt = Translations.load(str(root), ["pt_BR"]).gettext
    zh = Translations.load(str(root), ["zh_Hans"]).gettext
    assert rej.render(pt) == ("“Termina depois deste número de rodadas (nenhum: sem limite)”: "
                              "digite um número inteiro de 1 a 1000.")
    assert rej.render(zh) == "“打满这么多轮后结束（无：不限轮数）”：请输入 1 到 1000 之间的整数。"
    assert rej.params["option"] == "End after this many rounds (none: no limit)."  # (as data)
