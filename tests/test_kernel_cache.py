"""The kernel cache's key: the files compiled kernels can depend on, read from the import graph."""

from __future__ import annotations

from cardsim.jit import kernel_cache


def names(paths) -> set[str]:
    return {p.relative_to(kernel_cache.PACKAGE_ROOT.parent).as_posix() for p in paths}


def test_the_key_covers_every_kernel_and_what_it_imports_but_not_the_cli_runner_or_plots():
    """Before, the key hashed every source file, so editing the CLI recompiled every kernel (issue 14). A kernel
    reads the globals of its own module, which its imports bring: the bots read ``FIRST_STRONG`` from
    ``cardsim.lineup``, the state machines the card tables of ``cardsim.cards``."""
    key = names(kernel_sources := kernel_cache.kernel_sources())
    assert {"bots/differenzler.py", "bots/exact_tricks_strong.py", "cardsim/games/callpartner/state.py",
            "cardsim/rng.py", "cardsim/infoset.py", "cardsim/lineup.py", "cardsim/cards.py",
            "cardsim/decisions.py"} <= key  # fmt: skip
    assert not key & {"cardsim/cli.py", "cardsim/runner.py", "cardsim/plots.py", "cardsim/report.py",
                      "cardsim/engine.py", "cardsim/round.py"}  # fmt: skip
    assert all(path.exists() for path in kernel_sources)
