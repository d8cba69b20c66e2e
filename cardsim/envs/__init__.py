"""Environments for AI research (the extra ``cardsim[rl]``: pettingzoo, gymnasium), every game from the same code.

- ``from cardsim.envs import wizard_v0`` (one ``<game>_v0`` per game of the registry, as PettingZoo names its
  own): ``wizard_v0.env(players=4, rules={...}, render_mode=None)`` and ``wizard_v0.raw_env(...)``, PettingZoo AEC
  environments (``cardsim.envs.aec``);
- ``single_agent(game, seat, opponents)``: a ``gymnasium.Env``, one seat against cardsim's bots
  (``cardsim.envs.single``);
- ``BatchEnv(game, n)``: ``n`` tables stepped by one compiled kernel, numpy in and out, and ``BatchVectorEnv`` (a
  ``gymnasium.vector.VectorEnv`` of it for one agent seat) (``cardsim.envs.batch``);
- ``encoding(game, ...)``: the actions and observations as arrays (``cardsim.envs.spaces``).

docs/rl.md describes the spaces field by field, the rewards and the seeding.
"""

from __future__ import annotations

from functools import partial
from types import SimpleNamespace
from typing import Any

from cardsim.games import GAMES

__all__ = ["BatchEnv", "BatchVectorEnv", "encoding", "single_agent", *(f"{game}_v0" for game in GAMES)]


def _versioned(game: str) -> SimpleNamespace:
    """``<game>_v0``: the game's ``env`` and ``raw_env``, as a PettingZoo environment module has them."""
    from cardsim.envs import aec

    return SimpleNamespace(__name__=f"cardsim.envs.{game}_v0", env=partial(aec.env, game),
                           raw_env=partial(aec.raw_env, game))  # fmt: skip


def __getattr__(name: str) -> Any:
    """The environments, imported on first use (pettingzoo and gymnasium only then)."""
    if name.endswith("_v0") and name[: -len("_v0")] in GAMES:
        return _versioned(name[: -len("_v0")])
    if name == "single_agent":
        from cardsim.envs.single import single_agent

        return single_agent
    if name in ("BatchEnv", "BatchVectorEnv"):
        from cardsim.envs import batch

        return getattr(batch, name)
    if name == "encoding":
        from cardsim.envs.spaces import encoding

        return encoding
    raise AttributeError(f"module 'cardsim.envs' has no attribute {name!r}")
