"""cardsim loads pip's TBB library (cardsim/jit/threading_layer.py), so numba's work-stealing pool is used."""

import numba
import pytest

from cardsim import simulate
from cardsim.jit import threading_layer


def test_numba_uses_tbb_when_its_library_is_installed():
    simulate("differenzler", "random", rounds=300, threads=2, progress=False)  # a parallel kernel has run
    if not threading_layer.load_tbb():
        pytest.skip("no TBB library in this environment (not x86-64): numba uses OpenMP or its workqueue")
    assert numba.threading_layer() == "tbb"
