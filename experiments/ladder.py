"""Rating lists of each game's bots, the strongest included (the demo's ladder study): each game's ladder, one report.

    python experiments/ladder.py                        # 300 deals per match (about 3 minutes once compiled)
    python experiments/ladder.py --deals 2000 --out results/ladders
    python experiments/ladder.py --smoke --out /tmp/l   # seconds once compiled: the size the tests run

For each game, ``cardsim.ladder`` rates its lineup (``GameInfo.studies.ladder``): the random bot, the heuristic,
Wizard's published ``rulebased``, and the game's strongest honest bot (by the ladders of docs/bots.md: ``ismcts`` in
Differenzler and Wizard, ``mc`` in call-partner), by duplicate matches of every pair, and writes ``OUT/<game>/``
(ratings, pairs, the strong bot's time per decision and ``ladder.png``); ``OUT/report.md`` shows each game's ratings
and plot. A first run compiles the strong bots' kernels for a few minutes (``make demo`` does it ahead with
``cardsim warmup --strong``); docs/bots.md has the ladders of every bot.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardsim.cli import nonnegative_int, positive_int  # noqa: E402
from cardsim.errors import CardsimError  # noqa: E402
from cardsim.games import GAMES, game_info  # noqa: E402
from cardsim.outputs import check_output_folder  # noqa: E402
from cardsim.rating import ladder  # noqa: E402
from cardsim.report import markdown_table  # noqa: E402

SMOKE = {"deals": 20}
COLUMNS = ["bot", "elo", "ci95", "deals", "win_share", "ms_per_decision", "ms_p90"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=positive_int, default=300, help="deals per match (default 300)")
    parser.add_argument("--seed", type=nonnegative_int, default=0, help="seed (default 0)")
    parser.add_argument("--out", default="results/ladders", help="folder for the ladders and report.md")
    parser.add_argument("--smoke", action="store_true", help=f"tiny run for tests ({SMOKE['deals']} deals)")
    args = parser.parse_args(argv)
    deals = SMOKE["deals"] if args.smoke else args.deals
    text = ["# Rating lists: random, heuristic and strong bots", "", f"{deals} deals per match, seed {args.seed}; each "
            "pair plays two duplicate matches (each bot against copies of the other, every seat rotation). Ratings "
            "on the Elo scale with 95% CIs (Bradley-Terry over the deals); a strong bot's milliseconds per decision "
            "(median, 90th percentile) against heuristic bots, one thread; the fast bots decide in well under a "
            "microsecond (-).", ""]  # fmt: skip
    try:
        out = check_output_folder(args.out)
        for game in GAMES:
            bots = game_info(game).studies.ladder
            result = ladder(game, bots, deals=deals, seed=args.seed, out=out / game, progress=False)
            text += [f"## {game}", "", f"Bots `{bots}`.", "", markdown_table(result.ratings[COLUMNS]), "",
                     f"![{game} ladder]({game}/ladder.png)", ""]  # fmt: skip
            print(f"{game}: " + ", ".join(f"{b} {e:+.0f}" for b, e in zip(result.ratings.bot, result.ratings.elo,
                                                                             strict=True)))  # fmt: skip
    except CardsimError as error:
        print(f"ladder: error: {error}", file=sys.stderr)
        return 2
    (out / "report.md").write_text("\n".join(text))
    print(f"ladders and report.md in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
