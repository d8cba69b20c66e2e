"""Honest information sets and an exactly uniform, compiled sampler of the deals they allow.

What one seat (the observer) knows about the hidden cards, as plain arrays a numba kernel takes:

- ``unseen`` (uint64): every card whose place the observer does not see: not in its own hand, not played, not
  shown face up. These are exactly the cards the sampler hands out.
- ``counts`` (int64[seats]): how many unseen cards each seat still holds. The observer's own entry is 0; extra
  entries stand for hidden piles (a kitty, Wizard's undealt stack, the call-partner declarer's face-down discards).
  ``counts`` sums to the number of unseen cards.
- ``forbidden`` (uint64[seats]): cards a seat cannot hold (a revealed void makes a whole suit forbidden).
- ``known`` (uint64[seats]): unseen cards a seat is known to hold (a shown card that is still unplayed).

How each game's special knowledge maps onto it (the games' bots build their sets with the helpers below):

- Differenzler (RULES A5, A8): the dealer's shown trump card, until it is played, is ``known`` for the dealer
  (for the dealer itself it is simply part of its own hand). A seat that does not follow a plain led suit with a
  plain card of another suit is void in the led suit; trumping proves nothing (A8c lets it trump while holding the
  suit). A seat that does not follow a led trump is void in trumps except possibly the Puur (A8b): forbid
  ``SUIT_MASK[trump] & ~bit(PUUR[trump])``.
- Wizard (B4): the turned trump card is seen by all, so it is simply not ``unseen``; the undealt stack is an extra
  pile. A seat that plays a card of another suit (not a Wizard or Jester) when a suit is led is void in that suit.
- Call-partner (C5-C7): the kitty is an extra pile until the declarer takes it. Afterwards, for the declarer its
  own discards are seen and out of play (not ``unseen``); for everybody else they are an extra pile that may hold
  anything. The called card is an ordinary unseen card (its holder is unknown) until it is played; the partner
  sees it in its own hand. Not following the led suit reveals a void.

The sampler (``sample_deal``, ``sample_deals``) is exact, not rejection sampling, so it never stalls on tight
constraints. Cards that may go to the same set of seats are exchangeable, so the unseen cards (less the known
ones) fall into classes by their allowed-seat set. A deal is a choice of how many cards of each class go to each
seat (a count matrix) and then of which cards. The number of deals with a given count matrix is the product over
classes of multinomials (a multinomial is a product of binomials, one per member seat), and a dynamic programme
over (class, seat) steps on the seats' used capacities counts all deals exactly (128-bit integers; the largest
class is dealt last in closed form). The sampler draws a count matrix with probability (its deals) / (all deals),
walking the programme step by step, then picks each class's cards uniformly among that class's cards. So every
consistent deal has probability (its matrix's deals / all deals) x (1 / its matrix's deals) = 1 / all deals:
exactly uniform. If no consistent deal exists the sampler returns False instead of looping.

Two things keep the counting table small. Seats that may hold the same free cards (no known card left to place
and the same forbidden cards, e.g. every seat without a revealed void and Wizard's undealt stack) are counted as
one group and share its cards out afterwards (a multinomial, the same for every split of the cards), so only
seats with different voids add dimensions. And the table keeps only states from which a deal can still be
completed (Hall's condition over the seat sets). Cost: microseconds for Differenzler-sized sets and most Wizard
sets; 6-player Wizard with three seats void in different suits: about 15 ms (was about 0.2 s), five different
void seats about 0.1 s; beyond ``MAX_TABLE`` states ``plan`` raises ValueError. Draw many deals per count with
``sample_deals``. More than 2**128 deals (64 cards
among 8 seats) raise OverflowError; the three games stay far below (6-player Wizard: at most about 2**118).
"""

from __future__ import annotations

from math import comb
from typing import Any, NamedTuple

import numpy as np
from numba import njit, types

