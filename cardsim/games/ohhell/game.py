"""Oh Hell's ``Game`` front: the exact-tricks family's (``cardsim.games.exact_tricks.front``) with Oh Hell's deck of
names, players, rules and decisions (F1-F7)."""

from __future__ import annotations

from cardsim.cards import FRENCH52
from cardsim.errors import CardsimError
from cardsim.games.exact_tricks.front import ExactTricksGame, categories
from cardsim.games.ohhell.rules import MAX_PLAYERS, MIN_PLAYERS, OhHellRules


class OhHell(ExactTricksGame):
    name = "ohhell"
    deck = FRENCH52
    players = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))
    rules_class = OhHellRules
    decisions = ("bid", "play")
    categories = categories(FRENCH52)  # F3: a card is always turned, and sets the trump

    def check_units(self, rules: OhHellRules, games: bool) -> None:
        """``num_tricks_fixed`` sets single rounds only (F3), ``schedule`` whole games only (F7)."""
        if games and rules.num_tricks_fixed != -1:
            raise CardsimError(f"ohhell rule num_tricks_fixed={rules.num_tricks_fixed} (--cards) sets single rounds; "
                               f"whole games deal by the schedule (rule schedule={rules.schedule}, F7): leave "
                               "num_tricks_fixed out")  # fmt: skip
        if not games and rules.schedule != "up_down":
            raise CardsimError(f"ohhell rule schedule={rules.schedule} sets whole games (--games, F7); single rounds "
                               "deal rule num_tricks_fixed=K (-1 draws it, F3): leave schedule out")  # fmt: skip


GAME = OhHell()
