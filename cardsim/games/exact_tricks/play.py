"""The compiled drivers of the exact-tricks family (RULES.md B2-B9, F2-F7), loops over the round's state machine
(``state.py``): ``run`` lets the built-in bots play on (``ask`` at a strong or numba bot's seat), ``simulate_games``
plays batches of single rounds or whole games; and the Python bot protocol's Observation.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
from numba import njit, prange

import bots.exact_tricks as builtin
import cardsim.audit as audit
from cardsim.arrays import copy_rows
from cardsim.deal import Work
from cardsim.errors import BotFailure
from cardsim.games.exact_tricks.rules import score
from cardsim.games.exact_tricks.state import (
    BIDDING,
    CARDS,
    DEALER,
    TRUMP_SUIT,
    TURNED,
    Params,
    State,
    apply,
    audit_deal,
    bot_stream,
    check,
    deal,
    deal_arrays,
    deal_pair,
    new_state,
    observe,
    redeal,
    scoring,
    step,
    to_move,
)
from cardsim.games.generic import ask, register, round_dealer, run_checked

BLOCK = 64  # rounds or games per parallel work item
SUIT_LETTERS = "SHDC"
__all__ = ["BIDDING", "SUIT_LETTERS", "Observation", "Out", "Trick", "run", "simulate_games"]
# the state machine for the loops every game shares (``ask``, ``run_checked``)
register(State, observe=observe, bot_stream=bot_stream, check=check, to_move=to_move, apply=apply, act=builtin.act)


@njit(cache=True)
def run(s: State, p: Params, bots: np.ndarray, strong_bots: Any, users: tuple | None) -> int:
    """Let the built-in bots of ``bots`` (float64[players, 5], row[0] the bot id, -1 a Python bot) play on; returns
    the seat of a -1 whose turn it is, or -1 when the round is over. A built-in bot's illegal action is refused too
    (RULES.md D2): it raises. The built-in bots play on in ``run_builtin``, on the State's arrays unpacked once
    (no State crosses the hot calls, see ``state.step``); a strong or numba seat is asked here (``ask``) and its
    action applied, refused if illegal."""
    slots, hands, _, bids, won, log, rng, _ = s
    pm1 = p.plus_minus_one
    stops = np.int64(0)  # not the literal 0: run_builtin would be compiled for Literal[int](0) too
    for seat in range(hands.shape[0]):
        if bots[seat, 0] < 0 or bots[seat, 0] >= builtin.MC:  # a Python, strong or numba bot
            stops |= 1 << seat
    seats = builtin.Seats(bots, stops, builtin.game_data(p))
    while True:
        seat = builtin.run_builtin(slots, hands, bids, won, log, rng, seats, None)
        if seat < 0 or bots[seat, 0] < 0:
            return seat
        if not step(slots, hands, bids, won, log, pm1, ask(s, p, bots[seat], seat, strong_bots, users)):
            raise BotFailure("a strong or numba bot chose an illegal action")


class Out(NamedTuple):
    """Result arrays of ``simulate_games``, [unit, round] and [unit, round, seat]."""

    dealers: np.ndarray
    turned: np.ndarray
    trumps: np.ndarray
    bids: np.ndarray
    tricks: np.ndarray
    scores: np.ndarray


@njit(parallel=True, nogil=True, cache=True)  # nogil: the runner writes the last chunk meanwhile
def simulate_games(work: Work, p: Params, bots: np.ndarray, strong_bots: Any, users: tuple | None,
                   checks: np.ndarray | None, out: Out, work_item: Any) -> None:  # fmt: skip
    """Units ``work.start ..`` of seed ``work.seed`` in parallel, each a game of ``len(p.schedule)`` rounds (round
    r deals p.schedule[r] cards, or a drawn number: ``state.deal``; stream (seed, unit, r)). A single round is a
    one-round schedule. ``strong_bots``, ``users``: see ``ask``. ``checks``: None, or int64[units] that counts the
    steps checked (``run_checked``; none compiled for None). ``work_item``: ``builtin_block``, ``random_block`` or
    ``asking_block`` as a first-class function (``Game.simulate``), given a ``scratch`` of its own. ``bots``:
    float64[seatings * players, 5], the bot tables of one or more seatings one under the other
    (``Game.run_rotations``); unit u of seating k is ``out[k * count + u]``."""
    count = out.dealers.shape[0] // (bots.shape[0] // p.players)
    for block in prange((count + BLOCK - 1) // BLOCK):
        # scratch: a call, as numba hoists no call out of a parallel loop (so each item has its own)
        work_item(scratch(p), Work(work.seed, work.start, work.games, np.uint64(block)), p, bots, strong_bots, users,
                  checks, out)  # fmt: skip


class Scratch(NamedTuple):
    """What a work item plays on, allocated by ``simulate_games`` for it (``Game.scratch``): the built-in loops then
    allocate nothing and count no references (``_nrt=False``)."""

    state: State
    lane: State  # the second round of a pair (``random_block``)
    streams: np.ndarray  # uint64[players + 1, 4]: the deal's streams right after it (``redeal``)
    lane_streams: np.ndarray  # the same for ``lane``


@njit(cache=True)
def scratch(p: Params) -> Scratch:
    """A work item's ``Scratch``."""
    return Scratch(new_state(p.players), new_state(p.players), np.zeros((p.players + 1, 4), np.uint64),
                   np.zeros((p.players + 1, 4), np.uint64))  # fmt: skip


