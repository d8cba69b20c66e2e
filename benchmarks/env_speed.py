"""Agent steps per second of cardsim's PettingZoo AEC environments, against PettingZoo's own ``connect_four_v3``
under the same loop in the same run.

    python benchmarks/env_speed.py                      # every game, 4 players where they may choose; 20,000 steps
    python benchmarks/env_speed.py --game wizard --steps 50000 --repeat 5 --json

The loop is the one PettingZoo's documentation shows, random legal actions from the action mask:
``for agent in env.agent_iter(): obs, reward, term, trunc, info = env.last(); env.step(action)``, with ``env()``
(the wrapped environment), resetting when an episode ends; one thread. Needs the ``[rl]`` extra (pettingzoo,
gymnasium) and pygame (``connect_four_v3`` imports it; the dev extra has it). Prints agent steps/s per game (best of
``--repeat``) and the ratio to connect_four_v3's.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def steps_per_s(make_env, steps: int, seed: int = 0) -> float:
    """Agent steps per second of ``steps`` random legal actions through ``make_env()``'s AEC loop."""
    env = make_env()
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    done = 0
    start = time.perf_counter()
    while done < steps:
        for _agent in env.agent_iter():
            obs, reward, termination, truncation, info = env.last()
            if termination or truncation:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            done += 1
            if done >= steps:
                break
        env.reset()
    return steps / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    from pettingzoo.classic import connect_four_v3

    import cardsim.envs as envs
    from cardsim.games import GAMES

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", help="a game (repeatable; default: every game)")
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    games = args.game or list(GAMES)
    steps_per_s(getattr(envs, f"{games[0]}_v0").env, 200)  # warm-up: compiles (or loads) the kernels
    rates = {}
    for game in games:
        make = getattr(envs, f"{game}_v0").env
        connect = [steps_per_s(connect_four_v3.env, args.steps) for _ in range(args.repeat)]
        ours = [steps_per_s(make, args.steps) for _ in range(args.repeat)]
        rates[game] = {"steps_per_s": round(max(ours)), "connect_four_v3_steps_per_s": round(max(connect)),
                       "ratio": round(max(ours) / max(connect), 2)}  # fmt: skip
    report = {"steps": args.steps, "repeat": args.repeat, "python": platform.python_version(), "games": rates}
    if args.json:
        print(json.dumps(report))
    else:
        for game, r in rates.items():
            print(f"{game:<14} {r['steps_per_s']:>9,} agent steps/s   connect_four_v3 "
                  f"{r['connect_four_v3_steps_per_s']:>9,}   ratio {r['ratio']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
