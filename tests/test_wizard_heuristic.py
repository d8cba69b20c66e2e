"""Wizard's ``heuristic`` (issue 15, 1): bids from win chances calibrated by simulation, plays by counting cards
and aiming at the bid; ``heuristic_v1`` is the heuristic before them (tests/test_digests.py: its runs keep the old
heuristic's digests).

The table is ``bots/wizard_bid_table.npy``, written by experiments/calibrate_wizard_bids.py (``--check``
recomputes it and compares).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
from conftest import load_script
from hypothesis import given, settings
from hypothesis import strategies as st

import bots.exact_tricks as builtin
from cardsim.cards import WIZARD60
from cardsim.games.exact_tricks.rules import FULL_DECK
from cardsim.games.exact_tricks.state import calibrated_table, params
from cardsim.games.wizard.game import GAME

BID_TABLE = calibrated_table(GAME.make_rules().bid_table)  # Wizard's, bots/wizard_bid_table.npy
TABLES = params(GAME.make_rules()).tables  # as the kernels read it
ACCURACY = Path(__file__).resolve().parent.parent / "experiments" / "wizard_bid_accuracy.py"


def test_the_calibration_counts_every_card_and_one_winner_per_trick_reproducibly():
    calibration = load_script("experiments/calibrate_wizard_bids.py")
    for players, cards in ((3, 7), (5, 1), (6, 10)):
        p = params(GAME.make_rules({"players": players, "cards": cards}))
        for first_pass in (True, False):
            wins, dealt = calibration.tally(p, np.uint64(11), 300, first_pass)
            assert dealt.sum() == 300 * players * cards and wins.sum() == 300 * cards  # one winning card a trick
            assert dealt.shape == (players, builtin.CLASSES) and (wins <= dealt).all()
            again = calibration.tally(p, np.uint64(11), 300, first_pass)
            assert np.array_equal(wins, again[0]) and np.array_equal(dealt, again[1])
    small = calibration.calibrate(rounds=30, passes=2, seed=4, progress=False)
    assert np.array_equal(small, calibration.calibrate(rounds=30, passes=2, seed=4, progress=False))


def test_the_stored_table_holds_win_chances_where_cards_are_dealt():
    table = BID_TABLE
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
    chances = BID_TABLE[players - 3, cards - 1, position]
    value = sum(float(chances[builtin.card_class(c, trump)]) for c in hand)
    bid = builtin.heuristic_bid(TABLES, np.uint64(WIZARD60.mask(hand)), trump, players, cards, position, refused)
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


def cards(text: str) -> np.uint64:
    return np.uint64(WIZARD60.mask(WIZARD60.parse_many(text)))


def seen_but(*held: str) -> np.uint64:
    """Every card seen but those in the ``held`` hands (the unseen cards are exactly the other hands)."""
    return np.uint64(int(FULL_DECK) & ~int(sum(int(cards(h)) for h in held)))


def key(card: str, led: int, trump: int) -> int:
    return int(builtin.card_key(WIZARD60.parse(card), led, trump))


def test_counting_cards_leads_a_king_once_the_ace_and_the_wizards_are_gone():
    """Leading, one trick short of the bid with two cards left (4 players, diamonds trump, every trump gone):
    the spade king is played as a winner only when the spade ace and every Wizard have been seen."""
    hand = "S12 C3"
    for others, expected, v1 in (("S13 W1 C12 C11 H5 H6", "C3", "S12"), ("C13 C12 C11 H5 H6 H7", "S12", "S12")):
        seen = seen_but(hand, others)
        card = builtin.heuristic_play(cards(hand), cards(hand), seen, -1, -1, 3, 2, 1)
        assert WIZARD60.names(1 << card) == expected, others
        assert WIZARD60.names(1 << builtin.heuristic_v1_play(cards(hand), -1, -1, 0, 4, 2, 1)) == v1  # no counting


def test_short_of_the_bid_it_takes_with_the_weakest_likely_winner_not_its_wizard():
    """Second to a spade five, no trump, one trick needed of three: the spade ace is a sure winner (no higher spade
    or Wizard unseen), so it keeps its Wizard; heuristic_v1 plays the strongest winner."""
    hand, others = "S7 S13 W1", "S8 S9 H2 H3 H4 H5 C2 C3 C4"
    seen = seen_but(hand, others, "S5") | cards("S5")
    top = key("S5", 0, -1)
    card = builtin.heuristic_play(cards(hand), cards(hand), seen, 0, top, 2, -1, 1)
    assert WIZARD60.names(1 << card) == "S13"
    assert WIZARD60.names(1 << builtin.heuristic_v1_play(cards(hand), 0, top, 1, 4, -1, 1)) == "W1"


def test_with_the_bid_made_a_forced_trick_is_taken_with_the_strongest_card():
    """Last to a heart three, bid made: both hearts win, so the higher one goes (it could win a later trick)."""
    hand = "H10 H12"
    seen = seen_but(hand, "S2 S3 S4 S5 S6 S7") | cards("H3")
    top = key("H3", 1, 0)
    card = builtin.heuristic_play(cards(hand), cards(hand), seen, 1, top, 0, 0, 0)
    assert WIZARD60.names(1 << card) == "H12"
    assert WIZARD60.names(1 << builtin.heuristic_v1_play(cards(hand), 1, top, 3, 4, 0, 0)) == "H10"


def _power_by_set_bits(x: float, n: int) -> float:
    """The reference: exponentiation by squaring that multiplies only at the set bits of ``n``."""
    result = 1.0
    while n:
        if n & 1:
            result *= x
        x *= x
        n >>= 1
    return result


@settings(max_examples=300, deadline=None)
@given(st.floats(0.0, 1.0), st.integers(0, 4), st.data())
def test_the_branch_free_power_gives_the_same_bits_as_squaring_at_the_set_bits(x, extra, data):
    """``_power`` (the take chance's keep ** n, with ``bits`` rounds whatever ``n``) equals squaring at the set bits
    exactly, for every ``n < 2 ** bits``: the heuristic's decisions, and so every digest, do not depend on it."""
    bits = data.draw(st.integers(1, 6)) + extra
    n = data.draw(st.integers(0, 2**bits - 1))
    assert builtin._power(x, n, bits) == _power_by_set_bits(x, n)
    assert builtin._power(x, 0, bits) == 1.0


def test_bid_accuracy_script_writes_its_table_and_plot_and_refuses_bad_input(tmp_path):
    import subprocess

    done = subprocess.run([sys.executable, str(ACCURACY), "--smoke", "--out", str(tmp_path / "a")],
                          capture_output=True, text=True)  # fmt: skip
    assert done.returncode == 0, done.stderr
    table = (tmp_path / "a" / "bid_accuracy.md").read_text()
    assert "| `heuristic` |" in table and "| `rulebased` |" in table
    assert (tmp_path / "a" / "bid_accuracy.png").stat().st_size > 5000
    bad = subprocess.run([sys.executable, str(ACCURACY), "--smoke", "--bots", "nosuchbot", "--out",
                          str(tmp_path / "b")], capture_output=True, text=True)  # fmt: skip
    assert bad.returncode == 2 and "unknown bot 'nosuchbot'" in bad.stderr and bad.stderr.count("\n") == 1
    assert not (tmp_path / "b").exists()


def test_cost_benchmark_times_every_decision_of_a_standard_game(capsys):
    """``benchmarks/wizard_heuristic_cost.py`` records every decision of the round sizes 1..15 (4 players: 4 x 120
    cards and 4 x 15 bids per deal) and reports both bots' cost and the ratios its goal reads (no time is checked)."""
    bench = load_script("benchmarks/wizard_heuristic_cost.py")
    cards, bids = bench.recorded(2, seed=3)
    assert (len(cards), len(bids)) == (2 * 4 * 120, 2 * 4 * 15)
    hands, legal = cards[:, 0].astype(np.uint64), cards[:, 1].astype(np.uint64)
    assert np.all(legal & ~hands == 0) and np.all(legal != 0)  # the legal cards are in the hand
    assert bench.main(["--deals", "1", "--repeat", "1"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["card_decisions"] == 480 and result["ratio_all_decisions"] > 0
