"""Huang Di: a referee for the physical "build the walls" card game (rules/huangdi.md;
decisions in docs/games/huangdi.md).

Modules: ``spec`` (options and the actions of the API), ``rules`` (the referee and the
``HuangDi`` game), ``camera`` (zones and ``on_card_seen``).
"""

from companion.games.huangdi.rules import HuangDi

GAME = HuangDi()
