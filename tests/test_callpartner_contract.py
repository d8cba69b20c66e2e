"""Issue 6 for call-partner: the strong bot ``mc`` calls its partner card and discards by expected score (C5, C6).

Deals come from the Python driver (the compiled driver gives the same rows: tests/test_callpartner_strong.py); the
checks recompute the candidates from the deal records and the heuristic's public functions.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_callpartner_strong import deal_records

import bots.callpartner_strong as strong
from bots.callpartner import heuristic_call, heuristic_discard
from cardsim.cards import FRENCH52
from cardsim.games.callpartner import state as sm
from cardsim.games.callpartner.game import GAME
from cardsim.games.callpartner.play import SUIT_LETTERS
from cardsim.games.callpartner.rules import BY_KEY, KITTY_SIZE
from cardsim.rng import seed_streams

MC = "mc:samples=3:bid_samples=4:contract_samples={}"


def declared_by_mc(players: int, contract_samples: int, units: range, **options) -> list:
    """Deal records (Python driver) in which an ``mc`` seat declared; ``mc`` sits at the even seats."""
    rules = GAME.make_rules({**options, "players": players})
    names = [MC.format(contract_samples) if s % 2 == 0 else "heuristic" for s in range(players)]
    lineup = GAME.lineup(names, rules)
    recs = deal_records(3, units, rules, lineup)
    return [r for r in recs if r.declarer >= 0 and r.declarer % 2 == 0]


def call_candidates(hand: int, trump: int) -> list[int]:
    """The 4 strongest cards not in the hand, strongest first (the heuristic calls the first)."""
    return [int(c) for c in BY_KEY[trump] if not hand >> int(c) & 1][:4]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_calls_and_discards_are_legal_candidates_and_sometimes_not_the_heuristics(players):
    k = KITTY_SIZE[players]
    recs = declared_by_mc(players, 16, range(40))
    assert len(recs) >= 5
    differ = 0
    for rec in recs:
        hand, full = rec.hands[rec.declarer], rec.hands[rec.declarer] | rec.kitty
        assert not hand >> rec.called & 1 and rec.called in call_candidates(hand, rec.trump)  # C5
        assert bin(rec.discards).count("1") == k and rec.discards & ~full == 0  # C6
        pool = int(heuristic_discard(np.uint64(full), np.uint64(0), k + 2, rec.trump, True))
        assert rec.discards & ~pool == 0
        differ += rec.called != call_candidates(hand, rec.trump)[0]
        differ += rec.discards != int(heuristic_discard(np.uint64(full), np.uint64(0), k, rec.trump, True))
    print(f"{players} players: {len(recs)} contracts, {differ} calls or discards not the heuristic's")
    assert differ > 0


@pytest.mark.parametrize("players, discards_count", [(4, True), (5, False)])
def test_no_contract_samples_call_and_discard_as_the_heuristic(players, discards_count):
    recs = declared_by_mc(players, 0, range(30), discards_count=discards_count)
    assert len(recs) >= 5
    for rec in recs:
        hand = np.uint64(rec.hands[rec.declarer])
        assert rec.called == heuristic_call(hand, rec.trump)
        assert rec.discards == heuristic_discard(hand | np.uint64(rec.kitty), np.uint64(0), KITTY_SIZE[players],
                                                 rec.trump, discards_count)  # fmt: skip


def test_the_discards_keep_the_points_a_bid_of_20_needs():
    """Bid 20 with discards not counting (C6): discarding a point card fails the bid for sure. The declarer holds
    every trump but the 2 and 3 of spades, two aces and two 2s; the heuristic discards its four side cards (two
    aces: a certain -20). The MC discard keeps both aces (its only candidate without points: the two side 2s and
    the two lowest trumps it holds) because that one can reach 20."""
    full = np.uint64(FRENCH52.mask("SA SJ CJ SK SQ ST S9 S8 S7 S6 S5 S4 HA H2 DA D2"))
    trump, seat, dealer = SUIT_LETTERS.index("S"), 1, 0  # the declarer leads the first trick
    assert int(heuristic_discard(full, np.uint64(0), 4, trump, False)) == FRENCH52.mask("HA H2 DA D2")
    rng = np.empty((6, 4), np.uint64)
    seed_streams(rng, np.uint64(5), 0, 0)
    called = FRENCH52.parse("CA")
    v = strong.View(seat, full, dealer, trump, seat, 20, called, np.uint64(0), np.empty(0, np.int64), 0)
    p = sm.params(GAME.make_rules({"discards_count": False}))
    tools = GAME.strong_tools(sm.new_state(p.players), p)
    chosen = int(strong.mc_discard(*tools[:2], 32, rng, 1 + seat, v, p, np.empty(0, np.uint64)))
    assert chosen == FRENCH52.mask("S4 S5 H2 D2")
    # Discards begun by another player of the seat (a Round: one made by hand, the bot asked for the rest): the
    # bot chooses the rest by the same play-outs, here the three cards of its best choice besides the one made.
    made = np.uint64(FRENCH52.mask("S4"))
    begun = strong.View(seat, full & ~made, dealer, trump, seat, 20, called, made, np.empty(0, np.int64), 0)
    seed_streams(rng, np.uint64(5), 0, 0)
    chosen = int(strong.mc_discard(*tools[:2], 32, rng, 1 + seat, begun, p, np.empty(0, np.uint64)))
    assert chosen == FRENCH52.mask("S5 H2 D2")
