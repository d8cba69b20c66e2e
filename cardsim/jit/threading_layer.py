"""numba's thread pool: Intel TBB where it is installed, for its dynamic scheduling.

numba's OpenMP pool hands each thread an equal share of a parallel loop up
front, so a thread that shares its core with other work (the runner's writer
thread, another process) holds the whole kernel back; TBB's pool lets idle
threads take over the rest. numba prefers TBB when it can load it, but pip
puts TBB's library in ``<prefix>/lib``, where the dynamic loader does not
look: loading it by path first lets numba find it. Without TBB numba uses
OpenMP or its own workqueue, with the same results (they never depend on
which thread plays a round).
"""

from __future__ import annotations

import ctypes
import sys
from pathlib import Path

TBB_LIBRARIES = ("libtbb.so.12", "libtbb.12.dylib")


def load_tbb() -> bool:
    """Load pip's TBB library so that numba's TBB layer finds it; True when loaded. Call before the first
    parallel kernel runs (numba chooses its layer then)."""
    for name in TBB_LIBRARIES:
        path = Path(sys.prefix) / "lib" / name
        if path.exists():
            try:
                ctypes.CDLL(str(path), mode=ctypes.RTLD_GLOBAL)
            except OSError:
                return False
            return True
    return False
