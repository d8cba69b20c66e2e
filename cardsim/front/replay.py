"""``Game``'s replays: one round exactly as it was played, as a JSON-able record and as text."""

from __future__ import annotations

import dataclasses
from typing import Any

from cardsim.errors import CardsimError
from cardsim.front.contract import required
from cardsim.lineup import Lineup


class ReplayPart:
    """A round of a run played again through the Python driver, with the same draws (RULES.md D3)."""

    def replay_round(self, rules: Any, lineup: Lineup, seed: int, round: int, game_no: int | None,
                     check: bool = False) -> Any:  # fmt: skip
        """The finished state of single round ``round``, or of round ``round`` of game ``game_no``."""
        if game_no is None:
            return self.play_unit_py(rules, lineup, seed, round, False, check=check)[0]
        records = self.play_unit_py(rules, lineup, seed, game_no, True, upto=round, check=check)
        if len(records) <= round:
            played = len(records)
            raise CardsimError(f"game {game_no} of seed {seed} ended after {played} rounds; rounds are 0..{played - 1}")
        return records[round]

    def replay(self, rules: Any, lineup: Lineup, seed: int, round: int, game_no: int | None,
               check: bool = False) -> dict:  # fmt: skip
        """Everything that happened in one round, as a JSON-able dict (see ``replay_record``), with its deal
        (``start``) and its ``actions`` in order, so that it replays from them (``cardsim.round.replay_record``)."""
        state = self.replay_round(rules, lineup, seed, round, game_no, check)
        course = self.course(rules, state, round if game_no is not None else None)
        return self.replay_record(rules, lineup, seed, round, game_no, **self.record(rules, state),
                                  start=course.start, actions=course.actions)  # fmt: skip

    @required
    def format_replay(self, record: dict) -> str:
        """A replay dict as readable text (its first line from ``replay_title``)."""

    def replay_record(self, rules: Any, lineup: Lineup, seed: int, round: int, game_no: int | None, **details) -> dict:
        """The fields every replay starts with, then the game's own ``details``."""
        where = {"game": self.name, "rules": dataclasses.asdict(rules), "seed": seed, "round": round}
        return {**where, "game_no": game_no, "bots": list(lineup.names), **details}


def replay_title(record: dict) -> str:
    """First line of a printed replay: game, seed, which round, rules."""
    where = f"round {record['round']}" if record["game_no"] is None else (
        f"game {record['game_no']}, round {record['round']}"
    )  # fmt: skip
    rules = ",".join(f"{k}={v}" for k, v in record["rules"].items())
    return f"{record['game']}  seed {record['seed']}  {where}  rules {rules}"
