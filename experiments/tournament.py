"""Duplicate-deal tournaments in every game: standings with CIs, pairwise differences, Parquet rows, a report.

    python experiments/tournament.py                          # all three games, default sizes (about a minute)
    python experiments/tournament.py --game wizard --bots heuristic,heuristic,random,random --games 20000
    python experiments/tournament.py --out results/t --resume # continue an interrupted study
    python experiments/tournament.py --dask-local 2           # the same numbers on a local Dask cluster
    python experiments/tournament.py --smoke                  # seconds: a check that everything runs

Each game's tournament goes to ``OUT/<game>/`` (config, Parquet chunks,
bots.parquet, pairs.parquet, summary.md, figures/); ``OUT/report.md`` links
them with the standings. Every deal (or game) is played once per seat
rotation, so each bot holds every hand and the luck of the cards cancels.
Bad input ends with one message and exit code 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cardsim.cli import nonnegative_int, positive_int
from cardsim.errors import CardsimError
from cardsim.games import GAMES, game_info
from cardsim.report import describe, markdown_table, write_report
from cardsim.runner import experiment, run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="all", help=f"{', '.join(GAMES)} or all (default all)")
    parser.add_argument("--bots", default="heuristic,heuristic,random,random",
                        help="the lineup, one bot per seat (default heuristic,heuristic,random,random)")  # fmt: skip
    parser.add_argument("--rounds", type=positive_int, help="deals per game played as single deals (default per game)")
    parser.add_argument("--games", type=positive_int, help="whole games per game (default per game)")
    parser.add_argument("--seed", type=nonnegative_int, default=0)
    parser.add_argument("--out", default="results/tournament", help="results folder (default results/tournament)")
    parser.add_argument("--resume", action="store_true", help="continue the study in --out")
    parser.add_argument("--threads", type=int, help="threads of the local run (default: all cores)")
    parser.add_argument("--scheduler", help="dask.distributed scheduler address, e.g. tcp://host:8786")
    parser.add_argument("--dask-local", type=positive_int, help="run on a local Dask cluster of N worker processes")
    parser.add_argument("--smoke", action="store_true", help="tiny sizes: a check that everything runs")
    args = parser.parse_args(argv)
    try:
        report = study(args)
    except CardsimError as exc:
        print(f"tournament: error: {exc}", file=sys.stderr)
        return 2
    print(f"report: {report}")
    return 0


def study(args: argparse.Namespace) -> Path:
    """Run the tournament of each chosen game and write OUT/report.md."""
    games = list(GAMES) if args.game == "all" else [args.game]
    out = Path(args.out)
    text = ["# Duplicate-deal tournaments", ""]
    for name in games:
        if name not in GAMES:
            raise CardsimError(f"unknown game '{name}'; games: {', '.join(GAMES)}, or all")
        mode, default, smoke = game_info(name).studies.tournament  # whole games or single deals, how many
        size = smoke if args.smoke else (args.games if mode == "games" else args.rounds) or default
        exp = experiment(name, args.bots, seed=args.seed, **{mode: size})
        outcome = run(exp, out / name, resume=args.resume, threads=args.threads, scheduler=args.scheduler,
                      dask_local=args.dask_local)  # fmt: skip
        write_report(outcome)
        print(describe(outcome))
        text += [f"## {name}", "", describe(outcome), "", markdown_table(outcome.standings.bots), ""]
        if len(outcome.standings.pairs):
            text += [markdown_table(outcome.standings.pairs), ""]
        text += [f"![mean score]({name}/figures/mean_score.png)", "", f"Details: [{name}]({name}/summary.md)", ""]
    report = out / "report.md"
    report.write_text("\n".join(text))
    return report


if __name__ == "__main__":
    sys.exit(main())
