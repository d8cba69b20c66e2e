"""Sealed matches (issue 40): Python bots that cardsim does not trust, each in a process of its own.

Every cheat of ``tests/sealed_bots.py`` is shown to work in cardsim's own process first (the control: the test could
fail), then to learn nothing sealed. Failures are named or forfeited; a sealed run's seed is a commitment until it
ends, and a rerun with the revealed seed (and the recorded forfeits) gives the same rows.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import shutil
from pathlib import Path

import pandas as pd
import pytest

from cardsim import CardsimError, simulate
from cardsim.cli import main
from cardsim.runner import experiment, load_rows, run
from cardsim.sealed.host import WRITABLE
from cardsim.sealed.process import SANDBOX_UID, Sealing

pytestmark = pytest.mark.xdist_group("differenzler")
BOTS = str(Path(__file__).with_name("sealed_bots.py"))
ROOT = Path(__file__).resolve().parent.parent
CHEATS = ["RngMatcher", "HandLookup", "FrameWalker", "MemoryReader"]


def spec(name: str) -> str:
    return f"{BOTS}:{name}"


def logs(folder: Path) -> dict[str, str]:
    """Each sealed bot's stderr, by its file name (``<entry>-sealed_bots``)."""
    return {path.stem: path.read_text() for path in sorted((folder / "bots").glob("*.stderr"))}


def sealed_run(folder: Path, bots: list[str], rounds: int = 3, **sealing) -> object:
    exp = experiment("differenzler", bots, rounds=rounds, seed=None, sealed=Sealing(**sealing), duplicate=False)
    return run(exp, folder)


@pytest.mark.parametrize("cheat", ["RngMatcher", "HandLookup", "FrameWalker", "Talker"])
def test_each_cheat_learns_in_cardsims_own_process(cheat, capfd, tmp_path, monkeypatch):
    """The control: in-process, with the default seed 0, each cheat finds what it looks for."""
    monkeypatch.chdir(tmp_path)
    simulate("differenzler", [spec(cheat), "random", "random", "random"], rounds=2, seed=0, threads=1)
    assert "LEARNED" in capfd.readouterr().err


def reader(tmp_path: Path, folder: Path) -> str:
    """sealed_bots.py with the ResultsReader looking into ``folder`` (a bot author finds it in cardsim's command
    line), as a file of its own."""
    path = tmp_path / "reader.py"
    path.write_text(Path(BOTS).read_text().replace('folder = ""', f"folder = {str(folder)!r}"))
    return str(path)


def test_the_results_reader_learns_the_seed_of_an_open_run(capfd, tmp_path):
    bots = reader(tmp_path, tmp_path / "open")
    run(experiment("differenzler", [f"{bots}:ResultsReader", "random", "random", "random"], rounds=2, seed=5,
                   duplicate=False), tmp_path / "open")  # fmt: skip
    assert "LEARNED seed 5 from config.json" in capfd.readouterr().err


def test_sealed_cheats_learn_nothing(tmp_path):
    folder = tmp_path / "sealed"
    sealed_run(folder, [spec(c) for c in CHEATS])
    seen = logs(folder)
    assert len(seen) == 4
    for name, text in seen.items():
        assert "NOTHING" in text and "LEARNED" not in text, (name, text)
    assert "NOTHING mem: PermissionError" in seen["3-sealed_bots"]


def test_a_sealed_bot_reads_only_a_commitment_and_cannot_talk(tmp_path, outside_tmp):
    """The results folder during the run holds the seed's sha256 only (config.json, and the rows of the first chunk
    while the second is played); no socket, no shared file."""
    folder = outside_tmp / "sealed"  # under /tmp, a sealed bot would not even see it
    bots = reader(tmp_path, folder)
    sealed_run(folder, [f"{bots}:ResultsReader", f"{bots}:Talker", "random", "random"], rounds=70)
    seen = logs(folder)
    assert "NOTHING config holds" in seen["0-reader"] and "LEARNED" not in seen["0-reader"]
    assert "NOTHING rows" in seen["0-reader"]
    assert "NOTHING socket" in seen["1-reader"] and "NOTHING file" in seen["1-reader"], seen["1-reader"]
    assert not Path("/tmp/cardsim-collusion").exists()


