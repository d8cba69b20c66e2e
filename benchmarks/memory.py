"""Memory goal: a run of any size keeps a flat, bounded memory footprint.

    python benchmarks/memory.py                         # 100M rounds, summary only (takes minutes)
    python benchmarks/memory.py --rounds 10000000       # 10M rounds, summary only
    python benchmarks/memory.py --rounds 10000000 --out /tmp/rows.parquet   # Parquet streaming path

Runs ``cardsim.engine.simulate`` once (all cores unless --threads) and prints
one JSON line: game, rounds, seconds, peak_rss_mb (this process's peak
resident memory), plus warmup_rss_mb (the peak after a 1,000-round warm-up,
i.e. the interpreter, numpy/pandas/numba and the loaded kernels) so the part
the run itself adds is visible. Since rounds stream through in fixed chunks,
peak_rss_mb should not grow with --rounds. ``--max-mb`` turns the figure into
a check (exit status 1 when exceeded).
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def peak_rss_mb() -> float:
    """Peak resident set size of this process in MB (ru_maxrss is KiB on Linux, bytes on macOS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1 << 20) if sys.platform == "darwin" else peak / 1024


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", help="the game (default: the first registered one, cardsim.games.GAMES)")
    parser.add_argument("--bots", default="random")
    parser.add_argument("--rounds", type=int, default=100_000_000)
    parser.add_argument("--threads", type=int, default=None, help="default: all cores")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--out", type=Path, default=None, help="also stream every row to this Parquet file")
    parser.add_argument("--max-mb", type=float, default=None, help="fail (exit 1) if peak RSS exceeds this")
    args = parser.parse_args(argv)
    if args.out is not None and args.out.exists():
        parser.error(f"--out {args.out} exists already; give a new path")

    sys.path.insert(0, str(ROOT))  # the checkout's cardsim, also when it is not pip-installed
    from cardsim.engine import simulate
    from cardsim.errors import CardsimError
    from cardsim.games import GAMES

    args.game = args.game or next(iter(GAMES))
    try:
        simulate(args.game, args.bots, rounds=1000, seed=args.seed, threads=args.threads, progress=False)
        warmup_rss = peak_rss_mb()
        t0 = time.perf_counter()
        simulate(
            args.game, args.bots, rounds=args.rounds, seed=args.seed, threads=args.threads, out=args.out, progress=False
        )
        seconds = time.perf_counter() - t0
    except CardsimError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    report = {
        "game": args.game,
        "bots": args.bots,
        "rounds": args.rounds,
        "threads": args.threads or "all",
        "seconds": round(seconds, 2),
        "peak_rss_mb": round(peak_rss_mb(), 1),
        "warmup_rss_mb": round(warmup_rss, 1),
    }
    if args.out is not None:
        report["out"] = str(args.out)
        report["out_mb"] = round(args.out.stat().st_size / 2**20, 1)
    if args.max_mb is not None:
        report["max_mb"] = args.max_mb
        report["ok"] = report["peak_rss_mb"] <= args.max_mb
    print(json.dumps(report))
    return 0 if report.get("ok", True) else 1


if __name__ == "__main__":
    sys.exit(main())
