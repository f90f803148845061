"""Dou Di Zhu through the HTTP API (Flask's test client, a real SQLite log): a table made
with POST /api/tables, the seed's example trick played by the players' phones, the views
each phone reads (a tapped-in hand and its hint on its owner's phone only), a refused play
heard by every phone with the speaker's words, and the camera's set of cards through the
bridge (a sure play, an unsure one proposed and confirmed)."""

from __future__ import annotations

from companion.camera_bridge import CameraBridge
from companion.events import CardSeen
from tests.conftest import join

PIN = {"X-Host-Pin": "2468"}


def new_table(client, **options):
    res = client.post("/api/tables", json={"game": "doudizhu", "players": ["Ana", "Bea", "Cai"],
                                           "pin": "2468", "options": options})
    assert res.status_code == 201, res.json
    return res.json["table"]["id"]


def act(client, tid, action, headers):
    return client.post(f"/api/tables/{tid}/actions", json={"action": action}, headers=headers)


def test_the_seed_trick_over_http_with_views_and_the_hint(client, service):
    tid = new_table(client)
    phones = [join(client, tid, s) for s in range(3)]
    heard = []
    service.add_listener(lambda update: heard.extend(update.events))
    assert act(client, tid, {"type": "bid", "bid": 3}, phones[0]).status_code == 200
    hand = ["3", "3", "4", "5", "6", "7", "8", "9", "9", "J", "Q", "K", "A", "2", "2", "BJ", "RJ"]
    assert act(client, tid, {"type": "set_hand", "cards": hand}, phones[1]).status_code == 200
    for seat, cards in ((0, ["3S", "3H", "3D", "9C"]), (1, None), (2, ["5S", "5H", "5D", "7C"]),
                        (0, ["KS", "KH", "KD", "JC"])):
        action = {"type": "pass"} if cards is None else {"type": "play", "cards": cards}
        res = act(client, tid, action, phones[seat])
        assert res.status_code == 200, res.json
    # Bea's phone: her hand and the plays of it that beat K-K-K-J (only bombs: the rocket)
    bea = client.get(f"/api/tables/{tid}", headers=phones[1]).json
    me = bea["you"]["view"]["me"]
    assert me["hand"] == hand and me["hint"] == [{"cards": ["BJ", "RJ"], "kind": "rocket"}]
    for other in (phones[0], phones[2], {}):
        view = client.get(f"/api/tables/{tid}", headers=other).json
        assert "J', 'Q'" not in str(view) and "'Q', 'K', 'A'" not in str(view)
        assert view.get("you", {}).get("view", {}).get("me", {}).get("hand") is None
    hist = client.get(f"/api/tables/{tid}/history", headers=phones[2]).json["history"]
    assert all("cards" not in e["body"] for e in hist if e["body"].get("type") == "set_hand")
    public = client.get(f"/api/tables/{tid}").json["public"]["hand"]
    assert public["counts"] == [12, 17, 13] and public["last"]["kind"] == "triplet_single"
    # a play the rules refuse: the phone gets the reason, every phone hears the verdict
    res = act(client, tid, {"type": "play", "cards": ["Q", "Q", "Q", "3"]}, phones[1])
    assert res.status_code in (400, 409, 422)
    assert res.json["error"]["code"] == "not_higher"
    assert res.json["error"]["message"] == "Q-Q-Q-3 cannot beat K-K-K-J: the triplet with a " \
        "single must rank higher."
    refused = [e for e in heard if e.get("type") == "refused"]
    assert refused and refused[-1]["code"] == "not_higher" and "to" not in refused[-1]
    assert refused[-1]["speak"]["en"].startswith("Bea, take it back")
    assert refused[-1]["speak"]["zh_Hans"].startswith("Bea，请收回")
    assert act(client, tid, {"type": "play", "cards": ["A", "A", "A", "3"]},
               phones[1]).status_code == 200
    # the translated refusal (pt-BR phone)
    res = client.post(f"/api/tables/{tid}/actions", json={"action": {"type": "play",
                      "cards": ["6", "7", "8", "9"]}},
                      headers={**phones[2], "Accept-Language": "pt-BR"})
    assert res.json["error"]["code"] == "seq_short"


def test_the_openapi_document_lists_the_actions(client):
    doc = client.get("/api/openapi.json").json
    assert "doudizhu" in str(doc) and "set_hand" in str(doc)


def test_the_camera_reads_a_fanned_play_and_asks_about_an_unsure_one(client, service):
    tid = new_table(client, camera_confirm=False)
    phones = [join(client, tid, s) for s in range(3)]
    assert act(client, tid, {"type": "bid", "bid": 3}, phones[0]).status_code == 200
    bridge = CameraBridge(service, tid)
    sure = [("3S", 0.97), ("3H", 0.95), ("3D", 0.91), ("9C", 0.99)]
    bridge.handle(CardSeen("middle", "3S", 0.97, 1, cards=tuple(sure)))
    view = client.get(f"/api/tables/{tid}").json["public"]["hand"]
    assert view["last"]["cards"] == ["3", "3", "3", "9"] and view["current"] == 1
    # the same play still lying there: nothing
    assert bridge.handle(CardSeen("middle", "3S", 0.97, 2, cards=tuple(sure))) is None
    unsure = [("5S", 0.95), ("5H", 0.4), ("5D", 0.93), ("7C", 0.9)]
    bridge.handle(CardSeen("middle", "5S", 0.95, 3, cards=tuple(unsure)))
    view = client.get(f"/api/tables/{tid}").json["public"]["hand"]
    assert view["proposal"] == {"seat": 1, "cards": ["5", "5", "5", "7"], "unsure": ["5"]}
    assert act(client, tid, {"type": "confirm"}, phones[1]).status_code == 200
    view = client.get(f"/api/tables/{tid}").json["public"]["hand"]
    assert view["last"]["seat"] == 1 and view["counts"] == [16, 13, 17]
    # a card found but not named: the bridge hands its best guess over, and the play is
    # proposed whole (not as the pair of the two cards named)
    unnamed = (("8S", 0.99), ("8H", 0.99), (None, 0.5), ("QC", 0.99))
    bridge.handle(CardSeen("middle", "8S", 0.99, 4, cards=unnamed,
                           guesses=(None, None, "8D", None)))
    view = client.get(f"/api/tables/{tid}").json["public"]["hand"]
    assert view["proposal"] == {"seat": 2, "cards": ["8", "8", "8", "Q"], "unsure": ["8"]}
    assert act(client, tid, {"type": "dismiss"}, phones[2]).status_code == 200
    # an illegal play seen by the camera: refused, announced to all with the verdict
    heard = []
    service.add_listener(lambda update: heard.extend(update.events))
    out = bridge.handle(CardSeen("middle", "4S", 0.99, 4, cards=(("4S", 0.99), ("4H", 0.99),
                                                                 ("4D", 0.99), ("8C", 0.99))))
    assert out["refused"] == "not_higher"
    assert heard[-1]["type"] == "refused" and heard[-1]["speak"]["en"] == (
        "Cai, take it back: 4, 4, 4, 8 cannot beat 5, 5, 5, 7.")
