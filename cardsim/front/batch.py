"""``Game``'s batches: many units (single rounds or whole games) as result arrays, through the compiled kernel or
the Python driver, with a compiled bot's failed decision found and named."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

import numpy as np

from cardsim.deal import Work
from cardsim.driver import play_round
from cardsim.errors import BotFailure, CardsimError, bot_failure
from cardsim.front.contract import Required, required
from cardsim.games.generic import round_dealer
from cardsim.lineup import Lineup
from cardsim.numba_bots import entry, raised
from cardsim.results import Batch


class BatchPart:
    """The rows a run produces: the game's result columns, its kernel's work items, and ``run``'s error hunt."""

    score: ClassVar[str] = Required("the per-round result column summarised per seat")
    lower_is_better: ClassVar[bool] = Required("whether a lower score is better (a penalty)")
    categories: ClassVar[dict[str, list[str]]] = {}  # int-coded columns and their labels
    may_be_empty: ClassVar[frozenset[str]] = frozenset()  # categories whose code -1 means none (a null in the rows)
    ratios: ClassVar[dict[str, tuple[str, str]]] = {}  # name -> (rate, rate): hits of the first per hit of the second
    play_module: ClassVar[Any] = Required("the game's cardsim/games/<game>/play.py (simulate_games, the batch kernel)")
    play_blocks: ClassVar[tuple] = Required(
        "the batch kernel's work items: for built-in bots only, and with a strong or numba bot")
    random_block: ClassVar[Any] = None  # the work item for random bots' unchecked single rounds, in pairs, if any
    random_games_block: ClassVar[Any] = None  # and for their whole games (a game with one has the other)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if (cls.random_block is None) != (cls.random_games_block is None):  # else a random run fails, not the import
            raise TypeError(f"the game class {cls.__module__}.{cls.__qualname__} sets one of random_block and "
                            "random_games_block: a game with the random lineups' single rounds in pairs has their "
                            "whole games too")  # fmt: skip

    @required
    def batch(self, rules: Any, lineup: Lineup, seed: int, start: int, count: int, games: bool, **options: Any
              ) -> Batch:  # fmt: skip
        """Units ``start .. start+count-1`` (single rounds, or whole games) as a batch of arrays: the compiled
        kernel, or the plain-Python driver for a lineup with a Python bot (or ``engine="python"``). ``tables``
        plays them in several seatings at once (``seatings``; ``run_rotations``)."""

    def run(self, rules: Any, lineup: Lineup, seed: int, start: int, count: int, games: bool, check: bool = False,
            **options: Any) -> Batch:  # fmt: skip
        """``batch``, with a compiled bot's failed decision (``BotFailure``) reported as RULES.md D2 asks: the
        failing unit is found by re-running halves of the range (a few times its time), then replayed one decision
        at a time with the same draws (D3), which raises the ``CardsimError`` naming the bot, seed, round, seat,
        decision, the illegal action and the legal ones. ``check``: the round's invariants are checked after every
        step too (``--check``), a broken one reported the same way. (A ``BotFailure`` raised in a work item, which
        the kernel calls through its address, numba only prints: ``numba_bots.raised`` raises it once the kernel is
        done. One raised in a parallel loop itself would reach here as numba's ``SystemError`` around it:
        ``errors.bot_failure``.)"""
        def batch(start: int, count: int) -> Batch:
            with raised(True):  # the kernels call their work items through an address: numba only prints errors
                return self.batch(rules, lineup, seed, start, count, games, check=check, **options)

        try:
            return batch(start, count)
        except (BotFailure, SystemError) as exc:
            if bot_failure(exc) is None:
                raise
        while count > 1:  # the error is raised below, outside the handler: its traceback would repeat the kernel's
            try:
                batch(start, count // 2)
                start, count = start + count // 2, count - count // 2
            except (BotFailure, SystemError) as exc:
                if bot_failure(exc) is None:
                    raise
                count //= 2
        self.play_unit_py(rules, lineup, seed, start, games, stepped=True, check=check)
        raise CardsimError(f"{self.name}, seed {seed}: a compiled bot's decision failed in unit {start}, but not when "
                           "replayed one decision at a time (a bug in cardsim: please report it)")  # fmt: skip

    def run_rotations(self, rules: Any, lineups: list[Lineup], seed: int, start: int, count: int, games: bool,
                      check: bool = False) -> Iterator[Batch]:  # fmt: skip
        """``run`` of the same units by each of ``lineups`` (a duplicate deal's seatings, ``cardsim.runner``), each
        batch yielded as it is played. Built-in bots only: one kernel call plays every seating, each single round
        dealt once and started again for the others (``state.redeal``; the deal is about a sixth of random
        self-play), the same numbers as a call per seating (``tests/test_rotations.py``). A failed decision there
        is found again by ``run`` per seating, so that its error names the seating (the caller counts the batches
        it has)."""
        if len(lineups) > 1 and all(self._builtin_only(lineup) for lineup in lineups):
            try:
                with raised(True):
                    batch = self.batch(rules, lineups[0], seed, start, count, games, check=check,
                                       tables=np.concatenate([lineup.table for lineup in lineups]))  # fmt: skip
            except (BotFailure, SystemError) as exc:
                if bot_failure(exc) is None:
                    raise
            else:
                yield from batch.split(len(lineups))
                return
        for lineup in lineups:
            yield self.run(rules, lineup, seed, start, count, games, check)

    @staticmethod
    def _builtin_only(lineup: Lineup) -> bool:
        """Every seat holds a compiled built-in bot, none a strong one (strong lineups keep a kernel call per
        seating: their progress bar moves after each)."""
        return all(isinstance(b, int) for b in lineup.bots) and lineup.strong_table is None

    def seatings(self, rules: Any, lineup: Lineup, engine: str, tables: np.ndarray | None) -> int:
        """How many seatings ``batch`` plays each unit in: 1, or those of ``tables`` (float64[seatings * seats,
        columns], their bot tables one under the other: ``run_rotations``), which only the compiled kernels play."""
        if tables is None:
            return 1
        if not lineup.compiled or engine == "python":
            raise CardsimError(f"{self.name}: several seatings in one batch need the compiled engine and bots")
        return len(tables) // self.seats(rules)

    def simulate(self, rules: Any, lineup: Lineup, params: Any, seed: int, start: int, games: bool,
                 checks: np.ndarray | None, out: tuple, tables: np.ndarray | None = None) -> None:  # fmt: skip
        """The compiled batch kernel (``play.simulate_games``) over the units of ``out``, the game's tuple of result
        arrays: units ``start ..`` of ``seed``, single rounds or whole ``games``, played by ``lineup``, or by each
        seating of ``tables`` in turn (``seatings``; seating k's units at ``out[k * count + u]``). Each work item
        of its parallel loop is played by the game's ``play_blocks[asking]`` (asking: the lineup has a strong or
        numba bot), or by its ``random_block`` (``random_games_block``) for random bots only if it has one
        (``work_item``); called through its address (``numba_bots.entry``)."""
        table = lineup.table if tables is None else tables
        strong = self.strong_function(rules, table)
        args = (Work(np.uint64(seed), start, games, np.uint64(0)), params, table, strong, lineup.functions, checks,
                out)  # fmt: skip
        block = self.work_item(table, strong is not None or lineup.functions is not None, checks is not None, games)
        self.play_module.simulate_games(*args, entry(block, *self.scratch(params), *args))

    def work_item(self, table: np.ndarray, asking: bool, checked: bool, games: bool) -> Any:
        """The work item that plays a lineup's units (``simulate``): ``play_blocks[asking]`` (asking: a strong or
        numba bot), or ``random_block`` where the game has one, ``table`` seats random bots only and the units are
        not ``checked`` (the pairs check nothing: ``--check`` takes ``play_blocks``); ``random_games_block`` for
        ``games``."""
        if self.random_block is not None and not checked and (table[:, 0] == self.builtin_bots["random"]).all():
            return self.random_games_block if games else self.random_block
        return self.play_blocks[asking]

    def scratch(self, params: Any) -> tuple:
        """What the game's batch kernel allocates for each work item and passes it first (``simulate``: these values
        type the work item), e.g. call-partner's ``play.scratch``; nothing by default."""
        return ()

    def rates(self, batch: Batch) -> dict[str, np.ndarray]:
        """The game's own yes/no measures as [round, seat], summarised per seat as rates (e.g. exact predictions)."""
        return {}

    def play_unit_py(
        self, rules: Any, lineup: Lineup, seed: int, unit: int, games: bool, upto: int | None = None,
        stepped: bool = False, check: bool = False,
    ) -> list:  # fmt: skip
        """Finished round states of one unit through the Python driver: a single round, or a whole game (up to
        round ``upto``). Round r > 0 of a game is dealt by the seat after the first round's (``dealer_of``).
        ``stepped`` and ``check``: see ``driver.play_round``."""
        states: list = []
        totals = np.zeros(self.seats(rules), np.int64)
        while True:
            r = len(states)
            dealer = round_dealer.py_func(self.dealer_of(rules, states[0]) if r else 0, r, self.seats(rules))
            states.append(play_round(self, rules, lineup, seed, unit, r, games, dealer, stepped, check))
            totals += self.scores(rules, states[-1])
            if not games or r == upto or self.game_over(rules, totals, r + 1):
                return states
