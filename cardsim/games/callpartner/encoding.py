"""Call-partner's fixed encoding (issue 42; ``cardsim.encoding``): its actions as one ``Discrete`` space and a seat's
view as a bit-packed observation, for the environments (``cardsim.envs``). Its sizes are the game's, whatever the
rules: the 52 cards of FRENCH52, 3 to 5 players.

Actions: ``ACTIONS`` = (AUCTION, 84), (CALL, 52), (DISCARD, 52), (CARD, 52): index 0 a pass and 4 * number + suit a
bid (40..83; 1..39 are never legal), 84 + card the called card (C5), 136 + card a discard (C6), 188 + card a card
played. The observation (``fields``) is read from ``observe(s, p, seat)`` only: the seat's hand, the dealer, the
auction (the highest bid, its suit and bidder, who passed, each seat's bids), the contract, the called card, the
partner if this seat knows it, the kitty and the discards if this seat took them, every seat's points, the cards
each seat has played, the trick in progress and who did not follow which suit.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cardsim.cards import FRENCH52
from cardsim.decisions import AUCTION, CALL, CARD, DISCARD
from cardsim.encoding import (
    Field,
    action_table,
    card_set,
    check_players,
    clear,
    code_of,
    kind_of,
    layout,
    one_hot,
    put_bit,
    seat_one_hots,
    size,
)
from cardsim.games.callpartner.rules import (
    MAX_BID,
    MAX_PLAYERS,
    MIN_BID,
    MIN_PLAYERS,
    SUIT_OF,
    TOTAL_POINTS,
    trick_winner,
)
from cardsim.games.callpartner.state import (
    CALLED,
    CALLS,
    CARDS,
    DEALER,
    DECLARER,
    DISCARDS,
    FORCED,
    HIGH,
    KITTY,
    LEADER,
    PARTNER,
    PASSED,
    TRUMP,
    UNKNOWN,
    Params,
    State,
    apply,
    deal,
    decision,
    legal_actions,
    legal_cards,
    observe,
    observe_into,
    scores,
    to_move,
)
from cardsim.games.generic import legal_mask_of, register

__all__ = ["ACTIONS", "ACTION_COUNT", "Field", "action_code", "encode", "fields", "legal_mask", "obs_bits"]

DECK = FRENCH52.size  # 52
ACTIONS = ((AUCTION, 4 * MAX_BID + 4), (CALL, DECK), (DISCARD, DECK), (CARD, DECK))
ACTION_COUNT = sum(n for _, n in ACTIONS)  # 240
TABLE = action_table(ACTIONS)
SUITS = 4
NUMBERS = MAX_BID - MIN_BID + 1  # a bid's numbers 10..20


def fields(players: int) -> list[Field]:
    """The observation's fields in order, for ``players`` seats (3 to 5)."""
    n = check_players(players, MIN_PLAYERS, MAX_PLAYERS)
    return layout([
        ("seat", n, "the observing seat (one-hot)"),
        ("decision", len(ACTIONS), "the decision at hand: auction, call, discard, card (one-hot; none once the round "
                                   "is over)"),  # fmt: skip
        ("to_move", n, "the seat to act (one-hot; none once the round is over)"),
        ("dealer", n, "the dealer; the seat after it opens the auction and leads the first trick (one-hot)"),
        ("hand", DECK, "the seat's cards (bit = card index; the declarer's with the kitty until it discards)"),
        ("high_bid", NUMBERS, "the highest bid's number 10..20 so far, the contract's once the auction is over "
                              "(one-hot: bit number - 10; none before a bid)"),  # fmt: skip
        ("trump", SUITS, "the highest bid's suit S H D C, the trump once the auction is over (one-hot)"),
        ("declarer", n, "the highest bidder so far, the declarer once the auction is over (one-hot)"),
        ("passed", n, "the seats that have passed (C4; one bit per seat)"),
        ("forced", 1, "1 while the dealer must declare 10 after all passed (all_pass=dealer_forced)"),
        ("bid_numbers", n * NUMBERS, "per seat, 11 bits: the highest number it has bid, 10..20 (one-hot: bit "
                                     "number - 10; none if it has not bid)"),  # fmt: skip
        ("bid_suits", n * SUITS, "per seat, 4 bits: the suits S H D C it has bid"),
        ("called", DECK, "the called card (C5; one-hot card index, none before the call)"),
        ("partner_known", 1, "1 once this seat knows the partner, or that there is none (C5)"),
        ("partner", n, "the partner if this seat knows it (one-hot; none: not known, or nobody holds the called "
                       "card)"),  # fmt: skip
        ("kitty", DECK, "the kitty, to the declarer once it has taken it (C6; bit = card index)"),
        ("discards", DECK, "the declarer's discards so far, to the declarer only (C6; bit = card index)"),
        ("points", n * (TOTAL_POINTS + 1), "per seat, 21 bits: the card points it has taken, 0..20 (one-hot)"),
        ("played", n * DECK, "per seat, 52 bits: the cards it has played (bit = card index)"),
        ("leader", n, "the seat that led the trick in progress (one-hot; none outside the card play)"),
        ("trick", (n - 1) * DECK, f"per position 0..{n - 2} of the trick in progress, 52 bits: the card played "
                                  "there (one-hot)"),  # fmt: skip
        ("not_followed", n * SUITS, "per seat, 4 bits: the led suits S H D C it has played a card of another suit "
                                    "to (C7)"),  # fmt: skip
    ])  # fmt: skip


