"""Wizard's ``Game`` front: the exact-tricks family's (``cardsim.games.exact_tricks.front``) with Wizard's deck of
names, players, rules and decisions (B1-B10)."""

from __future__ import annotations

from cardsim.cards import WIZARD60
from cardsim.errors import CardsimError
from cardsim.games.exact_tricks.front import ExactTricksGame, categories
from cardsim.games.wizard.rules import MAX_PLAYERS, MIN_PLAYERS, WizardRules


class Wizard(ExactTricksGame):
    name = "wizard"
    deck = WIZARD60
    players = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))
    rules_class = WizardRules
    decisions = ("bid", "play", "choose_trump")  # B4: the dealer names the trump when a Wizard is turned
    categories = categories(WIZARD60)
    may_be_empty = frozenset(categories)  # no card left to turn; no trump
    fixed_trump_rule = "B10"

    def check_units(self, rules: WizardRules, games: bool) -> None:
        """``cards`` sets single rounds only, ``schedule`` whole games only (B10)."""
        if games and rules.cards:
            raise CardsimError(f"wizard rule cards={rules.cards} (--cards) sets single rounds; whole games deal by "
                               f"the schedule (rule schedule={rules.schedule}): leave cards out")  # fmt: skip
        if not games and rules.schedule != "standard":
            raise CardsimError(f"wizard rule schedule={rules.schedule} sets whole games (--games); single rounds "
                               "deal rule cards=K (0 = all): leave schedule out")  # fmt: skip


GAME = Wizard()
