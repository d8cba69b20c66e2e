"""Calibrate the ``heuristic``'s bids in a game of the exact-tricks family (default Wizard): the chance that a card
wins the trick it is played in, by simulation.

    python experiments/calibrate_wizard_bids.py                 # writes bots/wizard_bid_table.npy (a few minutes)
    python experiments/calibrate_wizard_bids.py --check         # recomputes it and compares (exit 1 if it differs)
    python experiments/calibrate_wizard_bids.py --game GAME     # another game of the family: its rules' bid_table

For every player count of the game and round size (1 .. the most its deck deals, ``max_cards``), ``--rounds``
single rounds are played through the family's state machine by copies of the heuristic, from the game's deck. For
every card dealt, by its class (``bots.exact_tricks.card_class``: a Wizard, a Jester, a trump of rank r, another
suit's card of rank r) and its holder's bidding position (0 bids first), the script counts how often it won the
trick it was played in; the table is wins / cards dealt (0 where no card of the class was dealt). The heuristic
bids the sum of its cards' chances (``bots.exact_tricks.calibrated_bid``), so the bids in the simulated rounds
depend on the table: pass 1 bids as ``heuristic_v1`` does, every later pass with the previous pass's table (in the
Params' ``tables``; ``--passes``, default 3: the table then moves by about its sampling error). The play is the
heuristic's in every pass, aiming at the bids made. Same arguments, same table: each (pass, players, cards) plays
rounds ``0 .. rounds - 1`` of its own seed.
"""

from __future__ import annotations

import argparse
import sys
from functools import partial
from pathlib import Path

import numpy as np
from numba import njit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bots.exact_tricks import CLASSES, HEURISTIC, HEURISTIC_V1, act, card_class  # noqa: E402
from cardsim.decisions import DONE  # noqa: E402
from cardsim.games import get_game  # noqa: E402
from cardsim.games.exact_tricks.rules import MIN_PLAYERS, ExactTricksRules, trick_winner  # noqa: E402
from cardsim.games.exact_tricks.state import (  # noqa: E402
    CARDS,
    DEALER,
    PHASE,
    TRUMP_SUIT,
    apply,
    deal,
    new_state,
    params,
    table_path,
    to_move,
)
from experiments.calibration import table_command  # noqa: E402


@njit  # not cached: a script's kernels would be cached under its module name of the moment (__main__ or a test's)
def tally(p, seed: np.uint64, rounds: int, first_pass: bool) -> tuple:
    """(wins, dealt) [position, class] over ``rounds`` single rounds of ``p`` (one round size), every seat the
    heuristic; bids by ``heuristic_v1`` if ``first_pass``, else by ``heuristic`` with the table in ``p.tables``."""
    players = p.players
    wins = np.zeros((players, CLASSES), np.int64)
    dealt = np.zeros((players, CLASSES), np.int64)
    s = new_state(players)
    bot = HEURISTIC_V1 if first_pass else HEURISTIC
    for unit in range(rounds):
        deal(s, p, seed, unit, np.int64(0), np.int64(-1))  # typed, as the engine passes them: one compile of deal
        while s.slots[PHASE] != DONE:
            if not apply(s, p, act(bot, s, p, to_move(s))):
                raise ValueError("an illegal action in the calibration")
        trump, dealer, cards = s.slots[TRUMP_SUIT], s.slots[DEALER], s.slots[CARDS]
        for t in range(cards):
            first = t * players
            winner = first + trick_winner(s.log[first : first + players, 1], players, trump)
            for k in range(first, first + players):
                seat, card = s.log[k, 0], s.log[k, 1]
                position = (seat - dealer - 1) % players
                c = card_class(card, trump)
                dealt[position, c] += 1
                wins[position, c] += k == winner
    return wins, dealt


def calibrate(rounds: int, passes: int, seed: int, progress: bool = True, game: str = "wizard") -> np.ndarray:
    """The table [players - 3, cards - 1, position, class] (float32) of ``game`` after ``passes`` passes."""
    front = get_game(game)
    most = {players: front.make_rules({"players": players}).max_cards for players in front.players}
    top = max(front.players)
    table = np.zeros((top - MIN_PLAYERS + 1, max(most.values()), top, CLASSES), np.float32)
    for k in range(passes):
        new = np.zeros_like(table)
        for players in front.players:
            rules = front.make_rules({"players": players})
            for cards in range(1, most[players] + 1):
                p = params(rules, bid_table=table)._replace(schedule=np.array([cards], np.int64))
                key = np.uint64((seed + 1000 * k + 100 * players + cards) % 2**64)
                wins, dealt = tally(p, key, rounds, k == 0)
                new[players - MIN_PLAYERS, cards - 1, :players] = np.where(dealt > 0, wins / np.maximum(dealt, 1), 0.0)
            if progress:
                print(f"pass {k + 1}/{passes}: {players} players done", flush=True)
        table = new
    return table


def main(argv: list[str] | None = None) -> int:
    chosen = argparse.ArgumentParser(add_help=False)
    chosen.add_argument("--game", default="wizard", help="a game of the exact-tricks family")
    known, rest = chosen.parse_known_args(argv)
    rules = get_game(known.game).make_rules()
    if not isinstance(rules, ExactTricksRules):
        raise SystemExit(f"{known.game} is no game of the exact-tricks family: it has no bid table")
    return table_command(rest, __doc__.split("\n\n")[0], partial(calibrate, game=known.game),
                         table_path(rules.bid_table), 100_000, "rounds per player count, round size and pass")


if __name__ == "__main__":
    sys.exit(main())
