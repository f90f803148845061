"""Every numbered rule (W1-W12), ambiguity decision (WW1-WW9) and worked example (Example 1-8)
of rules/werewolf.md, one named test each, plus the night order and the timers."""

from __future__ import annotations

import pytest

from companion.games.werewolf import GAME
from companion.games.werewolf.roles import suggested_roles

W, V, SEER, WITCH, HUNTER = "werewolf", "villager", "seer", "witch", "hunter"
CUPID, THIEF, GIRL = "cupid", "thief", "little_girl"
# Ana..Hugo: the default table used below.
BASIC = [W, W, V, V, WITCH, SEER, V, HUNTER]


def wolves_kill(h, victim, wolves=("Ana", "Bruno")):
    h.run_to("werewolves")
    for w in wolves:
        h.ok({"type": "wolf_vote", "target": h.seat(victim)}, w)


def to_vote(h):
    h.run_to("vote")


def vote_out(h, votes: dict[str, str | None]):
    for voter, target in votes.items():
        h.ok({"type": "vote", "target": None if target is None else h.seat(target)}, voter)


# -- Setup ------------------------------------------------------------------------------
def test_example1_setup_counts():
    assert suggested_roles(8) == {"werewolf": 2, "seer": 1, "villager": 5}
    assert suggested_roles(12)["werewolf"] == 3
    assert suggested_roles(18)["werewolf"] == 4


@pytest.mark.parametrize("n", range(8, 19))
def test_ww1_suggested_set_for_every_count_has_the_seed_minimum(n):
    roles = suggested_roles(n)
    assert roles["werewolf"] >= 2 and roles["seer"] == 1 and roles["villager"] >= 5
    assert sum(roles.values()) == n + (2 if roles.get("thief") else 0)
    state = GAME.setup([f"p{i}" for i in range(n)], {}, None)
    assert state["role_set"] == roles


def test_ww1_role_set_is_editable_and_checked(game):
    h = game(BASIC, look=False)
    # after the start it is fixed; a fresh table in setup can change it
    h.no({"type": "set_roles", "roles": {"werewolf": 3, "villager": 5}}, code="not_now")
    import random

    from companion.games.base import HOST, Context, resolve_options

    s = GAME.setup(
        ["a", "b", "c", "d", "e", "f", "g", "h"],
        resolve_options(GAME.options, {}),
        random.Random(1),
    )
    ctx = Context(HOST, random.Random(2), 0.0)
    bad = GAME.apply(s, {"type": "set_roles", "roles": {"werewolf": 3, "villager": 4}}, ctx)
    assert bad.code == "bad_roles"
    two_seers = {"werewolf": 2, "seer": 2, "villager": 4}
    assert GAME.apply(s, {"type": "set_roles", "roles": two_seers}, ctx).code == "bad_roles"
    good = GAME.apply(
        s, {"type": "set_roles", "roles": {"werewolf": 3, "seer": 1, "villager": 4}}, ctx
    )
    assert good.state["role_set"] == {"werewolf": 3, "seer": 1, "villager": 4}
    from companion.games.base import Actor

    assert (
        GAME.apply(
            s, {"type": "set_roles", "roles": None}, Context(Actor(seat=1), random.Random(2), 0.0)
        ).code
        == "host_only"
    )


def test_companion_deal_follows_the_role_set_and_keeps_two_spares_for_the_thief():
    import random
    from collections import Counter

    from companion.games.base import HOST, Context, resolve_options

    names = [f"p{i}" for i in range(14)]
    s = GAME.setup(names, resolve_options(GAME.options, {}), random.Random(1))
    r = GAME.apply(s, {"type": "start"}, Context(HOST, random.Random(5), 0.0))
    dealt = r.state["roles"] + r.state["spares"]
    assert Counter(dealt) == Counter(suggested_roles(14))
    assert len(r.state["spares"]) == 2
    private = [e for e in r.events if e["type"] == "your_role"]
    assert [e["to"] for e in private] == [[i] for i in range(14)]


def test_players_enter_their_own_cards_secretly(game):
    import random

    from companion.games.base import HOST, Actor, Context, resolve_options

    names = [f"p{i}" for i in range(8)]
    s = GAME.setup(names, resolve_options(GAME.options, {"deal": "players"}), random.Random(1))
    roles = [W, W, W, V, V, V, V, SEER]  # one werewolf too many: a card was misread
    for seat, role in enumerate(roles):
        r = GAME.apply(
            s, {"type": "claim", "role": role}, Context(Actor(seat=seat), random.Random(0), 0.0)
        )
        s = r.state
        public = [e for e in r.events if "to" not in e]
        assert all(role not in str(e) for e in public)
    bad = GAME.apply(s, {"type": "start"}, Context(HOST, random.Random(0), 0.0))
    assert bad.code == "roles_mismatch"
    s = GAME.apply(
        s, {"type": "claim", "role": V}, Context(Actor(seat=2), random.Random(0), 0.0)
    ).state
    assert (
        GAME.apply(s, {"type": "start"}, Context(HOST, random.Random(0), 0.0)).state["phase"]
        == "prelude"
    )


