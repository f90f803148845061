"""A Huang Di turn through the HTTP API (the Flask client, real SQLite): the views every phone
reads, tap-to-play, a wrong card heard by the whole table, the page itself."""

from __future__ import annotations

from tests.conftest import join

PIN = {"X-Host-Pin": "2468"}


def _table(client, **options):
    res = client.post("/api/tables", json={"game": "huangdi", "players": ["Ana", "Bia", "Caio"],
                                           "pin": "2468", "options": options})
    assert res.status_code == 201, res.json
    return res.json["table"]["id"]


def act(client, tid, action, headers):
    return client.post(f"/api/tables/{tid}/actions", json={"action": action}, headers=headers)


def test_a_turn_by_taps_through_the_api(client):
    tid = _table(client)
    ana, bia = join(client, tid, 0), join(client, tid, 1)
    for seat, card in ((0, "1"), (1, "5"), (2, "joker")):
        assert act(client, tid, {"type": "reveal_stock", "seat": seat, "card": card},
                   PIN).status_code == 200
    view = client.get(f"/api/tables/{tid}", headers=bia).json["public"]
    assert view["current"] == 0 and view["hands"] == [5, 0, 0]
    assert [w["needs"] for w in view["walls"]] == [1, 1, 1]
    assert [s["top"] for s in view["stocks"]] == ["1", "5", "joker"]
    # Ana: her stock's 1 on wall 1, a 2 from her hand on it, then the Invert + 1 is refused
    assert act(client, tid, {"type": "play", "card": "1", "from": "stock", "wall": 0},
               ana).status_code == 200
    assert act(client, tid, {"type": "reveal_stock", "card": "8"}, ana).status_code == 200
    res = act(client, tid, {"type": "play", "card": "2", "from": "hand", "wall": 0}, ana)
    assert res.status_code == 200 and res.json["events"][0]["type"] == "played"
    res = act(client, tid, {"type": "play", "card": "2", "from": "hand", "wall": 0}, bia)
    assert res.status_code in (403, 409, 422) and res.json["error"]["code"] == "not_your_turn"
    view = client.get(f"/api/tables/{tid}", headers=bia).json["public"]
    wall = view["walls"][0]
    assert (wall["top"], wall["direction"], wall["needs"], wall["invert_with"]) == (2, "up", 3, 1)
    assert view["stocks"][0] == {"count": 9, "top": "8"} and view["hands"][0] == 4
    res = act(client, tid, {"type": "discard", "card": "9", "pile": 1}, ana)
    assert res.status_code == 200
    view = client.get(f"/api/tables/{tid}", headers=ana).json["public"]
    assert view["current"] == 1 and view["discards"][0] == [[], ["9"]]
    assert view["hands"] == [3, 5, 0]
    # Bia builds with Ana's discard top (one card from each opponent a turn)
    res = act(client, tid, {"type": "play", "card": "joker", "from": "hand", "wall": 0}, bia)
    assert res.status_code == 200
    history = client.get(f"/api/tables/{tid}/history", headers=ana).json["history"]
    assert [e["body"]["type"] for e in history][-3:] == ["play", "discard", "play"]


def test_a_wrong_card_is_heard_by_the_whole_table(client, service):
    tid = _table(client)
    ana = join(client, tid, 0)
    heard = []
    service.add_listener(heard.append)  # as the buzzer and the narrator do
    res = client.post(f"/api/tables/{tid}/actions", json={"action": {
        "type": "play", "card": "4", "from": "hand", "wall": 2}},
        headers=ana)
    assert res.status_code == 422 and res.json["error"]["code"] == "wrong_card"
    refused = [e for u in heard if u.kind == "announce" for e in u.events]
    assert refused[-1]["type"] == "refused" and refused[-1]["code"] == "wrong_card"
    assert refused[-1]["params"] == {"wall": 3, "need": 1, "card": "4"}
    assert refused[-1]["message"] and "to" not in refused[-1]  # (every phone reads why)
    assert refused[-1]["speak"]["en"] == "Ana, take it back: wall 3 needs a 1, not a 4."
    assert client.get(f"/api/tables/{tid}").json["version"] == 0
    # a refusal that is no wrong card (a discard pile that does not exist) stays on the phone
    heard.clear()
    res = act(client, tid, {"type": "discard", "card": "4", "pile": 5}, ana)
    assert res.status_code == 422 and not [u for u in heard if u.kind == "announce"]


def test_the_options_of_the_sheet_and_the_openapi_examples(client):
    games = client.get("/api/games").json["games"]
    hd = next(g for g in games if g["id"] == "huangdi")
    opts = {o["name"]: o["default"] for o in hd["options"]}
    assert opts["discard_access"] == "own_plus_one" and opts["reveal_stock"] == "setup"
    assert opts["inverts_back"] is True and opts["stock_size"] == 10
    doc = client.get("/api/openapi.json").json
    assert "huangdi" in str(doc) and "reveal_stock" in str(doc)
    res = client.post("/api/tables", json={"game": "huangdi", "players": ["A", "B"],
                                           "pin": "2468", "options": {"copies": 1, "jokers": 0,
                                                                      "inverts": 0}})
    assert res.status_code == 400 and res.json["error"]["code"] == "bad_option"


def test_the_table_page_loads_the_huangdi_script_and_style(client):
    tid = _table(client)
    html = client.get(f"/t/{tid}").get_data(as_text=True)
    assert "games/huangdi.js" in html and "games/huangdi.css" in html
    with client.get("/static/games/huangdi.js") as res:
        assert res.status_code == 200


def test_the_score_sheet_as_csv(client):
    tid = _table(client, stock_size=1)
    ana = join(client, tid, 0)
    assert act(client, tid, {"type": "play", "card": "1", "from": "stock", "wall": 0},
               ana).status_code == 200
    res = client.get(f"/api/tables/{tid}/export.csv")
    lines = res.get_data(as_text=True).lstrip("\ufeff").splitlines()
    assert lines == ["player,cards left in the stock,score", "Ana,0,1", "Bia,1,0", "Caio,1,0"]
