"""Built-in compiled Differenzler bots: ``random`` and ``heuristic``.

A bot decides from what its seat may see: its own hand, the trump card the
dealer showed, the cards on the table, its own prediction and points, and
(with open predictions, A7) the predictions announced so far. The engine
calls ``predict`` and ``play`` with the bot's id, so one compiled kernel
serves every lineup and seating without recompiling.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cardsim.cards import lowest_card, nth_card, popcount
from cardsim.games.differenzler.rules import (
    ACE,
    JACK,
    KING,
    MAX_PREDICTION,
    NINE,
    POINTS,
    QUEEN,
    RANK_OF,
    SUIT_MASK,
    SUIT_OF,
    TRUMP_LEVEL,
    TRUMP_LEVEL_OF,
    trick_key,
)
from cardsim.rng import below

RANDOM, HEURISTIC = 0, 1
BOT_IDS = {"random": RANDOM, "heuristic": HEURISTIC}
BOT_DOCS = {
    "random": "uniform prediction 0..157, uniform legal card",
    "heuristic": "predicts from card win chances; takes points while below its prediction, ducks once it is reached",
}

# Average value of the three other cards in a trick (152 points / 36 cards).
_OTHER_CARDS_VALUE = 3 * 152 / 36
# Win chance of a trump by its trump level (6 7 8 10 Q K A 9 J).
_TRUMP_WIN_CHANCE = np.array([0.3, 0.3, 0.3, 0.45, 0.5, 0.6, 0.75, 0.9, 1.0])


@njit(cache=True)
def _win_chance(card: int, hand: np.uint64, trump: int) -> float:
    """Rough chance that ``card`` wins a trick, from its rank and its suit in the hand."""
    suit, rank = SUIT_OF[card], RANK_OF[card]
    suit_cards = hand & SUIT_MASK[suit]
    length = popcount(suit_cards)
    holds_ace = suit_cards >> np.uint64(9 * suit + ACE) & np.uint64(1)
    holds_king = suit_cards >> np.uint64(9 * suit + KING) & np.uint64(1)
    if suit == trump:
        level = TRUMP_LEVEL[rank]
        base = _TRUMP_WIN_CHANCE[level]
        if rank == NINE and suit_cards >> np.uint64(9 * suit + JACK) & np.uint64(1):
            base = 0.97
        return min(1.0, base + 0.05 * max(0, length - 3))
    if rank == ACE:
        return 0.8 if length <= 4 else 0.6
    if rank == KING:
        return 0.5 if holds_ace else (0.25 if length >= 2 else 0.1)
    if rank == QUEEN and holds_ace and holds_king:
        return 0.35
    return 0.03


@njit(cache=True)
def heuristic_prediction(hand: np.uint64, trump: int) -> int:
    """Expected points: each card's win chance times (its value + three average cards)."""
    expected = 0.0
    m = hand
    while m:
        card = lowest_card(m)
        m &= m - np.uint64(1)
        expected += _win_chance(card, hand, trump) * (POINTS[trump, card] + _OTHER_CARDS_VALUE)
    return min(MAX_PREDICTION, int(expected * 0.85 + 0.5))


@njit(cache=True, inline="always")
def _strength(card: int, trump: int) -> int:
    """Strength of a card for leading or keeping: trumps above plain cards, by order."""
    if SUIT_OF[card] == trump:
        return 20 + TRUMP_LEVEL_OF[trump, card]
    return RANK_OF[card]


@njit(cache=True)
def heuristic_play(
    legal: np.uint64, led: int, top_key: int, n_played: int, trump: int, points: int, prediction: int
) -> int:
    """Take points while below the prediction; duck (stay under the best card) once it is reached."""
    want = points < prediction
    last = n_played == 3
    best, best_score = -1, -(10**9)
    m = legal
    while m:
        card = lowest_card(m)
        m &= m - np.uint64(1)
        strength = _strength(card, trump)
        if n_played == 0:  # leading: the strongest card to take, the weakest to duck
            score = strength if want else -4 * strength - POINTS[trump, card]
        else:
            key = trick_key(card, led, trump)
            if want:  # a winner (the cheapest when last, else the strongest); else shed a low card
                if key > top_key:
                    score = 1000 + (100 - key if last else key) + POINTS[trump, card]
                else:
                    score = -10 * POINTS[trump, card] - strength
            else:  # the strongest card that stays under (it might win a later trick); else the weakest winner
                score = 1000 + strength if key <= top_key else 100 - key
        if score > best_score:
            best, best_score = card, score
    return best


@njit(cache=True, inline="always")
def predict(bot: int, rng: np.ndarray, stream: int, hand: np.uint64, trump: int) -> int:
    """A bot's prediction 0..157 (A7) for its hand; random draws come from ``rng`` stream ``stream``."""
    if bot == RANDOM:
        return below(rng, stream, MAX_PREDICTION + 1)
    return heuristic_prediction(hand, trump)


@njit(cache=True, inline="always")
def play(
    bot: int,
    rng: np.ndarray,
    stream: int,
    legal: np.uint64,
    led: int,
    top_key: int,
    n_played: int,
    trump: int,
    points: int,
    prediction: int,
) -> int:
    """A bot's card from its legal cards (A8).

    ``led`` is the led suit (-1 when leading), ``top_key`` the ``trick_key`` of
    the best card in the trick so far, ``n_played`` the cards already in it.
    """
    if bot == RANDOM:
        return nth_card(legal, below(rng, stream, popcount(legal)))
    return heuristic_play(legal, led, top_key, n_played, trump, points, prediction)