# -- The night ---------------------------------------------------------------------------
def test_first_night_order_then_every_night_order(game):
    h = game([THIEF, CUPID, W, W, SEER, WITCH, GIRL, V], spares=[V, V])
    seen = []
    while h.state["phase"] == "night" or not seen:
        seen.append(h.step)
        h.timeout()
    assert seen == ["thief", "cupid", "lovers", "seer", "werewolves", "witch"]
    h.run_to("vote")
    h.timeout()
    seen = []
    while h.state["phase"] == "night":
        seen.append(h.step)
        h.timeout()
    assert seen == ["seer", "werewolves", "witch"]


def test_roles_not_in_play_are_skipped(game):
    h = game([W, W, V, V, V, V, V, SEER])
    seen = []
    while h.state["phase"] == "night":
        seen.append(h.step)
        h.timeout()
    assert seen == ["seer", "werewolves"]


def test_dead_roles_are_still_called_with_the_same_pause(game):
    h = game(BASIC)
    wolves_kill(h, "Fabio")  # the seer
    h.timeout()  # witch does nothing
    assert not h.alive("Fabio")
    h.run_to("vote")
    h.timeout()
    assert h.step == "seer" and h.state["night"] == 2
    step = h.state["step"]
    assert step["deadline"] - step["started"] == h.state["timers"]["seer"]
    n = len(h.events)
    h.no({"type": "seer", "target": 0}, "Fabio", code="not_now")
    assert h.narrated(n) == []
    h.timeout()
    assert "seer_sleep" in h.narrated(n)


def test_step_ends_early_when_all_woken_players_acted(game):
    h = game(BASIC)
    h.run_to("seer")
    h.ok({"type": "seer", "target": 0}, "Fabio")
    assert h.step == "werewolves"
    h.ok({"type": "wolf_vote", "target": 2}, "Ana")
    assert h.step == "werewolves"  # the pack has not agreed yet
    h.ok({"type": "wolf_vote", "target": 3}, "Bruno")
    h.ok({"type": "wolf_vote", "target": 3}, "Ana")
    assert h.step == "witch"


def test_wolves_timeout_default_is_their_most_chosen_victim_and_logged(game):
    h = game([W, W, W, V, V, V, V, SEER, V, V, V, V])
    h.run_to("werewolves")
    h.ok({"type": "wolf_vote", "target": 4}, "Ana")
    h.ok({"type": "wolf_vote", "target": 4}, "Bruno")
    h.ok({"type": "wolf_vote", "target": 5}, "Carla")
    h.timeout()
    assert h.state["tonight"]["victim"] == 4
    assert any(
        j["key"] == "timeout" and j["params"]["step"] == "werewolves" for j in h.state["journal"]
    )


def test_timeout_is_refused_before_the_deadline(game):
    h = game(BASIC)
    h.no({"type": "timeout"}, code="not_yet")
    h.no({"type": "timeout", "step": 999}, code="stale_step")


def test_a_rejected_night_action_looks_the_same_whoever_sends_it(game):
    h = game(BASIC)
    h.run_to("werewolves")
    answers = set()
    for who in ("Carla", "Eva", "Fabio", "Hugo"):  # not werewolves
        for action in (
            {"type": "wolf_vote", "target": 2},
            {"type": "wolf_vote", "target": 99},
            {"type": "seer", "target": 1},
            {"type": "witch", "heal": True},
            {"type": "thief", "take": 0},
            {"type": "peek"},
        ):
            r = h.no(action, who)
            answers.add((r.code, r.message, tuple(r.params.items())))
    r = h.no({"type": "seer", "target": 1}, "Ana")  # a werewolf, in the wrong step
    answers.add((r.code, r.message, tuple(r.params.items())))
    assert answers == {("not_now", "That can't be done now.", ())}


def test_host_input_mode_only_the_moderator_taps(game):
    h = game(BASIC, input="host")
    h.run_to("werewolves")
    h.no({"type": "wolf_vote", "target": 2}, "Ana", code="not_now")
    h.ok({"type": "wolf_vote", "target": 2})
    assert h.step == "witch"
    h.ok({"type": "witch", "heal": False, "poison": None})
    assert not h.alive("Carla")


