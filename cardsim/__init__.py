"""cardsim: a Monte Carlo simulation and strategy lab for trick-taking card games.

>>> from cardsim import new_round, simulate, warmup
>>> result = simulate("differenzler", "heuristic,random,random,random", rounds=10_000, seed=7)
>>> result.summary  # one row per seat: mean penalty, std, 95% CI
>>> r = new_round("differenzler", seed=7, round=12)  # one round, move by move
>>> r.play(r.legal()[0])
>>> ladder("wizard", "random,heuristic,mc", deals=2000).ratings  # Elo ratings with 95% CIs
>>> warmup(["wizard"], strong=True)  # compile ahead what a first run compiles (or: cardsim warmup wizard --strong)
"""

from cardsim.jit import compiler_flags, compiling, inlining, kernel_cache, threading_layer

kernel_cache.configure()  # before any kernel is defined
inlining.install()  # before any kernel compiles: inline="always" without numba's deep copies
compiler_flags.install()  # and numba's flags compared without a property call per option
threading_layer.load_tbb()  # before any kernel runs
compiling.install()  # a line on stderr whenever kernels compile

from cardsim.engine import Result, replay, simulate  # noqa: E402
from cardsim.errors import CardsimError  # noqa: E402
from cardsim.games import get_game  # noqa: E402
from cardsim.jit.precompile import warmup  # noqa: E402
from cardsim.round import Match, Round, new_game, new_round  # noqa: E402

__version__ = "0.1.0"
__all__ = ["CardsimError", "Match", "Result", "Round", "get_game", "ladder", "new_game", "new_round", "replay",
           "simulate", "warmup", "__version__"]  # fmt: skip


def __getattr__(name: str):
    """``cardsim.ladder`` (``cardsim.rating.ladder``), imported when first used: it needs the runner."""
    if name == "ladder":
        from cardsim.rating import ladder

        return ladder
    raise AttributeError(f"module 'cardsim' has no attribute {name!r}")
