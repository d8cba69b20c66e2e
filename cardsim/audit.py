"""``--check`` in the batch kernels' fast loops: every step checked in a few operations, reported at the round's end.

The fast loops of the built-in bots (random and heuristic lineups) keep the trick in registers and never build the
full State a stateless check (``state.check``) reads, and a branch per step would cost them about 40% of their speed.
So a checked run gives each unit an audit row, uint64[SLOTS], and after every step the game's ``audit_*`` hooks
compare the round with the audit's own count of it, without a branch: a broken invariant only sets its bit (bit k
for the game's ``CHECKS[k]``). The hot loops keep the bits and the audit's running count (``load``) in registers
and ``store`` them when they stop (a load and a store of the row per card cost Differenzler's loop a quarter of its
speed). When the round is over, ``end`` says whether an invariant broke and the kernel raises ``BotFailure``;
``Game.run`` then finds the unit and replays it one step at a time with the full check, which names the step.

Row layout::

    STEPS      steps checked, over every round of the unit
    BROKEN     bit k: the game's CHECKS[k] broken in this round
    TAKEN      a running count of the game's (call-partner's: the card points played in the closed tricks)
    HELD + seat   the seat's dealt cards less the cards the audit saw it play (MAX_SEATS seats)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cardsim.cards import bit, popcount

STEPS, BROKEN, TAKEN, HELD = 0, 1, 2, 3
MAX_SEATS = 6
SLOTS = HELD + MAX_SEATS


@njit(cache=True, inline="always")
def flag(audit: np.ndarray, broken: bool, k: int) -> None:
    """Record that invariant ``k`` is broken when ``broken`` (no branch)."""
    audit[BROKEN] |= np.uint64(broken) << np.uint64(k)


@njit(cache=True, inline="always")
def bits(broken: bool, k: int) -> int:
    """Bit ``k`` if ``broken``, else 0 (no branch): what a hot loop ORs into its register of broken invariants."""
    return int(broken) << k


@njit(cache=True, inline="always")
def load(audit: np.ndarray | None) -> tuple:
    """(broken bits, TAKEN) for a hot loop to keep in registers; (0, 0) without an audit."""
    if audit is None:
        return 0, 0
    return np.int64(audit[BROKEN]), np.int64(audit[TAKEN])


@njit(cache=True, inline="always")
def store(audit: np.ndarray | None, broken: int, taken: int) -> None:
    """Write a hot loop's registers back (``load``); nothing without an audit."""
    if audit is not None:
        audit[BROKEN], audit[TAKEN] = np.uint64(broken), np.uint64(taken)


@njit(cache=True, inline="always")
def deal(audit: np.ndarray, dealt: np.ndarray, size: int, others: np.uint64, k: int) -> None:
    """A round starts: the dealt hands (uint64[seats]) are disjoint, ``size`` cards each, and disjoint from the
    ``others`` dealt (a turned card, a kitty), else invariant ``k``; the audit's count of each hand starts here."""
    audit[BROKEN] = 0
    union, count = others, popcount(others)
    for seat in range(dealt.shape[0]):
        union |= dealt[seat]
        count += popcount(dealt[seat])
        audit[HELD + seat] = dealt[seat]
        flag(audit, popcount(dealt[seat]) != size, k)
    flag(audit, popcount(union) != count, k)


@njit(cache=True, inline="always")
def hands(audit: np.ndarray, held: np.ndarray) -> None:
    """The audit's count of the hands starts from ``held`` (uint64[seats]), e.g. when the tricks begin."""
    for seat in range(held.shape[0]):
        audit[HELD + seat] = held[seat]


@njit(cache=True, inline="always")
def card(audit: np.ndarray, hands: np.ndarray, seat: int, played: int) -> bool:
    """After ``seat`` played card ``played``: whether it broke "the seat held the card and now holds its dealt
    cards less those it played" (no branch)."""
    held, card_bit = audit[HELD + seat], bit(played)
    audit[HELD + seat] = held ^ card_bit
    return (held & card_bit == 0) | (hands[seat] != held ^ card_bit)


@njit(cache=True, inline="always")
def decision(audit: np.ndarray, broken: bool, k: int) -> None:
    """A decision other than a card (a bid, a prediction), invariant ``k`` broken when ``broken``; counted."""
    flag(audit, broken, k)
    audit[STEPS] += np.uint64(1)


@njit(cache=True, inline="always")
def end(audit: np.ndarray, seats: int, cards: int) -> bool:
    """The round is over: count the cards the audit saw played (of the ``cards`` its count of the hands started
    with); whether an invariant broke. The caller raises ``BotFailure`` with a fixed message, and ``Game.run``
    replays the unit one step at a time with the full check, which names the invariant (``broken`` names it
    from the row). No strings pass: a kernel builds each string argument anew on every call, which cost a
    checked Differenzler round about 20 ns, and a loop without reference counts may not build them at all."""
    for seat in range(seats):
        cards -= popcount(audit[HELD + seat])
    audit[STEPS] += np.uint64(cards)
    return audit[BROKEN] != 0


def broken(audit: np.ndarray, checks: tuple) -> list[str]:
    """The names of the invariants the row flags broken (``checks``: the game's CHECKS)."""
    return [name for k, name in enumerate(checks) if int(audit[BROKEN]) >> k & 1]
