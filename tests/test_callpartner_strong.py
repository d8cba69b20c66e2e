"""Issue 6 for call-partner: the seat's information set, the Monte Carlo bidder and the PIMC card player ``mc``.

Deals come from the game's own drivers; the checks re-derive what they need from the deal records (hands, kitty,
discards, tricks) rather than from the code under test.
"""

from __future__ import annotations

from types import SimpleNamespace

import numba
import numpy as np
import pytest

import bots.callpartner_strong as strong
from cardsim import CardsimError, simulate
from cardsim.advise import advise
from cardsim.cards import FRENCH52
from cardsim.driver import play_round
from cardsim.games.callpartner import state as sm
from cardsim.games.callpartner.game import GAME
from cardsim.games.callpartner.play import SUIT_LETTERS, Trick
from cardsim.games.callpartner.rules import SUIT_MASK, SUIT_OF
from cardsim.games.callpartner.state import PASS
from cardsim.infoset import count_deals, sample_deals
from cardsim.lineup import builtin_row
from cardsim.numba_bots import sampler
from cardsim.rng import seed_streams

SMALL = "mc:samples=3:bid_samples=2:contract_samples=3"
P4 = sm.params(GAME.make_rules({}))


def streams(seed: int) -> np.ndarray:
    rng = np.empty((6, 4), np.uint64)
    seed_streams(rng, np.uint64(seed), 0, 0)
    return rng


def deal_record(state, rules) -> SimpleNamespace:
    """A finished round's state as plain fields (masks and ints; tricks as ``Trick``), from its replay record."""
    rec = GAME.record(rules, state)
    mask = FRENCH52.mask
    declared = rec["declarer"] is not None
    return SimpleNamespace(
        dealer=rec["dealer"], hands=[mask(" ".join(h)) for h in rec["hands"]], kitty=mask(" ".join(rec["kitty"])),
        declarer=rec["declarer"] if declared else -1, bid=rec["bid"] or 0,
        trump=SUIT_LETTERS.index(rec["trump"]) if declared else -1,
        called=FRENCH52.parse(rec["called_card"]) if declared else -1,
        partner=rec["partner"] if rec["partner"] is not None else -1, discards=mask(" ".join(rec["discards"])),
        tricks=[Trick(t["leader"], tuple(t["cards"]), t["winner"], t["points"]) for t in rec["tricks"]],
        points=rec["points"], scores=rec["scores"], side_points=rec["side_points"],
    )  # fmt: skip


def deal_records(seed: int, units, rules, lineup) -> list:
    """Single deals ``units`` of ``seed`` through the Python driver, as ``deal_record``s."""
    return [deal_record(play_round(GAME, rules, lineup, seed, unit, 0, False, -1), rules) for unit in units]


def records(players: int, bots: str, seeds, **options) -> list:
    """Deal records (through the Python driver) of deals somebody declared."""
    rules = GAME.make_rules({**options, "players": players})
    return [r for r in deal_records(7, seeds, rules, seated(bots, rules)) if r.declarer >= 0]


def seated(bots: str, rules):
    """The lineup ``bots`` repeated round the table."""
    names = bots.split(",")
    return GAME.lineup([names[s % len(names)] for s in range(rules.players)], rules)


def history(rec) -> tuple[np.ndarray, list[int]]:
    """The cards in play order and who played each."""
    cards = [FRENCH52.parse(c) for t in rec.tricks for c in t.cards]
    players = len(rec.hands)
    seats = [(t.leader + i) % players for t in rec.tricks for i in range(len(t.cards))]
    log = np.full(52, -1, np.int64)
    log[: len(cards)] = cards
    return log, seats


def start_hands(rec) -> list[int]:
    """Each seat's hand at the first trick (the declarer's with the kitty, less the discards)."""
    hands = list(rec.hands)
    hands[rec.declarer] = (hands[rec.declarer] | rec.kitty) & ~rec.discards
    return hands


