"""The Wizard round state machine (cardsim/games/wizard/state.py, issue 12): perft-style goldens, refused
actions, honest observations and strong-bot views, and the hooks the Python driver plays through."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import reference_wizard as ref

import bots.exact_tricks as builtin
import bots.exact_tricks_strong as strong
from cardsim.cards import WIZARD60
from cardsim.errors import CardsimError
from cardsim.games.exact_tricks import state as st
from cardsim.games.wizard.game import GAME
from cardsim.numba_bots import sampler

MC_ROW = np.array([2, 4, 4, 0, 0], np.float64)  # mc:samples=4:bid_samples=4
ISMCTS_ROW = np.array([3, 16, 0.7, 4, 0], np.float64)


def masks(*hands: str) -> list[int]:
    return [WIZARD60.mask(h) for h in hands]


def perft(rules, s) -> int:
    """Legal action sequences from ``s`` to the end of the round, through the public hooks (legal, apply)."""
    if GAME.to_move(rules, s) < 0:
        return 1
    total = 0
    for action in GAME.legal(rules, s):
        child = st.copy_state(s)
        GAME.apply(rules, child, action)
        total += perft(rules, child)
    return total


def ref_card_perft(hands: list[set[str]], leader: int, trump: str | None, tricks_left: int) -> int:
    """The same count for the card play by the plain-Python reference (B6 legal cards, B7 winner)."""
    players = len(hands)

    def trick(i: int, cards: list[str], hands: list[set[str]], left: int) -> int:
        if i == players:
            if left == 1:
                return 1
            winner = (leader_of[0] + ref.trick_winner(cards, trump)) % players
            return play(winner, hands, left - 1)
        seat = (leader_of[0] + i) % players
        total = 0
        for card in sorted(ref.legal_cards(hands[seat], cards)):
            rest = [h - {card} if s == seat else h for s, h in enumerate(hands)]
            total += trick(i + 1, cards + [card], rest, left)
        return total

    leader_of = [leader]

    def play(lead: int, hands: list[set[str]], left: int) -> int:
        saved = leader_of[0]
        leader_of[0] = lead
        count = trick(0, [], hands, left)
        leader_of[0] = saved
        return count

    return play(leader, hands, tricks_left)


# --- perft goldens -----------------------------------------------------------------------------------------------


def test_perft_bids_by_hand_plus_minus_one():
    """B5 by hand: 3 players, 1 card each, plus_minus_one: after bids (0,0) the dealer may not bid 1, after (0,1)
    or (1,0) not 0, after (1,1) anything: 1 + 1 + 1 + 2 = 5 bid sequences, one card each to play."""
    r = GAME.make_rules({"players": 3, "plus_minus_one": True})
    s = GAME.start(r, masks("S1", "H2", "D3"), dealer=2, turned="C4")
    assert GAME.decision(r, s) == "bid" and GAME.to_move(r, s) == 0
    assert perft(r, s) == 5
    assert perft(GAME.make_rules({"players": 3}), GAME.start(GAME.make_rules({"players": 3}), masks("S1", "H2", "D3"),
                                                             dealer=2, turned="C4")) == 8  # fmt: skip


def test_perft_turned_wizard_lets_the_dealer_name_four_suits():
    """B4: a turned Wizard: the dealer names one of 4 suits first; then 2^3 bids; one card each."""
    r = GAME.make_rules({"players": 3})
    s = GAME.start(r, masks("S1", "H2", "D3"), dealer=1, turned="W1")
    assert GAME.decision(r, s) == "trump" and GAME.to_move(r, s) == 1
    assert GAME.legal(r, s) == ["S", "H", "D", "C"]
    assert perft(r, s) == 4 * 8


def test_perft_cards_by_hand_voids():
    """B6 by hand: every seat void in every other seat's suits: 2 * 2 * 2 first tricks, then one way: 8."""
    r = GAME.make_rules({"players": 3})
    s = GAME.start(r, masks("S1 S2", "H1 H2", "D1 D2"), dealer=2, turned="C5")
    for bid in (0, 1, 0):
        GAME.apply(r, s, bid)
    assert GAME.decision(r, s) == "card"
    assert perft(r, s) == 8


@pytest.mark.parametrize(
    "hands, dealer, turned",
    [
        (("S1 H1 W1", "S2 H2 J1", "S3 D1 C1"), 2, "C5"),
        (("S13 S12 H3", "S1 W2 J4", "H13 D2 C3"), 0, "S5"),
        (("W1 J1 H7", "H8 H9 C1", "J2 S4 D13", "W3 C2 H1"), 3, "J3"),
        (("S1 S2 S3", "S4 S5 H1", "W1 W2 J1", "H2 D3 C4"), 1, None),
    ],
)
def test_perft_cards_match_the_reference(hands, dealer, turned):
    """Card sequences from hand-built end positions: the state machine's count equals the reference's."""
    players = len(hands)
    r = GAME.make_rules({"players": players})
    s = GAME.start(r, masks(*hands), dealer=dealer, turned=turned)
    if GAME.decision(r, s) == "trump":
        GAME.apply(r, s, "H")
    for _ in range(players):
        GAME.apply(r, s, 1)
    trump = GAME.record(r, s)["trump"]
    expected = ref_card_perft([set(h.split()) for h in hands], (dealer + 1) % players, trump, len(hands[0].split()))
    assert perft(r, s) == expected > 1


