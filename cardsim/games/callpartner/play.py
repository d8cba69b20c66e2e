"""The drivers of a call-partner round over its state machine (``state``): the compiled ``run`` (built-in bots
play on; strong bots are asked through their one entry ``act`` and numba bots with their seat's view: ``ask``)
and the batch kernel ``simulate_games``; and the protocol of Python bots (``Observation`` and the checks of their
answers).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
from numba import njit, prange

import bots.callpartner as builtin
import cardsim.audit as audit
from cardsim.arrays import copy_rows
from cardsim.cards import FRENCH52, SUIT_SYMBOLS
from cardsim.deal import Work
from cardsim.errors import BotFailure, CardsimError
from cardsim.games.callpartner.rules import game_over
from cardsim.games.callpartner.state import (
    CALLED,
    DEALER,
    DECLARER,
    HIGH,
    NO_SEAT,
    PARTNER,
    PASS,
    SIDE,
    TRUMP,
    Params,
    State,
    apply,
    audit_deal,
    bot_stream,
    check,
    deal,
    deal_inline,
    new_state,
    observe,
    redeal,
    to_move,
)
from cardsim.games.generic import ask, register, round_dealer, run_checked
from cardsim.lineup import FIRST_STRONG
from cardsim.protocol import answer_card, not_a_card
from cardsim.validation import kind_of, shown

SUIT_LETTERS = "SHDC"
ROUNDS_BLOCK, GAMES_BLOCK = 256, 32  # single deals / whole games per parallel work item
# the state machine for the loops every game shares (``ask``, ``run_checked``)
register(State, observe=observe, bot_stream=bot_stream, check=check, to_move=to_move, apply=apply, act=builtin.act)


@njit(cache=True)
def run(s: State, p: Params, bots: np.ndarray, strong_bots: Any, users: tuple | None) -> int:
    """Plays on from ``s`` with the bots of the lineup table ``bots`` (row[0] the id, -1 for a Python bot) until a
    Python bot's seat is to move (returned) or the round is over (-1). With neither ``strong_bots`` nor ``users``
    (see ``ask``; numba then compiles neither) the built-in bots play every seat; else a strong or numba seat is
    asked (``ask``) and its action applied (refused if illegal, like anybody's)."""
    if strong_bots is None and users is None:
        return builtin.run(s, p, bots, builtin.PLAY_ON, builtin.NO_PASSER, None)
    while True:
        seat = builtin.run(s, p, bots, builtin.STOP_AT_STRONG, builtin.NO_PASSER, None)
        if seat < 0 or bots[seat, 0] < FIRST_STRONG:
            return seat
        if not apply(s, p, ask(s, p, bots[seat], seat, strong_bots, users)):
            raise BotFailure("callpartner: a strong or numba bot chose an illegal action")


class Out(NamedTuple):
    """The batch kernel's results, [unit, deal(, seat)]; ``played[unit]`` deals are filled."""

    played: np.ndarray
    dealers: np.ndarray
    declarers: np.ndarray
    bids: np.ndarray
    trumps: np.ndarray
    called: np.ndarray
    partners: np.ndarray
    side_points: np.ndarray
    made: np.ndarray
    points: np.ndarray
    scores: np.ndarray


@njit(parallel=True, nogil=True, cache=True)  # nogil: the runner writes the last chunk meanwhile
def simulate_games(work: Work, p: Params, bots: np.ndarray, strong_bots: Any, users: tuple | None,
                   checks: np.ndarray | None, out: Out, work_item: Any) -> None:  # fmt: skip
    """Units ``work.start ..`` of seed ``work.seed`` in parallel: single deals (round (seed, unit, 0)), or whole
    games (``work.games``; C10) whose deal d is round (seed, unit, d), the dealer rotating from a random first
    dealer; each a loop over the state machine (``deal``, ``run``). ``bots``: float64[seatings * players, 5], the
    bot tables of one or more seatings one under the other (``Game.run_rotations``): unit u of seating k is
    ``out[k * count + u]``, a single deal dealt once and dealt again by ``redeal`` for the other seatings.
    ``strong_bots``, ``users``: see ``ask``. ``checks``: None (numba compiles no checks), or uint64[units,
    audit.SLOTS] for ``--check``: with built-in bots only, the fast loops check every card against the unit's row
    (``state.audit_card``, ``cardsim.audit``) and the full ``state.check`` runs as the tricks begin; with a strong
    bot, ``run_checked`` steps and checks the whole round. Column ``audit.STEPS`` counts the steps checked.
    ``work_item``: ``builtin_block``, ``random_block`` or ``asking_block`` as a first-class function
    (``Game.simulate``), given a ``scratch`` of its own."""
    block = GAMES_BLOCK if work.games else ROUNDS_BLOCK
    count = out.played.shape[0] // (bots.shape[0] // p.players)
    for b in prange((count + block - 1) // block):
        # scratch: a call, as numba hoists no call out of a parallel loop (so each item has its own)
        work_item(scratch(p), Work(work.seed, work.start, work.games, np.uint64(b)), p, bots, strong_bots, users,
                  checks, out)  # fmt: skip


class Scratch(NamedTuple):
    """What a work item plays on, allocated by ``simulate_games`` for it (``Game.scratch``). The built-in loops then
    allocate nothing and count no references (``_nrt=False``) and are the work items themselves, not linked into an
    allocating one and optimised by LLVM there again (about 1 s of a cold compile)."""

    state: State
    lane: State  # the second deal of a pair (``random_block``)
    totals: np.ndarray  # int64[players]: a game's totals
    lane_totals: np.ndarray  # the same for ``lane``'s game
    streams: np.ndarray  # uint64[players + 1, 4]: the deal's streams right after it (``redeal``)
    lane_streams: np.ndarray  # the same for ``lane``


@njit(cache=True)
def scratch(p: Params) -> Scratch:
    """A work item's ``Scratch``."""
    players = p.players
    return Scratch(new_state(players), new_state(players), np.zeros(players, np.int64), np.zeros(players, np.int64),
                   np.zeros((players + 1, 4), np.uint64), np.zeros((players + 1, 4), np.uint64))  # fmt: skip


@njit(cache=True, _nrt=False)
def builtin_block(scratch: Scratch, work: Work, p: Params, bots: np.ndarray, strong_bots: None, users: None,
                  checks: np.ndarray | None, out: Out) -> None:  # fmt: skip
    """The units of ``work`` (a work item of ``simulate_games``, which calls it through its address: its code is
    not linked into the kernel and optimised again) for a lineup of built-in bots, with no reference counts and the
    round's deal and ``run_inline`` inlined: a call per round costs random self-play 9% and checked heuristic play
    6% (docs/DESIGN.md, fast loops). ``checks``: see ``simulate_games``."""
    s, _, totals, _, streams, _ = scratch
    slots, points, scores, players = s.slots, s.points, s.scores, p.players
    seatings = bots.shape[0] // players
    once = seatings > 1 and not work.games  # single deals: dealt once for every seating
    count = out.played.shape[0] // seatings
    for g in range(*_units(work, count)):
        for seating in range(seatings):
            table, u = bots[seating * players : (seating + 1) * players], seating * count + g
            for seat in range(players):  # a loop: a slice assignment per unit costs more than a random bot's bid
                totals[seat] = 0
            d = np.int64(0)
            while d == 0 or (work.games and not game_over(totals, players, d, p.target, p.max_deals)):
                _deal(s, streams, p, work, g, d, out.dealers[u, 0], seating > 0, once)
                if checks is None:
                    builtin.run_inline(s, p, table, builtin.PLAY_ON, builtin.NO_PASSER, None)
                else:
                    row = checks[u]
                    audit_deal(row, s, p)
                    builtin.run_inline(s, p, table, builtin.PLAY_ON, builtin.NO_PASSER, row)
                    if audit.end(row, players, players * p.hand):
                        raise BotFailure("a callpartner round broke an invariant (--check)")
                _record(out, u, d, slots, points, scores, totals)
                d += 1
            out.played[u] = d


@njit(cache=True, _nrt=False)
def random_block(scratch: Scratch, work: Work, p: Params, bots: np.ndarray, strong_bots: None, users: None,
                 checks: None, out: Out) -> None:  # fmt: skip
    """``builtin_block`` for unchecked single deals of random bots only (``Game.random_block``): two at a time,
    played trick by trick in turn (``builtin.run_pair``): a deal is one chain of dependent steps, and two chains
    keep the CPU busier than one. An odd last unit is played beside a copy of itself (the same deal: the same
    results). Dealt once for every seating, as in ``builtin_block``. Whole games: ``random_games_block``."""
    s, lane, totals, _, streams, lane_streams = scratch  # totals: not read for single deals
    seed, start, players = work.seed, work.start, p.players
    seatings = bots.shape[0] // players
    once = seatings > 1
    count = out.played.shape[0] // seatings
    first, end = _units(work, count)
    zero, drawn = np.int64(0), np.int64(-1)  # deal 0, its dealer drawn (not literals: a kernel per literal)
    for g in range(first, end, 2):
        h = g + 1 if g + 1 < end else g
        for seating in range(seatings):
            table, u, v = bots[seating * players : (seating + 1) * players], seating * count + g, seating * count + h
            if seating > 0:  # the same two deals again
                _redeal_pair(scratch, p)
            else:
                deal_inline(s, p, seed, start + g, zero, drawn, NO_SEAT)
                deal_inline(lane, p, seed, start + h, zero, drawn, NO_SEAT)
                if once:
                    copy_rows(streams, s.rng, players + 1)
                    copy_rows(lane_streams, lane.rng, players + 1)
            builtin.run_pair(s, lane, p, table)
            _record(out, u, zero, s.slots, s.points, s.scores, totals)
            _record(out, v, zero, lane.slots, lane.points, lane.scores, totals)
            out.played[u], out.played[v] = 1, 1


@njit(cache=True, _nrt=False)
def random_games_block(scratch: Scratch, work: Work, p: Params, bots: np.ndarray, strong_bots: None, users: None,
                       checks: None, out: Out) -> None:  # fmt: skip
    """``random_block`` for whole games (``Game.random_games_block``): two games at a time, deal d of each beside
    deal d of the other. A game over while the other plays on, and an odd last unit, is played beside a copy of the
    other's deal (the same deal: the same results, recorded once)."""
    s, lane, totals, lane_totals, _, _ = scratch
    seed, start, players = work.seed, work.start, p.players
    seatings = bots.shape[0] // players
    count = out.played.shape[0] // seatings
    first, end = _units(work, count)
    for g in range(first, end, 2):
        h = g + 1 if g + 1 < end else g
        for seating in range(seatings):
            table, u, v = bots[seating * players : (seating + 1) * players], seating * count + g, seating * count + h
            for seat in range(players):
                totals[seat], lane_totals[seat] = 0, 0
            d = np.int64(0)
            while True:
                on = d == 0 or not game_over(totals, players, d, p.target, p.max_deals)
                lane_on = d == 0 or not game_over(lane_totals, players, d, p.target, p.max_deals)
                if not (on or lane_on):
                    break
                unit, row = (g, u) if on else (h, v)  # what each lane plays: a unit and its row of ``out``
                lane_unit, lane_row = (h, v) if lane_on else (g, u)
                deal_inline(s, p, seed, start + unit, d, round_dealer(out.dealers[row, 0], d, players), NO_SEAT)
                deal_inline(lane, p, seed, start + lane_unit, d, round_dealer(out.dealers[lane_row, 0], d, players),
                            NO_SEAT)  # fmt: skip
                builtin.run_pair(s, lane, p, table)
                if on:
                    _record(out, u, d, s.slots, s.points, s.scores, totals)
                    out.played[u] = d + 1
                if lane_on:
                    _record(out, v, d, lane.slots, lane.points, lane.scores, lane_totals)
                    out.played[v] = d + 1
                d += 1


@njit(cache=True, _nrt=False)
def _redeal_pair(scratch: Scratch, p: Params) -> None:
    """``redeal`` of ``random_block``'s two deals for the seatings after the first: a call, as it is rare (inlined
    into the work item, it costs its cold compile). Two calls of ``redeal``, not a loop over the pair: the smaller
    function LLVM inlines into the work item, where it cost random rounds 4% (docs/performance.md, "Redeal in the
    pairs")."""
    s, lane, _, _, streams, lane_streams = scratch
    redeal(s, p, streams)
    redeal(lane, p, lane_streams)


@njit(cache=True, inline="always")
def _deal(s: State, streams: np.ndarray, p: Params, work: Work, g: int, d: int, dealer: int, again: bool,
          once: bool) -> None:  # fmt: skip
    """Deal ``d`` of unit ``work.start + g`` dealt into ``s`` (``dealer``: deal 0's in ``out``, see
    ``round_dealer``); with ``once`` (a single deal in several seatings) the deal's streams are kept in ``streams``
    and a seating after the first (``again``) starts the same deal again (``redeal``)."""
    if again and once:
        redeal(s, p, streams)
    else:
        deal_inline(s, p, work.seed, work.start + g, d, round_dealer(dealer, d, p.players), NO_SEAT)
        if once:
            copy_rows(streams, s.rng, p.players + 1)


@njit(cache=True)
def asking_block(scratch: Scratch, work: Work, p: Params, bots: np.ndarray, strong_bots: Any, users: tuple | None,
                 checks: np.ndarray | None, out: Out) -> None:  # fmt: skip
    """``builtin_block`` for a lineup with a strong or numba bot, each round through ``run`` (or ``run_checked``):
    a function of its own (``Game.play_blocks``), so that a strong lineup does not compile the built-in loop too
    (numba does not prune an ``is None`` test of an array argument). Such a bot's own stream is seeded from the
    round's key when it first decides (``state.bot_stream``). Each seating deals its own round (``deal``, not
    inlined: what a strong lineup compiles stays small)."""
    s, _, totals, _, _, _ = scratch
    slots, players = s.slots, p.players
    seatings = bots.shape[0] // players
    count = out.played.shape[0] // seatings
    for g in range(*_units(work, count)):
        for seating in range(seatings):
            table, u = bots[seating * players : (seating + 1) * players], seating * count + g
            totals[:] = 0
            d = np.int64(0)  # not the literal 0: deal would compile for Literal[int](0) too
            while d == 0 or (work.games and not game_over(totals, players, d, p.target, p.max_deals)):
                deal(s, p, work.seed, work.start + g, d, round_dealer(out.dealers[u, 0], d, players))
                if checks is not None:
                    checks[u, audit.STEPS] += np.uint64(run_checked(s, p, table, strong_bots, users))
                else:
                    run(s, p, table, strong_bots, users)
                _record(out, u, d, slots, s.points, s.scores, totals)
                d += 1
            out.played[u] = d


@njit(cache=True, inline="always")
def _units(work: Work, count: int) -> tuple:
    """The range of units (of one seating) of ``work``: (first, end)."""
    block = GAMES_BLOCK if work.games else ROUNDS_BLOCK
    return work.block * block, min(count, (work.block + 1) * block)


@njit(cache=True, inline="always")
def _record(out: Out, u: int, d: int, slots: np.ndarray, points: np.ndarray, scores: np.ndarray,
            totals: np.ndarray) -> None:  # fmt: skip
    """Deal ``d`` of unit ``u`` into ``out``; its scores added to the game's ``totals``."""
    declarer = slots[DECLARER]
    out.dealers[u, d], out.declarers[u, d], out.bids[u, d] = slots[DEALER], declarer, slots[HIGH]
    out.trumps[u, d], out.called[u, d], out.partners[u, d] = slots[TRUMP], slots[CALLED], slots[PARTNER]
    out.side_points[u, d] = slots[SIDE]
    out.made[u, d] = declarer >= 0 and slots[SIDE] >= slots[HIGH]
    for seat in range(points.shape[0]):
        out.points[u, d, seat], out.scores[u, d, seat] = points[seat], scores[seat]
        totals[seat] += scores[seat]


# --- the protocol of Python bots -------------------------------------------------


@dataclass(frozen=True)
class Bid:
    """One call of the auction: ``bid`` None is a pass (then ``trump`` is None too)."""

    seat: int
    bid: int | None
    trump: str | None


@dataclass(frozen=True)
class Trick:
    """One finished trick: who led, the cards in play order, who won, its points."""

    leader: int
    cards: tuple[str, ...]
    winner: int
    points: int


@dataclass
class Observation:
    """What one seat may see when it decides: passed to a Python bot.

    ``decision`` is ``"bid"``, ``"call"``, ``"discard"`` or ``"play"``. Cards are canonical names (``"SA"``,
    ``"HT"``), suits the letters ``S H D C``. ``legal`` lists the cards the seat may call, discard or play now
    (empty for a bid). ``partner`` is the partner's seat once this seat knows it (the partner knows at
    once, everybody when the called card is played); ``partner_known`` is also true when this seat knows
    there is no partner (the declarer finding the called card in the kitty). ``kitty`` and ``discards`` are
    seen by the declarer only, otherwise None.
    """

    decision: str
    seat: int
    dealer: int
    players: int
    hand: list[str]
    legal: list[str]
    auction: list[Bid]
    high_bid: int | None
    min_bid: int
    forced: bool
    declarer: int | None
    bid: int | None
    trump: str | None
    called_card: str | None
    partner: int | None
    partner_known: bool
    kitty: list[str] | None
    discards: list[str] | None
    discard_count: int
    trick: list[str]
    trick_leader: int
    tricks: list[Trick]
    points: list[int]
    rng: random.Random


def checked_bid(answer, legal: list[int]) -> int:
    """A bid in public form (None for a pass, (number, suit)) as its action code (0 = pass, 4 * number + suit)
    if it is among the state machine's ``legal`` action codes (C4), else a CardsimError naming it and what is
    allowed (D2)."""
    code = -1
    if answer is None:
        code = PASS
    elif isinstance(answer, tuple) and len(answer) == 2:
        number, suit = answer
        letter = SUIT_SYMBOLS.get(suit.strip(), suit.strip().upper()) if isinstance(suit, str) else ""
        if isinstance(number, (int, np.integer)) and not isinstance(number, bool) and letter in tuple(SUIT_LETTERS):
            code = 4 * int(number) + SUIT_LETTERS.index(letter)
    if code in legal:
        return code
    numbers = sorted({c >> 2 for c in legal if c != PASS})
    if PASS not in legal:
        allowed = f"({numbers[0]}, suit) with a suit S, H, D or C: all passed, the dealer declares {numbers[0]}"
    elif not numbers:
        allowed = "None (pass)"
    else:
        allowed = (f"None (pass) or (number, suit) with a number from {numbers[0]} to {numbers[-1]} and a suit "
                   "S, H, D or C")
    of = "" if answer is None or isinstance(answer, tuple) else f" (a tuple or None, not {kind_of(answer)})"
    raise CardsimError(f"bid {shown(answer)}; allowed: {allowed}{of}")


def checked_call(answer, legal: int) -> int:
    """The called card if it is in ``legal``, the state machine's mask of cards outside the declarer's hand (C5),
    else a CardsimError (D2)."""
    card = answer_card(answer, FRENCH52)
    if card < 0 and not isinstance(answer, str):
        raise CardsimError(not_a_card("called", answer, "any card not in its hand"))
    if card < 0 or not legal >> card & 1:
        problem = "which is in its own hand" if card >= 0 else "which is not a card"
        shown_card = FRENCH52.name_of(card) if card >= 0 else repr(answer)
        raise CardsimError(f"called {shown_card}, {problem}; allowed: any card not in its hand")
    return card


def checked_discards(answer, legal: int, count: int) -> list[str]:
    """The discards, by their canonical names (each applied as one ``discard`` action), if they are ``count``
    different cards of ``legal``, the state machine's mask of the declarer's hand with the kitty (C6), else a
    CardsimError (D2)."""
    cards = [answer_card(c, FRENCH52) for c in answer] if isinstance(answer, (list, tuple)) else []
    mask = sum(1 << c for c in set(cards) if c >= 0)
    if len(cards) != count or len(set(cards)) != count or min(cards, default=-1) < 0 or mask & ~legal:
        raise CardsimError(
            f"discarded {answer!r}; allowed: a list of {count} different cards of its hand with the kitty, by name: "
            f"{FRENCH52.names(legal)}"
        )  # fmt: skip
    return [FRENCH52.name_of(c) for c in cards]


def checked_card(answer, legal: int) -> int:
    """The card a bot played if it is legal, else a CardsimError (C7, D2)."""
    card = answer_card(answer, FRENCH52)
    if card < 0 and not isinstance(answer, str):
        raise CardsimError(not_a_card("played", answer, FRENCH52.names(legal)))
    if card < 0 or not legal >> card & 1:
        shown_card = FRENCH52.name_of(card) if card >= 0 else repr(answer)
        raise CardsimError(f"played {shown_card}, which is not legal; legal: {FRENCH52.names(legal)}")
    return card
