"""Built-in compiled call-partner bots: ``random`` and ``heuristic``.

Four decisions (RULES.md C4-C7): a bid or a pass (number and trump suit), the
card the declarer calls, the cards the declarer discards after taking the
kitty, and the card to play. A bot sees its own hand, the auction, the called
card, the cards played, and whether it is the partner (it holds the called
card); everybody learns the partner when the called card is played. Only the
declarer saw the kitty and knows the discards. The engine calls these
functions with the bot's id, so one compiled kernel serves every lineup.
"""

from __future__ import annotations

import numpy as np
from numba import njit

import cardsim.errors as errors
from cardsim.audit import load, store
from cardsim.cards import bit, lowest_card, nth_card, popcount
from cardsim.decisions import AUCTION, CALL, CARD
from cardsim.errors import BotFailure
from cardsim.games.callpartner.rules import (
    ACE,
    ACE_OF_SPADES,
    ACE_OF_SPADES_KEY,
    BY_KEY,
    FALSE_JACK,
    FULL_DECK,
    KEY,
    KING,
    MAX_BID,
    MIN_BID,
    NO_SUIT,
    POINT_MASK,
    QUEEN,
    RANK_OF,
    SPECIAL_KEY,
    SUIT_MASK,
    SUIT_OF,
    SUIT_RANK,
    TEN,
    TRUE_JACK,
    TRUE_JACK_KEY,
    TWO,
    final_winner,
    legal_mask,
)
from cardsim.games.callpartner.state import (
    ACTIVE,
    CALLED,
    CALLS,
    CARDS,
    DECLARER,
    DISCARDS,
    FORCED,
    HIGH,
    LEADER,
    LED,
    ONE_SUIT,
    PARTNER,
    PASS,
    PASSED,
    PHASE,
    PLAYED,
    REVEALED,
    SEAT,
    SIDE,
    TOP_KEY,
    TRICK,
    TRUMP,
    TWO_HOLDER,
    WINNER,
    Params,
    State,
    apply_outlined,
    audit_card,
    audit_start,
    audit_trick,
    contract_step,
    deal_around_hand,
    end_open_auction,
    end_trick,
    finish,
    legal_cards_of,
    legal_open_bid,
    next_bidder,
    open_call,
    play_card,
    reveals,
)
from cardsim.lineup import FIRST_STRONG
from cardsim.rng import below

RANDOM, HEURISTIC, HEURISTIC_V1 = 0, 1, 2
# ``run``'s arguments as typed values, not literals (each literal value would compile ``run`` once more): no seat
# passes by force; play on at strong seats (as the heuristic) or stop there.
NO_PASSER, PLAY_ON, STOP_AT_STRONG = np.int64(-1), np.bool_(False), np.bool_(True)
# Ids from cardsim.lineup.FIRST_STRONG on are the strong bots of bots.callpartner_strong: the drivers ask them for
# their decisions; the dispatch below treats them as the heuristic (a forced dealer's trump, and wherever no driver
# asks).
BOT_IDS = {"random": RANDOM, "heuristic": HEURISTIC, "heuristic_v1": HEURISTIC_V1}
RANDOM_LINEUP, ANY_LINEUP = True, False  # ``run_contract``'s compile-time choice of its bots
BOT_DOCS = {
    "random": "passes with probability 1/2, else a uniform allowed bid number with a uniform suit; calls a uniform "
    "card not in its hand, discards uniformly, plays a uniform legal card",
    "heuristic": "bids up to its expected side points (special winners, trump length, high cards, a partner's "
    "share) in its best suit, raising by one; calls the best missing trump; discards low cards of short suits "
    "(point cards first when discards count); wins tricks and feeds points to a winner it knows to be on its side "
    "and safe (a defender once the partner is known), else takes points or sheds its lowest non-point card",
    "heuristic_v1": "the heuristic before its last tuning: bids up to one point below its expected side points; "
    "calls and discards as the heuristic; as declarer or partner wins tricks and feeds points to a safe side "
    "winner, as a defender takes points and never feeds",
}

# Chance that a trump of each rank takes a trick (the jacks are special winners, valued apart).
_TRUMP_WIN = (0.35, 0.15, 0.15, 0.15, 0.15, 0.15, 0.2, 0.25, 0.3, 0.0, 0.45, 0.6, 0.8)
# Chance that a side-suit ace or king takes a trick, by the suit's rank (clubs lowest: a void player's
# discard of a higher suit beats it, C8 rule 6).
_SIDE_ACE = (0.35, 0.45, 0.55, 0.65)
_SIDE_KING = (0.12, 0.18, 0.25, 0.3)


