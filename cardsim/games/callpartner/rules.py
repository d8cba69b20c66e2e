"""Call-partner game rules (RULES.md section C) as tables and numba kernels.

Cards use the FRENCH52 layout of ``cardsim.cards``: index 13 * suit + rank,
suits S H D C = 0..3, rank 0..12 = 2..A. A suit, trump or seat of -1 means
none. Every kernel is a plain function of ints and uint64 masks, so the
compiled drivers, the Python driver, the bots and the tests call the same code.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from cardsim.cards import FRENCH52, popcount
from cardsim.options import check_values, option

DECK_SIZE = 52  # C1
MIN_PLAYERS, MAX_PLAYERS = 3, 5  # C3
SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
TWO, TEN, JACK, QUEEN, KING, ACE = 0, 8, 9, 10, 11, 12
MIN_BID, MAX_BID = 10, 20  # C4
TOTAL_POINTS = 20  # C2
NO_SUIT = -1
FULL_DECK = np.uint64((1 << DECK_SIZE) - 1)
ACE_OF_SPADES = FRENCH52.card(SPADES, ACE)

# C3: the kitty and the cards each player gets, by number of players.
KITTY_SIZE = {3: 4, 4: 4, 5: 2}
HAND_SIZE = {p: (DECK_SIZE - k) // p for p, k in KITTY_SIZE.items()}

SUIT_MASK = np.array([FRENCH52.suit_mask(s) for s in range(4)], np.uint64)
SUIT_OF = np.array([FRENCH52.suit_of(c) for c in range(DECK_SIZE)], np.int64)
RANK_OF = np.array([FRENCH52.rank_of(c) for c in range(DECK_SIZE)], np.int64)
# C1: suits rank C < D < H < S; SUIT_RANK[suit] is 0 (clubs) .. 3 (spades).
SUIT_RANK = np.array([3, 2, 1, 0], np.int64)
# C2: every 10, J, Q, K and A is worth one point.
POINT_MASK = np.uint64(sum(1 << FRENCH52.card(s, r) for s in range(4) for r in range(TEN, ACE + 1)))
# C8.3: the other jack of the trump suit's colour (spades-clubs black, hearts-diamonds red).
SAME_COLOUR = np.array([CLUBS, DIAMONDS, HEARTS, SPADES], np.int64)
TRUE_JACK = np.array([FRENCH52.card(t, JACK) for t in range(4)], np.int64)
FALSE_JACK = np.array([FRENCH52.card(SAME_COLOUR[t], JACK) for t in range(4)], np.int64)

# C8 as one number per (trump, card); the highest key in a trick wins unless rule 4 applies.
# Rules 1-3: the ace of spades 100, the true jack 90, the false jack 80 (SPECIAL_KEY and above);
# rule 5: trumps 60 + rank; rule 6: other cards 13 * suit rank + rank (0..51), so a card of a higher
# suit beats every card of a lower suit. Keys are distinct within a trump suit.
ACE_OF_SPADES_KEY, TRUE_JACK_KEY, FALSE_JACK_KEY, TRUMP_KEY = 100, 90, 80, 60
SPECIAL_KEY = FALSE_JACK_KEY


def _key(trump: int, card: int) -> int:
    suit, rank = FRENCH52.suit_of(card), FRENCH52.rank_of(card)
    if card == ACE_OF_SPADES:
        return ACE_OF_SPADES_KEY
    if card == FRENCH52.card(trump, JACK):
        return TRUE_JACK_KEY
    if card == FRENCH52.card([CLUBS, DIAMONDS, HEARTS, SPADES][trump], JACK):
        return FALSE_JACK_KEY
    if suit == trump:
        return TRUMP_KEY + rank
    return 13 * [3, 2, 1, 0][suit] + rank


KEY = np.array([[_key(t, c) for c in range(DECK_SIZE)] for t in range(4)], np.int64)
# BY_KEY[trump]: the cards from the highest key to the lowest (what beats what, for bots).
BY_KEY = np.array([sorted(range(DECK_SIZE), key=lambda c, t=t: -KEY[t, c]) for t in range(4)], np.int64)


@dataclass(frozen=True)
class CallPartnerRules:
    """Rule options of the call-partner game (C3, C4, C6, C10)."""

    players: int = option(4, range(MIN_PLAYERS, MAX_PLAYERS + 1), "C3: number of players")
    all_pass: str = option(
        "redeal", ("redeal", "dealer_forced"),
        "C4: when all pass, the deal scores 0 (redeal), or the dealer declares 10 in a suit of choice",
    )  # fmt: skip
    discards_count: bool = option(True, (False, True), "C6: point cards in the discards count for the declaring side")
    target: int = option(52, range(1, 1001), "C10: a game ends when a player has this many points after a deal")
    max_deals: int = option(60, range(1, 201), "C10: a game ends after this many deals at the latest")

    def __post_init__(self) -> None:
        check_values(self, "callpartner")

    @property
    def kitty(self) -> int:
        """C3: cards in the kitty."""
        return KITTY_SIZE[self.players]

    @property
    def hand_size(self) -> int:
        """C3: cards dealt to each player (also the number of tricks)."""
        return HAND_SIZE[self.players]


@njit(cache=True, inline="always")
def legal_mask(hand: np.uint64, led: int) -> np.uint64:
    """C7: a player holding the led suit must play one of those cards; otherwise (or leading) any card."""
    if led < 0:
        return hand
    follow = hand & SUIT_MASK[led]
    if follow:
        return follow
    return hand


@njit(cache=True, inline="always")
def trick_key(card: int, trump: int) -> int:
    """C8 rules 1-3, 5 and 6 as one number: the highest key in a trick wins (rule 4 aside)."""
    return KEY[trump, card]


@njit(cache=True, inline="always")
def final_winner(winner: int, top_key: int, one_suit: bool, two_holder: int) -> int:
    """C8 rule 4: in a trick of one suit holding its 2 (``two_holder`` >= 0 played it) the 2 wins,
    unless rules 1-3 apply (a key of SPECIAL_KEY or more: the ace of spades, the true or false jack)."""
    if one_suit and two_holder >= 0 and top_key < SPECIAL_KEY:
        return two_holder
    return winner


@njit(cache=True)
def trick_winner(cards: np.ndarray, n: int, trump: int) -> int:
    """C8: position (0 = leader) of the winning card among ``cards[:n]`` in play order."""
    led = SUIT_OF[cards[0]]
    best, top_key, one_suit, two = 0, -1, True, -1
    for i in range(n):
        card = cards[i]
        key = KEY[trump, card]
        if key > top_key:
            best, top_key = i, key
        one_suit = one_suit and SUIT_OF[card] == led
        if RANK_OF[card] == TWO:
            two = i
    return final_winner(best, top_key, one_suit, two)


@njit(cache=True, inline="always")
def card_points(cards: np.uint64) -> int:
    """C2: points of a set of cards."""
    return popcount(cards & POINT_MASK)


@njit(cache=True, inline="always")
def is_made(side_points: int, bid: int) -> bool:
    """C9: the declaring side makes its bid when its points reach it."""
    return side_points >= bid


@njit(cache=True)
def score_deal(
    players: int, declarer: int, partner: int, bid: int, points: np.ndarray, discard_points: int,
    discards_count: bool, scores: np.ndarray,
) -> int:  # fmt: skip
    """C9 (with C6): fills scores[seat]; returns the declaring side's points.

    The side (declarer and partner, if any) scores +bid each if its trick points (plus the discards'
    points when they count) reach the bid, else -bid each; every defender scores its own trick points.
    """
    side = points[declarer] + (points[partner] if partner >= 0 else 0) + (discard_points if discards_count else 0)
    result = bid if is_made(side, bid) else -bid
    for s in range(players):
        scores[s] = result if s == declarer or s == partner else points[s]
    return side


@njit(cache=True, inline="always")
def game_over(totals: np.ndarray, players: int, deals: int, target: int, max_deals: int) -> bool:
    """C10: a player has reached the target after a deal, or the game has had max_deals deals."""
    if deals >= max_deals:
        return True
    for s in range(players):
        if totals[s] >= target:
            return True
    return False
