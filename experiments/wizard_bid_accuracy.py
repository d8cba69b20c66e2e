"""Wizard bid accuracy per round size: the ``heuristic`` and the published rule-based baseline in the same games.

    python experiments/wizard_bid_accuracy.py                       # 20,000 standard 4-player games (seconds)
    python experiments/wizard_bid_accuracy.py --bots heuristic,heuristic_v1,heuristic,heuristic_v1 --games 5000

Plays ``--games`` whole games of the lineup (by default ``heuristic`` and ``rulebased`` alternating, so both bid
from every position in the same games), then writes per bot and round size the share of exact bids with its 95%
CI: ``bid_accuracy.md`` (a table, also printed) and ``bid_accuracy.png`` (``cardsim.plots.bid_accuracy``, with
the figures Schumacher & Pleines report for their rule-based player marked).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardsim import plots  # noqa: E402
from cardsim.cli import nonnegative_int, positive_int  # noqa: E402
from cardsim.engine import simulate  # noqa: E402
from cardsim.errors import CardsimError  # noqa: E402
from cardsim.games.wizard.game import GAME  # noqa: E402
from cardsim.outputs import check_output_folder  # noqa: E402

# Schumacher & Pleines (IEEE CoG 2022), rule-based player, 4 players: exact bids at 1 and 15 cards.
PUBLISHED = {"rule-based, published": {1: 0.84, 15: 0.40}}
SMOKE = {"games": 20, "dpi": 50}


def accuracy_markdown(table) -> str:
    """The table as markdown: one row per bot, one column per round size, each cell the share of exact bids."""
    wide = table.pivot(index="bot", columns="cards", values="met_rate")
    head = "| bot | " + " | ".join(str(c) for c in wide.columns) + " |"
    rule = "|---" * (len(wide.columns) + 1) + "|"
    body = ["| `" + str(bot) + "` | " + " | ".join(f"{v:.3f}" for v in row) + " |" for bot, row in wide.iterrows()]
    return "\n".join([head, rule, *body])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bots", default="heuristic,rulebased,heuristic,rulebased", help="one bot per seat")
    parser.add_argument("--games", type=positive_int, default=20_000, help="whole games (default 20000)")
    parser.add_argument("--seed", type=nonnegative_int, default=9, help="seed (default 9)")
    parser.add_argument("--threads", type=positive_int, default=None, help="numba threads (default: all cores)")
    parser.add_argument("--out", default="results/wizard_bid_accuracy", help="folder for the table and the plot")
    parser.add_argument("--dpi", type=positive_int, default=110, help="resolution of the PNG (default 110)")
    parser.add_argument("--smoke", action="store_true", help=f"tiny run for tests ({SMOKE['games']} games)")
    args = parser.parse_args(argv)
    if args.smoke:
        args.games, args.dpi = SMOKE["games"], SMOKE["dpi"]
    try:  # bad bots, or an output folder that cannot be written: refused before anything is simulated
        GAME.lineup(args.bots, GAME.make_rules(None))
        out = check_output_folder(args.out)
        out.mkdir(parents=True, exist_ok=True)
        rows = simulate("wizard", args.bots, games=args.games, seed=args.seed, threads=args.threads,
                        keep_rows=True, progress=False).rows  # fmt: skip
    except CardsimError as error:
        print(f"wizard_bid_accuracy: error: {error}", file=sys.stderr)
        return 2
    table = accuracy_markdown(plots.bid_accuracy_table(rows))
    (out / "bid_accuracy.md").write_text(f"Exact bids per round size, {args.games} games of {args.bots}, seed "
                                         f"{args.seed}:\n\n{table}\n")  # fmt: skip
    plots.bid_accuracy(rows, reference=PUBLISHED).savefig(out / "bid_accuracy.png", dpi=args.dpi)
    print(table)
    print(f"wrote {out / 'bid_accuracy.md'} and {out / 'bid_accuracy.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
