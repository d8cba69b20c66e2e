"""The shared batch loop: any game, any lineup, chunk by chunk, on all cores.

``simulate`` validates everything first (game, rules, bots, sizes, threads),
then asks the game for rows chunk by chunk. Each chunk runs in parallel on
the local cores inside the game's compiled kernel (numba threads); Python
bots run on the plain-Python driver. Chunks stream into a running summary
and, with ``out``, into a Parquet file, so memory stays flat however many
rounds are played.
"""

from __future__ import annotations

import os
import sys
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np
import pandas as pd
import pyarrow as pa

import cardsim.rows as rows
from cardsim.analysis import Summary
from cardsim.errors import CardsimError
from cardsim.games import Game, get_game
from cardsim.jit.compiling import batch_notice, batch_what, estimate, notice
from cardsim.lineup import Bots
from cardsim.options import RuleSettings, rules_text
from cardsim.outputs import check_output_file
from cardsim.rng import check_index, check_seed, resolve_seed
from cardsim.round import replay_record
from cardsim.validation import checked

ROUNDS_PER_CHUNK = 1 << 18
ROWS_PER_CHUNK_WITH_OUT = 1 << 19  # rows held in memory before they go to the Parquet file
GAMES_PER_CHUNK = 1 << 16
GAMES_PER_CHUNK_WITH_ROWS = 1 << 12  # a game is up to 60 deals: keep the rows of a chunk small
MAX_UNITS = 1 << 40  # rounds or games of one run: 2**40 rounds are 13 core-days at a million rounds a second


@dataclass
class Result:
    """What a simulation returns: the per-seat summary and, if asked for, all rows."""

    game: str
    rules: str
    seed: int
    summary: pd.DataFrame
    rows: pd.DataFrame | None = None


def max_threads() -> int:
    return numba.config.NUMBA_NUM_THREADS


def check_threads(threads: int | None) -> int:
    """Threads for the compiled kernels: default all cores; 1..cores allowed."""
    if threads is None:
        return max_threads()
    if not isinstance(threads, (int, np.integer)) or not 1 <= threads <= max_threads():
        raise CardsimError(f"threads={threads!r} is not allowed: use 1 to {max_threads()} (this machine's cores)")
    return int(threads)


def check_positive(value: Any, what: str) -> int:
    """``value`` as an int when it is a positive integer, else an error naming ``what``."""
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < 1:
        raise CardsimError(f"the {what} must be a positive integer, not {value!r}")
    return int(value)


def check_size(rounds: int | None, games: int | None) -> int:
    """The number of units to play: exactly one of ``rounds`` and ``games``, a positive integer (``check_number``)."""
    if rounds is not None and games is not None:
        raise CardsimError(f"give either a number of rounds or a number of games, not both: rounds={rounds}, "
                           f"games={games}")  # fmt: skip
    if rounds is None and games is None:
        raise CardsimError("give either a number of rounds or a number of games")
    return check_number(rounds if games is None else games, "rounds" if games is None else "games")


def check_number(value: int, what: str) -> int:
    """A positive number of ``what`` (rounds, games, deals) to play, at most ``MAX_UNITS``: a larger one is a typo
    (or a study for a cluster and several seeds), refused before a run that would not end in a lifetime."""
    units = check_positive(value, f"number of {what}")
    if units > MAX_UNITS:
        raise CardsimError(f"{what}={units} is too many: at most 2**40 ({MAX_UNITS:,}), which already take some 13 "
                           "core-days at a million rounds a second; split a larger study into runs with other seeds")
    return units


