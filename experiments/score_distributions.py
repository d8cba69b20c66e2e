"""Score distributions per game and bot: histograms, ECDFs, box and violin plots, bid-versus-result heatmaps and
the convergence of the mean, as PNG files with a report.md that links them.

Each game plays ``--rounds`` single rounds and ``--games`` whole games with the same lineup and seed; the figures
come from ``cardsim.plots``. Example:

    python experiments/score_distributions.py --game wizard --bots heuristic,random,random,random --seed 7
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pandas as pd
from matplotlib.figure import Figure

from cardsim import plots
from cardsim.analysis import format_table
from cardsim.cli import nonnegative_int, players_help, positive_int
from cardsim.engine import simulate
from cardsim.errors import CardsimError
from cardsim.games import GAMES, game_info, get_game

SMOKE = {"rounds": 2_000, "games": 40, "dpi": 50}

# (file stem, which run, figure, caption): the run is "rounds" (single rounds) or "games" (whole games).
FIGURES: list[tuple[str, str, Callable[[pd.DataFrame], Figure], str]] = [
    ("hist_round", "rounds", plots.score_histogram, "How often each score per {round} occurred, per bot."),
    ("ecdf_round", "rounds", plots.score_ecdf, "Share of {round}s at or below each score, per bot."),
    ("box_round", "rounds", plots.score_boxplot, "Quartiles, 5th-95th percentiles and mean of the score per {round}."),
    ("bid_heatmap", "rounds", plots.bid_heatmap, "How often each {bid} led to each result; on the dashed line "
     "the result equals the {bid}."),
    ("convergence_round", "rounds", plots.convergence, "Running mean score per {round} with its 95% CI band, and "
     "the CI half-width, against the {round}s simulated."),
    ("hist_game", "games", lambda rows: plots.score_histogram(rows, "game"), "How often each game total occurred."),
    ("ecdf_game", "games", lambda rows: plots.score_ecdf(rows, "game"), "Share of games at or below each total."),
    ("violin_game", "games", lambda rows: plots.score_boxplot(rows, "game", "violin"),
     "Distribution, range, median and mean of the game totals."),
    ("convergence_game", "games", lambda rows: plots.convergence(rows, "game"),
     "Running mean game total with its 95% CI band, and the CI half-width, against the games simulated."),
]  # fmt: skip


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=[*GAMES, "all"], default="all", help="the game, or all three (default)")
    parser.add_argument("--bots", default="heuristic,random,random,random",
                        help="one bot per seat, comma-separated (default heuristic,random,random,random)")
    parser.add_argument("--players", type=int, help=f"players: {players_help()}")
    parser.add_argument("--rounds", type=positive_int, default=200_000, help="single rounds per game (default 200000)")
    parser.add_argument("--games", type=positive_int, default=5_000, help="whole games per game (default 5000)")
    parser.add_argument("--seed", type=nonnegative_int, default=0, help="experiment seed (default 0)")
    parser.add_argument("--out", default="results/score_distributions", help="folder for the PNGs and report.md")
    parser.add_argument("--dpi", type=positive_int, default=110, help="resolution of the PNGs (default 110)")
    parser.add_argument("--smoke", action="store_true", help=f"tiny run for tests ({SMOKE['rounds']} rounds, "
                        f"{SMOKE['games']} games, {SMOKE['dpi']} dpi)")
    return parser  # fmt: skip


def _folder(path: str) -> Path:
    folder = Path(path)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CardsimError(f"cannot create the output folder {folder}: {exc.strerror}") from None
    return folder


def run_game(name: str, args: argparse.Namespace, folder: Path) -> list[str]:
    """Simulate one game (single rounds and whole games), save its figures, return its report.md section."""
    game = get_game(name)
    began = time.perf_counter()
    runs = {
        unit: simulate(game, args.bots, seed=args.seed, players=args.players, keep_rows=True, **{unit: count})
        for unit, count in (("rounds", args.rounds), ("games", args.games))
    }
    labels = plots.game_labels(name)
    sizes = f"{args.rounds:,} single {labels.round}s and {args.games:,} games, seed {args.seed}"
    per_game = runs["games"].summary
    per_game = per_game[["seat", "bot", *per_game.columns[list(per_game.columns).index("games"):]]]
    lines = [f"## {name}", "", f"Rules `{runs['rounds'].rules}`; {sizes}.", "", "Single rounds, per seat:", "",
             "```", format_table(runs["rounds"].summary), "```", "", "Whole games, per seat:", "", "```",
             format_table(per_game), "```", ""]  # fmt: skip
    for stem, unit, figure, caption in FIGURES:
        fig = figure(runs[unit].rows)
        fig.savefig(folder / f"{name}_{stem}.png", dpi=args.dpi)
        text = caption.format(round=labels.round, bid=labels.bid)
        lines += [f"![{name} {stem}]({name}_{stem}.png)", "", f"*{text}*", ""]
    print(f"{name}: {len(FIGURES)} figures in {time.perf_counter() - began:.1f} s", file=sys.stderr)
    return lines


def _better() -> str:
    """Which way each game's score is better: ``lower is better for Differenzler's penalty points, higher for the
    other scores.``"""
    lower = [f"{game_info(g).title}'s {game_info(g).labels.unit}" for g in GAMES if get_game(g).lower_is_better]
    if not lower:
        return "higher scores are better."
    return f"lower is better for {' and '.join(lower)}, higher for the other scores."


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.smoke:
        args.rounds, args.games, args.dpi = SMOKE["rounds"], SMOKE["games"], SMOKE["dpi"]
    names = list(GAMES) if args.game == "all" else [args.game]
    try:
        for name in names:  # bad bots or players stop the run before anything is simulated
            game = get_game(name)
            game.lineup(args.bots, game.make_rules(None, args.players))
        folder = _folder(args.out)
        report = ["# Score distributions", "", f"Bots `{args.bots}`, seed {args.seed}. Figures pool the seats of a "
                  f"bot; {_better()}", ""]
        for name in names:
            report += run_game(name, args, folder)
    except CardsimError as exc:
        print(f"score_distributions: error: {exc}", file=sys.stderr)
        return 2
    (folder / "report.md").write_text("\n".join(report))
    print(f"figures and report.md in {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
