"""Game id -> game object. A new game registers here and nowhere else."""

from __future__ import annotations

import importlib
import importlib.util
import logging

from companion.games.base import Game

# id -> module holding ``GAME``; imported lazily so one broken game cannot stop the others.
_MODULES: dict[str, str] = {
    "scorepad": "companion.games.scorepad",
    "uno": "companion.games.uno",
    "werewolf": "companion.games.werewolf",
    "versus": "companion.games.versus",
    "quiz": "companion.games.quiz",
    "kingsburg": "companion.games.kingsburg",
    "huangdi": "companion.games.huangdi",
    "doudizhu": "companion.games.doudizhu",
}


def register(game_id: str, module: str) -> None:
    _MODULES[game_id] = module


def game_ids() -> list[str]:
    """The games that are installed (a registered module that is not there is skipped)."""
    return [gid for gid, mod in _MODULES.items() if importlib.util.find_spec(mod) is not None]


def get_game(game_id: str) -> Game:
    """The game for an id; KeyError for an unknown one."""
    module = _MODULES[game_id]
    return importlib.import_module(module).GAME


def all_games() -> dict[str, Game]:
    """Every game that loads; one that fails to import is logged and left out, so a broken
    game never takes the others (or the home page) down."""
    games = {}
    for gid in game_ids():
        try:
            games[gid] = get_game(gid)
        except Exception:
            logging.getLogger(__name__).exception("game %s failed to load", gid)
    return games
