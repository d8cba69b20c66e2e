"""cardsim: a Monte Carlo simulation and strategy lab for trick-taking card games.

>>> from cardsim import simulate
>>> result = simulate("differenzler", "heuristic,random,random,random", rounds=10_000, seed=7)
>>> result.summary  # one row per seat: mean penalty, std, 95% CI
"""

from cardsim import kernel_cache, threading_layer

kernel_cache.configure()  # before any kernel is defined
threading_layer.load_tbb()  # before any kernel runs

from cardsim.engine import Result, replay, simulate  # noqa: E402
from cardsim.errors import CardsimError  # noqa: E402
from cardsim.games import get_game  # noqa: E402

__version__ = "0.1.0"
__all__ = ["CardsimError", "Result", "get_game", "replay", "simulate", "__version__"]
