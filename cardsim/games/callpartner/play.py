"""The course of a call-partner deal and game: deal, auction, call, kitty, tricks, scores (RULES.md C3-C10).

As for the other games, a compiled driver (``play_round`` and the batch
kernel ``simulate_games``) plays lineups of built-in bots, and a plain-Python
driver (``play_round_py``) plays the same deals when a seat holds a Python
bot; both draw the same random numbers in the same order.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np
from numba import njit, prange

import bots.callpartner as builtin
from cardsim.cards import FRENCH52, SUIT_SYMBOLS, bit
from cardsim.deal import deal_around, draw_cards
from cardsim.games.callpartner.rules import (
    FULL_DECK,
    HAND_SIZE,
    KEY,
    KITTY_SIZE,
    MAX_BID,
    MAX_PLAYERS,
    MIN_BID,
    NO_SUIT,
    RANK_OF,
    SUIT_MASK,
    SUIT_OF,
    TWO,
    card_points,
    final_winner,
    game_over,
    legal_mask,
    score_deal,
)
from cardsim.protocol import Seat, ask, card_index, checked_card
from cardsim.rng import DEAL_STREAM, below, seed_streams, stream_seed

SUIT_LETTERS = "SHDC"
# C3 by number of players (index 0..MAX_PLAYERS): cards per hand and in the kitty, for the kernels.
HAND_OF = np.array([HAND_SIZE.get(p, 0) for p in range(MAX_PLAYERS + 1)], np.int64)
KITTY_OF = np.array([KITTY_SIZE.get(p, 0) for p in range(MAX_PLAYERS + 1)], np.int64)
ROUNDS_BLOCK, GAMES_BLOCK = 256, 32  # single deals / whole games per parallel work item


@njit(cache=True, inline="always")
def start_round(
    seed: np.uint64, unit: int, sub: int, dealer: int, players: int, rng: np.ndarray, hands: np.ndarray,
    known: int = -1,
):  # fmt: skip
    """Seed the streams, choose the dealer (random if < 0; drawn either way) and deal (C3).

    The kitty is drawn first, then the hands from the dealer's left: the same as dealing a shuffled deck.
    A seat ``known`` >= 0 keeps the hand already in ``hands[known]`` and the rest is dealt around it
    (a uniform completion of the unseen cards, for bid advice). Returns (dealer, kitty mask).
    """
    seed_streams(rng, seed, unit, sub, 1 + players)
    drawn = below(rng, DEAL_STREAM, players)
    if dealer < 0:
        dealer = drawn
    deck = FULL_DECK ^ hands[known] if known >= 0 else FULL_DECK
    kitty = draw_cards(rng, DEAL_STREAM, deck, KITTY_OF[players])
    deal_around(rng, DEAL_STREAM, deck ^ kitty, hands, known, dealer + 1, players, HAND_OF[players])
    return dealer, kitty


@njit(cache=True)
def auction(
    bots: np.ndarray, rng: np.ndarray, hands: np.ndarray, dealer: int, players: int, forced: bool, passer: int
) -> tuple:  # fmt: skip
    """C4 with built-in bots: (declarer or -1 when all passed, bid, trump suit). Seat ``passer`` (-1: none)
    passes at its turn whatever its bot would bid (bid advice: the result of passing)."""
    passed, active, high, declarer, trump = 0, players, 0, -1, NO_SUIT
    seat = dealer + 1 if dealer + 1 < players else 0
    while True:
        if not (passed >> seat) & 1:
            if seat == passer:
                number, suit = 0, 0
            else:
                number, suit = builtin.bid(int(bots[seat, 0]), rng, 1 + seat, hands[seat], high, players)
            if number == 0:  # a pass is final
                passed |= 1 << seat
                active -= 1
            else:
                high, trump, declarer = number, suit, seat
            if high == MAX_BID or active == 0 or (declarer >= 0 and active == 1):
                break
        seat = seat + 1 if seat + 1 < players else 0
    if declarer < 0 and forced:  # all passed: the dealer declares 10 in a suit of choice
        declarer, high = dealer, MIN_BID
        trump = builtin.forced_trump(int(bots[dealer, 0]), rng, 1 + dealer, hands[dealer], players)
    return declarer, high, trump


@njit(cache=True)
def play_tricks(
    bots: np.ndarray, random_only: bool, rng: np.ndarray, hands: np.ndarray, players: int, trump: int, leader: int,
    declarer: int, partner: int, called: int, discards: np.uint64, points: np.ndarray,
) -> None:  # fmt: skip
    """C7, C8: the tricks, from ``leader`` on; adds each trick's points to points[winner].

    ``random_only`` is a constant at both call sites in ``play_round``: LLVM specialises the call with True into
    a loop without any heuristic code (a third faster for random lineups).
    """
    played = np.uint64(0)
    revealed = False
    for _ in range(HAND_OF[players]):
        seat = leader  # the lead: any card (C7)
        bot = builtin.RANDOM if random_only else int(bots[seat, 0])
        card = builtin.play(bot, rng, 1 + seat, hands[seat], hands[seat], 0, players, trump, NO_SUIT, -1, seat,
                            True, -1, np.uint64(0), seat, declarer, partner, revealed, played, discards)  # fmt: skip
        hands[seat] ^= bit(card)
        trick = bit(card)
        led = SUIT_OF[card]
        follow = SUIT_MASK[led]
        top_key, winner = KEY[trump, card], seat  # C8, decided card by card (rule 4 at the end)
        one_suit, two_holder = True, seat if RANK_OF[card] == TWO else -1
        revealed = revealed or card == called
        for i in range(1, players):
            seat = seat + 1 if seat + 1 < players else 0  # no division by a variable in the hot loop
            hand = hands[seat]
            legal = hand & follow  # C7: follow suit if able (rules.legal_mask, inlined)
            if not legal:
                legal = hand
            bot = builtin.RANDOM if random_only else int(bots[seat, 0])
            card = builtin.play(bot, rng, 1 + seat, hand, legal, i, players, trump, led, top_key, winner, one_suit,
                                two_holder, trick, seat, declarer, partner, revealed, played, discards)  # fmt: skip
            hands[seat] = hand ^ bit(card)
            trick |= bit(card)
            key = KEY[trump, card]
            winner = seat if key > top_key else winner
            top_key = max(key, top_key)
            one_suit = one_suit & (SUIT_OF[card] == led)
            two_holder = seat if RANK_OF[card] == TWO else two_holder
            revealed = revealed | (card == called)
        winner = final_winner(winner, top_key, one_suit, two_holder)
        points[winner] += card_points(trick)
        played |= trick
        leader = winner


@njit(cache=True, inline="always")
def play_contract(
    bots: np.ndarray, random_only: bool, rng: np.ndarray, hands: np.ndarray, kitty: np.uint64, dealer: int,
    players: int, declarer: int, bid: int, trump: int, discards_count: bool, points: np.ndarray, scores: np.ndarray,
) -> tuple:  # fmt: skip
    """C5-C9 once the auction is won: the call, the kitty and discards, the tricks and the scores. Fills
    points/scores[seat]; returns (called card, partner or -1, side points). The built-in bots' call, discards
    and play do not look at the bid number (only the scores do)."""
    called = builtin.call(int(bots[declarer, 0]), rng, 1 + declarer, hands[declarer], trump)  # C5
    partner = -1
    for s in range(players):
        points[s] = 0
        if (hands[s] >> np.uint64(called)) & np.uint64(1):
            partner = s
    hands[declarer] |= kitty  # C6
    discards = builtin.discard(int(bots[declarer, 0]), rng, 1 + declarer, hands[declarer], KITTY_OF[players], trump,
                               discards_count)  # fmt: skip
    hands[declarer] ^= discards
    leader = dealer + 1 if dealer + 1 < players else 0  # C7
    if random_only:  # a constant argument: LLVM compiles a loop without any heuristic code for it
        play_tricks(bots, True, rng, hands, players, trump, leader, declarer, partner, called, discards, points)
    else:
        play_tricks(bots, False, rng, hands, players, trump, leader, declarer, partner, called, discards, points)
    side = score_deal(players, declarer, partner, bid, points, card_points(discards), discards_count, scores)
    return called, partner, side


@njit(cache=True, inline="always")
def play_round(
    seed: np.uint64, unit: int, sub: int, dealer: int, players: int, forced: bool, discards_count: bool,
    bots: np.ndarray, random_only: bool, rng: np.ndarray, hands: np.ndarray, points: np.ndarray, scores: np.ndarray,
) -> tuple:  # fmt: skip
    """One deal with built-in bots; fills points/scores[seat] (trick points, C9 score). ``random_only``: every
    seat holds the random bot (the same deal, played by a loop without heuristic code).

    Returns (dealer, declarer, bid, trump, called card, partner, side points, made); a deal nobody
    declared returns declarer, trump, called card and partner -1 and scores 0 for everybody.
    """
    dealer, kitty = start_round(seed, unit, sub, dealer, players, rng, hands)
    declarer, bid, trump = auction(bots, rng, hands, dealer, players, forced, -1)
    if declarer < 0:
        for s in range(players):
            points[s] = 0
            scores[s] = 0
        return dealer, -1, 0, NO_SUIT, -1, -1, 0, False
    called, partner, side = play_contract(bots, random_only, rng, hands, kitty, dealer, players, declarer, bid, trump,
                                          discards_count, points, scores)  # fmt: skip
    return dealer, declarer, bid, trump, called, partner, side, side >= bid


@njit(cache=True)
def new_scratch() -> tuple:
    """Working arrays for one deal: rng states, hands, trick points, scores, game totals."""
    return (
        np.empty((MAX_PLAYERS + 1, 4), np.uint64),
        np.empty(MAX_PLAYERS, np.uint64),
        np.empty(MAX_PLAYERS, np.int64),
        np.empty(MAX_PLAYERS, np.int64),
        np.empty(MAX_PLAYERS, np.int64),
    )


@njit(parallel=True, nogil=True, cache=True)  # nogil: the runner writes the last chunk meanwhile
def simulate_games(
    seed: np.uint64, start: int, players: int, games: bool, target: int, max_deals: int, forced: bool,
    discards_count: bool, bots: np.ndarray, played: np.ndarray, dealers: np.ndarray, declarers: np.ndarray,
    bids: np.ndarray, trumps: np.ndarray, called: np.ndarray, partners: np.ndarray, side_points: np.ndarray,
    made: np.ndarray, points: np.ndarray, scores: np.ndarray,
) -> None:  # fmt: skip
    """Units ``start ..`` in parallel: single deals (stream (seed, unit, 0)), or whole games (C10) whose deal d
    is stream (seed, unit, d), the dealer rotating from a random first dealer. Out arrays are
    [unit, deal(, seat)]; ``played[unit]`` says how many deals are filled."""
    count = played.shape[0]
    block = GAMES_BLOCK if games else ROUNDS_BLOCK
    random_only = True
    for s in range(players):
        random_only = random_only and bots[s, 0] == builtin.RANDOM
    for b in prange((count + block - 1) // block):
        rng, hands, pts, sc, totals = new_scratch()
        for u in range(b * block, min(count, (b + 1) * block)):
            for s in range(players):
                totals[s] = 0
            d, first = 0, -1
            while True:
                dealer = -1 if d == 0 else (first + d) % players  # the deal rotates (C3)
                result = play_round(seed, start + u, d, dealer, players, forced, discards_count, bots, random_only,
                                    rng, hands, pts, sc)  # fmt: skip
                if d == 0:
                    first = result[0]
                dealers[u, d], declarers[u, d], bids[u, d], trumps[u, d] = result[0], result[1], result[2], result[3]
                called[u, d], partners[u, d], side_points[u, d], made[u, d] = result[4], result[5], result[6], result[7]
                for s in range(players):
                    points[u, d, s], scores[u, d, s] = pts[s], sc[s]
                    totals[s] += sc[s]
                d += 1
                if not games or game_over(totals, players, d, target, max_deals):
                    break
            played[u] = d


# --- the Python driver and the bot protocol ---------------------------------


@dataclass(frozen=True)
class Bid:
    """One call of the auction: ``bid`` None is a pass (then ``trump`` is None too)."""

    seat: int
    bid: int | None
    trump: str | None


@dataclass(frozen=True)
class Trick:
    """One finished trick: who led, the cards in play order, who won, its points."""

    leader: int
    cards: tuple[str, ...]
    winner: int
    points: int


@dataclass
class Observation:
    """What one seat may see when it decides: passed to a Python bot.

    ``decision`` is ``"bid"``, ``"call"``, ``"discard"`` or ``"play"``. Cards are canonical names (``"SA"``,
    ``"HT"``), suits the letters ``S H D C``. ``legal`` lists the cards the seat may call, discard or play now
    (empty for a bid). ``partner`` is the partner's seat once this seat knows it (the partner knows at
    once, everybody when the called card is played); ``partner_known`` is also true when this seat knows
    there is no partner (the declarer finding the called card in the kitty). ``kitty`` and ``discards`` are
    seen by the declarer only, otherwise None.
    """

    decision: str
    seat: int
    dealer: int
    players: int
    hand: list[str]
    legal: list[str]
    auction: list[Bid]
    high_bid: int | None
    min_bid: int
    forced: bool
    declarer: int | None
    bid: int | None
    trump: str | None
    called_card: str | None
    partner: int | None
    partner_known: bool
    kitty: list[str] | None
    discards: list[str] | None
    discard_count: int
    trick: list[str]
    trick_leader: int
    tricks: list[Trick]
    points: list[int]
    rng: random.Random
    seed: int
    round: int
    game_round: int


@dataclass
class RoundRecord:
    """Everything that happened in one deal (for replay and Python-bot runs)."""

    dealer: int
    hands: list[int]
    kitty: int
    auction: list[Bid] = field(default_factory=list)
    declarer: int = -1
    bid: int = 0
    trump: int = NO_SUIT
    called: int = -1
    partner: int = -1
    discards: int = 0
    tricks: list[Trick] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    side_points: int = 0
    made: bool = False
    scores: list[int] = field(default_factory=list)


def _checked_bid(answer, min_bid: int, forced: bool, seat: Seat, decision: str) -> tuple[int, int]:
    """A Python bot's bid as (number, suit), (0, 0) for a pass (None), else a clear error (C4, D2)."""
    if answer is None and not forced:
        return 0, 0
    if isinstance(answer, (tuple, list)) and len(answer) == 2:
        number, suit = answer
        letter = SUIT_SYMBOLS.get(suit.strip(), suit.strip().upper()) if isinstance(suit, str) else ""
        top = MIN_BID if forced else MAX_BID
        if (isinstance(number, (int, np.integer)) and not isinstance(number, bool) and min_bid <= number <= top
                and len(letter) == 1 and letter in SUIT_LETTERS):  # fmt: skip
            return int(number), SUIT_LETTERS.index(letter)
    if forced:
        allowed = f"({MIN_BID}, suit) with a suit S, H, D or C: all passed, the dealer declares {MIN_BID}"
    else:
        allowed = f"None (pass) or (number, suit) with a number from {min_bid} to {MAX_BID} and a suit S, H, D or C"
    raise seat.error(decision, f"bid {answer!r}; allowed: {allowed}")


