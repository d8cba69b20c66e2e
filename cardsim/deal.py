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
    drawn, draws, left = _hand_to_draw(deck, count)
    for k in range(draws):
        drawn |= draw_card(rng, stream, deck & ~drawn, left - k)
    return drawn


@njit(cache=True, inline="always")
def draw_card(rng: np.ndarray, stream: int, deck: np.uint64, left: int) -> np.uint64:
    """One card (as a bit) drawn uniformly from the ``left`` cards of ``deck``."""
    return bit(nth_card(deck, below(rng, stream, left)))


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
def deal_hands_pair(rng: np.ndarray, other: np.ndarray, stream: int, deck: np.uint64, hands: np.ndarray,
                    other_hands: np.ndarray, first: int, other_first: int, players: int, per_hand: int,
                    other_per_hand: int) -> tuple:  # fmt: skip
    """``deal_hands`` of two deals at once (the second's streams, hands, first seat and size: ``other...``), a
    card of each in turn: each deal draws from its own streams in its own order, so each gets the cards
    ``deal_hands`` deals it, but two chains of dependent draws keep the CPU busier than one. Returns both rests."""
    rest, other_rest = deck, deck
    for i in range(players):
        hand, draws, left = _hand_to_draw(rest, per_hand)
        other_hand, other_draws, other_left = _hand_to_draw(other_rest, other_per_hand)
        for k in range(max(draws, other_draws)):
            if k < draws:
                hand |= draw_card(rng, stream, rest & ~hand, left - k)
            if k < other_draws:
                other_hand |= draw_card(other, stream, other_rest & ~other_hand, other_left - k)
        hands[seat_after(first, i, players)] = hand
        other_hands[seat_after(other_first, i, players)] = other_hand
        rest ^= hand
        other_rest ^= other_hand
    return rest, other_rest


@njit(cache=True, inline="always")
def _hand_to_draw(deck: np.uint64, count: int) -> tuple:
    """(the hand so far, the draws to make, the cards left) for a hand of ``count`` from ``deck``: the last hand
    takes what remains, with no draw (``draw_cards``, ``deal_hands_pair``)."""
    left = popcount(deck)
    if count == left:  # no choice left
        return deck, 0, left
    return np.uint64(0), count, left


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
