"""A fuzz of the command line (issue 13): random values, good and bad, for every option of every command. Each run
must end with exit code 0, or exit code 2 and one line ``cardsim: error: ...``: never a traceback, and never an
existing file overwritten without ``--force``.

A line that would run a strong bot's kernels (a cheating bot allowed by ``--allow-cheating``, ``warmup --strong``
or ``warmup --replay``) also names an unknown game, so that it is refused before any kernel compiles: cold, those
kernels take minutes. The valid ``warmup`` lines warm the random and heuristic lineups' kernels and the bid
advice's, which the other lines (and the rest of the suite) compile anyway."""

from __future__ import annotations

import contextlib
import io
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardsim.cli import main

EXAMPLES = str(Path(__file__).resolve().parent.parent / "bots" / "examples.py")
GAMES = ["differenzler", "wizard", "callpartner", "Wizard", "chess", ""]
KNOWN = {"differenzler", "wizard", "callpartner"}  # the games that GAMES names, in any case
SIZES = ["1", "3", "12", "0", "-2", "x", "2.5", "1e3", ""]
COMMON = {
    "--bots": ["random", "heuristic", "heuristic,random", "random,random,random,random", "nobody", "", ",,",
               f"{EXAMPLES}:Cautious", f"{EXAMPLES}:NoSuchBot", "missing.py:Bot", "mc:samples=0", "random:x=1",
               "omniscient:iterations=1", "random,omniscient"],
    "--seed": ["0", "7", "random", "-1", str(2**64), "x", ""],
    "--rule": ["exact_bonus=10", "exact_bonus=10.5", "exact_bonus=x", "nosuch=1", "bidding=secret", "cards=3",
               "schedule=tournament", "all_pass=dealer_forced", "discards_count=false", "=", "x", ""],
    "--players": ["3", "4", "5", "6", "2", "7", "x", "-4"],
    "--cards": ["1", "3", "15", "0", "99", "x"],
    "--json": None,
    "--check": None,
    "--allow-cheating": None,
}  # fmt: skip
RUN = {"--threads": ["1", "2", "0", "-1", "999", "x"], "--progress": None, "--no-progress": None}
COMMANDS = {
    "simulate": COMMON | RUN | {"--out": ["new.parquet", "existing.parquet", "folder", "/proc/cardsim/x.parquet", ""],
                                "--force": None},  # fmt: skip
    "tournament": COMMON | RUN | {
        "--out": ["new", "existing.parquet", "folder", "/proc/cardsim/x", ""], "--resume": None,
        "--no-duplicate": None, "--chunk": SIZES, "--scheduler": ["notanaddress", ""], "--dask-local": ["0", "x"]},
    "ladder": COMMON | RUN | {
        "--deals": SIZES, "--out": ["new", "existing.parquet", "folder", "/proc/cardsim/x", ""], "--resume": None,
        "--scheduler": ["notanaddress", ""], "--dask-local": ["0", "x"]},
    "replay": COMMON | {"--round": ["0", "3", "-1", "x", "99999999999999999999"],
                        "--game-no": ["0", "2", "-1", str(2**63)]},  # fmt: skip
    "advise": {"--hand": ["SA SK H9", "W1 H13 H2 C7", "SA SA", "XX", ""], "--seat": ["0", "2", "9", "-1"],
               "--trump": ["H6", "S", "X", ""], "--players": ["3", "4", "9"],
               "--bots": ["heuristic", "random", "nobody"], "--samples": SIZES, "--seed": ["0", "-1", "x"],
               "--rule": COMMON["--rule"], "--json": None},
    "info": {},
    "warmup": {"--strong": None, "--replay": None, "--jobs": ["1", "2", "0", "x"], "--progress": None,
               "--no-progress": None},
}  # fmt: skip


@st.composite
def command_lines(draw) -> list[str]:
    """One command line: a command, a game (warmup: up to two), some options with values from their pools (a size
    always given, so that a valid line runs small; see the module's docstring for the strong bots' kernels)."""
    command = draw(st.sampled_from(sorted(COMMANDS)))
    many = command == "warmup"
    games = draw(st.lists(st.sampled_from(GAMES), max_size=2)) if many else [draw(st.sampled_from(GAMES))]
    argv = [command, *games]
    if command in ("simulate", "tournament"):
        argv += [draw(st.sampled_from(["--rounds", "--games"])), draw(st.sampled_from(SIZES))]
    if command == "ladder":
        argv += ["--deals", draw(st.sampled_from(SIZES))]
    if command == "replay":
        argv += ["--round", draw(st.sampled_from(COMMANDS["replay"]["--round"]))]
    if command == "advise":
        argv += ["--samples", draw(st.sampled_from(SIZES[:3]))]
    options = COMMANDS[command]
    for name in draw(st.lists(st.sampled_from(sorted(options)), max_size=5, unique=True)) if options else []:
        argv += [name] if options[name] is None else [name, draw(st.sampled_from(options[name]))]
    cheating = "--allow-cheating" in argv and "omniscient" in " ".join(argv)
    if (cheating or "--strong" in argv or "--replay" in argv) and all(g.lower() in KNOWN for g in games):
        argv[1 : 1 if many else 2] = ["chess"]  # refused before a strong bot's kernels compile (minutes, cold)
    return argv


def run(argv: list[str]) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as stop:  # argparse's usage errors
            code = stop.code
    return code, err.getvalue()


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(argv=command_lines())
def test_every_command_line_ends_with_exit_0_or_one_error_line_and_exit_2(argv):
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as folder:
        os.chdir(folder)  # relative outputs (and a tournament's default folder) land here
        try:
            Path("existing.parquet").write_bytes(b"a finished result")
            Path("folder").mkdir()
            code, err = run(argv)
            kept = Path("existing.parquet").read_bytes() == b"a finished result"
        finally:
            os.chdir(here)
    assert code in (0, 2), (argv, code, err)
    assert "Traceback" not in err, (argv, err)
    if code == 2:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("cardsim: error: "), (argv, err)
    assert kept or (code == 0 and "--force" in argv), (argv, "an existing file was overwritten")