def _win_chance(trump: int, card: int) -> float:
    key, suit, rank = int(KEY[trump, card]), int(SUIT_OF[card]), int(RANK_OF[card])
    if key == ACE_OF_SPADES_KEY:
        return 1.0
    if key == TRUE_JACK_KEY:
        return 0.95
    if key >= SPECIAL_KEY:
        return 0.85
    if suit == trump:
        return _TRUMP_WIN[rank]
    if rank == ACE:
        return _SIDE_ACE[SUIT_RANK[suit]]
    return _SIDE_KING[SUIT_RANK[suit]] if rank == KING else 0.0


# WIN_CHANCE[trump, card]: a rough chance that the card takes a trick for its holder.
WIN_CHANCE = np.array([[_win_chance(t, c) for c in range(52)] for t in range(4)])
# TRUMPISH[trump]: the trump suit and the special winners (the ace of spades, the true and false jack).
TRUMPISH = np.array(
    [int(SUIT_MASK[t]) | 1 << int(ACE_OF_SPADES) | 1 << int(TRUE_JACK[t]) | 1 << int(FALSE_JACK[t]) for t in range(4)],
    np.uint64,
)
# Calibration by self-play of heuristic bots (0.8 x the hand's trick points + BASE[players] fits the points the
# declaring side takes): the partner's share, the kitty and the discards.
_BASE = np.array([0.0, 0.0, 0.0, 11.5, 10.0, 7.5])
# How far below its expected points a bot bids: `heuristic` up to them (tournaments of one against three
# `heuristic_v1`, margins -2 to 3 tried: 0 scored best, +0.22 points per deal over 1), `heuristic_v1` one below.
BID_MARGIN, BID_MARGIN_V1 = 0.0, 1.0


@njit(cache=True)
def expected_points(hand: np.uint64, trump: int, players: int) -> float:
    """Rough points the declaring side takes with ``trump``: the hand's expected tricks times the points of an
    average trick, plus a partner's share and what the kitty and discards add."""
    tricks = 0.0
    m = hand
    while m:
        tricks += WIN_CHANCE[trump, lowest_card(m)]
        m &= m - np.uint64(1)
    trumps = popcount(hand & TRUMPISH[trump])
    tricks += 0.3 * max(0, trumps - 3)  # long trumps run
    if trumps >= 2:
        for suit in range(4):
            if suit != trump and not hand & SUIT_MASK[suit]:
                tricks += 0.3  # a void lets a trump win
    return 0.8 * tricks * 20.0 * players / 52.0 + _BASE[players]


@njit(cache=True)
def best_trump(hand: np.uint64, players: int) -> tuple:
    """The suit with the highest expected points, and those points."""
    best, best_points = 0, -1.0
    for suit in range(4):
        points = expected_points(hand, suit, players)
        if points > best_points:
            best, best_points = suit, points
    return best, best_points


@njit(cache=True)
def heuristic_bid(hand: np.uint64, high: int, players: int, margin: float) -> tuple:
    """The lowest allowed bid in the best suit while it is within the expected points less ``margin``
    (``BID_MARGIN``, or ``BID_MARGIN_V1`` for ``heuristic_v1``), else a pass (0)."""
    suit, points = best_trump(hand, players)
    number = max(MIN_BID, high + 1)
    if number <= min(MAX_BID, int(points - margin)):
        return number, suit
    return 0, 0


@njit(cache=True)
def heuristic_call(hand: np.uint64, trump: int) -> int:
    """The strongest card not in the hand: the ace of spades, the true jack, the false jack, the highest trump."""
    for i in range(BY_KEY.shape[1]):
        card = BY_KEY[trump, i]
        if not hand >> np.uint64(card) & np.uint64(1):
            return card
    return -1


@njit(cache=True, inline="always")
def heuristic_discard_one(hand: np.uint64, chosen: np.uint64, trump: int, discards_count: bool) -> int:
    """The card of ``hand & ~chosen`` that the heuristic keeps least (``hand``: the declarer's whole hand with the
    kitty, ``chosen``: the cards it has discarded already); see ``heuristic_discard``."""
    best, best_keep = -1, 10**9
    m = hand & ~chosen
    while m:
        card = lowest_card(m)
        m &= m - np.uint64(1)
        suit, rank = SUIT_OF[card], RANK_OF[card]
        if KEY[trump, card] >= SPECIAL_KEY or suit == trump:
            keep = 1000 + KEY[trump, card]
        else:
            keep = 16 * popcount(hand & SUIT_MASK[suit]) + rank + 4 * SUIT_RANK[suit]
            if rank == TWO:
                keep += 6  # a 2 may take a trick of its suit (C8 rule 4)
            if discards_count and TEN <= rank <= QUEEN:
                keep -= 30  # bank the point now
        if keep < best_keep:
            best, best_keep = card, keep
    return best


