"""The score pad: rounds of per-player scores for any game without a companion of its own."""

from companion.games.scorepad.rules import ScorePad

GAME = ScorePad()
