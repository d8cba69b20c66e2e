"""Wizard's state module has the state API of every game (issue 12): ``copy_state``, ``scores(s, p, out)``,
``observe(s, p, seat)`` (the seat's honest view as a State) and ``bot_stream``; its kernels take named bundles, at
most 8 arguments."""

from __future__ import annotations

import inspect

import numpy as np
import pytest
from numba.core.registry import CPUDispatcher
from test_wizard_state import redeal_others

import bots.exact_tricks as builtin
import bots.exact_tricks_strong as strong
import cardsim.games.exact_tricks.advise
import cardsim.games.exact_tricks.play
import cardsim.games.exact_tricks.rules
from cardsim.games.exact_tricks import state as st
from cardsim.games.wizard.game import GAME
from cardsim.numba_bots import sampler

VARIANTS = [("open", 4, False), ("open", 3, True), ("hidden", 5, False), ("secret", 4, False)]


def rounds(bidding: str, players: int, plus_minus_one: bool, units: int = 4):
    """(rules, params, state) at every decision of ``units`` heuristic/random single rounds of 5 cards."""
    r = GAME.make_rules({"players": players, "cards": 5, "bidding": bidding, "plus_minus_one": plus_minus_one})
    p = st.params(r)
    table = GAME.lineup(",".join((["heuristic", "random"] * 3)[:players]), r).table
    for unit in range(units):
        s = GAME.deal(r, 17, unit, 0, -1, False)
        while (seat := GAME.to_move(r, s)) >= 0:
            yield r, p, s
            assert st.apply(s, p, int(builtin.act(int(table[seat, 0]), s, p, seat)))
        yield r, p, s  # the finished round


def hide(s, p, seat: int, gen: np.random.Generator):
    """A copy of ``s`` with everything ``seat`` may not see changed: the other hands (and so the undealt stack)
    dealt anew among the hidden cards, the bids it may not see, the streams and the round's key."""
    t = redeal_others(s, seat, gen)
    for other in range(len(t.hands)):
        if other != seat and t.bids[other] >= 0 and not st.bid_seen(s, p, seat, other):
            t.slots[st.BID_TOTAL] += 1
            t.bids[other] += 1
    n_played = int(t.slots[st.N_PLAYED])
    t.log[n_played:] = gen.integers(0, 60, t.log[n_played:].shape)  # a former round's rows
    t.rng[:] = gen.integers(0, 2**63, t.rng.shape, dtype=np.uint64)
    t.bot_rng[:] = gen.integers(0, 2**63, t.bot_rng.shape, dtype=np.uint64)
    t.slots[[st.SEED, st.UNIT, st.SUB, st.BOT_SEEDED]] = gen.integers(0, 2**40, 4)
    return t


@pytest.mark.parametrize("bidding, players, plus_minus_one", VARIANTS)
def test_observe_keeps_the_seat_view_and_blanks_the_rest(bidding, players, plus_minus_one):
    checked = 0
    for _, p, s in rounds(bidding, players, plus_minus_one):
        n_played = int(s.slots[st.N_PLAYED])
        for seat in range(players):
            v = st.observe(s, p, seat)
            assert [int(h) for h in v.hands] == [int(h) if o == seat else 0 for o, h in enumerate(s.hands)]
            assert [int(h) for h in v.dealt] == [int(h) if o == seat else 0 for o, h in enumerate(s.dealt)]
            seen = [int(b) if st.bid_seen(s, p, seat, o) else -1 for o, b in enumerate(s.bids)]
            assert list(v.bids) == seen
            if bidding == "open":
                assert seen == list(s.bids)  # every bid made is seen
            assert list(v.won) == list(s.won)
            assert np.array_equal(v.log[:n_played], s.log[:n_played]) and not v.log[n_played:].any()
            assert not v.rng.any() and not v.bot_rng.any()
            blank = [st.SEED, st.UNIT, st.SUB, st.BOT_SEEDED]
            assert not v.slots[blank].any()
            assert v.slots[st.BID_TOTAL] == sum(b for b in seen if b >= 0)
            public = np.ones(st.SLOTS, bool)
            public[[*blank, st.BID_TOTAL]] = False
            assert np.array_equal(v.slots[public], s.slots[public])
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("bidding, players, plus_minus_one", VARIANTS)
def test_observe_does_not_change_with_what_the_seat_may_not_see(bidding, players, plus_minus_one):
    gen = np.random.default_rng(3)
    checked = 0
    for _, p, s in rounds(bidding, players, plus_minus_one):
        for seat in range(players):
            mine = st.observe(s, p, seat)
            other = st.observe(hide(s, p, seat, gen), p, seat)
            assert all(np.array_equal(a, b) for a, b in zip(mine, other, strict=True))
            checked += 1
    assert checked > 100