@njit(cache=True)
def heuristic_discard(hand: np.uint64, chosen: np.uint64, count: int, trump: int, discards_count: bool) -> np.uint64:
    """The discards ``chosen`` so far (a mask; ``hand`` is the whole hand with the kitty) and ``count`` more: low
    cards of short side suits; point cards that will hardly win a trick first when discards count for the
    declaring side (C6). Special winners and trumps are kept. Each card's keep score depends on the whole hand
    only, so the choice of a larger count contains this one: the strong bot's candidates are the ``count + 2``
    cards it keeps least, and one discard at a time gives the same cards."""
    for _ in range(count):
        chosen |= np.uint64(1) << np.uint64(heuristic_discard_one(hand, chosen, trump, discards_count))
    return chosen


@njit(cache=True, inline="always")
def _top_unseen_key(unseen: np.uint64, trump: int) -> int:
    """The highest key among cards this seat has not seen (-1 if none)."""
    for i in range(BY_KEY.shape[1]):
        card = BY_KEY[trump, i]
        if unseen >> np.uint64(card) & np.uint64(1):
            return KEY[trump, card]
    return -1


@njit(cache=True, inline="always")
def heuristic_play(
    hand: np.uint64, legal: np.uint64, n_played: int, players: int, trump: int, led: int, top_key: int, winner: int,
    one_suit: bool, two_holder: int, trick: np.uint64, seat: int, on_side: bool, friends: int, gone: np.uint64,
) -> int:  # fmt: skip
    """Win tricks and feed points to a winner of ``friends`` (bits: the seats it knows to be on its side, and
    feeds) that is safe; defenders take points themselves; otherwise shed the lowest non-point card.
    ``on_side``: this seat is the declarer or the partner; ``gone``: cards it knows are out of play. Inlined with
    ``_top_unseen_key`` into the trick loops: a call per card cost heuristic games 15% and saved no compile time
    (docs/performance.md)."""
    if not legal & (legal - np.uint64(1)):  # a single legal card
        return lowest_card(legal)
    unseen = FULL_DECK & ~hand & ~gone & ~trick
    if n_played == 0:  # lead a sure winner if the hand has one, else the lowest non-point card
        top_unseen = _top_unseen_key(unseen, trump)
        best, best_score = -1, -(10**9)
        m = legal
        while m:
            card = lowest_card(m)
            m &= m - np.uint64(1)
            key = KEY[trump, card]
            point = (POINT_MASK >> np.uint64(card)) & np.uint64(1)
            score = 1000 + key if key > top_unseen else -100 * np.int64(point) - key
            if score > best_score:
                best, best_score = card, score
        return best
    last = n_played == players - 1
    trick_points = popcount(trick & POINT_MASK)
    friendly = ((friends >> final_winner(winner, top_key, one_suit, two_holder)) & 1) == 1
    # The highest card still out (only where it matters: not the last to play, and a side winner or no points).
    top_unseen = 1000 if last or not (friendly or trick_points == 0) else _top_unseen_key(unseen, trump)
    feed = friendly and (last or top_key > top_unseen)
    best, best_score = -1, -(10**9)
    m = legal
    while m:
        card = lowest_card(m)
        m &= m - np.uint64(1)
        key = KEY[trump, card]
        point = np.int64((POINT_MASK >> np.uint64(card)) & np.uint64(1))
        same = one_suit and SUIT_OF[card] == led
        two = seat if same and RANK_OF[card] == TWO else two_holder
        wins = final_winner(seat if key > top_key else winner, max(key, top_key), same, two) == seat
        if feed:  # a point card to the side's winner, keeping the strong cards
            score = 100 * point - key
        elif wins and last:  # the cheapest winner, a point card if it costs little
            score = 1000 + 10 * point - key
        elif wins and (trick_points > 0 or on_side or key > top_unseen):  # take the trick with the strongest card
            score = 1000 + key
        else:  # shed: the lowest card that gives no point away
            score = -100 * point - key
        if score > best_score:
            best, best_score = card, score
    return best


# --- dispatch by bot id over the round's state machine (inlined into the game kernels) ----------------------


