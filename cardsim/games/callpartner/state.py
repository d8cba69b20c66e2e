"""The call-partner round as one state machine (RULES.md C3-C9): deal, auction, call, kitty and discards, tricks.

This is the only code that advances a call-partner round: the batch kernels, the plain-Python driver, the
strong bots' play-outs and the bid advice all play through ``apply`` (or, in the measured fast trick loops of
``bots.callpartner``, through the same inlined register-level steps ``play_card`` / ``end_trick`` that ``apply``
uses). It imports only the rules, cards, deal, rng and decision codes.

State (a NamedTuple of fixed-shape arrays; copying every array copies the round and its random draws)::

    slots:   int64[SLOTS]          the scalars below (masks of cards as int64)
    hands:   uint64[players]       the cards each seat holds now (the declarer's with the kitty until it discards)
    dealt:   uint64[players]       the hands as dealt (for the replay record)
    points:  int64[players]        trick points taken so far (C2, C8)
    scores:  int64[players]        the round's scores once it is over (C9; 0 for everybody after a redeal)
    auction: int64[MAX_CALLS, 2]   the auction in order: (seat, action code), CALLS entries
    log:     int64[DECK_SIZE]      the cards played in order (CARDS of them; trick t is log[t*players:(t+1)*players])
    rng:     uint64[players + 1, 4]  the round's shared streams: 0 deals, 1 + seat serves that seat's built-in
                                   random/heuristic bot (cardsim.rng)
    bot_rng: uint64[players, 4]    the strong bots' private streams, row = seat (cardsim.rng.seed_bot_stream),
                                   seeded on first use (``bot_stream``) from the round's key

    slots[PHASE]      decision code of cardsim.decisions (AUCTION, CALL, DISCARD, CARD) or DONE
    slots[SEAT]       the seat to move (-1 when DONE)
    slots[DEALER]     the dealer (C3); the auction opens and the first trick is led at its left
    slots[HIGH]       the highest bid so far (0: none), the contract's number once the auction is over
    slots[DECLARER]   the highest bidder so far (-1: none), the declarer once the auction is over
    slots[TRUMP]      the highest bid's suit, the trump (-1: none)
    slots[PASSED]     bits of the seats that passed (a pass is final, C4)
    slots[ACTIVE]     seats that have not passed
    slots[CALLS]      entries in ``auction``
    slots[FORCED]     1 while the dealer declares 10 after all passed (all_pass=dealer_forced)
    slots[CALLED]     the called card (-1 before the call, C5)
    slots[PARTNER]    its holder (-1: nobody, it is in the kitty)
    slots[KITTY]      the kitty (mask, C3)
    slots[DISCARDS]   the declarer's discards so far (mask, C6); slots[N_DISCARDS] how many
    slots[PLAN]       a bot's chosen discards still to lay down (mask; bot memory of the declarer's seat, not a rule)
    slots[CARDS]      cards played so far
    slots[LEADER]     the current trick's leader
    slots[LED]        its led suit (-1 before the lead)
    slots[TOP_KEY], slots[WINNER]   the highest KEY in the trick so far and its seat (C8)
    slots[ONE_SUIT], slots[TWO_HOLDER]   all cards of the led suit so far; the seat that played a 2 (C8 rule 4)
    slots[TRICK]      the current trick's cards (mask); slots[PLAYED] the finished tricks' cards (mask)
    slots[REVEALED]   1 once the called card is played (everybody knows the partner)
    slots[SIDE]       the declaring side's points once the round is over
    slots[SEED], slots[UNIT], slots[SUB]   the round's key (the seed's 64 bits as an int64) for the private
                      streams; ``observe`` blanks them. slots[SEEDED]: bits of the seats whose ``bot_rng`` is seeded

Actions are ints: in the AUCTION 0 is a pass and ``4 * number + suit`` a bid (number 10..20, suit S H D C =
0..3: 40..83); after all passed under all_pass=dealer_forced the dealer has an AUCTION decision whose legal
actions are the four bids of 10 (40..43). CALL, DISCARD (one card per step, ``kitty`` steps) and CARD actions
are card indexes.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

import cardsim.audit as audit
from cardsim.arrays import copy_items, copy_rows
from cardsim.cards import bit, lowest_card, popcount
from cardsim.deal import deal_around, draw_cards
from cardsim.decisions import AUCTION, CALL, CARD, DISCARD, DONE
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
    SUIT_OF,
    TWO,
    card_points,
    final_winner,
    legal_mask,
    score_deal,
)
from cardsim.rng import DEAL_STREAM, below, seed_bot_stream, seed_streams

(PHASE, SEAT, DEALER, HIGH, DECLARER, TRUMP, PASSED, ACTIVE, CALLS, FORCED, CALLED, PARTNER, KITTY, DISCARDS,
 N_DISCARDS, PLAN, CARDS, LEADER, LED, TOP_KEY, WINNER, ONE_SUIT, TWO_HOLDER, TRICK, PLAYED, REVEALED, SIDE,
 SEED, UNIT, SUB, SEEDED, SLOTS) = range(32)  # fmt: skip
MAX_CALLS = 32  # an auction has at most 11 bids, a pass per seat and the forced dealer's bid
PASS = 0  # the auction's pass; a bid is 4 * number + suit
NO_SEAT = np.int64(-1)  # typed, not the literal -1 (each literal compiles its callees once more)
# C3 by number of players (index 0..MAX_PLAYERS): cards per hand and in the kitty, for the kernels.
HAND_OF = np.array([HAND_SIZE.get(p, 0) for p in range(MAX_PLAYERS + 1)], np.int64)
KITTY_OF = np.array([KITTY_SIZE.get(p, 0) for p in range(MAX_PLAYERS + 1)], np.int64)


class State(NamedTuple):
    """One call-partner round (see the module docstring for the arrays and slots)."""

    slots: np.ndarray
    hands: np.ndarray
    dealt: np.ndarray
    points: np.ndarray
    scores: np.ndarray
    auction: np.ndarray
    log: np.ndarray
    rng: np.ndarray
    bot_rng: np.ndarray


class Params(NamedTuple):
    """The rule scalars the kernels need (``params(rules)``)."""

    players: int
    hand: int  # cards per hand = tricks (C3)
    kitty: int  # cards in the kitty (C3)
    forced: bool  # all_pass=dealer_forced (C4)
    discards_count: bool  # C6
    target: int  # C10
    max_deals: int  # C10


class Contract(NamedTuple):
    """A round's contract as its tricks begin (``start_play``): who dealt and declared, the bid, the trump, the
    called card and the declarer's discards (a mask)."""

    dealer: int
    declarer: int
    bid: int
    trump: int
    called: int
    discards: np.uint64


