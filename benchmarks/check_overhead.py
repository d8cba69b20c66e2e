"""What ``--check`` costs: heuristic self-play with and without the round invariants checked after every step.

    python benchmarks/check_overhead.py                          # every game, 200,000 rounds each way, best of 5
    python benchmarks/check_overhead.py --game wizard --rounds 500000 --repeat 3

The goal (issue 13): checked runs at most 10% slower than unchecked ones on heuristic lineups. Both ways play the
same rounds (a test checks the numbers are identical); runs alternate, one thread, after a warm-up that loads (or
compiles) both kernels, timed in CPU seconds of the process. Prints one JSON line per game with both rates, the
ratio unchecked/checked and whether it meets ``--max-ratio`` (exit status 1 if any misses).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardsim.engine import simulate  # noqa: E402
from cardsim.games import GAMES  # noqa: E402


def rate(game: str, rounds: int, check: bool) -> float:
    """Rounds per CPU second of this process (one thread: its CPU time is its run time on a quiet machine, and
    other load on a shared one slows neither side's figure)."""
    began = time.process_time()
    simulate(game, "heuristic", rounds=rounds, seed=5, threads=1, progress=False, check=check)
    return rounds / (time.process_time() - began)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=list(GAMES), action="append", help="a game (repeatable; default all)")
    parser.add_argument("--rounds", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--max-ratio", type=float, default=1.10)
    args = parser.parse_args(argv)
    ok = True
    for game in args.game or list(GAMES):
        for check in (False, True):
            rate(game, 2000, check)  # warm-up: load or compile
        rates: dict[bool, list[float]] = {False: [], True: []}
        for _ in range(args.repeat):
            for check in (False, True):
                rates[check].append(rate(game, args.rounds, check))
        plain, checked = max(rates[False]), max(rates[True])
        ratio = plain / checked
        ok &= ratio <= args.max_ratio
        print(json.dumps({"game": game, "bots": "heuristic", "rounds": args.rounds, "repeat": args.repeat,
                          "unchecked_rounds_per_s": round(plain), "checked_rounds_per_s": round(checked),
                          "ratio": round(ratio, 3), "max_ratio": args.max_ratio,
                          "meets_goal": ratio <= args.max_ratio}))  # fmt: skip
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
