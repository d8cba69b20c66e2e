"""OpenSpiel's own speed at Oh Hell random self-play: rounds per second of its C++ game loop.

    python benchmarks/openspiel_speed.py                     # 4 players, 12 tricks, 100,000 rounds, best of 3
    python benchmarks/openspiel_speed.py --players 5 --tricks 10 --rounds 200000 --repeat 5

One ``pyspiel.evaluate_bots`` call per round (a single round of ``oh_hell``, ``num_tricks_fixed`` = ``--tricks``),
with ``pyspiel.make_uniform_random_bot`` in every seat: the deal, the bids and the play all run in OpenSpiel's C++
(its chance outcomes drawn by its own mt19937 seeded with the round number), and Python only calls it once per
round. Prints one JSON line: ``rounds_per_s`` is the best of ``--repeat`` timed runs, ``rounds_per_s_range``
(slowest, fastest) covers them all. open-spiel is a dev extra (test oracle only); cardsim never imports it.
``openspiel_rounds_per_s`` is what benchmarks/throughput.py can call for the comparison.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from importlib.metadata import version


def openspiel_game(players: int = 4, tricks: int = 12):
    """OpenSpiel's ``oh_hell`` with a fixed number of tricks (one round each game); refuses an r with no card left
    to turn, which OpenSpiel accepts and then cannot deal."""
    import pyspiel  # the dev extra only: importing this module must not need it

    if not 3 <= players <= 7:
        raise ValueError(f"OpenSpiel's Oh Hell takes 3 to 7 players, not {players}")
    if not 1 <= tricks <= 51 // players:
        raise ValueError(f"tricks must be 1..{51 // players} for {players} players (a card must be left to turn)")
    return pyspiel.load_game("oh_hell", {"players": players, "num_tricks_fixed": tricks})


def measure(players: int = 4, tricks: int = 12, rounds: int = 100_000, repeat: int = 3, seed: int = 0) -> dict:
    """Time ``rounds`` calls of ``evaluate_bots`` (one round each), ``repeat`` times; the figures of all runs."""
    import pyspiel

    if rounds < 1 or repeat < 1:
        raise ValueError("rounds and repeat must be at least 1")
    game = openspiel_game(players, tricks)
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(players)]
    evaluate, new_state = pyspiel.evaluate_bots, game.new_initial_state
    for s in range(min(rounds, 1000)):  # warm-up: first calls, caches
        evaluate(new_state(), bots, s)
    rates, totals = [], [0.0] * players
    for run in range(repeat):
        first = seed + run * rounds
        start = time.perf_counter()
        results = [evaluate(new_state(), bots, s) for s in range(first, first + rounds)]
        rates.append(rounds / (time.perf_counter() - start))
        for returns in results:
            for p, value in enumerate(returns):
                totals[p] += value
    return {
        "game": "oh_hell (OpenSpiel)",
        "open_spiel": version("open-spiel"),
        "players": players,
        "tricks": tricks,
        "rounds": rounds,
        "repeat": repeat,
        "seed": seed,
        "rounds_per_s": round(max(rates)),
        "rounds_per_s_range": [round(min(rates)), round(max(rates))],
        "mean_returns": [round(t / (rounds * repeat), 4) for t in totals],  # per seat: a sanity check, raw points
        "python": platform.python_version(),
        "machine": platform.machine(),
    }


def openspiel_rounds_per_s(players: int = 4, tricks: int = 12, rounds: int = 100_000, repeat: int = 3) -> float:
    """OpenSpiel's rounds/s for random self-play Oh Hell: the best of ``repeat`` runs of ``rounds`` rounds."""
    return measure(players, tricks, rounds, repeat)["rounds_per_s"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--tricks", type=int, default=12, help="num_tricks_fixed: cards dealt to each player")
    parser.add_argument("--rounds", type=int, default=100_000, help="rounds per timed run")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs; the best is reported")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        result = measure(args.players, args.tricks, args.rounds, args.repeat, args.seed)
    except ValueError as error:
        parser.error(str(error))
    print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
