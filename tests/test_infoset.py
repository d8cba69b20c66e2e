"""Issue 6 item 1: info sets and the exact deal sampler: every sample consistent, exact counts, unbiased draws."""

import math
import re
from pathlib import Path

import numpy as np
import pytest
from conftest import STRONG_BOTS
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit, prange

import cardsim
from cardsim import CardsimError, new_round
from cardsim.cards import JASS36
from cardsim.cli import main
from cardsim.errors import BotFailure
from cardsim.games import GAMES, game_info, get_game
from cardsim.games.differenzler.rules import PUUR, SUIT_MASK
from cardsim.infoset import _sort_codes as sort_codes
from cardsim.infoset import (
    count_deals,
    new_infoset,
    observe_play,
    place_known,
    reveal_void,
    sample_deal,
    sample_deals,
    sample_view,
)
from cardsim.numba_bots import sampler
from cardsim.rng import seed_streams

EXAMPLES = str(Path(__file__).resolve().parent.parent / "bots" / "examples.py")


def streams(seed: int) -> np.ndarray:
    rng = np.empty((2, 4), np.uint64)
    seed_streams(rng, np.uint64(seed), 0, 0)
    return rng


def arrays(counts, forbidden, known):
    return np.array(counts, np.int64), np.array(forbidden, np.uint64), np.array(known, np.uint64)


def draw(seed, unseen, counts, forbidden, known, samples):
    hands = np.zeros((samples, len(counts)), np.uint64)
    ok = sample_deals(streams(seed), 1, np.uint64(unseen), *arrays(counts, forbidden, known), hands)
    return ok, hands


def enumerate_deals(unseen, counts, forbidden, known):
    """Every consistent deal, by brute force over each card's seat (small cases only)."""
    deals = []

    def place(cards, hands):
        if not cards:
            if all(bin(h).count("1") == c for h, c in zip(hands, counts, strict=True)):
                deals.append(tuple(hands))
            return
        card, rest = cards[0], cards[1:]
        for s in range(len(counts)):
            others_know = any(known[t] >> card & 1 for t in range(len(counts)) if t != s)
            if not (forbidden[s] >> card & 1 or others_know or bin(hands[s]).count("1") >= counts[s]):
                place(rest, hands[:s] + [hands[s] | 1 << card] + hands[s + 1 :])

    place([c for c in range(64) if unseen >> c & 1], [0] * len(counts))
    return deals


def assert_consistent(hands, unseen, counts, forbidden, known):
    union = 0
    for s, hand in enumerate(int(h) for h in hands):
        assert bin(hand).count("1") == counts[s]
        assert hand & union == 0, "two seats hold the same card"
        assert hand & int(forbidden[s]) == 0, "a seat holds a card it cannot hold"
        assert hand & int(known[s]) == int(known[s]), "a known card is elsewhere"
        union |= hand
    assert union == unseen


def chi_square_threshold(df: int, z: float = 6.0) -> float:
    """Wilson-Hilferty upper quantile of chi-square(df) at normal z (z = 6: false alarm about 1e-9)."""
    a = 2 / (9 * df)
    return df * (1 - a + z * math.sqrt(a)) ** 3


def chi_square(observed, expected) -> float:
    return sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))


@st.composite
def small_infosets(draw_):
    """Up to 9 unseen cards (3 suits of 3) among 2-4 seats, with random voids, other forbidden cards and known
    cards: may be impossible."""
    seats = draw_(st.integers(2, 4))
    unseen = draw_(st.integers(0, 511))
    cards = [c for c in range(9) if unseen >> c & 1]
    owner = [draw_(st.integers(0, seats - 1)) for _ in cards]
    counts = [owner.count(s) for s in range(seats)]
    if draw_(st.booleans()) and seats > 1:  # sometimes move one card's count elsewhere
        s, t = draw_(st.integers(0, seats - 1)), draw_(st.integers(0, seats - 1))
        if counts[s]:
            counts[s], counts[t] = counts[s] - 1, counts[t] + 1
    voids = [sum(0b111 << 3 * suit for suit in draw_(st.sets(st.integers(0, 2), max_size=2))) for _ in range(seats)]
    forbidden = [(void | draw_(st.sampled_from([0, 0, 1 << draw_(st.integers(0, 8))]))) & unseen for void in voids]
    known = [0] * seats
    for card in cards:
        if draw_(st.integers(0, 5)) == 0:
            known[draw_(st.integers(0, seats - 1))] |= 1 << card
    return unseen, counts, forbidden, known


