"""A standard pack holds one of each card: a name given twice in a photo of one pack is wrong
at least once, and only the surest card keeps it (vision.identify.ONE_A_PACK); a photo of two
packs keeps two; the camera (Dou Di Zhu counts ranks only) has no such rule."""

from __future__ import annotations

import json
from dataclasses import replace

import cv2
import numpy as np
import pytest

from tests.vision.helpers import run
from vision.identify import Card, Identifier, _within_packs
from vision.synth import render_scene

QUAD = np.float32([[0, 0], [10, 0], [10, 15], [0, 15]])


def card(label, confidence):
    return Card(label, confidence, QUAD, best=label)


def test_the_surest_keeps_the_name_and_the_others_are_unsure_with_their_guess():
    cards = [card("10S", 0.9918), card("10S", 1.0), card("4H", 0.99), card(None, 0.4)]
    out = _within_packs(cards, 1)
    assert [c.label for c in out] == [None, "10S", "4H", None]
    assert out[0] == replace(cards[0], label=None) and out[0].best == "10S"
    assert out[1:] == cards[1:]


def test_two_packs_keep_two_of_a_name_and_jokers_are_spared():
    cards = [card("7H", 0.9), card("7H", 0.95), card("7H", 0.99), card("RJ", 0.9),
             card("RJ", 0.8)]
    assert [c.label for c in _within_packs(cards, 2)] == ["7H" if i else None
                                                          for i in range(3)] + ["RJ", "RJ"]
    assert [c.label for c in _within_packs(cards, 1)] == [None, None, "7H", "RJ", "RJ"]


@pytest.fixture(scope="module")
def two_ten_spades():
    return render_scene([("french", "10S"), ("french", "10S"), ("french", "4H")], seed=1)[0]


def test_one_pack_names_a_card_seen_twice_once(two_ten_spades):
    cards = Identifier("french", data_path="/nonexistent", packs=1).identify(two_ten_spades)
    assert sorted(c.label or "?" for c in cards) == ["10S", "4H", "?"]
    assert [c.best for c in cards if c.label is None] == ["10S"]


@pytest.mark.parametrize("packs", [2, None])
def test_two_packs_or_none_said_name_it_twice(two_ten_spades, packs):
    cards = Identifier("french", data_path="/nonexistent", packs=packs).identify(two_ten_spades)
    assert sorted(c.label for c in cards) == ["10S", "10S", "4H"]


def test_uno_packs_hold_two_of_a_card():
    image = render_scene([("uno", "red-7"), ("uno", "red-7")], seed=2)[0]
    cards = Identifier("uno", data_path="/nonexistent", packs=1).identify(image)
    assert [c.label for c in cards] == ["red-7", "red-7"]


def test_the_command_takes_the_packs(tmp_path, two_ten_spades, capsys):
    path = tmp_path / "two.png"
    cv2.imwrite(str(path), two_ten_spades)
    for packs, named in ((), ["10S", "4H"]), (("--packs", "2"), ["10S", "10S", "4H"]):
        assert run(["vision", "identify", "--deck", "french", "--json", *packs,
                    "--data-dir", str(tmp_path), str(path)]) == 0
        row = json.loads(capsys.readouterr().out)
        assert sorted(c["label"] for c in row["cards"] if c["label"]) == named


@pytest.mark.parametrize("packs", ["0", "x", "9"])
def test_a_bad_number_of_packs_is_refused(tmp_path, packs, capsys):
    with pytest.raises(SystemExit) as exc:
        run(["vision", "identify", "--deck", "french", "--packs", packs, str(tmp_path)])
    assert exc.value.code == 2
    assert f"not a number of packs from 1 to 8: '{packs}'" in capsys.readouterr().err
