"""Dou Di Zhu 斗地主 (rules/doudizhu.md): the referee of a landlord against two peasants."""

from companion.games.doudizhu.game import DouDiZhu

GAME = DouDiZhu()