@settings(max_examples=300, deadline=None)
@given(case=small_infosets(), seed=st.integers(0, 2**64 - 1))
def test_counts_match_enumeration_and_samples_are_consistent(case, seed):
    """The exact count equals brute-force enumeration; a sample is one of the enumerated deals, or False if none."""
    unseen, counts, forbidden, known = case
    deals = enumerate_deals(*case)
    assert count_deals(*case) == len(deals)
    ok, hands = draw(seed, *case, samples=5)
    assert ok == bool(deals)
    if ok:
        for row in hands:
            assert tuple(int(h) for h in row) in set(deals)


@st.composite
def large_infosets(draw_):
    """A deck of 36-60 cards split by a hidden true deal among 3-6 seats; voids and known cards drawn from that
    deal so a consistent deal always exists."""
    size = draw_(st.integers(36, 60))
    seats = draw_(st.integers(3, 6))
    seen = draw_(st.integers(0, (1 << size) - 1)) | ((1 << size) - (1 << 44))  # at most 44 unseen: < 2**128 deals
    unseen = ((1 << size) - 1) & ~seen
    owner = {c: draw_(st.integers(0, seats - 1)) for c in range(size) if unseen >> c & 1}
    hands = [sum(1 << c for c, s in owner.items() if s == seat) for seat in range(seats)]
    suit_size = size // 4
    forbidden = [0] * seats
    known = [0] * seats
    for seat in range(seats):
        for suit in range(4):
            mask = ((1 << suit_size) - 1) << (suit * suit_size)
            if hands[seat] & mask == 0 and draw_(st.booleans()):
                forbidden[seat] |= mask
        extra = draw_(st.integers(0, (1 << size) - 1)) & ~hands[seat]  # cards known to be elsewhere
        forbidden[seat] |= extra & ~draw_(st.integers(0, (1 << size) - 1))
        known[seat] = hands[seat] & draw_(st.integers(0, (1 << size) - 1)) & draw_(st.integers(0, (1 << size) - 1))
    return unseen, [bin(h).count("1") for h in hands], forbidden, known


@settings(max_examples=100, deadline=None)
@given(case=large_infosets(), seed=st.integers(0, 2**64 - 1))
def test_every_sample_is_consistent_on_random_constraints(case, seed):
    """Right counts, disjoint hands, union = unseen, forbidden cards avoided, known cards placed."""
    unseen, counts, forbidden, known = case
    ok, hands = draw(seed, *case, samples=20)
    assert ok
    for row in hands:
        assert_consistent(row, *case)


def test_exactly_uniform_on_an_enumerable_case():
    """9 unseen cards, 3 seats of 3, two voids and a known card (92 deals): 20,000 draws fit the uniform law."""
    unseen = 0x1FF
    counts = [3, 3, 3]
    forbidden = [0b0000_0011, 0b0011_0000, 0]  # seat 0 cannot hold cards 0-1, seat 1 cards 4-5
    known = [0, 0, 1 << 8]  # seat 2 holds card 8
    deals = enumerate_deals(unseen, counts, forbidden, known)
    assert count_deals(unseen, counts, forbidden, known) == len(deals) > 50
    ok, hands = draw(20260601, unseen, counts, forbidden, known, samples=20_000)
    assert ok
    seen = {deal: 0 for deal in deals}
    for row in hands:
        seen[tuple(int(h) for h in row)] += 1  # a KeyError would be an inconsistent deal
    expected = len(hands) / len(deals)
    assert chi_square(seen.values(), [expected] * len(deals)) < chi_square_threshold(len(deals) - 1)


def test_card_marginals_match_exact_counts_beyond_32_bits():
    """33 cards, 3 hands of 11, two voids (> 2**32 deals, so the wide draw is used): how often each seat gets a
    card matches count(with that card known there) / count(all)."""
    unseen = (1 << 33) - 1
    counts = [11, 11, 11]
    forbidden = [int(SUIT_MASK[0]), int(SUIT_MASK[1]), 0]  # seat 0 void in spades, seat 1 in hearts
    known = [0, 0, 0]
    total = count_deals(unseen, counts, forbidden, known)
    assert total > 2**32
    ok, hands = draw(7, unseen, counts, forbidden, known, samples=4000)
    assert ok
    statistic, df = 0.0, 0
    for card in (0, 9, 18, 26):  # a spade, a heart, two diamonds
        observed, expected = [], []
        for seat in range(3):
            with_card = [k | (1 << card if s == seat else 0) for s, k in enumerate(known)]
            expected.append(len(hands) * count_deals(unseen, counts, forbidden, with_card) / total)
            observed.append(sum(int(row[seat]) >> card & 1 for row in hands))
        kept = [(o, e) for o, e in zip(observed, expected, strict=True) if e > 0]
        assert all(o == 0 for o, e in zip(observed, expected, strict=True) if e == 0)
        statistic += chi_square(*zip(*kept, strict=True))
        df += len(kept) - 1
    assert statistic < chi_square_threshold(df)


