"""Say when cardsim's kernels compile: one line on stderr before the wait, a spinner while it lasts, and the time
it took, so that a run's rate can leave it out.

numba fires its ``numba:compile`` event only once a call has missed both the dispatcher's versions in memory and
its on-disk cache (``Dispatcher.compile``): a listener on it knows exactly when a call compiles, for the kernel
called and every kernel it calls, without guessing from cache files. A warm run (everything loaded from the cache)
fires no such event and prints nothing.

* ``notice(what, seconds)``: a context around the place where a run first calls its kernels (the engine's and the
  runner's ``prepare``, ``replay``, ``advise``, ``warmup``). At the first compile inside it, one line
  ``cardsim: compiling WHAT (first run only, about N s)...`` goes to stderr; on a terminal that line is a tqdm
  spinner counting the seconds, which ends as ``... done in 18.2 s``. Elsewhere (a pipe, a log, a notebook) the
  line is printed alone, without spinner. Contexts nest: the outermost one speaks.
* A kernel compiled outside any notice (``Round`` steps, a direct ``Game.batch``) prints one line per process,
  ``cardsim: compiling kernels on first use ...``, and a spinner on a terminal while it compiles.
* ``spent()``: seconds this process has spent compiling kernels and loading them from the cache (the time
  numba held its compiler lock, over all threads); the CLI leaves both out of the rates it prints.
* ``estimate(game, kind)``: the cold compile time measured per game and kind (each game's ``GameInfo.estimates``).
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from contextlib import contextmanager
from typing import Any, NamedTuple

from numba.core import event, types

from cardsim.games import GAMES, game_info

# The estimates, each game's ``GameInfo.estimates`` (its ``info.py``): cold compile seconds (empty cache, one process)
# per kind, from ``python benchmarks/compile_times.py`` (every game and kind) on the 2-core development machine on
# 2026-12-04 (load average about 1), once numba's flags were compared cheaply (``cardsim.jit.compiler_flags``) and
# call-partner's strong bots called their play-outs through their address; each figure rounded up by about 15% (the
# ``numba`` kind and the strong advice of Differenzler and call-partner, which the script does not measure, are
# older). The strong kinds were measured again the same day, once the deal sampler was compiled as one function
# (``cardsim.infoset.count_and_sample``). ``fast`` is the slower of a random and a heuristic lineup (the script's
# ``fast`` and ``heuristic``). After the ``strong`` kind (as ``cardsim warmup --strong`` runs it) ``strong timing``
# needs less, as the strong bots' entry is then compiled.
# Kinds: the batch kernels of a lineup of random and heuristic bots (``fast``), with a strong bot (``strong``) or a
# numba bot (``numba``: measured on a quiet machine, the whole first simulate),
# with ``--check`` (``check``, ``strong check``), with a Python bot (``python``: the driver's kernels), a replay
# (``replay``, ``strong replay``), the bid advice (``advice``, ``strong advice``: where the completions play strong
# bots) and ``Round``'s state machine (``round``).
SPIN = "|/-\\"
SPIN_S = 0.25  # spinner refresh


def estimate(game: str, kind: str) -> float | None:
    """The measured cold compile seconds of ``game``'s kernels of ``kind`` (its ``GameInfo.estimates``), None if
    unmeasured."""
    return game_info(game).estimates.get(kind)


def batch_kind(lineup: Any, check: bool) -> str:
    """The estimates' kind of a run of ``lineup`` (a ``cardsim.lineup.Lineup``): which kernels it compiles."""
    if not lineup.compiled:
        return "python"
    kind = "strong" if lineup.strong_table is not None else "numba" if lineup.numba_bots else ""
    if check:
        kind = f"{kind} check".strip()
    return kind or "fast"


