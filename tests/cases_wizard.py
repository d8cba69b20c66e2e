"""Wizard's part of the shared tests (tests/conftest.py): a replay record checked against the plain-Python
reference, and the round started again from it."""

from __future__ import annotations

import reference_wizard as ref

SHOWN = ("turned_card",)  # the record's shown cards: the turned card, in no hand (None when none was left)


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
