"""The camera bridge: a stable card in the UNO discard zone is the current player's play; a
card the rules refuse changes nothing and is announced to the table (phones, buzzer)."""

from __future__ import annotations

import pytest

from companion.camera_bridge import CameraBridge
from companion.events import CameraBack, CameraLost, CardSeen, ZoneCleared
from companion.games.base import HOST


@pytest.fixture
def uno(service):
    t = service.create_table("uno", ["Ana", "Bruno", "Chen"], "2468")
    service.submit(t.id, {"type": "set_dealer", "dealer": 0}, HOST)
    return t


def test_a_card_turned_up_and_a_legal_play_are_submitted_as_the_camera(service, uno):
    bridge = CameraBridge(service, uno.id)
    heard = []
    service.subscribe(uno.id, heard.append)
    assert bridge.handle(CardSeen("discard", "yellow-5", 0.97, t_ns=1))["accepted"]
    turn = service.view(uno.id)["public"]["round"]["turn"]
    done = bridge.handle(CardSeen("discard", "yellow-7", 0.97, t_ns=2))
    assert "accepted" in done, done
    entry = service.history(uno.id)[-1]
    assert entry["actor"]["source"] == "camera" and entry["body"]["card"] == "yellow-7"
    assert entry["actor"]["seat"] == entry["body"]["seat"]
    assert entry["body"]["seat"] == turn == 1  # the dealer's left plays first
    assert [u.kind for u in heard] == ["action", "action"]


def test_an_illegal_card_is_refused_announced_and_changes_nothing(service, uno):
    bridge = CameraBridge(service, uno.id)
    bridge.handle(CardSeen("discard", "yellow-5", 0.97, t_ns=1))
    version = service.get(uno.id).version
    heard = []
    service.subscribe(uno.id, heard.append)
    done = bridge.handle(CardSeen("discard", "red-2", 0.97, t_ns=2))
    assert done["refused"]
    assert service.get(uno.id).version == version
    (update,) = heard
    assert update.kind == "announce"
    (event,) = update.events
    assert event["type"] == "refused" and event["card"] == "red-2" and event["message"]


def test_unsure_cards_other_zones_and_unbound_cameras_do_nothing_wrong(service, uno):
    assert CameraBridge(service).handle(CardSeen("discard", "red-2", 0.99, t_ns=1)) is None
    bridge = CameraBridge(service, uno.id)
    assert bridge.handle(CardSeen("elsewhere", "red-2", 0.99, t_ns=1)) is None
    assert bridge.handle(ZoneCleared("discard", t_ns=2)) is None
    heard = []
    service.subscribe(uno.id, heard.append)
    assert bridge.handle(CameraLost(t_ns=3)) == {"camera_lost": True}
    assert heard[0].events == [{"type": "camera_lost", "t_ns": 3}]


def test_the_camera_coming_back_is_announced_to_the_table(service, uno):
    """After camera_lost the phones fall back to tapping; camera_back tells them the
    camera watches again."""
    bridge = CameraBridge(service, uno.id)
    heard = []
    service.subscribe(uno.id, heard.append)
    assert bridge.handle(CameraBack(t_ns=9)) == {"camera_back": True}
    assert heard[0].kind == "announce"
    assert heard[0].events == [{"type": "camera_back", "t_ns": 9}]


def test_a_game_without_a_camera_hook_ignores_the_camera(service):
    t = service.create_table("scorepad", ["Ana"], "2468")
    assert CameraBridge(service, t.id).handle(CardSeen("discard", "red-2", 0.9, 1)) is None


def test_a_twin_seen_again_becomes_a_proposal_for_the_player_to_confirm(service, uno):
    """The watcher's ``CardSeen.again`` (the top card covered, then lying elsewhere) reaches
    UNO's hook: the same card as the top becomes a proposal, not a play, however sure."""
    bridge = CameraBridge(service, uno.id)
    bridge.handle(CardSeen("discard", "yellow-5", 0.97, t_ns=1))
    assert bridge.handle(CardSeen("discard", "yellow-5", 0.99, t_ns=2)) is None
    done = bridge.handle(CardSeen("discard", "yellow-5", 0.99, t_ns=3, again=True))
    assert done["action"] == {"type": "propose", "card": "yellow-5", "seat": 1}
    assert service.view(uno.id)["public"]["round"]["proposal"] == {"seat": 1,
                                                                   "card": "yellow-5"}


def test_a_game_that_knows_no_twins_never_hears_a_card_seen_again(service):
    """Versus's hook takes no ``again``: the same picture seen again on a pile (a slap moves
    it) reaches it not at all, so no refusal is announced and no buzzer sounds."""
    t = service.create_table("versus", ["Ana", "Bo", "Cy"], "2468", seed=1)
    bridge = CameraBridge(service, t.id)
    assert "accepted" in bridge.handle(CardSeen("discard-0", "owl", 0.97, t_ns=1))
    version = service.get(t.id).version
    heard = []
    service.subscribe(t.id, heard.append)
    assert bridge.handle(CardSeen("discard-0", "owl", 0.97, t_ns=2, again=True)) is None
    assert service.get(t.id).version == version and heard == []


