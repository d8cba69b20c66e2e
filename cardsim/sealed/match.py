"""A run with guarded Python bots (``cardsim.runner``): sealed ones, each in its process, or in-process ones that
replay a sealed run's forfeits; the seed's commitment; the ``forfeit`` column.

``GuardedRun`` starts a process per Python bot of the experiment's lineup (its entry) for the whole run and hands
the runner each chunk and rotation's lineup entries (a new ``SealedBot`` each time: the bot's class is made anew
then, as in-process bots are). While it runs, cardsim is not dumpable; when it ends, the processes are stopped and
``forfeits.json`` and ``sealed.json`` (what each process's sealing did) are written.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from cardsim.games import get_game
from cardsim.lineup import bot_sources, is_python_bot
from cardsim.results import Batch
from cardsim.sealed.process import BotProcess, Forfeits, ReplayedBot, SealedBot, Sealing, undumpable
from cardsim.tournament import rotated

FORFEITS, SEALED = "forfeits.json", "sealed.json"


def commitment(seed: int, nonce: str) -> str:
    """The sha256 commitment to a sealed run's seed that its config.json and rows hold until it ends: the seed
    cannot be found from it, and once ``seed`` and ``nonce`` are revealed anybody can check them."""
    return hashlib.sha256(f"cardsim seed {seed} nonce {nonce}".encode()).hexdigest()


class GuardedRun:
    """The guarded Python bots of one run of ``exp`` (``exp.bots``, ``exp.sealed``): sealed when ``exp.sealed``,
    else (``forfeits`` given) in this process, replaying those forfeits. Use as a context manager."""

    def __init__(self, exp: Any, folder: Path, forfeits: list[dict] | None = None):
        self.exp, self.folder = exp, Path(folder)
        sealing: Sealing | None = exp.sealed
        self.forfeits = Forfeits(bool(sealing and sealing.forfeit), forfeits)
        self.entries = [i for i, spec in enumerate(exp.bots) if is_python_bot(spec)]
        self.nonce = secrets.token_hex(16)
        self.commitment = commitment(exp.seed, self.nonce) if sealing else None
        self.seed_column: int | str = exp.seed if self.commitment is None else self.commitment
        self.processes: dict[int, BotProcess] = {}
        self._in_process: dict[int, Any] = {}
        self._undumpable = undumpable()

    def __enter__(self) -> GuardedRun:
        if self.exp.sealed is None:
            return self
        front = get_game(self.exp.game)
        self._undumpable.__enter__()
        sources = bot_sources(self.exp.bots)
        try:
            for number, entry in enumerate(self.entries):
                spec = self.exp.bots[entry]
                logs = self.folder / "bots" / f"{entry}-{Path(spec.rpartition(':')[0]).stem}"
                self.processes[entry] = BotProcess(spec, sources[spec.rpartition(":")[0]], front.decisions, logs,
                                                   self.exp.sealed, number)  # fmt: skip
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc: Any) -> None:
        for process in self.processes.values():
            process.close()
        if self.exp.sealed is not None:
            self._undumpable.__exit__(None, None, None)
            isolation = [{"entry": e, "bot": self.exp.bots[e], **p.isolation} for e, p in self.processes.items()]
            (self.folder / SEALED).write_text(json.dumps({"bots": isolation, "sealing": asdict(self.exp.sealed)},
                                                         indent=1))  # fmt: skip
        if self.forfeits.enabled or self.forfeits.records:
            (self.folder / FORFEITS).write_text(json.dumps(self.forfeits.records, indent=1))

    def seats(self, chunk: int, rotation: int, loaded: tuple | None) -> list[Any]:
        """The lineup entries of ``chunk`` in ``rotation``, seat by seat: a guarded bot for each Python bot, the
        others as written; ``loaded``: the rotation's in-process bots by seat (a rerun of forfeits), else None."""
        seats = list(rotated(self.exp.bots, rotation))
        for entry in self.entries:
            seat = (entry + rotation) % len(seats)
            if self.exp.sealed is not None:
                seats[seat] = SealedBot(self.processes[entry], entry, chunk, rotation, self.forfeits)
            else:
                seats[seat] = ReplayedBot(loaded[seat], self.exp.bots[entry], entry, chunk, rotation, self.forfeits)
        return seats

    def flag(self, batch: Batch, chunk: int, rotation: int) -> None:
        """The batch's ``forfeit`` column (bool[unit, round, seat]): true where the seat's bot had forfeited by
        that round (the built-in random bot played some or all of its decisions)."""
        score = batch.per_seat[batch.score]
        units, rounds, seats = score.shape
        flags = np.zeros(score.shape, bool)
        for entry in self.entries:
            since = self.forfeits.since(entry)
            if since is None or since[:2] > (chunk, rotation):
                continue
            seat = (entry + rotation) % seats
            if since[:2] < (chunk, rotation):
                flags[:, :, seat] = True
                continue
            place = np.arange(units)[:, None] + batch.start, np.arange(rounds)[None, :]
            flags[:, :, seat] = (place[0] > since[2]) | ((place[0] == since[2]) & (place[1] >= since[3]))
        batch.per_seat["forfeit"] = flags
