"""The loops every game's kernels share, written once over the state machine's functions by name.

A game registers its state machine (``register``: its ``State`` class, and ``observe``, ``bot_stream``, ``check``,
``to_move``, ``apply`` of its ``state.py`` with its built-in bots' ``act``, from its ``play.py``; ``deal``,
``decision``, ``legal_cards``, ``legal_actions``, ``scores`` and its encoding's ``encode``, ``legal_mask`` and
``action_code``, from its ``encoding.py``); the stubs below then stand for them in compiled code: numba resolves
each call, at compile time, by the class of the ``State`` it is given (an ``overload``), so ``ask`` and
``run_checked`` are one function each, compiled once per game as direct calls (the same machine code as a copy per
game would give), and cached like any kernel; so is a batched environment's kernel over ``deal``, ``to_move``,
``apply``, ``observe``, ``encode`` and ``legal_mask``.

- ``ask``: a strong or numba bot's decision at its seat, from the seat's view and private stream.
- ``run_checked``: ``--check`` with a strong or numba bot, one decision at a time, the invariants before every step.
- ``legal_mask_of``: a game's action mask (``cardsim.encoding``) from its state machine's legal actions.
"""

from __future__ import annotations

from functools import cache
from types import FunctionType
from typing import Any

import numpy as np
from numba import njit, types
from numba.extending import overload

from cardsim.encoding import CARDS, FIRST, MAX_CODES, clear, kind_of, mask_cards, mask_codes, stack_codes
from cardsim.errors import BotFailure
from cardsim.lineup import FIRST_STRONG
from cardsim.numba_bots import USER_BOT, ask_strong

_FUNCTIONS: dict[tuple[str, type], Any] = {}  # (name, State class) -> the game's compiled function


def register(state_class: type, **functions: Any) -> None:
    """The state machine of the game whose rounds are ``state_class`` (``observe``, ``bot_stream``, ``check``,
    ``to_move``, ``apply``, and its built-in bots' ``act``: by the game's driver module, its ``play.py``; ``deal``,
    ``decision``, ``legal_cards``, ``legal_actions``, ``scores``, ``encode``, ``legal_mask``, ``action_code``: by
    its ``encoding.py``), for the stubs below."""
    for name, function in functions.items():
        _FUNCTIONS[name, state_class] = function


def _of(name: str, s: Any) -> Any:
    """The registered function ``name`` of the game of state type ``s``, or None (numba then tries no other)."""
    if isinstance(s, types.BaseNamedTuple):
        return _FUNCTIONS.get((name, s.instance_class))
    return None


@cache
def _inlined(function: Any) -> FunctionType:
    """The Python function of the compiled ``function``, as an overload's implementation that numba inlines where it
    is called (``inline="always"``): a batched environment's step calls ``encode`` and ``legal_actions`` once per
    table and agent step, and a call passes every array of a State by value. Its annotations are left off: numba
    compares the implementation's signature with the stub's, annotations included."""
    py = function.py_func
    return FunctionType(py.__code__, py.__globals__, py.__name__, py.__defaults__, py.__closure__)


# --- the state machine by name (each game's ``state.py``; ``act``: its ``bots/<game>.py``) --------------------


def observe(s: Any, p: Any, seat: int) -> Any:
    """The seat's honest view, as a State."""


def observe_into(s: Any, p: Any, seat: int, v: Any) -> None:
    """The seat's honest view written into the State ``v`` (``observe`` without allocating)."""


def bot_stream(s: Any, seat: int) -> np.ndarray:
    """The seat's private stream, uint64[1, 4]."""


def check(s: Any, p: Any) -> int:
    """0, or 1 + the index of the first invariant the round breaks."""


def to_move(s: Any) -> int:
    """The seat to act, -1 when the round is over."""


def apply(s: Any, p: Any, action: int) -> bool:
    """The seat to act takes ``action``; False (and nothing changed) if illegal."""


def act(bot: int, s: Any, p: Any, seat: int) -> int:
    """What the built-in bot ``bot`` does at ``seat``, drawing from the seat's shared stream."""


def deal(s: Any, p: Any, seed: np.uint64, unit: int, sub: int, dealer: int) -> None:
    """Seed round (seed, unit, sub)'s streams and deal it (``dealer`` < 0: drawn); the first decision is next."""


def decision(s: Any) -> int:
    """The decision code (``cardsim.decisions``) of the seat to act, DONE when the round is over."""


def legal_cards(s: Any, p: Any) -> np.uint64:
    """The cards the seat to act may choose (a mask; 0 unless its action codes are card indexes)."""


def legal_actions(s: Any, p: Any, out: np.ndarray) -> int:
    """The legal action codes into ``out``; how many."""


def scores(s: Any, p: Any, out: np.ndarray) -> None:
    """A finished round's scores per seat into ``out`` (int64[players])."""


def encode(view: Any, p: Any, seat: int, out: np.ndarray) -> int:
    """``seat``'s view (``observe``) as the game's bit-packed observation in ``out`` (uint8); its length in bits."""


def legal_mask(s: Any, p: Any, out: np.ndarray) -> None:
    """``out`` (int8[ACTION_COUNT]) 1 at the legal action indexes of the decision at hand, else 0."""


def action_code(s: Any, index: int) -> int:
    """The state machine's code of action ``index`` if it is of the decision at hand, else -1."""


@overload(observe)
def _observe(s, p, seat):
    function = _of("observe", s)
    if function is not None:
        return lambda s, p, seat: function(s, p, seat)