@njit(cache=True, inline="always")
def random_card(rng: np.ndarray, stream: int, legal: np.uint64) -> int:
    """The random bot's card: uniform among ``legal``."""
    return nth_card(legal, below(rng, stream, popcount(legal)))


@njit(cache=True, inline="always")
def play(
    bot: int, rng: np.ndarray, stream: int, hand: np.uint64, legal: np.uint64, n_played: int, players: int,
    trump: int, led: int, top_key: int, winner: int, one_suit: bool, two_holder: int, trick: np.uint64, seat: int,
    declarer: int, partner: int, revealed: bool, played: np.uint64, discards: np.uint64,
) -> int:  # fmt: skip
    """A card from ``legal`` (C7). The trick so far: ``trick`` (mask), ``led`` suit, ``top_key``/``winner`` (the
    highest KEY and its seat), ``one_suit`` and ``two_holder`` (C8 rule 4). ``played``: cards of finished tricks;
    ``discards`` are seen by the declarer only; ``partner`` only by the partner itself until ``revealed``."""
    if bot == RANDOM:
        return random_card(rng, stream, legal)
    # Only what this seat may know: the partner knows itself; the others learn the partner when the called
    # card is played; the declarer alone knows the discards.
    side = 1 << declarer
    if partner >= 0 and (revealed or seat == partner):
        side |= 1 << partner
    on_side = seat == declarer or seat == partner
    if on_side:
        friends = side
    elif bot == HEURISTIC_V1:
        friends = 0  # a defender that feeds nobody
    elif partner >= 0 and revealed:  # a defender among defenders it knows
        friends = ((1 << players) - 1) & ~side
    else:
        friends = 1 << seat
    gone = played | discards if seat == declarer else played
    return heuristic_play(hand, legal, n_played, players, trump, led, top_key, winner, one_suit, two_holder, trick,
                          seat, on_side, friends, gone)  # fmt: skip


@njit(cache=True, inline="always")
def act(bot: int, s: State, p: Params, seat: int) -> int:
    """The action of built-in bot ``bot`` (strong ids act as the heuristic) for ``seat``, the seat to move, from
    what that seat sees; draws from the seat's shared stream 1 + seat. Action codes as in ``state``."""
    return act_of(bot, s.slots, s.hands, s.rng, p, seat)


@njit(cache=True, inline="always")
def act_of(bot: int, slots: np.ndarray, hands: np.ndarray, rng: np.ndarray, p: Params, seat: int) -> int:
    """``act`` on the state's arrays (loops unpack the State once)."""
    if slots[PHASE] != CARD:
        return contract_action(bot, slots, hands, rng, p, seat)
    players = p.players
    legal = legal_cards_of(slots, hands)
    return play(bot, rng, 1 + seat, hands[seat], legal, slots[CARDS] % players, players, slots[TRUMP], slots[LED],
                slots[TOP_KEY], slots[WINNER], slots[ONE_SUIT] != 0, slots[TWO_HOLDER], np.uint64(slots[TRICK]),
                seat, slots[DECLARER], slots[PARTNER], slots[REVEALED] != 0, np.uint64(slots[PLAYED]),
                np.uint64(slots[DISCARDS]))  # fmt: skip


@njit(cache=True, inline="always")
def contract_action(bot: int, slots: np.ndarray, hands: np.ndarray, rng: np.ndarray, p: Params, seat: int) -> int:
    """``act_of`` before the cards: a bid, the call or a discard. ``run_inline`` plays the cards in its own trick
    loops, so it calls only this (inlining ``act_of`` there compiled the heuristic's card play once more)."""
    if bot == RANDOM:
        return random_contract_action(slots, hands, rng, p, seat)
    hand = hands[seat]
    if slots[PHASE] == AUCTION:
        if slots[FORCED]:  # all passed: the dealer's trump for its 10 (C4)
            return 4 * MIN_BID + best_trump(hand, p.players)[0]
        return open_bid(bot, rng, 1 + seat, hand, slots[HIGH], p.players)
    if slots[PHASE] == CALL:  # C5: any card not in the hand
        return heuristic_call(hand, slots[TRUMP])
    # DISCARD (C6): one card of the hand with the kitty
    chosen = np.uint64(slots[DISCARDS])
    return heuristic_discard_one(hand | chosen, chosen, slots[TRUMP], p.discards_count)


