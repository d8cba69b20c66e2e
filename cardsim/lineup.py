"""Bot lineups: built-in bots by name (with settings), Python bots from a file, one per seat.

A lineup is written ``name,name,...`` with one entry per seat, or a single
name for every seat. An entry is a built-in bot (``random``, ``heuristic``,
or a strong bot with settings: ``ismcts:iterations=400:c=0.7``) or a Python
bot ``path/to/file.py:ClassName`` (docs/bots.md, "Write your own bot"): a class
with one method per decision of the game, constructed once with no arguments;
or ``path/to/file.py:function`` naming an ``@njit`` function, a numba bot that
plays inside the compiled kernels (``cardsim.numba_bots``).

The compiled kernels receive the built-in bots as one float table, a row per
seat: ``[bot id, setting 1, setting 2, ...]`` (the bot's settings in the
order it declares them, defaults filled in), so one compiled kernel serves
every lineup, seating and setting without recompiling.
"""

from __future__ import annotations

import contextlib
import hashlib
import sys
import types
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import numpy as np

from cardsim.errors import CardsimError
from cardsim.numba_bots import USER_BOT, NumbaBot, is_numba_function
from cardsim.sealed.process import GuardedBot

MAX_SETTINGS = 5  # settings columns in the bot table after the id
FIRST_STRONG = 4  # built-in ids from here on are strong bots (bots/<game>_strong.py), in every game (Wizard's 2
# and 3: rulebased, heuristic_v1)
HUMAN = "human"  # reserved: the name of a seat a person plays at ``cardsim play``'s table, in its saved rows
CHEATING_BOTS = frozenset({"omniscient"})  # built-in bots that see hidden cards: references, refused unless allowed
# A lineup as the Python API takes it (its type is checked by ``cardsim.validation``, what it names by ``make_lineup``)
Bots = Annotated[str | list[Any] | tuple[Any, ...], "a str of bot names ('heuristic,random,...': one per seat, or one "
                 "for all), or a list of bot names, Python bot objects and numba functions"]


@dataclass(frozen=True)
class Setting:
    """One setting of a built-in bot: its default, allowed range and meaning."""

    default: float
    low: float
    high: float
    doc: str
    integer: bool = True

    def parse(self, bot: str, key: str, text: str) -> float:
        """The value written ``text``, checked against the range; a clear error otherwise."""
        kind = "a whole number" if self.integer else "a number"
        allowed = f"{kind} from {self.low:g} to {self.high:g}"
        try:
            value = float(text)
        except ValueError:
            value = float("nan")
        if not (self.low <= value <= self.high) or (self.integer and value != int(value)):
            raise CardsimError(f"bot '{bot}': {key}={text} is not allowed; {key} is {allowed} ({self.doc})")
        return value


@dataclass(frozen=True)
class Lineup:
    """One bot per seat: ``names[seat]`` as written, ``bots[seat]`` a built-in id (int), a ``NumbaBot`` or a Python
    bot object, ``table[seat]`` the built-in bot's id and settings (see the module docstring; -1 for a Python bot,
    ``[USER_BOT, index]`` for the numba bot ``numba_bots[index]``). ``functions``: the numba bots compiled for the
    game's kernels (``Game.lineup`` sets them; None without numba bots)."""

    names: tuple[str, ...]
    bots: tuple[Any, ...]
    table: np.ndarray
    numba_bots: tuple[NumbaBot, ...] = ()
    functions: tuple | None = None

    @property
    def compiled(self) -> bool:
        """True when every seat is a built-in or a numba bot, so the compiled batch kernels can play."""
        return all(isinstance(b, (int, NumbaBot)) for b in self.bots)

    @property
    def strong_table(self) -> np.ndarray | None:
        """``strong_table(self.table)``."""
        return strong_table(self.table)


def strong_table(table: np.ndarray) -> np.ndarray | None:
    """``table`` when a seat holds a strong bot, else None. The kernels' ``strong_bots`` argument is None then
    (``Game.strong_function``), and numba prunes every ``strong_bots is not None`` branch from the kernels it
    compiles for None, so random and heuristic lineups neither compile nor run the strong bots' code.
    """
    return table if ((table[:, 0] >= FIRST_STRONG) & (table[:, 0] != USER_BOT)).any() else None


