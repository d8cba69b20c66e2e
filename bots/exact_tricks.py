"""Built-in compiled bots of the exact-tricks family (``cardsim.games.exact_tricks``), for any deck of it: ``random``,
``heuristic`` (calibrated bids, card-counting play), ``heuristic_v1`` (the heuristic before them) and ``rulebased``
(a published Wizard baseline, its card values taken against the deck in play) here, the strong ``mc``, ``ismcts``
and the cheating reference ``omniscient`` in ``bots.exact_tricks_strong``; their names, docs and settings
(``BOT_IDS``, ``BOT_DOCS``, ``BOT_SETTINGS``) for the games' fronts.

Three decisions: the trump suit when a Wizard is turned up (the dealer, B4),
the bid (B5) and the card (B6). A bot sees its own hand, the trump, the
cards on the table and, as the bidding option allows, the bids made. What it reads of the game besides the round
(the deck, the heuristic's calibrated table, rulebased's card values) comes from ``Params`` (``GameData``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

import numpy as np
from numba import njit

import cardsim.audit as audit
import cardsim.errors as errors
from cardsim.cards import bit, lowest_card, nth_card, popcount
from cardsim.decisions import BID, CARD, TRUMP
from cardsim.errors import BotFailure
from cardsim.games.exact_tricks.rules import (
    FULL_DECK,
    RANK_OF,
    SUIT_MASK,
    SUIT_OF,
    WIZARD_KEY,
    WIZARD_MASK,
    card_key,
    legal_mask,
    refused_bid,
)
from cardsim.games.exact_tricks.state import (
    BID_TOTAL,
    CARDS,
    LED,
    MOVER,
    N_BIDS,
    N_PLAYED,
    PHASE,
    PLAYERS,
    POS,
    TOP_KEY,
    TRUMP_SUIT,
    TURNED,
    Params,
    State,
    audit_bid,
    audit_card,
    card_values_of,
    load_trick,
    make_bid,
    play_card,
    refused_of,
    step,
    store_bids,
    store_trick,
    win_chances,
)
from cardsim.lineup import FIRST_STRONG, Setting
from cardsim.rng import below

RANDOM, HEURISTIC, RULEBASED, HEURISTIC_V1 = 0, 1, 2, 3
RANDOM_LINEUP, ANY_LINEUP = True, False  # the card loops' compile-time choice (``fast_card``)
# the strong bots (bots.exact_tricks_strong); the _v1 ones play out and guess bids as heuristic_v1
MC, ISMCTS, OMNISCIENT, MC_V1, ISMCTS_V1 = range(FIRST_STRONG, FIRST_STRONG + 5)
BOT_IDS = {"random": RANDOM, "heuristic": HEURISTIC, "heuristic_v1": HEURISTIC_V1, "rulebased": RULEBASED,
           "mc": MC, "ismcts": ISMCTS, "omniscient": OMNISCIENT, "mc_v1": MC_V1, "ismcts_v1": ISMCTS_V1}  # fmt: skip
BOT_DOCS = {
    "random": "uniform bid 0..cards (an allowed one), uniform legal card, uniform trump suit",
    "heuristic": "bids the tricks its cards are expected to take, from win chances calibrated by simulation per "
    "player count, round size, bidding position and card (the game's table in bots/); counts the cards played to "
    "judge each card's chance to take the trick: short of its bid it takes with the weakest likely winner, else "
    "sheds its weakest card; once its bid is made it plays the least likely winner, high cards first",
    "heuristic_v1": "the heuristic before calibrated bids: bids the expected tricks of its Wizards, trumps and high "
    "cards; wins tricks while short of its bid, sheds winners and keeps Jesters to duck once it is made; names "
    "its strongest suit as trump",
    "rulebased": "the rule-based baseline of Schumacher & Pleines (IEEE CoG 2022): bids the rounded sum of its "
    "cards' win values; leads its highest-valued card while short of its bid (its lowest once made), plays its "
    "highest card if it wins the trick, else its lowest; once made, the highest card that still loses",
    "mc": "Monte Carlo: bids and plays the card with the best mean score over deals sampled from what it has seen, "
    "each played out by the heuristic; names trump as the heuristic",
    "ismcts": "bids as mc; plays by information-set Monte Carlo tree search (one tree over sampled deals, every "
    "seat choosing by UCB, heuristic play-outs); names trump as the heuristic",
    "mc_v1": "mc before the heuristic counted cards: plays out and guesses the bids it cannot see as heuristic_v1",
    "ismcts_v1": "ismcts before the heuristic counted cards: plays out and guesses unseen bids as heuristic_v1",
    "omniscient": "CHEATS (a reference, refused without --allow-cheating): sees every hand and bid; bids as mc with "
    "the true deal as its one sample, plays by Monte Carlo tree search on the true deal (every seat choosing by "
    "UCB, heuristic play-outs)",
}
BOT_SETTINGS = {
    "mc": {
        "samples": Setting(64, 1, 4096, "deals sampled per card decision; cost ~ samples x legal cards x cards left"),
        "bid_samples": Setting(32, 1, 4096, "deals sampled per bid; cost ~ bid_samples x (cards + 1) x cards"),
    },
    "ismcts": {
        "iterations": Setting(400, 1, 100000, "sampled deals (tree iterations) per card; cost ~ iterations x cards"),
        "c": Setting(0.7, 0.0, 10.0, "UCB exploration constant (rewards are scores scaled to 0..1)", integer=False),
        "bid_samples": Setting(64, 1, 4096, "deals sampled per bid, as for mc"),
    },
    "omniscient": {
        "iterations": Setting(200, 1, 100000, "tree iterations per card, all on the true deal; cost ~ iterations x "
                              "cards"),  # fmt: skip
        "c": Setting(0.7, 0.0, 10.0, "UCB exploration constant, as for ismcts", integer=False),
    },
}
BOT_SETTINGS["mc_v1"] = BOT_SETTINGS["mc"]
BOT_SETTINGS["ismcts_v1"] = {  # ismcts's defaults before it rolled out with the card-counting heuristic
    **BOT_SETTINGS["ismcts"],
    "iterations": replace(BOT_SETTINGS["ismcts"]["iterations"], default=200),
    "bid_samples": replace(BOT_SETTINGS["ismcts"]["bid_samples"], default=32),
}


# A game's bid table (its file named by its rules' ``bid_table``: Wizard's bots/wizard_bid_table.npy, float32
# [4, 20, 6, 28]; in ``Params.tables``, ``state.win_chances``), [players - 3, cards - 1, position,
# card_class(card, trump)]: the chance that a card of that class wins the trick it is played in, for a seat at that
# bidding position (0 bids first) in rounds of that size, played by ``heuristic``
# (experiments/calibrate_wizard_bids.py measures it).
CLASSES = 28  # card_class: Wizard, Jester, trumps 1..13, other suits 1..13
TAKE = 0.25  # heuristic_play: short of its bid, a card with at least this chance to take the trick is played


@njit(cache=True, inline="always")
def card_class(card: int, trump: int) -> int:
    """The card's class in a bid table: 0 a Wizard, 1 a Jester, 2..14 a trump of rank 1..13, 15..27 a card of
    another suit (every suit when there is no trump) of rank 1..13."""
    if card >= 56:
        return 1
    if card >= 52:
        return 0
    return (1 if SUIT_OF[card] == trump else 14) + RANK_OF[card] + 1


@njit(cache=True, inline="always")
def nearest_allowed(value: float, cards: int, refused: int) -> int:
    """The bid nearest ``value`` (rounded half to even, at most ``cards``); if it is ``refused``, the allowed
    neighbour nearer the value (the lower on a tie)."""
    bid = min(cards, round(value))
    if bid == refused:
        bid = bid + 1 if bid == 0 or (bid < cards and value - bid > 0) else bid - 1
    return bid


@njit(cache=True)
def calibrated_value(table: np.ndarray, hand: np.uint64, trump: int) -> float:
    """The hand's expected tricks: the win chances ``table[card_class]`` of its cards (``table`` =
    ``state.win_chances``), summed (each trick is won by exactly one card)."""
    total = 0.0
    m = hand
    while m:
        total += table[card_class(lowest_card(m), trump)]
        m &= m - np.uint64(1)
    return total


@njit(cache=True)
def calibrated_bid(table: np.ndarray, hand: np.uint64, trump: int, cards: int, refused: int) -> int:
    """``heuristic``'s bid: the hand's ``calibrated_value`` as the nearest allowed bid. (The bid with the best
    expected score under the tricks' distribution needs an array, which the batch kernels' bid loop, compiled
    without reference counts, may not allocate.)"""
    return nearest_allowed(calibrated_value(table, hand, trump), cards, refused)


@njit(cache=True)
def heuristic_bid(tables: np.ndarray, hand: np.uint64, trump: int, players: int, cards: int, position: int,
                  refused: int) -> int:  # fmt: skip
    """``calibrated_bid`` with the game's calibrated win chances (``Params.tables``) for ``position`` (0 bids
    first)."""
    return calibrated_bid(win_chances(tables, players, cards, position), hand, trump, cards, refused)


@njit(cache=True)
def rulebased_value(tables: np.ndarray, hand: np.uint64, trump: int, players: int) -> float:
    """The hand's expected tricks for ``rulebased``: its cards' values summed (``Params.tables``: the deck's,
    ``rules.card_values``)."""
    values = card_values_of(tables, players, trump)
    total = 0.0
    m = hand
    while m:
        total += values[lowest_card(m)]
        m &= m - np.uint64(1)
    return total


@njit(cache=True)
def rulebased_bid(tables: np.ndarray, hand: np.uint64, trump: int, players: int, cards: int, refused: int) -> int:
    """The hand's value rounded (half to even, as numpy rounds), at most ``cards``; if that bid is refused
    (plus_minus_one, which the paper does not play), the allowed neighbour nearer the value (the lower on a tie)."""
    return nearest_allowed(rulebased_value(tables, hand, trump, players), cards, refused)


@njit(cache=True)
def rulebased_trump(tables: np.ndarray, hand: np.uint64, players: int) -> int:
    """The trump suit under which the hand is worth most (the lowest suit on ties): the paper's players never
    name one (a turned Wizard is not played there), so this follows its bid's logic."""
    best, best_value = 0, -1.0
    for suit in range(4):
        value = rulebased_value(tables, hand, suit, players)
        if value > best_value:
            best, best_value = suit, value
    return best


