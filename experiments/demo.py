"""The demo study (``make demo``): a tournament, bid tables, score plots and rating lists in all three games.

    python experiments/demo.py                 # writes results/demo/ (replacing an earlier demo)
    python experiments/demo.py --out /tmp/demo
    python experiments/demo.py --smoke --out /tmp/demo   # every study at its smoke size (the tests)

Runs the four experiment scripts at demo sizes into ``OUT/tournament``,
``OUT/optimal_bids``, ``OUT/score_distributions`` and ``OUT/ladder`` (two at
a time, see ``PARALLEL``) and writes
``OUT/report.md``, which links their reports and shows their key figures.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd

from cardsim.games import GAMES
from cardsim.report import markdown_table

HERE = Path(__file__).resolve().parent
STUDIES = {  # script, its demo arguments, and what the report says of it
    "tournament": (["--bots", "heuristic,heuristic,random,random"],
                   "Duplicate-deal tournaments: heuristic against random bots, each deal in every seat rotation."),
    "optimal_bids": (["--hands", "200", "--samples", "60"],
                     "Best bids over random hands by simple hand features, from simulated completions."),
    "score_distributions": (["--rounds", "20000", "--games", "500"],
                            "Score distributions per bot: histograms, ECDFs, violins, bid vs result, convergence."),
    "ladder": (["--deals", "150"],
               "Rating lists of each game's bots: random, the heuristic, a published baseline and the strongest bot."),
}  # fmt: skip
# Studies that run side by side: most of a cold start is numba compiling (one core per process), and the
# tournament and the bid tables compile different kernels; the score plots then reuse the tournament's.
PARALLEL = (("tournament", "optimal_bids"), ("score_distributions", "ladder"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="results/demo", help="folder of the study (replaced; default results/demo)")
    parser.add_argument("--smoke", action="store_true", help="each study at its --smoke size (for the tests)")
    args = parser.parse_args(argv)
    out = Path(args.out)
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    text = ["# cardsim demo study", "", "Made by `make demo` (`python experiments/demo.py`); every number below can",
            "be reproduced with the same seed on any machine.", ""]  # fmt: skip
    for batch in PARALLEL:
        started = {name: _start(name, out, args.smoke) for name in batch}
        for name, (process, began) in started.items():
            output, _ = process.communicate()
            print(output, end="", flush=True)
            if process.returncode != 0:
                print(f"demo: {name} failed", file=sys.stderr)
                return 1
            text += _section(name, out, time.perf_counter() - began)  # seconds until it was collected
    (out / "report.md").write_text("\n".join(text))
    print(f"demo report: {out / 'report.md'}")
    return 0


def _start(name: str, out: Path, smoke: bool) -> tuple[subprocess.Popen, float]:
    """Start one study's script at its demo (or smoke) size; its output is printed when it is done."""
    size = ["--smoke"] if smoke else STUDIES[name][0]
    command = [sys.executable, str(HERE / f"{name}.py"), "--out", str(out / name), *size]
    print("$ " + " ".join(command[1:]), flush=True)
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return process, time.perf_counter()


def _section(name: str, out: Path, seconds: float) -> list[str]:
    """The report's section of one study: its caption, link, standings (tournament) and first figures."""
    text = [f"## {name.replace('_', ' ')}", "", STUDIES[name][1], "", f"Report: [{name}/report.md]({name}/report.md) "
            f"({seconds:.0f} s)", ""]  # fmt: skip
    for game in GAMES if name == "tournament" else ():  # the standings, bot by bot
        bots = pd.read_parquet(out / name / game / "bots.parquet")
        text += [f"**{game}**", "", markdown_table(bots), ""]
    for game in GAMES:  # the first figure of each game
        figure = next(iter(sorted(f for f in (out / name).rglob("*.png") if game in f.as_posix())), None)
        if figure is not None:
            text += [f"![{game}: {figure.stem}]({figure.relative_to(out).as_posix()})", ""]
    return text


if __name__ == "__main__":
    sys.exit(main())
