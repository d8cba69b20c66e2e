"""Bots written as numba functions, played inside the compiled kernels at built-in speed (docs/bots.md, "A fast
bot in numba").

A numba bot is an ``@njit`` function ``act(view, p, seat, rng) -> int`` over the game's state module
(``cardsim/games/<game>/state.py``): ``view`` is ``state.observe(s, p, seat)``, the round as the seat to move may
see it (its own hand, what was played and shown, the bids it may see; everything else blank), ``p`` the rules'
``Params``, ``seat`` the seat to move and ``rng`` that seat's private random stream (``state.bot_stream``; draw
with ``cardsim.rng.below(rng, 0, n)``). It returns the code of an action of the decision ``state.decision(view)``:
one of ``state.legal_actions(view, p, out)``; any other is refused like every bot's (RULES.md D2).

The kernels take a lineup's numba bots as first-class functions of that one signature (numba's ``FunctionType``),
so a kernel compiles once per game and number of numba bots and is cached, whatever functions it is later given;
a call through the function pointer costs a few nanoseconds. numba cannot pass an exception out of such a call:
it prints it and returns 0. ``raised`` therefore catches what a numba bot raised during a batch, and the batch is
refused with it (``BotFailure``: the driver then replays the round and names the bot and the decision).

The built-in strong bots reach the kernels the same way: each game's strong bots' entry (``bots/<game>_strong.py``
``act``) is a first-class function too (``Game.strong_function``), so no kernel links the strong bots' code into
its own, and their exceptions are caught by ``raised`` as well. The entry in turn takes the deal sampler of
``cardsim.infoset`` (and in call-partner the play-outs) as first-class functions (``strong_bots``), so the
bots do not link their code either.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import Any

import numba
import numpy as np
from numba import njit
from numba.core import types
from numba.core.dispatcher import Dispatcher
from numba.core.errors import NumbaExperimentalFeatureWarning
from numba.core.types.function_type import CompileResultWAP

from cardsim.errors import BotFailure, CardsimError
from cardsim.infoset import SAMPLER, count_and_sample

warnings.filterwarnings("ignore", "First-class function type", NumbaExperimentalFeatureWarning)  # used as documented

USER_BOT = 99  # a numba bot's id in a lineup's bot table (row: [USER_BOT, its index among the lineup's numba bots])


@dataclass(frozen=True)
class NumbaBot:
    """A seat's numba bot: its ``name`` in the lineup and its ``function`` (an ``@njit`` dispatcher)."""

    name: str
    function: Any


def is_numba_function(value: Any) -> bool:
    """True for a numba-compiled function (``@njit``), the form of a numba bot."""
    return isinstance(value, Dispatcher)


def signature(view: Any, p: Any) -> Any:
    """The signature every numba bot of a game is compiled for: ``int64(State, Params, int64, uint64[:, ::1])``,
    typed from a ``view`` (a State) and the rules' ``p``."""
    return types.int64(numba.typeof(view), numba.typeof(p), types.int64, types.Array(types.uint64, 2, "C"))


def strong_bots(act: CompileResultWAP, tools: tuple) -> tuple:
    """What the kernels take as ``strong_bots`` (``Game.strong_function``): ``(act, *tools)``, the strong bots'
    entry ``act`` and the ``tools`` it takes as its last arguments (``Game.strong_tools``: the deal sampler the
    bots draw their information sets with, ``sampler()``, in call-partner also its play-outs), all first-class
    functions. Passing them instead of calling them directly keeps their code, the sampler's the largest the
    strong bots use, out of the strong bots' own (issue 14: compiled once, not linked and optimised again at every
    level of the bots' calls). One flat tuple: numba's parallel kernels take no tuple of functions inside a tuple,
    nor its first-class functions a tuple of functions."""
    return (act, *tools)


