"""The Python bot protocol, shared by every game's plain-Python driver.

A Python bot is a plain class with one method per decision of the game
(Differenzler: ``predict`` and ``play``); each method gets an observation of
what its seat may see and returns its choice in public form (a card by its
name, a number as an int). This module asks the bot and checks the answer: an
illegal card or number, an answer of another type, or an exception inside the
bot (``sys.exit`` too), stops the run with one error naming the bot, the game,
the seed, the round and the decision (RULES.md D2), so the round can be
replayed. What a bot prints goes to stderr, so that it never mixes with a
result printed on stdout (``--json``).
"""

from __future__ import annotations

import contextlib
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from cardsim.cards import Deck
from cardsim.errors import CardsimError
from cardsim.validation import kind_of, shown


@dataclass(frozen=True)
class Seat:
    """Where a decision is made: which bot, in which game, seed and round (``unit``: a single round's
    index, or with ``in_game`` the game's, whose round ``sub`` it is)."""

    bot: str
    seat: int
    game: str
    seed: int
    unit: int
    sub: int
    in_game: bool

    def error(self, decision: str, problem: str) -> CardsimError:
        where = f"seed {self.seed}, " + (
            f"game {self.unit}, round {self.sub}" if self.in_game else f"round {self.unit}"
        )
        return CardsimError(f"bot '{self.bot}' (seat {self.seat}) in {self.game}, {where}, {decision}: {problem}")


def ask(decide: Callable[[Any], Any], obs: Any, seat: Seat, decision: str) -> Any:
    """A Python bot's answer, its prints sent to stderr; an exception in the bot (``SystemExit`` too: a bot does
    not end cardsim) becomes one clear error naming where it happened. Ctrl-C (``KeyboardInterrupt``) stops the
    run as anywhere else."""
    try:
        with contextlib.redirect_stdout(sys.stderr):
            return decide(obs)
    except (Exception, SystemExit) as exc:  # the user's code: report whatever it raised, with its location
        frame = traceback.extract_tb(exc.__traceback__)[-1]
        where = f"{Path(frame.filename).name}:{frame.lineno}"
        raise seat.error(decision, f"raised {type(exc).__name__}: {exc} (at {where})") from exc


def answer_card(choice: Any, deck: Deck) -> int:
    """The index of the card a decision's answer names (a bot's, or ``Round.play``'s), -1 if it names none of
    ``deck``: a card is answered in public form, its name (``SA``, ``H13``), and anything else is no card (a bot's
    ``7`` once played the deck's card 7)."""
    if not isinstance(choice, str):
        return -1
    try:
        return deck.parse(choice)
    except CardsimError:
        return -1


def card_index(choice: Any, deck: Deck) -> int:
    """A card given by its name or its index, as an index; -1 if it is not a card of ``deck``. For cards that
    cardsim's own code or a round's scenario (``new_round``'s shown cards) gives, never for a decision's answer
    (``answer_card``). Anything but a card name or an integer index (a bool, a float, None) is not a card."""
    if isinstance(choice, str):
        return answer_card(choice, deck)
    if isinstance(choice, (int, np.integer)) and not isinstance(choice, bool) and 0 <= choice < deck.size:
        return int(choice)
    return -1


def not_a_card(verb: str, choice: Any, legal: str) -> str:
    """What a card answer of another type than a str says, with ``legal`` (the legal cards' names, or words):
    ``played 7, which is not legal: a card is given by its name (a str, not an int); legal: SA SK``."""
    return (f"{verb} {shown(choice)}, which is not legal: a card is given by its name (a str, not {kind_of(choice)}); "
            f"legal: {legal}")
