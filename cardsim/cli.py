"""The ``cardsim`` command: simulate, tournament, ladder, advise, replay, play, info, warmup (and ``--version``).

Every bad input (unknown game, bot, rule or value) ends with one line
``cardsim: error: ...`` naming what is allowed, and exit code 2.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from pathlib import Path
from typing import Any, NoReturn

from cardsim.errors import CardsimError
from cardsim.games import GAMES, game_info
from cardsim.jit.compiling import spent
from cardsim.sealed.process import Sealing

NO_SEED = object()  # --seed left out: 0, or a sealed match's secret one

BARE_GAMES = 10_000  # games a bare --games plays without --rounds
BOTS_HELP = ("random, heuristic, another built-in bot such as heuristic_v1 or a strong one (cardsim info GAME lists "
             "them), a Python bot path/to/file.py:ClassName or a numba bot path/to/file.py:function")


class _Parser(argparse.ArgumentParser):
    """argparse, with a usage error as one line ``cardsim: error: ...`` and exit code 2, like any other bad input
    (argparse's default prints the whole usage first). Subcommands' parsers are of this class too."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"cardsim: error: {message} (see: {self.prog} --help)\n")


def epilog() -> str:
    """The examples of ``cardsim --help``: each game's (``GameInfo.examples``), then those of every game."""
    lines = [example for game in GAMES for example in game_info(game).examples] + ["warmup --strong --replay"]
    return "examples:\n" + "".join(f"  cardsim {line}\n" for line in lines)


def games_help(last: str = " or ") -> str:
    """The registered games for a help text: ``differenzler, wizard or callpartner``."""
    names = list(GAMES)
    return last.join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else names[0]


def players_help() -> str:
    """The numbers of players of the games that leave a choice, for a help text: ``wizard 3-6, callpartner 3-5
    (default 4)``."""
    infos = [game_info(game) for game in GAMES]
    choices = ", ".join(f"{i.name} {_numbers(i.players)}" for i in infos if len(i.players) > 1)
    defaults = {i.default_players for i in infos}
    default = (f"default {defaults.pop()}" if len(defaults) == 1 else
               "default " + ", ".join(f"{i.name} {i.default_players}" for i in infos))  # fmt: skip
    return f"{choices} ({default})"


def _numbers(values: tuple[int, ...]) -> str:
    """``3-6`` for a run of numbers, else ``3, 5``."""
    run = values == tuple(range(values[0], values[-1] + 1))
    return f"{values[0]}-{values[-1]}" if run else ", ".join(map(str, values))


def _advice_help() -> tuple[str, str]:
    """The help of ``advise --hand`` and ``--trump``: an example hand and what the trump is, per game."""
    advised = [(game_info(game).title, game_info(game).advice) for game in GAMES if game_info(game).advice]
    hands = ", ".join(f'"{advice.hand}" ({title})' for title, advice in advised)
    trumps = "; ".join(f"{title} {advice.trump}" for title, advice in advised)
    return f"the hand, e.g. {hands}", f"the trump the seat sees: {trumps}"


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="cardsim", description="Monte Carlo simulation of trick-taking card games.", epilog=epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )  # fmt: skip
    parser.add_argument("--version", action="version", version=version_line())
    commands = parser.add_subparsers(dest="command", required=True,
                                     metavar="{simulate,tournament,ladder,advise,replay,play,info,warmup}")  # fmt: skip

    def common(sub: argparse.ArgumentParser, bots: str = "one bot per seat, comma-separated, or one for all seats",
               game_optional: bool = False) -> None:  # fmt: skip
        sub.add_argument("game", help=games_help(), **({"nargs": "?"} if game_optional else {}))
        sub.add_argument("--bots", default="random", help=f"{bots}: {BOTS_HELP} (default: random)")
        sub.add_argument("--seed", type=seed_or_random, default=NO_SEED, help="experiment seed (default 0); "
                         "simulate, tournament and ladder also take 'random': a 64-bit seed from the OS, printed and "
                         "stored with the results")  # fmt: skip
        sub.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE", help="a rule option (repeatable)")
        sub.add_argument("--players", type=int, help=f"number of players: {players_help()}")
        sub.add_argument("--cards", type=positive_int, help="cards per player in single rounds, in a game with such "
                         "a rule (cards=K, or as the game names it; cardsim info GAME lists its rules)")
        sub.add_argument("--json", action="store_true", help="print JSON instead of text")
        sub.add_argument("--check", action="store_true", help="also check every round's invariants after every step "
                         "(cards conserved, points and tricks adding up, observations honest): same numbers, slower")
        sub.add_argument("--allow-cheating", action="store_true", help="allow the omniscient bot, which sees every "
                         "hand: a reference for the honest bots (its rows are marked in the column cheating)")

    sim = commands.add_parser("simulate", help="play many rounds or games and summarise them per seat")
    common(sim)
    sim.add_argument("--rounds", type=positive_int, help="number of single rounds (default 100000)")
    sim.add_argument("--games", type=positive_int, nargs="?", const=0, metavar="N",
                     help=f"play N whole games; a bare --games plays --rounds N whole games, or {BARE_GAMES} without "
                     "--rounds")  # fmt: skip
    sim.add_argument("--threads", type=int, help="threads (default: all cores)")
    sim.add_argument("--out", help="write one row per (round, seat) to this Parquet file")
    sim.add_argument("--force", action="store_true", help="overwrite an existing --out file")
    sim.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                     help="show a progress bar (default: on a terminal)")  # fmt: skip

    tour = commands.add_parser("tournament", help="duplicate-deal tournament into a results folder, resumable, "
                               "locally or on a Dask cluster")  # fmt: skip
    common(tour)
    tour.add_argument("--rounds", type=positive_int, help="number of deals (default 100000); each is played once per "
                      "seat rotation")  # fmt: skip
    tour.add_argument("--games", type=positive_int, metavar="N", help="number of whole games, each played once per "
                      "seat rotation")  # fmt: skip
    tour.add_argument("--out", help="results folder (default results/<game>-<size>-seed<seed>)")
    tour.add_argument("--resume", action="store_true", help="continue the experiment in --out: compute only the "
                      "missing or damaged chunks")  # fmt: skip
    tour.add_argument("--no-duplicate", dest="duplicate", action="store_false",
                      help="play every deal once as seated instead of once per seat rotation")  # fmt: skip
    tour.add_argument("--chunk", type=positive_int, help="deals (with --games: games) per chunk file, each played "
                      "once per rotation (default: 2**20 deals or 4096 games over all rotations, e.g. 262144 deals "
                      "of 4 rotations; 1024 with a strong bot, 64 with a Python bot)")  # fmt: skip
    tour.add_argument("--threads", type=int, help="threads of the local run (default: all cores)")
    tour.add_argument("--scheduler", metavar="ADDRESS", help="run the chunks on this dask.distributed scheduler, "
                      "e.g. tcp://host:8786")  # fmt: skip
    tour.add_argument("--dask-local", type=positive_int, metavar="N", help="run the chunks on a local Dask cluster of "
                      "N worker processes")  # fmt: skip
    tour.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                      help="show a progress bar (default: on a terminal)")  # fmt: skip
    sealing(tour)

    lad = commands.add_parser("ladder", help="rating list: duplicate matches of every pair of bots, Elo ratings "
                              "with 95%% CIs")  # fmt: skip
    common(lad, "the bots to rate, two or more different ones, comma-separated; each pair plays duplicate matches, "
           "one bot against copies of the other")
    lad.add_argument("--deals", type=positive_int, default=10_000, help="deals per match (default 10000), each played "
                     "once per seat rotation; every pair plays two matches")  # fmt: skip
    lad.add_argument("--out", help="folder for the matches' results, the tables and the plot (default: none kept)")
    lad.add_argument("--resume", action="store_true", help="continue the ladder in --out")
    lad.add_argument("--threads", type=int, help="threads of the local run (default: all cores)")
    lad.add_argument("--scheduler", metavar="ADDRESS", help="run the chunks on this dask.distributed scheduler")
    lad.add_argument("--dask-local", type=positive_int, metavar="N", help="run the chunks on a local Dask cluster of "
                     "N worker processes")  # fmt: skip
    lad.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                     help="show a progress bar (default: on a terminal)")  # fmt: skip
    sealing(lad)

    rep = commands.add_parser("replay", help="print one round exactly as it was played")
    common(rep, game_optional=True)
    rep.add_argument("--round", type=nonnegative_int, help="round index (within the game with --game-no)")
    rep.add_argument("--file", type=Path, help="a round's record saved as JSON (Round.record(), e.g. an agent's "
                     "round): played again from its deal and actions, move by move; no game, seed or round then")
    rep.add_argument("--game-no", type=nonnegative_int, help="game index, to replay a round of a --games run")

    adv = commands.add_parser("advise", help="expected result of every bid for one hand, from simulated completions")
    hand_help, trump_help = _advice_help()
    adv.add_argument("game", help=games_help())
    adv.add_argument("--hand", required=True, help=hand_help)
    adv.add_argument("--seat", type=nonnegative_int, default=0,
                     help="the hand's seat, counted from the dealer's left: 0 leads first/bids first (default 0)")
    adv.add_argument("--trump", help=trump_help)
    adv.add_argument("--players", type=int, help=f"number of players: {players_help()}")
    adv.add_argument("--bots", default="heuristic", help="bots playing the completions, the seat's own included "
                     "(default heuristic)")  # fmt: skip
    adv.add_argument("--samples", type=positive_int, default=2000, help="completions per bid (default 2000)")
    adv.add_argument("--seed", type=nonnegative_int, default=0, help="seed of the completions (default 0)")
    adv.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE", help="a rule option (repeatable)")
    adv.add_argument("--json", action="store_true", help="print JSON instead of text")

    play_options(commands)

    info = commands.add_parser("info", help="the version; a game's rule options and built-in bots")
    info.add_argument("game", nargs="?", help=f"{games_help()} (default: list the games)")

    warm = commands.add_parser("warmup", help="compile the kernels ahead of time (a first run compiles them, once: "
                               "20 s to a few minutes), into the kernel cache every later run loads")  # fmt: skip
    warm.add_argument("games", nargs="*", metavar="GAME", help=f"{games_help(', ')} (default: all)")
    warm.add_argument("--strong", action="store_true", help="also the kernels of lineups with a strong bot")
    warm.add_argument("--replay", action="store_true", help="also the kernels that replay, Round and Python bots "
                      "call (the state machine driven from Python)")  # fmt: skip
    warm.add_argument("--jobs", type=positive_int, help="games compiled side by side, one process each (default: "
                      "this machine's cores)")  # fmt: skip
    warm.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                      help="a spinner per group of kernels (default: on a terminal; elsewhere one line per group once "
                      "it is done; --no-progress: no line)")  # fmt: skip
    return parser


