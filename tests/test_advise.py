"""Bid advice: golden hands, completions that keep what the seat knows, determinism, bad input, CLI, experiment."""

import json
import re
import subprocess
import sys
from pathlib import Path

import numba
import numpy as np
import pandas as pd
import pytest

from cardsim import CardsimError, replay
from cardsim.advise import advise, bid_figures, bid_table
from cardsim.cards import JASS36, WIZARD60
from cardsim.cli import main
from cardsim.games.differenzler import advise as differenzler_advice
from cardsim.games.exact_tricks import advise as family_advice
from cardsim.games.exact_tricks.rules import FULL_DECK
from cardsim.rng import seed_streams

ROOT = Path(__file__).resolve().parent.parent


def test_four_wizards_in_a_four_card_round_bid_four_and_make_it():
    advice = advise("wizard", "W1 W2 W3 W4", seat=2, trump="S", players=4, samples=200, seed=1)
    assert advice.best == 4
    best = advice.options.set_index("bid").loc[4]
    assert best["p_made"] == 1.0 and best["mean"] == 20 + 10 * 4 and best["ci95"] == 0
    assert advice.details["wizards"] == 4 and advice.details["tricks_distribution"][4] == 1.0


def test_every_trump_card_takes_all_157_points_whatever_it_predicts():
    """The dealer holding all nine trumps wins every trick, so only 157 is exact (A10: -exact_bonus)."""
    hand = "H6 H7 H8 H9 HT HJ HQ HK HA"
    advice = advise("differenzler", hand, seat=3, trump="H6", samples=60, seed=2, rules={"exact_bonus": 10})
    assert advice.best == 157
    options = advice.options.set_index("bid")
    assert options.loc[157, "mean"] == -10 and (options["mean_points"] == 157).all()
    assert options.loc[100, "mean"] == 57
    assert advice.details["median_points"] == 157 and advice.details["trump_points"] == 62


def test_confidence_interval_shrinks_with_samples():
    small, large = (
        advise("wizard", "W1 H13 H2 C7 D9", seat=1, trump="S", samples=n, seed=3).options for n in (100, 1600)
    )
    ratio = (large["ci95"] / small["ci95"]).median()
    assert 0.15 < ratio < 0.4  # about 1/4 for 16 times the samples
    assert (large["samples"] == 1600).all()


def test_differenzler_completions_keep_the_hand_and_the_trump_card_with_the_dealer():
    rng = np.empty((5, 4), np.uint64)
    hands = np.empty(4, np.uint64)
    trump_card = JASS36.parse("C9")
    for seat in range(4):
        cards = "SA SK SQ HT H6 D7 DJ CA" + (" C9" if seat == 3 else " C6")
        hand = np.uint64(JASS36.mask(cards))
        landed = np.zeros((4, 36), int)
        for sample in range(300):
            seed_streams(rng, np.uint64(5), sample, seat)
            differenzler_advice.deal_completion(rng, hand, seat, trump_card, hands)
            assert hands[seat] == hand and int(hands[3]) >> trump_card & 1
            assert all(bin(int(h)).count("1") == 9 for h in hands)
            assert int(hands[0] | hands[1] | hands[2] | hands[3]) == (1 << 36) - 1  # disjoint and complete
            for s in range(4):
                landed[s] += [int(hands[s]) >> c & 1 for c in range(36)]
        unseen = [c for c in range(36) if not int(hand) >> c & 1 and c != trump_card]
        others = [s for s in range(4) if s != seat]
        assert (landed[np.ix_(others, unseen)] > 50).all()  # every unseen card reaches every other seat


def test_wizard_completions_keep_the_hand_and_turn_a_card_of_the_given_choice():
    rng = np.empty((7, 4), np.uint64)
    hands = np.empty(6, np.uint64)
    hand = np.uint64(WIZARD60.mask("W1 H13 H2 C7 S5"))
    turn_from = np.uint64(WIZARD60.suit_mask(0) & ~int(hand))
    for sample in range(300):
        seed_streams(rng, np.uint64(5), sample, 0)
        turned = family_advice.deal_completion(rng, FULL_DECK, hand, 1, 5, turn_from, hands)
        assert hands[1] == hand and int(turn_from) >> turned & 1
        union = 0
        for s in range(5):
            assert bin(int(hands[s])).count("1") == 5 and not union & int(hands[s])
            union |= int(hands[s])
        assert not union >> turned & 1


