"""The course of a call-partner deal: deal, auction, call, kitty, tricks (RULES.md C3-C9), and the bot protocol.

The compiled loops (``run_auction``, ``run_tricks``) play the built-in bots and
keep a deal's progress in one state array, so that they can stop at the turn
of a strong bot and go on with its answer: the drivers in ``game`` ask the
strong bots there, and the strong bots' own play-outs and the bid advice run
the same loops with built-in bots only. ``Observation`` and the answer checks
are the protocol of Python bots.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np
from numba import njit

import bots.callpartner as builtin
from cardsim.cards import FRENCH52, SUIT_SYMBOLS, bit
from cardsim.deal import deal_around, draw_cards
from cardsim.games.callpartner.rules import (
    DECK_SIZE,
    FULL_DECK,
    HAND_SIZE,
    KEY,
    KITTY_SIZE,
    MAX_BID,
    MAX_PLAYERS,
    MIN_BID,
    NO_SUIT,
    RANK_OF,
    SUIT_MASK,
    SUIT_OF,
    TWO,
    card_points,
    final_winner,
    legal_mask,
    score_deal,
)
from cardsim.lineup import FIRST_STRONG
from cardsim.protocol import Seat, card_index
from cardsim.rng import DEAL_STREAM, below, seed_streams

SUIT_LETTERS = "SHDC"
# C3 by number of players (index 0..MAX_PLAYERS): cards per hand and in the kitty, for the kernels.
HAND_OF = np.array([HAND_SIZE.get(p, 0) for p in range(MAX_PLAYERS + 1)], np.int64)
KITTY_OF = np.array([KITTY_SIZE.get(p, 0) for p in range(MAX_PLAYERS + 1)], np.int64)
ROUNDS_BLOCK, GAMES_BLOCK = 256, 32  # single deals / whole games per parallel work item


@njit(cache=True, inline="always")
def start_round(
    seed: np.uint64, unit: int, sub: int, dealer: int, players: int, rng: np.ndarray, hands: np.ndarray,
    known: int = -1,
):  # fmt: skip
    """Seed the streams, choose the dealer (random if < 0; drawn either way) and deal (C3).

    The kitty is drawn first, then the hands from the dealer's left: the same as dealing a shuffled deck.
    A seat ``known`` >= 0 keeps the hand already in ``hands[known]`` and the rest is dealt around it
    (a uniform completion of the unseen cards, for bid advice). Returns (dealer, kitty mask).
    """
    seed_streams(rng, seed, unit, sub, 1 + players)
    drawn = below(rng, DEAL_STREAM, players)
    if dealer < 0:
        dealer = drawn
    deck = FULL_DECK ^ hands[known] if known >= 0 else FULL_DECK
    kitty = draw_cards(rng, DEAL_STREAM, deck, KITTY_OF[players])
    deal_around(rng, DEAL_STREAM, deck ^ kitty, hands, known, dealer + 1, players, HAND_OF[players])
    return dealer, kitty


# A deal in progress as one int64 array (``new_state``), so that a driver can stop where a strong bot decides and
# go on with its answer. The auction: the seat to speak, passed seats (bits), seats still bidding, the highest bid,
# its bidder and trump. The tricks: cards played so far in the deal, the trick's leader, led suit, highest key and
# its seat, one suit so far, the seat that played a 2 (C8 rule 4), the trick's cards and the finished tricks' cards
# (masks), the called card played. Last the answer a driver gives for the seat it was asked about.
(SEAT, PASSED, ACTIVE, HIGH, DECLARER, TRUMP, CARDS_PLAYED, LEADER, LED, TOP_KEY, WINNER, ONE_SUIT, TWO_HOLDER,
 TRICK, PLAYED, REVEALED, ANSWERED, ANSWER, ANSWER_SUIT, STATE_SIZE) = range(20)  # fmt: skip


@njit(cache=True)
def new_state() -> np.ndarray:
    """An empty state of a deal (see STATE_SIZE)."""
    return np.zeros(STATE_SIZE, np.int64)


@njit(cache=True, inline="always")
def answer(state: np.ndarray, value: int, suit: int = 0) -> None:
    """The asked strong bot's decision: a card, or a bid (number, suit) with 0 for a pass."""
    state[ANSWER], state[ANSWER_SUIT], state[ANSWERED] = value, suit, 1


