"""The course of a Differenzler round and game: deal, predictions, nine tricks, scores.

Two drivers share the rules kernels, the deal and the built-in bots:

* ``play_round`` (compiled) deals (``start_round``) and plays (``play_dealt``) a
  round with built-in bots; the batch kernel ``simulate_games`` runs it over
  many rounds or games in parallel. Random and heuristic bots play through
  the shared trick loop ``bots.differenzler.play_cards``; strong bots
  (``bots/differenzler_strong.py``) are asked at their turns.
* ``play_round_py`` (plain Python) plays the same round when a seat holds a
  Python bot, asking that bot through the documented protocol.

Both draw the same random numbers in the same order, so a lineup of built-in
bots gives identical rounds through either driver (a test checks this).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np
from numba import njit, prange

import bots.differenzler as builtin
import bots.differenzler_strong as strong
from bots.differenzler import LEADER, LED, STATE_SIZE, TOP_KEY, TOP_TRUMP, apply_card, play_cards, start_state
from cardsim.cards import JASS36, nth_card
from cardsim.deal import deal_hands
from cardsim.games.differenzler.rules import (
    MAX_PREDICTION,
    PLAYERS,
    SUIT_OF,
    TRICKS,
    game_over,
    legal_mask,
    penalty,
    trick_points,
)
from cardsim.protocol import Seat, ask, checked_card, checked_number
from cardsim.rng import DEAL_STREAM, below, seed_streams, stream_seed

BLOCK = 256  # rounds per parallel work item


@njit(cache=True, inline="always")
def start_round(seed: np.uint64, unit: int, sub: int, first_hand: int, rng: np.ndarray, hands: np.ndarray) -> tuple:
    """Seed the round's streams, choose First Hand (A6) and deal (A5).

    ``first_hand`` < 0 draws it at random; the draw is made either way so the
    deal does not depend on it. Returns (first_hand, trump_card).
    """
    seed_streams(rng, seed, unit, sub)
    drawn = below(rng, DEAL_STREAM, PLAYERS)
    if first_hand < 0:
        first_hand = drawn
    dealer = (first_hand + PLAYERS - 1) % PLAYERS
    # Nine cards each from the dealer's left; the dealer shows one of the last nine at random: the same
    # as a shuffled deck whose 36th card is the dealer's last.
    deal_hands(rng, DEAL_STREAM, np.uint64((1 << 36) - 1), hands, dealer + 1, PLAYERS, TRICKS)
    return first_hand, nth_card(hands[dealer], below(rng, DEAL_STREAM, TRICKS))


@njit(cache=True, inline="always")
def play_round(
    seed: np.uint64,
    unit: int,
    sub: int,
    first_hand: int,
    bots: np.ndarray,
    strong_bots: np.ndarray | None,
    exact_bonus: int,
    open_predictions: bool,
    rng: np.ndarray,
    hands: np.ndarray,
    history: np.ndarray,
    predictions: np.ndarray,
    points: np.ndarray,
    penalties: np.ndarray,
    state: np.ndarray,
    checks: np.ndarray,
) -> tuple:
    """One round with built-in bots: ``start_round`` then ``play_dealt``. Returns (first_hand, trump_card).

    ``rng``, ``hands`` and the rest are working arrays from ``new_scratch``,
    passed whole: the hot loop creates no array views.
    """
    first_hand, trump_card = start_round(seed, unit, sub, first_hand, rng, hands)
    play_dealt(first_hand, trump_card, bots, strong_bots, exact_bonus, open_predictions, rng, hands, history,
               predictions, points, penalties, state, checks)  # fmt: skip
    return first_hand, trump_card


@njit(cache=True, inline="always")  # inlined into the batch loop: a call per round costs random bots ~30%
def play_dealt(first_hand: int, trump_card: int, bots: np.ndarray, strong_bots: np.ndarray | None,
               exact_bonus: int, open_predictions: bool, rng: np.ndarray, hands: np.ndarray, history: np.ndarray,
               predictions: np.ndarray, points: np.ndarray, penalties: np.ndarray, state: np.ndarray,
               checks: np.ndarray) -> None:  # fmt: skip
    """Play a dealt round (``hands``, streams in ``rng``) with built-in bots: predictions, nine tricks, penalties.

    Fills predictions/points/penalties[seat] and history[trick] = (leader, winner, 4 cards in play order).
    Random and heuristic bots play through ``play_cards``. ``strong_bots`` is None or the bot table
    (``Lineup.strong_table``): then a strong bot is asked when it is its turn, with what its seat may see (the
    predictions announced before it and, in play, all of them only when they are open).
    """
    trump = SUIT_OF[trump_card]
    seen = 0  # seats whose predictions are visible
    for i in range(PLAYERS):  # A7: First Hand first, the dealer last
        s = (first_hand + i) % PLAYERS
        if strong_bots is not None and strong_bots[s, 0] >= builtin.STRONG:
            predictions[s] = strong.predict(strong_bots[s], rng, s, hands[s], first_hand, trump_card, predictions,
                                            seen, exact_bonus)  # fmt: skip
        else:
            predictions[s] = builtin.predict(int(bots[s, 0]), rng, 1 + s, hands[s], trump)
        if open_predictions:
            seen |= 1 << s
        points[s] = 0
    if strong_bots is None:
        builtin.play_all(bots, trump, first_hand, rng, hands, history, predictions, points)
    else:
        start_state(state, first_hand)
        seat = play_cards(bots, trump, rng, hands, history, predictions, points, state, -1, checks)
        while seat >= 0:
            legal = legal_mask(hands[seat], state[LED], trump, state[TOP_TRUMP])
            card = strong.play(strong_bots[seat], rng, seat, hands[seat], legal, history, state, first_hand,
                               trump_card, predictions, seen, points, exact_bonus)  # fmt: skip
            apply_card(card, trump, hands, history, points, state)
            seat = play_cards(bots, trump, rng, hands, history, predictions, points, state, -1, checks)
    for s in range(PLAYERS):
        penalties[s] = penalty(predictions[s], points[s], exact_bonus)


@njit(cache=True)
def new_scratch() -> tuple:
    """Working arrays for one round: rng states, hands, trick history, predictions, points, penalties, the round's
    ``state`` (see ``bots.differenzler``) and a checks array."""
    return (
        np.empty((PLAYERS + 1, 4), np.uint64),
        np.empty(PLAYERS, np.uint64),
        np.zeros((TRICKS, 2 + PLAYERS), np.int64),
        np.zeros(PLAYERS, np.int64),
        np.zeros(PLAYERS, np.int64),
        np.zeros(PLAYERS, np.int64),
        np.zeros(STATE_SIZE, np.int64),
        np.zeros(TRICKS, np.int64),
    )


@njit(parallel=True, nogil=True, cache=True)  # nogil: the runner writes the last chunk meanwhile
def simulate_games(
    seed: np.uint64,
    start: int,
    bots: np.ndarray,
    strong_bots: np.ndarray | None,
    exact_bonus: int,
    open_predictions: bool,
    max_tiebreak_rounds: int,
    rounds_played: np.ndarray,
    first_hands: np.ndarray,
    trump_cards: np.ndarray,
    predictions: np.ndarray,
    points: np.ndarray,
    penalties: np.ndarray,
) -> None:
    """Units ``start ..`` in parallel: whole games (A11) or, with ``max_tiebreak_rounds`` < 0, single rounds.

    Round r of unit u is stream (seed, u, r). Out arrays are [unit, round, ...];
    ``rounds_played[unit]`` says how many rounds are filled. ``strong_bots``: see ``play_dealt``.
    """
    count = rounds_played.shape[0]
    for block in prange((count + BLOCK - 1) // BLOCK):
        rng, hands, history, pred, pts, pen, state, checks = new_scratch()
        totals = np.zeros(PLAYERS, np.int64)
        for g in range(block * BLOCK, min(count, (block + 1) * BLOCK)):
            totals[:] = 0
            r = 0
            while r == 0 or (max_tiebreak_rounds >= 0 and not game_over(totals, r, max_tiebreak_rounds)):
                first_hand = -1 if r == 0 else (first_hands[g, 0] + r) % PLAYERS
                first_hands[g, r], trump_cards[g, r] = play_round(
                    seed, start + g, r, first_hand, bots, strong_bots, exact_bonus, open_predictions, rng, hands,
                    history, pred, pts, pen, state, checks,
                )  # fmt: skip
                for s in range(PLAYERS):
                    predictions[g, r, s], points[g, r, s], penalties[g, r, s] = pred[s], pts[s], pen[s]
                    totals[s] += pen[s]
                r += 1
            rounds_played[g] = r


# --- the Python driver and the bot protocol ---------------------------------


@dataclass(frozen=True)
class Trick:
    """One finished trick: who led, the cards in play order, who won, its points."""

    leader: int
    cards: tuple[str, ...]
    winner: int
    points: int


@dataclass
class Observation:
    """What one seat may see when it decides (A5, A7): passed to a Python bot.

    Cards are canonical names (``"SA"``, ``"HT"``). ``predictions`` holds the
    predictions this seat may see: its own, and with open predictions those
    announced before it (and all of them during play); unseen ones are None.
    ``legal`` is empty when predicting. ``rng`` is this seat's own random
    generator for the round, so Python bots are reproducible too.
    """

    seat: int
    first_hand: int
    dealer: int
    trump: str
    trump_card: str
    hand: list[str]
    legal: list[str]
    predictions: list[int | None]
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
    """Everything that happened in one round (for replay and for Python-bot runs)."""

    seed: int
    round: int
    game_round: int
    first_hand: int
    dealer: int
    trump_card: int
    hands: list[int]
    predictions: list[int]
    tricks: list[Trick] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    penalties: list[int] = field(default_factory=list)


def play_round_py(
    seed: int,
    unit: int,
    sub: int,
    in_game: bool,
    first_hand: int,
    lineup: list,
    table: np.ndarray,
    names: list[str],
    exact_bonus: int,
    open_predictions: bool,
) -> RoundRecord:
    """One round in plain Python; ``lineup[seat]`` is a built-in bot id (int, its settings in ``table[seat]``)
    or a Python bot object."""
    rng, hands, history, predictions, points, _, state, _ = new_scratch()
    first_hand, trump_card = (int(x) for x in start_round(np.uint64(seed), unit, sub, first_hand, rng, hands))
    trump = trump_card // 9
    dealer = (first_hand + PLAYERS - 1) % PLAYERS
    rec = RoundRecord(seed, unit, sub, first_hand, dealer, trump_card, [int(h) for h in hands], [0] * PLAYERS)
    seats = [Seat(names[s], s, "differenzler", seed, unit, sub, in_game) for s in range(PLAYERS)]
    python_rngs = {
        s: random.Random(stream_seed(seed, unit, sub, 1 + s)) for s in range(PLAYERS) if not isinstance(lineup[s], int)
    }

    def observe(seat: int, legal: int, trick: list[int], leader: int, visible: list[int | None]) -> Observation:
        return Observation(
            seat, first_hand, dealer, "SHDC"[trump], JASS36.name_of(trump_card),
            JASS36.names(int(hands[seat])).split(), JASS36.names(legal).split(), visible,
            [JASS36.name_of(c) for c in trick], leader, list(rec.tricks), [int(p) for p in points], python_rngs[seat],
            seed, unit, sub,
        )  # fmt: skip

    announced: list[int | None] = [None] * PLAYERS
    seen = 0  # seats whose predictions are visible (open predictions)
    for i in range(PLAYERS):  # A7: First Hand first, the dealer last
        seat = (first_hand + i) % PLAYERS
        bot = lineup[seat]
        if isinstance(bot, int) and bot >= builtin.STRONG:
            prediction = int(strong.predict(table[seat], rng, seat, hands[seat], first_hand, trump_card, predictions,
                                            seen, exact_bonus))  # fmt: skip
        elif isinstance(bot, int):
            prediction = int(builtin.predict(bot, rng, 1 + seat, hands[seat], trump))
        else:
            visible = list(announced) if open_predictions else [None] * PLAYERS
            obs = observe(seat, 0, [], first_hand, visible)
            answer = ask(bot.predict, obs, seats[seat], "prediction")
            prediction = checked_number(answer, range(MAX_PREDICTION + 1), "predicted", seats[seat], "prediction")
        rec.predictions[seat] = announced[seat] = predictions[seat] = int(prediction)
        if open_predictions:
            seen |= 1 << seat

    start_state(state, first_hand)
    for t in range(TRICKS):
        leader = int(state[LEADER])
        trick: list[int] = []
        for i in range(PLAYERS):
            seat = (leader + i) % PLAYERS
            legal = legal_mask(hands[seat], state[LED], trump, state[TOP_TRUMP])
            bot = lineup[seat]
            if isinstance(bot, int) and bot >= builtin.STRONG:
                card = int(strong.play(table[seat], rng, seat, hands[seat], legal, history, state, first_hand,
                                       trump_card, predictions, seen, points, exact_bonus))  # fmt: skip
            elif isinstance(bot, int):
                card = int(builtin.play(bot, rng, 1 + seat, legal, state[LED], state[TOP_KEY], i, trump,
                                        points[seat], predictions[seat]))  # fmt: skip
            else:
                visible = [p if open_predictions or s == seat else None for s, p in enumerate(rec.predictions)]
                obs = observe(seat, int(legal), trick, leader, visible)
                decision = f"trick {t + 1}, card {i + 1}"
                answer = ask(bot.play, obs, seats[seat], decision)
                card = checked_card(answer, int(legal), JASS36, seats[seat], decision)
            trick.append(card)
            apply_card(card, trump, hands, history, points, state)
        won = int(trick_points(np.array(trick), trump, t == TRICKS - 1))
        rec.tricks.append(Trick(leader, tuple(JASS36.name_of(c) for c in trick), int(history[t, 1]), won))
    rec.points = [int(p) for p in points]
    rec.penalties = [int(penalty(rec.predictions[s], rec.points[s], exact_bonus)) for s in range(PLAYERS)]
    return rec
