"""Strong compiled Differenzler bots: ``mc`` (Monte Carlo prediction, PIMC card play) and ``ismcts``.

``act`` asks them at their seat of a round ``State``: they get only ``state.observe(s, p, seat)`` (RULES A5, A7,
A8: their own hand, the shown trump card, the cards played, everybody's points, the predictions their seat may
see, -1 for the others) and their seat's stream. ``infoset`` turns that view into the unseen cards, the seats'
counts, the voids (forbidden cards) and the dealer's known trump card, and the exact sampler of
``cardsim.infoset`` deals the hidden cards uniformly among the consistent deals. Every rollout is the view with a
sampled deal, played on through the state machine by the heuristic bot for every seat (``bots.differenzler``),
with the visible predictions and, for a hidden one, the heuristic's prediction for the seat's sampled hand (its
unplayed cards and the cards it played).

- Prediction (both bots): ``bid_samples`` deals of the hidden cards; in each, ``sweep_predictions`` gives the
  bot's points for every prediction 0..157 (heuristic play towards it, a few plays per deal); the bot predicts
  the p with the least mean penalty (A10, A13: ``rules.penalty`` with the rules' ``exact_bonus`` and
  ``zero_bonus``; the card players score their play-outs with ``state.scores``, the same function).
- ``mc`` card play (PIMC): ``samples`` deals; every legal card is played in each and the round played out; the
  card with the least mean penalty for the bot's prediction wins (common deals for all cards).
- ``ismcts`` card play: ``iterations`` of SO-ISMCTS (``cardsim.search``), one sampled deal per iteration, UCB
  with availability counts over the rewards 1 - penalty / 157 of each seat, heuristic rollouts.
- ``omniscient`` cheats, as a reference for the honest bots: it sees every prediction made, predicts as ``mc``
  with the true hands as its one "sample", and plays as ``ismcts`` with the true hands in every iteration (MCTS
  on the perfect-information game).

The Monte Carlo decisions are made in two steps: an evaluator (``prediction_values``, ``card_values``) returns
every option's code, its value in every sample (``[sample, option]``) and the best, and the bot plays the best.
``option_values`` hands the same evaluators to ``cardsim.advise.option_values`` (hints, reviews): one evaluator.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit

import bots.differenzler as basic
from bots.differenzler import (
    HEURISTIC_V1,
    STRONG,
    heuristic_prediction,
    heuristic_v1_prediction,
    play_on,
    sweep_predictions,
)
from cardsim.arrays import copy_items, copy_rows
from cardsim.cards import bit, lowest_card, popcount
from cardsim.decisions import DONE, PREDICT
from cardsim.games.differenzler.rules import (
    MAX_PREDICTION,
    PLAYERS,
    PUUR,
    SUIT_MASK,
    SUIT_OF,
    TOTAL_POINTS,
    TRICKS,
    penalty,
    trump_level,
)
from cardsim.games.differenzler.state import (
    FIRST_HAND,
    POS,
    PREDICTED,
    TRICK,
    TRUMP,
    TRUMP_CARD,
    Params,
    State,
    apply,
    bot_stream,
    copy_state,
    decision,
    legal_cards,
    observe,
    scores,
    to_move,
)
from cardsim.infoset import sample_view, true_deals
from cardsim.lineup import MAX_SETTINGS, Setting
from cardsim.search import backpropagate, best_card, expand, new_tree, select

MC, ISMCTS, OMNISCIENT, MC_V1, ISMCTS_V1 = range(STRONG, STRONG + 5)
BOT_IDS = {**basic.BOT_IDS, "mc": MC, "ismcts": ISMCTS, "omniscient": OMNISCIENT, "mc_v1": MC_V1,
           "ismcts_v1": ISMCTS_V1}  # fmt: skip
BOT_DOCS = {
    **basic.BOT_DOCS,
    "mc": "Monte Carlo prediction (least expected penalty over sampled deals) and sampling card play (PIMC)",
    "ismcts": "Monte Carlo prediction and Information Set MCTS card play (SO-ISMCTS, heuristic rollouts)",
    "omniscient": "CHEATS (a reference, refused without --allow-cheating): sees every hand and prediction; predicts "
    "as mc with the true deal as its one sample, plays by Monte Carlo tree search on the true deal (every seat "
    "choosing by UCB, heuristic rollouts)",
    "mc_v1": "mc as it was: guesses the predictions it cannot see as heuristic_v1 predicts (mc guesses them as "
    "heuristic does)",
    "ismcts_v1": "ismcts as it was: guesses the predictions it cannot see as heuristic_v1 predicts",
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
    "omniscient": {
        "iterations": Setting(200, 1, 1_000_000, "search iterations per card decision, all on the true deal"),
        "c": Setting(0.1, 0.0, 10.0, "UCB exploration constant, as for ismcts", integer=False),
    },
}
BOT_SETTINGS["mc_v1"], BOT_SETTINGS["ismcts_v1"] = BOT_SETTINGS["mc"], BOT_SETTINGS["ismcts"]  # the same rows
FULL_DECK = np.uint64((1 << 36) - 1)


class Means(NamedTuple):
    """What a strong bot decides with besides its seat's view (``state.observe``); ``act`` makes it."""

    rng: np.ndarray  # uint64[streams, 4]: its random streams (``act``: the seat's private one, ``state.bot_stream``)
    stream: int  # the row of ``rng`` it draws from (``act``: 0)
    truth: np.ndarray  # uint64[4]: the true hands for the cheating omniscient; else empty
    v1: bool  # guess the predictions it cannot see as ``heuristic_v1`` (``mc_v1``, ``ismcts_v1``)
    sampler: Any  # the deal sampler: ``cardsim.infoset.count_and_sample`` as a first-class function


