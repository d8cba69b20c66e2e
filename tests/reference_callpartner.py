"""Plain-Python reference of the call-partner rules, written from RULES.md section C rule by rule.

Independent of ``cardsim.games.callpartner`` (the kernels it checks). Cards are
canonical names (RULES.md E1): a suit letter S H D C, then a rank
2-9, T, J, Q, K, A, e.g. ``"SA"``, ``"HT"``, ``"C2"``. Suits are letters.
``index``/``name`` convert to and from the FRENCH52 indices only so tests
can compare with the kernels.
"""

from __future__ import annotations

from cardsim.cards import FRENCH52

SUITS = "SHDC"
RANKS = "23456789TJQKA"  # C1: 2 lowest, A highest
DECK = [s + r for s in SUITS for r in RANKS]  # C1: 52 cards
SUITS_LOW_TO_HIGH = "CDHS"  # C1: C < D < H < S
POINT_RANKS = "TJQKA"  # C2: 10, J, Q, K, A are worth 1 point each
KITTY = {3: 4, 4: 4, 5: 2}  # C3
HAND = {3: 16, 4: 12, 5: 10}  # C3
MIN_BID, MAX_BID = 10, 20  # C4
COLOUR = {"S": "black", "C": "black", "H": "red", "D": "red"}


def suit(card: str) -> str:
    return card[0]


def rank(card: str) -> int:
    """0 for a 2 .. 12 for an ace (C1)."""
    return RANKS.index(card[1])


def suit_rank(s: str) -> int:
    """C1: 0 for clubs .. 3 for spades."""
    return SUITS_LOW_TO_HIGH.index(s)


def points(cards) -> int:
    """C2: one point per 10, J, Q, K and A."""
    return sum(card[1] in POINT_RANKS for card in cards)


def true_jack(trump: str) -> str:
    """C8.2: the jack of the trump suit."""
    return trump + "J"


def false_jack(trump: str) -> str:
    """C8.3: the jack of the other suit of the trump suit's colour."""
    (other,) = [s for s in SUITS if s != trump and COLOUR[s] == COLOUR[trump]]
    return other + "J"


def legal_cards(hand, trick) -> set[str]:
    """C7: the cards of ``hand`` that may be played to ``trick`` (the cards already in it, in play order).

    Leading: any card. Otherwise a player holding the led suit must play one of those cards (every card
    keeps its printed suit: the false jack is a card of its own suit, the ace of spades a spade); a
    player without the led suit may play any card.
    """
    hand = set(hand)
    if not trick:
        return hand
    led = suit(trick[0])
    follow = {c for c in hand if suit(c) == led}
    return follow or hand


def trick_winner(trick, trump: str) -> int:
    """C8: position (0 = leader) of the winning card; the first rule that applies decides."""
    # 1. the ace of spades wins
    if "SA" in trick:
        return trick.index("SA")
    # 2. the true jack wins
    if true_jack(trump) in trick:
        return trick.index(true_jack(trump))
    # 3. the false jack wins
    if false_jack(trump) in trick:
        return trick.index(false_jack(trump))
    # 4. a trick of one suit holding the 2 of that suit: the 2 wins
    suits = {suit(c) for c in trick}
    if len(suits) == 1:
        two = next(iter(suits)) + "2"
        if two in trick:
            return trick.index(two)
    # 5. the highest trump wins
    trumps = [c for c in trick if suit(c) == trump]
    if trumps:
        return trick.index(max(trumps, key=rank))
    # 6. the highest card of the highest-ranked suit present wins
    top_suit = max(suits, key=suit_rank)
    return trick.index(max((c for c in trick if suit(c) == top_suit), key=rank))


def winning_rule(trick, trump: str) -> int:
    """Which of the rules 1-6 of C8 decides this trick (for coverage counts)."""
    suits = {suit(c) for c in trick}
    if "SA" in trick:
        return 1
    if true_jack(trump) in trick:
        return 2
    if false_jack(trump) in trick:
        return 3
    if len(suits) == 1 and next(iter(suits)) + "2" in trick:
        return 4
    if any(suit(c) == trump for c in trick):
        return 5
    return 6


def check_auction(calls, dealer: int, players: int, forced: bool):
    """C4: replay an auction given as (seat, bid or None, trump or None) calls and check every rule.

    Returns (declarer, bid, trump), or None when all passed and the deal is not played.
    """
    passed: set[int] = set()
    high, declarer, trump = 0, None, None
    seat = (dealer + 1) % players  # starting left of the dealer
    i = 0
    while True:
        while seat in passed:  # a player who has passed may not bid again
            seat = (seat + 1) % players
        assert i < len(calls), "the auction stopped before it was over"
        call_seat, bid, bid_trump = calls[i]
        assert call_seat == seat, f"call {i}: seat {call_seat} spoke, but it was seat {seat}'s turn"
        if bid is None:
            assert bid_trump is None
            passed.add(seat)
        else:
            assert MIN_BID <= bid <= MAX_BID and bid > high, f"call {i}: bid {bid} after {high}"
            assert bid_trump in SUITS
            high, declarer, trump = bid, seat, bid_trump
        i += 1
        if high == MAX_BID or len(passed) == players or (declarer is not None and len(passed) == players - 1):
            break
        seat = (seat + 1) % players
    if declarer is None and forced:  # all passed: the dealer declares 10 in a suit of choice
        assert calls[i][:2] == (dealer, MIN_BID) and calls[i][2] in SUITS
        declarer, high, trump = dealer, MIN_BID, calls[i][2]
        i += 1
    assert i == len(calls), "calls after the end of the auction"
    return None if declarer is None else (declarer, high, trump)


def scores(players: int, declarer: int, partner, bid: int, trick_points, discard_points: int, discards_count: bool):
    """C9 (with C6): (side points, made, score per seat)."""
    side = trick_points[declarer] + (trick_points[partner] if partner is not None else 0)
    side += discard_points if discards_count else 0
    made = side >= bid
    result = [(bid if made else -bid) if s in (declarer, partner) else trick_points[s] for s in range(players)]
    return side, made, result


_INDEX = {FRENCH52.name_of(i): i for i in range(52)}  # E1 names <-> FRENCH52 indices


def index(card: str) -> int:
    return _INDEX[card]


def name(card: int) -> str:
    return FRENCH52.name_of(int(card))


def mask_of(cards) -> int:
    return sum(1 << _INDEX[c] for c in cards)


def names_of_mask(mask: int) -> set[str]:
    mask = int(mask)
    return {c for c, i in _INDEX.items() if mask >> i & 1}
