"""Kingsburg through the HTTP API (Flask's test client, a real SQLite log): a table created,
a Spring played from the phones, a game under way typed in by the host, corrections, the
exports and the chart's data, and what a phone may not see."""

from __future__ import annotations

import json

from tests.conftest import join

PIN = {"X-Host-Pin": "2468"}
PLAYERS = ["Ann", "Brian", "Cindy"]


def create(client, **options) -> str:
    options.setdefault("initial_order", "seats")
    res = client.post("/api/tables", json={"game": "kingsburg", "players": PLAYERS,
                                           "pin": "2468", "options": options})
    assert res.status_code == 201, res.json
    return res.json["table"]["id"]


def act(client, tid, action, headers, **extra):
    res = client.post(f"/api/tables/{tid}/actions", json={"action": action, **extra},
                      headers=headers)
    return res


def ok(client, tid, action, headers, **extra):
    res = act(client, tid, action, headers, **extra)
    assert res.status_code == 200, (action, res.json)
    return res.json


def public(client, tid) -> dict:
    return client.get(f"/api/tables/{tid}").json["public"]


def test_a_spring_played_from_the_phones(client):
    tid = create(client)
    phones = [join(client, tid, seat) for seat in range(3)]
    view = public(client, tid)
    assert (view["year"], view["phase_name"]) == (1, "aid")
    assert [c["seat"] for c in view["pending"]] == [0, 1, 2]
    for seat, good in enumerate(["wood", "stone", "gold"]):
        ok(client, tid, {"type": "choose", "goods": [good]}, phones[seat])
    view = public(client, tid)
    assert (view["phase_name"], view["step"]) == ("spring", "roll")
    # rolls come from three phones at once: an older version is still heard in the step
    version = client.get(f"/api/tables/{tid}").json["version"]
    for seat, dice in enumerate([[1, 3, 5], [4, 4, 5], [2, 2, 6]]):
        ok(client, tid, {"type": "roll", "dice": dice}, phones[seat], version=version)
    view = public(client, tid)
    assert view["order"] == [0, 2, 1] and view["step"] == "influence"
    # a bad move: 422, a translated reason, nothing changed
    res = act(client, tid, {"type": "influence", "advisor": 9, "values": [1, 3]}, phones[0])
    assert res.status_code == 422 and res.json["error"]["code"] == "wrong_total"
    res = act(client, tid, {"type": "influence", "advisor": 8, "values": [3, 5]}, phones[1])
    assert res.json["error"]["code"] == "not_your_turn"
    me = client.get(f"/api/tables/{tid}", headers=phones[0]).json["you"]["view"]["me"]
    assert me["can"] == ["influence", "pass"]
    assert any(p["advisor"] == 8 and p["values"] == [3, 5] for p in me["placements"])
    ok(client, tid, {"type": "influence", "advisor": 8, "dice": [1, 2]}, phones[0])
    ok(client, tid, {"type": "influence", "advisor": 4, "values": [2, 2]}, phones[2])
    ok(client, tid, {"type": "influence", "advisor": 13, "values": [4, 4, 5]}, phones[1])
    ok(client, tid, {"type": "influence", "advisor": 1, "values": [1]}, phones[0])
    ok(client, tid, {"type": "influence", "advisor": 6, "values": [6]}, phones[2])
    view = public(client, tid)
    assert view["step"] == "help"
    assert view["pending"] == [{"seat": 2, "kind": "goods", "n": 1, "from": ["wood", "gold"],
                                "why": "advisor", "advisor": 4}]
    ok(client, tid, {"type": "choose", "goods": ["wood"]}, phones[2])
    ok(client, tid, {"type": "choose", "give": "wood"}, phones[2])
    view = public(client, tid)
    assert view["step"] == "build"
    assert [(p["gold"], p["wood"], p["stone"], p["vp"]) for p in view["p"]] == [
        (2, 1, 0, 1), (0, 0, 4, 0), (2, 0, 1, 0)]
    assert {b["building"] for b in view["buildable"][0] if b["affordable"]} == {
        "statue", "inn", "barricade"}
    ok(client, tid, {"type": "build", "building": "statue"}, phones[0])
    ok(client, tid, {"type": "done"}, phones[2])
    view = public(client, tid)
    assert (view["phase_name"], view["step"]) == ("summer", "roll")
    assert view["p"][0]["buildings"] == ["statue"] and view["p"][0]["vp"] == 1 + 3 + 1
    assert view["breakdown"][0] == {"advisors": 1, "buildings": 3, "kings_reward": 1}
    assert [line[-1] for line in view["series"]] == [5, 0, 0]
    # the host undoes the last move
    assert client.post(f"/api/tables/{tid}/undo", headers=PIN).status_code == 200
    assert public(client, tid)["step"] == "build"