@njit(cache=True, _nrt=False)
def builtin_block(scratch: Scratch, work: Work, p: Params, bots: np.ndarray, strong_bots: None, users: None,
                  checks: np.ndarray | None, out: Out) -> None:  # fmt: skip
    """The units of one work item of ``simulate_games`` (which calls it through its address: its code is not
    linked into the kernel and optimised again) for a lineup of built-in bots (each unit a game of the schedule,
    which has one round for single rounds: ``work.games`` is not read), in every seating of ``bots`` (see
    ``simulate_games``; a single round is dealt once and dealt again by ``redeal`` for the other seatings), on one
    State unpacked once (see ``state.step``)."""
    seed, start, _, block = work
    s, _, streams, _ = scratch
    slots, hands, dealt, bid, won, log, rng, _ = s
    players = p.players
    seatings = bots.shape[0] // players
    count = out.dealers.shape[0] // seatings
    rounds = p.schedule.shape[0]
    once = seatings > 1 and rounds == 1  # single rounds: dealt once for every seating
    for g in range(block * BLOCK, min(count, (block + 1) * BLOCK)):
        for seating in range(seatings):
            table, u = bots[seating * players : (seating + 1) * players], seating * count + g
            seats = builtin.Seats(table, np.int64(0), builtin.game_data(p))  # no stop: a batch seats compiled bots
            for r in range(rounds):
                _deal(s, streams, p, seed, start + g, r, out.dealers[u, 0], seating > 0, once)
                if checks is not None:
                    row = checks[u]  # one view (each costs atomic reference counts)
                    audit_deal(row, dealt, slots[CARDS], slots[TURNED])
                    builtin.run_builtin(slots, hands, bid, won, log, rng, seats, row)
                    if audit.end(row, players, players * slots[CARDS]):
                        raise BotFailure("a round broke an invariant (--check)")
                else:
                    builtin.run_builtin(slots, hands, bid, won, log, rng, seats, None)
                _record(out, u, r, slots, bid, won, p)


