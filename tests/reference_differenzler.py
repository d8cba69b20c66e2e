"""Plain-Python reference of the Differenzler card rules, written from RULES.md section A.

Independent of ``cardsim.games.differenzler.rules`` (the numba kernels it checks): A3, A4, A8-A11, A13.
Cards are canonical names (RULES.md E1): a suit letter S H D C, then a rank
6 7 8 9 T J Q K A, e.g. ``"SA"``, ``"HT"``. ``index``/``name`` convert to and
from the JASS36 card indices only so tests can compare with the kernels.
"""

from __future__ import annotations

from cardsim.cards import JASS36

SUITS = "SHDC"

# A3: order high to low, plain suit and trump suit.
PLAIN_ORDER = "AKQJT9876"
TRUMP_ORDER = "J9AKQT876"  # J = Puur, 9 = Nell

# A4: card values by rank, plain suit and trump suit.
PLAIN_VALUE = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0, "6": 0}
TRUMP_VALUE = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0, "6": 0}
LAST_TRICK_BONUS = 5  # A4

DECK = [s + r for s in SUITS for r in "6789TJQKA"]  # A1: 4 suits x 9 ranks


def suit(card: str) -> str:
    return card[0]


def rank(card: str) -> str:
    return card[1]


_INDEX = {JASS36.name_of(i): i for i in range(36)}  # E1 names <-> JASS36 indices


def index(card: str) -> int:
    """JASS36 index of a card name (for comparisons with the kernels)."""
    return _INDEX[card]


def name(card: int) -> str:
    return JASS36.name_of(int(card))


def names_of_mask(mask: int) -> set[str]:
    mask = int(mask)
    return {c for c, i in _INDEX.items() if mask >> i & 1}


def mask_of(cards) -> int:
    return sum(1 << _INDEX[c] for c in cards)


def trump_strength(card: str) -> int:
    """A3: 8 for the Puur down to 0 for the trump 6 (only meaningful for a trump)."""
    return 8 - TRUMP_ORDER.index(rank(card))


def plain_strength(card: str) -> int:
    """A3: 8 for the ace down to 0 for the 6."""
    return 8 - PLAIN_ORDER.index(rank(card))


def card_points(card: str, trump: str) -> int:
    """A4: value of one card when ``trump`` is the trump suit."""
    return (TRUMP_VALUE if suit(card) == trump else PLAIN_VALUE)[rank(card)]


def trick_points(cards, trump: str, last: bool) -> int:
    """A4: card values of a trick, +5 if it is the ninth (last) trick."""
    return sum(card_points(c, trump) for c in cards) + (LAST_TRICK_BONUS if last else 0)


def trick_winner(cards, trump: str) -> int:
    """A9: position (0 = leader) of the winning card of a full trick in play order."""
    trumps = [i for i, c in enumerate(cards) if suit(c) == trump]
    if trumps:  # the highest trump, in trump order
        return max(trumps, key=lambda i: trump_strength(cards[i]))
    led = suit(cards[0])  # no trump: the highest card of the led suit, in plain order
    return max((i for i, c in enumerate(cards) if suit(c) == led), key=lambda i: plain_strength(cards[i]))


def legal_cards(hand, trick, trump: str) -> set[str]:
    """A8: the cards of ``hand`` that may be played to ``trick`` (the cards already in it, in order)."""
    hand = set(hand)
    if not trick:  # a) leading: any card
        return hand
    led = suit(trick[0])
    my_trumps = {c for c in hand if suit(c) == trump}
    if led == trump:  # b) trump led
        puur = trump + "J"
        if my_trumps - {puur}:  # a trump other than the Puur: must play a trump (the Puur included)
            return my_trumps
        return hand  # only the Puur, or no trump: any card (the Puur is never forced)
    my_led = {c for c in hand if suit(c) == led}
    if my_led:  # c) plain suit led and held: the led suit, or a trump that does not undertrump
        played_trumps = [c for c in trick if suit(c) == trump]
        top = max((trump_strength(c) for c in played_trumps), default=-1)
        return my_led | {c for c in my_trumps if trump_strength(c) > top}
    return hand  # d) void in the led suit: any card, undertrumping included


def penalty(prediction: int, points: int, tricks_won: int, exact_bonus: int, zero_bonus: str = "never") -> int:
    """A10, A13: |prediction - points|; an exact prediction scores -exact_bonus instead, an exact 0 only as
    ``zero_bonus`` says: "never", "zero_trick" (the seat won a trick, so one worth 0 points) or "always"."""
    if prediction != points:
        return abs(prediction - points)
    if prediction > 0 or zero_bonus == "always" or (zero_bonus == "zero_trick" and tricks_won > 0):
        return -exact_bonus
    return 0


def rounds_of_game(penalties, game_rounds: int = 4, max_tiebreak_rounds: int = 10) -> int:
    """A11, A13: how many rounds a game lasts whose rounds score ``penalties`` (a list per round of 4 penalties,
    at least as many rounds as it lasts): ``game_rounds`` rounds, then more while the lowest total is shared, at
    most ``max_tiebreak_rounds`` more."""
    totals = [0, 0, 0, 0]
    for played, scores in enumerate(penalties, 1):
        totals = [t + s for t, s in zip(totals, scores, strict=True)]
        if played >= game_rounds and (totals.count(min(totals)) == 1 or played == game_rounds + max_tiebreak_rounds):
            return played
    raise ValueError("the game did not end within the rounds given")
