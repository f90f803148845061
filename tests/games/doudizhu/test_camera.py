"""The camera referees Dou Di Zhu plays: drawn fans of real card art (vision.synth_fan; there
are no photos of real Dou Di Zhu plays in ../shared/data) replayed frame by frame through
the real recogniser (corner indices), the zone watcher in its whole-set mode, the bridge and
the table service over SQLite. The seed's example trick is played: each play is read as a
set of ranks, classified and judged; an illegal set is refused and announced to every phone
with the speaker's words (plays counted at once: ``camera_confirm`` off); a card read unsurely
makes a proposal, and by default every play read does.

Also the hook alone (``on_card_seen``): sure and unsure sets, the last play still lying
there, a play laid on top of the last one, and anything that is not a set of cards.
"""

from __future__ import annotations

import random

import cv2
import pytest

from companion.camera_bridge import CameraBridge
from companion.games.base import Actor
from companion.games.doudizhu import GAME
from tests.games.doudizhu.conftest import Table

SEED_TRICK = [  # (seat, cards): seat 0 (A) is the landlord
    (0, ["3S", "3H", "3D", "9C"]),
    (1, None),  # B passes (on his phone)
    (2, ["6S", "7H", "8D", "9S"]),  # C lays a four-card "sequence": refused
    (2, ["5S", "5H", "5D", "7C"]),
    (0, ["KS", "KH", "KD", "JC"]),
    (1, ["AS", "AH", "AD", "3C"]),
    (2, None), (0, None),  # two passes: B leads again
    (1, ["4D"]),
]


def frames_of(labels: list[str]):
    """A fan of these cards as the camera sends it (JPEG)."""
    from vision.synth_fan import render_fan

    scene = render_fan(labels, seed=0, kind="fan", table="cloth", glare=False)
    return cv2.imdecode(cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1], 1)


@pytest.fixture(scope="module")
def identifier():
    pytest.importorskip("cv2")
    from vision.identify import Identifier

    return Identifier("french")


