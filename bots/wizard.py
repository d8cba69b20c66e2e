"""Built-in compiled Wizard bots: ``random`` and ``heuristic`` here, the strong ``mc`` and ``ismcts`` in
``bots.wizard_strong``.

Three decisions: the trump suit when a Wizard is turned up (the dealer, B4),
the bid (B5) and the card (B6). A bot sees its own hand, the trump, the
cards on the table and, as the bidding option allows, the bids made.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cardsim.cards import lowest_card, nth_card, popcount
from cardsim.decisions import BID, TRUMP
from cardsim.games.wizard.rules import RANK_OF, SUIT_MASK, SUIT_OF, WIZARD_KEY, WIZARD_MASK, card_key, legal_mask
from cardsim.games.wizard.state import (
    CARDS,
    LED,
    PHASE,
    POS,
    TOP_KEY,
    TRUMP_SUIT,
    Params,
    State,
    refused_of,
)
from cardsim.lineup import FIRST_STRONG, Setting
from cardsim.rng import below

RANDOM, HEURISTIC = 0, 1
MC, ISMCTS = FIRST_STRONG, FIRST_STRONG + 1  # the strong bots (bots.wizard_strong)
BOT_IDS = {"random": RANDOM, "heuristic": HEURISTIC, "mc": MC, "ismcts": ISMCTS}
BOT_DOCS = {
    "random": "uniform bid 0..cards (an allowed one), uniform legal card, uniform trump suit",
    "heuristic": "bids the expected tricks of its Wizards, trumps and high cards; wins tricks while short of "
    "its bid, sheds winners and keeps Jesters to duck once it is made; names its strongest suit as trump",
    "mc": "Monte Carlo: bids and plays the card with the best mean score over deals sampled from what it has seen, "
    "each played out by the heuristic; names trump as the heuristic",
    "ismcts": "bids as mc; plays by information-set Monte Carlo tree search (one tree over sampled deals, every "
    "seat choosing by UCB, heuristic play-outs); names trump as the heuristic",
}
BOT_SETTINGS = {
    "mc": {
        "samples": Setting(64, 1, 4096, "deals sampled per card decision; cost ~ samples x legal cards x cards left"),
        "bid_samples": Setting(32, 1, 4096, "deals sampled per bid; cost ~ bid_samples x (cards + 1) x cards"),
    },
    "ismcts": {
        "iterations": Setting(200, 1, 100000, "sampled deals (tree iterations) per card; cost ~ iterations x cards"),
        "c": Setting(0.7, 0.0, 10.0, "UCB exploration constant (rewards are scores scaled to 0..1)", integer=False),
        "bid_samples": Setting(32, 1, 4096, "deals sampled per bid, as for mc"),
    },
}


@njit(cache=True)
def _suit_strength(hand: np.uint64, suit: int) -> int:
    """Length and height of a suit in the hand: each card counts 4 plus its rank."""
    total = 0
    m = hand & SUIT_MASK[suit]
    while m:
        total += 4 + RANK_OF[lowest_card(m)]
        m &= m - np.uint64(1)
    return total


@njit(cache=True)
def heuristic_trump(hand: np.uint64) -> int:
    """The hand's strongest suit."""
    best, best_strength = 0, -1
    for suit in range(4):
        strength = _suit_strength(hand, suit)
        if strength > best_strength:
            best, best_strength = suit, strength
    return best


@njit(cache=True)
def expected_tricks(hand: np.uint64, trump: int, players: int) -> float:
    """Rough expected tricks: Wizards, high trumps and aces of side suits, trump length and voids."""
    crowd = 4.0 / players  # more opponents, fewer tricks for a high card
    expected = 0.9 * popcount(hand & WIZARD_MASK)
    trumps = popcount(hand & SUIT_MASK[trump]) if trump >= 0 else 0
    for suit in range(4):
        m = hand & SUIT_MASK[suit]
        length = popcount(m)
        while m:
            rank = RANK_OF[lowest_card(m)] + 1  # 1..13
            m &= m - np.uint64(1)
            if suit == trump:
                expected += min(1.0, max(0.0, (rank - 7) / 6.0) + 0.08 * (trumps - 1)) * crowd**0.5
            elif rank >= 12:
                high = (0.7 if rank == 13 else 0.35) if trump < 0 else (0.5 if rank == 13 else 0.2)
                expected += high * crowd * (0.6 if length >= 4 else 1.0)
        if suit != trump and trump >= 0 and length == 0 and trumps >= 2:
            expected += 0.3  # a void lets a low trump win
    return expected


