"""Differenzler's part of the shared tests (tests/conftest.py): a replay record checked against the plain-Python
reference, and the round started again from it."""

from __future__ import annotations

import reference_differenzler as ref

SHOWN = ("trump_card",)  # the record's shown cards: the dealer's trump card stays in its hand


def check_scores(record: dict) -> None:
    """The trick winners and points, 157 in all over nine tricks, and the penalties of the record's rules."""
    tricks, points = record["tricks"], [0] * 4
    for t, trick in enumerate(tricks):
        winner = (trick["leader"] + ref.trick_winner(trick["cards"], record["trump"])) % 4
        assert winner == trick["winner"]
        assert trick["points"] == ref.trick_points(trick["cards"], record["trump"], t == 8)
        points[winner] += trick["points"]
    assert points == record["points"] and sum(points) == 157 and len(tricks) == 9
    won = [sum(trick["winner"] == seat for trick in tricks) for seat in range(4)]
    rules = record["rules"]
    assert record["penalties"] == [ref.penalty(p, q, w, rules["exact_bonus"], rules["zero_bonus"])
                                   for p, q, w in zip(record["predictions"], points, won, strict=True)]  # fmt: skip


def start_of(record: dict) -> dict:
    """``new_round`` keywords that start the round of ``record`` from its cards."""
    return {"hands": [" ".join(h) for h in record["hands"]], "dealer": record["dealer"],
            "trump_card": record["trump_card"]}  # fmt: skip
