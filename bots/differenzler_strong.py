"""Strong compiled Differenzler bots: ``mc`` (Monte Carlo prediction, PIMC card play) and ``ismcts``.

Both see only what their seat may see (RULES A5, A7, A8): their own hand, the shown trump card, the cards
played (``history`` and the round ``state`` of ``bots.differenzler``), everybody's points, and the predictions
their seat may see (``seen``: a bit per seat; their own always). ``infoset`` turns that view into the unseen
cards, the seats' counts, the voids (forbidden cards) and the dealer's known trump card, and the exact sampler of
``cardsim.infoset`` deals the hidden cards uniformly among the consistent deals. Every rollout is played by the
heuristic bot for every seat (``play_cards``), with the visible predictions and, for a hidden one, the heuristic's
prediction for the seat's sampled hand (its unplayed cards and the cards it played).

- Prediction (both bots): ``bid_samples`` deals of the hidden cards; in each, ``sweep_predictions`` gives the
  bot's points for every prediction 0..157 (heuristic play towards it, a few plays per deal); the bot predicts
  the p with the least mean penalty (A10, ``exact_bonus`` included).
- ``mc`` card play (PIMC): ``samples`` deals; every legal card is played in each and the round played out; the
  card with the least mean penalty for the bot's prediction wins (common deals for all cards).
- ``ismcts`` card play: ``iterations`` of SO-ISMCTS (``cardsim.search``), one sampled deal per iteration, UCB
  with availability counts over the rewards 1 - penalty / 157 of each seat, heuristic rollouts.

``decision_times`` measures the seconds per decision of a bot spec against heuristic bots.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

import bots.differenzler as basic
from bots.differenzler import (
    HEURISTIC,
    LEADER,
    LED,
    POS,
    STRONG,
    TOP_TRUMP,
    TRICK,
    apply_card,
    heuristic_prediction,
    play_cards,
    start_state,
    sweep_predictions,
)
from cardsim.cards import bit, lowest_card, popcount
from cardsim.games.differenzler.rules import (
    MAX_PREDICTION,
    PLAYERS,
    PUUR,
    SUIT_MASK,
    SUIT_OF,
    TOTAL_POINTS,
    TRICKS,
    legal_mask,
    penalty,
    trump_level,
)
from cardsim.infoset import sample_deals
from cardsim.lineup import MAX_SETTINGS, Setting
from cardsim.search import backpropagate, best_card, expand, new_tree, select

MC, ISMCTS = STRONG, STRONG + 1
BOT_IDS = {**basic.BOT_IDS, "mc": MC, "ismcts": ISMCTS}
BOT_DOCS = {
    **basic.BOT_DOCS,
    "mc": "Monte Carlo prediction (least expected penalty over sampled deals) and sampling card play (PIMC)",
    "ismcts": "Monte Carlo prediction and Information Set MCTS card play (SO-ISMCTS, heuristic rollouts)",
}
_BID_SAMPLES = Setting(64, 1, 100_000, "deals sampled for the prediction; cost ~ bid_samples x a few rollouts")
BOT_SETTINGS = {
    "mc": {
        "samples": Setting(128, 1, 100_000, "deals sampled per card decision; cost ~ samples x legal cards rollouts"),
        "bid_samples": _BID_SAMPLES,
    },
    "ismcts": {
        "iterations": Setting(200, 1, 1_000_000, "search iterations per card decision, one sampled deal and rollout "
                                                 "each"),  # fmt: skip
        "c": Setting(0.1, 0.0, 10.0, "UCB exploration constant (rewards are 1 - penalty / 157)", integer=False),
        "bid_samples": _BID_SAMPLES,
    },
}
FULL_DECK = np.uint64((1 << 36) - 1)


# --- the information set of a seat -----------------------------------------------------------------------------


@njit(cache=True)
def infoset(seat: int, hand: np.uint64, history: np.ndarray, state: np.ndarray, first_hand: int, trump_card: int,
            played: np.ndarray) -> tuple:  # fmt: skip
    """What ``seat`` (holding ``hand`` now) knows of the hidden cards after the cards in ``history`` up to
    ``state``: ``(unseen, counts, forbidden, known)`` for ``cardsim.infoset``. Fills ``played[s]`` with the cards
    seat s played. Voids: not following a plain led suit with a plain card, or undertrumping (A8c allows only
    the undertrump of a void), shows a void in the led suit; trumping over proves nothing; not following a led
    trump shows no trump but possibly the Puur (A8b). The dealer holds the shown trump card until it is played."""
    trump = SUIT_OF[trump_card]
    forbidden = np.zeros(PLAYERS, np.uint64)
    known = np.zeros(PLAYERS, np.uint64)
    played[:] = 0
    for t in range(min(state[TRICK] + 1, TRICKS)):
        n = PLAYERS if t < state[TRICK] else state[POS]
        if n == 0:
            continue
        leader = history[t, 0]
        led = SUIT_OF[history[t, 2]]
        top = -1
        for i in range(n):
            s = (leader + i) % PLAYERS
            card = history[t, 2 + i]
            played[s] |= bit(card)
            suit, level = SUIT_OF[card], trump_level(card, trump)
            if i > 0 and suit != led:
                if led == trump:
                    forbidden[s] |= SUIT_MASK[trump] & ~bit(PUUR[trump])
                elif suit != trump or level < top:
                    forbidden[s] |= SUIT_MASK[led]
            top = max(top, level)
    counts = np.zeros(PLAYERS, np.int64)
    unseen = FULL_DECK & ~hand
    for s in range(PLAYERS):
        unseen &= ~played[s]
        if s != seat:
            counts[s] = TRICKS - popcount(played[s])
    forbidden[seat] = 0
    dealer = (first_hand + PLAYERS - 1) % PLAYERS
    if unseen & bit(trump_card):
        known[dealer] = bit(trump_card)
    return unseen, counts, forbidden, known


@njit(cache=True)
def _sampled_deals(seat: int, hand: np.uint64, history: np.ndarray, state: np.ndarray, first_hand: int,
                   trump_card: int, rng: np.ndarray, samples: int, played: np.ndarray) -> np.ndarray:  # fmt: skip
    """``samples`` uniform deals [sample, seat] of the hidden cards, the seat's own hand in its place."""
    unseen, counts, forbidden, known = infoset(seat, hand, history, state, first_hand, trump_card, played)
    deals = np.empty((samples, PLAYERS), np.uint64)
    if not sample_deals(rng, 1 + seat, unseen, counts, forbidden, known, deals):
        raise ValueError("no deal fits this view of the round (the hand does not match the cards played)")
    deals[:, seat] = hand
    return deals


