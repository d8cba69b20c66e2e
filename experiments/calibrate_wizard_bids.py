"""Calibrate the Wizard ``heuristic``'s bids: the chance that a card wins the trick it is played in, by simulation.

    python experiments/calibrate_wizard_bids.py                 # writes bots/wizard_bid_table.npy (a few minutes)
    python experiments/calibrate_wizard_bids.py --check         # recomputes it and compares (exit 1 if it differs)

For every player count (3-6) and round size (1 .. 60 / players), ``--rounds`` single rounds are played through the
Wizard state machine by four (three, ...) copies of the heuristic. For every card dealt, by its class
(``bots.wizard.card_class``: a Wizard, a Jester, a trump of rank r, another suit's card of rank r) and its
holder's bidding position (0 bids first), the script counts how often it won the trick it was played in; the
table is wins / cards dealt (0 where no card of the class was dealt). The heuristic bids the sum of its cards'
chances (``bots.wizard.calibrated_bid``), so the bids in the simulated rounds depend on the table: pass 1 bids as
``heuristic_v1`` does, every later pass with the previous pass's table (``--passes``, default 3: the table then
moves by about its sampling error). The play is the heuristic's in every pass, aiming at the bids made. Same
arguments, same table: each (pass, players, cards) plays rounds ``0 .. rounds - 1`` of its own seed.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from numba import njit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bots.wizard import (  # noqa: E402
    BID_TABLE_FILE,
    CLASSES,
    HEURISTIC,
    HEURISTIC_V1,
    act,
    calibrated_bid,
    card_class,
)
from cardsim.decisions import BID, DONE  # noqa: E402
from cardsim.games.wizard.game import GAME  # noqa: E402
from cardsim.games.wizard.rules import MAX_PLAYERS, MIN_PLAYERS, trick_winner  # noqa: E402
from cardsim.games.wizard.state import (  # noqa: E402
    CARDS,
    DEALER,
    N_BIDS,
    PHASE,
    TRUMP_SUIT,
    apply,
    deal,
    new_state,
    params,
    refused_of,
    to_move,
)
from experiments.calibration import table_command  # noqa: E402

MAX_CARDS = 20


@njit  # not cached: a script's kernels would be cached under its module name of the moment (__main__ or a test's)
def tally(p, seed: np.uint64, rounds: int, table: np.ndarray, first_pass: bool) -> tuple:
    """(wins, dealt) [position, class] over ``rounds`` single rounds of ``p`` (one round size), every seat the
    heuristic; bids by ``heuristic_v1`` if ``first_pass``, else ``calibrated_bid`` with ``table[position]``."""
    players = p.players
    wins = np.zeros((MAX_PLAYERS, CLASSES), np.int64)
    dealt = np.zeros((MAX_PLAYERS, CLASSES), np.int64)
    s = new_state(players)
    for unit in range(rounds):
        deal(s, p, seed, unit, np.int64(0), np.int64(-1))  # typed, as the engine passes them: one compile of deal
        while s.slots[PHASE] != DONE:
            seat = to_move(s)
            if s.slots[PHASE] == BID and not first_pass:
                position = s.slots[N_BIDS]
                no = refused_of(s.slots, players, p.plus_minus_one)
                action = calibrated_bid(table[position], s.hands[seat], s.slots[TRUMP_SUIT], s.slots[CARDS], no)
            else:
                action = act(HEURISTIC_V1 if first_pass else HEURISTIC, s, p, seat)
            if not apply(s, p, action):
                raise ValueError("an illegal action in the calibration")
        trump, dealer, cards = s.slots[TRUMP_SUIT], s.slots[DEALER], s.slots[CARDS]
        for t in range(cards):
            first = t * players
            winner = first + trick_winner(s.log[first : first + players, 1], players, trump)
            for k in range(first, first + players):
                seat, card = s.log[k, 0], s.log[k, 1]
                position = (seat - dealer - 1) % players
                c = card_class(card, trump)
                dealt[position, c] += 1
                wins[position, c] += k == winner
    return wins, dealt


def calibrate(rounds: int, passes: int, seed: int, progress: bool = True) -> np.ndarray:
    """The table [players - 3, cards - 1, position, class] (float32) after ``passes`` passes."""
    table = np.zeros((MAX_PLAYERS - MIN_PLAYERS + 1, MAX_CARDS, MAX_PLAYERS, CLASSES), np.float32)
    for k in range(passes):
        table.setflags(write=False)  # read-only, as bots.wizard.BID_TABLE: calibrated_bid compiles once for both
        new = np.zeros_like(table)
        for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
            for cards in range(1, 60 // players + 1):
                p = params(GAME.make_rules({"players": players, "cards": cards}))
                key = np.uint64((seed + 1000 * k + 100 * players + cards) % 2**64)
                wins, dealt = tally(p, key, rounds, table[players - 3, cards - 1], k == 0)
                new[players - 3, cards - 1] = np.where(dealt > 0, wins / np.maximum(dealt, 1), 0.0)
            if progress:
                print(f"pass {k + 1}/{passes}: {players} players done", flush=True)
        table = new
    return table


def main(argv: list[str] | None = None) -> int:
    return table_command(argv, __doc__.split("\n\n")[0], calibrate, BID_TABLE_FILE, 100_000,
                         "rounds per player count, round size and pass")


if __name__ == "__main__":
    sys.exit(main())
