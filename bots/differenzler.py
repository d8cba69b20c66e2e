"""Built-in compiled Differenzler bots ``random``, ``heuristic`` (calibrated predictions) and ``heuristic_v1``
(the heuristic before them), and how built-in bots play a round on.

A bot decides from what its seat may see: its own hand, the trump card the
dealer showed, the cards on the table, its own prediction and points, and
(with open predictions, A7) the predictions announced so far. The engine
calls ``predict`` and ``play`` with the bot's id, so one compiled kernel
serves every lineup and seating without recompiling.

``act`` asks a bot at its seat of a round ``State``
(``cardsim/games/differenzler/state.py``); ``run`` lets these bots play a
round on from any state (predictions in turn, then the cards), stopping at a
strong or Python bot's turn: the batch driver, bid advice and the strong
bots' rollouts (``bots/differenzler_strong.py``) all play through it, and its
trick loops are loops over ``state.step``. ``sweep_predictions`` gives a
seat's points (and whether it won a trick) for every prediction 0..157 from a
few plays (bid advice and the Monte Carlo bidder, which score them with
``rules.penalty``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit

import cardsim.errors as errors
from cardsim.arrays import copy_items, copy_rows
from cardsim.audit import load, store
from cardsim.cards import lowest_card, nth_card, popcount
from cardsim.decisions import PREDICT
from cardsim.errors import BotFailure
from cardsim.games.differenzler.rules import (
    ACE,
    JACK,
    KING,
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
)
from cardsim.games.differenzler.state import (
    FIRST_HAND,
    LEADER,
    LED,
    POS,
    PREDICTED,
    TOP_KEY,
    TOP_TRUMP,
    TRICK,
    TRUMP,
    WINNER,
    WON,
    Params,
    State,
    audit_card,
    audit_points,
    audit_prediction,
    decision,
    legal_cards,
    predict_step,
    step,
    trick_takers,
)
from cardsim.lineup import FIRST_STRONG
from cardsim.rng import below

RANDOM, HEURISTIC, HEURISTIC_V1 = 0, 1, 2
RANDOM_LINEUP, ANY_LINEUP = True, False  # the card loops' compile-time choice (``fast_card``)
STRONG = FIRST_STRONG  # ids from here on are the strong bots of bots/differenzler_strong.py, which the drivers ask
BOT_IDS = {"random": RANDOM, "heuristic": HEURISTIC, "heuristic_v1": HEURISTIC_V1}
BOT_DOCS = {
    "random": "uniform prediction 0..157, uniform legal card",
    "heuristic": "predicts the points its cards are expected to take, from a table calibrated by simulation per "
    "position, card, suit length and higher cards held (bots/differenzler_prediction_table.npy); plays as "
    "heuristic_v1",
    "heuristic_v1": "the heuristic before calibrated predictions: predicts from rough card win chances; takes points "
    "while below its prediction, ducks once it is reached",
}

PREDICTION_TABLE_FILE = Path(__file__).with_name("differenzler_prediction_table.npy")
# PREDICTION_TABLE[position, card_class, length - 1, higher]: the mean points of the tricks a card takes (the
# last trick's 5 included), for a seat at that position (0 = First Hand) holding ``length`` cards of the card's
# suit, ``higher`` of them above it; played by ``heuristic`` (experiments/calibrate_differenzler_predictions.py;
# float32 [4, 18, 9, 9]).
PREDICTION_TABLE = np.load(PREDICTION_TABLE_FILE)
PREDICTION_TABLE.setflags(write=False)  # a constant, typed read-only wherever it is passed
CLASSES = 18  # card_class: trumps by trump level 0..8, other cards by rank 0..8


@njit(cache=True, inline="always")
def card_class(card: int, trump: int) -> int:
    """The card's class for ``PREDICTION_TABLE``: its trump level 0..8 (6 up to the Puur) if a trump, else 9 + its
    rank 0..8 (6 up to the ace)."""
    if SUIT_OF[card] == trump:
        return TRUMP_LEVEL_OF[trump, card]
    return 9 + RANK_OF[card]


@njit(cache=True, inline="always")
def suit_place(hand: np.uint64, card: int, trump: int) -> tuple:
    """(cards of ``card``'s suit in ``hand``, how many of them rank above it): the table's length and higher."""
    suit = hand & SUIT_MASK[SUIT_OF[card]]
    mine = card_class(card, trump)
    higher = 0
    m = suit
    while m:
        if card_class(lowest_card(m), trump) > mine:
            higher += 1
        m &= m - np.uint64(1)
    return popcount(suit), higher


@njit(cache=True)
def calibrated_prediction(table: np.ndarray, hand: np.uint64, trump: int) -> int:
    """The points the hand's cards are expected to take, ``table`` = ``PREDICTION_TABLE[position]``, summed and
    rounded (at most 157)."""
    expected = 0.0
    m = hand
    while m:
        card = lowest_card(m)
        m &= m - np.uint64(1)
        length, higher = suit_place(hand, card, trump)
        expected += table[card_class(card, trump), length - 1, higher]
    return min(MAX_PREDICTION, int(expected + 0.5))


@njit(cache=True)
def heuristic_prediction(hand: np.uint64, trump: int, position: int) -> int:
    """``heuristic``'s prediction from ``position`` (0 = First Hand): ``calibrated_prediction``."""
    return calibrated_prediction(PREDICTION_TABLE[position], hand, trump)

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
def heuristic_v1_prediction(hand: np.uint64, trump: int) -> int:
    """``heuristic_v1``'s prediction (also the strong bots' guess of a prediction they cannot see), the expected
    points: each card's win chance times (its value + three average cards)."""
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
def predict(bot: int, rng: np.ndarray, stream: int, hand: np.uint64, trump: int, position: int) -> int:
    """A bot's prediction 0..157 (A7) for its hand from ``position`` (0 = First Hand); random draws come from
    ``rng`` stream ``stream``."""
    if bot == RANDOM:
        return below(rng, stream, MAX_PREDICTION + 1)
    if bot == HEURISTIC_V1:
        return heuristic_v1_prediction(hand, trump)
    return heuristic_prediction(hand, trump, position)


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


# --- the built-in bots asked at their seat, and playing a round on ---------------------------------------------


@njit(cache=True, inline="always")
def act(bot: int, s: State, p: Params, seat: int) -> int:
    """What built-in bot ``bot`` at ``seat`` (the seat to move) does now, from its seat's view: its hand, the shown
    trump, the trick on the table, its own prediction and points. Draws from the seat's stream 1 + seat."""
    sl = s.slots
    if decision(s) == PREDICT:
        return predict(bot, s.rng, 1 + seat, s.hands[seat], sl[TRUMP], sl[PREDICTED])
    return play(bot, s.rng, 1 + seat, legal_cards(s, p), sl[LED], sl[TOP_KEY], sl[POS], sl[TRUMP], s.points[seat],
                s.predictions[seat])  # fmt: skip


@njit(cache=True, inline="always")
def _illegal(seat: int) -> None:
    raise BotFailure("a built-in Differenzler bot chose an illegal action (RULES D2)")


@njit(cache=True, inline="always")
def _stops(bot: int) -> bool:
    """A seat these bots do not play: a strong bot (asked by the driver) or a Python bot (-1)."""
    return bot < 0 or bot >= STRONG


@njit(cache=True, inline="always")  # the batch loop's hot path: a call per round would cost random bots ~15%
def play_on(s: State, bots: np.ndarray, watch: int, checks: np.ndarray) -> int:
    """Random and heuristic bots (``bots[seat, 0]``) play cards on from ``s`` (predictions made), through
    ``state.step`` with the trick's slots in registers. Returns -1 at the end of the round, or the seat to move
    when its bot is not one of these (the caller asks it, then calls again). ``checks[trick]`` gets seat
    ``watch``'s points before each of its cards (-1: watch none, ``checks`` untouched)."""
    sl = s.slots
    trump, hands, history, points, predictions, rng = sl[TRUMP], s.hands, s.history, s.points, s.predictions, s.rng
    t, i, leader, led, top_key = sl[TRICK], sl[POS], sl[LEADER], sl[LED], sl[TOP_KEY]
    top_trump, winner, won = sl[TOP_TRUMP], sl[WINNER], sl[WON]
    stopped = -1
    while t < TRICKS:
        seat = (leader + i) % PLAYERS
        bot = int(bots[seat, 0])
        if _stops(bot):
            stopped = seat
            break
        if seat == watch:
            checks[t] = points[seat]
        legal = legal_mask(hands[seat], led, trump, top_trump)
        card = play(bot, rng, 1 + seat, legal, led, top_key, i, trump, points[seat], predictions[seat])
        if errors.REFUSE_ILLEGAL_CARDS and not legal >> np.uint64(card) & np.uint64(1):
            _illegal(seat)
        t, i, leader, led, top_key, top_trump, winner, won = step(card, trump, hands, history, points, t, i, leader,
                                                                  led, top_key, top_trump, winner, won)  # fmt: skip
    sl[TRICK], sl[POS], sl[LEADER], sl[LED], sl[TOP_KEY], sl[TOP_TRUMP], sl[WINNER], sl[WON] = (
        t, i, leader, led, top_key, top_trump, winner, won)  # fmt: skip
    return stopped


@njit(cache=True, inline="always")
def play_all(sl: np.ndarray, hands: np.ndarray, history: np.ndarray, points: np.ndarray, predictions: np.ndarray,
             rng: np.ndarray, bots: np.ndarray, audit: np.ndarray | None) -> None:  # fmt: skip
    """``play_on`` for a whole round (predictions made, no card played) that only random and heuristic bots play:
    a fixed trip count and no stops, which the batch kernel runs about a third faster. It takes the State's
    arrays (``sl`` its slots), not the State: each array passed costs the hot loop a reference count update.
    ``audit``: None, or the ``state.audit_card`` count that checks every step (``--check``)."""
    trump, trick = sl[TRUMP], first_trick(sl)
    broken = load(audit)[0]  # Differenzler keeps no running count (its points are checked at the end)
    for _ in range(TRICKS * PLAYERS):
        seat, card, trick = fast_card(trump, hands, history, points, predictions, rng, bots, ANY_LINEUP, trick)
        if audit is not None:
            broken = audit_card(audit, hands, seat, card, broken)
    if audit is not None:
        broken = audit_points(points, broken)
    store(audit, broken, np.int64(0))
    store_trick(sl, trick)


@njit(cache=True, inline="always")
def store_trick(sl: np.ndarray, trick: tuple) -> None:
    """The trick's registers (see ``first_trick``) back into the slots."""
    sl[TRICK], sl[POS], sl[LEADER], sl[LED], sl[TOP_KEY], sl[TOP_TRUMP], sl[WINNER], sl[WON] = trick


@njit(cache=True, inline="always")
def first_trick(sl: np.ndarray) -> tuple:
    """The trick's registers before the first card (``state.step``'s t, i, leader, led, top_key, top_trump, winner,
    won)."""
    zero, none = np.int64(0), np.int64(-1)  # not literals: the callees would compile for them too (issue 14)
    return zero, zero, sl[LEADER], none, none, none, sl[LEADER], zero


@njit(cache=True, inline="always")
def fast_card(trump: int, hands: np.ndarray, history: np.ndarray, points: np.ndarray, predictions: np.ndarray,
              rng: np.ndarray, bots: np.ndarray, random_lineup: bool, trick: tuple) -> tuple:  # fmt: skip
    """One card of ``play_all``: the seat to move (its bot from ``bots``, or random) plays it through ``state.step``
    on the trick's registers ``trick`` (see ``first_trick``); returns (seat, card, the registers after it). A
    built-in bot's illegal card is refused (RULES D2). ``random_lineup``: ``RANDOM_LINEUP`` (the random bot at every
    seat: no bot table read) or ``ANY_LINEUP``, a constant numba prunes as it compiles."""
    t, i, leader, led, top_key, top_trump, winner, won = trick
    seat = (leader + i) % PLAYERS
    legal = legal_mask(hands[seat], led, trump, top_trump)
    bot = RANDOM if random_lineup else int(bots[seat, 0])
    card = play(bot, rng, 1 + seat, legal, led, top_key, i, trump, points[seat], predictions[seat])
    if errors.REFUSE_ILLEGAL_CARDS and not legal >> np.uint64(card) & np.uint64(1):
        _illegal(seat)
    return seat, card, step(card, trump, hands, history, points, t, i, leader, led, top_key, top_trump, winner, won)


@njit(cache=True, inline="always")
def run_pair(a: State, b: State, bots: np.ndarray) -> None:
    """Two dealt rounds of random bots at once (``play.random_block``; ``bots`` their table): the predictions of
    each, then their cards in turn, one of ``a`` and one of ``b`` (``fast_card``): the two rounds' chains of
    dependent steps overlap in the CPU. Each round draws from its own streams, so both end as ``run_all`` would
    leave them."""
    predict_on(a.slots, a.hands, a.predictions, a.rng, bots, False, None, RANDOM_LINEUP)
    predict_on(b.slots, b.hands, b.predictions, b.rng, bots, False, None, RANDOM_LINEUP)
    ta, tb = a.slots[TRUMP], b.slots[TRUMP]
    trick_a, trick_b = first_trick(a.slots), first_trick(b.slots)
    for _ in range(TRICKS * PLAYERS):
        _, _, trick_a = fast_card(ta, a.hands, a.history, a.points, a.predictions, a.rng, bots, RANDOM_LINEUP, trick_a)
        _, _, trick_b = fast_card(tb, b.hands, b.history, b.points, b.predictions, b.rng, bots, RANDOM_LINEUP, trick_b)
    store_trick(a.slots, trick_a)
    store_trick(b.slots, trick_b)


@njit(cache=True, inline="always")
def predict_on(sl: np.ndarray, hands: np.ndarray, predictions: np.ndarray, rng: np.ndarray, bots: np.ndarray,
               stops: bool, audit: np.ndarray | None, random_lineup: bool) -> int:  # fmt: skip
    """The remaining predictions in turn (A7) by random and heuristic bots, through ``state.predict_step`` with
    the counter in a register; on the State's arrays (``sl`` its slots). Returns the seat to predict whose bot is
    not one of these, or -1 when all have predicted (``stops`` False: the table holds only these bots).
    ``audit``: see ``play_all``; ``random_lineup``: see ``fast_card``."""
    first_hand, trump = sl[FIRST_HAND], sl[TRUMP]
    for n in range(sl[PREDICTED], PLAYERS):
        seat = (first_hand + n) % PLAYERS
        bot = RANDOM if random_lineup else int(bots[seat, 0])
        if stops and _stops(bot):
            sl[PREDICTED] = n
            return seat
        if not predict_step(predictions, first_hand, n, predict(bot, rng, 1 + seat, hands[seat], trump, n)):
            _illegal(seat)
        if audit is not None:
            audit_prediction(audit, predictions, seat)
    sl[PREDICTED] = PLAYERS
    return -1


@njit(cache=True, inline="always")
def run_all(sl: np.ndarray, hands: np.ndarray, history: np.ndarray, points: np.ndarray, predictions: np.ndarray,
            rng: np.ndarray, bots: np.ndarray, audit: np.ndarray | None) -> None:  # fmt: skip
    """A dealt round played to the end by a table of random and heuristic bots only: ``predict_on`` then
    ``play_all``, on the State's arrays (the batch kernel's hot path). ``audit``: see ``play_all``."""
    predict_on(sl, hands, predictions, rng, bots, False, audit, ANY_LINEUP)
    play_all(sl, hands, history, points, predictions, rng, bots, audit)


@njit(cache=True, inline="always")
def run(s: State, p: Params, bots: np.ndarray) -> int:
    """Random and heuristic bots play on from ``s``: the remaining predictions in turn (A7), then the cards.
    Returns -1 at the end of the round, or the seat to move whose bot is a strong or a Python one."""
    sl = s.slots
    seat = predict_on(sl, s.hands, s.predictions, s.rng, bots, True, None, ANY_LINEUP)
    if seat >= 0:
        return seat
    if sl[TRICK] == 0 and sl[POS] == 0 and not (_stops(int(bots[0, 0])) or _stops(int(bots[1, 0]))
                                                or _stops(int(bots[2, 0])) or _stops(int(bots[3, 0]))):  # fmt: skip
        play_all(sl, s.hands, s.history, s.points, s.predictions, s.rng, bots, None)
        return -1
    return play_on(s, bots, -1, s.points)  # watch none: ``checks`` is not touched


@njit(cache=True)
def sweep_predictions(s: State, bots: np.ndarray, seat: int, out: np.ndarray, took: np.ndarray) -> None:
    """out[p] = ``seat``'s points at the end of the round when it predicts p (0..157) and every seat's bot plays
    on from ``s`` (predictions made; the others' as given), took[p] = 1 if it won a trick then, else 0 (what
    A13's zero_trick asks of an exact 0). Exact with few plays: these bots depend on their prediction only
    through "points < prediction" at their own decisions, so the play for p also holds for every prediction up
    to the lowest of those points that is >= p. Leaves ``s`` as after the last play."""
    rng0, hands0, points0, slots0 = s.rng.copy(), s.hands.copy(), s.points.copy(), s.slots.copy()
    checks = np.empty(TRICKS, np.int64)
    p = 0
    while p <= MAX_PREDICTION:
        copy_rows(s.rng, rng0, rng0.shape[0])
        copy_items(s.hands, hands0, hands0.shape[0])
        copy_items(s.points, points0, points0.shape[0])
        copy_items(s.slots, slots0, slots0.shape[0])
        s.predictions[seat] = p
        checks[:] = _UNSET
        play_on(s, bots, seat, checks)
        top = MAX_PREDICTION
        for c in checks:
            if p <= c < top:
                top = c
        out[p : top + 1] = s.points[seat]
        took[p : top + 1] = (trick_takers(s.history, TRICKS) >> seat) & 1
        p = top + 1


_UNSET = 1 << 30  # no decision recorded
