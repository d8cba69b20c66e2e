"""The README and the docs site (issue 14.3): the README stays a five-minute read, the site builds without a
warning, and every command and snippet of the README runs.

- **The site**: ``mkdocs build --strict`` (what ``make docs`` runs) into a temporary folder. Any warning fails it:
  a link to a page or an anchor that does not exist, a page missing from the nav (``validation`` in mkdocs.yml).
  The README is not part of the site, so its own relative links are checked here: each names a file of the
  repository, and an anchor into ``docs/`` an id of the built page.
- **The budget**: the README has at most ``MAX_LINES`` lines, and its prose (outside code blocks) at most
  ``MAX_PROSE_WORDS`` words, five minutes at 250 words a minute; code blocks are read at a glance and count in the
  lines. A section that would break the budget goes into a ``docs/`` page, linked from the README.
- **Every command and snippet runs**, one test per ``##`` section, its blocks in document order in a fresh
  temporary folder (so ``--out results/x`` writes there; ``bots/`` and ``experiments/`` are linked in), as a
  reader would type them:

  - a ```` ```sh ```` or ```` ```bash ```` line starting with ``cardsim`` runs through ``cardsim.cli.main`` and
    must return 0; ``python experiments/X.py ...`` runs that script's ``main``. The test substitutes smaller
    sizes: each option of ``SMOKE`` (``--rounds``, ``--games``, ``--samples``, ...) is capped at its smoke value,
    the same for every command of a section, so a ``--resume`` finds the run it continues.
    ``--scheduler ADDRESS`` gets the address of an in-process ``LocalCluster``; ``--dask-local N`` runs as
    written (N worker processes).
  - any other line must be one of ``NOT_RUN`` (``make``: the suite itself and this file's site build; the
    ``dask`` scheduler and worker, stood in for by the LocalCluster), so a new kind of command cannot go
    unchecked.
  - a ```` ```python ```` block whose first line is ``# NAME.py`` is a file the reader saves (``my_bots.py``):
    it is written there. Any other ```` ```python ```` block runs as written, so the README's snippets use small
    sizes themselves.

Strong bots compile for minutes from a cold cache, so the README's commands keep to random, heuristic and Python
bots. A section that uses one game only runs in that game's xdist group (tests/conftest.py), where its kernels are
compiled anyway."""

from __future__ import annotations

import os
import re
import runpy
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from cardsim.cli import main
from cardsim.games import GAMES

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
MAX_LINES = 250
MAX_PROSE_WORDS = 1250
SMOKE = {"--rounds": 200, "--games": 10, "--samples": 100, "--hands": 20, "--deals": 20}
NOT_RUN = {
    "make demo",  # tests/test_demo.py runs experiments/demo.py --smoke
    "make test",  # this suite
    "make docs",  # test_site_builds_in_strict_mode
    ".venv/bin/dask scheduler",  # stood in for by an in-process LocalCluster
    ".venv/bin/dask worker tcp://A:8786 --nworkers 1 --nthreads 1",
}
BLOCK = re.compile(r"^```(\w*)\n(.*?)^```$", re.S | re.M)


def sections(text: str) -> list[tuple[str, str]]:
    """(title, body) of each ``##`` section of a Markdown text (headings inside code blocks ignored)."""
    out, title, body, fenced = [], "", [], False
    for line in text.splitlines(keepends=True):
        fenced ^= line.startswith("```")
        if line.startswith("## ") and not fenced:
            out.append((title, "".join(body)))
            title, body = line[3:].strip(), []
        else:
            body.append(line)
    out.append((title, "".join(body)))
    return [s for s in out if s[0]]


def blocks(body: str) -> list[tuple[str, str]]:
    """(language, text) of each fenced code block, in order."""
    return [(m.group(1), m.group(2)) for m in BLOCK.finditer(body)]


def commands(script: str) -> list[list[str]]:
    """The command lines of a shell block as argument lists: comments dropped, ``\\`` continuations joined."""
    return [argv for argv in (shlex.split(line, comments=True) for line in script.replace("\\\n", " ").splitlines())
            if argv]  # fmt: skip


def smoke(argv: list[str], scheduler: str | None) -> list[str]:
    """``argv`` at smoke size: each ``SMOKE`` option capped, ``--scheduler`` pointed at ``scheduler``."""
    out = list(argv)
    for i, arg in enumerate(out[:-1]):
        if arg in SMOKE and out[i + 1].isdigit():
            out[i + 1] = str(min(int(out[i + 1]), SMOKE[arg]))
        elif arg == "--scheduler":
            assert scheduler, "a --scheduler command needs the LocalCluster"
            out[i + 1] = scheduler
    return out


def runnable(body: str) -> bool:
    return any(lang in ("sh", "bash", "python") for lang, _ in blocks(body))


def game_of(body: str) -> str | None:
    """The one game a section's code uses, if only one (its xdist group), else None."""
    code = " ".join(text for _, text in blocks(body))
    used = [g for g in GAMES if g in code]
    return used[0] if len(used) == 1 else None


SECTIONS = [pytest.param(body, game_of(body), id=re.sub(r"\W+", "-", title.lower()).strip("-"))
            for title, body in sections(README.read_text()) if runnable(body)]  # fmt: skip


def test_the_readme_keeps_its_budget():
    """At most MAX_LINES lines and MAX_PROSE_WORDS words of prose: about five minutes of reading."""
    text = README.read_text()
    lines = text.count("\n")
    words = len(BLOCK.sub("", text).split())
    assert lines <= MAX_LINES, f"README.md has {lines} lines, the budget is {MAX_LINES}: move a section to docs/"
    assert words <= MAX_PROSE_WORDS, f"README.md has {words} words of prose, the budget is {MAX_PROSE_WORDS}"


