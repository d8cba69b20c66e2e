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

The drivers ask these functions at a strong seat's turn (``run_auction`` and
``run_tricks`` stop there); rollouts only ever use the built-in bots.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bots.callpartner import HEURISTIC, heuristic_bid, heuristic_call, heuristic_discard
from cardsim.cards import bit, lowest_card, nth_card, popcount
from cardsim.errors import CardsimError
from cardsim.games.callpartner.advise import PASS, complete
from cardsim.games.callpartner.play import (
    HAND_OF,
    KITTY_OF,
    LED,
    answer,
    new_scratch,
    new_state,
    run_tricks,
    start_tricks,
)
from cardsim.games.callpartner.rules import (
    BY_KEY,
    FULL_DECK,
    MAX_BID,
    MAX_PLAYERS,
    MIN_BID,
    NO_SUIT,
    SUIT_MASK,
    SUIT_OF,
    card_points,
    legal_mask,
    score_deal,
    trick_winner,
)
from cardsim.infoset import sample_deals
from cardsim.lineup import FIRST_STRONG, MAX_SETTINGS, Setting
from cardsim.rng import next_u64

MC = FIRST_STRONG
BOT_IDS = {"mc": MC}
BOT_DOCS = {
    "mc": "Monte Carlo bidder (the bid advice's completions of its hand: the best expected score of each level and "
    "trump against passing) and sampling card player (PIMC: each legal card played out by the heuristic in deals "
    "drawn uniformly from its information set, the best mean score of its seat); calls (among the 4 strongest "
    "cards it lacks) and discards (any k of the k + 2 cards the heuristic keeps least, k the kitty's size) by the "
    "best mean score of heuristic play-outs of sampled deals. Cost per decision: about samples x legal cards "
    "heuristic play-outs per card, bid_samples x 5 per bid, contract_samples x 4 per call and contract_samples x "
    "15 per discard (x 6 with 5 players)",
}
BOT_SETTINGS = {
    "mc": {
        "samples": Setting(64, 1, 4096, "deals sampled per card decision"),
        "bid_samples": Setting(48, 0, 4096, "completions per bid decision (0: bid as the heuristic)"),
        "contract_samples": Setting(64, 0, 4096, "deals sampled per call and per discard decision (0: call and "
                                    "discard as the heuristic)"),
    },
}
SAMPLES, BID_SAMPLES, CONTRACT_SAMPLES = 1, 2, 3  # columns of a bot's table row
CALL_CANDIDATES = 4  # the strongest cards not in the hand that the call compares
# Bot tables for play-outs: every seat heuristic; every seat asked (to replay a deal's log card by card).
HEURISTICS = np.full((MAX_PLAYERS, 1 + MAX_SETTINGS), float(HEURISTIC))
ASKED = np.full((MAX_PLAYERS, 1 + MAX_SETTINGS), float(MC))


@njit(cache=True)
def infoset(
    seat: int, hand: np.uint64, players: int, dealer: int, trump: int, declarer: int, discards: np.uint64,
    kitty_taken: bool, log: np.ndarray, n: int,
) -> tuple:  # fmt: skip
    """The seat's information set (``cardsim.infoset``: unseen, counts, forbidden, known) after the first ``n``
    cards of ``log`` (the cards in play order, the first trick led left of the dealer). Piles: the seats, then
    the kitty until the declarer (-1: none yet) takes it, afterwards the discards: hidden for the others, seen
    (``discards``, empty for the others) and out of play for the declarer. The called card is an ordinary unseen
    card until played. A seat that does not follow the led suit is void in it (C7: printed suits)."""
    counts = np.full(players + 1, HAND_OF[players], np.int64)
    counts[players] = 0 if kitty_taken and seat == declarer else KITTY_OF[players]
    forbidden = np.zeros(players + 1, np.uint64)
    seen = hand | discards
    leader, led = dealer + 1 if dealer + 1 < players else 0, NO_SUIT
    for k in range(n):
        card, pos = log[k], k % players
        s = (leader + pos) % players
        counts[s] -= 1
        seen |= bit(card)
        if pos == 0:
            led = SUIT_OF[card]
        elif SUIT_OF[card] != led:
            forbidden[s] |= SUIT_MASK[led]
        if pos == players - 1:
            leader = (leader + trick_winner(log[k + 1 - players : k + 1], players, trump)) % players
    counts[seat] = 0
    return FULL_DECK & ~seen, counts, forbidden, np.zeros(players + 1, np.uint64)