# --- refused actions ---------------------------------------------------------------------------------------------


def _snapshot(s) -> list[np.ndarray]:
    return [a.copy() for a in s]


def _same(s, snap) -> bool:
    return all(np.array_equal(a, b) for a, b in zip(s, snap, strict=True))


def test_illegal_actions_are_refused_and_leave_the_state_unchanged():
    """D2: every decision refuses what is not legal, compiled (False) and public (CardsimError naming it and the
    legal ones); the state, its random streams included, is unchanged."""
    r = GAME.make_rules({"players": 4, "plus_minus_one": True})
    p = st.params(r)
    s = GAME.start(r, masks("W1 H2", "S1 S2", "H1 D3", "C1 C2"), dealer=3, turned="W2")
    snap = _snapshot(s)
    for code in (-1, 4, 99):
        assert not st.apply(s, p, code) and _same(s, snap)
    for bad in ("N", None, 1, "hearts"):
        with pytest.raises(CardsimError, match=r"named .*; allowed: one of S, H, D, C"):
            GAME.apply(r, s, bad)
        assert _same(s, snap)
    GAME.apply(r, s, "s")
    for bid in (0, 0, 1):
        GAME.apply(r, s, bid)
    snap = _snapshot(s)
    assert GAME.legal(r, s) == [0, 2]  # the dealer may not make the bids add up to 2
    for code in (-1, 1, 3):
        assert not st.apply(s, p, code) and _same(s, snap)
    with pytest.raises(CardsimError, match=r"bid 1; allowed: one of 0, 2$"):
        GAME.apply(r, s, 1)
    with pytest.raises(CardsimError, match=r"bid True; allowed: one of 0, 2 \(an int, not a bool\)$"):
        GAME.apply(r, s, True)
    assert _same(s, snap)
    GAME.apply(r, s, 0)
    assert GAME.decision(r, s) == "card" and GAME.to_move(r, s) == 0
    GAME.apply(r, s, "H2")  # seat 0 leads hearts
    snap = _snapshot(s)
    assert GAME.legal(r, s) == ["S1", "S2"]  # seat 1 has no heart: anything
    GAME.apply(r, s, "S1")
    assert GAME.legal(r, s) == ["H1"]  # seat 2 must follow hearts
    snap = _snapshot(s)
    for code in (WIZARD60.parse("D3"), WIZARD60.parse("S2"), 60, -1):
        assert not st.apply(s, p, code) and _same(s, snap)
    with pytest.raises(CardsimError, match=r"played D3, which is not legal; legal: H1$"):
        GAME.apply(r, s, "D3")
    with pytest.raises(CardsimError, match=r"played 'X9', which is not legal"):
        GAME.apply(r, s, "X9")
    assert _same(s, snap)


def test_done_round_refuses_everything():
    r = GAME.make_rules({"players": 3})
    s = GAME.start(r, masks("S1", "H2", "D3"), dealer=2, turned="C4")
    while GAME.to_move(r, s) >= 0:
        GAME.apply(r, s, GAME.legal(r, s)[0])
    assert GAME.decision(r, s) == "done" and GAME.legal(r, s) == []
    assert GAME.scores(r, s) == [-10, 20, 20]  # bids 0,0,0: S1 leads, nobody follows spades: seat 0 takes it
    with pytest.raises(CardsimError, match="round is over"):
        GAME.apply(r, s, 0)


def test_start_refuses_bad_hands():
    r = GAME.make_rules({"players": 3})
    with pytest.raises(CardsimError, match="same number of cards"):
        GAME.start(r, masks("S1 S2", "H2", "D3"), dealer=0)
    with pytest.raises(CardsimError, match="share a card"):
        GAME.start(r, masks("S1", "S1", "D3"), dealer=0)
    with pytest.raises(CardsimError, match="turned card"):
        GAME.start(r, masks("S1", "H1", "D3"), dealer=0, turned="S1")


# --- honest observations -------------------------------------------------------------------------------------------


