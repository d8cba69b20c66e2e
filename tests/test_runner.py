"""The experiment runner: chunk files, resume, damage detection, Dask, and duplicate-deal statistics."""

from __future__ import annotations

import itertools
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import cardsim
from cardsim import runner
from cardsim.analysis import Z95
from cardsim.cli import main
from cardsim.engine import simulate
from cardsim.errors import CardsimError

LINEUP = "heuristic,random,heuristic,random"
ROOT = Path(__file__).resolve().parent.parent


def small(**changes) -> runner.Experiment:
    settings = dict(bots=LINEUP, rounds=1500, seed=11, chunk=400) | changes
    return runner.experiment("differenzler", **settings)


def chunk_bytes(folder) -> dict[str, bytes]:
    """Every chunk file (rows and sidecars, hidden leftovers too) by its path in the folder."""
    files = [p for d in ("rows", "checks") for p in sorted((folder / d).glob("*"))]
    return {str(p.relative_to(folder)): p.read_bytes() for p in files}


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """An uninterrupted run of ``small()``: its files and standings are what every other way must give."""
    folder = tmp_path_factory.mktemp("reference")
    outcome = runner.run(small(), folder, progress=False)
    return folder, outcome


def test_chunks_are_written_with_config_and_cover_every_deal(reference):
    folder, outcome = reference
    config = json.loads((folder / "config.json").read_text())
    assert config["seed"] == 11 and config["units"] == 1500 and config["chunk"] == 400 and config["rotations"] == 4
    assert config["version"].startswith(f"{cardsim.__version__}+")
    assert len(chunk_bytes(folder)) == 2 * 4  # Parquet + sidecar for 4 chunks of 400, 400, 400, 300 deals
    rows = runner.load_rows(folder)
    assert len(rows) == 1500 * 4 * 4  # deals x rotations x seats
    assert sorted(rows["round"].unique()) == list(range(1500))
    assert outcome.stats.units == 1500 and outcome.computed == 4


def test_rotation_zero_rows_are_the_engines_rows(tmp_path):
    """Rotation 0 is the lineup as seated: the same rows as ``simulate`` with the same seed."""
    exp = small(rounds=300, chunk=120)
    rows = runner.load_rows(runner.run(exp, tmp_path, progress=False).folder)
    plain = simulate("differenzler", LINEUP, rounds=300, seed=11, keep_rows=True).rows
    mine = rows[rows["rotation"] == 0].drop(columns="rotation").reset_index(drop=True)
    pd.testing.assert_frame_equal(mine, plain)


def test_the_rows_folder_is_a_dataset_of_the_tidy_rows_that_pandas_pyarrow_and_duckdb_read_as_load_rows(reference):
    """Issue 13.10: ``pd.read_parquet("results/wiz/chunks")`` failed (JSON sidecars among the chunk files), and
    the chunks held seats as columns without the derived columns. ``rows/`` now holds the documented tidy rows
    themselves: ordinary tools read the same rows, in the same types, as ``load_rows``."""
    import duckdb
    import pyarrow.dataset as ds

    folder, _ = reference
    rows = runner.load_rows(folder)
    assert len(rows) == 1500 * 4 * 4 and list(rows.columns[:8]) == ["game", "rules", "seed", "round", "rotation",
                                                                     "seat", "bot", "first_hand"]  # fmt: skip
    assert [name for name in rows if rows[name].dtype == "category"] == ["game", "rules", "bot", "trump_card", "trump"]
    for other in (pd.read_parquet(folder / "rows"), ds.dataset(folder / "rows").to_table().to_pandas()):
        pd.testing.assert_frame_equal(other, rows)
    sql = duckdb.sql(f"select * from '{folder}/rows/*.parquet' order by rotation, round, seat").df()
    ordered = rows.sort_values(["rotation", "round", "seat"], ignore_index=True)
    for name in rows.columns:  # duckdb's own types (strings for categories), the same values
        np.testing.assert_array_equal(sql[name].astype(str), ordered[name].astype(str), err_msg=name)
    total = duckdb.sql(f"select bot, sum(penalty) from '{folder}/rows/*.parquet' group by bot order by bot").fetchall()
    assert total == sorted(rows.groupby("bot", observed=True)["penalty"].sum().items())


