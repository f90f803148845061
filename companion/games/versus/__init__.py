"""Versus: the slap referee (rules/versus.md), judged by the buttons' edge times and the
camera's pile tops."""

from companion.games.versus.rules import Versus

GAME = Versus()