# -- W1-W12 ------------------------------------------------------------------------------
def test_w1_wolves_may_kill_one_of_their_own(game):
    h = game(BASIC)
    wolves_kill(h, "Bruno")
    h.timeout()
    assert not h.alive("Bruno")


def test_w2_ww8_no_victim_means_nothing_happens_by_default(game):
    h = game(BASIC)
    h.run_to("werewolves")
    h.ok({"type": "wolf_vote", "target": None}, "Ana")
    h.ok({"type": "wolf_vote", "target": None}, "Bruno")
    h.timeout()  # witch
    assert all(h.state["alive"]) and h.state["phase"] == "day" and h.winner is None
    assert "nobody_died" in h.narrated()


def test_w2_ww8_starvation_option_village_wins(game):
    h = game(BASIC, starvation=True)
    h.run_to("werewolves")
    h.timeout()  # nobody opened their eyes
    h.timeout()
    assert h.winner == "village"
    assert "reason_starvation" in h.narrated()


def test_w3_example4_little_girl_caught_dies_instead_of_the_victim(game):
    h = game([W, W, V, V, GIRL, SEER, V, V])  # Eva is the little girl
    h.run_to("werewolves")
    h.ok({"type": "catch_little_girl"})  # the moderator saw it
    wolves_kill(h, "Carla")
    assert not h.alive("Eva") and h.alive("Carla")
    assert h.state["phase"] == "day"


def test_w3_little_girl_peeks_on_her_phone_and_may_be_caught(game):
    h = game([W, W, V, V, GIRL, SEER, V, V], peek_catch_chance=1)
    h.run_to("werewolves")
    ev = h.ok({"type": "peek"}, "Eva")
    result = next(e for e in ev if e["type"] == "peek_result")
    assert result["to"] == [4] and {w["seat"] for w in result["wolves"]} == {0, 1}
    caught = next(e for e in ev if e["type"] == "caught")
    assert set(caught["to"]) == {0, 1, 4}
    h.no({"type": "peek"}, "Eva", code="not_now")  # once a night
    wolves_kill(h, "Carla")
    assert not h.alive("Eva") and h.alive("Carla")


def test_w3_little_girl_not_caught(game):
    h = game([W, W, V, V, GIRL, SEER, V, V], peek_catch_chance=0)
    h.run_to("werewolves")
    ev = h.ok({"type": "peek"}, "Eva")
    assert not [e for e in ev if e["type"] == "caught"]
    wolves_kill(h, "Carla")
    assert h.alive("Eva") and not h.alive("Carla")


def test_w4_example3_ww4_witch_heals_the_victim_and_poisons_another(game):
    h = game(BASIC)
    wolves_kill(h, "Carla")
    assert h.step == "witch"
    witch_view = GAME.player_view(h.state, h.seat("Eva"))["you"]
    assert witch_view["victim"] == h.seat("Carla")
    h.ok({"type": "witch", "heal": True, "poison": h.seat("Davi")}, "Eva")
    assert h.alive("Carla") and not h.alive("Davi")
    assert h.state["potions"] == {"heal": False, "poison": False}
    dead_today = [d["seat"] for d in h.state["deaths"]]
    assert dead_today == [h.seat("Davi")]


def test_w4_each_potion_once_per_game_and_self_heal(game):
    h = game(BASIC)
    wolves_kill(h, "Eva")  # the witch herself
    h.ok({"type": "witch", "heal": True}, "Eva")
    assert h.alive("Eva")
    h.run_to("vote")
    h.timeout()
    wolves_kill(h, "Carla")
    h.no({"type": "witch", "heal": True}, "Eva", code="no_heal")
    h.ok({"type": "witch", "heal": False, "poison": h.seat("Ana")}, "Eva")
    h.run_to("vote")
    h.timeout()
    wolves_kill(h, "Davi", wolves=("Bruno",))
    h.no({"type": "witch", "poison": h.seat("Bruno")}, "Eva", code="no_poison")


def test_w5_witch_effects_are_announced_next_morning(game):
    h = game(BASIC)
    wolves_kill(h, "Carla")
    n = len(h.events)
    h.ok({"type": "witch", "heal": False, "poison": h.seat("Davi")}, "Eva")
    keys = h.narrated(n)
    assert keys.index("day_breaks") < keys.index("died_night")
    deaths = [e for e in h.events[n:] if e["type"] == "death"]
    assert {d["seat"] for d in deaths} == {2, 3} and {d["cause"] for d in deaths} == {"night"}