def params(rules) -> Params:
    """The kernels' rule scalars of ``rules`` (a CallPartnerRules)."""
    return Params(rules.players, rules.hand_size, rules.kitty, rules.all_pass == "dealer_forced",
                  bool(rules.discards_count), rules.target, rules.max_deals)  # fmt: skip


@njit(cache=True)
def copy_state(s: State) -> State:
    """A copy of every array: the same round with the same random draws to come."""
    return State(s.slots.copy(), s.hands.copy(), s.dealt.copy(), s.points.copy(), s.scores.copy(),
                 s.auction.copy(), s.log.copy(), s.rng.copy(), s.bot_rng.copy())  # fmt: skip


@njit(cache=True)
def new_state(players: int) -> State:
    """An empty round for ``players`` seats (``deal`` or ``start`` it)."""
    slots = np.zeros(SLOTS, np.int64)
    slots[PHASE], slots[SEAT] = DONE, -1
    return State(slots, np.zeros(players, np.uint64), np.zeros(players, np.uint64), np.zeros(players, np.int64),
                 np.zeros(players, np.int64), np.zeros((MAX_CALLS, 2), np.int64), np.zeros(DECK_SIZE, np.int64),
                 np.zeros((players + 1, 4), np.uint64), np.zeros((players, 4), np.uint64))  # fmt: skip


@njit(cache=True, inline="always")
def deal_inline(s: State, p: Params, seed: np.uint64, unit: int, sub: int, dealer: int, known: int) -> None:
    """Seed the shared streams, choose the dealer (random if < 0; drawn either way) and deal (C3): the kitty first,
    then the hands from the dealer's left, as from a shuffled deck. A seat ``known`` >= 0 keeps ``s.hands[known]``
    and the rest is dealt around it (a uniform completion of the unseen cards, for the bid advice). Inlined into
    the batch kernel's loop without reference counts; ``deal`` is the function of its own."""
    players = p.players
    seed_streams(s.rng, seed, unit, sub, 1 + players)
    drawn = below(s.rng, DEAL_STREAM, players)
    if dealer < 0:
        dealer = drawn
    deck = FULL_DECK ^ s.hands[known] if known >= 0 else FULL_DECK
    kitty = draw_cards(s.rng, DEAL_STREAM, deck, p.kitty)
    deal_around(s.rng, DEAL_STREAM, deck ^ kitty, s.hands, known, dealer + 1, players, p.hand)
    _start(s, p, dealer, kitty)
    s.slots[SEED], s.slots[UNIT], s.slots[SUB] = np.int64(seed), unit, sub  # after _start, which clears the slots


