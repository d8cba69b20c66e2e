"""A visible first run (issue 14.2): a line on stderr when kernels compile and none when they are cached, rates
that leave the compile out, and ``cardsim warmup``.

The cold runs are subprocesses sharing one empty numba cache of their own: one game (Differenzler), random bots, a
few rounds, then ``cardsim warmup differenzler`` (compiling is what they cost: the batch kernel once, the advice's
once, about 40 s on a quiet 2-core machine and 1.5-2 min under load; the rest of the file takes seconds).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from numba import njit

from cardsim.cli import main
from cardsim.games import GAMES
from cardsim.jit import compiling, kernel_cache

ROOT = Path(__file__).resolve().parent.parent
COLD_LINE = "cardsim: compiling the Differenzler kernels (first run only, about"


def cardsim(cache: Path, *args: str) -> subprocess.CompletedProcess:
    """``cardsim ARGS`` in a process of its own with the numba cache in ``cache`` (stderr is a pipe: no spinner)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "cardsim.cli", *args], env=env, cwd=ROOT, capture_output=True,
                          text=True, timeout=900)  # fmt: skip


@pytest.fixture(scope="module")
def cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("numba-cache")


SIMULATE = ("simulate", "differenzler", "--bots", "random", "--rounds", "200")


def test_a_cold_run_says_it_compiles_before_the_wait_and_a_warm_one_says_nothing(cache):
    """The line comes before the wait (first on stderr), names the game and the estimate, and says it happens on the
    first run only; the rate leaves the compile out and says so. The same run again loads every kernel from the
    cache: no line on stderr at all, and the rate says only that loading was left out."""
    cold = cardsim(cache, *SIMULATE)
    assert cold.returncode == 0, cold.stderr
    lines = cold.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(COLD_LINE) and lines[0].endswith(" s)..."), cold.stderr
    assert "rounds/s (compile " in cold.stdout and " s not counted)" in cold.stdout, cold.stdout

    warm = cardsim(cache, *SIMULATE)
    assert warm.returncode == 0 and warm.stderr == "", warm.stderr
    assert "compile" not in warm.stdout, warm.stdout
    assert warm.stdout.splitlines()[2:] == cold.stdout.splitlines()[2:]  # the same numbers


def test_warmup_compiles_ahead_so_that_runs_print_no_compile_line(cache, tmp_path):
    """``cardsim warmup differenzler`` (after the run above: the single rounds' batch kernel is in the cache, the
    games', the tournament's and the advice's are not) exits 0, reporting each group of kernels on its own line;
    afterwards a games run, a tournament and an advice print nothing on stderr."""
    warmed = cardsim(cache, "warmup", "differenzler")
    assert warmed.returncode == 0, warmed.stderr
    groups = warmed.stderr.splitlines()
    assert [g.split(":")[1] for g in groups] == [" Differenzler batch kernels, random and heuristic bots",
                                                 " Differenzler bid advice kernels"], groups  # fmt: skip
    assert all(": compiled in " in g for g in groups), groups
    assert warmed.stdout.startswith("differenzler: 2 groups of kernels ready in ")

    for run in (["simulate", "differenzler", "--bots", "heuristic,random,random,random", "--games", "20"],
                ["tournament", "differenzler", "--bots", "heuristic,random,random,random", "--rounds", "50", "--out",
                 str(tmp_path / "tour")],
                ["advise", "differenzler", "--hand", "SA SK SQ HA H6 H7 D8 C9 CT", "--trump", "D6", "--samples", "20"]):
        done = cardsim(cache, *run)
        assert done.returncode == 0 and done.stderr == "", (run, done.stderr)


def test_warmup_refuses_an_unknown_game_with_one_line_before_compiling_anything(capsys):
    assert main(["warmup", "differenzler", "skat"]) == 2
    err = capsys.readouterr().err
    assert err == f"cardsim: error: unknown game 'skat'; games: {', '.join(GAMES)}\n"


# --- the notice itself, in this process, on kernels of the test's own ----------------------------------------


def test_the_line_appears_only_when_numba_really_compiles(capsys):
    """numba's compile event fires only after its in-memory versions missed: a second call with the same types,
    inside a new notice, compiles nothing and says nothing; other argument types compile again (and say so). The
    estimate is the game's kernels': when the first kernel to compile is no game's (here the test's own; in a
    run a summary's), those were in the cache, and the line says it takes seconds."""

    @njit
    def twice(x):
        return 2 * x

    with compiling.notice("the test kernels", 12, show=False) as first:
        assert twice(3) == 6
    assert capsys.readouterr().err == "cardsim: compiling the test kernels (first run only, a few seconds)...\n"
    assert first.seconds > 0
    with compiling.notice("the test kernels", 12, show=False) as again:
        twice(4)
    assert capsys.readouterr().err == "" and again.seconds == 0
    with compiling.notice("the test kernels", None, show=False):
        twice(np.float64(1.5))
        twice(np.float64(2.5))
    assert capsys.readouterr().err == "cardsim: compiling the test kernels (first run only)...\n"


