"""Wizard's part of the shared tests (tests/conftest.py): a replay record checked against the plain-Python
reference, and the round started again from it."""

from __future__ import annotations

import reference_wizard as ref

from cardsim.games.exact_tricks import state as st

SHOWN = ("turned_card",)  # the record's shown cards: the turned card, in no hand (None when none was left)
# the state's fields tests/test_state_input.py tampers with: trump slot, count of tricks (or cards) played, the array
# of cards played, the seeded bits, the key; and new_round's keyword of the shown card (may it be None?)
STATE_FIELDS = {"trump": st.TRUMP_SUIT, "played": st.N_PLAYED, "history": "log", "seeded": st.BOT_SEEDED,
                "key": st.SEED}  # fmt: skip
SHOWN_KEYWORD, SHOWN_MAY_BE_NONE = "turned", True  # B3: a round may deal the whole deck


def check_scores(record: dict) -> None:
    """The trick winners, the tricks each seat took, and the scores of the bids."""
    players, won = record["players"], [0] * record["players"]
    for trick in record["tricks"]:
        winner = (trick["leader"] + ref.trick_winner(trick["cards"], record["trump"])) % players
        assert winner == trick["winner"]
        won[winner] += 1
    assert won == record["tricks_won"] and len(record["tricks"]) == record["cards"]
    assert record["scores"] == [ref.score(b, t) for b, t in zip(record["bids"], won, strict=True)]


def start_of(record: dict) -> dict:
    """``new_round`` keywords that start the round of ``record`` from its cards."""
    return {"hands": [" ".join(h) for h in record["hands"]], "dealer": record["dealer"],
            "turned": record["turned_card"], "players": record["players"]}  # fmt: skip
