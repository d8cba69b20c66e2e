"""Cold compile seconds per game and kind: the figures behind the first-run notices (``GameInfo.estimates``).

    python benchmarks/compile_times.py                          # every game and kind, one cold process each
    python benchmarks/compile_times.py --game wizard --kind fast --kind strong
    python benchmarks/compile_times.py --game differenzler --kind fast --kernels 12   # and where the time goes

Each (game, kind) runs in a fresh process with an empty numba cache (a temporary ``NUMBA_CACHE_DIR``) and does
the least that compiles that kind's kernels (one round, one replay, one hand with one completion); it prints one
JSON line per (game, kind) with the seconds numba spent compiling (``compile_s``, what the notices estimate) and
the process's wall time (``wall_s``, imports included). Compare with the game's ``estimates`` (its
``cardsim/games/<game>/info.py``) and update them there.
``--kernels N`` adds the N kernels that took longest (``kernels``): each kernel's own seconds (its compile less
the compiles of the kernels it called, which nest inside it: numba compiles a callee on the caller's first
compile and then links and optimises it again into the caller) and its number of specialisations (signatures).
The machine's load changes the figures by a factor of two or more: run it on a quiet machine, and more than once.
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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from cardsim.games import GAMES, game_info  # noqa: E402  (importing compiles nothing)
from cardsim.jit.precompile import has_advice  # noqa: E402

KINDS = {  # kind -> the call, with GAME, OTHERS (random bots for the other seats), STRONG and PYTHON_BOT filled in
    "fast": "simulate(GAME, 'random', rounds=1)",
    "heuristic": "simulate(GAME, 'heuristic', rounds=1)",  # the notices' "fast" too (call-partner: a loop of its own)
    "strong": "simulate(GAME, [STRONG] + OTHERS, rounds=1)",
    "check": "simulate(GAME, 'random', rounds=1, check=True)",
    "strong check": "simulate(GAME, [STRONG] + OTHERS, rounds=1, check=True)",
    "python": "simulate(GAME, [PYTHON_BOT] + OTHERS, rounds=1)",
    "replay": "replay(GAME, seed=0, round=0)",
    "strong replay": "replay(GAME, seed=0, round=0, bots=[STRONG] + OTHERS)",
    "advice": "precompile._advice(get_game(GAME), 'random')",
    "strong advice": "precompile._advice(get_game(GAME), STRONG)",
    "round": "precompile._round(get_game(GAME), 'random')",
    "strong timing": "precompile._timing(get_game(GAME), STRONG)",
}
SCRIPT = """
import json, sys, time
from collections import defaultdict
from numba.core import event
own, count, stack = defaultdict(float), defaultdict(int), []

class Profile(event.Listener):  # each kernel's own compile seconds: its time less its nested callees'
    def on_start(self, ev):
        stack.append([time.perf_counter(), 0.0])
    def on_end(self, ev):
        began, nested = stack.pop()
        took = time.perf_counter() - began
        f = ev.data["dispatcher"].py_func
        name = f.__module__ + "." + f.__qualname__
        own[name] += took - nested
        count[name] += 1
        if stack:
            stack[-1][1] += took

event.register("numba:compile", Profile())
began = time.perf_counter()
from cardsim import get_game, replay, simulate
from cardsim.jit import precompile
from cardsim.jit.compiling import spent
GAME = {game!r}
game = get_game(GAME)
OTHERS = ['random'] * (game.seats() - 1)
STRONG = precompile.strong_bot(game)
PYTHON_BOT = {python_bot!r}
{call}
top = sorted(own, key=own.get, reverse=True)[:{kernels}]
print(json.dumps({{"compile_s": round(spent().compile, 1), "load_s": round(spent().load, 1),
                  "wall_s": round(time.perf_counter() - began, 1), "kernels": len(own),
                  "specialisations": sum(count.values()),
                  **({{"top": [[k, round(own[k], 1), count[k]] for k in top]}} if top else {{}})}}))
"""


def python_bot(game: str) -> str | None:
    """The game's example Python bot (``GameInfo.example_bot``), as a bot spec."""
    example = game_info(game).example_bot
    return None if example is None else f"bots/examples.py:{example}"


def measured(game: str, kind: str) -> bool:
    """Whether ``kind`` is measured for ``game``: the advice's where it has a bid advice (with strong bots where its
    completions play them), ``python`` where it has an example Python bot."""
    if kind in ("advice", "strong advice"):
        return has_advice(game, kind == "strong advice")
    return kind != "python" or python_bot(game) is not None


def measure(game: str, kind: str, kernels: int = 0) -> dict:
    """One cold process: the seconds it compiled ``kind``'s kernels of ``game`` in, and its wall time."""
    with tempfile.TemporaryDirectory(prefix="cardsim-cold-") as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONPATH": str(ROOT)}
        script = SCRIPT.format(game=game, python_bot=python_bot(game), call=KINDS[kind], kernels=kernels)
        began = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", script], env=env, cwd=ROOT, capture_output=True, text=True)
        if done.returncode:
            return {"game": game, "kind": kind, "error": done.stderr.strip().splitlines()[-1:]}
        return {"game": game, "kind": kind, **json.loads(done.stdout.strip().splitlines()[-1]),
                "process_s": round(time.perf_counter() - began, 1), "load_avg": round(os.getloadavg()[0], 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", choices=list(GAMES), help="a game (repeatable; default all)")
    parser.add_argument("--kind", action="append", choices=list(KINDS), help="a kind (repeatable; default all)")
    parser.add_argument("--kernels", type=int, default=0, help="also list the N kernels that took longest")
    args = parser.parse_args()
    for game in args.game or GAMES:
        for kind in args.kind or KINDS:
            if measured(game, kind):
                print(json.dumps(measure(game, kind, args.kernels)), flush=True)


if __name__ == "__main__":
    main()
