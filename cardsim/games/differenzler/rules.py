"""Differenzler rules (RULES.md section A) as tables and numba kernels.

Cards use the JASS36 layout of ``cardsim.cards`` (rank 0..8 = 6 7 8 9 T J Q K A).
Every kernel is a plain function of ints and uint64 masks, so the batch loop,
the Python driver, the bots and the tests all call the same code.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from cardsim.cards import JASS36
from cardsim.options import check_values, option

PLAYERS = 4  # A2
TRICKS = 9  # A5: 9 cards each
TOTAL_POINTS = 157  # A4
LAST_TRICK_BONUS = 5  # A4
MAX_PREDICTION = 157  # A7
ROUNDS_PER_GAME = 4  # A11: the default of A13's game_rounds
GAME_ROUNDS = tuple(range(ROUNDS_PER_GAME, 41, ROUNDS_PER_GAME))  # A13: 4, 8, ..., 40 (each seat First Hand alike)
ZERO_BONUS = ("never", "zero_trick", "always")  # A13, as the kernels' codes 0, 1, 2 (``Params.zero_bonus``)
NEVER, ZERO_TRICK, ALWAYS = range(3)

SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(9)

# A4: card values, plain and trump, indexed by rank.
PLAIN_VALUE = np.array([0, 0, 0, 0, 10, 2, 3, 4, 11], np.int64)
TRUMP_VALUE = np.array([0, 0, 0, 14, 10, 20, 3, 4, 11], np.int64)
# A3: trump order J 9 A K Q 10 8 7 6 (high to low) as a level 0..8 per rank.
TRUMP_LEVEL = np.array([0, 1, 2, 7, 3, 8, 4, 5, 6], np.int64)

SUIT_MASK = np.array([JASS36.suit_mask(s) for s in range(4)], np.uint64)
# Suit and rank of every card, and TRUMP_LEVEL_OF[trump, card] (-1 for a non-trump): table lookups are
# cheaper in the hot loop than numba's Python-semantics integer division.
SUIT_OF = np.array([JASS36.suit_of(c) for c in range(36)], np.int64)
RANK_OF = np.array([JASS36.rank_of(c) for c in range(36)], np.int64)
TRUMP_LEVEL_OF = np.array([[TRUMP_LEVEL[c % 9] if c // 9 == t else -1 for c in range(36)] for t in range(4)], np.int64)
# POINTS[trump, card]: the value of every card under each trump suit.
POINTS = np.array(
    [[(TRUMP_VALUE if c // 9 == t else PLAIN_VALUE)[c % 9] for c in range(36)] for t in range(4)], np.int64
)
# PUUR[t]: the trump jack of trump suit t (A3).
PUUR = np.array([JASS36.card(t, JACK) for t in range(4)], np.int64)
# TRUMPS_ABOVE[t, level + 1]: trumps of suit t strictly higher than trump level `level` (-1: all).
TRUMPS_ABOVE = np.array(
    [
        [sum(1 << JASS36.card(t, r) for r in range(9) if TRUMP_LEVEL[r] > level) for level in range(-1, 9)]
        for t in range(4)
    ],
    np.uint64,
)


@dataclass(frozen=True)
class DifferenzlerRules:
    """Rule options of Differenzler (A7, A10, A11, A13)."""

    predictions: str = option(
        "secret", ("secret", "open"), "A7: predictions hidden until the end, or announced in turn"
    )
    exact_bonus: int = option(0, range(0, 158), "A10: penalty points taken off an exact prediction (for 0: zero_bonus)")
    zero_bonus: str = option("never", ZERO_BONUS, "A13: whether an exact prediction of 0 earns exact_bonus: never, "
                             "zero_trick (only after winning a trick, worth 0 points) or always")  # fmt: skip
    game_rounds: int = option(ROUNDS_PER_GAME, GAME_ROUNDS, "A11, A13: rounds in a game before the tie-break "
                              "(Swiss TV and jasswelt.ch: 12)")  # fmt: skip
    max_tiebreak_rounds: int = option(10, range(0, 101), "A11: extra rounds to break a tie for the lowest total")

    def __post_init__(self) -> None:
        check_values(self, "differenzler")


@njit(cache=True, inline="always")
def trump_level(card: int, trump: int) -> int:
    """A3: strength of a card in the trump order (0..8), -1 if it is not a trump."""
    return TRUMP_LEVEL_OF[trump, card]


def _trick_key(card: int, led: int, trump: int) -> int:
    suit = SUIT_OF[card]
    if suit == trump:
        return 20 + TRUMP_LEVEL_OF[trump, card]
    if suit == led:
        return 10 + RANK_OF[card]
    return 0


# TRICK_KEY[trump, led + 1, card]: ``trick_key`` of every card under each trump and led suit (-1: none yet)
TRICK_KEY = np.array([[[_trick_key(c, led, t) for c in range(36)] for led in range(-1, 4)] for t in range(4)], np.int64)


@njit(cache=True, inline="always")
def trick_key(card: int, led: int, trump: int) -> int:
    """A9 as one number: any trump beats any led-suit card, which beats any other card. A table (``_trick_key``):
    whether a card is a trump or of the led suit is a coin toss to the branch predictor, and the branches cost
    random rounds a fifth of their time; the led suit + 1 an unsigned index (no negative-index code)."""
    return TRICK_KEY[trump, np.uint64(led + 1), card]


@njit(cache=True)
def legal_mask(hand: np.uint64, led: int, trump: int, top_trump: int) -> np.uint64:
    """A8: the cards of ``hand`` that may be played.

    ``led`` is the led suit (-1 when leading); ``top_trump`` is the trump level
    of the highest trump already in the trick (-1 if none).
    """
    if led < 0:  # a) leading: any card
        return hand
    trumps = hand & SUIT_MASK[trump]
    if led == trump:  # b) trump led: a trump other than the Puur forces a trump
        if trumps & ~(np.uint64(1) << np.uint64(PUUR[trump])):
            return trumps
        return hand
    follow = hand & SUIT_MASK[led]
    if follow:  # c) follow the led suit, or trump without undertrumping
        return follow | (trumps & TRUMPS_ABOVE[trump, top_trump + 1])
    return hand  # d) void in the led suit: any card


@njit(cache=True)
def trick_winner(cards: np.ndarray, trump: int) -> int:
    """A9: position (0 = leader) of the winning card in a full trick of 4 cards in play order."""
    led = SUIT_OF[cards[0]]
    best, best_key = 0, trick_key(cards[0], led, trump)
    for i in range(1, PLAYERS):
        key = trick_key(cards[i], led, trump)
        if key > best_key:
            best, best_key = i, key
    return best


@njit(cache=True)
def trick_points(cards: np.ndarray, trump: int, last: bool) -> int:
    """A4: card values of a trick, +5 for the last trick."""
    total = LAST_TRICK_BONUS if last else 0
    for i in range(PLAYERS):
        total += POINTS[trump, cards[i]]
    return total


@njit(cache=True, inline="always")
def penalty(prediction: int, points: int, took_trick: bool, exact_bonus: int, zero_bonus: int) -> int:
    """A10, A13: |prediction - points|; an exact prediction scores -``exact_bonus`` instead, an exact 0 only as
    ``zero_bonus`` (a code of ``ZERO_BONUS``) says: NEVER, ZERO_TRICK if the seat won a trick (``took_trick``;
    with 0 points every trick it won was worth 0) or ALWAYS. Every score of a round is this function's."""
    if prediction == points and (prediction > 0 or zero_bonus == ALWAYS or (zero_bonus == ZERO_TRICK and took_trick)):
        return -exact_bonus
    return abs(prediction - points)


@njit(cache=True)
def game_over(totals: np.ndarray, rounds_played: int, game_rounds: int, max_tiebreak_rounds: int) -> bool:
    """A11, A13: after ``game_rounds`` rounds, play on while the lowest total is tied, up to the tie-break limit."""
    if rounds_played < game_rounds:
        return False
    if rounds_played >= game_rounds + max_tiebreak_rounds:
        return True
    low, ties = totals[0], 0  # a loop: the batch loops count no references (``totals.min()`` would)
    for total in totals:
        if total < low:
            low, ties = total, 0
        ties += total == low
    return ties == 1
