"""Random hands played out by legal choices (hypothesis), with every card accounted for.

* The app deals (option ``deal`` "app"): the players choose among the plays their phone's
  hint offers (or pass); the referee holds the hands, and after every action hands + kitty
  + plays make up the pack exactly (54 cards, 108 with four players), and each phone's
  view holds its own hand and no other.
* Real cards (the default): a simulated table deals and plays, the referee sees only the
  plays; its counts follow the table's hands card for card, and a play the rules refuse
  (an illegal one, thrown in at random) changes nothing.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.doudizhu import GAME
from companion.games.doudizhu.cards import counts_of, deal_sizes, full_pack, names, rank_of
from companion.games.doudizhu.combos import Combo, beats, classify, plays, rules_of
from tests.games.doudizhu.conftest import Table

SETTINGS = settings(max_examples=20, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def _choose(rnd: random.Random, options: list, last) -> list | None:
    """A legal play, weighted to the small ones (longer hands), or None (pass)."""
    if last is not None and rnd.random() < 0.35:
        return None
    if not options:
        return None
    return rnd.choice(options[: max(1, len(options) // 2)])


@SETTINGS
@given(seed=st.integers(0, 2**31), players=st.sampled_from([3, 3, 4]))
def test_app_dealt_hands_played_out(seed, players):
    rnd = random.Random(seed)
    t = Table(players=players, seed=seed, deal="app")
    first = t.h["first"]
    t.do({"type": "bid", "bid": rnd.randint(1, 3)}, first)
    while t.h["phase"] == "auction":
        t.pass_(t.h["turn"])
    assert t.h["phase"] == "play"
    for _ in range(400):
        if t.h["phase"] != "play":
            break
        seat = t.h["current"]
        view = GAME.player_view(t.state, seat)
        assert view["me"]["hand"] == t.h["dealt"][seat]
        # (each phone its own hand: with two packs two hands may be alike, down to a 3S each)
        other = GAME.player_view(t.state, (seat + 1) % players)
        assert other["me"]["hand"] == t.h["dealt"][(seat + 1) % players]
        assert "dealt" not in str(GAME.public_view(t.state))
        hand = counts_of([rank_of(c) for c in t.h["dealt"][seat]])
        options = [names(v) for _, v in plays(hand, rules_of(t.state), _last(t))]
        pick = _choose(rnd, options, t.h["last"])
        if pick is None and t.h["last"] is not None:
            t.pass_(seat)
        else:
            pick = pick or next(names(v) for _, v in plays(hand, rules_of(t.state)))
            t.do({"type": "play", "cards": pick}, seat)
    assert t.h["phase"] == "over"
    r = t.h["result"]
    assert sum(r["points"]) == 0 and t.h["counts"][r["winner"]] == 0


def _last(t: Table) -> Combo | None:
    last = t.h["last"]
    return None if last is None else Combo(last["kind"], last["key"], last["length"],
                                           last["size"])


@SETTINGS
@given(seed=st.integers(0, 2**31), players=st.sampled_from([3, 3, 4]))
def test_real_cards_referee_follows_the_table(seed, players):
    rnd = random.Random(seed)
    size, _kitty = deal_sizes(players)
    pack = full_pack(players)
    rnd.shuffle(pack)
    hands = [pack[i * size:(i + 1) * size] for i in range(players)]
    lord = rnd.randrange(players)
    hands[lord] += pack[players * size:]
    t = Table(players=players, seed=seed)
    t.do({"type": "bid", "bid": 3}, lord)
    t.do({"type": "kitty", "cards": pack[players * size:]}, lord)
    rules = rules_of(t.state)
    for _ in range(500):
        if t.h["phase"] != "play":
            break
        seat = t.h["current"]
        assert t.h["counts"] == [len(h) for h in hands]
        hand = counts_of([rank_of(c) for c in hands[seat]])
        if rnd.random() < 0.15:  # someone lays an illegal set: refused, nothing changes
            junk = rnd.sample(hands[seat], min(len(hands[seat]), rnd.randint(2, 5)))
            c = classify(counts_of([rank_of(x) for x in junk]), rules)
            if isinstance(c, str) or (_last(t) and beats(c, _last(t), rules)):
                t.no({"type": "play", "cards": junk}, seat)
        options = [v for _, v in plays(hand, rules, _last(t))]
        pick = _choose(rnd, options, t.h["last"])
        if pick is None and t.h["last"] is not None:
            t.pass_(seat)
            continue
        pick = pick or next(v for _, v in plays(hand, rules))
        cards = []
        for r, k in enumerate(pick):  # the real cards: suits and all
            held = [c for c in hands[seat] if rank_of(c) == r][:k]
            cards += held
        for c in cards:
            hands[seat].remove(c)
        t.do({"type": "play", "cards": cards}, seat)
    assert t.h["phase"] == "over" and not hands[t.h["winner"]]
    assert sum(len(h) for h in hands) + sum(t.h["played"]) == len(pack)
