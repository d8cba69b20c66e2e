"""Throughput of the batch engine: rounds (or games) per second, as users run it.

    python benchmarks/throughput.py --game differenzler --bots random --threads 1 --rounds 5000000
    python benchmarks/throughput.py --game differenzler --bots random --threads 1 --rounds 1000000 --reference --json
    python benchmarks/throughput.py --game differenzler --bots heuristic --rounds 100000 --games
    python benchmarks/throughput.py --game wizard --bots random --threads 1 --rounds 2000000 --reference --repeat 3
    python benchmarks/throughput.py --game wizard --bots random --threads 1 --games 200000 --reference --repeat 3

Steps: a small warm-up call loads (or, with an empty numba cache, compiles) the
kernels and is timed as ``compile_s``; then one timed call of
``cardsim.engine.simulate(..., progress=False)`` with a summary only (no output
file), as the CLI runs it: kernel, batch handling and the streaming summary.
``peak_rss_mb`` is this process's peak resident memory.

``--reference`` builds (once, into benchmarks/_build/) and runs a tight
single-threaded C program with the same rules and the same random streams, the
game's ``GameInfo.reference`` (``reference_differenzler.c``: random self-play
Differenzler rounds; ``reference_wizard.c``: random self-play Wizard single
rounds, or whole games with ``--games``; ``--players`` and ``--rule`` as for the
engine). It reports ``reference_rounds_per_s`` (and ``reference_games_per_s``)
and ``ratio_to_reference`` = engine rate per thread / C rate. For an all-random
lineup the C program plays the same units with the same seed, and
``reference_agrees`` checks that both give the same mean score (penalty) per
seat (|z| < 4, for whole games also the mean game totals; exit status 1
otherwise); ``reference_identical`` says whether the sums (and the counts the
reference keeps, e.g. Wizard's exact bids, and the wins) are even identical,
which they are while the engine deals and draws as the C program does. A game
whose reference plays single rounds only (Differenzler) is compared in rounds
mode only (its games are other units than its single rounds).

``--openspiel`` times the game's OpenSpiel counterpart (``GameInfo.openspiel``:
Oh Hell's ``oh_hell``) in the same run: its own C++ loop, one
``pyspiel.evaluate_bots`` call per round with uniform random bots, on single
rounds of ``--cards`` among ``--players`` (``openspiel_speed.py``; open-spiel is
a dev extra). It reports ``openspiel_rounds_per_s`` and ``ratio_to_openspiel``
= engine rate per thread / OpenSpiel's.
"""

from __future__ import annotations

import argparse
import dataclasses
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
from typing import TYPE_CHECKING, Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))  # the checkout's cardsim, also when it is not pip-installed
BUILD = HERE / "_build"
if TYPE_CHECKING:  # cardsim is imported in ``measure``, once a cold run has chosen its numba cache
    from cardsim.games.info import Reference
CFLAGS = ["-O3", "-march=native", "-std=c11", "-Wall", "-Wextra"]
WARMUP_UNITS = 1000
Z95 = 1.959963984540054  # the 95% CI half-width of the summaries is Z95 * std / sqrt(n)


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


def build_reference(reference: Reference) -> Path:
    """Compile a game's C reference once; the binary's name carries a hash of source and flags."""
    cc = os.environ.get("CC", "gcc")
    if shutil.which(cc) is None:
        raise SystemExit(f"--reference needs a C compiler: '{cc}' was not found (set CC)")
    source = ROOT / reference.source
    digest = hashlib.sha256(source.read_bytes() + " ".join([cc, *CFLAGS]).encode()).hexdigest()[:12]
    binary = BUILD / f"{source.stem}-{digest}"
    if not binary.exists():
        BUILD.mkdir(exist_ok=True)
        tmp = binary.with_name(binary.name + ".tmp")
        cmd = [cc, *CFLAGS, "-o", str(tmp), str(source)]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"compiling the C reference failed: {' '.join(cmd)}\n{done.stderr}")
        os.replace(tmp, binary)
        for stale in BUILD.glob(f"{source.stem}-*"):  # builds of older sources or flags
            if stale != binary:
                stale.unlink(missing_ok=True)
    return binary


def run_reference(reference: Reference, units: int, seed: int, mode: str, rules: Any) -> dict:
    """Run a game's C reference on ``units`` of ``mode`` ("rounds" or "games", one it plays) under ``rules``;
    returns its JSON line (rounds_per_s, checksum, per-seat sums, ...)."""
    binary = build_reference(reference)
    fields = {**dataclasses.asdict(rules), "units": units, "seed": seed}
    argv = [arg.format(**fields) for arg in reference.argv[mode]]
    done = subprocess.run([str(binary), *argv], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"the C reference failed (exit {done.returncode}): {done.stderr.strip()}")
    return json.loads(done.stdout)


