"""Strong compiled bots of the exact-tricks family (issue 6), for any deck of it: ``mc``, a Monte Carlo bidder with a
determinized (PIMC) card player, and ``ismcts``, the same bidder with an information-set MCTS card player
(``ismcts_play``); and ``omniscient``, which cheats (a reference for the honest bots): it sees every bid, bids as
``mc`` with the true deal as its one sample, and plays as ``ismcts`` with the true deal in every iteration (MCTS on
the perfect-information game).

``act`` asks them at their seat of a round ``State``: they get only the seat's view ``state.observe(s, p, seat)``
(its own hand, the turned card and trump, the bids it may see under B5, every seat's tricks, and every card
played so far and by whom) and its private stream. From the view, ``view_infoset`` builds the seat's information
set; they sample deals of the hidden cards uniformly (``cardsim.infoset``), play each out with the fast heuristic
for every seat (``play_out``, over the state's own card step ``play_card``; never a strong bot, so no
recursion) and keep the choice with the best mean score of the round for the bot's own bid. ``mc_v1`` and
``ismcts_v1`` are these bots before the heuristic counted cards: they play out, and guess bids, as
``heuristic_v1``.

- bid: for each of ``bid_samples`` deals and every allowed bid b, the round played out with the bot aiming at b;
  bids it cannot see are the heuristic's bid for the sampled hand (the dealer's refused bid under plus_minus_one
  included);
- card: for each of ``samples`` deals and every legal card, the rest of the round played out after that card
  (the same deals for every card: common random numbers); bids it cannot see (secret bidding) as above.

The bid and the card are chosen in two steps: an evaluator (``bid_values``, ``card_values``) returns every
option's code, its score in every sample (``[sample, option]``) and the best, and the bot plays the best;
``option_values`` hands the same evaluators to ``cardsim.advise.option_values`` (hints, reviews), and with them
``trump_values``, a dealer's trump valued by ``bid_values``.

A turned Wizard's trump is named as the heuristic names it (the strongest suit). Randomness comes from the seat's
own private stream (``state.bot_stream``: one-way from the round key, apart from the deal), so runs stay
reproducible at any thread count.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit

from bots.exact_tricks import (
    ISMCTS_V1,
    MC,
    MC_V1,
    OMNISCIENT,
    bid_of_heuristic,
    card_of_heuristic,
    heuristic_trump,
    seen_cards,
)
from cardsim.arrays import copy_items
from cardsim.cards import bit, lowest_card, popcount
from cardsim.deal import seat_after
from cardsim.decisions import BID, TRUMP
from cardsim.games.exact_tricks.rules import (
    DECK_SIZE,
    NO_SUIT,
    SUIT_MASK,
    SUIT_OF,
    led_after,
    legal_mask,
    score,
    score_range,
)
from cardsim.games.exact_tricks.state import (
    BID_TOTAL,
    CARDS,
    DEALER,
    N_PLAYED,
    PHASE,
    TRUMP_SUIT,
    TURNED,
    Params,
    State,
    bot_stream,
    copy_state,
    legal_cards,
    load_trick,
    observe,
    play_card,
    scoring,
)
from cardsim.infoset import observe_play, reveal_void, sample_view, true_deals
from cardsim.search import backpropagate, best_card, expand, new_tree, select

_ZERO = np.uint64(0)


@njit(cache=True)
def view_infoset(deck: np.uint64, seat: int, hand: np.uint64, players: int, cards: int, turned: int, log: np.ndarray,
                 n_played: int):  # fmt: skip
    """What ``seat`` knows of the hidden cards of ``deck`` as ``(unseen, counts, forbidden, known)`` (see
    ``cardsim.infoset``).

    Seats 0..players-1 hold ``cards`` less their plays; entry ``players`` is the undealt stack (B3: the rest of the
    deck). Seen: the own hand, the turned card (B4) and the ``n_played`` cards of ``log`` (rows ``(seat, card)`` in
    play order, ``players`` per trick). A suit card of another suit than the led one reveals a void in the led suit
    (B6); Wizards and Jesters reveal nothing, nor does any card while no suit is led (only Jesters so far, or a
    Wizard first).
    """
    counts = np.full(players + 1, cards, np.int64)
    counts[seat] = cards - popcount(hand)  # the own plays below bring it to 0
    counts[players] = popcount(deck) - players * cards - (1 if turned >= 0 else 0)
    unseen = deck & ~hand
    if turned >= 0:
        unseen &= ~bit(turned)
    forbidden = np.zeros(players + 1, np.uint64)
    known = np.zeros(players + 1, np.uint64)
    led, decided = NO_SUIT, False
    for k in range(n_played):
        if k % players == 0:
            led, decided = NO_SUIT, False
        s, card = log[k, 0], log[k, 1]
        if led >= 0 and SUIT_OF[card] >= 0 and SUIT_OF[card] != led:
            reveal_void(forbidden, s, SUIT_MASK[led])
        unseen = observe_play(unseen, counts, known, s, card)
        led, decided = led_after(led, decided, card)
    return unseen, counts, forbidden, known


class Means(NamedTuple):
    """What a strong bot decides with besides its seat's view (``state.observe``); ``act`` makes it."""

    rng: np.ndarray  # uint64[streams, 4]: its random streams (``act``: the seat's private one, ``state.bot_stream``)
    stream: int  # the row of ``rng`` it draws from (``act``: 0)
    truth: np.ndarray  # uint64[players + 1]: the true piles (``true_piles``) for the cheating omniscient; else empty
    v1: bool  # play out and guess bids as ``heuristic_v1`` (``mc_v1``, ``ismcts_v1``)
    sampler: Any  # the deal sampler: ``cardsim.infoset.count_and_sample`` as a first-class function


