"""Strength against time per decision for every strong bot, so users can pick their trade-off.

    python benchmarks/strength.py                         # every game and strong bot, 4 effort levels
    python benchmarks/strength.py --game wizard --deals 300 --levels 0.25,1,4
    python benchmarks/strength.py --smoke                 # a tiny run (seconds, once compiled)

For each game, each strong bot (the built-in bots with settings) and each effort level ``f``, the bot's integer
settings are scaled by ``f`` (``mc:samples=32`` at ``f = 0.5`` is ``mc:samples=16``; other settings keep their
defaults) and two things are measured:

* **time per decision**: the median (and 90th percentile) of ``Game.decision_times``: seat 0
  playing the bot against three heuristic bots on one thread, every bid and card timed;
* **strength**: a duplicate tournament (``cardsim.runner``) of the bot against three heuristic bots, each deal
  played in all 4 seat rotations: the bot's mean advantage over the heuristic per round (Differenzler: penalty
  points saved; call-partner: points per deal) or per game (Wizard), with its 95% CI.

Writes ``strength.png`` (advantage with CI against median ms per decision, one panel per game) and
``strength.md`` / ``strength.json`` (the table) into ``--out``, and prints the table.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardsim.games import GAMES, game_info, get_game  # noqa: E402
from cardsim.lineup import Setting, is_cheating  # noqa: E402
from cardsim.report import markdown_table  # noqa: E402
from cardsim.runner import experiment, run  # noqa: E402


def scaled(bot: str, settings: dict[str, Setting], level: float) -> str:
    """``bot:key=value:...`` with every integer setting ``level`` times its default (within its range)."""
    items = [
        f"{key}={int(min(s.high, max(s.low, round(s.default * level))))}"
        for key, s in settings.items()
        if s.integer and s.default > 0
    ]
    return ":".join([bot, *items])


def measure(game: str, spec: str, deals: int, decisions_rounds: int, seed: int) -> dict:
    """Median decision time and the duplicate-tournament advantage over the heuristic of one bot setting."""
    front = get_game(game)
    times = front.decision_times(spec, decisions_rounds, seed)
    lineup = [spec, "heuristic", "heuristic", "heuristic"]
    unit = game_info(game).studies.strength  # per whole game (the Wizard target), or per deal
    exp = experiment(game, lineup, seed=seed, players=4, **{unit: deals})
    with tempfile.TemporaryDirectory(prefix="cardsim-strength-") as folder:
        outcome = run(exp, Path(folder) / "run", progress=False)
    pair = outcome.standings.pairs.iloc[0]  # lineup order: the strong bot against the heuristic
    assert pair["bot"] == spec and pair["opponent"] == "heuristic", pair
    per = unit.removesuffix("s")
    diff, ci = (f"diff_game_{front.score}", "game_ci95") if per == "game" else (f"diff_{front.score}", "ci95")
    advantage = -pair[diff] if front.lower_is_better else pair[diff]  # higher is better for the strong bot
    return {
        "game": game, "bot": spec, "median_ms": float(np.median(times) * 1e3),
        "p90_ms": float(np.quantile(times, 0.9) * 1e3), "decisions": int(times.size),
        "deals": deals, "per": per, "advantage": float(advantage), "ci95": float(pair[ci]),
    }  # fmt: skip


def plot(rows: list[dict], path: Path) -> None:
    games = list(dict.fromkeys(r["game"] for r in rows))
    fig = Figure(figsize=(5.5 * len(games), 4.2))
    for ax, game in zip(fig.subplots(1, len(games), squeeze=False)[0], games, strict=True):
        mine = [r for r in rows if r["game"] == game]
        for bot in dict.fromkeys(r["bot"].split(":")[0] for r in mine):
            points = [r for r in mine if r["bot"].split(":")[0] == bot]
            ax.errorbar([r["median_ms"] for r in points], [r["advantage"] for r in points],
                        yerr=[r["ci95"] for r in points], marker="o", capsize=3, label=bot)  # fmt: skip
        ax.axhline(0, color="grey", lw=0.8)
        ax.axvline(2.0, color="red", lw=0.8, ls="--", label="2 ms")
        ax.set_xscale("log")
        unit = "points per game" if mine[0]["per"] == "game" else "points per deal"
        saved = "penalty saved" if get_game(game).lower_is_better else "score gained"
        ax.set(title=f"{game}: strong bot vs 3 heuristic", xlabel="median time per decision (ms, 1 thread)",
               ylabel=f"{saved} over heuristic ({unit}, 95% CI)")  # fmt: skip
        ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=list(GAMES), action="append", help="a game (default: all three)")
    parser.add_argument("--levels", default="0.25,0.5,1,2", help="effort factors on the default settings")
    per_game = ", ".join(game_info(g).title for g in GAMES if game_info(g).studies.strength == "games")
    parser.add_argument("--deals", type=int, default=400, help="tournament deals per setting"
                        + (f" ({per_game}: games)" if per_game else ""))
    parser.add_argument("--decisions-rounds", type=int, default=20, help="rounds timed per setting")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="results/strength")
    parser.add_argument("--smoke", action="store_true", help="tiny sizes: checks that everything runs")
    args = parser.parse_args(argv)
    levels = [float(x) for x in args.levels.split(",")]
    if args.smoke:
        levels, args.deals, args.decisions_rounds = [0.25], 4, 1
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for game in args.game or list(GAMES):
        front = get_game(game)
        for bot, settings in front.bot_settings.items():
            if is_cheating(bot):
                continue  # the honest bots' trade-off; omniscient is a reference (docs/bots.md)
            for level in levels:
                row = measure(game, scaled(bot, settings, level), args.deals, args.decisions_rounds, args.seed)
                rows.append(row | {"level": level})
                print(json.dumps(rows[-1]), flush=True)
    (out / "strength.json").write_text(json.dumps(rows, indent=1))
    columns = ["game", "bot", "level", "median_ms", "p90_ms", "decisions", "per", "deals", "advantage", "ci95"]
    table = pd.DataFrame(rows)[columns]
    (out / "strength.md").write_text(markdown_table(table) + "\n")
    plot(rows, out / "strength.png")
    print(markdown_table(table))
    print(f"wrote {out / 'strength.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