@njit(cache=True, _nrt=False)
def random_block(scratch: Scratch, work: Work, p: Params, bots: np.ndarray, strong_bots: None, users: None,
                 checks: None, out: Out) -> None:  # fmt: skip
    """``builtin_block`` for unchecked single rounds of random bots only (``Game.random_block``): two at a time,
    both dealt card by card and played trick by trick in turn (``state.deal_pair``, ``_play_pair``): a round is one
    chain of dependent steps, and two chains keep the CPU busier than one. An odd last unit is played beside a copy
    of itself (the same round: the same results). Dealt once for every seating, as in ``builtin_block``. Whole games
    take ``random_games_block``: single rounds inside a loop over a game's rounds ran 5% slower on a Xeon, for the
    same work (docs/performance.md)."""
    seed, start, _, block = work
    s, lane, streams, lane_streams = scratch
    players = p.players
    seatings = bots.shape[0] // players
    count = out.dealers.shape[0] // seatings
    once = seatings > 1
    end = min(count, (block + 1) * BLOCK)
    zero, drawn = np.int64(0), np.int64(-1)  # round 0, its dealer drawn (not literals: a kernel per literal)
    for g in range(block * BLOCK, end, 2):
        h = g + 1 if g + 1 < end else g
        for seating in range(seatings):
            u = seating * count + g
            if seating > 0:  # the same two rounds again (see ``_deal``)
                _redeal_pair(scratch, p.fixed_trumps[0])
            else:  # both dealt card by card in turn
                deal_pair(s, lane, p, seed, start + g, start + h, zero, drawn, drawn)
                if once:
                    copy_rows(streams, s.rng, s.rng.shape[0])
                    copy_rows(lane_streams, lane.rng, lane.rng.shape[0])
            _play_pair(scratch, p, bots[seating * players : (seating + 1) * players], zero, out, u, u + h - g)


@njit(cache=True, _nrt=False)
def random_games_block(scratch: Scratch, work: Work, p: Params, bots: np.ndarray, strong_bots: None, users: None,
                       checks: None, out: Out) -> None:  # fmt: skip
    """``random_block`` for whole games (``Game.random_games_block``): two games at a time, round ``r`` of each
    beside round ``r`` of the other (both have the schedule's rounds)."""
    seed, start, _, block = work
    s, lane, _, _ = scratch
    players = p.players
    seatings = bots.shape[0] // players
    count = out.dealers.shape[0] // seatings
    end = min(count, (block + 1) * BLOCK)
    for g in range(block * BLOCK, end, 2):
        h = g + 1 if g + 1 < end else g
        for seating in range(seatings):
            table, u, v = bots[seating * players : (seating + 1) * players], seating * count + g, seating * count + h
            for r in range(p.schedule.shape[0]):
                deal_pair(s, lane, p, seed, start + g, start + h, r, round_dealer(out.dealers[u, 0], r, players),
                          round_dealer(out.dealers[v, 0], r, players))  # fmt: skip
                _play_pair(scratch, p, table, r, out, u, v)


@njit(cache=True, inline="always")
def _play_pair(scratch: Scratch, p: Params, table: np.ndarray, r: int, out: Out, u: int, v: int) -> None:
    """Round ``r`` of the two dealt rounds played by random bots (``builtin.run_pair``) and recorded at rows ``u``
    and ``v``."""
    s, lane, _, _ = scratch
    builtin.run_pair(s, lane, builtin.Seats(table, np.int64(0), builtin.game_data(p)))
    _record(out, u, r, s.slots, s.bids, s.won, p)
    _record(out, v, r, lane.slots, lane.bids, lane.won, p)


@njit(cache=True, _nrt=False)
def _redeal_pair(scratch: Scratch, fixed_trump: int) -> None:
    """``redeal`` of ``random_block``'s two rounds for the seatings after the first: a call, as it is rare (inlined
    into the work item, it costs its cold compile). Two calls of ``redeal``, not a loop over the pair: the smaller
    function LLVM inlines into the work item, where it cost Oh Hell's random rounds 4% (docs/performance.md)."""
    s, lane, streams, lane_streams = scratch
    redeal(s.slots, s.hands, s.dealt, s.bids, s.won, s.rng, streams, fixed_trump)
    redeal(lane.slots, lane.hands, lane.dealt, lane.bids, lane.won, lane.rng, lane_streams, fixed_trump)


