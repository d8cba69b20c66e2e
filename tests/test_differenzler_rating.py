"""The rating list (``cardsim.ladder``, ``cardsim ladder``): the Bradley-Terry fit against known ratings, and a
small Differenzler ladder end to end (tables, files, resume, refusals, the tournament's own statistics)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import cardsim
from cardsim.cli import main
from cardsim.errors import CardsimError
from cardsim.rating import ELO, fit_bradley_terry
from cardsim.runner import load


def expected_wins(ratings: list[float], deals: float) -> tuple[np.ndarray, np.ndarray]:
    """Wins as Bradley-Terry expects them for ``ratings`` (Elo scale), ``deals`` per pair."""
    r = np.array(ratings)
    share = 1 / (1 + 10 ** ((r[None, :] - r[:, None]) / 400))
    met = np.full((len(r), len(r)), deals) - np.diag(np.full(len(r), deals))
    return met * share, met


def test_the_fit_recovers_known_ratings_centred_on_zero():
    wins, met = expected_wins([300, 0, -100, -200], 1e7)
    elo, _ = fit_bradley_terry(wins, met)
    assert np.allclose(elo, [300, 0, -100, -200], atol=0.01)


def test_the_fit_gives_the_binomial_standard_error_between_two_even_bots():
    """Two bots, n deals, even: the difference of their log-strengths has variance 1 / (n / 4); each rating is
    half the difference (their sum is 0), so its error is ELO / sqrt(n) (n counts the virtual tied deal)."""
    wins, met = expected_wins([0, 0], 9_999)
    elo, errors = fit_bradley_terry(wins, met)
    assert np.allclose(elo, 0, atol=1e-9)
    assert errors == pytest.approx([ELO / math.sqrt(10_000)] * 2, rel=1e-6)


def test_a_bot_that_wins_every_deal_gets_a_finite_rating():
    elo, errors = fit_bradley_terry(np.array([[0.0, 50], [0, 0]]), np.array([[0.0, 50], [50, 0]]))
    assert np.isfinite(elo).all() and np.isfinite(errors).all() and elo[0] > 300


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    out = tmp_path_factory.mktemp("ladder") / "dz"
    return out, cardsim.ladder("differenzler", "random,heuristic", deals=64, seed=3, out=out, progress=False)


def test_a_ladder_rates_the_heuristic_above_random_from_both_matches(small):
    out, result = small
    assert list(result.ratings.bot) == ["heuristic", "random"]
    assert result.ratings.elo.sum() == pytest.approx(0)
    pair = result.pairs.iloc[0]
    assert (pair.bot, pair.opponent, pair.deals) == ("random", "heuristic", 128)  # two matches of 64 deals
    assert pair.wins + pair.ties + pair.losses == 128 and pair.verdict == "heuristic better"
    assert sorted(p.name for p in out.iterdir()) == ["ladder.json", "ladder.png", "matches", "pairs.parquet",
                                                     "ratings.parquet"]  # fmt: skip
    pd.testing.assert_frame_equal(pd.read_parquet(out / "ratings.parquet"), result.ratings)


def test_the_pairs_score_difference_is_the_tournaments_deal_by_deal(small):
    """The ladder reads each match's rows; the tournament's statistics of the same folders come from the kernels'
    batches. Both give each match's mean difference per round, and the pair's is their mean."""
    out, result = small
    diffs = []
    for k in range(2):
        pairs = load(out / "matches" / f"{k:03d}").standings.pairs.iloc[0]
        diffs.append(pairs.diff_penalty if k == 0 else -pairs.diff_penalty)  # match 1 is heuristic's: flip it
    assert result.pairs.iloc[0].diff_penalty == pytest.approx(np.mean(diffs))


def test_resuming_a_finished_ladder_computes_nothing_and_gives_the_same_tables(small, capsys):
    out, result = small
    again = cardsim.ladder("differenzler", "random,heuristic", deals=64, seed=3, out=out, resume=True,
                           progress=False)  # fmt: skip
    pd.testing.assert_frame_equal(again.ratings, result.ratings)
    pd.testing.assert_frame_equal(again.pairs, result.pairs)
    assert "compiling" not in capsys.readouterr().err


@pytest.mark.parametrize("args, message", [
    (["--bots", "random,heuristic", "--deals", "64", "--seed", "3"], "already holds a ladder; add --resume"),
    (["--bots", "random,heuristic", "--deals", "32", "--seed", "3", "--resume"], "deals 64 there, 32 here"),
    (["--bots", "random,random"], "two or more different bots"),
    (["--bots", "random,nosuch"], "unknown bot 'nosuch'"),
])  # fmt: skip
def test_bad_ladders_are_refused_with_one_line_before_any_work(small, capsys, args, message):
    out, _ = small
    assert main(["ladder", "differenzler", "--out", str(out), *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_the_command_prints_the_ratings(small, capsys):
    out, _ = small
    assert main(["ladder", "differenzler", "--bots", "random,heuristic", "--deals", "64", "--seed", "3", "--out",
                 str(out), "--resume", "--no-progress"]) == 0  # fmt: skip
    text = capsys.readouterr().out
    assert text.startswith("differenzler ladder, 64 deals per match, seed 3") and "heuristic better" in text
    assert [line.split()[0] for line in text.splitlines()[3:5]] == ["heuristic", "random"]  # the ratings, best first


def test_without_a_folder_the_matches_leave_nothing_behind(tmp_path, monkeypatch):
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)
    result = cardsim.ladder("differenzler", ["random", "heuristic"], deals=16, seed=3, progress=False)
    assert result.folder is None and not any(tmp_path.iterdir())
    with pytest.raises(CardsimError, match="two or more"):
        cardsim.ladder("differenzler", ["heuristic"], deals=16)


def test_a_strong_bots_time_per_decision_stands_beside_its_rating():
    """Timed as the strength benchmark times it (``Game.decision_times``); the compiled built-in bots' decisions
    are too quick to time one by one and get none."""
    result = cardsim.ladder("differenzler", "heuristic,mc:samples=2:bid_samples=2", deals=4, progress=False,
                            timing_rounds=2)  # fmt: skip
    times = result.ratings.set_index("bot")
    assert times.loc["mc:samples=2:bid_samples=2", "ms_per_decision"] > 0
    assert times.loc["mc:samples=2:bid_samples=2", "ms_p90"] >= times.loc["mc:samples=2:bid_samples=2",
                                                                          "ms_per_decision"]  # fmt: skip
    assert np.isnan(times.loc["heuristic", "ms_per_decision"])


def test_the_largest_seed_wraps_for_the_later_matches():
    result = cardsim.ladder("differenzler", "random,heuristic", deals=4, seed=2**64 - 1, progress=False)
    assert result.seed == 2**64 - 1 and result.pairs.deals[0] == 8
