"""cardsim.jit.compiler_flags: numba's compiler flags keep their values, hash and equality, only cheaper to compute."""

from __future__ import annotations

import itertools

import pytest
from numba.core.compiler import Flags
from numba.core.targetconfig import TargetConfig

import cardsim  # noqa: F401  (installs the patch, as every use of cardsim does)
from cardsim.jit import compiler_flags


def test_importing_cardsim_installs_it():
    assert compiler_flags.installed()


def _flags() -> list[Flags]:
    """Flags as numba makes them: the defaults, options set to other values, set to their defaults, a copy."""
    made = [Flags()]
    for options in ({"nrt": True}, {"boundscheck": True, "nrt": True}, {"nrt": True, "boundscheck": True},
                    {"error_model": "numpy"}, {"inline": "always"}, {"nrt": False}, {"enable_ssa": False}):
        flags = Flags()
        for name, value in options.items():
            setattr(flags, name, value)
        made.append(flags)
    made.append(Flags(made[2]))
    return made


@pytest.fixture
def numba_flags():
    """(numba's values, hash) of each of ``_flags()``, computed with numba's own methods."""
    compiler_flags.uninstall()
    try:
        return [(flags.values(), hash(flags)) for flags in _flags()]
    finally:
        compiler_flags.install()


def test_values_hash_and_equality_are_numbas(numba_flags):
    ours = _flags()
    for flags, (values, hashed) in zip(ours, numba_flags, strict=True):
        assert flags.values() == values
        assert list(flags.values()) == list(values)  # in the options' order, as numba's
        assert hash(flags) == hashed
    for (a, (va, _)), (b, (vb, _)) in itertools.product(zip(ours, numba_flags, strict=True), repeat=2):
        assert (a == b) == (va == vb)  # equal exactly when numba's values are equal
    assert ours[2] == ours[3] == ours[-1] and ours[0] != ours[1]
    assert ours[0] == ours[6]  # nrt set to its default: equal to the defaults, as numba's


def test_a_changed_option_is_seen_at_once():
    flags = Flags()
    before = Flags(flags)
    flags.boundscheck = True
    assert flags.values()["boundscheck"] is True and flags != before
    del flags.boundscheck
    assert flags == before


def test_uninstall_restores_numbas_methods():
    compiler_flags.uninstall()
    try:
        assert not compiler_flags.installed()
        assert TargetConfig.values is not compiler_flags._values
    finally:
        compiler_flags.install()
    assert compiler_flags.installed()