@njit(cache=True)
def heuristic_bid(hand: np.uint64, trump: int, players: int, cards: int, refused: int) -> int:
    """The expected tricks, rounded; the nearer allowed bid if that one is refused."""
    expected = expected_tricks(hand, trump, players)
    bid = min(cards, int(expected + 0.5))
    if bid == refused:
        bid = bid + 1 if (expected >= bid and bid < cards) or bid == 0 else bid - 1
    return bid


@njit(cache=True, inline="always")
def _strength(card: int, trump: int) -> int:
    """Wizards over trumps over other suit cards by rank; Jesters lowest."""
    if card >= 56:
        return -1
    if card >= 52:
        return WIZARD_KEY
    return (60 if SUIT_OF[card] == trump else 30) + RANK_OF[card]


@njit(cache=True)
def heuristic_play(legal: np.uint64, led: int, top_key: int, n_played: int, players: int, trump: int, need: int) -> int:
    """Win tricks while ``need`` (bid - tricks won) > 0; once the bid is made, duck and shed winners."""
    last = n_played == players - 1
    best, best_score = -1, -(10**9)
    m = legal
    while m:
        card = lowest_card(m)
        m &= m - np.uint64(1)
        strength = _strength(card, trump)
        if n_played == 0:  # leading: the strongest card to win, a Jester or the weakest to duck
            score = strength if need > 0 else -strength
        else:
            wins = card_key(card, led, trump) > top_key
            if need > 0:  # a winner (the cheapest when last, else the strongest), else a low card, Jesters kept
                if wins:
                    score = 1000 + (200 - strength if last else strength)
                else:
                    score = -strength if card < 56 else -500
            else:  # the strongest card that still loses (Jesters last), else the weakest winner
                if wins:
                    score = -strength
                else:
                    score = 1000 + strength if card < 56 else 900
        if score > best_score:
            best, best_score = card, score
    return best


@njit(cache=True, inline="always")
def choose_trump(bot: int, rng: np.ndarray, stream: int, hand: np.uint64) -> int:
    """The dealer's trump suit 0..3 when a Wizard is turned up (B4)."""
    if bot == RANDOM:
        return below(rng, stream, 4)
    return heuristic_trump(hand)


@njit(cache=True, inline="always")
def bid(
    bot: int, rng: np.ndarray, stream: int, hand: np.uint64, trump: int, players: int, cards: int, refused: int
) -> int:
    """A bid 0..cards other than ``refused`` (-1: none refused), B5."""
    if bot == RANDOM:
        choice = below(rng, stream, cards if refused >= 0 else cards + 1)
        return choice + 1 if 0 <= refused <= choice else choice
    return heuristic_bid(hand, trump, players, cards, refused)


@njit(cache=True, inline="always")
def play(
    bot: int,
    rng: np.ndarray,
    stream: int,
    legal: np.uint64,
    led: int,
    top_key: int,
    n_played: int,
    players: int,
    trump: int,
    need: int,
) -> int:
    """A card from ``legal`` (B6); ``top_key`` is the best ``card_key`` in the trick so far."""
    if bot == RANDOM:
        return nth_card(legal, below(rng, stream, popcount(legal)))
    return heuristic_play(legal, led, top_key, n_played, players, trump, need)


@njit(cache=True, inline="always")
def decide(bot: int, slots: np.ndarray, hands: np.ndarray, bids: np.ndarray, won: np.ndarray, rng: np.ndarray,
           plus_minus_one: bool, seat: int) -> int:  # fmt: skip
    """The action of built-in bot ``bot`` (RANDOM or HEURISTIC) for ``seat``, the seat to move, from its view: its
    hand, the public slots (trump, trick so far, bids made), its own tricks and its own stream ``1 + seat`` of
    ``rng`` (the State's arrays, unpacked once by the hot loops)."""
    d = slots[PHASE]
    if d == TRUMP:
        return choose_trump(bot, rng, 1 + seat, hands[seat])
    players, trump = hands.shape[0], slots[TRUMP_SUIT]
    if d == BID:
        no = refused_of(slots, players, plus_minus_one)
        return bid(bot, rng, 1 + seat, hands[seat], trump, players, slots[CARDS], no)
    legal = legal_mask(hands[seat], slots[LED])
    return play(bot, rng, 1 + seat, legal, slots[LED], slots[TOP_KEY], slots[POS], players, trump,
                bids[seat] - won[seat])  # fmt: skip


@njit(cache=True)
def act(bot: int, s: State, p: Params, seat: int) -> int:
    """The action of built-in bot ``bot`` for ``seat``, the seat to move (``decide`` on the State)."""
    return decide(bot, s.slots, s.hands, s.bids, s.won, s.rng, p.plus_minus_one, seat)