def test_same_seed_same_numbers_with_one_and_two_threads():
    def run(threads):
        numba.set_num_threads(threads)
        try:
            return (
                advise("wizard", "W1 H13 H2 C7 D9", seat=3, trump="D", samples=150, seed=9).options,
                advise("differenzler", "SA SK SQ HT H6 D7 DJ CA C6", seat=1, trump="C9", samples=40, seed=9).options,
            )
        finally:
            numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)

    for one, two in zip(run(1), run(2), strict=True):
        pd.testing.assert_frame_equal(one, two)
    other = advise("wizard", "W1 H13 H2 C7 D9", seat=3, trump="D", samples=150, seed=10).options
    assert not other["mean"].equals(run(2)[0]["mean"])


def test_plus_minus_one_refuses_the_dealer_some_bids_in_some_completions():
    hand, rules = "W1 H13 H2 C7 D9", {"plus_minus_one": True}
    dealer = advise("wizard", hand, seat=3, trump="D", samples=300, seed=4, rules=rules).options
    assert (dealer["allowed"] < 1).any() and (dealer["samples"] == (dealer["allowed"] * 300).round()).all()
    first = advise("wizard", hand, seat=0, trump="D", samples=300, seed=4, rules=rules).options
    assert (first["allowed"] == 1).all()


@pytest.mark.parametrize(
    "game, hand, settings, message",
    [
        ("differenzler", "SA SK SQ HT H6 D7 DJ CA", {"trump": "C9"}, "9 cards, not 8"),
        ("differenzler", "SA SA SQ HT H6 D7 DJ CA C6", {"trump": "C9"}, "SA appears twice"),
        ("differenzler", "SA SK SQ HT H6 D7 DJ CA C6", {}, "shown trump card"),
        ("differenzler", "SA SK SQ HT H6 D7 DJ CA C6", {"trump": "C9", "seat": 3}, "must be in the hand"),
        ("differenzler", "SA SK SQ HT H6 D7 DJ CA C9", {"trump": "C9", "seat": 1}, "the dealer's (seat 3)"),
        ("differenzler", "SA SK SQ HT H6 D7 DJ CA C6", {"trump": "C9", "seat": 4}, "use 0 to 3"),
        ("differenzler", "SA SK SQ HT H6 D7 DJ CA C6", {"trump": "C9", "players": 5}, "4 players, not 5"),
        ("differenzler", "SA SK SQ HT H6 D7 DJ CA C6", {"trump": "C9", "samples": 0}, "samples=0"),
        ("wizard", "W1 X5", {"trump": "S"}, "not a card"),
        ("wizard", "W1 H13", {}, "needs the trump"),
        ("wizard", "W1 H13", {"trump": "W2"}, "dealer name the trump"),
        ("wizard", "W1 H13", {"trump": "H13"}, "is in the hand"),
        ("wizard", "W1 H13", {"trump": "S", "players": 7}, "rule players"),
        ("wizard", " ".join(f"S{r}" for r in range(1, 14)) + " W1 W2", {"trump": "S"}, "no card is left"),
        ("wizard", " ".join(f"S{r}" for r in range(1, 14)) + " W1", {"trump": "S"}, "every card of suit S"),
        ("wizard", "W1 H13", {"trump": "S", "bots": "bots/examples.py:WizardCounter"}, "needs built-in bots"),
        ("wizard", "W1 H13", {"trump": "S", "rules": ["cards=3"]}, "hand size, 2"),
        ("bridge", "SA", {}, "unknown game"),
    ],
)
def test_bad_input_is_refused_with_one_message(game, hand, settings, message):
    with pytest.raises(CardsimError, match=re.escape(message)):
        advise(game, hand, **settings)