@njit(cache=True)
def _predictions_of(deal: np.ndarray, played: np.ndarray, visible: np.ndarray, trump: int, out: np.ndarray) -> None:
    """out[s]: the visible prediction of seat s, else the heuristic's prediction for its sampled whole hand."""
    for s in range(PLAYERS):
        out[s] = visible[s] if visible[s] >= 0 else heuristic_prediction(deal[s] | played[s], trump)


@njit(cache=True)
def _visible(predictions: np.ndarray, seen: int, seat: int) -> np.ndarray:
    """The predictions ``seat`` may see (-1 for hidden ones)."""
    visible = np.full(PLAYERS, -1, np.int64)
    for s in range(PLAYERS):
        if s == seat or seen >> s & 1:
            visible[s] = predictions[s]
    return visible


@njit(cache=True)
def _heuristic_table() -> np.ndarray:
    """A bot table with the heuristic at every seat: the rollout policy."""
    table = np.zeros((PLAYERS, 1 + MAX_SETTINGS))
    table[:, 0] = HEURISTIC
    return table


# --- prediction ----------------------------------------------------------------------------------------------


@njit(cache=True)
def mc_prediction(rng: np.ndarray, seat: int, hand: np.uint64, first_hand: int, trump_card: int,
                  predictions: np.ndarray, seen: int, exact_bonus: int, samples: int) -> tuple:  # fmt: skip
    """The prediction with the least mean penalty over ``samples`` sampled deals, and the mean penalty of every
    prediction 0..157 (heuristic play towards it by the bot, the others' predictions visible or heuristic)."""
    trump = SUIT_OF[trump_card]
    history = np.zeros((TRICKS, 2 + PLAYERS), np.int64)
    state = np.empty(8, np.int64)
    start_state(state, first_hand)
    played = np.zeros(PLAYERS, np.uint64)
    deals = _sampled_deals(seat, hand, history, state, first_hand, trump_card, rng, samples, played)
    visible = _visible(predictions, seen, seat)
    table = _heuristic_table()
    hands, preds, points = np.empty(PLAYERS, np.uint64), np.empty(PLAYERS, np.int64), np.empty(PLAYERS, np.int64)
    out = np.empty(MAX_PREDICTION + 1, np.int64)
    total = np.zeros(MAX_PREDICTION + 1)
    for k in range(samples):
        hands[:] = deals[k]
        _predictions_of(hands, played, visible, trump, preds)
        points[:] = 0
        start_state(state, first_hand)
        sweep_predictions(table, seat, trump, rng, hands, history, preds, points, state, out)
        for p in range(MAX_PREDICTION + 1):
            total[p] += penalty(p, out[p], exact_bonus)
    return int(np.argmin(total)), total / samples


