"""Call-partner bid advice: golden hands, completions that keep the hand, determinism, bad input, bid table."""

import json

import numba
import numpy as np
import pandas as pd
import pytest

from cardsim import CardsimError, replay
from cardsim.advise import advise, bid_figures, bid_table
from cardsim.cards import FRENCH52
from cardsim.cli import main
from cardsim.decisions import AUCTION
from cardsim.games import get_game
from cardsim.games.callpartner import advise as callpartner_advice
from cardsim.games.callpartner import play, state

STRONG = "SA SJ CJ SK SQ ST S9 S2 HA DA H3 D4"  # the ace of spades, both black jacks, six spades
WEAK_5 = "S3 S4 H3 H5 H6 D3 D5 D7 C3 C4"  # no point card, no special card (5 players: 10 cards)
LEVELS = [str(level) for level in range(10, 21)]


def test_a_strong_hand_makes_the_low_levels_and_not_the_top():
    advice = advise("callpartner", STRONG, seat=0, samples=400, seed=1)
    options = advice.options.set_index("bid")
    assert list(options.index) == ["pass", *LEVELS] and advice.lower_is_better is False
    rates = options.loc[LEVELS, "make_rate"].to_numpy()
    assert rates[0] >= 0.95 and rates[-1] <= 0.5
    assert (np.diff(rates) <= 0).all()  # a higher bid is never made more often
    levels = np.arange(10, 21)
    assert np.allclose(options.loc[LEVELS, "mean"], levels * (2 * rates - 1))  # +L when made, else -L (C9)
    assert options.loc[LEVELS, "trump"].isin(list("SHDC")).all() and options.loc["pass", "trump"] == ""
    assert advice.best == options["mean"].idxmax()
    lead = advice.details["lead_over_second"]
    assert lead["second"] == options["mean"].drop(advice.best).idxmax()
    assert lead["difference"] == pytest.approx(options.loc[advice.best, "mean"] - options.loc[lead["second"], "mean"])
    unpaired = np.hypot(options.loc[lead["second"], "ci95"], options.loc[advice.best, "ci95"])
    assert 0 < lead["ci95"] < unpaired  # the same completions for both: the difference is measured more precisely


def test_a_weak_hand_with_five_players_passes():
    advice = advise("callpartner", WEAK_5, seat=1, players=5, samples=400, seed=2)
    options = advice.options.set_index("bid")
    assert advice.best == "pass" and options.loc["10", "make_rate"] < 0.5
    assert options.loc["pass", "mean"] >= 0  # a defender scores its own trick points
    assert advice.details["when_passing"]["defender"] > 0.9


@pytest.mark.parametrize("players", [3, 4, 5])
def test_completions_keep_the_hand_and_deal_the_rest_uniformly(players):
    size = {3: 16, 4: 12, 5: 10}[players]
    hand = FRENCH52.mask(STRONG.split()[:size] + ["C2", "C3", "C4", "C5"][: max(0, size - 12)])
    seat = players - 2
    s = state.new_state(players)
    p, hands = state.params(get_game("callpartner").make_rules(players=players)), s.hands
    landed = np.zeros((players + 1, 52), int)  # the last row is the kitty
    for sample in range(400):
        state.deal_around_hand(s, p, np.uint64(5), sample, 0, players - 1, seat, np.uint64(hand))
        dealer, kitty = s.slots[state.DEALER], s.slots[state.KITTY]
        assert dealer == players - 1 and int(hands[seat]) == hand
        parts = [int(h) for h in hands[:players]] + [int(kitty)]
        assert [bin(p).count("1") for p in parts] == [size] * players + [52 - size * players]
        assert sum(parts) == (1 << 52) - 1 == np.bitwise_or.reduce(parts)  # disjoint and complete
        landed += [[p >> c & 1 for c in range(52)] for p in parts]
    unseen = [c for c in range(52) if not hand >> c & 1]
    others = [s for s in range(players + 1) if s != seat]
    assert (landed[np.ix_(others, unseen)] > 0).all()  # every unseen card reaches every other seat and the kitty


def test_the_kernel_plays_the_hand_it_was_given():
    """Heuristic declarers call the ace of spades when they lack it: the seat holds it in every completion, so it
    is the partner whenever somebody else declares; and the kernel's side points are the shared deal's."""
    advice = advise("callpartner", STRONG, seat=2, samples=300, seed=3)
    passing = advice.details["when_passing"]
    assert passing["partner"] > 0.5 and passing["partner"] + passing["all_passed"] == 1
    hand, seat, players = np.uint64(FRENCH52.mask(STRONG)), 2, 4
    bots = get_game("callpartner").lineup("heuristic,random,heuristic,random").table
    side, passing, roles = (np.empty((40, 4), np.int8), np.empty(40, np.int16), np.empty(40, np.int8))
    p = state.params(get_game("callpartner").make_rules(players=players))
    callpartner_advice.completions(np.uint64(7), 3, hand, seat, p, bots, (side, passing, roles))
    s = state.new_state(players)
    for sample in (0, 17, 39):
        for trump in range(4):  # the same deal played through the state machine: the others pass, seat declares
            state.deal_around_hand(s, p, np.uint64(7), sample, 3, players - 1, seat, hand)
            for seat_to_move in range(players):
                action = 40 + trump if seat_to_move == seat else 0
                assert state.apply(s, p, action) and state.to_move(s) != -1
            while state.decision(s) == AUCTION:
                assert state.apply(s, p, 0)
            assert play.run(s, p, bots, None, None) == -1
            assert s.slots[state.SIDE] == side[sample, trump]