from cardsim.arrays import copy_items
from cardsim.cards import bit, lowest_card, popcount
from cardsim.deal import draw_cards
from cardsim.errors import BotFailure
from cardsim.rng import below, next_u64

# BINOM[n, k] = C(n, k) for n <= 64: the largest, C(64, 32), still fits in 64 bits.
BINOM = np.array([[comb(n, k) for k in range(65)] for n in range(65)], np.uint64)
MAX_TABLE = 1 << 22  # states of the counting table (24 bytes each) before the sampler refuses an info set
_ZERO = np.uint64(0)
_ONE = np.uint64(1)
_LOW32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)


# --- information-set bookkeeping (game-independent) ----------------------------------------------------------


def new_infoset(deck: int, seen: int, counts: list[int] | np.ndarray) -> tuple[np.uint64, np.ndarray, np.ndarray,
                                                                               np.ndarray]:  # fmt: skip
    """A fresh info set: ``unseen`` = ``deck`` less the ``seen`` cards (own hand, face-up cards), the seats'
    hidden-card ``counts``, no forbidden and no known cards yet. Returns ``(unseen, counts, forbidden, known)``."""
    counts = np.array(counts, np.int64)
    return (np.uint64(int(deck) & ~int(seen)), counts, np.zeros(len(counts), np.uint64),
            np.zeros(len(counts), np.uint64))  # fmt: skip


@njit(cache=True)
def observe_play(unseen: np.uint64, counts: np.ndarray, known: np.ndarray, seat: int, card: int) -> np.uint64:
    """``seat`` played ``card``: if it was unseen, it leaves ``unseen``, the seat's count and its known cards.
    Returns the new ``unseen`` (the observer's own plays were never unseen and change nothing)."""
    b = bit(card)
    if unseen & b:
        unseen ^= b
        counts[seat] -= 1
        known[seat] &= ~b
    return unseen


@njit(cache=True)
def reveal_void(forbidden: np.ndarray, seat: int, cards: np.uint64) -> None:
    """``seat`` showed it holds none of ``cards`` (a suit's ``SUIT_MASK``, or less, e.g. a trump suit but the Puur)."""
    forbidden[seat] |= cards


@njit(cache=True)
def place_known(known: np.ndarray, seat: int, card: int) -> None:
    """``seat`` is known to hold the unseen ``card`` (e.g. Differenzler's shown trump card for the dealer)."""
    known[seat] |= bit(card)


# --- 128-bit counts as (hi, lo) pairs of uint64 -------------------------------------------------------------

# The small helpers below and ``_completable`` are called, not inlined: the counting programme is typed and
# lowered once, in ``count_and_sample`` (``plan``, ``_programme`` and ``_draw`` are inlined there), and numba
# inlining these copied their IR into every call site (measured: the sampler's cold compile 8.0 s inlined,
# 6.9 s called; the strong bots' decisions as fast).


@njit(cache=True)
def _mul64(a: np.uint64, b: np.uint64) -> tuple[np.uint64, np.uint64]:
    """The full 128-bit product of two 64-bit numbers, as (hi, lo)."""
    a0, a1, b0, b1 = a & _LOW32, a >> _S32, b & _LOW32, b >> _S32
    p00, p01, p10, p11 = a0 * b0, a0 * b1, a1 * b0, a1 * b1
    mid = (p00 >> _S32) + (p01 & _LOW32) + (p10 & _LOW32)
    return p11 + (p01 >> _S32) + (p10 >> _S32) + (mid >> _S32), (mid << _S32) | (p00 & _LOW32)


@njit(cache=True)
def _times(hi: np.uint64, lo: np.uint64, b: np.uint64) -> tuple[np.uint64, np.uint64]:
    """(hi, lo) * b; raises OverflowError beyond 128 bits."""
    h1, l1 = _mul64(lo, b)
    h2, l2 = _mul64(hi, b)
    top = l2 + h1
    if h2 != _ZERO or top < h1:
        raise OverflowError("more than 2**128 deals fit this information set")
    return top, l1