@overload(observe_into, inline="always")
def _observe_into(s, p, seat, v):
    function = _of("observe_into", s)
    if function is not None:
        return _inlined(function)


@overload(bot_stream)
def _bot_stream(s, seat):
    function = _of("bot_stream", s)
    if function is not None:
        return lambda s, seat: function(s, seat)


@overload(check)
def _check(s, p):
    function = _of("check", s)
    if function is not None:
        return lambda s, p: function(s, p)


@overload(to_move)
def _to_move(s):
    function = _of("to_move", s)
    if function is not None:
        return lambda s: function(s)


@overload(apply)
def _apply(s, p, action):
    function = _of("apply", s)
    if function is not None:
        return lambda s, p, action: function(s, p, action)


@overload(act)
def _act(bot, s, p, seat):
    function = _of("act", s)
    if function is not None:
        return lambda bot, s, p, seat: function(bot, s, p, seat)


@overload(deal)
def _deal(s, p, seed, unit, sub, dealer):
    function = _of("deal", s)
    if function is not None:
        return lambda s, p, seed, unit, sub, dealer: function(s, p, seed, unit, sub, dealer)


@overload(decision)
def _decision(s):
    function = _of("decision", s)
    if function is not None:
        return lambda s: function(s)


@overload(legal_cards)
def _legal_cards(s, p):
    function = _of("legal_cards", s)
    if function is not None:
        return lambda s, p: function(s, p)


@overload(legal_actions, inline="always")
def _legal_actions(s, p, out):
    function = _of("legal_actions", s)
    if function is not None:
        return _inlined(function)


@overload(scores)
def _scores(s, p, out):
    function = _of("scores", s)
    if function is not None:
        return lambda s, p, out: function(s, p, out)


@overload(encode, inline="always")
def _encode(view, p, seat, out):
    function = _of("encode", view)
    if function is not None:
        return _inlined(function)


@overload(legal_mask)
def _legal_mask(s, p, out):
    function = _of("legal_mask", s)
    if function is not None:
        return lambda s, p, out: function(s, p, out)


@overload(action_code)
def _action_code(s, index):
    function = _of("action_code", s)
    if function is not None:
        return lambda s, index: function(s, index)


# --- the loops ------------------------------------------------------------------------------------------------


@njit(cache=True)
def ask(s: Any, p: Any, row: np.ndarray, seat: int, strong_bots: Any, users: tuple | None) -> int:
    """The action of the strong or numba bot of table row ``row`` at ``seat`` (the seat to move). ``strong_bots``
    is None (numba then compiles no strong bot) or the game's strong bots' entry ``bots.<game>_strong.act`` and
    their tools as first-class functions (``numba_bots.strong_bots``, ``Game.strong_function``); ``users`` is
    None or the lineup's numba bots (``Lineup.functions``), each asked with the seat's view and private stream
    (``cardsim.numba_bots``)."""
    if users is not None and row[0] == USER_BOT:
        return users[int(row[1])](observe(s, p, seat), p, np.int64(seat), bot_stream(s, seat))
    if strong_bots is not None:
        return ask_strong(strong_bots, row, s, p, np.int64(seat))
    return -1  # no bot of either kind: not reached


@njit(cache=True)
def run_checked(s: Any, p: Any, bots: np.ndarray, strong_bots: Any, users: tuple | None) -> int:
    """The bots of ``bots`` (float64[players, settings + 1], row[0] the bot id) play the round one decision at a
    time, with the same draws as the fast loops, and the round's invariants checked before every step and at the
    end (``state.check``, ``--check``); returns the steps taken. An illegal action or a broken invariant raises
    ``BotFailure`` (``Game.run`` then replays the round to name it)."""
    steps = 0
    while True:
        if check(s, p):
            raise BotFailure("a round broke an invariant (--check)")
        seat = to_move(s)
        if seat < 0:
            return steps
        row = bots[seat]
        action = ask(s, p, row, seat, strong_bots, users) if row[0] >= FIRST_STRONG else act(int(row[0]), s, p, seat)
        if not apply(s, p, action):
            raise BotFailure("a bot chose an illegal action (RULES D2)")
        steps += 1


@njit(cache=True, inline="always")
def legal_mask_of(s: Any, p: Any, out: np.ndarray, table: np.ndarray) -> None:
    """A game's ``legal_mask``: ``out`` (int8[ACTION_COUNT]) 1 at the index of each legal action of the decision at
    hand (its kind's first index in ``table``, the game's ``cardsim.encoding.action_table``, plus the code), all 0
    when the round is over. The state machine says what is legal: ``legal_cards`` where the codes are card indexes
    (a mask, no list), else ``legal_actions`` into scratch room on the stack (no allocation, so that
    the mask compiles without reference counts)."""
    clear(out)
    i = kind_of(table, decision(s))
    if i < 0:
        return
    if table[i, CARDS]:
        mask_cards(out, table[i, FIRST], legal_cards(s, p))
    else:
        codes = stack_codes(MAX_CODES)
        mask_codes(out, table[i, FIRST], codes, legal_actions(s, p, codes))


@njit(cache=True, inline="always")
def round_dealer(first: int, r: int, players: int) -> int:
    """The dealer of a game's round ``r``: -1 for the first (the deal draws it), then the seat after the first
    round's dealer ``first``, round after round (Differenzler's First Hand, A11; Wizard B2; call-partner C3)."""
    return -1 if r == 0 else (first + r) % players
