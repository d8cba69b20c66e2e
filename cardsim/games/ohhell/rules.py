"""Oh Hell's rules (RULES.md section F) as a configuration of the exact-tricks family: its options, with OpenSpiel's
``oh_hell`` names where OpenSpiel has them (F1-F6), its deck (the 52 suit cards or fewer), its score (F6) and its
schedules (F7)."""

from __future__ import annotations

from dataclasses import dataclass

from cardsim.cards import SUITS
from cardsim.errors import CardsimError
from cardsim.games.exact_tricks.rules import DRAW, TURN_A_CARD, ExactTricksRules, Scoring
from cardsim.options import check_values, option

MIN_PLAYERS, MAX_PLAYERS = 3, 7  # F2
OPENSPIEL_SUITS = "CDSH"  # F1: a deck of n suits takes the first n of these, ranks from the 2 upward
MADE_BID_BONUS = 10  # F6


def suit_deck(suits: int, ranks: int) -> int:
    """F1: the mask of the deck of ``suits`` suits (C D S H first) and ``ranks`` ranks from the 2, in cardsim's card
    indexes (13 * suit + rank, suits S H D C)."""
    return sum(1 << (13 * SUITS.index(suit) + rank) for suit in OPENSPIEL_SUITS[:suits] for rank in range(ranks))


@dataclass(frozen=True)
class OhHellRules(ExactTricksRules):
    """Rule options of Oh Hell (F1-F7); its deck, score and table as the family reads them."""

    keep_turned = True  # F3: a card is always left to turn, and its suit is trump
    bid_table = "ohhell_bid_table.npy"  # calibrated for the 52-card deck (experiments/calibrate_wizard_bids.py)
    cards_rule = ("num_tricks_fixed", DRAW)
    bidding = "open"  # F4: bids are made in turn, open

    players: int = option(4, range(MIN_PLAYERS, MAX_PLAYERS + 1), "F2: number of players")
    num_tricks_fixed: int = option(DRAW, range(DRAW, 18), "F3: cards each in single rounds; -1 draws 1..max each round")
    off_bid_penalty: bool = option(False, (False, True), "F6: a missed bid scores -points_per_trick per trick off")
    points_per_trick: int = option(1, range(0, 101), "F6: points per trick taken (or off, with off_bid_penalty)")
    num_suits: int = option(4, range(1, 5), "F1: suits in the deck, C D S H in this order")
    num_cards_per_suit: int = option(13, range(2, 14), "F1: ranks per suit, from the 2 upward")
    hook: bool = option(True, (False, True), "F4: the dealer may not bid so that the bids add up to the cards")
    schedule: str = option("up_down", ("up_down", "up"), "F7: cards each round: 1..max..1, or 1..max")

    def __post_init__(self) -> None:
        check_values(self, "ohhell")
        deck = self.num_suits * self.num_cards_per_suit
        if self.max_cards < 1:
            raise CardsimError(f"ohhell with {self.players} players needs a deck of at least {self.players + 1} cards "
                               f"(a card each and one to turn, F3), not {deck} (num_suits={self.num_suits}, "
                               f"num_cards_per_suit={self.num_cards_per_suit})")  # fmt: skip
        if self.num_tricks_fixed == 0 or self.num_tricks_fixed > self.max_cards:
            raise CardsimError(f"ohhell rule num_tricks_fixed={self.num_tricks_fixed} is not allowed with "
                               f"{self.players} players and {deck} cards: use 1 to {self.max_cards} (a card must be "
                               "left to turn, F3), or -1 to draw it for each round")  # fmt: skip

    @property
    def deck(self) -> int:
        """F1: the cards in play."""
        return suit_deck(self.num_suits, self.num_cards_per_suit)

    @property
    def scoring(self) -> Scoring:
        """F6: points_per_trick per trick and 10 for an exact bid; with off_bid_penalty a missed bid scores
        -points_per_trick per trick off instead."""
        p = self.points_per_trick
        return Scoring(MADE_BID_BONUS, p, 0, p) if self.off_bid_penalty else Scoring(MADE_BID_BONUS, p, p, 0)

    @property
    def plus_minus_one(self) -> bool:
        """The family's name of F4's hook."""
        return self.hook

    @property
    def round_cards(self) -> int:
        """Cards each in a single round (F3), or DRAW."""
        return self.num_tricks_fixed

    def schedule_cards(self) -> tuple[int, ...]:
        """F7: the cards each player gets in every round of a game."""
        up = tuple(range(1, self.max_cards + 1))
        return up + up[-2::-1] if self.schedule == "up_down" else up

    def fixed_trumps(self) -> tuple[int, ...]:
        """F3: every round turns a card for the trump."""
        return (TURN_A_CARD,) * len(self.schedule_cards())