@njit(cache=True)
def _plus(hi: np.uint64, lo: np.uint64, hi2: np.uint64, lo2: np.uint64) -> tuple[np.uint64, np.uint64]:
    low = lo + lo2
    top = hi + hi2 + (_ONE if low < lo else _ZERO)
    if top < hi:
        raise OverflowError("more than 2**128 deals fit this information set")
    return top, low


@njit(cache=True)
def _below128(rng: np.ndarray, stream: int, hi: np.uint64, lo: np.uint64) -> tuple[np.uint64, np.uint64]:
    """A uniform 128-bit integer below (hi, lo) > 0: ``below`` when it fits in 32 bits, else masked rejection
    (draw the bit length of the bound, keep a draw below it: fewer than two tries on average)."""
    if hi == _ZERO and lo <= _LOW32:
        return _ZERO, np.uint64(below(rng, stream, np.int64(lo)))
    top, low = (hi, lo - _ONE) if lo != _ZERO else (hi - _ONE, ~_ZERO)  # bound - 1: smear its top bit down
    mask_hi, mask_lo = top, low if top == _ZERO else ~_ZERO
    for shift in (1, 2, 4, 8, 16, 32):
        mask_hi |= mask_hi >> np.uint64(shift)
        mask_lo |= mask_lo >> np.uint64(shift)
    while True:
        r_hi = next_u64(rng, stream) & mask_hi if mask_hi != _ZERO else _ZERO
        r_lo = next_u64(rng, stream) & mask_lo
        if r_hi < hi or (r_hi == hi and r_lo < lo):
            return r_hi, r_lo


# --- the counting programme --------------------------------------------------------------------------------


@njit(cache=True)
def _decode(code: int, stride: np.ndarray, cap: np.ndarray, used: np.ndarray) -> int:
    """Unpack a state code into the capacities ``used`` per seat; returns their sum."""
    total = 0
    for s in range(cap.shape[0]):
        used[s] = code // stride[s] % (cap[s] + 1)
        total += used[s]
    return total


@njit(cache=True)
def _find(codes: np.ndarray, first: int, end: int, code: int) -> int:
    """Position of ``code`` in the sorted ``codes[first:end]`` (binary search), or -1 if it is not there."""
    last = end
    while first < end:
        mid = (first + end) >> 1
        if codes[mid] < code:
            first = mid + 1
        else:
            end = mid
    return first if first < last and codes[first] == code else -1


@njit(cache=True)
def _sort_codes(codes: np.ndarray) -> None:
    """Sort the state codes ``codes`` (int64, >= 0) in place: a radix sort by bytes, least significant first. A
    few loops that compile in a fraction of the time of numba's ``ndarray.sort`` (a quicksort compiled afresh,
    uncached, into every function that calls it: 1.8 s) and run as fast on the counting tables."""
    n = codes.shape[0]
    top = 0
    for i in range(n):
        top = max(top, codes[i])
    spare = np.empty(n, np.int64)
    starts = np.empty(257, np.int64)
    passes = 0
    while passes < 8 and top >> (8 * passes) > 0:  # (a shift by 64 bits would wrap around)
        source, target = (codes, spare) if passes % 2 == 0 else (spare, codes)
        shift = 8 * passes
        starts[:] = 0
        for i in range(n):
            starts[(source[i] >> shift & 255) + 1] += 1
        for digit in range(256):
            starts[digit + 1] += starts[digit]
        for i in range(n):
            digit = source[i] >> shift & 255
            target[starts[digit]] = source[i]
            starts[digit] += 1
        passes += 1
    if passes % 2 == 1:  # the last pass wrote into the spare array
        copy_items(codes, spare, n)


