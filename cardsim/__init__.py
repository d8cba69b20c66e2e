"""cardsim: a Monte Carlo simulation and strategy lab for trick-taking card games.

>>> from cardsim import simulate
>>> result = simulate("differenzler", "heuristic,random,random,random", rounds=10_000, seed=7)
>>> result.summary  # one row per seat: mean penalty, std, 95% CI
"""

from cardsim.engine import Result, replay, simulate
from cardsim.errors import CardsimError
from cardsim.games import get_game

__version__ = "0.1.0"
__all__ = ["CardsimError", "Result", "get_game", "replay", "simulate", "__version__"]
