"""The Differenzler round as one state machine (RULES.md section A): deal, predictions in turn, nine tricks.

This module is the only code that advances a Differenzler round. Every player of the game goes through it: the
batch kernel, the Python driver (``Game`` hooks), the built-in bots' play-on loops, the strong bots' rollouts and
searches and the bid advice's completions. It imports only the rules, cards, deal, rng and decision codes.

State (a NamedTuple of fixed-shape arrays; copying every array copies the round and its random draws)::

    slots        int64[SLOTS]        the scalars of the round, see below
    hands        uint64[players]     cards each seat still holds
    dealt        uint64[players]     the hands as dealt (for the replay record)
    predictions  int64[players]     A7 predictions (valid for the seats that have predicted, see PREDICTED)
    points       int64[players]     A4 card points taken so far
    history      int64[TRICKS, 2 + players]
                                     per trick: leader, winner (valid once the trick is full), then the cards in
                                     play order (valid up to the trick and position in progress)
    rng          uint64[players + 1, 4]
                                     the round's shared streams: 0 deals, 1 + seat serves the seat's built-in
                                     random/heuristic bot (cardsim.rng.seed_streams)
    bot_rng      uint64[players, 4]  the strong bots' private streams, row = seat (cardsim.rng.seed_bot_stream),
                                     seeded on first use from the round's key (seeding costs a SipHash per seat,
                                     which random self-play must not pay)

Every array of the State costs the hot loops a reference count update wherever a State is passed to an inlined
function: keep their number small (the round's key lives in ``slots``) and pass arrays in the innermost loops.

Slots of ``slots`` (the first eight are the trick in progress, in registers in the hot loops)::

    TRICK       trick number 0..8, 9 when the round is over
    POS         cards already in the trick 0..3
    LEADER      seat leading the trick
    LED         led suit 0..3, -1 before the first card of the trick
    TOP_KEY     rules.trick_key of the best card so far, -1 none
    TOP_TRUMP   highest trump level in the trick, -1 none
    WINNER      seat winning the trick so far
    WON         card points in the trick so far
    FIRST_HAND  A6: predicts first and leads the first trick; the dealer is the seat before it
    TRUMP_CARD  A5: the card the dealer showed (in the dealer's hand until played)
    TRUMP       its suit
    PREDICTED   predictions made 0..4 (A7: in turn from First Hand, the dealer last)
    SEED, UNIT, SUB
                the round's key (the seed's 64 bits as an int64) for the private streams; ``observe`` blanks them
    SEEDED      bits of the seats whose ``bot_rng`` row is seeded

Decisions: PREDICT (action = the prediction 0..157) while PREDICTED < 4, then CARD (action = card index 0..35)
until TRICK = 9, then DONE. ``to_move`` is First Hand + PREDICTED while predicting, LEADER + POS in play.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

import cardsim.audit as audit
from cardsim.arrays import copy_items, copy_rows
from cardsim.cards import bit, nth_card, popcount
from cardsim.deal import deal_hands
from cardsim.decisions import CARD, DONE, PREDICT
from cardsim.games.differenzler.rules import (
    LAST_TRICK_BONUS,
    MAX_PREDICTION,
    PLAYERS,
    POINTS,
    SUIT_OF,
    TOTAL_POINTS,
    TRICKS,
    ZERO_BONUS,
    legal_mask,
    penalty,
    trick_key,
    trump_level,
)
from cardsim.rng import DEAL_STREAM, below, seed_bot_stream, seed_streams

TRICK, POS, LEADER, LED, TOP_KEY, TOP_TRUMP, WINNER, WON, FIRST_HAND, TRUMP_CARD, TRUMP, PREDICTED = range(12)
SEED, UNIT, SUB, SEEDED = range(12, 16)
SLOTS = 16
FULL_DECK = np.uint64((1 << 36) - 1)


class State(NamedTuple):
    """One Differenzler round; the slots are documented in the module docstring."""

    slots: np.ndarray
    hands: np.ndarray
    dealt: np.ndarray
    predictions: np.ndarray
    points: np.ndarray
    history: np.ndarray
    rng: np.ndarray
    bot_rng: np.ndarray


class Params(NamedTuple):
    """The rule scalars the kernels need (``params(rules)``)."""

    exact_bonus: int  # A10
    open_predictions: int  # A7: 1 = announced in turn, 0 = secret until the end
    max_tiebreak_rounds: int  # A11
    zero_bonus: int  # A13: a code of rules.ZERO_BONUS (rules.NEVER, ZERO_TRICK, ALWAYS)
    game_rounds: int  # A11, A13: rounds before the tie-break


def params(rules) -> Params:
    """The kernels' ``Params`` of a ``DifferenzlerRules``."""
    return Params(int(rules.exact_bonus), int(rules.predictions == "open"), int(rules.max_tiebreak_rounds),
                  ZERO_BONUS.index(rules.zero_bonus), int(rules.game_rounds))  # fmt: skip


