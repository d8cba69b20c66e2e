"""Throughput of the batch engine: rounds (or games) per second, as users run it.

    python benchmarks/throughput.py --game differenzler --bots random --threads 1 --rounds 5000000
    python benchmarks/throughput.py --game differenzler --bots random --threads 1 --rounds 1000000 --reference --json
    python benchmarks/throughput.py --game differenzler --bots heuristic --rounds 100000 --games

Steps: a small warm-up call loads (or, with an empty numba cache, compiles) the
kernels and is timed as ``compile_s``; then one timed call of
``cardsim.engine.simulate(..., progress=False)`` with a summary only (no output
file), as the CLI runs it: kernel, batch handling and the streaming summary.
``peak_rss_mb`` is this process's peak resident memory.

``--reference`` builds (once, into benchmarks/_build/) and runs the tight
single-threaded C program ``reference_differenzler.c``: random self-play
Differenzler with the same rules and the same random streams. It reports
``reference_rounds_per_s`` and ``ratio_to_reference`` = engine rounds/s per
thread / C rounds/s. For an all-random lineup in rounds mode the C program
plays as many rounds with the same seed, and ``reference_agrees`` checks
that both give the same mean penalty per seat (|z| < 4; exit status 1
otherwise); ``reference_identical`` says whether the sums are even
identical, which they are while the engine deals as the C program does.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BUILD = HERE / "_build"
REFERENCE_SOURCE = HERE / "reference_differenzler.c"
CFLAGS = ["-O3", "-march=native", "-std=c11", "-Wall", "-Wextra"]
WARMUP_UNITS = 1000


def peak_rss_mb() -> float:
    """Peak resident set size of this process in MB (ru_maxrss is KiB on Linux, bytes on macOS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1 << 20) if sys.platform == "darwin" else peak / 1024


def cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def build_reference() -> Path:
    """Compile the C reference once; the binary's name carries a hash of source and flags."""
    cc = os.environ.get("CC", "gcc")
    if shutil.which(cc) is None:
        raise SystemExit(f"--reference needs a C compiler: '{cc}' was not found (set CC)")
    digest = hashlib.sha256(REFERENCE_SOURCE.read_bytes() + " ".join([cc, *CFLAGS]).encode()).hexdigest()[:12]
    binary = BUILD / f"reference_differenzler-{digest}"
    if not binary.exists():
        BUILD.mkdir(exist_ok=True)
        tmp = binary.with_name(binary.name + ".tmp")
        cmd = [cc, *CFLAGS, "-o", str(tmp), str(REFERENCE_SOURCE)]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"compiling the C reference failed: {' '.join(cmd)}\n{done.stderr}")
        os.replace(tmp, binary)
        for stale in BUILD.glob("reference_differenzler-*"):  # builds of older sources or flags
            if stale != binary:
                stale.unlink(missing_ok=True)
    return binary


def run_reference(rounds: int, seed: int) -> dict:
    """Run the C reference; returns its JSON line (rounds_per_s, checksum, penalty_sum, ...)."""
    binary = build_reference()
    done = subprocess.run([str(binary), str(rounds), str(seed)], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"the C reference failed (exit {done.returncode}): {done.stderr.strip()}")
    return json.loads(done.stdout)


def compare_with_reference(summary, ref: dict) -> dict:
    """Same rules, same work? Per-seat mean penalties of engine and C (random bots) must agree.

    The two are independent samples of the same distribution unless the engine deals exactly
    as the C program does (then their sums are identical): |z| < 4 for every seat.
    """
    n = summary["rounds"].to_numpy(float)
    if n.min() < 2:
        return {}
    engine_mean, engine_std = summary["mean_penalty"].to_numpy(), summary["std"].to_numpy()
    engine_sum = [int(round(m * k)) for m, k in zip(engine_mean, n, strict=True)]
    z = []
    for s, k in enumerate(n):
        ref_mean = ref["penalty_sum"][s] / k
        ref_var = (ref["penalty_sq_sum"][s] - k * ref_mean**2) / (k - 1)
        z.append((engine_mean[s] - ref_mean) / math.sqrt((engine_std[s] ** 2 + ref_var) / k))
    return {
        "engine_mean_penalty": [round(float(m), 4) for m in engine_mean],
        "reference_mean_penalty": [round(x / k, 4) for x, k in zip(ref["penalty_sum"], n, strict=True)],
        "reference_z": [round(float(v), 2) for v in z],
        "reference_agrees": bool(all(abs(v) < 4 for v in z)),
        "reference_identical": engine_sum == ref["penalty_sum"],
    }


def run(args: argparse.Namespace) -> dict:
    if not args.cold:
        return measure(args)
    # An empty numba cache, so the warm-up measures a full compilation; removed afterwards.
    with tempfile.TemporaryDirectory(prefix="cardsim-bench-numba-") as cache:
        os.environ["NUMBA_CACHE_DIR"] = cache
        return measure(args)


