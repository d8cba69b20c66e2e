"""Figures of score distributions, bids and convergence, from the tidy rows of a run.

Every function takes the rows of one game (``simulate(..., keep_rows=True).rows``
or a runner's ``load_rows``; a wrong type is refused by ``cardsim.validation``) and returns a matplotlib Figure
built without pyplot: nothing is shown or kept open, whatever the backend (save it with ``fig.savefig``; a
notebook displays it).
Results are grouped by the ``bot`` column, not by seat, so rotated lineups and
bots in several seats pool correctly. What differs between games (the score's
unit, which columns are the bid and its result) is each game's ``GameInfo.labels`` (``game_labels``).
"""

from __future__ import annotations

import textwrap
from typing import Any, Literal

import matplotlib as mpl
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from cardsim.analysis import Z95
from cardsim.errors import CardsimError
from cardsim.games import game_info, get_game
from cardsim.games.info import GameLabels
from cardsim.validation import checked

Per = Literal["round", "game"]


def game_labels(game: str) -> GameLabels:
    """How ``game``'s numbers are named on figures, and which columns are a bid and its result (its
    ``GameInfo.labels``)."""
    return game_info(game).labels


# Columns that, with ``seat``, identify one player's result: several rules, seeds or rotations may be mixed in rows.
_RUN_KEYS = ("rules", "seed", "rotation")


def color(i: int) -> str:
    """The i-th colour of matplotlib's cycle, so a bot has the same colour on every figure of a run."""
    cycle = mpl.rcParams["axes.prop_cycle"].by_key()["color"]
    return cycle[i % len(cycle)]


def game_of(rows: pd.DataFrame) -> str:
    """The one game these rows belong to."""
    names = [str(name) for name in pd.unique(rows["game"])]
    if len(names) != 1:
        raise CardsimError(f"the rows hold {len(names)} games ({', '.join(names)}); plot one game at a time")
    return get_game(names[0]).name


def bot_codes(rows: pd.DataFrame) -> tuple[np.ndarray, list[str]]:
    """Each row's bot as an index into the bots that have rows, listed in lineup (category) order.

    Integer codes instead of strings: comparing a million bot names costs seconds, codes milliseconds."""
    bot = rows["bot"].astype("category")
    codes = bot.cat.codes.to_numpy()
    present = np.unique(codes)
    index = np.full(len(bot.cat.categories), -1)
    index[present] = np.arange(len(present))
    return index[codes], [str(bot.cat.categories[c]) for c in present]


def bots_of(rows: pd.DataFrame) -> list[str]:
    """Bots in the order of the lineup (their category order), only those with rows."""
    return bot_codes(rows)[1]


def score_label(game: str, per: Per) -> str:
    """The axis label of a score, with its unit: "penalty points per round", "points per game"."""
    labels = game_labels(game)
    return f"{labels.unit} per {labels.round if per == 'round' else 'game'}"


@checked
def scores(rows: pd.DataFrame, per: Per = "round") -> dict[str, np.ndarray]:
    """Each bot's scores: one per (round, seat) row, or with ``per="game"`` one ``game_total`` per (game, seat)."""
    game = get_game(game_of(rows))
    if per == "round":
        column, picked = game.score, rows
    else:
        if "game_total" not in rows:
            raise CardsimError("per-game figures need rows of a games run (simulate with games=N)")
        keys = [k for k in (*_RUN_KEYS, "game_no", "seat") if k in rows]
        column, picked = "game_total", rows.drop_duplicates(keys)
    codes, bots = bot_codes(picked)
    values = picked[column].to_numpy()
    return {bot: values[codes == i] for i, bot in enumerate(bots)}


def _title(rows: pd.DataFrame, what: str, width: int = 90) -> str:
    """"game: what", then the rules of the run (when there is one set), wrapped to ``width`` characters."""
    rules = [str(r) for r in pd.unique(rows["rules"])] if "rules" in rows else []
    rules_text = "\n" + textwrap.fill(rules[0].replace(",", ", "), width) if len(rules) == 1 else ""
    return f"{game_of(rows)}: {what}{rules_text}"


def _bins(values: np.ndarray, most: int = 60) -> np.ndarray:
    """Histogram edges for integer scores: one bin per step between values (e.g. 10 in Wizard), merged up to
    ``most`` bins, centred on the values."""
    unique = np.unique(values)
    step = int(np.gcd.reduce(np.diff(unique).astype(np.int64))) if len(unique) > 1 else 1
    span = int(unique[-1] - unique[0]) if len(unique) else 0
    while span / step > most:
        step *= 2
    return np.arange(unique[0] - step / 2, unique[-1] + step, step) if len(unique) else np.arange(2)


