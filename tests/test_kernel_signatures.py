"""Each kernel compiles once for the argument types its callers give it (issue 14). numba compiles a kernel, and
links and optimises again everything it calls, once per signature: a caller that passes a literal (``0``,
``True``, ``-1``) or a read-only global array where the others pass an int64, a bool or a writable array compiles
the kernel and its callees a second time for the same code. Call-partner's ``run`` was compiled five times with a
strong bot (the literals ``True``/``False``, an omitted ``passer``, the read-only global bot table)."""

from __future__ import annotations

import sys

import pytest
from numba.core import types
from numba.core.registry import CPUDispatcher

from cardsim import get_game, replay, simulate
from cardsim.games import GAMES
from cardsim.jit import precompile


def kernels() -> dict[str, CPUDispatcher]:
    """Every kernel of cardsim and the built-in bots in this process, by qualified name."""
    found = {}
    for name, module in list(sys.modules.items()):
        if name.startswith(("cardsim", "bots")) and module is not None:
            for attr, value in vars(module).items():
                if isinstance(value, CPUDispatcher) and value.__module__ == name:
                    found[f"{name}.{attr}"] = value
    return found


def plain(t: types.Type) -> types.Type:
    """The type a literal number or bool or a read-only array stands for: what its kernel compiles for when called
    with a typed value or a writable array (literal strings are kept: exception messages need them)."""
    if isinstance(t, (types.IntegerLiteral, types.BooleanLiteral)):
        return types.unliteral(t)
    return t.copy(readonly=False) if isinstance(t, types.Array) and not t.mutable else t


def same_code_compiled_twice() -> dict[str, list[str]]:
    """Kernels with two signatures that differ only in literal numbers or bools or read-only arrays."""
    twice = {}
    for name, kernel in kernels().items():
        seen: dict[tuple, str] = {}
        for signature in kernel.signatures:
            key = tuple(plain(t) for t in signature)
            if key in seen:
                twice[name] = [seen[key], str(signature)]
            seen[key] = str(signature)
    return twice


@pytest.mark.parametrize("game", list(GAMES))
def test_no_kernel_compiles_twice_for_the_same_argument_types(game):
    rules = get_game(game)
    lineup = [precompile.strong_bot(rules)] + ["random", "heuristic"] + ["random"] * (rules.seats() - 3)
    simulate(game, lineup, rounds=2)
    simulate(game, "heuristic", rounds=2, check=True)
    replay(game, seed=0, round=0, bots=lineup)
    twice = same_code_compiled_twice()
    assert not twice, "\n".join(f"{name}:\n  {a}\n  {b}" for name, (a, b) in twice.items())


def test_callpartner_random_and_other_lineups_each_compile_their_own_trick_loop():
    """A lineup of random bots only plays through ``random_block`` and every other lineup of built-in bots through
    ``builtin_block``: numba resolves ``run_inline``'s ``random_lineup`` constant as it compiles each loop, so the
    random one holds ``random_tricks`` and not the general ``play_tricks``, and the other the other way round
    (each under the 15 s cold-compile budget). Checked in the LLVM IR of a fresh, uncached compile of each loop."""
    from numba import njit

    from cardsim.games.callpartner import play

    simulate("callpartner", "random", rounds=2)
    simulate("callpartner", "heuristic,random,random,random", rounds=2)
    loops = [(play.random_block, "random_tricks", "play_tricks"), (play.builtin_block, "play_tricks", "random_tricks")]
    for block, own, other in loops:
        fresh = njit(_nrt=False)(block.py_func)  # a kernel loaded from the cache keeps no IR
        fresh.compile(block.signatures[0])  # (others may have come with --check)
        llvm = "".join(fresh.inspect_llvm().values())
        assert own in llvm and other not in llvm, block.__name__


def test_callpartner_strong_entry_calls_the_searches_through_their_addresses():
    """The strong bots' entry ``act`` calls the searches, and they the play-outs and the deal sampler, through their
    addresses (``bots.callpartner_strong.Tools``): each is compiled once, not linked into ``act`` and optimised
    there again (about 2.5 s of a cold compile). Checked in the LLVM IR of a fresh, uncached compile of ``act``,
    which still holds the functions it calls directly (``observe``, ``true_piles``)."""
    from numba import njit

    import bots.callpartner_strong as strong

    simulate("callpartner", ["mc:samples=2:bid_samples=2:contract_samples=2"] + ["random"] * 3, rounds=2)
    fresh = njit(strong.act.py_func)  # a kernel loaded from the cache keeps no IR
    fresh.compile(strong.act.signatures[0])
    linked = "define linkonce_odr"  # the functions linked in (act's own names hold its tools' types)
    defined = [line for ir in fresh.inspect_llvm().values() for line in ir.splitlines() if line.startswith(linked)]
    assert any("observe" in line for line in defined) and any("true_piles" in line for line in defined)
    for tool in ("count_and_sample", "play_to_end", "mc_bid", "mc_call", "mc_discard", "mc_play", "ismcts_play"):
        assert not any(tool in line for line in defined), tool


def test_deal_sampler_counts_and_draws_in_one_function_without_numba_s_sort():
    """The strong bots' deal sampler ``count_and_sample`` inlines ``plan``, ``_programme`` and ``_draw``: compiled
    on their own, numba linked each into the next and LLVM optimised and emitted their code again at every level.
    The counting table is sorted by ``_sort_codes``, not ``ndarray.sort``, whose quicksort numba compiles afresh into
    every caller (1.8 s). Together about 3 s of every strong lineup's cold compile. Checked in the LLVM IR of a
    fresh, uncached compile of the sampler."""
    from numba import njit

    from cardsim import infoset

    fresh = njit(infoset.count_and_sample.py_func)  # a kernel loaded from the cache keeps no IR
    fresh.compile(infoset.SAMPLER.args)
    defined = [line for ir in fresh.inspect_llvm().values() for line in ir.splitlines() if line.startswith("define")]
    assert any("infoset11_sort_codes" in line for line in defined)
    for inlined in ("infoset4plan", "infoset10_programme", "infoset5_draw", "quicksort"):
        assert not any(inlined in line for line in defined), inlined