@njit(cache=True, inline="always")
def start_auction(state: np.ndarray, dealer: int, players: int) -> None:
    """C4: the auction opens left of the dealer."""
    state[SEAT] = dealer + 1 if dealer + 1 < players else 0
    state[PASSED], state[ACTIVE], state[HIGH], state[DECLARER], state[TRUMP] = 0, players, 0, -1, NO_SUIT
    state[ANSWERED] = 0


@njit(cache=True)
def run_auction(
    bots: np.ndarray, asking: bool, rng: np.ndarray, hands: np.ndarray, dealer: int, players: int, forced: bool,
    passer: int, state: np.ndarray,
) -> int:  # fmt: skip
    """C4 from ``state`` on with the built-in bots. Returns -1 when the auction is over (``state``: DECLARER, -1 when
    all passed, HIGH and TRUMP), or, if ``asking``, the seat of a strong bot whose turn it is: the driver puts its
    bid into the state (``answer``) and calls again. Seat ``passer`` (-1: none) passes at its turn whatever its
    bot would bid (bid advice: the result of passing)."""
    seat, passed, active = state[SEAT], state[PASSED], state[ACTIVE]
    high, declarer, trump = state[HIGH], state[DECLARER], state[TRUMP]
    while True:
        if not (passed >> seat) & 1:
            if seat == passer:
                number, suit = 0, 0
            elif asking and bots[seat, 0] >= FIRST_STRONG:
                if not state[ANSWERED]:
                    state[SEAT], state[PASSED], state[ACTIVE] = seat, passed, active
                    state[HIGH], state[DECLARER], state[TRUMP] = high, declarer, trump
                    return seat
                number, suit = state[ANSWER], state[ANSWER_SUIT]
                state[ANSWERED] = 0
            else:
                number, suit = builtin.bid(int(bots[seat, 0]), rng, 1 + seat, hands[seat], high, players)
            if number == 0:  # a pass is final
                passed |= 1 << seat
                active -= 1
            else:
                high, trump, declarer = number, suit, seat
            if high == MAX_BID or active == 0 or (declarer >= 0 and active == 1):
                break
        seat = seat + 1 if seat + 1 < players else 0
    if declarer < 0 and forced:  # all passed: the dealer declares 10 in a suit of choice
        declarer, high = dealer, MIN_BID
        trump = builtin.forced_trump(int(bots[dealer, 0]), rng, 1 + dealer, hands[dealer], players)
    state[HIGH], state[DECLARER], state[TRUMP] = high, declarer, trump
    return -1


@njit(cache=True)
def auction(
    bots: np.ndarray, rng: np.ndarray, hands: np.ndarray, dealer: int, players: int, forced: bool, passer: int
) -> tuple:  # fmt: skip
    """C4 with built-in bots only (strong ones bid as the heuristic): (declarer or -1 when all passed, bid, trump)."""
    state = new_state()
    start_auction(state, dealer, players)
    run_auction(bots, False, rng, hands, dealer, players, forced, passer, state)
    return state[DECLARER], state[HIGH], state[TRUMP]


@njit(cache=True, inline="always")
def take_contract(
    bots: np.ndarray, rng: np.ndarray, hands: np.ndarray, kitty: np.uint64, players: int, declarer: int, trump: int,
    discards_count: bool, called: int, discards: np.uint64,
) -> tuple:  # fmt: skip
    """C5, C6: the declarer's call, the kitty and the discards. ``called`` and ``discards``: a strong declarer's
    decisions, or -1 and empty to let its built-in bot decide. Returns (called card, partner or -1, discards)."""
    if called < 0:
        called = builtin.call(int(bots[declarer, 0]), rng, 1 + declarer, hands[declarer], trump)  # C5
    partner = -1
    for s in range(players):
        if (hands[s] >> np.uint64(called)) & np.uint64(1):
            partner = s
    hands[declarer] |= kitty  # C6
    if not discards:
        discards = builtin.discard(int(bots[declarer, 0]), rng, 1 + declarer, hands[declarer], KITTY_OF[players], trump,
                                   discards_count)  # fmt: skip
    hands[declarer] ^= discards
    return called, partner, discards


