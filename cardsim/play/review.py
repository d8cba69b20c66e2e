"""Hints and the review: what the lab estimates every option of a person's decision is worth, from that seat's
information at that moment (``cardsim.advise.option_values``, the strong bots' own valuation: no second evaluator).

A hint values the decision at hand; the review values each decision a person made, from the round as it stood
before it (``Table.decisions``), and names the choice, the best choice and the expected cost of the difference,
never from hindsight. Both run wherever they are called: the server calls them in a worker process (a valuation
runs compiled kernels, a tenth of a second or more), the plain mode in its own.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from cardsim.play.table import Decision
from cardsim.play.view import label
from cardsim.round import Round

HINT_SAMPLES = 2000
# How a summary names each kind of decision ("bids cost you 34.0 points, cards 12.0").
KINDS = {"predict": "predictions", "bid": "bids", "auction": "bids", "trump": "trump choices", "call": "partner calls",
         "discard": "discards", "card": "cards"}  # fmt: skip


def values(round: Round, seat: int, samples: int = HINT_SAMPLES, seed: int = 0) -> list[dict[str, Any]]:
    """Every legal option of ``seat``'s decision (the seat to move) with its expected score of the round, in
    ``round.legal()`` order: ``action``, ``label`` (as the table shows it), ``mean``, ``std``, ``ci95``,
    ``samples``, and ``best`` on the one the strong bot would take from these numbers."""
    from cardsim.advise import option_values  # imported when first asked: it brings every game's advice

    frame = option_values(round, seat, samples=samples, seed=seed)
    deck, decision = round.game.deck, round.decision
    columns = zip(frame["action"], frame["mean"], frame["std"], frame["ci95"], frame["samples"], frame["best"],
                  strict=True)  # fmt: skip
    return [{"action": action, "label": label(deck, decision, action), "mean": float(mean), "std": float(std),
             "ci95": float(ci95), "samples": int(n), "best": bool(top)}
            for action, mean, std, ci95, n, top in columns]  # fmt: skip


def warm(round: Round) -> None:
    """Load the valuation's kernels (in a worker, before its first hint): each kind of decision of ``round`` (a
    copy), played on by its seats' random choices."""
    rng, asked = random.Random(0), set()
    while not round.done:
        if round.decision not in asked:
            asked.add(round.decision)
            values(round, round.to_move, samples=1)
        round.play(rng.choice(round.legal()))


def hint(round: Round, seat: int, samples: int = HINT_SAMPLES) -> dict[str, Any]:
    """The hint message of the decision at hand: its options' values and the best one."""
    options = values(round, seat, samples)
    return {"type": "hint", "decision": round.decision, "options": options,
            "best": next(o for o in options if o["best"])["label"]}  # fmt: skip


def verdict(decision: Decision, samples: int = HINT_SAMPLES) -> dict[str, Any]:
    """One reviewed decision: the choice, the best choice and the expected cost of the difference (>= 0, in the
    game's score), with every option's value; a decision without a choice costs nothing and is not valued."""
    before, lower = decision.before, decision.before.game.lower_is_better
    chosen = label(before.game.deck, decision.decision, decision.action)
    where = {"game_no": decision.game_no, "round_no": decision.round_no, "seat": decision.seat,
             "decision": decision.decision, "action": decision.action, "choice": chosen}  # fmt: skip
    if len(before.legal()) < 2:
        return {**where, "best_action": decision.action, "best": chosen, "cost": 0.0, "options": []}
    options = values(before, decision.seat, samples)
    top = next(o for o in options if o["best"])
    mine = next(o for o in options if o["action"] == decision.action)
    cost = max(0.0, (mine["mean"] - top["mean"]) * (1 if lower else -1))  # 0.0, not -0.0, for the best
    return {**where, "best_action": top["action"], "best": top["label"], "cost": cost, "options": options}


def summary(verdicts: Iterable[dict[str, Any]], unit: str) -> str:
    """``bids cost you 34.0 points, cards 12.0``: the expected cost of the reviewed decisions by kind."""
    costs: dict[str, float] = {}
    for v in verdicts:
        kind = KINDS[v["decision"]]
        costs[kind] = costs.get(kind, 0.0) + v["cost"]
    if not costs:
        return "no decisions to review"
    (first, cost), *rest = costs.items()
    return ", ".join([f"{first} cost you {cost:.1f} {unit}", *(f"{kind} {c:.1f}" for kind, c in rest)])
