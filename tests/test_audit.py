"""``--check`` in the fast loops (``cardsim.audit`` and each game's ``audit_*`` hooks): every broken invariant is
flagged by its own bit, and ``audit.end`` says so when the round ends (the kernel then raises; ``audit.broken`` names
the invariant). The batch kernels call the same hooks; the
contract test (tests/test_contract.py) runs them over every built-in lineup and variant and finds no breach."""

from __future__ import annotations

import numpy as np
import pytest

from cardsim import audit
from cardsim.games.callpartner import state as callpartner
from cardsim.games.differenzler import state as differenzler
from cardsim.games.exact_tricks import state as wizard

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
    assert not audit.end(r, 2, 4)
    assert r[audit.STEPS] == 3 and audit.broken(r, CHECKS) == []


@pytest.mark.parametrize("dealt, size, others", [((0b0011, 0b0110), 2, 0), ((0b0011, 0b1100), 3, 0),
                                                 ((0b0011, 0b1100), 2, 0b1000)])  # fmt: skip
def test_a_deal_with_a_card_twice_or_a_wrong_size_is_refused(dealt, size, others):
    r = row()
    audit.deal(r, masks(*dealt), size, np.uint64(others), 0)
    assert audit.end(r, 2, 4) and audit.broken(r, CHECKS) == ["the deal"]


@pytest.mark.parametrize("hands, seat, card", [((0b0010, 0b1000), 0, 0),  # a card of seat 1 vanished too
                                               ((0b0011, 0b1100), 0, 0),  # the card stayed in the hand
                                               ((0b0011, 0b0100), 1, 2)])  # seat 1 played its 3 but said 2 # fmt: skip
def test_a_card_that_vanishes_stays_or_was_not_held_is_refused_at_the_rounds_end(hands, seat, card):
    r = row()
    audit.deal(r, masks(0b0011, 0b1100), 2, np.uint64(0), 0)
    broken = audit.bits(audit.card(r, masks(*hands), seat, card), 1)
    broken |= audit.bits(audit.card(r, masks(*hands), 1, 3), 1)  # the next step: the bit stays set
    audit.store(r, broken, 0)
    assert audit.end(r, 2, 4) and audit.broken(r, CHECKS) == ["the hands"]


def test_a_new_deal_clears_the_last_rounds_breach_but_not_the_step_count():
    r = row()
    audit.deal(r, masks(0b0011, 0b0011), 2, np.uint64(0), 0)
    r[audit.STEPS] = 5
    audit.deal(r, masks(0b0011, 0b1100), 2, np.uint64(0), 0)
    assert not audit.end(r, 2, 4)
    assert r[audit.STEPS] == 5


@pytest.mark.parametrize("points, broken", [((100, 57, 0, 0), False), ((100, 57, 0, 5), True),
                                            ((100, 52, 0, 0), True)])  # fmt: skip
def test_differenzler_points_that_do_not_add_up_to_157_when_the_round_ends_are_refused(points, broken):
    """Checked once, when the round is over (``audit_points``: a check per trick cost checked rounds 8%)."""
    r = row()
    bits = differenzler.audit_points(np.array(points, np.int64), *audit.load(r)[:1])
    audit.store(r, bits, 0)
    assert audit.broken(r, differenzler.CHECKS) == ([differenzler.CHECKS[2]] if broken else [])


@pytest.mark.parametrize("won, broken", [((1, 0, 0), False), ((0, 0, 0), True), ((1, 1, 0), True)])
def test_wizard_tricks_taken_that_do_not_add_up_when_a_trick_closes_are_refused(won, broken):
    dealt = masks(0b001, 0b010, 0b100)
    r = row()
    wizard.audit_deal(r, dealt, 1, -1)
    hands = masks(0, 0b010, 0b100)
    bits = wizard.audit_card(r, hands, np.array(won, np.int64), 0, 0, 0, 1, 0)  # as if it closed trick 1
    audit.store(r, bits, 0)
    assert audit.end(r, 3, 3) == broken
    assert audit.broken(r, wizard.CHECKS) == ([wizard.CHECKS[2]] if broken else [])


def test_wizard_a_deal_holding_the_turned_card_or_a_bid_above_the_cards_is_refused():
    r = row()
    wizard.audit_deal(r, masks(0b001, 0b010, 0b100), 1, 2)
    assert audit.end(r, 3, 3) and "without the turned card" in audit.broken(r, wizard.CHECKS)[0]
    wizard.audit_deal(r, masks(0b001, 0b010, 0b100), 1, 5)
    wizard.audit_bid(r, np.array([2, -1, -1], np.int64), 0, 1)
    assert audit.end(r, 3, 3) and "the bids made are 0..CARDS" in audit.broken(r, wizard.CHECKS)[0]


@pytest.mark.parametrize("taken, broken", [(None, False), (0, True)])
def test_callpartner_points_that_do_not_add_up_when_a_trick_closes_are_refused(taken, broken):
    r = row()
    card = next(c for c in range(52) if callpartner.card_points(np.uint64(1 << c)) > 0)
    dealt = masks(1 << card, 0, 0)
    audit.hands(r, dealt)
    bits, points_played = callpartner.audit_card(r, masks(0, 0, 0), 0, card, *audit.load(r))
    points = np.array([callpartner.card_points(np.uint64(1 << card)) if taken is None else taken, 0, 0], np.int64)
    audit.store(r, callpartner.audit_trick(points, bits, points_played), points_played)
    assert audit.end(r, 3, 1) == broken
    assert audit.broken(r, callpartner.CHECKS) == ([callpartner.CHECKS[2]] if broken else [])
