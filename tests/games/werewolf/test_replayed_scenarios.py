"""Defects found by replaying independent rules scenarios through the HTTP API (issue 36):
each test here failed on the code before its fix."""

from __future__ import annotations

from companion.games.werewolf import GAME
from tests.games.werewolf.test_rules import BASIC, vote_out, wolves_kill


def _night2_with_one_wolf_left(game):
    """Night 1: the witch heals Carla (her healing potion is spent); day 1: Ana, a
    werewolf, is voted out. Night 2: Bruno, the last werewolf, goes after Davi."""
    h = game(BASIC, captain=False)
    wolves_kill(h, "Carla")
    h.ok({"type": "witch", "heal": True}, "Eva")
    h.run_to("vote")
    vote_out(h, {n: "Ana" for n in ("Bruno", "Carla", "Davi", "Eva", "Fabio", "Gil", "Hugo")})
    h.timeout()
    assert not h.alive("Ana") and h.winner is None
    wolves_kill(h, "Davi", wolves=("Bruno",))
    return h


def test_two_deaths_at_one_dawn_both_die_then_the_win_is_decided(game):
    """"A morning can show 0, 1 or 2 dead": the poisoned last werewolf (seat 1) and the
    werewolves' victim (seat 3) both die, then the village wins. The dawn applied the deaths
    one by one in seat order and stopped at the first win: Davi lived, by where he sat."""
    h = _night2_with_one_wolf_left(game)
    n = len(h.events)
    h.ok({"type": "witch", "heal": False, "poison": h.seat("Bruno")}, "Eva")
    assert not h.alive("Bruno") and not h.alive("Davi")
    assert h.winner == "village"
    deaths = [e["seat"] for e in h.events[n:] if e["type"] == "death"]
    assert sorted(deaths) == [1, 3]
    over = next(i for i, e in enumerate(h.events[n:]) if e["type"] == "game_over")
    assert over > max(i for i, e in enumerate(h.events[n:]) if e["type"] == "death")
    assert [d["seat"] for d in h.state["deaths"]][-2:] == [1, 3]


def test_starvation_kills_the_werewolves_then_the_village_wins(game):
    """W2: "they die of hunger and the villagers win": with the option on, the game ended
    but no werewolf died (no deaths shown)."""
    h = game(BASIC, starvation=True)
    h.run_to("werewolves")
    h.timeout()  # no werewolf opened their eyes
    n = len(h.events)
    h.ok({"type": "witch", "heal": False, "poison": h.seat("Davi")}, "Eva")
    deaths = {e["seat"]: e["role"] for e in h.events[n:] if e["type"] == "death"}
    assert deaths == {0: "werewolf", 1: "werewolf", 3: "villager"}
    assert not h.alive("Ana") and not h.alive("Bruno") and not h.alive("Davi")
    assert GAME.outcome(h.state)["winner"] == "village"
    assert GAME.outcome(h.state)["reason"] == "starvation"
    keys = h.narrated(n)
    assert keys.index("died_night") < keys.index("reason_starvation")


def test_starvation_is_told_as_such_when_the_morning_names_the_causes(game):
    h = game(BASIC, starvation=True, announce_causes=True)
    h.run_to("werewolves")
    h.timeout()
    n = len(h.events)
    h.timeout()  # the witch does nothing
    assert {e["cause"] for e in h.events[n:] if e["type"] == "death"} == {"starved"}
    assert "died_starved" in h.narrated(n)


PIN = {"X-Host-Pin": "2468"}
EIGHT = ["Ana", "Bruno", "Carla", "Davi", "Eva", "Fabio", "Gil", "Hugo"]


def _table(client, **extra) -> str:
    res = client.post("/api/tables", json={"game": "werewolf", "players": EIGHT, "pin": "2468",
                                           **extra})
    assert res.status_code == 201, res.json
    return res.json["table"]["id"]


def _act(client, tid, action, headers):
    return client.post(f"/api/tables/{tid}/actions", json={"action": action}, headers=headers)


def test_a_seat_nobody_held_at_the_deal_is_not_open_to_any_phone(client):
    """The game started with a seat nobody had joined, and any phone could then join it and
    read its card. Starting so asks the host first; afterwards only the host's PIN gives the
    seat to a phone."""
    from tests.conftest import join

    tid = _table(client)
    phones = {seat: join(client, tid, seat) for seat in range(7)}  # Hugo's seat stays empty
    res = _act(client, tid, {"type": "start"}, PIN)
    assert res.status_code == 409 and res.json["error"]["code"] == "empty_seats"
    assert "Hugo" in res.json["error"]["message"]
    assert client.get(f"/api/tables/{tid}", headers=PIN).json["public"]["phase"] == "setup"
    res = _act(client, tid, {"type": "start", "empty_seats": True}, PIN)
    assert res.status_code == 200, res.json
    # a phone on the network cannot take Hugo's seat and read his card
    res = client.post(f"/api/tables/{tid}/join", json={"seat": 7})
    assert res.status_code == 409 and res.json["error"]["code"] == "seat_locked"
    res = client.post(f"/api/tables/{tid}/join", json={"seat": 7, "pin": "1111"})
    assert res.status_code == 403
    # the host gives it to Hugo's phone
    res = client.post(f"/api/tables/{tid}/join", json={"seat": 7, "pin": "2468"})
    assert res.status_code == 201
    hugo = {"Authorization": "Bearer " + res.json["token"]}
    assert client.get(f"/api/tables/{tid}", headers=hugo).json["you"]["view"]["you"]["role"]
    assert client.get(f"/api/tables/{tid}", headers=phones[0]).json["you"]["seat"] == 0