def test_the_host_starts_from_a_position_and_corrects_it(client):
    tid = create(client)
    ann = join(client, tid, 0)
    position = {"type": "position", "year": 3, "phase": 6, "order": [2, 0, 1], "envoy": 1,
                "players": [{"gold": 2, "vp": 11, "buildings": ["statue", "chapel"]},
                            {"wood": 1, "vp": 4, "plus2": 1},
                            {"stone": 3, "vp": 8, "buildings": ["guard_tower"]}],
                "season": {"dice": [[6], [1, 2], [4]], "advisors": {"8": [0], "3": [2]},
                           "turn": 1}}
    res = act(client, tid, position, ann)
    assert res.status_code == 403 or res.json["error"]["code"] == "host_only"
    ok(client, tid, position, PIN)
    view = public(client, tid)
    assert (view["year"], view["phase_name"], view["step"]) == (3, "autumn", "influence")
    assert view["season"]["turn"] == 1 and view["envoy"] == 1
    assert [p["vp"] for p in view["p"]] == [11, 4, 8]
    ok(client, tid, {"type": "correct", "seat": 0, "gold": 5, "vp": 12}, PIN)
    view = public(client, tid)
    assert view["p"][0]["gold"] == 5 and view["breakdown"][0] == {"start": 11,
                                                                   "corrections": 1}
    res = act(client, tid, {"type": "correct", "seat": 0, "gold": -1}, PIN)
    assert res.status_code == 422 and res.json["error"]["code"] == "bad_count"
    # the host plays for the player to move: Brian and the Envoy on #3
    ok(client, tid, {"type": "influence", "advisor": 3, "values": [1, 2]}, PIN)
    assert public(client, tid)["envoy"] is None


def test_the_score_sheet_exports_and_the_host_reads_the_enemy_deck(client):
    tid = create(client, enemy_cards="app")
    ok(client, tid, {"type": "position", "year": 1, "phase": 3, "players": [
        {"buildings": ["statue"], "vp": 3}, {}, {}]}, PIN)
    csv_text = client.get(f"/api/tables/{tid}/export.csv").data.decode("utf-8-sig")
    lines = csv_text.splitlines()
    assert lines[0] == "year,phase,Ann,Brian,Cindy" and lines[-1] == "1,reward,4,0,0"
    data = json.loads(client.get(f"/api/tables/{tid}/export.json").data)
    assert data["score_sheet"]["breakdown"][0]["kings_reward"] == 1
    anns = client.get(f"/api/tables/{tid}", headers=join(client, tid, 0)).json
    assert "enemies" not in anns["you"]["view"] and "peek" not in anns["you"]["view"]["me"]
    assert "host" not in anns
    host = client.get(f"/api/tables/{tid}", headers=PIN).json
    assert len(host["host"]["enemies"]) == 5


def test_the_openapi_document_has_every_kingsburg_action_with_an_example(client):
    doc = json.dumps(client.get("/api/openapi.json").json)
    for kind in ("roll", "roll_neutral", "reroll", "keep", "influence", "pass", "choose",
                 "build", "done", "recruit", "reinforce", "reveal_enemy", "position",
                 "correct", "propose_roll", "confirm_roll"):
        assert f'"type": "{kind}"' in doc, kind


def test_a_whole_game_through_the_api_agrees_with_the_rules(client):
    """Five years of random legal moves sent through the API (the host acting for each seat):
    after every tenth move and at the end, the table's view is the rules' own view of the
    same moves, and the score sheet has a row a phase."""
    import random

    from companion.games.base import HOST, Context
    from companion.games.kingsburg import GAME
    from tests.games.kingsburg.conftest import random_action

    tid = create(client)
    state = GAME.setup(PLAYERS, {"initial_order": "seats"}, random.Random(0))
    rnd = random.Random(11)
    moves = 0
    while not state["ended"]:
        action, seat = random_action(state, rnd)
        if seat is not None:
            action = {**action, "seat": seat}
        ok(client, tid, action, PIN)
        state = GAME.apply(state, action, Context(HOST, random.Random(0))).state
        moves += 1
        if moves % 10 == 0 or state["ended"]:
            expected = json.loads(json.dumps(GAME.public_view(state)))
            assert public(client, tid) == expected, moves
    csv_text = client.get(f"/api/tables/{tid}/export.csv").data.decode("utf-8-sig")
    assert len(csv_text.splitlines()) == 41