@njit(cache=True)
def new_state(players: int = PLAYERS) -> State:
    """An empty state (Differenzler is played by 4: ``players`` is there for the shape shared by all games)."""
    return State(
        np.zeros(SLOTS, np.int64),
        np.zeros(PLAYERS, np.uint64),
        np.zeros(PLAYERS, np.uint64),
        np.zeros(PLAYERS, np.int64),
        np.zeros(PLAYERS, np.int64),
        np.zeros((TRICKS, 2 + PLAYERS), np.int64),
        np.zeros((PLAYERS + 1, 4), np.uint64),
        np.zeros((PLAYERS, 4), np.uint64),
    )


@njit(cache=True, inline="always")
def _begin(sl: np.ndarray, hands: np.ndarray, dealt: np.ndarray, points: np.ndarray, first_hand: int,
           trump_card: int) -> None:  # fmt: skip
    """The round before its first prediction: First Hand, the shown trump card, nothing predicted or played."""
    sl[TRICK], sl[POS], sl[LEADER], sl[LED], sl[TOP_KEY], sl[TOP_TRUMP] = 0, 0, first_hand, -1, -1, -1
    sl[WINNER], sl[WON], sl[FIRST_HAND], sl[TRUMP_CARD] = first_hand, 0, first_hand, trump_card
    sl[TRUMP], sl[PREDICTED] = SUIT_OF[trump_card], 0
    for seat in range(PLAYERS):
        dealt[seat] = hands[seat]
        points[seat] = 0


@njit(cache=True, inline="always")  # the batch loop's hot path
def deal(s: State, p: Params, seed: np.uint64, unit: int, sub: int, dealer: int) -> None:
    """Seed the round's streams, choose First Hand (A6; ``dealer`` is First Hand for Differenzler, < 0 draws it)
    and deal (A5); then the round waits for First Hand's prediction. See ``deal_arrays``."""
    deal_arrays(s.slots, s.hands, s.dealt, s.points, s.rng, seed, unit, sub, dealer)


@njit(cache=True, inline="always")
def deal_arrays(sl: np.ndarray, hands: np.ndarray, dealt: np.ndarray, points: np.ndarray, rng: np.ndarray,
                seed: np.uint64, unit: int, sub: int, dealer: int) -> None:  # fmt: skip
    """``deal`` on the State's arrays (the batch kernel's form: passing a State to an inlined function costs a
    reference count update per array). The draw of First Hand is made either way so the deal does not depend on
    it. Nine cards each from the dealer's left; the dealer shows one of its nine at random: the same as a
    shuffled deck whose 36th card is the dealer's last."""
    seed_streams(rng, seed, unit, sub, rng.shape[0])
    drawn = below(rng, DEAL_STREAM, PLAYERS)
    first_hand = drawn if dealer < 0 else dealer
    the_dealer = (first_hand + PLAYERS - 1) % PLAYERS
    deal_hands(rng, DEAL_STREAM, FULL_DECK, hands, the_dealer + 1, PLAYERS, TRICKS)
    trump_card = nth_card(hands[the_dealer], below(rng, DEAL_STREAM, TRICKS))
    sl[SEED], sl[UNIT], sl[SUB], sl[SEEDED] = np.int64(seed), unit, sub, 0
    _begin(sl, hands, dealt, points, first_hand, trump_card)


@njit(cache=True, inline="always")
def redeal(sl: np.ndarray, hands: np.ndarray, dealt: np.ndarray, points: np.ndarray, rng: np.ndarray,
           streams: np.ndarray) -> None:  # fmt: skip
    """The round dealt by ``deal_arrays`` again, however far it was played: the same hands (``dealt``), First Hand
    and trump card, and the deal's streams as they were right after it (``streams``, a copy of ``rng`` then), so
    the same draws to come. The next seating of a duplicate deal plays it without dealing again."""
    copy_rows(rng, streams, rng.shape[0])
    for seat in range(PLAYERS):
        hands[seat] = dealt[seat]
    sl[SEEDED] = 0
    _begin(sl, hands, dealt, points, sl[FIRST_HAND], sl[TRUMP_CARD])


