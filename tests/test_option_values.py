"""``cardsim.advise.option_values`` (issue 43, item 3): every option of the decision at hand valued from the seat's
own information by the strong bots' evaluator, in every game.

Its numbers come from the functions the strong bot ``mc`` decides with, so its best option is ``mc``'s choice on
the same stream; they depend on nothing the seat cannot see (the hidden cards dealt anew change nothing); the
value of a round's last card is the seat's final score exactly; and bad input is refused before any work.
"""

from __future__ import annotations

import random

import numba
import numpy as np
import pandas as pd
import pytest
from conftest import redealt_round, start_of

from cardsim import CardsimError, new_round
from cardsim.advise import option_values
from cardsim.games import GAMES, get_game

COLUMNS = ["action", "label", "mean", "std", "ci95", "samples", "best"]
SAMPLES = 12
# Small rounds where the rules allow them; Wizard with a turned Wizard in round 1 (its dealer names the trump).
RULES = {"differenzler": None, "wizard": ["cards=5"], "ohhell": ["num_tricks_fixed=5"], "callpartner": None}
TRUMP_ROUND = {"wizard": 1}
KINDS = {"differenzler": {"predict", "card"}, "wizard": {"bid", "trump", "card"}, "ohhell": {"bid", "card"},
         "callpartner": {"auction", "call", "discard", "card"}}  # fmt: skip


def heuristic_round(game: str, rules: list[str] | None = None, unit: int = 0) -> tuple:
    """A round of ``game`` dealt for seed 3 and ``unit``, and the actions the heuristic bots play in it."""
    r = new_round(game, seed=3, round=unit, rules=rules)
    actions, played = [], r.copy()
    while not played.done:
        actions.append(played.bot_action("heuristic"))
        played.play(actions[-1])
    return r, actions


def decisions(game: str, rules: list[str] | None = None, unit: int = 0):
    """Copies of a heuristic round at the first decision of every kind and at the second card of the second
    trick."""
    r, actions = heuristic_round(game, rules, unit)
    seen, cards = set(), 0
    for action in actions:
        cards += r.decision == "card"
        if r.decision not in seen or cards == r.game.seats(r.rules) + 2:
            seen.add(r.decision)
            yield r.copy()
        r.play(action)


def check_table(r, table: pd.DataFrame, samples: int) -> None:
    """One row per legal action in its order, each playable; one best; finite statistics of ``samples`` each."""
    assert list(table.columns) == COLUMNS
    assert list(table["action"]) == r.legal()
    assert table["best"].sum() == 1 and table["best"].dtype == bool
    assert (table["samples"] == samples).all()
    assert np.isfinite(table[["mean", "std", "ci95"]].to_numpy()).all()
    assert (table["ci95"] >= 0).all() and np.allclose(table["ci95"], 1.959964 * table["std"] / np.sqrt(samples))
    for action, label in zip(table["action"], table["label"], strict=True):
        r.copy().play(action)
        assert label == ("pass" if action is None else " ".join(map(str, action)) if isinstance(action, tuple)
                         else str(action))  # fmt: skip


@pytest.mark.parametrize("game", GAMES)
def test_every_decision_kind_of_a_round_is_valued_option_by_option(game):
    """Bids or predictions, cards, and where the game has them a dealer's trump, the auction, the call and the
    discards: a table of every legal action, its best the lowest mean where lower is better, else the highest (up to
    the bots' tie-breaks, which prefer the heuristic's own choice)."""
    kinds = set()
    for unit in sorted({0, TRUMP_ROUND.get(game, 0)}):
        for r in decisions(game, RULES[game], unit):
            table = option_values(r, samples=SAMPLES)
            check_table(r, table, SAMPLES)
            means = table["mean"]
            best = means[table["best"]].iloc[0]
            assert best == (means.min() if r.game.lower_is_better else means.max())
            kinds.add(r.decision)
    assert kinds == KINDS[game]


def last_card(game: str):
    """A heuristic round at the last card of its last trick, and the seats' final scores."""
    r, actions = heuristic_round(game, RULES[game])
    for action in actions[:-1]:
        r.play(action)
    final = r.copy()
    final.play(actions[-1])
    return r, final.scores


@pytest.mark.parametrize("game", GAMES)
def test_the_value_of_the_last_card_is_the_final_score_exactly(game):
    """Nothing is hidden at the round's last card: its one option is worth the seat's final score, as the game counts
    it (a penalty in Differenzler), with no spread."""
    r, scores = last_card(game)
    table = option_values(r, samples=5)
    assert len(table) == 1 and table["best"].all()
    assert table["mean"].iloc[0] == scores[r.to_move] and table["std"].iloc[0] == 0 == table["ci95"].iloc[0]


def mc_spec(game: str, samples: int) -> str:
    """The strong bot ``mc`` with every sample count of its settings at ``samples``."""
    counts = [name for name in get_game(game).bot_settings["mc"] if name.endswith("samples")]
    return "mc:" + ":".join(f"{name}={samples}" for name in counts)