@njit(cache=True, inline="always")
def ask_strong(strong: tuple, row: np.ndarray, s: Any, p: Any, seat: int) -> int:
    """The action of the strong bot of table row ``row`` at ``seat``, through the entry of ``strong``
    (``strong_bots``)."""
    return strong[0](row, s, p, seat, *strong[1:])


def strong_signature(state: Any, p: Any, tools: tuple) -> Any:
    """The signature of a game's strong bots' entry ``act(row, s, p, seat, *tools) -> int``
    (``bots/<game>_strong.py``): ``int64(float64[::1], State, Params, int64, *tools)``, typed from a ``state``, the
    rules' ``p`` and the ``tools`` (``strong_bots``)."""
    return types.int64(types.Array(types.float64, 1, "C"), numba.typeof(state), numba.typeof(p), types.int64,
                       *(numba.typeof(tool) for tool in tools))  # fmt: skip


@cache
def sampler() -> CompileResultWAP:
    """``cardsim.infoset.count_and_sample`` as a first-class function (made once per process): the strong bots'
    sampler."""
    return first_class(count_and_sample, SAMPLER)


def first_class(function: Any, sig: Any) -> CompileResultWAP:
    """``function`` (an ``@njit`` dispatcher) compiled, or loaded from its cache, for ``sig``, as a first-class
    function a kernel takes as an argument and calls through its address. A kernel that calls a function directly
    links the function's code into its own and has LLVM optimise all of it again; through the address it compiles
    only the call (docs/performance.md, "Compile time")."""
    function.compile(sig)
    return CompileResultWAP(function.overloads[sig.args])


def returned(function: Any, args: tuple) -> Any:
    """The numba type ``function`` (an ``@njit`` dispatcher) returns for arguments of the types ``args``: a part of
    the signature of a first-class function that takes what ``function`` returns (compiled, or loaded from its
    cache, for ``args``)."""
    function.compile(args)
    return function.overloads[args].signature.return_type


def entry(function: Any, *args: Any) -> CompileResultWAP:
    """``function`` compiled, or loaded from its cache, for the types of ``args``, as a first-class function: the
    work item a batch kernel's parallel loop calls through its address (``play_block``). Called directly, its
    whole code was linked into the kernel and optimised by LLVM once more: 2-5 s of every cold batch compile."""
    return first_class(function, types.void(*(numba.typeof(arg) for arg in args)))


def compile_bots(bots: tuple[NumbaBot, ...], game: str, sig: Any) -> tuple:
    """The kernels' first-class functions of ``bots`` (compiled, or loaded from the bot's own cache, for ``sig``);
    a function that does not compile for it is refused with numba's reason."""
    compiled = []
    for bot in bots:
        try:
            compiled.append(first_class(bot.function, sig))
        except Exception as exc:  # numba's typing and lowering errors: the user's code
            reason = " ".join(str(exc).split())[:400]
            raise CardsimError(f"numba bot '{bot.name}' does not compile as act(view, p, seat, rng) -> int for {game} "
                               f"(docs/bots.md, \"A fast bot in numba\"): {reason}") from None  # fmt: skip
    return tuple(compiled)


@contextmanager
def raised(active: bool) -> Iterator[None]:
    """Run a kernel; if a function it calls through its address raised (numba prints that and goes on: a work
    item, a numba or strong bot), raise ``BotFailure`` once the kernel is done (``active``: the kernel calls any).
    Other unraisable errors go to the hook that was there."""
    if not active:
        yield
        return
    caught: list[BaseException] = []
    previous = sys.unraisablehook

    def hook(unraisable: Any) -> None:
        if str(unraisable.object).startswith("<numba.") and unraisable.exc_value is not None:
            caught.append(unraisable.exc_value)
        else:
            previous(unraisable)

    sys.unraisablehook = hook
    try:
        yield
    finally:
        sys.unraisablehook = previous
    if caught:
        error = caught[0]
        if isinstance(error, BotFailure):  # a work item's own (an illegal action, a broken invariant)
            raise error
        raise BotFailure(f"a numba or strong bot raised {type(error).__name__}: {error}")
