"""A game's fixed encoding for the environments: its actions as one ``Discrete`` space and a seat's honest view as a
bit-packed ``uint8`` array, from the game's state-machine module ``cardsim/games/<game>/encoding.py`` (found
through the registry, so every game gets the environments from this code).

An action index is ``offset of its decision kind + the state machine's own action code`` (the module's
``ACTIONS``); the mask is ``int8``, 1 at the legal indexes of the decision at hand. The observation is the seat's
view (``state.observe``: the other hands blank) encoded field by field (the module's ``fields``), bit k of the
vector being ``np.unpackbits(obs, bitorder="little")[k]``.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from cardsim.games import GAMES, Game, generic, get_game
from cardsim.options import RuleSettings
from cardsim.validation import checked


@njit(cache=True)
def view_encoded(s: Any, p: Any, seat: int, out: np.ndarray) -> None:
    """``out`` (uint8[bytes]) = ``seat``'s view of ``s`` encoded: the game's ``observe``, then its ``encode``
    (``cardsim.games.generic``: one call from Python for both)."""
    generic.encode(generic.observe(s, p, seat), p, seat, out)


@njit(cache=True)
def play_index(s: Any, p: Any, index: int, mask: np.ndarray) -> int:
    """Action ``index`` taken if ``mask[index]`` (int8[actions], the decision's) and the state machine takes it:
    then ``mask`` is the next decision's and the seat to move is returned (-1: over); else -2 and nothing changed."""
    code = generic.action_code(s, index)
    if code < 0 or mask[index] == 0 or not generic.apply(s, p, code):
        return -2
    generic.legal_mask(s, p, mask)
    return generic.to_move(s)


def encoding_module(game: Game) -> ModuleType:
    """The encoding module of ``game``'s state machine (``cardsim/games/<game>/encoding.py``)."""
    return importlib.import_module(f"{GAMES[game.name]}.encoding")


class Encoding:
    """One game under one rule set: its spaces' sizes, and a round's observation, mask and action codes."""

    def __init__(self, game: Game, rules: Any):
        self.game, self.rules = game, rules
        self.module = encoding_module(game)
        self.params = game.params(rules)
        self.players = game.seats(rules)
        self.actions = int(self.module.ACTION_COUNT)  # the Discrete space's size
        self.bits = int(self.module.obs_bits(self.players))
        self.bytes = (self.bits + 7) // 8

    def fields(self) -> list[NamedTuple]:
        """The observation's fields: name, first bit, bits, what it holds."""
        return list(self.module.fields(self.players))

    def observe(self, state: Any, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """uint8[bytes]: ``seat``'s view of ``state``, encoded (from ``state.observe`` only)."""
        out = np.zeros(self.bytes, np.uint8) if out is None else out
        view_encoded(state, self.params, seat, out)
        return out

    def play(self, state: Any, index: int, mask: np.ndarray) -> int:
        """Take action ``index`` if ``mask`` (the decision's, ``mask``'s) allows it and the state machine takes it:
        ``mask`` becomes the next decision's and the seat to move is returned (-1: the round is over); -2: refused,
        nothing changed."""
        if not 0 <= index < self.actions:
            return -2
        return int(play_index(state, self.params, index, mask))

    def mask(self, state: Any, out: np.ndarray | None = None) -> np.ndarray:
        """int8[actions]: 1 at the legal action indexes of the decision at hand (all 0 once the round is over)."""
        out = np.zeros(self.actions, np.int8) if out is None else out
        self.module.legal_mask(state, self.params, out)
        return out

    def code(self, state: Any, index: int) -> int:
        """The state machine's action code of ``index``, or -1 if it is no action of the decision at hand."""
        if not 0 <= index < self.actions:
            return -1
        return int(self.module.action_code(state, index))


@checked
def encoding(game: str, *, players: int | None = None, rules: RuleSettings = None) -> Encoding:
    """The encoding of ``game`` under ``rules`` (``players`` where the game allows a choice)."""
    front = get_game(game)
    return Encoding(front, front.make_rules(rules, players))


def field_table(enc: Encoding) -> str:
    """The observation's fields as a Markdown table (docs/rl.md holds one per game, checked by the tests)."""
    rows = [f"| `{f.name}` | {f.start} | {f.bits} | {f.doc} |" for f in enc.fields()]
    head = f"{enc.bits} bits, {enc.bytes} bytes ({enc.players} players); {enc.actions} actions\n\n"
    return head + "| field | first bit | bits | what |\n| --- | --- | --- | --- |\n" + "\n".join(rows)
