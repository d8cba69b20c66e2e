"""cardsim's side of a sealed bot: its process (``BotProcess``), the lineup entry that asks it (``SealedBot``), and
forfeits (``Forfeits``: from its failure on, the built-in random bot plays a bot's decisions; ``ReplayedBot``
replays them in cardsim's own process).

A sealed bot's process starts as ``python -I host.py`` with an empty environment, an empty read-only working
folder and no file descriptor but its pipes and its two log files (``bots/<entry>.stdout`` and ``.stderr`` in the
results folder); ``host.py`` seals it before the bot's code runs. When cardsim runs as root, each process gets a
user of its own (``SANDBOX_UID`` + its number, group nogroup), so bots can neither read nor signal each other;
cardsim itself is made not dumpable while they run (``undumpable``), so no process of its user can read its
memory through ``/proc`` or ptrace.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import random
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from cardsim.errors import CardsimError
from cardsim.protocol import Seat, ask
from cardsim.sealed import host

SANDBOX_UID = 64000  # the first user id of the bots' processes under root: 64000, 64001, ... (Debian leaves them free)
NOGROUP = 65534
ANSWER_BYTES = 1 << 20  # a longer answer is no action of any game
PR_SET_DUMPABLE, PR_GET_DUMPABLE = 4, 3


@dataclass(frozen=True)
class Sealing:
    """How a sealed match treats its Python bots: each one's limits (beyond them it fails), and whether a failure
    ends the run (one message naming the bot) or forfeits (``forfeit``: the built-in random bot plays its remaining
    decisions, and its rows are marked in the column ``forfeit``). Stored with the experiment."""

    forfeit: bool = False
    decision_seconds: float = 5.0  # wall clock per decision, from cardsim's message to the bot's answer
    memory_mb: int = 2048  # its process's address space (Python with numpy takes about 400 MB of it)
    output_mb: int = 16  # each of its stdout and stderr files
    start_seconds: float = 60.0  # to seal itself and load its file, imports included
    processes: int = 64  # threads and processes of its user (under root, where it has a user of its own)

    RANGES = {"decision_seconds": (0.001, 3600.0), "memory_mb": (64, 1 << 20), "output_mb": (1, 1 << 16),
              "start_seconds": (1.0, 3600.0), "processes": (1, 4096)}  # fmt: skip

    def __post_init__(self) -> None:
        if not isinstance(self.forfeit, bool):
            raise CardsimError(f"sealed bots' forfeit={self.forfeit!r} is not allowed: use True or False")
        for name, (low, high) in self.RANGES.items():
            value = getattr(self, name)
            whole = name in ("memory_mb", "output_mb", "processes")
            kind = (int,) if whole else (int, float)
            if isinstance(value, bool) or not isinstance(value, kind) or not low <= value <= high:
                allowed = f"an integer from {low:,} to {high:,}" if whole else f"a number from {low:g} to {high:g}"
                raise CardsimError(f"sealed bots' {name}={value!r} is not allowed: use {allowed}")


_OPEN: weakref.WeakSet = weakref.WeakSet()  # the bot processes not closed yet
_PINNED: dict[int, set[int] | None] = {}  # cardsim's threads moved to the bots' CPU -> the CPUs each had


def _release() -> None:
    """Every thread ``BotProcess._turn`` moved gets its CPUs back (the last bot process has closed)."""
    for thread, cpus in _PINNED.items():
        if cpus is not None:
            with contextlib.suppress(OSError):  # a thread that has ended meanwhile
                os.sched_setaffinity(thread, cpus)
    _PINNED.clear()


class RoundSeed(NamedTuple):
    """A sealed bot's ``obs.rng`` as cardsim holds it: the seat's private seed of the round
    (``cardsim.rng.bot_seed``); the ``random.Random`` seeded with it lives in the bot's process."""

    value: int


