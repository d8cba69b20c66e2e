"""A session's games as data: a results folder like a simulated run's, with each round's record beside the rows.

The folder (``results/play/<time>/``, or the one given) is what ``cardsim tournament`` writes for whole games
(``cardsim.runner``: ``config.json``, ``rows/``, ``checks/``), so ``runner.load_rows``, pandas, duckdb and polars
read its rows like any others: one per round and seat, the people's seats with the bot ``human``. A game that was
stopped is saved up to its last finished round: its unit holds those rounds only (its ``game_total`` and
``game_win`` count them), and ``play.json`` says it did not finish. Beside them:

    rounds/game-000-round-00.json    each finished round's ``Round.record()`` (``cardsim replay --file`` shows it)
    play.json                        the session: who sat where, which games finished, when
    review.json                      the people's decisions as the review valued them (``cardsim.play.review``)

The rows are the game's own (``Game.batch``'s, through its Python driver's path) from the finished rounds' states,
so they are the columns a simulated run has. Nothing is written before the session ends or stops: the seed, which
the folder holds, deals every round still to come.
"""

from __future__ import annotations

import dataclasses
import json
import os
import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from cardsim.errors import CardsimError
from cardsim.games import Game
from cardsim.options import rules_text
from cardsim.outputs import check_output_folder
from cardsim.play.table import Table
from cardsim.results import Batch
from cardsim.round import Match
from cardsim.runner import ChunkRows, Experiment, ResultsFolder, code_version

PLAY_FOLDER = Path("results") / "play"


def session_folder(path: str | os.PathLike | None) -> Path:
    """Where a session is saved: ``path`` (a new or empty folder), or ``results/play/<time>``; checked before the
    game starts, so that its end cannot fail to write."""
    folder = Path(path) if path is not None else PLAY_FOLDER / time.strftime("%Y%m%d-%H%M%S")
    check_output_folder(folder)
    if folder.exists() and any(folder.iterdir()):
        raise CardsimError(f"{folder} is not empty: give a new or empty folder to save the games in")
    return folder


class _Finished:
    """``table.game`` with the finished rounds' states in place of its Python driver's games: the game's own
    ``batch`` turns them into its result arrays."""

    def __init__(self, game: Game, units: list[list[Any]]) -> None:
        self._game, self._units = game, units

    def play_unit_py(self, rules: Any, lineup: Any, seed: int, unit: int, games: bool, **_: Any) -> list:
        return self._units[unit]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


def batch(table: Table, matches: list[Match]) -> Batch:
    """The result arrays of ``matches`` (whole games, each up to its last finished round)."""
    units = [[r.state for r in table.finished_rounds(m)] for m in matches]
    lineup = table.game.lineup("random", table.rules)  # unused: the rounds were played
    played = type(table.game).batch(_Finished(table.game, units), table.rules, lineup, table.setup.seed, 0,
                                    len(units), True, engine="python")  # fmt: skip
    return dataclasses.replace(played, played=np.array([len(u) for u in units], np.int64))


def save(table: Table, folder: Path, review: list[dict] | None = None) -> Path | None:
    """Write the session's finished rounds into ``folder`` (see the module docstring); None when no round was
    finished (nothing is written)."""
    matches = [m for m in table.matches if table.finished_rounds(m)]
    if not matches:
        return None
    names = table.names
    exp = Experiment(table.game.name, names, rules_text(table.rules), table.setup.seed, len(matches), True, 1,
                     len(matches), code_version(names))  # fmt: skip
    chunk = ChunkRows(exp)
    chunk.add(batch(table, matches))
    data, stats = chunk.finish()
    results = ResultsFolder(folder)
    results.open(exp, resume=False)
    results.store(exp, 0, data, stats)
    rounds = folder / "rounds"
    rounds.mkdir()
    for game_no, match in enumerate(matches):
        for r in table.finished_rounds(match):
            record = {**r.record(), "bots": list(names)}
            (rounds / f"game-{game_no:03d}-round-{r.sub:02d}.json").write_text(json.dumps(record))
    session = {"game": table.game.name, "rules": dataclasses.asdict(table.rules), "seed": table.setup.seed,
               "names": list(names), "humans": list(table.humans), "saved": time.strftime("%Y-%m-%dT%H:%M:%S"),
               "games": [{"game_no": k, "rounds": len(table.finished_rounds(m)), "finished": m.done}
                         for k, m in enumerate(matches)]}  # fmt: skip
    (folder / "play.json").write_text(json.dumps(session, indent=1))
    (folder / "review.json").write_text(json.dumps(review or [], indent=1))
    return folder


def reviews(folder: str | os.PathLike) -> pd.DataFrame:
    """A saved session's review (``review.json``): one row per reviewed decision of its people, where it was
    (``game_no``, ``round_no``, ``seat``), what (``decision``), the ``action`` and its ``choice`` label, the best one
    (``best_action``, ``best``) and the expected ``cost`` of the difference."""
    data = json.loads((Path(folder) / "review.json").read_text())
    columns = ["game_no", "round_no", "seat", "decision", "action", "choice", "best_action", "best", "cost"]
    return pd.DataFrame([{key: v[key] for key in columns} for v in data], columns=columns)
