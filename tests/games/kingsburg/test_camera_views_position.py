"""The camera's hook (a reading becomes a roll, an unsure one a proposal the player
confirms), what each phone sees, the host's position and corrections, the export."""

from __future__ import annotations

from companion.games.kingsburg import GAME
from tests.games.kingsburg.conftest import Table

A, B, C = range(3)


def spring(n=3, **opts) -> Table:
    t = Table(n, two_player_block=False, **opts)
    t.set_position(year=1, phase=2, players=[{} for _ in range(n)])
    return t


def test_a_sure_reading_is_a_roll_for_the_seat_of_that_colour():
    t = spring()
    action = GAME.on_dice_seen(t.state, {"blue": [2, 2, 6]}, 0.97)
    assert action == {"type": "roll", "seat": B, "dice": [2, 2, 6], "white": []}
    t.do(action, B)
    assert GAME.on_dice_seen(t.state, {"blue": [2, 2, 6]}, 0.97) is None  # rolled already


def test_a_white_die_read_goes_to_the_player_who_has_one():
    t = Table(3, two_player_block=False)
    t.set_position(year=1, phase=2, aid_die=C, players=[{}, {}, {}])
    assert GAME.on_dice_seen(t.state, {"green": [1, 2, 3]}) is None  # his white die missing
    assert GAME.on_dice_seen(t.state, {"green": [1, 2, 3], "white": [5]})["white"] == [5]


def test_an_unsure_reading_is_only_proposed_and_confirmed_on_the_phone():
    t = spring()
    action = GAME.on_dice_seen(t.state, {"red": [1, 3, 5]}, 0.5)
    assert action["type"] == "propose_roll"
    t.do(action, None)
    assert t.season["dice"][A] is None
    assert GAME.player_view(t.state, A)["me"]["proposal"] == {"dice": [1, 3, 5], "white": []}
    assert "confirm_roll" in GAME.player_view(t.state, A)["me"]["can"]
    assert GAME.player_view(t.state, B)["me"]["proposal"] is None
    t.no({"type": "confirm_roll"}, B, "no_proposal")
    t.do({"type": "confirm_roll"}, A)
    assert [d["v"] for d in t.season["dice"][A]] == [1, 3, 5]


def test_no_reading_outside_the_roll():
    t = Table(3)
    assert GAME.on_dice_seen(t.state, {"red": [1, 2, 3]}) is None  # the aid's choices


def test_the_player_to_move_sees_his_placements_the_others_do_not():
    t = spring()
    t.roll_all({A: [1, 2, 3], B: [4, 5, 6], C: [6, 6, 6]})
    me = GAME.player_view(t.state, A)["me"]
    assert me["can"] == ["influence", "pass"] and me["placements"]
    assert "placements" not in GAME.player_view(t.state, B)["me"]
    view = GAME.public_view(t.state)
    assert view["phase_name"] == "spring" and view["season"]["turn"] == A
    assert len(view["buildable"]) == 3


def test_the_app_rolls_only_with_its_option():
    t = spring()
    t.no({"type": "roll"}, A, "bad_dice")
    t = spring(app_rolls=True)
    t.do({"type": "roll"}, A)
    assert all(1 <= d["v"] <= 6 for d in t.season["dice"][A])


def test_position_in_the_middle_of_a_season_goes_on_from_there():
    t = Table(3)
    t.do({"type": "position", "year": 3, "phase": 4, "order": [C, A, B], "envoy": B,
          "players": [{"gold": 2, "vp": 11, "buildings": ["statue", "chapel"]},
                      {"wood": 1, "vp": 4, "plus2": 1},
                      {"stone": 3, "vp": 8, "buildings": ["guard_tower"]}],
          "season": {"dice": [[6], [1, 2], [4]], "advisors": {"8": [A], "3": [C]},
                     "passed": [False, False, False], "turn": B}})
    assert (t.state["year"], t.state["phase"], t.state["step"]) == (3, 4, "influence")
    assert t.season["turn"] == B and t.state["envoy"]["seat"] == B
    assert [p["vp"] for p in t.state["p"]] == [11, 4, 8]
    assert t.p(A)["points"]["start"] == 11
    t.do({"type": "influence", "advisor": 3, "values": [1, 2]}, B)  # the Envoy reopens #3
    assert t.state["envoy"]["seat"] is None


def test_a_position_is_the_hosts_and_is_checked():
    t = Table(2)
    t.no({"type": "position", "year": 1, "phase": 2, "players": [{}, {}]}, A, "host_only")
    t.no({"type": "position", "year": 6, "phase": 2, "players": [{}, {}]}, None,
         "bad_position")
    t.no({"type": "position", "year": 1, "phase": 2, "players": [{}]}, None, "bad_position")
    t.no({"type": "position", "year": 1, "phase": 2,
          "players": [{"buildings": ["chapel"]}, {}]}, None, "row_order")
    t.no({"type": "position", "year": 1, "phase": 2, "players": [{"gold": -1}, {}]}, None,
         "bad_count")
    t.no({"type": "position", "year": 1, "phase": 3, "players": [{}, {}],
          "season": {"dice": [[1], [2]]}}, None, "bad_position")


def test_host_corrections_book_points_as_corrections():
    t = spring()
    t.no({"type": "correct", "seat": A, "gold": 4}, A, "host_only")
    t.do({"type": "correct", "seat": A, "gold": 4, "vp": 6, "buildings": ["statue"]})
    assert t.p(A)["gold"] == 4 and t.p(A)["vp"] == 6 and t.p(A)["points"]["corrections"] == 6
    t.do({"type": "correct", "envoy": C, "order": [B, C, A]})
    assert t.state["envoy"]["seat"] == C and t.state["order"] == [B, C, A]
    t.no({"type": "correct", "order": [0, 0, 1]}, None, "bad_order")


