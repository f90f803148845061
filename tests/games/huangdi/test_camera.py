"""Huang Di through the camera: what a stable card in each zone means (``on_card_seen``), and
the camera bridge with a real table service and the narrator: a card landing on a wall is
judged at once, its source told by the pile that changed (or asked on the phone), and a wrong
card is announced to every phone and said by the speaker."""

from __future__ import annotations

import pytest

from companion.camera_bridge import CameraBridge
from companion.events import CardSeen, ZoneCleared
from companion.games.base import HOST
from companion.games.huangdi import GAME
from companion.games.huangdi.camera import zones
from companion.narration import Narrator, SilentBackend

ANA, BIA = 0, 1


def seen(t, zone, label, confidence=0.97, best=None):
    return GAME.on_card_seen(t.state, zone, label, confidence, best=best)


def test_the_zones_walls_and_each_seats_piles_named_after_the_player(table):
    names = [n for n, _r in zones(["Ana", "Bia"])]
    assert names == ["wall-1", "wall-2", "wall-3", "stock-0", "discard-0-1", "discard-0-2",
                     "stock-1", "discard-1-1", "discard-1-2"]
    assert len(zones(["a"] * 6)) == 16  # (a printed marker page)
    players = ["Ana", "Bia"]
    assert [GAME.camera_zone_seat(z, players) for z in ("wall-1", "stock-1", "discard-0-2",
                                                        "discard-2-1", "hand")] == [
        None, 1, 0, None, None]


def test_a_stock_zone_reveals_an_unknown_top(table):
    t = table()
    assert seen(t, "stock-1", "7") == {"type": "reveal_stock", "seat": BIA, "card": "7"}
    assert seen(t, "stock-1", "7", confidence=0.3) is None  # unsure: tapped instead
    t.set_stock(BIA, "7")
    assert seen(t, "stock-1", "7") is None


def test_a_card_on_a_wall_from_the_only_place_that_holds_it(table):
    t = table().set_stock(ANA, "1")
    t.set_hand(ANA, 0)  # (nothing in the hand: the stock's 1)
    action = seen(t, "wall-1", "1")
    assert action == {"type": "play", "card": "1", "wall": 0, "seat": ANA, "from": "stock"}
    t.do(action, ANA, source="camera")
    assert t.state["stocks"][ANA] == {"count": 9, "top": None}


def test_a_wrong_card_on_a_wall_is_played_to_be_refused(table):
    t = table().set_wall(0, 4)
    action = seen(t, "wall-1", "9")
    assert action["card"] == "9" and action["wall"] == 0
    refused = t.no(action, ANA, code="wrong_card", source="camera")
    assert refused.render() == "Wall 1 needs a 5, not a 9."
    # an unsure reading that would not fit is never announced as a wrong play
    assert seen(t, "wall-1", "9", confidence=0.3) is None
    assert seen(t, "wall-1", None, best="9") is None


def test_a_pile_seen_taken_first_tells_the_source(table):
    t = table().set_stock(ANA, "1")
    lifted = seen(t, "stock-0", "6")  # the 1 taken, the 6 turned up under it
    assert lifted == {"type": "lifted", "seat": ANA, "from": "stock", "owner": ANA, "next": "6"}
    t.do(lifted, ANA, source="camera")
    action = seen(t, "wall-1", "1")
    assert action["from"] == "stock" and action["next"] == "6"
    t.do(action, ANA, source="camera")
    assert t.state["stocks"][ANA] == {"count": 9, "top": "6"} and t.wall(0)["top"] == 1


def test_a_face_down_card_where_the_stock_top_lay_means_it_was_taken(table):
    t = table().set_stock(ANA, "1")
    lifted = seen(t, "stock-0", None, confidence=0.2, best="7")  # (the back: no name)
    assert lifted == {"type": "lifted", "seat": ANA, "from": "stock", "owner": ANA}
    t.do(lifted, ANA, source="camera")
    t.do(seen(t, "wall-1", "1"), ANA, source="camera")
    assert t.state["stocks"][ANA] == {"count": 9, "top": None}
    assert seen(t, "stock-0", "6") == {"type": "reveal_stock", "seat": ANA, "card": "6"}


