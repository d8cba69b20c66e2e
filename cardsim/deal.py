"""Dealing random hands from a bitmask deck, shared by every game's kernels.

Picking each card uniformly from the cards still in the deck (``nth_card`` on
the remaining mask) gives the same distribution as shuffling the whole deck
and dealing it out, with fewer random draws: the last hand (or the kitty)
is simply what remains.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from cardsim.cards import bit, nth_card, popcount
from cardsim.rng import below


class Work(NamedTuple):
    """One work item of a game's batch kernel: its units from ``start + block * size`` on (``size`` the game's
    units per item) of the experiment ``seed`` (the deal streams' key), single rounds or whole ``games``."""

    seed: np.uint64
    start: int
    games: bool
    block: np.uint64  # prange's index, unsigned as the parfor gives it (signed in the typing pass before it)


@njit(cache=True, inline="always")
def seat_after(seat: int, steps: int, players: int) -> int:
    """The seat ``steps`` (0..players) places after ``seat``: no division in the hot loops."""
    later = seat + steps
    return later - players if later >= players else later


@njit(cache=True, inline="always")
def draw_cards(rng: np.ndarray, stream: int, deck: np.uint64, count: int) -> np.uint64:
    """``count`` cards drawn uniformly without replacement from the bitmask ``deck``."""
    left = popcount(deck)
    if count == left:  # the last hand: no choice left
        return deck
    drawn = np.uint64(0)
    for _ in range(count):
        card = bit(nth_card(deck & ~drawn, below(rng, stream, left)))
        drawn |= card
        left -= 1
    return drawn


@njit(cache=True, inline="always")
def deal_hands(
    rng: np.ndarray, stream: int, deck: np.uint64, hands: np.ndarray, first: int, players: int, per_hand: int
) -> np.uint64:
    """Deal ``per_hand`` cards to each seat from ``first`` (0..players) on, in seat order; returns the undealt cards."""
    for i in range(players):
        hand = draw_cards(rng, stream, deck, per_hand)
        hands[seat_after(first, i, players)] = hand
        deck ^= hand
    return deck


@njit(cache=True, inline="always")
def deal_around(
    rng: np.ndarray, stream: int, deck: np.uint64, hands: np.ndarray, known_seat: int, first: int, players: int,
    per_hand: int,
) -> np.uint64:  # fmt: skip
    """``deal_hands`` for every seat but ``known_seat``, whose hand is already in ``hands`` (and not in ``deck``):
    the uniform completion of a deal around a known hand. Returns the undealt cards."""
    for i in range(players):
        seat = seat_after(first, i, players)
        if seat != known_seat:
            hand = draw_cards(rng, stream, deck, per_hand)
            hands[seat] = hand
            deck ^= hand
    return deck
