"""Call-partner's part of the shared tests (tests/conftest.py): a replay record checked against the plain-Python
reference, and the round started again from it."""

from __future__ import annotations

import reference_callpartner as ref

from cardsim.games.callpartner import state as st

SHOWN = ()  # no shown card; the kitty is a pile of its own (tests/conftest.py)
# the state's fields tests/test_state_input.py tampers with: trump slot, count of tricks (or cards) played, the array
# of cards played, the seeded bits, the key; and new_round's keyword of the shown card (may it be None?)
STATE_FIELDS = {"trump": st.TRUMP, "played": st.CARDS, "history": "log", "seeded": st.SEEDED, "key": st.SEED}
SHOWN_KEYWORD, SHOWN_MAY_BE_NONE = "kitty", False


def check_scores(record: dict) -> None:
    """Nothing scored when all passed; else the trick winners and points, and the sides' points and scores."""
    players, points, tricks = record["players"], [0] * record["players"], record["tricks"]
    if record["declarer"] is None or record["declarer"] < 0:
        assert record["scores"] == [0] * players and tricks == []
        return
    for trick in tricks:
        winner = (trick["leader"] + ref.trick_winner(trick["cards"], record["trump"])) % players
        assert winner == trick["winner"]
        assert trick["points"] == ref.points(trick["cards"])
        points[winner] += trick["points"]
    partner = record["partner"] if record["partner"] is not None and record["partner"] >= 0 else None
    discarded = ref.points(record["discards"])
    side, made, scores = ref.scores(players, record["declarer"], partner, record["bid"], points, discarded,
                                    record["rules"]["discards_count"])  # fmt: skip
    assert (points, side, made, scores) == (record["points"], record["side_points"], record["made"],
                                            record["scores"])  # fmt: skip


def start_of(record: dict) -> dict:
    """``new_round`` keywords that start the round of ``record`` from its cards."""
    return {"hands": [" ".join(h) for h in record["hands"]], "dealer": record["dealer"],
            "kitty": " ".join(record["kitty"]), "players": record["players"]}  # fmt: skip