@njit(cache=True, inline="always")
def redeal(s: State, p: Params, streams: np.ndarray) -> None:
    """The round dealt by ``deal_inline`` again, however far it was played: the same hands (``s.dealt``), kitty
    and dealer, and the deal's streams as they were right after it (``streams``, a copy of ``s.rng`` then), so the
    same draws to come. The next seating of a duplicate deal plays it without dealing again."""
    slots = s.slots
    dealer, kitty, seed, unit, sub = slots[DEALER], slots[KITTY], slots[SEED], slots[UNIT], slots[SUB]
    copy_rows(s.rng, streams, 1 + p.players)
    for seat in range(p.players):
        s.hands[seat] = s.dealt[seat]
    _start(s, p, dealer, np.uint64(kitty))
    slots[SEED], slots[UNIT], slots[SUB] = seed, unit, sub  # after _start, which clears the slots


@njit(cache=True, _nrt=False)
def deal(s: State, p: Params, seed: np.uint64, unit: int, sub: int, dealer: int) -> None:
    """Round ``sub`` of unit ``unit``: streams keyed (seed, unit, sub), the dealer (drawn; used if ``dealer`` < 0),
    the kitty and the hands, then the auction opens. The strong bots' streams are seeded on first use
    (``bot_stream``)."""
    deal_inline(s, p, seed, unit, sub, dealer, NO_SEAT)


@njit(cache=True)
def deal_around_hand(
    s: State, p: Params, seed: np.uint64, unit: int, sub: int, dealer: int, seat: int, hand: np.uint64
) -> None:  # fmt: skip
    """As ``deal``, with ``seat`` holding ``hand`` and the other cards dealt around it (bid advice)."""
    s.hands[seat] = hand
    deal_inline(s, p, seed, unit, sub, dealer, seat)


@njit(cache=True)
def bot_stream(s: State, seat: int) -> np.ndarray:
    """Seat ``seat``'s private stream as a 1-row array (a view: draws advance ``s.bot_rng[seat]``), seeded from
    the round key on first use (a one-way function of it: ``cardsim.rng.seed_bot_stream``)."""
    sl = s.slots
    if not sl[SEEDED] >> seat & 1:
        seed_bot_stream(s.bot_rng, seat, np.uint64(sl[SEED]), sl[UNIT], sl[SUB], seat)
        sl[SEEDED] |= 1 << seat
    return s.bot_rng[seat : seat + 1]


@njit(cache=True, inline="always")
def _start(s: State, p: Params, dealer: int, kitty: np.uint64) -> None:
    slots = s.slots
    slots[:] = 0
    slots[PHASE], slots[DEALER], slots[KITTY] = AUCTION, dealer, np.int64(kitty)
    slots[SEAT] = dealer + 1 if dealer + 1 < p.players else 0  # C4: the auction opens left of the dealer
    slots[DECLARER], slots[TRUMP], slots[ACTIVE], slots[CALLED], slots[PARTNER] = -1, NO_SUIT, p.players, -1, -1
    slots[LED], slots[TOP_KEY], slots[WINNER], slots[TWO_HOLDER], slots[ONE_SUIT] = NO_SUIT, -1, -1, -1, 1
    for seat in range(p.players):
        s.dealt[seat] = s.hands[seat]
        s.points[seat], s.scores[seat] = 0, 0


@njit(cache=True)
def start(s: State, p: Params, dealer: int, hands: np.ndarray, kitty: np.uint64) -> None:
    """A round from given ``hands`` (uint64[players]) and ``kitty`` (a mask) dealt by ``dealer``: the auction
    opens. The shared streams stay as they are (seed them first for random bots); the private ones are those of
    the key (0, 0, 0)."""
    for seat in range(p.players):
        s.hands[seat] = hands[seat]
    _start(s, p, dealer, np.uint64(kitty))


@njit(cache=True)
def start_play(s: State, p: Params, hands: np.ndarray, contract: Contract) -> None:
    """A round at its first trick (play-outs and scenarios): ``hands`` (uint64[players]) after the discards and the
    ``contract`` (the holder of its called card is the partner; nobody if the declarer holds it)."""
    for seat in range(p.players):
        s.hands[seat] = hands[seat]
    _start(s, p, contract.dealer, np.uint64(0))
    slots, declarer = s.slots, contract.declarer
    slots[HIGH], slots[DECLARER], slots[TRUMP], slots[CALLED] = contract.bid, declarer, contract.trump, contract.called
    slots[DISCARDS], slots[N_DISCARDS] = np.int64(contract.discards), p.kitty
    for seat in range(p.players):
        if seat != declarer and hands[seat] & bit(contract.called):
            slots[PARTNER] = seat
    _start_tricks(s.slots, p)


