"""Dice from the camera, end to end: rendered frames of rolled dice (vision.synth_dice; no
photos of real dice were taken) replayed through the real dice reader and the zone watcher
as the camera runtime sets them up for the table (its roll zone, a whole-set zone), the
camera bridge and a SQLite-backed TableService into a Kingsburg
table. A sure roll is filled in for the player of that colour; a die the reader is unsure of
makes the roll a proposal, confirmed on that player's phone, never applied silently.

Also the hook alone: the camera's (label, confidence) pairs made into a reading."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.games.base import HOST, Actor
from companion.games.kingsburg import GAME
from companion.games.kingsburg.camera import ZONE, on_card_seen, reading_of
from tests.games.kingsburg.conftest import Table

RED, BLUE, GREEN = range(3)
C = GREEN


def as_camera_sends(image):
    return cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1], 1)


def test_rolls_read_from_the_camera_reach_the_table(service, tmp_path):
    pytest.importorskip("cv2")
    from companion.camera import CameraRuntime
    from companion.config import Config
    from vision.dice import DiceReader
    from vision.frame import Frame
    from vision.motion import MotionGate
    from vision.synth_dice import render_dice
    from vision.watcher import ZoneWatcher

    live = service.create_table("kingsburg", ["Ann", "Brian", "Cindy"], "2468",
                                {"initial_order": "seats", "two_player_block": False})
    tid = live.id
    service.submit(tid, {"type": "position", "year": 1, "phase": 2, "order": [0, 1, 2],
                         "players": [{}, {}, {}]}, HOST)
    assert service.get(tid).state["step"] == "roll"
    # the camera as serve runs it, pointed at this table: it watches the game's roll zone
    # with the dice reader, every die there counting (a whole-set zone)
    runtime = CameraRuntime(Config(data_dir=str(tmp_path)), service)
    runtime.bind(tid)
    watcher = ZoneWatcher([], None, runtime.bridge.handle, gate=MotionGate(refresh_ms=0))
    runtime._configure_watcher(watcher)
    assert isinstance(watcher.identifier, DiceReader)
    assert [z.name for z in watcher.zones] == ["roll"] and watcher.whole_sets == {"roll"}
    t_ns = 0

    def show(image, frames: int = 5) -> None:
        nonlocal t_ns
        image = as_camera_sends(image)
        for i in range(frames):
            t_ns += 100_000_000
            watcher.feed(Frame(image, t_ns, t_ns // 100_000_000 + i))

    def season():
        return service.get(tid).state["season"]

    red = [("red", 1), ("red", 3), ("red", 5)]
    show(render_dice(red, seed=1, table="wood")[0])
    assert [d["v"] for d in season()["dice"][RED]] == [1, 3, 5]
    entry = service.history(tid)[-1]
    assert entry["actor"] == {**entry["actor"], "source": "camera", "seat": RED}
    assert entry["body"]["type"] == "roll"
    assert season()["dice"][BLUE] is None

    # Brian and Cindy roll at once, beside Ann's dice still lying there; a speck of light
    # on one of Cindy's dice (something on its face is no pip) makes it unsure: Brian's
    # roll is filled in, hers only proposed, to her phone
    image, drawn = render_dice([*red, ("blue", 2), ("blue", 2), ("blue", 6), ("green", 4),
                                ("green", 6), ("green", 2)], seed=3, table="cloth", glare=0)
    x, y = (round(v) for v in drawn[7].centre)
    cv2.rectangle(image, (x - 1, y - 1), (x, y), (250, 250, 250), -1)
    heard: list[dict] = []
    service.add_listener(lambda update: heard.extend(update.events))
    show(image)
    assert sorted(d["v"] for d in season()["dice"][BLUE]) == [2, 2, 6]
    assert [d["v"] for d in season()["dice"][RED]] == [1, 3, 5]
    state = service.get(tid).state
    assert state["season"]["dice"][GREEN] is None  # nothing applied silently
    proposal = state["proposals"][str(GREEN)]
    assert sorted(proposal["dice"]) == [2, 4, 6] and proposal["white"] == []
    (proposed,) = [e for e in heard if e["type"] == "roll_proposed"]
    assert proposed["seat"] == GREEN and proposed["to"] == [GREEN]
    # she confirms it on her phone: now it is her roll
    service.submit(tid, {"type": "confirm_roll"}, Actor(seat=GREEN))
    assert sorted(d["v"] for d in service.get(tid).state["season"]["dice"][GREEN]) == [2, 4, 6]


def test_a_proposal_may_be_typed_over_on_the_phone():
    t = Table(3, two_player_block=False)
    t.set_position(year=1, phase=2, players=[{}, {}, {}])
    (proposal,) = on_card_seen(t.state, ZONE, None, 0.5, [("green:4", 0.5), ("green:6", 0.99),
                                                          ("green:2", 0.99)])
    t.do(proposal, GREEN)
    # she looks, and types her roll over it: the typed values count
    t.do({"type": "roll", "dice": [3, 6, 2]}, GREEN)
    assert [d["v"] for d in t.season["dice"][GREEN]] == [3, 6, 2]
    assert str(GREEN) not in t.state["proposals"]


def test_each_player_s_roll_is_as_sure_as_his_own_dice():
    """Players roll at once: every roll in view is made, a sure one applied, one with an
    unsure die of his proposed to that player, who confirms it."""
    t = Table(3, two_player_block=False)
    t.set_position(year=1, phase=2, players=[{}, {}, {}])
    cards = (("blue:2", 0.99), ("blue:5", 0.41), ("blue:6", 0.98), ("red:1", 0.99),
             ("red:1", 0.97), ("red:4", 0.99))
    actions = on_card_seen(t.state, ZONE, "blue:2", 0.99, cards)
    assert actions == [
        {"type": "roll", "seat": RED, "dice": [1, 1, 4], "white": []},
        {"type": "propose_roll", "seat": BLUE, "dice": [2, 5, 6], "white": []}]
    for action in actions:
        t.do(action, action["seat"])
    assert [d["v"] for d in t.season["dice"][RED]] == [1, 1, 4]
    assert t.season["dice"][BLUE] is None
    t.do({"type": "confirm_roll"}, BLUE)
    assert [d["v"] for d in t.season["dice"][BLUE]] == [2, 5, 6]


def test_white_dice_of_two_players_in_view_are_left_to_the_phones():
    t = Table(3, two_player_block=False)
    t.set_position(year=1, phase=2, aid_die=C, players=[{}, {}, {}])
    sure = [("red:1", 1.0), ("red:2", 1.0), ("red:3", 1.0), ("green:4", 1.0),
            ("green:5", 1.0), ("green:6", 1.0), ("white:2", 1.0)]
    (roll_a, roll_c) = on_card_seen(t.state, ZONE, None, 1.0, sure)
    assert roll_a["seat"] == RED and roll_c == {"type": "roll", "seat": C,
                                                "dice": [4, 5, 6], "white": [2]}
    t.do(roll_a, RED)
    t.do(roll_c, C)
    # Ann has Farms too: whose is which white die? Nobody can tell: the phones are used
    both = Table(3, two_player_block=False)
    both.set_position(year=1, phase=2, aid_die=C,
                      players=[{"buildings": ["inn", "market", "farms"]}, {}, {}])
    assert both.season["whites"] == [1, 0, 1]
    assert on_card_seen(both.state, ZONE, None, 1.0, [*sure, ("white:5", 1.0)]) is None


def test_the_camera_s_pairs_make_a_reading_and_nonsense_makes_none():
    assert reading_of([("red:1", 0.95), ("white:6", 0.99), (None, 0.0), ("red:9", 1.0),
                       ("pink:2", 1.0), "x", ("red:3",), (5, 5), ("red:2", "high")]) == (
        {"red": [1, 2], "white": [6]}, {"red": 0.0, "white": 0.99})
    t = Table(3, two_player_block=False)
    t.set_position(year=1, phase=2, players=[{}, {}, {}])
    for cards in (None, [], "red:1", [("red:1", 1.0)], {"red": [1, 2, 3]}):
        assert on_card_seen(t.state, ZONE, None, 1.0, cards) is None
    assert on_card_seen(t.state, "elsewhere", "red:1", 1.0,
                        [("red:1", 1.0), ("red:2", 1.0), ("red:3", 1.0)]) is None
    # an unreadable die of the roller leaves his roll short: nothing, the phone types it
    assert on_card_seen(t.state, ZONE, None, 0.0, [("red:1", 1.0), ("red:2", 1.0),
                                                   (None, 0.0)]) is None


def test_two_players_neutral_dice_are_read_from_an_unused_colour():
    t = Table(2)
    t.set_position(year=1, phase=2, players=[{}, {}])
    assert t.season["neutral"] is None
    action = GAME.on_dice_seen(t.state, {"green": [3, 3, 5]}, 0.97)
    assert action == {"type": "roll_neutral", "dice": [3, 3, 5], "seat": 0}
    assert GAME.on_dice_seen(t.state, {"green": [3, 3, 5]}, 0.5) is None  # unsure: typed
    t.do(action, 0)
    assert t.season["neutral"] == [3, 3, 5]
    assert GAME.on_dice_seen(t.state, {"green": [3, 3, 5]}, 0.97) is None


def test_random_camera_sets_never_break_the_hook():
    rng = np.random.default_rng(0)
    t = Table(4, two_player_block=False)
    t.set_position(year=1, phase=2, players=[{}, {}, {}, {}])
    labels = ["red:1", "blue:3", "green:6", "yellow:2", "purple:4", "white:5", None, "?", ""]
    for _ in range(300):
        cards = [(labels[int(rng.integers(len(labels)))], float(rng.random()))
                 for _ in range(int(rng.integers(0, 10)))]
        actions = on_card_seen(t.state, ZONE, None, 0.5, cards) or []
        assert all(a["type"] in ("roll", "propose_roll") for a in actions)
        assert len({a["seat"] for a in actions}) == len(actions)


def test_the_camera_follows_a_kingsburg_table_and_watches_its_roll_zone(service, tmp_path):
    from companion.camera import CameraRuntime
    from companion.config import Config

    runtime = CameraRuntime(Config(camera="replay", data_dir=str(tmp_path)), service)
    service.add_listener(runtime.on_update)  # (as ``companion serve`` wires it)
    live = service.create_table("kingsburg", ["Ann", "Brian"], "2468")
    service.submit(live.id, {"type": "position", "year": 1, "phase": 2, "order": [0, 1],
                             "players": [{}, {}]}, HOST)
    assert runtime.table_id == live.id
    assert runtime.deck_for(live.id) == "dice"
    assert [z["name"] for z in runtime.zones_for(live.id)] == ["roll"]
    assert runtime.unused_zones(live.id, ["roll", "elsewhere"]) == ["elsewhere"]
