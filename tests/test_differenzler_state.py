"""The Differenzler state machine (cardsim/games/differenzler/state.py): perft-style counts of legal action
sequences against the plain-Python reference, refused actions, honest observations, and the Python driver equal
to the compiled kernel row for row."""

from __future__ import annotations

import random

import numpy as np
import pytest
import reference_differenzler as ref
from numba import njit

import bots.differenzler_strong as strong
from cardsim.cards import JASS36
from cardsim.errors import CardsimError
from cardsim.games.differenzler import state as sm
from cardsim.games.differenzler.game import GAME
from cardsim.infoset import sample_deals
from cardsim.numba_bots import sampler
from cardsim.rng import seed_streams

RULES = GAME.make_rules()
OPEN = GAME.make_rules({"predictions": "open", "exact_bonus": 10})
P = sm.params(RULES)
HANDS = [
    "S6 S7 S8 S9 ST SJ SQ SK SA",
    "H6 H7 H8 H9 HT HJ HQ HK HA",
    "D6 D7 D8 D9 DT DJ DQ DK DA",
    "C6 C7 C8 C9 CT CJ CQ CK CA",
]


def ref_count(hands: list[set[str]], leader: int, trick: list[str], trump: str, depth: int) -> int:
    """Card sequences of ``depth`` cards from a position, by the reference rules (RULES A8, A9)."""
    if depth == 0 or not any(hands):
        return 1
    seat = (leader + len(trick)) % 4
    total = 0
    for card in ref.legal_cards(sorted(hands[seat]), trick, trump):
        hands[seat].remove(card)
        played = [*trick, card]
        if len(played) == 4:
            winner = (leader + ref.trick_winner(played, trump)) % 4
            total += ref_count(hands, winner, [], trump, depth - 1)
        else:
            total += ref_count(hands, leader, played, trump, depth - 1)
        hands[seat].add(card)
    return total


def sm_count(s: sm.State, depth: int) -> int:
    """The same count through the state machine's legal_actions and apply."""
    if depth == 0 or sm.decision(s) == sm.DONE:
        return 1
    out = np.empty(158, np.int64)
    total = 0
    for k in range(sm.legal_actions(s, P, out)):
        t = sm.copy_state(s)
        assert sm.apply(t, P, int(out[k]))
        total += sm_count(t, depth - 1)
    return total


def position(seed: int, cards: int) -> sm.State:
    """A round of ``seed`` after the predictions and ``cards`` random legal cards."""
    s = GAME.deal(RULES, seed, 0, 0, -1, False)
    rnd = random.Random(seed)
    for _ in range(4):
        GAME.apply(RULES, s, rnd.randrange(158))
    for _ in range(cards):
        GAME.apply(RULES, s, rnd.choice(GAME.legal(RULES, s)))
    return s


def ref_position(s: sm.State) -> tuple:
    hands = [ref.names_of_mask(int(h)) for h in s.hands]
    t, pos = int(s.slots[sm.TRICK]), int(s.slots[sm.POS])
    trick = [ref.name(int(c)) for c in s.history[t, 2 : 2 + pos]] if t < 9 else []
    return hands, int(s.slots[sm.LEADER]), trick, "SHDC"[int(s.slots[sm.TRUMP])]


def test_perft_golden_counts_of_the_end_positions():
    """Exact counts of legal card sequences, pinned by hand: the suit-sorted deal (each seat holds one suit, the
    dealer seat 3 the clubs and shows CA): the leader may lead any of 9 cards (A8a), every other seat is void in
    the led suit and may play any of its 9 (A8d), so one trick has 9**4 sequences; then, from a late position of
    two cards each, the reference's count."""
    s = GAME.start(RULES, HANDS, 3, trump_card="CA")  # First Hand 0 predicts first and leads
    assert GAME.decision(RULES, s) == "predict" and GAME.to_move(RULES, s) == 0
    assert sm_count(s, 1) == 158 and sm_count(s, 2) == 158**2  # A7: any prediction 0..157, in turn
    for v in (10, 20, 30, 40):
        GAME.apply(RULES, s, v)
    assert sm_count(s, 1) == 9 and sm_count(s, 2) == 81
    hands, leader, trick, trump = ref_position(s)
    assert ref_count(hands, leader, trick, trump, 4) == sm_count(s, 4) == 9**4
    for card in ("S6", "H6", "D6", "C6", "C7", "S7", "H7", "D7"):  # two tricks, both won by seat 3 (trumps)
        GAME.apply(RULES, s, card)
    assert GAME.to_move(RULES, s) == 3 and s.points[3] == 0
    # seat 3 leads a trump; the others are void in trumps and hold one suit each: 7 * 7 * 7 * 7 per trick
    assert sm_count(s, 4) == 7**4