def batch_what(game: str, kind: str) -> str:
    """How a notice names the kernels of ``kind``: ``the Wizard kernels with strong bots``."""
    name = game_info(game).title
    label = {
        "fast": "", "strong": " with strong bots", "check": " with --check", "strong check": " with strong bots and "
        "--check", "python": " for Python bots", "replay": " of a replay", "strong replay": " of a replay with strong "
        "bots", "advice": " of the bid advice", "strong advice": " of the bid advice with strong bots",
        "round": " of Round", "strong timing": " of the strong bots", "numba": " for numba bots",
        "numba check": " for numba bots with --check",
    }.get(kind, f" ({kind})")  # fmt: skip
    return f"the {name} kernels{label}"


def about(seconds: float | None) -> str:
    """``, about 40 s`` or ``, about 2 min`` (rounded up to the next 10 s or minute); nothing when unmeasured."""
    if seconds is None:
        return ""
    if seconds < 90:
        return f", about {max(10, -(-int(seconds) // 10) * 10)} s"
    return f", about {-(-int(seconds) // 60)} min"


class Spent(NamedTuple):
    """Seconds a process has spent compiling kernels, and loading compiled ones from the cache."""

    compile: float
    load: float

    def __sub__(self, other: Spent) -> Spent:  # type: ignore[override]
        return Spent(self.compile - other.compile, self.load - other.load)

    def note(self) -> str:
        """What a printed rate leaves out: `` (compile 18.2 s not counted)``, or the loading, or nothing."""
        if self.compile >= 0.05:
            return f" (compile {self.compile:.1f} s not counted)"
        if self.load >= 0.05:
            return f" (loading kernels {self.load:.1f} s not counted)"
        return ""


class Line:
    """A line of text on stderr (a tqdm bar without bar) whose end turns and counts ``seconds()`` while ``busy()``:
    the spinner of a compile that cannot say how far it is."""

    def __init__(self, text: str, seconds: Callable[[], float], busy: Callable[[], bool], leave: bool = True) -> None:
        from tqdm import tqdm

        self.text, self.seconds, self.busy = text, seconds, busy
        self.bar = tqdm(desc=text, bar_format="{desc}", file=sys.stderr, leave=leave)
        _SPINNER.watch(self)

    def spin(self, frame: int) -> None:
        turn = SPIN[frame % len(SPIN)] if self.busy() else " "
        self.bar.set_description_str(f"{self.text} {turn} {self.seconds():.0f} s")

    def close(self, tail: str = "", text: str | None = None) -> None:
        """Stop turning; the line ends as ``text`` (default: as it began) and ``tail``."""
        _SPINNER.unwatch(self)
        self.bar.set_description_str(f"{self.text if text is None else text}{tail}", refresh=False)
        self.bar.close()


class Notice:
    """One run's announcement: what it compiles, the estimate, whether it was said, the seconds compiled in it.
    ``show``: a spinner (default: on a terminal; else the line alone); ``quiet``: say nothing, only count (a
    caller that shows progress itself, as ``warmup`` does)."""

    def __init__(self, what: str, seconds: float | None, show: bool | None = None, line: str | None = None,
                 quiet: bool = False) -> None:  # fmt: skip
        self.what, self.estimate = what, seconds
        self.line = line or f"cardsim: compiling {what} (first run only{about(seconds)})..."
        self.show = _terminal() if show is None else show
        self.announced = quiet
        self.seconds = 0.0  # compiling, while this notice was the speaking one
        self.started = 0.0  # when the compile now running began (0: none)
        self.spinner: Line | None = None

    def begin(self, module: str = "") -> None:
        """A compile of a kernel of ``module`` starts in this notice: say so the first time (a spinner, or the line
        alone). When the first kernel to compile is no game's (a summary's, cardsim.results', ...), the game's
        kernels were in the cache: the helpers left take seconds, not the estimate."""
        self.started = time.perf_counter()
        if self.announced:
            return
        self.announced = True
        if self.estimate is not None and module and not module.startswith(("cardsim.games.", "bots.")):
            self.line = self.line.replace(about(self.estimate), ", a few seconds")
        if self.show:
            self.spinner = Line(self.line, self.elapsed, self.busy)
        else:
            print(self.line, file=sys.stderr, flush=True)

    def end(self) -> None:
        self.seconds += time.perf_counter() - self.started
        self.started = 0.0

    def busy(self) -> bool:
        return self.started > 0

    def elapsed(self) -> float:
        return self.seconds + (time.perf_counter() - self.started if self.started else 0.0)

    def close(self, tail: str | None = None) -> None:
        """End the spinner, if any: ``... done in 18.2 s`` (or ``tail``)."""
        if self.spinner is not None:
            self.spinner.close(f" done in {self.seconds:.1f} s" if tail is None else tail)
            self.spinner = None