@njit(cache=True)
def rulebased_play(tables: np.ndarray, legal: np.uint64, led: int, top_key: int, n_played: int, players: int,
                   trump: int, need: int) -> int:  # fmt: skip
    """Win-or-duck by card value (as ``rulebased_value``; ties: the lower card counts lower). Short
    of its bid (``need`` > 0): lead the highest-valued card; later in a trick play it if it beats the trick so far,
    else the lowest-valued. Bid made: lead the lowest-valued; later the highest-valued card that does not beat the
    trick so far, else the lowest-valued."""
    values = card_values_of(tables, players, trump)
    low, high, duck = -1, -1, -1
    m = legal
    while m:  # ascending cards: a later card of equal value does not replace an earlier one as the lowest
        card = lowest_card(m)
        m &= m - np.uint64(1)
        if low < 0 or values[card] < values[low]:
            low = card
        if high < 0 or values[card] >= values[high]:
            high = card
        if n_played > 0 and card_key(card, led, trump) <= top_key and (duck < 0 or values[card] >= values[duck]):
            duck = card
    if n_played == 0:
        return high if need > 0 else low
    if need > 0:
        return high if card_key(high, led, trump) > top_key else low
    return duck if duck >= 0 else low


@njit(cache=True)
def _suit_strength(hand: np.uint64, suit: int) -> int:
    """Length and height of a suit in the hand: each card counts 4 plus its rank."""
    total = 0
    m = hand & SUIT_MASK[suit]
    while m:
        total += 4 + RANK_OF[lowest_card(m)]
        m &= m - np.uint64(1)
    return total


