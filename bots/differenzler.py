"""Built-in compiled Differenzler bots ``random`` and ``heuristic``, and how built-in bots play a round on.

A bot decides from what its seat may see: its own hand, the trump card the
dealer showed, the cards on the table, its own prediction and points, and
(with open predictions, A7) the predictions announced so far. The engine
calls ``predict`` and ``play`` with the bot's id, so one compiled kernel
serves every lineup and seating without recompiling.

A round in progress is a small int array ``state`` (trick number, cards in
the trick, leader, led suit, best key and highest trump so far, winner,
points in the trick) beside hands, history, predictions and points.
``apply_card`` plays one card into it, ``play_cards`` lets these bots play
on from any state: the batch driver, bid advice and the strong bots'
rollouts (``bots/differenzler_strong.py``) all share that one trick loop.
``sweep_predictions`` gives a seat's points for every prediction 0..157 from
a few plays (bid advice and the Monte Carlo bidder).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cardsim.cards import bit, lowest_card, nth_card, popcount
from cardsim.games.differenzler.rules import (
    ACE,
    JACK,
    KING,
    LAST_TRICK_BONUS,
    MAX_PREDICTION,
    NINE,
    PLAYERS,
    POINTS,
    QUEEN,
    RANK_OF,
    SUIT_MASK,
    SUIT_OF,
    TRICKS,
    TRUMP_LEVEL,
    TRUMP_LEVEL_OF,
    legal_mask,
    trick_key,
    trump_level,
)
from cardsim.lineup import FIRST_STRONG
from cardsim.rng import below

RANDOM, HEURISTIC = 0, 1
STRONG = FIRST_STRONG  # ids from here on are the strong bots of bots/differenzler_strong.py, which the drivers ask
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


# --- a round in progress, played on by these bots ------------------------------------------------------------

# Slots of ``state``: trick number, cards already in the trick, its leader, led suit (-1 none yet), trick_key of
# the best card so far (-1), highest trump level in it (-1), the seat winning it, card points in it.
TRICK, POS, LEADER, LED, TOP_KEY, TOP_TRUMP, WINNER, WON = range(8)
STATE_SIZE = 8
_UNSET = 1 << 30  # no decision recorded


@njit(cache=True)
def start_state(state: np.ndarray, leader: int) -> None:
    """The state before the first card of a round that ``leader`` (First Hand) leads."""
    state[:] = -1
    state[TRICK], state[POS], state[LEADER], state[WINNER], state[WON] = 0, 0, leader, leader, 0


@njit(cache=True, inline="always")
def _step(card: int, trump: int, hands: np.ndarray, history: np.ndarray, points: np.ndarray, t: int, i: int,
          leader: int, led: int, top_key: int, top_trump: int, winner: int, won: int) -> tuple:  # fmt: skip
    """``apply_card`` on the state's values as locals (kept in registers in the trick loop); returns them."""
    seat = (leader + i) % PLAYERS
    hands[seat] ^= bit(card)
    history[t, 2 + i] = card
    if i == 0:
        history[t, 0] = leader
        led = SUIT_OF[card]
    key = trick_key(card, led, trump)
    if key > top_key:
        top_key, winner = key, seat
    top_trump = max(top_trump, trump_level(card, trump))
    won += POINTS[trump, card]
    if i < PLAYERS - 1:
        return t, i + 1, leader, led, top_key, top_trump, winner, won
    history[t, 1] = winner
    points[winner] += won + (LAST_TRICK_BONUS if t == TRICKS - 1 else 0)
    return t + 1, 0, winner, -1, -1, -1, winner, 0


@njit(cache=True, inline="always")
def apply_card(card: int, trump: int, hands: np.ndarray, history: np.ndarray, points: np.ndarray,
               state: np.ndarray) -> None:  # fmt: skip
    """The seat to move plays ``card``: hand, history[trick] = (leader, winner, 4 cards), and after the 4th card
    the trick's points (A4, A9) to its winner, who leads next."""
    (state[TRICK], state[POS], state[LEADER], state[LED], state[TOP_KEY], state[TOP_TRUMP], state[WINNER],
     state[WON]) = _step(card, trump, hands, history, points, state[TRICK], state[POS], state[LEADER], state[LED],
                         state[TOP_KEY], state[TOP_TRUMP], state[WINNER], state[WON])  # fmt: skip