@njit(cache=True)
def start(s: State, p: Params, dealer: int, hands: np.ndarray, trump_card: int) -> None:
    """The round dealt ``hands`` (uint64[players]) by ``dealer``, who shows ``trump_card`` (one of its cards; the
    caller checks the cards): First Hand is the seat after the dealer. The streams are left as they are."""
    for seat in range(PLAYERS):
        s.hands[seat] = hands[seat]
    s.slots[SEEDED] = 0
    _begin(s.slots, s.hands, s.dealt, s.points, (dealer + 1) % PLAYERS, trump_card)


@njit(cache=True, inline="always")
def to_move(s: State) -> int:
    """The seat to act: First Hand + predictions made while predicting (A7), then the trick's next seat; -1 when
    the round is over."""
    n = s.slots[PREDICTED]
    if n < PLAYERS:
        return (s.slots[FIRST_HAND] + n) % PLAYERS
    if s.slots[TRICK] < TRICKS:
        return (s.slots[LEADER] + s.slots[POS]) % PLAYERS
    return -1


@njit(cache=True, inline="always")
def decision(s: State) -> int:
    """PREDICT, CARD or DONE (``cardsim.decisions``)."""
    if s.slots[PREDICTED] < PLAYERS:
        return PREDICT
    return CARD if s.slots[TRICK] < TRICKS else DONE


@njit(cache=True, inline="always")
def legal_cards(s: State, p: Params) -> np.uint64:
    """A8: the cards the seat to move may play (0 unless a card is to be played)."""
    if decision(s) != CARD:
        return np.uint64(0)
    seat = (s.slots[LEADER] + s.slots[POS]) % PLAYERS
    return legal_mask(s.hands[seat], s.slots[LED], s.slots[TRUMP], s.slots[TOP_TRUMP])


@njit(cache=True)
def legal_actions(s: State, p: Params, out: np.ndarray) -> int:
    """The legal action codes into ``out`` (room for 158): predictions 0..157, or the legal cards; their count."""
    d = decision(s)
    if d == PREDICT:
        for v in range(MAX_PREDICTION + 1):
            out[v] = v
        return MAX_PREDICTION + 1
    n = 0
    m = legal_cards(s, p)
    while m:
        card = nth_card(m, 0)
        m &= m - np.uint64(1)
        out[n] = card
        n += 1
    return n


@njit(cache=True, inline="always")
def step(card: int, trump: int, hands: np.ndarray, history: np.ndarray, points: np.ndarray, t: int, i: int,
         leader: int, led: int, top_key: int, top_trump: int, winner: int, won: int) -> tuple:  # fmt: skip
    """The seat to move plays ``card`` (legal: the caller checked it), on the trick's slots as locals (kept in
    registers by the hot loops); returns them. history[t] = (leader, winner, 4 cards); after the 4th card the
    trick's points (A4, +5 for the last trick) go to its winner (A9), who leads next."""
    seat = (leader + i) % PLAYERS
    hands[seat] ^= bit(card)
    history[t, 2 + i] = card
    if i == 0:
        history[t, 0] = leader
        led = SUIT_OF[card]
    key = trick_key(card, led, trump)
    if key > top_key:
        top_key, winner = key, seat
    top_trump = max(top_trump, trump_level(card, trump))
    won += POINTS[trump, card]
    if i < PLAYERS - 1:
        return t, i + 1, leader, led, top_key, top_trump, winner, won
    history[t, 1] = winner
    points[winner] += won + (LAST_TRICK_BONUS if t == TRICKS - 1 else 0)
    return t + 1, 0, winner, -1, -1, -1, winner, 0


@njit(cache=True, inline="always")
def predict_step(predictions: np.ndarray, first_hand: int, n: int, value: int) -> bool:
    """A7: the n-th seat from First Hand predicts ``value`` (0..157), on the counter as a local (the hot loops
    keep it in a register and count on); False (nothing changed) for an illegal prediction."""
    if value < 0 or value > MAX_PREDICTION:
        return False
    predictions[(first_hand + n) % PLAYERS] = value
    return True


@njit(cache=True, inline="always")
def apply_card(s: State, card: int) -> None:
    """``step`` on the state's slots: the seat to move plays ``card`` (legal: the caller checked it)."""
    sl = s.slots
    (sl[TRICK], sl[POS], sl[LEADER], sl[LED], sl[TOP_KEY], sl[TOP_TRUMP], sl[WINNER], sl[WON]) = step(
        card, sl[TRUMP], s.hands, s.history, s.points, sl[TRICK], sl[POS], sl[LEADER], sl[LED], sl[TOP_KEY],
        sl[TOP_TRUMP], sl[WINNER], sl[WON])  # fmt: skip


