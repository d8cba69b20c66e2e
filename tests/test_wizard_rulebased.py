"""``rulebased``: Schumacher & Pleines' rule-based Wizard player (IEEE CoG 2022), written from its description
(issue 15, 1): card values from two-card tricks, the bid their rounded sum, win-or-duck play by value.

Cards in RULES.md E2 notation (``H13``, ``W1``, ``J1``); suits S H D C = 0..3, -1 for no trump.
"""

from __future__ import annotations

import numpy as np
import pytest
import reference_wizard as ref
from hypothesis import given, settings
from hypothesis import strategies as st

import bots.exact_tricks as builtin
from cardsim import simulate
from cardsim.cards import WIZARD60
from cardsim.games.exact_tricks import rules
from cardsim.games.exact_tricks.rules import NO_SUIT
from cardsim.games.exact_tricks.state import params
from cardsim.games.wizard.game import GAME

SUITS = "SHDC"
VALUES = rules.card_values(int(rules.FULL_DECK))  # [players - 3, trump + 1, card] of Wizard's deck (B1)
TABLES = params(GAME.make_rules()).tables  # as the kernels read them


def mask(cards: str) -> np.uint64:
    return np.uint64(WIZARD60.mask(WIZARD60.parse_many(cards)))


def test_two_card_tricks_agree_with_the_independent_reference():
    """rules.SECOND_BEATS_FIRST[trump + 1, a, b] (built from the rules' B6/B7) against reference_wizard's B7."""
    for trump in (None, *SUITS):
        t = ref.suit_index(trump)
        for a in range(60):
            for b in range(60):
                if a != b:
                    expected = ref.trick_winner([ref.name(a), ref.name(b)], trump) == 1
                    assert rules.SECOND_BEATS_FIRST[t + 1, a, b] == expected, (trump, ref.name(a), ref.name(b))


def test_card_values_follow_the_paper():
    """Each trump and player count: the deck is worth 60 / players tricks; a Wizard is worth most (it beats every
    card led after it and every non-Wizard led before it) and a Jester least; a trump is worth more than the same
    rank of a plain suit; higher ranks are worth more."""
    values = VALUES
    for players in range(3, 7):
        for t in range(5):
            v = values[players - 3, t]
            assert v.sum() == pytest.approx(60 / players)
            wizard, jester = v[WIZARD60.parse("W1")], v[WIZARD60.parse("J1")]
            assert wizard == v.max() and jester == v.min() > 0
            for s in SUITS:
                ranks = [v[WIZARD60.parse(f"{s}{r}")] for r in range(1, 14)]
                assert ranks == sorted(ranks) and ranks[0] < ranks[-1]
                if t - 1 >= 0 and s != SUITS[t - 1]:
                    assert v[WIZARD60.parse(f"{SUITS[t - 1]}9")] > v[WIZARD60.parse(f"{s}9")]
    # more players: a Wizard's share of the tricks falls less than a low card's
    assert values[3, 0, WIZARD60.parse("W1")] / values[0, 0, WIZARD60.parse("W1")] > \
        values[3, 0, WIZARD60.parse("S2")] / values[0, 0, WIZARD60.parse("S2")]  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(st.integers(3, 6), st.integers(1, 10), st.integers(-1, 3), st.randoms(use_true_random=False),
       st.integers(-1, 10))  # fmt: skip
def test_the_bid_is_the_rounded_value_of_the_hand_and_never_the_refused_one(players, cards, trump, rnd, refused):
    hand = rnd.sample(range(60), cards)
    value = float(VALUES[players - 3, trump + 1, hand].sum())
    refused = min(refused, cards)
    bid = builtin.rulebased_bid(TABLES, np.uint64(WIZARD60.mask(hand)), trump, players, cards, refused)
    expected = min(cards, int(np.round(value)))
    if expected != refused:
        assert bid == expected
    else:  # the allowed neighbour nearer the value
        assert bid != refused and abs(bid - expected) == 1 and 0 <= bid <= cards
        assert abs(value - bid) <= abs(value - (2 * expected - bid)) or not 0 <= 2 * expected - bid <= cards


def test_bids_of_hands_written_out():
    """4 players, hearts trump: four Wizards are worth nearly four tricks; four low plain cards nearly none."""
    assert builtin.rulebased_bid(TABLES, mask("W1 W2 W3 W4"), 1, 4, 4, -1) == 4
    assert builtin.rulebased_bid(TABLES, mask("S2 S3 D2 C2"), 1, 4, 4, -1) == 0
    assert builtin.rulebased_bid(TABLES, mask("S2 S3 D2 C2"), 1, 4, 4, 0) == 1  # 0 refused (plus_minus_one): 1
    assert builtin.rulebased_trump(TABLES, mask("S12 S13 S11 H2 D3"), 4) == 0  # spades make the hand worth most


def play(hand: str, need: int, trump: int = 1, trick: str = "") -> str:
    """rulebased's card from ``hand`` after ``trick`` (cards in play order) with ``need`` tricks still wanted."""
    led, decided, top_key, winner = NO_SUIT, False, -1, 0
    for i, card in enumerate(WIZARD60.parse_many(trick)):
        led, decided, top_key, winner = rules.trick_step(trump, led, decided, top_key, winner, i, card)
    legal = rules.legal_mask(mask(hand), led)
    return WIZARD60.name_of(builtin.rulebased_play(TABLES, legal, led, top_key, len(trick.split()), 4, trump, need))


def test_win_or_duck_play():
    # short of the bid: lead the highest-valued card; follow with it if it wins, else with the lowest
    assert play("W1 H13 S2 J1", need=1) == "W1"
    assert play("S13 S2 D5", need=1, trick="S10") == "S13"
    assert play("S9 S2 D5", need=1, trick="S10") == "S2"
    assert play("D13 D2 C4", need=1, trick="S10") == "D2"  # no spades: D13 cannot win, the lowest value goes
    # the bid made: lead the lowest-valued card; follow with the highest card that still loses, else the lowest
    assert play("W1 H13 S2 J1", need=0) == "J1"
    assert play("S9 S2 S13", need=0, trick="S10") == "S9"
    assert play("S13 S12", need=0, trick="S10") == "S12"  # both win: the lowest value
    assert play("D13 D2 H2", need=0, trick="S10 H5") == "H2"  # H2 loses to H5 and is worth more than D13 here


def test_rulebased_plays_whole_rounds_and_games_reproducibly():
    one = simulate("wizard", "rulebased,heuristic,random,rulebased", rounds=300, seed=3, keep_rows=True,
                   progress=False)  # fmt: skip
    two = simulate("wizard", "rulebased,heuristic,random,rulebased", rounds=300, seed=3, keep_rows=True, threads=1,
                   progress=False)  # fmt: skip
    assert one.rows.equals(two.rows)
    games = simulate("wizard", "rulebased", games=5, seed=1, rules={"players": 3}, progress=False)
    assert games.summary["games"].iloc[0] == 5