@njit(cache=True, inline="always")
def start_tricks(state: np.ndarray, dealer: int, players: int, points: np.ndarray) -> None:
    """C7: left of the dealer leads the first trick; nobody has points yet."""
    state[CARDS_PLAYED], state[LEADER] = 0, dealer + 1 if dealer + 1 < players else 0
    state[PLAYED], state[REVEALED], state[ANSWERED] = 0, 0, 0
    for s in range(players):
        points[s] = 0


@njit(cache=True)
def run_tricks(
    bots: np.ndarray, asking: bool, rng: np.ndarray, hands: np.ndarray, players: int, trump: int,
    declarer: int, partner: int, called: int, discards: np.uint64, points: np.ndarray, state: np.ndarray,
    log: np.ndarray,
) -> int:  # fmt: skip
    """C7, C8 from ``state`` on with the built-in bots: adds each trick's points to points[winner]. Returns -1 at
    the end of the deal, or, if ``asking``, the seat to play when it holds a strong bot or an answer is waiting: an
    answer waiting is played, else the driver puts the strong bot's card into the state (``answer``) and calls
    again; then the cards also go into ``log`` in play order.

    """
    k, leader, total = state[CARDS_PLAYED], state[LEADER], HAND_OF[players] * players
    led, top_key, winner, two_holder = state[LED], state[TOP_KEY], state[WINNER], state[TWO_HOLDER]
    one_suit = state[ONE_SUIT] != 0
    trick, played, revealed = np.uint64(state[TRICK]), np.uint64(state[PLAYED]), state[REVEALED] != 0
    pos = k % players
    seat = leader + pos if leader + pos < players else leader + pos - players
    while k < total:
        hand = hands[seat]
        if pos == 0:  # the lead: any card (C7)
            led, top_key, winner, one_suit, two_holder, trick = NO_SUIT, -1, seat, True, -1, np.uint64(0)
            legal = hand
        else:
            legal = hand & SUIT_MASK[led]  # C7: follow suit if able (rules.legal_mask, inlined)
            if not legal:
                legal = hand
        if asking and (state[ANSWERED] or bots[seat, 0] >= FIRST_STRONG):
            if not state[ANSWERED]:
                state[CARDS_PLAYED], state[LEADER], state[LED], state[TOP_KEY] = k, leader, led, top_key
                state[WINNER], state[ONE_SUIT], state[TWO_HOLDER] = winner, one_suit, two_holder
                state[TRICK], state[PLAYED], state[REVEALED] = np.int64(trick), np.int64(played), revealed
                return seat
            card = state[ANSWER]
            state[ANSWERED] = 0
        else:
            card = builtin.play(int(bots[seat, 0]), rng, 1 + seat, hand, legal, pos, players, trump, led, top_key,
                                winner, one_suit, two_holder, trick, seat, declarer, partner, revealed, played,
                                discards)  # fmt: skip
        hands[seat] = hand ^ bit(card)
        if asking:
            log[k] = card
        if pos == 0:
            led = SUIT_OF[card]
        trick |= bit(card)
        key = KEY[trump, card]  # C8, decided card by card (rule 4 at the end of the trick)
        winner = seat if key > top_key else winner
        top_key = max(key, top_key)
        one_suit = one_suit & (SUIT_OF[card] == led)
        two_holder = seat if RANK_OF[card] == TWO else two_holder
        revealed = revealed | (card == called)
        k += 1
        pos += 1
        if pos == players:
            winner = final_winner(winner, top_key, one_suit, two_holder)
            points[winner] += card_points(trick)
            played |= trick
            leader, seat, pos = winner, winner, 0
        else:
            seat = seat + 1 if seat + 1 < players else 0  # no division by a variable in the hot loop
    state[CARDS_PLAYED], state[LEADER], state[PLAYED], state[REVEALED] = k, leader, np.int64(played), revealed
    return -1


