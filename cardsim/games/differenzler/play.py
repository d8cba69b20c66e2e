"""The course of Differenzler rounds and games for the drivers: every one is a loop over the state machine.

* ``run`` lets the built-in bots of a bot table play a round on (``bots.differenzler.run`` for random and
  heuristic seats; ``ask`` at a strong or numba bot's seat) until a Python bot's turn or the end.
* ``simulate_games`` (the batch kernel) deals (``state.deal``), runs and copies the results out, over many rounds
  or whole games (A11) in parallel.
* The plain-Python driver (``cardsim.driver.play_round``, through the ``Game`` hooks of ``game.py``) asks a Python
  bot at its turn with an ``Observation`` and lets ``run`` play the compiled seats on.

A lineup of built-in bots gives identical rounds through either driver (a test checks this).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
from numba import njit, prange

import bots.differenzler as builtin
import cardsim.audit as audit
from cardsim.arrays import copy_rows
from cardsim.deal import Work
from cardsim.errors import BotFailure
from cardsim.games.differenzler.rules import PLAYERS, TRICKS, game_over
from cardsim.games.differenzler.state import (
    FIRST_HAND,
    TRICK,
    TRUMP_CARD,
    Params,
    State,
    apply,
    audit_deal,
    bot_stream,
    check,
    deal_arrays,
    new_state,
    observe,
    redeal,
    scores_arrays,
    to_move,
)
from cardsim.games.generic import ask, register, round_dealer, run_checked

BLOCK = 256  # rounds per parallel work item
# the state machine for the loops every game shares (``ask``, ``run_checked``)
register(State, observe=observe, bot_stream=bot_stream, check=check, to_move=to_move, apply=apply, act=builtin.act)


class Out(NamedTuple):
    """The batch kernel's results: [unit] and [unit, round(, seat)] arrays (``Differenzler.run``)."""

    rounds_played: np.ndarray  # int64[units]
    first_hands: np.ndarray  # int8[units, rounds]
    trump_cards: np.ndarray  # int8[units, rounds]
    predictions: np.ndarray  # int16[units, rounds, players]
    points: np.ndarray  # int16[units, rounds, players]
    penalties: np.ndarray  # int16[units, rounds, players]


@njit(cache=True, inline="always")  # inlined into the batch loop: a call per round costs random bots ~30%
def run(s: State, p: Params, bots: np.ndarray, strong_bots: Any, users: tuple | None) -> int:
    """The built-in bots of ``bots`` (float64[players, 5], row[0] = bot id, -1 for a Python bot) play on from
    ``s``; returns the seat of a Python bot to move, or -1 when the round is over. A strong or numba bot (see
    ``ask``) is asked at its turn, and its action refused like any other (RULES D2)."""
    while True:
        seat = builtin.run(s, p, bots)
        if seat < 0 or bots[seat, 0] < 0:
            return seat
        if not apply(s, p, ask(s, p, bots[seat], seat, strong_bots, users)):
            raise BotFailure("a strong or numba Differenzler bot chose an illegal action (RULES D2)")


@njit(cache=True)
def run_bots(s: State, p: Params, bots: np.ndarray, strong_bots: Any) -> int:
    """``run`` as one compiled call for the Python driver (which asks the numba bots itself)."""
    return run(s, p, bots, strong_bots, None)


class Scratch(NamedTuple):
    """What a work item plays on, allocated by ``simulate_games`` for it (``Game.scratch``): the built-in loops then
    allocate nothing and count no references (``_nrt=False``; an inlined call that passes an array costs an atomic
    reference count each way, about 70 ns of a random round's 500)."""

    state: State
    lane: State  # the second round of a pair (``random_block``)
    totals: np.ndarray  # int64[players]: a game's totals
    lane_totals: np.ndarray  # the same for ``lane``'s game
    penalties: np.ndarray  # int64[players]: a round's
    streams: np.ndarray  # uint64[players + 1, 4]: the deal's streams right after it (``redeal``)
    lane_streams: np.ndarray  # the same for ``lane``


@njit(cache=True)
def scratch(p: Params) -> Scratch:
    """A work item's ``Scratch``."""
    players = np.int64(PLAYERS)
    return Scratch(new_state(players), new_state(players), np.zeros(PLAYERS, np.int64), np.zeros(PLAYERS, np.int64),
                   np.zeros(PLAYERS, np.int64), np.zeros((PLAYERS + 1, 4), np.uint64),
                   np.zeros((PLAYERS + 1, 4), np.uint64))  # fmt: skip