@checked
def simulate(
    game: str | Game,
    bots: Bots,
    *,
    rounds: int | None = None,
    games: int | None = None,
    seed: int | None = 0,
    rules: RuleSettings = None,
    players: int | None = None,
    threads: int | None = None,
    out: str | os.PathLike | None = None,
    keep_rows: bool = False,
    progress: bool | None = None,
    force: bool = False,
    check: bool = False,
    allow_cheating: bool = False,
) -> Result:
    """Play ``rounds`` single rounds (or ``games`` whole games) and summarise them per seat.

    Round ``i`` (or game ``i``) of ``seed`` is the same whatever the threads or chunking; ``seed=None`` draws
    one from the OS (``Result.seed`` says which). ``out`` streams one row per (round, seat) to a Parquet file;
    ``keep_rows`` also returns them as a DataFrame (for small runs). An existing ``out`` file is refused before
    any work starts unless ``force``. ``check`` also checks every round's invariants after every step (cards
    conserved, points and tricks adding up; a Python bot's observation showing nothing hidden): the same numbers,
    a little slower. A cheating bot (``omniscient``) is refused unless ``allow_cheating``.
    """
    game = get_game(game) if isinstance(game, str) else game
    rule_set = game.make_rules(rules, players)
    lineup = game.lineup(bots, rule_set, allow_cheating)
    seed = resolve_seed(seed)
    threads = check_threads(threads)
    units = check_size(rounds, games)
    games_mode = games is not None
    game.check_units(rule_set, games_mode)
    out = None if out is None else check_output_file(out, force)
    rows_wanted = out is not None or keep_rows
    if games_mode:
        chunk = GAMES_PER_CHUNK_WITH_ROWS if rows_wanted else GAMES_PER_CHUNK
    else:
        chunk = ROWS_PER_CHUNK_WITH_OUT // len(lineup.names) if rows_wanted else ROUNDS_PER_CHUNK
    if not lineup.compiled:
        chunk = min(chunk, 1000)  # Python bots: small chunks so progress shows

    numba.set_num_threads(threads)
    prepare(game, rule_set, lineup, games_mode, check, rows_wanted)
    summary = Summary(lineup.names, game.score, games_mode)
    rules_used = rules_text(rule_set)
    writer = rows.Writer(out) if out else None
    kept = []
    bar = progress_bar(units, "games" if games_mode else "rounds", progress)
    announce = ExitStack()  # a Python bot's driver compiles the kernels it calls as it first calls them
    if not lineup.compiled:
        announce.enter_context(batch_notice(game.name, lineup, check))
    try:
        for start in range(0, units, chunk):
            count = min(chunk, units - start)
            batch = game.run(rule_set, lineup, seed, start, count, games_mode, check)
            summary.add(batch, game.rates(batch))
            if rows_wanted:
                table = rows.table(batch, game, rules_used, seed, lineup.names)
                if writer:
                    writer.write(table)
                if keep_rows:
                    kept.append(table)
            if bar:
                bar.update(count)
        if writer:
            writer.finish()
    finally:
        announce.close()
        if bar:
            bar.close()
        if writer:
            writer.abort()
    rows_frame = pa.concat_tables(kept).to_pandas() if keep_rows else None
    return Result(game.name, rules_used, seed, summary.table(), rows_frame)


def prepare(game: Game, rules: Any, lineup: Any, games: bool, check: bool = False, tidy: bool = False) -> None:
    """Compile, or load from the cache, the kernels a run of ``lineup`` calls, before it starts and its progress
    bar shows: the game's batch kernel on zero units, and what summarises a batch (``tidy``: and turns it into
    rows), saying so on stderr when they compile (``cardsim.jit.compiling``). A lineup with a Python bot has nothing
    to prepare: its driver compiles the kernels it calls as it first calls them."""
    if not lineup.compiled:
        return
    with batch_notice(game.name, lineup, check):
        batch = game.run(rules, lineup, 0, 0, 0, games, check)
        Summary(lineup.names, game.score, games).add(batch, game.rates(batch))
        if tidy:
            batch.rows()


def progress_bar(total: int, unit: str, show: bool | None):
    """A tqdm bar on a terminal (or when asked), else None."""
    if show is None:
        show = sys.stderr.isatty()
    if not show:
        return None
    from tqdm import tqdm

    return tqdm(total=total, unit=f" {unit}", unit_scale=True, smoothing=0.1, file=sys.stderr)


@checked
def replay(
    game: str | Game | None = None,
    *,
    seed: int | None = None,
    round: int | None = None,
    bots: Bots = "random",
    rules: RuleSettings = None,
    game_no: int | None = None,
    players: int | None = None,
    check: bool = False,
    allow_cheating: bool = False,
    record: dict | None = None,
) -> dict:
    """Everything that happened in one round: round ``round`` of single-round runs,
    or round ``round`` of game ``game_no`` of games runs, with the same seed, bots and rules (``check`` and
    ``allow_cheating``: as in ``simulate``). Or ``record``: a round's record (``Round.record()``, e.g. an agent's
    round in ``cardsim.envs``, loaded from JSON), played again from its deal and its actions (``replay_record``),
    with its ``moves`` one by one."""
    if record is not None:
        given = [name for name, value in (("game", game), ("seed", seed), ("round", round), ("rules", rules),
                 ("game_no", game_no), ("players", players)) if value is not None] + ["bots"] * (bots != "random")
        if given:
            raise CardsimError(f"replay(record=...) plays the record's own game, rules and actions: leave out "
                               f"{', '.join(given)}")  # fmt: skip
        return replay_record(record)
    if game is None or seed is None or round is None:
        raise CardsimError("replay needs game, seed and round (the run's), or record= (a round's record)")
    game = get_game(game) if isinstance(game, str) else game
    rule_set = game.make_rules(rules, players)
    lineup = game.lineup(bots, rule_set, allow_cheating)
    round = check_index(round, "round")
    game_no = None if game_no is None else check_index(game_no, "game")
    game.check_units(rule_set, game_no is not None)
    kind = "python" if not lineup.compiled else "strong replay" if lineup.strong_table is not None else "replay"
    with notice(batch_what(game.name, kind), estimate(game.name, kind)):
        return game.replay(rule_set, lineup, check_seed(seed), round, game_no, check)
