"""What every game's fixed encoding (``cardsim/games/<game>/encoding.py``, issue 42) shares: the observation's
fields, the bit writers its ``encode`` is made of, and the action space's offsets.

An observation is a bit vector packed into ``uint8``, little-endian within each byte: bit k is
``out[k >> 3] >> (k & 7) & 1`` (``np.unpackbits(out, bitorder="little")[k]``). It is a row of fields, each a block
of bits (``Field``: name, first bit, bits, what it holds); ``layout`` gives the fields their places one after the
other, so they tile the vector. The writers each fill one field and return the bit after it, so that an ``encode``
reads as its list of fields::

    k = one_hot(out, 0, seat, players)
    k = card_set(out, k, hand, DECK)

A card set is one bit per card index (``cardsim.cards``); a categorical value or a count is one-hot (all 0: none,
not seen); a per-seat block is the seats' blocks in seat order.

The action space is one ``Discrete`` range: the decision kinds of ``ACTIONS`` (decision code, number of codes), in
the order of their decision codes, each at the offset of the sizes before it; an index is its kind's offset plus the
state machine's own action code (``action_table``, ``kind_of``, ``code_of``, and the mask writers ``mask_codes`` and
``mask_cards``; ``cardsim.games.generic.legal_mask_of`` fills a mask from the state machine's legal actions).

A game's ``encode``, ``legal_mask`` and ``action_code`` are compiled without reference counts (``_nrt=False``):
numba otherwise counts the references of every array of the State and Params they are given, an atomic
instruction each, which cost a 4-player Wizard observation 400 ns against 100 and its action mask 125 ns against
18 (a call through the kernel's address). So they allocate nothing: the mask asks ``legal_actions`` into
``stack_codes``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.arrayobj import make_array, populate_array

from cardsim.cards import lowest_card
from cardsim.decisions import CALL, CARD, DISCARD
from cardsim.errors import CardsimError

CARD_CODED = (CALL, DISCARD, CARD)  # the decisions whose action codes are card indexes (cardsim.front.actions)
KIND, FIRST, SIZE, CARDS = range(4)  # the columns of ``action_table``
MAX_CODES = 256  # room for any decision's legal action codes in every game (as cardsim.front.actions.MAX_ACTIONS)


class Field(NamedTuple):
    """One field of an observation: its bits ``start`` .. ``start + bits - 1``."""

    name: str
    start: int
    bits: int
    doc: str


def layout(blocks: Iterable[tuple[str, int, str]]) -> list[Field]:
    """The fields of (name, bits, doc) blocks placed one after the other from bit 0."""
    fields, start = [], 0
    for name, bits, doc in blocks:
        fields.append(Field(name, start, bits, doc))
        start += bits
    return fields


def size(fields: list[Field]) -> int:
    """The bits of an observation made of ``fields`` (``layout``'s)."""
    return fields[-1].start + fields[-1].bits


def check_players(players: int, low: int, high: int) -> int:
    """``players`` as an int if it is ``low`` .. ``high``, else a CardsimError saying what is allowed."""
    if isinstance(players, bool) or not isinstance(players, (int, np.integer)) or not low <= players <= high:
        allowed = f"{low}" if low == high else f"{low} to {high}"
        raise CardsimError(f"players={players!r} is not allowed: this encoding is for {allowed} players")
    return int(players)


def action_table(actions: tuple[tuple[int, int], ...]) -> np.ndarray:
    """An ``ACTIONS`` table (decision code, number of codes) as the kernels read it: int64[kinds, 4], a row per kind
    (its decision code, its first index, its number of codes, 1 if its codes are card indexes), read-only."""
    table, first = np.zeros((len(actions), 4), np.int64), 0
    for i, (kind, n) in enumerate(actions):
        table[i] = kind, first, n, kind in CARD_CODED
        first += n
    table.setflags(write=False)
    return table


# --- the bit writers (inlined into each game's ``encode``) ----------------------------------------------------


@njit(cache=True, inline="always")
def clear(out: np.ndarray) -> None:
    """Every bit of ``out`` 0."""
    for i in range(out.shape[0]):
        out[i] = 0


@njit(cache=True, inline="always")
def put_bit(out: np.ndarray, k: int) -> None:
    """Bit ``k`` of ``out`` set."""
    out[k >> 3] |= np.uint8(1 << (k & 7))


@njit(cache=True, inline="always")
def one_hot(out: np.ndarray, k: int, value: int, n: int) -> int:
    """The field of ``n`` bits at bit ``k``: bit ``value`` set, none if ``value`` is outside 0 .. n - 1 (-1: none,
    not seen). Returns the bit after the field."""
    if 0 <= value < n:
        put_bit(out, k + value)
    return k + n


@njit(cache=True, inline="always")
def card_set(out: np.ndarray, k: int, cards: np.uint64, n: int) -> int:
    """The field of ``n`` bits at bit ``k``: bit c set for each card c of the mask ``cards`` (cards below ``n``
    only). Written a byte at a time. Returns the bit after the field."""
    m = np.uint64(cards)
    byte, shift = k >> 3, k & 7
    if shift and m:
        out[byte] |= np.uint8((m << np.uint64(shift)) & np.uint64(0xFF))
        m >>= np.uint64(8 - shift)
        byte += 1
    while m:
        out[byte] |= np.uint8(m & np.uint64(0xFF))
        m >>= np.uint64(8)
        byte += 1
    return k + n


@njit(cache=True, inline="always")
def seat_one_hots(out: np.ndarray, k: int, values: np.ndarray, n: int) -> int:
    """A one-hot field of ``n`` bits per seat, seat after seat, of ``values[seat]`` (-1: none). Returns the bit
    after them."""
    for seat in range(values.shape[0]):
        one_hot(out, k + seat * n, values[seat], n)
    return k + values.shape[0] * n


# --- the action space -----------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def kind_of(table: np.ndarray, decision: int) -> int:
    """The row of ``decision`` in the game's ``action_table``, -1 if none (DONE)."""
    for i in range(table.shape[0]):
        if table[i, KIND] == decision:
            return i
    return -1


@njit(cache=True, inline="always")
def code_of(table: np.ndarray, decision: int, index: int) -> int:
    """The state machine's code of action ``index`` if it is of the kind ``decision``, else -1."""
    i = kind_of(table, decision)
    if i < 0 or index < table[i, FIRST] or index >= table[i, FIRST] + table[i, SIZE]:
        return -1
    return index - table[i, FIRST]


@intrinsic
def stack_codes(typingctx, n):
    """int64[n] (``n`` a literal int) in the stack frame of the function it is compiled into: scratch room for a list
    of action codes without an allocation, so that a kernel compiled without reference counts (``_nrt=False``, see
    above) may ask ``legal_actions``. Valid until that function returns; never return it."""
    if not isinstance(n, types.IntegerLiteral):
        return None
    array = types.Array(types.int64, 1, "C")

    def codegen(context, builder, signature, args):
        intp = context.get_value_type(types.intp)
        data = cgutils.alloca_once(builder, ir.IntType(64), size=n.literal_value)
        out = make_array(array)(context, builder)
        populate_array(out, data=data, shape=[ir.Constant(intp, n.literal_value)], strides=[ir.Constant(intp, 8)],
                       itemsize=ir.Constant(intp, 8), meminfo=None)  # fmt: skip
        return out._getvalue()

    return array(n), codegen


@njit(cache=True, inline="always")
def mask_codes(out: np.ndarray, first: int, codes: np.ndarray, n: int) -> None:
    """``out[first + code] = 1`` for the first ``n`` ``codes`` (an int8 action mask, cleared by the caller)."""
    for i in range(n):
        out[first + codes[i]] = 1


@njit(cache=True, inline="always")
def mask_cards(out: np.ndarray, first: int, cards: np.uint64) -> None:
    """``out[first + card] = 1`` for each card of the mask ``cards`` (a decision whose codes are card indexes)."""
    m = np.uint64(cards)
    while m:
        out[first + lowest_card(m)] = 1
        m &= m - np.uint64(1)
