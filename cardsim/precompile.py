"""Compile the kernels ahead of time: ``cardsim warmup [GAME ...] [--strong]`` and ``cardsim.warmup()``.

For each game, every group of kernels a common first run compiles (``JOBS``): the batch kernels of random and
heuristic lineups (single rounds and whole games, their summaries, rows and tournament statistics), a replay,
``Round``'s state machine, and the bid advice; with ``strong`` the same for a lineup with a strong bot. Each group
is run on nothing (zero units) or on the least that calls its kernels (one replayed round, one hand with one
completion), so what it costs beyond compiling is a few milliseconds, or a strong bot's few decisions.
Compiled kernels go to the kernel cache (``cardsim.kernel_cache``), where every later run loads them.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from cardsim.compiling import GAME_NAMES, Line, about, estimate, notice
from cardsim.games import GAMES, Game, get_game
from cardsim.lineup import FIRST_STRONG


@dataclass(frozen=True)
class Job:
    """A group of kernels: its ``ESTIMATES`` kind, its label, and what calls them."""

    kind: str
    label: str
    run: Callable[[Game, str], None]  # (game, the lineup's bot: random, or a strong bot's name)
    strong: bool = False


@dataclass(frozen=True)
class Warmed:
    """What warming one group did: seconds compiling (0 when it was all in the cache) and in all."""

    game: str
    kind: str
    label: str
    compiled: float
    seconds: float


def _batch(game: Game, bot: str) -> None:
    from cardsim.engine import prepare
    from cardsim.runner import experiment, prepare_chunks

    rules = game.make_rules()
    seats = game.seats(rules)
    lineup = game.lineup([bot] + ["heuristic"] + ["random"] * (seats - 2), rules)
    for games in (False, True):
        prepare(game, rules, lineup, games, rows=True)
        prepare_chunks(experiment(game.name, list(lineup.names), rounds=None if games else 1,
                                  games=1 if games else None))  # fmt: skip


def _replay(game: Game, bot: str) -> None:
    from cardsim.engine import replay

    bots = [bot] + ["random"] * (game.seats() - 1)
    replay(game, seed=0, round=0, bots=bots)
    replay(game, seed=0, round=0, game_no=0, bots=bots)


def _round(game: Game, bot: str) -> None:
    from cardsim.round import new_game

    match = new_game(game)
    r = match.round
    while not r.done:
        r.legal()
        r.observation()
        r.play(r.bot_action(bot))
    r.copy().record()
    match.next_round()


def _advice(game: Game, bot: str) -> None:
    from cardsim.advise import bid_table

    bid_table(game.name, hands=1, samples=1, bots=[bot] + ["heuristic"] * (game.seats() - 1))


JOBS = (
    Job("fast", "batch kernels, random and heuristic bots", _batch),
    Job("replay", "replay kernels", _replay),
    Job("round", "Round kernels", _round),
    Job("advice", "bid advice kernels", _advice),
    Job("strong", "batch kernels, strong bots", _batch, strong=True),
    Job("strong replay", "replay kernels, strong bots", _replay, strong=True),
    Job("strong advice", "bid advice kernels, strong bots", _advice, strong=True),
)
STRONG_ADVICE = ("wizard",)  # the games whose completions can play strong bots (the others refuse them)


def games_of(names: Iterable[str] | str | None) -> list[Game]:
    """The games called ``names`` (default: all), each once, or the error naming the games."""
    names = [names] if isinstance(names, str) else list(names or GAMES)
    found: list[Game] = []
    for name in names:
        game = get_game(name)
        if game not in found:
            found.append(game)
    return found


def jobs(game: Game, strong: bool) -> list[Job]:
    """The groups of kernels warmed for ``game``: the fast lineups' (and with ``strong`` a strong lineup's)."""
    return [job for job in JOBS if (not job.strong or strong) and (job.kind != "strong advice" or game.name in
                                                                   STRONG_ADVICE)]  # fmt: skip


def strong_bot(game: Game) -> str:
    """The first strong bot of ``game`` (every strong bot is asked through the same compiled entry)."""
    return next(name for name, bot in game.builtin_bots.items() if bot >= FIRST_STRONG)


def warmup(games: Iterable[str] | str | None = None, strong: bool = False, progress: bool | None = None,
           ) -> list[Warmed]:  # fmt: skip
    """Compile (or find in the cache) the kernels of ``games`` (default: all) that common runs call: random and
    heuristic lineups, with ``strong`` also a strong bot's. ``progress``: one line per group of kernels on stderr,
    on a terminal a spinner while it compiles (default: on a terminal; ``False``: nothing, where not a terminal
    the lines appear as each group is done). Returns what each group took."""
    chosen = games_of(games)  # every name is checked before anything compiles
    show = sys.stderr.isatty() if progress is None else progress
    done = []
    for game in chosen:
        for job in jobs(game, strong):
            done.append(_warm(game, job, show, progress is not False))
    return done


def _warm(game: Game, job: Job, show: bool, say: bool) -> Warmed:
    name = GAME_NAMES.get(game.name, game.name)
    text = f"cardsim warmup: {name} {job.label}"
    expected = about(estimate(game.name, job.kind)).removeprefix(", ")
    began = time.perf_counter()
    line = Line(f"{text} ({expected} when cold)" if expected else text, lambda: time.perf_counter() - began,
                lambda: True) if show else None  # fmt: skip
    try:
        with notice(f"{name} {job.label}", quiet=True) as compiled:
            job.run(game, strong_bot(game) if job.strong else "random")
    except BaseException:
        if line:
            line.close(" stopped")
        raise
    seconds = time.perf_counter() - began
    tail = f": compiled in {compiled.seconds:.1f} s" if compiled.seconds else f": in the cache ({seconds:.1f} s)"
    if line:
        line.close(tail, text)
    elif say:
        print(text + tail, file=sys.stderr, flush=True)
    return Warmed(game.name, job.kind, job.label, compiled.seconds, seconds)