@njit(cache=True)
def _completable(used: np.ndarray, cap: np.ndarray, supply: np.ndarray, partial: int, left: int,
                 low_seat: np.ndarray, free: np.ndarray) -> bool:  # fmt: skip
    """Can the cards still to deal fill every seat's free capacity? Hall's condition for this transport problem:
    for every set T of seats, the cards that may only go to seats in T fit their free capacity. ``supply[T]``
    counts the cards of the classes not yet begun whose seats lie in T, ``left`` cards of the current class may
    go to the seats ``partial``. ``free[T]`` is filled on the way (the sum over a set from the set less its
    lowest seat)."""
    free[0] = 0
    for subset in range(1, supply.shape[0]):
        s = low_seat[subset]
        free[subset] = free[subset & (subset - 1)] + cap[s] - used[s]
        if supply[subset] + (left if partial & ~subset == 0 else 0) > free[subset]:
            return False
    return True


class Programme(NamedTuple):
    """The counting table of ``_programme`` that ``_draw`` walks to deal the free cards among groups of seats."""

    masks: np.ndarray  # uint64[classes]: the cards of each class (cards allowed to the same set of groups)
    members: np.ndarray  # int64[classes, groups]: each class's groups, then -1
    sizes: np.ndarray  # int64[classes]: cards per class
    cap: np.ndarray  # int64[groups]: cards each group takes
    stride: np.ndarray  # int64[groups]: the mixed radix of the state codes (capacities used so far)
    steps: np.ndarray  # int64[steps, 3]: (class, group, last member of its class) per step
    start: np.ndarray  # int64[steps + 2]: step t's states are codes[start[t]:start[t + 1]]
    codes: np.ndarray  # int64[states]: the reachable, completable states of every step, sorted per step
    g_hi: np.ndarray  # uint64[states]: the deals from each state (128 bits: high and low words)
    g_lo: np.ndarray  # uint64[states]


@njit(cache=True, inline="always")
def plan(unseen: np.uint64, counts: np.ndarray, forbidden: np.ndarray, known: np.ndarray):
    """Count the deals of an info set. Returns the seats' ``group`` (-1: no free capacity) and free capacities
    ``cap``, the groups' ``Programme``, and last the total (hi, lo): 0 when no deal exists.

    The known cards are placed first. Seats that may hold the same free cards (the same forbidden ones) form a
    group that takes its cards as one seat (the sum of their capacities); the group's cards are then shared out
    among its members in multinomially many ways, whatever the cards. So the total is the groups' count times
    those multinomials, and merging keeps the counting table small (6-player Wizard: the seats without a revealed
    void and the undealt stack are one group).

    Inlined, with ``_programme`` and ``_draw``, into its callers: compiled on their own, numba linked each into the
    next and LLVM optimised and emitted their code again at every level (the sampler's cold compile: 9.8-10.9 s
    before, 7.2-7.6 s inlined, with ``_sort_codes``)."""
    seats = counts.shape[0]
    cap = counts.copy()
    placed = _ZERO
    consistent = popcount(unseen) == counts.sum()
    for s in range(seats):
        if (known[s] & (placed | forbidden[s] | ~unseen)) != _ZERO or counts[s] < 0:
            consistent = False
        placed |= known[s]
        cap[s] = max(cap[s] - popcount(known[s]), 0)
        consistent &= counts[s] >= popcount(known[s])
    free = unseen & ~placed
    group = np.full(seats, -1, np.int64)
    groups = 0
    for s in range(seats):
        for t in range(s):
            if cap[s] > 0 and group[t] >= 0 and (forbidden[t] & free) == (forbidden[s] & free):
                group[s] = group[t]
        if cap[s] > 0 and group[s] < 0:
            group[s], groups = groups, groups + 1
    group_cap = np.zeros(groups, np.int64)
    group_forbidden = np.zeros(groups, np.uint64)
    for s in range(seats):
        if group[s] >= 0:
            group_cap[group[s]] += cap[s]
            group_forbidden[group[s]] = forbidden[s] & free
    programme, hi, lo = _programme(free, group_cap, group_forbidden, consistent)
    for g in range(groups if hi != _ZERO or lo != _ZERO else 0):
        left = group_cap[g]
        for s in range(seats):
            if group[s] == g:
                hi, lo = _times(hi, lo, BINOM[left, cap[s]])
                left -= cap[s]
    return group, cap, programme, hi, lo


