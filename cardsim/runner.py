"""Experiments at scale: chunked runs that write Parquet, resume after interruption, and run on a Dask cluster.

An experiment (``Experiment``: game, rules, lineup, seed, size, seat
rotations, chunk size, code version) lives in a results folder::

    config.json                      the experiment; a resume must match it
    rows/chunk-000000.parquet        the tidy rows of chunk 0: one per round, rotation and seat (``cardsim.rows``)
    checks/chunk-000000.json         its statistics, its size and the CRC-32 of the Parquet file

``rows/`` is a plain Parquet dataset: pandas, pyarrow, duckdb or polars read the same rows as ``load_rows``
(which checks every chunk first) without cardsim; hidden ``.partial`` files are skipped by all of them.

A chunk's files appear only when complete (written to a hidden temporary
file, then renamed), the Parquet file first. On ``resume`` every chunk whose
sidecar is missing, unreadable or whose digest does not match is computed
again, so an interrupted, killed or damaged run loses only unfinished chunks
and ends with exactly the result of an uninterrupted one. Chunks are keyed by
(seed, deal), so they may be computed anywhere, in any order: locally (the
kernel's numba threads on all cores, with the next chunk simulated while
the last two are written, each by a thread of its own) or by the workers of a
dask.distributed cluster.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import mmap
import os
import sys
import threading
import time
import zlib
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numba
import pandas as pd
import pyarrow.parquet as pq

import cardsim
import cardsim.rows as rows
from cardsim.engine import check_positive, check_size, check_threads, max_threads, progress_bar
from cardsim.errors import CardsimError
from cardsim.games import get_game
from cardsim.jit.compiling import batch_notice
from cardsim.jit.kernel_cache import source_digest
from cardsim.lineup import Bots, bot_sources, is_python_bot, use_bot_sources
from cardsim.options import RuleSettings, rules_text
from cardsim.outputs import check_output_folder
from cardsim.results import Batch
from cardsim.rng import resolve_seed
from cardsim.sealed.match import FORFEITS, SEALED, GuardedRun
from cardsim.sealed.process import Forfeits, GuardedBot, Sealing
from cardsim.tournament import DealStats, RotationTally, Standings, rotated, standings
from cardsim.validation import checked

FORMAT = 3  # 3: tidy rows in rows/ (2: seats as columns; 1: chunks/ held rows and sidecars)
ROUNDS_PER_CHUNK = 1 << 20  # rounds of all rotations together: fewer kernel calls (measured: 1<<18 costs ~7% more)
GAMES_PER_CHUNK = 1 << 12
# Slow bots get small chunks, so that progress and resume stay fine-grained: Python bots (about 1 ms a round) and
# the strong bots (milliseconds a round); a strong lineup's chunk still gives every thread kernel work items.
PYTHON_BOT_UNITS_PER_CHUNK = 64
STRONG_BOT_UNITS_PER_CHUNK = 1024
WORKER_CHECK_S = 5.0  # while no chunk arrives, look this often whether the Dask cluster still has a worker
NO_WORKER_TIMEOUT_S = 120.0  # and give up after this long without one (every worker died, none came back)
WRITERS = 2  # chunks written at once, each on a thread of its own, while the kernel plays on
PARALLEL_CHUNK = 4  # kernel work items a thread takes at a time: threads sharing a core with the writer fall behind
_KERNEL_LOCK = threading.Lock()  # one batch kernel at a time per process (numba's thread pool is not reentrant)


@dataclass(frozen=True)
class Experiment:
    """Everything that fixes an experiment's numbers; two runs of the same experiment give identical files."""

    game: str
    bots: tuple[str, ...]
    rules: str
    seed: int
    units: int  # deals (single rounds) or whole games
    games: bool
    rotations: int  # 1: as seated; the player count: duplicate deals
    chunk: int  # units per chunk
    version: str  # cardsim version + source digest: results of other code are never mixed in
    sealed: Sealing | None = None  # a sealed match: each Python bot in a process of its own (``cardsim.sealed``)

    @property
    def chunks(self) -> int:
        return -(-self.units // self.chunk)

    def chunk_range(self, index: int) -> tuple[int, int]:
        """(first unit, number of units) of chunk ``index``."""
        start = index * self.chunk
        return start, min(self.chunk, self.units - start)

    def rule_set(self) -> Any:
        """The game's rules object for ``rules`` (stored as text in the config)."""
        return get_game(self.game).make_rules(self.rules.split(","))


@checked
def experiment(
    game: str,
    bots: Bots,
    *,
    rounds: int | None = None,
    games: int | None = None,
    seed: int | None = 0,
    rules: RuleSettings = None,
    players: int | None = None,
    duplicate: bool = True,
    chunk: int | None = None,
    allow_cheating: bool = False,
    sealed: bool | Sealing = False,
) -> Experiment:
    """A validated experiment: ``rounds`` deals or ``games`` whole games, each played once per seat
    rotation when ``duplicate`` (so every bot holds every hand), else once as seated. ``seed=None`` draws one from
    the OS (stored in the experiment and its config.json). A cheating bot (``omniscient``) is refused unless
    ``allow_cheating`` (its rows are marked: ``cheating``). ``sealed`` (True, or a ``Sealing`` with its limits and
    forfeits): a sealed match for Python bots cardsim does not trust, each run in a process of its own (docs:
    "Sealed matches"); its seed is drawn secretly, so ``seed`` must be None, and no bot file is run here."""
    front = get_game(game)
    rule_set = front.make_rules(rules, players)
    sealing = Sealing() if sealed is True else sealed or None
    if sealing is not None and seed is not None:
        raise CardsimError(f"a sealed match draws its seed secretly: give seed=None, not {seed!r} (with a seed a bot "
                           "author knows or guesses, a bot can compute every hand)")  # fmt: skip
    lineup = front.lineup(bots if sealing is None else sealed_entries(bots), rule_set, allow_cheating)
    units = check_size(rounds, games)
    front.check_units(rule_set, games is not None)
    rotations = len(lineup.names) if duplicate else 1
    if chunk is None:
        chunk = max(1, (ROUNDS_PER_CHUNK if games is None else GAMES_PER_CHUNK) // rotations)
        if not lineup.compiled:
            chunk = min(chunk, PYTHON_BOT_UNITS_PER_CHUNK)
        elif lineup.strong_table is not None:
            chunk = min(chunk, STRONG_BOT_UNITS_PER_CHUNK)
    check_positive(chunk, "chunk size")
    return Experiment(front.name, lineup.names, rules_text(rule_set), resolve_seed(seed), int(units), games is not None,
                      rotations, int(chunk), code_version(lineup.names), sealing)  # fmt: skip


def sealed_entries(bots: Bots) -> list[Any]:
    """A sealed lineup as ``Game.lineup`` checks it without running a bot file here: each Python bot a stand-in
    named by its spec (its process loads it, and names what is wrong before any work starts), its file read."""
    entries = bots.split(",") if isinstance(bots, str) else list(bots)
    out: list[Any] = []
    for entry in (e.strip() if isinstance(e, str) else e for e in entries):
        if not isinstance(entry, str):
            raise CardsimError(f"a sealed match takes its bots by name (path/to/file.py:ClassName), not "
                               f"{type(entry).__name__} objects: an object already runs in cardsim's process")
        if is_python_bot(entry) and not Path(entry.rpartition(":")[0]).is_file():
            raise CardsimError(f"bot '{entry}': no file {entry.rpartition(':')[0]}; a Python bot is written "
                               "path/to/file.py:ClassName")  # fmt: skip
        out.append(GuardedBot(entry, len(out), 0, 0, Forfeits(False)) if is_python_bot(entry) else entry)
    return out


def code_version(bots: tuple[str, ...]) -> str:
    """cardsim's version and source digest, plus a digest of every Python bot file in the lineup."""
    digest = hashlib.blake2b(digest_size=8)
    python_bots = sorted({spec for spec in bots if is_python_bot(spec)})
    for spec in python_bots:
        path = Path(spec.rpartition(":")[0])
        if path.is_file():
            digest.update(path.read_bytes())
    bots_part = f"+bots-{digest.hexdigest()}" if python_bots else ""
    return f"{cardsim.__version__}+{source_digest()}{bots_part}"


# ---------------------------------------------------------------- one chunk: simulate, summarise, encode


def play_rotations(exp: Experiment, index: int, check: bool = False, guard: GuardedRun | None = None
                   ) -> Iterator[Batch]:  # fmt: skip
    """The chunk's deals played in each rotation in turn, each batch as soon as it is played (the compiled kernel,
    on this process's numba threads: one call for every rotation of built-in bots, each deal dealt once, else one
    per rotation; ``Game.run_rotations``); ``check``: every step's round invariants are checked too (``--check``).
    ``guard``: its guarded Python bots play (sealed, or replaying forfeits), and each batch gets its ``forfeit``
    column."""
    front, rule_set = get_game(exp.game), exp.rule_set()
    start, count = exp.chunk_range(index)
    lineups = []
    for rotation in range(exp.rotations):
        seats = list(rotated(exp.bots, rotation))
        if guard is not None:
            loaded = None if exp.sealed else front.lineup(seats, rule_set, allow_cheating=True).bots
            seats = guard.seats(index, rotation, loaded)
        lineups.append(front.lineup(seats, rule_set, allow_cheating=True))  # checked already
    played = front.run_rotations(rule_set, lineups, exp.seed, start, count, exp.games, check)
    for rotation, lineup in enumerate(lineups):
        try:
            with _KERNEL_LOCK, numba.parallel_chunksize(PARALLEL_CHUNK):
                batch = next(played)
        except CardsimError as error:  # a bot's error: say in which seating of the duplicate deals
            raise CardsimError(f"{error} (rotation {rotation}: seats {', '.join(lineup.names)})") from None
        if guard is not None:
            guard.flag(batch, index, rotation)
        yield batch


class ChunkRows:
    """A chunk's tidy rows (``cardsim.rows``: one row per round, rotation and seat) as Parquet, one rotation's
    batch at a time (``add``, in rotation order: the runner's writer encodes them while the kernel plays on),
    and its statistics (``finish``). The Parquet goes into memory, or into the file of ``sink``
    (``ResultsFolder.rows_writer``)."""

    def __init__(self, exp: Experiment, seed: int | str | None = None, sink: rows.Writer | None = None) -> None:
        self.exp, self.front = exp, get_game(exp.game)
        self.seed = exp.seed if seed is None else seed  # a sealed run's rows hold its commitment
        self.names = list(dict.fromkeys(exp.bots))
        self.tally = RotationTally(self.front, exp.bots)
        self.encoder = sink if sink is not None else rows.Encoder()

    def add(self, batch: Batch) -> None:
        rotation = self.tally.added
        self.encoder.write(rows.table(batch, self.front, self.exp.rules, self.seed,
                                      rotated(self.exp.bots, rotation), names=self.names, rotation=rotation))
        self.tally.add(batch)

    def finish(self) -> tuple[memoryview | None, DealStats]:
        """The Parquet bytes (None: they are in the sink's file) and the statistics of the chunk, once every
        rotation was added."""
        assert self.tally.added == self.exp.rotations, "a rotation is missing"
        return self.encoder.finish(), self.tally.stats()


def encode_chunk(exp: Experiment, batches: list[Batch]) -> tuple[memoryview, DealStats]:
    """A chunk's rows as Parquet bytes and its statistics: ``batches[r]`` holds its deals played in rotation r."""
    chunk = ChunkRows(exp)
    for batch in batches:
        chunk.add(batch)
    return chunk.finish()


def _chunk_task(exp: Experiment, index: int, threads: int | None, sources: dict[str, str], check: bool
                ) -> tuple[int, bytes, dict]:  # fmt: skip
    """What a Dask worker runs: one chunk, returned as Parquet bytes and statistics (the client writes them).
    ``sources``: the Python bot files of the lineup (``lineup.bot_sources``), wherever the worker runs."""
    use_bot_sources(sources)
    numba.set_num_threads(min(threads or max_threads(), max_threads()))
    data, stats = encode_chunk(exp, list(play_rotations(exp, index, check)))
    return index, bytes(data), stats.to_json()


# ---------------------------------------------------------------- the results folder


class ResultsFolder:
    """The files of one experiment: its config, and each chunk's Parquet rows with a checked sidecar."""

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)
        self.config_path = self.path / "config.json"
        self.rows_dir, self.checks_dir = self.path / "rows", self.path / "checks"

    def parquet(self, index: int) -> Path:
        return self.rows_dir / f"chunk-{index:06d}.parquet"

    def sidecar(self, index: int) -> Path:
        return self.checks_dir / f"chunk-{index:06d}.json"

    def rows_writer(self, index: int) -> rows.Writer:
        """The writer of a chunk's Parquet file, through a hidden temporary file (which ``finished`` removes when a
        run stopped half-way through it); ``seal`` then marks the chunk complete."""
        return rows.Writer(self.parquet(index), _partial(self.parquet(index)))

    def make_dirs(self) -> None:
        for folder in (self.rows_dir, self.checks_dir):
            folder.mkdir(parents=True, exist_ok=True)

    def read_config(self) -> Experiment:
        try:
            data = json.loads(self.config_path.read_text())
            written = data.pop("format")
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise CardsimError(
                f"{self.config_path} is unreadable ({type(exc).__name__}: {exc}); it is not a cardsim results "
                "folder or it is damaged: use another --out folder"
            ) from None
        if written != FORMAT:
            raise CardsimError(f"{self.path} holds results format {written!r}, written by another version of cardsim "
                               f"(this one reads format {FORMAT}); run the experiment again into another --out folder")
        if "seed" not in data and "seed_sha256" in data:
            raise CardsimError(f"{self.path} holds a sealed match that did not end: its seed was never revealed, so "
                               "its rows cannot be reproduced; run it again into another --out folder")  # fmt: skip
        for commitment in ("seed_sha256", "seed_nonce"):  # a sealed run's, checked by its reader
            data.pop(commitment, None)
        try:
            sealed = data.get("sealed")
            return Experiment(**{**data, "bots": tuple(data["bots"]),
                                 "sealed": None if sealed is None else Sealing(**sealed)})  # fmt: skip
        except (ValueError, KeyError, TypeError) as exc:
            raise CardsimError(
                f"{self.config_path} is unreadable ({type(exc).__name__}: {exc}); it is not a cardsim results "
                "folder or it is damaged: use another --out folder"
            ) from None

    def open(self, exp: Experiment, resume: bool, commitment: str | None = None) -> None:
        """Start the folder for ``exp``, or check that it holds ``exp`` when resuming. A sealed match's config
        holds its seed's ``commitment`` instead of the seed until it ends (``reveal``)."""
        if self.config_path.exists():
            saved = self.read_config()
            if not resume:
                raise CardsimError(f"{self.path} already holds an experiment; add --resume to continue it "
                                   "(only missing chunks are computed), or choose another --out folder")  # fmt: skip
            differences = [
                f"{f.name} {getattr(saved, f.name)!r} there, {getattr(exp, f.name)!r} here"
                for f in dataclasses.fields(exp)
                if getattr(saved, f.name) != getattr(exp, f.name)
            ]
            if differences:
                raise CardsimError(f"cannot resume: {self.path} holds a different experiment: "
                                   + "; ".join(differences) + ". Use the same settings, or another --out folder")
            return
        if self.path.exists() and any(self.path.iterdir()):
            raise CardsimError(f"{self.path} is not empty and holds no cardsim experiment (no config.json); "
                               "choose a new or empty --out folder")  # fmt: skip
        self.make_dirs()
        config = {"format": FORMAT, **dataclasses.asdict(exp)}
        if commitment is not None:
            del config["seed"]
            config["seed_sha256"] = commitment
        _write_atomic(self.config_path, json.dumps(config, indent=1).encode())

    def reveal(self, exp: Experiment, nonce: str) -> None:
        """A sealed match has ended: its config gets the seed and the nonce that open its commitment."""
        config = json.loads(self.config_path.read_text())
        config = {**{k: v for k, v in config.items() if k != "seed_sha256"}, "seed": exp.seed,
                  "seed_sha256": config["seed_sha256"], "seed_nonce": nonce}  # fmt: skip
        _write_atomic(self.config_path, json.dumps(config, indent=1).encode())

    def after_error(self, fresh: bool) -> str:
        """Clean up after a run stopped by an error, and say what is left: a folder this run made and in which no
        chunk was finished is removed, so the same command runs again once the bot is fixed."""
        kept = sorted(self.checks_dir.glob("chunk-*.json"))
        if fresh and not kept:
            for folder in (self.rows_dir, self.checks_dir, self.path / "bots"):
                for leftover in folder.glob("*"):
                    leftover.unlink()
                if folder.exists():
                    folder.rmdir()
            for made in (self.config_path, self.path / FORFEITS, self.path / SEALED):
                made.unlink(missing_ok=True)
            if not any(self.path.iterdir()):
                self.path.rmdir()
            return f"no chunk was finished, so nothing is kept in {self.path}"
        return (f"{len(kept)} finished chunks are kept in {self.path}: --resume continues them with the same bots "
                "(a changed bot file is another experiment: then use another --out folder or delete this one)")

    def finished(self, exp: Experiment, warn: Callable[[str], None], repair: bool) -> dict[int, DealStats]:
        """Statistics of every complete, intact chunk. Damaged and partial chunks are reported through
        ``warn``; with ``repair`` their files are removed, to be computed again."""
        if repair:
            self.make_dirs()
            for leftover in [*self.rows_dir.glob(".*.partial"), *self.checks_dir.glob(".*.partial")]:
                leftover.unlink()
        done = {}
        for index in range(exp.chunks):
            sidecar, parquet = self.sidecar(index), self.parquet(index)
            try:
                if sidecar.exists():
                    done[index] = self._check(exp, index)
                elif parquet.exists():  # interrupted between its two files
                    warn(f"chunk {index} has rows but no sidecar (interrupted while it was written)"
                         + ("; it will be computed again" if repair else ""))  # fmt: skip
                    if repair:
                        parquet.unlink()
            except (OSError, ValueError, KeyError, TypeError) as exc:
                warn(f"chunk {index} is damaged ({exc}); it will be computed again" if repair else
                     f"chunk {index} is damaged ({exc})")  # fmt: skip
                if repair:
                    sidecar.unlink()
                    parquet.unlink(missing_ok=True)
        return done

    def _check(self, exp: Experiment, index: int) -> DealStats:
        try:
            record = json.loads(self.sidecar(index).read_text())
        except json.JSONDecodeError:
            raise ValueError(f"its sidecar {self.sidecar(index).name} is not the JSON cardsim wrote") from None
        body = {k: v for k, v in record.items() if k != "check"}
        if record.get("check") != _digest(json.dumps(body, sort_keys=True).encode()):
            raise ValueError("its sidecar fails its checksum")
        if (record["start"], record["count"]) != exp.chunk_range(index):
            raise ValueError("its sidecar describes other deals")
        parquet = self.parquet(index)
        if parquet.stat().st_size != record["bytes"] or _file_digest(parquet) != record["digest"]:
            raise ValueError(f"{parquet.name} is truncated or altered (digest mismatch)")
        return DealStats.from_json(record["stats"])

    def store(self, exp: Experiment, index: int, data: bytes | memoryview, stats: DealStats) -> None:
        """Write a chunk from its Parquet bytes (a Dask worker's, a saved table's), then seal it."""
        _write_atomic(self.parquet(index), data)
        self.seal(exp, index, stats)

    def seal(self, exp: Experiment, index: int, stats: DealStats) -> None:
        """Mark a chunk complete once its Parquet file is in place: the sidecar, with the file's size and digest."""
        start, count = exp.chunk_range(index)
        parquet = self.parquet(index)
        body = {"chunk": index, "start": start, "count": count, "bytes": parquet.stat().st_size,
                "digest": _file_digest(parquet), "stats": stats.to_json()}  # fmt: skip
        record = {**body, "check": _digest(json.dumps(body, sort_keys=True).encode())}
        _write_atomic(self.sidecar(index), json.dumps(record).encode())


def _digest(data: bytes | memoryview) -> str:
    """CRC-32 and length: catches truncation, torn writes and flipped bits (not tampering), at memory speed."""
    return f"{zlib.crc32(data):08x}-{len(data)}"


def _file_digest(path: Path) -> str:
    """``_digest`` of a file's bytes, read through a memory map (no copy of a chunk's 10-70 MB)."""
    with open(path, "rb") as file:
        if os.fstat(file.fileno()).st_size == 0:
            return _digest(b"")
        with mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as data:
            return _digest(data)


def _partial(path: Path) -> Path:
    """The hidden temporary file through which ``path`` is written."""
    return path.with_name(f".{path.name}.partial")


def _write_atomic(path: Path, data: bytes | memoryview) -> None:
    """Write ``data`` to ``path`` through a hidden temporary file, so ``path`` is never seen half-written.
    (No fsync: a file torn by a crash fails its digest and is computed again.)"""
    tmp = _partial(path)
    tmp.write_bytes(data)
    os.replace(tmp, path)


# ---------------------------------------------------------------- running


@dataclass
class Outcome:
    """A finished experiment: its config, folder, merged statistics and standings."""

    experiment: Experiment
    folder: Path
    stats: DealStats
    standings: Standings
    computed: int  # chunks computed by this call (the rest were already in the folder)
    computed_units: int = 0  # their deals (or games), each played once per rotation


@checked
def run(
    exp: Experiment,
    out: str | os.PathLike,
    *,
    resume: bool = False,
    threads: int | None = None,
    scheduler: str | None = None,
    dask_local: int | None = None,
    progress: bool | None = None,
    warn: Callable[[str], None] | None = None,
    check: bool = False,
    forfeits: list[dict] | None = None,
) -> Outcome:
    """Run the missing chunks of ``exp`` into the folder ``out`` and return the merged result.

    Locally by default (numba threads: ``threads``, default all cores); on the Dask
    cluster at ``scheduler`` (``tcp://host:8786``), or on a local cluster of
    ``dask_local`` worker processes. Every way gives identical files and numbers.
    ``check``: every step's round invariants are checked too (``--check``; the same files). Every argument is
    checked before the folder is made, so a refused call leaves nothing behind. A sealed match (``exp.sealed``)
    runs here, in one go: no resume, no Dask; its seed is revealed in config.json when it ends. ``forfeits``
    (a sealed run's ``forfeits.json``): the open rerun of a sealed match plays them again, the same rows.
    """
    warn = warn or (lambda message: print(f"cardsim: {message}", file=sys.stderr))
    if scheduler is not None and dask_local is not None:
        raise CardsimError("give --scheduler (an existing cluster) or --dask-local N (a new local one), not both: "
                           f"scheduler={scheduler!r}, dask_local={dask_local!r}")
    if dask_local is not None:
        check_positive(dask_local, "number of --dask-local workers")
    threads = check_threads(threads)
    _check_guarded(exp, resume, scheduler is not None or dask_local is not None, forfeits)
    check_output_folder(out)
    with _dask_client(scheduler, dask_local) as cluster:  # connect first: a failure leaves no folder behind
        folder = ResultsFolder(out)
        fresh = not folder.config_path.exists()
        guard = GuardedRun(exp, folder.path, forfeits) if exp.sealed is not None or forfeits is not None else None
        folder.open(exp, resume, guard.commitment if guard is not None else None)
        try:
            with guard if guard is not None else contextlib.nullcontext():
                done, computed = _run_missing(exp, folder, threads, cluster, progress, warn, check, scheduler is None,
                                              guard)  # fmt: skip
        except CardsimError as error:  # a bot's error: the rerun once it is fixed must not be blocked
            raise CardsimError(f"{error}; {folder.after_error(fresh)}") from None
        finally:
            if exp.sealed is not None and folder.config_path.exists():
                folder.reveal(exp, guard.nonce)
    return _outcome(exp, folder, done, computed)


def _check_guarded(exp: Experiment, resume: bool, dask: bool, forfeits: list[dict] | None) -> None:
    """What a sealed match, or the rerun of one's forfeits, refuses: resuming (the seed stays secret within one
    run), Dask (the bots' processes run here), and forfeits that are not a list of ``forfeits.json``'s records."""
    guarded = "a sealed match" if exp.sealed is not None else "a rerun of forfeits" if forfeits is not None else None
    if guarded and resume:
        raise CardsimError(f"{guarded} runs in one go and cannot --resume: its seed stays secret only within one run; "
                           "start it again into a new --out folder")  # fmt: skip
    if guarded and dask:
        raise CardsimError(f"{guarded} runs its Python bots on this machine: Dask (--scheduler, --dask-local) is "
                           "refused with it")  # fmt: skip
    if exp.sealed is not None and forfeits is not None:
        raise CardsimError("forfeits replay a sealed match in the open, with its revealed seed: the run must not be "
                           "sealed itself")  # fmt: skip
    entries = {i for i, spec in enumerate(exp.bots) if is_python_bot(spec)}
    for record in forfeits or []:
        at = record.get("at") if isinstance(record, dict) else None
        if not (isinstance(at, list) and len(at) == 5 and all(isinstance(x, int) for x in at)
                and record.get("entry") in entries):  # fmt: skip
            raise CardsimError(f"forfeit {record!r} is not a record of forfeits.json for this lineup: each has an "
                               f"entry (a Python bot's place: {sorted(entries)}) and its place 'at' (5 integers)")


def _outcome(exp: Experiment, folder: ResultsFolder, done: dict[int, DealStats], computed: list[int]) -> Outcome:
    """Merge every chunk's statistics in chunk order (so the sums are the same however they were computed);
    ``computed``: the chunks computed now."""
    total = DealStats.from_json(done[0].to_json())
    for index in range(1, exp.chunks):
        total.add(done[index])
    return Outcome(exp, folder.path, total, standings(get_game(exp.game), total, exp.bots, exp.games), len(computed),
                   sum(exp.chunk_range(i)[1] for i in computed))  # fmt: skip


def prepare_chunks(exp: Experiment, check: bool = False) -> None:
    """Compile, or load from the cache, the kernels that simulate, summarise and encode ``exp``'s chunks, before
    the run starts and its progress bar shows (saying so on stderr when they compile): a chunk of zero deals, its
    statistics and rows. A lineup with a Python bot has nothing to prepare (its driver compiles as it goes)."""
    if any(is_python_bot(spec) for spec in exp.bots):  # (and a sealed bot's file never runs here)
        return
    front, rule_set = get_game(exp.game), exp.rule_set()
    lineup = front.lineup(list(exp.bots), rule_set, allow_cheating=True)  # checked by experiment
    if not lineup.compiled:
        return
    with batch_notice(front.name, lineup, check):
        with _KERNEL_LOCK:
            batch = front.run(rule_set, lineup, exp.seed, 0, 0, exp.games, check)
        encode_chunk(exp, [batch] * exp.rotations)


def _run_missing(exp: Experiment, folder: ResultsFolder, threads: int, cluster, progress: bool | None,
                 warn: Callable[[str], None], check: bool, here: bool = True, guard: GuardedRun | None = None
                 ) -> tuple[dict[int, DealStats], list[int]]:  # fmt: skip
    """Compute every chunk not yet in the folder, locally or on ``cluster``: (statistics of all chunks, chunks
    computed now). ``here``: the kernels run on this machine (locally, or on a local Dask cluster, whose workers
    then load them from the cache this process compiled them into, instead of each compiling them)."""
    done = folder.finished(exp, warn, repair=True)
    todo = [i for i in range(exp.chunks) if i not in done]
    if todo and here:
        prepare_chunks(exp, check)
    per_chunk = exp.rotations  # progress in rounds (deals x rotations) or games (x rotations)
    bar = progress_bar(exp.units * per_chunk, "games" if exp.games else "rounds", progress)
    if bar:
        bar.update(sum(exp.chunk_range(i)[1] for i in done) * per_chunk)

    def record(index: int, stats: DealStats, counted: bool = False) -> None:
        done[index] = stats
        if bar and not counted:
            bar.update(exp.chunk_range(index)[1] * per_chunk)

    try:
        if cluster is None:
            _run_local(exp, folder, todo, threads, record, bar.update if bar else None, check, guard)
        else:
            _run_dask(exp, folder, todo, *cluster, record, check)
    finally:
        if bar:
            bar.close()
    return done, todo


def _run_local(exp: Experiment, folder: ResultsFolder, todo: list[int], threads: int, record, played,
               check: bool, guard: GuardedRun | None = None) -> None:  # fmt: skip
    """Simulate chunk by chunk on all cores. Each rotation of a chunk is encoded straight into its file in the
    background while the kernel plays on (the next chunk; with a strong bot, the next rotation), and the chunk
    sealed there too: ``WRITERS`` threads take the chunks in turn, so that the last chunks' rows do not wait for
    one thread while the other cores idle. ``played(rounds)`` moves the progress bar after each rotation of a
    chunk (None: no bar)."""
    numba.set_num_threads(threads)

    def seal(index: int, chunk: ChunkRows, added: list) -> tuple[int, DealStats]:
        try:
            for rotation in added:  # a rotation that failed to encode fails its chunk
                rotation.result()
            _, stats = chunk.finish()
        except BaseException:
            chunk.encoder.abort()
            raise
        folder.seal(exp, index, stats)
        return index, stats

    lanes = [ThreadPoolExecutor(max_workers=1) for _ in range(WRITERS)]  # one lane keeps a chunk's rotations in order
    sealing: list = []  # the chunks being written, oldest first
    seed = guard.seed_column if guard is not None else None  # a sealed run's rows hold its commitment
    try:
        for k, index in enumerate(todo):
            lane = lanes[k % WRITERS]
            chunk, added = ChunkRows(exp, seed, folder.rows_writer(index)), []
            try:
                for batch in play_rotations(exp, index, check, guard):
                    added.append(lane.submit(chunk.add, batch))
                    if played:
                        played(len(batch.played))
            except BaseException:  # a bot's error: the rotations written so far go, with their temporary file
                lane.submit(chunk.encoder.abort)
                raise
            sealing.append(lane.submit(seal, index, chunk, added))
            if len(sealing) > WRITERS:  # WRITERS chunks at most wait while the kernel plays on: bounded memory
                record(*sealing.pop(0).result(), counted=played is not None)
        for pending in sealing:
            record(*pending.result(), counted=played is not None)
    finally:
        for lane in lanes:  # the chunks already played are written, also after an error or an interruption
            lane.shutdown()


@contextmanager
def _dask_client(scheduler: str | None, dask_local: int | None):
    """None for a local run; else (client, numba threads per task) of the cluster, closed on exit."""
    if scheduler is None and dask_local is None:
        yield None
        return
    from distributed import Client, LocalCluster

    cluster = None
    try:
        if dask_local is not None:
            cluster = LocalCluster(n_workers=dask_local, threads_per_worker=1, processes=True, dashboard_address=None)
            client, threads = Client(cluster), max(1, max_threads() // dask_local)
        else:
            try:
                client, threads = Client(scheduler, timeout="10s"), None  # a worker's numba uses all its cores
            except (OSError, ValueError, TypeError) as exc:  # unreachable, or an address without a port
                raise CardsimError(f"cannot reach the Dask scheduler at {scheduler!r}: {exc}; give its address as "
                                   "tcp://host:8786") from None  # fmt: skip
        with client:
            yield client, threads
    finally:
        if cluster is not None:
            cluster.close()


def _run_dask(exp: Experiment, folder: ResultsFolder, todo: list[int], client, threads: int | None, record,
              check: bool) -> None:  # fmt: skip
    """Submit every missing chunk to the cluster; write each chunk as it arrives (lost workers' tasks are rerun)."""
    from distributed import wait

    sources = bot_sources(exp.bots)
    pending = {client.submit(_chunk_task, exp, i, threads, sources, check, pure=False) for i in todo}
    no_worker_since = None
    while pending:
        try:
            done, pending = wait(pending, timeout=WORKER_CHECK_S, return_when="FIRST_COMPLETED")
        except TimeoutError:  # nothing finished meanwhile: is anybody still working?
            if client.scheduler_info()["workers"]:
                no_worker_since = None
            elif no_worker_since is None:
                no_worker_since = time.monotonic()
            elif time.monotonic() - no_worker_since > NO_WORKER_TIMEOUT_S:
                raise CardsimError(f"the Dask cluster has had no live worker for {NO_WORKER_TIMEOUT_S:.0f} s, with "
                                   f"{len(pending)} chunks to go: start workers and rerun with --resume") from None
            continue
        for future in done:
            index, data, stats = future.result()
            stats = DealStats.from_json(stats)
            folder.store(exp, index, data, stats)
            record(index, stats)


# ---------------------------------------------------------------- reading results back


@checked
def load(out: str | os.PathLike) -> Outcome:
    """The result of a complete results folder (nothing is computed; a missing or damaged chunk is an error)."""
    folder = ResultsFolder(out)
    if not folder.config_path.exists():
        raise CardsimError(f"{folder.path} holds no cardsim experiment (no config.json)")
    exp = folder.read_config()
    problems: list[str] = []
    done = folder.finished(exp, problems.append, repair=False)
    missing = [i for i in range(exp.chunks) if i not in done]
    if missing:
        raise CardsimError(f"{folder.path}: {len(missing)} of {exp.chunks} chunks are missing or damaged "
                           f"({'; '.join(problems) or 'not computed yet'}); run again with --resume to compute them")
    return _outcome(exp, folder, done, [])


@checked
def iter_rows(out: str | os.PathLike) -> Iterator[pd.DataFrame]:
    """The tidy rows of a complete results folder, chunk by chunk: one row per (round, rotation, seat)
    with the columns of ``simulate(..., keep_rows=True)`` plus ``rotation``. Chunks are checked first."""
    outcome = load(out)
    folder = ResultsFolder(out)
    for index in range(outcome.experiment.chunks):
        yield pq.read_table(folder.parquet(index)).to_pandas()


@checked
def load_rows(out: str | os.PathLike) -> pd.DataFrame:
    """All tidy rows of a complete results folder (see ``iter_rows``; for large runs iterate instead)."""
    return pd.concat(iter_rows(out), ignore_index=True)
