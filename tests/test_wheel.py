"""The wheel on its own (issue 14.4): ``python -m build`` makes the sdist and, from it, the wheel; the wheel goes into
a fresh virtual environment, and ``cardsim`` runs from there in an empty folder, so nothing it does can lean on the
source tree.

The fresh environment gets cardsim's dependencies (numpy, numba, pandas, ...) from this environment through a
``.pth`` line naming its site-packages instead of downloading them: a folder added by a ``.pth`` line is put on
``sys.path`` as it is, its own ``.pth`` files are not run, so this environment's editable install of cardsim (an
``__editable__`` finder started by a ``.pth`` file) stays out; the test checks that it does.

numba caches a kernel by the path of its source file and the file's modification time. So that a second run finds
the kernels compiled by the first (about 1 s instead of 20-40 s), the environment is made afresh each run but at the
same place for the same source tree, beside the kernel cache, and the installed files get a fixed modification time:
their content is keyed by the kernel cache's folder (``cardsim.jit.kernel_cache``), so an old compile cannot be reused
for other kernel sources.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
KEEP_VENVS = 4  # environments kept beside the kernel cache, one per source tree (about 2 MB each)
FIXED_MTIME = 315_964_800  # 1980-01-06: any constant will do (see the module docstring)
NOT_SOURCES = ("build", "dist", "*.egg-info", "results", "__pycache__", ".*", "_build")  # .git, .venv, caches


def version() -> str:
    return re.search(r'^__version__ = "([^"]+)"$', (ROOT / "cardsim" / "__init__.py").read_text(), re.M).group(1)


def clean_env(**changes: str) -> dict[str, str]:
    """This process's environment without what would put the source tree or another environment on the path."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "VIRTUAL_ENV")}
    return env | changes


