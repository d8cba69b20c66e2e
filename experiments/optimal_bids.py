"""Optimal bids over many random hands: bid tables (Parquet), figures (PNG) and a report.md fragment.

For each game, ``cardsim.advise.bid_table`` deals ``--hands`` random hands and, for each, simulates ``--samples``
completions of the unseen cards for every possible bid; a row holds the hand's features, the best bid and its
expected result. Differenzler compares the optimum with the Swiss TV rule of thumb (2 x trump points + 11 per
side ace) and the heuristic bot; Wizard shows the optimal bid by Wizards, trumps and high cards per round size
and seat; call-partner the chance of making each bid level. Example:

    python experiments/optimal_bids.py --game differenzler --hands 2000 --samples 400 --seed 1
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from cardsim import advise
from cardsim.cli import nonnegative_int, positive_int
from cardsim.errors import CardsimError
from cardsim.games import GAMES

SMOKE = {"hands": 8, "samples": 24}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=[*GAMES, "all"], default="all",
                        help="the game, or all games with bid advice (default)")
    parser.add_argument("--hands", type=positive_int, default=1000, help="random hands per game (default 1000)")
    parser.add_argument("--samples", type=positive_int, default=300,
                        help="completions per hand and bid (default 300)")
    parser.add_argument("--seed", type=nonnegative_int, default=0, help="experiment seed (default 0)")
    parser.add_argument("--out", default="results/optimal_bids", help="folder for the tables, PNGs and report.md")
    parser.add_argument("--smoke", action="store_true",
                        help=f"tiny run for tests ({SMOKE['hands']} hands, {SMOKE['samples']} samples)")
    return parser  # fmt: skip


def run_game(name: str, args: argparse.Namespace, folder: Path) -> list[str]:
    """One game's bid table and figures into ``folder``; returns its report.md section."""
    began = time.perf_counter()
    table = advise.bid_table(name, hands=args.hands, samples=args.samples, seed=args.seed)
    table.to_parquet(folder / f"{name}_bids.parquet", index=False)
    means = table.select_dtypes("number").mean().to_frame("mean over hands").T
    lines = [f"## {name}", "", f"{len(table):,} random hands, {args.samples:,} completions per hand and bid, seed "
             f"{args.seed}, heuristic bots; one row per hand in [`{name}_bids.parquet`]({name}_bids.parquet).", "",
             "```", means.to_string(float_format=lambda v: f"{v:.2f}"), "```", ""]  # fmt: skip
    for stem, figure in advise.bid_figures(name, table).items():
        figure.savefig(folder / f"{stem}.png", dpi=110)
        lines += [f"![{stem}]({stem}.png)", "", f"*{figure.get_suptitle()}*", ""]
    print(f"{name}: {len(table)} hands in {time.perf_counter() - began:.1f} s", file=sys.stderr)
    return lines


def _games_with_advice(choice: str) -> list[str]:
    """The chosen game, or for ``all`` every game whose advice module exists (the others are named and skipped)."""
    if choice != "all":
        return [choice]
    names = []
    for name in GAMES:
        try:
            advise.advice_module(name)
            names.append(name)
        except CardsimError as exc:
            print(f"optimal_bids: skipping {name}: {exc}", file=sys.stderr)
    return names


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.smoke:
        args.hands, args.samples = SMOKE["hands"], SMOKE["samples"]
    try:
        names = _games_with_advice(args.game)
        folder = Path(args.out)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CardsimError(f"cannot create the output folder {folder}: {exc.strerror}") from None
        report = ["# Optimal bids", "", "Best bids found by simulating completions of random hands "
                  "(`cardsim.advise.bid_table`); expected results are means over the completions.", ""]  # fmt: skip
        for name in names:
            report += run_game(name, args, folder)
    except CardsimError as exc:
        print(f"optimal_bids: error: {exc}", file=sys.stderr)
        return 2
    (folder / "report.md").write_text("\n".join(report))
    print(f"tables, figures and report.md in {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