def test_every_quickstart_has_commands_and_one_python_snippet():
    """The README's use cases each show a few commands and a snippet (and the extraction finds them)."""
    quickstarts = [(t, b) for t, b in sections(README.read_text()) if t.startswith("Quickstart")]
    assert len(quickstarts) >= 5
    for title, body in quickstarts:
        langs = [lang for lang, _ in blocks(body)]
        shell = [argv for lang, text in blocks(body) if lang in ("sh", "bash") for argv in commands(text)]
        assert any(argv[0] in ("cardsim", "python") for argv in shell), title
        assert "python" in langs, title


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The docs site, built as ``make docs`` builds it (strict: any warning fails)."""
    out = tmp_path_factory.mktemp("site")
    argv = [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(ROOT / "mkdocs.yml"),
            "--site-dir", str(out)]  # fmt: skip
    done = subprocess.run(argv, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    return out


def test_site_builds_in_strict_mode(site):
    assert (site / "index.html").is_file()
    for page in (ROOT / "docs").glob("*.md"):
        built = site / ("index.html" if page.stem == "index" else f"{page.stem}/index.html")
        assert built.is_file(), f"{page.name} is not in the site"


def test_the_readmes_links_resolve(site):
    """Every relative link of the README names a file or folder of the repository; a link into a docs page with an
    anchor names an id of that built page."""
    text = BLOCK.sub("", README.read_text())
    links = re.findall(r"\]\(([^)\s]+)\)", text)
    assert any(link.startswith("docs/") for link in links)
    for link in links:
        if re.match(r"[a-z]+:", link):
            continue
        path, _, anchor = link.partition("#")
        assert (ROOT / path).exists(), f"README.md links to {path}, which does not exist"
        if anchor:
            assert path.startswith("docs/") and path.endswith(".md"), link
            stem = Path(path).stem
            html = (site / ("index.html" if stem == "index" else f"{stem}/index.html")).read_text()
            assert f'id="{anchor}"' in html, f"README.md links to {link}: {path} has no heading with that anchor"


@pytest.fixture(scope="module")
def scheduler():
    """An in-process Dask cluster standing in for the README's `dask scheduler` and `dask worker`."""
    from distributed import LocalCluster

    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        yield cluster.scheduler_address


def run_script(argv: list[str]) -> int:
    """``python experiments/X.py ARGS``: the script's ``main(ARGS)``."""
    assert argv[1].startswith("experiments/") and argv[1].endswith(".py"), argv
    code = runpy.run_path(str(ROOT / argv[1]), run_name="readme_script")["main"](argv[2:])
    return code or 0


@pytest.mark.parametrize(("section", "game"), SECTIONS)
def test_the_readmes_commands_and_snippets_run(section, game, request, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in ("bots", "experiments"):
        os.symlink(ROOT / name, tmp_path / name)
    for lang, text in blocks(section):
        if lang in ("sh", "bash"):
            for argv in commands(text):
                line = " ".join(argv)
                if line in NOT_RUN:
                    continue
                uses_cluster = "--scheduler" in argv
                argv = smoke(argv, request.getfixturevalue("scheduler") if uses_cluster else None)
                if argv[0] == "cardsim":
                    code = main(argv[1:])
                elif argv[0] == "python":
                    code = run_script(argv)
                else:
                    raise AssertionError(f"README command {line!r} is neither run nor in NOT_RUN")
                assert code == 0, f"{line!r} (run as {' '.join(argv)!r}) exited {code}"
        elif lang == "python":
            first = text.splitlines()[0]
            saved = re.fullmatch(r"# (\w+\.py)", first)
            if saved:
                compile(text, saved.group(1), "exec")
                (tmp_path / saved.group(1)).write_text(text)
            else:
                exec(compile(text, "README.md snippet", "exec"), {"__name__": "readme_snippet"})


def test_the_readmes_advice_output_is_what_its_command_prints(capsys):
    """The README's ```text block (and the first lines of the same block in docs/advice.md) is the table that the
    first ``cardsim advise`` command before it prints, at full size: a changed bot or sampler shows here."""
    body = next(body for title, body in sections(README.read_text()) if "estimate a bid" in title)
    found = blocks(body)
    text = next(i for i, (lang, _) in enumerate(found) if lang == "text")
    argv = next(argv for lang, script in found[:text] if lang in ("sh", "bash") for argv in commands(script)
                if argv[:2] == ["cardsim", "advise"])  # fmt: skip
    assert main(argv[1:]) == 0
    printed = capsys.readouterr().out.splitlines()
    shown = found[text][1].splitlines()
    start = printed.index(shown[0])
    assert printed[start : start + len(shown)] == shown
    advice = (ROOT / "docs" / "advice.md").read_text()
    head, tail = advice[advice.index("```\nwizard bid advice") + 4 :].split("\n```\n")[0].split("\n...\n")
    assert head.splitlines() == printed[: len(head.splitlines())]
    assert tail in printed


def test_the_documented_first_move_of_a_round_is_its_first_move():
    """docs/usage.md shows the seat to act and its decision in round 12 of seed 7."""
    import cardsim

    usage = (ROOT / "docs" / "usage.md").read_text()
    shown = re.search(r"r\.to_move, r\.decision +# (\(\d+, '\w+'\))", usage)
    r = cardsim.new_round("differenzler", seed=7, round=12)
    assert shown and shown.group(1) == repr((r.to_move, r.decision))
