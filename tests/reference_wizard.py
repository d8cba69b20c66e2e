"""Plain-Python reference of the Wizard card rules, written from RULES.md section B.

Independent of ``cardsim.games.wizard.rules`` (the numba kernels it checks).
Cards are canonical names (RULES.md E2): a suit letter S H D C, then a rank
1-13 (13 highest), e.g. ``"H13"``, ``"C1"``; the Wizards ``W1``-``W4`` and the
Jesters ``J1``-``J4``. A suit is a letter, ``None`` for "no suit" (no trump,
no led suit). ``index``/``name`` convert to and from the WIZARD60 card
indices only so tests can compare with the kernels.
"""

from __future__ import annotations

from cardsim.cards import WIZARD60

SUITS = "SHDC"

# B1: 4 suits x 13 ranks 1..13, plus 4 Wizards and 4 Jesters.
DECK = [s + str(r) for s in SUITS for r in range(1, 14)] + ["W1", "W2", "W3", "W4", "J1", "J2", "J3", "J4"]


def is_wizard(card: str) -> bool:
    return card[0] == "W"


def is_jester(card: str) -> bool:
    return card[0] == "J"


def suit(card: str) -> str | None:
    """The suit letter of a suit card; ``None`` for a Wizard or a Jester (they belong to no suit)."""
    return None if is_wizard(card) or is_jester(card) else card[0]


def rank(card: str) -> int:
    """1..13 for a suit card (13 highest)."""
    return int(card[1:])


_INDEX = {WIZARD60.name_of(i): i for i in range(60)}  # E2 names <-> WIZARD60 indices


def index(card: str) -> int:
    """WIZARD60 index of a card name (for comparisons with the kernels)."""
    return _INDEX[card]


def name(card: int) -> str:
    return WIZARD60.name_of(int(card))


def names_of_mask(mask: int) -> set[str]:
    mask = int(mask)
    return {c for c, i in _INDEX.items() if mask >> i & 1}


def mask_of(cards) -> int:
    return sum(1 << _INDEX[c] for c in cards)


def suit_index(s: str | None) -> int:
    """Kernel suit number 0..3 of a suit letter, -1 for ``None``."""
    return -1 if s is None else SUITS.index(s)


def led_decided(trick) -> bool:
    """B6: has the led suit (or its absence, after a Wizard) been settled, i.e. has a non-Jester been played?"""
    return any(not is_jester(c) for c in trick)


def led_suit(trick) -> str | None:
    """B6: the suit of the first card that is not a Jester; ``None`` if that card is a Wizard
    (no led suit for this trick) or while only Jesters have been played (no led suit yet)."""
    for card in trick:
        if not is_jester(card):
            return suit(card)  # None for a Wizard
    return None


def legal_cards(hand, trick) -> set[str]:
    """B6: the cards of ``hand`` that may be played to ``trick`` (the cards already in it, in play order)."""
    hand = set(hand)
    led = led_suit(trick)
    if led is None:  # leading, only Jesters so far, or a Wizard decided the trick: anything
        return hand
    follow = {c for c in hand if suit(c) == led}
    if not follow:  # void in the led suit: anything
        return hand
    # holding the led suit: one of those, or a Wizard or a Jester (they may always be played)
    return follow | {c for c in hand if is_wizard(c) or is_jester(c)}


def trick_winner(cards, trump: str | None) -> int:
    """B7: position (0 = leader) of the winning card of a full trick in play order."""
    for i, card in enumerate(cards):  # 1. the first Wizard played
        if is_wizard(card):
            return i
    trumps = [i for i, c in enumerate(cards) if trump is not None and suit(c) == trump]
    if trumps:  # 2. the highest trump
        return max(trumps, key=lambda i: rank(cards[i]))
    led = led_suit(cards)
    if led is not None:  # 3. the highest card of the led suit
        return max((i for i, c in enumerate(cards) if suit(c) == led), key=lambda i: rank(cards[i]))
    return 0  # 4. only Jesters: the first Jester


def score(bid: int, tricks: int) -> int:
    """B8: exact bid 20 + 10 per trick; otherwise -10 per trick of difference."""
    if bid == tricks:
        return 20 + 10 * tricks
    return -10 * abs(bid - tricks)
