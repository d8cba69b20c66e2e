"""Numba bots (issue 15 item 5): a user's ``@njit`` function plays inside the compiled kernels, sees only its seat's
view, is refused like any bot when it answers wrong, and costs no compile per function.

Every test is parametrized by game first, so each runs in its game's xdist group (tests/conftest.py)."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

import bots.numba_examples as examples
from cardsim import cli
from cardsim.engine import simulate
from cardsim.errors import CardsimError
from cardsim.games import GAMES, get_game
from cardsim.games.callpartner import state as callpartner
from cardsim.games.differenzler import state as differenzler
from cardsim.games.exact_tricks import state as wizard
from cardsim.rng import below

EXAMPLES = {"differenzler": examples.differenzler_forty, "wizard": examples.wizard_wizards,
            "callpartner": examples.callpartner_random, "ohhell": examples.ohhell_aces}  # fmt: skip


def peeking(state_module):  # noqa: ANN001, ANN201
    """A numba bot for the game of ``state_module`` that raises if its view shows a card of another seat's hand,
    else plays a random legal action (compiled per game, not cached: a closure)."""
    legal_actions = state_module.legal_actions

    @njit
    def peeking_bot(view, p, seat, rng):  # noqa: ANN001, ANN202
        for other in range(view.hands.shape[0]):
            if other != seat and view.hands[other] != 0:
                raise ValueError("saw another hand")
        out = np.empty(256, np.int64)
        return out[below(rng, 0, legal_actions(view, p, out))]

    return peeking_bot


PEEKING = {"differenzler": peeking(differenzler), "wizard": peeking(wizard), "callpartner": peeking(callpartner),
           "ohhell": peeking(wizard)}  # fmt: skip


@njit(cache=True)
def illegal(view, p, seat, rng):  # noqa: ANN001, ANN201
    """Answers 63 to everything: no card of any deck here, no legal bid in a first Wizard round."""
    return 63


@njit(cache=True)
def raising(view, p, seat, rng):  # noqa: ANN001, ANN201
    """Raises at its first decision."""
    if seat >= 0:
        raise ValueError("boom")
    return 0


def lineup(bot) -> list:  # noqa: ANN001
    """The numba bot in seat 0 against built-in bots."""
    return [bot, "heuristic", "random", "heuristic"]


@pytest.mark.parametrize("game", GAMES)
def test_a_numba_bot_plays_the_same_rounds_in_the_kernel_and_the_python_driver(game):
    """The kernels ask a numba bot as the Python driver does (its view, its private stream): identical rows."""
    g = get_game(game)
    rules = g.make_rules()
    up = g.lineup(lineup(EXAMPLES[game]), rules)
    fast = g.run(rules, up, 11, 0, 120, False)
    slow = g.run(rules, up, 11, 0, 120, False, engine="python")
    for name, values in fast.per_seat.items():
        np.testing.assert_array_equal(values, slow.per_seat[name], err_msg=name)
    assert not np.array_equal(fast.per_seat[g.score][:, :, 0], fast.per_seat[g.score][:, :, 2])  # not a copy


@pytest.mark.parametrize("game", GAMES)
def test_a_numba_bot_sees_no_other_hand(game):
    """The kernels give a numba bot its seat's view only: a bot that raises on seeing another hand plays through.
    (Handing it the round itself instead of ``observe``'s view makes this fail.)"""
    result = simulate(game, lineup(PEEKING[game]), rounds=200, seed=4, progress=False)
    assert result.summary["bot"][0] == "peeking_bot"
    assert result.summary["rounds"].tolist() == [200] * 4


@pytest.mark.parametrize("game", GAMES)
def test_an_illegal_answer_of_a_numba_bot_is_one_clear_error(game):
    with pytest.raises(CardsimError, match=r"bot 'illegal' \(seat 0\) in .*seed 1, round 0, .*(not legal|allowed)"):
        simulate(game, lineup(illegal), rounds=50, seed=1, progress=False)


@pytest.mark.parametrize("game", GAMES)
def test_an_exception_in_a_numba_bot_is_one_clear_error(game):
    """numba only prints an exception raised through a first-class function and goes on with 0; the batch is
    refused instead, and the round replayed to name the bot and the decision."""
    with pytest.raises(CardsimError, match=r"bot 'raising' \(seat 0\) in .*seed 1, round 0, .*raised ValueError: boom"):
        simulate(game, lineup(raising), rounds=50, seed=1, progress=False)


@pytest.mark.parametrize("game", ["differenzler"])
def test_a_numba_bot_of_the_wrong_shape_is_refused(game):
    @njit
    def two_arguments(view, p):  # noqa: ANN001, ANN202
        return 0

    with pytest.raises(CardsimError, match="numba bot 'two_arguments' does not compile as act.view, p, seat, rng"):
        simulate(game, lineup(two_arguments), rounds=10, seed=1, progress=False)


@pytest.mark.parametrize("game", ["differenzler"])
def test_the_kernel_compiles_once_for_any_numba_bots(game):
    """The kernels take numba bots as first-class functions of one signature: a second bot compiles no kernel."""
    from cardsim.games.differenzler.play import simulate_games

    simulate(game, lineup(EXAMPLES[game]), rounds=10, seed=1, progress=False)
    compiled = set(simulate_games.signatures)
    simulate(game, lineup(PEEKING[game]), rounds=10, seed=1, progress=False)
    assert set(simulate_games.signatures) == compiled


@pytest.mark.parametrize("game", ["differenzler"])
def test_a_numba_bot_file_plays_from_the_cli_and_in_a_tournament(game, tmp_path, capsys):
    bot = "bots/numba_examples.py:differenzler_forty"
    assert cli.main(["simulate", game, "--bots", f"{bot},heuristic,random,random", "--rounds", "100"]) == 0
    assert "differenzler_forty" in capsys.readouterr().out
    assert cli.main(["tournament", game, "--bots", f"{bot},heuristic,heuristic,heuristic", "--rounds", "50",
                     "--out", str(tmp_path / "t"), "--no-progress"]) == 0  # fmt: skip
    assert cli.main(["simulate", game, "--bots", "bots/numba_examples.py:nothing_here", "--rounds", "10"]) == 2
    assert "differenzler_forty" in capsys.readouterr().err  # the functions there are named


@pytest.mark.parametrize("game", ["differenzler"])
def test_bid_advice_refuses_a_numba_bot(game):
    """The completion kernels play built-in bots only: a numba bot is refused by name, not played as another."""
    from cardsim.advise import advise

    with pytest.raises(CardsimError, match="has a numba bot"):
        advise(game, "SA SK SQ HT H6 D7 DJ CA C6", seat=1, trump="C9", samples=10, seed=1,
               bots=[EXAMPLES[game], "heuristic", "heuristic", "heuristic"])  # fmt: skip


@pytest.mark.parametrize("game", ["differenzler"])
def test_a_numba_bot_plays_checked_rounds(game):
    """``--check`` steps a lineup with a numba bot through ``run_checked`` (the round's invariants after every
    step) and gives the same rows as the unchecked run."""
    plain = simulate(game, lineup(EXAMPLES[game]), rounds=200, seed=2, progress=False, keep_rows=True)
    checked = simulate(game, lineup(EXAMPLES[game]), rounds=200, seed=2, progress=False, keep_rows=True, check=True)
    assert checked.rows.equals(plain.rows)
