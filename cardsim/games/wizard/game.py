"""Wizard front: batches of single rounds or whole games (B9) as result arrays, and replays."""

from __future__ import annotations

from dataclasses import asdict

import numpy as np

from bots.wizard import BOT_DOCS, BOT_IDS
from cardsim.cards import WIZARD60
from cardsim.errors import CardsimError
from cardsim.games import Game, replay_title
from cardsim.games.wizard.play import SUIT_LETTERS, TURN_A_CARD, play_round_py, simulate_games
from cardsim.games.wizard.rules import MAX_PLAYERS, MIN_PLAYERS, WizardRules
from cardsim.lineup import Lineup
from cardsim.results import Batch


class Wizard(Game):
    name = "wizard"
    deck = WIZARD60
    players = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))
    rules_class = WizardRules
    builtin_bots = BOT_IDS
    bot_docs = BOT_DOCS
    decisions = ("bid", "play", "choose_trump")
    score = "score"
    lower_is_better = False
    categories = {"trump_card": [WIZARD60.name_of(c) for c in range(60)], "trump": list(SUIT_LETTERS)}

    @staticmethod
    def _plan(rules: WizardRules, games: bool) -> tuple[np.ndarray, np.ndarray]:
        """Cards per round and fixed trumps: the schedule for games (B10), one round of ``cards`` otherwise."""
        if games:
            return np.array(rules.schedule_cards(), np.int64), np.array(rules.fixed_trumps(), np.int64)
        return np.array([rules.round_cards], np.int64), np.array([TURN_A_CARD], np.int64)

    def run(
        self, rules: WizardRules, lineup: Lineup, seed: int, start: int, count: int, games: bool, engine: str = "auto"
    ) -> Batch:
        """The batch of rounds or games; ``engine="python"`` forces the plain-Python driver (a cross-check)."""
        schedule, fixed = self._plan(rules, games)
        rounds, players = len(schedule), rules.players
        dealers, turned, trumps = (np.zeros((count, rounds), np.int8) for _ in range(3))
        bids, tricks = (np.zeros((count, rounds, players), np.int8) for _ in range(2))
        scores = np.zeros((count, rounds, players), np.int16)
        if lineup.compiled and engine != "python":
            bots = np.array(lineup.builtin_ids, np.int64)
            simulate_games(np.uint64(seed), start, schedule, fixed, rules.plus_minus_one, bots,
                           dealers, turned, trumps, bids, tricks, scores)  # fmt: skip
        else:
            for u in range(count):
                for r, rec in enumerate(self._play_py(rules, lineup, seed, start + u, games, schedule, fixed)):
                    dealers[u, r], turned[u, r], trumps[u, r] = rec.dealer, rec.turned, rec.trump
                    bids[u, r], tricks[u, r], scores[u, r] = rec.bids, rec.tricks_won, rec.scores
        per_round = {
            "cards": np.broadcast_to(schedule.astype(np.int8), (count, rounds)),
            "dealer": dealers,
            "trump_card": turned,
            "trump": trumps,
        }
        per_seat = {"bid": bids, "tricks": tricks, "score": scores}
        return Batch(start, np.full(count, rounds), per_round, per_seat, games, self.score, True)

    def rates(self, batch: Batch) -> dict[str, np.ndarray]:
        return {"exact_bid_rate": batch.played_values("bid") == batch.played_values("tricks")}

    def _play_py(
        self, rules, lineup: Lineup, seed: int, unit: int, in_game: bool, schedule, fixed, upto: int | None = None
    ) -> list:
        """Round records of one unit (a single round, or a game) through the Python driver."""
        records = []
        for r in range(len(schedule) if upto is None else upto + 1):
            dealer = -1 if r == 0 else (records[0].dealer + r) % rules.players
            records.append(play_round_py(seed, unit, r, in_game, dealer, int(schedule[r]), int(fixed[r]), rules,
                                         list(lineup.bots), list(lineup.names)))  # fmt: skip
        return records

    def replay(self, rules: WizardRules, lineup: Lineup, seed: int, round: int, game_no: int | None) -> dict:
        schedule, fixed = self._plan(rules, game_no is not None)
        if game_no is None:
            rec = self._play_py(rules, lineup, seed, round, False, schedule, fixed)[0]
        else:
            if round >= len(schedule):
                raise CardsimError(f"a {rules.schedule} wizard game has rounds 0..{len(schedule) - 1}, not {round}")
            rec = self._play_py(rules, lineup, seed, game_no, True, schedule, fixed, upto=round)[round]
        return self.replay_record(
            rules, lineup, seed, round, game_no,
            players=rules.players,
            dealer=rec.dealer,
            cards=rec.cards,
            turned_card=WIZARD60.name_of(rec.turned) if rec.turned >= 0 else None,
            trump=SUIT_LETTERS[rec.trump] if rec.trump >= 0 else None,
            hands=[WIZARD60.names(h).split() for h in rec.hands],
            bids=rec.bids,
            tricks=[{**asdict(t), "cards": list(t.cards)} for t in rec.tricks],
            tricks_won=rec.tricks_won,
            scores=rec.scores,
        )  # fmt: skip

    def format_replay(self, record: dict) -> str:
        lines = [
            replay_title(record),
            f"{record['players']} players, {record['cards']} cards each   dealer: seat {record['dealer']}   "
            f"turned: {record['turned_card'] or '-'}   trump: {record['trump'] or 'none'}",
            "",
        ]
        for seat, hand in enumerate(record["hands"]):
            lines.append(
                f"seat {seat} {record['bots'][seat]:<12} bid {record['bids'][seat]:>2}  hand: {' '.join(hand)}"
            )
        lines.append("")
        for t, trick in enumerate(record["tricks"], 1):
            cards = " ".join(f"{c:<3}" for c in trick["cards"])
            lines.append(f"trick {t:>2}: seat {trick['leader']} leads  {cards}  -> seat {trick['winner']}")
        lines.append("")
        for seat in range(record["players"]):
            lines.append(
                f"seat {seat} {record['bots'][seat]:<12} bid {record['bids'][seat]:>2}  "
                f"took {record['tricks_won'][seat]:>2}  score {record['scores'][seat]:>4}"
            )
        return "\n".join(lines)


GAME = Wizard()