@njit(cache=True)
def heuristic_trump(hand: np.uint64) -> int:
    """The hand's strongest suit."""
    best, best_strength = 0, -1
    for suit in range(4):
        strength = _suit_strength(hand, suit)
        if strength > best_strength:
            best, best_strength = suit, strength
    return best


@njit(cache=True)
def expected_tricks_v1(hand: np.uint64, trump: int, players: int) -> float:
    """Rough expected tricks: Wizards, high trumps and aces of side suits, trump length and voids."""
    crowd = 4.0 / players  # more opponents, fewer tricks for a high card
    expected = 0.9 * popcount(hand & WIZARD_MASK)
    trumps = popcount(hand & SUIT_MASK[trump]) if trump >= 0 else 0
    for suit in range(4):
        m = hand & SUIT_MASK[suit]
        length = popcount(m)
        while m:
            rank = RANK_OF[lowest_card(m)] + 1  # 1..13
            m &= m - np.uint64(1)
            if suit == trump:
                expected += min(1.0, max(0.0, (rank - 7) / 6.0) + 0.08 * (trumps - 1)) * crowd**0.5
            elif rank >= 12:
                high = (0.7 if rank == 13 else 0.35) if trump < 0 else (0.5 if rank == 13 else 0.2)
                expected += high * crowd * (0.6 if length >= 4 else 1.0)
        if suit != trump and trump >= 0 and length == 0 and trumps >= 2:
            expected += 0.3  # a void lets a low trump win
    return expected