@njit(cache=True, inline="always")
def to_move(s: State) -> int:
    """The seat to act, -1 when the round is over."""
    return s.slots[SEAT]


@njit(cache=True, inline="always")
def decision(s: State) -> int:
    """The decision code of cardsim.decisions (AUCTION, CALL, DISCARD, CARD) or DONE."""
    return s.slots[PHASE]


@njit(cache=True, inline="always")
def lowest_bid(s: State) -> int:
    """The lowest number the seat to move may bid (MIN_BID for the forced dealer; MAX_BID + 1: none)."""
    return lowest_bid_of(s.slots)


@njit(cache=True, inline="always")
def lowest_bid_of(slots: np.ndarray) -> int:
    """``lowest_bid`` from the slots array."""
    return MIN_BID if slots[FORCED] else max(MIN_BID, slots[HIGH] + 1)


@njit(cache=True, inline="always")
def legal_cards(s: State, p: Params) -> np.uint64:
    """The cards the seat to move may choose: CALL any card outside the declarer's hand (C5), DISCARD any card of
    its hand with the kitty (C6), CARD the C7 mask; empty in the auction and when the round is over."""
    return legal_cards_of(s.slots, s.hands)


@njit(cache=True, inline="always")
def legal_cards_of(slots: np.ndarray, hands: np.ndarray) -> np.uint64:
    """``legal_cards`` from the state's slots and hands arrays (the register-level form the loops use)."""
    phase = slots[PHASE]
    if phase == CARD:
        return legal_mask(hands[slots[SEAT]], slots[LED])
    if phase == CALL:
        return FULL_DECK & ~hands[slots[DECLARER]]
    if phase == DISCARD:
        return hands[slots[DECLARER]]
    return np.uint64(0)


@njit(cache=True)
def legal_actions(s: State, p: Params, out: np.ndarray) -> int:
    """Writes the legal action codes of the seat to move into ``out`` (at least 52 long); returns how many."""
    n = 0
    if s.slots[PHASE] == AUCTION:
        if not s.slots[FORCED]:
            out[0], n = PASS, 1
        top = MIN_BID if s.slots[FORCED] else MAX_BID
        for number in range(lowest_bid(s), top + 1):
            for suit in range(4):
                out[n], n = 4 * number + suit, n + 1
        return n
    m = legal_cards(s, p)
    while m:
        out[n], n = lowest_card(m), n + 1
        m &= m - np.uint64(1)
    return n


@njit(cache=True, inline="always")
def legal_bid(slots: np.ndarray, action: int) -> bool:
    """C4: a pass (not for the forced dealer), or a bid 4 * number + suit above the highest so far."""
    if slots[FORCED]:
        return action >> 2 == MIN_BID
    return legal_open_bid(action, slots[HIGH])


@njit(cache=True, inline="always")
def legal_open_bid(action: int, high: int) -> bool:
    """C4 in the open auction (highest bid so far ``high``, 0: none): a pass, or a bid of a higher number."""
    return action == PASS or (action > 0 and max(MIN_BID, high + 1) <= action >> 2 <= MAX_BID)


@njit(cache=True, inline="always")
def record_call(auction: np.ndarray, calls: int, seat: int, action: int) -> int:
    """C4: ``seat``'s ``action`` as call ``calls`` of the auction's record; the calls made now. The only code that
    writes the auction's record (``open_call``, and the dealer's forced declaration in ``apply``)."""
    auction[calls, 0], auction[calls, 1] = seat, action
    return calls + 1


@njit(cache=True, inline="always")
def open_call(auction: np.ndarray, calls: int, seat: int, action: int, passed: int, active: int, high: int, trump: int,
              declarer: int) -> tuple:  # fmt: skip
    """C4 for one legal call of the open auction in registers, recorded as call ``calls`` of ``auction``
    (``record_call``): a pass is final, a bid is the highest so far. Returns (calls + 1,
    passed, active, high, trump, declarer, over); ``over`` once nobody can outbid the highest bid (or everybody
    passed)."""
    calls = record_call(auction, calls, seat, action)
    if action == PASS:
        passed |= 1 << seat
        active -= 1
    else:
        high, trump, declarer = action >> 2, action & 3, seat
    return calls, passed, active, high, trump, declarer, high == MAX_BID or active == 0 or (declarer >= 0 and
                                                                                            active == 1)