def test_every_rotation_plays_the_same_deals_with_the_bots_moved_on(tmp_path):
    rows = runner.load_rows(runner.run(small(rounds=200, chunk=200), tmp_path, progress=False).folder)
    per_deal = rows.groupby("round")[["trump_card", "first_hand"]].nunique(dropna=False)
    assert (per_deal == 1).all().all()  # the deal (and First Hand) is the same in all 4 rotations
    bots = LINEUP.split(",")
    expected = [bots[(s - r) % 4] for r, s in zip(rows["rotation"], rows["seat"], strict=True)]
    assert list(rows["bot"]) == expected


def test_standings_match_a_direct_computation_from_the_rows(reference):
    """Means, CIs and paired differences from the chunk sums equal a pandas computation over the rows."""
    folder, outcome = reference
    rows = runner.load_rows(folder)
    per_deal = rows.groupby(["round", "bot"], observed=True)["penalty"].mean().unstack()
    bots = outcome.standings.bots.set_index("bot")
    for bot in per_deal.columns:
        values = per_deal[bot]
        assert bots.loc[bot, "mean_penalty"] == pytest.approx(values.mean(), rel=1e-12)
        assert bots.loc[bot, "ci95"] == pytest.approx(Z95 * values.std() / math.sqrt(len(values)), rel=1e-9)
    diff = per_deal["heuristic"] - per_deal["random"]
    pair = outcome.standings.pairs.iloc[0]
    assert (pair["bot"], pair["opponent"]) == ("heuristic", "random")
    assert pair["diff_penalty"] == pytest.approx(diff.mean(), rel=1e-12)
    assert pair["ci95"] == pytest.approx(Z95 * diff.std() / math.sqrt(len(diff)), rel=1e-9)
    assert pair["verdict"] == "heuristic better"
    exact = rows.assign(hit=rows["prediction"] == rows["points"]).groupby("bot", observed=True)["hit"].mean()
    assert bots["exact_rate"].to_dict() == pytest.approx(exact.to_dict())


def test_games_mode_standings_and_rates(tmp_path):
    exp = runner.experiment("callpartner", "heuristic,random,random,random", games=12, seed=5, chunk=5)
    outcome = runner.run(exp, tmp_path, progress=False)
    bots = outcome.standings.bots.set_index("bot")
    rows = runner.load_rows(tmp_path)
    per_game = rows.drop_duplicates(["game_no", "rotation", "seat"]).groupby(["game_no", "bot"], observed=True)
    totals = per_game["game_total"].mean().unstack()
    assert bots["mean_game_score"].to_dict() == pytest.approx(totals.mean().to_dict())
    assert (bots["win_rate"] * bots["seats"]).sum() == pytest.approx(1.0)  # one win (or a shared one) per game
    declared = rows.assign(d=rows["declarer"] == rows["seat"], m=(rows["declarer"] == rows["seat"]) & rows["made"])
    counts = declared.groupby("bot", observed=True)[["d", "m"]].sum()
    assert bots["contracts_made_rate"].to_dict() == pytest.approx((counts["m"] / counts["d"]).to_dict())


def test_same_files_whatever_the_threads(reference, tmp_path):
    folder, outcome = reference
    again = runner.run(small(), tmp_path, threads=1, progress=False)
    assert chunk_bytes(tmp_path) == chunk_bytes(folder)
    pd.testing.assert_frame_equal(again.standings.bots, outcome.standings.bots)