# --- the information set of a seat -----------------------------------------------------------------------------


@njit(cache=True)
def infoset(seat: int, v: State, played: np.ndarray) -> tuple:
    """What ``seat`` knows of the hidden cards in its view ``v`` (``state.observe``): ``(unseen, counts,
    forbidden, known)`` for ``cardsim.infoset``. Fills ``played[s]`` with the cards seat s played. Voids: not
    following a plain led suit with a plain card, or undertrumping (A8c allows only the undertrump of a void),
    shows a void in the led suit; trumping over proves nothing; not following a led trump shows no trump but
    possibly the Puur (A8b). The dealer holds the shown trump card until it is played."""
    trump_card, history, slots = v.slots[TRUMP_CARD], v.history, v.slots
    trump = SUIT_OF[trump_card]
    forbidden = np.zeros(PLAYERS, np.uint64)
    known = np.zeros(PLAYERS, np.uint64)
    played[:] = 0
    for t in range(min(slots[TRICK] + 1, TRICKS)):
        n = PLAYERS if t < slots[TRICK] else slots[POS]
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
    unseen = FULL_DECK & ~v.hands[seat]
    for s in range(PLAYERS):
        unseen &= ~played[s]
        if s != seat:
            counts[s] = TRICKS - popcount(played[s])
    forbidden[seat] = 0
    dealer = (slots[FIRST_HAND] + PLAYERS - 1) % PLAYERS
    if unseen & bit(trump_card):
        known[dealer] = bit(trump_card)
    return unseen, counts, forbidden, known


@njit(cache=True)
def _sampled_deals(seat: int, v: State, me: Means, samples: int, played: np.ndarray) -> np.ndarray:
    """``samples`` uniform deals [sample, seat] of the hidden cards (drawn by ``me.sampler``), the seat's own hand
    in its place; for the
    cheating ``omniscient`` bot (``me.truth`` the true hands, uint64[4]; else empty) that many copies of the truth."""
    unseen, counts, forbidden, known = infoset(seat, v, played)
    if me.truth.shape[0]:
        return true_deals(me.truth, samples)
    deals = np.empty((samples, PLAYERS), np.uint64)
    n_played = np.int64(0)  # not the literal 0: sample_view would compile for it too
    for s in range(PLAYERS):
        n_played += popcount(played[s])
    sample_view(me.sampler, me.rng, me.stream, (unseen, counts, forbidden, known), deals, seat, n_played)
    deals[:, seat] = v.hands[seat]
    return deals


@njit(cache=True)
def _predictions_of(deal: np.ndarray, played: np.ndarray, v: State, v1: bool, out: np.ndarray) -> None:
    """out[s]: the prediction of seat s visible in ``v``, else a guess for its sampled whole hand: ``heuristic``'s
    prediction from its place after First Hand, or with ``v1`` ``heuristic_v1``'s (the ``_v1`` bots)."""
    trump, first = v.slots[TRUMP], v.slots[FIRST_HAND]
    for s in range(PLAYERS):
        hand = deal[s] | played[s]
        if v.predictions[s] >= 0:
            out[s] = v.predictions[s]
        elif v1:
            out[s] = heuristic_v1_prediction(hand, trump)
        else:
            out[s] = heuristic_prediction(hand, trump, (s - first) % PLAYERS)


@njit(cache=True)
def _heuristic_table() -> np.ndarray:
    """A bot table with ``heuristic_v1`` at every seat: the rollout policy (its play is ``heuristic``'s; its
    predictions, where a rollout makes one, are the guesses of ``_predictions_of``)."""
    table = np.zeros((PLAYERS, 1 + MAX_SETTINGS))
    table[:, 0] = HEURISTIC_V1
    return table


