"""``--check`` in the fast loops (``cardsim.audit`` and each game's ``audit_*`` hooks): every broken invariant is
flagged by its own bit and raised, with its name, when the round ends. The batch kernels call the same hooks; the
contract test (tests/test_contract.py) runs them over every built-in lineup and variant and finds no breach."""

from __future__ import annotations

import numpy as np
import pytest

from cardsim import audit
from cardsim.errors import BotFailure
from cardsim.games.callpartner import state as callpartner
from cardsim.games.differenzler import state as differenzler
from cardsim.games.wizard import state as wizard

CHECKS = ("the deal", "the hands", "the points")


def row() -> np.ndarray:
    return np.zeros(audit.SLOTS, np.uint64)


def masks(*values: int) -> np.ndarray:
    return np.array(values, np.uint64)


def test_a_round_that_keeps_its_invariants_passes_and_counts_its_cards():
    r = row()
    audit.deal(r, masks(0b0011, 0b1100), 2, np.uint64(0), 0)
    assert not audit.card(r, masks(0b0010, 0b1100), 0, 0)
    assert not audit.card(r, masks(0b0010, 0b0100), 1, 3)
    audit.decision(r, False, 2)
    audit.end(r, 2, 4, "Test", CHECKS)
    assert r[audit.STEPS] == 3 and r[audit.BROKEN] == 0


@pytest.mark.parametrize("dealt, size, others", [((0b0011, 0b0110), 2, 0), ((0b0011, 0b1100), 3, 0),
                                                 ((0b0011, 0b1100), 2, 0b1000)])  # fmt: skip
def test_a_deal_with_a_card_twice_or_a_wrong_size_is_refused(dealt, size, others):
    r = row()
    audit.deal(r, masks(*dealt), size, np.uint64(others), 0)
    with pytest.raises(BotFailure, match=r"Test round broke an invariant \(--check\): the deal"):
        audit.end(r, 2, 4, "Test", CHECKS)


@pytest.mark.parametrize("hands, seat, card", [((0b0010, 0b1000), 0, 0),  # a card of seat 1 vanished too
                                               ((0b0011, 0b1100), 0, 0),  # the card stayed in the hand
                                               ((0b0011, 0b0100), 1, 2)])  # seat 1 played its 3 but said 2 # fmt: skip
def test_a_card_that_vanishes_stays_or_was_not_held_is_refused_at_the_rounds_end(hands, seat, card):
    r = row()
    audit.deal(r, masks(0b0011, 0b1100), 2, np.uint64(0), 0)
    broken = audit.bits(audit.card(r, masks(*hands), seat, card), 1)
    broken |= audit.bits(audit.card(r, masks(*hands), 1, 3), 1)  # the next step: the bit stays set
    audit.store(r, broken, 0)
    with pytest.raises(BotFailure, match=r"broke an invariant \(--check\): the hands"):
        audit.end(r, 2, 4, "Test", CHECKS)


def test_a_new_deal_clears_the_last_rounds_breach_but_not_the_step_count():
    r = row()
    audit.deal(r, masks(0b0011, 0b0011), 2, np.uint64(0), 0)
    r[audit.STEPS] = 5
    audit.deal(r, masks(0b0011, 0b1100), 2, np.uint64(0), 0)
    audit.end(r, 2, 4, "Test", CHECKS)
    assert r[audit.STEPS] == 5


@pytest.mark.parametrize("taken, broken", [(None, False), (0, True)])
def test_differenzler_points_that_do_not_add_up_when_a_trick_closes_are_refused(taken, broken):
    dealt = masks(*(((1 << 9) - 1) << (9 * seat) for seat in range(4)))  # seat s holds cards 9s .. 9s + 8
    card = next(c for c in range(9) if differenzler.POINTS[0, c] > 0)
    r = row()
    differenzler.audit_deal(r, dealt)
    hands = dealt.copy()
    hands[0] ^= np.uint64(1 << card)
    points = np.array([differenzler.POINTS[0, card] if taken is None else taken, 0, 0, 0], np.int64)
    bits, points_played = differenzler.audit_card(r, hands, points, 0, card, 0, 1, 0, *audit.load(r))  # trick 1
    audit.store(r, bits, points_played)
    if broken:
        with pytest.raises(BotFailure, match="differenzler round broke an invariant .*: the tricks' points add up"):
            audit.end(r, 4, 36, "differenzler", differenzler.CHECKS)
    else:
        audit.end(r, 4, 36, "differenzler", differenzler.CHECKS)


@pytest.mark.parametrize("won, broken", [((1, 0, 0), False), ((0, 0, 0), True), ((1, 1, 0), True)])
def test_wizard_tricks_taken_that_do_not_add_up_when_a_trick_closes_are_refused(won, broken):
    dealt = masks(0b001, 0b010, 0b100)
    r = row()
    wizard.audit_deal(r, dealt, 1, -1)
    hands = masks(0, 0b010, 0b100)
    bits = wizard.audit_card(r, hands, np.array(won, np.int64), 0, 0, 0, 1, 0)  # as if it closed trick 1
    audit.store(r, bits, 0)
    if broken:
        with pytest.raises(BotFailure, match="wizard round broke an invariant .*: the tricks taken add up"):
            audit.end(r, 3, 3, "wizard", wizard.CHECKS)
    else:
        audit.end(r, 3, 3, "wizard", wizard.CHECKS)


def test_wizard_a_deal_holding_the_turned_card_or_a_bid_above_the_cards_is_refused():
    r = row()
    wizard.audit_deal(r, masks(0b001, 0b010, 0b100), 1, 2)
    with pytest.raises(BotFailure, match="without the turned card"):
        audit.end(r, 3, 3, "wizard", wizard.CHECKS)
    wizard.audit_deal(r, masks(0b001, 0b010, 0b100), 1, 5)
    wizard.audit_bid(r, np.array([2, -1, -1], np.int64), 0, 1)
    with pytest.raises(BotFailure, match="the bids made are 0..CARDS"):
        audit.end(r, 3, 3, "wizard", wizard.CHECKS)


@pytest.mark.parametrize("taken, broken", [(None, False), (0, True)])
def test_callpartner_points_that_do_not_add_up_when_a_trick_closes_are_refused(taken, broken):
    r = row()
    card = next(c for c in range(52) if callpartner.card_points(np.uint64(1 << c)) > 0)
    dealt = masks(1 << card, 0, 0)
    audit.hands(r, dealt)
    bits, points_played = callpartner.audit_card(r, masks(0, 0, 0), 0, card, *audit.load(r))
    points = np.array([callpartner.card_points(np.uint64(1 << card)) if taken is None else taken, 0, 0], np.int64)
    audit.store(r, callpartner.audit_trick(points, bits, points_played), points_played)
    if broken:
        with pytest.raises(BotFailure, match="callpartner round broke an invariant .*: the tricks' points add up"):
            audit.end(r, 3, 1, "callpartner", callpartner.CHECKS)
    else:
        audit.end(r, 3, 1, "callpartner", callpartner.CHECKS)