@njit(cache=True, inline="always")
def random_contract_action(slots: np.ndarray, hands: np.ndarray, rng: np.ndarray, p: Params, seat: int) -> int:
    """``contract_action`` of the random bot: one draw from the seat's stream, uniform among the legal actions
    (a bid as ``random_bid``)."""
    stream, hand = 1 + seat, hands[seat]
    if slots[PHASE] == AUCTION:
        if slots[FORCED]:
            return 4 * MIN_BID + below(rng, stream, 4)
        return random_bid(rng, stream, slots[HIGH])
    if slots[PHASE] == CALL:
        return random_card(rng, stream, FULL_DECK & ~hand)
    return random_card(rng, stream, hand)


@njit(cache=True, inline="always")
def open_bid(bot: int, rng: np.ndarray, stream: int, hand: np.uint64, high: int, players: int) -> int:
    """The built-in bot's call in the open auction (C4) over the highest bid ``high``: PASS or 4 * number + suit."""
    if bot == RANDOM:
        return random_bid(rng, stream, high)
    number, suit = heuristic_bid(hand, high, players, BID_MARGIN_V1 if bot == HEURISTIC_V1 else BID_MARGIN)
    return PASS if number == 0 else 4 * number + suit


@njit(cache=True, inline="always")
def random_bid(rng: np.ndarray, stream: int, high: int) -> int:
    """The random bot's call in the open auction over ``high``, in one draw: half of the outcomes pass, the rest
    are (number, suit) pairs, all equally likely."""
    lowest = max(MIN_BID, high + 1)
    pairs = 4 * (MAX_BID - lowest + 1)
    draw = below(rng, stream, 2 * pairs)
    if draw < pairs:
        return PASS
    return 4 * (lowest + ((draw - pairs) >> 2)) + ((draw - pairs) & 3)


@njit(cache=True, inline="always")
def open_auction(
    slots: np.ndarray, hands: np.ndarray, scores: np.ndarray, auction: np.ndarray, rng: np.ndarray, p: Params,
    bots: np.ndarray, stops: int, passer: int, random_lineup: bool,
) -> int:  # fmt: skip
    """C4 with the built-in bots (the random bot at every seat if ``random_lineup``, see ``run_inline``) from the
    state on, in registers (through the state's own ``legal_open_bid``, ``open_call``, ``next_bidder``,
    ``end_open_auction``), until a seat of the bit mask ``stops`` is to speak
    (returned, the state stored) or the open auction is over (-1, the state at its next decision). Seat
    ``passer`` passes at its turn (see ``run``). Inlined into ``run``: a call would pass its seven arrays as some
    60 machine words once a round (docs/DESIGN.md, fast loops)."""
    seat, calls, passed, active = slots[SEAT], slots[CALLS], slots[PASSED], slots[ACTIVE]
    high, trump, declarer = slots[HIGH], slots[TRUMP], slots[DECLARER]
    over = False
    while not over:
        if (stops >> seat) & 1:
            break
        if seat == passer:
            action = PASS
        elif random_lineup:
            action = random_bid(rng, 1 + seat, high)
        else:
            action = open_bid(int(bots[seat, 0]), rng, 1 + seat, hands[seat], high, p.players)
        if not legal_open_bid(action, high):
            raise BotFailure("callpartner: a built-in bot chose an illegal bid")
        calls, passed, active, high, trump, declarer, over = open_call(auction, calls, seat, action, passed, active,
                                                                       high, trump, declarer)  # fmt: skip
        if not over:
            seat = next_bidder(seat, passed, p.players)
    slots[SEAT], slots[CALLS], slots[PASSED], slots[ACTIVE] = seat, calls, passed, active
    slots[HIGH], slots[TRUMP], slots[DECLARER] = high, trump, declarer
    if not over:
        return seat
    end_open_auction(slots, scores, p)
    return -1


@njit(cache=True, _nrt=False)
def random_tricks(a: State, b: State, p: Params) -> None:
    """C7, C8 of two rounds at once when every seat of both holds the random bot (``run_pair``): a trick of ``a``,
    then a trick of ``b`` (``_random_trick``), in registers (through the state's own ``play_card``/``end_trick``).
    A round is one chain of dependent steps, and two chains keep the CPU busier than one; the general loop, which
    can stop at any card, cost random lineups a third of their speed. No one observes these rounds: no card log.
    A function of its own, not inlined into the work item: there its live values spill to the stack
    (docs/DESIGN.md, fast loops). A round that all passed under ``all_pass=redeal`` is over already: it plays no
    trick."""
    players, total = p.players, p.hand * p.players
    over, other_over = a.slots[SEAT] < 0, b.slots[SEAT] < 0
    trump, called, k, leader, left, revealed = _tricks_start(a.slots, a.hands, players)
    other_trump, other_called, other_k, other_leader, other_left, other_revealed = _tricks_start(b.slots, b.hands,
                                                                                                 players)  # fmt: skip
    k, other_k = total if over else k, total if other_over else other_k
    while k < total or other_k < total:
        if k < total:
            leader = _random_trick(a.hands, a.points, a.rng, players, trump, called, leader)
            k += players
        if other_k < total:
            other_leader = _random_trick(b.hands, b.points, b.rng, players, other_trump, other_called, other_leader)
            other_k += players
    if not over:
        _tricks_end(a.slots, a.points, a.scores, p, k, leader, left, revealed)
    if not other_over:
        _tricks_end(b.slots, b.points, b.scores, p, other_k, other_leader, other_left, other_revealed)