class _Spinner:
    """One thread that keeps the open lines turning (a compile runs in the caller's thread, which releases the GIL
    in LLVM's calls and at Python's thread switches: the spinner gets its turns)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.lines: list[Line] = []
        self.thread: threading.Thread | None = None

    def watch(self, line: Line) -> None:
        with self.lock:
            self.lines.append(line)
            if self.thread is None:
                self.thread = threading.Thread(target=self._run, name="cardsim-compile-spinner", daemon=True)
                self.thread.start()

    def unwatch(self, line: Line) -> None:
        with self.lock:
            if line in self.lines:
                self.lines.remove(line)

    def _run(self) -> None:
        frame = 0
        while True:
            with self.lock:
                if not self.lines:
                    self.thread = None
                    return
                for line in self.lines:
                    line.spin(frame)
            frame += 1
            time.sleep(SPIN_S)


_SPINNER = _Spinner()


class _Listener(event.Listener):
    """Counts numba's compiler-lock and compile events over all threads (nested ones count once: a kernel's callees
    compile inside it) and hands each outermost compile to the speaking notice."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.depth = 0
        self.began = 0.0
        self.total = 0.0
        self.notice: Notice | None = None  # the notice of the compile now running

    def on_start(self, ev: Any) -> None:
        with _LOCK:
            self.depth += 1
            if self.depth == 1:
                self.began = time.perf_counter()
                if self.kind == "numba:compile":
                    try:  # what is shown must never stop the compile
                        self.notice = _speaker(ev)
                        if self.notice is not None:
                            self.notice.begin(_module(ev))
                    except Exception:  # noqa: BLE001
                        self.notice = None

    def on_end(self, ev: Any) -> None:
        with _LOCK:
            self.depth -= 1
            if self.depth == 0:
                self.total += time.perf_counter() - self.began
                notice, self.notice = self.notice, None
                if notice is not None:
                    notice.end()
                    if notice not in _ACTIVE:  # a compile outside any notice: its spinner ends with it
                        notice.close()


_LOCK = threading.RLock()
_ACTIVE: list[Notice] = []  # open notices, outermost first
_LISTENERS: dict[str, _Listener] = {}
_SAID: set[str] = set()  # the lines of compiles outside any notice said so far (each once per process)
ON_FIRST_USE = ("cardsim: compiling kernels as they are first used (first run only; `cardsim warmup` compiles "
                "the common ones ahead)...")  # fmt: skip


def _terminal() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # replaced or closed stderr
        return False


def _module(ev: Any) -> str:
    """The module of the kernel a compile event is about ('' if it cannot tell)."""
    function = getattr((ev.data or {}).get("dispatcher"), "py_func", None)
    return getattr(function, "__module__", None) or ""


def _speaker(ev: Any) -> Notice | None:
    """The notice that announces this compile: the outermost open one; for one of cardsim's own kernels compiled
    outside any, a notice of its own, named from the kernel (``_kind_of``), whose line is printed once per process
    (later compiles of the same kind: a spinner on a terminal)."""
    if _ACTIVE:
        return _ACTIVE[0]
    function = getattr((ev.data or {}).get("dispatcher"), "py_func", None)
    module = _module(ev)
    if not module.startswith(("cardsim.", "bots.")):
        return None  # somebody else's kernel
    game, kind = _kind_of(module, function, (ev.data or {}).get("args") or (), _callers())
    if game:
        notice = Notice(batch_what(game, kind), estimate(game, kind))
    else:
        notice = Notice(f"{module}.{function.__name__}", None, line=ON_FIRST_USE)
    if notice.line in _SAID:  # each line once per process; later compiles only turn a spinner that goes away
        notice.announced = True
        if notice.show:
            notice.started = time.perf_counter()
            notice.spinner = Line(f"cardsim: compiling {notice.what}: {function.__name__} (first run only)",
                                  notice.elapsed, notice.busy, leave=False)  # fmt: skip
    _SAID.add(notice.line)
    return notice


