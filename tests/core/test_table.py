"""The table service: versions, seats and tokens, the host PIN, undo, history, listeners."""

from __future__ import annotations

import pytest

from companion.games.base import HOST, Actor
from companion.store import Store
from companion.table import TableError, TableService, Update, replay
from web.api import events_for

ROUND = {"type": "add_round", "scores": [1, 2, 3]}


@pytest.fixture
def table(service):
    return service.create_table("scorepad", ["Ana", "Bruno", "Chen"], "2468", {"target": 100})


def test_an_acknowledged_action_is_in_the_file_before_submit_returns(service, table, db_path):
    update = service.submit(table.id, ROUND, Actor(seat=1))
    # a second connection to the same file sees the row: it was committed, not just queued
    assert [e.seq for e in Store(db_path).log(table.id)] == [update.version] == [1]


def test_a_stale_version_is_refused_and_changes_nothing(service, table):
    service.submit(table.id, ROUND, Actor(seat=0), expected_version=0)
    with pytest.raises(TableError) as err:
        service.submit(table.id, ROUND, Actor(seat=1), expected_version=0)
    assert err.value.status == 409 and err.value.rejection.code == "stale_version"
    assert service.get(table.id).version == 1
    assert service.view(table.id)["public"]["totals"] == [1, 2, 3]


def test_a_stale_version_is_refused_without_numbers(service, table):
    """Players do not know versions ("version 3, now 4" read as jargon), and in a game with
    secrets the two would count the secret moves between them."""
    service.submit(table.id, ROUND, Actor(seat=0), expected_version=0)
    with pytest.raises(TableError) as err:
        service.submit(table.id, ROUND, Actor(seat=1), expected_version=0)
    assert err.value.rejection.code == "stale_version" and not err.value.rejection.params
    assert err.value.rejection.message == (
        "The table changed since your phone last looked. Check it and try again.")
    assert service.get(table.id).version == 1


def test_in_a_game_with_secrets_a_phone_s_version_moves_only_with_what_it_sees(
        service, table, monkeypatch):
    """A move a seat may not see leaves that seat's version as it was, so its next move,
    made on the view it has, is not refused as stale; the host's version counts every move.
    (The table's version in every view counted the secret moves for a phone's developer
    tools.)"""
    game = service.get(table.id).game
    monkeypatch.setattr(game, "history_view", lambda state, entry, seat: None if (
        entry["kind"] == "action" and entry["body"]["scores"][0] == 10 and seat != 0
    ) else entry, raising=False)
    service.submit(table.id, ROUND, Actor(seat=0), expected_version=0)
    assert service.view(table.id, seat=1)["version"] == 1
    service.submit(table.id, {"type": "add_round", "scores": [10, 0, 0]}, Actor(seat=0),
                   expected_version=1)
    assert [service.view(table.id, seat=s)["version"] for s in (0, 1, 2)] == [2, 1, 1]
    assert service.view(table.id, host=True)["version"] == 2
    assert service.view(table.id)["version"] == 1  # (a watcher's)
    service.submit(table.id, ROUND, Actor(seat=1), expected_version=1)
    assert [service.view(table.id, seat=s)["version"] for s in (0, 1)] == [3, 2]
    with pytest.raises(TableError) as err:  # (seat 1 saw its own move; 1 is behind now)
        service.submit(table.id, ROUND, Actor(seat=1), expected_version=1)
    assert err.value.rejection.code == "stale_version"
    with pytest.raises(TableError) as err:  # (the host sent a player's count)
        service.undo(table.id, HOST, expected_version=2)
    assert err.value.rejection.code == "stale_version"
    service.undo(table.id, HOST, expected_version=3)


def test_a_rejected_action_is_not_logged(service, table, db_path):
    with pytest.raises(TableError) as err:
        service.submit(table.id, {"type": "add_round", "scores": [1]}, Actor(seat=0))
    assert err.value.status == 422
    assert Store(db_path).log(table.id) == []


def test_undo_takes_back_the_last_action_in_force_and_keeps_it_in_the_history(service, table):
    service.submit(table.id, ROUND, Actor(seat=0))
    service.submit(table.id, {"type": "add_round", "scores": [10, 0, 0]}, Actor(seat=0))
    with pytest.raises(TableError) as err:
        service.undo(table.id, Actor(seat=0))
    assert err.value.status == 403
    service.undo(table.id)
    service.undo(table.id)
    assert service.view(table.id)["public"]["rounds"] == []
    with pytest.raises(TableError) as err:
        service.undo(table.id)
    assert err.value.rejection.code == "nothing_to_undo"
    hist = service.history(table.id)
    assert [(h["kind"], h["undone"]) for h in hist] == [
        ("action", True), ("action", True), ("undo", False), ("undo", False)]