@njit(cache=True, inline="always")
def _tricks_start(slots: np.ndarray, hands: np.ndarray, players: int) -> tuple:
    """``random_tricks``' registers of a round whose tricks begin: (trump, called card, cards played, leader, the
    cards still in hands, whether the partner is revealed). Every card still in a hand is played by the end, so
    whether the called card reveals the partner follows from them."""
    left = np.uint64(0)
    for seat in range(players):
        left |= hands[seat]
    called = slots[CALLED]
    return slots[TRUMP], called, slots[CARDS], slots[LEADER], left, slots[REVEALED] != 0 or reveals(called, left)


@njit(cache=True, inline="always")
def _random_trick(hands: np.ndarray, points: np.ndarray, rng: np.ndarray, players: int, trump: int, called: int,
                  leader: int) -> int:  # fmt: skip
    """One trick of random bots from ``leader``: the lead, then the followers, as the C loops play it; returns the
    seat that takes it (and its points)."""
    seat = leader
    card = random_card(rng, 1 + seat, hands[seat])
    hands[seat] ^= bit(card)
    led, top_key, winner, one_suit, two_holder, trick, _ = play_card(
        card, seat, 0, trump, called, NO_SUIT, -1, seat, True, -1, np.uint64(0), False)  # fmt: skip
    for pos in range(1, players):
        seat = seat + 1 if seat + 1 < players else 0
        legal = legal_mask(hands[seat], led)
        card = random_card(rng, 1 + seat, legal)
        if errors.REFUSE_ILLEGAL_CARDS and not legal & bit(card):
            raise BotFailure("callpartner: a random bot played an illegal card")
        hands[seat] ^= bit(card)
        led, top_key, winner, one_suit, two_holder, trick, _ = play_card(
            card, seat, pos, trump, called, led, top_key, winner, one_suit, two_holder, trick, False)  # fmt: skip
    return end_trick(winner, top_key, one_suit, two_holder, trick, points)


@njit(cache=True, inline="always")
def _tricks_end(slots: np.ndarray, points: np.ndarray, scores: np.ndarray, p: Params, k: int, leader: int,
                left: np.uint64, revealed: bool) -> None:  # fmt: skip
    """``random_tricks``' registers stored back once the last trick is taken, and the round scored (``finish``)."""
    slots[CARDS], slots[LEADER], slots[PLAYED], slots[REVEALED] = k, leader, slots[PLAYED] | np.int64(left), revealed
    slots[WINNER], slots[TRICK] = leader, 0
    finish(slots, points, scores, p)