@pytest.mark.parametrize(
    "counts, forbidden, known, why",
    [
        ([2, 2], [0b1110, 0b0111], [0, 0], "card 0 fits only seat 1 and card 3 only seat 0, but 1 and 2 fit neither"),
        ([3, 1], [0, 0b1111], [0, 0], "seat 1 can hold none of the cards"),
        ([2, 2], [0, 0b0001], [0, 0b0001], "seat 1 is known to hold a card it cannot hold"),
        ([2, 2], [0, 0], [0b0111, 0], "seat 0 is known to hold more cards than it has"),
        ([2, 2], [0, 0], [0b0001, 0b0001], "two seats are known to hold the same card"),
        ([2, 1], [0, 0], [0, 0], "the counts do not add up to the unseen cards"),
        ([2, 2], [0, 0], [0b10000, 0], "a known card is not unseen"),
    ],
)
def test_impossible_sets_are_reported(counts, forbidden, known, why):
    ok, hands = draw(1, 0b1111, counts, forbidden, known, samples=3)
    assert not ok, why
    assert not hands.any()
    assert count_deals(0b1111, counts, forbidden, known) == 0
    single = np.zeros(len(counts), np.uint64)
    assert not sample_deal(streams(1), 0, np.uint64(0b1111), *arrays(counts, forbidden, known), single)


def test_a_failed_deal_sample_of_a_strong_bot_is_one_error_in_every_game():
    """Issue 13.6: a failed sample was handled three ways (Differenzler raised, Wizard played as the heuristic,
    call-partner went on with an uninitialised array). All three strong bots sample through ``sample_view``, which
    raises naming the seat and the cards played; a consistent view fills the deals as ``sample_deals`` does."""
    import inspect

    import bots.callpartner_strong
    import bots.differenzler_strong
    import bots.exact_tricks_strong

    for module in (bots.callpartner_strong, bots.differenzler_strong, bots.exact_tricks_strong):
        source = inspect.getsource(module)
        assert "sample_view(" in source and "sample_deals(" not in source, module.__name__
    hands = np.zeros((3, 2), np.uint64)
    with pytest.raises(BotFailure, match=r"no deal fits the information set of the strong bot's seat.*2, 7"):
        sample_view(sampler(), streams(1), 0, (np.uint64(0b1111), *arrays([3, 1], [0, 0b1111], [0, 0])), hands, 2, 7)
    sample_view(sampler(), streams(1), 0, (np.uint64(0b1111), *arrays([2, 2], [0, 0], [0, 0])), hands, 2, 7)
    assert all(int(a) | int(b) == 0b1111 and int(a) & int(b) == 0 for a, b in hands)


def give_a_card(g, rules, state, seat: int, called_first: bool = True) -> None:
    """Break a round on purpose: ``seat`` gets a card of another seat, so its information set has one unseen card
    fewer than the hidden hands hold, and no deal fits it (a stand-in for a bug in it). The card: a call-partner
    round's called card if another seat holds it (``called_first``; see the test of the defenders below), else
    the lowest card of the next seat that holds one."""
    hands = state.hands
    called = g.record(rules, state).get("called_card") if called_first else None
    card = np.uint64(1) << np.uint64(g.deck.parse(called)) if called else np.uint64(0)
    holders = [s for s in range(len(hands)) if s != seat and hands[s] & card]
    if not holders:
        holders = [next(s % len(hands) for s in range(seat + 1, seat + len(hands)) if hands[s % len(hands)])]
        card = hands[holders[0]] & (~hands[holders[0]] + np.uint64(1))  # its lowest card
    hands[holders[0]] ^= card
    hands[seat] |= card


