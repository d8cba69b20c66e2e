"""Issue 6 for Differenzler: the info-set builder, the shared prediction sweep, and the strong bots mc and ismcts
(honesty, Monte Carlo prediction, reproducibility, both drivers, settings)."""

import numpy as np
import pytest

import bots.differenzler_strong as strong
from bots.differenzler import HEURISTIC, RANDOM, apply_card, play_cards, start_state, sweep_predictions
from cardsim import CardsimError, simulate
from cardsim.cards import bit, popcount
from cardsim.games.differenzler import advise
from cardsim.games.differenzler.game import GAME
from cardsim.games.differenzler.play import new_scratch, start_round
from cardsim.games.differenzler.rules import PLAYERS, SUIT_OF, TRICKS, legal_mask
from cardsim.infoset import sample_deals
from cardsim.lineup import MAX_SETTINGS
from cardsim.rng import seed_streams


def table(*ids):
    t = np.zeros((PLAYERS, 1 + MAX_SETTINGS))
    t[:, 0] = ids
    return t


def played_round(seed, unit, bots):
    """A round of built-in bots: (first_hand, trump_card, the dealt hands, the history, the predictions)."""
    rng, hands, history, predictions, points, _, state, checks = new_scratch()
    first_hand, trump_card = (int(x) for x in start_round(np.uint64(seed), unit, 0, -1, rng, hands))
    dealt = hands.copy()
    predictions[:] = [17, 40, 0, 90]
    start_state(state, first_hand)
    play_cards(bots, trump_card // 9, rng, hands, history, predictions, points, state, -1, checks)
    return first_hand, trump_card, dealt, history, predictions


def replay_to(first_hand, trump_card, dealt, history, cards):
    """Hands, points and state after the first ``cards`` cards of ``history``."""
    hands, points, state = dealt.copy(), np.zeros(PLAYERS, np.int64), np.zeros(8, np.int64)
    hist = np.zeros_like(history)
    start_state(state, first_hand)
    for k in range(cards):
        apply_card(int(history[k // 4, 2 + k % 4]), trump_card // 9, hands, hist, points, state)
    return hands, points, state, hist


def replays_legally(first_hand, trump_card, whole, history, cards):
    """True if the first ``cards`` cards of ``history`` are legal (A8) from the dealt hands ``whole``."""
    hands, points, state = whole.copy(), np.zeros(PLAYERS, np.int64), np.zeros(8, np.int64)
    hist = np.zeros_like(history)
    start_state(state, first_hand)
    trump = trump_card // 9
    for k in range(cards):
        card = int(history[k // 4, 2 + k % 4])
        seat = (state[2] + state[1]) % PLAYERS
        if not legal_mask(hands[seat], state[3], trump, state[5]) & bit(card):
            return False
        apply_card(card, trump, hands, hist, points, state)
    return True


def test_infoset_holds_the_true_deal_and_every_sample_replays_the_history():
    """A5/A8b/A8c: on real rounds (random bots: many voids, undertrumps and Puur cases), at every card and for
    every seat, the true hidden hands fit the info set, and every sampled deal, with the cards played put back,
    gives the dealer the shown card and makes every card played so far legal."""
    rng = np.empty((PLAYERS + 1, 4), np.uint64)
    voids = 0
    for unit in range(6):
        first_hand, trump_card, dealt, history, _ = played_round(5, unit, table(RANDOM, RANDOM, HEURISTIC, RANDOM))
        dealer = (first_hand - 1) % PLAYERS
        for cards in range(0, 36, 4):
            hands, _, state, hist = replay_to(first_hand, trump_card, dealt, history, cards)
            for seat in range(PLAYERS):
                played = np.zeros(PLAYERS, np.uint64)
                unseen, counts, forbidden, known = strong.infoset(seat, hands[seat], hist, state, first_hand,
                                                                  trump_card, played)  # fmt: skip
                others = [s for s in range(PLAYERS) if s != seat]
                assert int(unseen) == int(np.bitwise_or.reduce(hands[others]))
                assert all(counts[s] == popcount(hands[s]) for s in others) and counts[seat] == 0
                assert all(hands[s] & forbidden[s] == 0 and known[s] & ~hands[s] == 0 for s in others)
                assert np.array_equal(played | hands, dealt)
                assert known[dealer] == (bit(trump_card) if seat != dealer and hands[dealer] & bit(trump_card) else 0)
                voids += sum(popcount(forbidden[s]) > 0 for s in others)
                seed_streams(rng, np.uint64(cards), unit, seat)
                deals = np.zeros((2, PLAYERS), np.uint64)
                assert sample_deals(rng, 1, unseen, counts, forbidden, known, deals)
                for deal in deals:
                    deal[seat] = hands[seat]
                    whole = deal | played
                    assert whole[dealer] & bit(trump_card)
                    assert replays_legally(first_hand, trump_card, whole, history, cards)
    assert voids > 50  # the rounds did reveal voids


def test_sweep_predictions_equals_one_play_per_prediction():
    """The sweep's shortcut is exact: out[p] is the points of a separate play with prediction p, for all 158."""
    rng, hands, history, predictions, points, _, state, checks = new_scratch()
    bots = table(HEURISTIC, RANDOM, HEURISTIC, HEURISTIC)
    out = np.empty(158, np.int64)
    for unit in range(4):
        first_hand, trump_card = start_round(np.uint64(3), unit, 0, -1, rng, hands)
        rng0, hands0 = rng.copy(), hands.copy()
        predictions[:] = [0, 30, 50, 70]
        points[:] = 0
        start_state(state, first_hand)
        sweep_predictions(bots, 0, trump_card // 9, rng, hands, history, predictions, points, state, out)
        for p in range(158):
            rng[:], hands[:], points[:] = rng0, hands0, 0
            predictions[0] = p
            start_state(state, first_hand)
            play_cards(bots, trump_card // 9, rng, hands, history, predictions, points, state, -1, checks)
            assert out[p] == points[0], p


def test_mc_prediction_matches_the_advice_optimum():
    """The Monte Carlo bidder (info-set deals) finds the prediction bid advice (its own completions) rates best,
    and nine low plain cards predict little."""
    rng = np.empty((PLAYERS + 1, 4), np.uint64)
    seed_streams(rng, np.uint64(11), 0, 0)
    trump_card = 9 * 3 + 4  # C10 shown: clubs are trump
    cases = [("S6 S7 S8 H6 H7 H8 D6 D7 D8", 1), ("SA SK HA HK DA C9 CJ CA C6", 0)]
    for hand, seat in cases:
        mask = np.uint64(advise.JASS36.mask(hand))
        p, means = strong.mc_prediction(rng, seat, mask, 0, trump_card, np.zeros(4, np.int64), 0, 0, 800)
        options, _ = advise._evaluate(0, 0, int(mask), seat, trump_card, table(*[HEURISTIC] * 4), 0, 800)
        expected = options["mean"].to_numpy()
        assert expected[p] <= expected.min() + 1.5  # the same optimum, up to sampling noise
        assert abs(means[p] - expected[p]) < 2.0
    low, _ = strong.mc_prediction(rng, 1, np.uint64(advise.JASS36.mask(cases[0][0])), 0, trump_card,
                                  np.zeros(4, np.int64), 0, 0, 300)  # fmt: skip
    assert low <= 12


@pytest.mark.parametrize("spec", ["mc:samples=8:bid_samples=8", "ismcts:iterations=40:bid_samples=8"])
def test_strong_bots_are_honest(spec):
    """A strong bot's card and prediction do not change when the hidden cards are re-dealt consistently with its
    info set, nor when the other seats' secret predictions change (same random state)."""
    row = GAME.lineup(spec).table[0]
    rng = np.empty((PLAYERS + 1, 4), np.uint64)
    for unit in range(3):
        first_hand, trump_card, dealt, history, predictions = played_round(8, unit, table(*[HEURISTIC] * 4))
        for cards in (5, 14, 22):
            hands, points, state, hist = replay_to(first_hand, trump_card, dealt, history, cards)
            seat = (state[2] + state[1]) % PLAYERS
            legal = legal_mask(hands[seat], state[3], trump_card // 9, state[5])
            played = np.zeros(PLAYERS, np.uint64)
            infoset = strong.infoset(seat, hands[seat], hist, state, first_hand, trump_card, played)
            seed_streams(rng, np.uint64(99), unit, cards)
            other = np.zeros((1, PLAYERS), np.uint64)
            assert sample_deals(rng, 0, *infoset, other)
            decisions = set()
            for k, deal in enumerate((hands, other[0] | np.where(np.arange(4) == seat, hands, 0))):
                seed_streams(rng, np.uint64(7), unit, cards)
                preds = predictions.copy()
                preds[np.arange(4) != seat] += 10 * k  # others' secret predictions
                h = deal.copy()
                decisions.add(strong.play(row, rng, seat, h[seat], legal, hist, state, first_hand, trump_card, preds,
                                          0, points, 0))  # fmt: skip
                seed_streams(rng, np.uint64(7), unit, cards)
                decisions.add(1000 + strong.predict(row, rng, seat, dealt[seat], first_hand, trump_card, preds, 0, 0))
            assert len(decisions) == 2


def test_mc_beats_the_heuristic_on_a_few_hundred_rounds():
    """Sanity, not a benchmark: mc (small settings) has a clearly lower mean penalty than three heuristic bots."""
    batch = simulate("differenzler", "mc:samples=4:bid_samples=16,heuristic,heuristic,heuristic", rounds=300,
                     seed=4, threads=1, progress=False)  # fmt: skip
    mean = batch.summary.set_index("seat")["mean_penalty"]
    assert mean[0] < 0.8 * mean[1:].min()


@pytest.mark.parametrize("options", [{}, {"predictions": "open", "exact_bonus": 10}])
def test_strong_bots_reproducible_and_both_drivers_agree(options):
    """Same seed, same rows at 1 and 2 threads; the compiled batch and the Python driver give identical rows."""
    rules = GAME.make_rules(options)
    lineup = GAME.lineup("mc:samples=3:bid_samples=3,heuristic,ismcts:iterations=12:bid_samples=2,random")
    fast = GAME.run(rules, lineup, 6, 0, 16, games=False).rows()
    slow = GAME.run(rules, lineup, 6, 0, 16, games=False, engine="python").rows()
    for key in fast:
        assert np.array_equal(fast[key], slow[key]), key
    one = simulate("differenzler", lineup.names, rounds=40, seed=3, threads=1, rules=options, progress=False)
    two = simulate("differenzler", lineup.names, rounds=40, seed=3, threads=2, rules=options, progress=False)
    assert one.summary.equals(two.summary)


@pytest.mark.parametrize(
    "spec, message",
    [
        ("mc:samples=0", "samples=0 is not allowed"),
        ("mc:iterations=5", "not a setting of mc"),
        ("ismcts:c=abc", "c=abc is not allowed"),
        ("ismcts:bid_samples=2.5", "bid_samples=2.5 is not allowed"),
    ],
)
def test_bad_settings_are_refused(spec, message):
    with pytest.raises(CardsimError, match=message):
        GAME.lineup(spec)


def test_decision_times_cover_every_decision():
    """One prediction and nine cards per round of seat 0, each a positive time."""
    times = strong.decision_times("mc:samples=2:bid_samples=2", 3, seed=1)
    assert times.shape == (30,) and (times > 0).all()


def test_heuristic_rollouts_see_the_trick_in_progress():
    """A card decision in the middle of a trick: mc never picks an illegal card and follows A8 over many states."""
    row = GAME.lineup("mc:samples=4").table[0]
    rng = np.empty((PLAYERS + 1, 4), np.uint64)
    for unit in range(6):
        first_hand, trump_card, dealt, history, predictions = played_round(2, unit, table(*[RANDOM] * 4))
        for cards in range(1, TRICKS * PLAYERS, 5):
            hands, points, state, hist = replay_to(first_hand, trump_card, dealt, history, cards)
            seat = (state[2] + state[1]) % PLAYERS
            legal = legal_mask(hands[seat], state[3], SUIT_OF[trump_card], state[5])
            seed_streams(rng, np.uint64(1), unit, cards)
            card = strong.play(row, rng, seat, hands[seat], legal, hist, state, first_hand, trump_card, predictions,
                               0, points, 0)  # fmt: skip
            assert legal & bit(card)
