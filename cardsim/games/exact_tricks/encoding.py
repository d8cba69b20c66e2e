"""The exact-tricks family's fixed encoding (issue 42; ``cardsim.encoding``), shared by its games (Wizard, Oh Hell:
their ``encoding.py`` hand this one on): the actions as one ``Discrete`` space and a seat's view as a bit-packed
observation, for the environments (``cardsim.envs``). Its sizes are the family's, whatever the rules: the 60 card
indexes of WIZARD60 (a smaller deck leaves its other cards' bits 0), bids and round sizes up to 20 (60 cards among
3), 3 to 7 players.

Actions: ``ACTIONS`` = (BID, 21), (TRUMP, 4), (CARD, 60): index 0..20 a bid, 21..24 a trump suit S H D C (B4),
25 + card index a card. The observation (``fields``) is read from ``observe(s, p, seat)`` only: the seat's hand, the
dealer, the round's size, the turned card and the trump, the bids it may see (B5), every seat's tricks, the cards
each seat has played, the trick in progress and who did not follow which suit.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cardsim.decisions import BID, CARD, TRUMP
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
from cardsim.games.exact_tricks.rules import DECK_SIZE, MAX_PLAYERS, MIN_PLAYERS, NO_SUIT, SUIT_OF, led_after
from cardsim.games.exact_tricks.state import (
    CARDS,
    DEALER,
    LEADER,
    N_PLAYED,
    POS,
    TRUMP_SUIT,
    TURNED,
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

MAX_CARDS = DECK_SIZE // MIN_PLAYERS  # 20: the most cards a round deals each, so the most tricks and the top bid
ACTIONS = ((BID, MAX_CARDS + 1), (TRUMP, 4), (CARD, DECK_SIZE))
ACTION_COUNT = sum(n for _, n in ACTIONS)  # 85
TABLE = action_table(ACTIONS)
SUITS = 4


def fields(players: int) -> list[Field]:
    """The observation's fields in order, for ``players`` seats (3 to 7)."""
    n = check_players(players, MIN_PLAYERS, MAX_PLAYERS)
    counts = MAX_CARDS + 1
    return layout([
        ("seat", n, "the observing seat (one-hot)"),
        ("decision", len(ACTIONS), "the decision at hand: bid, trump, card (one-hot; none once the round is over)"),
        ("to_move", n, "the seat to act (one-hot; none once the round is over)"),
        ("dealer", n, "the dealer, who bids last; the seat after it leads the first trick (one-hot)"),
        ("cards", MAX_CARDS, "the cards dealt to each seat, 1..20 (one-hot: bit cards - 1)"),
        ("hand", DECK_SIZE, "the seat's cards (bit = card index)"),
        ("turned", DECK_SIZE, "the turned card (B4, F3; one-hot card index, none if no card was turned)"),
        ("trump", SUITS, "the trump suit S H D C (one-hot; none: no trump, or the dealer is still to name it)"),
        ("bids", n * counts, "per seat, 21 bits: its bid 0..20 if this seat may see it (B5; one-hot, none if not "
                             "made or not seen)"),  # fmt: skip
        ("tricks_won", n * counts, "per seat, 21 bits: the tricks it has taken, 0..20 (one-hot)"),
        ("played", n * DECK_SIZE, "per seat, 60 bits: the cards it has played (bit = card index)"),
        ("leader", n, "the seat that led the trick in progress (one-hot; none outside the card play)"),
        ("trick", (n - 1) * DECK_SIZE, f"per position 0..{n - 2} of the trick in progress, 60 bits: the card played "
                                       "there (one-hot)"),  # fmt: skip
        ("not_followed", n * SUITS, "per seat, 4 bits: the led suits S H D C it has played a card of another suit to "
                                    "(Wizards and Jesters have no suit, B6)"),  # fmt: skip
    ])  # fmt: skip


def obs_bits(players: int) -> int:
    """The observation's length in bits for ``players`` seats (``ceil(obs_bits / 8)`` bytes)."""
    return size(fields(players))


@njit(cache=True, _nrt=False)
def encode(view: State, p: Params, seat: int, out: np.ndarray) -> int:
    """``seat``'s view ``observe(s, p, seat)`` as the observation of ``fields`` into ``out`` (uint8[ceil(obs_bits /
    8)], bit-packed little-endian); returns its length in bits. Reads nothing but the view."""
    sl, log, players = view.slots, view.log, view.hands.shape[0]
    clear(out)
    k = one_hot(out, 0, seat, players)
    k = one_hot(out, k, kind_of(TABLE, decision(view)), TABLE.shape[0])
    k = one_hot(out, k, to_move(view), players)
    k = one_hot(out, k, sl[DEALER], players)
    k = one_hot(out, k, sl[CARDS] - 1, MAX_CARDS)
    k = card_set(out, k, view.hands[seat], DECK_SIZE)
    k = one_hot(out, k, sl[TURNED], DECK_SIZE)
    k = one_hot(out, k, sl[TRUMP_SUIT], SUITS)
    k = seat_one_hots(out, k, view.bids, MAX_CARDS + 1)
    played = seat_one_hots(out, k, view.won, MAX_CARDS + 1)
    leader = played + players * DECK_SIZE
    trick, not_followed = leader + players, leader + players + (players - 1) * DECK_SIZE
    n, pos = sl[N_PLAYED], sl[POS]
    led, decided, i = NO_SUIT, False, 0  # the trick's led suit as B6 settles it; the card's position in the trick
    for j in range(n):
        if i == players:  # the next trick: nothing led yet
            led, decided, i = NO_SUIT, False, 0
        who, card = log[j, 0], log[j, 1]
        put_bit(out, played + who * DECK_SIZE + card)
        suit = SUIT_OF[card]
        missed = (led >= 0) & (suit >= 0) & (suit != led)  # no branch: who misses a suit is not predictable (-17%)
        at = not_followed + who * SUITS + (led & 3)
        out[at >> 3] |= np.uint8(missed) << np.uint8(at & 7)
        led, decided = led_after(led, decided, card)
        if j >= n - pos:  # the trick in progress
            one_hot(out, trick + i * DECK_SIZE, card, DECK_SIZE)
        i += 1
    if decision(view) == CARD:
        one_hot(out, leader, sl[LEADER], players)
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
