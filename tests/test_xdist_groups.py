"""``make test``'s workers: each game's tests run in one worker (tests/conftest.py's scheduler), so that a cold
suite compiles each game's kernels once, not once per worker."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from conftest import group_of

TESTS = Path(__file__).resolve().parent


def test_a_test_belongs_to_the_game_its_file_or_first_parameter_names():
    assert group_of("tests/test_callpartner_state.py::test_perft[3-2]") == "callpartner"
    assert group_of("tests/test_contract.py::test_checked_runs[wizard-players=3,bidding=secret]") == "wizard"
    assert group_of("tests/test_contract.py::test_random_play[differenzler]") == "differenzler"
    assert group_of("tests/test_round_fuzz.py::TestWizardRound::runTest") == "test_round_fuzz"
    assert group_of("tests/test_advise.py::test_bad_hand[x-wizard]") == "test_advise"


def test_under_two_workers_every_game_runs_in_one_worker(tmp_path):
    """Before, xdist's ``--dist loadgroup`` spread the tests one by one (its group marks do not reach the scheduler
    under pytest 9.2), and both workers compiled every game's kernels."""
    (tmp_path / "conftest.py").write_text((TESTS / "conftest.py").read_text())
    cases = "import pytest\n\n@pytest.mark.parametrize('i', range(8))\ndef test_case(i):\n    pass\n"
    for name in ("test_wizard_a", "test_wizard_b", "test_callpartner_a", "test_cards"):
        (tmp_path / f"{name}.py").write_text(cases)
    (tmp_path / "test_contract.py").write_text(
        "import pytest\n\n@pytest.mark.parametrize('game, i', [(g, i) for g in ('wizard', 'callpartner') "
        "for i in range(8)])\ndef test_case(game, i):\n    pass\n"
    )
    done = subprocess.run([sys.executable, "-m", "pytest", "-n", "2", "--dist", "loadgroup", "-v", "-p",
                           "no:cacheprovider", str(tmp_path)], cwd=tmp_path, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(TESTS)})  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    workers: dict[str, set[str]] = {}
    for worker, nodeid in re.findall(r"\[(gw\d)\] \[ *\d+%\] PASSED (\S+)", done.stdout):
        workers.setdefault(group_of(nodeid), set()).add(worker)
    assert set(workers) == {"wizard", "callpartner", "test_cards"}
    assert all(len(w) == 1 for w in workers.values()), workers