@njit(cache=True, _nrt=False)
def builtin_block(scratch: Scratch, work: Work, p: Params, bots: np.ndarray, strong_bots: None, users: None,
                  checks: np.ndarray | None, out: Out) -> None:  # fmt: skip
    """Units ``work.block * BLOCK ..`` of ``simulate_games``, which calls it through its address (``Game.simulate``:
    its code is not linked into the kernel and optimised again), for a lineup of random and heuristic bots, in
    every seating of ``bots`` (see ``simulate_games``): a single round is dealt once and dealt again by ``redeal``
    for the other seatings. Deal, run and scores of the state machine in their array forms."""
    seed, start, games, block = work
    s, _, totals, _, penalties, streams, _ = scratch
    sl, hands, dealt, points, predictions, history, rng = s.slots, s.hands, s.dealt, s.points, s.predictions, \
        s.history, s.rng  # fmt: skip
    seatings = bots.shape[0] // PLAYERS
    once = seatings > 1 and not games  # single rounds: dealt once for every seating
    count = out.rounds_played.shape[0] // seatings
    for g in range(block * BLOCK, min(count, (block + 1) * BLOCK)):
        for seating in range(seatings):
            table, u = bots[seating * PLAYERS : (seating + 1) * PLAYERS], seating * count + g
            for seat in range(PLAYERS):
                totals[seat] = 0
            r = np.int64(0)
            while r == 0 or (games and not game_over(totals, r, p.game_rounds, p.max_tiebreak_rounds)):
                _deal(s, streams, seed, start + g, r, out.first_hands[u, 0], seating > 0, once)
                if checks is not None:
                    row = checks[u]
                    audit_deal(row, dealt)
                    builtin.run_all(sl, hands, history, points, predictions, rng, table, row)
                    if audit.end(row, PLAYERS, PLAYERS * TRICKS):
                        raise BotFailure("a differenzler round broke an invariant (--check)")
                else:
                    builtin.run_all(sl, hands, history, points, predictions, rng, table, None)
                _record(out, u, r, sl, predictions, points, history, penalties, totals, p)
                r += 1
            out.rounds_played[u] = r


@njit(cache=True, _nrt=False)
def random_block(scratch: Scratch, work: Work, p: Params, bots: np.ndarray, strong_bots: None, users: None,
                 checks: None, out: Out) -> None:  # fmt: skip
    """``builtin_block`` for unchecked single rounds of random bots only (``Game.random_block``): two at a time,
    played card by card in turn (``builtin.run_pair``): a round is one chain of dependent steps, and two chains keep
    the CPU busier than one. An odd last unit is played beside a copy of itself (the same round: the same results).
    Dealt once for every seating, as in ``builtin_block``. Whole games: ``random_games_block``."""
    seed, start, _, block = work
    s, lane, totals, _, penalties, streams, lane_streams = scratch  # totals: not read for single rounds
    seatings = bots.shape[0] // PLAYERS
    once = seatings > 1
    count = out.rounds_played.shape[0] // seatings
    end = min(count, (block + 1) * BLOCK)
    zero, drawn = np.int64(0), np.int64(-1)  # round 0, its First Hand drawn (not literals: a kernel per literal)
    for g in range(block * BLOCK, end, 2):
        h = g + 1 if g + 1 < end else g
        for seating in range(seatings):
            table, u, v = bots[seating * PLAYERS : (seating + 1) * PLAYERS], seating * count + g, seating * count + h
            if seating > 0:  # the same two rounds again
                _redeal_pair(scratch)
            else:
                deal_arrays(s.slots, s.hands, s.dealt, s.points, s.rng, seed, start + g, zero, drawn)
                deal_arrays(lane.slots, lane.hands, lane.dealt, lane.points, lane.rng, seed, start + h, zero, drawn)
                if once:
                    copy_rows(streams, s.rng, s.rng.shape[0])
                    copy_rows(lane_streams, lane.rng, lane.rng.shape[0])
            builtin.run_pair(s, lane, table)
            _record(out, u, zero, s.slots, s.predictions, s.points, s.history, penalties, totals, p)
            _record(out, v, zero, lane.slots, lane.predictions, lane.points, lane.history, penalties, totals, p)
            out.rounds_played[u], out.rounds_played[v] = 1, 1


