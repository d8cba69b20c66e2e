"""Differenzler's ``heuristic`` predicts from points per card calibrated by simulation (issue 15, 1);
``heuristic_v1`` is the heuristic before (tests/test_digests.py: its runs keep the old heuristic's digests).

The table is ``bots/differenzler_prediction_table.npy``, written by experiments/calibrate_differenzler_predictions.py
(``--check`` recomputes it and compares).
"""

from __future__ import annotations

import numpy as np
from conftest import load_script
from hypothesis import given, settings
from hypothesis import strategies as st

import bots.differenzler as builtin
from cardsim.cards import JASS36
from cardsim.games.differenzler.game import GAME
from cardsim.games.differenzler.rules import TOTAL_POINTS
from cardsim.games.differenzler.state import params


def test_the_calibration_counts_every_card_and_every_point_reproducibly():
    calibration = load_script("experiments/calibrate_differenzler_predictions.py")
    p = params(GAME.make_rules())
    for first_pass in (True, False):
        points, dealt = calibration.tally(p, np.uint64(5), 200, builtin.PREDICTION_TABLE, first_pass)
        assert dealt.sum() == 200 * 36 and points.sum() == 200 * TOTAL_POINTS  # every card once, 157 points a round
        assert (dealt.sum(axis=(1, 2, 3)) == 200 * 9).all()  # nine cards at every position
        again = calibration.tally(p, np.uint64(5), 200, builtin.PREDICTION_TABLE, first_pass)
        assert np.array_equal(points, again[0]) and np.array_equal(dealt, again[1])
    small = calibration.calibrate(rounds=40, passes=2, seed=4, progress=False)
    assert np.array_equal(small, calibration.calibrate(rounds=40, passes=2, seed=4, progress=False))


def test_the_stored_table_holds_points_per_card():
    table = builtin.PREDICTION_TABLE
    assert table.shape == (4, builtin.CLASSES, 9, 9) and table.dtype == np.float32
    assert ((table >= 0) & (table <= TOTAL_POINTS)).all()
    puur, nell = builtin.card_class(JASS36.card(0, 5), 0), builtin.card_class(JASS36.card(0, 3), 0)
    ace, king = builtin.card_class(JASS36.card(1, 8), 0), builtin.card_class(JASS36.card(1, 7), 0)
    for position in range(4):
        assert table[position, puur, 0, 0] > table[position, nell, 1, 1] > 0  # the Puur never loses; Nell with it
        assert table[position, ace, 2, 0] > table[position, king, 1, 1] > 2 * table[position, king, 1, 0]  # K: A held


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_the_prediction_is_the_rounded_sum_of_the_cards_points(data):
    position, trump = data.draw(st.integers(0, 3)), data.draw(st.integers(0, 3))
    hand = data.draw(st.lists(st.integers(0, 35), min_size=9, max_size=9, unique=True))
    mask = np.uint64(JASS36.mask(hand))
    table = builtin.PREDICTION_TABLE[position]
    value = 0.0
    for card in hand:  # written out again, from the hand's cards
        suit = [c for c in hand if c // 9 == card // 9]
        higher = sum(builtin.card_class(c, trump) > builtin.card_class(card, trump) for c in suit)
        value += float(table[builtin.card_class(card, trump), len(suit) - 1, higher])
    assert builtin.heuristic_prediction(mask, trump, position) == min(157, int(value + 0.5))


def test_the_calibrated_heuristic_predicts_better_than_heuristic_v1(tmp_path):
    """A sanity check of strength, not a measurement (docs/bots.md has the figures): one calibrated heuristic
    against three heuristic_v1, every seat rotation."""
    from cardsim.runner import experiment, run

    exp = experiment("differenzler", "heuristic,heuristic_v1,heuristic_v1,heuristic_v1", rounds=2000, seed=3)
    pairs = run(exp, tmp_path / "t", progress=False).standings.pairs
    assert pairs["diff_penalty"].iloc[0] < 0
