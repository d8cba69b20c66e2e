"""Cheaper compiler flags for numba's typing caches: the same values, hash and equality, without a property call per
option.

numba keys the implementations it has typed (``templates._OverloadMethodTemplate._get_impl`` and others) by the
compiler flags in effect, and a flags object (``targetconfig.TargetConfig``) makes a dict of its 35 options through
their properties for every hash and comparison: 4.5 million property calls in one cold compile of call-partner's
strong lineup, about 3 of its 60 s (docs/performance.md, compile time). ``install()`` gives ``TargetConfig`` a
``values()`` that merges the options set on the object over the defaults of its class (made once per class), and a
``__hash__`` of the option names made once per class: numba's own hash is ``hash(tuple(sorted(self.values())))``,
which sorts the dict's keys only. Equal flags stay equal and unequal ones unequal, so every cache finds what it
found before and the compiled code is the same (``tests/test_compiler_flags.py``).
"""

from __future__ import annotations

from typing import Any

from numba.core.targetconfig import TargetConfig

_numba = {name: TargetConfig.__dict__[name] for name in ("values", "__hash__")}
_defaults: dict[type, dict[str, Any]] = {}  # a TargetConfig class -> its options' defaults
_hashes: dict[type, int] = {}  # a TargetConfig class -> numba's hash of its flags (its sorted option names)


def _values(self: TargetConfig) -> dict[str, Any]:
    """All option values: those set on this object over the class's defaults (numba: one property call each)."""
    cls = type(self)
    defaults = _defaults.get(cls)
    if defaults is None:
        defaults = _defaults[cls] = {name: option.default for name, option in cls.options.items()}
    return {**defaults, **self._values}


def _hash(self: TargetConfig) -> int:
    """numba's hash, ``hash(tuple(sorted(self.values())))``: of the sorted option names, the same for every object of
    a class."""
    cls = type(self)
    value = _hashes.get(cls)
    if value is None:
        value = _hashes[cls] = hash(tuple(sorted(cls.options)))
    return value


def install() -> None:
    """Patch ``TargetConfig`` (idempotent)."""
    TargetConfig.values = _values
    TargetConfig.__hash__ = _hash


def uninstall() -> None:
    """numba's own methods again (for the test that compares the two)."""
    for name, method in _numba.items():
        setattr(TargetConfig, name, method)


def installed() -> bool:
    """Whether ``install`` is in effect."""
    return TargetConfig.__dict__["values"] is _values and TargetConfig.__dict__["__hash__"] is _hash