@njit(cache=True, inline="always")
def next_bidder(seat: int, passed: int, players: int) -> int:
    """The next seat after ``seat`` that has not passed (bits ``passed``)."""
    seat = seat + 1 if seat + 1 < players else 0
    while (passed >> seat) & 1:
        seat = seat + 1 if seat + 1 < players else 0
    return seat


@njit(cache=True, inline="always")
def end_open_auction(slots: np.ndarray, scores: np.ndarray, p: Params) -> None:
    """C4 once the open auction is over (its result in the slots): the declarer calls (C5); if all passed, the
    dealer must declare 10 (all_pass=dealer_forced) or the round ends for a redeal."""
    if slots[DECLARER] >= 0:
        slots[PHASE], slots[SEAT] = CALL, slots[DECLARER]
    elif p.forced:
        slots[FORCED], slots[SEAT] = 1, slots[DEALER]
    else:
        _redeal(slots, scores, p)


@njit(cache=True, inline="always")
def play_card(
    card: int, seat: int, pos: int, trump: int, called: int, led: int, top_key: int, winner: int, one_suit: bool,
    two_holder: int, trick: np.uint64, revealed: bool,
) -> tuple:  # fmt: skip
    """C7, C8 for one card in registers: the card at position ``pos`` of the trick joins it. Returns
    (led, top_key, winner, one_suit, two_holder, trick, revealed); rule 4 is decided at the end (``end_trick``)."""
    if pos == 0:
        led = SUIT_OF[card]
    trick |= bit(card)
    key = KEY[trump, card]
    winner = seat if key > top_key else winner
    top_key = max(key, top_key)
    one_suit = one_suit & (SUIT_OF[card] == led)
    two_holder = seat if RANK_OF[card] == TWO else two_holder
    revealed = revealed | reveals(called, bit(card))
    return led, top_key, winner, one_suit, two_holder, trick, revealed


@njit(cache=True, inline="always")
def reveals(called: int, cards: np.uint64) -> bool:
    """C5: the called card among ``cards`` played (a mask) reveals the partner to everybody."""
    return called >= 0 and cards & bit(called) != 0


@njit(cache=True, inline="always")
def end_trick(winner: int, top_key: int, one_suit: bool, two_holder: int, trick: np.uint64, points: np.ndarray) -> int:
    """C8 rule 4 and C2 at the end of a trick: its winner (returned) takes its points."""
    winner = final_winner(winner, top_key, one_suit, two_holder)
    points[winner] += card_points(trick)
    return winner


@njit(cache=True, inline="always")
def _start_tricks(slots: np.ndarray, p: Params) -> None:
    """C7: left of the dealer leads the first trick."""
    leader = slots[DEALER] + 1 if slots[DEALER] + 1 < p.players else 0
    slots[PHASE], slots[SEAT], slots[LEADER], slots[CARDS], slots[PLAN] = CARD, leader, leader, 0, 0
    slots[LED], slots[TOP_KEY], slots[WINNER], slots[ONE_SUIT], slots[TWO_HOLDER] = NO_SUIT, -1, leader, 1, -1
    slots[TRICK], slots[PLAYED], slots[REVEALED] = 0, 0, 0


@njit(cache=True, inline="always")
def knows_partner(slots: np.ndarray, seat: int) -> bool:
    """C5: whether ``seat`` knows the partner (or that there is none): the partner itself once called, the
    declarer once it takes the kitty (if the kitty brought the called card it plays alone), everybody once the
    called card is played."""
    partner = slots[PARTNER]
    return slots[CALLED] >= 0 and (slots[REVEALED] != 0 or seat == partner or (seat == slots[DECLARER] and partner < 0))


@njit(cache=True)
def scores(s: State, p: Params, out: np.ndarray) -> None:
    """C9: out[seat] = the score of each seat (a finished round; ``finish`` worked them out)."""
    out[:] = s.scores


@njit(cache=True, inline="always")
def finish(slots: np.ndarray, points: np.ndarray, scores: np.ndarray, p: Params) -> None:
    """C9 (with C6) once the last trick is taken: the scores and the side's points; the round is over."""
    slots[SIDE] = score_deal(p.players, slots[DECLARER], slots[PARTNER], slots[HIGH], points,
                             card_points(np.uint64(slots[DISCARDS])), p.discards_count, scores)  # fmt: skip
    slots[PHASE], slots[SEAT] = DONE, -1


