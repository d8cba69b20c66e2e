"""Compile the kernels ahead of time: ``cardsim warmup [GAME ...] [--strong] [--replay]`` and ``cardsim.warmup()``.

For each game, the groups of kernels a common first run compiles (``JOBS``): the batch kernels of random and
heuristic lineups (single rounds and whole games, their summaries, rows and tournament statistics) and the bid
advice's; with ``strong`` the same with a strong bot, and its decisions timed one at a time (a ladder); with
``replay`` the kernels the state machine is driven through from Python (a replay, ``Round``, Python bots). Each
group runs on nothing (zero units) or on the least that calls its kernels (one replayed round, one hand with one
completion), so what it costs beyond compiling is milliseconds, or a strong bot's few decisions. Compiled kernels go
to the kernel cache (``cardsim.jit.kernel_cache``), where every later run loads them.

With ``jobs`` > 1 the games compile side by side, one process each (numba compiles on one core), and then this
process loads every group once more: a group another process's cache write lost is compiled again, so that
afterwards no run compiles.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from pathlib import Path

from cardsim.errors import CardsimError
from cardsim.games import GAMES, Game, game_info, get_game
from cardsim.jit.compiling import Line, about, estimate, notice
from cardsim.lineup import FIRST_STRONG
from cardsim.validation import checked


@dataclass(frozen=True)
class Job:
    """A group of kernels: its kind (of ``GameInfo.estimates``), its label, and what calls them (with which lineups)."""

    kind: str
    label: str
    run: Callable[[Game, str], None]  # (game, the lineup's bot: random, or a strong bot's name)
    strong: bool = False  # a strong bot's kernels (``strong``)
    replay: bool = False  # the state machine's kernels called from Python (``replay``)


@dataclass(frozen=True)
class Warmed:
    """What warming one group did: seconds compiling (0 when it was all in the cache) and in all."""

    game: str
    kind: str
    label: str
    compiled: float
    seconds: float


def _batch(game: Game, bot: str) -> None:
    """The engine's and the runner's preparation of single rounds and whole games, with rows."""
    from cardsim.engine import prepare
    from cardsim.runner import experiment, prepare_chunks

    rules = game.make_rules()
    seats = game.seats(rules)
    lineups = [[bot] + ["heuristic"] + ["random"] * (seats - 2)]
    if bot == "random" and game.random_block is not None:  # random bots only: a work item of their own
        lineups.append(["random"] * seats)
    for names in lineups:
        lineup = game.lineup(names, rules, allow_cheating=True)
        for games in (False, True):
            prepare(game, rules, lineup, games, tidy=True)
            prepare_chunks(experiment(game.name, list(lineup.names), rounds=None if games else 1,
                                      games=1 if games else None, allow_cheating=True))  # fmt: skip


def _replay(game: Game, bot: str) -> None:
    """A single round and a game's round replayed: the Python driver with compiled bots."""
    from cardsim.engine import replay

    bots = [bot] + ["random"] * (game.seats() - 1)
    replay(game, seed=0, round=0, bots=bots)
    replay(game, seed=0, round=0, game_no=0, bots=bots)


def _round(game: Game, bot: str) -> None:
    """A Match's first round played through ``Round``, asking for what a Python bot is shown at every step."""
    from cardsim.round import new_game

    match = new_game(game)
    r = match.round
    while not r.done:
        r.legal()
        r.observation()
        r.play(r.bot_action(bot))
    r.copy().record()
    match.next_round()


def _timing(game: Game, bot: str) -> None:
    """A strong bot's decisions asked one at a time from Python and timed (``Game.decision_times``: the ladder and
    the strength benchmark), against heuristic bots."""
    game.decision_times(bot, 1)


def _advice(game: Game, bot: str) -> None:
    """A bid table of a few hands with one completion each: the advice's kernels and what deals its hands (which
    depends on the cards: hand 7 of seed 0 turns a Wizard, whose trump the dealer's bot names)."""
    from cardsim.advise import bid_table

    bid_table(game.name, hands=16, samples=1, bots=[bot] + ["heuristic"] * (game.seats() - 1))