class BotProcess:
    """One Python bot (``path/to/file.py:ClassName``) in a sealed process of its own, for the whole run."""

    def __init__(self, spec: str, source: str, methods: tuple[str, ...], logs: Path, limits: Sealing, number: int):
        self.spec, self.limits = spec, limits
        path, _, name = spec.rpartition(":")
        self.folder = tempfile.mkdtemp(prefix="cardsim-sealed-")
        os.chmod(self.folder, 0o555)  # empty, and nobody may write there
        logs.parent.mkdir(parents=True, exist_ok=True)
        commands, self._commands = os.pipe()
        self._answers, answers = os.pipe()
        self._poll = select.poll()
        self._poll.register(self._answers, select.POLLIN)
        with open(f"{logs}.stdout", "wb") as out, open(f"{logs}.stderr", "wb") as err:
            self.process = subprocess.Popen([sys.executable, "-I", str(Path(host.__file__)), str(answers)],
                                            stdin=commands, stdout=out, stderr=err, pass_fds=(answers,), env={},
                                            cwd=self.folder)  # fmt: skip
        os.close(commands)
        os.close(answers)
        # The bot's process and cardsim's thread take turns, each waiting while the other runs: on one CPU a turn is
        # a switch (about 10 microseconds); across two, each wake-up of an idle CPU costs 40-50 more (on the VMs
        # measured). So the bot runs on one CPU, and cardsim's thread joins it there for each exchange (``_turn``).
        self._cpu = {min(os.sched_getaffinity(0))}
        _OPEN.add(self)
        with contextlib.suppress(OSError):  # a CPU set we may not change: the exchange works, only slower
            os.sched_setaffinity(self.process.pid, self._cpu)
        root = os.geteuid() == 0
        setup = {"folder": self.folder, "uid": SANDBOX_UID + number if root else os.getuid(), "gid": NOGROUP,
                 "memory": limits.memory_mb << 20, "output": limits.output_mb << 20, "processes": limits.processes}
        try:
            self.isolation = self._exchange(setup, limits.start_seconds, "to start")["ready"]
            self._exchange((path, source, name, list(methods)), limits.start_seconds, "to load")
        except CardsimError as error:
            self.close()
            raise CardsimError(f"sealed bot '{spec}': {error}") from None

    def ask(self, method: str, observation: Any, seed: int | None, new: bool) -> Any:
        """The bot's answer (JSON data, tuples restored) to ``method(observation)``; ``seed``: a new round's private
        seed; ``new``: make a new instance of its class first (a new lineup, as the in-process driver does). A
        CardsimError names what went wrong: what the bot raised, its time, its exit."""
        return self._exchange((method, seed, new, observation), self.limits.decision_seconds, "to decide")["answer"]

    def _exchange(self, message: Any, seconds: float, what: str) -> dict:
        if self.process.poll() is not None:
            raise CardsimError(self._ended())
        try:
            with self._turn():
                host.send(self._commands, host.dumps(message))
                data = self._receive(time.monotonic() + seconds)
        except BrokenPipeError:
            raise CardsimError(self._ended()) from None
        except TimeoutError:
            self.kill()
            raise CardsimError(f"did not answer within {seconds:g} s (its time {what})") from None
        try:
            answer = json.loads(data, object_hook=lambda d: tuple(d[host.TUPLE]) if set(d) == {host.TUPLE} else d)
        except (ValueError, RecursionError, TypeError):
            answer = None
        if not isinstance(answer, dict) or len(answer) != 1 or not {"answer", "ready", "error"} & set(answer):
            self.kill()
            raise CardsimError("answered something that is not cardsim's protocol (a sealed bot talks through "
                               "cardsim only)")  # fmt: skip
        if "error" in answer:
            raise CardsimError(str(answer["error"]))
        return answer

    @contextmanager
    def _turn(self) -> Iterator[None]:
        """The exchange with cardsim's thread on the bot's CPU: the thread is moved there on its first exchange and
        stays until the last bot process closes (``_release``), which gives it back every CPU it had. numba's thread
        pool is started first, so that no worker thread inherits the narrow set."""
        thread = threading.get_native_id()
        if thread not in _PINNED:
            import numba  # cardsim's kernels are loaded already: this only starts the pool if it is not

            numba.get_num_threads()
            try:
                _PINNED[thread] = os.sched_getaffinity(thread)
                os.sched_setaffinity(thread, self._cpu)
            except OSError:  # a CPU set we may not change: the exchange works, only slower
                _PINNED[thread] = None
        yield

    def _receive(self, deadline: float) -> bytes:
        """The bot's next message, or TimeoutError at ``deadline``, BrokenPipeError when it ended."""
        def read(fd: int, n: int) -> bytes:
            left = deadline - time.monotonic()
            if left <= 0 or not self._poll.poll(left * 1000):
                raise TimeoutError
            data = os.read(fd, n)
            if not data:
                raise BrokenPipeError
            if len(data) >= host.HEADER.size and host.HEADER.unpack_from(data)[0] > ANSWER_BYTES:
                self.kill()
                raise CardsimError(f"answered {host.HEADER.unpack_from(data)[0]:,} bytes; an action takes at most "
                                   f"{ANSWER_BYTES:,}")  # fmt: skip
            return data

        try:
            return host.receive(self._answers, read)
        except EOFError:
            raise BrokenPipeError from None

    def _ended(self) -> str:
        code = self.process.wait()
        if code < 0:
            name = signal.Signals(-code).name
            hint = f" (its memory limit is {self.limits.memory_mb} MB)" if -code in (signal.SIGKILL, signal.SIGSEGV) \
                else ""  # fmt: skip
            return f"its process was ended by {name}{hint}"
        return f"its process exited with code {code}"

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def close(self) -> None:
        """Stop the process (it ends when its pipe closes; killed if it lingers) and remove its folder."""
        for fd in (self._commands, self._answers):
            try:
                os.close(fd)
            except OSError:
                pass
        try:
            self.process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            self.kill()
        shutil.rmtree(self.folder, ignore_errors=True)
        _OPEN.discard(self)
        if not _OPEN:
            _release()