@njit(cache=True)
def random_tricks(
    rng: np.ndarray, hands: np.ndarray, players: int, trump: int, leader: int, points: np.ndarray
) -> None:  # fmt: skip
    """C7, C8 when every seat holds the random bot: the whole deal from ``leader`` on, a trick at a time, a lead and
    then the followers (the loop of ``run_tricks``, which can stop at any card for a strong bot, cost random lineups
    a third of their speed)."""
    played = np.uint64(0)
    for _ in range(HAND_OF[players]):
        seat = leader
        card = builtin.play(builtin.RANDOM, rng, 1 + seat, hands[seat], hands[seat], 0, players, trump, NO_SUIT, -1,
                            seat, True, -1, np.uint64(0), seat, -1, -1, False, played, np.uint64(0))  # fmt: skip
        hands[seat] ^= bit(card)
        trick, led = bit(card), SUIT_OF[card]
        top_key, winner = KEY[trump, card], seat
        one_suit, two_holder = True, seat if RANK_OF[card] == TWO else -1
        for _ in range(1, players):
            seat = seat + 1 if seat + 1 < players else 0
            legal = legal_mask(hands[seat], led)
            card = builtin.play(builtin.RANDOM, rng, 1 + seat, hands[seat], legal, 1, players, trump, led, top_key,
                                winner, one_suit, two_holder, trick, seat, -1, -1, False, played,
                                np.uint64(0))  # fmt: skip
            hands[seat] ^= bit(card)
            trick |= bit(card)
            key = KEY[trump, card]
            winner = seat if key > top_key else winner
            top_key = max(key, top_key)
            one_suit = one_suit & (SUIT_OF[card] == led)
            two_holder = seat if RANK_OF[card] == TWO else two_holder
        winner = final_winner(winner, top_key, one_suit, two_holder)
        points[winner] += card_points(trick)
        played |= trick
        leader = winner


@njit(cache=True, inline="always")
def play_contract(
    bots: np.ndarray, random_only: bool, rng: np.ndarray, hands: np.ndarray, kitty: np.uint64, dealer: int,
    players: int, declarer: int, bid: int, trump: int, discards_count: bool, points: np.ndarray, scores: np.ndarray,
) -> tuple:  # fmt: skip
    """C5-C9 once the auction is won, with built-in bots only (strong ones play as the heuristic): the call, the
    kitty and discards, the tricks and the scores. Fills points/scores[seat]; returns (called card, partner or -1,
    side points). The built-in bots' call, discards and play do not look at the bid number (only the scores do)."""
    called, partner, discards = take_contract(bots, rng, hands, kitty, players, declarer, trump, discards_count, -1,
                                              np.uint64(0))  # fmt: skip
    state, log = new_state(), np.empty(DECK_SIZE, np.int64)
    start_tricks(state, dealer, players, points)
    if random_only:
        random_tricks(rng, hands, players, trump, state[LEADER], points)
    else:
        run_tricks(bots, False, rng, hands, players, trump, declarer, partner, called, discards, points, state, log)
    side = score_deal(players, declarer, partner, bid, points, card_points(discards), discards_count, scores)
    return called, partner, side


@njit(cache=True)
def new_scratch() -> tuple:
    """Working arrays for one deal: rng states, hands, trick points, scores, game totals."""
    return (
        np.empty((MAX_PLAYERS + 1, 4), np.uint64),
        np.empty(MAX_PLAYERS, np.uint64),
        np.empty(MAX_PLAYERS, np.int64),
        np.empty(MAX_PLAYERS, np.int64),
        np.empty(MAX_PLAYERS, np.int64),
    )


# --- the Python driver and the bot protocol ---------------------------------


@dataclass(frozen=True)
class Bid:
    """One call of the auction: ``bid`` None is a pass (then ``trump`` is None too)."""

    seat: int
    bid: int | None
    trump: str | None


@dataclass(frozen=True)
class Trick:
    """One finished trick: who led, the cards in play order, who won, its points."""

    leader: int
    cards: tuple[str, ...]
    winner: int
    points: int


