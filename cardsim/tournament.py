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
from cardsim.results import Batch, best_total


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


@njit(cache=True, nogil=True)
def _deal_sums(values: np.ndarray, played: np.ndarray, seat_bot: np.ndarray, bots: int, higher_is_better: bool,
               games: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """One pass over a chunk's deals in every rotation (``values[rotation, unit, round, seat]``, ``played[rotation,
    unit]``, ``seat_bot[rotation, seat]``): each bot's per-deal values (``measures`` x bots) reduced to their sum
    and the sums of their products, in a fixed order (reproducible), plus each bot's rounds played."""
    rotations, units, _, seats = values.shape
    k = (3 if games else 2) * bots  # the values of ``measures``, bot by bot
    total, cross, rounds = np.zeros(k), np.zeros((k, k)), np.zeros(bots, np.int64)
    held = np.zeros(bots)  # seats a bot holds over the rotations: the same for every deal
    for rot in range(rotations):
        for s in range(seats):
            held[seat_bot[rot, s]] += 1.0
    share = 1.0 / np.arange(1, seats + 1)  # win share of each of k tied winners (multiplying beats dividing here)
    x, score, taken, win, totals = np.zeros(k), np.zeros(bots), np.zeros(bots), np.zeros(bots), np.zeros(seats)
    for u in range(units):
        for b in range(bots):
            score[b], taken[b], win[b] = 0.0, 0.0, 0.0
        for rot in range(rotations):
            for s in range(seats):
                totals[s] = 0.0
            for r in range(played[rot, u]):
                for s in range(seats):
                    totals[s] += values[rot, u, r, s]
            best, ties = best_total(totals, higher_is_better)
            for s in range(seats):
                b = seat_bot[rot, s]
                score[b] += totals[s]
                taken[b] += played[rot, u]
                if totals[s] == best:
                    win[b] += share[ties - 1]
        for b in range(bots):
            rounds[b] += int(taken[b])
            x[b] = score[b] / taken[b]
            if games:
                x[bots + b], x[2 * bots + b] = score[b] / held[b], win[b] / held[b]
            else:
                x[bots + b] = win[b] / held[b]
        for a in range(k):
            total[a] += x[a]
            for c in range(k):
                cross[a, c] += x[a] * x[c]
    return total, cross, rounds


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
        names = bot_names(lineup)
        seat_bot = np.array([[names.index(name) for name in rotated(lineup, r)] for r in range(len(batches))])
        values = np.stack([batch.per_seat[game.score] for batch in batches])
        played = np.stack([batch.played for batch in batches])
        total, cross, rounds = _deal_sums(values, played, seat_bot, len(names), not game.lower_is_better,
                                          batches[0].games)  # fmt: skip
        hits: dict[str, np.ndarray] = {}
        for rotation, batch in enumerate(batches):
            for rate, hit in game.rates(batch).items():
                hits.setdefault(rate, np.zeros(len(names), np.int64))
                np.add.at(hits[rate], seat_bot[rotation], column_sums(hit.view(np.int8))[0].astype(np.int64))
        return cls(len(batches[0].played), total, cross, rounds, hits)

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
            row["verdict"] = _verdict(row[labels["round"][0]], row["ci95"], names[a], names[b], game.lower_is_better)
            rows.append(row)
    return Standings(table, pd.DataFrame(rows))


def _verdict(diff: float, ci: float, bot: str, opponent: str, lower_is_better: bool) -> str:
    """Which of two bots is better per round, when the CI of their difference excludes 0."""
    if abs(diff) <= ci:
        return "no significant difference"
    return f"{bot} better" if (diff < 0) == lower_is_better else f"{opponent} better"