# --- card play -----------------------------------------------------------------------------------------------


@njit(cache=True)
def pimc_card(rng: np.ndarray, seat: int, hand: np.uint64, legal: np.uint64, history: np.ndarray, state: np.ndarray,
              first_hand: int, trump_card: int, predictions: np.ndarray, seen: int, points: np.ndarray,
              exact_bonus: int, samples: int) -> int:  # fmt: skip
    """The legal card with the least mean penalty for the bot's prediction over ``samples`` sampled deals, each
    played out by the heuristic after the card (the same deals for every card)."""
    trump = SUIT_OF[trump_card]
    played = np.zeros(PLAYERS, np.uint64)
    deals = _sampled_deals(seat, hand, history, state, first_hand, trump_card, rng, samples, played)
    visible = _visible(predictions, seen, seat)
    table = _heuristic_table()
    preds = np.empty((samples, PLAYERS), np.int64)
    for k in range(samples):
        _predictions_of(deals[k], played, visible, trump, preds[k])
    hands, pts, st = np.empty(PLAYERS, np.uint64), np.empty(PLAYERS, np.int64), np.empty_like(state)
    hist, checks = history.copy(), np.empty(TRICKS, np.int64)
    best, best_total = -1, np.inf
    m = legal
    while m:
        card = lowest_card(m)
        m &= m - np.uint64(1)
        total = 0.0
        for k in range(samples):
            hands[:], pts[:], st[:] = deals[k], points, state
            apply_card(card, trump, hands, hist, pts, st)
            play_cards(table, trump, rng, hands, hist, preds[k], pts, st, -1, checks)
            total += penalty(predictions[seat], pts[seat], exact_bonus)
        if total < best_total:
            best, best_total = card, total
    return best


@njit(cache=True)
def ismcts_card(rng: np.ndarray, seat: int, hand: np.uint64, legal: np.uint64, history: np.ndarray,
                state: np.ndarray, first_hand: int, trump_card: int, predictions: np.ndarray, seen: int,
                points: np.ndarray, exact_bonus: int, iterations: int, c: float) -> int:  # fmt: skip
    """SO-ISMCTS (``cardsim.search``): ``iterations`` sampled deals, each descending the tree by UCB over the
    legal cards of the seat to move, expanding one node and played out by the heuristic; rewards
    1 - penalty / 157 for every seat. The most visited legal card."""
    trump = SUIT_OF[trump_card]
    stream = 1 + seat
    played = np.zeros(PLAYERS, np.uint64)
    deals = _sampled_deals(seat, hand, history, state, first_hand, trump_card, rng, iterations, played)
    visible = _visible(predictions, seen, seat)
    table = _heuristic_table()
    tree = new_tree(iterations + 1, 36)
    hands, pts, st = np.empty(PLAYERS, np.uint64), np.empty(PLAYERS, np.int64), np.empty_like(state)
    preds, rewards = np.empty(PLAYERS, np.int64), np.empty(PLAYERS)
    hist, checks, path = history.copy(), np.empty(TRICKS, np.int64), np.zeros(TRICKS * PLAYERS + 1, np.int64)
    for it in range(iterations):
        hands[:], pts[:], st[:] = deals[it], points, state
        _predictions_of(hands, played, visible, trump, preds)
        node, depth = 0, 1
        while st[TRICK] < TRICKS:
            s = (st[LEADER] + st[POS]) % PLAYERS
            card, child = select(tree, node, legal_mask(hands[s], st[LED], trump, st[TOP_TRUMP]), c, rng, stream)
            new = child < 0
            if new:
                child = expand(tree, node, card, s)
            apply_card(card, trump, hands, hist, pts, st)
            if child < 0:
                break
            path[depth], depth, node = child, depth + 1, child
            if new:
                break
        play_cards(table, trump, rng, hands, hist, preds, pts, st, -1, checks)
        for s in range(PLAYERS):
            rewards[s] = 1.0 - penalty(preds[s], pts[s], exact_bonus) / TOTAL_POINTS
        backpropagate(tree, path, depth, rewards)
    return best_card(tree, legal)