@njit(cache=True, inline="always")
def _programme(free: np.uint64, cap: np.ndarray, forbidden: np.ndarray, consistent: bool):
    """Count the deals of the ``free`` cards among seats (here: groups) of capacities ``cap``. Returns the
    ``Programme`` (the classes, the steps and the counting table), and the total (hi, lo).

    Step ``(class, seat, rest)`` decides how many cards of a class (all but the last) its member seat takes
    (``rest``: the last member takes what is left). A state is the capacities used so far, coded in mixed radix
    (``stride``); step t's states, those reachable from which a deal can still be completed, are
    ``codes[start[t]:start[t + 1]]`` (sorted) and ``g`` (as hi, lo arrays) holds the deals of the remaining steps
    and the last class from each: a sum over the step's choices of C(cards of the class left, cards taken) x the
    next state's deals."""
    seats = cap.shape[0]
    consistent &= popcount(free) == cap.sum()
    by_set = np.zeros(1 << seats, np.uint64)
    rest = free
    while rest:
        b = bit(lowest_card(rest))
        rest ^= b
        allowed = 0
        for s in range(seats):
            if cap[s] > 0 and (forbidden[s] & b) == _ZERO:
                allowed |= 1 << s
        by_set[allowed] |= b
    consistent &= by_set[0] == _ZERO
    # Classes in any order, the largest last: it is dealt in closed form, so the table only spans the others.
    k_all = 0
    for a in range(1, 1 << seats):
        k_all += by_set[a] != _ZERO
    ids = np.empty(k_all, np.int64)
    sizes = np.empty(k_all, np.int64)
    k = 0
    for a in range(1, 1 << seats):
        if by_set[a]:
            ids[k], sizes[k] = a, popcount(by_set[a])
            k += 1
    for k in range(1, k_all):  # a stable sort by size (insertion: a few classes; no sort kernel to compile)
        j = k
        while j > 0 and sizes[j - 1] > sizes[j]:
            ids[j - 1], ids[j], sizes[j - 1], sizes[j] = ids[j], ids[j - 1], sizes[j], sizes[j - 1]
            j -= 1
    masks = np.empty(k_all, np.uint64)
    members = np.full((k_all, seats), -1, np.int64)
    steps = np.empty((k_all * seats, 3), np.int64)
    n_steps = 0
    for k in range(k_all):
        masks[k] = by_set[ids[k]]
        sizes[k] = popcount(masks[k])
        a = 0
        for s in range(seats):
            if ids[k] >> s & 1:
                members[k, a] = s
                a += 1
                if k < k_all - 1:
                    steps[n_steps, 0], steps[n_steps, 1], steps[n_steps, 2] = k, s, 0
                    n_steps += 1
        if k < k_all - 1:
            steps[n_steps - 1, 2] = 1
    steps = steps[:n_steps]
    stride = np.ones(seats, np.int64)
    for s in range(1, seats):
        stride[s] = stride[s - 1] * (cap[s - 1] + 1)
    prefix = np.zeros(k_all + 1, np.int64)  # cards in the classes before k
    for k in range(k_all):
        prefix[k + 1] = prefix[k] + sizes[k]
    used = np.zeros(seats, np.int64)
    # supply[k, T]: cards of the classes from k on that may only go to the seats in T (a bit set).
    supply = np.zeros((k_all + 1, 1 << seats), np.int64)
    low_seat = np.zeros(1 << seats, np.int64)
    for subset in range(1, 1 << seats):
        while not subset >> low_seat[subset] & 1:
            low_seat[subset] += 1
    for k in range(k_all - 1, -1, -1):
        for subset in range(1 << seats):
            supply[k, subset] = supply[k + 1, subset] + (sizes[k] if ids[k] & ~subset == 0 else 0)
    free = np.empty(1 << seats, np.int64)
    # Forward: the states each step can reach from which a deal can still be completed (step 0: nothing used).
    if k_all > 1:  # the steps begin with class 0 and its lowest seat: its cards may go to any of its seats
        consistent &= _completable(used, cap, supply[1], ids[0], sizes[0], low_seat, free)
    elif k_all == 1:
        consistent &= _completable(used, cap, supply[0], np.int64(0), np.int64(0), low_seat, free)
    codes = np.zeros(16, np.int64)  # every step's states, step t's at codes[start[t]:start[t + 1]]; grows
    start = np.zeros(n_steps + 2, np.int64)
    start[1] = 1
    steps_done = 0
    for t in range(n_steps if consistent else 0):
        k, s, last_member = steps[t, 0], steps[t, 1], steps[t, 2]
        n = 0
        for i in range(start[t], start[t + 1]):
            left = prefix[k + 1] - _decode(codes[i], stride, cap, used)
            n += max(min(left, cap[s] - used[s]) + 1 - (left if last_member else 0), 0)
        reached = np.empty(n, np.int64)
        n = 0
        for i in range(start[t], start[t + 1]):
            code = codes[i]
            left = prefix[k + 1] - _decode(code, stride, cap, used)
            for take in range(left if last_member else 0, min(left, cap[s] - used[s]) + 1):
                reached[n], n = code + take * stride[s], n + 1
        _sort_codes(reached)
        # the state before step t + 1 (or before the last class, dealt in closed form after the steps)
        if t + 1 < n_steps:
            k_next, s_next = steps[t + 1, 0], steps[t + 1, 1]
            partial, later = ids[k_next] & ~((1 << s_next) - 1), supply[k_next + 1]
        else:
            k_next, partial, later = k_all - 1, 0, supply[k_all - 1]
        end = start[t + 1]
        for i in range(n):
            code = reached[i]
            if i > 0 and code == reached[i - 1]:
                continue
            left = prefix[k_next + 1] - _decode(code, stride, cap, used) if partial else 0
            if _completable(used, cap, later, partial, left, low_seat, free):
                if end == codes.shape[0]:
                    grown = np.empty(2 * end, np.int64)
                    for j in range(end):  # not a slice assignment: its shape check's message compiles for 2 s
                        grown[j] = codes[j]
                    codes = grown
                codes[end], end = code, end + 1
        start[t + 2] = end
        steps_done = t + 1
        if end > MAX_TABLE:
            raise ValueError("information set too loose for the exact sampler's counting table")
    start = start[: steps_done + 2]
    codes = codes[: start[-1]].copy()
    g_hi = np.zeros(start[-1], np.uint64)
    g_lo = np.zeros(start[-1], np.uint64)
    programme = Programme(masks, members, sizes, cap, stride, steps, start, codes, g_hi, g_lo)
    if not consistent:
        return programme, _ZERO, _ZERO
    if k_all == 0:
        return programme, _ZERO, _ONE
    # Backward: the last class fills every remaining capacity (if only its seats have some left) ...
    last = k_all - 1
    for i in range(start[n_steps], start[n_steps + 1]):
        _decode(codes[i], stride, cap, used)
        left, ok, hi, lo = sizes[last], True, _ZERO, _ONE
        for s in range(seats):
            take = cap[s] - used[s]
            ok &= take == 0 or ids[last] >> s & 1 == 1
            if ok and take > 0:
                hi, lo = _times(hi, lo, BINOM[left, take])
                left -= take
        if ok and left == 0:
            g_hi[i], g_lo[i] = hi, lo
    # ... and each earlier step sums over how many of its class's cards its seat takes.
    for t in range(n_steps - 1, -1, -1):
        k, s, last_member = steps[t, 0], steps[t, 1], steps[t, 2]
        for i in range(start[t], start[t + 1]):
            left = prefix[k + 1] - _decode(codes[i], stride, cap, used)
            hi, lo = _ZERO, _ZERO
            for take in range(left if last_member else 0, min(left, cap[s] - used[s]) + 1):
                j = _find(codes, start[t + 1], start[t + 2], codes[i] + take * stride[s])
                if j >= 0 and (g_hi[j] != _ZERO or g_lo[j] != _ZERO):
                    w_hi, w_lo = _times(g_hi[j], g_lo[j], BINOM[left, take])
                    hi, lo = _plus(hi, lo, w_hi, w_lo)
            g_hi[i], g_lo[i] = hi, lo
    return programme, g_hi[0], g_lo[0]


