"""``Game``'s actions in public form: kernel codes to and from what ``Round`` and Python bots see, and why an answer
is refused."""

from __future__ import annotations

from typing import Any

import numpy as np

from cardsim.cards import SUIT_SYMBOLS, SUITS
from cardsim.decisions import BID, CALL, CARD, DECISIONS, DISCARD, PREDICT, TRUMP
from cardsim.protocol import answer_card, not_a_card
from cardsim.validation import kind_of, shown

# How an error message names each decision's answer ("played SA, which is not legal; legal: ...").
VERBS = {"predict": "predicted", "bid": "bid", "trump": "named", "auction": "bid", "call": "called",
         "discard": "discarded", "card": "played"}  # fmt: skip
MAX_ACTIONS = 256  # room for any decision's legal action codes in every game


class ActionsPart:
    """Actions cross ``Game``'s interface in their public form: ints for numbers, canonical card names, suit
    letters, ``None`` for a pass, ``(number, suit)`` tuples for a call-partner bid; the kernels take codes."""

    def public_action(self, rules: Any, decision: int, code: int) -> Any:
        """A kernel action code in public form: a card name for card decisions, a suit letter for a trump, else
        the number."""
        if decision in (CARD, CALL, DISCARD):
            return self.deck.card_names[code]
        if decision == TRUMP:
            return SUITS[code]
        return code

    def action_code(self, rules: Any, decision: int, action: Any) -> int:
        """The kernel code of a public action, -1 when it is no action of this kind at all: another type included
        (a card is its name, never its index; a number an int, not a bool, a float or its text; a trump a suit
        letter)."""
        if decision in (CARD, CALL, DISCARD):
            return answer_card(action, self.deck)
        if decision == TRUMP:
            letter = SUIT_SYMBOLS.get(action, action.upper()) if isinstance(action, str) else None
            return SUITS.index(letter) if letter in tuple(SUITS) else -1
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)) or not 0 <= action < 1 << 20:
            return -1
        return int(action)

    def refusal(self, decision: int, action: Any, code: int, legal: list) -> str:
        """Why ``action`` (kernel ``code``, -1 for none) is refused at ``decision``, with the ``legal`` actions; an
        answer of another type than the decision's public form names its type (``played 7, which is not legal: a
        card is given by its name (a str, not an int); legal: ...``)."""
        verb = VERBS[DECISIONS[decision]]
        if decision in (CARD, CALL, DISCARD):
            if code < 0 and not isinstance(action, str):
                return not_a_card(verb, action, " ".join(legal))
            shown_card = self.deck.card_names[code] if code >= 0 else repr(action)
            return f"{verb} {shown_card}, which is not legal; legal: {' '.join(legal)}"
        if decision == TRUMP and not isinstance(action, str):
            return f"{verb} {shown(action)}; allowed: {_allowed(legal)} (a suit letter, not {kind_of(action)})"
        if decision in (PREDICT, BID) and (isinstance(action, bool) or not isinstance(action, (int, np.integer))):
            return f"{verb} {shown(action)}; allowed: {_allowed(legal)} (an int, not {kind_of(action)})"
        return f"{verb} {action!r}; allowed: {_allowed(legal)}"

    def answer_actions(self, rules: Any, state: Any, answer: Any) -> list:
        """A Python bot's answer to the current decision as the actions it stands for (default: itself; a
        call-partner declarer's list of discards is one ``discard`` action per card)."""
        return [answer]


def _allowed(actions: list) -> str:
    """Legal actions for an error message: a run of integers as a range, else the actions one by one."""
    if len(actions) > 1 and all(isinstance(a, int) for a in actions) and actions == list(
        range(actions[0], actions[-1] + 1)
    ):
        return f"an integer from {actions[0]} to {actions[-1]}"
    return "one of " + ", ".join("None (pass)" if a is None else str(a) for a in actions)