@pytest.mark.parametrize("game", GAMES)
def test_the_best_option_is_the_strong_bots_choice_on_its_own_stream(game):
    """One evaluator: with the seat's own stream (``seed=None``) and ``mc``'s sample counts, the best option is the
    action ``mc`` takes, at every bid, prediction, auction and card decision with a choice (the decisions it values
    option by option), over a whole round; and the round itself does not move."""
    r, actions = heuristic_round(game, RULES[game])
    asked = 0
    for k, action in enumerate(actions):
        if r.decision in ("predict", "bid", "auction", "card") and len(r.legal()) > 1 and k % 3 == 0:
            before = r.to_json()
            samples = 4 + k % 5
            table = option_values(r, samples=samples, seed=None)
            assert r.to_json() == before
            assert table["action"][table["best"]].iloc[0] == r.bot_action(mc_spec(game, samples)), (k, r.decision)
            asked += 1
        r.play(action)
    assert asked >= 3


HONEST = [(game, RULES[game]) for game in GAMES] + [("wizard", ["players=3", "bidding=secret", "cards=5"]),
                                                    ("differenzler", ["predictions=open"])]  # fmt: skip


@pytest.mark.parametrize("game, rules", HONEST, ids=[f"{g}-{','.join(r or ['default'])}" for g, r in HONEST])
def test_the_values_do_not_change_when_the_cards_the_seat_cannot_see_are_dealt_anew(game, rules):
    """Honesty: at the first decision of every kind and in the second trick, the whole table (with a seed, and with
    the seat's own stream) is the same when the cards the seat cannot see are dealt anew: the other hands not yet
    played, the undealt cards, the kitty it has not taken (tests/conftest.py ``redeal_hidden``)."""
    rng = random.Random(5)
    dealt, actions = heuristic_round(game, rules)
    record = dealt.copy()
    for action in actions:
        record.play(action)
    record = record.record()
    checked = 0
    r = new_round(game, rules=rules, **start_of(record))
    played: list[set[str]] = [set() for _ in record["hands"]]
    seen, cards = set(), 0
    for k, action in enumerate(actions):
        cards += r.decision == "card"
        if r.decision not in seen or cards == r.game.seats(r.rules) + 2:
            seen.add(r.decision)
            seat = r.to_move
            sees_kitty = getattr(r.observation(seat), "kitty", None) is not None
            mine = [option_values(r, samples=6, seed=seed) for seed in (11, None)]
            other = redealt_round(game, rules, record, seat, played, sees_kitty, rng, actions[:k])
            if other is not None:
                assert other.to_json()["state"]["hands"] != r.to_json()["state"]["hands"] or k == len(actions) - 1
                for table, seed in zip(mine, (11, None), strict=True):
                    pd.testing.assert_frame_equal(option_values(other, samples=6, seed=seed), table)
                checked += 1
        if r.decision in ("card", "discard"):
            played[r.to_move].add(action)
        r.play(action)
    assert checked >= 3


def test_the_same_question_gives_the_same_numbers_on_any_thread_count():
    """Determinism: the same round, seat, samples and seed give the same table, with one thread or two; another
    seed other numbers."""
    r = next(decisions("wizard", RULES["wizard"]))
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = option_values(r, samples=30, seed=7)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = option_values(r, samples=30, seed=7)
    finally:
        numba.set_num_threads(threads)
    pd.testing.assert_frame_equal(one, two)
    pd.testing.assert_frame_equal(one, option_values(r, r.to_move, samples=30, seed=7))
    assert not one["mean"].equals(option_values(r, samples=30, seed=8)["mean"])


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"samples": 0}, r"samples=0 is not allowed: use a whole number from 1 to 100,000"),
        ({"samples": 100_001}, r"samples=100001 is not allowed: use a whole number from 1 to 100,000"),
        ({"samples": 2.5}, r"samples=2\.5 is a float; allowed: an int"),
        ({"samples": True}, r"samples=True is a bool; allowed: an int"),
        ({"seed": -1}, r"seed -1 is not allowed: use an integer from 0 to 2\*\*64-1"),
        ({"seed": "1"}, r"seed='1' is a str; allowed: an int or None"),
        ({"seat": 0}, r"seat 0 is not allowed: option_values values the decision of the seat to move, seat 1 "
                      r"\(predict\); give seat=1 or leave it out"),
        ({"seat": "1"}, r"seat='1' is a str; allowed: an int or None"),
        ({"speed": 1}, r"option_values\(\) has no argument 'speed'; its arguments: round, seat, samples, seed"),
    ],
)
def test_bad_input_is_refused_before_any_work(monkeypatch, kwargs, message):
    """A bad seat, samples or seed is refused with what is allowed, before the evaluator runs."""
    r = new_round("differenzler", hands=["S6 S7 S8 S9 ST SJ SQ SK SA", "H6 H7 H8 H9 HT HJ HQ HK HA",
                                         "D6 D7 D8 D9 DT DJ DQ DK DA", "C6 C7 C8 C9 CT CJ CQ CK CA"],
                  dealer=0, trump_card="S6")  # fmt: skip
    monkeypatch.setattr(r.game.strong_module, "option_values", lambda *a: pytest.fail("the evaluator ran"))
    with pytest.raises(CardsimError, match=message):
        option_values(r, **kwargs)


def test_a_finished_round_or_no_round_is_refused():
    r, _ = last_card("differenzler")
    r.play(r.legal()[0])
    with pytest.raises(CardsimError, match="the round is over: option_values values the decision of the seat to move"):
        option_values(r)
    with pytest.raises(CardsimError, match=r"round='differenzler' is a str; allowed: a Round \(cardsim\.new_round\)"):
        option_values("differenzler")