@njit(cache=True, _nrt=False)
def play_tricks(
    slots: np.ndarray, hands: np.ndarray, points: np.ndarray, scores: np.ndarray, rng: np.ndarray, log: np.ndarray,
    p: Params, bots: np.ndarray, stops: int, audit: np.ndarray | None,
) -> int:  # fmt: skip
    """C7, C8 with the built-in bots from the state on, in registers (through the state's own ``play_card`` and
    ``end_trick``), until a seat of the bit mask ``stops`` is to play (returned, the state stored) or the round
    is over (-1)."""
    players = p.players
    trump, called, declarer, partner = slots[TRUMP], slots[CALLED], slots[DECLARER], slots[PARTNER]
    discards, total = np.uint64(slots[DISCARDS]), p.hand * players
    k, leader, led, top_key, winner = slots[CARDS], slots[LEADER], slots[LED], slots[TOP_KEY], slots[WINNER]
    one_suit, two_holder, trick = slots[ONE_SUIT] != 0, slots[TWO_HOLDER], np.uint64(slots[TRICK])
    played, revealed = np.uint64(slots[PLAYED]), slots[REVEALED] != 0
    pos = k % players
    seat = slots[SEAT]
    broken, taken = load(audit)
    while k < total:
        if (stops >> seat) & 1:
            store(audit, broken, taken)
            slots[CARDS], slots[LEADER], slots[LED], slots[TOP_KEY], slots[WINNER] = k, leader, led, top_key, winner
            slots[ONE_SUIT], slots[TWO_HOLDER], slots[TRICK] = one_suit, two_holder, np.int64(trick)
            slots[PLAYED], slots[REVEALED], slots[SEAT] = np.int64(played), revealed, seat
            return seat
        hand = hands[seat]
        legal = legal_mask(hand, led)
        card = play(int(bots[seat, 0]), rng, 1 + seat, hand, legal, pos, players, trump, led, top_key, winner,
                    one_suit, two_holder, trick, seat, declarer, partner, revealed, played, discards)  # fmt: skip
        if errors.REFUSE_ILLEGAL_CARDS and not legal & bit(card):
            raise BotFailure("callpartner: a built-in bot played an illegal card")
        hands[seat] = hand ^ bit(card)
        if audit is not None:
            broken, taken = audit_card(audit, hands, seat, card, broken, taken)
        log[k] = card
        led, top_key, winner, one_suit, two_holder, trick, revealed = play_card(
            card, seat, pos, trump, called, led, top_key, winner, one_suit, two_holder, trick, revealed)  # fmt: skip
        k += 1
        pos += 1
        if pos == players:
            winner = end_trick(winner, top_key, one_suit, two_holder, trick, points)
            if audit is not None:
                broken = audit_trick(points, broken, taken)
            played |= trick
            leader, seat, pos = winner, winner, 0
            led, top_key, one_suit, two_holder, trick = NO_SUIT, -1, True, -1, np.uint64(0)
        else:
            seat = seat + 1 if seat + 1 < players else 0  # no division by a variable in the hot loop
    store(audit, broken, taken)
    slots[CARDS], slots[LEADER], slots[PLAYED], slots[REVEALED] = k, leader, np.int64(played), revealed
    slots[LED], slots[TOP_KEY], slots[WINNER], slots[ONE_SUIT], slots[TWO_HOLDER], slots[TRICK] = (NO_SUIT, -1, leader,
                                                                                                  1, -1, 0)
    finish(slots, points, scores, p)
    return -1


@njit(cache=True, _nrt=False)
def run(s: State, p: Params, bots: np.ndarray, stop_strong: bool, passer: int, audit: np.ndarray | None) -> int:
    """``run_inline`` as a function of its own, for the drivers that call it from loops with reference counts."""
    return run_inline(s, p, bots, stop_strong, passer, audit)


@njit(cache=True, inline="always")
def run_inline(s: State, p: Params, bots: np.ndarray, stop_strong: bool, passer: int,
               audit: np.ndarray | None) -> int:  # fmt: skip
    """The built-in bots of ``bots`` (the lineup table: row[0] the id, -1 for a Python bot) play on from ``s``
    until a seat with id -1 (or, if ``stop_strong``, a strong id) is to move (returned), or the round is over
    (-1): the contract (``run_contract``), then the cards (``play_tricks``). Strong ids play as the heuristic when
    not stopped at. Seat ``passer`` (-1: none) passes at its turn of the auction whatever its bot would bid (the
    bid advice's pass play). Every action goes through ``apply`` or the fast trick loops over the same steps.
    ``audit``: None, or the unit's ``--check`` row (``state.audit_start``, ``state.audit_card``,
    ``state.audit_trick``). Callers pass every argument in these types (``stop_strong`` ``PLAY_ON`` or
    ``STOP_AT_STRONG``, ``passer`` an int64 such as ``NO_PASSER``, ``bots`` a writable array): each other type (an
    omitted argument, a literal, a read-only global) would compile this and everything it calls once more. Inlined
    into the batch kernel's loop without reference counts (``games.callpartner.play.builtin_block``): a call per
    round, with the State as some 70 machine words, cost random self-play 9% (docs/DESIGN.md, fast loops)."""
    stops = np.int64(0)  # not the literal 0: each callee would compile for Literal[int](0) too
    for seat in range(p.players):
        bot = bots[seat, 0]
        if bot < 0 or (stop_strong and bot >= FIRST_STRONG):
            stops |= 1 << seat
    seat = run_contract(s, p, bots, stops, passer, ANY_LINEUP)
    if seat >= 0 or s.slots[SEAT] < 0:
        return seat
    if audit is not None:
        audit_start(audit, s, p)
    return play_tricks(s.slots, s.hands, s.points, s.scores, s.rng, s.log, p, bots, stops, audit)


