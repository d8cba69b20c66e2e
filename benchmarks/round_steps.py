"""Round steps per second from Python: ``r.play`` with random legal actions, as search and RL loops use it.

    python benchmarks/round_steps.py                    # every game, 2000 rounds each
    python benchmarks/round_steps.py --game wizard --rounds 5000 --min-rate 100000

Each round is dealt with ``cardsim.new_round`` and played to the end by ``r.play(rng.choice(r.legal()))``; the
time counts ``legal`` and ``play`` (not the deal). The plain reference in the same run is a Python loop doing the
same random choices over a list of the same length without a game (the cost of the loop itself). Prints one JSON
line per game: actions/s, microseconds per action and the ratio to the reference; ``--min-rate`` turns the
issue's floor (100,000 actions/s) into a check (exit status 1).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cardsim  # noqa: E402
from cardsim.games import GAMES  # noqa: E402


def measure(game: str, rounds: int, seed: int) -> dict:
    rng = random.Random(seed)
    for i in range(3):  # warm-up: loads (or compiles) the kernels
        r = cardsim.new_round(game, seed=seed, round=i)
        while not r.done:
            r.play(rng.choice(r.legal()))
    deals = [cardsim.new_round(game, seed=seed, round=i) for i in range(rounds)]
    actions, began = 0, time.perf_counter()
    for r in deals:
        while not r.done:
            r.play(rng.choice(r.legal()))
            actions += 1
    seconds = time.perf_counter() - began
    began, options = time.perf_counter(), list(range(10))
    for _ in range(actions):
        rng.choice(list(options))
    reference = time.perf_counter() - began
    return {"game": game, "rounds": rounds, "actions": actions, "actions_per_s": round(actions / seconds),
            "us_per_action": round(1e6 * seconds / actions, 2), "ratio_to_plain_loop": round(seconds / reference, 1)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=list(GAMES), action="append", help="a game (repeatable; default all)")
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--min-rate", type=float, help="fail (exit 1) below this many actions per second")
    args = parser.parse_args()
    ok = True
    for game in args.game or list(GAMES):
        result = measure(game, args.rounds, args.seed)
        print(json.dumps(result), flush=True)
        ok = ok and (args.min_rate is None or result["actions_per_s"] >= args.min_rate)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