@njit(cache=True, _nrt=False)
def random_games_block(scratch: Scratch, work: Work, p: Params, bots: np.ndarray, strong_bots: None, users: None,
                       checks: None, out: Out) -> None:  # fmt: skip
    """``random_block`` for whole games (``Game.random_games_block``): two games at a time, round r of each beside
    round r of the other. A game that is over while the other plays a tie-break, and an odd last unit, is played
    beside a copy of the other's round (the same round: the same results, recorded once)."""
    seed, start, _, block = work
    s, lane, totals, lane_totals, penalties, _, _ = scratch
    seatings = bots.shape[0] // PLAYERS
    count = out.rounds_played.shape[0] // seatings
    end = min(count, (block + 1) * BLOCK)
    for g in range(block * BLOCK, end, 2):
        h = g + 1 if g + 1 < end else g
        for seating in range(seatings):
            table, u, v = bots[seating * PLAYERS : (seating + 1) * PLAYERS], seating * count + g, seating * count + h
            for seat in range(PLAYERS):
                totals[seat], lane_totals[seat] = 0, 0
            r = np.int64(0)
            while True:
                on = r == 0 or not game_over(totals, r, p.game_rounds, p.max_tiebreak_rounds)
                lane_on = r == 0 or not game_over(lane_totals, r, p.game_rounds, p.max_tiebreak_rounds)
                if not (on or lane_on):
                    break
                unit, row = (g, u) if on else (h, v)  # what each lane plays: a unit and its row of ``out``
                lane_unit, lane_row = (h, v) if lane_on else (g, u)
                deal_arrays(s.slots, s.hands, s.dealt, s.points, s.rng, seed, start + unit, r,
                            round_dealer(out.first_hands[row, 0], r, PLAYERS))  # fmt: skip
                deal_arrays(lane.slots, lane.hands, lane.dealt, lane.points, lane.rng, seed, start + lane_unit, r,
                            round_dealer(out.first_hands[lane_row, 0], r, PLAYERS))  # fmt: skip
                builtin.run_pair(s, lane, table)
                if on:
                    _record(out, u, r, s.slots, s.predictions, s.points, s.history, penalties, totals, p)
                    out.rounds_played[u] = r + 1
                if lane_on:
                    _record(out, v, r, lane.slots, lane.predictions, lane.points, lane.history, penalties,
                            lane_totals, p)  # fmt: skip
                    out.rounds_played[v] = r + 1
                r += 1


@njit(cache=True, _nrt=False)
def _redeal_pair(scratch: Scratch) -> None:
    """``redeal`` of ``random_block``'s two rounds for the seatings after the first: a call, as it is rare (inlined
    into the work item, it costs its cold compile). Two calls of ``redeal``, not a loop over the pair: the smaller
    function LLVM inlines into the work item, where it cost random rounds 4% (docs/performance.md, "Redeal in the
    pairs")."""
    s, lane, _, _, _, streams, lane_streams = scratch
    redeal(s.slots, s.hands, s.dealt, s.points, s.rng, streams)
    redeal(lane.slots, lane.hands, lane.dealt, lane.points, lane.rng, lane_streams)


@njit(cache=True, inline="always")
def _deal(s: State, streams: np.ndarray, seed: np.uint64, unit: int, r: int, first_hand: int, again: bool,
          once: bool) -> None:  # fmt: skip
    """Round ``r`` of ``unit`` dealt into ``s`` (``first_hand``: round 0's in ``out``, see ``round_dealer``); with
    ``once`` (a single round in several seatings) the deal's streams are kept in ``streams`` and a seating after
    the first (``again``) starts the same round again (``redeal``)."""
    if again and once:
        redeal(s.slots, s.hands, s.dealt, s.points, s.rng, streams)
    else:
        deal_arrays(s.slots, s.hands, s.dealt, s.points, s.rng, seed, unit, r, round_dealer(first_hand, r, PLAYERS))
        if once:
            copy_rows(streams, s.rng, s.rng.shape[0])