@njit(cache=True, inline="always")
def _redeal(slots: np.ndarray, scores: np.ndarray, p: Params) -> None:
    """All passed under all_pass=redeal: the round is over and scores nothing."""
    slots[PHASE], slots[SEAT], slots[DECLARER], slots[HIGH], slots[TRUMP] = DONE, -1, -1, 0, NO_SUIT
    for seat in range(p.players):
        scores[seat] = 0


@njit(cache=True, inline="always")
def _auction(slots: np.ndarray, auction: np.ndarray, scores: np.ndarray, p: Params, action: int) -> None:
    seat = slots[SEAT]
    if slots[FORCED]:  # all passed: the dealer declares 10 in the suit of its choice
        slots[CALLS] = record_call(auction, slots[CALLS], seat, action)
        slots[FORCED], slots[HIGH], slots[TRUMP], slots[DECLARER] = 0, MIN_BID, action & 3, seat
        slots[PHASE] = CALL
        return
    calls, passed, active, high, trump, declarer, over = open_call(
        auction, slots[CALLS], seat, action, slots[PASSED], slots[ACTIVE], slots[HIGH], slots[TRUMP], slots[DECLARER])
    slots[CALLS], slots[PASSED], slots[ACTIVE], slots[HIGH], slots[TRUMP] = calls, passed, active, high, trump
    slots[DECLARER] = declarer
    if over:
        end_open_auction(slots, scores, p)
    else:
        slots[SEAT] = next_bidder(seat, passed, p.players)


@njit(cache=True, inline="always")
def apply_card(
    slots: np.ndarray, hands: np.ndarray, points: np.ndarray, scores: np.ndarray, log: np.ndarray, p: Params, card: int
) -> None:  # fmt: skip
    """C7, C8: the seat to move plays ``card`` (legal: checked by ``apply``)."""
    seat, k = slots[SEAT], slots[CARDS]
    pos = k % p.players
    hands[seat] ^= bit(card)
    log[k] = card
    led, top_key, winner, one_suit, two_holder, trick, revealed = play_card(
        card, seat, pos, slots[TRUMP], slots[CALLED], slots[LED], slots[TOP_KEY], slots[WINNER], slots[ONE_SUIT] != 0,
        slots[TWO_HOLDER], np.uint64(slots[TRICK]), slots[REVEALED] != 0)  # fmt: skip
    slots[CARDS], slots[REVEALED] = k + 1, revealed
    if pos == p.players - 1:
        winner = end_trick(winner, top_key, one_suit, two_holder, trick, points)
        slots[PLAYED] |= np.int64(trick)
        slots[LEADER], slots[SEAT] = winner, winner
        slots[LED], slots[TOP_KEY], slots[WINNER], slots[ONE_SUIT], slots[TWO_HOLDER] = NO_SUIT, -1, winner, 1, -1
        slots[TRICK] = 0
        if k + 1 == p.hand * p.players:
            finish(slots, points, scores, p)
    else:
        slots[LED], slots[TOP_KEY], slots[WINNER], slots[ONE_SUIT], slots[TWO_HOLDER] = (led, top_key, winner,
                                                                                       one_suit, two_holder)
        slots[TRICK] = np.int64(trick)
        slots[SEAT] = seat + 1 if seat + 1 < p.players else 0


@njit(cache=True, inline="always")
def apply(s: State, p: Params, action: int) -> bool:
    """The seat to move takes ``action``: False (and ``s`` unchanged) if it is not legal (RULES.md D2), else the
    round advances to the next decision."""
    return step(s.slots, s.hands, s.points, s.scores, s.auction, s.log, p, action)


@njit(cache=True)
def apply_outlined(s: State, p: Params, action: int) -> bool:
    """``apply`` as a call of its own, for the auction steps of the bid advice's completions (``bots.callpartner.
    complete``), off the batch loops: each inlined ``apply`` is the whole state machine compiled once more into its
    caller (issue 14). The strong bots' searches play their cards through ``apply_card`` instead (a call here cost
    them 6% speed). Callers pass an int64 ``action``."""
    return step(s.slots, s.hands, s.points, s.scores, s.auction, s.log, p, action)


@njit(cache=True, inline="always")
def step(
    slots: np.ndarray, hands: np.ndarray, points: np.ndarray, scores: np.ndarray, auction: np.ndarray,
    log: np.ndarray, p: Params, action: int,
) -> bool:  # fmt: skip
    """``apply`` on the state's arrays (the loops unpack the State once and step through this; passing the
    State bundle itself costs a reference count per array and call)."""
    if slots[PHASE] != CARD:
        return contract_step(slots, hands, scores, auction, p, action)
    if action < 0 or action >= DECK_SIZE or not legal_cards_of(slots, hands) & bit(action):
        return False
    apply_card(slots, hands, points, scores, log, p, action)
    return True