@njit(cache=True, inline="always")
def _deal(s: State, streams: np.ndarray, p: Params, seed: np.uint64, unit: int, r: int, dealer: int, again: bool,
          once: bool) -> None:  # fmt: skip
    """Round ``r`` of ``unit`` dealt into ``s`` (``dealer``: round 0's in ``out``, see ``round_dealer``); with
    ``once`` (a single round in several seatings) the deal's streams are kept in ``streams`` and a seating after
    the first (``again``) starts the same round again (``redeal``)."""
    if again and once:
        redeal(s.slots, s.hands, s.dealt, s.bids, s.won, s.rng, streams, p.fixed_trumps[r])
    else:
        deal_arrays(s.slots, s.hands, s.dealt, s.bids, s.won, s.rng, p, seed, unit, r,
                    round_dealer(dealer, r, p.players))  # fmt: skip
        if once:
            copy_rows(streams, s.rng, s.rng.shape[0])


@njit(cache=True)
def asking_block(scratch: Scratch, work: Work, p: Params, bots: np.ndarray, strong_bots: Any, users: tuple | None,
                 checks: np.ndarray | None, out: Out) -> None:  # fmt: skip
    """``builtin_block`` for a lineup with a strong or numba bot, each round through ``run`` (or ``run_checked``):
    a function of its own (``Game.play_blocks``), so that a strong lineup does not compile the built-in loops.
    Each seating deals its own round."""
    seed, start, _, block = work
    s = scratch.state
    players = p.players
    seatings = bots.shape[0] // players
    count = out.dealers.shape[0] // seatings
    for g in range(block * BLOCK, min(count, (block + 1) * BLOCK)):
        for seating in range(seatings):
            table, u = bots[seating * players : (seating + 1) * players], seating * count + g
            for r in range(p.schedule.shape[0]):
                deal(s, p, seed, start + g, r, round_dealer(out.dealers[u, 0], r, players))
                if checks is not None:
                    checks[u, audit.STEPS] += np.uint64(run_checked(s, p, table, strong_bots, users))
                else:
                    run(s, p, table, strong_bots, users)
                _record(out, u, r, s.slots, s.bids, s.won, p)


@njit(cache=True, inline="always")
def _record(out: Out, u: int, r: int, slots: np.ndarray, bid: np.ndarray, won: np.ndarray, p: Params) -> None:
    """Round ``r`` of unit ``u`` into ``out``, scored (``rules.score``)."""
    out.dealers[u, r], out.turned[u, r], out.trumps[u, r] = slots[DEALER], slots[TURNED], slots[TRUMP_SUIT]
    coefficients = scoring(p)
    for seat in range(p.players):
        out.bids[u, r, seat], out.tricks[u, r, seat] = bid[seat], won[seat]
        out.scores[u, r, seat] = score(coefficients, bid[seat], won[seat])


# --- the bot protocol ---------------------------------------------------------


@dataclass(frozen=True)
class Trick:
    """One finished trick: who led, the cards in play order, who won."""

    leader: int
    cards: tuple[str, ...]
    winner: int


@dataclass
class Observation:
    """What one seat may see when it decides: passed to a Python bot.

    Cards are canonical names (``"H13"``, ``"W1"``, ``"J2"``); suits are
    ``"S" "H" "D" "C"`` (the seed's four races, in that order: dwarves, elves,
    giants, humans), ``None`` for no trump. ``bids`` holds the bids this seat
    may see under the ``bidding`` option (its own always), others None.
    ``legal`` is empty except when playing; ``refused`` is the one bid the
    dealer may not make under ``plus_minus_one`` (else None).
    """

    seat: int
    dealer: int
    players: int
    cards: int
    trump: str | None
    turned_card: str | None
    hand: list[str]
    legal: list[str]
    bids: list[int | None]
    refused: int | None
    trick: list[str]
    trick_leader: int
    tricks: list[Trick]
    tricks_won: list[int]
    rng: random.Random