@checked
def score_histogram(rows: pd.DataFrame, per: Per = "round") -> Figure:
    """One panel per bot: the count of each score (per round, or per game total), with the mean marked."""
    game = game_of(rows)
    data = scores(rows, per)
    edges = _bins(np.concatenate(list(data.values())))
    fig = Figure(figsize=(8, 1.2 + 1.9 * len(data)), layout="constrained")
    axes = fig.subplots(len(data), 1, sharex=True, squeeze=False)
    for i, (bot, values) in enumerate(data.items()):
        ax = axes[i, 0]
        ax.hist(values, bins=edges, color=color(i), alpha=0.8, label=f"{bot} (n={len(values):,})")
        ax.axvline(values.mean(), color="black", linestyle="--", linewidth=1, label=f"mean {values.mean():.1f}")
        ax.set_ylabel(f"{game_labels(game).round if per == 'round' else 'game'}s")
        ax.legend(loc="upper right", fontsize="small")
    axes[-1, 0].set_xlabel(score_label(game, per))
    fig.suptitle(_title(rows, f"distribution of {score_label(game, per)}"))
    return fig


def ecdf(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct values and the share of values at or below each (the last share is 1)."""
    distinct, counts = np.unique(values, return_counts=True)
    return distinct, np.cumsum(counts) / len(values)


@checked
def score_ecdf(rows: pd.DataFrame, per: Per = "round") -> Figure:
    """The empirical distribution function of each bot's scores, one step line per bot."""
    game = game_of(rows)
    fig = Figure(figsize=(8, 5), layout="constrained")
    ax = fig.subplots()
    for bot, values in scores(rows, per).items():
        x, share = ecdf(values)
        ax.step(x, share, where="post", label=f"{bot} (median {np.median(values):.0f})")
    better = "lower" if get_game(game).lower_is_better else "higher"
    ax.set_xlabel(f"{score_label(game, per)} ({better} is better)")
    ax.set_ylabel(f"share of {game_labels(game).round if per == 'round' else 'game'}s at or below")
    ax.set_ylim(0, 1.02)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right")
    ax.set_title(_title(rows, f"ECDF of {score_label(game, per)}"))
    return fig


@checked
def score_boxplot(rows: pd.DataFrame, per: Per = "round", kind: Literal["box", "violin"] = "box") -> Figure:
    """Box plots (whiskers at the 5th and 95th percentiles) or violins of each bot's scores, means as diamonds."""
    game = game_of(rows)
    data = scores(rows, per)
    fig = Figure(figsize=(max(6.0, 1.8 + 1.6 * len(data)), 5), layout="constrained")
    ax = fig.subplots()
    positions = np.arange(1, len(data) + 1)
    if kind == "box":
        ax.boxplot(list(data.values()), positions=positions, whis=(5, 95), showfliers=False, widths=0.5)
        what = "box: quartiles and median, whiskers: 5th to 95th percentile"
    else:
        ax.violinplot(list(data.values()), positions=positions, showmedians=True, widths=0.8)
        what = "violin: distribution, whiskers: range, middle line: median"
    ax.plot(positions, [v.mean() for v in data.values()], "D", color="black", label="mean")
    ax.set_xticks(positions, [f"{bot}\nn={len(v):,}" for bot, v in data.items()])
    ax.set_xlabel(f"bot ({what})")
    ax.set_ylabel(score_label(game, per))
    ax.grid(axis="y", alpha=0.3)
    ax.legend(loc="best")
    ax.set_title(_title(rows, score_label(game, per), width=60), fontsize="medium")
    return fig


def bid_rows(rows: pd.DataFrame) -> pd.DataFrame:
    """The rows that carry a bid: every row, or in call-partner the declarer's row of each deal with a contract."""
    return rows[rows["seat"] == rows["declarer"]] if game_labels(game_of(rows)).declarers_only else rows


@checked
def bid_result_counts(rows: pd.DataFrame) -> tuple[np.ndarray, dict[str, np.ndarray], dict[str, float]]:
    """Bin edges (the same for bid and result), and per bot with bids the counts [bid bin, result bin] and the
    share of bids met (exactly, or made in call-partner)."""
    game = game_of(rows)
    labels = game_labels(game)
    picked = bid_rows(rows)
    bid, result = picked[labels.bid].to_numpy(np.int64), picked[labels.result].to_numpy(np.int64)
    if len(bid) == 0:
        declarers = f" (in {game_info(game).title}: no deal had a declarer)" if labels.declarers_only else ""
        raise CardsimError(f"no rows with a bid to plot{declarers}")
    low, high = min(bid.min(), result.min()), max(bid.max(), result.max())
    low -= low % labels.bid_bin
    edges = np.arange(low, high + labels.bid_bin + 1, labels.bid_bin) - (0.5 if labels.bid_bin == 1 else 0)
    met = (result >= bid) if labels.hit == "made" else (result == bid)
    codes, bots = bot_codes(picked)
    counts = {bot: np.histogram2d(bid[codes == i], result[codes == i], bins=(edges, edges))[0]
              for i, bot in enumerate(bots)}  # fmt: skip
    return edges, counts, {bot: float(met[codes == i].mean()) for i, bot in enumerate(bots)}


@checked
def bid_heatmap(rows: pd.DataFrame) -> Figure:
    """One panel per bot: how often each bid (Differenzler: prediction) led to each result, with the diagonal
    where the result equals the bid."""
    game = game_of(rows)
    labels = game_labels(game)
    edges, counts, met = bid_result_counts(rows)
    fig = Figure(figsize=(1 + 4.6 * len(counts), 4.8), layout="constrained")
    axes = fig.subplots(1, len(counts), squeeze=False)
    unit = "contracts" if labels.declarers_only else f"{labels.round}s"
    for ax, (bot, grid) in zip(axes[0], counts.items(), strict=True):
        mesh = ax.pcolormesh(edges, edges, grid.T, cmap="viridis")
        fig.colorbar(mesh, ax=ax, label=unit)
        ax.plot(edges[[0, -1]], edges[[0, -1]], color="white", linestyle="--", linewidth=1)
        ax.set_title(f"{bot}: {labels.hit} {met[bot]:.1%} of {int(grid.sum()):,} {unit}", fontsize="medium")
        ax.set_xlabel(labels.bid_label)
        ax.set_ylabel(labels.result_label)
    fig.suptitle(_title(rows, f"{labels.bid} versus result (dashed: result = {labels.bid})"))
    return fig


@checked
def bid_accuracy_table(rows: pd.DataFrame, by: str = "cards") -> pd.DataFrame:
    """Per bot and value of the column ``by`` (default ``cards``: the round size), the share of bids met
    (exactly, or made in call-partner) with its 95% CI: columns ``bot``, ``by``, ``bids``, ``met_rate``,
    ``ci95``."""
    labels = game_labels(game_of(rows))
    picked = bid_rows(rows)
    if by not in picked.columns:
        raise CardsimError(f"no column {by!r} in the rows to group the bids by; the columns are "
                           f"{', '.join(picked.columns)}")  # fmt: skip
    bid, result = picked[labels.bid].to_numpy(np.int64), picked[labels.result].to_numpy(np.int64)
    met = (result >= bid) if labels.hit == "made" else (result == bid)
    codes, bots = bot_codes(picked)
    frame = pd.DataFrame({"bot": pd.Categorical.from_codes(codes, bots), by: picked[by].to_numpy(), "met": met})
    table = frame.groupby(["bot", by], observed=True)["met"].agg(bids="size", met_rate="mean").reset_index()
    table["ci95"] = Z95 * np.sqrt(table["met_rate"] * (1 - table["met_rate"]) / table["bids"])
    return table


@checked
def bid_accuracy(rows: pd.DataFrame, by: str = "cards", reference: dict[str, dict[int, float]] | None = None
                 ) -> Figure:  # fmt: skip
    """The share of bids met per bot against the column ``by`` (default the round size), with 95% CI bars;
    ``reference``: published figures to mark, {label: {value of ``by``: share}}."""
    labels = game_labels(game_of(rows))
    table = bid_accuracy_table(rows, by)
    fig = Figure(figsize=(7.5, 4.6), layout="constrained")
    ax = fig.subplots()
    for i, (bot, part) in enumerate(table.groupby("bot", observed=True)):
        ax.errorbar(part[by], part["met_rate"], yerr=part["ci95"], marker="o", markersize=4, capsize=2,
                    color=color(i), label=bot)  # fmt: skip
    for label, points in (reference or {}).items():
        ax.scatter(list(points), list(points.values()), marker="x", s=60, color="black", zorder=3, label=label)
    ax.set_xlabel("cards per player" if by == "cards" else by)
    ax.set_ylabel(f"{labels.bid}s met ({labels.hit})")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend(loc="best")
    ax.set_title(_title(rows, f"{labels.bid}s met per {'round size' if by == 'cards' else by}", width=60),
                 fontsize="medium")
    return fig


@checked
def unit_scores(rows: pd.DataFrame, per: Per = "round") -> dict[str, np.ndarray]:
    """Each bot's mean score per independent unit (a round, or a game), in the order played.

    A bot in several seats, or in several rotations of the same deal, is averaged within the unit: those seats
    share the deal and are not independent, so the unit is the sample of a confidence interval."""
    game = get_game(game_of(rows))
    if per == "game" and "game_total" not in rows:
        raise CardsimError("per-game convergence needs rows of a games run (simulate with games=N)")
    value = game.score if per == "round" else "game_total"
    unit = [k for k in ("rules", "seed", "game_no", "round" if per == "round" else "") if k in rows]
    if per == "game":
        rows = rows.drop_duplicates([k for k in (*_RUN_KEYS, "game_no", "seat") if k in rows])
    codes, bots = bot_codes(rows)
    frame = rows[unit].assign(bot=codes, value=rows[value].to_numpy(np.float64))
    means = frame.groupby([*unit, "bot"], sort=True, observed=True)["value"].mean()
    return {bot: means.xs(i, level="bot").to_numpy() for i, bot in enumerate(bots)}


def running_mean_ci(values: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sample sizes 1..n, the running mean and the running 95% CI half-width (normal approximation)."""
    n = np.arange(1, len(values) + 1)
    mean = np.cumsum(values) / n
    centred = values - values.mean()  # sums of squares about a fixed centre keep the running variance accurate
    s1, s2 = np.cumsum(centred), np.cumsum(centred**2)
    var = (s2 - s1 * s1 / n) / np.maximum(n - 1, 1)
    half = np.where(n > 1, Z95 * np.sqrt(np.maximum(var, 0.0) / n), np.nan)
    return n, mean, half


@checked
def convergence(rows: pd.DataFrame, per: Per = "round", points: int = 400) -> Figure:
    """Top: each bot's running mean score with its 95% CI band; bottom: the CI half-width, against the number of
    rounds (or games) simulated, on log axes."""
    game = game_of(rows)
    name = game_labels(game).round if per == "round" else "game"
    fig = Figure(figsize=(8, 7), layout="constrained")
    top, bottom = fig.subplots(2, 1, sharex=True)
    for i, (bot, values) in enumerate(unit_scores(rows, per).items()):
        n, mean, half = running_mean_ci(values)
        shown = np.unique(np.geomspace(2, len(n), points).astype(int)) - 1 if len(n) > 1 else np.arange(len(n))
        n, mean, half = n[shown], mean[shown], half[shown]
        top.plot(n, mean, color=color(i), label=f"{bot}: {mean[-1]:.2f} ± {half[-1]:.2f}")
        top.fill_between(n, mean - half, mean + half, color=color(i), alpha=0.25, linewidth=0)
        bottom.plot(n, half, color=color(i), label=bot)
    top.set_ylabel(f"mean {score_label(game, per)}")
    top.legend(loc="best", fontsize="small", title="final mean ± 95% CI")
    top.grid(alpha=0.3)
    bottom.set_xscale("log")
    bottom.set_yscale("log")
    bottom.set_xlabel(f"{name}s simulated (log scale)")
    bottom.set_ylabel(f"95% CI half-width ({game_labels(game).unit})")
    bottom.grid(alpha=0.3, which="both")
    bottom.legend(loc="best", fontsize="small")
    fig.suptitle(_title(rows, f"convergence of the mean {score_label(game, per)}"))
    return fig


def ladder_plot(result: Any) -> Figure:
    """A rating list (``cardsim.rating.Ladder``): each bot's Elo rating with its 95% CI, best at the top."""
    ratings = result.ratings.iloc[::-1]
    fig = Figure(figsize=(7, 1.2 + 0.45 * len(ratings)), layout="constrained")
    ax = fig.subplots()
    ax.errorbar(ratings["elo"], np.arange(len(ratings)), xerr=ratings["ci95"], fmt="o", color=color(0), capsize=4)
    ax.set_yticks(np.arange(len(ratings)), ratings["bot"])
    ax.axvline(0, color="grey", linewidth=0.8)
    ax.set_xlabel("rating (Elo scale, Bradley-Terry over deals; bars: 95% CI)")
    ax.set_title(f"{result.game}: {result.deals:,} deals per match, seed {result.seed}")
    return fig
