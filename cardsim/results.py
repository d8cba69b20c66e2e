"""Results shared by all games: a batch of rounds as arrays, and as tidy rows.

A game's batch kernel fills arrays indexed ``[unit, round]`` (per round) and
``[unit, round, seat]`` (per seat), where a unit is a single round or a whole
game. Summaries read these arrays directly; the long table with one row per
(round, seat) is built only when rows are written or kept.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import numpy as np
from numba import njit

import cardsim.audit as audit


@dataclass
class Batch:
    """Units ``start .. start + len(played) - 1``; ``played[unit]`` rounds of each are filled."""

    start: int
    played: np.ndarray
    per_round: dict[str, np.ndarray]
    per_seat: dict[str, np.ndarray]
    games: bool
    score: str
    higher_is_better: bool
    checks: np.ndarray | None = None  # uint64[unit, audit.SLOTS]: the audit rows of ``check=True`` (``check_counts``)

    @property
    def checked(self) -> int:
        """The steps whose round invariants the compiled kernels checked (``check=True``; 0 unchecked)."""
        return 0 if self.checks is None else int(self.checks[:, audit.STEPS].sum())

    def split(self, parts: int) -> list[Batch]:
        """The batch of one kernel call over ``parts`` seatings (``Game.run_rotations``: the units of seating k at
        ``k * units + u``) as one batch per seating, of views."""
        units = len(self.played) // parts

        def part(values: np.ndarray | None, k: int) -> np.ndarray | None:
            return None if values is None else values[k * units : (k + 1) * units]

        return [Batch(self.start, part(self.played, k), {n: part(v, k) for n, v in self.per_round.items()},
                      {n: part(v, k) for n, v in self.per_seat.items()}, self.games, self.score,
                      self.higher_is_better, part(self.checks, k)) for k in range(parts)]  # fmt: skip

    @cached_property
    def valid(self) -> np.ndarray:
        """[unit, round] mask of the rounds that were played."""
        rounds = self.per_seat[self.score].shape[1]
        return np.arange(rounds)[None, :] < self.played[:, None]

    @cached_property
    def complete(self) -> bool:
        """True when every unit filled every round (single rounds; games without tie-breaks)."""
        return bool((self.played == self.per_seat[self.score].shape[1]).all())

    def played_values(self, name: str) -> np.ndarray:
        """A per-seat quantity as [rounds played, seat]."""
        values = self.per_seat[name]
        return values.reshape(-1, values.shape[2]) if self.complete else values[self.valid]

    @cached_property
    def game_totals(self) -> np.ndarray:
        """[unit, seat] sums of the score over each game's rounds."""
        if not self.games:  # single rounds: the score itself
            return self.per_seat[self.score][:, 0, :].astype(np.int64)
        return _unit_totals(self.per_seat[self.score], self.played)

    def game_wins(self) -> np.ndarray:
        """[unit, seat]: 1 for the sole best total, 1/k for a best total shared by k, else 0."""
        return _win_shares(self.game_totals, self.higher_is_better)

    def rows(self) -> dict[str, np.ndarray]:
        """Tidy columns, one row per (round, seat) in (unit, round, seat) order; games add ``game_no``,
        ``game_total``, ``game_win``. Per-seat values of complete batches are views (no copy)."""
        seats = self.per_seat[self.score].shape[2]
        unit = np.repeat(np.arange(len(self.played)), self.played)  # each played round's unit

        def played(values: np.ndarray) -> np.ndarray:  # values[unit, round, ...] of the played rounds, in row order
            return values.reshape(unit.size, *values.shape[2:]) if self.complete else values[self.valid]

        if self.games:  # the round within its game: the row's place after its unit's first row
            rnd = np.arange(unit.size) - np.repeat(np.cumsum(self.played) - self.played, self.played)
            cols = {"round": np.repeat(rnd, seats)}  # int64, as rnd
        else:  # the same for every rotation of a chunk's deals
            cols = {"round": round_numbers(self.start, unit.size, seats)}
        cols["seat"] = cycled(unit.size * seats, tuple(range(seats)), "int8")
        cols.update({name: np.repeat(played(values), seats) for name, values in self.per_round.items()})
        cols.update({name: played(values).reshape(-1) for name, values in self.per_seat.items()})
        if not self.games:
            return cols
        return {
            "game_no": np.repeat(self.start + unit, seats),
            **cols,
            "game_total": self.game_totals[unit].ravel(),
            "game_win": self.game_wins()[unit].ravel(),
        }


REUSED_BYTES = 64 << 20  # the columns kept for reuse (a runner's chunk needs about 24 MB of them)
_reused: OrderedDict = OrderedDict()
_reused_lock = threading.Lock()


