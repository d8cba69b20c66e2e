"""Card decks, canonical notation (RULES.md section E) and bitboard helpers.

A card is an int index into its deck; a set of cards (a hand, a trick, the
cards seen so far) is a ``uint64`` bitmask with bit ``i`` set for card ``i``.
All three decks fit in 64 bits.

Index layouts (suits always in the order S H D C, numbered 0..3)::

    JASS36    index = 9 * suit + rank,  rank 0..8  = 6 7 8 9 T J Q K A
              S: 0-8   H: 9-17   D: 18-26   C: 27-35
    FRENCH52  index = 13 * suit + rank, rank 0..12 = 2 3 4 5 6 7 8 9 T J Q K A
              S: 0-12  H: 13-25  D: 26-38   C: 39-51
    WIZARD60  index = 13 * suit + rank, rank 0..12 = 1 2 ... 13
              S: 0-12  H: 13-25  D: 26-38   C: 39-51
              Wizards W1-W4: 52-55   Jesters J1-J4: 56-59

The numba helpers at the bottom (``popcount``, ``lowest_card``,
``nth_card``) compile to single instructions or tight loops; every game's
kernels use them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from cardsim.errors import CardsimError
from cardsim.jit.cpu import use_pdep

SUITS = "SHDC"
SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


@dataclass(frozen=True)
class Deck:
    """One deck: its size, suits, rank names and the special cards beyond the suits."""

    name: str
    ranks: tuple[str, ...]
    specials: tuple[str, ...] = ()
    size: int = field(init=False)
    card_names: tuple[str, ...] = field(init=False, repr=False)  # canonical name of every index
    _index: dict[str, int] = field(init=False, repr=False, compare=False)  # canonical name -> index

    def __post_init__(self) -> None:
        size = 4 * len(self.ranks) + len(self.specials)
        names = tuple(SUITS[c // len(self.ranks)] + self.ranks[c % len(self.ranks)] for c in range(4 * len(self.ranks)))
        object.__setattr__(self, "size", size)
        object.__setattr__(self, "card_names", names + self.specials)
        object.__setattr__(self, "_index", {name: i for i, name in enumerate(self.card_names)})

    @property
    def suit_size(self) -> int:
        return len(self.ranks)

    def suit_of(self, card: int) -> int:
        """Suit 0..3 of a suited card, -1 for a special card (Wizard, Jester)."""
        return card // self.suit_size if card < 4 * self.suit_size else -1

    def rank_of(self, card: int) -> int:
        return card % self.suit_size if card < 4 * self.suit_size else -1

    def card(self, suit: int, rank: int) -> int:
        return suit * self.suit_size + rank

    def suit_mask(self, suit: int) -> int:
        return ((1 << self.suit_size) - 1) << (suit * self.suit_size)

    def name_of(self, card: int) -> str:
        """Canonical name of a card (RULES.md E1/E2), e.g. ``SA``, ``HT``, ``W1``."""
        if not 0 <= card < self.size:
            raise CardsimError(f"card index {card} is outside the {self.name} deck (0..{self.size - 1})")
        return self.card_names[card]

    def parse(self, text: str) -> int:
        """Card index of one card name; case-insensitive, accepts ``10`` for ``T`` and suit symbols."""
        if text in self._index:  # the canonical name: the common case, at a dict's speed
            return self._index[text]
        token = text.strip().upper()
        if token[:1] in SUIT_SYMBOLS:
            token = SUIT_SYMBOLS[token[:1]] + token[1:]
        if token in self.specials:
            return self._index[token]
        suit, rank = token[:1], token[1:]
        if rank == "10" and "T" in self.ranks:
            rank = "T"
        if suit in SUITS and rank in self.ranks:
            return self.card(SUITS.index(suit), self.ranks.index(rank))
        raise CardsimError(
            f"'{text}' is not a card of the {self.name} deck; cards are a suit letter "
            f"S H D C and a rank {' '.join(self.ranks)}"
            + (f", or one of {' '.join(self.specials)}" if self.specials else "")
            + " (e.g. "
            + self.name_of(self.size - 1)
            + ")"
        )

    def parse_many(self, text: str | Iterable[str]) -> list[int]:
        """Card indices of a space- or comma-separated list of names."""
        tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
        return [self.parse(t) for t in tokens]

    def mask(self, cards: str | Iterable[int] | Iterable[str]) -> int:
        """Bitmask (a Python int) of cards given by names or indices."""
        if isinstance(cards, str):
            cards = self.parse_many(cards)
        mask = 0
        for c in cards:
            mask |= 1 << (self.parse(c) if isinstance(c, str) else int(c))
        return mask

    def cards_of(self, mask: int) -> list[int]:
        """Card indices in a bitmask, lowest index first."""
        mask, cards = int(mask), []
        while mask:
            low = mask & -mask
            cards.append(low.bit_length() - 1)
            mask ^= low
        return cards

    def names(self, mask_or_cards: int | Iterable[int]) -> str:
        """Space-separated canonical names of a bitmask or a list of card indices."""
        cards = self.cards_of(mask_or_cards) if isinstance(mask_or_cards, (int, np.integer)) else mask_or_cards
        return " ".join(self.name_of(int(c)) for c in cards)


JASS36 = Deck("36-card Jass", tuple("6789TJQKA"))
FRENCH52 = Deck("52-card", tuple("23456789TJQKA"))
WIZARD60 = Deck(
    "60-card Wizard",
    tuple(str(r) for r in range(1, 14)),
    specials=("W1", "W2", "W3", "W4", "J1", "J2", "J3", "J4"),
)


# --- bitboard helpers for numba kernels -------------------------------------


@intrinsic
def _ctpop(typingctx, x):
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.zext(builder.ctpop(args[0]), ir.IntType(64))

    return sig, codegen


@intrinsic
def _cttz(typingctx, x):
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.zext(builder.cttz(args[0], ir.Constant(ir.IntType(1), 0)), ir.IntType(64))

    return sig, codegen


@intrinsic
def _bit(typingctx, card):
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.shl(ir.Constant(ir.IntType(64), 1), args[0])

    return sig, codegen


@intrinsic
def _pdep(typingctx, x, mask):
    sig = types.uint64(types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64), ir.IntType(64)])
        return builder.call(cgutils.get_or_insert_function(builder.module, fnty, "llvm.x86.bmi.pdep.64"), args)

    return sig, codegen


# BMI2's pdep selects the n-th set bit in one instruction, where this CPU has it fast (cardsim.jit.cpu).
USE_PDEP = use_pdep()


# The helpers below are inlined wherever a kernel touches a card, so they call the intrinsics directly: numba casts
# any integer argument to the intrinsic's uint64 as it lowers the call, where an explicit ``np.uint64(x)`` is one
# more call to type at every inlined site (cold compiles, docs/performance.md).


@njit(cache=True, inline="always")
def popcount(mask: np.uint64) -> int:
    """Number of cards in a bitmask."""
    return _ctpop(mask)


@njit(cache=True, inline="always")
def lowest_card(mask: np.uint64) -> int:
    """Index of the lowest card in a non-empty bitmask."""
    return _cttz(mask)


@njit(cache=True, inline="always")
def bit(card: int) -> np.uint64:
    """Bitmask of one card."""
    return _bit(card)


@njit(cache=True, inline="always")
def nth_card(mask: np.uint64, n: int) -> int:
    """Index of the n-th lowest card (0-based) in a bitmask with more than n cards."""
    if USE_PDEP:
        return _cttz(_pdep(_bit(n), mask))
    return nth_card_portable(mask, n)


def _select_in_byte() -> np.ndarray:
    """SELECT_IN_BYTE[byte | (k << 8)]: the index of the k-th set bit of ``byte`` (8 where it has no k-th)."""
    table = np.full(256 * 8, 8, np.uint8)
    for byte in range(256):
        for k, index in enumerate(i for i in range(8) if byte >> i & 1):
            table[byte | k << 8] = index
    return table


SELECT_IN_BYTE = _select_in_byte()
_ONES, _HIGHS = np.uint64(0x0101010101010101), np.uint64(0x8080808080808080)


@njit(cache=True, inline="always")
def nth_card_portable(mask: np.uint64, n: int) -> int:
    """``nth_card`` without pdep (AMD before Zen 3, ARM; ``CARDSIM_PORTABLE=1``): Vigna's broadword select. The
    bytes' popcounts summed up byte by byte with one multiplication, the byte that holds the n-th card found by
    comparing all eight sums with n at once, then a table for the card inside that byte: no loop, no branch.
    Clearing the n lowest cards one by one had played Wizard's random rounds at 0.39x the pdep path's speed."""
    x, k = np.uint64(mask), np.uint64(n)
    s = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    s = (s & np.uint64(0x3333333333333333)) + ((s >> np.uint64(2)) & np.uint64(0x3333333333333333))
    s = (s + (s >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    sums = s * _ONES  # byte i: the cards in bytes 0..i (at most 64, so bit 7 of each byte is free)
    below = (((k * _ONES) | _HIGHS) - sums) & _HIGHS  # bit 7 of byte i set where those sums are <= n
    place = np.uint64(_ctpop(below)) * np.uint64(8)  # the bytes wholly below the n-th card, in bits
    before = ((sums << np.uint64(8)) >> place) & np.uint64(0xFF)  # the cards below that byte
    return np.int64(place) + np.int64(SELECT_IN_BYTE[((x >> place) & np.uint64(0xFF)) | ((k - before) << np.uint64(8))])
