"""experiments/demo.py (``make demo``): its studies run (two side by side) and its report links what they wrote."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pandas as pd

SCRIPT = Path(__file__).resolve().parent.parent / "experiments" / "demo.py"


def test_smoke_demo_runs_every_study_and_links_their_reports_and_figures(tmp_path):
    done = subprocess.run([sys.executable, str(SCRIPT), "--smoke", "--out", str(tmp_path)], capture_output=True,
                          text=True)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    report = (tmp_path / "report.md").read_text()
    for study in ("tournament", "optimal_bids", "score_distributions", "ladder"):
        assert f"Report: [{study}/report.md]({study}/report.md)" in report
        assert (tmp_path / study / "report.md").stat().st_size > 0
    figures = re.findall(r"!\[[^]]*\]\(([^)]+\.png)\)", report)
    assert len(figures) >= 3 and all((tmp_path / f).stat().st_size > 0 for f in figures)
    assert "**differenzler**" in report  # the tournament's standings are in the report
    for game, strongest in {"differenzler": "ismcts", "wizard": "ismcts", "callpartner": "mc"}.items():
        ratings = pd.read_parquet(tmp_path / "ladder" / game / "ratings.parquet").set_index("bot")
        assert {"random", "heuristic", strongest} <= set(ratings.index)  # the ladder holds the strong bot ...
        assert ratings.loc[strongest, "ms_per_decision"] > 0  # ... and its time per decision


def test_ladder_script_refuses_an_output_it_cannot_use_before_any_work(tmp_path):
    script = SCRIPT.with_name("ladder.py")
    taken = tmp_path / "file"
    taken.write_text("x")
    done = subprocess.run([sys.executable, str(script), "--smoke", "--out", str(taken)], capture_output=True,
                          text=True)  # fmt: skip
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "it is a file" in done.stderr
    assert taken.read_text() == "x"
