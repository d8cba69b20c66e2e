"""The compiled Wizard drivers (RULES.md B2-B9), loops over the round's state machine (``state.py``): ``run`` lets
the built-in bots play on (``ask`` at a strong or numba bot's seat), ``simulate_games`` plays batches of single
rounds or whole games; and the Python bot protocol's Observation.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
from numba import njit, prange

import bots.wizard as builtin
import cardsim.audit as audit
import cardsim.errors as errors
from cardsim.arrays import copy_rows
from cardsim.cards import bit
from cardsim.deal import Work
from cardsim.decisions import BID, CARD
from cardsim.errors import BotFailure
from cardsim.games.wizard.rules import legal_mask, refused_bid, score
from cardsim.games.wizard.state import (
    BID_TOTAL,
    BIDDING,
    CARDS,
    DEALER,
    MOVER,
    N_BIDS,
    PHASE,
    TRUMP_SUIT,
    TURNED,
    Params,
    State,
    apply,
    audit_bid,
    audit_card,
    audit_deal,
    bot_stream,
    check,
    deal_arrays,
    load_trick,
    make_bid,
    new_state,
    observe,
    play_card,
    redeal,
    step,
    store_bids,
    store_trick,
)
from cardsim.numba_bots import USER_BOT, ask_strong

BLOCK = 64  # rounds or games per parallel work item
SUIT_LETTERS = "SHDC"
__all__ = ["BIDDING", "SUIT_LETTERS", "Observation", "Out", "Trick", "run", "simulate_games"]


class Seats(NamedTuple):
    """Who ``run_builtin`` lets play on, and where it stops."""

    bots: np.ndarray  # float64[players, 5]: the bot table, row[0] the bot id (-1 a Python bot)
    stops: int  # bit mask of the seats at which it returns (Python, strong and numba bots)
    plus_minus_one: bool  # B5, for the bids (Params.plus_minus_one)


@njit(cache=True)
def ask(s: State, p: Params, row: np.ndarray, seat: int, strong_bots: Any, users: tuple | None) -> int:
    """The action of the strong or numba bot of table row ``row`` at ``seat`` (the seat to move). ``strong_bots``
    is None (numba then compiles no strong bot) or the strong bots' entry ``bots.wizard_strong.act`` and
    their tools as first-class functions (``numba_bots.strong_bots``, ``Game.strong_function``); ``users`` is
    None or the lineup's numba bots (``Lineup.functions``), each asked with the seat's view and private stream
    (``cardsim.numba_bots``)."""
    if users is not None and row[0] == USER_BOT:
        return users[int(row[1])](observe(s, p, seat), p, np.int64(seat), bot_stream(s, seat))
    if strong_bots is not None:
        return ask_strong(strong_bots, row, s, p, np.int64(seat))
    return -1  # no bot of either kind: not reached


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
    seats = Seats(bots, stops, pm1)
    while True:
        seat = run_builtin(slots, hands, bids, won, log, rng, seats, None)
        if seat < 0 or bots[seat, 0] < 0:
            return seat
        if not step(slots, hands, bids, won, log, pm1, ask(s, p, bots[seat], seat, strong_bots, users)):
            raise BotFailure("a strong or numba wizard bot chose an illegal action")


@njit(cache=True)
def run_checked(s: State, p: Params, bots: np.ndarray, strong_bots: Any, users: tuple | None) -> int:
    """``run`` for a table of built-in bots, one decision at a time (the same draws) with the round's invariants
    checked before every step and at the end (``state.check``, ``--check``); returns the steps taken. A broken
    invariant raises ``BotFailure`` like an illegal action (``Game.run`` then names it)."""
    steps = 0
    while True:
        if check(s, p):
            raise BotFailure("a wizard round broke an invariant (--check)")
        seat = s.slots[MOVER]
        if seat < 0:
            return steps
        row = bots[seat]
        action = ask(s, p, row, seat, strong_bots, users) if row[0] >= builtin.MC else \
            builtin.act(int(row[0]), s, p, seat)  # fmt: skip
        if not apply(s, p, action):
            raise BotFailure("a wizard bot chose an illegal action")
        steps += 1


@njit(cache=True, _nrt=False)
def run_builtin(slots, hands, bids, won, log, rng, seats: Seats, checks: np.ndarray | None) -> int:
    """The built-in bots of ``seats.bots`` play on until a seat of the bit mask ``seats.stops`` is to move
    (returned) or the round is over (-1), on the State's arrays; an illegal action of theirs is refused too
    (RULES.md D2): it raises. Bids and cards run in registers (``state.make_bid``, ``state.play_card``). It
    counts no references (``_nrt=False``: it allocates nothing and calls no strong bot): numba's atomic reference
    counts of every array at each call cost random rounds a tenth of their time. ``checks``: None, or the unit's
    ``--check`` row (``cardsim.audit``; ``state.audit_bid``, ``state.audit_card``)."""
    players = hands.shape[0]
    bots, stops, pm1 = seats
    while True:
        seat = slots[MOVER]
        if seat < 0 or (stops >> seat) & 1:
            return seat
        if slots[PHASE] == BID:
            n_bids, total = slots[N_BIDS], slots[BID_TOTAL]
            trump, cards = slots[TRUMP_SUIT], slots[CARDS]
            while n_bids < players and not (stops >> seat) & 1:
                no = refused_bid(total, cards, n_bids == players - 1, pm1)
                b = builtin.bid(int(bots[seat, 0]), rng, 1 + seat, hands[seat], trump, players, cards, n_bids, no)
                bidder = seat
                ok, seat, n_bids, total = make_bid(bids, cards, pm1, seat, n_bids, total, b)
                if not ok:
                    raise BotFailure("a built-in wizard bot chose an illegal bid")
                if checks is not None:
                    audit_bid(checks, bids, bidder, cards)
            store_bids(slots, players, seat, n_bids, total)
        elif slots[PHASE] == CARD:
            seat, pos, led, decided, top_key, winner, n_played, trick = load_trick(slots)
            trump, cards = slots[TRUMP_SUIT], slots[CARDS]
            broken, taken = audit.load(checks)
            seen = builtin.seen_cards(slots[TURNED], log, n_played)
            while seat >= 0 and not (stops >> seat) & 1:
                legal = legal_mask(hands[seat], led)
                card = builtin.play(int(bots[seat, 0]), rng, 1 + seat, hands[seat], legal, seen, led, top_key, pos,
                                    players, trump, bids[seat] - won[seat])  # fmt: skip
                if errors.REFUSE_ILLEGAL_CARDS and not (legal >> np.uint64(card)) & np.uint64(1):
                    raise BotFailure("a built-in wizard bot chose an illegal card")
                seen |= bit(card)
                player = seat
                seat, pos, led, decided, top_key, winner, n_played, trick = play_card(
                    hands, won, log, trump, cards, seat, pos, led, decided, top_key, winner, n_played, trick, card
                )
                if checks is not None:
                    broken = audit_card(checks, hands, won, player, card, pos, trick, broken)
            audit.store(checks, broken, taken)
            store_trick(slots, players, seat, pos, led, decided, top_key, winner, n_played, trick)
        elif not step(slots, hands, bids, won, log, pm1, builtin.decide(int(bots[seat, 0]), slots, hands, bids, won,
                                                                        log, rng, pm1, seat)):  # fmt: skip
            raise BotFailure("a built-in wizard bot chose an illegal action")


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
    r deals p.schedule[r] cards; stream (seed, unit, r)). A single round is a one-round schedule. ``strong_bots``,
    ``users``: see ``ask``. ``checks``: None, or int64[units] that counts the steps checked (``run_checked``; none
    compiled for None). ``work_item``: ``play_block`` as a first-class function (``Game.simulate``). ``bots``:
    float64[seatings * players, 5], the bot tables of one or more seatings one under the other
    (``Game.run_rotations``); unit u of seating k is ``out[k * count + u]``."""
    count = out.dealers.shape[0] // (bots.shape[0] // p.players)
    for block in prange((count + BLOCK - 1) // BLOCK):
        work_item(Work(work.seed, work.start, work.games, np.uint64(block)), p, bots, strong_bots, users, checks, out)


@njit(cache=True)
def play_block(work: Work, p: Params, bots: np.ndarray, strong_bots: Any, users: tuple | None,
               checks: np.ndarray | None, out: Out) -> None:  # fmt: skip
    """The units of one work item of ``simulate_games`` (each a game of the schedule: ``work.games`` is always
    true) in every seating of ``bots`` (see ``simulate_games``; a single round is dealt once and dealt again by
    ``redeal`` for the other seatings), called through its address (``Game.simulate``: its code is not linked into
    the kernel and optimised again), on one State unpacked once (see ``state.step``; a prange body of its own
    would lose the writes into tuple fields). numba prunes the branches of the lineup's types: one function for
    every lineup."""
    seed, start, _, block = work
    dealers, turned, trumps, bids, tricks, points = out
    players = p.players
    seatings = bots.shape[0] // players
    count = dealers.shape[0] // seatings
    s = new_state(players)
    slots, hands, dealt, bid, won, log, rng, _ = s
    streams = rng.copy()  # the deal's streams right after it (``redeal``)
    schedule, fixed = p.schedule, p.fixed_trumps
    once = seatings > 1 and schedule.shape[0] == 1  # single rounds: dealt once for every seating
    for g in range(block * BLOCK, min(count, (block + 1) * BLOCK)):
        for seating in range(seatings):
            table, u = bots[seating * players : (seating + 1) * players], seating * count + g
            seats = Seats(table, np.int64(0), p.plus_minus_one)  # no stop: a batch seats compiled bots only
            for r in range(schedule.shape[0]):
                if seating > 0 and once:
                    redeal(slots, hands, dealt, bid, won, rng, streams, fixed[r])
                else:
                    dealer = -1 if r == 0 else (dealers[u, 0] + r) % players  # B2: the deal rotates (once a round)
                    deal_arrays(slots, hands, dealt, bid, won, rng, seed, start + g, r, dealer, schedule[r], fixed[r])
                    if once:
                        copy_rows(streams, rng, rng.shape[0])
                if strong_bots is None and users is None and checks is not None:
                    row = checks[u]  # one view (each costs atomic reference counts)
                    audit_deal(row, dealt, schedule[r], slots[TURNED])
                    run_builtin(slots, hands, bid, won, log, rng, seats, row)
                    if audit.end(row, players, players * schedule[r]):
                        raise BotFailure("a wizard round broke an invariant (--check)")
                elif checks is not None:
                    checks[u, audit.STEPS] += np.uint64(run_checked(s, p, table, strong_bots, users))
                elif strong_bots is None and users is None:
                    run_builtin(slots, hands, bid, won, log, rng, seats, None)  # ``run`` without its asked seats
                else:
                    run(s, p, table, strong_bots, users)
                dealers[u, r], turned[u, r], trumps[u, r] = slots[DEALER], slots[TURNED], slots[TRUMP_SUIT]
                for seat in range(players):
                    bids[u, r, seat], tricks[u, r, seat] = bid[seat], won[seat]
                    points[u, r, seat] = score(bid[seat], won[seat])


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
