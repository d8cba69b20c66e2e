"""Differenzler's part of the shared tests (tests/conftest.py): a replay record checked against the plain-Python
reference, and the round started again from it."""

from __future__ import annotations

import reference_differenzler as ref

from cardsim.games.differenzler import state as st

SHOWN = ("trump_card",)  # the record's shown cards: the dealer's trump card stays in its hand
# the state's fields tests/test_state_input.py tampers with: trump slot, count of tricks (or cards) played, the array
# of cards played, the seeded bits, the key; and new_round's keyword of the shown card (may it be None?)
STATE_FIELDS = {"trump": st.TRUMP, "played": st.TRICK, "history": "history", "seeded": st.SEEDED, "key": st.SEED}
SHOWN_KEYWORD, SHOWN_MAY_BE_NONE = "trump_card", False


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