@njit(cache=True)
def heuristic_v1_bid(hand: np.uint64, trump: int, players: int, cards: int, refused: int) -> int:
    """``heuristic_v1``'s bid (also the strong bots' guess of a bid they cannot see): the expected tricks of
    ``expected_tricks_v1``, rounded; the nearer allowed bid if that one is refused."""
    expected = expected_tricks_v1(hand, trump, players)
    bid = min(cards, int(expected + 0.5))
    if bid == refused:
        bid = bid + 1 if (expected >= bid and bid < cards) or bid == 0 else bid - 1
    return bid


@njit(cache=True, inline="always")
def _strength(card: int, trump: int) -> int:
    """Wizards over trumps over other suit cards by rank; Jesters lowest."""
    if card >= 56:
        return -1
    if card >= 52:
        return WIZARD_KEY
    return (60 if SUIT_OF[card] == trump else 30) + RANK_OF[card]


@njit(cache=True)
def heuristic_v1_play(legal: np.uint64, led: int, top_key: int, n_played: int, players: int, trump: int,
                      need: int) -> int:  # fmt: skip
    """``heuristic_v1``'s card (also the strong bots' play-outs): win tricks while ``need`` (bid - tricks won) > 0;
    once the bid is made, duck and shed winners."""
    last = n_played == players - 1
    best, best_score = -1, -(10**9)
    m = legal
    while m:
        card = lowest_card(m)
        m &= m - np.uint64(1)
        strength = _strength(card, trump)
        if n_played == 0:  # leading: the strongest card to win, a Jester or the weakest to duck
            score = strength if need > 0 else -strength
        else:
            wins = card_key(card, led, trump) > top_key
            if need > 0:  # a winner (the cheapest when last, else the strongest), else a low card, Jesters kept
                if wins:
                    score = 1000 + (200 - strength if last else strength)
                else:
                    score = -strength if card < 56 else -500
            else:  # the strongest card that still loses (Jesters last), else the weakest winner
                if wins:
                    score = -strength
                else:
                    score = 1000 + strength if card < 56 else 900
        if score > best_score:
            best, best_score = card, score
    return best


@njit(cache=True, inline="always")
def _power(x: float, n: int, bits: int) -> float:
    """``x ** n`` for an int ``0 <= n < 2 ** bits`` by squaring: IEEE products give the same bits on every machine,
    where a libm ``pow`` may differ in the last bit and flip a decision at ``TAKE`` (same seed, same numbers).
    Branch-free (``bits`` rounds, a bit not set multiplies by 1.0, which is exact): the same products in the same
    order as a loop over the set bits, 12% less time per card decision of the heuristic."""
    result = 1.0
    for _ in range(bits):
        result *= x if n & 1 else 1.0
        x *= x
        n >>= 1
    return result


@njit(cache=True, inline="always")
def _take_chance(card: int, led: int, trump: int, unseen: np.uint64, wizards: int, trumps: int, keep: float,
                 seats: int) -> float:  # fmt: skip
    """The chance that suit card ``card``, beating the trick so far under the led suit ``led``, still takes it when
    ``seats`` more seats play, each holding none of the ``unseen`` cards (``wizards`` Wizards, ``trumps`` trumps
    among them) with probability ``keep`` per card. A seat beats it with a Wizard or a higher card of its suit
    or, unless it is a trump, with a trump when it holds no card of ``led`` (B6)."""
    higher = popcount(unseen & SUIT_MASK[SUIT_OF[card]] & ~((bit(card) << 1) - 1))
    safe = _power(keep, wizards + higher, 5)  # one seat holds none of them (4 Wizards + 12 higher < 2 ** 5)
    if trump >= 0 and SUIT_OF[card] != trump:  # nor, holding no card of the led suit, a trump (13 < 2 ** 4)
        safe -= _power(keep, wizards + popcount(unseen & SUIT_MASK[led]), 5) * (1.0 - _power(keep, trumps, 4))
    return _power(max(safe, 0.0), seats, 3)  # at most 6 later seats (7 players)