def test_resume_after_an_interruption_equals_an_uninterrupted_run(reference, monkeypatch, tmp_path):
    folder, outcome = reference
    target = tmp_path
    real_seal, number, sealed = runner.ResultsFolder.seal, itertools.count(1), []

    def seal_then_interrupt(self, exp, index, stats):
        if next(number) == 3:
            raise KeyboardInterrupt  # Ctrl-C as the third chunk's file is done, before its sidecar
        real_seal(self, exp, index, stats)
        sealed.append(index)

    monkeypatch.setattr(runner.ResultsFolder, "seal", seal_then_interrupt)
    with pytest.raises(KeyboardInterrupt):
        runner.run(small(), target, progress=False)
    monkeypatch.setattr(runner.ResultsFolder, "seal", real_seal)
    # the chunks already played are still written (the writers take two chunks at a time): all but the third
    assert len(sealed) == 3 and sorted(p.name for p in (target / "checks").glob("*")) == [
        f"chunk-{i:06d}.json" for i in sorted(sealed)
    ]
    assert len(list((target / "rows").glob("*.parquet"))) == 4  # the interrupted chunk's rows, without a sidecar
    (target / "rows" / ".chunk-000002.parquet.partial").write_bytes(b"half a file")  # a killed writer's leftover
    resumed = runner.run(small(), target, resume=True, progress=False)
    assert resumed.computed == 1
    assert chunk_bytes(target) == chunk_bytes(folder)
    pd.testing.assert_frame_equal(resumed.standings.bots, outcome.standings.bots)
    pd.testing.assert_frame_equal(resumed.standings.pairs, outcome.standings.pairs)
    assert runner.run(small(), target, resume=True, progress=False).computed == 0


def test_a_chunk_that_fails_to_encode_leaves_no_partial_file(reference, monkeypatch, tmp_path):
    """The writers encode each chunk straight into a hidden temporary file: a rotation that fails (here: a full
    disk) removes it, the error reaches the caller, and a resumed run writes the same files as the reference."""
    folder, _ = reference
    real_add, number = runner.ChunkRows.add, itertools.count(1)

    def add_or_fail(self, batch):
        if next(number) == 6:  # the second chunk's second rotation
            raise OSError(28, "No space left on device")
        real_add(self, batch)

    monkeypatch.setattr(runner.ChunkRows, "add", add_or_fail)
    with pytest.raises(OSError, match="No space left"):
        runner.run(small(), tmp_path, progress=False)
    monkeypatch.setattr(runner.ChunkRows, "add", real_add)
    assert not list((tmp_path / "rows").glob(".*.partial"))
    assert runner.run(small(), tmp_path, resume=True, progress=False).computed < 4
    assert chunk_bytes(tmp_path) == chunk_bytes(folder)