def run(argv: list, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    done = subprocess.run([str(a) for a in argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, f"{' '.join(map(str, argv))} exited with {done.returncode}:\n{done.stdout[-3000:]}" \
                                 f"\n{done.stderr[-3000:]}"  # fmt: skip
    return done


def package_sources() -> set[str]:
    """The files the wheel must hold: every Python file, data table (``*.npy``, ``*.npz``) and page file of the web
    table (``cardsim/play/static``) of the packages cardsim and bots in the source tree."""
    return {p.relative_to(ROOT).as_posix() for d in ("cardsim", "bots")
            for pattern in ("*.py", "*.npy", "*.npz", "*.html", "*.css", "*.js")
            for p in (ROOT / d).rglob(pattern) if "__pycache__" not in p.parts}  # fmt: skip


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory) -> tuple[Path, Path]:
    """The sdist and the wheel, built without network (``--no-isolation``) from a copy of the source tree, so that
    the build's leftovers (``build/``, ``*.egg-info``) stay out of the tree."""
    if importlib.util.find_spec("build") is None:
        pytest.fail("tests/test_wheel.py needs the 'build' package, a dev dependency: pip install -e '.[dev]'")
    work = tmp_path_factory.mktemp("dist")
    source = work / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(*NOT_SOURCES))
    run([sys.executable, "-m", "build", "--no-isolation", "--outdir", work / "out", source], work, clean_env())
    sdists, wheels = sorted((work / "out").glob("*.tar.gz")), sorted((work / "out").glob("*.whl"))
    assert len(sdists) == 1 and len(wheels) == 1, sorted((work / "out").iterdir())
    return sdists[0], wheels[0]


def test_the_wheel_holds_the_packages_and_the_sdist_the_source_tree(artifacts):
    sdist, wheel = artifacts
    assert wheel.name == f"cardsim-{version()}-py3-none-any.whl" and sdist.name == f"cardsim-{version()}.tar.gz"
    with zipfile.ZipFile(wheel) as whl:
        names = set(whl.namelist())
        info = f"cardsim-{version()}.dist-info"
        metadata = whl.read(f"{info}/METADATA").decode()
        entry_points = whl.read(f"{info}/entry_points.txt").decode()
    assert {n for n in names if not n.startswith(f"{info}/")} == package_sources()
    assert f"\nVersion: {version()}\n" in metadata
    assert "\n# Changelog\n" in metadata and "## [Unreleased]" in metadata  # the description: README, then CHANGELOG
    assert "cardsim = cardsim.cli:main" in entry_points
    with tarfile.open(sdist) as tar:
        held = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    needed = {"pyproject.toml", "README.md", "CHANGELOG.md", "MANIFEST.in", "Makefile", "docs/RULES.md",
              "tests/conftest.py", "tests/test_wheel.py", "experiments/demo.py", "notebooks/quickstart.ipynb",
              "benchmarks/reference_differenzler.c"} | package_sources()  # fmt: skip
    assert needed <= held, sorted(needed - held)


@pytest.mark.slow
def test_the_installed_wheel_runs_cardsim_outside_the_source_tree(artifacts, tmp_path):
    _, wheel = artifacts
    cache = Path(os.environ.get("NUMBA_CACHE_DIR") or Path.home() / ".cache" / "cardsim")  # as kernel_cache
    venv = cache / "wheel-test" / f"venv-{hashlib.sha256(str(ROOT).encode()).hexdigest()[:12]}"
    shutil.rmtree(venv, ignore_errors=True)
    run([sys.executable, "-m", "venv", "--without-pip", venv], tmp_path, clean_env())
    for old in sorted(venv.parent.glob("venv-*"), key=lambda p: p.stat().st_mtime, reverse=True)[KEEP_VENVS:]:
        shutil.rmtree(old, ignore_errors=True)  # other source trees' environments, least recently used first
    python, cardsim = venv / "bin" / "python", venv / "bin" / "cardsim"
    run([sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-index", "--no-cache-dir",
         "--quiet", "--disable-pip-version-check", wheel], tmp_path, clean_env())  # fmt: skip
    site = Path(run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], tmp_path,
                    clean_env()).stdout.strip())  # fmt: skip
    for path in [*(site / "cardsim").rglob("*.py"), *(site / "bots").rglob("*.py")]:
        os.utime(path, (FIXED_MTIME, FIXED_MTIME))
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (site / "_cardsim_test_dependencies.pth").write_text("".join(f"{p}\n" for p in sorted(ours)))

    here = tmp_path / "elsewhere"
    here.mkdir()
    env = clean_env(NUMBA_CACHE_DIR=str(cache))
    line = f"cardsim {version()} (Python "
    assert run([cardsim, "--version"], here, env).stdout.startswith(line)
    shown = run([cardsim, "info", "wizard"], here, env).stdout
    assert shown.startswith(line) and "\nwizard: 3, 4, 5, 6 players" in shown and "\n  random: " in shown
    assert "games: differenzler, wizard, callpartner" in run([cardsim, "info"], here, env).stdout
    summary = run([cardsim, "simulate", "differenzler", "--bots", "random", "--rounds", "2000"], here, env).stdout
    seats = [row.split() for row in summary.splitlines() if re.match(r"\s+[0-3] random\s+2000 ", row)]
    assert len(seats) == 4, summary

    found = json.loads(run([python, "-c", WHERE], here, env).stdout)
    assert found["editable"] == [], f"the editable install leaked in: {found['editable']}"
    assert found["metadata"] == version()
    assert found["numba"].startswith(tuple(ours)), found["numba"]  # the dependencies came through the .pth line
    outside = {name: file for name, file in found["modules"].items() if not file.startswith(str(site) + os.sep)}
    assert not outside, f"{len(outside)} modules from outside the fresh environment: {sorted(outside.items())[:5]}"
    assert len(found["modules"]) > 40 and {"cardsim", "bots.differenzler", "cardsim.games.exact_tricks.state"} <= set(
        found["modules"])  # fmt: skip


# Run in the fresh environment: where cardsim, the built-in bots (every game, so every bot module) and numba come
# from, and whether an editable finder got in.
WHERE = """
import json, sys, importlib.metadata
import numba
import cardsim
from cardsim.games import GAMES, get_game
for name in GAMES:
    get_game(name)
import bots, bots.examples
mods = {n: m.__file__ for n, m in list(sys.modules.items())
        if n.split('.')[0] in ('cardsim', 'bots') and getattr(m, '__file__', None)}
print(json.dumps({'modules': mods, 'numba': numba.__file__, 'metadata': importlib.metadata.version('cardsim'),
                  'editable': sorted(n for n in sys.modules if 'editable' in n)}))
"""