def test_w6_hunter_shoots_when_killed_at_night(game):
    h = game(BASIC)
    wolves_kill(h, "Hugo")
    h.timeout()
    assert h.step == "hunter" and h.state["step"]["seat"] == h.seat("Hugo")
    h.no({"type": "hunter_shoot", "target": 0}, "Carla", code="not_your_seat")
    h.ok({"type": "hunter_shoot", "target": h.seat("Ana")}, "Hugo")
    assert not h.alive("Ana")
    assert h.step in ("captain", "debate")


def test_w6_hunter_shoots_when_voted_out(game):
    h = game(BASIC, captain=False)
    wolves_kill(h, "Carla")
    h.timeout()
    to_vote(h)
    vote_out(h, {n: "Hugo" for n in ["Ana", "Bruno", "Davi", "Eva", "Fabio", "Gil", "Hugo"]})
    assert h.step == "hunter"
    h.ok({"type": "hunter_shoot", "target": h.seat("Bruno")}, "Hugo")
    assert not h.alive("Bruno") and h.state["phase"] == "night"


def test_w7_example5_hunter_shoots_a_lover_who_takes_the_other(game):
    # Fabio and Gil are lovers; the day vote eliminates the hunter, who shoots Fabio.
    h = game([W, W, V, V, CUPID, V, V, HUNTER, V, V, SEER], captain=False)
    h.run_to("cupid")
    h.ok({"type": "cupid", "lovers": [h.seat("Fabio"), h.seat("Gil")]}, "Eva")
    ev = h.ok({"type": "ack"}, "Fabio") + h.ok({"type": "ack"}, "Gil")
    assert h.step == "seer"
    wolves_kill(h, "Carla")
    to_vote(h)
    voters = [n for n in h.names if h.alive(n)]
    vote_out(h, {n: "Hugo" for n in voters})
    n = len(h.events)
    h.ok({"type": "hunter_shoot", "target": h.seat("Fabio")}, "Hugo")
    assert not h.alive("Fabio") and not h.alive("Gil")
    assert [e["cause"] for e in h.events[n:] if e["type"] == "death"] == ["shot", "lover"]
    assert GAME.public_view(h.state)["lovers"] == [5, 6]
    assert ev == [] or all("to" in e or e["type"] != "lovers" for e in ev)


def test_w7_victory_is_checked_after_each_chained_death(game):
    # Alive after night: Ana (W), Bruno (W), Carla, Davi (lovers), Eva. The wolves kill Eva's
    # neighbour... a wolf lover's death ends it before his partner's death is processed.
    h = game([W, CUPID, V, V, V, V, V, SEER])
    h.run_to("cupid")
    h.ok({"type": "cupid", "lovers": [0, 2]}, "Bruno")  # Ana (the only werewolf) and Carla
    h.run_to("werewolves")
    h.ok({"type": "wolf_vote", "target": 0}, "Ana")  # W1: the pack eats itself
    assert h.winner == "village"
    assert h.alive("Carla")  # the game ended at the first death


def test_w8_captain_vote_counts_double(game):
    h = game(BASIC)
    wolves_kill(h, "Carla")
    h.timeout()
    assert h.step == "captain"
    for n in h.names:
        if h.alive(n):
            h.ok({"type": "captain_vote", "target": h.seat("Davi")}, n)
    assert h.state["captain"] == h.seat("Davi")
    h.run_to("vote")
    # Ana: Davi (the captain, counts 2) + Hugo = 3; Gil: Fabio + Eva = 2.
    vote_out(
        h,
        {
            "Davi": "Ana",
            "Fabio": "Gil",
            "Eva": "Gil",
            "Bruno": None,
            "Ana": None,
            "Gil": None,
            "Hugo": "Ana",
        },
    )
    result = next(e for e in reversed(h.events) if e["type"] == "vote_result")
    assert {r["seat"]: r["votes"] for r in result["totals"]} == {0: 3, 6: 2}
    assert not h.alive("Ana") and h.alive("Gil")


def test_w9_example2_tie_decided_by_the_captains_vote(game):
    names7 = [W, W, V, V, V, SEER, V, V]  # Hugo is dead by morning, 7 voters
    h = game(names7)
    wolves_kill(h, "Hugo")
    h.timeout() if h.step == "witch" else None
    for n in h.names:
        if h.alive(n):
            h.ok({"type": "captain_vote", "target": h.seat("Gil")}, n)
    h.run_to("vote")
    # Ana gets 2 ordinary votes + the captain's (2) = 4; Bruno gets 4 ordinary votes = 4.
    vote_out(
        h,
        {
            "Carla": "Ana",
            "Davi": "Ana",
            "Gil": "Ana",
            "Ana": "Bruno",
            "Eva": "Bruno",
            "Fabio": "Bruno",
            "Bruno": "Bruno",
        },
    )
    result = next(e for e in reversed(h.events) if e["type"] == "vote_result")
    assert {t["seat"]: t["votes"] for t in result["totals"]} == {0: 4, 1: 4}
    assert not h.alive("Ana") and h.alive("Bruno")
    assert "tie_captain" in h.narrated()


