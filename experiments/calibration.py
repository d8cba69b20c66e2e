"""The command line the calibration scripts share: compute a bot's table and write it, or ``--check`` it.

``calibrate_wizard_bids.py`` and ``calibrate_differenzler_predictions.py`` each simulate rounds to measure a
table that a heuristic bot loads (``bots/*.npy``); the same arguments always give the same table, bit for bit.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

import numpy as np


def table_command(argv: list[str] | None, description: str, calibrate: Callable[[int, int, int], np.ndarray],
                  out: Path, rounds: int, rounds_help: str) -> int:  # fmt: skip
    """Parse ``argv`` (``--rounds``, ``--passes``, ``--seed``, ``--out``, ``--check``), run ``calibrate(rounds,
    passes, seed)`` and write its table to ``--out`` (default ``out``), or compare it with the stored one
    (``--check``: exit status 1 if they differ)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--rounds", type=int, default=rounds, help=rounds_help)
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, default=out)
    parser.add_argument("--check", action="store_true", help="compare with --out instead of writing it")
    args = parser.parse_args(argv)
    table = calibrate(args.rounds, args.passes, args.seed)
    if args.check:
        same = np.array_equal(np.load(args.out), table)
        print(f"{args.out}: {'the same table' if same else 'DIFFERS from the recomputed table'}")
        return 0 if same else 1
    np.save(args.out, table)
    print(f"wrote {args.out}")
    return 0
