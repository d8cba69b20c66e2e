"""A compiled batched environment (issue 42, item 4): ``BatchEnv(game, n)`` steps ``n`` independent tables of any game
with one numba kernel, numpy arrays in and out; ``BatchVectorEnv`` (``BatchEnv.as_vector_env()``) is the same as a
``gymnasium.vector.VectorEnv`` for one agent seat.

>>> env = BatchEnv("wizard", n=4096, players=4, rules={"cards": 15})
>>> obs, mask, to_move = env.reset()
>>> obs, mask, to_move, rewards, done = env.step(env.sample_legal())

**The kernel.** Each table is one round of the game's state machine, a ``State`` whose arrays are row ``i`` of
arrays stacked once for all tables (``stack``: a State whose arrays have the tables as their first axis). One
kernel (``_step``, ``prange`` over blocks of tables) is written over the state machine's functions by name
(``cardsim.games.generic``: ``deal``, ``to_move``, ``decision``, ``apply``, ``act``, ``scores``,
``legal_actions``, ``observe_into``, ``encode``, ``action_code``), so every game of the registry gets it from this
code.
Per table (``_table``) it applies the agent's action, lets the bots of the other seats play on (a built-in bot
through ``act``, a strong one through ``ask``) until an agent's seat is to move, scores a finished round and deals
the table's next one in the same step, and writes the mover's mask and honest observation straight into the
output rows. ``_table`` counts no references (``_nrt=False``, DESIGN.md "Fast loops"; the stacked layout makes its
State views without any): its own work, all but the observation, took 153 ns a table against 567 ns for the same
code over a typed List of States with reference counts (Wizard, 15 cards, one thread). What it calls directly is
compiled into it the same way (numba passes the flag on), so what allocates runs in functions called through their
address, with reference counts of their own (else nothing they allocate would be freed): once a round, ``_renew``
(``scores``, ``deal``, and the final observation through ``observe``). The step's view is written into a State kept
per thread (``observe_into``, which allocates nothing; the same few cache lines for every table, ``VIEW_SPACING``
rows apart so that two threads never write one line: 2 threads ran 1.1x one before), then encoded into
the output row: ``observe`` allocating a new State at every step had been ~700 of a step's ~900 ns. ``observe_into``,
``encode`` and ``legal_actions`` are inlined where they are called (``cardsim.games.generic``; the view's two in
``_observe``, where the view is an argument), and the kernels are called through their compiled entry points
(``cardsim.jit.entry``; the dispatcher typed the stacked States at every call, ~65 microseconds).

**Rounds and seeds.** Table ``i``'s ``k``-th round (``k`` = 0, 1, ...: every round dealt to it since the seed was
set, whether finished or left unfinished by a ``reset()``) is ``new_round(game, seed=seed, round=i + k * n)``: the
same deal, the same bots' draws (each seat's own stream) and so, for the same actions, the same scores.
``env.round(i)`` rebuilds table ``i``'s last finished round as a ``Round`` from that deal and the actions the table
took (every seat's, kept as codes). ``sample_legal()`` draws a uniformly random legal action per table (the r-th
legal index in the order of the state machine's ``legal_actions``, increasing in every game, r by Lemire's method,
``cardsim.rng.below``) from stream ``SAMPLE_STREAM`` of the
round key (seed, table, step), ``step`` counting the ``step()`` calls since ``reset()``: the same seed and step give
the same draws, and no round's stream (0 .. seats) is ever one of them.
"""

from __future__ import annotations

import dataclasses
import importlib
from functools import cache
from typing import Any, NamedTuple

import numba
import numpy as np
from numba import njit, prange, types
from numba.extending import overload

from cardsim.decisions import DECISIONS, DONE
from cardsim.encoding import FIRST, SIZE, action_table, clear, kind_of, mask_codes
from cardsim.envs.spaces import Encoding
from cardsim.errors import BotFailure, CardsimError, bot_failure
from cardsim.games import Game, get_game
from cardsim.games.generic import (
    act,
    action_code,
    apply,
    ask,
    deal,
    decision,
    encode,
    legal_actions,
    observe,
    observe_into,
    scores,
    to_move,
)
from cardsim.jit.entry import entry
from cardsim.lineup import FIRST_STRONG
from cardsim.numba_bots import first_class, raised
from cardsim.options import RuleSettings
from cardsim.rng import GOLDEN_GAMMA, below, check_seed, round_key, splitmix64