# each game's batch kernel and the work items it calls through their address (``Game.simulate``)
BATCH_KERNELS = ("simulate_games", "play_block", "builtin_block", "random_block", "random_games_block", "asking_block")


def _kind_of(module: str, function: Any, args: tuple, callers: tuple[str, ...] = ()) -> tuple[str | None, str]:
    """(game, estimates' kind) of a kernel compiled outside any notice, from its module, its argument types and
    the modules calling it (``callers``, innermost first): a game's advice kernels (or a kernel the advice calls),
    its batch kernel (a direct ``Game.batch``), its strong bots' entry, else its state machine's (``Round``)."""
    parts = module.split(".")
    if parts[:2] == ["cardsim", "games"] and len(parts) == 4:
        game = parts[2]
    elif parts[0] == "bots" and len(parts) == 2:
        game = parts[1].removesuffix("_strong")
    else:
        return None, ""
    if game not in GAMES:
        return None, ""
    code = function.__code__
    typed = dict(zip(code.co_varnames[: code.co_argcount], args, strict=False))
    given = {name for name, t in typed.items() if not isinstance(t, (types.NoneType, types.Omitted))}
    strong, check = "strong_bots" in given, "checks" in given
    if parts[-1] == "advise" or f"cardsim.games.{game}.advise" in callers:
        return game, "strong advice" if strong else "advice"
    if function.__name__ in BATCH_KERNELS:
        return game, f"{'strong ' if strong else ''}{'check' if check else ''}".strip() or "fast"
    if parts[-1].endswith("_strong"):  # the strong bots' entry, asked one decision at a time (their timing, Round)
        return game, "strong timing"
    return game, "round"


def _callers() -> tuple[str, ...]:
    """The modules of the Python frames calling into numba now, innermost first (a compile is rare: the walk is
    cheap enough)."""
    frame, found = sys._getframe(1), []
    while frame is not None:
        name = frame.f_globals.get("__name__") or ""
        if not name.startswith(("numba", "cardsim.jit.compiling")) and name not in found:
            found.append(name)
        frame = frame.f_back
    return tuple(found)


def install() -> None:
    """Listen to numba's compile events (once per process; ``import cardsim`` calls it)."""
    with _LOCK:
        for kind in ("numba:compile", "numba:compiler_lock"):
            if kind not in _LISTENERS:
                _LISTENERS[kind] = _Listener(kind)
                event.register(kind, _LISTENERS[kind])


def spent() -> Spent:
    """Seconds compiling kernels and loading them from the cache so far in this process (all threads)."""
    install()
    with _LOCK:
        compiling, locked = (_LISTENERS[k].total for k in ("numba:compile", "numba:compiler_lock"))
    return Spent(compiling, max(0.0, locked - compiling))


@contextmanager
def notice(what: str, seconds: float | None = None, show: bool | None = None, quiet: bool = False):
    """Announce ``what`` (``the Wizard kernels with strong bots``, about ``seconds``) if anything compiles inside
    (``show`` and ``quiet``: see ``Notice``). Yields the ``Notice`` (its ``seconds``: the compile time)."""
    install()
    current = Notice(what, seconds, show, quiet=quiet)
    with _LOCK:
        _ACTIVE.append(current)
    try:
        yield current
    except BaseException:
        current.close(" stopped")
        raise
    finally:
        with _LOCK:
            _ACTIVE.remove(current)
        current.close()


def batch_notice(game: str, lineup: Any, check: bool):
    """The notice of a batch run of ``lineup`` in ``game``."""
    kind = batch_kind(lineup, check)
    return notice(batch_what(game, kind), estimate(game, kind))