@njit(cache=True, inline="always")
def _sample_state(sim: State, v: State, deal: np.ndarray, preds: np.ndarray, p: Params) -> None:
    """``sim`` = the view ``v`` with the sampled hands ``deal`` and the predictions ``preds``: the remaining
    predictions are made in turn through the state machine."""
    copy_items(sim.slots, v.slots, v.slots.shape[0])
    copy_items(sim.hands, deal, deal.shape[0])
    copy_items(sim.points, v.points, v.points.shape[0])
    copy_rows(sim.history, v.history, v.history.shape[0])
    copy_items(sim.predictions, preds, preds.shape[0])
    while decision(sim) == PREDICT:
        apply(sim, p, preds[to_move(sim)])


# --- prediction ----------------------------------------------------------------------------------------------


@njit(cache=True)
def prediction_values(seat: int, v: State, p: Params, me: Means, samples: int) -> tuple:
    """The Monte Carlo bidder's evaluator: ``(codes, penalties, best)``, ``codes`` the predictions 0..157
    (int64[158]), ``penalties[sample, q]`` (int64[samples, 158]) the seat's penalty in each of ``samples`` sampled
    deals (``truth`` as for ``_sampled_deals``) when it predicts q and plays towards it (heuristic play, the others'
    predictions visible or heuristic), and ``best`` the index of the least total penalty (ties: the lowest)."""
    played = np.zeros(PLAYERS, np.uint64)
    deals = _sampled_deals(seat, v, me, samples, played)
    table = _heuristic_table()
    sim, preds = copy_state(v), np.empty(PLAYERS, np.int64)
    out, took = np.empty(MAX_PREDICTION + 1, np.int64), np.empty(MAX_PREDICTION + 1, np.int64)
    penalties = np.empty((samples, MAX_PREDICTION + 1), np.int64)
    for k in range(samples):
        _predictions_of(deals[k], played, v, me.v1, preds)
        _sample_state(sim, v, deals[k], preds, p)
        sweep_predictions(sim, table, seat, out, took)
        for q in range(MAX_PREDICTION + 1):
            penalties[k, q] = penalty(q, out[q], took[q] == 1, p.exact_bonus, p.zero_bonus)
    return np.arange(MAX_PREDICTION + 1), penalties, int(np.argmin(penalties.sum(axis=0)))


@njit(cache=True)
def mc_prediction(seat: int, v: State, p: Params, me: Means, samples: int) -> tuple:
    """The prediction with the least mean penalty over ``samples`` sampled deals, and the mean penalty of every
    prediction 0..157 (``prediction_values``)."""
    _, penalties, best = prediction_values(seat, v, p, me, samples)
    return best, penalties.sum(axis=0) / samples


# --- card play -----------------------------------------------------------------------------------------------


@njit(cache=True)
def card_values(seat: int, v: State, p: Params, me: Means, samples: int) -> tuple:
    """The PIMC player's evaluator: ``(codes, penalties, best)``, ``codes`` the legal cards, lowest first
    (int64[n]), ``penalties[sample, c]`` (int64[samples, n]) the seat's penalty for its prediction in each of
    ``samples`` sampled deals (``truth`` as for ``_sampled_deals``) when it plays card c and the heuristic plays the
    round out (the same deals for every card), and ``best`` the index of the least total penalty (ties: the
    lowest card)."""
    played = np.zeros(PLAYERS, np.uint64)
    deals = _sampled_deals(seat, v, me, samples, played)
    table = _heuristic_table()
    preds = np.empty((samples, PLAYERS), np.int64)
    for k in range(samples):
        _predictions_of(deals[k], played, v, me.v1, preds[k])
    sim, scored = copy_state(v), np.empty(PLAYERS, np.int64)
    m = legal_cards(v, p)
    codes = np.empty(popcount(m), np.int64)
    penalties = np.empty((samples, codes.shape[0]), np.int64)
    best, best_total = 0, np.int64(1) << 62
    for c in range(codes.shape[0]):
        codes[c] = lowest_card(m)
        m &= m - np.uint64(1)
        total = np.int64(0)
        for k in range(samples):
            _sample_state(sim, v, deals[k], preds[k], p)
            apply(sim, p, codes[c])
            play_on(sim, table, -1, sim.points)
            scores(sim, p, scored)  # the bot's own prediction is v.predictions[seat], in sim as in v
            penalties[k, c] = scored[seat]
            total += scored[seat]
        if total < best_total:
            best, best_total = c, total
    return codes, penalties, best