def test_w9_example2_same_votes_without_captain_revote(game):
    h = game([W, W, V, V, V, SEER, V, V], captain=False)
    h.run_to("vote")  # nobody died: 8 voters, a 4-4 tie
    vote_out(
        h,
        {
            "Carla": "Ana",
            "Davi": "Ana",
            "Gil": "Ana",
            "Eva": "Ana",
            "Ana": "Bruno",
            "Fabio": "Bruno",
            "Bruno": "Bruno",
            "Hugo": "Bruno",
        },
    )
    assert h.step == "vote" and h.state["step"]["round"] == 2
    assert h.state["step"]["candidates"] == [0, 1]
    assert "tie_revote" in h.narrated()
    h.no({"type": "vote", "target": h.seat("Carla")}, "Ana", code="not_a_candidate")
    vote_out(h, {n: "Bruno" for n in h.names if h.alive(n)})
    assert not h.alive("Bruno")


def test_w9_ww3_second_tie_nobody_is_eliminated(game):
    h = game([W, W, V, V, V, SEER, V, V], captain=False)
    wolves_kill(h, "Hugo")
    h.run_to("vote")
    tie = {
        "Carla": "Ana",
        "Davi": "Ana",
        "Gil": "Ana",
        "Eva": None,
        "Ana": "Bruno",
        "Fabio": "Bruno",
        "Bruno": "Bruno",
    }
    vote_out(h, tie)
    vote_out(h, tie)
    assert h.alive("Ana") and h.alive("Bruno") and h.state["phase"] == "night"
    assert "no_elimination" in h.narrated()


def test_w9_options_revote_everyone_and_lot(game):
    h = game([W, W, V, V, V, SEER, V, V], captain=False, revote="all", revote_tie="lot")
    wolves_kill(h, "Hugo")
    h.run_to("vote")
    tie = {
        "Carla": "Ana",
        "Davi": "Ana",
        "Gil": "Ana",
        "Eva": None,
        "Ana": "Bruno",
        "Fabio": "Bruno",
        "Bruno": "Bruno",
    }
    vote_out(h, tie)
    assert h.state["step"]["candidates"] is None
    vote_out(h, tie)
    assert h.alive("Ana") != h.alive("Bruno")


def test_ww3_captain_abstains_in_a_tie_gives_a_revote(game):
    h = game([W, W, V, V, V, SEER, V, V])
    wolves_kill(h, "Hugo")
    for n in h.names:
        if h.alive(n):
            h.ok({"type": "captain_vote", "target": h.seat("Eva")}, n)
    h.run_to("vote")
    vote_out(
        h,
        {
            "Carla": "Ana",
            "Davi": "Ana",
            "Gil": "Ana",
            "Eva": None,
            "Ana": "Bruno",
            "Fabio": "Bruno",
            "Bruno": "Bruno",
        },
    )
    assert h.step == "vote" and h.state["step"]["round"] == 2


def test_w10_the_dead_cannot_vote_or_act(game):
    h = game(BASIC)
    wolves_kill(h, "Carla")
    h.timeout()
    h.run_to("vote")
    h.no({"type": "vote", "target": 0}, "Carla", code="cannot_vote")
    h.timeout()
    h.run_to("werewolves")
    h.no({"type": "wolf_vote", "target": 3}, "Carla", code="not_now")


def test_w11_roles_fixed_except_the_thiefs_one_swap(game):
    h = game([THIEF, W, W, V, V, SEER, V, V], spares=[WITCH, V])
    assert h.step == "thief"
    ev = h.ok({"type": "thief", "take": h.state["spares"].index(WITCH)}, "Ana")
    assert h.state["roles"][0] == WITCH and sorted(h.state["spares"]) == [THIEF, V]
    assert {"type": "your_role", "to": [0], "seat": 0, "role": WITCH} in ev
    assert h.step != "thief"
    h.no({"type": "thief", "take": 1}, "Ana", code="not_now")


def test_w12_dying_captain_names_a_successor(game):
    h = game(BASIC)
    wolves_kill(h, "Carla")
    h.timeout()
    for n in h.names:
        if h.alive(n):
            h.ok({"type": "captain_vote", "target": h.seat("Gil")}, n)
    h.run_to("vote")
    vote_out(h, {n: "Gil" for n in h.names if h.alive(n)})
    assert h.step == "successor"
    h.no({"type": "successor", "target": h.seat("Gil")}, "Gil", code="bad_target")
    h.ok({"type": "successor", "target": h.seat("Davi")}, "Gil")
    assert h.state["captain"] == h.seat("Davi")


