"""What ``--check`` costs: heuristic self-play with and without the round invariants checked after every step.

    python benchmarks/check_overhead.py                          # every game, 200,000 rounds each way, best of 5
    python benchmarks/check_overhead.py --game wizard --rounds 500000 --repeat 3

The goal (issue 13): checked runs at most 10% slower than unchecked ones on heuristic lineups. Both ways play the
same rounds (a test checks the numbers are identical); runs alternate, one thread, after a warm-up that loads (or
compiles) both kernels, timed in CPU seconds of the process. Prints one JSON line per game with both rates, the
ratio unchecked/checked and whether it meets ``--max-ratio`` (exit status 1 if any misses).

``--always-on`` measures the other check instead, the one every run has: the fast trick loops refuse a built-in
bot's illegal card (RULES D2, one AND per card; goal: at most 1%). The kernels are compiled once as they are and
once with that check compiled out (``cardsim.errors.REFUSE_ILLEGAL_CARDS`` False), each in a process of its own
with an empty numba cache of its own (so an unchecked kernel never reaches a cache a run could load), alternating;
random and heuristic self-play, best of ``--repeat`` per process and of ``--processes`` processes per side.

    python benchmarks/check_overhead.py --always-on --rounds 400000 --processes 3
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardsim.engine import simulate  # noqa: E402
from cardsim.games import GAMES  # noqa: E402


def rate(game: str, rounds: int, check: bool, bots: str = "heuristic") -> float:
    """Rounds per CPU second of this process (one thread: its CPU time is its run time on a quiet machine, and
    other load on a shared one slows neither side's figure)."""
    began = time.process_time()
    simulate(game, bots, rounds=rounds, seed=5, threads=1, progress=False, check=check)
    return rounds / (time.process_time() - began)


PRIVATE_CACHE = "CARDSIM_BENCHMARK_PRIVATE_CACHE"  # the child's numba cache, named twice: it is not a shared one


def refusal_rates(games: list[str], rounds: int, repeat: int, refuse: bool) -> dict:
    """(game, bots) -> best rounds per CPU second in this process, with the always-on card check compiled in or
    out (``refuse``); out only in a process whose numba cache is its own."""
    if not refuse:
        private = os.environ.get(PRIVATE_CACHE)
        if not private or private != os.environ.get("NUMBA_CACHE_DIR"):
            raise SystemExit("the unchecked kernels compile only into a private numba cache (see --always-on)")
        import cardsim.errors

        cardsim.errors.REFUSE_ILLEGAL_CARDS = False  # read when the kernels compile, which is below
    best = {}
    for game in games:
        for bots in ("random", "heuristic"):
            rate(game, 2000, False, bots)  # compile
            best[f"{game} {bots}"] = max(rate(game, rounds, False, bots) for _ in range(repeat))
    return best


def always_on(games: list[str], rounds: int, repeat: int, processes: int, max_ratio: float) -> bool:
    """Alternate processes with and without the card check; print one JSON line per game and lineup."""
    best: dict[bool, dict] = {True: {}, False: {}}
    for _ in range(processes):
        for refuse in (True, False):
            with tempfile.TemporaryDirectory(prefix="cardsim-refusal-") as cache:
                env = {**os.environ, "NUMBA_CACHE_DIR": cache, PRIVATE_CACHE: cache}
                command = [sys.executable, __file__, "--part", "refuse" if refuse else "no-refusal", "--rounds",
                           str(rounds), "--repeat", str(repeat), *(a for g in games for a in ("--game", g))]
                out = subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout
            for key, value in json.loads(out.splitlines()[-1]).items():
                best[refuse][key] = max(best[refuse].get(key, 0.0), value)
    ok = True
    for key in best[True]:
        ratio = best[False][key] / best[True][key]
        ok &= ratio <= max_ratio
        print(json.dumps({"lineup": key, "rounds": rounds, "without_check_rounds_per_s": round(best[False][key]),
                          "with_check_rounds_per_s": round(best[True][key]), "ratio": round(ratio, 3),
                          "max_ratio": max_ratio, "meets_goal": ratio <= max_ratio}))  # fmt: skip
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=list(GAMES), action="append", help="a game (repeatable; default all)")
    parser.add_argument("--rounds", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--max-ratio", type=float, help="the goal (default 1.10; with --always-on 1.01)")
    parser.add_argument("--always-on", action="store_true", help="measure the always-on card check instead")
    parser.add_argument("--processes", type=int, default=2, help="--always-on: processes per side, alternating")
    parser.add_argument("--part", choices=["refuse", "no-refusal"], help=argparse.SUPPRESS)  # one child process
    args = parser.parse_args(argv)
    games = args.game or list(GAMES)
    if args.part:
        print(json.dumps(refusal_rates(games, args.rounds, args.repeat, args.part == "refuse")))
        return 0
    if args.always_on:
        return 0 if always_on(games, args.rounds, args.repeat, args.processes, args.max_ratio or 1.01) else 1
    args.max_ratio = args.max_ratio or 1.10
    ok = True
    for game in games:
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