@dataclass
class Observation:
    """What one seat may see when it decides: passed to a Python bot.

    ``decision`` is ``"bid"``, ``"call"``, ``"discard"`` or ``"play"``. Cards are canonical names (``"SA"``,
    ``"HT"``), suits the letters ``S H D C``. ``legal`` lists the cards the seat may call, discard or play now
    (empty for a bid). ``partner`` is the partner's seat once this seat knows it (the partner knows at
    once, everybody when the called card is played); ``partner_known`` is also true when this seat knows
    there is no partner (the declarer finding the called card in the kitty). ``kitty`` and ``discards`` are
    seen by the declarer only, otherwise None.
    """

    decision: str
    seat: int
    dealer: int
    players: int
    hand: list[str]
    legal: list[str]
    auction: list[Bid]
    high_bid: int | None
    min_bid: int
    forced: bool
    declarer: int | None
    bid: int | None
    trump: str | None
    called_card: str | None
    partner: int | None
    partner_known: bool
    kitty: list[str] | None
    discards: list[str] | None
    discard_count: int
    trick: list[str]
    trick_leader: int
    tricks: list[Trick]
    points: list[int]
    rng: random.Random
    seed: int
    round: int
    game_round: int


@dataclass
class RoundRecord:
    """Everything that happened in one deal (for replay and Python-bot runs)."""

    dealer: int
    hands: list[int]
    kitty: int
    auction: list[Bid] = field(default_factory=list)
    declarer: int = -1
    bid: int = 0
    trump: int = NO_SUIT
    called: int = -1
    partner: int = -1
    discards: int = 0
    tricks: list[Trick] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    side_points: int = 0
    made: bool = False
    scores: list[int] = field(default_factory=list)


def checked_bid(answer, min_bid: int, forced: bool, seat: Seat, decision: str) -> tuple[int, int]:
    """A Python bot's bid as (number, suit), (0, 0) for a pass (None), else a clear error (C4, D2)."""
    if answer is None and not forced:
        return 0, 0
    if isinstance(answer, (tuple, list)) and len(answer) == 2:
        number, suit = answer
        letter = SUIT_SYMBOLS.get(suit.strip(), suit.strip().upper()) if isinstance(suit, str) else ""
        top = MIN_BID if forced else MAX_BID
        if (isinstance(number, (int, np.integer)) and not isinstance(number, bool) and min_bid <= number <= top
                and len(letter) == 1 and letter in SUIT_LETTERS):  # fmt: skip
            return int(number), SUIT_LETTERS.index(letter)
    if forced:
        allowed = f"({MIN_BID}, suit) with a suit S, H, D or C: all passed, the dealer declares {MIN_BID}"
    else:
        allowed = f"None (pass) or (number, suit) with a number from {min_bid} to {MAX_BID} and a suit S, H, D or C"
    raise seat.error(decision, f"bid {answer!r}; allowed: {allowed}")


def checked_call(answer, hand: int, seat: Seat) -> int:
    """The called card if it is a card outside the declarer's hand, else a clear error (C5, D2)."""
    card = card_index(answer, FRENCH52)
    if card < 0 or hand >> card & 1:
        problem = "which is in its own hand" if card >= 0 else "which is not a card"
        shown = FRENCH52.name_of(card) if card >= 0 else repr(answer)
        raise seat.error("call", f"called {shown}, {problem}; allowed: any card not in its hand")
    return card


def checked_discards(answer, hand: int, count: int, seat: Seat) -> int:
    """The discards as a mask if they are ``count`` different cards of the hand, else a clear error (C6, D2)."""
    cards = [card_index(c, FRENCH52) for c in answer] if isinstance(answer, (list, tuple)) else []
    mask = sum(1 << c for c in set(cards) if c >= 0)
    if len(cards) != count or len(set(cards)) != count or min(cards, default=-1) < 0 or mask & ~hand:
        raise seat.error(
            "discard", f"discarded {answer!r}; allowed: a list of {count} different cards of its hand with the "
            f"kitty: {FRENCH52.names(hand)}"
        )  # fmt: skip
    return mask