class Rollout(NamedTuple):
    """A play-out's round: the scratch arrays ``play_out`` plays on, and the round's constants."""

    hands: np.ndarray  # uint64[players]: the cards each seat holds (a sampled deal, emptied by the play-out)
    bids: np.ndarray  # int64[players]: every seat's bid, seen or guessed
    won: np.ndarray  # int64[players]: the tricks taken so far (the play-out adds the rest)
    trump: int  # the trump suit, -1 none
    cards: int  # the round's cards (= its tricks)
    v1: bool  # as Means.v1
    deck: np.uint64  # the cards in play (Params.deck), for the heuristic's count


class Registers(NamedTuple):
    """The card phase's registers where a play-out or search goes on (as ``state.load_trick``, without the cards
    played): the seat to play (-1: the round is over), cards in the trick, led suit, decided, the best
    ``card_key`` so far, the seat winning the trick so far, tricks finished."""

    seat: int
    pos: int
    led: int
    decided: bool
    top_key: int
    winner: int
    trick: int


@njit(cache=True, inline="always")
def _play(r: Rollout, at: Registers, card: int) -> Registers:
    """``state.play_card`` on a play-out: the seat to play plays ``card`` (a play-out keeps no record of it)."""
    seat, pos, led, decided, top_key, winner, _, trick = play_card(r.hands, r.won, None, r.trump, r.cards, at.seat,
                                                                   at.pos, at.led, at.decided, at.top_key, at.winner,
                                                                   np.int64(0), at.trick, card)  # fmt: skip
    return Registers(seat, pos, led, decided, top_key, winner, trick)


@njit(cache=True, inline="always")
def _sample(r: Rollout, deals: np.ndarray, guess: np.ndarray, j: int, hand: np.uint64, seat: int,
            won: np.ndarray) -> None:  # fmt: skip
    """Set up play-out ``r`` for sampled deal ``j``: its hands (the seat's own ``hand``), bids and the tricks ``won``
    so far."""
    for s in range(r.hands.shape[0]):
        r.hands[s], r.bids[s], r.won[s] = deals[j, s], guess[j, s], won[s]
    r.hands[seat] = hand


@njit(cache=True)
def play_out(r: Rollout, at: Registers, seen: np.uint64) -> None:
    """The heuristic for every seat from ``at`` to the round's end: adds the tricks to ``r.won``, empties
    ``r.hands``. ``seen``: the cards played so far and the turned card, which the heuristic counts; ``r.v1``: play
    as ``heuristic_v1`` instead (``mc_v1``, ``ismcts_v1``)."""
    hands, bids, won = r.hands, r.bids, r.won
    players = hands.shape[0]
    while at.seat >= 0:
        seat = at.seat
        legal = legal_mask(hands[seat], at.led)
        card = card_of_heuristic(r.v1, r.deck, hands[seat], legal, seen, at.led, at.top_key, at.pos, players, r.trump,
                                 bids[seat] - won[seat])  # fmt: skip
        seen |= bit(card)
        at = _play(r, at, card)