@pytest.mark.parametrize("damage", ["truncate", "flip", "sidecar", "garbage", "orphan"])
def test_a_damaged_chunk_is_detected_and_recomputed(reference, damage, tmp_path):
    folder, _ = reference
    target = tmp_path
    runner.run(small(), target, progress=False)
    parquet, sidecar = target / "rows" / "chunk-000001.parquet", target / "checks" / "chunk-000001.json"
    data = parquet.read_bytes()
    if damage == "truncate":
        parquet.write_bytes(data[: len(data) // 2])
    elif damage == "flip":
        parquet.write_bytes(data[:100] + bytes([data[100] ^ 1]) + data[101:])
    elif damage == "sidecar":
        sidecar.write_text(sidecar.read_text().replace('"units": 400', '"units": 401'))
    elif damage == "garbage":
        sidecar.write_bytes(b"\x00garbage")
    else:
        sidecar.unlink()  # killed between the Parquet file and its sidecar
    if damage != "orphan":
        with pytest.raises(CardsimError, match="missing or damaged.*chunk 1 is damaged.*--resume"):
            runner.load_rows(target)
    warnings = []
    resumed = runner.run(small(), target, resume=True, progress=False, warn=warnings.append)
    assert resumed.computed == 1
    # Issue 13.12: an orphan (rows without a sidecar) was recomputed unreported, a garbage sidecar gave a raw
    # JSON error; each is now one warning that says what is wrong.
    expected = {"orphan": "chunk 1 has rows but no sidecar (interrupted while it was written); it will be computed "
                "again", "garbage": "chunk 1 is damaged (its sidecar chunk-000001.json is not the JSON cardsim wrote)"}
    assert len(warnings) == 1 and expected.get(damage, "chunk 1 is damaged") in warnings[0], warnings
    assert chunk_bytes(target) == chunk_bytes(folder)


def test_resume_refuses_another_experiment_and_says_what_differs(reference):
    folder, _ = reference
    with pytest.raises(CardsimError, match=r"seed 11 there, 12 here.*another --out"):
        runner.run(small(seed=12), folder, resume=True, progress=False)
    with pytest.raises(CardsimError, match="bots .*heuristic.* there, .*random.* here"):
        runner.run(small(bots="random"), folder, resume=True, progress=False)
    with pytest.raises(CardsimError, match="already holds an experiment; add --resume"):
        runner.run(small(), folder, progress=False)


def test_a_folder_of_an_older_results_format_is_named_as_such_not_called_damaged(reference, tmp_path, capsys):
    """Results format 3 holds tidy rows; a format 2 folder (seats as columns) was read as 'format None is not 2'."""
    import shutil

    folder = shutil.copytree(reference[0], tmp_path / "old")
    config = json.loads((folder / "config.json").read_text())
    (folder / "config.json").write_text(json.dumps({**config, "format": 2}))
    with pytest.raises(CardsimError, match=r"holds results format 2, written by another version .*reads format 3"):
        runner.load_rows(folder)
    assert main(["tournament", "differenzler", "--rounds", "1500", "--out", str(folder), "--resume"]) == 2
    assert "results format 2" in capsys.readouterr().err


def test_bad_folders_and_inputs_get_one_clear_message(tmp_path, capsys):
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "config.json").write_text("{not json")
    assert main(["tournament", "differenzler", "--rounds", "100", "--out", str(tmp_path / "bad"), "--resume"]) == 2
    assert "config.json is unreadable" in capsys.readouterr().err
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    assert main(["tournament", "differenzler", "--rounds", "100", "--out", str(tmp_path / "other")]) == 2
    assert "is not empty and holds no cardsim experiment" in capsys.readouterr().err
    assert main(["tournament", "differenzler", "--bots", "genius", "--out", str(tmp_path / "x")]) == 2
    assert "unknown bot 'genius'" in capsys.readouterr().err
    assert main(["tournament", "wizard", "--games", "5", "--dask-local", "2", "--scheduler", "tcp://h:1",
                 "--out", str(tmp_path / "y")]) == 2  # fmt: skip
    assert "not both" in capsys.readouterr().err
    with pytest.raises(CardsimError, match="chunk size must be a positive integer"):
        runner.experiment("wizard", "random", games=5, chunk=0)


def test_cli_tournament_writes_standings_summary_and_figures(tmp_path, capsys):
    out = tmp_path / "wiz"
    args = ["tournament", "wizard", "--bots", "heuristic,random,random,random", "--games", "6", "--seed", "2",
            "--out", str(out), "--json"]  # fmt: skip
    assert main(args) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["computed_chunks"] == 1 and {b["bot"] for b in report["bots"]} == {"heuristic", "random"}
    for name in ["bots.parquet", "pairs.parquet", "summary.md", "figures/mean_score.png", "figures/pairs.png"]:
        assert (out / name).stat().st_size > 0, name
    assert "![mean_score.png](figures/mean_score.png)" in (out / "summary.md").read_text()
    assert main([*args, "--resume"]) == 0
    assert json.loads(capsys.readouterr().out)["computed_chunks"] == 0


@pytest.mark.slow
def test_dask_local_cluster_gives_the_local_files_bit_for_bit(reference, tmp_path):
    folder, outcome = reference
    clustered = runner.run(small(), tmp_path, dask_local=2, progress=False)
    assert clustered.computed == 4
    assert chunk_bytes(tmp_path) == chunk_bytes(folder)
    pd.testing.assert_frame_equal(clustered.standings.bots, outcome.standings.bots)
    assert np.array_equal(clustered.stats.cross, outcome.stats.cross)


@pytest.mark.slow
def test_an_existing_scheduler_runs_the_missing_chunks_bit_for_bit(reference, tmp_path):
    """--scheduler: workers of a running cluster compute what an interrupted local run left."""
    from distributed import LocalCluster

    folder, outcome = reference
    runner.run(small(), tmp_path, progress=False)
    for name in ("rows/chunk-000001.parquet", "checks/chunk-000001.json", "checks/chunk-000003.json"):
        (tmp_path / name).unlink()
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster:
        resumed = runner.run(small(), tmp_path, resume=True, scheduler=cluster.scheduler_address, progress=False)
    assert resumed.computed == 2
    assert chunk_bytes(tmp_path) == chunk_bytes(folder)
    pd.testing.assert_frame_equal(resumed.standings.pairs, outcome.standings.pairs)


@pytest.mark.slow
def test_an_unreachable_scheduler_is_one_message_and_leaves_no_folder(tmp_path, capsys):
    out = tmp_path / "never"
    assert main(["tournament", "wizard", "--games", "5", "--scheduler", "tcp://127.0.0.1:9", "--out", str(out)]) == 2
    assert "cannot reach the Dask scheduler at 'tcp://127.0.0.1:9'" in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.slow
def test_a_killed_process_resumes_to_the_uninterrupted_result(tmp_path):
    """SIGKILL in the middle of a real `cardsim tournament` (Python bots: slow chunks), then --resume."""
    import os
    import signal
    import subprocess
    import sys
    import time

    args = ["tournament", "differenzler", "--bots", "bots/examples.py:Cautious,heuristic,random,random",
            "--rounds", "640", "--chunk", "32", "--seed", "4", "--no-progress"]  # fmt: skip
    command = [sys.executable, "-c", "import sys; from cardsim.cli import main; sys.exit(main(sys.argv[1:]))"]
    killed = subprocess.Popen([*command, *args, "--out", str(tmp_path / "killed")], cwd=ROOT)
    deadline = time.monotonic() + 120
    while not list((tmp_path / "killed" / "checks").glob("chunk-*.json")) and time.monotonic() < deadline:
        time.sleep(0.05)
    os.kill(killed.pid, signal.SIGKILL)
    killed.wait()
    finished = len(list((tmp_path / "killed" / "checks").glob("chunk-*.json")))
    assert 1 <= finished < 20, "the kill should land while chunks remain"
    resumed = subprocess.run([*command, *args, "--out", str(tmp_path / "killed"), "--resume", "--json"], cwd=ROOT,
                             capture_output=True, text=True)  # fmt: skip
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["computed_chunks"] == 20 - finished
    whole = subprocess.run([*command, *args, "--out", str(tmp_path / "whole")], cwd=ROOT, capture_output=True)
    assert whole.returncode == 0
    assert chunk_bytes(tmp_path / "killed") == chunk_bytes(tmp_path / "whole")


def test_default_chunks_are_small_for_slow_bots():
    fast = runner.experiment("differenzler", "random", rounds=10**7)
    strong = runner.experiment("differenzler", "mc,heuristic,heuristic,heuristic", rounds=10**7)
    python = runner.experiment("differenzler", "bots/examples.py:Cautious,random,random,random",
                               rounds=10**7)  # fmt: skip
    assert fast.chunk * fast.rotations == runner.ROUNDS_PER_CHUNK
    assert strong.chunk == runner.STRONG_BOT_UNITS_PER_CHUNK < fast.chunk
    assert python.chunk == runner.PYTHON_BOT_UNITS_PER_CHUNK


def test_a_tournament_stopped_by_a_bot_error_names_the_rotation_and_does_not_block_its_rerun(tmp_path, capsys):
    """Issue 13.12: the folder of a run stopped by a bot error blocked the rerun once the bot was fixed (it had to
    be deleted by hand, and nothing said so), and the error named the seat but not the rotation."""
    bot_file = tmp_path / "fragile.py"
    bot_file.write_text("class Bot:\n    def predict(self, obs):\n        raise RuntimeError('not yet')\n"
                        "    def play(self, obs):\n        return obs.legal[0]\n")  # fmt: skip
    out = tmp_path / "t"
    argv = ["tournament", "differenzler", "--bots", f"{bot_file}:Bot,random,random,random", "--rounds", "8",
            "--out", str(out)]  # fmt: skip
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "(rotation 0: seats " in err and f"no chunk was finished, so nothing is kept in {out}" in err
    assert not out.exists()
    bot_file.write_text(bot_file.read_text().replace("raise RuntimeError('not yet')", "return 40"))
    fixed = subprocess.run([sys.executable, "-m", "cardsim.cli", *argv], capture_output=True, text=True)  # a new
    assert fixed.returncode == 0, fixed.stderr  # process, as a user reruns it (this one keeps the loaded bot)
    assert len(runner.load_rows(out)) == 8 * 4 * 4


@pytest.mark.slow
def test_a_python_bot_by_relative_path_plays_on_workers_in_another_folder(tmp_path, monkeypatch):
    """Issue 13.12: a Python bot given by a relative path failed on Dask workers ("no file mybots.py") although the
    file was there: a worker runs in its own folder (or machine). The tasks carry the bot files' text now."""
    import os

    from distributed import Client, LocalCluster

    (tmp_path / "mybots.py").write_text("class Low:\n    def predict(self, obs):\n        return 40\n"
                                        "    def play(self, obs):\n        return obs.legal[0]\n")  # fmt: skip
    monkeypatch.chdir(tmp_path)
    exp = runner.experiment("differenzler", "mybots.py:Low,random,random,random", rounds=16, chunk=8)
    local = runner.run(exp, tmp_path / "local", progress=False)
    with LocalCluster(n_workers=1, threads_per_worker=1, dashboard_address=None) as cluster:
        with Client(cluster) as client:
            client.run(os.chdir, "/")  # the worker looks for mybots.py in another folder
        clustered = runner.run(exp, tmp_path / "dask", scheduler=cluster.scheduler_address, progress=False)
    assert chunk_bytes(tmp_path / "dask") == chunk_bytes(tmp_path / "local")
    pd.testing.assert_frame_equal(clustered.standings.bots, local.standings.bots)


@pytest.mark.slow
def test_a_cluster_without_live_workers_is_one_message_not_a_silent_wait(tmp_path, monkeypatch):
    """Issue 13.12: when every Dask worker died, the client waited silently for ever."""
    from distributed import LocalCluster

    monkeypatch.setattr(runner, "WORKER_CHECK_S", 0.2)
    monkeypatch.setattr(runner, "NO_WORKER_TIMEOUT_S", 1.0)
    with LocalCluster(n_workers=1, threads_per_worker=1, dashboard_address=None) as cluster:
        cluster.scale(0)  # every worker gone
        with pytest.raises(CardsimError, match=r"no live worker for 1 s, with 4 chunks to go: start workers and "
                           r"rerun with --resume; no chunk was finished, so nothing is kept in"):  # fmt: skip
            runner.run(small(), tmp_path / "t", scheduler=cluster.scheduler_address, progress=False)
    assert not (tmp_path / "t").exists()


def test_the_progress_bar_moves_within_a_chunk(tmp_path, monkeypatch):
    """Issue 13.12: the bar lagged a whole chunk, so a one-chunk strong-bot tournament sat at 0% for its whole run
    and jumped to 100%. It moves after every rotation of a chunk now, and ends at the total."""
    updates = []

    class Bar:
        def update(self, n):
            updates.append(n)

        def close(self):
            pass

    monkeypatch.setattr(runner, "progress_bar", lambda total, unit, progress: Bar())
    runner.run(small(rounds=300, chunk=300), tmp_path, progress=True)
    assert [n for n in updates if n] == [300] * 4  # one chunk, four rotations (the first update is what was done)


def test_reused_row_columns_are_read_only_right_and_bounded(monkeypatch):
    """The constant columns a runner reuses across rotations and chunks (``results.cycled``, ``round_numbers``):
    right values, the same array again for the same size, read-only, and no more kept than ``REUSED_BYTES``
    whatever the seeds (an unbounded cache would hold every experiment's seed column)."""
    from cardsim import results

    column = results.cycled(12, (7, 8, 9), "int16")
    assert column.tolist() == [7, 8, 9] * 4 and column.dtype == np.int16
    assert results.cycled(12, (7, 8, 9), "int16") is column
    with pytest.raises(ValueError, match="read-only"):
        column[0] = 1
    assert results.round_numbers(5, 3, 2).tolist() == [5, 5, 6, 6, 7, 7]
    monkeypatch.setattr(results, "REUSED_BYTES", 10_000)
    for seed in range(50):
        results.cycled(1000, (seed,), "uint64")  # 8 kB each
    assert sum(c.nbytes for c in results._reused.values()) <= 10_000