@njit(cache=True, inline="always")
def apply(s: State, p: Params, action: int) -> bool:
    """The seat to move takes ``action`` (a prediction 0..157, or a legal card). An illegal action (RULES D2),
    or any action once the round is over, returns False and leaves ``s`` unchanged."""
    n = s.slots[PREDICTED]
    if n < PLAYERS:
        if not predict_step(s.predictions, s.slots[FIRST_HAND], n, action):
            return False
        s.slots[PREDICTED] = n + 1
        return True
    if action < 0 or action >= 36 or not (legal_cards(s, p) >> np.uint64(action)) & np.uint64(1):
        return False
    apply_card(s, action)
    return True


@njit(cache=True, inline="always")
def visible_predictions(s: State, p: Params, seat: int, out: np.ndarray) -> None:
    """A7: out[s'] = the prediction of s' that ``seat`` may see now, -1 when it may not: its own once made, and
    with open predictions every one announced so far; secret ones show only at the end (DONE)."""
    n = s.slots[PREDICTED]
    done = s.slots[TRICK] >= TRICKS
    for other in range(PLAYERS):
        made = (other - s.slots[FIRST_HAND] + PLAYERS) % PLAYERS < n
        out[other] = s.predictions[other] if made and (other == seat or p.open_predictions or done) else -1


@njit(cache=True)
def bot_stream(s: State, seat: int) -> np.ndarray:
    """Seat ``seat``'s private stream as a 1-row array (a view: draws advance ``s.bot_rng[seat]``), seeded from
    the round key on first use."""
    sl = s.slots
    if not sl[SEEDED] >> seat & 1:
        seed_bot_stream(s.bot_rng, seat, np.uint64(sl[SEED]), sl[UNIT], sl[SUB], seat)
        sl[SEEDED] |= 1 << seat
    return s.bot_rng[seat : seat + 1]


@njit(cache=True, inline="always")
def trick_takers(history: np.ndarray, tricks: int) -> int:
    """Bit ``seat`` set for each seat that won one of the first ``tricks`` tricks (``history[t, 1]``; A13)."""
    took = 0
    for t in range(tricks):
        took |= 1 << history[t, 1]
    return took


@njit(cache=True, inline="always")
def scores(s: State, p: Params, out: np.ndarray) -> None:
    """A10, A13: out[seat] = the penalty of each seat (a finished round; of one in progress, the penalty of the
    points and tricks taken so far)."""
    scores_arrays(s.predictions, s.points, s.history, s.slots[TRICK], p.exact_bonus, p.zero_bonus, out)


@njit(cache=True, inline="always")
def scores_arrays(predictions: np.ndarray, points: np.ndarray, history: np.ndarray, tricks: int, exact_bonus: int,
                  zero_bonus: int, out: np.ndarray) -> None:  # fmt: skip
    """``scores`` on the State's arrays (the batch kernel's form), ``tricks`` the tricks finished (9 at the end)."""
    took = trick_takers(history, tricks)
    for seat in range(PLAYERS):
        out[seat] = penalty(predictions[seat], points[seat], (took >> seat) & 1 == 1, exact_bonus, zero_bonus)


# The round's invariants that ``check`` tests after every step under ``--check`` (returns 1 + the broken one's index).
CHECKS = ("the dealt hands are the deck, 9 cards each", "each seat holds its dealt cards less those it played",
          "the tricks' points add up to the card points played", "the predictions made are 0..157")  # fmt: skip


@njit(cache=True)
def check(s: State, p: Params) -> int:
    """0 when the round keeps its invariants (``CHECKS``), else 1 + the index of the first it breaks."""
    sl, dealt = s.slots, s.dealt
    union, count = np.uint64(0), 0
    for seat in range(PLAYERS):
        union |= dealt[seat]
        count += popcount(dealt[seat])
    if union != FULL_DECK or count != PLAYERS * TRICKS:
        return 1
    trump, done, points = sl[TRUMP], sl[TRICK], 0
    for seat in range(PLAYERS):
        played = np.uint64(0)
        for t in range(min(done + 1, TRICKS)):
            i = (seat - s.history[t, 0]) % PLAYERS
            if t < done or i < sl[POS]:
                played |= bit(s.history[t, 2 + i])
                points += POINTS[trump, s.history[t, 2 + i]] if t < done else 0
        if s.hands[seat] & played or s.hands[seat] | played != dealt[seat] or popcount(played) != done + (
                (seat - sl[LEADER]) % PLAYERS < sl[POS]):  # fmt: skip
            return 2
    if s.points.sum() != points + (LAST_TRICK_BONUS if done == TRICKS else 0):
        return 3
    for n in range(sl[PREDICTED]):
        if not 0 <= s.predictions[(sl[FIRST_HAND] + n) % PLAYERS] <= MAX_PREDICTION:
            return 4
    return 0


