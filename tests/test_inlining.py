"""cardsim.jit.inlining: numba's inliner makes each callee's untyped IR once, and inlines the same code."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit
from numba.core import inline_closurecall

import cardsim  # noqa: F401  (installs the patch, as every use of cardsim does)
from cardsim.jit import inlining, kernel_cache


def test_importing_cardsim_installs_it():
    assert inlining.installed()


@njit(inline="always")
def _double(x):
    y = x * 2
    return y


@njit(inline="always")
def _two_doubles(x):
    return _double(x) + _double(x + 1)


def _kernels():
    """Fresh dispatchers (each compiles anew): the one callee inlined with an int and with a float, and a tree of
    nested inline calls (``_two_doubles`` twice, each inlining ``_double`` twice)."""

    def mixed(a, b):
        return _double(a), _double(b)

    def tree(a):
        return _two_doubles(a) + _two_doubles(a + 3)

    return njit(mixed), njit(tree)


@pytest.fixture
def numba_inliner():
    inlining.uninstall()
    yield
    inlining.install()


def _count_untyped_runs(monkeypatch) -> list:
    runs = []
    numba_run = inline_closurecall.InlineWorker.run_untyped_passes

    def counted(self, func, enable_ssa=False):
        runs.append(func.__name__)
        return numba_run(self, func, enable_ssa)

    monkeypatch.setattr(inline_closurecall.InlineWorker, "run_untyped_passes", counted)
    return runs


def test_each_inlined_callee_is_made_once(monkeypatch):
    runs = _count_untyped_runs(monkeypatch)
    mixed, tree = _kernels()
    assert tree(1) == 2 * 1 + 2 * 2 + 2 * 4 + 2 * 5
    assert sorted(runs) == ["_double", "_two_doubles"]


def test_numba_makes_a_callee_again_for_every_path_to_it(monkeypatch, numba_inliner):
    """What the patch saves: numba's own inliner compiles ``_double`` once per inlined copy of ``_two_doubles``."""
    runs = _count_untyped_runs(monkeypatch)
    mixed, tree = _kernels()
    assert tree(1) == 2 * 1 + 2 * 2 + 2 * 4 + 2 * 5
    assert sorted(runs) == ["_double"] * 4 + ["_two_doubles"] * 2


def test_copies_of_one_callee_keep_their_own_types():
    """Two copies of one callee's IR inlined into one function are apart: an int call stays int beside a float
    call."""
    mixed, tree = _kernels()
    a, b = mixed(3, 1.5)
    assert (a, b) == (6, 3.0)
    assert isinstance(a, int) and isinstance(b, float)
    signature = mixed.signatures[0]
    assert str(mixed.overloads[signature].signature.return_type) == "Tuple(int64, float64)"


def test_same_results_as_numba_inliner():
    """The patched and numba's own inliner compile kernels that give the same answers (the fixed runs of every
    game are checked by tests/test_digests.py)."""
    values = np.arange(-5, 6)
    mixed, tree = _kernels()
    patched = [(mixed(int(v), float(v) / 3), tree(int(v))) for v in values]
    inlining.uninstall()
    try:
        mixed, tree = _kernels()
        numbas = [(mixed(int(v), float(v) / 3), tree(int(v))) for v in values]
    finally:
        inlining.install()
    assert patched == numbas


def test_it_is_not_part_of_the_kernel_cache_key():
    """The patch changes how numba compiles, not what: editing it recompiles nothing."""
    assert inlining.__file__ not in {str(path) for path in kernel_cache.kernel_sources()}
