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