def play_options(commands: Any) -> None:
    """``cardsim play``: its options."""
    sub = commands.add_parser("play", help="sit at the table: play against the bots (and with friends) in the "
                              "browser, or line by line with --plain")  # fmt: skip
    sub.add_argument("game", help=games_help())
    sub.add_argument("--players", type=int, help=f"number of players: {players_help()}")
    sub.add_argument("--bots", default="heuristic", help="the bots in the other seats: one for all of them, or one "
                     f"per seat in seat order, comma-separated: {BOTS_HELP} (default heuristic)")  # fmt: skip
    sub.add_argument("--humans", type=positive_int, default=1, help="people at the table, in the seats from --seat "
                     "on; each gets a link of its own (default 1)")  # fmt: skip
    sub.add_argument("--seat", type=nonnegative_int, default=0, help="your seat, 0 to players-1, the seats in "
                     "turn order (default 0)")  # fmt: skip
    sub.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE", help="a rule option (repeatable)")
    sub.add_argument("--seed", type=nonnegative_int, help="the session's seed (default: drawn secretly; a known "
                     "seed gives the deals away)")  # fmt: skip
    sub.add_argument("--games", type=positive_int, default=1, help="games to play in a row (default 1)")
    sub.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine "
                     "only; 0.0.0.0 lets friends on the network join with their links)")  # fmt: skip
    sub.add_argument("--port", type=nonnegative_int, default=0, help="port to listen on (default 0: a free one)")
    sub.add_argument("--no-browser", dest="browser", action="store_false", help="print the links, open no browser")
    sub.add_argument("--plain", action="store_true", help="play line by line on stdin and stdout (numbered choices, "
                     "or a card or bid by name; the end of the input stops and saves)")  # fmt: skip
    sub.add_argument("--save", metavar="FOLDER", help="save the games in this new or empty folder (default "
                     "results/play/<date-time>)")  # fmt: skip
    sub.add_argument("--pace", type=nonnegative_float, default=0.8, metavar="SECONDS",
                     help="seconds between two bots' moves in the browser (default 0.8; the page changes it)")
    sub.add_argument("--dropped", choices=("wait", "bot"), default="wait", help="when a person's page is closed: "
                     "the table waits for them (default), or a bot plays their seat until they are back")
    sub.add_argument("--samples", type=positive_int, default=2000, help="deals behind each hint and each reviewed "
                     "decision (default 2000)")  # fmt: skip
    sub.add_argument("--no-review", dest="review", action="store_false", help="no review of your decisions after "
                     "each round")  # fmt: skip


