"""The strong call-partner bot ``mc``: a Monte Carlo bidder and a sampling card player (PIMC).

Both decide only from what their seat sees (RULES.md C4-C7): its hand, the
auction, the contract and called card, the cards played in order, and as
declarer its discards.

* Bids: completions of the hand (the other hands and the kitty dealt
  uniformly) are played out by the heuristic bots with the seat declaring in
  each suit, and once with the seat passing (the kernel of the bid advice,
  ``cardsim.games.callpartner.advise.complete``). The bot bids the level and
  trump with the best expected score (+L when the side's points reach L, else
  -L, C9) if it beats the expected score of passing, else passes. A forced
  dealer's trump is the heuristic's.
* Call and discards (C5, C6): deals of the cards the declarer has not seen
  are drawn uniformly; in each, every candidate is played out by the
  heuristic and the bot takes the one with the best mean score (the
  heuristic's own choice on ties). Call candidates: the ``CALL_CANDIDATES``
  strongest cards not in the hand (the heuristic calls the first); the kitty
  is then taken and discarded as the heuristic would. Discard candidates
  (the kitty now seen, the call fixed): every ``k`` of the ``k + 2`` cards
  the heuristic keeps least, ``k`` the kitty's size.
* Cards: deals consistent with the seat's information set (``infoset``) are
  drawn exactly uniformly (``cardsim.infoset``); each legal card is played in
  every sampled deal and the deal is played to its end by the heuristic; the
  bot plays the card with the best mean score of its own seat (C9: +/- the bid
  on the declaring side, else its trick points). In a sampled deal the
  partner is whoever holds the called card there (nobody if the kitty brought
  it to the declarer), so the partner's identity is sampled consistently.

Every play-out is by ``heuristic_v1`` (``heuristics``): the heuristic before its last tuning.

Each Monte Carlo choice is made in two steps: an evaluator (``bid_values``, ``call_values``, ``discard_values``,
``card_values``) returns the seat's score of every option in every sample (``[sample, option]``), and the bot
takes the best. ``option_values`` hands the same evaluators to ``cardsim.advise.option_values`` (hints, reviews):
every legal call, and one discard a step (``discard_step_values``), where the bot compares fewer calls and whole
sets of discards.

``omniscient`` cheats, as a reference for the honest bots: it bids as ``mc`` (the auction's completions do not
take a given deal), then calls, discards and plays as ``mc`` with the true hands, kitty and discards as its one
sample (perfect-information Monte Carlo on the true deal).

The drivers ask one entry, ``act(row, s, p, seat, *tools)``, at a strong seat's turn of the round's state machine
(``cardsim.games.callpartner.state``): it hands the bot only that seat's view and its private stream
(``s.bot_rng[seat]``), never the deal stream nor the other hands. Play-outs are rounds of the same state machine
played by the built-in bots (``bots.callpartner.run``). ``act`` calls the searches, and the searches the play-outs
and the deal sampler, through their addresses (``Tools``): each is compiled once.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, NamedTuple

import numba
import numpy as np
from numba import njit
from numba.core import types

from bots.callpartner import (
    BID_MARGIN_V1,
    HEURISTIC_V1,
    NO_PASSER,
    PASS_PLAY,
    PLAY_ON,
    best_trump,
    complete,
    heuristic_bid,
    heuristic_call,
    heuristic_discard,
    run,
)
from cardsim.arrays import copy_items
from cardsim.cards import bit, lowest_card, nth_card, popcount
from cardsim.decisions import AUCTION, CALL, CARD, DISCARD
from cardsim.games.callpartner.rules import (
    BY_KEY,
    DECK_SIZE,
    FULL_DECK,
    MAX_BID,
    MAX_PLAYERS,
    MIN_BID,
    NO_SUIT,
    SUIT_MASK,
    SUIT_OF,
    legal_mask,
    trick_winner,
)
from cardsim.games.callpartner.state import (
    CALLED,
    CARDS,
    DEALER,
    DECLARER,
    DISCARDS,
    FORCED,
    HAND_OF,
    HIGH,
    KITTY,
    KITTY_OF,
    PASS,
    PHASE,
    PLAN,
    SEAT,
    TRUMP,
    Contract,
    Params,
    State,
    apply_card,
    bot_stream,
    copy_into,
    legal_cards,
    new_state,
    observe,
    start_play,
)
from cardsim.infoset import sample_view, true_deals
from cardsim.lineup import FIRST_STRONG, MAX_SETTINGS, Setting
from cardsim.numba_bots import first_class, returned
from cardsim.numba_bots import sampler as deal_sampler
from cardsim.rng import next_u64
from cardsim.search import backpropagate, best_card, expand, new_tree, select

MC, ISMCTS, OMNISCIENT = FIRST_STRONG, FIRST_STRONG + 1, FIRST_STRONG + 2
BOT_IDS = {"mc": MC, "ismcts": ISMCTS, "omniscient": OMNISCIENT, "mc_v1": MC, "ismcts_v1": ISMCTS}  # _v1: bid_bonus 0
BOT_DOCS = {
    "mc": "Monte Carlo bidder (the bid advice's completions of its hand: the best expected score of each level and "
    "trump against passing) and sampling card player (PIMC: each legal card played out by heuristic_v1 in deals "
    "drawn uniformly from its information set, the best mean score of its seat); calls (among the 4 strongest "
    "cards it lacks) and discards (any k of the k + 2 cards the heuristic keeps least, k the kitty's size) by the "
    "best mean score of heuristic_v1 play-outs of sampled deals. Cost per decision: about samples x legal cards "
    "play-outs per card, bid_samples x 5 per bid, contract_samples x 4 per call and contract_samples x "
    "15 per discard (x 6 with 5 players)",
    "ismcts": "bids, calls and discards as mc; plays by information-set Monte Carlo tree search (one tree over "
    "deals drawn from its information set, every seat choosing by UCB, heuristic_v1 play-outs)",
    "omniscient": "CHEATS (a reference, refused without --allow-cheating): bids as mc, then sees every hand, the "
    "kitty and the discards: calls and discards as mc with the true deal as its one sample, plays as ismcts with "
    "the true deal in every iteration (Monte Carlo tree search on the perfect-information game)",
    "mc_v1": "mc before its bids counted on its own play (bid_bonus=0): rates each bid by heuristic_v1 play-outs alone",
    "ismcts_v1": "ismcts before its bids counted on its own play (bid_bonus=0)",
}
_BID_BONUS = Setting(1, -10, 10, "points added to the declaring side's play-out points when a bid is rated: the "
                    "bot plays its cards better than the heuristic_v1 play-outs (0: as mc_v1)")
BOT_SETTINGS = {
    "mc": {
        "samples": Setting(64, 1, 4096, "deals sampled per card decision"),
        "bid_samples": Setting(48, 0, 4096, "completions per bid decision (0: bid as heuristic_v1)"),
        "contract_samples": Setting(64, 0, 4096, "deals sampled per call and per discard decision (0: call and "
                                    "discard as the heuristic)"),
        "bid_bonus": _BID_BONUS,
    },
    "ismcts": {
        "iterations": Setting(200, 1, 100000, "tree iterations (sampled deals) per card decision"),
        "c": Setting(0.7, 0.0, 10.0, "UCB exploration constant (rewards are scores scaled to 0..1)", integer=False),
        "bid_samples": Setting(48, 0, 4096, "completions per bid decision, as for mc"),
        "contract_samples": Setting(64, 0, 4096, "deals sampled per call and per discard decision, as for mc"),
        "bid_bonus": _BID_BONUS,
    },
    "omniscient": {
        "iterations": Setting(200, 1, 100000, "tree iterations per card decision, all on the true deal"),
        "c": Setting(0.7, 0.0, 10.0, "UCB exploration constant, as for ismcts", integer=False),
        "bid_samples": Setting(48, 0, 4096, "completions per bid decision, as for mc (it bids honestly)"),
        "bid_bonus": _BID_BONUS,
    },
}
BOT_SETTINGS["mc_v1"], BOT_SETTINGS["ismcts_v1"] = (  # the same bots, rows and kernels, with bid_bonus 0
    {**BOT_SETTINGS[bot], "bid_bonus": replace(_BID_BONUS, default=0)} for bot in ("mc", "ismcts"))
CALL_CANDIDATES = 4  # the strongest cards not in the hand that the call compares


@njit(cache=True)
def heuristics() -> np.ndarray:
    """The bot table of play-outs, every seat ``heuristic_v1``: float64[MAX_PLAYERS, 1 + MAX_SETTINGS]. Made per
    decision, not kept as a global: numba sees a global array as read-only, a type of its own, and would compile
    ``run`` and everything it calls once more for it (issue 14). Not today's ``heuristic``: rolling out with it
    showed ``mc`` no better against three ``mc`` as they are (-0.14 +- 0.20 points per deal, 1,000 duplicate deals;
    -0.28 +- 0.20 with its feeding defenders alone) (docs/bots.md)."""
    return np.full((MAX_PLAYERS, 1 + MAX_SETTINGS), float(HEURISTIC_V1))


@njit(cache=True)
def play_to_end(s: State, p: Params, bots: np.ndarray) -> int:
    """The play-outs' ``bots`` (``heuristics()``) play the round ``s`` to its end: ``bots.callpartner.run`` as a
    function the searches call through its address (``Tools``)."""
    return run(s, p, bots, PLAY_ON, NO_PASSER, None)


class Tools(NamedTuple):
    """What the strong bots' entry ``act`` takes last, one argument each (numba's first-class functions take no
    tuple of functions): the functions the bots call through their addresses (first-class functions, ``tools``),
    so that each is compiled once, not linked into every function that calls it and optimised by LLVM there again
    (issue 14: ``run`` was in seven of the bots' compiled modules, the searches in ``act``). The searches take
    the first two the same way."""

    sample: Any  # cardsim.infoset.count_and_sample (numba_bots.sampler)
    play_to_end: Any
    mc_bid: Any
    mc_call: Any
    mc_discard: Any
    mc_play: Any
    ismcts_play: Any


def tools(state: State, p: Params) -> Tools:
    """The strong bots' ``Tools`` for rounds typed as ``state`` under ``p`` (``Game.strong_function``): each
    search compiled for the types ``decide`` calls it with (the seat's view, stream and ``true_piles``)."""
    state_type, p_type, i64 = numba.typeof(state), numba.typeof(p), types.int64
    sample = deal_sampler()
    to_end = first_class(play_to_end, i64(state_type, p_type, numba.typeof(heuristics())))
    rng, view = (returned(function, (state_type, i64)) for function in (bot_stream, view_of))
    functions = (numba.typeof(sample), numba.typeof(to_end))
    card_search = (*functions, i64, rng, i64, view, p_type, types.Array(types.uint64, 1, "C"))
    return Tools(
        sample, to_end,
        first_class(mc_bid, i64(i64, i64, rng, i64, types.uint64, i64, i64, p_type, i64)),
        first_class(mc_call, i64(*card_search)),
        first_class(mc_discard, types.uint64(*card_search)),
        first_class(mc_play, i64(*card_search)),
        first_class(ismcts_play, i64(*card_search[:3], types.float64, *card_search[3:])),
    )  # fmt: skip


class View(NamedTuple):
    """What a seat knows after the auction (``view_of``): its hand, the contract, the call, its own discards (the
    declarer's; empty for the others) and the first ``n`` cards of ``log`` in play order."""

    seat: int
    hand: np.uint64
    dealer: int
    trump: int
    declarer: int
    bid: int
    called: int
    discards: np.uint64
    log: np.ndarray
    n: int


@njit(cache=True)
def view_of(v: State, seat: int) -> View:
    """The ``View`` of ``seat`` from its observed state ``v`` (``state.observe``: the discards are blank unless it
    is the declarer)."""
    slots = v.slots
    return View(seat, v.hands[seat], slots[DEALER], slots[TRUMP], slots[DECLARER], slots[HIGH], slots[CALLED],
                np.uint64(slots[DISCARDS]), v.log, slots[CARDS])  # fmt: skip


@njit(cache=True)
def infoset(v: View, players: int, kitty_taken: bool) -> tuple:
    """The information set of ``v.seat`` (``cardsim.infoset``: unseen, counts, forbidden, known) after the first
    ``v.n`` cards of ``v.log`` (the cards in play order, the first trick led left of the dealer). Piles: the
    seats, then the kitty until the declarer (-1: none yet) takes it, afterwards the discards: hidden for the
    others, seen (``v.discards``, empty for the others) and out of play for the declarer. The called card is an
    ordinary unseen card until played. A seat that does not follow the led suit is void in it (C7: printed
    suits)."""
    seat, log = v.seat, v.log
    counts = np.full(players + 1, HAND_OF[players], np.int64)
    counts[players] = 0 if kitty_taken and seat == v.declarer else KITTY_OF[players]
    forbidden = np.zeros(players + 1, np.uint64)
    seen = v.hand | v.discards
    leader, led = v.dealer + 1 if v.dealer + 1 < players else 0, NO_SUIT
    for k in range(v.n):
        card, pos = log[k], k % players
        s = (leader + pos) % players
        counts[s] -= 1
        seen |= bit(card)
        if pos == 0:
            led = SUIT_OF[card]
        elif SUIT_OF[card] != led:
            forbidden[s] |= SUIT_MASK[led]
        if pos == players - 1:
            leader = (leader + trick_winner(log[k + 1 - players : k + 1], players, v.trump)) % players
    counts[seat] = 0
    return FULL_DECK & ~seen, counts, forbidden, np.zeros(players + 1, np.uint64)


@njit(cache=True)
def sample_with_call(sampler: Any, rng: np.ndarray, stream: int, samples: int, info: tuple, v: View,
                     players: int) -> np.ndarray:  # fmt: skip
    """``samples`` deals [sample, pile] of the information set ``info`` of ``v`` (``infoset``, the kitty taken),
    drawn by ``sampler`` (``cardsim.infoset.count_and_sample`` as a first-class function), with C5: the called
    card was not dealt to the declarer, so the declarer's hand or discards hold it only if the kitty brought it.
    Piles are sampled as if the declarer's dealt hand and the kitty were one uniform mix (its discards are
    unknown to the others), so a deal with the card there weighs kitty / (hand + kitty) against 1 for a deal with
    it in another seat's hand; each sample draws its case by these weights, then a deal of that case."""
    unseen, counts, forbidden, known = info
    seat, declarer = v.seat, v.declarer
    deals = np.empty((samples, players + 1), np.uint64)
    card = bit(v.called)
    if seat == declarer or not unseen & card:  # the declarer knows; a partner holds it; or it was played
        sample_view(sampler, rng, stream, info, deals, seat, v.n)
        return deals
    elsewhere, from_kitty = forbidden.copy(), forbidden.copy()
    elsewhere[declarer] |= card
    elsewhere[players] |= card
    for s in range(players):
        if s != declarer:
            from_kitty[s] |= card
    w = KITTY_OF[players] / (HAND_OF[players] + KITTY_OF[players])
    count_only = np.empty((0, players + 1), np.uint64)
    kitty_weight = w * sampler(rng, np.int64(stream), np.uint64(unseen), counts, from_kitty, known, count_only)
    total = sampler(rng, np.int64(stream), np.uint64(unseen), counts, elsewhere, known, count_only) + kitty_weight
    if total == 0.0:  # no deal fits the view: sample_view says so, in the same words in every game
        sample_view(sampler, rng, stream, info, deals, seat, v.n)
    share = kitty_weight / total
    in_kitty = np.int64(0)  # not the literal 0: a callee would compile for it too
    for _ in range(samples):
        in_kitty += (next_u64(rng, stream) >> np.uint64(11)) * (1.0 / 9007199254740992.0) < share
    first = samples - in_kitty  # rows 0..first-1: another seat holds the card; the rest: the kitty brought it
    if first:
        sample_view(sampler, rng, stream, (unseen, counts, elsewhere, known), deals[:first], seat, v.n)
    if in_kitty:
        sample_view(sampler, rng, stream, (unseen, counts, from_kitty, known), deals[first:], seat, v.n)
    return deals


@njit(cache=True)
def played_by(log: np.ndarray, n: int, players: int, dealer: int, trump: int, out: np.ndarray) -> None:
    """out[seat] = the cards ``seat`` played among the first ``n`` of ``log`` (C7: the winner leads the next)."""
    out[:] = 0
    leader = dealer + 1 if dealer + 1 < players else 0
    for k in range(n):
        pos = k % players
        out[(leader + pos) % players] |= bit(log[k])
        if pos == players - 1:
            leader = (leader + trick_winner(log[k + 1 - players : k + 1], players, trump)) % players


@njit(cache=True)
def _legal_now(v: View, p: Params) -> np.uint64:
    """The seat's legal cards at its card decision (C7)."""
    n = v.n
    return legal_mask(v.hand, SUIT_OF[v.log[n - n % p.players]] if n % p.players else NO_SUIT)


@njit(cache=True)
def _card_deals(sampler: Any, samples: int, rng: np.ndarray, stream: int, v: View, p: Params, truth: np.ndarray
                ) -> tuple:  # fmt: skip
    """``samples`` deals [sample, pile] of the seat's information set at its card decision (``sample_with_call``),
    or copies of the cheating bot's ``truth`` (``true_piles``; empty for the honest bots); and ``gone[seat]``, the
    cards each seat has played."""
    players = p.players
    gone = np.zeros(players, np.uint64)
    played_by(v.log, v.n, players, v.dealer, v.trump, gone)
    if truth.shape[0]:
        return true_deals(truth, samples), gone
    return sample_with_call(sampler, rng, stream, samples, infoset(v, players, np.bool_(True)), v, players), gone


@njit(cache=True, inline="always")
def _play(s: State, p: Params, card: int) -> None:
    """The seat to move plays ``card``, a card of the log or of its legal set: the card step of ``state.apply``
    (C7, C8) without its check and without its bids, call and discards, which would be compiled into every search
    once more (issue 14; a call through ``apply_outlined`` instead cost call-partner's strong lineups 7% speed)."""
    apply_card(s.slots, s.hands, s.points, s.scores, s.log, p, card)


@njit(cache=True)
def _start_deal(base: State, v: View, p: Params, deal: np.ndarray, gone: np.ndarray, hands: np.ndarray) -> None:
    """``base`` = the round of the view with the hidden cards of ``deal`` (a row of ``_card_deals``): the state
    machine started at the first trick with those hands and the log replayed. In this deal the partner is whoever
    holds the called card (nobody if the kitty brought it to the declarer)."""
    deal[v.seat] = v.hand
    pile = v.discards if v.seat == v.declarer else deal[p.players]
    for s in range(p.players):
        hands[s] = deal[s] | gone[s]
    start_play(base, p, hands, Contract(v.dealer, v.declarer, v.bid, v.trump, v.called, pile))
    for k in range(v.n):
        _play(base, p, v.log[k])


@njit(cache=True)
def card_values(sample: Any, play_to_end: Any, samples: int, rng: np.ndarray, stream: int, v: View, p: Params,
                truth: np.ndarray) -> tuple:  # fmt: skip
    """The PIMC player's evaluator: ``(codes, scores, best)``, ``codes`` the legal cards, lowest first (int64[n]),
    ``scores[sample, c]`` (int64[samples, n]) the score of ``v.seat`` in each of ``samples`` deals of its
    information set when it plays ``codes[c]`` and the heuristic plays to the end (rounds of the state machine
    started at the first trick with the sampled hands, the log replayed; the same deals for every card), ``best``
    the index of the best total (ties: the lowest card). ``truth`` as for ``_card_deals``."""
    players, seat = p.players, v.seat
    legal = _legal_now(v, p)
    deals, gone = _card_deals(sample, samples, rng, stream, v, p, truth)
    codes = np.empty(popcount(legal), np.int64)
    m = legal
    for c in range(codes.shape[0]):
        codes[c] = lowest_card(m)
        m &= m - np.uint64(1)
    scores = np.empty((samples, codes.shape[0]), np.int64)
    base, work, hands, table = new_state(players), new_state(players), np.empty(players, np.uint64), heuristics()
    for i in range(samples):
        _start_deal(base, v, p, deals[i], gone, hands)
        for c in range(codes.shape[0]):
            copy_into(work, base)
            _play(work, p, codes[c])
            play_to_end(work, p, table)
            scores[i, c] = work.scores[seat]
    return codes, scores, int(np.argmax(scores.sum(axis=0)))


@njit(cache=True)
def mc_play(sample: Any, play_to_end: Any, samples: int, rng: np.ndarray, stream: int, v: View, p: Params,
            truth: np.ndarray) -> int:  # fmt: skip
    """PIMC: the legal card with the best mean score of ``v.seat`` over ``samples`` deals of its information set
    (``card_values``); a forced card without sampling."""
    legal = _legal_now(v, p)
    if not legal & (legal - np.uint64(1)):
        return lowest_card(legal)
    codes, _, best = card_values(sample, play_to_end, samples, rng, stream, v, p, truth)
    return codes[best]


@njit(cache=True)
def ismcts_play(sample: Any, play_to_end: Any, iterations: int, c: float, rng: np.ndarray, stream: int, v: View,
                p: Params, truth: np.ndarray) -> int:  # fmt: skip
    """SO-ISMCTS (``cardsim.search``) over the card play: each iteration takes one deal of ``_card_deals`` (the
    same true deal in every iteration for the cheating bot), descends the tree by UCB over the legal cards of the
    seat to move (each seat maximising its own score), adds one node, plays the round out with the heuristic and
    backs up every seat's score (C9, -20..20) scaled to 0..1. The most visited legal card."""
    players = p.players
    legal = _legal_now(v, p)
    if not legal & (legal - np.uint64(1)):
        return lowest_card(legal)
    deals, gone = _card_deals(sample, iterations, rng, stream, v, p, truth)
    tree = new_tree(iterations + 1, np.int64(DECK_SIZE))
    path = np.zeros(DECK_SIZE + 1, np.int64)
    work, hands, table, rewards = new_state(players), np.empty(players, np.uint64), heuristics(), np.empty(players)
    for i in range(iterations):
        _start_deal(work, v, p, deals[i], gone, hands)
        node, depth = np.int64(0), 1  # not the literal 0: select would compile for it too
        while work.slots[PHASE] == CARD:
            mover = work.slots[SEAT]
            card, child = select(tree, node, legal_cards(work, p), c, rng, stream)
            new = child < 0
            if new:
                child = expand(tree, node, card, mover)
            _play(work, p, card)
            if child < 0:
                break
            path[depth], depth, node = child, depth + 1, child
            if new:
                break
        play_to_end(work, p, table)
        for s in range(players):
            rewards[s] = (work.scores[s] + MAX_BID) / (2.0 * MAX_BID)
        backpropagate(tree, path, depth, rewards)
    best = best_card(tree, legal)
    return best if best >= 0 else lowest_card(legal)


@njit(cache=True)
def bid_values(samples: int, bonus: int, rng: np.ndarray, stream: int, hand: np.uint64, place: int, p: Params,
               high: int, forced: bool) -> tuple:  # fmt: skip
    """The Monte Carlo bidder's evaluator over ``samples`` completions of the hand (the bid advice's kernel, all
    seats ``heuristic_v1``): ``(codes, scores, best)``, ``codes`` the auction's actions in the order of
    ``state.legal_actions`` (int64[n]: PASS, then ``4 * number + suit`` for every number above ``high``; with
    ``forced``, the dealer's four bids of 10 after all passed), ``scores[sample, o]`` (int64[samples, n]) the score
    of the seat at ``place`` (``place_of``) in each completion: passing, its score when the bots hold the rest of the
    auction and play; a bid of L in a suit, +L when the declaring side's play-out points plus ``bonus`` reach L,
    else -L (C9); ``best`` the index of the best total (ties: the first). ``bonus`` points, because the bot plays its
    own cards better than the ``heuristic_v1`` play-outs do; a bonus of 1 rated the bids best (docs/bots.md)."""
    players = p.players
    seed = next_u64(rng, stream)
    side = np.empty((samples, PASS_PLAY), np.int8)
    passing, roles = np.empty(samples, np.int16), np.empty(samples, np.int8)
    s, table = new_state(players), heuristics()
    for i in range(samples):
        complete(s, p, table, seed, np.int64(0), i, hand, place, (side, passing, roles))
    lowest, top, first = (MIN_BID, MIN_BID, 0) if forced else (max(MIN_BID, high + 1), MAX_BID, 1)
    n = first + PASS_PLAY * max(top + 1 - lowest, 0)
    codes, scores = np.empty(n, np.int64), np.empty((samples, n), np.int64)
    if first:
        codes[0] = PASS
        for i in range(samples):
            scores[i, 0] = passing[i]
    c = first
    for level in range(lowest, top + 1):
        for suit in range(PASS_PLAY):
            codes[c] = 4 * level + suit
            for i in range(samples):
                scores[i, c] = level if side[i, suit] + bonus >= level else -level
            c += 1
    return codes, scores, int(np.argmax(scores.sum(axis=0)))


@njit(cache=True, inline="always")
def place_of(seat: int, dealer: int, players: int) -> int:
    """``seat``'s place counted from the dealer's left (0: first to bid), as the bid advice counts seats."""
    return (seat - dealer - 1) % players


@njit(cache=True)
def mc_bid(samples: int, bonus: int, rng: np.ndarray, stream: int, hand: np.uint64, seat: int, dealer: int, p: Params,
           high: int) -> int:  # fmt: skip
    """The bid (4 * number + suit) with the best expected score over ``samples`` completions of the hand, or PASS
    when passing does better (``bid_values``). A bid must exceed ``high``."""
    if samples == 0:
        number, suit = heuristic_bid(hand, high, p.players, BID_MARGIN_V1)  # as its play-outs bid
        return PASS if number == 0 else 4 * number + suit
    codes, _, best = bid_values(samples, bonus, rng, stream, hand, place_of(seat, dealer, p.players), p, high,
                                np.bool_(False))  # fmt: skip
    return codes[best]


@njit(cache=True)
def play_out(play_to_end: Any, s: State, p: Params, bots: np.ndarray, hands: np.ndarray, contract: Contract) -> int:
    """The declarer's score (C9) when the ``bots`` (``heuristics()``) play a whole deal from ``hands`` (at the first
    trick) in the round ``s`` under ``contract`` (through ``play_to_end``'s address). The partner is whoever else holds
    the called card (nobody if the declarer has it or discarded it)."""
    start_play(s, p, hands, contract)
    play_to_end(s, p, bots)
    return s.scores[contract.declarer]


@njit(cache=True)
def unseen_deals(sampler: Any, samples: int, rng: np.ndarray, stream: int, v: View, players: int, truth: np.ndarray
                 ) -> np.ndarray:  # fmt: skip
    """``samples`` uniform deals [sample, pile] of the cards the declarer ``v.seat`` has not seen before the first
    trick: the other hands and, before it is taken (before the call), the kitty (the last pile); ``truth`` as for
    ``_card_deals``."""
    if truth.shape[0]:
        return true_deals(truth, samples)
    deals = np.empty((samples, players + 1), np.uint64)
    sample_view(sampler, rng, stream, infoset(v, players, v.called >= 0), deals, v.seat, np.int64(0))
    return deals


@njit(cache=True)
def call_values(sample: Any, play_to_end: Any, samples: int, rng: np.ndarray, stream: int, v: View, p: Params,
                truth: np.ndarray, most: int) -> tuple:  # fmt: skip
    """C5 valued by play-outs: ``(codes, scores, best)``, ``codes`` the ``most`` strongest cards not in the
    declarer's hand, strongest first (int64[n]; the heuristic calls the first), ``scores[sample, c]``
    (int64[samples, n]) the score of the declarer ``v.seat`` in each of ``samples`` deals of the unseen cards when
    it calls ``codes[c]``, takes the kitty, discards as the heuristic and the heuristic plays the round out, and
    ``best`` the index of the best total (ties: the first). ``truth`` as for ``_card_deals``."""
    hand, seat, trump = v.hand, v.seat, v.trump
    players = p.players
    codes, n = np.empty(most, np.int64), 0
    for i in range(BY_KEY.shape[1]):
        if n < most and not hand & bit(BY_KEY[trump, i]):
            codes[n], n = BY_KEY[trump, i], n + 1
    codes = codes[:n].copy()
    deals = unseen_deals(sample, samples, rng, stream, v, players, truth)
    scores = np.empty((samples, n), np.int64)
    s, hands, table = new_state(players), np.empty(players, np.uint64), heuristics()
    for i in range(samples):
        full = hand | deals[i, players]
        discards = heuristic_discard(full, np.uint64(0), KITTY_OF[players], trump, p.discards_count)
        for c in range(n):
            copy_items(hands, deals[i], players)
            hands[seat] = full ^ discards
            contract = Contract(v.dealer, seat, v.bid, trump, codes[c], discards)
            scores[i, c] = play_out(play_to_end, s, p, table, hands, contract)
    return codes, scores, int(np.argmax(scores.sum(axis=0)))


@njit(cache=True)
def mc_call(sample: Any, play_to_end: Any, samples: int, rng: np.ndarray, stream: int, v: View, p: Params,
            truth: np.ndarray) -> int:  # fmt: skip
    """C5: among the ``CALL_CANDIDATES`` strongest cards not in the declarer's hand, the one with the best mean
    score of the declarer (``call_values``); the heuristic's call (the first) on ties and when ``samples`` is 0."""
    if samples == 0:
        return heuristic_call(v.hand, v.trump)
    codes, _, best = call_values(sample, play_to_end, samples, rng, stream, v, p, truth, np.int64(CALL_CANDIDATES))
    return codes[best]


@njit(cache=True)
def discard_values(sample: Any, play_to_end: Any, samples: int, rng: np.ndarray, stream: int, v: View, p: Params,
                   truth: np.ndarray, candidates: np.ndarray) -> np.ndarray:  # fmt: skip
    """C6 valued by play-outs: ``scores[sample, c]`` (int64[samples, n]), the score of the declarer ``v.seat`` in
    each of ``samples`` deals of the other hands when its discards are ``candidates[c]`` (uint64[n], masks that
    hold ``v.discards``, those made so far) and the heuristic plays the round out. ``truth`` as for
    ``_card_deals``."""
    players, seat, trump = p.players, v.seat, v.trump
    full = v.hand | v.discards
    deals = unseen_deals(sample, samples, rng, stream, v, players, truth)
    scores = np.empty((samples, candidates.shape[0]), np.int64)
    s, hands, table = new_state(players), np.empty(players, np.uint64), heuristics()
    for i in range(samples):
        for c in range(candidates.shape[0]):
            copy_items(hands, deals[i], players)
            hands[seat] = full ^ candidates[c]
            contract = Contract(v.dealer, seat, v.bid, trump, v.called, candidates[c])
            scores[i, c] = play_out(play_to_end, s, p, table, hands, contract)
    return scores


@njit(cache=True)
def _best_discards(candidates: np.ndarray, scores: np.ndarray, own: np.uint64) -> int:
    """The index of the candidate discards with the best total of ``scores[sample, candidate]`` (ties: the first
    that are the heuristic's ``own``, else the first)."""
    totals = scores.sum(axis=0)
    best = 0
    for c in range(1, candidates.shape[0]):
        mine = candidates[c] == own and candidates[best] != own
        if totals[c] > totals[best] or (totals[c] == totals[best] and mine):
            best = c
    return best


@njit(cache=True)
def mc_discard(sample: Any, play_to_end: Any, samples: int, rng: np.ndarray, stream: int, v: View, p: Params,
               truth: np.ndarray) -> np.uint64:  # fmt: skip
    """C6: the discards still to lay down (k more besides ``v.discards``, those made so far; k = the kitty's size
    less their number) with the best mean score of the declarer ``v.seat`` (``discard_values``). Candidates: every
    k of the k + 2 cards of the hand (which holds the kitty) that the heuristic keeps least; the heuristic's choice
    on ties and when ``samples`` is 0."""
    trump, made = v.trump, v.discards
    full, k = v.hand | made, p.kitty - popcount(made)
    own = heuristic_discard(full, made, k, trump, p.discards_count)
    if samples == 0:
        return own & ~made
    pool = heuristic_discard(full, made, k + 2, trump, p.discards_count) & ~made
    candidates, n = np.empty(1 << (k + 2), np.uint64), 0
    for bits in range(1 << (k + 2)):
        if popcount(np.uint64(bits)) == k:
            chosen = made
            for j in range(k + 2):
                if bits >> j & 1:
                    chosen |= bit(nth_card(pool, j))
            candidates[n], n = chosen, n + 1
    candidates = candidates[:n].copy()
    scores = discard_values(sample, play_to_end, samples, rng, stream, v, p, truth, candidates)
    return candidates[_best_discards(candidates, scores, own)] & ~made


@njit(cache=True)
def discard_step_values(sample: Any, play_to_end: Any, samples: int, rng: np.ndarray, stream: int, v: View,
                        p: Params, truth: np.ndarray) -> tuple:  # fmt: skip
    """One discard step (C6 lays the discards down one card a step) valued by ``discard_values``, which the strong
    bots ask for whole sets of discards (``mc_discard``): ``(codes, scores, best)``, ``codes`` the cards of the hand,
    lowest first (int64[n]), ``scores[sample, c]`` (int64[samples, n]) when the declarer discards ``codes[c]`` now
    and the rest as the heuristic would, ``best`` the index of the best total (ties: the heuristic's next
    discard)."""
    trump, made = v.trump, v.discards
    full, k = v.hand | made, p.kitty - popcount(made)
    codes = np.empty(popcount(v.hand), np.int64)
    candidates = np.empty(codes.shape[0], np.uint64)
    m = v.hand
    for c in range(codes.shape[0]):
        codes[c] = lowest_card(m)
        m &= m - np.uint64(1)
        candidates[c] = heuristic_discard(full, made | bit(codes[c]), k - 1, trump, p.discards_count)
    scores = discard_values(sample, play_to_end, samples, rng, stream, v, p, truth, candidates)
    own = heuristic_discard(full, made, k, trump, p.discards_count)
    return codes, scores, _best_discards(candidates, scores, own)


@njit(cache=True)
def true_piles(s: State) -> np.ndarray:
    """The cards each seat holds now and, last, the kitty until the declarer takes it, then the discards
    (uint64[players + 1]): all ``omniscient`` sees."""
    players = s.hands.shape[0]
    truth = np.empty(players + 1, np.uint64)
    copy_items(truth, s.hands, players)
    truth[players] = np.uint64(s.slots[KITTY] if s.slots[PHASE] == CALL else s.slots[DISCARDS])
    return truth


@njit(cache=True, inline="always")  # called once, by act: not linked and optimised a second time
def decide(row: np.ndarray, rng: np.ndarray, stream: int, v: State, p: Params, seat: int, truth: np.ndarray,
           tools: Tools) -> int:  # fmt: skip
    """The strong bot of table row ``row`` at ``seat``'s turn, from that seat's observed state ``v`` only
    (``state.observe``: its hand, the auction, the contract and call, its own discards, the cards played), drawing
    from stream ``stream`` of ``rng`` only; the cheating ``omniscient`` bot also from ``truth`` (``true_piles``,
    after the auction; else empty). A declarer's discards are chosen at its first discard step and kept in
    ``v.slots[PLAN]`` (the caller keeps them for its next steps)."""
    slots, hand = v.slots, v.hands[seat]
    phase, bid = slots[PHASE], slots[HIGH]
    # table rows: [MC, samples, bid_samples, contract_samples, bid_bonus], [ISMCTS, iterations, c, bid_samples,
    # contract_samples, bid_bonus], [OMNISCIENT, iterations, c, bid_samples, bid_bonus]
    if phase == AUCTION:
        if slots[FORCED]:  # all passed: the dealer's trump as the heuristic's
            return 4 * MIN_BID + best_trump(hand, p.players)[0]
        samples, bonus = (row[2], row[4]) if row[0] == MC else (row[3], row[5] if row[0] == ISMCTS else row[4])
        return tools.mc_bid(int(samples), int(bonus), rng, stream, hand, seat, slots[DEALER], p, bid)
    contract_samples = 1 if row[0] == OMNISCIENT else int(row[3] if row[0] == MC else row[4])
    view = view_of(v, seat)
    if phase == CALL:  # C5, before it sees the kitty
        return tools.mc_call(tools.sample, tools.play_to_end, contract_samples, rng, stream, view, p, truth)
    if phase == DISCARD:  # C6: the discards chosen at the first step of this seat, laid down one a step
        plan = np.uint64(slots[PLAN]) & hand
        if not plan:
            plan = tools.mc_discard(tools.sample, tools.play_to_end, contract_samples, rng, stream, view, p, truth)
            slots[PLAN] = np.int64(plan)
        return lowest_card(plan)
    if row[0] == MC:
        return tools.mc_play(tools.sample, tools.play_to_end, int(row[1]), rng, stream, view, p, truth)
    return tools.ismcts_play(tools.sample, tools.play_to_end, int(row[1]), row[2], rng, stream, view, p, truth)


@njit(cache=True)
def act(row: np.ndarray, s: State, p: Params, seat: int, sample: Any, play_to_end: Any, mc_bid: Any, mc_call: Any,
        mc_discard: Any, mc_play: Any, ismcts_play: Any) -> int:  # fmt: skip
    """The one entry of the strong bots: the action of the strong bot of table row ``row`` for ``seat``, the seat
    to move (codes as in ``state``). An honest bot gets only ``observe(s, p, seat)`` and its seat's private stream
    (``state.bot_stream``: a one-way function of the round key, never the deal stream ``s.rng``, from whose state
    the hidden cards follow); ``omniscient`` also ``true_piles(s)`` once the auction is over. ``sample`` ..
    ``ismcts_play``: the ``Tools`` (these functions through their addresses, ``numba_bots.strong_bots``)."""
    v = observe(s, p, seat)
    cheat = row[0] == OMNISCIENT and s.slots[PHASE] != AUCTION
    truth = true_piles(s) if cheat else np.empty(0, np.uint64)
    stream = np.int64(0)  # typed: see bots.callpartner.run
    tools = Tools(sample, play_to_end, mc_bid, mc_call, mc_discard, mc_play, ismcts_play)
    action = decide(row, bot_stream(s, seat), stream, v, p, seat, truth, tools)
    if s.slots[PHASE] == DISCARD:
        s.slots[PLAN] = v.slots[PLAN]  # the declarer's plan of discards: its own memory for its next steps
    return action


def option_values(v: State, p: Params, seat: int, rng: np.ndarray, samples: int, tools: Tools) -> tuple:
    """What ``mc`` weighs, option by option, at the decision of ``seat`` in its view ``v`` (``observe``):
    ``bid_values`` (with ``mc``'s ``bid_bonus``), ``call_values`` (every card it may call), ``discard_step_values``
    or ``card_values`` (``(codes, scores[sample, option], best)``) over ``samples`` deals or completions drawn from
    the stream ``rng`` (uint64[1, 4]) through ``tools`` (``Game.strong_tools``)."""
    slots, stream, truth = v.slots, np.int64(0), np.empty(0, np.uint64)
    if slots[PHASE] == AUCTION:
        bonus = np.int64(BOT_SETTINGS["mc"]["bid_bonus"].default)
        place = place_of(np.int64(seat), slots[DEALER], p.players)
        return bid_values(np.int64(samples), bonus, rng, stream, v.hands[seat], place, p, slots[HIGH],
                          bool(slots[FORCED]))  # fmt: skip
    view = view_of(v, seat)  # numba hands its masks back as Python ints: typed again as the searches take them
    view = view._replace(hand=np.uint64(view.hand), discards=np.uint64(view.discards))
    searches = (tools.sample, tools.play_to_end, np.int64(samples), rng, stream, view, p, truth)
    if slots[PHASE] == CALL:
        return call_values(*searches, np.int64(DECK_SIZE))
    return (discard_step_values if slots[PHASE] == DISCARD else card_values)(*searches)