_SOURCES: dict[str, str] = {}  # a bot file's path as given -> its text, where the file is elsewhere (Dask workers)


def bot_sources(specs: Iterable[str]) -> dict[str, str]:
    """The text of every Python bot file in ``specs``, keyed by the path as given: what a Dask task carries, so a
    worker on another machine or in another folder plays the same bots."""
    paths = {spec.rpartition(":")[0] for spec in specs if is_python_bot(spec)}
    return {path: Path(path).read_text() for path in sorted(paths) if Path(path).is_file()}


def use_bot_sources(sources: dict[str, str]) -> None:
    """Load the Python bots of ``sources`` (``bot_sources`` of the client's lineup) from their text here."""
    _SOURCES.update(sources)


def _load_python_bot(spec: str, game: str, methods: tuple[str, ...]) -> Any:
    """The bot ``path/to/file.py:Name`` names: an instance of the class, or a ``NumbaBot`` for an ``@njit``
    function."""
    path_text, _, class_name = spec.rpartition(":")
    path = Path(path_text)
    source = _SOURCES.get(path_text)
    if source is None and not path.is_file():
        raise CardsimError(f"bot '{spec}': no file {path_text}; a Python bot is written path/to/file.py:ClassName")
    if source is None:
        source = path.read_text()
    module_name = f"cardsim_user_bots_{hashlib.blake2b(source.encode(), digest_size=8).hexdigest()}"
    module = sys.modules.get(module_name)
    if module is None:
        module = types.ModuleType(module_name)
        module.__file__ = path_text
        sys.modules[module_name] = module  # before it runs: dataclasses and pickling look the module up
        try:
            with contextlib.redirect_stdout(sys.stderr):  # its prints must not mix with a --json result
                exec(compile(source, path_text, "exec"), module.__dict__)
        except (Exception, SystemExit) as exc:  # the user's file: report whatever broke it (an exit too)
            del sys.modules[module_name]
            raise CardsimError(f"bot '{spec}': loading {path_text} failed: {type(exc).__name__}: {exc}") from exc
    cls = getattr(module, class_name, None)
    if is_numba_function(cls):
        return NumbaBot(spec, cls)
    if not isinstance(cls, type):
        found = sorted(n for n, v in vars(module).items()
                       if (isinstance(v, type) or is_numba_function(v)) and not n.startswith("_"))  # fmt: skip
        problem = f"has no class {class_name}" if cls is None else f"defines {class_name} as {type(cls).__name__}"
        raise CardsimError(f"bot '{spec}': {path_text} {problem}; a bot is a class or an @njit function, and "
                           f"those there are: {', '.join(found) or 'none'}")  # fmt: skip
    try:
        with contextlib.redirect_stdout(sys.stderr):
            bot = cls()
    except (Exception, SystemExit) as exc:  # the user's constructor: report whatever broke it
        raise CardsimError(f"bot '{spec}': {class_name}() failed ({type(exc).__name__}: {exc}); a bot class is "
                           "made without arguments: give the others defaults") from None  # fmt: skip
    return _checked_methods(bot, spec, game, methods)


def _checked_methods(bot: Any, name: str, game: str, methods: tuple[str, ...]) -> Any:
    missing = [m for m in methods if not callable(getattr(bot, m, None))]
    if missing:
        raise CardsimError(
            f"bot '{name}' cannot play {game}: it lacks the method(s) {', '.join(m + '(obs)' for m in missing)}"
        )
    return bot


def is_cheating(name: str) -> bool:
    """True for a built-in bot of ``CHEATING_BOTS``, settings or not (``omniscient:bid_samples=8``)."""
    return not is_python_bot(name) and name.split(":")[0] in CHEATING_BOTS


def is_python_bot(name: str) -> bool:
    """True for ``path/to/file.py:ClassName`` entries."""
    return ":" in name and name.split(":")[0].endswith(".py")


