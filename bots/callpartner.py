"""Built-in compiled call-partner bots: ``random`` and ``heuristic``.

Four decisions (RULES.md C4-C7): a bid or a pass (number and trump suit), the
card the declarer calls, the cards the declarer discards after taking the
kitty, and the card to play. A bot sees its own hand, the auction, the called
card, the cards played, and whether it is the partner (it holds the called
card); everybody learns the partner when the called card is played. Only the
declarer saw the kitty and knows the discards. The engine calls these
functions with the bot's id, so one compiled kernel serves every lineup.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cardsim.cards import lowest_card, nth_card, popcount
from cardsim.games.callpartner.rules import (
    ACE,
    ACE_OF_SPADES,
    ACE_OF_SPADES_KEY,
    BY_KEY,
    FALSE_JACK,
    FULL_DECK,
    KEY,
    KING,
    MAX_BID,
    MIN_BID,
    POINT_MASK,
    QUEEN,
    RANK_OF,
    SPECIAL_KEY,
    SUIT_MASK,
    SUIT_OF,
    SUIT_RANK,
    TEN,
    TRUE_JACK,
    TRUE_JACK_KEY,
    TWO,
    final_winner,
)
from cardsim.rng import below

RANDOM, HEURISTIC = 0, 1
# Ids from cardsim.lineup.FIRST_STRONG on are the strong bots of bots.callpartner_strong: the drivers ask them for
# their decisions; the dispatch below treats them as the heuristic (a forced dealer's trump, and wherever no driver
# asks).
BOT_IDS = {"random": RANDOM, "heuristic": HEURISTIC}
BOT_DOCS = {
    "random": "passes with probability 1/2, else a uniform allowed bid number with a uniform suit; calls a uniform "
    "card not in its hand, discards uniformly, plays a uniform legal card",
    "heuristic": "bids its expected side points (special winners, trump length, high cards, a partner's share) in "
    "its best suit, raising by one; calls the best missing trump; discards low cards of short suits (point cards "
    "first when discards count); as declarer or partner wins tricks and feeds points to a safe side winner, as a "
    "defender takes points and never feeds",
}

# Chance that a trump of each rank takes a trick (the jacks are special winners, valued apart).
_TRUMP_WIN = (0.35, 0.15, 0.15, 0.15, 0.15, 0.15, 0.2, 0.25, 0.3, 0.0, 0.45, 0.6, 0.8)
# Chance that a side-suit ace or king takes a trick, by the suit's rank (clubs lowest: a void player's
# discard of a higher suit beats it, C8 rule 6).
_SIDE_ACE = (0.35, 0.45, 0.55, 0.65)
_SIDE_KING = (0.12, 0.18, 0.25, 0.3)


def _win_chance(trump: int, card: int) -> float:
    key, suit, rank = int(KEY[trump, card]), int(SUIT_OF[card]), int(RANK_OF[card])
    if key == ACE_OF_SPADES_KEY:
        return 1.0
    if key == TRUE_JACK_KEY:
        return 0.95
    if key >= SPECIAL_KEY:
        return 0.85
    if suit == trump:
        return _TRUMP_WIN[rank]
    if rank == ACE:
        return _SIDE_ACE[SUIT_RANK[suit]]
    return _SIDE_KING[SUIT_RANK[suit]] if rank == KING else 0.0


# WIN_CHANCE[trump, card]: a rough chance that the card takes a trick for its holder.
WIN_CHANCE = np.array([[_win_chance(t, c) for c in range(52)] for t in range(4)])
# TRUMPISH[trump]: the trump suit and the special winners (the ace of spades, the true and false jack).
TRUMPISH = np.array(
    [int(SUIT_MASK[t]) | 1 << int(ACE_OF_SPADES) | 1 << int(TRUE_JACK[t]) | 1 << int(FALSE_JACK[t]) for t in range(4)],
    np.uint64,
)
# Calibration by self-play of heuristic bots (0.8 x the hand's trick points + BASE[players] fits the points the
# declaring side takes): the partner's share, the kitty and the discards.
_BASE = np.array([0.0, 0.0, 0.0, 11.5, 10.0, 7.5])
_MARGIN = 1.0  # bid up to this much below the expected points


@njit(cache=True)
def expected_points(hand: np.uint64, trump: int, players: int) -> float:
    """Rough points the declaring side takes with ``trump``: the hand's expected tricks times the points of an
    average trick, plus a partner's share and what the kitty and discards add."""
    tricks = 0.0
    m = hand
    while m:
        tricks += WIN_CHANCE[trump, lowest_card(m)]
        m &= m - np.uint64(1)
    trumps = popcount(hand & TRUMPISH[trump])
    tricks += 0.3 * max(0, trumps - 3)  # long trumps run
    if trumps >= 2:
        for suit in range(4):
            if suit != trump and not hand & SUIT_MASK[suit]:
                tricks += 0.3  # a void lets a trump win
    return 0.8 * tricks * 20.0 * players / 52.0 + _BASE[players]


