"""Agent steps per second of the compiled batched environment (``cardsim.envs.batch.BatchEnv``), against cardsim's
own batch engine on the same rounds in the same run (issue 42: at least 5 million agent steps per second on 2
cores).

    python benchmarks/batch_env_speed.py                       # Wizard, 4 players, 15 cards, 1 and 2 threads
    python benchmarks/batch_env_speed.py --tables 8192 --steps 300 --repeat 5 --json

The loop is self-play, every seat an agent, random legal actions through ``sample_legal`` and the bit-packed
``uint8`` observation of the seat to move encoded at every step::

    obs, mask, to_move = env.reset()
    for _ in range(steps):
        obs, mask, to_move, rewards, done = env.step(env.sample_legal())

timed after a warm-up (which loads or compiles the kernels), best of ``--repeat``, on each thread count
(``numba.set_num_threads``, through ``BatchEnv(threads=...)``). An agent step is one table's step; the rate is
``tables * steps / seconds``. The engine's counterpart is ``cardsim.simulate(game, "random", rounds=N, rules=...,
threads=T)`` on single rounds of the same rules (random bots, no observation): its rounds per second times the
decisions of a round (``--round-steps``, default 64: Wizard's 4 bids and 60 cards among 4 players at 15 cards, the
whole deck dealt, so no card is turned and no trump named; the run prints the mean actions of the rounds the tables
finished, from ``env.round``), best of ``--repeat``. The default game is the first registered game that deals a
chosen number of cards (a ``cards`` rule).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the checkout's cardsim

from throughput import cpu_name  # noqa: E402  (benchmarks/: the same model name in every report)

FLOOR = 5_000_000  # agent steps per second on 2 cores (issue 42)


def default_game() -> str:
    """The first registered game whose rules have a ``cards`` option (the number of cards a round deals)."""
    from cardsim.games import GAMES, get_game

    return next(name for name in GAMES if "cards" in {f.name for f in dataclasses.fields(get_game(name).rules_class)})


def env_rate(game: str, players: int, rules: list[str], tables: int, steps: int, threads: int,
             copy: bool) -> tuple[float, float]:  # fmt: skip
    """Agent steps per second of ``steps`` self-play steps of ``tables`` tables on ``threads`` threads, and the
    mean number of actions of the last finished round of (up to) 100 tables (``env.round``, after the timing)."""
    from cardsim.envs.batch import BatchEnv

    env = BatchEnv(game, n=tables, players=players, rules=rules, threads=threads, copy=copy)
    env.reset()
    start = time.perf_counter()
    for _ in range(steps):
        env.step(env.sample_legal())
    rate = tables * steps / (time.perf_counter() - start)
    lengths = [len(env.round(i).record()["actions"]) for i in range(min(tables, 100))] if steps >= 100 else [0]
    return rate, sum(lengths) / len(lengths)


def engine_rate(game: str, players: int, rules: list[str], rounds: int, threads: int) -> float:
    """Rounds per second of ``cardsim.simulate`` with random bots on ``threads`` threads."""
    import cardsim

    start = time.perf_counter()
    cardsim.simulate(game, "random", rounds=rounds, players=players, rules=rules, threads=threads, progress=False)
    return rounds / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    import numba

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", help="the game (default: see the module docstring)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rule", action="append", metavar="NAME=VALUE", help="a rule option (default: cards=15)")
    parser.add_argument("--tables", type=int, default=4096, help="BatchEnv's n")
    parser.add_argument("--steps", type=int, default=200, help="steps per timed run")
    parser.add_argument("--rounds", type=int, default=400_000, help="the engine's rounds per timed run")
    parser.add_argument("--round-steps", type=int, default=64, help="decisions per round, for the engine's rate")
    parser.add_argument("--threads", type=int, action="append", help="a thread count (repeatable; default: 1 and 2)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-copy", action="store_true", help="BatchEnv(copy=False): read-only views, no copies")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    game, rules = args.game or default_game(), args.rule or ["cards=15"]
    threads = [t for t in (args.threads or [1, 2]) if t <= numba.config.NUMBA_NUM_THREADS]
    copy = not args.no_copy
    env_rate(game, args.players, rules, 64, 3, 1, copy)  # warm-up: loads (or compiles) the kernels
    engine_rate(game, args.players, rules, 1000, 1)
    results = []
    for t in threads:
        runs = [env_rate(game, args.players, rules, args.tables, args.steps, t, copy) for _ in range(args.repeat)]
        env, per_round = max(rate for rate, _ in runs), runs[0][1]
        engine = max(engine_rate(game, args.players, rules, args.rounds, t) for _ in range(args.repeat))
        results.append({"threads": t, "agent_steps_per_s": round(env), "actions_per_round": round(per_round, 2),
                        "engine_rounds_per_s": round(engine),
                        "engine_steps_per_s": round(engine * args.round_steps),
                        "ratio_to_engine": round(env / (engine * args.round_steps), 3)})  # fmt: skip
    report = {"game": game, "players": args.players, "rules": rules, "tables": args.tables, "steps": args.steps,
              "repeat": args.repeat, "copy": copy, "cpu": cpu_name(), "cpus": numba.config.NUMBA_NUM_THREADS,
              "numba": numba.__version__, "python": platform.python_version(), "floor_2_threads": FLOOR,
              "results": results}  # fmt: skip
    two = [r for r in results if r["threads"] == 2]
    if two:
        report["floor_reached"] = two[0]["agent_steps_per_s"] >= FLOOR
    if args.json:
        print(json.dumps(report))
    else:
        print(f"{game}, {args.players} players, {' '.join(rules)}, {args.tables} tables, self-play, "
              f"best of {args.repeat}; {report['cpu']}")  # fmt: skip
        for r in results:
            print(f"  {r['threads']} thread{'s' if r['threads'] > 1 else ' '}: BatchEnv {r['agent_steps_per_s']:>11,} "
                  f"agent steps/s   engine {r['engine_rounds_per_s']:>10,} rounds/s x {args.round_steps} = "
                  f"{r['engine_steps_per_s']:>12,} steps/s   ratio {r['ratio_to_engine']}")  # fmt: skip
        print(f"  actions per round (env.round of 100 tables): {results[0]['actions_per_round']}")
        if two:
            verdict = "reached" if report["floor_reached"] else "NOT reached"
            print(f"  floor {FLOOR:,} agent steps/s on 2 threads: {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