def test_a_top_seen_taken_and_put_back_is_forgotten(table):
    t = table().set_stock(ANA, "1")
    t.do(seen(t, "stock-0", None, confidence=1.0), ANA, source="camera")
    back = seen(t, "stock-0", "1")
    assert back == {"type": "lifted", "seat": ANA, "from": "stock", "owner": ANA, "back": True}
    t.do(back, ANA, source="camera")
    assert t.state["lifted"] == [] and seen(t, "stock-0", "1") is None
    t.no(back, ANA, code="not_lifted", source="camera")
    assert seen(t, "wall-1", "1")["from"] is None  # (the hand, or the stock: asked)


def test_several_places_the_phone_asks_and_the_pile_answers(table):
    t = table().set_stock(ANA, "1")  # a 1 on the stock, and maybe one in the hand
    action = seen(t, "wall-1", "1")
    assert action["from"] is None
    events = t.do(action, ANA, source="camera")
    assert events[0]["type"] == "source_asked" and t.state["pending"]["card"] == "1"
    answer = seen(t, "stock-0", "3")  # then the stock shows its next card
    assert answer == {"type": "source", "seat": ANA, "from": "stock", "owner": ANA, "next": "3"}
    # a card laid meanwhile is refused, and told: it waits for the answer
    meanwhile = seen(t, "wall-2", "1")
    assert t.no(meanwhile, ANA, code="source_pending", source="camera").render() == (
        "Say first where the 1 on wall 1 came from.")
    t.do(answer, ANA, source="camera")
    assert t.wall(0)["top"] == 1 and t.state["stocks"][ANA] == {"count": 9, "top": "3"}


def test_an_invert_partner_on_a_wall_is_a_play_with_an_invert(table):
    t = table().set_wall(0, 8).set_discard(ANA, 0, ["invert"]).set_hand(ANA, 3)
    action = seen(t, "wall-1", "7")  # the Invert: from the pile, or one from the hand?
    assert action["invert"] == "unknown" and action["from"] == "hand"
    lifted = GAME.on_card_seen(t.state, "discard-0-1", None, 1.0, t_ns=1)
    t.do(lifted, ANA, source="camera")  # the pile's Invert was seen taken
    action = seen(t, "wall-1", "7")
    assert action["invert"] == "discard0" and action["invert_owner"] == ANA
    assert action["from"] == "hand"
    t.do(action, ANA, source="camera")
    assert t.wall(0)["inverts"] == 1 and t.state["discards"][ANA][0] == []
    # an Invert seen on a wall zone is no play: its partner tells it
    assert seen(t, "wall-2", "invert") is None


def test_a_discard_zone_of_the_player_to_move_ends_the_turn(table):
    t = table().set_discard(ANA, 1, ["4"])
    assert seen(t, "discard-0-2", "9") == {"type": "discard", "seat": ANA, "card": "9",
                                            "pile": 1}
    assert seen(t, "discard-0-2", "4") is None
    assert seen(t, "discard-1-1", "9") is None  # (not Bia's turn)
    t.set_discard(ANA, 1, ["4", "2"])
    assert seen(t, "discard-0-2", "4")["type"] == "lifted"  # the 2 taken off it


def test_a_cleared_pile_of_one_was_taken(table):
    t = table().set_discard(BIA, 0, ["1"])
    action = GAME.on_card_seen(t.state, "discard-1-1", None, 1.0, t_ns=5)
    assert action == {"type": "lifted", "seat": ANA, "from": "discard0", "owner": BIA}
    t.do(action, ANA, source="camera")
    play = seen(t, "wall-3", "1")
    assert play["from"] == "discard0" and play["owner"] == BIA


# -- through the bridge, with the service and the narrator ----------------------------------
@pytest.fixture
def huangdi(service):
    t = service.create_table("huangdi", ["Ana", "Bia"], "2468")
    for seat, card in ((0, "1"), (1, "5")):
        service.submit(t.id, {"type": "reveal_stock", "seat": seat, "card": card}, HOST)
    return t