def test_w12_successor_timeout_draws_a_living_player(game):
    h = game(BASIC)
    wolves_kill(h, "Carla")
    h.timeout()
    for n in h.names:
        if h.alive(n):
            h.ok({"type": "captain_vote", "target": h.seat("Gil")}, n)
    h.run_to("vote")
    vote_out(h, {n: "Gil" for n in h.names if h.alive(n)})
    h.timeout()
    assert h.state["captain"] is not None and h.alive(h.names[h.state["captain"]])


# -- WW ----------------------------------------------------------------------------------
def test_ww2_captain_elected_at_the_start_of_day1_by_default(game):
    h = game(BASIC)
    assert h.state["phase"] == "night"
    wolves_kill(h, "Carla")
    h.timeout()
    assert h.step == "captain"


def test_ww2_option_captain_elected_before_night1(game):
    h = game(BASIC, captain_election="before_night1")
    assert h.step == "captain"
    for n in h.names:
        h.ok({"type": "captain_vote", "target": 3}, n)
    assert h.state["captain"] == 3 and h.state["phase"] == "night"
    wolves_kill(h, "Carla")
    h.timeout()
    assert h.step == "debate"


def test_ww5_witch_without_healing_potion_dies_when_she_is_the_victim(game):
    h = game(BASIC)
    wolves_kill(h, "Carla")
    h.ok({"type": "witch", "heal": True}, "Eva")
    h.run_to("vote")
    h.timeout()
    wolves_kill(h, "Eva")
    h.no({"type": "witch", "heal": True}, "Eva", code="no_heal")
    h.timeout()
    assert not h.alive("Eva")


def test_ww6_example6_thief_facing_two_werewolf_cards_must_take_one(game):
    h = game([THIEF, W, V, V, V, SEER, V, V], spares=[W, W])
    h.no({"type": "thief", "take": None}, "Ana", code="must_take")
    wake = next(e for e in h.events if e["type"] == "wake" and e["step"] == "thief")
    assert wake["to"] == [0] and wake["spares"] == [W, W]
    h.ok({"type": "thief", "take": 1}, "Ana")
    assert h.state["roles"][0] == W
    assert h.state["roles"].count(W) == 2  # as many werewolves in play as dealt


def test_ww6_thief_timeout_with_two_werewolves_takes_one(game):
    h = game([THIEF, W, V, V, V, SEER, V, V], spares=[W, W])
    h.timeout()
    assert h.state["roles"][0] == W


def test_ww7_captain_dying_through_the_lover_link_names_a_successor(game):
    h = game([W, W, CUPID, V, V, V, V, SEER])
    h.run_to("cupid")
    h.ok({"type": "cupid", "lovers": [3, 4]}, "Carla")
    h.run_to("captain")
    for n in h.names:
        h.ok({"type": "captain_vote", "target": 4}, n)
    h.run_to("vote")
    vote_out(h, {n: "Davi" for n in h.names})
    assert not h.alive("Davi") and not h.alive("Eva")
    assert h.step == "successor" and h.state["step"]["seat"] == 4
    h.ok({"type": "successor", "target": 5}, "Eva")
    assert h.state["captain"] == 5


def test_ww9_couple_with_the_last_werewolves_wolves_win_by_default(game):
    h = _ww9(game)
    assert h.winner == "wolves"


def test_ww9_option_play_on(game):
    h = _ww9(game, lovers_vs_wolves="play_on")
    assert h.winner is None
    # the lovers then kill the other werewolf and are the last two alive
    h.run_to("vote")
    vote_out(h, {"Ana": "Bruno", "Carla": "Bruno", "Bruno": "Ana"})
    assert h.winner == "lovers"
    assert "victory_lovers" in h.narrated() and "reason_lovers_last" in h.narrated()


def _ww9(game, **opts):
    # Ana (W) loves Carla (V); Bruno is the other werewolf. Everyone else dies.
    h = game([W, W, V, CUPID, V, V, V, SEER], captain=False, **opts)
    h.run_to("cupid")
    h.ok({"type": "cupid", "lovers": [0, 2]}, "Davi")
    wolves_kill(h, "Davi")
    for victim in ("Eva", "Fabio", "Gil", "Hugo"):
        if h.winner:
            break
        h.run_to("vote")
        vote_out(h, {n: victim for n in h.names if h.alive(n)})
    return h


