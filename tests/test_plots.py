"""Figures from tidy rows (cardsim.plots) and the score_distributions experiment script.

Each figure is checked against numbers computed another way: bar heights against row counts, the ECDF's end,
box-plot means against pandas, heatmap counts and met shares against the engine's own summary rates, and the
convergence curve's last point against the summary's mean and CI.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib.collections import QuadMesh
from matplotlib.figure import Figure

from cardsim import plots
from cardsim.engine import simulate
from cardsim.errors import CardsimError
from cardsim.games import GAMES, get_game

LINEUP = ["heuristic", "random", "random", "random"]
ROUNDS, GAMES_PLAYED = 400, 12
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module", params=list(GAMES))
def runs(request):
    game = request.param
    return {
        "game": game,
        "rounds": simulate(game, LINEUP, rounds=ROUNDS, seed=3, keep_rows=True),
        "games": simulate(game, LINEUP, games=GAMES_PLAYED, seed=3, keep_rows=True),
    }


def _labelled(fig: Figure) -> None:
    """A figure has a title naming its game and every axes with data has both axis labels."""
    title = fig.get_suptitle() or fig.axes[0].get_title()
    assert title.split(":")[0] in GAMES
    for ax in fig.axes:
        if ax.get_label() == "<colorbar>":
            assert ax.get_ylabel()
            continue
        assert ax.get_xlabel() or ax.get_shared_x_axes().get_siblings(ax) != [ax]  # shared x: label on the bottom
        assert ax.get_ylabel()


def test_histogram_counts_are_the_rows_of_each_bot(runs):
    rows = runs["rounds"].rows
    fig = plots.score_histogram(rows)
    _labelled(fig)
    assert fig.axes[-1].get_xlabel() == plots.score_label(runs["game"], "round")
    heights = [sum(bar.get_height() for bar in ax.containers[0]) for ax in fig.axes]
    assert heights == [ROUNDS * LINEUP.count("heuristic"), ROUNDS * LINEUP.count("random")]


def test_histogram_per_game_counts_one_total_per_game_and_seat(runs):
    fig = plots.score_histogram(runs["games"].rows, "game")
    _labelled(fig)
    assert "per game" in fig.axes[-1].get_xlabel()
    heights = [sum(bar.get_height() for bar in ax.containers[0]) for ax in fig.axes]
    assert heights == [GAMES_PLAYED * LINEUP.count("heuristic"), GAMES_PLAYED * LINEUP.count("random")]


def test_ecdf_ends_at_one_at_each_bots_highest_score(runs):
    rows = runs["rounds"].rows
    score = get_game(runs["game"]).score
    fig = plots.score_ecdf(rows)
    _labelled(fig)
    lines = fig.axes[0].get_lines()
    assert [line.get_label().split(" ")[0] for line in lines] == ["heuristic", "random"]
    for line in lines:
        x, y = line.get_data()
        bot = line.get_label().split(" ")[0]
        assert y[-1] == 1.0 and np.all(np.diff(y) > 0)
        assert x[-1] == rows.loc[rows["bot"] == bot, score].max()


@pytest.mark.parametrize("kind", ["box", "violin"])
def test_box_and_violin_mark_each_bots_mean(runs, kind):
    rows = runs["games"].rows
    fig = plots.score_boxplot(rows, "game", kind)
    _labelled(fig)
    means = fig.axes[0].get_lines()[-1].get_ydata()
    totals = rows.drop_duplicates(["game_no", "seat"]).groupby("bot", observed=True)["game_total"].mean()
    np.testing.assert_allclose(means, totals[["heuristic", "random"]])


def test_heatmap_counts_every_bid_and_met_shares_match_the_summary(runs):
    rows, summary = runs["rounds"].rows, runs["rounds"].summary
    game = runs["game"]
    fig = plots.bid_heatmap(rows)
    _labelled(fig)
    panels = [ax for ax in fig.axes if ax.get_label() != "<colorbar>"]
    counts = [m.get_array().sum() for ax in panels for m in ax.collections if isinstance(m, QuadMesh)]
    _, _, met = plots.bid_result_counts(rows)
    heuristic = summary.iloc[0]
    if game == "callpartner":  # one bid per deal with a declarer, counted for the declarer's bot
        declarers = rows.loc[(rows["seat"] == 0) & (rows["declarer"] >= 0), "declarer"]
        expected = [int((declarers == 0).sum()), int((declarers > 0).sum())]
        assert met["heuristic"] == pytest.approx(heuristic["made_as_declarer_rate"] / heuristic["declared_rate"])
    else:
        expected = [ROUNDS * LINEUP.count("heuristic"), ROUNDS * LINEUP.count("random")]
        rate = "exact_rate" if game == "differenzler" else "exact_bid_rate"
        assert met["heuristic"] == pytest.approx(heuristic[rate])
    assert counts == expected


def test_convergence_ends_at_the_summary_mean_and_ci(runs):
    summary = runs["rounds"].summary
    fig = plots.convergence(runs["rounds"].rows)
    _labelled(fig)
    top, bottom = fig.axes
    assert bottom.get_xscale() == "log"
    heuristic = summary.iloc[0]
    mean = heuristic[f"mean_{get_game(runs['game']).score}"]
    assert top.get_lines()[0].get_xdata()[-1] == ROUNDS
    assert top.get_lines()[0].get_ydata()[-1] == pytest.approx(mean)
    assert bottom.get_lines()[0].get_ydata()[-1] == pytest.approx(heuristic["ci95_high"] - mean)


def test_convergence_per_game(runs):
    fig = plots.convergence(runs["games"].rows, "game")
    _labelled(fig)
    assert fig.axes[0].get_lines()[0].get_xdata()[-1] == GAMES_PLAYED


def test_running_ci_is_the_sample_ci_at_every_size():
    values = np.random.default_rng(1).integers(0, 158, 50).astype(float)
    n, mean, half = plots.running_mean_ci(values)
    for k in (2, 17, 50):
        head = values[:k]
        assert mean[k - 1] == pytest.approx(head.mean())
        assert half[k - 1] == pytest.approx(1.959963984540054 * head.std(ddof=1) / np.sqrt(k))
    assert np.isnan(half[0])


def test_rotated_lineups_pool_by_bot_and_average_within_a_deal():
    """Duplicate deals: the same rounds with the lineup rotated by one seat, marked by a rotation column."""
    game = "wizard"
    rotated = LINEUP[-1:] + LINEUP[:-1]
    parts = [simulate(game, lineup, rounds=50, seed=5, keep_rows=True).rows.assign(rotation=r)
             for r, lineup in enumerate([LINEUP, rotated])]  # fmt: skip
    rows = pd.concat(parts, ignore_index=True)
    assert plots.bots_of(rows) == ["heuristic", "random"]
    assert len(plots.scores(rows)["heuristic"]) == 100
    units = plots.unit_scores(rows)
    assert len(units["heuristic"]) == 50  # one value per deal, averaged over the two rotations
    by_round = rows[rows["bot"] == "heuristic"].groupby("round")["score"].mean()
    np.testing.assert_allclose(units["heuristic"], by_round.to_numpy())


def test_bad_rows_are_refused_with_one_message(runs):
    with pytest.raises(CardsimError, match="games run"):
        plots.score_histogram(runs["rounds"].rows, "game")
    other = simulate("differenzler" if runs["game"] != "differenzler" else "wizard", "random", rounds=5,
                     keep_rows=True).rows  # fmt: skip
    with pytest.raises(CardsimError, match="one game at a time"):
        plots.score_ecdf(pd.concat([runs["rounds"].rows, other], ignore_index=True))


SCRIPT = [sys.executable, str(ROOT / "experiments" / "score_distributions.py")]


def test_script_smoke_writes_every_figure_and_the_report(tmp_path):
    out = tmp_path / "figures"
    done = subprocess.run([*SCRIPT, "--smoke", "--seed", "2", "--out", str(out)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    pngs = sorted(p.name for p in out.glob("*.png"))
    assert len(pngs) == len(GAMES) * 9
    assert all((out / p).stat().st_size > 5000 for p in pngs)
    report = (out / "report.md").read_text()
    assert all(f"]({p})" in report for p in pngs)  # every figure is linked, with a caption line after it


@pytest.mark.parametrize("args, message", [
    (["--bots", "nosuchbot"], "unknown bot 'nosuchbot'"),
    (["--game", "differenzler", "--players", "5"], "differenzler is played by 4 players"),
    (["--game", "chess"], "invalid choice: 'chess'"),
    (["--rounds", "0"], "not a positive integer"),
])  # fmt: skip
def test_script_bad_input_exits_2_with_one_message(tmp_path, args, message):
    done = subprocess.run([*SCRIPT, "--smoke", "--out", str(tmp_path / "x"), *args], capture_output=True, text=True)
    assert done.returncode == 2
    assert message in done.stderr
    assert not (tmp_path / "x").exists()  # nothing ran, nothing was written


def test_bid_accuracy_per_round_size_adds_up_to_the_met_share(runs):
    """Per bot, the shares met per round size (Wizard games deal 1..15 cards) weighted by their bids give back the
    heatmap's overall share; call-partner groups its declarers' contracts by another column."""
    rows = runs["games"].rows
    by = "cards" if runs["game"] == "wizard" else "seat"
    table = plots.bid_accuracy_table(rows, by)
    _, counts, met = plots.bid_result_counts(rows)
    for bot, part in table.groupby("bot", observed=True):
        assert part["bids"].sum() == counts[bot].sum()
        assert (part["met_rate"] * part["bids"]).sum() / part["bids"].sum() == pytest.approx(met[bot])
        assert (part["ci95"] >= 0).all()
    if runs["game"] == "wizard":
        assert sorted(table["cards"].unique()) == list(range(1, 16))
    fig = plots.bid_accuracy(rows, by, reference={"published": {1: 0.84}})
    _labelled(fig)
    assert len(fig.axes[0].lines) > 0
    with pytest.raises(CardsimError, match="no column 'nosuch'"):
        plots.bid_accuracy_table(rows, "nosuch")