@pytest.mark.parametrize("seed, cards", [(1, 28), (2, 29), (3, 30), (4, 26), (5, 31), (6, 24)])
def test_perft_counts_agree_with_the_reference(seed, cards):
    """From positions late in random rounds, the numbers of legal card sequences to the end equal the plain-
    Python reference's (RULES A8/A9)."""
    s = position(seed, cards)
    hands, leader, trick, trump = ref_position(s)
    depth = 36 - cards
    assert sm_count(s, depth) == ref_count(hands, leader, trick, trump, depth) > 0


def arrays(s: sm.State) -> list[np.ndarray]:
    return [a.copy() for a in s]


def same(a: list, b: sm.State) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


def test_illegal_actions_are_refused_and_leave_the_state_unchanged():
    """RULES D2: a prediction out of 0..157, a card not held or not legal, anything after the end: False from the
    compiled apply, a CardsimError naming the action and the legal ones from the Python front; nothing moves."""
    s = GAME.deal(RULES, 7, 0, 0, -1, False)
    before = arrays(s)
    for bad in (-1, 158, 1000):
        assert not sm.apply(s, P, bad) and same(before, s)
    with pytest.raises(CardsimError, match="predicted 158; allowed: an integer from 0 to 157"):
        GAME.apply(RULES, s, 158)
    with pytest.raises(CardsimError, match="predicted True"):
        GAME.apply(RULES, s, True)
    assert same(before, s)
    for _ in range(4):
        GAME.apply(RULES, s, 50)
    seat = GAME.to_move(RULES, s)
    legal = int(sm.legal_cards(s, P))
    before = arrays(s)
    for card in range(-1, 37):
        if not (0 <= card < 36 and legal >> card & 1):
            assert not sm.apply(s, P, card) and same(before, s)
    other = JASS36.name_of(JASS36.cards_of(int(s.hands[(seat + 1) % 4]))[0])
    with pytest.raises(CardsimError, match=f"played {other}, which is not legal; legal: "):
        GAME.apply(RULES, s, other)
    assert same(before, s)
    while GAME.to_move(RULES, s) >= 0:
        GAME.apply(RULES, s, GAME.legal(RULES, s)[0])
    before = arrays(s)
    assert not sm.apply(s, P, 0) and same(before, s)
    with pytest.raises(CardsimError, match="the round is over"):
        GAME.apply(RULES, s, "SA")


def test_start_checks_the_hands_and_the_trump_card():
    with pytest.raises(CardsimError, match="must be in the dealer's"):
        GAME.start(RULES, HANDS, 3, trump_card="SA")
    with pytest.raises(CardsimError, match="each card once"):
        GAME.start(RULES, [HANDS[0]] * 4, 0, trump_card="SA")
    s = GAME.start(RULES, HANDS, 1, trump_card="H6")
    assert GAME.to_move(RULES, s) == 2 and GAME.record(RULES, s)["dealer"] == 1


def redeal(s: sm.State, seat: int, rng: np.ndarray, rules=RULES) -> sm.State:
    """``s`` with the other seats' unplayed cards dealt anew uniformly among the deals consistent with ``seat``'s
    view (counts, shown voids, the dealer's shown trump card: the exact sampler of ``cardsim.infoset``) and their
    predictions changed where ``seat`` cannot see them."""
    played = np.zeros(4, np.uint64)
    infoset = strong.infoset(seat, sm.observe(s, sm.params(RULES), seat), played)
    deal = np.zeros((1, 4), np.uint64)
    assert sample_deals(rng, 0, *infoset, deal)
    t = sm.copy_state(s)
    visible = np.empty(4, np.int64)
    sm.visible_predictions(s, sm.params(rules), seat, visible)
    for o in range(4):
        if o != seat:
            t.hands[o], t.dealt[o] = deal[0, o], deal[0, o] | played[o]
            if visible[o] < 0:
                t.predictions[o] = (s.predictions[o] + 1 + o) % 158
    return t


def observation_fields(rules, s, seat):
    obs = GAME.observation(rules, s, seat, None)
    return {k: v for k, v in vars(obs).items() if k != "rng"}


