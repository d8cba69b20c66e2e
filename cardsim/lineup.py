"""Bot lineups: built-in bots by name, Python bots from a file, one per seat.

A lineup is written ``name,name,...`` with one entry per seat, or a single
name for every seat. An entry is a built-in bot (``random``, ``heuristic``)
or a Python bot ``path/to/file.py:ClassName`` (see README, "Write your own
bot"): a class with one method per decision of the game, constructed once
with no arguments.
"""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardsim.errors import CardsimError


@dataclass(frozen=True)
class Lineup:
    """One bot per seat: ``names[seat]`` as written, ``bots[seat]`` a built-in id (int) or a Python bot object."""

    names: tuple[str, ...]
    bots: tuple[Any, ...]

    @property
    def compiled(self) -> bool:
        """True when every seat is a built-in bot, so the compiled batch kernels can play."""
        return all(isinstance(b, int) for b in self.bots)

    @property
    def builtin_ids(self) -> list[int]:
        return [int(b) for b in self.bots]


def _load_python_bot(spec: str, game: str, methods: tuple[str, ...]) -> Any:
    path_text, _, class_name = spec.rpartition(":")
    path = Path(path_text)
    if not path.is_file():
        raise CardsimError(f"bot '{spec}': no file {path_text}; a Python bot is written path/to/file.py:ClassName")
    module_name = f"cardsim_user_bots_{abs(hash(path.resolve()))}"
    module = sys.modules.get(module_name)
    if module is None:
        loader_spec = importlib.util.spec_from_file_location(module_name, path)
        module = importlib.util.module_from_spec(loader_spec)
        try:
            loader_spec.loader.exec_module(module)
        except Exception as exc:  # the user's file: report whatever broke it
            raise CardsimError(f"bot '{spec}': loading {path_text} failed: {type(exc).__name__}: {exc}") from exc
        sys.modules[module_name] = module
    cls = getattr(module, class_name, None)
    if cls is None:
        found = sorted(n for n, v in vars(module).items() if isinstance(v, type) and not n.startswith("_"))
        raise CardsimError(
            f"bot '{spec}': {path_text} has no class {class_name}; classes there: {', '.join(found) or 'none'}"
        )
    bot = cls()
    missing = [m for m in methods if not callable(getattr(bot, m, None))]
    if missing:
        raise CardsimError(
            f"bot '{spec}' cannot play {game}: it lacks the method(s) {', '.join(m + '(obs)' for m in missing)}"
        )
    return bot


def make_lineup(
    spec: str | list[str], game: str, players: int, builtin: dict[str, int], methods: tuple[str, ...]
) -> Lineup:
    """Resolve a lineup for ``players`` seats; unknown bots are refused with the allowed names."""
    names = [s.strip() for s in spec.split(",")] if isinstance(spec, str) else [str(s).strip() for s in spec]
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise CardsimError(f"{game} needs {players} bots, one per seat, but {len(names)} were given: {','.join(names)}")
    bots = []
    for name in names:
        if name in builtin:
            bots.append(builtin[name])
        elif ":" in name and name.split(":")[0].endswith(".py"):
            bots.append(_load_python_bot(name, game, methods))
        else:
            raise CardsimError(
                f"unknown bot '{name}' for {game}; built-in bots: {', '.join(builtin)}, "
                "or a Python bot written path/to/file.py:ClassName"
            )
    return Lineup(tuple(names), tuple(bots))