@njit(cache=True)
def heuristic_play(hand: np.uint64, legal: np.uint64, seen: np.uint64, led: int, top_key: int, later: int,
                   trump: int, need: int) -> int:  # fmt: skip
    """``heuristic``'s card: counts the cards (``seen``: those in no other hand: played, turned, or not in the deck;
    ``card_of_heuristic``) to estimate each card's chance to take the trick, and aims at the bid (``need`` = bid -
    tricks won); ``later``: the seats still to play to the trick after this one (players - 1 - the cards in it).

    A card's chance is 0 if it does not beat the trick so far, 1 for the first Wizard or a winner played last,
    else ``_take_chance``, each unseen card being in a later seat's hand with probability (its cards) / (unseen
    cards). Short of its bid it plays the weakest card whose chance is at least ``TAKE`` (or, needing every trick
    left, the likeliest winner), else sheds its weakest card and keeps its Jesters; once the bid is made it plays
    the least likely winner, of those the strongest (a high card shed, a forced trick taken with the card that
    could take a later one)."""
    if legal & (legal - np.uint64(1)) == 0:  # one legal card
        return lowest_card(legal)
    left = popcount(hand)
    unseen = FULL_DECK & ~hand & ~seen
    n_unseen = popcount(unseen)
    keep = 1.0 - min(1.0, left / n_unseen) if n_unseen > 0 else 1.0  # an unseen card is not in a later seat's hand
    wizards = popcount(unseen & WIZARD_MASK)
    trumps = popcount(unseen & SUIT_MASK[trump]) if trump >= 0 else 0
    best, best_score = -1, -(10**9)
    m = legal
    while m:
        card = lowest_card(m)
        m &= m - np.uint64(1)
        strength = _strength(card, trump)
        suit_led = led if led >= 0 or top_key >= WIZARD_KEY else SUIT_OF[card]  # a first suit card sets it (B6)
        chance = 0.0
        if card < 56 and card_key(card, suit_led, trump) > top_key:
            if card >= 52 or later == 0:
                chance = 1.0
            elif need >= left or (1000 if need > 0 else 0) - (strength if need > 0 else -strength) > best_score:
                # (skipped where even a sure winner would not score above the best card so far: the same card wins)
                chance = _take_chance(card, suit_led, trump, unseen, wizards, trumps, keep, later)
        bucket = int(chance * 20.0 + 0.5)  # chances within 5% count as equal
        if need >= left:  # every trick left is needed: the likeliest winner, the weakest of those
            score = 100 * bucket - strength
        elif need > 0:
            score = 1000 - strength if chance >= TAKE else (-strength if card < 56 else -500)
        else:
            score = strength - 100 * bucket
        if score > best_score:
            best, best_score = card, score
    return best


@njit(cache=True, inline="always")
def card_of_heuristic(v1: bool, deck: np.uint64, hand: np.uint64, legal: np.uint64, seen: np.uint64, led: int,
                      top_key: int, n_played: int, players: int, trump: int, need: int) -> int:  # fmt: skip
    """The card of ``heuristic_v1`` (``v1``) or of ``heuristic`` (for the dispatch here and the strong bots'
    play-outs, which pick one by their ``_v1`` name); ``seen``: ``seen_cards``, to which the cards of the family
    outside the ``deck`` are added here (the hot loops keep the deck out of their registers: 2% of random games)."""
    if v1:
        return heuristic_v1_play(legal, led, top_key, n_played, players, trump, need)
    return heuristic_play(hand, legal, seen | (FULL_DECK ^ deck), led, top_key, players - 1 - n_played, trump, need)


@njit(cache=True, inline="always")
def bid_of_heuristic(v1: bool, tables: np.ndarray, hand: np.uint64, trump: int, players: int, cards: int,
                     position: int, refused: int) -> int:  # fmt: skip
    """The bid of ``heuristic_v1`` (``v1``) or of ``heuristic`` (with the game's ``tables``), as
    ``card_of_heuristic``."""
    if v1:
        return heuristic_v1_bid(hand, trump, players, cards, refused)
    return heuristic_bid(tables, hand, trump, players, cards, position, refused)


class GameData(NamedTuple):
    """What the built-in bots read of the game besides the round (``game_data``, from its Params)."""

    plus_minus_one: bool  # B5, for the bids
    deck: np.uint64  # the cards in play: the others are in no hand, as if seen (``card_of_heuristic``)
    tables: np.ndarray  # Params.tables: heuristic's calibrated win chances, rulebased's card values of the deck


@njit(cache=True, inline="always")
def game_data(p: Params) -> GameData:
    """The ``GameData`` of the rules ``p``."""
    return GameData(p.plus_minus_one, p.deck, p.tables)


@njit(cache=True, inline="always")
def random_bid(rng: np.ndarray, stream: int, cards: int, refused: int) -> int:
    """The random bot's bid: uniform over 0..cards but ``refused`` (-1: none)."""
    choice = below(rng, stream, cards if refused >= 0 else cards + 1)
    return choice + 1 if 0 <= refused <= choice else choice