@njit(cache=True, inline="always")
def audit_deal(row: np.ndarray, dealt: np.ndarray) -> None:
    """--check (``cardsim.audit``) after the deal: the dealt hands are the deck, 9 cards each (CHECKS[0]); the
    audit's count of the hands starts here."""
    audit.deal(row, dealt, TRICKS, np.uint64(0), 0)


@njit(cache=True, inline="always")
def audit_prediction(row: np.ndarray, predictions: np.ndarray, seat: int) -> None:
    """--check after ``seat``'s prediction: it is 0..157 (CHECKS[3])."""
    audit.decision(row, (predictions[seat] < 0) | (predictions[seat] > MAX_PREDICTION), 3)


@njit(cache=True, inline="always")
def audit_card(row: np.ndarray, hands: np.ndarray, seat: int, card: int, broken: int) -> int:
    """--check after ``step`` (``seat`` played ``card``), on the hot loop's register of broken invariants
    (``audit.load``; returned): the seat held the card and holds its dealt cards less those it played
    (CHECKS[1])."""
    return broken | audit.bits(audit.card(row, hands, seat, card), 1)


@njit(cache=True, inline="always")
def audit_points(points: np.ndarray, broken: int) -> int:
    """--check when the round is over: the tricks took every card point and the last trick's bonus, 157
    (CHECKS[2]); ``broken`` as in ``audit_card``. Checked once, not as each trick closes: a running count of
    the points played and a branch per card cost a checked round 8% (1.12-1.16 against 1.05-1.08 of an unchecked
    one). Points lost or doubled in any trick show here, unless a later error makes up for them exactly; the
    replay with the full check then names the trick."""
    total = np.int64(0)
    for seat in range(PLAYERS):
        total += points[seat]
    return broken | audit.bits(total != TOTAL_POINTS, 2)


@njit(cache=True)
def copy_state(s: State) -> State:
    """A copy of every array: the same round with the same random draws to come."""
    return State(s.slots.copy(), s.hands.copy(), s.dealt.copy(), s.predictions.copy(), s.points.copy(),
                 s.history.copy(), s.rng.copy(), s.bot_rng.copy())  # fmt: skip


@njit(cache=True)
def observe(s: State, p: Params, seat: int) -> State:
    """What ``seat`` may see now, as a State with the rest blanked: its own hand (and as dealt), the slots (trick
    in progress, First Hand, shown trump card, predictions made), the cards played, everybody's points, the
    predictions it may see (``visible_predictions``; -1 for the others). Streams, the other hands and the round's
    key (its slots) are zero: a strong bot decides from this, drawing from its own stream only."""
    v = new_state(np.int64(PLAYERS))
    observe_into(s, p, seat, v)
    return v


@njit(cache=True, inline="always")
def observe_into(s: State, p: Params, seat: int, v: State) -> None:
    """``observe`` into the State ``v`` (every field but the streams written, none allocated): a batched
    environment keeps one view per table (``cardsim.envs.batch``)."""
    copy_items(v.slots, s.slots, s.slots.shape[0])
    v.slots[SEED], v.slots[UNIT], v.slots[SUB], v.slots[SEEDED] = 0, 0, 0, 0
    for other in range(PLAYERS):
        v.hands[other], v.dealt[other] = 0, 0
    v.hands[seat], v.dealt[seat] = s.hands[seat], s.dealt[seat]
    copy_items(v.points, s.points, s.points.shape[0])
    visible_predictions(s, p, seat, v.predictions)
    for t in range(TRICKS):
        n = 0 if t > s.slots[TRICK] else PLAYERS if t < s.slots[TRICK] else s.slots[POS]
        v.history[t, 0] = s.history[t, 0] if n > 0 else 0
        v.history[t, 1] = s.history[t, 1] if n == PLAYERS else 0
        for i in range(PLAYERS):
            v.history[t, 2 + i] = s.history[t, 2 + i] if i < n else 0