JOBS = (
    Job("fast", "batch kernels, random and heuristic bots", _batch),
    Job("advice", "bid advice kernels", _advice),
    Job("strong", "batch kernels, strong bots", _batch, strong=True),
    Job("strong advice", "bid advice kernels, strong bots", _advice, strong=True),
    Job("strong timing", "a strong bot's timed decisions (ladder)", _timing, strong=True),
    Job("replay", "replay kernels", _replay, replay=True),
    Job("round", "Round and Python-bot kernels", _round, replay=True),
    Job("strong replay", "replay kernels, strong bots", _replay, strong=True, replay=True),
)


def games_of(names: Iterable[str] | str | None) -> list[Game]:
    """The games called ``names`` (default: all), each once, or the error naming the games."""
    names = [names] if isinstance(names, str) else list(names or GAMES)
    found: list[Game] = []
    for name in names:
        game = get_game(name)
        if game not in found:
            found.append(game)
    return found


def groups(game: Game, strong: bool = False, replay: bool = False) -> list[Job]:
    """The groups of kernels warmed for ``game``: the fast lineups' runs and advice, with ``strong`` a strong
    lineup's, with ``replay`` the replay's, Round's and Python bots' (of a strong lineup too with both). The advice
    only where the game has one, with strong bots only where its completions play them (``has_advice``)."""
    return [job for job in JOBS if (strong or not job.strong) and (replay or not job.replay)
            and (job.run is not _advice or has_advice(game.name, job.strong))]  # fmt: skip


def has_advice(game: str, strong: bool = False) -> bool:
    """Whether ``game`` has a bid advice (``GameInfo.advice``), and with ``strong`` one whose completions play strong
    bots (the others refuse them)."""
    advice = game_info(game).advice
    return advice is not None and (advice.strong or not strong)


def strong_bot(game: Game) -> str:
    """The first strong bot of ``game`` (every strong bot is asked through the same compiled entry)."""
    return next(name for name, bot in game.builtin_bots.items() if bot >= FIRST_STRONG)


@checked
def warmup(games: Iterable[str] | str | None = None, strong: bool = False, replay: bool = False,
           progress: bool | None = None, jobs: int = 1) -> list[Warmed]:  # fmt: skip
    """Compile (or find in the cache) the kernels of ``games`` (default: all) that runs of random and heuristic
    lineups call (simulate, tournament, advice); ``strong``: also a strong bot's; ``replay``: also the replay's,
    Round's and Python bots'. ``progress``: on a terminal (the default there) a spinner per group while it compiles,
    elsewhere a line per group once done, ``False`` nothing. ``jobs``: games compiled side by side in that many
    processes. Returns what each group took."""
    chosen = games_of(games)  # every name is checked before anything compiles
    if jobs < 1:
        raise CardsimError(f"jobs={jobs} is not allowed: give 1 or more processes")
    show = _terminal() if progress is None else bool(progress)
    say = progress is not False
    if jobs > 1 and len(chosen) > 1:
        return _side_by_side(chosen, strong, replay, show, say, jobs)
    return [_warm(game, job, show, say) for game in chosen for job in groups(game, strong, replay)]


def _terminal() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def _text(game: str, job: Job) -> tuple[str, str]:
    """(the group's line, the same with its estimate while it runs)."""
    text = f"cardsim warmup: {game_info(game).title} {job.label}"
    expected = about(estimate(game, job.kind)).removeprefix(", ")
    return text, f"{text} ({expected} when cold)" if expected else text


def _tail(compiled: float, seconds: float) -> str:
    return f": compiled in {compiled:.1f} s" if compiled else f": in the cache ({seconds:.1f} s)"


def _warm(game: Game, job: Job, show: bool, say: bool) -> Warmed:
    text, running = _text(game.name, job)
    began = time.perf_counter()
    line = Line(running, lambda: time.perf_counter() - began, lambda: True) if show else None
    try:
        with notice(text, quiet=True) as compiled:
            job.run(game, strong_bot(game) if job.strong else "random")
    except BaseException:
        if line:
            line.close(" stopped")
        raise
    seconds = time.perf_counter() - began
    if line:
        line.close(_tail(compiled.seconds, seconds), text)
    elif say:
        print(text + _tail(compiled.seconds, seconds), file=sys.stderr, flush=True)
    return Warmed(game.name, job.kind, job.label, compiled.seconds, seconds)