@njit(cache=True)
def _deals(v: State, p: Params, seat: int, me: Means, samples: int) -> np.ndarray:
    """``samples`` uniform deals of the info set of ``seat`` (its view ``v``) as [sample, seat], the stack last;
    for the cheating ``omniscient`` bot (``me.truth`` the true piles) that many copies of the truth."""
    if me.truth.shape[0]:
        return true_deals(me.truth, samples)
    sl = v.slots
    players, n_played = v.hands.shape[0], sl[N_PLAYED]
    unseen, counts, forbidden, known = view_infoset(p.deck, seat, v.hands[seat], players, sl[CARDS], sl[TURNED], v.log,
                                                    n_played)  # fmt: skip
    deals = np.empty((samples, players + 1), np.uint64)
    sample_view(me.sampler, me.rng, me.stream, (unseen, counts, forbidden, known), deals, seat, n_played)
    return deals


@njit(cache=True)
def bid_values(v: State, p: Params, seat: int, me: Means, samples: int) -> tuple:
    """The Monte Carlo bidder's evaluator from the seat's view ``v`` (see the module docstring): ``(codes, scores,
    best)``, ``codes`` the bids the seat may make, lowest first (int64[n]: 0..cards, less the one plus_minus_one
    refuses the dealer), ``scores[sample, b]`` (int64[samples, n]) the seat's score in each of ``samples`` sampled
    deals when it bids ``codes[b]`` and aims at it, and ``best`` the index of the best total (ties: the lowest bid).
    The bids it sees in ``v`` (``v.bids`` >= 0) stand, the others are the heuristic's (``heuristic_v1``'s with
    ``me.v1``)."""
    sl = v.slots
    players, cards, trump, turned, dealer = v.hands.shape[0], sl[CARDS], sl[TRUMP_SUIT], sl[TURNED], sl[DEALER]
    hand, bids = v.hands[seat], v.bids
    deals = _deals(v, p, seat, me, samples)
    mine = 0
    total_seen = 0
    for i in range(players):
        s = seat_after(dealer, 1 + i, players)
        if s == seat:
            mine = i
        elif bids[s] >= 0:
            total_seen += bids[s]
    refused = cards - total_seen if p.plus_minus_one and mine == players - 1 and total_seen <= cards else -1
    codes = np.empty(cards + (0 if refused >= 0 else 1), np.int64)
    n = 0
    for b in range(cards + 1):
        if b != refused:
            codes[n], n = b, n + 1
    scores = np.empty((samples, n), np.int64)
    guess = np.empty(players, np.int64)
    hands = np.empty(players, np.uint64)
    won = np.empty(players, np.int64)
    leader = seat_after(dealer, 1, players)
    seen = bit(turned) if turned >= 0 else _ZERO
    # typed values, not literals: one compile of play_out for every caller
    start = Registers(leader, np.int64(0), np.int64(NO_SUIT), np.bool_(False), np.int64(-1), leader, np.int64(0))
    r = Rollout(hands, guess, won, trump, cards, me.v1, p.deck)
    for j in range(samples):
        for c in range(n):
            b = codes[c]
            total = 0
            for i in range(players):  # the bids in bidding order: seen, the candidate, or the heuristic's
                s = seat_after(dealer, 1 + i, players)
                if s == seat:
                    guess[s] = b
                elif bids[s] >= 0:
                    guess[s] = bids[s]
                else:
                    last = p.plus_minus_one and i == players - 1 and total <= cards
                    guess[s] = bid_of_heuristic(me.v1, p.tables, deals[j, s], trump, players, cards, i,
                                                cards - total if last else -1)  # fmt: skip
                total += guess[s]
                hands[s] = deals[j, s]
                won[s] = 0
            hands[seat] = hand
            play_out(r, start, seen)
            scores[j, c] = score(scoring(p), b, won[seat])
    return codes, scores, int(np.argmax(scores.sum(axis=0)))