@njit(cache=True, inline="always")
def _draw(rng: np.ndarray, stream: int, programme: Programme, hands: np.ndarray, used: np.ndarray) -> None:
    """One deal of the ``programme``'s groups into ``hands`` (uint64[groups]; ``used``: int64[groups] scratch):
    step by step, a number of cards drawn with probability (its deals) / (all deals from the current state) and
    that many cards of the class picked uniformly."""
    masks, members, sizes, cap, stride, steps, start, codes, g_hi, g_lo = programme
    seats = cap.shape[0]
    for s in range(seats):
        hands[s] = _ZERO
        used[s] = 0
    code = 0
    i = 0  # the state's position in the table
    cards = _ZERO
    left = 0
    for t in range(steps.shape[0]):
        k, s = steps[t, 0], steps[t, 1]
        if t == 0 or steps[t - 1, 0] != k:
            cards, left = masks[k], sizes[k]
        r_hi, r_lo = _below128(rng, stream, g_hi[i], g_lo[i])
        take = left if steps[t, 2] else 0
        while True:
            j = _find(codes, start[t + 1], start[t + 2], code + take * stride[s])
            w_hi, w_lo = _times(g_hi[j], g_lo[j], BINOM[left, take]) if j >= 0 else (_ZERO, _ZERO)
            if r_hi < w_hi or (r_hi == w_hi and r_lo < w_lo):
                break
            r_hi, r_lo = r_hi - w_hi - (_ONE if r_lo < w_lo else _ZERO), r_lo - w_lo
            take += 1
        drawn = draw_cards(rng, stream, cards, take)
        hands[s] |= drawn
        cards ^= drawn
        left -= take
        used[s] += take
        code += take * stride[s]
        i = j
    last = masks.shape[0] - 1
    if last >= 0:  # the last class fills what is left
        cards = masks[last]
        for s in members[last]:
            if s >= 0:
                drawn = draw_cards(rng, stream, cards, cap[s] - used[s])
                hands[s] |= drawn
                cards ^= drawn


