"""Calibrate the Differenzler ``heuristic``'s predictions: the points a card takes, by simulation.

    python experiments/calibrate_differenzler_predictions.py           # writes bots/differenzler_prediction_table.npy
    python experiments/calibrate_differenzler_predictions.py --check   # recomputes it and compares (exit 1 if not)

``--rounds`` single rounds are played through the Differenzler state machine by four copies of the heuristic. For
every card dealt, by its holder's position (0 = First Hand), its class (``bots.differenzler.card_class``: a
trump by trump level, another card by rank), how many cards of its suit the hand holds and how many of those rank
above it (``suit_place``), the script sums the points of the trick the card took (the last trick's 5 included; 0
when it took none). The table is points / cards dealt; a cell with fewer than ``MIN_CARDS`` cards takes the value
of its class and length, or of its class alone. The heuristic predicts the sum over its cards
(``calibrated_prediction``), so the predictions in the simulated rounds depend on the table: pass 1 predicts as
``heuristic_v1``, every later pass with the previous pass's table (``--passes``, default 3). Same arguments, same
table: pass k plays rounds ``0 .. rounds - 1`` of seed ``seed + k``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from numba import njit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bots.differenzler import (  # noqa: E402
    CLASSES,
    HEURISTIC_V1,
    PREDICTION_TABLE_FILE,
    act,
    calibrated_prediction,
    card_class,
    suit_place,
)
from cardsim.decisions import DONE, PREDICT  # noqa: E402
from cardsim.games.differenzler.game import GAME  # noqa: E402
from cardsim.games.differenzler.rules import LAST_TRICK_BONUS, PLAYERS, POINTS, TRICKS  # noqa: E402
from cardsim.games.differenzler.state import (  # noqa: E402
    FIRST_HAND,
    PREDICTED,
    TRUMP,
    apply,
    deal,
    decision,
    new_state,
    params,
    to_move,
)
from experiments.calibration import table_command  # noqa: E402

MIN_CARDS = 200  # a cell needs this many cards dealt to stand on its own
SHAPE = (PLAYERS, CLASSES, TRICKS, TRICKS)  # position, class, length - 1, higher


@njit  # not cached: a script's kernels would be cached under its module name of the moment (__main__ or a test's)
def tally(p, seed: np.uint64, rounds: int, table: np.ndarray, first_pass: bool) -> tuple:
    """(points, dealt) over ``rounds`` single rounds, every seat the heuristic; predictions by ``heuristic_v1`` if
    ``first_pass``, else ``calibrated_prediction`` with ``table[position]``."""
    points = np.zeros(SHAPE)
    dealt = np.zeros(SHAPE)
    s = new_state()
    for unit in range(rounds):
        deal(s, p, seed, unit, np.int64(0), np.int64(-1))  # typed, as the engine passes them: one compile of deal
        while decision(s) != DONE:
            seat = to_move(s)
            if decision(s) == PREDICT and not first_pass:
                action = calibrated_prediction(table[s.slots[PREDICTED]], s.hands[seat], s.slots[TRUMP])
            else:
                action = act(HEURISTIC_V1, s, p, seat)  # its cards are the heuristic's
            if not apply(s, p, action):
                raise ValueError("an illegal action in the calibration")
        trump, first_hand = s.slots[TRUMP], s.slots[FIRST_HAND]
        for t in range(TRICKS):
            leader, winner = s.history[t, 0], s.history[t, 1]
            taken = LAST_TRICK_BONUS if t == TRICKS - 1 else 0
            for i in range(PLAYERS):
                taken += POINTS[trump, s.history[t, 2 + i]]
            for i in range(PLAYERS):
                seat, card = (leader + i) % PLAYERS, s.history[t, 2 + i]
                length, higher = suit_place(s.dealt[seat], card, trump)
                cell = ((seat - first_hand) % PLAYERS, card_class(card, trump), length - 1, higher)
                dealt[cell] += 1
                if seat == winner:
                    points[cell] += taken
    return points, dealt


def table_of(points: np.ndarray, dealt: np.ndarray) -> np.ndarray:
    """points / dealt per cell; a cell with fewer than MIN_CARDS cards takes its (class, length) value, and such a
    one with too few its class's value."""
    by_length = points.sum(axis=3, keepdims=True), dealt.sum(axis=3, keepdims=True)
    by_class = by_length[0].sum(axis=2, keepdims=True), by_length[1].sum(axis=2, keepdims=True)
    fallback = np.where(by_length[1] >= MIN_CARDS, by_length[0] / np.maximum(by_length[1], 1),
                        by_class[0] / np.maximum(by_class[1], 1))  # fmt: skip
    return np.where(dealt >= MIN_CARDS, points / np.maximum(dealt, 1), fallback).astype(np.float32)


def calibrate(rounds: int, passes: int, seed: int, progress: bool = True) -> np.ndarray:
    """The table [position, class, length - 1, higher] (float32) after ``passes`` passes."""
    p = params(GAME.make_rules())
    table = np.zeros(SHAPE, np.float32)
    for k in range(passes):
        table.setflags(write=False)  # read-only, as bots.differenzler.PREDICTION_TABLE: one compile for both
        table = table_of(*tally(p, np.uint64(seed + k), rounds, table, k == 0))
        if progress:
            print(f"pass {k + 1}/{passes} done", flush=True)
    return table


def main(argv: list[str] | None = None) -> int:
    return table_command(argv, __doc__.split("\n\n")[0], calibrate, PREDICTION_TABLE_FILE, 400_000, "rounds per pass")


if __name__ == "__main__":
    sys.exit(main())
