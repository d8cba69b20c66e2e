"""Example Python bots for Differenzler: a template for writing your own.

Run them beside the compiled built-ins:

    cardsim simulate differenzler --bots bots/examples.py:Cautious,heuristic,random,random --rounds 2000

A Python bot is a plain class with one method per decision of the game. For
Differenzler these are ``predict(obs) -> int`` (0..157) and
``play(obs) -> str`` (a card name from ``obs.legal``). ``obs`` holds only
what the bot's seat may see (see ``cardsim.games.differenzler.play.Observation``).
Use ``obs.rng`` for randomness so that runs stay reproducible.
"""

from __future__ import annotations

PLAIN_VALUE = {"6": 0, "7": 0, "8": 0, "9": 0, "T": 10, "J": 2, "Q": 3, "K": 4, "A": 11}
TRUMP_VALUE = {**PLAIN_VALUE, "9": 14, "J": 20}
TRUMP_ORDER = "678TQKA9J"  # low to high (RULES.md A3)
PLAIN_ORDER = "6789TJQKA"


def value(card: str, trump: str) -> int:
    return (TRUMP_VALUE if card[0] == trump else PLAIN_VALUE)[card[1]]


def strength(card: str, trump: str) -> int:
    """Trumps above everything, the trump J and 9 on top; plain cards by rank."""
    if card[0] == trump:
        return 100 + TRUMP_ORDER.index(card[1])
    return PLAIN_ORDER.index(card[1])


class Cautious:
    """Predicts 11 points per ace and twice the trump points it holds (the Swiss TV rule of thumb);
    plays its strongest card while short of that, its weakest once it has reached it."""

    name = "cautious"

    def predict(self, obs) -> int:
        aces = sum(card[1] == "A" for card in obs.hand)
        trump_points = sum(value(card, obs.trump) for card in obs.hand if card[0] == obs.trump)
        return min(157, 11 * aces + 2 * trump_points)

    def play(self, obs) -> str:
        mine = obs.points[obs.seat]
        target = obs.predictions[obs.seat]
        ranked = sorted(obs.legal, key=lambda card: strength(card, obs.trump))
        return ranked[-1] if mine < target else ranked[0]


class Lucky:
    """Random but reproducible: predicts 20-60 and plays any legal card, drawing from ``obs.rng``."""

    name = "lucky"

    def predict(self, obs) -> int:
        return obs.rng.randint(20, 60)

    def play(self, obs) -> str:
        return obs.rng.choice(obs.legal)


class WizardCounter:
    """A Wizard bot: bids its Wizards and trumps of 11 and up; plays high while short of its bid, low after.

    Wizard decisions: ``bid(obs) -> int`` (0..obs.cards, not ``obs.refused``),
    ``play(obs) -> str`` and ``choose_trump(obs) -> "S" | "H" | "D" | "C"``.
    """

    name = "wizard-counter"

    @staticmethod
    def strength(card: str, trump: str | None) -> int:
        if card.startswith("W"):
            return 100
        if card.startswith("J") and card[1:] in "1234":  # Jesters J1-J4 (the Wizard deck has no jacks)
            return -1
        rank = int(card[1:])
        return rank + (50 if card[0] == trump else 0)

    def bid(self, obs) -> int:
        bid = sum(self.strength(card, obs.trump) >= 61 or card.startswith("W") for card in obs.hand)
        bid = min(bid, obs.cards)
        if bid == obs.refused:
            bid = bid + 1 if bid < obs.cards else bid - 1
        return bid

    def play(self, obs) -> str:
        ranked = sorted(obs.legal, key=lambda card: self.strength(card, obs.trump))
        short = obs.tricks_won[obs.seat] < obs.bids[obs.seat]
        return ranked[-1] if short else ranked[0]

    def choose_trump(self, obs) -> str:
        suits = [card[0] for card in obs.hand if card[0] in "SHDC" and card[1:].isdigit()]
        return max("SHDC", key=suits.count)


class OhHellCounter:
    """An Oh Hell bot: bids its aces, kings and trumps of ten and up; plays high while short of its bid, low after.

    Oh Hell decisions: ``bid(obs) -> int`` (0..obs.cards, not ``obs.refused``, the hook) and ``play(obs) -> str``.
    """

    name = "ohhell-counter"
    ORDER = "23456789TJQKA"

    def strength(self, card: str, trump: str | None) -> int:
        return self.ORDER.index(card[1]) + (20 if card[0] == trump else 0)

    def bid(self, obs) -> int:
        bid = sum(card[1] in "AK" or (card[0] == obs.trump and card[1] in "TJQ") for card in obs.hand)
        if bid == obs.refused:
            bid = bid + 1 if bid < obs.cards else bid - 1
        return bid

    def play(self, obs) -> str:
        ranked = sorted(obs.legal, key=lambda card: self.strength(card, obs.trump))
        short = obs.tricks_won[obs.seat] < obs.bids[obs.seat]
        return ranked[-1] if short else ranked[0]


class Steady:
    """A call-partner bot: bids the minimum in its longest suit when it holds the ace of spades.

    Call-partner decisions: ``bid(obs)`` (None to pass, or (number, suit)), ``call(obs)``,
    ``discard(obs)`` (a list of ``obs.discard_count`` cards) and ``play(obs)``.
    """

    name = "steady"
    ORDER = "23456789TJQKA"

    def bid(self, obs):
        if obs.forced:  # all passed under all_pass=dealer_forced: the dealer declares 10
            return 10, "S"
        if "SA" in obs.hand and obs.min_bid <= 11:
            longest = max("SHDC", key=lambda s: sum(c[0] == s for c in obs.hand))
            return obs.min_bid, longest
        return None

    def call(self, obs) -> str:
        ace = obs.trump + "A"
        return ace if ace in obs.legal else obs.rng.choice(obs.legal)

    def discard(self, obs) -> list[str]:
        return sorted(obs.legal, key=lambda c: self.ORDER.index(c[1]))[: obs.discard_count]

    def play(self, obs) -> str:
        return min(obs.legal, key=lambda c: self.ORDER.index(c[1]))
