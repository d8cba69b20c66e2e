"""Oh Hell rules F1-F7 (RULES.md section F), one test or more per rule, named by its number.

Cards in E1 notation (``SA``, ``H7``, ``CT``); the plain-Python re-statements of F5 and F6 are
``tests/cases_ohhell.py``'s, and OpenSpiel's ``oh_hell`` checks the same rules move by move in
``tests/test_ohhell_openspiel.py``.
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter

import cases_ohhell as ref
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardsim import new_game, new_round, simulate
from cardsim.cards import FRENCH52
from cardsim.errors import CardsimError
from cardsim.games import get_game
from cardsim.games.exact_tricks import rules as family

GAME = get_game("ohhell")
PLAYERS = (3, 4, 5, 6, 7)


def deck_of(**rules) -> set[str]:
    return set(FRENCH52.names(GAME.make_rules(rules).deck).split())


def play_randomly(r, rng) -> None:
    while not r.done:
        r.play(rng.choice(r.legal()))


# --- F1: the deck ---------------------------------------------------------------------------------------------


def test_F1_the_deck_is_the_52_suit_cards_with_aces_high():
    assert deck_of() == set(FRENCH52.card_names) and len(FRENCH52.card_names) == 52
    trick = new_round("ohhell", hands=["SK D4 D5", "S3 C2 C3", "S4 C4 C5", "SA S2 H3"], dealer=3, turned="H9")
    for _ in range(4):
        trick.play(0)
    for card in ("SK", "S3", "S4", "SA"):  # seat 0 leads SK; the ace of the led suit wins over the king
        trick.play(card)
    assert trick.record()["tricks"][0]["winner"] == 3


def test_F1_num_suits_and_num_cards_per_suit_take_c_d_s_h_and_ranks_from_the_2():
    assert deck_of(num_suits=3, num_cards_per_suit=5) == {s + r for s in "CDS" for r in "23456"}
    assert deck_of(num_suits=1, num_cards_per_suit=13) == {"C" + r for r in "23456789TJQKA"}
    assert deck_of(num_suits=2, num_cards_per_suit=2, players=3) == {"C2", "C3", "D2", "D3"}
    r = new_round("ohhell", seed=3, rules={"num_suits": 2, "num_cards_per_suit": 7, "players": 3})
    dealt = {card for hand in r.record()["hands"] for card in hand} | {r.record()["turned_card"]}
    assert dealt <= {s + x for s in "CD" for x in "2345678"}


@pytest.mark.parametrize("option, value", [("num_suits", 0), ("num_suits", 5), ("num_cards_per_suit", 1),
                                           ("num_cards_per_suit", 14)])  # fmt: skip
def test_F1_a_deck_option_out_of_range_is_refused_naming_what_is_allowed(option, value):
    with pytest.raises(CardsimError, match=option):
        GAME.make_rules({option: value})


def test_F1_a_card_outside_a_shrunk_deck_is_refused_in_given_hands():
    with pytest.raises(CardsimError, match="outside the deck"):
        new_round("ohhell", hands=["SA", "C2", "C3"], dealer=0, turned="C4",
                  rules={"players": 3, "num_suits": 1})  # fmt: skip


# --- F2: players, the dealer ---------------------------------------------------------------------------------


def test_F2_three_to_seven_players_default_four():
    assert GAME.players == PLAYERS and GAME.make_rules().players == 4
    for players in (2, 8):
        with pytest.raises(CardsimError, match="3 to 7|3, 4, 5, 6, 7|3..7"):
            GAME.make_rules(None, players)


def test_F2_the_first_dealer_is_random_and_the_dealer_rotates_clockwise():
    firsts = Counter(new_game("ohhell", seed=5, game_no=g).round.record()["dealer"] for g in range(80))
    assert set(firsts) == {0, 1, 2, 3}
    match = new_game("ohhell", seed=1, game_no=2, rules={"players": 5})
    dealers, rng = [], np.random.default_rng(0)
    while match.round is not None and len(dealers) < 6:
        dealers.append(match.round.record()["dealer"])
        play_randomly(match.round, rng)
        match.next_round()
    assert dealers == [(dealers[0] + k) % 5 for k in range(6)]


# --- F3: the deal and the turned card ------------------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYERS)
def test_F3_r_cards_each_and_the_next_card_turned_sets_the_trump(players):
    for seed in range(5):
        record = new_round("ohhell", seed=seed, players=players, rules={"num_tricks_fixed": 51 // players}).record()
        hands = [set(h) for h in record["hands"]]
        assert all(len(h) == 51 // players for h in hands)
        assert record["turned_card"] not in set().union(*hands) and record["trump"] == record["turned_card"][0]


def test_F3_a_round_that_leaves_no_card_to_turn_is_refused_with_what_is_allowed():
    GAME.make_rules({"players": 4, "num_tricks_fixed": 12})  # 48 dealt, 4 left
    with pytest.raises(CardsimError, match="num_tricks_fixed=13 .* use 1 to 12"):
        GAME.make_rules({"players": 4, "num_tricks_fixed": 13})  # 52 dealt, none to turn: OpenSpiel hangs
    with pytest.raises(CardsimError, match="use 1 to 2"):
        GAME.make_rules({"players": 3, "num_suits": 1, "num_cards_per_suit": 7, "num_tricks_fixed": 3})
    with pytest.raises(CardsimError, match="at least 4 cards"):
        GAME.make_rules({"players": 3, "num_suits": 1, "num_cards_per_suit": 3})


def test_F3_num_tricks_fixed_minus_one_draws_r_uniformly_from_1_to_max():
    counts = Counter(new_round("ohhell", seed=11, round=k, players=5).record()["cards"] for k in range(1500))
    assert set(counts) == set(range(1, 11))  # 51 // 5 = 10
    expected = 1500 / 10
    chi2 = sum((counts[r] - expected) ** 2 / expected for r in range(1, 11))
    assert chi2 < 27.9  # 9 degrees of freedom, p = 0.001


def test_F3_the_command_line_refuses_a_round_without_a_card_to_turn_with_exit_2():
    command = [sys.executable, "-m", "cardsim.cli", "simulate", "ohhell", "--rounds", "10", "--cards", "13"]
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode == 2 and "Traceback" not in done.stderr and "use 1 to 12" in done.stderr


# --- F4: bidding and the hook --------------------------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYERS)
def test_F4_bids_0_to_r_from_the_dealers_left_open_and_the_dealer_may_not_make_them_add_up(players):
    rng = np.random.default_rng(players)
    for k in range(20):
        r = new_round("ohhell", seed=7, round=k, players=players, rules={"num_tricks_fixed": 1 + k % (51 // players)})
        dealer, cards, total = r.record()["dealer"], r.record()["cards"], 0
        for i in range(players):
            assert r.to_move == (dealer + 1 + i) % players and r.decision == "bid"
            seen = r.observation(r.to_move).bids
            assert [b is not None for b in seen] == [(s - dealer - 1) % players < i for s in range(players)]
            legal = r.legal()
            last = i == players - 1
            assert legal == [b for b in range(cards + 1) if not (last and total + b == cards)]
            bid = int(rng.choice(legal))
            total += bid
            r.play(bid)
        assert r.decision == "card"


def test_F4_a_bid_that_makes_the_hook_add_up_is_refused_and_changes_nothing():
    r = new_round("ohhell", seed=1, players=3, rules={"num_tricks_fixed": 5})
    r.play(2), r.play(1)
    before = r.to_json()
    with pytest.raises(CardsimError, match="2"):
        r.play(2)
    assert r.to_json() == before and 2 not in r.legal()


def test_F4_hook_false_lets_the_dealer_make_them_add_up():
    r = new_round("ohhell", seed=1, players=3, rules={"num_tricks_fixed": 5, "hook": False})
    r.play(2), r.play(1)
    assert r.legal() == [0, 1, 2, 3, 4, 5]


# --- F5: play -------------------------------------------------------------------------------------------------


def test_F5_the_dealers_left_leads_and_a_player_follows_suit_if_able():
    r = new_round("ohhell", hands=["SA S2 H3", "SK D4 D5", "H2 C2 C3", "S4 C4 C5"], dealer=3, turned="H9")
    for _ in range(4):
        r.play(0)
    assert r.to_move == 0 and r.decision == "card"
    r.play("S2")
    assert sorted(r.legal()) == ["SK"]  # follows spades
    r.play("SK")
    assert sorted(r.legal()) == ["C2", "C3", "H2"]  # void in spades: any card
    r.play("H2")
    assert r.legal() == ["S4"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(FRENCH52.card_names), min_size=3, max_size=7, unique=True),
       st.sampled_from("SHDC"))  # fmt: skip
def test_F5_highest_trump_wins_else_highest_of_the_led_suit(cards, trump):
    indexes = np.array([FRENCH52.parse(c) for c in cards], np.int64)
    assert family.trick_winner(indexes, len(cards), "SHDC".index(trump)) == ref.trick_winner(cards, trump)


# --- F6: the score --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("off_bid_penalty", [False, True])
@pytest.mark.parametrize("points_per_trick", [1, 5])
def test_F6_points_per_trick_and_10_for_an_exact_bid_or_the_off_bid_penalty(off_bid_penalty, points_per_trick):
    rules = {"off_bid_penalty": off_bid_penalty, "points_per_trick": points_per_trick}
    scoring = GAME.make_rules(rules).scoring
    for bid in range(8):
        for tricks in range(8):
            assert family.score.py_func(scoring, bid, tricks) == ref.score(bid, tricks, rules)
    assert ref.score(3, 3, rules) == 3 * points_per_trick + 10
    assert ref.score(1, 3, rules) == (-2 * points_per_trick if off_bid_penalty else 3 * points_per_trick)


def test_F6_five_points_per_trick_with_the_penalty_is_wizards_score_halved():
    oh_hell = GAME.make_rules({"off_bid_penalty": True, "points_per_trick": 5}).scoring
    wizard = get_game("wizard").make_rules().scoring
    for bid in range(6):
        for tricks in range(6):
            assert 2 * family.score.py_func(oh_hell, bid, tricks) == family.score.py_func(wizard, bid, tricks)


@pytest.mark.parametrize("players", PLAYERS)
def test_F6_every_played_round_scores_by_the_rule(players):
    rng = np.random.default_rng(players)
    for k in range(10):
        rules = {"off_bid_penalty": k % 2 == 0, "points_per_trick": 1 + k % 3}
        r = new_round("ohhell", seed=2, round=k, players=players, rules=rules)
        play_randomly(r, rng)
        ref.check_scores(r.record())


# --- F7: whole games ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYERS)
def test_F7_schedules_up_down_and_up(players):
    top = 51 // players
    assert GAME.make_rules({"players": players}).schedule_cards() == (*range(1, top + 1), *range(top - 1, 0, -1))
    assert GAME.make_rules({"players": players, "schedule": "up"}).schedule_cards() == tuple(range(1, top + 1))


def test_F7_a_game_plays_its_schedule_and_the_highest_total_wins_ties_shared():
    rows = simulate("ohhell", "random", games=300, seed=4, players=3, keep_rows=True).rows
    per_game = rows.groupby(["game_no", "seat"])
    assert (per_game["round"].count() == 2 * 17 - 1).all()
    schedule = list(range(1, 18)) + list(range(16, 0, -1))  # F7 up_down: m = 51 // 3 = 17
    assert all(cards[::3] == schedule for cards in rows.groupby("game_no")["cards"].apply(list))
    totals = per_game["score"].sum().unstack()
    winners = totals.eq(totals.max(axis=1), axis=0)
    share = winners.div(winners.sum(axis=1), axis=0)  # a tie shares the win (as B9)
    assert (winners.sum(axis=1) > 1).any()  # ties occur in 300 games of 3 players, so sharing is checked
    last = rows[rows["round"] == rows["round"].max()].set_index(["game_no", "seat"])["game_win"].unstack()
    assert np.allclose(last.to_numpy(), share.to_numpy())


def test_F7_schedule_sets_whole_games_and_num_tricks_fixed_single_rounds():
    with pytest.raises(CardsimError, match="schedule=up sets whole games"):
        simulate("ohhell", "random", rounds=10, rules={"schedule": "up"})
    with pytest.raises(CardsimError, match="num_tricks_fixed=5 .* sets single rounds"):
        simulate("ohhell", "random", games=10, rules={"num_tricks_fixed": 5})