def test_a_kernel_loaded_from_the_disk_cache_says_nothing(tmp_path):
    """The exactness that matters for a warm run: a ``cache=True`` kernel compiled by one process is loaded by the
    next one, which prints no line (a process of its own each, with the cache in ``tmp_path``)."""
    module = tmp_path / "tiny_kernel.py"
    module.write_text(textwrap.dedent("""
        from numba import njit

        @njit(cache=True)
        def add(a, b):
            return a + b
    """))
    script = ("import cardsim, tiny_kernel\nfrom cardsim import compiling\n"
              "with compiling.notice('the tiny kernel', 1, show=False):\n    tiny_kernel.add(1, 2)\n")  # fmt: skip
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": f"{ROOT}{os.pathsep}{tmp_path}"}

    def run() -> str:
        done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        return done.stderr

    assert run() == "cardsim: compiling the tiny kernel (first run only, a few seconds)...\n"
    assert run() == ""


def test_on_a_terminal_the_line_is_a_spinner_that_ends_with_the_time(capsys):
    @njit
    def thrice(x):
        return 3 * x

    with compiling.notice("the spun kernels", None, show=True):
        thrice(1)
    err = capsys.readouterr().err
    assert err.startswith("\rcardsim: compiling the spun kernels (first run only)...")
    assert " done in " in err.rsplit("\r", 1)[-1] and err.endswith(" s\n"), repr(err)


def test_kernels_compiled_outside_any_notice_are_named_from_their_module(capsys):
    """A game's kernel compiled outside the engine (``Round``, the bid advice, a direct ``Game.batch``, the strong
    bots' entry) is named by its module and argument types; somebody else's kernel is not cardsim's to announce."""
    from numba.core import types

    def advice(seed, q, p, bots, strong_bots, scores):
        pass

    def simulate_games(seed, start, p, bots, strong_bots, checks, out):
        pass

    array = types.float64[:, :]
    assert compiling._kind_of("cardsim.games.wizard.advise", advice, (types.none,) * 4 + (array,)) == (
        "wizard", "strong advice")  # fmt: skip
    batch = (types.uint64, types.int64, types.none, array, types.none, types.int64[:], types.none)
    assert compiling._kind_of("cardsim.games.callpartner.play", simulate_games, batch) == ("callpartner", "check")
    assert compiling._kind_of("cardsim.games.differenzler.state", advice, ()) == ("differenzler", "round")
    assert compiling._kind_of("bots.wizard_strong", advice, ()) == ("wizard", "strong timing")  # not Round's
    called_by_advice = ("cardsim.games.wizard.advise", "cardsim.advise")  # a bot's kernel the bid table calls
    assert compiling._kind_of("bots.wizard", advice, (), called_by_advice) == ("wizard", "advice")
    assert compiling._kind_of("tests.test_warmup", advice, ()) == (None, "")

    @njit
    def theirs(x):
        return x - 1

    theirs(1)  # outside any notice, not a cardsim module: nothing to say
    assert capsys.readouterr().err == ""


def test_rates_leave_out_compiling_and_loading_and_say_which():
    assert compiling.Spent(18.24, 0.5).note() == " (compile 18.2 s not counted)"
    assert compiling.Spent(0.0, 0.31).note() == " (loading kernels 0.3 s not counted)"
    assert compiling.Spent(0.0, 0.01).note() == ""
    assert compiling.Spent(3.0, 1.0) - compiling.Spent(1.0, 0.5) == compiling.Spent(2.0, 0.5)
    assert compiling.about(38.2) == ", about 40 s" and compiling.about(3) == ", about 10 s"
    assert compiling.about(130) == ", about 3 min" and compiling.about(None) == ""


def test_editing_the_notices_or_the_warmup_recompiles_nothing():
    """``cardsim.jit.compiling`` and ``cardsim.jit.precompile`` stay out of the kernel cache's key: no module that
    defines kernels imports them (nor the games' estimates, their ``info.py``: tests/test_one_package.py)."""
    key = {p.relative_to(kernel_cache.PACKAGE_ROOT.parent).as_posix() for p in kernel_cache.kernel_sources()}
    assert not key & {"cardsim/jit/compiling.py", "cardsim/jit/precompile.py", "cardsim/__init__.py"}


def test_every_game_and_kind_has_an_estimate():
    from cardsim.games import GAMES, game_info, get_game
    from cardsim.jit.precompile import groups

    for game in GAMES:
        kinds = {job.kind for job in groups(get_game(game), strong=True, replay=True)} | {"check", "strong check",
                                                                                           "python"}  # fmt: skip
        assert kinds <= set(game_info(game).estimates), game