def test_the_seed_is_revealed_at_the_end_and_reproduces_the_run(tmp_path):
    folder = tmp_path / "sealed"
    bots = [spec("Plain"), "heuristic", spec("RngMatcher"), "random"]
    outcome = sealed_run(folder, bots, rounds=6)
    config = json.loads((folder / "config.json").read_text())
    seed, nonce = config["seed"], config["seed_nonce"]
    assert hashlib.sha256(f"cardsim seed {seed} nonce {nonce}".encode()).hexdigest() == config["seed_sha256"]
    sealed = load_rows(folder)
    assert "seed" not in sealed and set(sealed["seed_sha256"]) == {config["seed_sha256"]}
    assert not sealed["forfeit"].any()
    again = run(experiment("differenzler", bots, rounds=6, seed=seed, duplicate=False), tmp_path / "open")
    open_rows = load_rows(tmp_path / "open")
    values = [c for c in open_rows.columns if c != "seed"]
    pd.testing.assert_frame_equal(sealed[values], open_rows[values])
    assert outcome.standings.bots.equals(again.standings.bots)


@pytest.mark.parametrize(("bot", "problem"), [
    ("Crasher", "raised RuntimeError: boom (at sealed_bots.py:"),
    ("Exiter", "raised SystemExit: 3"),
    ("Hanger", "did not answer within 1 s"),
    ("Illegal", "played"),
    ("Hog", "raised MemoryError"),
])  # fmt: skip
def test_a_failing_sealed_bot_is_named(bot, problem, tmp_path):
    with pytest.raises(CardsimError) as error:
        sealed_run(tmp_path / "x", ["random", spec(bot), "random", "random"], rounds=4, decision_seconds=1.0,
                   memory_mb=1024)  # fmt: skip
    message = str(error.value)
    assert f"bot '{spec(bot)}' (seat 1)" in message and problem in message, message


def test_a_forfeit_is_played_by_random_and_a_rerun_replays_it(tmp_path):
    folder = tmp_path / "sealed"
    bots = ["heuristic", spec("Crasher"), "random", spec("Plain")]
    sealed_run(folder, bots, rounds=5, forfeit=True)
    forfeits = json.loads((folder / "forfeits.json").read_text())
    assert [(f["entry"], f["bot"], f["at"][2]) for f in forfeits] == [(1, spec("Crasher"), 2)]
    assert "raised RuntimeError: boom" in forfeits[0]["reason"]
    rows = load_rows(folder)
    marked = rows[rows["forfeit"]]
    assert set(marked["seat"]) == {1} and set(marked["round"]) == {2, 3, 4}
    seed = json.loads((folder / "config.json").read_text())["seed"]
    run(experiment("differenzler", bots, rounds=5, seed=seed, duplicate=False), tmp_path / "open", forfeits=forfeits)
    open_rows = load_rows(tmp_path / "open")
    values = [c for c in open_rows.columns if c != "seed"]
    pd.testing.assert_frame_equal(rows[values], open_rows[values])


def test_a_sealed_bots_prints_go_to_its_log_not_to_cardsims_output(tmp_path, capfd):
    folder = tmp_path / "sealed"
    assert main(["tournament", "differenzler", "--bots", f"{spec('Printer')},random,random,random", "--rounds", "2",
                 "--no-duplicate", "--sealed", "--out", str(folder), "--json"]) == 0  # fmt: skip
    out = capfd.readouterr().out
    json.loads(out)  # nothing but cardsim's JSON
    assert "predicting for seat 0" in (folder / "bots" / "0-sealed_bots.stdout").read_text()


@pytest.mark.parametrize(("extra", "problem"), [
    (["--resume"], "--resume"),
    (["--dask-local", "2"], "Dask"),
    (["--seed", "7"], "seed"),
])  # fmt: skip
def test_what_a_sealed_match_refuses(extra, problem, tmp_path, capfd):
    code = main(["tournament", "differenzler", "--bots", f"{spec('Plain')},random,random,random", "--rounds", "2",
                 "--sealed", "--out", str(tmp_path / "x"), *extra])  # fmt: skip
    err = capfd.readouterr().err
    assert code == 2 and err.count("\n") == 1 and problem in err, err
    assert not (tmp_path / "x").exists()


