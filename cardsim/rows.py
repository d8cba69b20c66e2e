"""The row schema: a batch's rounds as tidy rows (one per round and seat), as an Arrow table and as Parquet.

One implementation for every public output: ``simulate(keep_rows=True)`` (the table as a DataFrame),
``simulate --out`` (one Parquet file) and the runner's ``rows/chunk-*.parquet`` (which ``load_rows``, pandas,
pyarrow, duckdb and polars all read as the same rows). The columns, in order: ``game``, ``rules``, ``seed``,
[``game_no``], ``round``, [``rotation``], ``seat``, ``bot``, [``cheating``: only when a seat holds a cheating bot,
true on its rows], the game's per-round and per-seat values, [``game_total``, ``game_win``]
(``docs/experiments.md`` lists them per game).

- Names (game, rules, bot, card and suit names) are Arrow dictionaries: pandas categories, written to Parquet as
  dictionary pages without hashing a value.
- Counts and seats are int16 or wider, so a user's arithmetic such as ``20 + 10 * tricks`` never wraps.
- Columns that are never empty are declared non-nullable: Parquet then writes no definition levels, which
  more than halves the cost of writing four rows per round (measured: 0.24 s against 0.09 s per million rows).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from cardsim.games import Game
from cardsim.lineup import is_cheating
from cardsim.results import Batch, cycled

PARQUET_OPTIONS = {  # lz4 over byte-stream-split numbers: small and cheap to write (a quarter of zstd's time)
    "compression": "lz4",
    "write_statistics": False,
    "write_batch_size": 1 << 16,  # values handed to each column's encoder at a time (default 1024: 10-15% slower)
}


def table(batch: Batch, game: Game, rules: str, seed: int | str, seat_bots: Sequence[str], *,
          names: Sequence[str] | None = None, rotation: int | None = None) -> pa.Table:  # fmt: skip
    """The batch's rows, played by ``game`` under the ``rules`` text with ``seed`` (a str: a sealed match's
    commitment to it, in the column ``seed_sha256``): ``seat_bots[s]`` is the bot in
    seat ``s``, labelled from ``names`` (default: the distinct ``seat_bots``; give them to keep the labels equal
    across rotations); ``rotation`` adds that column after ``round``."""
    rows = batch.rows()
    n = len(rows["seat"])
    names = list(names or dict.fromkeys(seat_bots))
    columns: dict[str, pa.Array] = {
        "game": _labels(_cycled(n, (0,), "int8"), [game.name]),
        "rules": _labels(_cycled(n, (0,), "int8"), [rules]),
    }
    if isinstance(seed, str):  # a sealed match's commitment to its seed, until it ends (``cardsim.sealed``)
        columns["seed_sha256"] = _labels(_cycled(n, (0,), "int8"), [seed])
    else:
        columns["seed"] = _cycled(n, (seed,), "uint64")
    for name, values in rows.items():
        if name == "seat":  # rows cycle through the seats
            if rotation is not None:
                columns["rotation"] = _cycled(n, (rotation,), "int16")
            columns["seat"] = _cycled(n, tuple(range(len(seat_bots))), "int16")
            columns["bot"] = _labels(_cycled(n, tuple(names.index(b) for b in seat_bots), "int8"), names)
            cheating = tuple(is_cheating(b) for b in seat_bots)
            if any(cheating):  # marked only where a bot cheats: honest runs keep their columns (and digests)
                columns["cheating"] = _cycled(n, cheating, "bool")
        elif name in game.may_be_empty:
            empty = values < 0
            codes = pa.array(values, mask=empty) if empty.any() else pa.array(values)  # no null bitmap if none
            columns[name] = pa.DictionaryArray.from_arrays(codes, game.categories[name])
        elif name in game.categories:
            columns[name] = _labels(values, game.categories[name])
        else:
            columns[name] = pa.array(values.astype(np.int16) if values.dtype == np.int8 else values)
    fields = [pa.field(name, array.type, nullable=name in game.may_be_empty) for name, array in columns.items()]
    return pa.Table.from_arrays(list(columns.values()), schema=pa.schema(fields))


def _cycled(n: int, values: tuple, dtype: str) -> pa.Array:
    """``results.cycled`` as an Arrow array (no copy): made once for all the batches of a size."""
    return pa.array(cycled(n, values, dtype))


def _labels(codes: np.ndarray | pa.Array, labels: list[str]) -> pa.DictionaryArray:
    """Names by their codes ``0 .. len(labels) - 1`` (trusted: the kernels' own codes, not checked again)."""
    return pa.DictionaryArray.from_arrays(codes, labels, safe=False)


def write_options(schema: pa.Schema) -> dict[str, Any]:
    """Parquet writer options for the tables of ``table``: dictionary pages for the names, byte-stream split for
    the numbers that vary (not the seed: lz4 alone packs a constant), lz4 for all."""
    names = [f.name for f in schema if pa.types.is_dictionary(f.type)]
    numbers = [f.name for f in schema if (pa.types.is_integer(f.type) or pa.types.is_floating(f.type))
               and f.name != "seed"]  # fmt: skip
    return {**PARQUET_OPTIONS, "use_dictionary": names, "use_byte_stream_split": numbers}


class _Appender:
    """Tables (one schema) appended as the row groups of one Parquet file written to ``sink``."""

    def __init__(self, sink: Any) -> None:
        self.sink = sink
        self.writer: pq.ParquetWriter | None = None

    def write(self, rows: pa.Table) -> None:
        if self.writer is None:
            self.writer = pq.ParquetWriter(self.sink, rows.schema, **write_options(rows.schema))
        self.writer.write_table(rows)


class Encoder(_Appender):
    """A Parquet file in memory; ``finish`` gives its bytes (a view of Arrow's buffer: a chunk's 10-70 MB are
    not copied again)."""

    def __init__(self) -> None:
        super().__init__(pa.BufferOutputStream())

    def finish(self) -> memoryview:
        assert self.writer is not None, "no rows written"
        self.writer.close()
        return memoryview(self.sink.getvalue())


class Writer(_Appender):
    """The Parquet file ``path``, written through the temporary file ``tmp`` (default ``path.partial``): the file
    appears only when complete (``finish``); ``abort`` removes the temporary file. The runner writes its chunks
    so too: an ``Encoder``'s buffer, grown to a chunk's 17 MB, faulted in fresh pages for every chunk (system time
    0.24-0.88 s per 10M rounds, 0.20-0.35 s straight to the file)."""

    def __init__(self, path: str | os.PathLike, tmp: str | os.PathLike | None = None) -> None:
        self.path = Path(path)
        self.tmp = Path(tmp) if tmp is not None else self.path.with_name(self.path.name + ".partial")
        super().__init__(str(self.tmp))

    def finish(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None
            os.replace(self.tmp, self.path)

    def abort(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None
        self.tmp.unlink(missing_ok=True)
