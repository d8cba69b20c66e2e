"""Cheaper ``inline="always"``: numba's inliner with each callee's untyped IR made once, and no deep copies thrown
away.

For every call of an ``inline="always"`` function, numba's ``InlineInlinables`` pass
(``InlineWorker.inline_function``) compiles the callee's untyped IR anew, which inlines the callee's own inline
calls anew, and so on down the tree: a function is compiled again for every path that leads to it. Then
``inline_ir`` deep-copies the fresh IR twice, block by block (each block copying the whole scope again), once to
mutate and once for an unmutated original that this pass throws away (numba issues #8989 and #9204; the same
fixes are proposed to numba-cuda, PR #689 and numba-cuda-mlir PR #197). cardsim's kernels are loops over the
state machine's inlined steps; without these, cold compiles are 17-41% shorter (docs/performance.md, compile time).

``install()`` replaces ``inline_function`` only: it compiles each callee's untyped IR once per set of compiler
flags, inlines a copy of it (one deep copy, the scope copied once, source locations shared), and lets
``inline_ir`` use that copy without copying it again. The other caller of ``inline_ir``, the typed inlining of
overloads, is untouched. The IR that is inlined is the same, so the compiled code is the same (the digests of
``tests/test_digests.py``; ``tests/test_inlining.py``). numba compiles under one global lock, so the module state
here is never shared by two compiles at once.
"""

from __future__ import annotations

import copy
from typing import Any

from numba.core import inline_closurecall, ir

_Worker = inline_closurecall.InlineWorker
_numba_inline_function = _Worker.inline_function
_untyped: dict = {}  # (function, flags, locals) -> its untyped IR, its inline calls inlined


class _Shared:
    """Stands in for the ``copy`` module inside ``inline_ir`` while it inlines an IR made for that call only."""

    @staticmethod
    def deepcopy(value: Any, memo: dict | None = None) -> Any:
        return value


def _same_location(self: ir.Loc, memo: dict) -> ir.Loc:
    return self  # a source location is never changed in place, and it may hold the file's lines


def _copy(func_ir: ir.FunctionIR) -> ir.FunctionIR:
    """A copy of ``func_ir`` to inline: blocks, statements, variables and the scope copied once (one memo),
    source locations shared, a new unique function name (the inlined variables are named after it)."""
    numba_loc_deepcopy = ir.Loc.__dict__.get("__deepcopy__")
    ir.Loc.__deepcopy__ = _same_location
    try:
        clone = func_ir.copy()
        clone.blocks = copy.deepcopy(func_ir.blocks, {})
        clone.func_id = func_ir.func_id.derive()  # a name of its own, as numba's own fresh IR has, so that two
        # inlined copies of one callee keep apart variables, not versions of one variable
    finally:
        if numba_loc_deepcopy is None:
            del ir.Loc.__deepcopy__
        else:
            ir.Loc.__deepcopy__ = numba_loc_deepcopy
    return clone


def _inline_function(self, caller_ir, block, i, function, arg_typs=None):
    """``InlineWorker.inline_function`` over a copy of the callee's untyped IR, made once per flags."""
    self.flags.enable_ssa = False  # as numba's run_untyped_passes sets it on the caller's flags, made or not
    key = (function, repr(self.flags), repr(sorted(self.locals.items())))
    if key not in _untyped:
        _untyped[key] = self.run_untyped_passes(function)
    inline_closurecall.copy = _Shared
    try:
        return self.inline_ir(caller_ir, block, i, _copy(_untyped[key]), function.__code__.co_freevars,
                              arg_typs=arg_typs)  # fmt: skip
    finally:
        inline_closurecall.copy = copy


def install() -> None:
    """Patch numba's inliner (idempotent)."""
    _Worker.inline_function = _inline_function


def uninstall() -> None:
    """numba's own inliner again (for the test that compares the two)."""
    _Worker.inline_function = _numba_inline_function
    _untyped.clear()


def installed() -> bool:
    """Whether ``install`` is in effect."""
    return _Worker.inline_function is _inline_function