def builtin_row(name: str, game: str, builtin: dict[str, int], settings: dict[str, dict[str, Setting]]) -> np.ndarray:
    """The table row ``[id, settings...]`` of a built-in bot written ``name:key=value:key=value``."""
    bot, *items = name.split(":")
    if bot not in builtin:
        raise CardsimError(
            f"unknown bot '{bot}' for {game}; built-in bots: {', '.join(builtin)}, "
            "or a Python bot written path/to/file.py:ClassName"
        )
    declared = settings.get(bot, {})
    values = {key: s.default for key, s in declared.items()}
    given: dict[str, str] = {}
    for item in items:
        key, equals, text = item.partition("=")
        if key not in declared or not equals:
            allowed = ", ".join(f"{k}=N" for k in declared) or "none"
            raise CardsimError(
                f"bot '{name}': '{item}' is not a setting of {bot}; its settings: {allowed} (write {bot}:key=value)"
            )
        value = declared[key].parse(name, key, text)
        if key in given and value != values[key]:
            raise CardsimError(f"bot '{name}': {key} is given twice, {key}={given[key]} and {key}={text}; give it once")
        given[key], values[key] = text, value
    row = np.zeros(1 + MAX_SETTINGS)
    row[0] = builtin[bot]
    row[1 : 1 + len(values)] = list(values.values())
    return row


def make_lineup(
    spec: str | list[Any],
    game: str,
    players: int,
    builtin: dict[str, int],
    methods: tuple[str, ...],
    settings: dict[str, dict[str, Setting]] | None = None,
    allow_cheating: bool = False,
) -> Lineup:
    """Resolve a lineup for ``players`` seats; unknown bots or settings are refused with the allowed ones, and so
    is a cheating bot (``CHEATING_BOTS``) unless ``allow_cheating``.

    A list may also hold Python bot objects (already constructed; named by their class) and numba bots (``@njit``
    functions, named by the function).
    """
    entries = spec.split(",") if isinstance(spec, str) else list(spec)
    entries = [e.strip() if isinstance(e, str) else e for e in entries]
    if len(entries) == 1:
        entries = entries * players
    names = [_name(e) for e in entries]
    if len(names) != players:
        raise CardsimError(f"{game} needs {players} bots, one per seat, but {len(names)} were given: {','.join(names)}")
    if HUMAN in names:
        raise CardsimError(f"'{HUMAN}' is the reserved name of a seat a person plays (cardsim play), not a bot's")
    cheats = [name.split(":")[0] for name in names if is_cheating(name)]
    if cheats and not allow_cheating:
        raise CardsimError(f"bot '{cheats[0]}' cheats: it sees every hand, as a reference for the honest bots; "
                           "simulate, replay, tournament and ladder allow it with --allow-cheating "
                           "(allow_cheating=True in Python)")  # fmt: skip
    bots, table, functions = [], np.full((players, 1 + MAX_SETTINGS), -1.0), {}
    for seat, (entry, name) in enumerate(zip(entries, names, strict=True)):
        if is_numba_function(entry):
            bots.append(NumbaBot(name, entry))
        elif isinstance(entry, GuardedBot):  # its methods were checked where it runs
            bots.append(entry)
        elif not isinstance(entry, str):
            bots.append(_checked_methods(entry, name, game, methods))
        elif is_python_bot(name):
            bots.append(_load_python_bot(name, game, methods))
        else:
            table[seat] = builtin_row(name, game, builtin, settings or {})
            bots.append(int(table[seat, 0]))
        if isinstance(bots[-1], NumbaBot):  # one index per function: seats that share it share its compile
            table[seat, :2] = USER_BOT, functions.setdefault(bots[-1].function, len(functions))
    numba_bots = {bots[s].function: bots[s] for s in range(players) if isinstance(bots[s], NumbaBot)}
    return Lineup(tuple(names), tuple(bots), table, tuple(numba_bots.values()))


def _name(entry: Any) -> str:
    """A lineup entry's name: as written, a numba bot's function, a guarded bot's spec, else its class."""
    if isinstance(entry, str):
        return entry
    if is_numba_function(entry):
        return entry.__name__
    return entry.spec if isinstance(entry, GuardedBot) else type(entry).__name__


def settings_help(settings: dict[str, Setting]) -> str:
    """``key=default (doc; low..high)`` for every setting of one bot, for ``cardsim info``."""
    return "; ".join(f"{k}={s.default:g} ({s.doc}; {s.low:g}..{s.high:g})" for k, s in settings.items())