@njit(cache=True)
def pimc_card(seat: int, v: State, p: Params, me: Means, samples: int) -> int:
    """The legal card with the least mean penalty for the bot's prediction over ``samples`` sampled deals, each
    played out by the heuristic after the card (``card_values``)."""
    codes, _, best = card_values(seat, v, p, me, samples)
    return codes[best]


@njit(cache=True)
def ismcts_card(seat: int, v: State, p: Params, me: Means, iterations: int, c: float) -> int:
    """SO-ISMCTS (``cardsim.search``): ``iterations`` sampled deals (``truth`` as for ``_sampled_deals``), each
    descending the tree by UCB over the legal cards of the seat to move, expanding one node and played out by the
    heuristic; rewards 1 - penalty / 157 for every seat. The most visited legal card."""
    played = np.zeros(PLAYERS, np.uint64)
    deals = _sampled_deals(seat, v, me, iterations, played)
    table = _heuristic_table()
    tree = new_tree(iterations + 1, np.int64(36))
    sim, preds, rewards = copy_state(v), np.empty(PLAYERS, np.int64), np.empty(PLAYERS)
    penalties = np.empty(PLAYERS, np.int64)
    path = np.zeros(TRICKS * PLAYERS + 1, np.int64)
    for it in range(iterations):
        _predictions_of(deals[it], played, v, me.v1, preds)
        _sample_state(sim, v, deals[it], preds, p)
        node, depth = np.int64(0), 1  # not the literal 0: select would compile for it too
        while decision(sim) != DONE:
            s = to_move(sim)
            card, child = select(tree, node, legal_cards(sim, p), c, me.rng, me.stream)
            new = child < 0
            if new:
                child = expand(tree, node, card, s)
            apply(sim, p, card)
            if child < 0:
                break
            path[depth], depth, node = child, depth + 1, child
            if new:
                break
        play_on(sim, table, -1, sim.points)
        scores(sim, p, penalties)  # with the predictions preds, as _sample_state made them
        for s in range(PLAYERS):
            rewards[s] = 1.0 - penalties[s] / TOTAL_POINTS
        backpropagate(tree, path, depth, rewards)
    return best_card(tree, legal_cards(v, p))


# --- the one entry the drivers call --------------------------------------------------------------------------


@njit(cache=True)
def act(row: np.ndarray, s: State, p: Params, seat: int, sampler: Any) -> int:
    """What the strong bot of table row ``row`` ([id, settings...]) at ``seat`` (the seat to move) does now: a
    prediction (A7) or a card (A8; a forced card is played without thinking). An honest bot sees only
    ``observe(s, p, seat)`` and draws from its seat's private stream only (``state.bot_stream``: a one-way
    function of the round key, never the deal stream nor another seat's) and draws deals with ``sampler``
    (``cardsim.infoset.count_and_sample`` as a first-class function). The cheating ``omniscient`` bot also
    sees every prediction made and the true hands."""
    v = observe(s, p, seat)
    cheat = row[0] == OMNISCIENT
    truth = s.hands.copy() if cheat else np.empty(0, np.uint64)
    if cheat:
        for i in range(s.slots[PREDICTED]):
            other = (s.slots[FIRST_HAND] + i) % PLAYERS
            v.predictions[other] = s.predictions[other]
    mc, v1 = row[0] == MC or row[0] == MC_V1, row[0] >= MC_V1  # the _v1 bots guess predictions as heuristic_v1
    me = Means(bot_stream(s, seat), np.int64(0), truth, v1, sampler)  # stream: not the literal 0 (every callee
    # would compile for it too)
    if decision(v) == PREDICT:
        samples = 1 if cheat else int(row[2]) if mc else int(row[3])
        return mc_prediction(seat, v, p, me, samples)[0]
    legal = legal_cards(v, p)
    if popcount(legal) == 1:
        return lowest_card(legal)
    if mc:
        return pimc_card(seat, v, p, me, int(row[1]))
    return ismcts_card(seat, v, p, me, int(row[1]), row[2])


def option_values(v: State, p: Params, seat: int, rng: np.ndarray, samples: int, tools: tuple) -> tuple:
    """What ``mc`` weighs, option by option, at the decision of ``seat`` in its view ``v`` (``observe``): its
    ``prediction_values`` or ``card_values`` (``(codes, penalties[sample, option], best)``) over ``samples`` deals
    drawn from the stream ``rng`` (uint64[1, 4]) by the sampler ``tools[0]`` (``Game.strong_tools``)."""
    me = Means(rng, np.int64(0), np.empty(0, np.uint64), False, tools[0])
    evaluator = prediction_values if decision(v) == PREDICT else card_values
    return evaluator(np.int64(seat), v, p, me, np.int64(samples))
