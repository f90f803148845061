"""Kingsburg: the companion keeps the whole state of the dice-placement board game
(rules/kingsburg.md; decisions in docs/games/kingsburg.md).

Modules: ``data`` (advisors, buildings, enemies), ``options``, ``actions`` (the API),
``core`` (the state's helpers), ``placements`` (legal placements, K10-K16), ``flow`` (the
calendar, the King's phases), ``season`` (roll, influence, help, construction), ``choices``,
``recruit``, ``battle``, ``scoring``, ``position`` (start from a position, corrections),
``camera`` (on_dice_seen), ``views``, ``game`` (the ``GAME`` object).
"""

from companion.games.kingsburg.game import Kingsburg

GAME = Kingsburg()
