"""The cheating reference bot ``omniscient`` (issue 15, 3): it sees every hand, so it is refused unless
``allow_cheating`` / ``--allow-cheating``, its rows are marked, it is kept out of the honesty tests by name
(``conftest.HONEST_STRONG_BOTS``), and its decisions do depend on the hidden cards, where an honest bot's do not.
"""

from __future__ import annotations

import random

import pytest
from conftest import redeal_hidden, start_of

import cardsim
from cardsim import CardsimError, new_round
from cardsim.cli import main
from cardsim.games import GAMES, get_game
from cardsim.runner import experiment, load_rows, run


def _lineup(game: str) -> list[str]:
    return ["omniscient"] + ["heuristic"] * (get_game(game).seats() - 1)


@pytest.mark.parametrize("game", GAMES)
def test_omniscient_is_refused_unless_cheating_is_allowed(game, tmp_path, capsys):
    bots = _lineup(game)
    for call in (lambda **kw: cardsim.simulate(game, bots, rounds=2, progress=False, **kw),
                 lambda **kw: cardsim.replay(game, seed=1, round=0, bots=bots, **kw),
                 lambda **kw: experiment(game, bots, rounds=2, **kw),
                 lambda **kw: cardsim.ladder(game, ["omniscient", "heuristic"], deals=2, **kw)):  # fmt: skip
        with pytest.raises(CardsimError, match="'omniscient' cheats: .* --allow-cheating"):
            call()
    assert call(allow_cheating=True, progress=False, timing_rounds=0).ratings.shape[0] == 2  # the ladder, allowed
    capsys.readouterr()
    for command in ("simulate", "tournament", "ladder", "replay"):
        argv = [command, game, "--bots", ",".join(bots) if command != "ladder" else "omniscient,heuristic"]
        argv += ["--round", "0"] if command == "replay" else []
        assert main(argv + ["--out", str(tmp_path / command)] * (command in ("tournament", "ladder"))) == 2
        error = capsys.readouterr().err
        assert error.count("\n") == 1 and "--allow-cheating" in error, error
    assert not (tmp_path / "tournament").exists() and not (tmp_path / "ladder").exists()  # refused before any work


@pytest.mark.parametrize("game", GAMES)
def test_the_rows_of_a_cheating_bot_are_marked_and_honest_runs_keep_their_columns(game, tmp_path):
    bots = _lineup(game)
    rows = cardsim.simulate(game, bots, rounds=3, keep_rows=True, allow_cheating=True, progress=False).rows
    assert rows["cheating"].tolist() == (rows["bot"] == "omniscient").tolist() and rows["cheating"].sum() == 3
    run(experiment(game, bots, rounds=2, allow_cheating=True), tmp_path / "t", progress=False)
    rows = load_rows(tmp_path / "t")  # every rotation: the mark follows the bot from seat to seat
    assert rows["cheating"].tolist() == (rows["bot"] == "omniscient").tolist()
    assert rows["cheating"].sum() == 2 * len(bots) and rows[rows["cheating"]]["seat"].nunique() == len(bots)
    honest = cardsim.simulate(game, "heuristic", rounds=3, keep_rows=True, progress=False).rows
    assert "cheating" not in honest.columns


@pytest.mark.parametrize("game", GAMES)
def test_omniscient_decisions_depend_on_the_cards_its_seat_cannot_see(game):
    """The mirror of the honesty test (tests/test_contract.py): at card decisions mid-round, dealing the hidden
    cards anew changes some of omniscient's cards, as it plays the true deal."""
    rng = random.Random(5)
    changed = asked = 0
    for i in range(8):
        r = new_round(game, seed=31, round=i)
        actions = []
        while not r.done:
            actions.append(r.bot_action("heuristic"))
            r.play(actions[-1])
        record = r.record()
        k = len(actions) // 2
        while True:  # the first card decision from the middle of the round on, with a choice
            r = new_round(game, **start_of(record))
            played: list[set[str]] = [set() for _ in record["hands"]]
            for a in actions[:k]:
                if r.decision in ("card", "discard"):
                    played[r.to_move].add(a)
                r.play(a)
            if r.decision == "card" and len(r.legal()) > 1:
                break
            k += 1
        mine = r.bot_action("omniscient")
        for _ in range(10):
            other = new_round(game, **redeal_hidden(record, r.to_move, played, game == "callpartner", rng))
            try:
                for a in actions[:k]:
                    other.play(a)
            except CardsimError:
                continue  # this re-deal contradicts a play (a void shown): not a possible deal
            asked += 1
            changed += other.bot_action("omniscient") != mine
    assert asked >= 10 and changed >= 2, (asked, changed)