ROUND_STEPS = 256  # the most actions of a round a table keeps (every game's rounds take far fewer)
SAMPLE_STREAM = 1 << 16  # sample_legal's stream of the round key (seed, table, step): beyond every round's streams
MAX_TABLES = 1 << 24
TABLES = 32  # tables a work item of ``_step`` steps
VIEW_SPACING = 8  # a thread's view State is row thread * 8 of the stacked views: two threads never write one cache line
# The columns of the tables' book (int64[n, BOOK]): the current round's number k at the table, its actions so far
# and their slot (0 or 1) in ``codes``; the last finished round's index (-1: none yet) and its number of actions;
# the seat to move and the number of its legal actions (``legal``: what ``step`` allows, sample_legal's range).
ROUND, LENGTH, SLOT, LAST_ROUND, LAST_LENGTH, MOVER, COUNT, BOOK = range(8)


class Buffers(NamedTuple):
    """The kernel's arrays: what it writes for the caller, and what it keeps of each table."""

    obs: np.ndarray  # uint8[n, bytes]: the honest observation of the seat to move
    mask: np.ndarray  # int8[n, actions]: its legal action indexes
    to_move: np.ndarray  # int64[n]: that seat (an agent's)
    rewards: np.ndarray  # float32[n, players]: the scores of a round finished in this step (a penalty negated)
    done: np.ndarray  # bool[n]: a round finished in this step
    book: np.ndarray  # int64[n, BOOK]: see ROUND ..
    codes: np.ndarray  # int16[n, 2, ROUND_STEPS]: the action codes of the current and the last round, by SLOT
    scores: np.ndarray  # int64[n, players]: the last finished round's scores, as the game counts them
    final_obs: np.ndarray  # uint8[n, bytes]: seat ``final``'s observation as its round finished (the vector env)
    legal: np.ndarray  # int16[n, widest kind]: the legal action indexes of the seat to move, COUNT of them


# --- the kernel -----------------------------------------------------------------------------------------------


def row_of(stack: Any, i: int) -> Any:
    """Table ``i``'s State: views of row ``i`` of each array of ``stack`` (a State whose arrays have the tables as
    their first axis)."""


@cache
def _row_builder(cls: type) -> Any:
    """``row_of`` for the State class ``cls``: ``cls(stack[0][i], stack[1][i], ...)`` over its fields."""
    scope: dict[str, Any] = {"State": cls}
    fields = ", ".join(f"stack[{k}][i]" for k in range(len(cls._fields)))
    exec(f"def row(stack, i):\n    return State({fields})\n", scope)  # a NamedTuple's fields, nothing from outside
    return scope["row"]


@overload(row_of)  # not inline="always": numba then lost stores into the views made in the same function
def _row_of(stack, i):
    if isinstance(stack, types.BaseNamedTuple):
        return _row_builder(stack.instance_class)


@njit(cache=True, inline="always")
def _record(book: np.ndarray, codes: np.ndarray, i: int, code: int) -> None:
    """Keep action ``code`` of table ``i``'s current round."""
    length = book[i, LENGTH]
    if length < ROUND_STEPS:
        codes[i, book[i, SLOT], length] = code
    book[i, LENGTH] = length + 1


@njit(cache=True, inline="always")
def _deal(s: Any, p: Any, i: int, n: int, seed: np.uint64, book: np.ndarray, renew: Any, done: bool, final: int,
          scores_out: np.ndarray, final_out: np.ndarray) -> None:  # fmt: skip
    """Deal table ``i`` its next round, number ``k = book[i, ROUND] + 1`` at the table: round ``i + k * n``
    (``renew``; ``done``: the round before it is finished, its scores and seat ``final``'s observation first)."""
    k = book[i, ROUND] + 1
    book[i, ROUND], book[i, LENGTH] = k, 0
    renew(s, p, seed, i + k * n, done, final, scores_out, final_out)


@njit(cache=True)
def _renew(s: Any, p: Any, seed: np.uint64, unit: int, done: bool, final: int, scores_out: np.ndarray,
           final_out: np.ndarray) -> None:  # fmt: skip
    """A finished round's scores (``done``) and seat ``final``'s observation of it (``final`` >= 0) into the rows
    ``scores_out`` and ``final_out``, then round ``unit`` of ``seed`` dealt into ``s``. What happens once a round:
    ``_table`` calls it through its address, so a game whose ``scores``, ``observe`` or ``deal`` allocates or counts
    references is served too (see the module docstring)."""
    if done:
        scores(s, p, scores_out)
        if final >= 0:
            encode(observe(s, p, final), p, final, final_out)
    deal(s, p, seed, unit, 0, -1)