@njit(cache=True, inline="always")
def random_card(rng: np.ndarray, stream: int, legal: np.uint64) -> int:
    """The random bot's card: uniform over ``legal``."""
    return nth_card(legal, below(rng, stream, popcount(legal)))


@njit(cache=True, inline="always")
def choose_trump(bot: int, rng: np.ndarray, stream: int, hand: np.uint64, players: int, game: GameData) -> int:
    """The dealer's trump suit 0..3 when a Wizard is turned up (B4)."""
    if bot == RANDOM:
        return below(rng, stream, 4)
    if bot == RULEBASED:
        return rulebased_trump(game.tables, hand, players)
    return heuristic_trump(hand)


@njit(cache=True, inline="always")
def bid(
    bot: int, rng: np.ndarray, stream: int, hand: np.uint64, trump: int, players: int, cards: int, position: int,
    refused: int, game: GameData,
) -> int:  # fmt: skip
    """A bid 0..cards other than ``refused`` (-1: none refused) from bidding ``position`` (0 bids first), B5."""
    if bot == RANDOM:
        return random_bid(rng, stream, cards, refused)
    if bot == RULEBASED:
        return rulebased_bid(game.tables, hand, trump, players, cards, refused)
    return bid_of_heuristic(bot == HEURISTIC_V1, game.tables, hand, trump, players, cards, position, refused)


@njit(cache=True, inline="always")
def play(bot: int, rng: np.ndarray, stream: int, hand: np.uint64, legal: np.uint64, seen: np.uint64, led: int,
         top_key: int, n_played: int, players: int, trump: int, need: int, game: GameData) -> int:  # fmt: skip
    """A card from ``legal``, the ``hand``'s legal cards (B6); ``seen``: the cards played this round and the
    turned card, ``top_key``: the best ``card_key`` in the trick so far, ``need``: bid - tricks won."""
    if bot == RANDOM:
        return random_card(rng, stream, legal)
    if bot == RULEBASED:
        return rulebased_play(game.tables, legal, led, top_key, n_played, players, trump, need)
    return card_of_heuristic(bot == HEURISTIC_V1, game.deck, hand, legal, seen, led, top_key, n_played, players, trump,
                             need)  # fmt: skip


@njit(cache=True, inline="always")
def seen_cards(turned: int, log: np.ndarray, n_played: int) -> np.uint64:
    """The cards every seat has seen leave the game: the ``turned`` card (-1: none) and the ``n_played`` cards
    played this round (rows ``(seat, card)`` of ``log``)."""
    seen = bit(turned) if turned >= 0 else np.uint64(0)
    for k in range(n_played):
        seen |= bit(log[k, 1])
    return seen


@njit(cache=True, inline="always")
def decide(bot: int, slots: np.ndarray, hands: np.ndarray, bids: np.ndarray, won: np.ndarray, log: np.ndarray,
           rng: np.ndarray, game: GameData, seat: int) -> int:  # fmt: skip
    """The action of built-in bot ``bot`` (RANDOM, HEURISTIC, RULEBASED or HEURISTIC_V1) for ``seat``, the seat to
    move, from its view: its hand, the public slots (trump, trick so far, bids made), the cards played (``log``),
    its own tricks and its own stream ``1 + seat`` of ``rng`` (the State's arrays, unpacked once by the hot
    loops), and the game's data."""
    d = slots[PHASE]
    players, trump = hands.shape[0], slots[TRUMP_SUIT]
    if d == TRUMP:
        return choose_trump(bot, rng, 1 + seat, hands[seat], players, game)
    if d == BID:
        no = refused_of(slots, players, game.plus_minus_one)
        return bid(bot, rng, 1 + seat, hands[seat], trump, players, slots[CARDS], slots[N_BIDS], no, game)
    hand, led = hands[seat], slots[LED]
    seen = seen_cards(slots[TURNED], log, slots[N_PLAYED]) if bot == HEURISTIC else np.uint64(0)
    return play(bot, rng, 1 + seat, hand, legal_mask(hand, led), seen, led, slots[TOP_KEY], slots[POS], players, trump,
                bids[seat] - won[seat], game)  # fmt: skip


@njit(cache=True)
def act(bot: int, s: State, p: Params, seat: int) -> int:
    """The action of built-in bot ``bot`` for ``seat``, the seat to move (``decide`` on the State)."""
    return decide(bot, s.slots, s.hands, s.bids, s.won, s.log, s.rng, game_data(p), seat)


