"""The course of a Wizard round and game: deal, trump, bids, tricks, scores (RULES.md B2-B9).

As for Differenzler, a compiled driver (``play_round``: deal and trump, then
``play_dealt``, which bid advice also uses with a forced bid; and the batch
kernels) plays lineups of built-in bots, and a plain-Python driver (``play_round_py``)
plays the same rounds when a seat holds a Python bot; both draw the same
random numbers in the same order.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np
from numba import njit, prange

import bots.wizard as builtin
import bots.wizard_strong as strong
from cardsim.cards import WIZARD60, bit, nth_card, popcount
from cardsim.deal import deal_hands, seat_after
from cardsim.games.wizard.rules import (
    DECK_SIZE,
    FULL_DECK,
    MAX_PLAYERS,
    NO_SUIT,
    SUIT_OF,
    card_key,
    is_wizard,
    led_after,
    legal_mask,
    refused_bid,
    score,
)
from cardsim.protocol import Seat, ask, checked_card, checked_number
from cardsim.rng import DEAL_STREAM, below, seed_streams, stream_seed

BLOCK = 64  # rounds or games per parallel work item
TURN_A_CARD = -2  # fixed_trump value: no fixed trump, turn up the next card (B4)
SUIT_LETTERS = "SHDC"
BIDDING = ("open", "hidden", "secret")  # B5, as the kernels' ``bidding`` code 0, 1, 2
OPEN, SECRET = 0, 2


@njit(cache=True, inline="always")
def start_round(
    seed: np.uint64, unit: int, sub: int, dealer: int, players: int, cards: int, rng: np.ndarray, hands: np.ndarray
) -> tuple:
    """Seed the streams, choose the dealer (random if < 0; drawn either way), deal (B3), turn up a card (B4).

    Returns (dealer, turned card or -1 when none is left).
    """
    seed_streams(rng, seed, unit, sub, 1 + players)
    drawn = below(rng, DEAL_STREAM, players)
    if dealer < 0:
        dealer = drawn
    rest = deal_hands(rng, DEAL_STREAM, FULL_DECK, hands, dealer + 1, players, cards)
    turned = nth_card(rest, below(rng, DEAL_STREAM, popcount(rest))) if rest else -1
    return dealer, turned


@njit(cache=True, inline="always")
def play_round(
    seed: np.uint64,
    unit: int,
    sub: int,
    dealer: int,
    players: int,
    cards: int,
    fixed_trump: int,
    plus_minus_one: bool,
    bidding: int,
    bots: np.ndarray,
    strong_bots: np.ndarray | None,
    rng: np.ndarray,
    hands: np.ndarray,
    bids: np.ndarray,
    tricks: np.ndarray,
    scores: np.ndarray,
    log: np.ndarray,
) -> tuple:
    """One round with built-in bots: deal, trump (B4), then ``play_dealt``; fills bids/tricks/scores[seat].

    Returns (dealer, turned card, trump suit).
    """
    dealer, turned = start_round(seed, unit, sub, dealer, players, cards, rng, hands)
    trump = NO_SUIT
    if fixed_trump != TURN_A_CARD:
        trump = fixed_trump
    elif turned >= 0 and is_wizard(turned):
        trump = builtin.choose_trump(int(bots[dealer, 0]), rng, 1 + dealer, hands[dealer])
    elif turned >= 0:
        trump = SUIT_OF[turned]  # a Jester has no suit: no trump
    play_dealt(dealer, players, cards, trump, turned, plus_minus_one, bidding, bots, strong_bots, -1, 0, rng, hands,
               bids, tricks, scores, log)  # fmt: skip
    return dealer, turned, trump


@njit(cache=True, inline="always")
def play_dealt(
    dealer: int,
    players: int,
    cards: int,
    trump: int,
    turned: int,
    plus_minus_one: bool,
    bidding: int,
    bots: np.ndarray,
    strong_bots: np.ndarray | None,
    forced_seat: int,
    forced_bid: int,
    rng: np.ndarray,
    hands: np.ndarray,
    bids: np.ndarray,
    tricks: np.ndarray,
    scores: np.ndarray,
    log: np.ndarray,
) -> bool:
    """Play a dealt round (``hands``, streams in ``rng``, ``trump`` known) with built-in bots: bids, tricks, scores.

    Seat ``forced_seat`` (-1: none) bids ``forced_bid`` instead of asking its bot,
    which then plays towards it (bid advice). Returns False, without playing,
    when that bid is the one ``plus_minus_one`` refuses the dealer. ``log`` gets
    the plays as rows (seat, card); strong bots see it, the turned card and the
    bids ``bidding`` lets them see, besides their own hand. ``strong_bots`` is
    None (no log, and numba compiles no strong bot) or the bot table
    (``Lineup.strong_table``).
    """
    total = 0
    for i in range(players):  # B5: from the dealer's left; the dealer bids last
        seat = seat_after(dealer, 1 + i, players)
        refused = refused_bid(total, cards, i == players - 1, plus_minus_one)
        if seat == forced_seat:
            if forced_bid == refused:
                return False
            bids[seat] = forced_bid
        elif strong_bots is not None and strong_bots[seat, 0] >= builtin.MC:
            bids[seat] = strong.bid(strong_bots[seat], rng, 1 + seat, seat, hands[seat], dealer, players, cards, trump,
                                    turned, bids, i if bidding == OPEN else 0, plus_minus_one)  # fmt: skip
        else:
            bids[seat] = builtin.bid(int(bots[seat, 0]), rng, 1 + seat, hands[seat], trump, players, cards, refused)
        total += bids[seat]
        tricks[seat] = 0
    leader = seat_after(dealer, 1, players)
    n_played = 0
    for _ in range(cards):
        led, decided, top_key, winner = NO_SUIT, False, -1, leader
        seat = leader
        for i in range(players):
            legal = legal_mask(hands[seat], led)
            need = bids[seat] - tricks[seat]
            if strong_bots is not None and strong_bots[seat, 0] >= builtin.MC:
                card = strong.play(strong_bots[seat], rng, 1 + seat, seat, hands[seat], legal, players, cards, trump,
                                   turned, bids, bidding != SECRET, tricks, log, n_played)  # fmt: skip
            else:
                card = builtin.play(int(bots[seat, 0]), rng, 1 + seat, legal, led, top_key, i, players, trump, need)
            if strong_bots is not None:
                log[n_played, 0], log[n_played, 1] = seat, card
                n_played += 1
            hands[seat] ^= bit(card)
            led, decided = led_after(led, decided, card)
            key = card_key(card, led, trump)  # B7, decided card by card
            if key > top_key:
                top_key, winner = key, seat
            seat = seat + 1 if seat + 1 < players else 0  # no division by a variable in the hot loop
        tricks[winner] += 1
        leader = winner
    for s in range(players):
        scores[s] = score(bids[s], tricks[s])
    return True


@njit(cache=True)
def new_scratch() -> tuple:
    """Working arrays for one round: rng states, hands, bids, tricks, scores, the log of plays (seat, card)."""
    return (
        np.empty((MAX_PLAYERS + 1, 4), np.uint64),
        np.empty(MAX_PLAYERS, np.uint64),
        np.empty(MAX_PLAYERS, np.int64),
        np.empty(MAX_PLAYERS, np.int64),
        np.empty(MAX_PLAYERS, np.int64),
        np.empty((DECK_SIZE, 2), np.int64),
    )


@njit(parallel=True, nogil=True, cache=True)  # nogil: the runner writes the last chunk meanwhile
def simulate_games(
    seed: np.uint64,
    start: int,
    schedule: np.ndarray,
    fixed_trumps: np.ndarray,
    plus_minus_one: bool,
    bidding: int,
    bots: np.ndarray,
    strong_bots: np.ndarray | None,
    dealers: np.ndarray,
    turned: np.ndarray,
    trumps: np.ndarray,
    bids: np.ndarray,
    tricks: np.ndarray,
    scores: np.ndarray,
) -> None:
    """Units ``start ..`` in parallel, each a game of ``len(schedule)`` rounds (round r deals schedule[r] cards;
    stream (seed, unit, r)). A single round is a one-round schedule. Out arrays are [unit, round, (seat)].
    ``strong_bots``: see ``play_dealt``."""
    count, players = dealers.shape[0], bots.shape[0]
    for block in prange((count + BLOCK - 1) // BLOCK):
        rng, hands, bid, won, points, log = new_scratch()
        for u in range(block * BLOCK, min(count, (block + 1) * BLOCK)):
            for r in range(schedule.shape[0]):
                dealer = -1 if r == 0 else (dealers[u, 0] + r) % players  # B2: the deal rotates (once a round)
                dealers[u, r], turned[u, r], trumps[u, r] = play_round(
                    seed, start + u, r, dealer, players, schedule[r], fixed_trumps[r], plus_minus_one, bidding,
                    bots, strong_bots, rng, hands, bid, won, points, log,
                )  # fmt: skip
                for s in range(players):
                    bids[u, r, s], tricks[u, r, s], scores[u, r, s] = bid[s], won[s], points[s]


# --- the Python driver and the bot protocol ---------------------------------


@dataclass(frozen=True)
class Trick:
    """One finished trick: who led, the cards in play order, who won."""

    leader: int
    cards: tuple[str, ...]
    winner: int


@dataclass
class Observation:
    """What one seat may see when it decides: passed to a Python bot.

    Cards are canonical names (``"H13"``, ``"W1"``, ``"J2"``); suits are
    ``"S" "H" "D" "C"`` (the seed's four races, in that order: dwarves, elves,
    giants, humans), ``None`` for no trump. ``bids`` holds the bids this seat
    may see under the ``bidding`` option (its own always), others None.
    ``legal`` is empty except when playing; ``refused`` is the one bid the
    dealer may not make under ``plus_minus_one`` (else None).
    """

    seat: int
    dealer: int
    players: int
    cards: int
    trump: str | None
    turned_card: str | None
    hand: list[str]
    legal: list[str]
    bids: list[int | None]
    refused: int | None
    trick: list[str]
    trick_leader: int
    tricks: list[Trick]
    tricks_won: list[int]
    rng: random.Random
    seed: int
    round: int
    game_round: int


@dataclass
class RoundRecord:
    """Everything that happened in one round (for replay and Python-bot runs)."""

    dealer: int
    cards: int
    turned: int
    trump: int
    hands: list[int]
    bids: list[int]
    tricks: list[Trick] = field(default_factory=list)
    tricks_won: list[int] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)


def play_round_py(
    seed: int,
    unit: int,
    sub: int,
    in_game: bool,
    dealer: int,
    cards: int,
    fixed_trump: int,
    rules,
    lineup: list,
    names: list[str],
    table: np.ndarray,
) -> RoundRecord:
    """One round in plain Python; ``lineup[seat]`` is a built-in bot id (int) or a Python bot object, ``table`` the
    lineup's bot table (the built-in bots' settings)."""
    players = rules.players
    rng, hands, bids, won, _, log = new_scratch()
    dealer, turned = (int(x) for x in start_round(np.uint64(seed), unit, sub, dealer, players, cards, rng, hands))
    rec = RoundRecord(dealer, cards, turned, NO_SUIT, [int(h) for h in hands[:players]], [0] * players)
    seats = [Seat(names[s], s, "wizard", seed, unit, sub, in_game) for s in range(players)]
    python_rngs = {s: random.Random(stream_seed(seed, unit, sub, 1 + s)) for s in range(players)}
    tricks_won = [0] * players

    def observe(seat: int, legal: int, trick: list[int], leader: int, bids: list, refused: int = -1) -> Observation:
        return Observation(
            seat, dealer, players, cards, SUIT_LETTERS[rec.trump] if rec.trump >= 0 else None,
            WIZARD60.name_of(turned) if turned >= 0 else None, WIZARD60.names(int(hands[seat])).split(),
            WIZARD60.names(legal).split(), bids, refused if refused >= 0 else None,
            [WIZARD60.name_of(c) for c in trick], leader, list(rec.tricks), list(tricks_won), python_rngs[seat],
            seed, unit, sub,
        )  # fmt: skip

    if fixed_trump != TURN_A_CARD:
        rec.trump = fixed_trump
    elif turned >= 0 and is_wizard(turned):  # B4: the dealer names a suit
        bot = lineup[dealer]
        if isinstance(bot, int):
            rec.trump = int(builtin.choose_trump(bot, rng, 1 + dealer, hands[dealer]))
        else:
            answer = ask(bot.choose_trump, observe(dealer, 0, [], dealer, [None] * players), seats[dealer], "trump")
            if not isinstance(answer, str) or answer.upper() not in tuple(SUIT_LETTERS):
                raise seats[dealer].error("trump", f"named {answer!r}; allowed: one of S, H, D, C")
            rec.trump = SUIT_LETTERS.index(answer.upper())
    elif turned >= 0:
        rec.trump = int(SUIT_OF[turned])
    trump = rec.trump

    total = 0
    for i in range(players):
        seat = (dealer + 1 + i) % players
        refused = int(refused_bid(total, cards, i == players - 1, rules.plus_minus_one))
        bot = lineup[seat]
        if isinstance(bot, int) and bot >= builtin.MC:
            n_seen = i if rules.bidding == "open" else 0
            bid = int(strong.bid(table[seat], rng, 1 + seat, seat, hands[seat], dealer, players, cards, trump, turned,
                                 bids, n_seen, rules.plus_minus_one))  # fmt: skip
        elif isinstance(bot, int):
            bid = int(builtin.bid(bot, rng, 1 + seat, hands[seat], trump, players, cards, refused))
        else:
            visible = list(rec.bids) if rules.bidding == "open" else [None] * players
            for s in range(players):
                if (s - dealer - 1) % players >= i:  # not bid yet
                    visible[s] = None
            answer = ask(bot.bid, observe(seat, 0, [], seat, visible, refused), seats[seat], "bid")
            allowed = [b for b in range(cards + 1) if b != refused]
            bid = checked_number(answer, allowed if refused >= 0 else range(cards + 1), "bid", seats[seat], "bid")
        rec.bids[seat] = bids[seat] = bid
        total += bid
    won[:] = 0
    n_played = 0

    leader = (dealer + 1) % players
    for t in range(cards):
        led, decided, top_key, winner = NO_SUIT, False, -1, leader
        trick: list[int] = []
        for i in range(players):
            seat = (leader + i) % players
            legal = int(legal_mask(hands[seat], led))
            need = rec.bids[seat] - tricks_won[seat]
            bot = lineup[seat]
            if isinstance(bot, int) and bot >= builtin.MC:
                card = int(strong.play(table[seat], rng, 1 + seat, seat, hands[seat], np.uint64(legal), players, cards,
                                       trump, turned, bids, rules.bidding != "secret", won, log, n_played))  # fmt: skip
            elif isinstance(bot, int):
                card = int(builtin.play(bot, rng, 1 + seat, np.uint64(legal), led, top_key, i, players, trump, need))
            else:
                visible = [b if rules.bidding != "secret" or s == seat else None for s, b in enumerate(rec.bids)]
                decision = f"trick {t + 1}, card {i + 1}"
                answer = ask(bot.play, observe(seat, legal, trick, leader, visible), seats[seat], decision)
                card = checked_card(answer, legal, WIZARD60, seats[seat], decision)
            log[n_played] = seat, card
            n_played += 1
            hands[seat] ^= bit(card)
            trick.append(card)
            led, decided = (int(x) for x in led_after(led, decided, card))
            key = int(card_key(card, led, trump))
            if key > top_key:
                top_key, winner = key, seat
        tricks_won[winner] += 1
        won[winner] += 1
        rec.tricks.append(Trick(leader, tuple(WIZARD60.name_of(c) for c in trick), winner))
        leader = winner
    rec.tricks_won = tricks_won
    rec.scores = [int(score(rec.bids[s], tricks_won[s])) for s in range(players)]
    return rec