@njit(cache=True)
def count_and_sample(rng: np.ndarray, stream: int, unseen: np.uint64, counts: np.ndarray, forbidden: np.ndarray,
                     known: np.ndarray, hands: np.ndarray) -> float:  # fmt: skip
    """The number of deals of the info set as a float (0.0 if none: ``hands`` is then untouched), and each row of
    ``hands`` (uint64[samples, seats], C order; zero rows: count only) filled with an independent, exactly uniform
    deal (seat s gets ``counts[s]`` cards, ``known[s]`` among them, none of ``forbidden[s]``; together the
    ``unseen`` cards), drawing from xoshiro ``stream`` of ``rng`` (uint64[streams, 4], C order). Counts once for
    all samples. The strong bots call it as a first-class function (``SAMPLER``, ``sample_view``): compiled once
    and called through its address, so no bot links and optimises the sampler's code again (issue 14)."""
    group, cap, programme, t_hi, t_lo = plan(unseen, counts, forbidden, known)
    if t_hi == _ZERO and t_lo == _ZERO:
        return 0.0
    shares = np.zeros(programme.cap.shape[0], np.uint64)
    used = np.zeros(programme.cap.shape[0], np.int64)
    for i in range(hands.shape[0]):
        _draw(rng, stream, programme, shares, used)
        for s in range(counts.shape[0]):  # each group's cards shared out uniformly among its members
            hands[i, s] = known[s]
            if group[s] >= 0:
                drawn = draw_cards(rng, stream, shares[group[s]], cap[s])
                hands[i, s] |= drawn
                shares[group[s]] ^= drawn
    return float(t_hi) * 18446744073709551616.0 + float(t_lo)


