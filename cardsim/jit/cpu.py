"""What the kernels are compiled for on this CPU, decided once, before any kernel is defined: whether ``nth_card``
takes the n-th card of a mask with BMI2's ``pdep`` (one instruction) or with the portable loop (clear the n lowest
cards, then the lowest set bit). ``pdep`` is microcoded, slow, on AMD before Zen 3 and absent on ARM, so those take
the portable path; ``CARDSIM_PORTABLE=1`` forces it anywhere (to measure it, or to check that both paths deal the
same cards: they do, the digests of ``tests/test_digests.py``). The choice is part of the kernel cache's key
(``kernel_cache``): a kernel compiled with one path is never loaded for the other.
"""

from __future__ import annotations

import os
import sys

from llvmlite import binding as llvm

SWITCH = "CARDSIM_PORTABLE"
SLOW_PDEP = ("bdver4", "znver1", "znver2")  # AMD before Zen 3: pdep is microcoded


def portable_forced() -> bool:
    """Whether ``CARDSIM_PORTABLE`` forces the portable path: "1" yes, "0" or unset no; any other value stops the
    process with one line naming what is allowed (exit code 2; read at import, before any command can catch it)."""
    value = os.environ.get(SWITCH, "").strip()
    if value not in ("", "0", "1"):
        print(f"cardsim: {SWITCH}={value!r} is not allowed: 1 (the portable path, no pdep) or 0 / unset (this CPU's "
              "best)", file=sys.stderr)  # fmt: skip
        raise SystemExit(2)
    return value == "1"


def use_pdep() -> bool:
    """Whether the kernels take cards with ``pdep``: the CPU has fast BMI2 and the portable path is not forced."""
    fast = bool(llvm.get_host_cpu_features().get("bmi2")) and llvm.get_host_cpu_name() not in SLOW_PDEP
    return fast and not portable_forced()
