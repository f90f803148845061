"""The narration script: every line the game can say exists in all three languages."""

from __future__ import annotations

import random
import re
import string

import pytest

from companion.games.base import HOST, Accepted, Actor, Context, resolve_options
from companion.games.werewolf import GAME, script
from companion.games.werewolf.game import HANDLERS


def _fields(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


def test_the_three_languages_have_the_same_lines_and_fields():
    keys = set(script.LINES["en"])
    for lang in script.LANGUAGES:
        assert set(script.LINES[lang]) == keys, lang
        for key in keys:
            assert _fields(script.LINES[lang][key]) == _fields(script.LINES["en"][key]), key
        assert set(script.ROLE_NAMES[lang]) == set(script.ROLE_NAMES["en"])


JOURNALS: list[tuple[list[str], list[dict]]] = []


def _emitted_keys() -> set[str]:
    keys = set()
    for seed in range(30):
        rng = random.Random(seed)
        roles = {
            "werewolf": 2,
            "seer": 1,
            "witch": 1,
            "hunter": 1,
            "cupid": 1,
            "little_girl": 1,
            "thief": 1,
            "villager": 3,
        }
        opts = {
            "roles": roles,
            "announce_causes": seed % 2 == 0,
            "wolves_win": rng.choice(["seed", "parity"]),
            "revote_tie": rng.choice(["nobody", "lot"]),
            "starvation": seed % 5 == 0,
        }
        s = GAME.setup([f"p{i}" for i in range(9)], resolve_options(GAME.options, opts), rng)
        s = GAME.apply(s, {"type": "start"}, Context(HOST, rng, 0.0)).state
        now = 0.0
        for _ in range(600):
            if s["phase"] == "over":
                break
            step = s["step"]
            kind = rng.choice(sorted(HANDLERS))
            action = {
                "type": kind,
                "target": rng.choice([rng.randrange(9), None]),
                "take": rng.choice([0, 1]),
                "lovers": rng.sample(range(9), 2),
                "heal": rng.random() < 0.5,
            }
            if rng.random() < 0.25:
                now = step["deadline"]
                action = {"type": "timeout"}
            actor = rng.choice([HOST, Actor(seat=rng.randrange(9))])
            r = GAME.apply(s, action, Context(actor, rng, now))
            if isinstance(r, Accepted):
                s = r.state
                keys |= {e["key"] for e in r.events if e["type"] == "narrate"}
                for e in r.events:
                    if e["type"] == "narrate":
                        for lang in script.LANGUAGES:
                            text = script.render(e["key"], e["params"], lang)
                            assert text and "{" not in text, (e, lang)
        JOURNALS.append((s["players"], s["journal"]))
    return keys


def test_every_line_the_game_says_renders_in_every_language():
    keys = _emitted_keys()
    assert len(keys) >= 25
    missing = keys - set(script.LINES["en"])
    assert not missing


def test_roles_and_names_are_translated():
    assert script.render("died_vote", {"name": "Ana", "role": "seer"}, "pt_BR") == (
        "A aldeia decidiu: Ana sai do jogo. Ana era a vidente."
    )
    assert script.render("tie_revote", {"names": ["Ana", "Bruno", "Caio"]}, "zh_Hans") == (
        "Ana、Bruno和Caio平票，重新投票。"
    )
    assert script.render("debate_start", {"minutes": 5.0}, "en").startswith(
        "Debate. You have 5 minutes"
    )
    assert script.render("no_such_line", {}, "en") == ""


@pytest.mark.parametrize(
    "given,expected",
    [("pt-BR", "pt_BR"), ("zh", "zh_Hans"), ("zh_Hans", "zh_Hans"), (None, "en"), ("fr", "en")],
)
def test_language_names(given, expected):
    assert script.language(given) == expected


def test_no_line_names_a_secret_parameter():
    secret = {"victim", "target_role", "lovers", "spares", "wolves"}
    for lang in script.LANGUAGES:
        for template in script.LINES[lang].values():
            assert not (_fields(template) & secret)
            assert not re.search(r"\{role\}", template) or "{name}" in template


def test_the_whole_story_renders_in_every_language():
    if not JOURNALS:
        _emitted_keys()
    kinds = set()
    for players, journal in JOURNALS:
        for entry in journal:
            kinds.add(entry["key"])
            for lang in script.LANGUAGES:
                text = script.render_journal(entry, players, lang)
                assert text and "{" not in text and "None" not in text, (entry, lang, text)
    assert {"dealt", "night_falls", "died", "wolves_chose", "witch", "seer_saw"} <= kinds
    for table in (script.JOURNAL, script.WORDS):
        assert set(table["pt_BR"]) == set(table["en"]) == set(table["zh_Hans"])
    assert set(script.catalogue("pt-BR")) == {"lines", "roles", "journal", "words"}
