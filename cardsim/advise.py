"""Bid advice for one hand: the expected result of every possible bid, from simulated completions.

``advise`` deals the unseen cards at random many times around a fixed hand
(and the trump the seat can see), plays each completion out with the chosen
bots, and tabulates, for every bid the seat could make, the mean result with
its 95% confidence interval. Each game's module ``cardsim.games.<game>.advise``
holds the game-specific part (the completion kernel and which bids exist);
this module holds what is shared: the result type, dispatch and text output.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from cardsim.games import get_game


@dataclass
class Advice:
    """The advice for one hand.

    ``options`` has one row per bid option: ``bid`` (its label), ``mean`` (expected
    score, or expected penalty in Differenzler), ``ci95`` (half-width), ``samples``,
    and game-specific columns. ``best`` is the label of the best option.
    ``details`` holds game extras (e.g. Differenzler's points distribution).
    """

    game: str
    hand: str
    seat: int
    players: int
    trump: str | None
    bots: tuple[str, ...]
    samples: int
    seed: int
    lower_is_better: bool
    options: pd.DataFrame
    best: Any
    details: dict[str, Any] = field(default_factory=dict)


def advise(game: str, hand: str, **settings: Any) -> Advice:
    """Advice for ``hand`` in ``game``; settings are the game module's (seat, trump, players, bots, samples, ...)."""
    name = get_game(game).name
    module = importlib.import_module(f"cardsim.games.{name}.advise")
    return module.advise(hand, **settings)