@pytest.mark.parametrize("rules", [RULES, OPEN], ids=["secret", "open"])
def test_observations_are_honest_at_every_decision(rules):
    """A seat's observation (the Python bot's Observation and the strong bots' ``observe``) is identical when only
    the other seats' hidden cards (and hidden predictions) are dealt anew, at every decision of many rounds, for
    the seat to move and for every other seat."""
    p = sm.params(rules)
    rnd, rng = random.Random(5), np.zeros((1, 4), np.uint64)
    seed_streams(rng, np.uint64(5), 0, 0)
    checked = 0
    for unit in range(8):
        s = GAME.deal(rules, 3, unit, 0, -1, False)
        while GAME.to_move(rules, s) >= 0:
            for seat in range(4):
                t = redeal(s, seat, rng, rules)
                assert observation_fields(rules, s, seat) == observation_fields(rules, t, seat)
                assert same(arrays(sm.observe(s, p, seat)), sm.observe(t, p, seat))
                checked += 1
            GAME.apply(rules, s, rnd.choice(GAME.legal(rules, s)))
    assert checked == 8 * 40 * 4


def test_a_strong_bot_decides_the_same_on_a_redealt_round():
    """mc and ismcts get only their seat's view and their own stream: the same decision after a consistent
    re-deal of the others' hidden cards with the same streams, at every decision of a few rounds."""
    rnd, rng = random.Random(2), np.zeros((1, 4), np.uint64)
    seed_streams(rng, np.uint64(2), 0, 0)
    for spec in ("mc:samples=4:bid_samples=4", "ismcts:iterations=20:bid_samples=4"):
        row = GAME.lineup(spec).table[0]
        for unit in range(2):
            s = GAME.deal(RULES, 9, unit, 0, -1, False)
            while GAME.to_move(RULES, s) >= 0:
                seat = GAME.to_move(RULES, s)
                t = redeal(s, seat, rng)
                assert strong.act(row, sm.copy_state(s), P, seat, sampler()) == strong.act(row, t, P, seat, sampler())
                GAME.apply(RULES, s, rnd.choice(GAME.legal(RULES, s)))


@njit(cache=True)
def everything_counts(view, p, seat, rng):  # noqa: ANN001, ANN201 (numba types)
    """A numba bot whose answer depends on every value of its view: a hash of them picks the legal action."""
    h = np.uint64(seat)
    for values in (view.slots, view.predictions, view.points, view.history.ravel()):
        for x in values:
            h = h * np.uint64(1000003) + np.uint64(x)
    for masks in (view.hands, view.dealt):
        for x in masks:
            h = h * np.uint64(1000003) + x
    out = np.empty(200, np.int64)
    n = sm.legal_actions(view, p, out)
    return out[h % np.uint64(n)]


def test_a_numba_bot_decides_the_same_on_a_redealt_round():
    """A numba bot is asked with its seat's view and its own stream: after a consistent re-deal of the others'
    hidden cards (and predictions) with the same streams, a bot that reads every value of its view answers the
    same, at every decision of a few rounds (a view showing another hand would change its hash)."""
    rnd, rng = random.Random(3), np.zeros((1, 4), np.uint64)
    seed_streams(rng, np.uint64(3), 0, 0)
    bot = GAME.lineup([everything_counts, "random", "random", "random"]).bots[0]
    for unit in range(4):
        s = GAME.deal(RULES, 9, unit, 0, -1, False)
        while GAME.to_move(RULES, s) >= 0:
            t = redeal(s, GAME.to_move(RULES, s), rng)
            assert GAME.numba_bot_action(RULES, sm.copy_state(s), bot) == GAME.numba_bot_action(RULES, t, bot)
            GAME.apply(RULES, s, rnd.choice(GAME.legal(RULES, s)))


@pytest.mark.parametrize("bots, rules", [("heuristic,random,heuristic,random", RULES), ("random", OPEN)])
def test_python_driver_equals_the_compiled_kernel_row_for_row(bots, rules):
    lineup = GAME.lineup(bots)
    for games in (False, True):
        fast = GAME.run(rules, lineup, 11, 0, 12, games=games).rows()
        slow = GAME.run(rules, lineup, 11, 0, 12, games=games, engine="python").rows()
        for key in fast:
            assert np.array_equal(fast[key], slow[key]), key


def test_bot_action_does_not_advance_the_round():
    s = GAME.deal(RULES, 4, 0, 0, -1, False)
    table = GAME.lineup("random,heuristic,random,heuristic").table
    before = arrays(s)
    seat = GAME.to_move(RULES, s)
    first = GAME.bot_action(RULES, s, table[seat])
    assert GAME.bot_action(RULES, s, table[seat]) == first and same(before, s)
    GAME.apply(RULES, s, first)
    assert GAME.run_bots(RULES, s, table) == -1
    assert GAME.record(RULES, s)["predictions"][seat] == first
