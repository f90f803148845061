"""Werewolf: the companion as game master (night narration, timers, secret phone input)."""

from companion.games.werewolf.game import Werewolf

GAME = Werewolf()