@njit(cache=True)
def mc_bid(v: State, p: Params, seat: int, me: Means, samples: int) -> int:
    """The bid with the best mean score over ``samples`` sampled deals (``bid_values``), from the seat's view
    ``v``."""
    codes, _, best = bid_values(v, p, seat, me, samples)
    return codes[best]


@njit(cache=True)
def trump_values(v: State, p: Params, seat: int, me: Means, samples: int) -> tuple:
    """The dealer's trump (B4, a turned Wizard) valued by the bidder's evaluator, which the strong bots do not ask
    (they name the heuristic's trump): ``(codes, scores, best)``, ``codes`` the suits 0..3, ``scores[sample, t]``
    (int64[samples, 4]) the dealer's score in each of the same ``samples`` sampled deals (the stream restarted for
    every suit) with trump t and the bid ``bid_values`` rates best for it, ``best`` the index of the best total
    (ties: the heuristic's suit, then the first)."""
    first = me.rng.copy()
    scores = np.empty((samples, 4), np.int64)
    trumped = copy_state(v)
    for t in range(4):
        me.rng[:] = first
        trumped.slots[TRUMP_SUIT] = t
        _, by_bid, b = bid_values(trumped, p, seat, me, samples)
        scores[:, t] = by_bid[:, b]
    totals = scores.sum(axis=0)
    best = heuristic_trump(v.hands[seat])
    for t in range(4):
        if totals[t] > totals[best]:
            best = t
    return np.arange(4), scores, best


@njit(cache=True)
def _guesses(v: State, p: Params, seat: int, deals: np.ndarray, v1: bool) -> np.ndarray:
    """Every seat's bid in each sampled deal: the real one where the seat sees it in its view ``v`` (its own
    always), else the heuristic's bid for that seat's sampled whole hand (its cards left and its plays) from its
    bidding position after the dealer (``heuristic_v1``'s with ``v1``)."""
    sl = v.slots
    players, cards, trump, dealer, n_played = v.hands.shape[0], sl[CARDS], sl[TRUMP_SUIT], sl[DEALER], sl[N_PLAYED]
    hidden = False
    for s in range(players):
        hidden |= v.bids[s] < 0
    guess = np.empty((deals.shape[0], players), np.int64)
    for j in range(deals.shape[0]):
        for s in range(players):
            guess[j, s] = v.bids[s]
        if hidden:
            dealt = deals[j, :players].copy()
            for k in range(n_played):
                dealt[v.log[k, 0]] |= bit(v.log[k, 1])
            for s in range(players):
                if v.bids[s] < 0 and s != seat:
                    guess[j, s] = bid_of_heuristic(v1, p.tables, dealt[s], trump, players, cards,
                                                   (s - dealer - 1) % players, np.int64(-1))  # fmt: skip
    return guess


@njit(cache=True)
def _card_start(v: State, p: Params, seat: int, v1: bool) -> tuple:
    """What both card players start from, in the seat's view ``v``: the trick so far (``Registers``), the legal
    cards, the cards seen (``seen_cards``) and the heuristic's card (``heuristic_v1``'s with ``v1``)."""
    sl = v.slots
    players, trump = v.hands.shape[0], sl[TRUMP_SUIT]
    _, pos, led, decided, top_key, winner, n_played, trick = load_trick(sl)
    at = Registers(seat, pos, led, decided, top_key, winner, trick)
    hand, legal = v.hands[seat], legal_cards(v, p)
    seen = seen_cards(sl[TURNED], v.log, n_played)
    fallback = card_of_heuristic(v1, p.deck, hand, legal, seen, led, top_key, pos, players, trump,
                                 v.bids[seat] - v.won[seat])  # fmt: skip
    return at, legal, seen, fallback


@njit(cache=True)
def _card_deals(v: State, p: Params, seat: int, me: Means, samples: int) -> tuple:
    """``samples`` deals of the seat's info set and every seat's bid in each (``_guesses``)."""
    deals = _deals(v, p, seat, me, samples)
    return deals, _guesses(v, p, seat, deals, me.v1)