@njit(cache=True, inline="always")
def _mask(s: Any, p: Any, table: np.ndarray, legal: np.ndarray, out: np.ndarray) -> int:
    """The game's ``legal_mask`` and the legal indexes as a list, which ``sample_legal`` draws from: ``out``
    (int8[actions]) 1 at the index of each of the state machine's ``legal_actions`` (its kind's first index in
    ``table``, the encoding's ``action_table``, plus the code), all 0 when the round is over; ``legal`` (as wide as
    the widest kind) those indexes in the order of ``legal_actions``. Returns how many."""
    clear(out)
    kind = kind_of(table, decision(s))
    if kind < 0:
        return 0
    n = legal_actions(s, p, legal)
    first = table[kind, FIRST]
    mask_codes(out, first, legal, n)
    for j in range(n):
        legal[j] += first
    return n


@njit(cache=True, _nrt=False)
def _observe(s: Any, p: Any, seat: int, v: Any, out: np.ndarray) -> None:
    """``seat``'s view written into the State ``v`` (``observe_into``) and encoded into ``out``, both inlined here.
    A function of its own: inlined into ``_table``, where ``v`` is made, the view's stores were lost."""
    observe_into(s, p, seat, v)
    encode(v, p, seat, out)


class Setup(NamedTuple):
    """What every table's step reads besides its state and the strong bots: the seats' bots (``bots``,
    float64[players, settings]), which seats are agents (``agents``: a bit per seat) and which decisions they take
    (``kinds``: a bit per decision code; the seat's bot in ``bots`` takes the others), the rewards' sign (-1 for a
    penalty), the seat whose observation as a round finishes goes to ``final_obs`` (``final``, -1: none), the game's
    action table (``cardsim.encoding.action_table``), and the two functions called through their address
    (``renew``: ``_renew``)."""

    bots: np.ndarray
    agents: int
    kinds: int
    sign: float
    final: int
    table: np.ndarray
    renew: Any


@njit(cache=True, _nrt=False)
def _table(stack: Any, views: Any, p: Any, i: int, action: int, seed: np.uint64, strong_bots: Any, setup: Setup,
           buf: Buffers) -> None:  # fmt: skip
    """Table ``i``'s step: the agent's ``action`` (an index, checked legal by the caller; -1: deal the table its next
    round instead, as ``reset`` does), the bots' moves until an agent's seat is to move, a finished round scored
    into the rewards and the next one dealt, then the mover's mask and observation (``Setup``), its view written
    into the row of ``views`` of the thread running it (a State per thread, stacked as ``stack``) so that no step
    allocates. Counts no references (see the module docstring)."""
    bots, agents, kinds, sign, final, table, renew = setup
    s = row_of(stack, i)
    n, players = buf.done.shape[0], buf.rewards.shape[1]
    book, codes = buf.book, buf.codes
    for k in range(players):
        buf.rewards[i, k] = 0.0
    buf.done[i] = False
    if action < 0:
        _deal(s, p, i, n, seed, book, renew, False, -1, buf.scores[i], buf.final_obs[i])
    else:
        code = action_code(s, action)
        if not apply(s, p, code):
            raise BotFailure("an action the mask allowed was refused (a bug in cardsim: please report it)")
        _record(book, codes, i, code)
    while True:
        seat = to_move(s)
        if seat < 0:
            book[i, LAST_ROUND], book[i, LAST_LENGTH] = i + book[i, ROUND] * n, book[i, LENGTH]
            book[i, SLOT] ^= 1
            _deal(s, p, i, n, seed, book, renew, True, final, buf.scores[i], buf.final_obs[i])
            for k in range(players):
                buf.rewards[i, k] += sign * buf.scores[i, k]
            buf.done[i] = True
            continue
        if (agents >> seat) & 1 and (kinds >> decision(s)) & 1:
            break
        row = bots[seat]
        if strong_bots is not None and row[0] >= FIRST_STRONG:
            code = ask(s, p, row, seat, strong_bots, None)
        else:
            code = act(int(row[0]), s, p, seat)
        if not apply(s, p, code):
            raise BotFailure("a bot chose an illegal action (RULES D2)")
        _record(book, codes, i, code)
    buf.to_move[i], book[i, MOVER] = seat, seat
    book[i, COUNT] = _mask(s, p, table, buf.legal[i], buf.mask[i])
    _observe(s, p, seat, row_of(views, numba.get_thread_id() * VIEW_SPACING), buf.obs[i])