class Seats(NamedTuple):
    """Who ``run_builtin`` lets play on, and where it stops."""

    bots: np.ndarray  # float64[players, 5]: the bot table, row[0] the bot id (-1 a Python bot)
    stops: int  # bit mask of the seats at which it returns (Python, strong and numba bots)
    game: GameData  # the game's data (``game_data``)


@njit(cache=True, _nrt=False)
def run_builtin(slots, hands, bids, won, log, rng, seats: Seats, checks: np.ndarray | None) -> int:
    """The built-in bots of ``seats.bots`` play on until a seat of the bit mask ``seats.stops`` is to move
    (returned) or the round is over (-1), on the State's arrays; an illegal action of theirs is refused too
    (RULES.md D2): it raises. Bids and cards run in registers (``state.make_bid``, ``state.play_card``). It
    counts no references (``_nrt=False``: it allocates nothing and calls no strong bot): numba's atomic reference
    counts of every array at each call cost random rounds a tenth of their time. ``checks``: None, or the unit's
    ``--check`` row (``cardsim.audit``; ``state.audit_bid``, ``state.audit_card``)."""
    stops = seats.stops
    while True:
        seat = slots[MOVER]
        if seat < 0 or (stops >> seat) & 1:
            return seat
        if slots[PHASE] != CARD:
            decide_on(slots, hands, bids, won, log, rng, seats, checks, ANY_LINEUP)
            continue
        trick = load_trick(slots)
        trump, cards = slots[TRUMP_SUIT], slots[CARDS]
        broken, taken = audit.load(checks)
        seen = seen_cards(slots[TURNED], log, trick[6])
        while trick[0] >= 0 and not (stops >> trick[0]) & 1:
            player, card, seen, trick = fast_card(hands, bids, won, log, rng, seats, trump, cards, seen, ANY_LINEUP,
                                                  trick)  # fmt: skip
            if checks is not None:
                broken = audit_card(checks, hands, won, player, card, trick[1], trick[7], broken)
        audit.store(checks, broken, taken)
        store_registers(slots, trick)


@njit(cache=True, inline="always")
def decide_on(slots, hands, bids, won, log, rng, seats: Seats, checks: np.ndarray | None, random_lineup: bool
              ) -> None:  # fmt: skip
    """The dealer's trump (B4) or the bids (B5) from the state on, in registers (``state.make_bid``), until a seat
    of ``seats.stops`` is to bid or the bids are made; see ``run_builtin``."""
    players = hands.shape[0]
    bots, stops, game = seats
    pm1 = game.plus_minus_one
    seat = slots[MOVER]
    if slots[PHASE] == BID:
        n_bids, total = slots[N_BIDS], slots[BID_TOTAL]
        trump, cards = slots[TRUMP_SUIT], slots[CARDS]
        while n_bids < players and not (stops >> seat) & 1:
            no = refused_bid(total, cards, n_bids == players - 1, pm1)
            if random_lineup:  # a constant: numba compiles no other bot's code here
                b = random_bid(rng, 1 + seat, cards, no)
            else:
                b = bid(int(bots[seat, 0]), rng, 1 + seat, hands[seat], trump, players, cards, n_bids, no, game)
            bidder = seat
            ok, seat, n_bids, total = make_bid(bids, cards, pm1, seat, n_bids, total, b)
            if not ok:
                raise BotFailure("a built-in bot chose an illegal bid")
            if checks is not None:
                audit_bid(checks, bids, bidder, cards)
        store_bids(slots, players, seat, n_bids, total)
    else:  # typed, not a literal: name_trump compiles once
        name_trump(slots, hands, bids, won, log, rng, game, np.int64(RANDOM) if random_lineup else int(bots[seat, 0]))


@njit(cache=True, _nrt=False)
def name_trump(slots, hands, bids, won, log, rng, game: GameData, bot: int) -> None:
    """B4: built-in bot ``bot``, the dealer, names the trump when a Wizard is turned (``decide_on``): a call, not
    inlined, as it is rare and the state machine's ``step`` inlined into every loop that bids cost seconds of each
    cold compile."""
    seat = slots[MOVER]
    suit = choose_trump(bot, rng, 1 + seat, hands[seat], hands.shape[0], game)
    if not step(slots, hands, bids, won, log, game.plus_minus_one, suit):
        raise BotFailure("a built-in bot chose an illegal trump")


