"""Runner overhead goal: a duplicate tournament with Parquet chunks costs at most 1.25x the bare engine loop.

    python benchmarks/runner_overhead.py                       # 10M Differenzler rounds each way (about a minute)
    python benchmarks/runner_overhead.py --rounds 2000000 --repeat 3

Each measurement runs in a fresh subprocess (after a warm-up that loads the
kernels), so its peak memory is its own:

* ``bare``: ``cardsim.engine.simulate`` of ``--rounds`` single rounds, summary only;
* ``runner``: ``cardsim.runner.run`` of ``--rounds / 4`` deals, each played in all
  4 seat rotations (the same number of rounds), writing every chunk's rows to
  Parquet with its checked sidecar, then the standings.

Both use the same cores (all, unless ``--threads``). Prints one JSON line per
run and a summary line with ``ratio`` = runner seconds / bare seconds (best of
``--repeat`` each) and the runner's peak RSS; ``--max-ratio`` and ``--max-mb``
turn them into checks (exit status 1).
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def measure(part: str, game: str | None, rounds: int, bots: str, threads: int | None, seed: int) -> dict:
    """One timed run in this process (called in a subprocess)."""
    sys.path.insert(0, str(ROOT))
    from cardsim import runner
    from cardsim.engine import simulate
    from cardsim.games import GAMES

    game = game or next(iter(GAMES))

    folder = Path(tempfile.mkdtemp(prefix="cardsim-overhead-"))
    try:
        warm = runner.experiment(game, bots, rounds=1000, seed=seed)
        runner.run(warm, folder / "warm", threads=threads, progress=False)
        simulate(game, bots, rounds=1000, seed=seed, threads=threads, progress=False)
        began = time.perf_counter()
        if part == "bare":
            simulate(game, bots, rounds=rounds, seed=seed, threads=threads, progress=False)
        else:
            exp = runner.experiment(game, bots, rounds=rounds // 4, seed=seed)
            runner.run(exp, folder / "run", threads=threads, progress=False)
        seconds = time.perf_counter() - began
        written = sum(p.stat().st_size for p in (folder / "run").rglob("*")) if part == "runner" else 0
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"part": part, "rounds": rounds, "seconds": round(seconds, 3), "rounds_per_s": round(rounds / seconds),
            "peak_rss_mb": round(peak), "parquet_mb": round(written / 1e6, 1)}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", help="the game (default: the first registered one, cardsim.games.GAMES)")
    parser.add_argument("--rounds", type=int, default=10_000_000)
    parser.add_argument("--bots", default="random")
    parser.add_argument("--threads", type=int, default=None, help="default: all cores")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--repeat", type=int, default=1, help="runs of each part, alternating; best one counts")
    parser.add_argument("--max-ratio", type=float, default=None, help="fail (exit 1) above this ratio")
    parser.add_argument("--max-mb", type=float, default=None, help="fail (exit 1) above this runner peak RSS")
    parser.add_argument("--part", choices=["bare", "runner"], help=argparse.SUPPRESS)  # one measurement
    args = parser.parse_args(argv)
    if args.part:
        print(json.dumps(measure(args.part, args.game, args.rounds, args.bots, args.threads, args.seed)))
        return 0
    best: dict[str, dict] = {}
    for _ in range(args.repeat):
        for part in ("bare", "runner"):
            command = [sys.executable, __file__, "--part", part, "--rounds", str(args.rounds), "--bots", args.bots,
                       "--seed", str(args.seed), *(["--threads", str(args.threads)] if args.threads else []),
                       *(["--game", args.game] if args.game else [])]  # fmt: skip
            result = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
            print(json.dumps(result))
            if part not in best or result["seconds"] < best[part]["seconds"]:
                best[part] = result
    ratio = best["runner"]["seconds"] / best["bare"]["seconds"]
    peak = best["runner"]["peak_rss_mb"]
    print(json.dumps({"summary": "runner / bare", "ratio": round(ratio, 3), "runner_peak_rss_mb": peak,
                      "parquet_mb": best["runner"]["parquet_mb"]}))  # fmt: skip
    failed = (args.max_ratio is not None and ratio > args.max_ratio) or (args.max_mb is not None and peak > args.max_mb)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