@njit(cache=True, inline="always")
def contract_step(
    slots: np.ndarray, hands: np.ndarray, scores: np.ndarray, auction: np.ndarray, p: Params, action: int
) -> bool:  # fmt: skip
    """``step`` before the cards: a bid (C4), the call (C5) or a discard (C6). The built-in bots' loop plays the
    cards in its own trick loops and steps through this only (``step`` there compiled the card rules once more)."""
    phase = slots[PHASE]
    if phase == AUCTION:
        if not legal_bid(slots, action):
            return False
        _auction(slots, auction, scores, p, action)
        return True
    if action < 0 or action >= DECK_SIZE or not legal_cards_of(slots, hands) & bit(action):
        return False
    declarer = slots[DECLARER]
    if phase == CALL:  # C5, then C6: the declarer takes the kitty
        slots[CALLED] = action
        for seat in range(p.players):
            if hands[seat] & bit(action):
                slots[PARTNER] = seat
        hands[declarer] |= np.uint64(slots[KITTY])
        slots[PHASE] = DISCARD
        return True
    # DISCARD: one card of the hand with the kitty
    hands[declarer] ^= bit(action)
    slots[DISCARDS] |= np.int64(bit(action))
    slots[PLAN] &= ~np.int64(bit(action))
    slots[N_DISCARDS] += 1
    if slots[N_DISCARDS] == p.kitty:
        _start_tricks(slots, p)
    return True


@njit(cache=True, inline="always")
def position(s: State, p: Params) -> int:
    """The position of the seat to move in the current trick (0: it leads)."""
    return s.slots[CARDS] % p.players


# The round's invariants that ``check`` tests after every step under ``--check`` (returns 1 + the broken one's index).
CHECKS = ("the dealt hands and the kitty are disjoint and of their sizes (C3)",
          "every card is in one place: a hand, the tricks, the discards or the untaken kitty",
          "the tricks' points add up to the card points of the finished tricks (C2, C8)",
          "the declarer discarded cards of its hand and the kitty (C6)")  # fmt: skip


@njit(cache=True)
def check(s: State, p: Params) -> int:
    """0 when the round keeps its invariants (``CHECKS``), else 1 + the index of the first it breaks."""
    slots, players = s.slots, p.players
    kitty, declarer = np.uint64(slots[KITTY]), slots[DECLARER]
    union, count = kitty, popcount(kitty)
    for seat in range(players):
        union |= s.dealt[seat]
        count += popcount(s.dealt[seat])
        if popcount(s.dealt[seat]) != p.hand:
            return 1
    if popcount(union) != count or popcount(kitty) != p.kitty:
        return 1
    played = np.uint64(0)
    for k in range(slots[CARDS]):
        played |= bit(s.log[k])
    discards, untaken = np.uint64(slots[DISCARDS]), kitty if slots[CALLED] < 0 else np.uint64(0)
    every, total = played | discards | untaken, popcount(played) + popcount(discards) + popcount(untaken)
    for seat in range(players):
        every |= s.hands[seat]
        total += popcount(s.hands[seat])
        if s.hands[seat] & ~(s.dealt[seat] | (kitty if seat == declarer else np.uint64(0))):
            return 2
    if every != union or total != count or popcount(played) != slots[CARDS] or played != np.uint64(
            slots[PLAYED] | slots[TRICK]):  # fmt: skip
        return 2
    if s.points.sum() != card_points(np.uint64(slots[PLAYED])):
        return 3
    if popcount(discards) != slots[N_DISCARDS] or (discards and (declarer < 0 or discards & ~(
            s.dealt[declarer] | kitty))):  # fmt: skip
        return 4
    return 0


@njit(cache=True, inline="always")
def audit_deal(row: np.ndarray, s: State, p: Params) -> None:
    """--check (``cardsim.audit``) after the deal: the dealt hands and the kitty are disjoint and of their sizes
    (CHECKS[0]); the audit's count of the hands starts here."""
    audit.deal(row, s.dealt, p.hand, np.uint64(s.slots[KITTY]), 0)
    audit.flag(row, popcount(np.uint64(s.slots[KITTY])) != p.kitty, 0)


