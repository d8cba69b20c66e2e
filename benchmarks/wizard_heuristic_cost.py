"""What a Wizard ``heuristic`` decision costs against a ``heuristic_v1`` one (issue 15's goal: at most 2x).

    python benchmarks/wizard_heuristic_cost.py          # 100 deals of every round size 1..15, 4 players
    python benchmarks/wizard_heuristic_cost.py --deals 300 --repeat 25 --max-ratio 2

The decisions are recorded once from ``heuristic`` self-play through the state machine (every round size of a
standard 4-player game, ``--deals`` each: a standard game's mix of card decisions), then each bot's decision
function is timed on the very same inputs in a compiled loop (``bots.exact_tricks.card_of_heuristic``,
``bid_of_heuristic``), alternating, best of ``--repeat``. This is the bot's own cost, without the engine's: the
batch kernels keep the cards seen up to date as cards fall, so the heuristic's decision is ``heuristic_play``
alone. Prints one JSON line: nanoseconds per card decision, per bid and per decision of either kind, and the
ratios heuristic / heuristic_v1; ``--max-ratio`` checks the all-decisions ratio (exit status 1 above it).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bots.exact_tricks as builtin  # noqa: E402
from cardsim.games import get_game  # noqa: E402
from cardsim.games.exact_tricks import state as st  # noqa: E402
from cardsim.games.exact_tricks.rules import legal_mask  # noqa: E402

PLAYERS = 4
DEFAULT = get_game("wizard").make_rules()
TABLES, DECK = st.params(DEFAULT).tables, np.uint64(DEFAULT.deck)  # constants of the loops


def recorded(deals: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The inputs of every decision of ``heuristic`` self-play: card rows (hand, legal, seen, led, top_key,
    n_played, players, trump, need) and bid rows (hand, trump, players, cards, position, refused), int64."""
    front = get_game("wizard")
    cards, bids = [], []
    for size in range(1, 60 // PLAYERS + 1):
        rules = front.make_rules({"cards": size, "players": PLAYERS})
        lineup = front.lineup(["heuristic"] * PLAYERS, rules)
        asked = lineup.table.copy()
        asked[:, 0] = -1  # every seat stops the compiled bots: each decision is recorded here
        for unit in range(deals):
            s = front.deal(rules, seed, unit, 0, -1, False)
            while (seat := front.run_bots(rules, s, asked)) >= 0:
                slots, hand = s.slots, s.hands[seat]
                if slots[st.PHASE] == st.CARD:
                    seen = builtin.seen_cards(slots[st.TURNED], s.log, slots[st.N_PLAYED])
                    cards.append((int(hand), int(legal_mask(hand, slots[st.LED])), int(seen), slots[st.LED],
                                  slots[st.TOP_KEY], slots[st.POS], PLAYERS, slots[st.TRUMP_SUIT],
                                  s.bids[seat] - s.won[seat]))  # fmt: skip
                elif slots[st.PHASE] == st.BID:
                    refused = st.refused_of(slots, PLAYERS, rules.plus_minus_one)
                    bids.append((int(hand), slots[st.TRUMP_SUIT], PLAYERS, slots[st.CARDS], slots[st.N_BIDS], refused))
                front.apply(rules, s, front.bot_action(rules, s, lineup.table[seat]))
    return np.array(cards, np.int64), np.array(bids, np.int64)


@njit
def card_loop(rows: np.ndarray, v1: bool) -> int:
    """Every recorded card decision once; the sum of the cards (so that none is optimised away)."""
    total = 0
    for r in rows:
        total += builtin.card_of_heuristic(v1, DECK, np.uint64(r[0]), np.uint64(r[1]), np.uint64(r[2]), r[3], r[4],
                                           r[5], r[6], r[7], r[8])  # fmt: skip
    return total


@njit
def bid_loop(rows: np.ndarray, v1: bool) -> int:
    """Every recorded bid once; the sum of the bids."""
    total = 0
    for r in rows:
        total += builtin.bid_of_heuristic(v1, TABLES, np.uint64(r[0]), r[1], r[2], r[3], r[4], r[5])
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=100, help="deals of each round size 1..15")
    parser.add_argument("--repeat", type=int, default=15, help="timed passes of each kind, alternating; best counts")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--max-ratio", type=float, default=None, help="fail (exit 1) above this all-decisions ratio")
    args = parser.parse_args(argv)
    cards, bids = recorded(args.deals, args.seed)
    loops = {"card": (card_loop, cards), "bid": (bid_loop, bids)}
    best: dict[tuple[str, bool], float] = {}
    for attempt in range(args.repeat + 1):  # pass 0 compiles the loops, untimed
        for v1 in (True, False):
            for kind, (loop, rows) in loops.items():
                began = time.perf_counter()
                loop(rows, v1)
                if attempt:
                    best[kind, v1] = min(best.get((kind, v1), np.inf), time.perf_counter() - began)
    ns = {f"{'heuristic_v1' if v1 else 'heuristic'}_{kind}_ns": round(seconds / len(loops[kind][1]) * 1e9, 1)
          for (kind, v1), seconds in best.items()}  # fmt: skip
    every = {v1: (best["card", v1] + best["bid", v1]) / (len(cards) + len(bids)) * 1e9 for v1 in (True, False)}
    result = {"card_decisions": len(cards), "bids": len(bids), **ns,
              "heuristic_v1_any_ns": round(every[True], 1), "heuristic_any_ns": round(every[False], 1),
              "ratio_card": round(best["card", False] / best["card", True], 2),
              "ratio_bid": round(best["bid", False] / best["bid", True], 2),
              "ratio_all_decisions": round(every[False] / every[True], 2)}  # fmt: skip
    failed = args.max_ratio is not None and result["ratio_all_decisions"] > args.max_ratio
    result["ok"] = not failed
    print(json.dumps(result))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