def obs_bits(players: int) -> int:
    """The observation's length in bits for ``players`` seats (``ceil(obs_bits / 8)`` bytes)."""
    return size(fields(players))


@njit(cache=True, _nrt=False)
def encode(view: State, p: Params, seat: int, out: np.ndarray) -> int:
    """``seat``'s view ``observe(s, p, seat)`` as the observation of ``fields`` into ``out`` (uint8[ceil(obs_bits /
    8)], bit-packed little-endian); returns its length in bits. Reads nothing but the view."""
    sl, log, auction, players = view.slots, view.log, view.auction, view.hands.shape[0]
    clear(out)
    k = one_hot(out, 0, seat, players)
    k = one_hot(out, k, kind_of(TABLE, decision(view)), TABLE.shape[0])
    k = one_hot(out, k, to_move(view), players)
    k = one_hot(out, k, sl[DEALER], players)
    k = card_set(out, k, view.hands[seat], DECK)
    k = one_hot(out, k, sl[HIGH] - MIN_BID if sl[HIGH] > 0 else -1, NUMBERS)
    k = one_hot(out, k, sl[TRUMP], SUITS)
    k = one_hot(out, k, sl[DECLARER], players)
    k = card_set(out, k, np.uint64(sl[PASSED]), players)
    k = one_hot(out, k, 0 if sl[FORCED] else -1, 1)
    suits = k + players * NUMBERS
    for other in range(players):
        top = -1
        for c in range(sl[CALLS]):
            code = auction[c, 1]
            if auction[c, 0] == other and code > 0:
                top = max(top, (code >> 2) - MIN_BID)
                put_bit(out, suits + other * SUITS + (code & 3))
        one_hot(out, k + other * NUMBERS, top, NUMBERS)
    k = one_hot(out, suits + players * SUITS, sl[CALLED], DECK)
    known = sl[PARTNER] != UNKNOWN
    k = one_hot(out, k, 0 if known else -1, 1)
    k = one_hot(out, k, sl[PARTNER] if known else -1, players)
    k = card_set(out, k, np.uint64(sl[KITTY]), DECK)
    k = card_set(out, k, np.uint64(sl[DISCARDS]), DECK)
    played = seat_one_hots(out, k, view.points, TOTAL_POINTS + 1)
    leading = played + players * DECK
    trick, not_followed = leading + players, leading + players + (players - 1) * DECK
    n, trump = sl[CARDS], sl[TRUMP]
    start = n - n % players  # the trick in progress begins here
    leader = sl[DEALER] + 1 if sl[DEALER] + 1 < players else 0  # C7: the first trick is led left of the dealer
    led, i = -1, 0  # the trick's led suit; the card's position in the trick
    for j in range(n):
        card, who = log[j], leader + i if leader + i < players else leader + i - players
        if i == 0:
            led = SUIT_OF[card]
        put_bit(out, played + who * DECK + card)
        if SUIT_OF[card] != led:
            put_bit(out, not_followed + who * SUITS + led)
        if j >= start:
            one_hot(out, trick + i * DECK, card, DECK)
        i += 1
        if i == players:  # the trick's winner leads the next
            leader += trick_winner(log[j + 1 - players : j + 1], players, trump)
            leader, i = leader if leader < players else leader - players, 0
    if decision(view) == CARD:
        one_hot(out, leading, sl[LEADER], players)
    return not_followed + players * SUITS


@njit(cache=True, _nrt=False)
def legal_mask(s: State, p: Params, out: np.ndarray) -> None:
    """``out`` (int8[ACTION_COUNT]) 1 at the legal action indexes of the decision at hand (the state machine's legal
    actions), all 0 once the round is over."""
    legal_mask_of(s, p, out, TABLE)


@njit(cache=True, _nrt=False)
def action_code(s: State, index: int) -> int:
    """The state machine's code of action ``index`` if it is of the decision at hand, else -1."""
    return code_of(TABLE, decision(s), index)


register(State, encode=encode, legal_mask=legal_mask, action_code=action_code, deal=deal, decision=decision,
         legal_cards=legal_cards, legal_actions=legal_actions, scores=scores, observe=observe,
         observe_into=observe_into, to_move=to_move, apply=apply)  # fmt: skip