def test_the_export_has_a_row_a_phase_and_the_breakdown():
    t = Table(2, two_player_block=False)
    t.set_position(year=1, phase=3, players=[{"buildings": ["statue"], "vp": 3}, {}])
    out = GAME.export(t.state)
    assert out["columns"] == ["year", "phase", "Ann", "Brian"]
    assert out["rows"][-1] == [1, "reward", 4, 0]
    assert out["breakdown"][0]["kings_reward"] == 1 and out["breakdown"][0]["total"] == 4


def test_the_host_ends_the_game():
    t = spring()
    t.do({"type": "end_game"})
    assert t.state["ended"] and GAME.outcome(t.state)["winners"] == [A, B, C]
    t.no({"type": "roll", "dice": [1, 2, 3]}, A, "game_over")


def test_each_phase_is_said_by_the_speaker_in_the_table_s_language():
    from companion.narration import Narrator, SilentBackend

    t = Table(2, two_player_block=False)
    events = t.do({"type": "position", "year": 2, "phase": 3, "players": [{}, {}]})
    lines = [e for e in events if e["type"] == "narrate"]
    assert [e["texts"]["en"] for e in lines] == ["Year 2. The King's Reward.", "Year 2. Summer."]
    assert lines[1]["texts"]["zh_Hans"] == "第2年。夏季。"
    backend = SilentBackend()
    narrator = Narrator(backend, language="pt_BR")

    class Update:
        table_id = None

    Update.events = lines
    narrator.handle(Update)
    assert backend.lines == [("Ano 2. A Recompensa do Rei.", "pt_BR"), ("Ano 2. Verão.", "pt_BR")]


def test_the_host_corrects_an_unconfirmed_rule_during_the_game():
    t = Table(2, two_player_block=False)
    t.set_position(year=1, phase=7, players=[
        {"gold": 1, "wood": 2, "buildings": ["guard_tower", "blacksmith", "barracks"]}, {}])
    t.do({"type": "correct", "options": {"barracks_pay": "gold"}})
    assert t.state["options"]["barracks_pay"] == "gold"
    t.no({"type": "recruit", "soldiers": 3, "pay": {"gold": 1, "wood": 2}}, A, "wrong_price")
    t.no({"type": "correct", "options": {"barracks_pay": "silver"}}, None, "bad_option")
    t.no({"type": "correct", "options": {"enemy_cards": "app"}}, None, "fixed_option")
    t.no({"type": "correct", "options": {"colour": 1}}, None, "unknown_option")
    t.no({"type": "correct", "options": {"barracks_pay": "good"}}, A, "host_only")


def test_a_roll_may_list_the_white_dice_last_and_a_building_its_printed_name():
    t = Table(2, two_player_block=False)
    t.set_position(year=1, phase=2, aid_die=A, players=[{}, {}])
    t.do({"type": "roll", "dice": [2, 2, 2, 6]}, A)
    assert [(d["v"], d["white"]) for d in t.season["dice"][A]] == [
        (2, False), (2, False), (2, False), (6, True)]
    t.no({"type": "roll", "dice": [2, 2, 2, 6]}, B, "bad_dice")  # he has no white die
    t = Table(2, two_player_block=False)
    t.set_position(year=1, phase=2, players=[{"gold": 3, "stone": 3}, {}],
                   season={"dice": [[], []], "passed": [True, True]})
    t.do({"type": "build", "building": "Guard Tower"}, A)
    assert t.p(A)["buildings"] == ["guard_tower"]


def test_moving_on_implies_the_optional_steps_nobody_took():
    # a placement once all have rolled: no more rerolls (the Chapel's owner kept his dice)
    t = Table(2, two_player_block=False)
    t.set_position(year=1, phase=2, players=[{"buildings": ["statue", "chapel"]}, {}])
    t.roll_all({A: [1, 2, 3], B: [4, 5, 6]})
    assert t.state["step"] == "roll" and not t.season["settled"][A]
    t.do({"type": "influence", "advisor": 6, "values": [1, 2, 3]}, A)
    assert t.season["advisors"] == {"6": [A]}
    # the next season's roll: no more buildings
    t = Table(2, two_player_block=False)
    t.set_position(year=1, phase=2, players=[{"gold": 5, "wood": 5}, {"gold": 5}],
                   season={"dice": [[], []], "passed": [True, True]})
    assert t.state["step"] == "build"
    t.do({"type": "roll", "dice": [1, 2, 3]}, A)
    assert (t.state["phase"], t.season["dice"][A][0]["v"]) == (4, 1)
    # the winter's die: no more recruits
    t = Table(2, two_player_block=False)
    t.set_position(year=1, phase=7, players=[{"gold": 4}, {"wood": 2}])
    t.do({"type": "reinforce", "value": 2})
    assert t.state["phase"] == 8 and t.state["battle"]["reinforcement"] == 2
    assert [p["gold"] for p in t.state["p"]] == [4, 0]
    # but a placement before every die is rolled is still refused
    t = Table(2, two_player_block=False)
    t.set_position(year=1, phase=2, players=[{}, {}])
    t.do({"type": "roll", "dice": [1, 2, 3]}, A)
    t.no({"type": "influence", "advisor": 6, "values": [1, 2, 3]}, A, "not_influencing")
