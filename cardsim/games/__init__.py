"""The games cardsim plays, by name: one line per game in ``GAMES``.

A game is one package, ``cardsim/games/<game>/``: its rules, state machine, batch kernel and advice, its ``Game``
front (``game.py``: ``GAME``) and what shared code says about it (``info.py``: ``INFO``, a
``cardsim.games.info.GameInfo``). ``game_info`` reads the latter without loading the game; ``get_game`` loads the
front. This module imports nothing heavy (no numba, no game): the front's names (``Game``, ``Course``,
``replay_title``, ...) are handed on from ``cardsim.front`` when first asked for.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from cardsim.errors import CardsimError
from cardsim.games.info import GameInfo

if TYPE_CHECKING:
    from cardsim.front import Game

GAMES = {
    "differenzler": "cardsim.games.differenzler",
    "wizard": "cardsim.games.wizard",
    "callpartner": "cardsim.games.callpartner",
    "ohhell": "cardsim.games.ohhell",
}
FRONT = ("Game", "Course", "replay_title", "VERBS", "MAX_ACTIONS")  # cardsim.front's names, as cardsim.games.X


def _package(name: str) -> str:
    """The package of the game called ``name`` (case-insensitive), or a clear error listing the games."""
    key = str(name).strip().lower()
    if key not in GAMES:
        raise CardsimError(f"unknown game '{name}'; games: {', '.join(GAMES)}")
    return GAMES[key]


def game_info(name: str) -> GameInfo:
    """What shared code says about the game called ``name`` (case-insensitive; its ``info.py``), without loading
    the game."""
    return importlib.import_module(f"{_package(name)}.info").INFO


def get_game(name: str) -> Game:
    """The game called ``name`` (case-insensitive): its ``Game`` front, or a clear error listing the games."""
    return importlib.import_module(f"{_package(name)}.game").GAME


def __getattr__(name: str) -> Any:
    """``cardsim.front``'s names (``from cardsim.games import Game``), imported on first use."""
    if name in FRONT:
        import cardsim.front

        return getattr(cardsim.front, name)
    raise AttributeError(f"module 'cardsim.games' has no attribute {name!r}")