def test_the_seed_trick_read_from_fanned_cards(service, identifier):
    from vision.frame import Frame
    from vision.motion import MotionGate
    from vision.watcher import ZoneWatcher
    from vision.zones import Zone

    live = service.create_table("doudizhu", ["A", "B", "C"], "2468",
                                {"camera_confirm": False, "camera_confirm_below": 0.5})
    tid = live.id
    service.submit(tid, {"type": "bid", "bid": 3}, Actor(seat=0))
    bridge = CameraBridge(service, tid)
    heard: list[dict] = []
    service.add_listener(lambda update: heard.extend(update.events))
    watcher = ZoneWatcher([Zone("middle", (0, 0, 1, 1))], identifier, bridge.handle,
                          gate=MotionGate(refresh_ms=0))
    watcher.whole_sets = frozenset(GAME.camera_sets)
    t_ns = 0

    def show(image, frames: int = 6) -> None:
        nonlocal t_ns
        for i in range(frames):
            t_ns += 100_000_000
            watcher.feed(Frame(image, t_ns, t_ns // 100_000_000 + i))

    for seat, cards in SEED_TRICK:
        if cards is None:
            service.submit(tid, {"type": "pass"}, Actor(seat=seat))
            continue
        show(frames_of(cards))
    state = service.get(tid).state
    h = state["hand"]
    camera_plays = [p["cards"] for p in h["plays"]]
    assert camera_plays == [["3", "3", "3", "9"], ["5", "5", "5", "7"], ["K", "K", "K", "J"],
                            ["A", "A", "A", "3"], ["4"]]
    assert [p["seat"] for p in h["plays"]] == [0, 2, 0, 1, 1]
    assert h["counts"] == [12, 12, 13]
    refused = [e for e in heard if e.get("type") == "refused"]
    assert [e["code"] for e in refused] == ["seq_short"]
    assert refused[0]["speak"]["en"] == "C, take it back: a sequence needs at least five cards."
    assert refused[0]["seat"] == 2 and "to" not in refused[0]


def test_an_unsure_card_is_proposed_and_the_player_confirms():
    t = Table(camera_confirm_below=0.9).landlord(0)
    action = GAME.on_card_seen(t.state, "middle", "9S", 0.95,
                               cards=[("9S", 0.95), ("9H", 0.6)])
    assert action == {"type": "propose", "cards": ["9", "9"], "unsure": ["9"], "seat": 0}
    t.do(action, 0, source="camera")
    t.no({"type": "play", "cards": ["3"]}, 0, "proposal_pending")
    t.no({"type": "confirm"}, 1, "not_your_seat")
    t.do({"type": "confirm", "cards": ["9", "9"]}, 0)
    assert t.h["last"]["cards"] == ["9", "9"] and t.h["proposal"] is None


def test_a_proposal_dismissed_changes_nothing_else():
    t = Table().landlord(0)
    t.do({"type": "propose", "cards": ["7S"], "unsure": ["7S"], "seat": 0}, 0, source="camera")
    t.do({"type": "dismiss"}, 0)
    assert t.h["proposal"] is None and t.h["plays"] == [] and t.h["current"] == 0


def test_by_default_every_play_read_is_proposed_to_its_player():
    """``camera_confirm`` (the default): the fan reader may miss a card of a play, so even a
    play read surely is counted only once its player confirms it."""
    t = Table().landlord(0)
    sure = [("9S", 0.99), ("9H", 0.99), ("9D", 0.98)]
    action = GAME.on_card_seen(t.state, "middle", "9S", 0.99, cards=sure)
    assert action == {"type": "propose", "cards": ["9", "9", "9"], "unsure": [], "seat": 0}
    t.do(action, 0, source="camera")
    t.do({"type": "confirm", "cards": ["9", "9", "9", "9"]}, 0)  # corrected: a bomb
    assert t.h["last"]["cards"] == ["9", "9", "9", "9"] and t.h["bombs"] == 1


def test_the_last_play_still_lying_there_is_no_new_play_and_a_play_on_top_is_the_new_one():
    t = Table(camera_confirm=False).landlord(0)
    t.play("3-3-3-9")
    lying = [("3S", 0.99), ("3H", 0.99), ("3D", 0.99), ("9C", 0.99)]
    assert GAME.on_card_seen(t.state, "middle", "3S", 0.99, cards=lying) is None
    on_top = [*[(c, 0.6) for c, _ in lying], ("5S", 0.99), ("5H", 0.99), ("5D", 0.99),
              ("7C", 0.99)]
    action = GAME.on_card_seen(t.state, "middle", "5S", 0.99, cards=on_top)
    assert action == {"type": "play", "cards": ["5", "5", "5", "7"], "seat": 1}


def test_a_card_found_but_not_named_counts_as_its_guess_and_is_asked_about():
    """A trio with one card the recogniser could not name is no pair: the card counts as its
    best guess, unsurely, so the play is proposed whole."""
    t = Table(camera_confirm_below=0.8).landlord(0)
    trio = [("7H", 0.99), ("7S", 0.98), (None, 0.62)]
    action = GAME.on_card_seen(t.state, "middle", "7H", 0.99, cards=trio,
                               guesses=[None, None, "7D"])
    assert action == {"type": "propose", "cards": ["7", "7", "7"], "unsure": ["7"], "seat": 0}
    t.do(action, 0, source="camera")
    t.do({"type": "confirm"}, 0)
    assert t.h["last"]["cards"] == ["7", "7", "7"]
    # the same trio lying there, its third card unnamed for a moment: the play on record,
    # not a new pair
    assert GAME.on_card_seen(t.state, "middle", "7H", 0.99, cards=trio,
                             guesses=[None, None, "7C"]) is None


def test_a_part_of_the_last_play_still_lying_there_is_no_play():
    """Within a trick, with one pack, no play that beats the last one is made of its ranks: a
    set that is part of it is the last play with a card hidden (a hand over it) or unread."""
    t = Table(camera_confirm=False).landlord(0)
    t.play("7-7-7-3")
    for part in ([("7S", 0.99), ("7H", 0.99)], [("7S", 0.99), ("7H", 0.99), ("3C", 0.99)]):
        assert GAME.on_card_seen(t.state, "middle", "7S", 0.99, cards=part) is None
    # a new lead after the trick is gathered may be made of the same ranks
    t.pass_()
    t.pass_()
    assert GAME.on_card_seen(t.state, "middle", "7S", 0.99, cards=[("7D", 0.99)]) == {
        "type": "play", "cards": ["7"], "seat": 0}
    # with two packs a bomb of the last play's rank may beat it (four with two singles)
    four = Table(players=4, camera_confirm=False).landlord(0)
    four.play("9-9-9-9-3-4")
    bomb = [("9S", 0.99), ("9H", 0.99), ("9D", 0.99), ("9C", 0.99)]
    assert GAME.on_card_seen(four.state, "middle", "9S", 0.99, cards=bomb)["type"] == "play"


@pytest.mark.parametrize("guesses", [None, [None, None, None], [None, None, "XX"], ["7D"],
                                     "7D7D7D", [None, None, 7]])
def test_a_set_with_a_card_neither_named_nor_guessed_is_not_played_short(guesses):
    t = Table().landlord(0)
    cards = [("7H", 0.99), ("7S", 0.98), (None, 0.3)]
    assert GAME.on_card_seen(t.state, "middle", "7H", 0.99, cards=cards,
                             guesses=guesses) is None


@pytest.mark.parametrize("args", [
    ("middle", "3S", 0.9, None),  # the top card only: a fan cannot be told from a single
    ("hand", "3S", 0.9, [("3S", 0.9)]),  # another zone
    ("middle", None, 0.0, []),
    ("middle", None, 0.0, "3S"),
    ("middle", None, 0.0, [("XX", 0.9), 5, None, ("3S",)]),
])
def test_nothing_that_is_not_a_set_of_cards_in_the_middle_is_played(args):
    t = Table().landlord(0)
    zone, label, conf, cards = args
    assert GAME.on_card_seen(t.state, zone, label, conf, cards=cards) is None


def test_outside_play_the_camera_does_nothing():
    t = Table()
    assert GAME.on_card_seen(t.state, "middle", "3S", 0.9, cards=[("3S", 0.9)]) is None
    assert random.Random(0)  # (the hook takes no randomness)
