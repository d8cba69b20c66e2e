"""Wizard rules (RULES.md section B) as tables and numba kernels.

Cards use the WIZARD60 layout of ``cardsim.cards``: suit cards 13 * suit +
rank (rank 0..12 = 1..13), Wizards 52-55, Jesters 56-59. A trump or led
suit of -1 means none.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from cardsim.cards import WIZARD60
from cardsim.errors import CardsimError
from cardsim.options import check_values, option

DECK_SIZE = 60  # B1
MIN_PLAYERS, MAX_PLAYERS = 3, 6  # B2
NO_SUIT = -1
WIZARD_MASK = np.uint64(0xF << 52)
JESTER_MASK = np.uint64(0xF << 56)
SPECIALS = WIZARD_MASK | JESTER_MASK
FULL_DECK = np.uint64((1 << DECK_SIZE) - 1)
SUIT_MASK = np.array([WIZARD60.suit_mask(s) for s in range(4)], np.uint64)
# Suit of every card (-1 for Wizards and Jesters), and its rank 0..12.
SUIT_OF = np.array([WIZARD60.suit_of(c) for c in range(DECK_SIZE)], np.int64)
RANK_OF = np.array([WIZARD60.rank_of(c) for c in range(DECK_SIZE)], np.int64)
WIZARD_KEY = 100  # above any suit card; the first Wizard keeps the trick (B7)

# B10: cards per round of each schedule, for 3..6 players.
TOURNAMENT = {
    3: (2, 4, 6, 8, 10, 12, 14, 16, 18, 20),
    4: (1, 3, 5, 7, 9, 11, 12, 13, 14, 15),
    5: (2, 4, 5, 6, 7, 8, 9, 10, 11, 12),
    6: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10),  # seed silent; our default
}
FIVE_ROUNDS_TRUMPS = (3, 2, 1, 0, NO_SUIT)  # B10 five_rounds: clubs, diamonds, hearts, spades, none


@dataclass(frozen=True)
class WizardRules:
    """Rule options of Wizard (B2, B5, B10)."""

    players: int = option(4, range(MIN_PLAYERS, MAX_PLAYERS + 1), "B2: number of players")
    bidding: str = option("open", ("open", "hidden", "secret"), "B5: bids seen in turn, revealed before play, or never")
    plus_minus_one: bool = option(False, (False, True), "B5: the dealer may not make the bids add up to the cards")
    schedule: str = option("standard", ("standard", "five_rounds", "tournament"), "B10: cards dealt in each round")
    cards: int = option(0, range(0, 21), "cards per player in single rounds (--rounds); 0 = all, 60/players")

    def __post_init__(self) -> None:
        check_values(self, "wizard")
        if self.plus_minus_one and self.bidding != "open":
            raise CardsimError(
                f"wizard rule plus_minus_one=True needs bidding=open (the dealer must see the other bids), "
                f"not bidding={self.bidding}"
            )
        if self.cards > self.max_cards:
            raise CardsimError(
                f"wizard rule cards={self.cards} is not allowed with {self.players} players: "
                f"use 1 to {self.max_cards} (60 cards / players), or 0 for all"
            )

    @property
    def round_cards(self) -> int:
        """Cards per player in a single round (--rounds)."""
        return self.cards or self.max_cards

    @property
    def max_cards(self) -> int:
        """B3: cards per player in a full-deck round."""
        return DECK_SIZE // self.players

    def schedule_cards(self) -> tuple[int, ...]:
        """B3/B10: the cards each player gets in every round of a game."""
        if self.schedule == "standard":
            return tuple(range(1, self.max_cards + 1))
        if self.schedule == "five_rounds":
            return (self.max_cards,) * 5
        return TOURNAMENT[self.players]

    def fixed_trumps(self) -> tuple[int, ...]:
        """Per round, the trump suit fixed by the schedule (B10 five_rounds), or -2 to turn a card (B4)."""
        if self.schedule == "five_rounds":
            return FIVE_ROUNDS_TRUMPS
        return (-2,) * len(self.schedule_cards())


@njit(cache=True, inline="always")
def is_wizard(card: int) -> bool:
    return 52 <= card < 56


@njit(cache=True, inline="always")
def is_jester(card: int) -> bool:
    return card >= 56


@njit(cache=True)
def legal_mask(hand: np.uint64, led: int) -> np.uint64:
    """B6: with a led suit, a player holding it plays it (or a Wizard or Jester); otherwise anything."""
    if led < 0:
        return hand
    follow = hand & SUIT_MASK[led]
    if follow:
        return follow | (hand & SPECIALS)
    return hand


@njit(cache=True, inline="always")
def led_after(led: int, decided: bool, card: int) -> tuple:
    """B6: (led suit, decided) after ``card``: the first non-Jester decides; a Wizard leaves no led suit."""
    if decided or is_jester(card):
        return led, decided
    return SUIT_OF[card], True


def _key(card: int, led: int, trump: int) -> int:
    suit, rank = WIZARD60.suit_of(card), WIZARD60.rank_of(card)
    if 52 <= card < 56:
        return WIZARD_KEY
    if suit >= 0 and suit == trump:
        return 60 + rank
    if suit >= 0 and suit == led:
        return 30 + rank
    return 0  # Jesters and discards of other suits


# KEY[trump + 1, led + 1, card]: B7 as one number per card (see card_key).
KEY = np.array(
    [[[_key(c, led, trump) for c in range(DECK_SIZE)] for led in range(-1, 4)] for trump in range(-1, 4)], np.int64
)


@njit(cache=True, inline="always")
def card_key(card: int, led: int, trump: int) -> int:
    """B7 as one number; a card beats the trick so far if its key is higher (strictly).

    Wizards score highest, so the first Wizard keeps the trick (later ones only
    tie); trumps beat the led suit, which beats other suits (0); Jesters score
    0, so the first Jester wins an all-Jester trick.
    """
    return KEY[trump + 1, led + 1, card]


def _second_beats_first() -> np.ndarray:
    """SECOND_BEATS_FIRST[trump + 1, a, b]: in a trick of two cards, b played after a wins it (B6, B7: the led
    suit as ``led_after`` settles it, the keys of ``KEY``, as ``trick_step`` compares them)."""
    first = [led_after.py_func(NO_SUIT, False, a) for a in range(DECK_SIZE)]
    led_a = np.array([led for led, _ in first])
    led_b = np.array([[led_after.py_func(*first[a], b)[0] for b in range(DECK_SIZE)] for a in range(DECK_SIZE)])
    cards = np.arange(DECK_SIZE)
    key_a = KEY[:, led_a + 1, cards]  # [trump + 1, a]
    key_b = KEY[:, led_b + 1, cards[None, :]]  # [trump + 1, a, b]
    return key_b > key_a[:, :, None]


SECOND_BEATS_FIRST = _second_beats_first()


@njit(cache=True, inline="always")
def trick_step(trump: int, led: int, decided: bool, top_key: int, winner: int, seat: int, card: int) -> tuple:
    """B6/B7, the one step of a trick (the state machine's, ``state.apply``, and every play-out's): (led, decided,
    top_key, winner) after ``seat`` plays ``card``. The first non-Jester settles the led suit (a Wizard: none); a
    card wins the trick so far if its key is strictly higher."""
    led, decided = led_after(led, decided, card)
    key = card_key(card, led, trump)
    if key > top_key:
        return led, decided, key, seat
    return led, decided, top_key, winner


@njit(cache=True)
def trick_winner(cards: np.ndarray, n: int, trump: int) -> int:
    """B7: position (0 = leader) of the winning card among ``cards[:n]`` in play order."""
    led, decided, top_key, best = NO_SUIT, False, -1, 0
    for i in range(n):
        led, decided, top_key, best = trick_step(trump, led, decided, top_key, best, i, cards[i])
    return best


@njit(cache=True, inline="always")
def score(bid: int, tricks: int) -> int:
    """B8: 20 + 10 per trick for an exact bid, else -10 per trick of difference."""
    if bid == tricks:
        return 20 + 10 * tricks
    return -10 * abs(bid - tricks)


@njit(cache=True, inline="always")
def refused_bid(bids_so_far: int, cards: int, is_last: bool, plus_minus_one: bool) -> int:
    """B5 plus_minus_one: the bid the last bidder may not make (-1: none)."""
    if plus_minus_one and is_last and 0 <= cards - bids_so_far <= cards:
        return cards - bids_so_far
    return -1
