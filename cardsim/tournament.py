"""Duplicate-deal statistics: every bot's results paired deal by deal, so the luck of the cards cancels.

In a duplicate tournament every deal (or whole game) is played once per seat
rotation: rotation ``r`` seats lineup entry ``b`` at seat ``(b + r) mod n``, so
each bot holds every hand. A bot's value for a deal is its mean over all its
seats and rotations of that deal; means and 95% CIs are taken over deals, and
the difference between two bots deal by deal, which removes the variance
the cards add. Without rotations (one rotation) the same statistics are a
plain per-bot summary.

A chunk of deals reduces to a few sums (``DealStats``): their count, the sum
of each per-deal value and of every product of two, and integer counts for
rates. Sums are added chunk by chunk in chunk order, so the result does not
depend on where or in which order the chunks were computed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from numba import njit

from cardsim.analysis import Z95, column_sums
from cardsim.games import Game
from cardsim.results import Batch, best_total, seat_total


def rotated(bots: tuple[str, ...], rotation: int) -> tuple[str, ...]:
    """The lineup of rotation ``rotation``: entry ``b`` moves to seat ``(b + rotation) mod n``."""
    n = len(bots)
    return tuple(bots[(seat - rotation) % n] for seat in range(n))


def bot_names(bots: tuple[str, ...]) -> list[str]:
    """The distinct bots of a lineup in order of first appearance: repeated entries are one strategy."""
    return list(dict.fromkeys(bots))


def measures(games: bool) -> list[str]:
    """The per-deal values summarised with CIs: score per round, (game total,) win share."""
    return ["round", "game", "win"] if games else ["round", "win"]


@njit(cache=True)
def _sums(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Column sums and the matrix of sums of products of ``x[deal, value]``, in a fixed order (reproducible)."""
    k = x.shape[1]
    total = np.zeros(k)
    cross = np.zeros((k, k))
    for i in range(x.shape[0]):
        for a in range(k):
            total[a] += x[i, a]
            for b in range(k):
                cross[a, b] += x[i, a] * x[i, b]
    return total, cross


@njit(cache=True, nogil=True)
def _add_rotation(values: np.ndarray, played: np.ndarray, seat_bot: np.ndarray, higher_is_better: bool,
                  score: np.ndarray, rounds: np.ndarray, wins: np.ndarray) -> None:  # fmt: skip
    """Add one rotation's units to each bot's [unit, bot] score sum, rounds played and win share (``played[u]``
    read once and the sums in registers: ``results.seat_total``)."""
    units, _, seats = values.shape
    totals = np.zeros(seats, np.int64)
    for u in range(units):
        n_rounds = played[u]
        for s in range(seats):
            totals[s] = seat_total(values, u, s, n_rounds)
        best, ties = best_total(totals, higher_is_better)
        share = 1.0 / ties
        for s in range(seats):
            b = seat_bot[s]
            score[u, b] += totals[s]
            rounds[u, b] += n_rounds
            if totals[s] == best:
                wins[u, b] += share


@dataclass
class DealStats:
    """Sums over deals of each bot's per-deal values (``measures`` x bots), plus integer counts for rates."""

    units: int
    total: np.ndarray  # [values]
    cross: np.ndarray  # [values, values]
    rounds: np.ndarray  # [bots] rounds played
    hits: dict[str, np.ndarray]  # rate name -> [bots] rounds with a hit

    @classmethod
    def of_batches(cls, game: Game, batches: list[Batch], lineup: tuple[str, ...]) -> DealStats:
        """Statistics of one chunk: ``batches[r]`` holds its deals played in rotation ``r``."""
        tally = RotationTally(game, lineup)
        for batch in batches:
            tally.add(batch)
        return tally.stats()

    def add(self, other: DealStats) -> None:
        self.units += other.units
        self.total += other.total
        self.cross += other.cross
        self.rounds += other.rounds
        for rate, values in other.hits.items():
            self.hits[rate] = self.hits.get(rate, 0) + values

    def to_json(self) -> dict:
        return {
            "units": self.units,
            "total": self.total.tolist(),
            "cross": self.cross.tolist(),
            "rounds": self.rounds.tolist(),
            "hits": {k: v.tolist() for k, v in self.hits.items()},
        }

    @classmethod
    def from_json(cls, data: dict) -> DealStats:
        return cls(
            int(data["units"]),
            np.array(data["total"], np.float64),
            np.array(data["cross"], np.float64),
            np.array(data["rounds"], np.int64),
            {k: np.array(v, np.int64) for k, v in data["hits"].items()},
        )

    def mean_cov(self) -> tuple[np.ndarray, np.ndarray]:
        """Mean of every per-deal value and their covariance matrix (sample, over deals)."""
        n = max(self.units, 1)
        mean = self.total / n
        cov = (self.cross - n * np.outer(mean, mean)) / max(self.units - 1, 1)
        return mean, cov