def test_an_undo_of_an_entry_a_phone_may_not_see_is_hidden_from_it_too(
        service, table, monkeypatch):
    """A game hides some entries from some seats (a Werewolf night action); the undo of one
    would still tell that phone that somebody acted."""
    game = service.get(table.id).game
    monkeypatch.setattr(game, "history_view", lambda state, entry, seat: None if (
        entry["kind"] == "action" and entry["body"]["scores"][0] == 10 and seat != 0
    ) else entry, raising=False)
    service.submit(table.id, ROUND, Actor(seat=0))
    service.submit(table.id, {"type": "add_round", "scores": [10, 0, 0]}, Actor(seat=0))
    events: list[dict] = []
    service.subscribe(table.id, lambda update: events.extend(update.events))
    service.undo(table.id)
    service.undo(table.id)
    # the undo of the hidden entry is told to the seat that sees it only, and no undo says
    # where in the log its entry was
    assert events == [{"type": "undone", "to": [0], "watchers": False},
                      {"type": "undone", "to": [0, 1, 2], "watchers": True}]
    # a phone without a seat (a watcher's, the host's) hears the undo of what it reads only
    heard = [events_for(Update(table.id, 0, "undo", [e], HOST), None, False) for e in events]
    assert heard == [[], [{"type": "undone", "to": [], "watchers": True}]]
    # seat 1 sees the first round and its undo, nothing of the hidden one, numbered as its
    # own list: the log's numbers (1 and 4) told that two entries lay between
    assert [(h["kind"], h["seq"], h["body"].get("undo")) for h in
            service.history(table.id, seat=1)] == [("action", 1, None), ("undo", 2, 1)]
    assert [h["kind"] for h in service.history(table.id, seat=0)] == [
        "action", "action", "undo", "undo"]
    assert len(service.history(table.id, host=True)) == 4
    # a host who holds a seat reads as that seat: the PIN gives powers, not the others'
    # secrets
    assert service.history(table.id, seat=1, host=True) == service.history(table.id, seat=1)
    assert "host" not in service.view(table.id, seat=1, host=True)
    assert service.view(table.id, seat=1, host=True)["version"] == 2


def test_tokens_give_one_seat_and_a_taken_seat_needs_the_pin(service, table):
    token = service.join(table.id, 1)
    assert service.seat_for_token(table.id, token) == 1
    with pytest.raises(TableError) as err:
        service.join(table.id, 1)
    assert err.value.status == 409
    new = service.join(table.id, 1, pin="2468")  # the phone was swapped
    assert service.seat_for_token(table.id, new) == 1
    with pytest.raises(TableError) as err:
        service.seat_for_token(table.id, token)
    assert err.value.status == 401
    for bad in (-1, 3, "1", True, None):
        with pytest.raises(TableError):
            service.join(table.id, bad)


def test_five_wrong_pins_lock_the_pin_for_thirty_seconds(service, table, clock):
    for _ in range(5):
        with pytest.raises(TableError) as err:
            service.check_pin(table.id, "0000", "10.0.0.7")
        assert err.value.status == 403
    with pytest.raises(TableError) as err:
        service.check_pin(table.id, "2468", "10.0.0.7")  # even the right one, for now
    assert err.value.status == 429 and err.value.rejection.params == {"s": 31}
    with pytest.raises(TableError) as err:  # (a seat taken, asked for with the PIN)
        service.join(table.id, *_taken(service, table), client="10.0.0.7")
    assert err.value.status == 429
    clock.advance(31)
    service.check_pin(table.id, "2468", "10.0.0.7")


def _taken(service, table) -> tuple[int, str]:
    if 2 not in service.get(table.id).seats:
        service.join(table.id, 2)
    return 2, "2468"


def test_wrong_pins_lock_only_the_phone_that_gave_them(service, table):
    """A player's phone guessing (a prank, a child mistyping) locked the whole table: the
    host's undo, its tie buttons, even its page, every 30 s. Only that phone is locked."""
    for _ in range(5):
        with pytest.raises(TableError):
            service.check_pin(table.id, "0000", "10.0.0.7")
    with pytest.raises(TableError) as err:
        service.check_pin(table.id, "2468", "10.0.0.7")
    assert err.value.status == 429
    service.check_pin(table.id, "2468", "10.0.0.2")  # the host's phone
    assert service.join(table.id, *_taken(service, table), client="10.0.0.2")
    with pytest.raises(TableError) as err:  # and another phone has its own five tries
        service.check_pin(table.id, "1111", "10.0.0.3")
    assert err.value.status == 403


def test_listeners_hear_committed_updates_in_order_and_a_broken_one_changes_nothing(
        service, table):
    heard = []
    service.subscribe(table.id, heard.append)

    def broken(update):
        raise RuntimeError("LED on fire")

    service.add_listener(broken)
    service.submit(table.id, ROUND, Actor(seat=0))
    service.undo(table.id)
    assert [(u.version, u.kind) for u in heard] == [(1, "action"), (2, "undo")]
    assert heard[0].events == [{"type": "round_added", "round": 0}]