@njit(cache=True)
def asking_block(scratch: Scratch, work: Work, p: Params, bots: np.ndarray, strong_bots: Any, users: tuple | None,
                 checks: np.ndarray | None, out: Out) -> None:  # fmt: skip
    """``builtin_block`` for a lineup with a strong or numba bot, each round through ``run`` (or ``run_checked``):
    a function of its own (``Game.play_blocks``), so that a strong lineup does not compile the built-in loops.
    Each seating deals its own round."""
    seed, start, games, block = work
    s, _, totals, _, penalties, _, _ = scratch
    seatings = bots.shape[0] // PLAYERS
    count = out.rounds_played.shape[0] // seatings
    for g in range(block * BLOCK, min(count, (block + 1) * BLOCK)):
        for seating in range(seatings):
            table, u = bots[seating * PLAYERS : (seating + 1) * PLAYERS], seating * count + g
            totals[:] = 0
            r = np.int64(0)
            while r == 0 or (games and not game_over(totals, r, p.game_rounds, p.max_tiebreak_rounds)):
                deal_arrays(s.slots, s.hands, s.dealt, s.points, s.rng, seed, start + g, r,
                            round_dealer(out.first_hands[u, 0], r, PLAYERS))  # fmt: skip
                if checks is not None:
                    checks[u, audit.STEPS] += np.uint64(run_checked(s, p, table, strong_bots, users))
                else:
                    run(s, p, table, strong_bots, users)
                _record(out, u, r, s.slots, s.predictions, s.points, s.history, penalties, totals, p)
                r += 1
            out.rounds_played[u] = r


@njit(cache=True, inline="always")
def _record(out: Out, u: int, r: int, sl: np.ndarray, predictions: np.ndarray, points: np.ndarray,
            history: np.ndarray, penalties: np.ndarray, totals: np.ndarray, p: Params) -> None:  # fmt: skip
    """Round ``r`` of unit ``u`` into ``out``, its penalties (``state.scores_arrays``) added to the game's
    ``totals``."""
    scores_arrays(predictions, points, history, sl[TRICK], p.exact_bonus, p.zero_bonus, penalties)
    out.first_hands[u, r], out.trump_cards[u, r] = sl[FIRST_HAND], sl[TRUMP_CARD]
    for seat in range(PLAYERS):
        out.predictions[u, r, seat], out.points[u, r, seat] = predictions[seat], points[seat]
        out.penalties[u, r, seat] = penalties[seat]
        totals[seat] += penalties[seat]


@njit(parallel=True, nogil=True, cache=True)  # nogil: the runner writes the last chunk meanwhile
def simulate_games(work: Work, p: Params, bots: np.ndarray, strong_bots: Any, users: tuple | None,
                   checks: np.ndarray | None, out: Out, work_item: Any) -> None:  # fmt: skip
    """Units ``work.start ..`` of seed ``work.seed`` in parallel: whole games (``work.games``; A11, A13: First Hand
    drawn, then the next seat each round, ``p.game_rounds`` rounds and the tie-breaks) or single rounds. Round r
    of unit u is stream (seed, u, r); ``out.rounds_played[unit]`` says how many rounds are filled.
    ``strong_bots`` and ``users`` (None or ``Lineup.functions``): see ``ask``. ``checks``: None (numba compiles no
    checks), or uint64[units, audit.SLOTS] for ``--check``: with built-in bots only, the fast loop checks every
    step against the unit's row (``state.audit_card``); with a strong or numba bot, ``run_checked`` steps and
    checks the whole round (``state.check``). Column ``audit.STEPS`` counts the steps checked. ``work_item``:
    ``builtin_block``, ``random_block`` or ``asking_block`` as a first-class function (``Game.simulate``), given a
    ``scratch`` of its own. ``bots``: float64[seatings * players, 5], the bot tables of one or more seatings one
    under the other (``Game.run_rotations``); unit u of seating k is ``out[k * count + u]``."""
    count = out.rounds_played.shape[0] // (bots.shape[0] // PLAYERS)
    for block in prange((count + BLOCK - 1) // BLOCK):
        # scratch: a call, as numba hoists no call out of a parallel loop (so each item has its own)
        work_item(scratch(p), Work(work.seed, work.start, work.games, np.uint64(block)), p, bots, strong_bots, users,
                  checks, out)  # fmt: skip


# --- what a Python bot is given ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Trick:
    """One finished trick: who led, the cards in play order, who won, its points."""

    leader: int
    cards: tuple[str, ...]
    winner: int
    points: int


@dataclass
class Observation:
    """What one seat may see when it decides (A5, A7): passed to a Python bot.

    Cards are canonical names (``"SA"``, ``"HT"``). ``predictions`` holds the
    predictions this seat may see: its own, and with open predictions those
    announced before it (and all of them during play); unseen ones are None.
    ``legal`` is empty when predicting. ``rng`` is this seat's own random
    generator for the round (a one-way function of the round), so Python bots
    are reproducible too.
    """

    seat: int
    first_hand: int
    dealer: int
    trump: str
    trump_card: str
    hand: list[str]
    legal: list[str]
    predictions: list[int | None]
    trick: list[str]
    trick_leader: int
    tricks: list[Trick]
    points: list[int]
    rng: random.Random