# count_and_sample's type as the strong bots take it: float64(rng, stream, unseen, counts, forbidden, known, hands)
SAMPLER = types.float64(types.Array(types.uint64, 2, "C"), types.int64, types.uint64, types.Array(types.int64, 1, "C"),
                        types.Array(types.uint64, 1, "C"), types.Array(types.uint64, 1, "C"),
                        types.Array(types.uint64, 2, "C"))  # fmt: skip


@njit(cache=True)
def sample_deals(rng: np.ndarray, stream: int, unseen: np.uint64, counts: np.ndarray, forbidden: np.ndarray,
                 known: np.ndarray, hands: np.ndarray) -> bool:  # fmt: skip
    """Fill each row of ``hands`` (uint64[samples, seats]) with an independent, exactly uniform deal of the info set
    (``count_and_sample``). False (``hands`` untouched) if no consistent deal exists."""
    return count_and_sample(rng, stream, unseen, counts, forbidden, known, hands) > 0.0


@njit(cache=True)
def sample_view(sampler: Any, rng: np.ndarray, stream: int, info: tuple, hands: np.ndarray, seat: int,
                n_played: int) -> None:  # fmt: skip
    """Each row of ``hands`` filled with a deal of the information set ``info`` (unseen, counts, forbidden, known)
    by ``sampler`` (``count_and_sample`` as a first-class function), for a strong bot's view of a real round, which
    the true deal always fits: finding no deal is a bug in the seat's information set, so it raises (every game the
    same; never a silent fallback)."""
    unseen, counts, forbidden, known = info
    if sampler(rng, np.int64(stream), np.uint64(unseen), counts, forbidden, known, hands) == 0.0:
        raise BotFailure("no deal fits the information set of the strong bot's seat (a bug in it); seat, cards "
                         "played:", seat, n_played)  # fmt: skip


@njit(cache=True)
def true_deals(truth: np.ndarray, samples: int) -> np.ndarray:
    """``samples`` copies [sample, pile] of the true piles ``truth`` (uint64[piles]): what the cheating
    ``omniscient`` bots use where the honest ones sample their information set."""
    deals = np.empty((samples, truth.shape[0]), np.uint64)
    for i in range(samples):
        deals[i] = truth
    return deals


@njit(cache=True)
def sample_deal(rng: np.ndarray, stream: int, unseen: np.uint64, counts: np.ndarray, forbidden: np.ndarray,
                known: np.ndarray, hands: np.ndarray) -> bool:  # fmt: skip
    """One exactly uniform deal of the info set into ``hands`` (uint64[seats]); False if none exists.
    Draw many deals of one info set with ``sample_deals``: it counts once."""
    return sample_deals(rng, stream, unseen, counts, forbidden, known, hands.reshape(1, hands.shape[0]))


def count_deals(unseen: int, counts, forbidden, known) -> int:
    """The exact number of deals consistent with an info set (0 if none)."""
    *_, hi, lo = plan(np.uint64(unseen), np.asarray(counts, np.int64), np.asarray(forbidden, np.uint64),
                      np.asarray(known, np.uint64))  # fmt: skip
    return int(hi) << 64 | int(lo)