@njit(cache=True)
def card_values(v: State, p: Params, seat: int, me: Means, samples: int) -> tuple:
    """The PIMC player's evaluator from the seat's view ``v``: ``(codes, scores, best)``, ``codes`` the legal cards,
    the heuristic's first and then the others lowest first (int64[n]), ``scores[sample, c]`` (int64[samples, n])
    the seat's score for its bid in each of ``samples`` sampled deals when it plays ``codes[c]`` and the heuristic
    plays the round out (the same deals for every card; bids it does not see are estimated, ``_guesses``), and
    ``best`` the index of the best total (ties: the heuristic's card, then the lowest)."""
    at, legal, seen, fallback = _card_start(v, p, seat, me.v1)
    deals, guess = _card_deals(v, p, seat, me, samples)
    players, trump, cards = v.hands.shape[0], v.slots[TRUMP_SUIT], v.slots[CARDS]
    hand = v.hands[seat]
    r = Rollout(np.empty(players, np.uint64), np.empty(players, np.int64), np.empty(players, np.int64), trump, cards,
                me.v1, p.deck)  # fmt: skip
    codes = np.empty(popcount(legal), np.int64)
    scores = np.empty((samples, codes.shape[0]), np.int64)
    best, best_total = 0, -(1 << 62)
    rest = legal ^ bit(fallback)
    card = fallback
    for c in range(codes.shape[0]):  # the heuristic's card first: others must do strictly better
        if c > 0:
            card = lowest_card(rest)
            rest ^= bit(card)
        total = 0
        for j in range(samples):
            _sample(r, deals, guess, j, hand, seat, v.won)
            play_out(r, _play(r, at, card), seen | bit(card))
            scores[j, c] = score(scoring(p), guess[j, seat], r.won[seat])
            total += scores[j, c]
        if total > best_total:
            best, best_total = c, total
        codes[c] = card
    return codes, scores, best


@njit(cache=True)
def pimc_play(v: State, p: Params, seat: int, me: Means, samples: int) -> int:
    """The legal card with the best mean score for the own bid over ``samples`` sampled deals, each played out
    by the heuristic (``card_values``), from the seat's view ``v``; a forced card without sampling."""
    legal = legal_cards(v, p)
    if popcount(legal) == 1:
        return lowest_card(legal)
    codes, _, best = card_values(v, p, seat, me, samples)
    return codes[best]


@njit(cache=True)
def ismcts_play(v: State, p: Params, seat: int, me: Means, iterations: int, c: float) -> int:
    """Single-observer ISMCTS (``cardsim.search``) from the seat's view ``v``: each iteration samples a deal of the
    info set, descends the tree over the cards legal in that deal (UCB with exploration ``c`` for every seat, each
    maximising its own round score), adds one node, plays the round out with the heuristic and backs up every
    seat's score scaled to 0..1. The most visited card at the root wins."""
    at0, legal, seen0, fallback = _card_start(v, p, seat, me.v1)
    if popcount(legal) == 1:
        return fallback
    deals, guess = _card_deals(v, p, seat, me, iterations)
    players, trump, cards = v.hands.shape[0], v.slots[TRUMP_SUIT], v.slots[CARDS]
    hand = v.hands[seat]
    tree = new_tree(iterations + 1, np.int64(DECK_SIZE))
    path = np.empty(cards * players + 1, np.int64)
    r = Rollout(np.empty(players, np.uint64), np.empty(players, np.int64), np.empty(players, np.int64), trump, cards,
                me.v1, p.deck)  # fmt: skip
    hands, tally = r.hands, r.won
    rewards = np.empty(players)
    lowest, highest = score_range(scoring(p), cards)  # B8: -10 cards .. 20 + 10 cards
    low, span = float(lowest), float(highest - lowest)
    for j in range(iterations):
        _sample(r, deals, guess, j, hand, seat, v.won)
        at, seen = at0, seen0
        node, path[0], depth = np.int64(0), 0, 1  # not the literal 0: select would compile for it too
        while at.seat >= 0:
            card, child = select(tree, node, legal_mask(hands[at.seat], at.led), c, me.rng, me.stream)
            new = child < 0
            if new:
                child = expand(tree, node, card, at.seat)
            seen |= bit(card)
            at = _play(r, at, card)
            if child < 0:
                break
            path[depth], depth, node = child, depth + 1, child
            if new:
                break
        play_out(r, at, seen)
        for s in range(players):
            rewards[s] = (score(scoring(p), guess[j, s], tally[s]) - low) / span
        backpropagate(tree, path, depth, rewards)
    best = best_card(tree, legal)
    return best if best >= 0 else fallback