@njit(cache=True)
def replay(
    log: np.ndarray, n: int, players: int, dealer: int, trump: int, called: int, rng: np.ndarray, state: np.ndarray,
    played_by: np.ndarray, points: np.ndarray,
) -> None:  # fmt: skip
    """The tricks' state after the first ``n`` cards of ``log`` (through the game's own ``run_tricks``, every seat
    answering from the log): ``state``, the trick points so far and the cards each seat played (``played_by``)."""
    start_tricks(state, dealer, players, points)
    played_by[:] = 0
    hands = np.zeros(players, np.uint64)  # each card goes into its player's hand just before it is played
    for k in range(n + 1):
        seat = run_tricks(ASKED, True, rng, hands, players, trump, -1, -1, called, np.uint64(0), points, state,
                          log)  # fmt: skip
        if k < n:
            hands[seat] |= bit(log[k])
            played_by[seat] |= bit(log[k])
            answer(state, log[k])


@njit(cache=True)
def mc_play(
    samples: int, rng: np.ndarray, stream: int, hand: np.uint64, seat: int, players: int, dealer: int, trump: int,
    declarer: int, bid: int, called: int, discards: np.uint64, discards_count: bool, log: np.ndarray, n: int,
) -> int:  # fmt: skip
    """PIMC: the legal card with the best mean score of ``seat`` over ``samples`` deals of its information set,
    each played to the end by the heuristic. ``discards``: the declarer's own (empty for the others)."""
    state = new_state()
    played_by = np.zeros(players, np.uint64)
    points = np.zeros(players, np.int64)
    replay(log, n, players, dealer, trump, called, rng, state, played_by, points)
    legal = legal_mask(hand, state[LED] if n % players else NO_SUIT)
    if not legal & (legal - np.uint64(1)):
        return lowest_card(legal)
    unseen, counts, forbidden, known = infoset(seat, hand, players, dealer, trump, declarer, discards, True, log, n)
    deals = np.empty((samples, players + 1), np.uint64)
    sample_deals(rng, stream, unseen, counts, forbidden, known, deals)  # the true deal is consistent: never False
    totals = np.zeros(popcount(legal), np.int64)
    work_state, work_hands = np.empty_like(state), np.empty(players, np.uint64)
    work_points, scores, work_log = np.empty(players, np.int64), np.empty(players, np.int64), log.copy()
    for i in range(samples):
        deals[i, seat] = hand
        pile = discards if seat == declarer else deals[i, players]
        partner = -1  # the called card's holder in this deal; nobody if it came to the declarer with the kitty
        for s in range(players):
            if s != declarer and (deals[i, s] | played_by[s]) & bit(called):
                partner = s
        c, m = 0, legal
        while m:
            card = lowest_card(m)
            m &= m - np.uint64(1)
            work_state[:] = state
            work_hands[:] = deals[i, :players]
            work_points[:] = points
            answer(work_state, card)
            run_tricks(HEURISTICS, True, rng, work_hands, players, trump, declarer, partner, called, pile,
                       work_points, work_state, work_log)  # fmt: skip
            score_deal(players, declarer, partner, bid, work_points, card_points(pile), discards_count, scores)
            totals[c] += scores[seat]
            c += 1
    return nth_best(legal, totals)


@njit(cache=True, inline="always")
def nth_best(legal: np.uint64, totals: np.ndarray) -> int:
    """The legal card with the highest total (the lowest card on ties)."""
    best, best_total, c, m = -1, -(1 << 62), 0, legal
    while m:
        card = lowest_card(m)
        m &= m - np.uint64(1)
        if totals[c] > best_total:
            best, best_total = card, totals[c]
        c += 1
    return best


@njit(cache=True)
def mc_bid(
    samples: int, rng: np.ndarray, stream: int, hand: np.uint64, seat: int, dealer: int, players: int, high: int,
    forced: bool, discards_count: bool,
) -> tuple:  # fmt: skip
    """(number, suit) with the best expected score over ``samples`` completions of the hand (the bid advice's
    kernel, all seats heuristic), or (0, 0) to pass when passing does better. A bid must exceed ``high``."""
    if samples == 0:
        return heuristic_bid(hand, high, players)
    seed = next_u64(rng, stream)
    place = (seat - dealer - 1) % players  # the advice counts seats from the dealer's left
    side = np.empty((samples, PASS), np.int8)
    passing, roles = np.empty(samples, np.int16), np.empty(samples, np.int8)
    scratch = new_scratch()
    for s in range(samples):
        complete(seed, s, 0, hand, place, players, forced, discards_count, HEURISTICS, False, scratch, side, passing,
                 roles)  # fmt: skip
    best, best_suit, best_total = 0, 0, passing.astype(np.int64).sum()
    for level in range(max(MIN_BID, high + 1), MAX_BID + 1):
        for suit in range(PASS):
            made = 0
            for s in range(samples):
                made += side[s, suit] >= level
            total = level * (2 * made - samples)
            if total > best_total:
                best, best_suit, best_total = level, suit, total
    return best, best_suit