def z_scores(n, engine_mean, engine_std, ref_sum, ref_sq) -> list[float]:
    """Per seat, z of the difference of two independent means (engine and C) of ``n[s]`` observations each."""
    z = []
    for s, k in enumerate(n):
        ref_mean = ref_sum[s] / k
        ref_var = max((ref_sq[s] - k * ref_mean**2) / (k - 1), 0.0)
        diff, spread = engine_mean[s] - ref_mean, math.sqrt((engine_std[s] ** 2 + ref_var) / k)
        z.append(diff / spread if spread > 0 else (0.0 if abs(diff) < 1e-9 else math.inf))
    return z


def exact_sums(means, n) -> list[int]:
    """Integer sums behind float means (exact: the summaries sum integers below 2**53)."""
    return [int(round(float(m) * float(k))) for m, k in zip(means, n, strict=True)]


def compare(summary, ref: dict, score: str, counts: dict[str, str], games: bool) -> dict:
    """Per-seat mean ``score`` per round (and, for ``games``, mean game totals) of engine and C must agree.

    The two are independent samples of the same distribution unless the engine deals exactly as the C program
    does: |z| < 4 for every seat. Identical means identical score sums, ``counts`` (summary rate column -> the
    reference's count of the same hits) and (games) wins: the engine then played the very rounds the C program
    played.
    """
    n = summary["rounds"].to_numpy(float)
    if n.min() < 2:
        return {}
    engine_mean, engine_std = summary[f"mean_{score}"].to_numpy(), summary["std"].to_numpy()
    z = z_scores(n, engine_mean, engine_std, ref[f"{score}_sum"], ref[f"{score}_sq_sum"])
    identical = exact_sums(engine_mean, n) == ref[f"{score}_sum"]
    identical = identical and all(exact_sums(summary[rate].to_numpy(), n) == ref[key] for rate, key in counts.items())
    report = {
        f"engine_mean_{score}": [round(float(m), 4) for m in engine_mean],
        f"reference_mean_{score}": [round(x / k, 4) for x, k in zip(ref[f"{score}_sum"], n, strict=True)],
        "reference_z": [round(float(v), 2) for v in z],
    }
    agrees = all(abs(v) < 4 for v in z)
    if games:
        g = summary["games"].to_numpy(float)
        game_mean = summary[f"mean_game_{score}"].to_numpy()
        game_std = [half * math.sqrt(k) / Z95 for half, k in zip(summary["game_ci95"], g, strict=True)]
        game_z = z_scores(g, game_mean, game_std, ref[f"game_{score}_sum"], ref[f"game_{score}_sq_sum"])
        wins = [float(w) for w in summary["wins"]]
        identical = identical and exact_sums(game_mean, g) == ref[f"game_{score}_sum"]
        identical = identical and all(abs(a - b) < 1e-3 for a, b in zip(wins, ref["wins"], strict=True))
        agrees = agrees and all(abs(v) < 4 for v in game_z)
        report.update(
            {
                f"engine_mean_game_{score}": [round(float(m), 3) for m in game_mean],
                f"reference_mean_game_{score}": [round(x / k, 3) for x, k in zip(ref[f"game_{score}_sum"], g,
                                                                                  strict=True)],  # fmt: skip
                "reference_game_z": [round(float(v), 2) for v in game_z],
                "engine_wins": [round(w, 3) for w in wins],
                "reference_wins": [round(float(w), 3) for w in ref["wins"]],
            }
        )
    report["reference_agrees"] = bool(agrees)
    report["reference_identical"] = bool(identical)
    return report


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> dict:
    if not args.cold:
        return measure(args, parser)
    # An empty numba cache, so the warm-up measures a full compilation; removed afterwards.
    with tempfile.TemporaryDirectory(prefix="cardsim-bench-numba-") as cache:
        os.environ["NUMBA_CACHE_DIR"] = cache
        return measure(args, parser)