def view(rec, seat: int, n: int) -> tuple:
    """The info set of ``seat`` after ``n`` cards of the deal, built by the bot's builder."""
    log, seats = history(rec)
    players = len(rec.hands)
    hand = start_hands(rec)[seat] & ~sum(1 << c for c, s in zip(log[:n], seats, strict=False) if s == seat)
    discards = rec.discards if seat == rec.declarer else 0
    v = strong.View(seat, np.uint64(hand), rec.dealer, rec.trump, rec.declarer, rec.bid, rec.called,
                    np.uint64(discards), log, n)  # fmt: skip
    built = strong.infoset(v, players, True)
    return hand, log, seats, built


@pytest.mark.parametrize("players", [3, 4, 5])
def test_infoset_holds_the_true_deal_and_every_sample_fits_the_history(players):
    """On real deals, at several points and for every seat: the true hidden cards fit the info set, and every
    sampled deal (with the cards already played) makes each played card legal when it was played (C7) and
    deals every card once; the piles are the kitty's size (the discards) except for the declarer."""
    rng = streams(players)
    checked = 0
    for rec in records(players, "heuristic,random", range(12)):
        log, seats = history(rec)
        total = len(seats)
        for n in sorted({0, 1, total // 3, total // 2 + 1, total - 2}):
            for seat in range(players):
                hand, _, _, (unseen, counts, forbidden, known) = view(rec, seat, n)
                later = [sum(1 << c for c, s in zip(log[n:total], seats[n:], strict=False) if s == t)
                         for t in range(players)]  # fmt: skip
                true_piles = [later[t] if t != seat else 0 for t in range(players)]
                true_piles.append(rec.discards if seat != rec.declarer else 0)
                assert sum(true_piles) == int(unseen)
                assert [bin(p).count("1") for p in true_piles] == list(counts)
                assert all(p & int(f) == 0 for p, f in zip(true_piles, forbidden, strict=True))
                assert count_deals(int(unseen), counts, forbidden, known) > 0
                deals = np.empty((8, players + 1), np.uint64)
                assert sample_deals(rng, 1, unseen, counts, forbidden, known, deals)
                for deal in deals:
                    held = [int(deal[t]) if t != seat else hand for t in range(players)]
                    assert sum(held) + int(deal[players]) + sum(1 << int(c) for c in log[:n]) == (1 << 52) - 1 - (
                        rec.discards if seat == rec.declarer else 0)
                    _assert_legal_history(held, log, seats, n)
                checked += 1
    assert checked > 50


def _assert_legal_history(held, log, seats, n):
    """Every one of the first n cards was legal for its player holding its sampled remaining cards plus the cards
    it played from then on (C7: follow the led suit if able, printed suits)."""
    players = len(held)
    for k in range(n):
        pos = k % players
        if pos == 0:
            led = SUIT_OF[log[k]]
            continue
        if SUIT_OF[log[k]] != led:
            seat = seats[k]
            then = held[seat] | sum(1 << int(c) for c, s in zip(log[k:n], seats[k:n], strict=False) if s == seat)
            assert then & int(SUIT_MASK[led]) == 0, "a sampled hand held the led suit its player did not follow"


def test_infoset_before_the_kitty_is_taken_is_a_kitty_pile():
    """Before the declarer takes the kitty, everybody (the declarer too) sees a hidden pile of the kitty's size."""
    rec = records(4, "heuristic", range(5))[0]
    for seat in range(4):
        v = strong.View(seat, np.uint64(rec.hands[seat]), rec.dealer, rec.trump, rec.declarer, rec.bid, -1,
                        np.uint64(0), np.zeros(52, np.int64), 0)  # fmt: skip
        unseen, counts, forbidden, known = strong.infoset(v, 4, False)
        assert int(unseen) == (1 << 52) - 1 - rec.hands[seat] and list(counts) == [12 * (s != seat) for s in
                                                                                    range(4)] + [4]  # fmt: skip
        assert not forbidden.any() and not known.any()


def test_the_card_decision_ignores_the_unused_log():
    """Honesty: the bot's card does not change when the unused part of the log holds the rest of the deal (the
    compiled driver reuses the buffer from deal to deal). That the seats' hidden cards are no input is
    tests/test_callpartner_state.py's honest-observation test."""
    rec = records(4, f"{SMALL},heuristic,{SMALL},heuristic", range(6))[0]
    log, seats = history(rec)
    n = 5
    seat = seats[n]
    hand, *_ = view(rec, seat, n)
    p = sm.params(GAME.make_rules({}))
    own = np.uint64(rec.discards if seat == rec.declarer else 0)
    blank = log.copy()
    blank[n:] = -1
    choices, tools = set(), GAME.strong_tools(sm.new_state(p.players), p)
    for buf in (log.copy(), blank):
        v = strong.View(seat, np.uint64(hand), rec.dealer, rec.trump, rec.declarer, rec.bid, rec.called, own, buf, n)
        choices.add(int(strong.mc_play(*tools[:2], 3, streams(3), 1, v, p, np.empty(0, np.uint64))))
    assert len(choices) == 1 and choices <= {int(c) for c in FRENCH52.cards_of(hand)}


def test_mc_bid_bids_a_sure_contract_to_20_and_what_the_advice_rates_best():
    """The bidder checked against answers found without its kernel. With the ace of spades, both black jacks and
    nine more spades no other card beats a spade of the hand (C8 rules 1, 2, 3, 5): 20 in spades, the most a deal
    can score (C9), also over 15 and 19. A hand without a point card passes over 15 and 19 (bids it nearly always
    fails), and opening bids what the public bid advice (``cardsim.advise``: another seed, 4000 completions)
    rates clearly best: 10 in clubs, its longest suit, which its called partner makes more often than not. Both
    complete with ``heuristic_v1``, the bot's play-outs (with today's heuristic 10 still leads, by less than two
    CIs at 4000 completions)."""
    sure = "SA SJ CJ SK SQ ST S9 S8 S7 S6 S5 S4"
    weak = "S3 S4 H3 H5 H6 D3 D5 D7 C3 C4 C5 C6"

    def bid(hand, high, bonus=0):  # seat 1, the dealer seat 3: the advice's seat 1 (counted from the dealer's left)
        action = strong.mc_bid(400, bonus, streams(11), 1, np.uint64(FRENCH52.mask(hand)), 1, 3, P4, high)
        return (0, 0) if action == PASS else divmod(action, 4)  # (number, suit)

    for high in (0, 15, 19):
        assert bid(sure, high) == (20, SUIT_LETTERS.index("S"))
    assert bid(weak, 15) == bid(weak, 19) == (0, 0)
    advice = advise("callpartner", weak, seat=1, samples=4000, seed=99, bots="heuristic_v1")
    lead = advice.details["lead_over_second"]
    assert advice.best == "10" and lead["difference"] > 2 * lead["ci95"]
    trump = advice.options.set_index("bid").loc["10", "trump"]
    assert bid(weak, 0) == (10, SUIT_LETTERS.index(trump)) and trump == "C"
    # bid_bonus: points the bot counts on beyond its play-outs' (mc's default 1, mc_v1's 0) raise what it bids
    assert bid(weak, 15, bonus=1) == (0, 0) and bid(weak, 15, bonus=8)[0] > 15
    assert bid(sure, 0, bonus=1) == (20, SUIT_LETTERS.index("S"))


def test_v1_bots_are_mc_and_ismcts_without_the_bid_bonus():
    def row(spec):
        return builtin_row(spec, GAME.name, GAME.builtin_bots, GAME.bot_settings)

    assert np.array_equal(row("mc_v1"), row("mc:bid_bonus=0")) and row("mc")[4] == 1
    assert np.array_equal(row("ismcts_v1"), row("ismcts:bid_bonus=0")) and row("ismcts")[5] == 1
    assert not np.array_equal(row("mc_v1"), row("mc"))


@pytest.mark.parametrize("players, bots, options", [
    (4, f"{SMALL},heuristic,random,{SMALL}", {}),
    (3, f"heuristic,{SMALL}", {"all_pass": "dealer_forced"}),
    (5, SMALL, {"discards_count": False}),
])  # fmt: skip
def test_compiled_and_python_drivers_agree_with_mc(players, bots, options):
    rules = GAME.make_rules({**options, "players": players})
    lineup = seated(bots, rules)
    fast = GAME.run(rules, lineup, 5, 100, 25, False).rows()
    slow = GAME.run(rules, lineup, 5, 100, 25, False, engine="python").rows()
    for key in fast:
        assert np.array_equal(fast[key], slow[key]), key


def test_same_seed_same_rows_with_one_and_two_threads():
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("numba has a single thread on this machine: no second thread count to compare with")
    kwargs = {"rounds": 300, "seed": 4, "keep_rows": True}
    bots = f"{SMALL},heuristic,heuristic,heuristic"
    one = simulate("callpartner", bots, threads=1, **kwargs).rows
    two = simulate("callpartner", bots, threads=2, **kwargs).rows
    assert one.equals(two)


def test_mc_clearly_beats_random_bots():
    """A sanity check of strength, not a measurement: mc's mean score per deal against three random bots."""
    batch = simulate("callpartner", "mc:samples=6:bid_samples=8,random,random,random", rounds=300, seed=2)
    means = batch.summary.set_index("seat")["mean_score"]
    assert means[0] > means[1:].max() + 2


@pytest.mark.parametrize("spec, problem", [
    ("mc:samples=0", "samples=0 is not allowed; samples is a whole number from 1 to 4096"),
    ("mc:bid_samples=2.5", "bid_samples=2.5 is not allowed"),
    ("mc:depth=3", "'depth=3' is not a setting of mc; its settings: samples=N, bid_samples=N, contract_samples=N"),
])  # fmt: skip
def test_bad_settings_are_refused(spec, problem):
    with pytest.raises(CardsimError, match=problem):
        GAME.lineup(spec)


def test_decision_times():
    times = GAME.decision_times(SMALL, 3, seed=1)
    assert times.ndim == 1 and len(times) >= 3 and (times > 0).all()
    with pytest.raises(CardsimError, match="strong bots: mc"):
        GAME.decision_times("heuristic", 1)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_C5_a_defender_samples_the_called_card_with_the_declarer_only_as_often_as_the_kitty_brought_it(players):
    """Issue 13.2: the sampler ignored C5 (the called card was not in the declarer's dealt hand). For a 4-player
    defender at trick 1 its samples put that card with the declarer or among the discards about 40% of the time;
    the exact share is kitty / (cards not dealt to the declarer or the seat) = 4/28. Checked for 3-5 players within
    4 standard errors (a sampler blind to C5 is off by 13 to 25 of them); other seats still get it by size."""
    hand_size, kitty = int(sm.HAND_OF[players]), int(sm.KITTY_OF[players])
    seat, declarer, dealer, samples = 1, 0, players - 1, 4000
    hand = np.uint64(FRENCH52.mask(" ".join(FRENCH52.name_of(c) for c in range(hand_size))))
    called = 51  # the ace of clubs: not in the seat's hand
    v = strong.View(seat, hand, dealer, 0, declarer, 10, called, np.uint64(0), np.empty(0, np.int64), 0)
    rng = np.empty((1, 4), np.uint64)
    seed_streams(rng, np.uint64(7), 0, 0)
    deals = strong.sample_with_call(sampler(), rng, 0, samples, strong.infoset(v, players, True), v, players)
    card = np.uint64(1) << np.uint64(called)
    with_declarer = ((deals[:, declarer] | deals[:, players]) & card) != 0
    exact = kitty / ((players - 2) * hand_size + kitty)
    assert abs(with_declarer.mean() - exact) < 4 * np.sqrt(exact * (1 - exact) / samples), with_declarer.mean()
    others = [s for s in range(players) if s not in (seat, declarer)]
    holders = [((deals[:, s] & card) != 0).mean() for s in others]
    assert all(abs(h - (1 - exact) / len(others)) < 0.03 for h in holders), holders
    assert all(int(np.bitwise_or.reduce(row)) | int(hand) == (1 << 52) - 1 for row in deals)  # every card placed


def _exact_defender_deals(rec, seat: int, n: int) -> dict[tuple, float]:
    """Every deal of the cards a defender ``seat`` has not seen after ``n`` cards, by brute force (each unseen card
    to each pile: the other seats' hands as they are then, then the discards), with its exact probability: every
    pile of its size, no card of a suit its seat has shown void in (C7, printed suits), and by C5 a deal that puts
    the called card in the declarer's hand or discards weighs kitty / (hand + kitty), the chance that the kitty
    brought it among the declarer's hand-and-kitty cards, against 1 for a deal that puts it in another hand."""
    log, seats = history(rec)
    players, hand_size, kitty = len(rec.hands), int(sm.HAND_OF[len(rec.hands)]), int(sm.KITTY_OF[len(rec.hands)])
    played = [[int(c) for c, s in zip(log[:n], seats, strict=False) if s == t] for t in range(players)]
    hand = start_hands(rec)[seat] & ~sum(1 << c for c in played[seat])
    unseen = [c for c in range(52) if not (hand >> c) & 1 and c not in log[:n]]
    sizes = [hand_size - len(played[t]) if t != seat else 0 for t in range(players)] + [kitty]
    void = [0] * (players + 1)
    for k in range(n):
        led = SUIT_OF[log[k - k % players]]
        if SUIT_OF[log[k]] != led:
            void[seats[k]] |= int(SUIT_MASK[led])
    weights: dict[tuple, float] = {}

    def place(i: int, piles: list[int]) -> None:
        if i == len(unseen):
            with_declarer = (piles[rec.declarer] | piles[players]) >> rec.called & 1
            weights[tuple(piles)] = kitty / (hand_size + kitty) if with_declarer else 1.0
            return
        card = unseen[i]
        for t in range(players + 1):
            if bin(piles[t]).count("1") < sizes[t] and not (void[t] >> card) & 1:
                place(i + 1, piles[:t] + [piles[t] | 1 << card] + piles[t + 1 :])

    place(0, [0] * (players + 1))
    total = sum(weights.values())
    return {deal: w / total for deal, w in weights.items()}


@pytest.mark.parametrize("players", [3, 4, 5])
def test_C5_the_sampler_draws_a_defenders_deals_with_their_exact_probabilities(players):
    """Issue 13.2, the whole distribution: late in a real deal (two cards left each with 3 players, one with 4 and
    5), the seat after the declarer, told that the call named a card it has not seen (any such card fits its view:
    the highest that the declarer's side or another seat may hold), has its deals enumerated by brute force with
    their exact probabilities (``_exact_defender_deals``). 40,000 deals of ``sample_with_call`` against them: a
    chi-square within 5 standard deviations of its mean (36 to 225 deals; a sampler blind to C5 is off by over
    1,000 of them, one that weighs the kitty's case by kitty / hand by 13 to 74), and every sampled deal one of
    the enumerated."""
    left, samples = 2 if players == 3 else 1, 40_000
    rec = records(players, "heuristic", range(6))[0]
    log, seats = history(rec)
    n, seat = len(seats) - players * left, (rec.declarer + 1) % players
    hand, _, _, info = view(rec, seat, n)
    for called in sorted((c for c in range(52) if int(info[0]) >> c & 1), reverse=True):  # the highest that fits
        rec = SimpleNamespace(**{**vars(rec), "called": called})
        exact = _exact_defender_deals(rec, seat, n)
        with_declarer = [(d[rec.declarer] | d[players]) >> called & 1 for d in exact]
        if any(with_declarer) and not all(with_declarer):  # with the declarer or in another hand
            break
    v = strong.View(seat, np.uint64(hand), rec.dealer, rec.trump, rec.declarer, rec.bid, rec.called, np.uint64(0),
                    log, n)  # fmt: skip
    deals = strong.sample_with_call(sampler(), streams(players), 0, samples, info, v, players)
    seen: dict[tuple, int] = {}
    for row in deals:
        key = tuple(int(row[t]) for t in range(players + 1))
        seen[key] = seen.get(key, 0) + 1
    assert set(seen) <= set(exact), "a sampled deal that does not fit the history"
    assert len(exact) >= 20 and any(with_declarer) and not all(with_declarer), len(exact)
    chi2 = sum((seen.get(d, 0) - samples * p) ** 2 / (samples * p) for d, p in exact.items())
    df = len(exact) - 1
    assert chi2 < df + 5 * np.sqrt(2 * df), (chi2, df)