@njit(cache=True, inline="always")
def fast_card(hands, bids, won, log, rng, seats: Seats, trump: int, cards: int, seen: np.uint64,
              random_lineup: bool, trick: tuple) -> tuple:  # fmt: skip
    """One card of the card phase: the seat to move (``trick[0]``; its bot from ``seats``, or random) plays it
    through ``state.play_card`` on the card phase's registers ``trick`` (``state.load_trick``), noted in ``log``
    (None: not noted); returns (the seat that played, the card, the cards seen since, the registers after it). A
    built-in bot's illegal card is refused (RULES D2)."""
    seat, pos, led, decided, top_key, winner, n_played, tricks = trick
    legal = legal_mask(hands[seat], led)
    if random_lineup:  # a constant: numba compiles no other bot's code here
        card = random_card(rng, 1 + seat, legal)
    else:
        card = play(int(seats.bots[seat, 0]), rng, 1 + seat, hands[seat], legal, seen, led, top_key, pos,
                    hands.shape[0], trump, bids[seat] - won[seat], seats.game)  # fmt: skip
    if errors.REFUSE_ILLEGAL_CARDS and not (legal >> np.uint64(card)) & np.uint64(1):
        raise BotFailure("a built-in bot chose an illegal card")
    return seat, card, seen | bit(card), play_card(hands, won, log, trump, cards, seat, pos, led, decided, top_key,
                                                   winner, n_played, tricks, card)


@njit(cache=True, inline="always")
def run_pair(a: State, b: State, seats: Seats) -> None:
    """Two dealt rounds of random bots at once (``play.random_block``): the trump and bids of each, then their
    tricks in turn, one of ``a`` and one of ``b`` (``_play_trick``, over ``fast_card``): the two rounds' chains of
    dependent steps overlap in the CPU. Each round draws from its own streams, so both end as ``run_builtin`` would
    leave them, but for the cards played: no one observes these rounds, so their logs are not kept (5% of Oh
    Hell's random rounds)."""
    while a.slots[PHASE] != CARD and a.slots[MOVER] >= 0:
        decide_on(a.slots, a.hands, a.bids, a.won, a.log, a.rng, seats, None, RANDOM_LINEUP)
    while b.slots[PHASE] != CARD and b.slots[MOVER] >= 0:
        decide_on(b.slots, b.hands, b.bids, b.won, b.log, b.rng, seats, None, RANDOM_LINEUP)
    trick_a, trick_b = load_trick(a.slots), load_trick(b.slots)
    trump_a, cards_a, trump_b, cards_b = a.slots[TRUMP_SUIT], a.slots[CARDS], b.slots[TRUMP_SUIT], b.slots[CARDS]
    seen_a, seen_b = seen_cards(a.slots[TURNED], a.log, 0), seen_cards(b.slots[TURNED], b.log, 0)
    while trick_a[0] >= 0 or trick_b[0] >= 0:  # rounds of drawn sizes: the longer one ends alone
        if trick_a[0] >= 0:
            seen_a, trick_a = _play_trick(a, seats, trump_a, cards_a, seen_a, trick_a)
        if trick_b[0] >= 0:
            seen_b, trick_b = _play_trick(b, seats, trump_b, cards_b, seen_b, trick_b)
    store_registers(a.slots, trick_a)
    store_registers(b.slots, trick_b)


@njit(cache=True, inline="always")
def _play_trick(s: State, seats: Seats, trump: int, cards: int, seen: np.uint64, trick: tuple) -> tuple:
    """One trick of ``run_pair``'s round ``s`` (random bots; no log kept: no one observes it): (the cards seen since,
    the registers after it). The lead, then the followers, in two copies of the card step, as the C loops do: each
    copy's branches (leading or following) predict on their own. A trick at a time, not a card, keeps one round's
    registers live at once, and the CPU still overlaps one round's trick with the other's: Oh Hell's random rounds
    7% faster than card by card in turn (one copy of the card step for every card: 10% slower than that)."""
    _, _, seen, trick = fast_card(s.hands, s.bids, s.won, None, s.rng, seats, trump, cards, seen, RANDOM_LINEUP,
                                  trick)  # fmt: skip
    while trick[1] > 0:  # until the trick is taken (pos back to 0; the next seat -1 when the round is over)
        _, _, seen, trick = fast_card(s.hands, s.bids, s.won, None, s.rng, seats, trump, cards, seen, RANDOM_LINEUP,
                                      trick)  # fmt: skip
    return seen, trick


@njit(cache=True, inline="always")
def store_registers(slots: np.ndarray, trick: tuple) -> None:
    """``state.store_trick`` of the card phase's registers as ``state.load_trick`` gives them."""
    seat, pos, led, decided, top_key, winner, n_played, tricks = trick
    store_trick(slots, slots[PLAYERS], seat, pos, led, decided, top_key, winner, n_played, tricks)