def measure(args: argparse.Namespace, parser: argparse.ArgumentParser) -> dict:
    t0 = time.perf_counter()
    import numba

    from cardsim.engine import simulate
    from cardsim.games import GAMES, game_info, get_game

    import_s = time.perf_counter() - t0

    games_mode = args.games is not None
    units = args.games if games_mode and args.games is not True else args.rounds
    if units is None:
        raise SystemExit("give --rounds N (with --games, N counts games), or --games N")
    size = "games" if games_mode else "rounds"
    game = game_info(args.game or next(iter(GAMES))).name  # an unknown game is refused here, naming the games
    reference = game_info(game).reference
    if args.reference and reference is None:
        referenced = [name for name in GAMES if game_info(name).reference is not None]
        parser.error(f"--reference: there are C references for {' and '.join(referenced)} only")
    if args.openspiel and game_info(game).openspiel is None:
        parser.error(f"--openspiel: {game} has no OpenSpiel counterpart")
    options = {"players": args.players, "rules": rule_items(args, game) or None}
    options.update(seed=args.seed, threads=args.threads, progress=False)

    def play(count: int):
        return simulate(game, args.bots, **{size: count}, **options)

    t0 = time.perf_counter()
    play(WARMUP_UNITS)
    compile_s = time.perf_counter() - t0

    load_1min = os.getloadavg()[0]  # other work on the machine skews every figure
    times, refs = [], []
    for _ in range(args.repeat):  # best of --repeat; engine and C alternate so both see the same machine
        t0 = time.perf_counter()
        result = play(units)
        times.append(time.perf_counter() - t0)
        rounds_played = int(result.summary["rounds"].iloc[0])  # every seat plays every round
        if args.reference and size in reference.argv:  # the same units: single rounds, or whole games
            refs.append(run_reference(reference, units, args.seed, size, ruled(args, get_game(game))))
        elif args.reference:  # as many single rounds as the engine played
            refs.append(run_reference(reference, rounds_played, args.seed, "rounds", ruled(args, get_game(game))))

    seconds = min(times)
    report = {
        "game": game,
        "bots": args.bots,
        "players": len(result.summary),
        "threads": args.threads,
        "mode": size,
        "rounds": rounds_played,
        "seconds": round(seconds, 4),
        "rounds_per_s": round(rounds_played / seconds, 1),
    }
    if games_mode:
        report["games"] = units
        report["games_per_s"] = round(units / seconds, 1)
    if args.repeat > 1:  # the spread over the repeats: [slowest, fastest]
        report["rounds_per_s_range"] = [round(rounds_played / t, 1) for t in (max(times), min(times))]
        if games_mode:
            report["games_per_s_range"] = [round(units / t, 1) for t in (max(times), min(times))]
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
        if "games_per_s" in ref:
            report["reference_games_per_s"] = ref["games_per_s"]
        report["reference_seconds"] = ref["seconds"]
        report["reference_checksum"] = ref["checksum"]
        # engine per thread / C; for whole games both play the same rounds, so games/s give the same ratio
        report["ratio_to_reference"] = round(report["rounds_per_s"] / args.threads / ref["rounds_per_s"], 3)
        if args.repeat > 1:  # ranges over the repeats; each ratio pairs an engine run with the C run after it
            c_rates = sorted(r["rounds_per_s"] for r in refs)
            report["reference_rounds_per_s_range"] = [c_rates[0], c_rates[-1]]
            if "games_per_s" in ref:
                c_games = sorted(r["games_per_s"] for r in refs)
                report["reference_games_per_s_range"] = [c_games[0], c_games[-1]]
            pairs = zip(times, refs, strict=True)
            ratios = sorted(rounds_played / t / args.threads / r["rounds_per_s"] for t, r in pairs)
            report["ratio_to_reference_range"] = [round(ratios[0], 3), round(ratios[-1], 3)]
        lineup = [b.strip() for b in args.bots.split(",")]
        if set(lineup) == {"random"} and size in reference.argv:  # the same units, the same draws
            report.update(compare(result.summary, ref, get_game(game).score, reference.counts, games_mode))
    if args.openspiel:
        report.update(openspiel_report(args, get_game(game), report["rounds_per_s"]))
    return report


def ruled(args: argparse.Namespace, game: Any) -> Any:
    """The rules of the run (``--players``, ``--rule``, ``--cards``), as the engine makes them."""
    return game.make_rules(rule_items(args, game.name), args.players)


def rule_items(args: argparse.Namespace, game: str) -> list[str]:
    """``--rule`` items, with ``--cards`` as the rule it stands for in ``game`` (its ``cards_rule``)."""
    from cardsim.games import game_info

    return args.rule + ([f"{game_info(game).cards_rule}={args.cards}"] if args.cards else [])


