"""Array copies for the compiled kernels that compile cheaply.

``dst[:] = src`` between arrays makes numba compile the message of a shape mismatch with it: about 2 s of string
formatting per array rank, linked into every function that copies and optimised again at each level of calls
(issue 14). The state machines and the strong bots copy their small fixed-shape arrays with these loops instead,
which compile to the same copy; they index the arrays as they are (a reshaped view would cost a reference count
per copy in the searches' inner loops).
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, inline="always")
def copy_items(dst: np.ndarray, src: np.ndarray, n: int) -> None:
    """``dst[:n] = src[:n]`` for 1-D arrays (``n`` at most either's length)."""
    for i in range(n):
        dst[i] = src[i]


@njit(cache=True, inline="always")
def copy_rows(dst: np.ndarray, src: np.ndarray, n: int) -> None:
    """``dst[:n] = src[:n]`` for 2-D arrays of the same width (``n`` at most either's rows)."""
    for i in range(n):
        for j in range(src.shape[1]):
            dst[i, j] = src[i, j]
