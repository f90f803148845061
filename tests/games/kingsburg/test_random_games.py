"""Whole five-year games played by random legal choices (hypothesis): after every action
goods, soldiers and tokens are never negative, no advisor holds two players in a season but
through the Envoy, buildings keep their rows, each score is the sum of its breakdown (and
never below 0 with ``negative_scores`` off), the views and the export read, and every refused
move changes nothing."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.kingsburg import GAME
from tests.games.kingsburg.conftest import Table, random_action

OPTION_SETS = st.fixed_dictionaries({
    "plus2_limit": st.sampled_from(["season", "advisor"]),
    "negative_scores": st.booleans(),
    "barracks_pay": st.sampled_from(["good", "gold"]),
    "lost_building": st.sampled_from(["owner_chooses", "rightmost"]),
    "two_player_block": st.booleans(),
    "enemy_cards": st.sampled_from(["table", "app"]),
    "cathedral_spends": st.booleans(),
})


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 5), seed=st.integers(0, 2**32 - 1), options=OPTION_SETS)
def test_random_legal_games_keep_every_invariant_to_the_end(players, seed, options):
    rnd = random.Random(seed)
    t = Table(players, seed, **options)
    steps = 0
    while not t.state["ended"]:
        action, seat = random_action(t.state, rnd)
        t.do(action, seat)  # (Table.do checks the invariants after every action)
        steps += 1
        if steps % 17 == 0:
            for s in range(players):
                GAME.player_view(t.state, s)
            # a random junk move by a random seat is refused and changes nothing
            t.no({"type": rnd.choice(["influence", "build", "choose", "recruit", "roll"]),
                  "advisor": 0, "building": "moat", "goods": ["gems"], "soldiers": -1,
                  "dice": [9]}, rnd.randrange(players))
        assert steps < 2000
    assert t.state["year"] == 5 and t.state["phase"] == 8
    out = GAME.outcome(t.state)
    assert out["winners"] and sorted(out["ranking"]) == list(range(players))
    series = GAME.public_view(t.state)["series"]
    assert all(line[-1] == p["vp"] for line, p in zip(series, t.state["p"], strict=True))
    assert len(GAME.export(t.state)["rows"]) == 40
