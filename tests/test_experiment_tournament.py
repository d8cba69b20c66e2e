"""experiments/tournament.py: the study runs at --smoke size, resumes, and refuses bad input with exit code 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pandas as pd

SCRIPT = Path(__file__).resolve().parent.parent / "experiments" / "tournament.py"


def tournament(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True)


def test_smoke_study_writes_every_games_results_and_a_report(tmp_path):
    done = tournament("--smoke", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    report = (tmp_path / "report.md").read_text()
    for game in ("differenzler", "wizard", "callpartner"):
        assert f"## {game}" in report and f"({game}/summary.md)" in report
        bots = pd.read_parquet(tmp_path / game / "bots.parquet")
        assert set(bots["bot"]) == {"heuristic", "random"}
        assert (tmp_path / game / "figures" / "mean_score.png").stat().st_size > 0
        assert list((tmp_path / game / "rows").glob("chunk-*.parquet"))
    again = tournament("--smoke", "--out", str(tmp_path))
    assert again.returncode == 2 and "add --resume" in again.stderr
    resumed = tournament("--smoke", "--out", str(tmp_path), "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert (tmp_path / "report.md").read_text() == report


def test_bad_input_is_one_message_and_exit_code_2(tmp_path):
    for args, message in [(["--game", "chess"], "unknown game 'chess'"),
                          (["--bots", "genius"], "unknown bot 'genius'")]:  # fmt: skip
        done = tournament("--smoke", "--out", str(tmp_path / "x"), *args)
        assert done.returncode == 2 and message in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
