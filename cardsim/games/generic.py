"""The loops every game's kernels share, written once over the state machine's functions by name.

A game registers its state machine (``register``: its ``State`` class, and ``observe``, ``bot_stream``, ``check``,
``to_move``, ``apply`` of its ``state.py`` with its built-in bots' ``act``); the stubs below then stand for them in
compiled code: numba resolves each call, at compile time, by the class of the ``State`` it is given (an
``overload``), so ``ask`` and ``run_checked`` are one function each, compiled once per game as direct calls (the
same machine code as a copy per game would give), and cached like any kernel.

- ``ask``: a strong or numba bot's decision at its seat, from the seat's view and private stream.
- ``run_checked``: ``--check`` with a strong or numba bot, one decision at a time, the invariants before every step.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, types
from numba.extending import overload

from cardsim.errors import BotFailure
from cardsim.lineup import FIRST_STRONG
from cardsim.numba_bots import USER_BOT, ask_strong

_FUNCTIONS: dict[tuple[str, type], Any] = {}  # (name, State class) -> the game's compiled function


def register(state_class: type, **functions: Any) -> None:
    """The state machine of the game whose rounds are ``state_class`` (``observe``, ``bot_stream``, ``check``,
    ``to_move``, ``apply``, and its built-in bots' ``act``), for the stubs below; called once by the game's
    driver module (its ``play.py``)."""
    for name, function in functions.items():
        _FUNCTIONS[name, state_class] = function


def _of(name: str, s: Any) -> Any:
    """The registered function ``name`` of the game of state type ``s``, or None (numba then tries no other)."""
    if isinstance(s, types.BaseNamedTuple):
        return _FUNCTIONS.get((name, s.instance_class))
    return None


# --- the state machine by name (each game's ``state.py``; ``act``: its ``bots/<game>.py``) --------------------


def observe(s: Any, p: Any, seat: int) -> Any:
    """The seat's honest view, as a State."""


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


@overload(observe)
def _observe(s, p, seat):
    function = _of("observe", s)
    if function is not None:
        return lambda s, p, seat: function(s, p, seat)


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
def round_dealer(first: int, r: int, players: int) -> int:
    """The dealer of a game's round ``r``: -1 for the first (the deal draws it), then the seat after the first
    round's dealer ``first``, round after round (Differenzler's First Hand, A11; Wizard B2; call-partner C3)."""
    return -1 if r == 0 else (first + r) % players
