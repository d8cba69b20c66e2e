"""Call a kernel without numba's dispatcher once its argument types are known.

numba's dispatcher types every argument at every call, in Python for a NamedTuple: a few microseconds for a
``Round``'s state, ~65 microseconds for a batched environment's stacked States and buffers, as much as 2,000 of its
tables' steps take. A caller whose argument types never change asks ``entry`` once and calls the compiled entry
point from then on (the same wrapper the dispatcher calls: same results, same exceptions).
"""

from __future__ import annotations

from typing import Any


def entry(kernel: Any, *args: Any) -> tuple[Any, Any]:
    """``kernel(*args)`` (compiled or loaded for these argument types, as any call does) and the compiled entry
    point of those types: ``(result, entry_point)``."""
    result = kernel(*args)
    return result, kernel.overloads[tuple(kernel.typeof_pyval(a) for a in args)].entry_point