def test_a_full_table_starts_without_a_question(client):
    from tests.conftest import join

    tid = _table(client)
    for seat in range(8):
        join(client, tid, seat)
    assert _act(client, tid, {"type": "start"}, PIN).status_code == 200


def test_a_host_who_plays_reads_their_seat_with_the_pin_alone(client):
    """A host who plays but had not joined their seat sent only the PIN and was shown the
    moderator view: every card. The table knows its host's seat (chosen at creation); the
    host reads that seat's view whatever the phone sends."""
    from tests.conftest import join

    tid = _table(client, options={"host_seat": 2})
    phones = {seat: join(client, tid, seat) for seat in (0, 1, 3, 4, 5, 6, 7)}
    assert _act(client, tid, {"type": "start"}, PIN).status_code == 200  # (2 is the host's)
    view = client.get(f"/api/tables/{tid}", headers=PIN).json
    assert "host" not in view and view["you"]["seat"] == 2
    assert view["you"]["view"]["you"]["role"]
    others = [p for p in view["public"]["players"] if p["seat"] != 2 and "role" in p]
    assert others == []
    history = client.get(f"/api/tables/{tid}/history", headers=PIN).json["history"]
    assert not [e for e in history if e["body"].get("type") == "start" and "roles" in str(e)]
    # whatever credentials: the PIN with another seat's pass still reads the host's seat
    view = client.get(f"/api/tables/{tid}", headers={**PIN, **phones[1]}).json
    assert "host" not in view and view["you"]["seat"] == 2
    # the host's taps are the host's seat's
    assert _act(client, tid, {"type": "ack"}, PIN).status_code == 200
    assert 2 in client.get(f"/api/tables/{tid}", headers=phones[0]).json["public"]["acks"]


def test_the_host_who_first_joins_a_seat_plays_in_it(client):
    from tests.conftest import join

    tid = _table(client)
    assert "host" in client.get(f"/api/tables/{tid}", headers=PIN).json  # runs the game
    res = client.post(f"/api/tables/{tid}/join", json={"seat": 4}, headers=PIN)
    assert res.status_code == 201
    for seat in (0, 1, 2, 3, 5, 6, 7):
        join(client, tid, seat)
    assert _act(client, tid, {"type": "start"}, PIN).status_code == 200
    view = client.get(f"/api/tables/{tid}", headers=PIN).json  # the PIN alone
    assert "host" not in view and view["you"]["seat"] == 4
    assert view["table"]["host_seat"] == 4


def test_a_seat_the_host_moves_with_the_pin_typed_is_not_the_hosts(client):
    from tests.conftest import join

    tid = _table(client)
    join(client, tid, 3)
    res = client.post(f"/api/tables/{tid}/join", json={"seat": 3, "pin": "2468"})
    assert res.status_code == 201  # a player's new phone: the PIN typed on it
    assert "host" in client.get(f"/api/tables/{tid}", headers=PIN).json


def _seer_step_length(game, seer_alive: bool, acts: bool, **options) -> tuple[float, bool]:
    """Night 2's seer step: its length (deadline less start) and whether the seer's look
    ended it before its time."""
    h = game(BASIC, captain=False, **options)
    if not seer_alive:
        wolves_kill(h, "Fabio")  # the seer dies on night 1
    h.run_to("vote")
    h.timeout()
    h.run_to("seer")
    step = h.state["step"]
    if acts:
        h.ok({"type": "seer", "target": 0}, "Fabio")
    return step["deadline"] - step["started"], h.step != "seer"


def test_a_night_step_lasts_as_long_whether_its_role_plays_or_not(game):
    """A night step ended when its holder acted but ran its whole timer when the holder
    was dead (or the card a spare): everyone could tell. With ``night_pace: steady`` every
    night step runs its timer plus a short random spread, whoever acts."""
    steady = {"night_pace": "steady"}
    acted, ended = _seer_step_length(game, seer_alive=True, acts=True, **steady)
    assert not ended  # the look does not end the step
    dead, _ = _seer_step_length(game, seer_alive=False, acts=False, **steady)
    for length in (acted, dead):
        assert 30 <= length <= 30 + 5
    h = game(BASIC, captain=False, **steady)
    h.run_to("seer")
    lengths = set()
    for _ in range(3):  # (a spread: not the same length every night)
        lengths.add(h.state["step"]["deadline"] - h.state["step"]["started"])
        h.run_to("vote")
        h.timeout()
        h.run_to("seer")
    assert len(lengths) > 1


def test_by_default_the_seer_step_still_ends_with_her_look(game):
    acted, ended = _seer_step_length(game, seer_alive=True, acts=True)  # (the default)
    assert ended and acted == 30


def test_a_steady_night_keeps_what_was_chosen_and_tells_no_timeout_for_it(game):
    h = game(BASIC, captain=False, night_pace="steady")
    wolves_kill(h, "Carla")
    assert h.step == "werewolves"  # (agreed, the step waits for its time)
    h.timeout()
    assert h.step == "witch"
    h.ok({"type": "witch", "heal": False, "poison": h.seat("Davi")}, "Eva")
    assert h.step == "witch"
    h.timeout()
    assert not h.alive("Carla") and not h.alive("Davi") and h.state["phase"] == "day"
    told = [(e["key"], e["params"].get("step")) for e in h.state["journal"]]
    assert ("timeout", "werewolves") not in told and ("timeout", "witch") not in told
    assert ("timeout", "seer") in told  # (the seer did not look)