def openspiel_report(args: argparse.Namespace, game: Any, rounds_per_s: float) -> dict:
    """OpenSpiel's own loop on the same rules (``openspiel_speed.measure``: ``evaluate_bots`` with uniform random
    bots, one call per round), best of ``--repeat``, and the engine's rounds/s per thread over it."""
    from openspiel_speed import measure as openspiel_measure

    from cardsim.errors import CardsimError
    from cardsim.games import game_info

    rules = ruled(args, game)
    if game_info(game.name).openspiel is None or args.games or rules.round_cards < 1:
        raise CardsimError("--openspiel times single rounds of a fixed size: give --rounds and --cards")
    other = openspiel_measure(rules.players, rules.round_cards, min(args.rounds, 200_000), args.repeat)
    return {"openspiel_rounds_per_s": other["rounds_per_s"], "openspiel": other["open_spiel"],
            "ratio_to_openspiel": round(rounds_per_s / args.threads / other["rounds_per_s"], 1)}  # fmt: skip


def show(report: dict) -> str:
    """A short human-readable table."""

    def rate(key: str, digits: int = 0) -> str:  # the best figure, and the range over --repeat runs
        low_high = report.get(f"{key}_range")
        spread = f"  (range {low_high[0]:,.{digits}f} - {low_high[1]:,.{digits}f})" if low_high else ""
        return f"{report[key]:,.{digits}f}{spread}"

    lines = [f"{report['game']}  bots={report['bots']}  threads={report['threads']}  ({report['cpu']})"]
    rows = [("compile (warm-up) s", f"{report['compile_s']:.3f}  (numba cache: {report['numba_cache']})")]
    if report["mode"] == "games":
        rows.append(("games", f"{report['games']:,}"))
    rows += [("rounds", f"{report['rounds']:,}"), ("seconds", f"{report['seconds']:.3f}")]
    if report["mode"] == "games":
        rows.append(("games/s", rate("games_per_s")))
    rows += [
        ("rounds/s", rate("rounds_per_s")),
        ("rounds/s per thread", f"{report['rounds_per_s'] / report['threads']:,.0f}"),
        ("peak RSS MB", f"{report['peak_rss_mb']:.1f}"),
    ]
    if "reference_rounds_per_s" in report:
        rows.append(("C reference rounds/s", f"{rate('reference_rounds_per_s')}  (1 thread, random bots)"))
        if "reference_games_per_s" in report:
            rows.append(("C reference games/s", rate("reference_games_per_s")))
        rows.append(("ratio to reference", f"{rate('ratio_to_reference', 3)}  (engine per thread / C)"))
        if "reference_agrees" in report:
            same = "identical sums" if report["reference_identical"] else f"z = {report['reference_z']}"
            rows.append(("C agrees with engine", f"{'yes' if report['reference_agrees'] else 'NO'}  ({same})"))
    if "openspiel_rounds_per_s" in report:
        rows.append(("OpenSpiel rounds/s", f"{report['openspiel_rounds_per_s']:,}  (open-spiel {report['openspiel']}, "
                     "its C++ loop, random bots)"))  # fmt: skip
        rows.append(("ratio to OpenSpiel", f"{report['ratio_to_openspiel']}x  (engine per thread / OpenSpiel)"))
    width = max(len(name) for name, _ in rows)
    return "\n".join(lines + [f"  {name:<{width}}  {value}" for name, value in rows])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", help="the game (default: the first registered one, cardsim.games.GAMES)")
    parser.add_argument("--bots", default="random", help="one bot for every seat, or one per seat: a,b,c,d")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--rounds", type=int, help="rounds to time (with --games: games)")
    parser.add_argument("--games", type=int, nargs="?", const=True, help="time whole games (optionally: how many)")
    parser.add_argument("--players", type=int, help="players, where the game allows a choice")
    parser.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE", help="a rule option (repeatable)")
    parser.add_argument("--cards", type=int, help="cards per player in single rounds, where the game has the rule "
                        "(--rule cards=K, or as the game's cards_rule names it)")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    parser.add_argument("--reference", action="store_true", help="also run the C reference")
    parser.add_argument("--repeat", type=int, default=1, help="time engine and C reference this often; report the best")
    parser.add_argument("--openspiel", action="store_true", help="also time the game's OpenSpiel counterpart's own "
                        "loop (the dev extra open-spiel; benchmarks/openspiel_speed.py), single rounds of --cards")
    parser.add_argument("--cold", action="store_true", help="compile into an empty numba cache (full compile time)")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    try:
        report = run(args, parser)
    except Exception as exc:
        if type(exc).__name__ != "CardsimError":
            raise
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(report) if args.json else show(report))
    if report.get("reference_agrees") is False:
        print("error: the C reference and the engine disagree on the mean scores (same rules?)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