def test_the_view_keeps_the_legal_actions_of_the_seat_to_move():
    """The seat to move decides from its view: the same legal actions (and refused bid under plus_minus_one)."""
    out, out_v = np.empty(61, np.int64), np.empty(61, np.int64)
    for bidding, players, plus_minus_one in VARIANTS:
        for _, p, s in rounds(bidding, players, plus_minus_one, units=2):
            seat = int(st.to_move(s))
            if seat >= 0:
                v = st.observe(s, p, seat)
                n = st.legal_actions(s, p, out)
                assert st.legal_actions(v, p, out_v) == n and list(out[:n]) == list(out_v[:n])
                assert st.refused(v, p) == st.refused(s, p)


def test_copy_state_copies_the_round_and_its_draws():
    r = GAME.make_rules({"players": 4, "cards": 6})
    s = GAME.deal(r, 5, 2, 0, -1, False)
    t = st.copy_state(s)
    assert all(np.array_equal(a, b) and a is not b for a, b in zip(s, t, strict=True))
    table = GAME.lineup("random", r).table
    assert GAME.run_bots(r, t, table) == -1
    assert s.slots[st.N_PLAYED] == 0 and t.slots[st.N_PLAYED] == 24  # the copy played on, the round did not
    assert GAME.run_bots(r, s, table) == -1
    assert all(np.array_equal(a, b) for a, b in zip(s, t, strict=True))  # the same draws


def test_scores_takes_the_params_as_in_every_game():
    r = GAME.make_rules({"players": 3, "cards": 4})
    p = st.params(r)
    s = GAME.deal(r, 9, 0, 0, -1, False)
    GAME.run_bots(r, s, GAME.lineup("heuristic", r).table)
    out = np.zeros(3, np.int64)
    st.scores(s, p, out)
    assert list(out) == [20 + 10 * w if b == w else -10 * abs(b - w) for b, w in zip(s.bids, s.won, strict=True)]
    assert GAME.scores(r, s) == list(out)


def test_a_strong_bot_decides_from_the_view_and_its_own_stream():
    """``act`` equals ``bid``/``play`` on ``observe`` with the seat's private stream (row 0 of ``bot_stream``)."""
    r = GAME.make_rules({"players": 4, "cards": 5, "bidding": "hidden"})
    p = st.params(r)
    for row in (np.array([builtin.MC, 6, 6, 0, 0], np.float64), np.array([builtin.ISMCTS, 20, 0.7, 6, 0], np.float64)):
        for _, _, s in rounds("hidden", 4, False, units=2):
            seat = int(st.to_move(s))
            if seat < 0 or s.slots[st.PHASE] == st.TRUMP:
                continue
            t = st.copy_state(s)
            me = strong.Means(st.bot_stream(t, seat), 0, np.empty(0, np.uint64), False, sampler())
            ask = strong.bid if s.slots[st.PHASE] == st.BID else strong.play
            assert strong.act(row, s, p, seat, sampler()) == ask(row, st.observe(t, p, seat), p, seat, me)


WIZARD_MODULES = [st, cardsim.games.exact_tricks.rules, cardsim.games.exact_tricks.play,
                  cardsim.games.exact_tricks.advise, builtin, strong]  # fmt: skip


@pytest.mark.parametrize("module", WIZARD_MODULES, ids=lambda m: m.__name__)
def test_no_wizard_kernel_takes_more_than_8_arguments(module):
    """Issue 12 item 6: named bundles (the view State, Params, small NamedTuples) instead of long positional lists;
    kernels inlined into their callers (``inline="always"``), which pass registers, are exempt."""
    long = {}
    for name, kernel in vars(module).items():
        if isinstance(kernel, CPUDispatcher) and kernel.__module__ == module.__name__:
            n = len(inspect.signature(kernel.py_func).parameters)
            if n > 8 and kernel.targetoptions.get("inline", "never") != "always":
                long[name] = n
    assert not long
