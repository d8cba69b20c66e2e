"""Random and heuristic lineups run kernels compiled without the strong bots (``strong_bots`` None, which numba
prunes); the strong-capable kernels (``strong_bots`` the strong bots' entry, ``Game.strong_function``) must play
such lineups exactly alike."""

import pandas as pd
import pytest

import cardsim.front.bots
from cardsim import simulate


@pytest.mark.parametrize(
    "game, bots, size",
    [
        ("differenzler", "heuristic,random,heuristic,random", {"rounds": 300}),
        ("differenzler", "heuristic", {"games": 3}),
        ("wizard", "random,heuristic,heuristic,random", {"games": 2}),
        ("callpartner", "heuristic,random,heuristic,random", {"rounds": 300}),
        ("callpartner", "random", {"rounds": 300}),
    ],
)
def test_builtin_lineups_play_alike_with_and_without_the_strong_branches(game, bots, size, monkeypatch):
    lean = simulate(game, bots, seed=5, threads=1, keep_rows=True, progress=False, **size).rows
    monkeypatch.setattr(cardsim.front.bots, "strong_table", lambda table: table)  # every table "holds a strong bot"
    capable = simulate(game, bots, seed=5, threads=1, keep_rows=True, progress=False, **size).rows
    assert len(lean) > 0
    pd.testing.assert_frame_equal(lean, capable)
