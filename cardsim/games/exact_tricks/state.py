"""The one round state machine of the exact-tricks family (RULES.md B3-B8, F3-F6): deal and turned card, the
dealer's trump when a Wizard is turned, bids from the dealer's left, tricks, scores; over the rule data of
``Params`` (the deck, the score's coefficients, the round sizes), so that every game of the family is a
configuration of it (Wizard: ``cardsim.games.wizard``).

Every driver is a loop over these functions: the batch kernel (``play.simulate_games``), the plain-Python driver
(the game's hooks in its ``game.py``), Wizard's bid advice completions (``cardsim/games/wizard/advise.py``) and the
strong bots' play-outs and searches (``bots.exact_tricks_strong``, over ``play_card``, the register-level card step
that ``apply`` itself uses). Nothing else advances a bid or a trick. The strong bots decide from ``observe(s, p,
seat)``, the seat's view as a State, and draw from ``bot_stream(s, seat)``, the seat's private stream;
``copy_state`` copies a round and ``scores(s, p, out)`` scores it, as in every game.

State (a NamedTuple of fixed-shape arrays; ``players`` = the round's number of players, 3..7; arrays are sized
for ``players``, not MAX_PLAYERS, so that a copy is the round and nothing more)::

    slots    int64[SLOTS]           the scalars of the round, indexed by the slot names below
    hands    uint64[players]        the cards each seat still holds (WIZARD60 bit masks)
    dealt    uint64[players]        the hands as dealt (the replay record)
    bids     int64[players]         each seat's bid, -1 until it has bid
    won      int64[players]         tricks taken so far
    log      int64[DECK_SIZE, 2]    the cards played, rows (seat, card) in play order, N_PLAYED rows used
    rng      uint64[players + 1, 4] the round's shared streams: 0 deals, 1 + seat the built-in random/heuristic bot
    bot_rng  uint64[players, 4]     the strong bots' private streams (one-way from the round key: ``bot_stream``)

Slots::

    PHASE     decision code of ``cardsim.decisions`` (TRUMP, BID, CARD), DONE (-1) when the round is over
    MOVER     the seat to act, -1 when over
    DEALER    the dealer (bids last; the seat after leads the first trick)
    PLAYERS   number of players
    CARDS     cards dealt to each seat (B3, F3)
    TURNED    the turned card (B4, F3), -1 when none is left
    TRUMP     trump suit 0..3 (S H D C), -1 none (also while the dealer is still to name it)
    N_BIDS    bids made so far (the bidding position of the seat to bid)
    BID_TOTAL sum of the bids made
    LEADER    leader of the current trick
    POS       cards played to the current trick
    LED       led suit of the current trick, -1 none (yet)
    DECIDED   1 once a non-Jester card has settled the led suit (B6)
    TOP_KEY   the best ``card_key`` in the trick so far, -1 none
    WINNER    the seat winning the trick so far
    N_PLAYED  cards played in the round (rows of ``log``)
    TRICK     tricks finished
    SEED, UNIT, SUB   the round key (seed as int64 bits): for the strong bots' private streams, seeded on first use;
              ``observe`` blanks them
    BOT_SEEDED  bit ``seat`` set once ``bot_rng[seat]`` is seeded

Actions are ints: a bid as itself (0..cards), a card as its WIZARD60 index (0..59), a trump suit 0..3 (S H D C).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import NamedTuple

import numpy as np
from numba import njit

import bots
import cardsim.audit as audit
from cardsim.arrays import copy_items, copy_rows
from cardsim.cards import bit, lowest_card, nth_card, popcount
from cardsim.deal import deal_hands, deal_hands_pair, seat_after
from cardsim.decisions import BID, CARD, DONE, TRUMP
from cardsim.errors import CardsimError
from cardsim.games.exact_tricks.rules import (
    DECK_SIZE,
    DRAW,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NO_SUIT,
    SUIT_OF,
    TURN_A_CARD,
    Scoring,
    card_values,
    is_wizard,
    legal_mask,
    refused_bid,
    score,
    trick_step,
)
from cardsim.rng import DEAL_STREAM, below, seed_bot_stream, seed_streams

BIDDING = ("open", "hidden", "secret")  # B5, as Params.bidding 0, 1, 2
OPEN, HIDDEN, SECRET = 0, 1, 2

(PHASE, MOVER, DEALER, PLAYERS, CARDS, TURNED, TRUMP_SUIT, N_BIDS, BID_TOTAL, LEADER, POS, LED, DECIDED, TOP_KEY,
 WINNER, N_PLAYED, TRICK, SEED, UNIT, SUB, BOT_SEEDED, SLOTS) = range(22)  # fmt: skip


class State(NamedTuple):
    """One round (see the module docstring for the slots and shapes)."""

    slots: np.ndarray
    hands: np.ndarray
    dealt: np.ndarray
    bids: np.ndarray
    won: np.ndarray
    log: np.ndarray
    rng: np.ndarray
    bot_rng: np.ndarray


class Params(NamedTuple):
    """The rules the kernels read: a game of the family as data (``params``)."""

    players: int
    plus_minus_one: bool  # B5 (F4's hook): the dealer may not make the bids add up to the cards
    bidding: int  # B5: OPEN, HIDDEN or SECRET
    schedule: np.ndarray  # int64[rounds]: the cards each of round ``sub`` that ``deal`` deals, DRAW: 1..max_cards
    fixed_trumps: np.ndarray  # int64[rounds]: round ``sub``'s trump fixed by the schedule (B10), or TURN_A_CARD
    deck: np.uint64  # the cards in play (B1, F1)
    max_cards: int  # the most cards a round deals each (B3, F3): the top of a drawn round size
    # B8/F6: the coefficients of ``rules.Scoring`` (``scoring(p)``), flat: numba's parallel loops take no tuple in one
    made: int
    made_per_trick: int
    missed_per_trick: int
    missed_per_off: int
    tables: np.ndarray  # float64[players - 3, TABLE_ROWS, 60], read-only: the built-in bots' (``bot_tables``)


def params(rules, games: bool = False, bid_table: np.ndarray | None = None) -> Params:
    """The Params of ``rules`` (a game's ``ExactTricksRules``): the game's schedule with ``games``, else one single
    round; ``bid_table``: the heuristic's bid table (``bot_tables``), else the game's calibrated one (its rules'
    ``bid_table``)."""
    if games:
        schedule, fixed = rules.schedule_cards(), rules.fixed_trumps()
    else:
        schedule, fixed = (rules.round_cards,), (TURN_A_CARD,)
    deck = rules.deck
    tables = calibrated_tables(rules.bid_table, deck) if bid_table is None else bot_tables(bid_table, deck)
    return Params(rules.players, rules.plus_minus_one, BIDDING.index(rules.bidding), np.array(schedule, np.int64),
                  np.array(fixed, np.int64), np.uint64(deck), rules.max_cards, *rules.scoring, tables)  # fmt: skip


@njit(cache=True, inline="always")
def scoring(p: Params) -> Scoring:
    """The score's coefficients of ``p`` (B8, F6), for ``rules.score``."""
    return Scoring(p.made, p.made_per_trick, p.missed_per_trick, p.missed_per_off)


def table_path(name: str) -> Path:
    """Where the calibrated bid table ``name`` (a game's ``bid_table``) lies: in ``bots/``."""
    return Path(bots.__file__).with_name(name)


def calibrated_table(name: str) -> np.ndarray:
    """The calibrated bid table ``name`` (float32[players - 3, cards - 1, position, class])."""
    if not table_path(name).exists():
        raise CardsimError(f"no calibrated bid table {table_path(name)}: experiments/calibrate_wizard_bids.py --game "
                           "GAME writes it")  # fmt: skip
    return np.load(table_path(name))


@cache
def calibrated_tables(name: str, deck: int) -> np.ndarray:
    """``bot_tables`` of the calibrated bid table ``name`` and ``deck``: one array for every Params of a game."""
    return bot_tables(calibrated_table(name), deck)


# The built-in bots' tables of a game's deck (``Params.tables``), one float64[players - 3, TABLE_ROWS, 60] array:
# the bots' hot loop takes it every round, and a second array among its arguments cost random games 2.5%.
VALUE_ROWS = 0  # rows trump + 1: rulebased's card values by card (``rules.card_values``)
CHANCE_ROWS = 5  # rows CHANCE_ROWS + (cards - 1) * MAX_PLAYERS + position: heuristic's win chances by card class
TABLE_ROWS = CHANCE_ROWS + DECK_SIZE // MIN_PLAYERS * MAX_PLAYERS  # the longest round: 60 cards among 3


def bot_tables(bid_table: np.ndarray, deck: int) -> np.ndarray:
    """``Params.tables`` (read-only) of a heuristic's calibrated ``bid_table`` (float32[players - 3, cards - 1,
    position, class], up to the family's sizes) and of ``deck``'s card values."""
    tables = np.zeros((MAX_PLAYERS - MIN_PLAYERS + 1, TABLE_ROWS, DECK_SIZE))
    tables[:, VALUE_ROWS : VALUE_ROWS + 5] = card_values(deck)
    players, cards, positions, classes = bid_table.shape
    for c in range(cards):
        rows = CHANCE_ROWS + c * MAX_PLAYERS
        tables[:players, rows : rows + positions, :classes] = bid_table[:, c]
    tables.setflags(write=False)
    return tables


@njit(cache=True, inline="always")
def win_chances(tables: np.ndarray, players: int, cards: int, position: int) -> np.ndarray:
    """The heuristic's win chance of a card by its class (float64[class], ``bots.exact_tricks.card_class``) for a
    seat at bidding ``position`` (0 bids first) in rounds of ``cards`` cards among ``players``."""
    return tables[players - MIN_PLAYERS, CHANCE_ROWS + (cards - 1) * MAX_PLAYERS + position]


@njit(cache=True, inline="always")
def card_values_of(tables: np.ndarray, players: int, trump: int) -> np.ndarray:
    """Rulebased's value of every card (float64[card]) among ``players`` under ``trump`` (-1 none)."""
    return tables[players - MIN_PLAYERS, VALUE_ROWS + trump + 1]


@njit(cache=True)
def new_state(players: int) -> State:
    """An empty state for ``players`` seats (deal or start it)."""
    slots = np.zeros(SLOTS, np.int64)
    slots[PLAYERS], slots[PHASE], slots[MOVER] = players, DONE, -1
    return State(slots, np.zeros(players, np.uint64), np.zeros(players, np.uint64), np.full(players, -1, np.int64),
                 np.zeros(players, np.int64), np.zeros((DECK_SIZE, 2), np.int64), np.zeros((players + 1, 4), np.uint64),
                 np.zeros((players, 4), np.uint64))  # fmt: skip


@njit(cache=True, inline="always")
def seed_round(s: State, seed: np.uint64, unit: int, sub: int) -> None:
    """Seed the shared streams of round (seed, unit, sub) and note its key for the private ones."""
    seed_streams(s.rng, seed, unit, sub, s.rng.shape[0])
    s.slots[SEED], s.slots[UNIT], s.slots[SUB], s.slots[BOT_SEEDED] = np.int64(seed), unit, sub, 0


@njit(cache=True)
def bot_stream(s: State, seat: int) -> np.ndarray:
    """The private stream of ``seat``'s strong bot as a one-row array (a view into ``s.bot_rng``), seeded from the
    round key on first use (a one-way function of it: ``cardsim.rng.seed_bot_stream``)."""
    if not (s.slots[BOT_SEEDED] >> seat) & 1:
        seed_bot_stream(s.bot_rng, seat, np.uint64(s.slots[SEED]), s.slots[UNIT], s.slots[SUB], seat)
        s.slots[BOT_SEEDED] |= 1 << seat
    return s.bot_rng[seat : seat + 1]


@njit(cache=True, inline="always")
def _begin(slots, hands, dealt, bids, won, dealer: int, cards: int, turned: int, fixed_trump: int) -> None:
    """Start the round dealt in ``hands``: trump (B4), then the first decision."""
    players = hands.shape[0]
    for seat in range(players):
        dealt[seat] = hands[seat]
        bids[seat] = -1
        won[seat] = 0
    leader = seat_after(dealer, 1, players)
    slots[DEALER], slots[CARDS], slots[TURNED] = dealer, cards, turned
    slots[N_BIDS], slots[BID_TOTAL], slots[N_PLAYED], slots[TRICK] = 0, 0, 0, 0
    slots[LEADER], slots[POS], slots[LED], slots[DECIDED], slots[TOP_KEY], slots[WINNER] = (
        leader,
        0,
        NO_SUIT,
        0,
        -1,
        leader,
    )
    slots[PHASE], slots[MOVER], slots[TRUMP_SUIT] = BID, leader, NO_SUIT
    if fixed_trump != TURN_A_CARD:
        slots[TRUMP_SUIT] = fixed_trump
    elif turned >= 0 and is_wizard(turned):  # B4: the dealer names a suit
        slots[PHASE], slots[MOVER] = TRUMP, dealer
    elif turned >= 0:
        slots[TRUMP_SUIT] = SUIT_OF[turned]  # a Jester has no suit: no trump


@njit(cache=True, inline="always")
def deal_arrays(slots, hands, dealt, bids, won, rng, p: Params, seed: np.uint64, unit: int, sub: int,
                dealer: int) -> None:  # fmt: skip
    """``deal`` on the State's arrays (the batch kernel unpacks the State once: see ``step``)."""
    dealer, cards = _deal_start(slots, rng, p, seed, unit, sub, dealer)
    rest = deal_hands(rng, DEAL_STREAM, p.deck, hands, dealer + 1, hands.shape[0], cards)
    _deal_end(slots, hands, dealt, bids, won, rng, p, sub, dealer, cards, rest)


@njit(cache=True, inline="always")
def _deal_start(slots, rng, p: Params, seed: np.uint64, unit: int, sub: int, dealer: int) -> tuple:
    """A deal up to the hands: the streams seeded, the dealer (drawn, used if ``dealer`` < 0) and the round's
    cards (drawn for DRAW, F3); returns (dealer, cards)."""
    seed_streams(rng, seed, unit, sub, rng.shape[0])
    slots[SEED], slots[UNIT], slots[SUB], slots[BOT_SEEDED] = np.int64(seed), unit, sub, 0
    drawn = below(rng, DEAL_STREAM, p.players)
    if dealer < 0:
        dealer = drawn
    cards = p.schedule[sub]
    if cards == DRAW:  # F3: a round size drawn for the round
        cards = 1 + below(rng, DEAL_STREAM, p.max_cards)
    return dealer, cards


@njit(cache=True, inline="always")
def _deal_end(slots, hands, dealt, bids, won, rng, p: Params, sub: int, dealer: int, cards: int,
              rest: np.uint64) -> None:  # fmt: skip
    """A deal after the hands: a card of the ``rest`` turned up (B4), and the round started."""
    turned = nth_card(rest, below(rng, DEAL_STREAM, popcount(rest))) if rest else -1
    _begin(slots, hands, dealt, bids, won, dealer, cards, turned, p.fixed_trumps[sub])


@njit(cache=True, inline="always")
def deal_pair(a: State, b: State, p: Params, seed: np.uint64, unit: int, other_unit: int, sub: int, dealer: int,
              other_dealer: int) -> None:  # fmt: skip
    """Round ``sub`` of two units dealt at once, their hands card by card in turn (``deal.deal_hands_pair``): ``a``
    that of ``unit`` (by ``dealer``), ``b`` that of ``other_unit`` (by ``other_dealer``), each as ``deal`` deals
    it."""
    dealer, cards = _deal_start(a.slots, a.rng, p, seed, unit, sub, dealer)
    other_dealer, other_cards = _deal_start(b.slots, b.rng, p, seed, other_unit, sub, other_dealer)
    rest, other_rest = deal_hands_pair(a.rng, b.rng, DEAL_STREAM, p.deck, a.hands, b.hands, dealer + 1,
                                       other_dealer + 1, p.players, cards, other_cards)  # fmt: skip
    _deal_end(a.slots, a.hands, a.dealt, a.bids, a.won, a.rng, p, sub, dealer, cards, rest)
    _deal_end(b.slots, b.hands, b.dealt, b.bids, b.won, b.rng, p, sub, other_dealer, other_cards, other_rest)


@njit(cache=True, inline="always")
def redeal(slots, hands, dealt, bids, won, rng, streams: np.ndarray, fixed_trump: int) -> None:
    """The round dealt by ``deal_arrays`` again, however far it was played: the same hands (``dealt``), dealer and
    turned card, and the deal's streams as they were right after it (``streams``, a copy of ``rng`` then), so the
    same draws to come. The next seating of a duplicate deal plays it without dealing again."""
    copy_rows(rng, streams, rng.shape[0])
    for seat in range(hands.shape[0]):
        hands[seat] = dealt[seat]
    slots[BOT_SEEDED] = 0
    _begin(slots, hands, dealt, bids, won, slots[DEALER], slots[CARDS], slots[TURNED], fixed_trump)


@njit(cache=True)
def deal(s: State, p: Params, seed: np.uint64, unit: int, sub: int, dealer: int) -> None:
    """Round ``sub`` of unit ``unit``: seed the streams, choose the dealer (random if < 0; drawn either way), deal
    ``p.schedule[sub]`` cards each from ``p.deck`` (B3; DRAW: a number drawn first, F3), turn up a card (B4), and
    start."""
    deal_arrays(s.slots, s.hands, s.dealt, s.bids, s.won, s.rng, p, seed, unit, sub, dealer)


@njit(cache=True)
def start(s: State, p: Params, dealer: int, hands: np.ndarray, turned: int, fixed_trump: int) -> None:
    """Start a round from given ``hands`` (uint64[players], all of one size: the round's cards) and ``turned``
    (-1: none left), with ``fixed_trump`` a suit, NO_SUIT or TURN_A_CARD. The streams are left as they are (seed
    them with ``seed_round``)."""
    for seat in range(s.hands.shape[0]):
        s.hands[seat] = hands[seat]
    _begin(s.slots, s.hands, s.dealt, s.bids, s.won, dealer, popcount(hands[0]), turned, fixed_trump)


@njit(cache=True, inline="always")
def to_move(s: State) -> int:
    return s.slots[MOVER]


@njit(cache=True, inline="always")
def decision(s: State) -> int:
    return s.slots[PHASE]


@njit(cache=True, inline="always")
def refused(s: State, p: Params) -> int:
    """B5 plus_minus_one: the bid the seat to bid may not make (-1: none)."""
    return refused_of(s.slots, s.hands.shape[0], p.plus_minus_one)


@njit(cache=True, inline="always")
def legal_cards(s: State, p: Params) -> np.uint64:
    """B6: the cards the seat to play may play (0 outside card decisions)."""
    if s.slots[PHASE] != CARD:
        return np.uint64(0)
    return legal_mask(s.hands[s.slots[MOVER]], s.slots[LED])


@njit(cache=True)
def legal_actions(s: State, p: Params, out: np.ndarray) -> int:
    """The legal action codes into ``out`` (int64[>= 61]); returns how many."""
    d = s.slots[PHASE]
    n = 0
    if d == TRUMP:
        for suit in range(4):
            out[n] = suit
            n += 1
    elif d == BID:
        no = refused(s, p)
        for b in range(s.slots[CARDS] + 1):
            if b != no:
                out[n] = b
                n += 1
    elif d == CARD:
        m = legal_cards(s, p)
        while m:
            out[n] = lowest_card(m)
            m &= m - np.uint64(1)
            n += 1
    return n


@njit(cache=True, inline="always")
def refused_of(slots: np.ndarray, players: int, plus_minus_one: bool) -> int:
    """``refused`` on the slots array (for the hot loops, which pass arrays, not the State)."""
    return refused_bid(slots[BID_TOTAL], slots[CARDS], slots[N_BIDS] == players - 1, plus_minus_one)


@njit(cache=True, inline="always")
def load_trick(slots: np.ndarray) -> tuple:
    """The registers of the card phase: (seat to play, position in the trick, led, decided, top_key, winner,
    cards played, tricks finished)."""
    return (slots[MOVER], slots[POS], slots[LED], slots[DECIDED] != 0, slots[TOP_KEY], slots[WINNER], slots[N_PLAYED],
            slots[TRICK])  # fmt: skip


@njit(cache=True, inline="always")
def store_trick(slots: np.ndarray, players: int, seat: int, pos: int, led: int, decided: bool, top_key: int,
                winner: int, n_played: int, trick: int) -> None:  # fmt: skip
    """Write the card phase's registers back (seat -1: the round is over)."""
    slots[MOVER], slots[POS], slots[LED], slots[DECIDED], slots[TOP_KEY] = seat, pos, led, decided, top_key
    slots[WINNER], slots[N_PLAYED], slots[TRICK] = winner, n_played, trick
    if seat < 0:
        slots[PHASE], slots[LEADER] = DONE, winner
    else:
        slots[LEADER] = seat - pos if seat >= pos else seat - pos + players


@njit(cache=True, inline="always")
def play_card(hands: np.ndarray, won: np.ndarray, log: np.ndarray | None, trump: int, cards: int, seat: int,
              pos: int, led: int, decided: bool, top_key: int, winner: int, n_played: int, trick: int,
              card: int) -> tuple:  # fmt: skip
    """B6/B7 in registers, the one place a card is played and a trick advances (``step``, hence ``apply``, the
    compiled fast loop ``play.run_builtin``, and the strong bots' play-outs and searches): ``seat`` plays the
    (legal) ``card``, noted in ``log[n_played]`` (None: a loop no one observes keeps no record, e.g. a play-out;
    none compiled); returns the registers after it (as ``load_trick``), the next seat -1 when the round is over. A
    full trick goes to its winner (``won``), who leads the next. (One function, not a log write around an inlined
    trick step: an inline call within an inline call cost the fast lineup's cold compile 1-2 s.)"""
    players = hands.shape[0]
    hands[seat] ^= bit(card)
    if log is not None:
        log[n_played, 0], log[n_played, 1] = seat, card
    led, decided, top_key, winner = trick_step(trump, led, decided, top_key, winner, seat, card)
    pos += 1
    if pos < players:
        return seat + 1 if seat + 1 < players else 0, pos, led, decided, top_key, winner, n_played + 1, trick
    won[winner] += 1
    trick += 1
    return winner if trick < cards else -1, 0, NO_SUIT, False, -1, winner, n_played + 1, trick


@njit(cache=True, inline="always")
def make_bid(bids: np.ndarray, cards: int, plus_minus_one: bool, seat: int, n_bids: int, total: int,
             bid: int) -> tuple:  # fmt: skip
    """B5 in registers, the one bid step (``step`` and the fast loop ``play.run``): (legal, next bidder, bids made,
    their total) after ``seat`` (the ``n_bids``-th bidder from the dealer's left) bids ``bid``; an illegal bid
    (outside 0..cards, or the one plus_minus_one refuses the dealer) changes nothing."""
    players = bids.shape[0]
    if bid < 0 or bid > cards or bid == refused_bid(total, cards, n_bids == players - 1, plus_minus_one):
        return False, seat, n_bids, total
    bids[seat] = bid
    return True, seat + 1 if seat + 1 < players else 0, n_bids + 1, total + bid


@njit(cache=True, inline="always")
def store_bids(slots: np.ndarray, players: int, seat: int, n_bids: int, total: int) -> None:
    """Write the bidding registers back; after the last bid the dealer's left leads the first trick."""
    slots[N_BIDS], slots[BID_TOTAL] = n_bids, total
    if n_bids == players:
        slots[PHASE], slots[MOVER] = CARD, slots[LEADER]
    else:
        slots[MOVER] = seat


@njit(cache=True, inline="always")
def step(slots: np.ndarray, hands: np.ndarray, bids: np.ndarray, won: np.ndarray, log: np.ndarray,
         plus_minus_one: bool, action: int) -> bool:  # fmt: skip
    """``apply`` on the State's arrays: the one code that advances a round (hot loops call it with arrays
    unpacked once; numba counts references of every array of a NamedTuple at each call that passes it)."""
    d, seat = slots[PHASE], slots[MOVER]
    players = hands.shape[0]
    if d == CARD:
        if action < 0 or action >= DECK_SIZE or not (legal_mask(hands[seat], slots[LED]) >> np.uint64(action)) & 1:
            return False
        seat, pos, led, decided, top_key, winner, n_played, trick = load_trick(slots)
        seat, pos, led, decided, top_key, winner, n_played, trick = play_card(
            hands, won, log, slots[TRUMP_SUIT], slots[CARDS], seat, pos, led, decided, top_key, winner, n_played,
            trick, action)  # fmt: skip
        store_trick(slots, players, seat, pos, led, decided, top_key, winner, n_played, trick)
        return True
    if d == BID:
        ok, seat, n_bids, total = make_bid(bids, slots[CARDS], plus_minus_one, seat, slots[N_BIDS], slots[BID_TOTAL],
                                           action)  # fmt: skip
        if ok:
            store_bids(slots, players, seat, n_bids, total)
        return ok
    if d == TRUMP:
        if action < 0 or action > 3:
            return False
        slots[TRUMP_SUIT] = action
        slots[PHASE], slots[MOVER] = BID, slots[LEADER]
        return True
    return False


@njit(cache=True)
def apply(s: State, p: Params, action: int) -> bool:
    """Apply ``action`` for the seat to move; False (and ``s`` unchanged) when it is not legal."""
    return step(s.slots, s.hands, s.bids, s.won, s.log, p.plus_minus_one, action)


@njit(cache=True, inline="always")
def bid_seen(s: State, p: Params, viewer: int, seat: int) -> bool:
    """B5: whether ``viewer`` sees ``seat``'s bid now: its own once made; others' once made under open bidding,
    after the bidding under hidden bidding, never under secret bidding."""
    if s.bids[seat] < 0:
        return False
    if seat == viewer:
        return True
    if s.slots[PHASE] == BID or s.slots[PHASE] == TRUMP:
        return p.bidding == OPEN
    return p.bidding != SECRET


@njit(cache=True)
def scores(s: State, p: Params, out: np.ndarray) -> None:
    """B8/F6: every seat's score of the finished round into ``out`` (int64[players])."""
    for seat in range(s.hands.shape[0]):
        out[seat] = score(scoring(p), s.bids[seat], s.won[seat])


# The round's invariants that ``check`` tests after every step under ``--check`` (returns 1 + the broken one's index).
CHECKS = ("the dealt hands are disjoint, CARDS each, of the deck, without the turned card",
          "each seat holds its dealt cards less those it played", "the tricks taken add up to the tricks played",
          "the bids made are 0..CARDS and add up to BID_TOTAL")  # fmt: skip


@njit(cache=True)
def check(s: State, p: Params) -> int:
    """0 when the round keeps its invariants (``CHECKS``), else 1 + the index of the first it breaks."""
    slots, players = s.slots, s.hands.shape[0]
    union, count, cards = np.uint64(0), 0, slots[CARDS]
    for seat in range(players):
        union |= s.dealt[seat]
        count += popcount(s.dealt[seat])
    if popcount(union) != count or count != players * cards or (slots[TURNED] >= 0 and union & bit(slots[TURNED])):
        return 1
    if union & ~p.deck:
        return 1
    n_played = slots[N_PLAYED]
    for seat in range(players):
        played = np.uint64(0)
        for k in range(n_played):
            if s.log[k, 0] == seat:
                played |= bit(s.log[k, 1])
        if s.hands[seat] & played or s.hands[seat] | played != s.dealt[seat]:
            return 2
    if s.won.sum() != slots[TRICK] or n_played != slots[TRICK] * players + slots[POS]:
        return 3
    made, total = 0, 0
    for seat in range(players):
        if s.bids[seat] >= 0:
            made += 1
            total += s.bids[seat]
            if s.bids[seat] > cards:
                return 4
    return 4 if made != slots[N_BIDS] or total != slots[BID_TOTAL] else 0


@njit(cache=True, inline="always")
def audit_deal(row: np.ndarray, dealt: np.ndarray, cards: int, turned: int) -> None:
    """--check (``cardsim.audit``) after the deal: the dealt hands are disjoint, ``cards`` each, without the turned
    card (CHECKS[0])."""
    audit.deal(row, dealt, cards, bit(turned) if turned >= 0 else np.uint64(0), 0)


@njit(cache=True, inline="always")
def audit_bid(row: np.ndarray, bids: np.ndarray, seat: int, cards: int) -> None:
    """--check after ``seat``'s bid (``make_bid``): it is 0..cards (CHECKS[3])."""
    audit.decision(row, (bids[seat] < 0) | (bids[seat] > cards), 3)


@njit(cache=True, inline="always")
def audit_card(row: np.ndarray, hands: np.ndarray, won: np.ndarray, seat: int, card: int, pos: int, trick: int,
               broken: int) -> int:  # fmt: skip
    """--check after ``play_card`` (``seat`` played ``card``; ``pos``, ``trick`` after it), on the hot loop's
    register of broken bits (returned): the seat held the card and holds its dealt cards less those it played
    (CHECKS[1]); when the trick closed, the tricks taken add up to the tricks played (CHECKS[2])."""
    broken |= audit.bits(audit.card(row, hands, seat, card), 1)
    if pos == 0:
        broken |= audit.bits(won.sum() != trick, 2)
    return broken


@njit(cache=True)
def copy_state(s: State) -> State:
    """A copy of every array: the same round with the same random draws to come."""
    return State(s.slots.copy(), s.hands.copy(), s.dealt.copy(), s.bids.copy(), s.won.copy(), s.log.copy(),
                 s.rng.copy(), s.bot_rng.copy())  # fmt: skip


@njit(cache=True, inline="always")
def copy_into(dst: State, src: State) -> None:
    """``dst`` becomes a copy of ``src`` (same players), its random streams included, without allocating."""
    copy_items(dst.slots, src.slots, src.slots.shape[0])
    copy_items(dst.hands, src.hands, src.hands.shape[0])
    copy_items(dst.dealt, src.dealt, src.dealt.shape[0])
    copy_items(dst.bids, src.bids, src.bids.shape[0])
    copy_items(dst.won, src.won, src.won.shape[0])
    copy_rows(dst.log, src.log, src.log.shape[0])
    copy_rows(dst.rng, src.rng, src.rng.shape[0])
    copy_rows(dst.bot_rng, src.bot_rng, src.bot_rng.shape[0])


@njit(cache=True)
def observe(s: State, p: Params, seat: int) -> State:
    """What ``seat`` may see now, as a State with the rest blanked (a strong bot decides from it, drawing from its
    own stream only: ``bot_stream``). Kept: its own hand (now and as dealt), the public slots (phase, seat to move,
    dealer, cards, turned card, trump, bids made, the trick in progress, cards played, tricks finished), every
    seat's tricks and the cards played (``log``, N_PLAYED rows). The bids it may see under the variant
    (``bid_seen``, B5), -1 for the others, and BID_TOTAL their sum. Zero: the other hands (and so the undealt
    stack), the rows of ``log`` not played this round, the streams and the round's key (SEED, UNIT, SUB,
    BOT_SEEDED)."""
    v = new_state(s.hands.shape[0])
    _view_of(s, p, seat, v)
    return v


@njit(cache=True, inline="always")
def observe_into(s: State, p: Params, seat: int, v: State) -> None:
    """``observe`` into the State ``v`` (every field but the streams written, none allocated): a batched
    environment keeps one view per table (``cardsim.envs.batch``). ``v`` is a view (``new_state``'s, or one
    ``observe_into`` wrote), whose ``log`` is zero after its cards played: only the rows it holds beyond the cards
    played now are cleared."""
    held = min(v.slots[N_PLAYED], v.log.shape[0])
    _view_of(s, p, seat, v)
    for k in range(s.slots[N_PLAYED], held):
        v.log[k, 0], v.log[k, 1] = 0, 0


@njit(cache=True, inline="always")
def _view_of(s: State, p: Params, seat: int, v: State) -> None:
    """``seat``'s view written into ``v``: all of it but the ``log`` rows after the cards played, which ``observe``
    leaves as ``new_state`` made them (zero) and ``observe_into`` clears (clearing them in ``observe`` cost numba
    bots 5%)."""
    players = s.hands.shape[0]
    copy_items(v.slots, s.slots, s.slots.shape[0])
    v.slots[SEED], v.slots[UNIT], v.slots[SUB], v.slots[BOT_SEEDED] = 0, 0, 0, 0
    total = 0
    for other in range(players):
        v.hands[other], v.dealt[other], v.bids[other] = 0, 0, -1
        if bid_seen(s, p, seat, other):
            v.bids[other] = s.bids[other]
            total += s.bids[other]
        v.won[other] = s.won[other]
    v.hands[seat], v.dealt[seat] = s.hands[seat], s.dealt[seat]
    v.slots[BID_TOTAL] = total
    for k in range(s.slots[N_PLAYED]):
        v.log[k, 0], v.log[k, 1] = s.log[k, 0], s.log[k, 1]