def redeal_others(s, seat: int, gen: np.random.Generator):
    """A copy of ``s`` where every other seat's cards still held and the undealt stack are dealt anew (same
    counts); the seat's own hand, the turned card, the plays and the random streams stay."""
    t = st.copy_state(s)
    players = len(t.hands)
    played = 0
    for k in range(int(t.slots[st.N_PLAYED])):
        played |= 1 << int(t.log[k, 1])
    turned = int(t.slots[st.TURNED])
    hidden = ((1 << 60) - 1) & ~int(t.hands[seat]) & ~played & ~((1 << turned) if turned >= 0 else 0)
    pool = [c for c in range(60) if hidden >> c & 1]
    gen.shuffle(pool)
    for other in range(players):
        if other == seat:
            continue
        n = bin(int(t.hands[other])).count("1")
        old = int(t.hands[other])
        new = sum(1 << c for c in pool[:n])
        pool = pool[n:]
        t.hands[other] = np.uint64(new)
        t.dealt[other] = np.uint64(int(t.dealt[other]) & ~old | new)
    return t


def _observed(obs) -> dict:
    fields = dataclasses.asdict(obs)
    fields.pop("rng")
    return fields


@pytest.mark.parametrize("bidding, players", [("open", 4), ("hidden", 3), ("secret", 5)])
def test_observation_and_strong_decisions_ignore_hidden_cards(bidding, players):
    """A seat's observation, and an mc / ismcts bot's decision for it, are identical when the other seats' hidden
    cards are dealt anew, at every decision of many rounds; nor does the strong bot read the deal stream or other
    seats' streams (they are scrambled in the copy too)."""
    r = GAME.make_rules({"players": players, "cards": 4, "bidding": bidding})
    p = st.params(r)
    table = GAME.lineup(",".join((["heuristic", "random"] * 3)[:players]), r).table
    gen = np.random.default_rng(7)
    checked = strong_checked = 0
    for unit in range(6):
        s = GAME.deal(r, 31, unit, 0, -1, False)
        while (seat := GAME.to_move(r, s)) >= 0:
            base = _observed(GAME.observation(r, s, seat, None))
            for _ in range(2):
                other = redeal_others(s, seat, gen)
                assert _observed(GAME.observation(r, other, seat, None)) == base
                checked += 1
            if GAME.decision(r, s) != "trump" and unit < 3:
                for row in (MC_ROW, ISMCTS_ROW):
                    mine = strong.act(row, st.copy_state(s), p, seat, sampler())
                    other = redeal_others(s, seat, gen)
                    other.rng[:] = gen.integers(0, 2**63, other.rng.shape, dtype=np.uint64)
                    assert strong.act(row, other, p, seat, sampler()) == mine
                    strong_checked += 1
            action = int(builtin.act(int(table[seat, 0]), s, p, seat))
            assert st.apply(s, p, action)
    assert checked > 100 and strong_checked > 30


def test_observation_carries_no_round_key():
    """The observation has no seed, round or game_round (they would let a bot rebuild the deal)."""
    r = GAME.make_rules()
    s = GAME.deal(r, 5, 0, 0, -1, False)
    names = {f.name for f in dataclasses.fields(GAME.observation(r, s, int(GAME.to_move(r, s)), None))}
    assert not names & {"seed", "round", "game_round", "unit", "sub"}


# --- hooks -------------------------------------------------------------------------------------------------------


def test_bot_action_does_not_advance_the_round():
    r = GAME.make_rules({"cards": 5})
    s = GAME.deal(r, 3, 2, 0, -1, False)
    snap = _snapshot(s)
    first = [GAME.bot_action(r, s, row) for row in (np.array([0, 0, 0, 0, 0.0]), MC_ROW, ISMCTS_ROW)]
    assert _same(s, snap)
    assert first == [GAME.bot_action(r, s, row) for row in (np.array([0, 0, 0, 0, 0.0]), MC_ROW, ISMCTS_ROW)]
    assert all(a in GAME.legal(r, s) for a in first)


def test_python_driver_equals_the_compiled_kernel_games():
    """Row for row, whole games: the batch kernel and the Python driver (Game hooks) over the same states."""
    r = GAME.make_rules({"players": 5, "schedule": "five_rounds", "plus_minus_one": True})
    lu = GAME.lineup("heuristic,random,heuristic,random,random", r)
    fast = GAME.run(r, lu, 9, 3, 4, True).rows()
    slow = GAME.run(r, lu, 9, 3, 4, True, engine="python").rows()
    for key in fast:
        assert np.array_equal(fast[key], slow[key]), key


def test_record_of_a_replayed_round():
    r = GAME.make_rules({"players": 3, "cards": 2})
    record = GAME.replay(r, GAME.lineup("random", r), 4, 1, None)
    assert len(record["tricks"]) == 2 and sum(record["tricks_won"]) == 2
    assert all(len(t["cards"]) == 3 for t in record["tricks"])
    assert record["scores"] == [ref.score(b, t) for b, t in zip(record["bids"], record["tricks_won"], strict=True)]
