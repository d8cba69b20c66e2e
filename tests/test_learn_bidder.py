"""The example that learns (issue 42, item 6): experiments/learn_bidder.py trains a bidder on BatchEnv, and
bots/learned_wizard.py plays it as a numba bot from the same feature function (bots/exact_tricks_learned.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import load_script

from bots.exact_tricks_learned import (
    BID_FIRST,
    BID_SHARE,
    FEATURES,
    JESTERS,
    NO_TRUMP,
    POSITION_AT,
    SIDE_RANKS,
    SINGLETONS,
    SIZE_AT,
    TRUMP_RANKS,
    VOIDS,
    WIZARDS,
    bidder,
    features,
    greedy_bids,
    load,
)
from cardsim import new_round
from cardsim.envs import BatchEnv, encoding
from cardsim.games import get_game
from cardsim.games.exact_tricks.state import DEALER, TRUMP_SUIT, observe
from cardsim.runner import experiment, run

BOTS = Path(__file__).resolve().parent.parent / "bots"
learn = load_script("experiments/learn_bidder.py")


def _at_seat_0_bid(seed: int, index: int, rules: dict):
    """Round ``index`` of ``seed`` (BatchEnv's table ``index``, first round), the heuristic playing every decision
    until seat 0 is to bid."""
    r = new_round("wizard", seed=seed, round=index, rules=rules)
    while not (r.to_move == 0 and r.decision == "bid"):
        r.play(r.bot_action("heuristic"))
    return r


def test_tiny_training_improves_and_is_deterministic():
    setting = learn.Setting("wizard", tables=512, iterations=6, hidden=16, eval_tables=512, eval_every=3, seed=5,
                            sizes=(3, 7, 11))  # fmt: skip
    net, record = learn.train(setting)
    again, again_r = learn.train(setting)
    assert all(np.array_equal(a, b) for a, b in zip(net, again, strict=True))
    untimed = [[{k: v for k, v in point.items() if k != "seconds"} for point in r["curve"]] for r in (record, again_r)]
    assert untimed[0] == untimed[1]
    curve = record["curve"]
    assert [point["iteration"] for point in curve] == [0, 3, 6]
    assert record["rounds"] == 6 * 3 * 512
    first, last = curve[0], curve[-1]
    assert last["points"] - last["ci95"] > first["points"] + first["ci95"]  # clearly better than the initial policy
    random_points, random_ci = record["random"]
    assert last["points"] - last["ci95"] > random_points + random_ci  # and than random bids


def test_features_read_the_observation_fields():
    """The features of seat 0's observation at its bid, against the same computed from the round's state."""
    rules = {"cards": 7, "plus_minus_one": True}
    enc = encoding("wizard", players=4, rules=rules)
    x = np.empty(FEATURES, np.float32)
    for index in range(40):
        r = _at_seat_0_bid(11, index, rules)
        s = r.state
        features(enc.observe(s, 0), 4, x)
        hand = [c for c in range(60) if (int(s.hands[0]) >> c) & 1]
        view = observe(s, get_game("wizard").params(r.rules), 0)
        trump, dealer = int(view.slots[TRUMP_SUIT]), int(view.slots[DEALER])
        expect = np.zeros(FEATURES, np.float32)
        expect[SIZE_AT + 6] = 1
        expect[POSITION_AT + (0 - dealer - 1) % 4] = 1
        expect[NO_TRUMP] = trump < 0
        expect[WIZARDS] = sum(52 <= c < 56 for c in hand)
        expect[JESTERS] = sum(c >= 56 for c in hand)
        lengths = [sum(c < 52 and c // 13 == suit for c in hand) for suit in range(4)]
        for c in hand:
            if c < 52:
                if c // 13 == trump:
                    expect[TRUMP_RANKS + c % 13] = 1
                else:
                    expect[SIDE_RANKS + c % 13] += 1
        expect[VOIDS] = sum(n == 0 for suit, n in enumerate(lengths) if suit != trump)
        expect[SINGLETONS] = sum(n == 1 for suit, n in enumerate(lengths) if suit != trump)
        expect[BID_SHARE] = sum(b for b in view.bids if b >= 0) / 7
        np.testing.assert_allclose(x, expect, err_msg=f"round {index}")


@pytest.mark.parametrize("cards", [1, 6, 15])
def test_bot_bids_the_policy_argmax_of_batch_env_observations(cards):
    """The numba bot, asked on a round's view, bids what the policy bids on BatchEnv's observation of the same
    round: both compute the one feature function on the same encoding."""
    net, info = load(BOTS / "learned_wizard.npz")
    bot = bidder(net, info["players"])
    rules = {"cards": cards, "plus_minus_one": True}
    env = BatchEnv("wizard", n=48, players=4, rules=rules, agents=0, decisions="bid", seed=21)
    obs, mask, to_move = env.reset()
    assert (to_move == 0).all()
    policy = greedy_bids(obs, mask, 4, net)
    assert all(mask[i, BID_FIRST + b] for i, b in enumerate(policy))
    p = get_game("wizard").params(env.rules)
    rng = np.zeros((1, 4), np.uint64)
    for i in range(env.n):
        s = _at_seat_0_bid(21, i, rules).state
        assert bot(observe(s, p, 0), p, 0, rng) == policy[i], f"table {i}"
    assert len(set(policy.tolist())) > 1 or cards == 1


def test_bot_plays_legal_bids_in_a_tournament(tmp_path):
    """Under plus_minus_one the dealer may not bid the cards left: the bot's argmax over the legal bids never
    does (the run would stop, naming it), in a duplicate tournament through its file."""
    spec = f"{BOTS / 'learned_wizard.py'}:learned_bidder"
    exp = experiment("wizard", [spec, "heuristic", "heuristic", "heuristic"], games=12, seed=4,
                     rules={"plus_minus_one": True})  # fmt: skip
    table = run(exp, tmp_path / "t", progress=False, threads=1).standings.bots.set_index("bot")
    assert table.loc[spec, "rounds"] == 12 * 15 * 4  # every round of the 12 games, in each of the 4 rotations