# -- Victory -------------------------------------------------------------------------------
def test_example7_werewolves_win_by_the_seed_rule(game):
    h = game([W, W, V, V, V, V, V, SEER], captain=False)
    for victim in ("Carla", "Davi", "Eva"):  # eliminate down to 2 wolves + 2 villagers
        h.run_to("vote")
        vote_out(h, {n: victim for n in h.names if h.alive(n)})
    h.run_to("werewolves")
    assert sum(h.state["alive"]) == 5
    h.run_to("vote")
    vote_out(h, {n: "Fabio" for n in h.names if h.alive(n)})
    assert [h.alive(n) for n in ("Ana", "Bruno", "Gil", "Hugo")] == [True] * 4
    assert h.winner is None
    wolves_kill(h, "Gil")
    assert h.winner == "wolves"
    assert "reason_seed" in h.narrated()


def test_victory_parity_option(game):
    h = game([W, W, V, V, V, V, V, SEER], captain=False, wolves_win="parity")
    for victim in ("Carla", "Davi", "Eva"):
        h.run_to("vote")
        vote_out(h, {n: victim for n in h.names if h.alive(n)})
        h.run_to("werewolves")
        if victim != "Eva":
            h.ok({"type": "wolf_vote", "target": None}, "Ana")
            h.ok({"type": "wolf_vote", "target": None}, "Bruno")
    assert h.winner is None
    h.run_to("vote")
    vote_out(h, {n: "Fabio" for n in h.names if h.alive(n)})
    assert h.winner == "wolves"  # 2 werewolves, 2 others
    assert "reason_parity" in h.narrated()


def test_example8_villagers_win(game):
    h = game([W, W, V, V, V, V, V, SEER], captain=False)
    h.run_to("vote")
    vote_out(h, {n: "Ana" for n in h.names})
    assert h.winner is None
    h.run_to("vote")
    vote_out(h, {n: "Bruno" for n in h.names if h.alive(n)})
    assert h.winner == "village"
    out = GAME.outcome(h.state)
    assert out["winners"] == [2, 3, 4, 5, 6, 7]
    assert "victory_village" in h.narrated() and "reason_no_werewolves" in h.narrated()


def test_lovers_of_different_camps_win_as_the_last_two(game):
    h = game([W, W, V, CUPID, V, V, V, SEER], captain=False)
    h.run_to("cupid")
    h.ok({"type": "cupid", "lovers": [0, 2]}, "Davi")  # Ana (W) + Carla
    for out in ("Bruno", "Davi", "Eva", "Fabio", "Gil"):
        h.run_to("vote")
        vote_out(h, {n: out for n in h.names if h.alive(n)})
        assert h.winner is None
    h.run_to("vote")
    vote_out(h, {n: "Hugo" for n in h.names if h.alive(n)})
    assert h.winner == "lovers" and GAME.outcome(h.state)["winners"] == [0, 2]


def test_the_whole_log_is_shown_to_everyone_at_the_end(game):
    h = game(BASIC, captain=False)
    wolves_kill(h, "Carla")
    assert GAME.public_view(h.state).get("journal") is None
    h.ok({"type": "end_game"})
    public = GAME.public_view(h.state)
    assert any(j["key"] == "wolves_chose" for j in public["journal"])
    assert public["roles"][0] == {"seat": 0, "role": W}
    entry = {
        "seq": 3,
        "kind": "action",
        "body": {"type": "seer", "target": 1},
        "actor": {"seat": 5, "host": False},
        "t": 0,
    }
    assert GAME.history_view(h.state, entry, 2) == entry


def test_secret_history_entries_are_hidden_until_the_end(game):
    h = game(BASIC)
    entry = {
        "seq": 3,
        "kind": "action",
        "body": {"type": "seer", "target": 1},
        "actor": {"seat": 5, "host": False},
        "t": 0,
    }
    assert GAME.history_view(h.state, entry, 2) is None
    # not even the seer's own phone lists it: an entry there would show she acted
    assert GAME.history_view(h.state, entry, 5) is None
    vote = {**entry, "body": {"type": "vote", "target": 1}}
    assert GAME.history_view(h.state, vote, 2) == vote


