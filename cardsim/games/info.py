"""What the shared code says and does about one game, without loading the game: ``GameInfo``.

Each game's ``cardsim/games/<game>/info.py`` holds one ``INFO = GameInfo(...)``; the registry
(``cardsim.games.game_info``) reads it for the CLI's help, the first-run notices and their estimates, ``cardsim
warmup``, the figures, the experiment scripts, the benchmarks and the shared tests. The module imports nothing
heavy (no numba, no game module), so reading a game's info costs nothing; and no module that defines kernels
imports an ``info.py``, so editing one (an estimate, a label) recompiles nothing (``cardsim.jit.kernel_cache``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

Unit = Literal["rounds", "games"]


@dataclass(frozen=True)
class GameLabels:
    """How a game's numbers are named on figures (``cardsim.plots``), and which columns are a bid and its result."""

    unit: str  # of the score: "penalty points", "points"
    round: str  # what one row's round is called: "round", "deal"
    bid: str
    result: str
    bid_label: str
    result_label: str
    bid_bin: int = 1  # bin width of the heatmap (in the bid's unit)
    declarers_only: bool = False  # the bid belongs to the round's declarer, not to every seat
    hit: Literal["exact", "made"] = "exact"  # a bid is met when result == bid, or when result >= bid


@dataclass(frozen=True)
class Advice:
    """How ``cardsim advise`` is asked about the game (``cardsim/games/<game>/advise.py``)."""

    hand: str  # an example hand for the help
    trump: str  # what --trump is in this game, for the help
    strong: bool = False  # its completions can play strong bots (``cardsim warmup --strong`` compiles them)


@dataclass(frozen=True)
class Studies:
    """The game's settings in the experiment scripts (``experiments/``) and the strength benchmark."""

    tournament: tuple[Unit, int, int]  # experiments/tournament.py: whole games or single deals, default size, --smoke
    ladder: str  # experiments/ladder.py: the bots rated (random, the heuristic, a baseline, the strongest)
    strength: Unit = "rounds"  # benchmarks/strength.py: a strong bot's advantage per round or per whole game


@dataclass(frozen=True)
class Reference:
    """The game's C program of random self-play for ``benchmarks/throughput.py --reference``: the engine's rules and
    random streams in a tight loop. It prints one JSON line with ``rounds_per_s`` and, per seat, ``<score>_sum`` and
    ``<score>_sq_sum`` (``<score>`` the game's score column; with whole games also ``game_<score>_sum``,
    ``game_<score>_sq_sum`` and ``wins``)."""

    source: str  # its C source, from the repository root (benchmarks/reference_<game>.c)
    # Its arguments per unit ("rounds", "games"), formatted with ``units``, ``seed`` and the rules' fields. A run of
    # a unit it lacks is timed against the same number of its single rounds, and not compared.
    argv: Mapping[str, tuple[str, ...]]
    counts: Mapping[str, str] = field(default_factory=dict)  # summary rate column -> its per-seat count of the hits


@dataclass(frozen=True)
class Cases:
    """What the shared tests (tests/test_contract.py, tests/conftest.py) play in the game; its checks of a record
    against the plain-Python reference are ``tests/cases_<game>.py``."""

    variants: tuple[tuple[str, ...], ...]  # rule settings played besides the default rules
    strong_bots: tuple[str, ...]  # every strong bot (cheating ones too) at settings small enough for tests
    record_scores: str  # the replay record's list of the seats' scores
    steps_per_round: int | None = None  # the decisions of every round where fixed (None: at least one per seat)


@dataclass(frozen=True)
class GameInfo:
    """Everything shared code needs to know about one game besides its ``Game`` front (``game.py``)."""

    name: str  # its registry name and package, cardsim/games/<name>/ (lower case: what users type)
    title: str  # how text names it: "Wizard", "call-partner"
    players: tuple[int, ...]  # the numbers of players its rules allow (``Game.players``)
    default_players: int  # without a players rule (``Game.seats()``)
    shown: tuple[str, ...]  # ``new_round``'s keywords for the shown cards of given hands (``Game.start``)
    labels: GameLabels
    estimates: Mapping[str, float]  # cold compile seconds per kind of kernels (``cardsim.jit.compiling``)
    studies: Studies
    cases: Cases
    examples: tuple[str, ...] = ()  # command lines for ``cardsim --help`` (without ``cardsim``)
    advice: Advice | None = None  # None: no bid advice
    example_bot: str | None = None  # its Python bot class in bots/examples.py (tests, compile_times.py)
    reference: Reference | None = None  # None: no C reference
    openspiel: str | None = None  # its OpenSpiel game (benchmarks/throughput.py --openspiel times that loop)
    cards_rule: str = "cards"
    # the reward of an illegal action in the environments (cardsim.envs), on the scale of the game's own scores
    # (sign as the reward's: minus a penalty): about the worst result a round can bring
    illegal_reward: float = -1.0  # the rule option ``--cards K`` stands for (cards per player in single rounds)