@njit(parallel=True, nogil=True, cache=True)
def _step(stack: Any, views: Any, p: Any, actions: np.ndarray, seed: np.uint64, strong_bots: Any, setup: Setup,
          buf: Buffers) -> None:  # fmt: skip
    """Every table's step in parallel, ``TABLES`` tables a work item (``_tables``; ``actions`` -1: deal the table
    its next round)."""
    n = actions.shape[0]
    for block in prange((n + TABLES - 1) // TABLES):
        span = (np.int64(block * TABLES), min(n, (block + 1) * TABLES))
        _tables(stack, views, p, span, actions, seed, strong_bots, setup, buf)


@njit(cache=True, _nrt=False)
def _tables(stack: Any, views: Any, p: Any, span: tuple, actions: np.ndarray, seed: np.uint64, strong_bots: Any,
            setup: Setup, buf: Buffers) -> None:  # fmt: skip
    """The steps of tables ``span`` (first, end) (``_table``): a call of the parallel loop's body counts a reference
    to each array it passes on (atomic updates), so it passes them once for ``TABLES`` tables, not once a table
    (agent steps 1.01-1.04x, and a cold compile 1 s shorter; docs/performance.md)."""
    for i in range(*span):
        _table(stack, views, p, i, actions[i], seed, strong_bots, setup, buf)


@njit(cache=True)
def _first_illegal(actions: np.ndarray, legal: np.ndarray, book: np.ndarray) -> int:
    """The first table whose action is not one of its legal indexes (``legal``, ``book[i, COUNT]`` of them; the
    environment's own record, whatever the caller does with the mask it was given), -1 if none."""
    for i in range(actions.shape[0]):
        a, found = actions[i], False
        for j in range(book[i, COUNT]):
            if legal[i, j] == a:
                found = True
                break
        if not found:
            return i
    return -1


@njit(parallel=True, nogil=True, cache=True)
def _sample(book: np.ndarray, legal: np.ndarray, seed: np.uint64, step: int, streams: np.ndarray,
            out: np.ndarray) -> None:  # fmt: skip
    """``out[i]``: table ``i``'s legal index number r (``legal[i]``, ``book[i, COUNT]`` of them), r drawn by
    ``below`` from stream ``SAMPLE_STREAM`` of round key (seed, i, step) (seeded as ``cardsim.rng.seed_streams``
    seeds a round's streams); -1 where nothing is legal."""
    for i in prange(book.shape[0]):
        key = round_key(seed, np.int64(i), step)
        for w in range(4):
            streams[i, w] = splitmix64(key + np.uint64(4 * SAMPLE_STREAM + w) * GOLDEN_GAMMA)
        count = book[i, COUNT]
        out[i] = legal[i, below(streams, i, np.uint64(count))] if count > 0 else -1


# --- the environment ------------------------------------------------------------------------------------------


def _stacked(state: Any, n: int) -> Any:
    """``n`` copies of ``state`` as one State whose arrays have the tables as their first axis: new, writable and
    C-contiguous whatever ``n`` (numba then compiles for the "C" layout; ``np.ascontiguousarray`` had returned the
    read-only broadcast itself for n=1, and ``np.array`` alone keeps a broadcast's strides, the "A" layout, 2x
    slower)."""
    return type(state)(*(np.array(np.broadcast_to(a, (n, *a.shape)), order="C") for a in state))


def _count(value: Any, what: str, low: int, high: int) -> int:
    """``value`` as an int if it is one from ``low`` to ``high``, else a CardsimError naming what is allowed."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not low <= value <= high:
        raise CardsimError(f"{what}={value!r} is not allowed: an int from {low} to {high}")
    return int(value)


def _agents(agents: Any, players: int) -> list[int]:
    """The seats the caller plays, checked: None (every seat), a seat, or a list of distinct seats."""
    if agents is None:
        return list(range(players))
    single = isinstance(agents, (int, np.integer)) and not isinstance(agents, bool)
    seats = [agents] if single else list(agents) if isinstance(agents, (list, tuple, range, np.ndarray)) else [None]
    valid = all(isinstance(a, (int, np.integer)) and not isinstance(a, bool) and 0 <= a < players for a in seats)
    if not seats or not valid or len(set(seats)) != len(seats):
        raise CardsimError(f"agents={agents!r} is not allowed: the seats the caller plays, distinct seats 0 to "
                           f"{players - 1} (an int or a list; None: every seat)")  # fmt: skip
    return sorted(int(a) for a in seats)


class BatchEnv:
    """``n`` tables of ``game`` stepped together by one compiled kernel (see the module docstring).

    ``agents``: the seats the caller plays (None: every seat, self-play; a seat, or a list of seats). The other
    seats are played by ``opponents``, built-in bots inside the kernel: one name for all of them or one per other
    seat in seat order, settings allowed (``"heuristic"``, ``"random,heuristic:...,rulebased"``). ``decisions``: the
    decisions the agents take, a name or a list (``"bid"``; None: all of them), the others played at their seats by
    the built-in bot ``assist`` inside the kernel (a bidder learning with the card play left to the heuristic; a
    step's rewards then add up every round finished in it). ``seed``: the
    rounds' seed (``reset(seed=...)`` sets another); ``threads``: the kernels' numba threads (None: numba's
    setting); ``copy``: the arrays returned are fresh, the caller's to keep (the kernel writes new arrays at every call;
    False: read-only views of the environment's own, overwritten by the next call).

    ``reset() -> (obs, mask, to_move)`` and ``step(actions) -> (obs, mask, to_move, rewards, done)``, a row per
    table: ``obs`` uint8[n, bytes], the honest observation of the seat to move (``encoding.observe``, bit-packed:
    ``cardsim.envs.spaces``); ``mask`` int8[n, actions], its legal action indexes; ``to_move`` int64[n], that seat
    (always an agent's); ``rewards`` float32[n, players], every seat's score of a round the table finished in this
    step (a penalty, Differenzler's, negated; 0 elsewhere); ``done`` bool[n], whether it finished one, in which case
    ``obs``, ``mask`` and ``to_move`` are already of the table's next round.
    """

    def __init__(self, game: str | Game, n: int = 4096, players: int | None = None, rules: RuleSettings = None,
                 agents: int | list[int] | None = None, opponents: str | list[str] = "heuristic", seed: int = 0,
                 threads: int | None = None, copy: bool = True, decisions: str | list[str] | None = None,
                 assist: str = "heuristic") -> None:  # fmt: skip
        front = game if isinstance(game, Game) else get_game(game)
        self.n = _count(n, "n", 1, MAX_TABLES)
        self.rules = front.make_rules(rules, players)
        front.check_units(self.rules, False)
        self.game, self.seed = front, check_seed(seed)
        if threads is not None:
            threads = _count(threads, "threads", 1, numba.config.NUMBA_NUM_THREADS)
        if not isinstance(copy, bool):
            raise CardsimError(f"copy={copy!r} is not allowed: True or False")
        self.threads, self.copy = threads, copy
        self.players = front.seats(self.rules)
        self.agents = _agents(agents, self.players)
        self.opponents = [seat for seat in range(self.players) if seat not in self.agents]
        self.encoding = Encoding(front, self.rules)
        self._action_table = action_table(self.encoding.module.ACTIONS)
        self.decisions, self._kinds = self._decisions(decisions)
        self.lineup = self._lineup(opponents, assist if decisions is not None else None)
        self.params = front.params(self.rules)
        self.actions, self.bytes = self.encoding.actions, self.encoding.bytes
        self._bots = np.ascontiguousarray(self.lineup.table, np.float64)
        if decisions is None:
            self._bots[self.agents, 0] = -1.0  # asked nowhere: the kernel stops at an agent's seat
        self._strong = front.strong_function(self.rules, self._bots)
        self._agent_bits = sum(1 << seat for seat in self.agents)
        self._sign = -1.0 if front.lower_is_better else 1.0
        state = front.state_module.new_state(self.players)
        self._stack = _stacked(state, self.n)
        n, players, width = self.n, self.players, int(self._action_table[:, SIZE].max())
        self._buf = Buffers(np.zeros((n, self.bytes), np.uint8), np.zeros((n, self.actions), np.int8),
                            np.full(n, -1, np.int64), np.zeros((n, players), np.float32), np.zeros(n, np.bool_),
                            self._fresh_book(), np.zeros((n, 2, ROUND_STEPS), np.int16),
                            np.zeros((n, players), np.int64), np.zeros((n, self.bytes), np.uint8),
                            np.zeros((n, width), np.int16))  # fmt: skip
        row, p = numba.typeof(type(state)(*(a[0] for a in self._stack))), numba.typeof(self.params)
        obs, scores = numba.typeof(self._buf.obs[0]), numba.typeof(self._buf.scores[0])
        self._views = _stacked(state, numba.config.NUMBA_NUM_THREADS * VIEW_SPACING)
        self._renew = first_class(_renew, types.void(row, p, types.uint64, types.int64, types.boolean, types.int64,
                                                     scores, obs))  # fmt: skip
        self._streams = np.zeros((n, 4), np.uint64)
        self._final = -1  # the seat whose observation as a round finishes is kept (BatchVectorEnv: its agent)
        self._steps, self._ready = 0, False
        self._entries: dict[str, Any] = {}  # the kernels' compiled entry points (``_call``)

    def _decisions(self, decisions: Any) -> tuple[list[str], int]:
        """The decisions the agents take, checked (None: every decision of the game), and their bits by code."""
        codes = [int(kind) for kind in self._action_table[:, 0]]
        names = [DECISIONS[code] for code in codes]
        if decisions is None:
            return names, sum(1 << code for code in codes)
        given = [decisions] if isinstance(decisions, str) else decisions
        if not isinstance(given, (list, tuple)) or not given or any(d not in names for d in given):
            raise CardsimError(f"decisions={decisions!r} is not allowed: {self.game.name}'s decisions the agents take, "
                               f"a name or a list of names of {names} (None: all)")  # fmt: skip
        return [d for d in names if d in given], sum(1 << DECISIONS.index(d) for d in given)

    def _lineup(self, opponents: Any, assist: Any) -> Any:
        """The lineup: ``opponents`` at the other seats and ``assist`` (None: a placeholder) at the agents' seats,
        built-in bots only."""
        builtin = ", ".join(self.game.builtin_bots)
        allowed = (f"built-in bot names ({builtin}; settings as name:key=value), one for all the other seats or one "
                   "for each")  # fmt: skip
        if assist is not None and (not isinstance(assist, str) or assist.split(":")[0] not in self.game.builtin_bots):
            raise CardsimError(f"assist={assist!r} is not allowed: the built-in bot ({builtin}) that takes the agents' "
                               "other decisions")  # fmt: skip
        if isinstance(opponents, str):
            names = [name.strip() for name in opponents.split(",")]
        elif isinstance(opponents, (list, tuple)) and opponents and all(isinstance(o, str) for o in opponents):
            names = [name.strip() for name in opponents]
        else:
            raise CardsimError(f"opponents={opponents!r} is not allowed: {allowed}")
        for name in names:
            if name.split(":")[0] not in self.game.builtin_bots:
                raise CardsimError(f"opponent '{name}' is not allowed: BatchEnv's kernel plays {allowed}")
        if len(names) == 1:
            names *= max(len(self.opponents), 1)
        if self.opponents and len(names) != len(self.opponents):
            raise CardsimError(f"opponents: {len(names)} bots for the {len(self.opponents)} other seats "
                               f"{self.opponents}; give one for all or one for each")  # fmt: skip
        seated = dict(zip(self.opponents, names, strict=False))
        return self.game.lineup([seated.get(seat, assist or "random") for seat in range(self.players)], self.rules)

    def _fresh_book(self) -> np.ndarray:
        book = np.zeros((self.n, BOOK), np.int64)
        book[:, ROUND], book[:, LAST_ROUND] = -1, -1
        return book

    def _run(self, actions: np.ndarray) -> None:
        """The kernel over every table, on ``threads`` threads. A bot's failed decision (an illegal action, a strong
        bot's error: a bug in cardsim) leaves some tables stepped and others not, so the environment then needs a
        ``reset()``."""
        previous = numba.get_num_threads()
        if self.threads is not None:
            numba.set_num_threads(self.threads)
        if self.copy:  # the kernel writes fresh arrays, the caller's to keep
            b = self._buf
            self._buf = b._replace(obs=np.empty_like(b.obs), mask=np.empty_like(b.mask),
                                   to_move=np.empty_like(b.to_move), rewards=np.empty_like(b.rewards),
                                   done=np.empty_like(b.done))  # fmt: skip
        try:
            with raised(self._strong is not None):
                setup = Setup(self._bots, self._agent_bits, self._kinds, self._sign, self._final, self._action_table,
                              self._renew)  # fmt: skip
                self._call("step", _step, self._stack, self._views, self.params, actions, np.uint64(self.seed),
                           self._strong, setup, self._buf)  # fmt: skip
        except (BotFailure, SystemError) as exc:
            failure = bot_failure(exc)
            if failure is None:
                raise
            self._ready = False
            raise CardsimError(f"{self.game.name}: {failure} at one of the tables (a bug in cardsim: please report "
                               "it); call reset() to deal the tables again") from None  # fmt: skip
        finally:
            numba.set_num_threads(previous)

    def _call(self, name: str, kernel: Any, *args: Any) -> None:
        """``kernel(*args)``, after the first call through its compiled entry point (``cardsim.jit.entry``): the
        arguments' types are the environment's, the same at every call."""
        call = self._entries.get(name)
        if call is None:
            _, self._entries[name] = entry(kernel, *args)
        else:
            call(*args)

    def _out(self, *arrays: np.ndarray) -> tuple:
        """``arrays`` for the caller: with ``copy``, the fresh arrays the kernel wrote; else read-only views of the
        environment's own."""
        if self.copy:
            return arrays
        views = tuple(a.view() for a in arrays)
        for view in views:
            view.flags.writeable = False
        return views

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Deal every table its next round: from round 0 of ``seed`` on if given (and at the first reset), else each
        table's next round index (see the module docstring). Returns ``(obs, mask, to_move)``."""
        if seed is not None or not self._ready:
            self.seed = check_seed(self.seed if seed is None else seed)
            self._buf.book[:] = self._fresh_book()
        self._run(np.full(self.n, -1, np.int64))
        self._steps, self._ready = 0, True
        b = self._buf
        return self._out(b.obs, b.mask, b.to_move)

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Each table's seat to move takes its action, an index of its mask (int64[n]); returns ``(obs, mask,
        to_move, rewards, done)``. An action outside a table's mask raises ``CardsimError`` naming the first such
        table and its legal indexes, and no table changes."""
        if not self._ready:
            raise CardsimError("step() before reset(): call reset() first")
        if not isinstance(actions, np.ndarray) or actions.dtype != np.int64 or actions.shape != (self.n,):
            got = (f"an array of {actions.dtype} and shape {actions.shape}" if isinstance(actions, np.ndarray)
                   else f"a {type(actions).__name__}")  # fmt: skip
            raise CardsimError(f"actions must be a numpy array of int64 and shape ({self.n},), an action index per "
                               f"table, not {got}")  # fmt: skip
        b = self._buf
        bad = _first_illegal(actions, b.legal, b.book)
        if bad >= 0:
            legal, seat = sorted(b.legal[bad, : b.book[bad, COUNT]].tolist()), int(b.book[bad, MOVER])
            raise CardsimError(f"table {bad}: action {int(actions[bad])} is not legal for seat {seat}; legal: {legal} "
                               f"(row {bad} of the mask). No table moved")  # fmt: skip
        self._run(np.ascontiguousarray(actions))
        self._steps += 1
        b = self._buf
        return self._out(b.obs, b.mask, b.to_move, b.rewards, b.done)

    def sample_legal(self) -> np.ndarray:
        """int64[n]: a uniformly random legal action index per table, from the round key (seed, table, step) (see
        the module docstring): the same at the same step of the same seed, whatever the threads."""
        if not self._ready:
            raise CardsimError("sample_legal() before reset(): call reset() first")
        previous = numba.get_num_threads()
        if self.threads is not None:
            numba.set_num_threads(self.threads)
        out = np.empty(self.n, np.int64)
        try:
            self._call("sample", _sample, self._buf.book, self._buf.legal, np.uint64(self.seed), self._steps,
                       self._streams, out)  # fmt: skip
        finally:
            numba.set_num_threads(previous)
        return out

    def round_index(self, table: int, k: int) -> int:
        """The ``round=`` of ``new_round`` that deals table ``table``'s ``k``-th round: ``table + k * n``."""
        return _count(table, "table", 0, self.n - 1) + _count(k, "k", 0, (2**63 - 1 - self.n) // self.n) * self.n

    def round(self, table: int) -> Any:
        """Table ``table``'s last finished round as a ``Round``, over: ``new_round``'s deal of it, with every seat's
        actions played again."""
        # by name: Round is no kernel's code, and an import line would put round.py into every kernel's cache key
        new_round = importlib.import_module("cardsim.round").new_round  # (cardsim.jit.kernel_cache reads them)
        table = _count(table, "table", 0, self.n - 1)
        book = self._buf.book[table]
        if book[LAST_ROUND] < 0:
            raise CardsimError(f"table {table} has finished no round since reset(seed)")
        if book[LAST_LENGTH] > ROUND_STEPS:
            raise CardsimError(f"table {table}'s last round took {book[LAST_LENGTH]} actions; BatchEnv keeps "
                               f"{ROUND_STEPS} of a round")  # fmt: skip
        r = new_round(self.game, seed=self.seed, round=int(book[LAST_ROUND]), rules=dataclasses.asdict(self.rules))
        for code in self._buf.codes[table, book[SLOT] ^ 1, : book[LAST_LENGTH]].tolist():
            kind = int(self.game.kernel("decision", r.state))
            if kind == DONE:
                raise CardsimError(f"table {table}: its round ended before its actions did (a bug in cardsim)")
            r.play(self.game.public_action(self.rules, kind, code))
        return r

    def as_vector_env(self) -> Any:
        """This environment as a ``gymnasium.vector.VectorEnv`` (``BatchVectorEnv``): one agent seat only."""
        return vector_env_class()(self)

    def __repr__(self) -> str:
        return (f"<BatchEnv {self.game.name} n={self.n} players={self.players} agents={self.agents} "
                f"opponents={[self.lineup.names[s] for s in self.opponents]} seed={self.seed}>")  # fmt: skip


@cache
def vector_env_class() -> type:
    """``BatchVectorEnv``, defined on first use (Gymnasium, the ``[rl]`` extra, is imported only then)."""
    import gymnasium
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space

    class BatchVectorEnv(VectorEnv):
        """A ``BatchEnv`` with one agent seat as a ``gymnasium.vector.VectorEnv``: ``num_envs`` tables whose other
        seats play built-in bots. Finished tables are dealt their next round in the same step (Gymnasium's
        ``AutoresetMode.SAME_STEP``): ``infos["final_obs"]`` (an object array, None where the table did not finish)
        holds the agent's observation as its round ended, and ``infos["final_info"]`` that round's ``scores``
        (int64[num_envs, players], the game's own), each with its ``_final_obs`` / ``_final_info`` mask, as
        Gymnasium documents. ``infos["action_mask"]`` is the mask (int8[num_envs, actions]; also
        ``action_masks()``). The reward is the agent's score when its round ends (a penalty negated), else 0.
        Actions: an integer array of shape (num_envs,); one outside its table's mask raises ``CardsimError`` and
        no table moves."""

        metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

        def __init__(self, env: BatchEnv) -> None:
            if not isinstance(env, BatchEnv) or len(env.agents) != 1:
                agents = env.agents if isinstance(env, BatchEnv) else env
                raise CardsimError(f"a vector env plays one agent seat (BatchEnv(agents=seat)), not {agents!r}")
            self.env, self.seat = env, env.agents[0]
            env._final = self.seat
            self.num_envs = env.n
            self.single_observation_space = spaces.Box(0, 255, (env.bytes,), np.uint8)
            self.single_action_space = spaces.Discrete(env.actions)
            self.observation_space = batch_space(self.single_observation_space, self.num_envs)
            self.action_space = batch_space(self.single_action_space, self.num_envs)
            self._mask: np.ndarray | None = None

        def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
            if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))):
                raise CardsimError(f"seed={seed!r} is not allowed: one int for every table (table i deals "
                                   "new_round(seed, round=i + k * num_envs)), or None")  # fmt: skip
            super().reset(seed=seed)
            obs, mask, _ = self.env.reset(seed=seed)
            self._mask = mask
            return obs, {"action_mask": mask, "_action_mask": np.ones(self.num_envs, np.bool_)}

        def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
            array = np.asarray(actions)
            if array.dtype.kind not in "iu" or array.shape != (self.num_envs,):
                raise CardsimError(f"actions must be integers of shape ({self.num_envs},), an action index per "
                                   f"table, not {array.dtype} of shape {array.shape}")  # fmt: skip
            obs, mask, _, rewards, done = self.env.step(array.astype(np.int64))
            self._mask = mask
            infos: dict[str, Any] = {"action_mask": mask, "_action_mask": np.ones(self.num_envs, np.bool_)}
            if done.any():
                final = np.full(self.num_envs, None, dtype=object)
                for i in np.flatnonzero(done):
                    final[i] = self.env._buf.final_obs[i].copy()
                infos["final_obs"], infos["_final_obs"] = final, done.copy()
                scores = np.where(done[:, None], self.env._buf.scores, 0)
                infos["final_info"] = {"scores": scores, "_scores": done.copy()}
                infos["_final_info"] = done.copy()
            return obs, rewards[:, self.seat].astype(np.float64), done, np.zeros(self.num_envs, np.bool_), infos

        def action_masks(self) -> np.ndarray:
            """bool[num_envs, actions]: the legal actions (sb3-contrib's ``MaskablePPO`` asks for them)."""
            if self._mask is None:
                raise CardsimError("action_masks() before reset(): call reset() first")
            return self._mask.astype(bool)

        def __repr__(self) -> str:
            return f"BatchVectorEnv({self.env.game.name}, num_envs={self.num_envs}, seat={self.seat})"

    BatchVectorEnv.__module__ = __name__
    assert issubclass(BatchVectorEnv, gymnasium.vector.VectorEnv)
    return BatchVectorEnv


def __getattr__(name: str) -> Any:
    """``BatchVectorEnv``, made on first use (``vector_env_class``)."""
    if name == "BatchVectorEnv":
        return vector_env_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["ROUND_STEPS", "SAMPLE_STREAM", "BatchEnv", "vector_env_class"]
