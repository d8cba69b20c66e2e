"""Differenzler's fixed encoding (issue 42; ``cardsim.encoding``): its actions as one ``Discrete`` space and a seat's
view as a bit-packed observation, for the environments (``cardsim.envs``).

Actions: ``ACTIONS`` = (PREDICT, 158), (CARD, 36): index 0..157 the prediction (A7), 158 + card index (JASS36) a
card. The observation (``fields``) is read from ``observe(s, p, seat)`` only: the seat's hand, First Hand, the
shown trump card, the predictions it may see, every seat's points and tricks, the cards each seat has played, the
trick in progress and who did not follow which suit.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cardsim.cards import JASS36
from cardsim.decisions import CARD, PREDICT
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
from cardsim.games.differenzler.rules import MAX_PREDICTION, PLAYERS, SUIT_OF, TOTAL_POINTS, TRICKS
from cardsim.games.differenzler.state import (
    FIRST_HAND,
    LEADER,
    POS,
    TRICK,
    TRUMP,
    TRUMP_CARD,
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

DECK = JASS36.size  # 36
ACTIONS = ((PREDICT, MAX_PREDICTION + 1), (CARD, DECK))
ACTION_COUNT = sum(n for _, n in ACTIONS)  # 194
TABLE = action_table(ACTIONS)
SUITS = 4


def fields(players: int = PLAYERS) -> list[Field]:
    """The observation's fields in order (Differenzler is played by 4)."""
    n = check_players(players, PLAYERS, PLAYERS)
    return layout([
        ("seat", n, "the observing seat (one-hot)"),
        ("decision", len(ACTIONS), "the decision at hand: predict, card (one-hot; none once the round is over)"),
        ("to_move", n, "the seat to act (one-hot; none once the round is over)"),
        ("first_hand", n, "First Hand, who predicts first and leads the first trick (A6; the dealer is the seat "
                          "before it)"),  # fmt: skip
        ("hand", DECK, "the seat's cards (bit = card index)"),
        ("trump_card", DECK, "the card the dealer showed (A5; one-hot card index)"),
        ("trump", SUITS, "the trump suit S H D C (one-hot)"),
        ("predictions", n * (MAX_PREDICTION + 1), "per seat, 158 bits: its prediction 0..157 if this seat may see "
                                                  "it (A7; one-hot, none if not)"),  # fmt: skip
        ("points", n * (TOTAL_POINTS + 1), "per seat, 158 bits: the card points it has taken, 0..157 (one-hot)"),
        ("tricks_won", n * (TRICKS + 1), "per seat, 10 bits: the tricks it has taken, 0..9 (one-hot)"),
        ("played", n * DECK, "per seat, 36 bits: the cards it has played (bit = card index)"),
        ("leader", n, "the seat that led the trick in progress (one-hot; none outside the card play)"),
        ("trick", (n - 1) * DECK, "per position 0..2 of the trick in progress, 36 bits: the card played there "
                                  "(one-hot)"),  # fmt: skip
        ("not_followed", n * SUITS, "per seat, 4 bits: the led suits S H D C it has played another suit to "
                                    "(trumping included, A8)"),  # fmt: skip
    ])  # fmt: skip


def obs_bits(players: int = PLAYERS) -> int:
    """The observation's length in bits (``ceil(obs_bits / 8)`` bytes)."""
    return size(fields(players))


@njit(cache=True, _nrt=False)
def encode(view: State, p: Params, seat: int, out: np.ndarray) -> int:
    """``seat``'s view ``observe(s, p, seat)`` as the observation of ``fields`` into ``out`` (uint8[ceil(obs_bits /
    8)], bit-packed little-endian); returns its length in bits. Reads nothing but the view."""
    sl, history = view.slots, view.history
    clear(out)
    k = one_hot(out, 0, seat, PLAYERS)
    k = one_hot(out, k, kind_of(TABLE, decision(view)), TABLE.shape[0])
    k = one_hot(out, k, to_move(view), PLAYERS)
    k = one_hot(out, k, sl[FIRST_HAND], PLAYERS)
    k = card_set(out, k, view.hands[seat], DECK)
    k = one_hot(out, k, sl[TRUMP_CARD], DECK)
    k = one_hot(out, k, sl[TRUMP], SUITS)
    k = seat_one_hots(out, k, view.predictions, MAX_PREDICTION + 1)
    k = seat_one_hots(out, k, view.points, TOTAL_POINTS + 1)
    done = sl[TRICK]  # tricks finished
    for other in range(PLAYERS):
        won = 0
        for t in range(done):
            won += history[t, 1] == other
        one_hot(out, k + other * (TRICKS + 1), won, TRICKS + 1)
    played, leader = k + PLAYERS * (TRICKS + 1), k + PLAYERS * (TRICKS + 1 + DECK)
    trick, not_followed = leader + PLAYERS, leader + PLAYERS + (PLAYERS - 1) * DECK
    for t in range(min(done + 1, TRICKS)):
        n = PLAYERS if t < done else sl[POS]
        first, led = history[t, 0], SUIT_OF[history[t, 2]]
        for i in range(n):
            card, who = history[t, 2 + i], (first + i) % PLAYERS
            put_bit(out, played + who * DECK + card)
            if SUIT_OF[card] != led:
                put_bit(out, not_followed + who * SUITS + led)
            if t == done:
                one_hot(out, trick + i * DECK, card, DECK)
    if decision(view) == CARD:
        one_hot(out, leader, sl[LEADER], PLAYERS)
    return not_followed + PLAYERS * SUITS


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