@njit(cache=True)
def bid(row: np.ndarray, v: State, p: Params, seat: int, me: Means) -> int:
    """A strong bot's bid from its seat's view ``v``; ``row`` is its bot-table row: ``[MC or MC_V1, samples,
    bid_samples]``, ``[ISMCTS or ISMCTS_V1, iterations, c, bid_samples]`` or ``[OMNISCIENT, iterations, c]`` (one
    sample: ``me.truth``)."""
    samples = 1 if row[0] == OMNISCIENT else int(row[2] if row[0] == MC or row[0] == MC_V1 else row[3])
    return mc_bid(v, p, seat, me, samples)


@njit(cache=True)
def play(row: np.ndarray, v: State, p: Params, seat: int, me: Means) -> int:
    """A strong bot's card; ``row``, ``v`` and ``me`` as for ``bid``."""
    if row[0] == MC or row[0] == MC_V1:
        return pimc_play(v, p, seat, me, int(row[1]))
    return ismcts_play(v, p, seat, me, int(row[1]), row[2])


@njit(cache=True, inline="always")
def _v1(row: np.ndarray) -> bool:
    """The bot plays out and guesses bids as ``heuristic_v1`` (``mc_v1``, ``ismcts_v1``)."""
    return row[0] == MC_V1 or row[0] == ISMCTS_V1


@njit(cache=True)
def true_piles(s: State, p: Params) -> np.ndarray:
    """The cards each seat still holds and, last, the undealt stack (uint64[players + 1]): all ``omniscient`` sees."""
    players = s.hands.shape[0]
    truth = np.empty(players + 1, np.uint64)
    truth[players] = p.deck if s.slots[TURNED] < 0 else p.deck & ~bit(s.slots[TURNED])
    for seat in range(players):
        truth[seat] = s.hands[seat]
        truth[players] &= ~s.dealt[seat]
    return truth


@njit(cache=True)
def act(row: np.ndarray, s: State, p: Params, seat: int, sampler: Any) -> int:
    """The one way to ask a strong bot (table row ``row``) for ``seat``'s action, the seat to move. An honest bot
    decides from ``state.observe(s, p, seat)`` only (its hand, the public slots, the bids the seat sees under B5,
    every seat's tricks, the cards played) and its seat's private stream ``state.bot_stream(s, seat)``, never the
    deal's; it draws deals with ``sampler`` (``cardsim.infoset.count_and_sample`` as a first-class function). The
    cheating ``omniscient`` bot also gets every bid made and the true piles (``true_piles``)."""
    v = observe(s, p, seat)
    if v.slots[PHASE] == TRUMP:
        return heuristic_trump(v.hands[seat])
    cheat = row[0] == OMNISCIENT
    if cheat:
        copy_items(v.bids, s.bids, s.bids.shape[0])
        v.slots[BID_TOTAL] = s.slots[BID_TOTAL]
    truth = true_piles(s, p) if cheat else np.empty(0, np.uint64)
    me = Means(bot_stream(s, seat), np.int64(0), truth, _v1(row), sampler)  # stream 0: not the literal (ismcts_play)
    if v.slots[PHASE] == BID:
        return bid(row, v, p, seat, me)
    return play(row, v, p, seat, me)


def option_values(v: State, p: Params, seat: int, rng: np.ndarray, samples: int, tools: tuple) -> tuple:
    """What ``mc`` weighs, option by option, at the decision of ``seat`` in its view ``v`` (``observe``): its
    ``bid_values`` or ``card_values``, or for a dealer's trump ``trump_values`` (``(codes, scores[sample, option],
    best)``), over ``samples`` deals drawn from the stream ``rng`` (uint64[1, 4]) by the sampler ``tools[0]``
    (``Game.strong_tools``)."""
    me = Means(rng, np.int64(0), np.empty(0, np.uint64), False, tools[0])
    phase = v.slots[PHASE]
    evaluator = trump_values if phase == TRUMP else bid_values if phase == BID else card_values
    return evaluator(v, p, np.int64(seat), me, np.int64(samples))