def test_a_fixed_trump_gives_the_same_completions_as_that_suit_in_the_free_advice():
    free = advise("callpartner", STRONG, seat=1, samples=200, seed=4)
    hearts = advise("callpartner", STRONG, seat=1, samples=200, seed=4, trump="h")
    assert hearts.trump == "H" and free.trump is None
    assert (hearts.options["trump"][1:] == "H").all()
    by_trump = {row["trump"]: row for row in free.details["make_rate_by_trump"]}
    assert list(hearts.options["make_rate"][1:]) == [by_trump["H"][level] for level in LEVELS]
    assert hearts.options.loc[0].equals(free.options.loc[0])  # pass does not depend on the contract's suit
    assert all(free.options["make_rate"][i + 1] == max(r[level] for r in by_trump.values())
               for i, level in enumerate(LEVELS))  # fmt: skip


def test_same_seed_same_numbers_with_one_and_two_threads():
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("numba has a single thread on this machine: no second thread count to compare with")

    def run(threads, seed=9):
        numba.set_num_threads(threads)
        try:
            bots = "heuristic,random,heuristic,random"
            return advise("callpartner", STRONG, seat=3, samples=150, seed=seed, bots=bots).options
        finally:
            numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)

    pd.testing.assert_frame_equal(run(1), run(2))
    assert not run(2, seed=10)["mean"].equals(run(2)["mean"])


@pytest.mark.parametrize(
    "hand, settings, message",
    [
        ("SA SK XX", {}, "'XX' is not a card"),
        (STRONG, {"players": 5}, "10 cards, not 12"),
        ("SA " + " ".join(STRONG.split()[:11]), {}, "SA appears twice"),
        (STRONG, {"seat": 4}, "use 0 to 3"),
        (STRONG, {"seat": -1}, "use 0 to 3"),
        (STRONG, {"trump": "X"}, "trump 'X' is not allowed"),
        (STRONG, {"players": 6}, "players=6 is not allowed: use an integer from 3 to 5"),
        (STRONG, {"samples": 0}, "samples=0"),
        (STRONG, {"bots": "clever"}, "unknown bot 'clever'"),
        (STRONG, {"rules": ["all_pass=never"]}, "all_pass='never'"),
    ],
)
def test_bad_input_is_refused_with_what_is_allowed(hand, settings, message):
    with pytest.raises(CardsimError, match=message):
        advise("callpartner", hand, **settings)


def test_bid_table_rows_features_and_figures():
    table = bid_table("callpartner", hands=6, samples=40, seed=5, players=3, bots="heuristic,random,random")
    assert len(table) == 6 and list(table["seat"]) == [0, 1, 2, 0, 1, 2]
    for h, row in table.iterrows():  # hand h is seat h % 3 of single deal h of the same seed
        record = replay("callpartner", seed=5, round=h, players=3, bots="heuristic,random,random")
        assert row["hand"].split() == record["hands"][(record["dealer"] + 1 + row["seat"]) % 3]
        cards = row["hand"].split()
        assert len(cards) == 16 and row["hcp"] == sum({"A": 4, "K": 3, "Q": 2, "J": 1}.get(c[1], 0) for c in cards)
        assert row["spade_ace"] == ("SA" in cards) and row["points"] == sum(c[1] in "TJQKA" for c in cards)
    rates = table[[f"make_{level}" for level in LEVELS]].to_numpy()
    assert ((0 <= rates) & (rates <= 1)).all() and (np.diff(rates, axis=1) <= 0).all()
    means = table[["mean_pass", *(f"mean_{level}" for level in LEVELS)]]
    assert (table["best_mean"] == means.max(axis=1)).all() and table["best"].isin(["pass", *LEVELS]).all()
    figures = bid_figures("callpartner", table)
    assert "callpartner_make_rate_by_strength" in figures
    for figure in figures.values():
        ax = figure.axes[0]
        assert figure.get_suptitle() and ax.get_xlabel() and ax.get_ylabel() and figure.legends


def test_cli_prints_the_advice_as_json(capsys):
    code = main(["advise", "callpartner", "--hand", STRONG, "--seat", "1", "--samples", "50", "--trump", "S",
                 "--json"])  # fmt: skip
    assert code == 0
    advice = json.loads(capsys.readouterr().out)
    assert advice["game"] == "callpartner" and advice["trump"] == "S" and len(advice["options"]) == 12
    assert advice["best"] in ["pass", *LEVELS] and advice["options"][0]["make_rate"] is None