def processes_of(uid: int) -> list[int]:
    """The processes running as user ``uid``."""
    found = []
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            line = next(x for x in status.read_text().splitlines() if x.startswith("Uid:"))
        except (OSError, StopIteration):
            continue
        if int(line.split()[1]) == uid:
            found.append(int(status.parent.name))
    return found


def test_a_sealed_process_is_unprivileged_and_gone_afterwards(tmp_path):
    folder = tmp_path / "sealed"
    sealed_run(folder, [spec("Plain"), "random", spec("Plain"), "random"], rounds=2)
    sealed = json.loads((folder / "sealed.json").read_text())["bots"]
    assert [b["entry"] for b in sealed] == [0, 2]
    if os.geteuid() == 0:  # each process a user of its own, in namespaces of its own
        assert [b["uid"] for b in sealed] == [SANDBOX_UID, SANDBOX_UID + 1]
        assert all(b["namespaces"][:2] == ["network", "ipc"] for b in sealed), sealed
        assert not processes_of(SANDBOX_UID) and not processes_of(SANDBOX_UID + 1)


def test_a_sealed_run_shares_one_cpu_with_its_bots_and_gives_cardsim_its_cpus_back(tmp_path, monkeypatch):
    """The bots' processes take turns with cardsim's thread: both run on one CPU during the run (a wake-up across
    CPUs cost 40-50 microseconds a turn), and the thread has every CPU it had again afterwards."""
    import cardsim.sealed.process as process

    before, seen = os.sched_getaffinity(0), []
    exchange = process.BotProcess._exchange

    def watched(self, *args, **kwargs):
        answer = exchange(self, *args, **kwargs)
        seen.append((os.sched_getaffinity(0), os.sched_getaffinity(self.process.pid)))
        return answer

    monkeypatch.setattr(process.BotProcess, "_exchange", watched)
    sealed_run(tmp_path / "sealed", [spec("Plain"), "random", spec("Plain"), "random"], rounds=2)
    one = {min(before)}
    assert seen and all(mine == theirs == one for mine, theirs in seen[2:]), seen[:4]  # after the start's exchanges
    assert os.sched_getaffinity(0) == before


def test_sealing_adds_nothing_to_the_experiment_of_an_open_run():
    exp = experiment("differenzler", "random", rounds=4)
    assert exp.sealed is None and "sealed" in {f.name for f in dataclasses.fields(exp)}


def test_the_sealed_ladder_keeps_its_seed_secret_until_it_ends(tmp_path):
    from cardsim.rating import ladder

    result = ladder("differenzler", [spec("Plain"), "random"], deals=2, seed=None, sealed=True,
                    out=tmp_path / "ladder", threads=1)  # fmt: skip
    assert len(result.ratings) == 2
    config = json.loads((tmp_path / "ladder" / "ladder.json").read_text())
    assert "seed_sha256" in config and config["seed"] is not None


@pytest.fixture
def outside_tmp():
    """A folder a sealed bot can see (its user may enter every folder above it; none under /tmp, /var/tmp, ...,
    which it sees as empty folders of its own): the checkout's results/, or a folder in /var/lib or /opt."""
    for parent in (ROOT / "results", Path("/var/lib"), Path("/opt")):
        if reachable(parent):
            folder = parent / f".cardsim-test-sealed-{os.getpid()}"
            folder.mkdir(parents=True)
            folder.chmod(0o755)
            yield folder
            shutil.rmtree(folder)
            return
    pytest.fail("no folder where a sealed bot could read a results folder (all under /tmp or closed to others)")


def reachable(folder: Path) -> bool:
    """Whether another user can reach ``folder`` (made if missing, inside a writable parent): every folder above
    it lets others through, and none is one that sealing covers."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    chain = [folder, *folder.resolve().parents]
    covered = {Path(d) for d in WRITABLE}
    return not covered & set(chain) and all(p.stat().st_mode & 0o001 for p in chain if p != Path("/"))


@pytest.fixture(autouse=True)
def _no_collusion_file():
    yield
    shutil.rmtree("/tmp/cardsim-collusion", ignore_errors=True) if Path("/tmp/cardsim-collusion").is_dir() else \
        Path("/tmp/cardsim-collusion").unlink(missing_ok=True)  # fmt: skip