@pytest.mark.parametrize(("players", "code"), [
    ([], "player_count"), (["A", "a"], "duplicate_name"), (["A", ""], "bad_name"),
    (["A", "x" * 25], "bad_name"), ("Ana,Bruno", "bad_players"), ([1, 2], "bad_players")])
def test_bad_player_lists_are_refused(service, players, code):
    with pytest.raises(TableError) as err:
        service.create_table("scorepad", players, "2468")
    assert err.value.rejection.code == code


@pytest.mark.parametrize("pin", ["123", "123456789", "12a4", None, 1234])
def test_the_pin_must_be_4_to_8_digits(service, pin):
    with pytest.raises(TableError) as err:
        service.create_table("scorepad", ["A"], pin)
    assert err.value.rejection.code == "bad_pin"


def test_tables_survive_a_restart_with_seats_and_codes(store, clock, table, service, db_path):
    token = service.join(table.id, 2)
    service.submit(table.id, ROUND, Actor(seat=2))
    again = TableService(Store(db_path), clock)
    assert again.by_code(table.record.code.lower()).id == table.id
    assert again.seat_for_token(table.id, token) == 2
    assert again.view(table.id)["public"]["totals"] == [1, 2, 3]
    assert [t["id"] for t in again.list_tables()] == [table.id]


def test_the_host_view_is_the_full_state_and_only_for_the_host(service, table):
    assert "host" not in service.view(table.id, seat=0)
    assert service.view(table.id, host=True)["host"]["players"] == ["Ana", "Bruno", "Chen"]
    assert service.view(table.id, seat=0)["you"]["name"] == "Ana"
    assert HOST.can_act_for(2) and not Actor(seat=1).can_act_for(2)


def test_moves_of_one_moment_are_heard_from_a_view_a_move_behind(service):
    """Eight phones say at once that they have seen their Werewolf card: each sends the
    version it saw, a tap or two behind the others'. The step is the same (``moment``), so
    each is heard; once the night has begun, a tap from a view of the looking step is refused
    as stale, and so is an undo from a view that missed the latest move."""
    names = ["Ana", "Bruno", "Carla", "Davi", "Eva", "Fabio", "Gil", "Hugo"]
    live = service.create_table("werewolf", names, "1234", {}, seed=5)
    service.submit(live.id, {"type": "start"}, HOST)
    seen = service.get(live.id).version
    assert service.get(live.id).state["step"]["name"] == "look"
    for seat in range(7):
        service.submit(live.id, {"type": "ack"}, Actor(seat=seat), expected_version=seen)
    assert service.get(live.id).version == seen + 7
    with pytest.raises(TableError) as err:  # the host's undo would take back an unseen tap
        service.undo(live.id, HOST, expected_version=seen + 6)
    assert err.value.rejection.code == "stale_version"
    looked = service.get(live.id).version
    service.submit(live.id, {"type": "ack"}, Actor(seat=7), expected_version=seen)
    assert service.get(live.id).state["phase"] == "night"  # the last look began the night
    with pytest.raises(TableError) as err:
        service.submit(live.id, {"type": "ack"}, Actor(seat=0), expected_version=looked)
    assert err.value.rejection.code == "stale_version"
    with pytest.raises(TableError) as err:
        service.undo(live.id, HOST, expected_version=looked)
    assert err.value.rejection.code == "stale_version"
    assert service.get(live.id).version == looked + 1


def test_options_are_finite_and_null_only_where_none_is_the_default(service):
    from companion.games.base import OptionError, resolve_options
    from companion.games.registry import get_game

    quiz, werewolf = get_game("quiz"), get_game("werewolf")
    for bad in (float("nan"), float("inf"), None):
        with pytest.raises(OptionError):
            resolve_options(quiz.options, {"tie_window_ms": bad})
    assert resolve_options(werewolf.options, {"language": None})["language"] is None


def test_a_table_that_cannot_start_is_not_stored_and_one_that_no_longer_loads_is_left_out(
        service, db_path, monkeypatch):
    """Setup runs before the table is stored: options it cannot start from are a 400, and
    nothing is left behind. A stored table whose log no longer replays (an older version's)
    is left out of the list, not the whole list lost."""
    import companion.table as table_module

    good = service.create_table("scorepad", ["Ana", "Bruno"], "2468")

    def broken(record, game, log):
        raise TypeError("a setup that fails")

    monkeypatch.setattr(table_module, "replay", broken)
    with pytest.raises(TableError) as err:
        service.create_table("scorepad", ["Ana", "Bruno"], "2468")
    assert err.value.status == 400 and err.value.rejection.code == "bad_option"
    assert [r.id for r in Store(db_path).list_tables()] == [good.id]
    monkeypatch.undo()

    bad = service.create_table("scorepad", ["Chen", "Dani"], "2468")
    fresh = TableService(Store(db_path))
    monkeypatch.setattr(table_module, "replay", lambda record, game, log: (
        broken(record, game, log) if record.id == bad.id else replay(record, game, log)))
    assert [t["id"] for t in fresh.list_tables()] == [good.id]