def test_a_night_step_ended_by_the_clock_or_the_host_is_not_listed(game):
    """A night step whose role acted ends with no entry (the action is secret); one that
    ran out, or that the host ended, was listed for every phone ("Host ended the step"), so
    the table learnt that nobody had acted: the seer's card a spare, or its holder dead.
    The day's steps are listed as before, and everything once the game is over."""
    h = game(BASIC)
    h.run_to("seer")
    seer = h.state["step"]["id"]
    h.run_to("werewolves")
    wolves = h.state["step"]["id"]

    def entry(body: dict) -> dict:
        return {"seq": 9, "kind": "action", "body": body, "actor": {"seat": None, "host": True},
                "t": 0}

    for body in ({"type": "timeout", "step": seer}, {"type": "skip", "step": wolves},
                 {"type": "skip"}):
        assert GAME.history_view(h.state, entry(body), 2) is None, body
    h.run_to("vote")
    day = {"type": "skip", "step": h.state["step"]["id"]}
    assert GAME.history_view(h.state, entry(day), 2) == entry(day)
    h.ok({"type": "end_game"})
    hidden = entry({"type": "timeout", "step": seer})
    assert GAME.history_view(h.state, hidden, 2) == hidden


def test_timers_adjustable_and_the_running_step_moves(game):
    h = game(BASIC, timers={"seer": 12})
    assert h.state["timers"]["seer"] == 12
    h.run_to("seer")
    h.ok({"type": "set_timer", "step": "seer", "seconds": 40})
    assert h.state["step"]["deadline"] == h.state["step"]["started"] + 40
    h.no({"type": "set_timer", "step": "seer", "seconds": 1}, code="bad_seconds")


def test_w7_wolves_kill_a_lover_at_night_and_both_are_announced(game):
    h = game([W, W, CUPID, V, V, V, V, SEER])
    h.run_to("cupid")
    h.ok({"type": "cupid", "lovers": [3, 4]}, "Carla")
    n = len(h.events)
    wolves_kill(h, "Davi")
    deaths = [(e["seat"], e["cause"]) for e in h.events[n:] if e["type"] == "death"]
    assert deaths == [(3, "night"), (4, "lover")]
    assert "died_lover" in h.narrated(n)


def test_morning_can_name_the_causes_as_an_option(game):
    h = game(BASIC, announce_causes=True)
    wolves_kill(h, "Carla")
    n = len(h.events)
    h.ok({"type": "witch", "heal": False, "poison": h.seat("Davi")}, "Eva")
    assert {e["seat"]: e["cause"] for e in h.events[n:] if e["type"] == "death"} == {
        2: "werewolves",
        3: "poison",
    }
    assert "died_werewolves" in h.narrated(n) and "died_poison" in h.narrated(n)


def test_background_sound_starts_at_night_and_stops_at_dawn(game):
    h = game(BASIC, background_sound=True)
    assert {"type": "ambience", "sound": "night"} in h.events
    wolves_kill(h, "Carla")
    h.timeout()
    assert h.events.count({"type": "ambience", "sound": None}) == 1


def test_hunter_lover_killed_at_night_takes_his_lover_and_shoots(game):
    h = game([W, W, CUPID, V, V, V, V, SEER, HUNTER], captain=False)
    h.run_to("cupid")
    h.ok({"type": "cupid", "lovers": [3, 8]}, "Carla")  # Davi and Iris, the hunter
    wolves_kill(h, "Iris")
    assert not h.alive("Iris") and not h.alive("Davi")
    assert h.step == "hunter"
    h.ok({"type": "hunter_shoot", "target": 0}, "Iris")
    assert not h.alive("Ana") and h.step == "debate"


def test_the_story_tells_a_step_the_host_ended_from_one_whose_time_ran_out(game):
    """The host ended the debate early: the story said "Time ran out (debate)"."""
    from companion.games.werewolf.script import render_journal

    h = game(BASIC, captain_election="before_night1")
    for n in h.names:
        h.ok({"type": "captain_vote", "target": 3}, n)
    wolves_kill(h, "Carla")
    h.timeout()  # the witch's time runs out
    assert h.step == "debate"
    h.ok({"type": "skip"})  # the host ends the debate
    ends = [j for j in h.state["journal"] if j["key"] in ("timeout", "ended_early")]
    assert [(j["key"], j["params"]["step"]) for j in ends[-2:]] == [
        ("timeout", "witch"), ("ended_early", "debate")]
    said = render_journal(ends[-1], h.names, "pt_BR")
    assert said.startswith("O anfitrião encerrou antes (") and "padrão" in said


@pytest.mark.parametrize(("seconds", "key"), [(60, "debate_start_one"), (80, "debate_start_one"),
                                              (300, "debate_start")])
def test_a_one_minute_debate_is_said_in_the_singular(game, seconds, key):
    """A 6 s or 60 s debate was announced as "You have 1 minutes"."""
    h = game(BASIC, captain_election="before_night1", timers={"debate": seconds})
    for n in h.names:
        h.ok({"type": "captain_vote", "target": 3}, n)
    wolves_kill(h, "Carla")
    n = len(h.events)
    h.timeout()
    assert h.step == "debate" and key in h.narrated(n)
