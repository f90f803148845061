"""A taught card's name as typed on a phone, in any script, folded to one spelling."""

from __future__ import annotations

import pytest

from companion.cards import fold_taught_name, spelled


@pytest.mark.parametrize("typed,folded", [
    ("Ataque três", "ataque-tres"),  # Latin: accents dropped, as before
    ("Red 7", "red-7"), ("  --Star!! ", "star"), ("ÉCLAIR", "eclair"),
    ("攻击三", "攻击三"),  # Chinese: kept (it was folded to nothing, and refused)
    ("攻击 三", "攻击-三"), ("Ａ１", "a1"),  # full-width forms: NFKC
    ("нападение 3", "нападение-3"), ("नमस्ते कार्ड", "नमस्ते-कार्ड"),  # marks kept on their letters
    ("../etc/passwd", "etc-passwd"), ("a.b/c\\d\0e", "a-b-c-d-e"),  # safe as a file name
    ("?!", ""),
])
def test_taught_names_fold_to_letters_and_digits_of_any_script(typed, folded):
    assert fold_taught_name(typed) == folded


def test_the_built_in_decks_are_still_spelled_their_own_way():
    assert spelled("uno", "Red 7") == "red-7" and spelled("french", "10h") == "10H"
    assert spelled("uno", "攻击三") is None
