"""Oh Hell's part of the shared tests (tests/conftest.py): a replay record checked against a plain-Python
re-statement of F5 and F6, and the round started again from it."""

from __future__ import annotations

from cardsim.games.exact_tricks import state as st

SHOWN = ("turned_card",)  # the record's shown card: the turned card, in no hand (F3)
# the state's fields tests/test_state_input.py tampers with: trump slot, count of tricks (or cards) played, the array
# of cards played, the seeded bits, the key; and new_round's keyword of the shown card (may it be None?)
STATE_FIELDS = {"trump": st.TRUMP_SUIT, "played": st.N_PLAYED, "history": "log", "seeded": st.BOT_SEEDED,
                "key": st.SEED}  # fmt: skip
SHOWN_KEYWORD, SHOWN_MAY_BE_NONE = "turned", False  # F3: a card is always turned
RANKS = "23456789TJQKA"  # F1: from the 2 up, A high
OPENSPIEL_SUITS = "CDSH"  # F1: a shrunk deck takes the first suits of these


def trick_winner(cards: list[str], trump: str) -> int:
    """F5: the position (0 = leader) of the highest trump, else of the highest card of the led suit."""
    led = cards[0][0]

    def key(card: str) -> int:
        return (2 if card[0] == trump else 1 if card[0] == led else 0) * 100 + RANKS.index(card[1])

    return max(range(len(cards)), key=lambda i: key(cards[i]))


def score(bid: int, tricks: int, rules: dict) -> int:
    """F6: points_per_trick per trick + 10 for an exact bid; with off_bid_penalty a missed bid loses
    points_per_trick per trick off instead."""
    p = rules["points_per_trick"]
    if bid == tricks:
        return p * tricks + 10
    return -p * abs(bid - tricks) if rules["off_bid_penalty"] else p * tricks


def check_scores(record: dict) -> None:
    """The trick winners, the tricks each seat took, and the scores of the bids."""
    players, won = record["players"], [0] * record["players"]
    assert record["trump"] == record["turned_card"][0]  # F3: the turned card's suit is trump
    for trick in record["tricks"]:
        winner = (trick["leader"] + trick_winner(trick["cards"], record["trump"])) % players
        assert winner == trick["winner"]
        won[winner] += 1
    assert won == record["tricks_won"] and len(record["tricks"]) == record["cards"]
    assert record["scores"] == [score(b, t, record["rules"]) for b, t in zip(record["bids"], won, strict=True)]


def deck_names(record: dict) -> set[str]:
    """F1: the cards of the record's deck (``num_suits`` suits C D S H first, ``num_cards_per_suit`` ranks from
    the 2)."""
    rules = record["rules"]
    return {s + r for s in OPENSPIEL_SUITS[: rules["num_suits"]] for r in RANKS[: rules["num_cards_per_suit"]]}


def start_of(record: dict) -> dict:
    """``new_round`` keywords that start the round of ``record`` from its cards (its rules given beside them)."""
    return {"hands": [" ".join(h) for h in record["hands"]], "dealer": record["dealer"],
            "turned": record["turned_card"], "players": record["players"]}  # fmt: skip
