"""Example numba bots: a template for fast bots of your own (docs/bots.md, "A fast bot in numba").

Run them beside the built-ins; they play inside the compiled kernels, about 90 times faster than a Python bot:

    cardsim simulate differenzler --bots bots/numba_examples.py:differenzler_forty,heuristic,random,random

A numba bot is one ``@njit`` function ``act(view, p, seat, rng) -> int`` for one game. ``view`` is the round as
the seat to move may see it (the game's ``State``, other hands blank: ``state.observe``), ``p`` the rules'
``Params``, ``rng`` the seat's private random stream (draw with ``below(rng, 0, n)``). It answers the decision
``state.decision(view)`` with one of the codes ``state.legal_actions(view, p, out)`` lists: a number for a
prediction or bid, a card index (``cardsim.cards``) for a card, call or discard, a suit index for a trump.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cardsim.cards import popcount
from cardsim.decisions import BID, PREDICT
from cardsim.games.callpartner import state as callpartner
from cardsim.games.differenzler import state as differenzler
from cardsim.games.differenzler.rules import TRICKS
from cardsim.games.exact_tricks import state as wizard  # Wizard's and Oh Hell's state machine
from cardsim.games.exact_tricks.rules import WIZARD_MASK
from cardsim.rng import below

ACES = np.uint64(sum(1 << (13 * suit + 12) for suit in range(4)))  # Oh Hell's aces (FRENCH52: rank 12 of each suit)


@njit(cache=True)
def differenzler_forty(view, p, seat, rng):  # noqa: ANN001, ANN201 (numba types)
    """Differenzler: predicts 40 points and plays a random legal card."""
    if differenzler.decision(view) == PREDICT:
        return 40
    legal = np.empty(TRICKS, np.int64)
    return legal[below(rng, 0, differenzler.legal_actions(view, p, legal))]


@njit(cache=True)
def bid_the_count(view, p, seat, rng, cards):  # noqa: ANN001, ANN201 (numba types)
    """Wizard and Oh Hell (one state machine): bids how many of ``cards`` (a card mask) its hand holds (one more if
    that bid is refused, B5 / F4's hook), else plays a random legal card."""
    legal = np.empty(64, np.int64)
    n = wizard.legal_actions(view, p, legal)
    if wizard.decision(view) == BID:
        want = popcount(view.hands[seat] & cards)
        for i in range(n):
            if legal[i] == want:
                return want
        return want + 1
    return legal[below(rng, 0, n)]


@njit(cache=True)
def wizard_wizards(view, p, seat, rng):  # noqa: ANN001, ANN201 (numba types)
    """Wizard: bids the Wizards in its hand (one more if that bid is refused, B5), else a random legal action."""
    return bid_the_count(view, p, seat, rng, WIZARD_MASK)


@njit(cache=True)
def ohhell_aces(view, p, seat, rng):  # noqa: ANN001, ANN201 (numba types)
    """Oh Hell: bids its aces (one more if that bid is refused, the hook F4), else a random legal card."""
    return bid_the_count(view, p, seat, rng, ACES)


@njit(cache=True)
def callpartner_random(view, p, seat, rng):  # noqa: ANN001, ANN201 (numba types)
    """Call-partner: a random legal action at every decision (bids, call, discards, cards)."""
    legal = np.empty(256, np.int64)
    return legal[below(rng, 0, callpartner.legal_actions(view, p, legal))]