def _checked_call(answer, hand: int, seat: Seat) -> int:
    """The called card if it is a card outside the declarer's hand, else a clear error (C5, D2)."""
    card = card_index(answer, FRENCH52)
    if card < 0 or hand >> card & 1:
        problem = "which is in its own hand" if card >= 0 else "which is not a card"
        shown = FRENCH52.name_of(card) if card >= 0 else repr(answer)
        raise seat.error("call", f"called {shown}, {problem}; allowed: any card not in its hand")
    return card


def _checked_discards(answer, hand: int, count: int, seat: Seat) -> int:
    """The discards as a mask if they are ``count`` different cards of the hand, else a clear error (C6, D2)."""
    cards = [card_index(c, FRENCH52) for c in answer] if isinstance(answer, (list, tuple)) else []
    mask = sum(1 << c for c in set(cards) if c >= 0)
    if len(cards) != count or len(set(cards)) != count or min(cards, default=-1) < 0 or mask & ~hand:
        raise seat.error(
            "discard", f"discarded {answer!r}; allowed: a list of {count} different cards of its hand with the "
            f"kitty: {FRENCH52.names(hand)}"
        )  # fmt: skip
    return mask


def play_round_py(
    seed: int, unit: int, sub: int, in_game: bool, dealer: int, rules, lineup: list, names: list[str]
) -> RoundRecord:
    """One deal in plain Python (deal ``sub`` of unit ``unit``; ``in_game``: the unit is a game, for error
    messages); ``lineup[seat]`` is a built-in bot id (int) or a Python bot object."""
    players, kitty_size = rules.players, rules.kitty
    forced, discards_count = rules.all_pass == "dealer_forced", rules.discards_count
    rng, hands = new_scratch()[:2]
    dealer, kitty = (int(x) for x in start_round(np.uint64(seed), unit, sub, dealer, players, rng, hands))
    rec = RoundRecord(dealer, [int(h) for h in hands[:players]], kitty)
    seats = [Seat(names[s], s, "callpartner", seed, unit, sub, in_game) for s in range(players)]
    python_rngs = {s: random.Random(stream_seed(seed, unit, sub, 1 + s)) for s in range(players)}
    points = [0] * players
    table = {"high": 0, "trick": [], "leader": -1, "revealed": False, "discarded": False}

    def observe(seat: int, decision: str, legal: int, min_bid: int = MIN_BID, is_forced: bool = False) -> Observation:
        declared = rec.declarer >= 0 and decision != "bid"
        called = rec.called if declared and decision != "call" else -1
        is_declarer = seat == rec.declarer
        knows_partner = called >= 0 and (
            table["revealed"] or (seat == rec.partner) or (is_declarer and rec.partner < 0 and decision != "call")
        )
        sees_kitty = is_declarer and decision in ("discard", "play")
        return Observation(
            decision, seat, dealer, players, FRENCH52.names(int(hands[seat])).split(), FRENCH52.names(legal).split(),
            list(rec.auction), table["high"] or None, min_bid, is_forced,
            rec.declarer if declared else None, rec.bid if declared else None,
            SUIT_LETTERS[rec.trump] if declared else None, FRENCH52.name_of(called) if called >= 0 else None,
            rec.partner if knows_partner and rec.partner >= 0 else None, knows_partner,
            FRENCH52.names(kitty).split() if sees_kitty else None,
            FRENCH52.names(rec.discards).split() if is_declarer and table["discarded"] else None, kitty_size,
            [FRENCH52.name_of(c) for c in table["trick"]], table["leader"], list(rec.tricks), list(points),
            python_rngs[seat], seed, unit, sub,
        )  # fmt: skip

    # C4: the auction, from the dealer's left
    passed, active, turn = set(), players, 0
    seat = (dealer + 1) % players
    while True:
        if seat not in passed:
            bot, high = lineup[seat], table["high"]
            if isinstance(bot, int):
                number, suit = (int(x) for x in builtin.bid(bot, rng, 1 + seat, hands[seat], high, players))
            else:
                min_bid = max(MIN_BID, high + 1)
                answer = ask(bot.bid, observe(seat, "bid", 0, min_bid), seats[seat], f"auction turn {turn + 1}")
                number, suit = _checked_bid(answer, min_bid, False, seats[seat], f"auction turn {turn + 1}")
            turn += 1
            if number == 0:
                passed.add(seat)
                active -= 1
                rec.auction.append(Bid(seat, None, None))
            else:
                table["high"], rec.trump, rec.declarer = number, suit, seat
                rec.auction.append(Bid(seat, number, SUIT_LETTERS[suit]))
            if table["high"] == MAX_BID or active == 0 or (rec.declarer >= 0 and active == 1):
                break
        seat = (seat + 1) % players
    if rec.declarer < 0 and forced:  # all passed: the dealer declares 10 in a suit of choice
        bot = lineup[dealer]
        if isinstance(bot, int):
            suit = int(builtin.forced_trump(bot, rng, 1 + dealer, hands[dealer], players))
        else:
            decision = f"auction turn {turn + 1} (all passed: the dealer declares {MIN_BID})"
            answer = ask(bot.bid, observe(dealer, "bid", 0, MIN_BID, True), seats[dealer], decision)
            suit = _checked_bid(answer, MIN_BID, True, seats[dealer], decision)[1]
        table["high"], rec.trump, rec.declarer = MIN_BID, suit, dealer
        rec.auction.append(Bid(dealer, MIN_BID, SUIT_LETTERS[suit]))
    rec.bid = table["high"]
    declarer, trump = rec.declarer, rec.trump
    if declarer < 0:  # nobody declared: the deal scores nothing (redeal)
        rec.points = points
        rec.scores = [0] * players
        return rec

    # C5: the partner call
    bot = lineup[declarer]
    if isinstance(bot, int):
        called = int(builtin.call(bot, rng, 1 + declarer, hands[declarer], trump))
    else:
        free = int(FULL_DECK) & ~int(hands[declarer])
        called = _checked_call(ask(bot.call, observe(declarer, "call", free), seats[declarer], "call"),
                               int(hands[declarer]), seats[declarer])  # fmt: skip
    rec.called = called
    rec.partner = next((s for s in range(players) if int(hands[s]) >> called & 1), -1)
    partner = rec.partner

    # C6: the kitty and the discards
    hands[declarer] |= np.uint64(kitty)
    if isinstance(bot, int):
        discards = int(builtin.discard(bot, rng, 1 + declarer, hands[declarer], kitty_size, trump, discards_count))
    else:
        hand = int(hands[declarer])
        answer = ask(bot.discard, observe(declarer, "discard", hand), seats[declarer], "discard")
        discards = _checked_discards(answer, hand, kitty_size, seats[declarer])
    rec.discards = discards
    table["discarded"] = True
    hands[declarer] ^= np.uint64(discards)

    # C7, C8: the tricks
    leader = (dealer + 1) % players
    played = 0
    for t in range(rules.hand_size):
        led, top_key, winner, one_suit, two_holder, trick = NO_SUIT, -1, leader, True, -1, 0
        table["trick"], table["leader"] = [], leader
        for i in range(players):
            seat = (leader + i) % players
            legal = int(legal_mask(hands[seat], led))
            bot = lineup[seat]
            if isinstance(bot, int):
                card = int(builtin.play(bot, rng, 1 + seat, hands[seat], np.uint64(legal), i, players, trump, led,
                                        top_key, winner, one_suit, two_holder, np.uint64(trick), seat, declarer,
                                        partner, table["revealed"], np.uint64(played),
                                        np.uint64(discards)))  # fmt: skip
            else:
                decision = f"trick {t + 1}, card {i + 1}"
                answer = ask(bot.play, observe(seat, "play", legal), seats[seat], decision)
                card = checked_card(answer, legal, FRENCH52, seats[seat], decision)
            hands[seat] ^= bit(card)
            trick |= 1 << card
            table["trick"].append(card)
            if i == 0:
                led = int(SUIT_OF[card])
            key = int(KEY[trump, card])
            if key > top_key:
                top_key, winner = key, seat
            one_suit = one_suit and int(SUIT_OF[card]) == led
            if RANK_OF[card] == TWO:
                two_holder = seat
            table["revealed"] = table["revealed"] or card == called
        winner = int(final_winner(winner, top_key, one_suit, two_holder))
        won = int(card_points(np.uint64(trick)))
        points[winner] += won
        rec.tricks.append(Trick(leader, tuple(FRENCH52.name_of(c) for c in table["trick"]), winner, won))
        played |= trick
        leader = winner
    table["trick"], table["leader"] = [], -1
    rec.points = points
    scores = np.zeros(players, np.int64)
    rec.side_points = int(score_deal(players, declarer, partner, rec.bid, np.array(points, np.int64),
                                     int(card_points(np.uint64(discards))), discards_count, scores))  # fmt: skip
    rec.made = rec.side_points >= rec.bid
    rec.scores = [int(x) for x in scores]
    return rec