def break_before_first_card(g, seat: int, monkeypatch) -> None:
    """Every round dealt from now on is broken (``give_a_card``) once, just before the first card decision of
    ``seat`` that ``Game.run_bots`` meets: whether the compiled bots play on through it (a run with a Python bot)
    or every seat is asked one decision at a time (the stepped replay that names a failure)."""
    run_bots, broken = g.run_bots, []

    def breaking(rules, state, table):
        if (g.to_move(rules, state) == seat and g.decision(rules, state) == "card"
                and not any(b is state for b in broken)):  # fmt: skip
            give_a_card(g, rules, state, seat)
            broken.append(state)
        return run_bots(rules, state, table)

    monkeypatch.setattr(g, "run_bots", breaking)


@njit
def _failing_unit(unit: int) -> None:
    if unit >= 0:
        raise BotFailure("a compiled bot failed (a stand-in for a batch kernel)")


@njit(parallel=True)
def failing_kernel(units: int) -> None:
    """How a batch kernel fails: a ``BotFailure`` raised in its parallel loop, which numba reports as a
    ``SystemError`` around it."""
    for u in prange(units):
        _failing_unit(u)


@pytest.mark.parametrize("game", GAMES)
def test_a_failed_deal_sample_in_a_round_a_run_or_the_cli_is_one_error_naming_game_seed_round_seat_and_decision(
        game, monkeypatch, capsys):  # fmt: skip
    """Issue 13.6, the whole path: a strong bot whose seat's view fits no deal (the round broken on purpose) stops
    ``Round.bot_action``, ``cardsim.simulate`` (a batch kernel failing at unit 1, found by halving, then the unit
    replayed one decision at a time), and the CLI's ``simulate`` and ``replay`` with Python bots (the driver
    playing the compiled bots on) with ONE ``CardsimError`` (exit 2, one line) in RULES D2's form, naming the
    game, seed, round, seat and decision, and the sampler's values (seat, cards played). Before: ``Round`` raised
    the kernel's bare ``BotFailure``, a batch kernel's failure escaped as numba's ``SystemError``, the driver
    dropped the values, and a replay raised the bare ``BotFailure``."""
    g = get_game(game)
    strong, seats = STRONG_BOTS[game][0], g.seats()

    def expected(seat: int, round: int, label: str = r"trick \d+, card \d+") -> str:
        return (rf"bot '{re.escape(strong)}' \(seat {seat}\) in {game}, seed 8, round {round}, {label}: no deal "
                rf"fits the information set of the strong bot's seat \(a bug in it\); seat, cards played: {seat}, "
                r"\d+")  # fmt: skip

    r = new_round(game, seed=8, round=2)
    while r.decision != "card":
        r.play(r.bot_action("heuristic"))
    seat, label = r.to_move, g.decision_label(r.rules, r.state)
    r.bot_action(strong)  # the round as dealt fits
    give_a_card(g, r.rules, r.state, seat)
    with pytest.raises(CardsimError) as error:
        r.bot_action(strong)
    assert re.fullmatch(expected(seat, 2, re.escape(label)), str(error.value)), str(error.value)

    break_before_first_card(g, 0, monkeypatch)
    batch = g.batch

    def failing_at_unit_1(rules, lineup, seed, start, count, games, **options):
        if start <= 1 < start + count:
            failing_kernel(count)
        return batch(rules, lineup, seed, start, count, games, **options)

    monkeypatch.setattr(g, "batch", failing_at_unit_1)
    with pytest.raises(CardsimError) as error:
        cardsim.simulate(game, [strong] + ["heuristic"] * (seats - 1), rounds=3, seed=8, threads=1, progress=False)
    assert re.fullmatch(expected(0, 1), str(error.value)), str(error.value)

    monkeypatch.setattr(g, "batch", batch)
    python = f"{EXAMPLES}:{game_info(game).example_bot}"
    lineup = ",".join([strong] + [python] * (seats - 1))
    commands = ((["simulate", game, "--rounds", "2", "--no-progress"], 0), (["replay", game, "--round", "1"], 1))
    for argv, round in commands:
        capsys.readouterr()
        assert main([*argv, "--bots", lineup, "--seed", "8"]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        lines = [line for line in err if not line.startswith("cardsim: compiling")]  # a cold cache's notices aside
        assert len(lines) == 1 and re.fullmatch("cardsim: error: " + expected(0, round), lines[0]), lines


def test_a_callpartner_defender_whose_view_fits_no_deal_gets_the_same_one_error():
    """Issue 13.6 for the C5 sampler: a defender that has not seen the called card samples two cases (the card in
    another hand, or brought by the kitty). When its view fits no deal (the round broken on purpose, as above,
    with a card that is not the called one), it must stop with the same one ``CardsimError``."""
    g, strong = get_game("callpartner"), STRONG_BOTS["callpartner"][0]
    r = new_round("callpartner", seed=8, round=2)
    while not r.done:
        if r.decision == "card" and len(r.legal()) > 1:
            record = r.record()
            called = 1 << g.deck.parse(record["called_card"])
            holder = next((s for s in range(len(r.state.hands)) if int(r.state.hands[s]) & called), r.to_move)
            if r.to_move not in (holder, record["declarer"]):  # a defender, the called card not played
                break
        r.play(r.bot_action("heuristic"))
    seat = r.to_move
    give_a_card(g, r.rules, r.state, seat, called_first=False)
    with pytest.raises(CardsimError, match=rf"\(seat {seat}\) in callpartner, seed 8, round 2, trick .*no deal fits"):
        r.bot_action(strong)


def test_same_seed_same_samples_and_streams_differ():
    case = ((1 << 27) - 1, [9, 9, 9], [int(SUIT_MASK[0]), 0, 0], [0, 1 << 20, 0])
    _, first = draw(42, *case, samples=50)
    _, again = draw(42, *case, samples=50)
    _, other = draw(43, *case, samples=50)
    assert (first == again).all()
    assert not (first == other).all()
    single = np.zeros(3, np.uint64)
    rng = streams(42)
    assert sample_deal(rng, 1, np.uint64(case[0]), *arrays(*case[1:]), single)
    assert (single == first[0]).all(), "one deal at a time draws the same first deal"


def test_too_many_deals_raise_instead_of_overflowing():
    """64 cards among 8 seats of 8 have about 2**172 deals: more than the 128-bit counts hold."""
    with pytest.raises(OverflowError):
        count_deals(2**64 - 1, [8] * 8, [0] * 8, [0] * 8)


def test_differenzler_view_built_with_the_helpers():
    """Seat 0's view after one trick: own hand and the shown trump card (dealer 3), a revealed void; every sample
    respects them, and the dealer's trump card stays known until it is played."""
    deck = (1 << 36) - 1
    own = JASS36.mask("S6 S7 S8 H6 H7 H8 D6 D7 D8")
    trump_card = JASS36.parse("CA")  # dealer 3 shows the ace of clubs: clubs are trump
    unseen, counts, forbidden, known = new_infoset(deck, own, [0, 9, 9, 9])
    place_known(known, 3, trump_card)
    # Trick 1: seat 0 leads S6; seat 1 plays a diamond (void in spades); seat 2 follows; seat 3 plays the trump card.
    for seat, name in ((0, "S6"), (1, "DA"), (2, "SA"), (3, "CA")):
        unseen = observe_play(unseen, counts, known, seat, JASS36.parse(name))
    reveal_void(forbidden, 1, SUIT_MASK[0])
    # Trick 2: seat 2 leads a trump, seat 3 does not follow: no clubs except possibly the Puur.
    unseen = observe_play(unseen, counts, known, 2, JASS36.parse("C6"))
    unseen = observe_play(unseen, counts, known, 3, JASS36.parse("HA"))
    reveal_void(forbidden, 3, np.uint64(int(SUIT_MASK[3]) & ~(1 << int(PUUR[3]))))
    assert list(counts) == [0, 8, 7, 7] and not known.any()
    assert bin(int(unseen)).count("1") == 22
    ok, hands = draw(5, int(unseen), list(counts), forbidden, known, samples=200)
    assert ok
    for row in hands:
        assert_consistent(row, int(unseen), list(counts), forbidden, known)
    assert any(int(row[3]) >> int(PUUR[3]) & 1 for row in hands), "the Puur may still be with seat 3"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 2**63 - 1) | st.integers(0, 300), max_size=600))
def test_counting_table_codes_sort_like_numpy(values):
    """The counting table's radix sort (``_sort_codes``) orders any non-negative int64 codes as ``np.sort`` does:
    small and large, repeated, an odd or even number of byte passes, none or one value."""
    codes = np.array(values, np.int64)
    expected = np.sort(codes)
    sort_codes(codes)
    assert np.array_equal(codes, expected)
