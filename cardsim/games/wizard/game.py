"""Wizard front: batches of single rounds or whole games (B9) as result arrays, and replays."""

from __future__ import annotations

from dataclasses import asdict

import numpy as np

from bots.wizard import BOT_DOCS, BOT_IDS, BOT_SETTINGS
from cardsim.cards import WIZARD60
from cardsim.games import Game, replay_title
from cardsim.games.wizard.play import BIDDING, SUIT_LETTERS, TURN_A_CARD, play_round_py, simulate_games
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
    bot_settings = BOT_SETTINGS
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
            simulate_games(np.uint64(seed), start, schedule, fixed, rules.plus_minus_one, BIDDING.index(rules.bidding),
                           lineup.table, lineup.strong_table, dealers, turned, trumps, bids, tricks,
                           scores)  # fmt: skip
        else:
            for u in range(count):
                for r, rec in enumerate(self.play_unit_py(rules, lineup, seed, start + u, games)):
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

    def play_unit_py(
        self, rules: WizardRules, lineup: Lineup, seed: int, unit: int, games: bool, upto: int | None = None
    ) -> list:
        schedule, fixed = self._plan(rules, games)
        records = []
        for r in range(len(schedule) if upto is None else min(upto + 1, len(schedule))):
            dealer = -1 if r == 0 else (records[0].dealer + r) % rules.players
            records.append(play_round_py(seed, unit, r, games, dealer, int(schedule[r]), int(fixed[r]), rules,
                                         list(lineup.bots), list(lineup.names), lineup.table))  # fmt: skip
        return records

    def replay(self, rules: WizardRules, lineup: Lineup, seed: int, round: int, game_no: int | None) -> dict:
        rec = self.replay_round(rules, lineup, seed, round, game_no)
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