def test_a_card_the_camera_cannot_name_is_asked_about_as_its_best_guess(service, uno):
    bridge = CameraBridge(service, uno.id)
    bridge.handle(CardSeen("discard", "yellow-5", 0.97, t_ns=1))
    done = bridge.handle(CardSeen("discard", None, 0.4, t_ns=2, best="yellow-reverse"))
    assert done["action"] == {"type": "propose", "card": "yellow-reverse", "seat": 1}
    assert service.view(uno.id)["public"]["round"]["top"] == "yellow-5"  # asked, not played


class Clock:
    def __init__(self) -> None:
        self.ns = 1_000_000_000

    def __call__(self) -> int:
        return self.ns


def test_a_paused_camera_plays_nothing_until_resumed(service, uno):
    """The host pauses the camera to teach a card mid-game: the card held over the pile, and
    the pile's own card seen again when it is taken away, are no plays; after the pause a
    new card is."""
    clock = Clock()
    bridge = CameraBridge(service, uno.id, clock=clock)
    bridge.handle(CardSeen("discard", "yellow-5", 0.97, t_ns=1))
    heard = []
    service.subscribe(uno.id, heard.append)
    version = service.get(uno.id).version
    assert bridge.pause() == 300 and bridge.paused_for() == 300
    assert bridge.handle(CardSeen("discard", "yellow-7", 0.99, t_ns=2)) == {"paused": True}
    assert bridge.handle(CardSeen("discard", "yellow-5", 0.99, t_ns=3)) == {"paused": True}
    assert bridge.handle(ZoneCleared("discard", t_ns=4)) == {"paused": True}
    assert service.get(uno.id).version == version
    # the camera stopping is still told while paused
    assert bridge.handle(CameraLost(t_ns=5)) == {"camera_lost": True}
    assert bridge.resume() is True and bridge.paused_for() == 0
    assert [e["type"] for u in heard for e in u.events] == [
        "camera_paused", "camera_lost", "camera_resumed"]
    assert heard[0].events[0]["seconds"] == 300
    assert "accepted" in bridge.handle(CardSeen("discard", "yellow-7", 0.99, t_ns=6))
    assert bridge.resume() is False  # (nothing to resume: no second announcement)
    assert [e["type"] for u in heard for e in u.events][-1] != "camera_resumed"


def test_a_forgotten_pause_ends_by_itself_and_another_table_is_not_paused(service, uno):
    clock = Clock()
    bridge = CameraBridge(service, uno.id, clock=clock)
    bridge.handle(CardSeen("discard", "yellow-5", 0.97, t_ns=1))
    assert bridge.pause(10_000) == 300  # (at most PAUSE_S)
    clock.ns += 299 * 10**9
    assert bridge.paused_for() == pytest.approx(1.0)
    assert bridge.handle(CardSeen("discard", "yellow-7", 0.99, t_ns=2)) == {"paused": True}
    clock.ns += 10**9
    assert bridge.paused_for() == 0
    assert "accepted" in bridge.handle(CardSeen("discard", "yellow-7", 0.99, t_ns=3))
    bridge.pause()
    other = service.create_table("uno", ["Dani", "Eli"], "1357")
    bridge.bind(other.id)
    assert bridge.paused_for() == 0
    with pytest.raises(LookupError):
        CameraBridge(service).pause()


def test_an_event_found_for_a_table_left_since_is_dropped(service, uno):
    """The watcher hands each event over with the binding it was found for: one found before
    the camera was pointed at another table reaches neither."""
    bridge = CameraBridge(service, uno.id)
    found_for = bridge.binding
    bridge.bind(uno.id)  # (the same table again: still the same binding)
    assert "accepted" in bridge.handle(CardSeen("discard", "yellow-5", 0.97, t_ns=1), found_for)
    other = service.create_table("uno", ["Dani", "Eli"], "1357")
    service.submit(other.id, {"type": "set_dealer", "dealer": 0}, HOST)
    bridge.bind(other.id)
    versions = service.get(uno.id).version, service.get(other.id).version
    assert bridge.handle(CardSeen("discard", "yellow-7", 0.97, t_ns=2), found_for) == {
        "stale": True}
    assert bridge.handle(CameraLost(t_ns=3), found_for) == {"stale": True}
    assert (service.get(uno.id).version, service.get(other.id).version) == versions
    assert "accepted" in bridge.handle(CardSeen("discard", "red-1", 0.97, t_ns=4),
                                       bridge.binding)