@njit(cache=True, inline="always")
def run_pair(a: State, b: State, p: Params, bots: np.ndarray) -> None:
    """Two dealt rounds of random bots at once (``play.random_block``; ``bots`` their table): the contract of each
    (``run_contract``), then their tricks in turn (``random_tricks``). Each round draws from its own streams, so
    both end as ``run_inline`` would leave them, but for the cards' log, which no one reads."""
    random_contract(a, p, bots)
    random_contract(b, p, bots)
    random_tricks(a, b, p)


@njit(cache=True, _nrt=False)
def random_contract(s: State, p: Params, bots: np.ndarray) -> None:
    """``run_contract`` for random bots at every seat, a function of its own: inlined twice into ``run_pair`` it
    cost the random work item's cold compile 4 s (6.5 -> 10.7 s)."""
    run_contract(s, p, bots, np.int64(0), NO_PASSER, RANDOM_LINEUP)


@njit(cache=True, inline="always")
def run_contract(s: State, p: Params, bots: np.ndarray, stops: int, passer: int, random_lineup: bool) -> int:
    """C4-C6 (the auction, the call, the discards) with the built-in bots from the state on, until a seat of the
    bit mask ``stops`` is to move (returned) or the cards begin (-1). ``random_lineup`` is one of the constants
    ``RANDOM_LINEUP`` (the random bot at every seat) or ``ANY_LINEUP``: numba prunes every test of it as it
    compiles, so random pairs compile the random bot's actions alone. ``passer``: see ``run_inline``."""
    slots, hands, scores, auction, rng = s.slots, s.hands, s.scores, s.auction, s.rng
    while True:
        seat = slots[SEAT]
        if seat < 0:
            return -1
        if (stops >> seat) & 1:
            return seat
        phase = slots[PHASE]
        if phase == CARD:
            return -1
        if phase == AUCTION and not slots[FORCED]:
            seat = open_auction(slots, hands, scores, auction, rng, p, bots, stops, passer, random_lineup)
            if seat >= 0:
                return seat
            continue
        if random_lineup:
            action = random_contract_action(slots, hands, rng, p, seat)
        else:  # the contract's other decisions (the cards are ``play_tricks``' and ``random_tricks``')
            action = contract_action(int(bots[seat, 0]), slots, hands, rng, p, seat)
        if not contract_step(slots, hands, scores, auction, p, action):
            raise BotFailure("callpartner: a built-in bot chose an illegal action")


# --- the bid advice's completions (also the strong bidder's play-outs) --------------------------------------

PASS_PLAY, PLAYS = 4, 5  # play index of the pass; 0..3 are the seat declaring in S H D C
# How the seat ended a deal it passed in (the pass play's ``roles``).
ROLES = ("all_passed", "defender", "partner", "forced_declarer")
NOBODY, DEFENDER, PARTNER_ROLE, DECLARER_ROLE = range(4)


@njit(cache=True)
def complete(
    s: State, p: Params, bots: np.ndarray, seed: np.uint64, key: int, sample: int, hand: np.uint64, seat: int,
    out: tuple,
) -> None:  # fmt: skip
    """One completion (streams (seed, sample, key)) of the deals around ``hand`` at ``seat`` (the dealer is the
    last seat), played five times by the built-in ``bots`` in the round ``s``: ``out`` = (side, passing, roles);
    side[sample, trump] = the declaring side's points when the seat declares 10 in that trump (the others pass);
    passing[sample] and roles[sample] = the seat's score and role when it passes and the bots hold the auction."""
    side, passing, roles = out
    dealer = p.players - 1
    for play in range(PLAYS):
        deal_around_hand(s, p, seed, sample, key, dealer, seat, hand)
        if play < PASS_PLAY:  # the others pass; the level only matters for the score, taken from side
            while s.slots[SEAT] != seat:
                apply_outlined(s, p, np.int64(PASS))
            apply_outlined(s, p, np.int64(4 * MIN_BID + play))
            while s.slots[PHASE] == AUCTION:
                apply_outlined(s, p, np.int64(PASS))
            run(s, p, bots, PLAY_ON, NO_PASSER, None)
            side[sample, play] = s.slots[SIDE]
        else:
            run(s, p, bots, PLAY_ON, seat, None)
            declarer = s.slots[DECLARER]
            if declarer < 0:
                passing[sample], roles[sample] = 0, NOBODY
            else:
                passing[sample] = s.scores[seat]
                roles[sample] = (DECLARER_ROLE if declarer == seat else PARTNER_ROLE if s.slots[PARTNER] == seat
                                 else DEFENDER)  # fmt: skip
