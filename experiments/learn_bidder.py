"""An example that learns: a Wizard bidder trained with plain numpy on ``cardsim.envs.BatchEnv``, saved, and played
as a numba bot in cardsim tournaments (``bots/learned_wizard.py``; docs/rl.md, "An example that learns").

    python experiments/learn_bidder.py --game wizard            # 4 players: under a minute on one core
    python experiments/learn_bidder.py --game wizard --iterations 10 --tables 512 --out results/learn_bidder/quick.npz
    cardsim tournament wizard --bots bots/learned_wizard.py:learned_bidder,heuristic,heuristic,heuristic --games 2000

**The setting.** Wizard (``--game``, any game of the exact-tricks family: Oh Hell works the same), ``--players``
seats, default rules, single rounds of every size 1..max (15 for 4 players; Wizard deals no round of drawn size, so
one BatchEnv per size, ``--tables`` tables each): what a whole game (the standard schedule 1..15) deals, one round
of each size. Seat 0 is the agent and takes only its bids (``decisions="bid"``); its trump and cards are played by
the built-in ``heuristic`` inside the kernel (``assist``), as are the other seats. So every step is one bid per
table, and its reward the score of the round, which ends within the step.

**The learner: a contextual bandit.** A bid's score depends only on what the seat sees when it bids and on the bid
(the play after it is fixed), so there is no credit to assign over time: the network of ``bots.exact_tricks_learned``
(``FEATURES`` inputs -> ``--hidden`` ReLU units -> one value per bid) regresses the score of the bid taken (in units
of ``SCALE`` points; mean squared error on that bid's output, Adam, minibatches of ``BATCH``), and the policy bids
the legal bid of the highest value (``greedy_bids``). The bids taken while learning are drawn from the softmax of
the values over the legal bids (the mask: a refused bid, as under ``plus_minus_one``, is never drawn), at a
temperature annealed geometrically from ``--temperature`` to a tenth of it: broad exploration first, then the bids
near the best. Deterministic for ``--seed`` (the deals are keyed by seed and round, the draws by a numpy Generator).

**Evaluation.** Every ``--eval-every`` iterations the greedy policy bids on ``--eval-tables`` fixed deals per size
(another seed): its points per game are the sum over the sizes of its mean score per round (a whole game deals each
size once), with a 95% CI. The same deals are scored with random legal bids (``sample_legal``) and with the
heuristic's own bids (``cardsim.simulate``: BatchEnv's table i deals round i of its seed first). Prints one line per
evaluation and a JSON summary; saves the network and the run (``info``: setting, learning curve, seconds) to
``--out`` (.npz, about 20 kB; default ``results/learn_bidder/learned_<game>.npz``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bots.exact_tricks_learned import BID_FIRST, BIDS, FEATURES, SCALE, Net, features_batch, greedy_bids, save
from cardsim import simulate
from cardsim.envs import BatchEnv
from cardsim.games import GAMES, get_game
from cardsim.games.exact_tricks import state as family_state

BATCH = 1024  # rows per Adam step
LEARNING_RATE = 1e-3
EVAL_SEED = 1 << 40  # the evaluation deals' seeds start here, far from any training seed
Z95 = 1.959963984540054
FAMILY = [name for name in GAMES if get_game(name).state_module is family_state]  # the games it can learn


@dataclass
class Setting:
    """What a run trains on and how long (the CLI's options)."""

    game: str  # a game of ``FAMILY``
    players: int = 4
    tables: int = 4096  # per round size
    iterations: int = 60  # each: one bid at every table of every size, then one pass of Adam over them
    hidden: int = 64
    temperature: float = 2.0  # the first iteration's, in SCALE points; annealed to a tenth of it
    eval_tables: int = 4096  # per round size
    eval_every: int = 10
    seed: int = 0
    threads: int = 1
    rules: dict = field(default_factory=dict)  # more rules for every round (e.g. {"plus_minus_one": True})
    sizes: tuple[int, ...] = ()  # the round sizes trained and evaluated on (empty: every size, 1..max)


def sizes_of(setting: Setting) -> tuple[str, list[int]]:
    """The game's rule that sets a single round's cards each, and the sizes trained on (``setting.sizes``, or every
    size: 1..max cards)."""
    front = get_game(setting.game)
    rule = front.rules_class.cards_rule[0]
    return rule, list(setting.sizes or range(1, front.make_rules(setting.rules, setting.players).max_cards + 1))


def envs(setting: Setting, evaluation: bool) -> list[BatchEnv]:
    """One BatchEnv per round size: seat 0 bids, the built-in heuristic plays everything else. Seeds per size,
    the evaluation's from ``EVAL_SEED``."""
    rule, sizes = sizes_of(setting)
    base = EVAL_SEED if evaluation else 0
    return [BatchEnv(setting.game, n=setting.eval_tables if evaluation else setting.tables, players=setting.players,
                     rules={**setting.rules, rule: cards}, agents=0, decisions="bid", assist="heuristic",
                     opponents="heuristic", seed=base + setting.seed * 64 + cards, threads=setting.threads)
            for cards in sizes]  # fmt: skip


def initial_net(setting: Setting, rng: np.random.Generator) -> Net:
    """He-initialised hidden layer; a small output layer, so the first bids are drawn almost uniformly."""
    w1 = rng.normal(0.0, np.sqrt(2.0 / FEATURES), (FEATURES, setting.hidden))
    w2 = rng.normal(0.0, 0.01, (setting.hidden, BIDS))
    return Net(w1.astype(np.float32), np.zeros(setting.hidden, np.float32), w2.astype(np.float32),
               np.zeros(BIDS, np.float32))  # fmt: skip


def values(net: Net, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The forward pass over a batch ``x`` (float32[m, FEATURES]): pre-activations [m, hidden], ReLU units
    [m, hidden] and the value of each bid [m, BIDS]."""
    z = x @ net.w1 + net.b1
    h = np.maximum(z, 0.0)
    return z, h, h @ net.w2 + net.b2


def gradient(net: Net, x: np.ndarray, bids: np.ndarray, target: np.ndarray) -> Net:
    """The gradient of the mean of ``(value of the bid taken - target)**2 / 2`` over the batch (``bids`` int64[m],
    ``target`` float32[m])."""
    z, h, q = values(net, x)
    rows = np.arange(len(bids))
    error = q[rows, bids] - target
    dq = np.zeros_like(q)
    dq[rows, bids] = error / len(bids)
    dz = (dq @ net.w2.T) * (z > 0)
    return Net(x.T @ dz, dz.sum(0), h.T @ dq, dq.sum(0))


class Adam:
    """Adam over the arrays of a ``Net`` (float32)."""

    def __init__(self, net: Net, rate: float = LEARNING_RATE, betas: tuple[float, float] = (0.9, 0.999)) -> None:
        self.rate, self.betas, self.t = rate, betas, 0
        self.m = [np.zeros_like(a) for a in net]
        self.v = [np.zeros_like(a) for a in net]

    def step(self, net: Net, grad: Net) -> Net:
        self.t += 1
        (b1, b2), out = self.betas, []
        for k, (w, g) in enumerate(zip(net, grad, strict=True)):
            self.m[k] = b1 * self.m[k] + (1 - b1) * g
            self.v[k] = b2 * self.v[k] + (1 - b2) * g * g
            step = self.rate * (self.m[k] / (1 - b1**self.t)) / (np.sqrt(self.v[k] / (1 - b2**self.t)) + 1e-8)
            out.append((w - step).astype(np.float32))
        return Net(*out)


def explore(q: np.ndarray, legal: np.ndarray, temperature: float, rng: np.random.Generator) -> np.ndarray:
    """int64[m]: a bid per row drawn from the softmax of ``q / temperature`` over its legal bids (``legal``:
    int8[m, BIDS]), by the Gumbel-max trick."""
    logits = np.where(legal > 0, q / temperature + rng.gumbel(size=q.shape), -np.inf)
    return logits.argmax(1).astype(np.int64)


def per_game(scores: list[np.ndarray]) -> tuple[float, float]:
    """Points per game (a round of each size: the sum of the mean scores per size) and its 95% CI half-width."""
    return (float(sum(s.mean() for s in scores)),
            float(Z95 * np.sqrt(sum(s.var(ddof=1) / len(s) for s in scores))))  # fmt: skip


def play_eval(evals: list[BatchEnv], choose: Any) -> tuple[float, float]:
    """Points per game of seat 0 on the evaluation deals, bidding ``choose(env, obs, mask) -> int64[n]``."""
    scores = []
    for env in evals:
        obs, mask, _ = env.reset(seed=env.seed)
        scores.append(env.step(choose(env, obs, mask))[3][:, 0].astype(np.float64))
    return per_game(scores)


def heuristic_eval(evals: list[BatchEnv], setting: Setting) -> tuple[float, float]:
    """Points per game of the heuristic's own bids at seat 0 on the evaluation deals (``cardsim.simulate``)."""
    rule, _ = sizes_of(setting)
    scores = []
    for env in evals:
        result = simulate(setting.game, "heuristic", rounds=env.n, seed=env.seed, players=setting.players,
                          rules={**setting.rules, rule: getattr(env.rules, rule)}, keep_rows=True, progress=False,
                          threads=setting.threads)  # fmt: skip
        rows = result.rows
        scores.append(rows[rows["seat"] == 0].sort_values("round")["score"].to_numpy(np.float64))
    return per_game(scores)


def train(setting: Setting, log: Any = None) -> tuple[Net, dict]:
    """Train a bidder for ``setting``; returns the network and the run's record (learning curve: points per game
    of the greedy policy at each evaluation, with the random and heuristic bids' on the same deals). ``log``: a
    function given each evaluation's line (None: silent)."""
    rng = np.random.default_rng(setting.seed)
    net = initial_net(setting, rng)
    adam = Adam(net)
    train_envs, evals = envs(setting, False), envs(setting, True)
    players = setting.players
    greedy = lambda env, obs, mask: greedy_bids(obs, mask, players, net)  # reads the current net
    curve, seconds, rounds = [], 0.0, 0
    started = [env.reset() for env in train_envs]
    obs, masks = [o for o, _, _ in started], [m for _, m, _ in started]

    def evaluate(iteration: int) -> None:
        points, ci = play_eval(evals, greedy)
        curve.append({"iteration": iteration, "rounds": rounds, "seconds": round(seconds, 2),
                      "points": round(points, 2), "ci95": round(ci, 2)})  # fmt: skip
        if log is not None:
            log(f"iteration {iteration:4d}  {rounds:>11,} rounds  {seconds:6.1f} s  points per game {points:7.1f} "
                f"± {ci:.1f}")  # fmt: skip

    evaluate(0)
    for iteration in range(1, setting.iterations + 1):
        began = time.perf_counter()
        temperature = setting.temperature * 0.1 ** ((iteration - 1) / max(1, setting.iterations - 1))
        xs, bids, targets = [], [], []
        for k, env in enumerate(train_envs):
            x = features_batch(obs[k], players)
            legal = masks[k][:, BID_FIRST : BID_FIRST + BIDS]
            chosen = explore(values(net, x)[2], legal, temperature, rng)
            obs[k], masks[k], _, rewards, _ = env.step(chosen + BID_FIRST)
            xs.append(x)
            bids.append(chosen)
            targets.append(rewards[:, 0] / np.float32(SCALE))
        x, bid, target = np.concatenate(xs), np.concatenate(bids), np.concatenate(targets)
        order = rng.permutation(len(bid))
        for start in range(0, len(order), BATCH):
            rows = order[start : start + BATCH]
            net = adam.step(net, gradient(net, x[rows], bid[rows], target[rows]))
        seconds += time.perf_counter() - began
        rounds += len(bid)
        if iteration % setting.eval_every == 0 or iteration == setting.iterations:
            evaluate(iteration)
    random_points = play_eval(evals, lambda env, obs, mask: env.sample_legal())
    heuristic_points = heuristic_eval(evals, setting)
    record = {"setting": asdict(setting), "sizes": sizes_of(setting)[1], "train_seconds": round(seconds, 1),
              "rounds": rounds, "curve": curve, "random": [round(v, 2) for v in random_points],
              "heuristic": [round(v, 2) for v in heuristic_points]}  # fmt: skip
    return net, record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True, choices=FAMILY, help="the game (its default rules)")
    for name in ("players", "tables", "iterations", "hidden", "temperature", "eval_tables", "eval_every", "seed",
                 "threads"):  # fmt: skip
        value = Setting.__dataclass_fields__[name].default
        parser.add_argument(f"--{name.replace('_', '-')}", type=type(value), default=value, help=f"default {value}")
    parser.add_argument("--out", help="the weights file (.npz; default results/learn_bidder/learned_GAME.npz)")
    args = parser.parse_args(argv)
    out = args.out or f"results/learn_bidder/learned_{args.game}.npz"
    setting = Setting(**{k: v for k, v in vars(args).items() if k != "out"})
    net, record = train(setting, log=lambda line: print(line, file=sys.stderr, flush=True))
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    save(out, net, {"game": setting.game, "players": setting.players, **record})
    final = record["curve"][-1]
    print(json.dumps({"out": out, "train_seconds": record["train_seconds"], "rounds": record["rounds"],
                      "points_per_game": [final["points"], final["ci95"]], "random": record["random"],
                      "heuristic": record["heuristic"]}))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