@njit(cache=True)
def best_trump(hand: np.uint64, players: int) -> tuple:
    """The suit with the highest expected points, and those points."""
    best, best_points = 0, -1.0
    for suit in range(4):
        points = expected_points(hand, suit, players)
        if points > best_points:
            best, best_points = suit, points
    return best, best_points


@njit(cache=True)
def heuristic_bid(hand: np.uint64, high: int, players: int) -> tuple:
    """The lowest allowed bid in the best suit while it is within the expected points, else a pass (0)."""
    suit, points = best_trump(hand, players)
    number = max(MIN_BID, high + 1)
    if number <= min(MAX_BID, int(points - _MARGIN)):
        return number, suit
    return 0, 0


@njit(cache=True)
def heuristic_call(hand: np.uint64, trump: int) -> int:
    """The strongest card not in the hand: the ace of spades, the true jack, the false jack, the highest trump."""
    for i in range(BY_KEY.shape[1]):
        card = BY_KEY[trump, i]
        if not hand >> np.uint64(card) & np.uint64(1):
            return card
    return -1


@njit(cache=True)
def heuristic_discard(hand: np.uint64, count: int, trump: int, discards_count: bool) -> np.uint64:
    """``count`` cards to discard: low cards of short side suits; point cards that will hardly win a trick
    first when discards count for the declaring side (C6). Special winners and trumps are kept. Each card's keep
    score depends on the whole hand only, so the choice of a larger count contains this one: the strong bot's
    candidates are the ``count + 2`` cards it keeps least."""
    chosen = np.uint64(0)
    for _ in range(count):
        best, best_keep = -1, 10**9
        m = hand & ~chosen
        while m:
            card = lowest_card(m)
            m &= m - np.uint64(1)
            suit, rank = SUIT_OF[card], RANK_OF[card]
            if KEY[trump, card] >= SPECIAL_KEY or suit == trump:
                keep = 1000 + KEY[trump, card]
            else:
                keep = 16 * popcount(hand & SUIT_MASK[suit]) + rank + 4 * SUIT_RANK[suit]
                if rank == TWO:
                    keep += 6  # a 2 may take a trick of its suit (C8 rule 4)
                if discards_count and TEN <= rank <= QUEEN:
                    keep -= 30  # bank the point now
            if keep < best_keep:
                best, best_keep = card, keep
        chosen |= np.uint64(1) << np.uint64(best)
    return chosen


@njit(cache=True)
def _top_unseen_key(unseen: np.uint64, trump: int) -> int:
    """The highest key among cards this seat has not seen (-1 if none)."""
    for i in range(BY_KEY.shape[1]):
        card = BY_KEY[trump, i]
        if unseen >> np.uint64(card) & np.uint64(1):
            return KEY[trump, card]
    return -1


@njit(cache=True)
def heuristic_play(
    hand: np.uint64, legal: np.uint64, n_played: int, players: int, trump: int, led: int, top_key: int, winner: int,
    one_suit: bool, two_holder: int, trick: np.uint64, seat: int, on_side: bool, side: int, gone: np.uint64,
) -> int:  # fmt: skip
    """Declarer and partner win tricks and feed points to a side winner that is safe; defenders take points
    themselves and otherwise shed their lowest non-point card. ``on_side``: this seat is the declarer or the
    partner; ``side``: the seats it knows to be on the declaring side (bits); ``gone``: cards it knows are out
    of play."""
    if not legal & (legal - np.uint64(1)):  # a single legal card
        return lowest_card(legal)
    unseen = FULL_DECK & ~hand & ~gone & ~trick
    if n_played == 0:  # lead a sure winner if the hand has one, else the lowest non-point card
        top_unseen = _top_unseen_key(unseen, trump)
        best, best_score = -1, -(10**9)
        m = legal
        while m:
            card = lowest_card(m)
            m &= m - np.uint64(1)
            key = KEY[trump, card]
            point = (POINT_MASK >> np.uint64(card)) & np.uint64(1)
            score = 1000 + key if key > top_unseen else -100 * np.int64(point) - key
            if score > best_score:
                best, best_score = card, score
        return best
    last = n_played == players - 1
    trick_points = popcount(trick & POINT_MASK)
    friendly = on_side and ((side >> final_winner(winner, top_key, one_suit, two_holder)) & 1) == 1
    # The highest card still out (only where it matters: not the last to play, and a side winner or no points).
    top_unseen = 1000 if last or not (friendly or trick_points == 0) else _top_unseen_key(unseen, trump)
    feed = friendly and (last or top_key > top_unseen)
    best, best_score = -1, -(10**9)
    m = legal
    while m:
        card = lowest_card(m)
        m &= m - np.uint64(1)
        key = KEY[trump, card]
        point = np.int64((POINT_MASK >> np.uint64(card)) & np.uint64(1))
        same = one_suit and SUIT_OF[card] == led
        two = seat if same and RANK_OF[card] == TWO else two_holder
        wins = final_winner(seat if key > top_key else winner, max(key, top_key), same, two) == seat
        if feed:  # a point card to the side's winner, keeping the strong cards
            score = 100 * point - key
        elif wins and last:  # the cheapest winner, a point card if it costs little
            score = 1000 + 10 * point - key
        elif wins and (trick_points > 0 or on_side or key > top_unseen):  # take the trick with the strongest card
            score = 1000 + key
        else:  # shed: the lowest card that gives no point away
            score = -100 * point - key
        if score > best_score:
            best, best_score = card, score
    return best