def test_the_bridge_judges_a_card_on_a_wall_at_once(service, huangdi):
    bridge = CameraBridge(service, huangdi.id)
    assert bridge.handle(CardSeen("stock-0", "4", 0.97, t_ns=1))["accepted"]  # lifted
    done = bridge.handle(CardSeen("wall-2", "1", 0.97, t_ns=2))
    assert "accepted" in done, done
    pub = service.view(huangdi.id)["public"]
    assert pub["walls"][1]["top"] == 1 and pub["stocks"][0] == {"count": 9, "top": "4"}
    entry = service.history(huangdi.id)[-1]
    assert entry["actor"] == {"seat": 0, "host": False, "source": "camera"}


def test_a_wrong_card_seen_is_announced_and_said_by_the_speaker(service, huangdi):
    backend = SilentBackend()
    narrator = Narrator(backend, "pt_BR")
    service.add_listener(narrator.handle)
    heard = []
    service.subscribe(huangdi.id, heard.append)
    bridge = CameraBridge(service, huangdi.id)
    version = service.get(huangdi.id).version
    done = bridge.handle(CardSeen("wall-1", "3", 0.97, t_ns=1))
    assert done["refused"] == "wrong_card"
    assert service.get(huangdi.id).version == version
    (event,) = heard[-1].events
    assert event["type"] == "refused" and event["card"] == "3"
    assert event["params"] == {"wall": 1, "need": 1, "card": "3"}
    assert event["speak"]["en"] == "Ana, take it back: wall 1 needs a 1, not a 3."
    assert backend.lines == [("Ana, volte a carta: a muralha 1 precisa de um 1, não de um 3.",
                              "pt_BR")]
    # a zone cleared on a wall (a completed wall taken away) is nothing to say
    assert bridge.handle(ZoneCleared("wall-1", t_ns=2)) is None


def test_the_camera_page_names_each_zone(app, client, service, tmp_path):
    """Three zones a seat, each named for people in the phone's language (all three read
    "Ana" before)."""
    from companion.camera import CameraRuntime
    from companion.config import Config

    app.extensions["camera"] = CameraRuntime(Config(data_dir=str(tmp_path)), service)
    tid = service.create_table("huangdi", ["Ana", "Bia"], "2468").id
    labels = client.get(f"/api/tables/{tid}/zones").json["zone_labels"]
    assert labels["wall-2"] == "Wall 2" and labels["stock-1"] == "Bia's stock"
    assert labels["discard-0-2"] == "Ana's pile 2"
    assert len(labels) == 9


def test_the_speaker_says_a_completed_wall_and_the_win(service):
    backend = SilentBackend()
    lines = []
    service.add_listener(Narrator(backend, "en", on_line=lambda tid, line: lines.append(line))
                         .handle)
    t = service.create_table("huangdi", ["Ana", "Bia"], "2468", options={"stock_size": 1})
    for card in map(str, range(1, 10)):
        service.submit(t.id, {"type": "play", "card": card, "from": "hand", "wall": 0}, HOST)
    assert backend.lines == []
    service.submit(t.id, {"type": "play", "card": "10", "from": "hand", "wall": 0}, HOST)
    assert backend.lines == [("Wall 1 is complete. Shuffle it into the draw pile.", "en")]
    assert lines[-1]["texts"]["pt_BR"] == ("A muralha 1 está completa. Embaralhe-a na pilha "
                                           "de compra.")
    service.submit(t.id, {"type": "play", "card": "1", "from": "stock", "wall": 2}, HOST)
    assert backend.lines[-1] == ("Ana has played the last stock card and wins!", "en")


def test_a_joker_on_a_joker_is_seen_again_and_confirmed(table):
    t = table()
    t.play("joker", 0)
    assert seen(t, "wall-1", "joker") is None  # (the same card lying there)
    twin = GAME.on_card_seen(t.state, "wall-1", "joker", 0.99, again=True)
    assert twin["card"] == "joker" and twin["from"] is None  # asked: the player confirms
    t.do(twin, ANA, source="camera")
    t.do({"type": "source", "from": "hand"})
    assert t.wall(0)["top"] == 2
    assert GAME.on_card_seen(t.state, "stock-0", "3", 0.99, again=True) is None