def test_cli_advise_json_and_text(capsys):
    argv = ["advise", "wizard", "--hand", "W1 H13 H2 C7", "--trump", "S", "--seat", "1", "--players", "4"]
    assert main([*argv, "--samples", "200", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["game"] == "wizard" and record["seat"] == 1 and len(record["options"]) == 5
    best = max(record["options"], key=lambda row: row["mean"])
    assert record["best"] == best["bid"] and {"p_made", "ci95", "allowed"} <= set(best)

    assert main(["advise", "differenzler", "--hand", "HJ H9 HA SA S6 D7 D8 C6 CT", "--trump", "H6",
                 "--samples", "50"]) == 0  # fmt: skip
    text = capsys.readouterr().out
    assert "best bid:" in text and "158 bids in all" in text and "median points" in text
    assert len(text.splitlines()) < 50

    assert main(["advise", "differenzler", "--hand", "SA", "--trump", "H6"]) == 2
    assert capsys.readouterr().err.startswith("cardsim: error: a differenzler hand here has 9 cards")


def test_bid_tables_deal_the_engine_rounds_and_their_optimum_beats_the_rules_of_thumb():
    table = bid_table("differenzler", hands=4, samples=12, seed=6)
    assert list(table["seat"]) == [0, 1, 2, 3]
    for h, row in table.iterrows():
        record = replay("differenzler", seed=6, round=h, bots="heuristic")
        assert row["hand"].split() == record["hands"][(record["first_hand"] + row["seat"]) % 4]
        assert row["trump_card"] == record["trump_card"]
    assert (table["best_penalty"] <= table[["rule_of_thumb_penalty", "heuristic_penalty"]].min(axis=1)).all()

    table = bid_table("wizard", hands=6, samples=20, seed=6, players=3, cards=4)
    for h, row in table.iterrows():
        record = replay("wizard", seed=6, round=h, bots="heuristic", players=3, rules={"cards": 4})
        assert row["hand"].split() == record["hands"][(record["dealer"] + 1 + row["seat"]) % 3]
        assert row["turned"] == (record["turned_card"] or "") and row["trump"] == (record["trump"] or "")
    assert (table["best_score"] >= table["heuristic_score"]).all()
    figures = bid_figures("wizard", table)
    assert figures and all(fig.get_suptitle() and fig.axes[0].get_ylabel() for fig in figures.values())


def test_optimal_bids_smoke_writes_tables_figures_and_report(tmp_path):
    done = subprocess.run([sys.executable, "experiments/optimal_bids.py", "--smoke", "--out", str(tmp_path)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = (tmp_path / "report.md").read_text()
    for game in ("differenzler", "wizard"):
        assert len(pd.read_parquet(tmp_path / f"{game}_bids.parquet")) == 8
        assert f"## {game}" in report
    for link in [line[line.index("(") + 1 : -1] for line in report.splitlines() if line.startswith("![")]:
        assert (tmp_path / link).stat().st_size > 5000
    bad = subprocess.run([sys.executable, "experiments/optimal_bids.py", "--hands", "0", "--out", str(tmp_path)],
                         cwd=ROOT, capture_output=True, text=True)  # fmt: skip
    assert bad.returncode == 2 and "--hands" in bad.stderr


@pytest.mark.parametrize("game, hand", [
    ("differenzler", dict(hand="SA SK SQ SJ ST S9 S8 S7 S6", trump="H6")),
    ("callpartner", dict(hand="SA SK SQ SJ ST S9 S8 S7 S6 S5 S4 S3")),
])  # fmt: skip
def test_advice_refuses_a_strong_bot_it_cannot_play_instead_of_playing_another_under_its_name(game, hand):
    """Issue 13.3: `advise callpartner --bots mc` played the heuristic and labelled it mc; Differenzler refused
    with other words. Both refuse by name now, listing the fast bots; Wizard's completions do play strong bots."""
    with pytest.raises(CardsimError, match=rf"{game} advice plays its completions with the fast bots \(random, "
                       r"heuristic(, heuristic_v1)?\), not mc"):  # fmt: skip
        advise(game, bots="mc", samples=8, **hand)
    with pytest.raises(CardsimError, match=rf"{game} advice plays its completions with the fast bots"):
        bid_table(game, bots="mc", samples=8, hands=4)