# --- dispatch by bot id (inlined into the game kernels) ---------------------------


@njit(cache=True, inline="always")
def bid(bot: int, rng: np.ndarray, stream: int, hand: np.uint64, high: int, players: int) -> tuple:
    """(number, suit) of a bid above ``high`` (0 before any bid), or (0, 0) for a pass (C4)."""
    if bot == RANDOM:  # one draw: half of the outcomes pass, the rest are (number, suit) pairs, all equally likely
        lowest = max(MIN_BID, high + 1)
        pairs = 4 * (MAX_BID - lowest + 1)
        draw = below(rng, stream, 2 * pairs)
        if draw < pairs:
            return 0, 0
        return lowest + ((draw - pairs) >> 2), (draw - pairs) & 3
    return heuristic_bid(hand, high, players)


@njit(cache=True, inline="always")
def forced_trump(bot: int, rng: np.ndarray, stream: int, hand: np.uint64, players: int) -> int:
    """The dealer's trump suit when all passed and ``all_pass=dealer_forced`` (C4)."""
    if bot == RANDOM:
        return below(rng, stream, 4)
    return best_trump(hand, players)[0]


@njit(cache=True, inline="always")
def call(bot: int, rng: np.ndarray, stream: int, hand: np.uint64, trump: int) -> int:
    """The declarer's partner card: any card not in its hand (C5)."""
    if bot == RANDOM:
        free = FULL_DECK & ~hand
        return nth_card(free, below(rng, stream, popcount(free)))
    return heuristic_call(hand, trump)


@njit(cache=True, inline="always")
def discard(
    bot: int, rng: np.ndarray, stream: int, hand: np.uint64, count: int, trump: int, discards_count: bool
) -> np.uint64:
    """``count`` cards of ``hand`` (the declarer's hand with the kitty) to discard (C6)."""
    if bot == RANDOM:
        chosen = np.uint64(0)
        left = popcount(hand)
        for _ in range(count):
            chosen |= np.uint64(1) << np.uint64(nth_card(hand & ~chosen, below(rng, stream, left)))
            left -= 1
        return chosen
    return heuristic_discard(hand, count, trump, discards_count)


@njit(cache=True, inline="always")
def play(
    bot: int, rng: np.ndarray, stream: int, hand: np.uint64, legal: np.uint64, n_played: int, players: int,
    trump: int, led: int, top_key: int, winner: int, one_suit: bool, two_holder: int, trick: np.uint64, seat: int,
    declarer: int, partner: int, revealed: bool, played: np.uint64, discards: np.uint64,
) -> int:  # fmt: skip
    """A card from ``legal`` (C7). The trick so far: ``trick`` (mask), ``led`` suit, ``top_key``/``winner`` (the
    highest KEY and its seat), ``one_suit`` and ``two_holder`` (C8 rule 4). ``played``: cards of finished tricks;
    ``discards`` are seen by the declarer only; ``partner`` only by the partner itself until ``revealed``."""
    if bot == RANDOM:
        return nth_card(legal, below(rng, stream, popcount(legal)))
    # Only what this seat may know: the partner knows itself; the others learn the partner when the called
    # card is played; the declarer alone knows the discards.
    side = 1 << declarer
    if partner >= 0 and (revealed or seat == partner):
        side |= 1 << partner
    gone = played | discards if seat == declarer else played
    return heuristic_play(hand, legal, n_played, players, trump, led, top_key, winner, one_suit, two_holder, trick,
                          seat, seat == declarer or seat == partner, side, gone)  # fmt: skip
