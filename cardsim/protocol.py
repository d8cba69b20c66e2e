"""The Python bot protocol, shared by every game's plain-Python driver.

A Python bot is a plain class with one method per decision of the game
(Differenzler: ``predict`` and ``play``); each method gets an observation of
what its seat may see and returns its choice. This module asks the bot and
checks the answer: an illegal card or number, or an exception inside the
bot, stops the run with one error naming the bot, the game, the seed, the
round and the decision (RULES.md D2), so the round can be replayed.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from cardsim.cards import Deck
from cardsim.errors import CardsimError


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
    """A Python bot's answer; an exception in the bot becomes one clear error naming where it happened."""
    try:
        return decide(obs)
    except Exception as exc:  # the user's code: report whatever it raised, with its location
        frame = traceback.extract_tb(exc.__traceback__)[-1]
        where = f"{Path(frame.filename).name}:{frame.lineno}"
        raise seat.error(decision, f"raised {type(exc).__name__}: {exc} (at {where})") from exc


def card_index(choice: Any, deck: Deck) -> int:
    """A bot's card (a name or an index) as an index, -1 if it is not a card of ``deck``.

    Anything but a card name or an integer index (a bool, a float, None) is not a card.
    """
    if isinstance(choice, str):
        try:
            return deck.parse(choice)
        except CardsimError:
            return -1
    if isinstance(choice, (int, np.integer)) and not isinstance(choice, bool) and 0 <= choice < deck.size:
        return int(choice)
    return -1


def checked_card(choice: Any, legal: int, deck: Deck, seat: Seat, decision: str) -> int:
    """The card a bot chose (a card name or index) if it is in ``legal``, else a clear error."""
    card = card_index(choice, deck)
    if card < 0 or not legal >> card & 1:
        shown = deck.name_of(card) if 0 <= card < deck.size else repr(choice)
        raise seat.error(decision, f"played {shown}, which is not legal; legal: {deck.names(legal)}")
    return card


def checked_number(choice: Any, allowed: Sequence[int], what: str, seat: Seat, decision: str) -> int:
    """An integer decision (a prediction, a bid) if it is in ``allowed``, else a clear error."""
    if isinstance(choice, bool) or not isinstance(choice, (int, np.integer)) or int(choice) not in allowed:
        if isinstance(allowed, range):
            text = f"an integer from {allowed.start} to {allowed.stop - 1}"
        else:
            text = "one of " + ", ".join(map(str, allowed))
        raise seat.error(decision, f"{what} {choice!r}; allowed: {text}")
    return int(choice)