def sealing(sub: argparse.ArgumentParser) -> None:
    """The options of sealed matches (``cardsim.sealed``), for tournament and ladder."""
    default = Sealing()
    sub.add_argument("--sealed", action="store_true", help="a sealed match for Python bots you do not trust: each "
                     "runs in a process of its own that sees only its observations, under its own unprivileged user "
                     "(when run as root); the seed is drawn secretly and revealed in config.json at the end; no "
                     "--seed, --resume or Dask")  # fmt: skip
    sub.add_argument("--forfeit", action="store_true", help="with --sealed: a bot that fails (raises, exits, hangs, "
                     "answers illegally) forfeits: random plays its remaining decisions, its rows are marked in the "
                     "column forfeit, and the run goes on (default: the run stops, naming it)")  # fmt: skip
    sub.add_argument("--decision-time", type=positive_float, metavar="S", help="with --sealed: seconds a bot may "
                     f"take per decision (default {default.decision_seconds:g})")  # fmt: skip
    sub.add_argument("--bot-memory", type=positive_int, metavar="MB", help="with --sealed: a bot process's memory "
                     f"(address space, default {default.memory_mb})")  # fmt: skip


def _sealing(args: argparse.Namespace) -> Sealing | bool:
    """``--sealed`` and its settings as ``experiment``'s ``sealed``; a setting without ``--sealed`` is refused."""
    settings = {"forfeit": ("--forfeit", args.forfeit or None), "decision_seconds": ("--decision-time",
                args.decision_time), "memory_mb": ("--bot-memory", args.bot_memory)}  # fmt: skip
    given = {name: value for name, (_, value) in settings.items() if value is not None}
    if not args.sealed:
        if given:
            raise CardsimError(f"{settings[next(iter(given))][0]} goes with --sealed: it sets how a sealed match "
                               "treats its bots")  # fmt: skip
        return False
    return Sealing(**given)


