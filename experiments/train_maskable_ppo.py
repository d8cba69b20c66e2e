"""A standard learning library trains on cardsim unchanged: Stable-Baselines3's ``MaskablePPO`` (sb3-contrib, with
its ``ActionMasker``) on the Gymnasium single-agent environment, against cardsim's bots.

    python experiments/train_maskable_ppo.py --game ohhell     # seat 0 against 3 heuristic bots, 100,000 steps
    python experiments/train_maskable_ppo.py --game wizard --timesteps 200000 --opponents random

Not part of ``make test``: it makes a throwaway venv (``--venv``, default /tmp/cardsim-sb3), installs the CPU build
of torch, sb3-contrib and this checkout of cardsim with ``[rl]`` there, and runs itself inside it (``--inside``).
It trains for ``--timesteps`` agent steps, then plays ``--episodes`` rounds with the trained policy (masked,
deterministic) and with uniformly random legal actions from the same seeds, and prints both mean rewards (per
round, in the game's points) with 95% confidence intervals as one JSON line.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TORCH = "torch==2.13.0"  # the CPU build (a file on this project's machines; elsewhere PyPI's)


def mean_ci(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / max(1, n - 1)
    return mean, 1.959963984540054 * math.sqrt(var / n)


def evaluate(env, policy, episodes: int, seed: int) -> list[float]:  # noqa: ANN001 (sb3 and gymnasium types)
    """Rewards of ``episodes`` rounds from ``reset(seed=seed)`` on, ``policy(obs, mask) -> action``."""
    totals = []
    obs, info = env.reset(seed=seed)
    for _ in range(episodes):
        done, total = False, 0.0
        while not done:
            obs, reward, done, truncated, info = env.step(policy(obs, info["action_mask"]))
            total += reward
        totals.append(total)
        obs, info = env.reset()
    return totals


def train(args: argparse.Namespace) -> dict:
    import numpy as np
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.wrappers import ActionMasker

    from cardsim.envs import single_agent

    def make():
        return ActionMasker(single_agent(args.game, seat=0, opponents=args.opponents), lambda e: e.action_masks())

    env = make()
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, verbose=0, n_steps=2048, batch_size=256)
    began = time.perf_counter()
    model.learn(total_timesteps=args.timesteps)
    seconds = time.perf_counter() - began
    rng = np.random.default_rng(args.seed)
    trained = evaluate(make(), lambda o, m: int(model.predict(o, action_masks=m.astype(bool), deterministic=True)[0]),
                       args.episodes, 10_000)  # fmt: skip
    random_play = evaluate(make(), lambda o, m: int(rng.choice(np.flatnonzero(m))), args.episodes, 10_000)
    (mean_t, ci_t), (mean_r, ci_r) = mean_ci(trained), mean_ci(random_play)
    return {"game": args.game, "opponents": args.opponents, "timesteps": args.timesteps,
            "train_seconds": round(seconds), "episodes": args.episodes, "trained_mean": round(mean_t, 3),
            "trained_ci95": round(ci_t, 3), "random_mean": round(mean_r, 3), "random_ci95": round(ci_r, 3)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True, help="a game of cardsim.games.GAMES")
    parser.add_argument("--opponents", default="heuristic")
    parser.add_argument("--timesteps", type=int, default=100_000)
    parser.add_argument("--episodes", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--venv", type=Path, default=Path("/tmp/cardsim-sb3"))
    parser.add_argument("--inside", action="store_true", help="run in the current interpreter (the venv's)")
    args = parser.parse_args(argv)
    if args.inside:
        print(json.dumps(train(args)), flush=True)
        return 0
    python = args.venv / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(args.venv)], check=True)
        pip = [str(python), "-m", "pip", "install", "--quiet"]
        subprocess.run(pip + [TORCH], check=True)
        subprocess.run(pip + ["sb3-contrib", "-e", f"{ROOT}[rl]"], check=True)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([str(python), __file__, "--inside", *(argv if argv is not None else sys.argv[1:])],
                          env=env).returncode  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