class Forfeits:
    """Where each sealed bot gave up (a failure with ``forfeit`` on, or a forfeit recorded by an earlier run), as its
    place in the run's order: (chunk, rotation, unit, round, its decision in that round). From there on, the
    built-in random bot plays its decisions; ``records`` say where and why (``forfeits.json``)."""

    def __init__(self, enabled: bool, records: list[dict] | None = None):
        self.enabled = enabled
        self.records = list(records or [])
        self.points = {r["entry"]: tuple(r["at"]) for r in self.records}

    def record(self, entry: int, spec: str, at: tuple, seat: int, reason: str) -> None:
        self.points[entry] = at
        self.records.append({"entry": entry, "bot": spec, "at": list(at), "seat": seat, "reason": reason})

    def since(self, entry: int) -> tuple | None:
        return self.points.get(entry)


class GuardedBot:
    """A lineup's seat holding a Python bot that may forfeit: from its place in ``forfeits`` on, the driver has the
    built-in random bot play its decisions. ``entry`` is its place in the experiment's lineup; the runner makes one
    per chunk and rotation (``chunk``, ``rotation``), as it makes in-process bots anew."""

    def __init__(self, spec: str, entry: int, chunk: int, rotation: int, forfeits: Forfeits):
        self.spec, self.entry, self.forfeits = spec, entry, forfeits
        self._place = (chunk, rotation)
        self._round: tuple = ()
        self._decision = -1

    def place(self, unit: int, sub: int) -> tuple:
        """This decision's place in the run (counting its decisions in the round): what forfeits are keyed by."""
        if self._round != (unit, sub):
            self._round, self._decision = (unit, sub), -1
        self._decision += 1
        return (*self._place, unit, sub, self._decision)

    def forfeited(self, at: tuple) -> bool:
        since = self.forfeits.since(self.entry)
        return since is not None and at >= since

    def round_rng(self, seed: int) -> Any:
        """What the seat's observations carry as ``rng`` in a round whose private seed is ``seed``."""
        return random.Random(seed)

    def decide(self, method: str, observation: Any, where: Seat, label: str) -> Any:
        """The bot's answer, or the CardsimError naming what went wrong (``where``, ``label``: as the driver names
        a decision)."""
        raise NotImplementedError

    def give_up(self) -> None:
        """Called once it forfeits: nothing more is asked of it."""


class SealedBot(GuardedBot):
    """A bot in its sealed ``BotProcess``; its ``random.Random`` lives there (``RoundSeed``)."""

    def __init__(self, process: BotProcess, entry: int, chunk: int, rotation: int, forfeits: Forfeits):
        super().__init__(process.spec, entry, chunk, rotation, forfeits)
        self.process = process
        self._rng: RoundSeed | None = None
        self._new = True

    def round_rng(self, seed: int) -> RoundSeed:
        return RoundSeed(seed)

    def decide(self, method: str, observation: Any, where: Seat, label: str) -> Any:
        seed = None
        if observation.rng is not self._rng:  # a new round: its private seed, for the bot's own random.Random
            self._rng, seed = observation.rng, observation.rng.value
        try:
            answer = self.process.ask(method, observation, seed, self._new)
        except CardsimError as error:
            raise where.error(label, str(error)) from None
        self._new = False
        return answer

    def give_up(self) -> None:
        self.process.kill()


class ReplayedBot(GuardedBot):
    """An in-process bot that replays a sealed run's recorded forfeits (``runner.run(..., forfeits=...)``): the
    same decisions, from the revealed seed, as the sealed run made."""

    def __init__(self, bot: Any, spec: str, entry: int, chunk: int, rotation: int, forfeits: Forfeits):
        super().__init__(spec, entry, chunk, rotation, forfeits)
        self.bot = bot

    def decide(self, method: str, observation: Any, where: Seat, label: str) -> Any:
        return ask(getattr(self.bot, method), observation, where, label)


@contextmanager
def undumpable() -> Iterator[None]:
    """cardsim not dumpable while sealed bots run: no process of its user (the bots' included, where they share
    it) may read its memory through /proc or attach to it; as it was afterwards."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        before = libc.prctl(PR_GET_DUMPABLE, 0, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: nothing to switch
        yield
        return
    libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    try:
        yield
    finally:
        libc.prctl(PR_SET_DUMPABLE, max(before, 0), 0, 0, 0)