# --- side by side: one process per game, its groups reported here as they start and end -----------------------


def _side_by_side(chosen: list[Game], strong: bool, replay: bool, show: bool, say: bool, processes: int
                  ) -> list[Warmed]:  # fmt: skip
    lock = threading.Lock()
    results: dict[str, list[Warmed]] = {}
    errors: list[str] = []
    # the longest first (their estimates), so that the processes end about together
    waiting = sorted(chosen, key=lambda g: -sum(estimate(g.name, j.kind) or 0 for j in groups(g, strong, replay)))

    def follow(game: Game) -> None:
        """Start ``game``'s process, turn its events into lines, collect its groups."""
        root = str(Path(__file__).resolve().parents[2])  # the same cardsim in the child
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}
        flags = ["--strong"] * strong + ["--replay"] * replay
        command = [sys.executable, "-c", CHILD, game.name, *flags]
        child = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line, began = None, [time.perf_counter()]
        done: list[Warmed] = []
        for raw in child.stdout:
            try:
                event = json.loads(raw)
            except ValueError:
                continue  # not one of ours (something a library printed)
            job = next(j for j in JOBS if j.kind == event["kind"])
            text, running = _text(game.name, job)
            with lock:
                if event["event"] == "start" and show:
                    began[0] = time.perf_counter()
                    if line is None:
                        line = Line(running, lambda: time.perf_counter() - began[0], lambda: True, leave=False)
                    line.text = running
                elif event["event"] == "done":
                    done.append(Warmed(**event["warmed"]))
                    if show:
                        line.bar.write(text + _tail(done[-1].compiled, done[-1].seconds), file=sys.stderr)
                    elif say:
                        print(text + _tail(done[-1].compiled, done[-1].seconds), file=sys.stderr, flush=True)
        problem = child.stderr.read().strip().splitlines()
        if child.wait():
            with lock:
                errors.append(f"{game.name}: {problem[-1] if problem else f'exit status {child.returncode}'}")
        with lock:
            if line is not None:
                line.close()
            results[game.name] = done

    def worker() -> None:
        while True:
            with lock:
                if not waiting:
                    return
                game = waiting.pop(0)
            follow(game)

    threads = [threading.Thread(target=worker, daemon=True) for _ in range(min(processes, len(chosen)))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise CardsimError("warmup failed in " + "; ".join(errors))
    warmed = [group for game in chosen for group in results[game.name]]
    if not any(group.compiled for group in warmed):
        return warmed  # nothing was written
    # The processes wrote the same small kernels' cache entries (numba's index of a kernel is one file, replaced
    # whole): load every group here, and compile again what one of them lost.
    warmed = []
    for game in chosen:
        for group in results[game.name]:
            job = next(j for j in JOBS if j.kind == group.kind)
            again = _warm(game, job, show=False, say=False)
            if again.compiled:
                text, _ = _text(game.name, job)
                if say:
                    print(f"{text}: compiled again in {again.compiled:.1f} s (a parallel cache write lost it)",
                          file=sys.stderr, flush=True)  # fmt: skip
            warmed.append(Warmed(group.game, group.kind, group.label, group.compiled + again.compiled,
                                 group.seconds + again.seconds))  # fmt: skip
    return warmed


CHILD = "import sys; from cardsim.jit.precompile import child; child(sys.argv[1:])"


def child(argv: list[str]) -> None:
    """One game's groups in this process, as JSON events on stdout: ``start`` and ``done`` (with the Warmed)."""
    parser = argparse.ArgumentParser()
    parser.add_argument("game")
    parser.add_argument("--strong", action="store_true")
    parser.add_argument("--replay", action="store_true")
    args = parser.parse_args(argv)
    game = get_game(args.game)
    for job in groups(game, args.strong, args.replay):
        print(json.dumps({"event": "start", "kind": job.kind}), flush=True)
        warmed = _warm(game, job, show=False, say=False)
        print(json.dumps({"event": "done", "kind": job.kind, "warmed": asdict(warmed)}), flush=True)

