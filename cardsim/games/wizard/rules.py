"""Wizard's rules (RULES.md section B) as a configuration of the exact-tricks family (``cardsim.games.exact_tricks``):
its options, its deck (all 60 cards), its score (B8) and its schedules (B3, B10)."""

from __future__ import annotations

from dataclasses import dataclass

from cardsim.errors import CardsimError
from cardsim.games.exact_tricks.rules import FULL_DECK, NO_SUIT, TURN_A_CARD, ExactTricksRules, Scoring
from cardsim.options import check_values, option

MIN_PLAYERS, MAX_PLAYERS = 3, 6  # B2

# B10: cards per round of each schedule, for 3..6 players.
TOURNAMENT = {
    3: (2, 4, 6, 8, 10, 12, 14, 16, 18, 20),
    4: (1, 3, 5, 7, 9, 11, 12, 13, 14, 15),
    5: (2, 4, 5, 6, 7, 8, 9, 10, 11, 12),
    6: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10),  # seed silent; our default
}
FIVE_ROUNDS_TRUMPS = (3, 2, 1, 0, NO_SUIT)  # B10 five_rounds: clubs, diamonds, hearts, spades, none


@dataclass(frozen=True)
class WizardRules(ExactTricksRules):
    """Rule options of Wizard (B2, B5, B10); its deck, score and table as the family reads them."""

    deck = int(FULL_DECK)  # B1: 52 suit cards, 4 Wizards, 4 Jesters
    scoring = Scoring(20, 10, 0, 10)  # B8: 20 + 10 per trick for an exact bid, else -10 per trick off
    keep_turned = False  # B3/B4: a round may deal all 60 cards (no trump then)
    bid_table = "wizard_bid_table.npy"
    cards_rule = ("cards", 0)  # a single round's size, and its value for any (all 60 cards)

    players: int = option(4, range(MIN_PLAYERS, MAX_PLAYERS + 1), "B2: number of players")
    bidding: str = option("open", ("open", "hidden", "secret"), "B5: bids seen in turn, revealed before play, or never")
    plus_minus_one: bool = option(False, (False, True), "B5: the dealer may not make the bids add up to the cards")
    schedule: str = option("standard", ("standard", "five_rounds", "tournament"), "B10: cards dealt in each round")
    cards: int = option(0, range(0, 21), "cards per player in single rounds (--rounds); 0 = all, 60/players")

    def __post_init__(self) -> None:
        check_values(self, "wizard")
        if self.plus_minus_one and self.bidding != "open":
            raise CardsimError(
                f"wizard rule plus_minus_one=True needs bidding=open (the dealer must see the other bids), "
                f"not bidding={self.bidding}"
            )
        if self.cards > self.max_cards:
            raise CardsimError(
                f"wizard rule cards={self.cards} is not allowed with {self.players} players: "
                f"use 1 to {self.max_cards} (60 cards / players), or 0 for all"
            )

    @property
    def round_cards(self) -> int:
        """Cards per player in a single round (--rounds)."""
        return self.cards or self.max_cards

    def schedule_cards(self) -> tuple[int, ...]:
        """B3/B10: the cards each player gets in every round of a game."""
        if self.schedule == "standard":
            return tuple(range(1, self.max_cards + 1))
        if self.schedule == "five_rounds":
            return (self.max_cards,) * 5
        return TOURNAMENT[self.players]

    def fixed_trumps(self) -> tuple[int, ...]:
        """Per round, the trump suit fixed by the schedule (B10 five_rounds), or -2 to turn a card (B4)."""
        if self.schedule == "five_rounds":
            return FIVE_ROUNDS_TRUMPS
        return (TURN_A_CARD,) * len(self.schedule_cards())
