"""What sealing costs a Python bot's decision: the README's ``Cautious`` bot in every Differenzler seat, a tournament
of single deals played as seated, sealed (each bot in a process of its own) and open, alternating.

    python benchmarks/sealed_overhead.py                       # 2,000 deals each way, best of 5
    python benchmarks/sealed_overhead.py --rounds 5000 --repeat 3

Prints one JSON line: both runs' seconds (wall clock, the whole ``runner.run`` but the bots' process start, which
is timed apart as ``start_s``), the decisions played (every decision is a Python bot's: 4 seats x 10 per deal), and
``overhead_us_per_decision`` = (sealed - open) / decisions, against the goal of at most 100 microseconds (exit
status 1 if it misses).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardsim.runner import experiment, run  # noqa: E402
from cardsim.sealed.process import BotProcess, Sealing  # noqa: E402

CAUTIOUS = '''RANKS = "6789TJQKA"  # the plain order; bots/examples.py ranks trumps too


class Cautious:
    def predict(self, obs):
        aces = sum(card[1] == "A" for card in obs.hand)
        return 11 * aces + 10

    def play(self, obs):
        # the lowest rank once the prediction is reached, otherwise any legal card
        if obs.points[obs.seat] >= obs.predictions[obs.seat]:
            return min(obs.legal, key=lambda card: RANKS.index(card[1]))
        return obs.rng.choice(obs.legal)
'''
DECISIONS_PER_DEAL = 4 * 10  # four seats, each one prediction and nine cards


def timed(bots: list[str], rounds: int, sealed: bool, folder: Path) -> float:
    """Seconds of one run into ``folder`` (removed first), its bots' process start left out."""
    shutil.rmtree(folder, ignore_errors=True)
    exp = experiment("differenzler", bots, rounds=rounds, seed=None if sealed else 7, duplicate=False, sealed=sealed)
    started = []
    start = BotProcess.__init__

    def counted(self, *args, **kwargs):  # the processes start once per run: not a decision's cost
        began = time.perf_counter()
        start(self, *args, **kwargs)
        started.append(time.perf_counter() - began)

    BotProcess.__init__ = counted
    try:
        began = time.perf_counter()
        run(exp, folder, threads=1, progress=False)
        return time.perf_counter() - began - sum(started)
    finally:
        BotProcess.__init__ = start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--max-us", type=float, default=100.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        bot = Path(tmp) / "my_bots.py"
        bot.write_text(CAUTIOUS)
        bots = [f"{bot}:Cautious"] * 4
        results = Path.cwd() / "results" / "sealed-overhead"  # not under /tmp, which sealed bots cannot see
        timed(bots, 50, False, results / "warm")  # compiles (or loads) the kernels the driver calls
        sealed, open_ = [], []
        for _ in range(args.repeat):
            open_.append(timed(bots, args.rounds, False, results / "open"))
            sealed.append(timed(bots, args.rounds, Sealing(), results / "sealed"))
        shutil.rmtree(results)
    decisions = args.rounds * DECISIONS_PER_DEAL
    overhead = (min(sealed) - min(open_)) / decisions * 1e6
    print(json.dumps({"rounds": args.rounds, "decisions": decisions, "open_s": round(min(open_), 3),
                      "sealed_s": round(min(sealed), 3), "open_us_per_decision": round(min(open_) / decisions * 1e6, 1),
                      "sealed_us_per_decision": round(min(sealed) / decisions * 1e6, 1),
                      "overhead_us_per_decision": round(overhead, 1), "goal_us": args.max_us,
                      "meets_goal": overhead <= args.max_us}))  # fmt: skip
    sys.exit(0 if overhead <= args.max_us else 1)


if __name__ == "__main__":
    main()
