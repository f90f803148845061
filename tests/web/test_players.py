"""Players who last (web/players.py): a name's colour, the import of a players file (names
and colours only, the host's), and each player's results per game read from the tables."""

from __future__ import annotations

import json
import random

import pytest

PIN = {"X-Host-Pin": "2468"}


def _table(client, game, players, actions=(), options=None):
    res = client.post("/api/tables", json={"game": game, "players": players, "pin": "2468",
                                           **({"options": options} if options else {})})
    assert res.status_code == 201, res.json
    tid = res.json["table"]["id"]
    for action in actions:
        out = client.post(f"/api/tables/{tid}/actions", json={"action": action}, headers=PIN)
        assert out.status_code == 200, (action, out.json)
    return tid


def _players(client):
    return {p["key"]: p for p in client.get("/api/players").json["players"]}


def test_a_colour_is_kept_for_every_phone_and_only_from_the_palette(client):
    _table(client, "scorepad", ["Ana", "Bruno"])
    assert client.put("/api/players/ana/colour", json={"colour": "teal"}).status_code == 200
    assert client.get("/api/players/colours").json["colours"] == {"ana": "teal"}
    assert _players(client)["ana"]["colour"] == "teal"
    assert "pc-teal" in client.get("/players").get_data(as_text=True)
    bad = client.put("/api/players/ana/colour", json={"colour": "#ff0000"})
    assert bad.status_code == 400 and bad.json["error"]["code"] == "bad_colour"
    nobody = client.put("/api/players/zoe/colour", json={"colour": "red"})
    assert nobody.status_code == 404
    assert client.put("/api/players/ANA/colour", json={"colour": None}).status_code == 200
    assert client.get("/api/players/colours").json["colours"] == {}


def test_an_import_merges_names_and_colours_never_results(client):
    """A fresh companion asks no PIN; the names join the leaderboard with nothing played,
    whatever results the file claims."""
    file = {"players": [{"name": "Ana", "colour": "red", "played": 99, "won": 99,
                         "tables": [{"id": "x", "won": True}]},
                        {"name": " bruno ", "colour": None}]}
    res = client.post("/api/players/import", json=file)
    assert res.status_code == 200, res.json
    people = _players(client)
    assert set(people) == {"ana", "bruno"}
    assert people["ana"] == {**people["ana"], "name": "Ana", "colour": "red", "played": 0,
                             "won": 0, "tables": []}
    assert people["bruno"]["name"] == "bruno"


def test_an_import_asks_the_latest_tables_pin_and_recolours_nobody(client):
    _table(client, "scorepad", ["Ana", "Bruno"])
    client.put("/api/players/ana/colour", json={"colour": "blue"})
    file = {"players": [{"name": "ANA", "colour": "red"}, {"name": "Bruno", "colour": "green"},
                        {"name": "Chen"}]}
    assert client.post("/api/players/import", json=file).status_code == 403
    wrong = client.post("/api/players/import", json=file, headers={"X-Host-Pin": "1111"})
    assert wrong.status_code == 403 and wrong.json["error"]["code"] == "bad_pin_given"
    assert set(_players(client)) == {"ana", "bruno"}
    res = client.post("/api/players/import", json=file, headers=PIN)
    assert res.status_code == 200, res.json
    people = _players(client)
    assert people["ana"]["colour"] == "blue"  # (kept: an import recolours nobody)
    assert people["bruno"]["colour"] == "green" and "chen" in people


BAD_FILES = [
    (b"not json at all", "bad_json"),
    (b"[1, 2]", "bad_json"),
    (b'{"players": "Ana"}', "bad_players_file"),
    (b'{"leaderboard": []}', "bad_players_file"),
    (b'{"players": [1]}', "bad_player_entry"),
    (b'{"players": [{"colour": "red"}]}', "bad_player_entry"),
    (b'{"players": [{"name": "   "}]}', "bad_player_entry"),
    (b'{"players": [{"name": 7}]}', "bad_player_entry"),
    (json.dumps({"players": [{"name": "x" * 200}]}).encode(), "bad_player_entry"),
    (b'{"players": [{"name": "Ana"}, {"name": "Bo", "colour": "chartreuse"}]}',
     "bad_player_entry"),
    (json.dumps({"players": [{"name": f"P{i}"} for i in range(501)]}).encode(),
     "too_many_players"),
    (b'{"players": [{"name": "\\ud800"}]}', "bad_text"),
    (b'{"players": []}' + b" NaN", "bad_json"),
]


@pytest.mark.parametrize(("raw", "code"), BAD_FILES)
def test_a_bad_players_file_is_refused_in_words_and_changes_nothing(client, raw, code):
    res = client.post("/api/players/import", data=raw, content_type="application/json",
                      headers={"Accept-Language": "pt-BR"})
    assert res.status_code == 400, res.json
    assert res.json["error"]["code"] == code
    assert res.json["error"]["message"]
    assert _players(client) == {}  # (the good entry before a bad one is not kept either)


def test_any_json_as_a_players_file_is_answered_200_or_400(client):
    """A fuzzer: random JSON shaped like a players file, never a 500."""
    rng = random.Random(37)

    def value(depth=0):
        kinds = [None, True, 3, -1.5, "", "Ana", "red", "x" * 50, [], {}]
        if depth < 3:
            kinds += [[value(depth + 1) for _ in range(rng.randint(0, 3))],
                      {rng.choice(["name", "colour", "players", "k"]): value(depth + 1)
                       for _ in range(rng.randint(0, 3))}]
        return rng.choice(kinds)

    for _ in range(300):
        file = {"players": [value() for _ in range(rng.randint(0, 4))]} \
            if rng.random() < 0.7 else value()
        res = client.post("/api/players/import", data=json.dumps(file),
                          content_type="application/json")
        assert res.status_code in (200, 400), (file, res.json)


def test_a_players_page_has_each_games_results_scores_and_werewolf_cards(client):
    """Games finished and won per game, Kingsburg's and UNO's scores oldest first, and the
    Werewolf card each finished game ended with."""
    _table(client, "kingsburg", ["Ana", "Bruno"], [{"type": "end_game"}])
    _table(client, "uno", ["Ana", "Bruno"], [{"type": "end_match"}])
    wolves = ["Ana", "Bruno", "Carla", "Davi", "Eva", "Fabio", "Gil", "Hugo"]
    _table(client, "werewolf", wolves, [
        {"type": "set_roles", "roles": {"werewolf": 2, "seer": 1, "villager": 5}},
        {"type": "assign", "roles": ["werewolf", "werewolf", "seer"] + ["villager"] * 5},
        {"type": "start", "empty_seats": True}, {"type": "end_game"}],
        options={"deal": "host"})
    ana = _players(client)["ana"]
    games = {g["game"]: g for g in ana["games"]}
    assert set(games) == {"kingsburg", "uno", "werewolf"}
    assert games["kingsburg"]["played"] == 1 and len(games["kingsburg"]["scores"]) == 1
    assert games["werewolf"]["roles"] == {"werewolf": {"played": 1, "won": 0}}
    assert _players(client)["carla"]["games"][0]["roles"] == {"seer": {"played": 1, "won": 0}}
    page = client.get("/players/ana", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "Kingsburg" in page and "As werewolf: 0 won of 1" in page
    assert "Scores, oldest first:" in page