@njit(cache=True, inline="always")  # the batch loop's hot path: a call per round would cost random bots ~15%
def play_cards(bots: np.ndarray, trump: int, rng: np.ndarray, hands: np.ndarray, history: np.ndarray,
               predictions: np.ndarray, points: np.ndarray, state: np.ndarray, watch: int,
               checks: np.ndarray) -> int:  # fmt: skip
    """Random and heuristic bots (``bots[seat, 0]``) play on from ``state``. Returns -1 at the end of the round,
    or the seat to move when its bot is a strong one (id >= STRONG: the caller asks it, then calls again).
    ``checks[trick]`` gets seat ``watch``'s points before each of its cards (-1: watch none)."""
    t, i, leader, led, top_key = state[TRICK], state[POS], state[LEADER], state[LED], state[TOP_KEY]
    top_trump, winner, won = state[TOP_TRUMP], state[WINNER], state[WON]
    stopped = -1
    while t < TRICKS:
        seat = (leader + i) % PLAYERS
        bot = int(bots[seat, 0])
        if bot >= STRONG:
            stopped = seat
            break
        if seat == watch:
            checks[t] = points[seat]
        legal = legal_mask(hands[seat], led, trump, top_trump)
        card = play(bot, rng, 1 + seat, legal, led, top_key, i, trump, points[seat], predictions[seat])
        t, i, leader, led, top_key, top_trump, winner, won = _step(card, trump, hands, history, points, t, i, leader,
                                                                   led, top_key, top_trump, winner, won)  # fmt: skip
    (state[TRICK], state[POS], state[LEADER], state[LED], state[TOP_KEY], state[TOP_TRUMP], state[WINNER],
     state[WON]) = t, i, leader, led, top_key, top_trump, winner, won  # fmt: skip
    return stopped


@njit(cache=True, inline="always")
def play_all(bots: np.ndarray, trump: int, first_hand: int, rng: np.ndarray, hands: np.ndarray, history: np.ndarray,
             predictions: np.ndarray, points: np.ndarray) -> None:  # fmt: skip
    """``play_cards`` for a whole round that only random and heuristic bots play: a fixed trip count and no stops,
    which the batch kernel runs about a third faster."""
    t, i, leader, led, top_key, top_trump, winner, won = 0, 0, first_hand, -1, -1, -1, first_hand, 0
    for _ in range(TRICKS * PLAYERS):
        seat = (leader + i) % PLAYERS
        legal = legal_mask(hands[seat], led, trump, top_trump)
        card = play(int(bots[seat, 0]), rng, 1 + seat, legal, led, top_key, i, trump, points[seat], predictions[seat])
        t, i, leader, led, top_key, top_trump, winner, won = _step(card, trump, hands, history, points, t, i, leader,
                                                                   led, top_key, top_trump, winner, won)  # fmt: skip


@njit(cache=True)
def sweep_predictions(bots: np.ndarray, seat: int, trump: int, rng: np.ndarray, hands: np.ndarray,
                      history: np.ndarray, predictions: np.ndarray, points: np.ndarray, state: np.ndarray,
                      out: np.ndarray) -> None:  # fmt: skip
    """out[p] = ``seat``'s points at the end of the round when it predicts p (0..157) and every seat's bot plays
    on from ``state`` (the others' predictions as given). Exact with few plays: these bots depend on their
    prediction only through "points < prediction" at their own decisions, so the play for p also holds for every
    prediction up to the lowest of those points that is >= p. Leaves the arrays as after the last play."""
    rng0, hands0, points0, state0 = rng.copy(), hands.copy(), points.copy(), state.copy()
    checks = np.empty(TRICKS, np.int64)
    p = 0
    while p <= MAX_PREDICTION:
        rng[:], hands[:], points[:], state[:] = rng0, hands0, points0, state0
        predictions[seat] = p
        checks[:] = _UNSET
        play_cards(bots, trump, rng, hands, history, predictions, points, state, seat, checks)
        top = MAX_PREDICTION
        for c in checks:
            if p <= c < top:
                top = c
        out[p : top + 1] = points[seat]
        p = top + 1