@njit(cache=True)
def play_out(
    rng: np.ndarray, hands: np.ndarray, players: int, dealer: int, trump: int, declarer: int, bid: int, called: int,
    discards: np.uint64, discards_count: bool, state: np.ndarray, points: np.ndarray, scores: np.ndarray,
    log: np.ndarray,
) -> int:  # fmt: skip
    """The declarer's score (C9) when the heuristic plays a whole deal from ``hands`` (at the first trick; used up).
    The partner is whoever else holds ``called`` (nobody if the declarer has it or discarded it)."""
    partner = -1
    for s in range(players):
        if s != declarer and hands[s] & bit(called):
            partner = s
    start_tricks(state, dealer, players, points)
    run_tricks(HEURISTICS, False, rng, hands, players, trump, declarer, partner, called, discards, points, state, log)
    score_deal(players, declarer, partner, bid, points, card_points(discards), discards_count, scores)
    return scores[declarer]


@njit(cache=True)
def unseen_deals(
    samples: int, rng: np.ndarray, stream: int, hand: np.uint64, seat: int, players: int, dealer: int,
    kitty_taken: bool,
) -> np.ndarray:  # fmt: skip
    """``samples`` uniform deals [sample, pile] of the cards the declarer ``seat`` has not seen before the first
    trick: the other hands and, before it is taken, the kitty (the last pile)."""
    log = np.empty(0, np.int64)
    unseen, counts, forbidden, known = infoset(seat, hand, players, dealer, NO_SUIT, seat, np.uint64(0), kitty_taken,
                                               log, 0)  # fmt: skip
    deals = np.empty((samples, players + 1), np.uint64)
    sample_deals(rng, stream, unseen, counts, forbidden, known, deals)  # no constraint: never False
    return deals


@njit(cache=True)
def mc_call(
    samples: int, rng: np.ndarray, stream: int, hand: np.uint64, seat: int, players: int, dealer: int, trump: int,
    bid: int, discards_count: bool,
) -> int:  # fmt: skip
    """C5: among the ``CALL_CANDIDATES`` strongest cards not in ``hand``, the one with the best mean score of the
    declarer ``seat`` over ``samples`` deals of the unseen cards, each played out by the heuristic after the
    heuristic's discards; the heuristic's call (the first) on ties and when ``samples`` is 0."""
    if samples == 0:
        return heuristic_call(hand, trump)
    candidates, n = np.empty(CALL_CANDIDATES, np.int64), 0
    for i in range(BY_KEY.shape[1]):
        if n < CALL_CANDIDATES and not hand & bit(BY_KEY[trump, i]):
            candidates[n], n = BY_KEY[trump, i], n + 1
    deals = unseen_deals(samples, rng, stream, hand, seat, players, dealer, False)
    totals = np.zeros(n, np.int64)
    state, hands, log = new_state(), np.empty(players, np.uint64), np.empty(0, np.int64)
    points, scores = np.empty(players, np.int64), np.empty(players, np.int64)
    for i in range(samples):
        full = hand | deals[i, players]
        discards = heuristic_discard(full, KITTY_OF[players], trump, discards_count)
        for c in range(n):
            hands[:] = deals[i, :players]
            hands[seat] = full ^ discards
            totals[c] += play_out(rng, hands, players, dealer, trump, seat, bid, candidates[c], discards,
                                  discards_count, state, points, scores, log)  # fmt: skip
    return candidates[np.argmax(totals)]  # the first of the best