class RotationTally:
    """A chunk's ``DealStats`` built one rotation's batch at a time (``add`` in rotation order), so that the runner
    sums each rotation while the kernel plays on."""

    def __init__(self, game: Game, lineup: tuple[str, ...]) -> None:
        self.game, self.lineup, self.names = game, lineup, bot_names(lineup)
        self.seats = np.zeros(len(self.names))
        self.hits: dict[str, np.ndarray] = {}
        self.added = 0
        self.games = False

    def add(self, batch: Batch) -> None:
        """Add the chunk's deals as played in the next rotation."""
        game, n_bots = self.game, len(self.names)
        if self.added == 0:
            units, self.games = len(batch.played), batch.games
            self.score = np.zeros((units, n_bots), np.int64)  # [unit, bot] sums over seats and rotations
            self.rounds = np.zeros((units, n_bots), np.int64)
            self.wins = np.zeros((units, n_bots))
        seat_bot = np.array([self.names.index(name) for name in rotated(self.lineup, self.added)], np.int64)
        _add_rotation(batch.per_seat[game.score], batch.played, seat_bot, not game.lower_is_better,
                      self.score, self.rounds, self.wins)  # fmt: skip
        np.add.at(self.seats, seat_bot, 1)
        for rate, values in game.rates(batch).items():
            self.hits.setdefault(rate, np.zeros(n_bots, np.int64))
            np.add.at(self.hits[rate], seat_bot, column_sums(values.view(np.int8))[0].astype(np.int64))
        self.added += 1

    def stats(self) -> DealStats:
        """The chunk's statistics once every rotation was added."""
        per_deal = {"round": self.score / self.rounds, "game": self.score / self.seats, "win": self.wins / self.seats}
        total, cross = _sums(np.hstack([per_deal[m] for m in measures(self.games)]))
        return DealStats(len(self.score), total, cross, self.rounds.sum(axis=0), self.hits)


@dataclass
class Standings:
    """A tournament's result: per-bot table and pairwise differences, both with 95% CIs over deals."""

    bots: pd.DataFrame
    pairs: pd.DataFrame


def standings(game: Game, stats: DealStats, lineup: tuple[str, ...], games: bool) -> Standings:
    """Per-bot means with CIs, the game's own rates, and each pair's difference (first bot minus second, in
    lineup order) deal by deal."""
    names = bot_names(lineup)
    n_bots, kinds = len(names), measures(games)
    mean, cov = stats.mean_cov()
    half = Z95 * np.sqrt(np.maximum(np.diag(cov), 0.0) / max(stats.units, 1))
    at = {kind: slice(i * n_bots, (i + 1) * n_bots) for i, kind in enumerate(kinds)}
    unit = "games" if games else "deals"
    table = pd.DataFrame({"bot": names, "seats": [lineup.count(b) for b in names]})
    table[unit] = stats.units
    table["rounds"] = stats.rounds
    table[f"mean_{game.score}"] = mean[at["round"]]
    table["ci95"] = half[at["round"]]
    if games:
        table[f"mean_game_{game.score}"] = mean[at["game"]]
        table["game_ci95"] = half[at["game"]]
    table["win_rate"] = mean[at["win"]]
    table["win_ci95"] = half[at["win"]]
    for rate, hits in stats.hits.items():
        table[rate] = hits / np.maximum(stats.rounds, 1)
    for ratio, (part, whole) in game.ratios.items():
        table[ratio] = stats.hits[part] / np.maximum(stats.hits[whole], 1)
    labels = {"round": (f"diff_{game.score}", "ci95"), "game": (f"diff_game_{game.score}", "game_ci95")}
    rows = []
    for a in range(n_bots):
        for b in range(a + 1, n_bots):
            row: dict = {"bot": names[a], "opponent": names[b]}
            for kind in kinds[:-1]:  # score per round and per game; the win share follows from them
                i, j = at[kind].start + a, at[kind].start + b
                diff_label, ci_label = labels[kind]
                row[diff_label] = mean[i] - mean[j]
                row[ci_label] = Z95 * math.sqrt(max(cov[i, i] + cov[j, j] - 2 * cov[i, j], 0.0) / max(stats.units, 1))
            row["verdict"] = verdict(row[labels["round"][0]], row["ci95"], names[a], names[b], game.lower_is_better)
            rows.append(row)
    return Standings(table, pd.DataFrame(rows))


def verdict(diff: float, ci: float, bot: str, opponent: str, lower_is_better: bool) -> str:
    """Which of two bots is better per round, when the CI of their difference excludes 0."""
    if abs(diff) <= ci:
        return "no significant difference"
    return f"{bot} better" if (diff < 0) == lower_is_better else f"{opponent} better"
