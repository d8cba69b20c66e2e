"""Cross-check of cardsim's Oh Hell against OpenSpiel's ``oh_hell``, move by move (RULES.md F1-F6).

    python tests/ohhell_crosscheck.py --rounds 20000      # the full check (dev extra open-spiel); prints JSON

Both ways, over every player count 3-7 and the rule options OpenSpiel shares (``num_tricks_fixed`` including -1,
``off_bid_penalty`` both ways, ``points_per_trick`` 1 and others, shrunk decks), ``CONFIGS`` in turn:

- cardsim leads: a round dealt by cardsim (``new_round(seed, round)``) is played with uniformly random legal actions
  and replayed in OpenSpiel with the same deal (r, dealer, hands, turned card) and the same actions; before every
  action the seat to move and the legal set must agree, and at the end OpenSpiel's returns equal cardsim's scores;
- OpenSpiel leads: a round played by OpenSpiel itself (``openspiel_ohhell.random_rounds``) is started in cardsim
  from its deal (``new_round(hands=..., dealer=..., turned=...)``) and its actions applied; the same comparisons.

A disagreement is counted (and the first few described), never raised, so that one run reports them all.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import openspiel_ohhell as osh  # noqa: E402

from cardsim import new_round  # noqa: E402

# (players, rules): OpenSpiel's parameter names, which are cardsim's rule options for Oh Hell
CONFIGS = [
    (3, {}),
    (4, {}),
    (5, {"off_bid_penalty": True}),
    (6, {"points_per_trick": 5, "off_bid_penalty": True}),
    (7, {"points_per_trick": 3}),
    (4, {"num_tricks_fixed": 12}),
    (3, {"num_tricks_fixed": 1, "points_per_trick": 2}),
    (5, {"num_suits": 3, "num_cards_per_suit": 6}),
    (3, {"num_suits": 2, "num_cards_per_suit": 5, "num_tricks_fixed": 3, "off_bid_penalty": True}),
    (7, {"num_suits": 4, "num_cards_per_suit": 8}),
    (4, {"num_suits": 1, "num_cards_per_suit": 13}),
]


def cardsim_legal(r) -> list:
    """cardsim's legal set in the public form, sorted as ``Codec.sort_public`` sorts."""
    return osh.Codec().sort_public(list(r.legal()))


def _compare(where: str, mine, theirs, found: list[str]) -> bool:
    if mine != theirs:
        found.append(f"{where}: cardsim {mine!r}, OpenSpiel {theirs!r}")
        return False
    return True


def cardsim_leads(players: int, rules: dict, seed: int, index: int, rng: random.Random, found: list[str]) -> bool:
    """Round ``index`` of ``seed`` dealt and played randomly in cardsim, replayed in OpenSpiel: True if they agree."""
    r = new_round("ohhell", seed=seed, round=index, players=players, rules=rules)
    start = r.record()
    movers, legal, actions = [], [], []
    while not r.done:
        movers.append(r.to_move)
        legal.append(cardsim_legal(r))
        actions.append(rng.choice(r.legal()))
        r.play(actions[-1])
    game = osh.load(players, **rules)
    where = f"{players} players {rules} seed {seed} round {index}"
    try:
        out = osh.replay(game, start["cards"], start["dealer"], start["hands"], start["turned_card"], actions)
    except ValueError as refused:
        found.append(f"{where}: OpenSpiel refused cardsim's round: {refused}")
        return False
    return (_compare(f"{where} movers", movers, out["movers"], found)
            and _compare(f"{where} legal sets", legal, out["legal"], found)
            and _compare(f"{where} tricks won", r.record()["tricks_won"], out["tricks_won"], found)
            and _compare(f"{where} scores", r.scores, out["returns"], found))  # fmt: skip


def openspiel_leads(players: int, rules: dict, seed: int, count: int, found: list[str]) -> int:
    """``count`` rounds played by OpenSpiel, replayed in cardsim; the number that agree."""
    agreed = 0
    for k, o in enumerate(osh.random_rounds(count, players, seed, **rules)):
        where = f"{players} players {rules} OpenSpiel seed {seed} round {k}"
        r = new_round("ohhell", hands=[" ".join(h) for h in o["hands"]], dealer=o["dealer"], turned=o["turned"],
                      players=players, rules=rules)  # fmt: skip
        movers, legal = [], []
        for action in o["actions"]:
            movers.append(r.to_move)
            legal.append(cardsim_legal(r))
            r.play(action)
        agreed += (_compare(f"{where} movers", movers, o["movers"], found)
                   and _compare(f"{where} legal sets", legal, o["legal"], found)
                   and _compare(f"{where} tricks won", r.record()["tricks_won"], o["tricks_won"], found)
                   and _compare(f"{where} scores", r.scores, o["returns"], found))  # fmt: skip
    return agreed


def crosscheck(rounds: int, seed: int = 0) -> dict:
    """At least ``rounds`` rounds in all, spread evenly over ``CONFIGS`` and both directions."""
    per_config = max(1, -(-rounds // (2 * len(CONFIGS))))  # at least ``rounds``
    found: list[str] = []
    played = agreed = 0
    rng = random.Random(seed)
    for c, (players, rules) in enumerate(CONFIGS):
        for k in range(per_config):
            agreed += cardsim_leads(players, rules, seed + c, k, rng, found)
        agreed += openspiel_leads(players, rules, seed + c, per_config, found)
        played += 2 * per_config
    return {"rounds": played, "disagreements": played - agreed, "first": found[:5]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20_000, help="rounds in all (both directions, every config)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    began = time.perf_counter()
    result = crosscheck(args.rounds, args.seed)
    result["seconds"] = round(time.perf_counter() - began, 1)
    print(json.dumps(result))
    return 1 if result["disagreements"] else 0


if __name__ == "__main__":
    sys.exit(main())