@njit(cache=True)
def mc_discard(
    samples: int, rng: np.ndarray, stream: int, hand: np.uint64, seat: int, players: int, dealer: int, trump: int,
    bid: int, called: int, discards_count: bool,
) -> np.uint64:  # fmt: skip
    """C6: the discards (k = the kitty's size, from ``hand``, which holds the kitty) with the best mean score of the
    declarer ``seat`` over ``samples`` deals of the other hands, each played out by the heuristic. Candidates:
    every k of the k + 2 cards the heuristic keeps least; the heuristic's choice on ties and when ``samples``
    is 0."""
    k = KITTY_OF[players]
    own = heuristic_discard(hand, k, trump, discards_count)
    if samples == 0:
        return own
    pool = heuristic_discard(hand, k + 2, trump, discards_count)
    candidates, n = np.empty(1 << (k + 2), np.uint64), 0
    for bits in range(1 << (k + 2)):
        if popcount(np.uint64(bits)) == k:
            chosen = np.uint64(0)
            for j in range(k + 2):
                if bits >> j & 1:
                    chosen |= bit(nth_card(pool, j))
            candidates[n], n = chosen, n + 1
    deals = unseen_deals(samples, rng, stream, hand, seat, players, dealer, True)
    totals = np.zeros(n, np.int64)
    state, hands, log = new_state(), np.empty(players, np.uint64), np.empty(0, np.int64)
    points, scores = np.empty(players, np.int64), np.empty(players, np.int64)
    for i in range(samples):
        for c in range(n):
            hands[:] = deals[i, :players]
            hands[seat] = hand ^ candidates[c]
            totals[c] += play_out(rng, hands, players, dealer, trump, seat, bid, called, candidates[c],
                                  discards_count, state, points, scores, log)  # fmt: skip
    best, best_total = own, -(1 << 62)
    for c in range(n):
        if totals[c] > best_total or (totals[c] == best_total and candidates[c] == own):
            best, best_total = candidates[c], totals[c]
    return best


@njit(cache=True)
def bid(
    row: np.ndarray, rng: np.ndarray, stream: int, hand: np.uint64, seat: int, dealer: int, players: int, high: int,
    forced: bool, discards_count: bool,
) -> tuple:  # fmt: skip
    """A strong bot's bid at its turn (C4): (number, suit), or (0, 0) for a pass."""
    return mc_bid(int(row[BID_SAMPLES]), rng, stream, hand, seat, dealer, players, high, forced, discards_count)


@njit(cache=True)
def call(
    row: np.ndarray, rng: np.ndarray, stream: int, hand: np.uint64, seat: int, players: int, dealer: int, trump: int,
    bid: int, discards_count: bool,
) -> int:  # fmt: skip
    """A strong declarer's partner card (C5), before it sees the kitty."""
    return mc_call(int(row[CONTRACT_SAMPLES]), rng, stream, hand, seat, players, dealer, trump, bid, discards_count)


@njit(cache=True)
def discard(
    row: np.ndarray, rng: np.ndarray, stream: int, hand: np.uint64, seat: int, players: int, dealer: int, trump: int,
    bid: int, called: int, discards_count: bool,
) -> np.uint64:  # fmt: skip
    """A strong declarer's discards (C6) from ``hand``, its hand with the kitty, after calling ``called``."""
    return mc_discard(int(row[CONTRACT_SAMPLES]), rng, stream, hand, seat, players, dealer, trump, bid, called,
                      discards_count)  # fmt: skip


@njit(cache=True)
def play(
    row: np.ndarray, rng: np.ndarray, stream: int, hand: np.uint64, seat: int, players: int, dealer: int, trump: int,
    declarer: int, bid: int, called: int, discards: np.uint64, discards_count: bool, log: np.ndarray, n: int,
) -> int:  # fmt: skip
    """A strong bot's card (C7) after the first ``n`` cards of ``log``; ``discards`` only for the declarer."""
    return mc_play(int(row[SAMPLES]), rng, stream, hand, seat, players, dealer, trump, declarer, bid, called, discards,
                   discards_count, log, n)  # fmt: skip


def decision_times(spec: str, rounds: int, seed: int = 0) -> np.ndarray:
    """Seconds of every decision (bids, calls, discards, cards) of seat 0 playing bot ``spec`` (e.g.
    ``"mc:samples=16"``) against three heuristic bots, ``rounds`` single 4-player deals, one thread, timed with
    ``time.perf_counter`` around each compiled call of the Python driver (after a warm-up deal)."""
    from cardsim.games.callpartner.game import GAME, play_round_py  # the game's drivers import this module

    rules = GAME.make_rules({"players": 4})
    lineup = GAME.lineup(f"{spec},heuristic,heuristic,heuristic", rules)
    if not isinstance(lineup.bots[0], int) or lineup.bots[0] < FIRST_STRONG:
        raise CardsimError(f"decision_times times a strong bot: '{spec}' is none; strong bots: {', '.join(BOT_IDS)}")
    play_round_py(seed, rounds, 0, False, -1, rules, lineup)  # warm-up (a deal not timed): load the compiled code
    times: list[float] = []
    for unit in range(rounds):
        play_round_py(seed, unit, 0, False, -1, rules, lineup, times)
    return np.array(times)