def measure(args: argparse.Namespace) -> dict:
    sys.path.insert(0, str(ROOT))  # the checkout's cardsim, also when it is not pip-installed

    t0 = time.perf_counter()
    import numba

    from cardsim.engine import simulate

    import_s = time.perf_counter() - t0

    games_mode = args.games is not None
    units = args.games if games_mode and args.games is not True else args.rounds
    if units is None:
        raise SystemExit("give --rounds N (with --games, N counts games), or --games N")
    size = "games" if games_mode else "rounds"

    t0 = time.perf_counter()
    simulate(args.game, args.bots, **{size: WARMUP_UNITS}, seed=args.seed, threads=args.threads, progress=False)
    compile_s = time.perf_counter() - t0

    load_1min = os.getloadavg()[0]  # other work on the machine skews every figure
    seconds, refs = float("inf"), []
    for _ in range(args.repeat):  # best of --repeat; engine and C alternate so both see the same machine
        t0 = time.perf_counter()
        result = simulate(args.game, args.bots, **{size: units}, seed=args.seed, threads=args.threads, progress=False)
        seconds = min(seconds, time.perf_counter() - t0)
        rounds_played = int(result.summary["rounds"].iloc[0])  # every seat plays every round
        if args.reference:
            refs.append(run_reference(rounds_played, args.seed))

    report = {
        "game": args.game,
        "bots": args.bots,
        "threads": args.threads,
        "mode": size,
        "rounds": rounds_played,
        "seconds": round(seconds, 4),
        "rounds_per_s": round(rounds_played / seconds, 1),
    }
    if games_mode:
        report["games"] = units
        report["games_per_s"] = round(units / seconds, 1)
    report.update(
        {
            "compile_s": round(compile_s, 4),
            "numba_cache": "cold" if args.cold else "as found",
            "import_s": round(import_s, 4),
            "peak_rss_mb": round(peak_rss_mb(), 1),
            "seed": args.seed,
            "repeat": args.repeat,
            "load_1min_before": round(load_1min, 2),
            "cpu": cpu_name(),
            "cores": os.cpu_count(),
            "numba": numba.__version__,
            "python": platform.python_version(),
        }
    )

    if args.reference:
        ref = max(refs, key=lambda r: r["rounds_per_s"])
        report["reference_rounds_per_s"] = ref["rounds_per_s"]
        report["reference_seconds"] = ref["seconds"]
        report["reference_checksum"] = ref["checksum"]
        report["ratio_to_reference"] = round(report["rounds_per_s"] / args.threads / ref["rounds_per_s"], 3)
        lineup = [b.strip() for b in args.bots.split(",")]
        if not games_mode and set(lineup) == {"random"}:
            report.update(compare_with_reference(result.summary, ref))
    return report


def show(report: dict) -> str:
    """A short human-readable table."""
    lines = [f"{report['game']}  bots={report['bots']}  threads={report['threads']}  ({report['cpu']})"]
    rows = [("compile (warm-up) s", f"{report['compile_s']:.3f}  (numba cache: {report['numba_cache']})")]
    if report["mode"] == "games":
        rows.append(("games", f"{report['games']:,}"))
    rows += [("rounds", f"{report['rounds']:,}"), ("seconds", f"{report['seconds']:.3f}")]
    if report["mode"] == "games":
        rows.append(("games/s", f"{report['games_per_s']:,.0f}"))
    rows += [
        ("rounds/s", f"{report['rounds_per_s']:,.0f}"),
        ("rounds/s per thread", f"{report['rounds_per_s'] / report['threads']:,.0f}"),
        ("peak RSS MB", f"{report['peak_rss_mb']:.1f}"),
    ]
    if "reference_rounds_per_s" in report:
        rows += [
            ("C reference rounds/s", f"{report['reference_rounds_per_s']:,.0f}  (1 thread, random bots)"),
            ("ratio to reference", f"{report['ratio_to_reference']:.3f}  (engine per thread / C)"),
        ]
        if "reference_agrees" in report:
            same = "identical sums" if report["reference_identical"] else f"z = {report['reference_z']}"
            rows.append(("C agrees with engine", f"{'yes' if report['reference_agrees'] else 'NO'}  ({same})"))
    width = max(len(name) for name, _ in rows)
    return "\n".join(lines + [f"  {name:<{width}}  {value}" for name, value in rows])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="differenzler")
    parser.add_argument("--bots", default="random", help="one bot for every seat, or one per seat: a,b,c,d")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--rounds", type=int, help="rounds to time (with --games: games)")
    parser.add_argument("--games", type=int, nargs="?", const=True, help="time whole games (optionally: how many)")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    parser.add_argument("--reference", action="store_true", help="also run the C reference")
    parser.add_argument("--repeat", type=int, default=1, help="time engine and C reference this often; report the best")
    parser.add_argument("--cold", action="store_true", help="compile into an empty numba cache (full compile time)")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    if args.reference and args.game.strip().lower() != "differenzler":
        parser.error("--reference: the C reference plays Differenzler only")
    try:
        report = run(args)
    except Exception as exc:
        if type(exc).__name__ != "CardsimError":
            raise
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(report) if args.json else show(report))
    if report.get("reference_agrees") is False:
        print("error: the C reference and the engine disagree on the mean penalties (same rules?)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
