"""Rules of the exact-tricks family (RULES.md B Wizard, F Oh Hell) as tables and numba kernels, and what a game of
the family declares (``ExactTricksRules``).

Cards use the WIZARD60 layout of ``cardsim.cards``: suit cards 13 * suit + rank (rank 0..12 the lowest to the
highest: Wizard's 1..13; FRENCH52's 2..A have the same indexes), Wizards 52-55, Jesters 56-59. A game's deck is a
subset of these 60 cards (``ExactTricksRules.deck``, ``state.Params.deck``: Wizard all of them, Oh Hell the 52 suit
cards or fewer); the tables below cover all 60, and a card outside the deck is never dealt. A trump or led suit of
-1 means none.
"""

from __future__ import annotations

from typing import ClassVar, NamedTuple

import numpy as np
from numba import njit

from cardsim.cards import WIZARD60

DECK_SIZE = 60  # the card indexes of the family (B1: Wizard's deck, the largest)
MIN_PLAYERS, MAX_PLAYERS = 3, 7  # of any game of the family (B2: 3-6, F2: 3-7): tables by players hold 3..7
NO_SUIT = -1
WIZARD_MASK = np.uint64(0xF << 52)
JESTER_MASK = np.uint64(0xF << 56)
SPECIALS = WIZARD_MASK | JESTER_MASK
FULL_DECK = np.uint64((1 << DECK_SIZE) - 1)  # every card of the family (B1: Wizard's deck)
SUIT_MASK = np.array([WIZARD60.suit_mask(s) for s in range(4)], np.uint64)
FOLLOW_MASK = SUIT_MASK | SPECIALS  # [led]: the cards that may be played on the led suit while holding it (B6)
# Suit of every card (-1 for Wizards and Jesters), and its rank 0..12.
SUIT_OF = np.array([WIZARD60.suit_of(c) for c in range(DECK_SIZE)], np.int64)
RANK_OF = np.array([WIZARD60.rank_of(c) for c in range(DECK_SIZE)], np.int64)
WIZARD_KEY = 100  # above any suit card; the first Wizard keeps the trick (B7)
TURN_A_CARD = -2  # a round's fixed trump (``fixed_trumps()``): none fixed, turn up the next card (B4, F3)
DRAW = -1  # cards of a round: drawn uniformly 1..max_cards when it is dealt (F3 num_tricks_fixed=-1)


class Scoring(NamedTuple):
    """A round's score as one formula (B8, F6): an exact bid scores ``made + made_per_trick * tricks``, a missed one
    ``missed_per_trick * tricks - missed_per_off * |bid - tricks|`` (Wizard 20, 10, 0, 10; Oh Hell 10, p, p, 0 with
    p = points_per_trick, or 10, p, 0, p with off_bid_penalty)."""

    made: int
    made_per_trick: int
    missed_per_trick: int
    missed_per_off: int


class ExactTricksRules:
    """What a game of the family declares besides its options; ``state.params`` reads it. A game's frozen rules
    dataclass derives from it (``WizardRules``) and sets, as class data or as properties where an option sets them:

    - ``deck``: the cards in play, a mask of the 60 (B1 all; F1 the 52 suit cards, or fewer);
    - ``scoring``: the score's coefficients (``Scoring``; B8, F6);
    - ``keep_turned``: a card must be left to turn (F3), or a round may deal the whole deck (B3, B4);
    - ``bid_table``: the file in ``bots/`` of the heuristic's calibrated win chances
      (``experiments/calibrate_wizard_bids.py`` writes it for any game of the family);
    - ``cards_rule``: the option that sets a single round's cards each, and its value that leaves it open (advice
      takes the hand's size then);

    and has the options ``players``, ``plus_minus_one`` (B5; F4's hook), ``bidding`` ("open", "hidden" or "secret",
    B5), ``round_cards`` (a single round's cards each, or ``DRAW``), ``schedule_cards()`` and ``fixed_trumps()`` (a
    whole game's rounds: cards each, and a fixed trump suit or -2 to turn a card)."""

    deck: ClassVar[int]
    scoring: ClassVar[Scoring]
    keep_turned: ClassVar[bool]
    bid_table: ClassVar[str]
    cards_rule: ClassVar[tuple[str, int]]

    @property
    def max_cards(self) -> int:
        """B3/F3: the most cards a round deals each: the deck shared out, less a card to turn where one must be
        left."""
        return (self.deck.bit_count() - self.keep_turned) // self.players


