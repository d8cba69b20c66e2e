"""Strong compiled Wizard bots (issue 6): ``mc``, a Monte Carlo bidder with a determinized (PIMC) card player,
and ``ismcts``, the same bidder with an information-set MCTS card player (``ismcts_play``); and ``omniscient``,
which cheats (a reference for the honest bots): it sees every bid, bids as ``mc`` with the true deal as its one
sample, and plays as ``ismcts`` with the true deal in every iteration (MCTS on the perfect-information game).

They decide from the seat's information set only (``view_infoset``): its own hand, the turned card, the bids it
may see, and every card played so far and by whom. They sample deals of the hidden cards uniformly
(``cardsim.infoset``), play each out with the fast heuristic for every seat (``play_out``; never a strong bot, so
no recursion) and keep the choice with the best mean score of the round for the bot's own bid. ``mc_v1`` and
``ismcts_v1`` are these bots before the heuristic counted cards: they play out, and guess bids, as
``heuristic_v1``.

- bid: for each of ``bid_samples`` deals and every allowed bid b, the round played out with the bot aiming at b;
  bids it cannot see are the heuristic's bid for the sampled hand (the dealer's refused bid under plus_minus_one
  included);
- card: for each of ``samples`` deals and every legal card, the rest of the round played out after that card
  (the same deals for every card: common random numbers); bids it cannot see (secret bidding) as above.

A turned Wizard's trump is named as the heuristic names it (the strongest suit). Randomness comes from the seat's
own private stream (``state.bot_stream``: one-way from the round key, apart from the deal), so runs stay
reproducible at any thread count.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bots.wizard import (
    ISMCTS_V1,
    MC,
    MC_V1,
    OMNISCIENT,
    bid_of_heuristic,
    card_of_heuristic,
    heuristic_trump,
    seen_cards,
)
from cardsim.cards import bit, lowest_card, popcount
from cardsim.deal import seat_after
from cardsim.decisions import BID, TRUMP
from cardsim.games.wizard.rules import (
    DECK_SIZE,
    FULL_DECK,
    NO_SUIT,
    SUIT_MASK,
    SUIT_OF,
    led_after,
    legal_mask,
    score,
)
from cardsim.games.wizard.state import (
    CARDS,
    DEALER,
    N_BIDS,
    N_PLAYED,
    OPEN,
    PHASE,
    SECRET,
    TRUMP_SUIT,
    TURNED,
    Params,
    State,
    bid_seen,
    bot_stream,
    legal_cards,
    trick_step,
)
from cardsim.infoset import observe_play, reveal_void, sample_view, true_deals
from cardsim.search import backpropagate, best_card, expand, new_tree, select

_ZERO = np.uint64(0)


@njit(cache=True)
def view_infoset(seat: int, hand: np.uint64, players: int, cards: int, turned: int, log: np.ndarray, n_played: int):
    """What ``seat`` knows of the hidden cards as ``(unseen, counts, forbidden, known)`` (see ``cardsim.infoset``).

    Seats 0..players-1 hold ``cards`` less their plays; entry ``players`` is the undealt stack (B3). Seen: the
    own hand, the turned card (B4) and the ``n_played`` cards of ``log`` (rows ``(seat, card)`` in play order,
    ``players`` per trick). A suit card of another suit than the led one reveals a void in the led suit (B6);
    Wizards and Jesters reveal nothing, nor does any card while no suit is led (only Jesters so far, or a Wizard
    first).
    """
    counts = np.full(players + 1, cards, np.int64)
    counts[seat] = cards - popcount(hand)  # the own plays below bring it to 0
    counts[players] = DECK_SIZE - players * cards - (1 if turned >= 0 else 0)
    unseen = FULL_DECK & ~hand
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


@njit(cache=True)
def play_out(hands, players, trump, bids, won, seat, i, led, decided, top_key, winner, tricks_left, seen,
             v1) -> None:  # fmt: skip
    """The heuristic for every seat from position ``i`` of the current trick (``seat`` to play; ``led``,
    ``decided``, ``top_key``, ``winner`` so far) to the round's end: adds the tricks to ``won``, empties ``hands``.
    ``seen``: the cards played so far and the turned card, which the heuristic counts; ``v1``: play as
    ``heuristic_v1`` instead (``mc_v1``, ``ismcts_v1``)."""
    while tricks_left > 0:
        while i < players:
            legal = legal_mask(hands[seat], led)
            card = card_of_heuristic(v1, hands[seat], legal, seen, led, top_key, i, players, trump,
                                     bids[seat] - won[seat])  # fmt: skip
            seen |= bit(card)
            hands[seat] ^= bit(card)
            led, decided, top_key, winner = trick_step(trump, led, decided, top_key, winner, seat, card)
            seat = seat + 1 if seat + 1 < players else 0
            i += 1
        won[winner] += 1
        seat, i, led, decided, top_key, tricks_left = winner, 0, NO_SUIT, False, -1, tricks_left - 1


@njit(cache=True)
def _deals(rng, stream, samples, seat, hand, players, cards, turned, log, n_played, truth):
    """``samples`` uniform deals of the seat's info set ([sample, seat], the stack last); for the cheating
    ``omniscient`` bot (``truth`` the true piles, uint64[players + 1]; else empty) that many copies of the truth."""
    if truth.shape[0]:
        return true_deals(truth, samples)
    unseen, counts, forbidden, known = view_infoset(seat, hand, players, cards, turned, log, n_played)
    deals = np.empty((samples, players + 1), np.uint64)
    sample_view(rng, stream, unseen, counts, forbidden, known, deals, seat, n_played)
    return deals


@njit(cache=True)
def mc_bid(samples, rng, stream, seat, hand, dealer, players, cards, trump, turned, bids, n_seen, plus_minus_one,
           truth, v1):  # fmt: skip
    """The bid with the best mean score over ``samples`` sampled deals (see the module docstring; ``truth`` as for
    ``_deals``; ``v1`` as for ``play_out``, also for the bids it guesses).

    ``bids[seat_after(dealer, 1 + i)]`` for ``i < n_seen`` are the earlier bids this seat sees.
    """
    deals = _deals(rng, stream, samples, seat, hand, players, cards, turned, np.empty((0, 2), np.int64), np.int64(0),
                   truth)  # fmt: skip
    mine = 0
    total_seen = 0
    for i in range(players):
        if seat_after(dealer, 1 + i, players) == seat:
            mine = i
        elif i < n_seen:
            total_seen += bids[seat_after(dealer, 1 + i, players)]
    refused = cards - total_seen if plus_minus_one and mine == players - 1 and total_seen <= cards else -1
    sums = np.zeros(cards + 1)
    guess = np.empty(players, np.int64)
    hands = np.empty(players, np.uint64)
    won = np.empty(players, np.int64)
    leader = seat_after(dealer, 1, players)
    seen = bit(turned) if turned >= 0 else _ZERO
    for j in range(samples):
        for b in range(cards + 1):
            if b == refused:
                continue
            total = 0
            for i in range(players):  # the bids in bidding order: seen, the candidate, or the heuristic's
                s = seat_after(dealer, 1 + i, players)
                if s == seat:
                    guess[s] = b
                elif i < n_seen:
                    guess[s] = bids[s]
                else:
                    last = plus_minus_one and i == players - 1 and total <= cards
                    guess[s] = bid_of_heuristic(v1, deals[j, s], trump, players, cards, i,
                                                cards - total if last else -1)  # fmt: skip
                total += guess[s]
                hands[s] = deals[j, s]
                won[s] = 0
            hands[seat] = hand
            # typed values, not literals: one compile of play_out for every caller
            play_out(hands, players, trump, guess, won, leader, np.int64(0), np.int64(NO_SUIT), np.bool_(False),
                     np.int64(-1), leader, cards, seen, v1)  # fmt: skip
            sums[b] += score(b, won[seat])
    best = -1
    for b in range(cards + 1):
        if b != refused and (best < 0 or sums[b] > sums[best]):
            best = b
    return best


@njit(cache=True)
def _trick_so_far(log, n_played, players, trump, seat):
    """(position in the trick, led, decided, top_key, winner) of the current trick from the log."""
    first = n_played - n_played % players
    led, decided, top_key, winner = NO_SUIT, False, -1, seat
    for k in range(first, n_played):
        led, decided, top_key, winner = trick_step(trump, led, decided, top_key, winner, log[k, 0], log[k, 1])
    return n_played - first, led, decided, top_key, winner


@njit(cache=True)
def _guesses(deals, seat, dealer, players, cards, trump, bids, bids_seen, log, n_played, v1):
    """Every seat's bid in each sampled deal: the real one where the seat sees it (its own always), else the
    heuristic's bid for that seat's sampled whole hand (its cards left and its plays) from its bidding position
    after the ``dealer`` (``heuristic_v1``'s with ``v1``)."""
    guess = np.empty((deals.shape[0], players), np.int64)
    for j in range(deals.shape[0]):
        for s in range(players):
            guess[j, s] = bids[s]
        if not bids_seen:
            dealt = deals[j, :players].copy()
            for k in range(n_played):
                dealt[log[k, 0]] |= bit(log[k, 1])
            for s in range(players):
                if s != seat:
                    guess[j, s] = bid_of_heuristic(v1, dealt[s], trump, players, cards, (s - dealer - 1) % players,
                                                   np.int64(-1))  # fmt: skip
    return guess


@njit(cache=True)
def _card_decision(samples, rng, stream, seat, hand, legal, dealer, players, cards, trump, turned, bids, bids_seen, won,
                   log, n_played, truth, v1) -> tuple:  # fmt: skip
    """What both card players start from: the trick so far (cards in it, led suit, decided, top key, winner), the
    cards seen (``seen_cards``), the heuristic's card, and ``samples`` deals of the info set with every seat's bid
    in each (``_guesses``). No deals when the card is forced (the heuristic's card stands). ``truth`` as for
    ``_deals``, ``v1`` as for ``play_out``."""
    trick = _trick_so_far(log, n_played, players, trump, seat)
    seen = seen_cards(turned, log, n_played)
    need = bids[seat] - won[seat]
    fallback = card_of_heuristic(v1, hand, legal, seen, trick[1], trick[3], trick[0], players, trump, need)
    if popcount(legal) > 1:
        deals = _deals(rng, stream, samples, seat, hand, players, cards, turned, log, n_played, truth)
        return trick, seen, fallback, deals, _guesses(deals, seat, dealer, players, cards, trump, bids, bids_seen,
                                                      log, n_played, v1)  # fmt: skip
    return trick, seen, fallback, np.empty((0, players + 1), np.uint64), np.empty((0, players), np.int64)


@njit(cache=True)
def pimc_play(samples, rng, stream, seat, hand, legal, dealer, players, cards, trump, turned, bids, bids_seen, won,
              log, n_played, truth, v1) -> int:  # fmt: skip
    """The legal card with the best mean score for the own bid over ``samples`` sampled deals, each played out
    by the heuristic (see the module docstring). ``bids_seen``: the others' bids are visible (else estimated).
    ``truth`` as for ``_deals``, ``v1`` as for ``play_out``."""
    trick, seen, fallback, deals, guess = _card_decision(samples, rng, stream, seat, hand, legal, dealer, players,
                                                         cards, trump, turned, bids, bids_seen, won, log, n_played,
                                                         truth, v1)  # fmt: skip
    if deals.shape[0] == 0:
        return fallback
    i, led, decided, top_key, winner = trick
    hands = np.empty(players, np.uint64)
    tally = np.empty(players, np.int64)
    best, best_total = fallback, -(1 << 62)
    rest = legal ^ bit(fallback)
    card = fallback
    nxt = seat + 1 if seat + 1 < players else 0
    while True:  # the heuristic's card first: others must do strictly better
        after, now, top, wins = trick_step(trump, led, decided, top_key, winner, seat, card)
        total = 0
        for j in range(samples):
            hands[:] = deals[j, :players]
            hands[seat] = hand ^ bit(card)
            tally[:] = won[:players]
            play_out(hands, players, trump, guess[j], tally, nxt, i + 1, after, now, top, wins,
                     cards - n_played // players, seen | bit(card), v1)  # fmt: skip
            total += score(guess[j, seat], tally[seat])
        if total > best_total:
            best, best_total = card, total
        if rest == _ZERO:
            return best
        card = lowest_card(rest)
        rest ^= bit(card)


@njit(cache=True)
def ismcts_play(iterations, c, rng, stream, seat, hand, legal, dealer, players, cards, trump, turned, bids, bids_seen,
                won, log, n_played, truth, v1) -> int:  # fmt: skip
    """Single-observer ISMCTS (``cardsim.search``): each iteration samples a deal of the info set, descends the
    tree over the cards legal in that deal (UCB for every seat, each maximising its own round score), adds one
    node, plays the round out with the heuristic and backs up every seat's score scaled to 0..1. The most visited
    card at the root wins. ``truth`` as for ``_deals``, ``v1`` as for ``play_out``."""
    trick, seen0, fallback, deals, guess = _card_decision(iterations, rng, stream, seat, hand, legal, dealer, players,
                                                          cards, trump, turned, bids, bids_seen, won, log, n_played,
                                                          truth, v1)  # fmt: skip
    if deals.shape[0] == 0:
        return fallback
    i0, led0, decided0, top0, winner0 = trick
    tree = new_tree(iterations + 1, np.int64(DECK_SIZE))
    path = np.empty(cards * players + 1, np.int64)
    hands = np.empty(players, np.uint64)
    tally = np.empty(players, np.int64)
    rewards = np.empty(players)
    low, span = -10.0 * cards, 20.0 + 20.0 * cards  # B8: scores lie in -10 cards .. 20 + 10 cards
    for j in range(iterations):
        hands[:] = deals[j, :players]
        hands[seat] = hand
        tally[:] = won[:players]
        mover, i, led, decided, top_key, winner, seen = seat, i0, led0, decided0, top0, winner0, seen0
        tricks_left = cards - n_played // players
        node, path[0], depth = np.int64(0), 0, 1  # not the literal 0: select would compile for it too
        while tricks_left > 0:
            card, child = select(tree, node, legal_mask(hands[mover], led), c, rng, stream)
            new = child < 0
            if new:
                child = expand(tree, node, card, mover)
            hands[mover] ^= bit(card)
            seen |= bit(card)
            led, decided, top_key, winner = trick_step(trump, led, decided, top_key, winner, mover, card)
            mover, i = (mover + 1 if mover + 1 < players else 0), i + 1
            if i == players:
                tally[winner] += 1
                mover, i, led, decided, top_key, tricks_left = winner, 0, NO_SUIT, False, -1, tricks_left - 1
            if child < 0:
                break
            path[depth], depth, node = child, depth + 1, child
            if new:
                break
        play_out(hands, players, trump, guess[j], tally, mover, i, led, decided, top_key, winner, tricks_left, seen,
                 v1)  # fmt: skip
        for s in range(players):
            rewards[s] = (score(guess[j, s], tally[s]) - low) / span
        backpropagate(tree, path, depth, rewards)
    best = best_card(tree, legal)
    return best if best >= 0 else fallback


@njit(cache=True)
def bid(row: np.ndarray, rng: np.ndarray, stream: int, seat: int, hand: np.uint64, dealer: int, players: int,
        cards: int, trump: int, turned: int, bids: np.ndarray, n_seen: int, plus_minus_one: bool,
        truth: np.ndarray) -> int:  # fmt: skip
    """A strong bot's bid; ``row`` is its bot-table row: ``[MC or MC_V1, samples, bid_samples]``,
    ``[ISMCTS or ISMCTS_V1, iterations, c, bid_samples]`` or ``[OMNISCIENT, iterations, c]`` (one sample: the
    ``truth``)."""
    samples = 1 if row[0] == OMNISCIENT else int(row[2] if row[0] == MC or row[0] == MC_V1 else row[3])
    return mc_bid(samples, rng, stream, seat, hand, dealer, players, cards, trump, turned, bids, n_seen, plus_minus_one,
                  truth, _v1(row))  # fmt: skip


@njit(cache=True)
def play(row: np.ndarray, rng: np.ndarray, stream: int, seat: int, hand: np.uint64, legal: np.uint64, dealer: int,
         players: int, cards: int, trump: int, turned: int, bids: np.ndarray, bids_seen: bool, won: np.ndarray,
         log: np.ndarray, n_played: int, truth: np.ndarray) -> int:  # fmt: skip
    """A strong bot's card; ``row`` and ``truth`` as for ``bid``."""
    if row[0] == MC or row[0] == MC_V1:
        return pimc_play(int(row[1]), rng, stream, seat, hand, legal, dealer, players, cards, trump, turned, bids,
                         bids_seen, won, log, n_played, truth, _v1(row))  # fmt: skip
    return ismcts_play(int(row[1]), row[2], rng, stream, seat, hand, legal, dealer, players, cards, trump, turned, bids,
                       bids_seen, won, log, n_played, truth, _v1(row))  # fmt: skip


@njit(cache=True, inline="always")
def _v1(row: np.ndarray) -> bool:
    """The bot plays out and guesses bids as ``heuristic_v1`` (``mc_v1``, ``ismcts_v1``)."""
    return row[0] == MC_V1 or row[0] == ISMCTS_V1


@njit(cache=True)
def true_piles(s: State) -> np.ndarray:
    """The cards each seat still holds and, last, the undealt stack (uint64[players + 1]): all ``omniscient`` sees."""
    players = s.hands.shape[0]
    truth = np.empty(players + 1, np.uint64)
    truth[players] = FULL_DECK if s.slots[TURNED] < 0 else FULL_DECK & ~bit(s.slots[TURNED])
    for seat in range(players):
        truth[seat] = s.hands[seat]
        truth[players] &= ~s.dealt[seat]
    return truth


@njit(cache=True)
def act(row: np.ndarray, s: State, p: Params, seat: int) -> int:
    """The one way to ask a strong bot (table row ``row``) for ``seat``'s action, the seat to move. An honest bot
    is handed the seat's view only: its hand, the public slots (dealer, cards, turned card, trump), the bids the
    seat sees (B5; others -1), the tricks taken, the cards played, and its private stream
    ``state.bot_stream(s, seat)``. The cheating ``omniscient`` bot also gets every bid made and ``true_piles``."""
    sl = s.slots
    hand = s.hands[seat]
    if sl[PHASE] == TRUMP:
        return heuristic_trump(hand)
    players = s.hands.shape[0]
    cheat = row[0] == OMNISCIENT
    seen = np.full(players, -1, np.int64)
    for other in range(players):
        if bid_seen(s, p, seat, other) or (cheat and s.bids[other] >= 0):
            seen[other] = s.bids[other]
    truth = true_piles(s) if cheat else np.empty(0, np.uint64)
    rng = bot_stream(s, seat)  # its own private stream only (one-way from the round key), never the deal's
    if sl[PHASE] == BID:
        return bid(row, rng, np.int64(0), seat, hand, sl[DEALER], players, sl[CARDS], sl[TRUMP_SUIT], sl[TURNED], seen,
                   sl[N_BIDS] if p.bidding == OPEN or cheat else 0, p.plus_minus_one, truth)  # fmt: skip
    n_played = sl[N_PLAYED]
    return play(row, rng, np.int64(0), seat, hand, legal_cards(s, p), sl[DEALER], players, sl[CARDS], sl[TRUMP_SUIT],
                sl[TURNED], seen, p.bidding != SECRET or cheat, s.won.copy(), s.log[:n_played].copy(), n_played,
                truth)  # fmt: skip
