"""Wizard's ``heuristic`` bids from win chances calibrated by simulation (issue 15, 1); ``heuristic_v1`` is the
heuristic before them (tests/test_digests.py: its runs keep the old heuristic's digests).

The table is ``bots/wizard_bid_table.npy``, written by experiments/calibrate_wizard_bids.py (``--check``
recomputes it and compares).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import bots.wizard as builtin
from cardsim.cards import WIZARD60
from cardsim.games.wizard.game import GAME
from cardsim.games.wizard.state import params

SCRIPT = Path(__file__).resolve().parent.parent / "experiments" / "calibrate_wizard_bids.py"


def load_script():
    if "calibrate_wizard_bids" in sys.modules:
        return sys.modules["calibrate_wizard_bids"]
    spec = importlib.util.spec_from_file_location("calibrate_wizard_bids", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_the_calibration_counts_every_card_and_one_winner_per_trick_reproducibly():
    calibration = load_script()
    for players, cards in ((3, 7), (5, 1), (6, 10)):
        p = params(GAME.make_rules({"players": players, "cards": cards}))
        table = builtin.BID_TABLE[players - 3, cards - 1]
        for first_pass in (True, False):
            wins, dealt = calibration.tally(p, np.uint64(11), 300, table, first_pass)
            assert dealt.sum() == 300 * players * cards and wins.sum() == 300 * cards  # one winning card a trick
            assert (dealt[players:] == 0).all() and (wins <= dealt).all()
            again = calibration.tally(p, np.uint64(11), 300, table, first_pass)
            assert np.array_equal(wins, again[0]) and np.array_equal(dealt, again[1])
    small = calibration.calibrate(rounds=30, passes=2, seed=4, progress=False)
    assert np.array_equal(small, calibration.calibrate(rounds=30, passes=2, seed=4, progress=False))


def test_the_stored_table_holds_win_chances_where_cards_are_dealt():
    table = builtin.BID_TABLE
    assert table.shape == (4, 20, 6, builtin.CLASSES) and ((table >= 0) & (table <= 1)).all()
    for players in range(3, 7):
        assert (table[players - 3, 60 // players :] == 0).all() and (table[players - 3, :, players:] == 0).all()
        # one card each: the first bidder leads, so its Wizard always wins; a Jester wins only in an all-Jester trick
        assert table[players - 3, 0, 0, builtin.card_class(WIZARD60.parse("W1"), 0)] == 1.0
        assert table[players - 3, 0, :players, builtin.card_class(WIZARD60.parse("J1"), 0)].max() < 0.01
        # a whole deck dealt (no trump): an ace (13) of a suit wins more often than its 2
        last = table[players - 3, 60 // players - 1, 0]
        assert last[builtin.card_class(WIZARD60.parse("S13"), -1)] > last[builtin.card_class(WIZARD60.parse("S2"), -1)]


@settings(max_examples=200, deadline=None)
@given(st.integers(3, 6), st.data())
def test_the_bid_is_the_nearest_allowed_bid_to_the_summed_win_chances(players, data):
    cards = data.draw(st.integers(1, 60 // players))
    position = data.draw(st.integers(0, players - 1))
    trump = data.draw(st.integers(-1, 3))
    hand = data.draw(st.lists(st.integers(0, 59), min_size=cards, max_size=cards, unique=True))
    refused = data.draw(st.integers(-1, cards))
    chances = builtin.BID_TABLE[players - 3, cards - 1, position]
    value = sum(float(chances[builtin.card_class(c, trump)]) for c in hand)
    bid = builtin.heuristic_bid(np.uint64(WIZARD60.mask(hand)), trump, players, cards, position, refused)
    nearest = min(cards, int(np.round(value)))
    assert 0 <= bid <= cards and bid != refused
    assert bid == nearest if nearest != refused else abs(bid - nearest) == 1


def test_the_calibrated_heuristic_beats_heuristic_v1(tmp_path):
    """A sanity check of strength, not a measurement (docs/bots.md has the figures): one calibrated heuristic
    against three heuristic_v1 over whole 4-player games, every seat rotation."""
    from cardsim.runner import experiment, run

    exp = experiment("wizard", "heuristic,heuristic_v1,heuristic_v1,heuristic_v1", games=300, seed=3)
    pairs = run(exp, tmp_path / "t", progress=False).standings.pairs
    assert pairs["diff_game_score"].iloc[0] > 0