# --- the entry points the drivers call -----------------------------------------------------------------------


@njit(cache=True)
def predict(row: np.ndarray, rng: np.ndarray, seat: int, hand: np.uint64, first_hand: int, trump_card: int,
            predictions: np.ndarray, seen: int, exact_bonus: int) -> int:  # fmt: skip
    """A strong bot's prediction (A7); ``row`` is its bot table row [id, settings...], ``seen`` the seats whose
    predictions it may see; random draws from stream 1 + seat."""
    samples = int(row[2]) if row[0] == MC else int(row[3])
    return mc_prediction(rng, seat, hand, first_hand, trump_card, predictions, seen, exact_bonus, samples)[0]


@njit(cache=True)
def play(row: np.ndarray, rng: np.ndarray, seat: int, hand: np.uint64, legal: np.uint64, history: np.ndarray,
         state: np.ndarray, first_hand: int, trump_card: int, predictions: np.ndarray, seen: int, points: np.ndarray,
         exact_bonus: int) -> int:  # fmt: skip
    """A strong bot's card among ``legal`` (A8); a forced card is played without thinking."""
    if popcount(legal) == 1:
        return lowest_card(legal)
    if row[0] == MC:
        return pimc_card(rng, seat, hand, legal, history, state, first_hand, trump_card, predictions, seen, points,
                         exact_bonus, int(row[1]))  # fmt: skip
    return ismcts_card(rng, seat, hand, legal, history, state, first_hand, trump_card, predictions, seen, points,
                       exact_bonus, int(row[1]), row[2])  # fmt: skip


def decision_times(spec: str, rounds: int, seed: int = 0) -> np.ndarray:
    """Seconds of every decision (predictions and cards) of seat 0 playing bot ``spec`` (e.g. "mc:samples=16")
    against three heuristic bots in ``rounds`` single rounds of ``seed``, secret predictions, no exact bonus, one
    thread; after a warm-up round. Each compiled call is timed with ``time.perf_counter``."""
    from cardsim.games.differenzler.game import GAME
    from cardsim.games.differenzler.play import new_scratch, start_round

    table = GAME.lineup(f"{spec},heuristic,heuristic,heuristic").table
    if table[0, 0] < STRONG:
        raise ValueError(f"decision_times measures a strong bot ({', '.join(BOT_SETTINGS)}), not {spec}")
    rng, hands, history, predictions, points, _, state, checks = new_scratch()
    times = []
    for unit in range(-1, rounds):  # unit -1: the warm-up
        first_hand, trump_card = (int(x) for x in start_round(np.uint64(seed), max(unit, 0), 0, -1, rng, hands))
        trump = trump_card // 9
        for i in range(PLAYERS):
            s = (first_hand + i) % PLAYERS
            if s == 0:
                start = time.perf_counter()
                predictions[0] = predict(table[0], rng, 0, hands[0], first_hand, trump_card, predictions, 0, 0)
                times.append(time.perf_counter() - start)
            else:
                predictions[s] = basic.predict(HEURISTIC, rng, 1 + s, hands[s], trump)
        points[:] = 0
        start_state(state, first_hand)
        while play_cards(table, trump, rng, hands, history, predictions, points, state, -1, checks) == 0:
            legal = legal_mask(hands[0], state[LED], trump, state[TOP_TRUMP])
            start = time.perf_counter()
            card = play(table[0], rng, 0, hands[0], legal, history, state, first_hand, trump_card, predictions, 0,
                        points, 0)  # fmt: skip
            times.append(time.perf_counter() - start)
            apply_card(card, trump, hands, history, points, state)
        if unit < 0:
            times.clear()
    return np.array(times)
