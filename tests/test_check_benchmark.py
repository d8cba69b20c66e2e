"""``benchmarks/check_overhead.py --always-on`` compiles kernels without the always-on card check: only ever into a
numba cache of its own, so no run can load an unchecked kernel."""

from __future__ import annotations

import pytest
from conftest import load_script

import cardsim.errors


@pytest.mark.parametrize("numba_cache", [None, "/some/shared/cache"])
def test_unchecked_kernels_compile_only_into_a_private_cache(monkeypatch, numba_cache):
    """Refused with numba's default cache (no NUMBA_CACHE_DIR, as in CI) and with a cache that is not private."""
    bench = load_script("benchmarks/check_overhead.py")
    monkeypatch.delenv(bench.PRIVATE_CACHE, raising=False)
    monkeypatch.setattr(cardsim.errors, "REFUSE_ILLEGAL_CARDS", True)  # restored even if the refusal fails
    if numba_cache is None:
        monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    else:
        monkeypatch.setenv("NUMBA_CACHE_DIR", numba_cache)
    with pytest.raises(SystemExit, match="private numba cache"):
        bench.refusal_rates(["differenzler"], 10, 1, refuse=False)
    assert cardsim.errors.REFUSE_ILLEGAL_CARDS  # untouched: this process's kernels keep the check
