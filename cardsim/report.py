"""What a finished tournament leaves beside its chunks: standings as Parquet, a Markdown summary and figures."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from cardsim.games import get_game
from cardsim.runner import Outcome


def markdown_table(table: pd.DataFrame) -> str:
    """A DataFrame as a GitHub Markdown table, floats with 3 decimals and a missing value (NaN) as ``-``."""

    def cell(value) -> str:
        if isinstance(value, float):
            return "-" if math.isnan(value) else f"{value:.3f}"
        return str(value)

    lines = ["| " + " | ".join(map(str, table.columns)) + " |", "|" + "---|" * len(table.columns)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in table.itertuples(index=False)]
    return "\n".join(lines)


def describe(outcome: Outcome) -> str:
    """One line: game, size, lineup, seed, rules."""
    exp = outcome.experiment
    units = f"{exp.units} {'games' if exp.games else 'deals'}"
    rotations = f"each played in all {exp.rotations} seat rotations" if exp.rotations > 1 else "as seated"
    return f"{exp.game}: {units} {rotations}; bots {','.join(exp.bots)}; seed {exp.seed}; rules {exp.rules}"


def write_report(outcome: Outcome) -> Path:
    """Write standings (bots.parquet, pairs.parquet), figures/ and summary.md into the results folder."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder, front = outcome.folder, get_game(outcome.experiment.game)
    bots, pairs = outcome.standings.bots, outcome.standings.pairs
    bots.to_parquet(folder / "bots.parquet", index=False)
    pairs.to_parquet(folder / "pairs.parquet", index=False)
    figures = folder / "figures"
    figures.mkdir(exist_ok=True)
    better = "lower is better" if front.lower_is_better else "higher is better"
    unit = "games" if outcome.experiment.games else "deals"

    fig, ax = plt.subplots(figsize=(6, 0.6 * len(bots) + 1.6))
    ax.errorbar(bots[f"mean_{front.score}"], range(len(bots)), xerr=bots["ci95"], fmt="o", capsize=4)
    ax.set_yticks(range(len(bots)), bots["bot"])
    ax.set_xlabel(f"mean {front.score} per round (points; {better})")
    ax.set_title(f"{front.name}: mean {front.score} per round with 95% CI over {outcome.stats.units} {unit}")
    fig.tight_layout()
    fig.savefig(figures / "mean_score.png", dpi=120)
    plt.close(fig)
    names = ["mean_score.png"]

    if len(pairs):
        fig, ax = plt.subplots(figsize=(6, 0.5 * len(pairs) + 1.6))
        labels = [f"{a} - {b}" for a, b in zip(pairs["bot"], pairs["opponent"], strict=True)]
        ax.errorbar(pairs[f"diff_{front.score}"], range(len(pairs)), xerr=pairs["ci95"], fmt="o", capsize=4)
        ax.axvline(0, color="grey", lw=1)
        ax.set_yticks(range(len(pairs)), labels)
        ax.set_xlabel(f"difference in mean {front.score} per round (points; {better})")
        ax.set_title(f"{front.name}: pairwise differences, {unit[:-1]} by {unit[:-1]}, with 95% CI")
        fig.tight_layout()
        fig.savefig(figures / "pairs.png", dpi=120)
        plt.close(fig)
        names.append("pairs.png")

    text = [
        f"# Tournament: {outcome.experiment.game}",
        "",
        describe(outcome),
        "",
        f"Every statistic is over {unit}: a bot's value for a {unit[:-1]} is its mean over all its seats and "
        "rotations, and differences are taken deal by deal, so the luck of the cards cancels. "
        f"CI: 95%, normal approximation. {front.score}: {better}.",
        "",
        "## Bots",
        "",
        markdown_table(bots),
        "",
    ]
    if len(pairs):
        text += ["## Pairwise differences (bot minus opponent)", "", markdown_table(pairs), ""]
    text += ["## Figures", ""] + [f"![{n}](figures/{n})" for n in names] + [""]
    text += ["Rows: `rows/*.parquet`, a Parquet dataset of one row per round, rotation and seat (any Parquet reader; "
             "`cardsim.runner.load_rows` checks every chunk first); standings: `bots.parquet`, `pairs.parquet`.",
             ""]  # fmt: skip
    path = folder / "summary.md"
    path.write_text("\n".join(text))
    return path