def _reuse(key: tuple, make: Callable[[], np.ndarray]) -> np.ndarray:
    """The read-only column ``make()`` under ``key``, made once while the last few fit in ``REUSED_BYTES`` (least
    recently used out first). A column allocated afresh for every batch costs more than computing it: its pages
    fault in again (a runner's constant columns were 74k page faults, 0.3 CPU s, per 4M rounds)."""
    with _reused_lock:
        column = _reused.pop(key, None)
        if column is None:
            column = make()
            column.flags.writeable = False
        _reused[key] = column
        while len(_reused) > 1 and sum(c.nbytes for c in _reused.values()) > REUSED_BYTES:
            _reused.popitem(last=False)
    return column


def round_numbers(start: int, units: int, seats: int) -> np.ndarray:
    """int64[units * seats], read-only: ``start + row // seats``, the round column of single rounds, the same for
    every rotation of a chunk's deals."""
    return _reuse(("round", start, units, seats),
                  lambda: np.repeat(np.arange(start, start + units, dtype=np.int64), seats))  # fmt: skip


def cycled(n: int, values: tuple, dtype: str) -> np.ndarray:
    """``n`` values cycling through ``values`` (``n`` a multiple of their number), read-only: a column that is the
    same in every batch of ``n`` rows (the seats, the seed, a rotation's bots)."""
    return _reuse(("cycled", n, values, dtype), lambda: np.tile(np.array(values, dtype), n // len(values)))


def result_arrays(*specs: tuple[tuple[int, ...], type, int]) -> list[np.ndarray]:
    """A batch's result arrays, one per ``(shape, dtype, fill)``, as views of one zeroed buffer. numpy advises the
    OS to back a buffer of 4 MB or more with huge pages, so a chunk's results cost a few page faults where
    arrays of their own cost one per 4 KB: 2,200 a Differenzler chunk of 262,144 rounds, faulted in by the kernel's
    threads, about 5% of its time on two threads (docs/performance.md)."""
    sizes = [(math.prod(shape) * np.dtype(dtype).itemsize + 63) // 64 * 64 for shape, dtype, _ in specs]  # aligned
    buffer = np.zeros(sum(sizes), np.uint8)
    arrays, offset = [], 0
    for (shape, dtype, fill), size in zip(specs, sizes, strict=True):
        array = buffer[offset : offset + size].view(dtype)[: math.prod(shape)].reshape(shape)
        if fill:
            array.fill(fill)
        arrays.append(array)
        offset += size
    return arrays


def check_counts(check: bool, units: int) -> np.ndarray | None:
    """A batch kernel's ``checks`` argument: None for an unchecked run (numba then compiles no checks), else
    uint64[units, audit.SLOTS] for ``--check``, the audit row of each unit (``cardsim.audit``; column STEPS = 0
    counts the steps checked)."""
    return np.zeros((units, audit.SLOTS), np.uint64) if check else None


@njit(cache=True, inline="always")
def seat_total(values: np.ndarray, u: int, s: int, n_rounds: int) -> np.int64:
    """Sum of ``values[u, :n_rounds, s]``, kept in a register: numba cannot tell that the arrays its callers write
    do not alias ``values``, so a sum kept in an array element is stored and loaded again every round (the
    runner's statistics took 40% longer that way)."""
    total = np.int64(0)
    for r in range(n_rounds):
        total += values[u, r, s]
    return total


@njit(cache=True)
def _unit_totals(values: np.ndarray, played: np.ndarray) -> np.ndarray:
    """[unit, seat] sums of ``values[unit, round, seat]`` over each unit's played rounds."""
    units, _, seats = values.shape
    totals = np.zeros((units, seats), np.int64)
    for u in range(units):
        n_rounds = played[u]
        for s in range(seats):
            totals[u, s] = seat_total(values, u, s, n_rounds)
    return totals


@njit(cache=True, inline="always")
def best_total(totals: np.ndarray, higher_is_better: bool) -> tuple:
    """(best value, number of seats sharing it) of one unit's ``totals[seat]``."""
    best, ties = totals[0], 1
    for s in range(1, totals.shape[0]):
        t = totals[s]
        if t == best:
            ties += 1
        elif (t > best) == higher_is_better:
            best, ties = t, 1
    return best, ties


@njit(cache=True)
def _win_shares(totals: np.ndarray, higher_is_better: bool) -> np.ndarray:
    """[unit, seat] share of the win: 1/k for each of the k seats with the best total of the unit."""
    units, seats = totals.shape
    shares = np.zeros((units, seats))
    for u in range(units):
        best, ties = best_total(totals[u], higher_is_better)
        for s in range(seats):
            if totals[u, s] == best:
                shares[u, s] = 1.0 / ties
    return shares