@njit(cache=True, inline="always")
def is_wizard(card: int) -> bool:
    return 52 <= card < 56


@njit(cache=True, inline="always")
def is_jester(card: int) -> bool:
    return card >= 56


@njit(cache=True)
def legal_mask(hand: np.uint64, led: int) -> np.uint64:
    """B6/F5: with a led suit, a player holding it plays it (or a Wizard or Jester); otherwise anything. Branch-free
    past the lead: whether a hand can follow is a coin toss to the branch predictor (a tenth of random rounds); a
    table of what follows (a 64-bit constant ORed in per card cost Oh Hell's random rounds 6% more)."""
    if led < 0:
        return hand
    void = np.uint64(0) - np.uint64(hand & SUIT_MASK[led] == 0)  # all ones: the hand holds none of the led suit
    return hand & (FOLLOW_MASK[led] | void)


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
    """B7/F5 as one number; a card beats the trick so far if its key is higher (strictly).

    Wizards score highest, so the first Wizard keeps the trick (later ones only
    tie); trumps beat the led suit, which beats other suits (0); Jesters score
    0, so the first Jester wins an all-Jester trick. (The led suit + 1 as an unsigned index: numba's code for a
    negative index, on every card, cost Oh Hell's random rounds 4%.)
    """
    return KEY[trump + 1, np.uint64(led + 1), card]


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


def card_values(deck: int) -> np.ndarray:
    """float64[players - MIN_PLAYERS, trump + 1, card]: each card's worth in tricks against the cards of ``deck`` (0
    outside it), the rule-based bot's card values (Schumacher & Pleines). Against one other card of the deck, the
    share it beats when led (the cards that do not beat it) and when played second (the first cards it beats),
    averaged; to the power players - 1 (it must beat every other card of a trick); scaled so that the whole deck
    is worth (its cards) / players tricks, so a random hand of k cards is worth k / players on average. Two-card
    tricks are judged by the rules (``SECOND_BEATS_FIRST``)."""
    cards = np.array([c for c in range(DECK_SIZE) if deck >> c & 1])
    beats = SECOND_BEATS_FIRST[:, cards][:, :, cards]  # [trump + 1, first, second] within the deck
    size = len(cards)
    one = ((1 - beats.sum(axis=2) / size) + beats.sum(axis=1) / size) / 2
    values = np.zeros((MAX_PLAYERS - MIN_PLAYERS + 1, 5, DECK_SIZE))
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        p = one ** (players - 1)
        values[players - MIN_PLAYERS][:, cards] = p / p.sum(axis=1, keepdims=True) * size / players
    return values


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
def score(scoring: Scoring, bid: int, tricks: int) -> int:
    """B8/F6: the score of a seat that bid ``bid`` and took ``tricks``, by the coefficients of ``scoring``."""
    if bid == tricks:
        return scoring.made + scoring.made_per_trick * tricks
    return scoring.missed_per_trick * tricks - scoring.missed_per_off * abs(bid - tricks)


@njit(cache=True)
def score_range(scoring: Scoring, cards: int) -> tuple:
    """(lowest, highest) score a seat can get in a round of ``cards`` tricks (B8: -10 cards, 20 + 10 cards)."""
    low = high = score(scoring, 0, 0)
    for bid in range(cards + 1):
        for tricks in range(cards + 1):
            points = score(scoring, bid, tricks)
            low, high = min(low, points), max(high, points)
    return low, high


@njit(cache=True, inline="always")
def refused_bid(bids_so_far: int, cards: int, is_last: bool, plus_minus_one: bool) -> int:
    """B5 plus_minus_one (F4's hook): the bid the last bidder may not make (-1: none)."""
    if plus_minus_one and is_last and 0 <= cards - bids_so_far <= cards:
        return cards - bids_so_far
    return -1