@njit(cache=True, inline="always")
def audit_start(row: np.ndarray, s: State, p: Params) -> None:
    """--check as the tricks begin: the full ``check`` (it covers the few steps since the deal: the auction, the
    call, the kitty and the discards), and the audit's count of the hands and of the points taken (TAKEN) starts
    here."""
    broken = check(s, p)
    if broken:
        audit.flag(row, True, broken - 1)
    audit.hands(row, s.hands)
    row[audit.TAKEN] = np.uint64(s.points.sum())


@njit(cache=True, inline="always")
def audit_card(row: np.ndarray, hands: np.ndarray, seat: int, card: int, broken: int, taken: int) -> tuple:
    """--check after ``seat`` played ``card``, on the hot loop's registers (``audit.load``; returned): it held the
    card and holds its hand less the cards it played (CHECKS[1])."""
    return broken | audit.bits(audit.card(row, hands, seat, card), 1), taken + card_points(bit(card))


@njit(cache=True, inline="always")
def audit_trick(points: np.ndarray, broken: int, taken: int) -> int:
    """--check after ``end_trick``: the points taken add up to the card points played (CHECKS[2])."""
    return broken | audit.bits(points.sum() != taken, 2)


UNKNOWN = -2  # ``observe``'s PARTNER for a seat that does not know it (-1 means: nobody, C5)


@njit(cache=True)
def observe(s: State, p: Params, seat: int) -> State:
    """What ``seat`` may see now, as a State with the rest blanked: its own hand (and as dealt), the auction, the
    contract and the call, the cards played, everybody's points (and scores once over); the partner only if it
    knows it (``knows_partner``; else ``UNKNOWN``); the kitty and the discards (and its own plan of discards) only
    as the declarer who took them. The other hands, the streams and the round's key are zero: a strong bot
    decides from this, drawing from its own stream only."""
    v = new_state(np.int64(p.players))
    _view_of(s, p, seat, v)
    return v


@njit(cache=True, inline="always")
def observe_into(s: State, p: Params, seat: int, v: State) -> None:
    """``observe`` into the State ``v`` (every field but the streams written, none allocated): a batched
    environment keeps one view per table (``cardsim.envs.batch``). ``v`` is a view (``new_state``'s, or one
    ``observe_into`` wrote), whose ``log`` is zero after its cards played: only the cards it holds beyond the cards
    played now are cleared."""
    held = min(v.slots[CARDS], v.log.shape[0])
    _view_of(s, p, seat, v)
    for k in range(s.slots[CARDS], held):
        v.log[k] = 0


@njit(cache=True, inline="always")
def _view_of(s: State, p: Params, seat: int, v: State) -> None:
    """``seat``'s view written into ``v``: all of it but the ``log`` after the cards played, which ``observe``
    leaves as ``new_state`` made it (zero) and ``observe_into`` clears."""
    copy_items(v.slots, s.slots, s.slots.shape[0])
    v.slots[SEED], v.slots[UNIT], v.slots[SUB], v.slots[SEEDED] = 0, 0, 0, 0
    if not knows_partner(s.slots, seat):
        v.slots[PARTNER] = UNKNOWN
    if seat != s.slots[DECLARER] or s.slots[CALLED] < 0:  # the kitty is taken right after the call (C6)
        v.slots[KITTY], v.slots[DISCARDS], v.slots[PLAN] = 0, 0, 0
    for other in range(v.hands.shape[0]):
        v.hands[other], v.dealt[other] = 0, 0
    v.hands[seat], v.dealt[seat] = s.hands[seat], s.dealt[seat]
    copy_items(v.points, s.points, s.points.shape[0])
    copy_items(v.scores, s.scores, s.scores.shape[0])
    copy_rows(v.auction, s.auction, s.auction.shape[0])
    copy_items(v.log, s.log, s.slots[CARDS])


@njit(cache=True, inline="always")
def copy_into(dst: State, src: State) -> None:
    """``dst`` becomes a copy of ``src`` (same players), its random streams included, without allocating."""
    copy_items(dst.slots, src.slots, src.slots.shape[0])
    copy_items(dst.hands, src.hands, src.hands.shape[0])
    copy_items(dst.dealt, src.dealt, src.dealt.shape[0])
    copy_items(dst.points, src.points, src.points.shape[0])
    copy_items(dst.scores, src.scores, src.scores.shape[0])
    copy_rows(dst.auction, src.auction, src.auction.shape[0])
    copy_items(dst.log, src.log, src.log.shape[0])
    copy_rows(dst.rng, src.rng, src.rng.shape[0])
    copy_rows(dst.bot_rng, src.bot_rng, src.bot_rng.shape[0])