def _seed(args: argparse.Namespace) -> int | None:
    """``--seed`` as given: 0 when it is left out, None for 'random'. A sealed match draws its seed secretly and
    refuses one that is given."""
    given = args.seed is not NO_SEED
    if getattr(args, "sealed", False):
        if given and args.seed is not None:
            raise CardsimError(f"--sealed draws the seed secretly: leave out --seed {args.seed} (with a seed a bot "
                               "author knows or guesses, a bot can compute every hand)")  # fmt: skip
        return None
    return args.seed if given else 0


def positive_float(text: str) -> float:
    """argparse type: a number > 0."""
    value = _float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text} is not a positive number")
    return value


def nonnegative_float(text: str) -> float:
    """argparse type: a number >= 0."""
    value = _float(text)
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"{text} is not a number >= 0")
    return value


def _float(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None


def positive_int(text: str) -> int:
    """argparse type: an integer >= 1 (underscores allowed, 1_000_000)."""
    value = _integer(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a positive integer")
    return value


def seed_or_random(text: str) -> int | None:
    """argparse type: an integer >= 0, or ``random`` (None: the run draws a seed from the OS)."""
    return None if text.strip().lower() == "random" else nonnegative_int(text)


def nonnegative_int(text: str) -> int:
    """argparse type: an integer >= 0."""
    value = _integer(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text} is not an integer >= 0")
    return value


def _integer(text: str) -> int:
    try:
        return int(text.replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None


def _rules(args: argparse.Namespace) -> list[str]:
    """--rule items, with --cards as the rule it stands for (the game's ``cards_rule``)."""
    return args.rule + ([f"{game_info(args.game).cards_rule}={args.cards}"] if args.cards else [])


def _simulate(args: argparse.Namespace) -> None:
    from cardsim.analysis import format_table
    from cardsim.engine import simulate

    if args.games and args.rounds:
        raise CardsimError("give --rounds N, --games N, or --rounds N --games (N whole games), not both numbers: "
                           f"--rounds {args.rounds}, --games {args.games}")
    rounds, games = args.rounds or 100_000, None
    if args.games is not None:  # bare --games: the --rounds number counts whole games
        rounds, games = None, args.games or args.rounds or BARE_GAMES
    began, kernels = time.perf_counter(), spent()
    result = simulate(
        args.game, args.bots, rounds=rounds, games=games, seed=_seed(args), rules=_rules(args), players=args.players,
        threads=args.threads, out=args.out, progress=args.progress, force=args.force, check=args.check,
        allow_cheating=args.allow_cheating,
    )  # fmt: skip
    seconds, kernels = time.perf_counter() - began, spent() - kernels
    played = int(result.summary["rounds"].iloc[0])
    if args.json:
        print(json.dumps({"game": result.game, "rules": result.rules, "seed": result.seed, "rounds": played,
                          "games": games, "seconds": round(seconds, 3), **_kernel_seconds(kernels), "out": args.out,
                          "summary": result.summary.to_dict(orient="records")}))  # fmt: skip
        return
    size = f"{games} games ({played} rounds)" if games else f"{played} rounds"
    print(f"{result.game}  {size}  seed {result.seed}  rules {result.rules}")
    print(_timing(played, "rounds", seconds, kernels) + (f"; rows written to {args.out}" if args.out else ""))
    print()
    print(format_table(result.summary))


def _timing(units: int, unit: str, seconds: float, kernels) -> str:
    """The run's seconds and its rate of ``unit`` per second, both without the seconds spent compiling and loading
    kernels (``kernels``), which the note after them gives: ``2.00 s, 500 rounds/s (compile 10.0 s not counted)``;
    no rate without ``units``."""
    running = max(seconds - kernels.compile - kernels.load, 0.0)
    rate = "" if not units else f", {units / running:,.0f} {unit}/s" if running > 0 else f", - {unit}/s"
    return f"{running:.2f} s{rate}{kernels.note()}"


def _kernel_seconds(kernels) -> dict[str, float]:
    """The JSON fields of the kernels' seconds, which the rates leave out."""
    return {"compile_seconds": round(kernels.compile, 3), "load_seconds": round(kernels.load, 3)}


def _tournament(args: argparse.Namespace) -> None:
    from cardsim.analysis import format_table
    from cardsim.report import describe, write_report
    from cardsim.runner import ResultsFolder, experiment, run

    if args.rounds and args.games:
        raise CardsimError(f"give --rounds N (deals) or --games N, not both: --rounds {args.rounds}, --games "
                           f"{args.games}")  # fmt: skip
    rounds = None if args.games else (args.rounds or 100_000)
    sealed = _sealing(args)
    exp = experiment(args.game, args.bots, rounds=rounds, games=args.games, seed=_seed(args), rules=_rules(args),
                     players=args.players, duplicate=args.duplicate, chunk=args.chunk,
                     allow_cheating=args.allow_cheating, sealed=sealed)  # fmt: skip
    if args.seed is None and args.resume and args.out and (Path(args.out) / "config.json").exists():
        exp = dataclasses.replace(exp, seed=ResultsFolder(args.out).read_config().seed)  # resume the drawn seed
    size = f"{exp.units}{'games' if exp.games else 'deals'}"
    out = args.out or (f"results/{exp.game}-{size}-seed{exp.seed}" if not sealed else
                       f"results/{exp.game}-{size}-sealed-{time.strftime('%Y%m%d-%H%M%S')}")  # its seed is secret
    began, kernels = time.perf_counter(), spent()
    outcome = run(exp, out, resume=args.resume, threads=args.threads, scheduler=args.scheduler,
                  dask_local=args.dask_local, progress=args.progress, check=args.check)  # fmt: skip
    seconds, kernels = time.perf_counter() - began, spent() - kernels
    summary = write_report(outcome)
    if args.json:
        print(json.dumps({"experiment": dataclasses.asdict(exp), "folder": out, "summary": str(summary),
                          "computed_chunks": outcome.computed, "seconds": round(seconds, 3), **_kernel_seconds(kernels),
                          "bots": outcome.standings.bots.to_dict(orient="records"),
                          "pairs": outcome.standings.pairs.to_dict(orient="records")}))  # fmt: skip
        return
    print(describe(outcome))
    unit = "games" if exp.games else "rounds"  # a deal played in each rotation is that many rounds
    timing = _timing(outcome.computed_units * exp.rotations, unit, seconds, kernels)
    print(f"{timing}; {outcome.computed} of {exp.chunks} chunks computed now; results in {out} (summary {summary})")
    print()
    print(format_table(outcome.standings.bots))
    if len(outcome.standings.pairs):
        print()
        print(format_table(outcome.standings.pairs))


def _ladder(args: argparse.Namespace) -> None:
    from cardsim.analysis import format_table
    from cardsim.rating import ladder

    began = time.perf_counter()
    result = ladder(args.game, args.bots, deals=args.deals, players=args.players, rules=_rules(args), seed=_seed(args),
                    out=args.out, resume=args.resume, threads=args.threads, scheduler=args.scheduler,
                    dask_local=args.dask_local, progress=args.progress, check=args.check,
                    allow_cheating=args.allow_cheating, sealed=_sealing(args))  # fmt: skip
    if args.json:
        print(json.dumps({"game": result.game, "bots": result.bots, "deals": result.deals, "seed": result.seed,
                          "folder": None if result.folder is None else str(result.folder),
                          "ratings": result.ratings.to_dict(orient="records"),
                          "pairs": result.pairs.to_dict(orient="records")}))  # fmt: skip
        return
    kept = f"; tables and plot in {result.folder}" if result.folder else ""
    print(f"{result.game} ladder, {result.deals:,} deals per match, seed {result.seed}: "
          f"{time.perf_counter() - began:.1f} s{kept}; each pair plays two matches: {2 * result.deals:,} deals")
    print()
    print(format_table(result.ratings))
    print()
    print(format_table(result.pairs))


def _replay(args: argparse.Namespace) -> None:
    from cardsim.engine import replay
    from cardsim.games import get_game

    if args.file is not None:
        given = [flag for flag, value in (("GAME", args.game), ("--round", args.round), ("--game-no", args.game_no),
                                          ("--players", args.players), ("--rule", args.rule or None),
                                          ("--cards", args.cards)) if value is not None]  # fmt: skip
        if given or args.seed is not NO_SEED or args.bots != "random":
            given += ["--seed"] * (args.seed is not NO_SEED) + ["--bots"] * (args.bots != "random")
            raise CardsimError(f"--file replays the record's own game, rules and actions: leave out {', '.join(given)}")
        record = replay(record=_read_record(args.file))
        shown = {**record, "bots": [bot or "-" for bot in record["bots"]]}  # None: nobody in particular
        text = get_game(record["game"]).format_replay(shown) + "\n\nmoves:\n" + format_moves(record["moves"])
        print(json.dumps(record) if args.json else text)
        return
    if args.game is None or args.round is None:
        raise CardsimError("replay needs GAME and --round (and the run's --seed), or --file FILE (a round's record)")
    seed = _seed(args)
    if seed is None:
        raise CardsimError("replay needs the seed of the run it shows (a number; a 'random' run prints its seed)")
    record = replay(args.game, seed=seed, round=args.round, bots=args.bots, rules=_rules(args),
                    game_no=args.game_no, players=args.players, check=args.check,
                    allow_cheating=args.allow_cheating)  # fmt: skip
    print(json.dumps(record) if args.json else get_game(args.game).format_replay(record))


def _read_record(path: Path) -> dict:
    """The JSON record in ``path``, or a clear error."""
    try:
        return json.loads(path.read_text())
    except OSError as exc:
        raise CardsimError(f"--file {path}: cannot read it ({exc.strerror or exc})") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CardsimError(f"--file {path} is not a JSON record: {exc}") from None


def format_moves(moves: list[dict]) -> str:
    """A replayed record's moves, one per line: number, seat, decision, action."""
    return "\n".join(f"{k:>4}. seat {m['seat']}  {m['decision']:<8} {m['action']}" for k, m in enumerate(moves, 1))


def _advise(args: argparse.Namespace) -> None:
    from cardsim.advise import advice_json, advise, format_advice

    advice = advise(args.game, args.hand, seat=args.seat, trump=args.trump, players=args.players, bots=args.bots,
                    samples=args.samples, seed=args.seed, rules=args.rule)  # fmt: skip
    print(json.dumps(advice_json(advice)) if args.json else format_advice(advice))


def _play(args: argparse.Namespace) -> None:
    from cardsim.play.session import play

    play(args.game, players=args.players, rules=args.rule, bots=args.bots, humans=args.humans, seat=args.seat,
         seed=args.seed, games=args.games, host=args.host, port=args.port, browser=args.browser, plain=args.plain,
         folder=args.save, delay=args.pace, dropped=args.dropped, samples=args.samples, review=args.review)


def version_line() -> str:
    """``cardsim 0.1.0 (Python 3.11.7, numba 0.60.0, numpy 2.0.2)``: what a bug report needs to name."""
    import platform

    import numba
    import numpy

    from cardsim import __version__

    python = platform.python_version()
    return f"cardsim {__version__} (Python {python}, numba {numba.__version__}, numpy {numpy.__version__})"


def _info(args: argparse.Namespace) -> None:
    from cardsim.games import get_game
    from cardsim.lineup import settings_help
    from cardsim.options import rules_help

    game = None if args.game is None else get_game(args.game)  # an unknown game is an error before any output
    print(version_line())
    if game is None:
        print(f"games: {', '.join(GAMES)} (cardsim info GAME lists its rule options and built-in bots)")
        return
    print(f"{game.name}: {', '.join(map(str, game.players))} players, {game.deck.name} deck")
    print("rules (--rule NAME=VALUE):")
    for line in rules_help(game.rules_class):
        print("  " + line)
    print("built-in bots (--bots):")
    for name, doc in game.bot_docs.items():
        print(f"  {name}: {doc}")
        if name in game.bot_settings:
            print(f"    settings ({name}:key=value:...): {settings_help(game.bot_settings[name])}")


def _warmup(args: argparse.Namespace) -> None:
    from cardsim.engine import max_threads
    from cardsim.jit.precompile import warmup

    began = time.perf_counter()
    warmed = warmup(args.games, strong=args.strong, replay=args.replay, progress=args.progress,
                    jobs=args.jobs or max_threads())  # fmt: skip
    compiled = [w for w in warmed if w.compiled]
    games = ", ".join(dict.fromkeys(w.game for w in warmed))
    print(f"{games}: {len(warmed)} groups of kernels ready in {time.perf_counter() - began:.1f} s ("
          + (f"{len(compiled)} compiled, in {sum(w.compiled for w in compiled):.1f} s" if compiled else
             "all were in the cache") + ")")  # fmt: skip


COMMANDS = {"simulate": _simulate, "tournament": _tournament, "ladder": _ladder, "advise": _advise, "replay": _replay,
            "play": _play, "info": _info, "warmup": _warmup}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        COMMANDS[args.command](args)
    except CardsimError as exc:
        print(f"cardsim: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        resume = "; finished chunks are kept: the same command with --resume continues"
        print(f"cardsim: interrupted{resume if args.command in ('tournament', 'ladder') else ''}", file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into a command that stopped reading (e.g. head)
        sys.stderr.close()
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
