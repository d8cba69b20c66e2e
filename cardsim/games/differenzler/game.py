"""Differenzler front: batches of rounds or games as result rows, and replays."""

from __future__ import annotations

from dataclasses import asdict

import numpy as np

from bots.differenzler_strong import BOT_DOCS, BOT_IDS, BOT_SETTINGS
from cardsim.cards import JASS36
from cardsim.games import Game, replay_title
from cardsim.games.differenzler.play import play_round_py, simulate_games
from cardsim.games.differenzler.rules import PLAYERS, ROUNDS_PER_GAME, DifferenzlerRules, game_over, penalties_of
from cardsim.lineup import Lineup
from cardsim.results import Batch

SUIT_NAMES = list("SHDC")


class Differenzler(Game):
    name = "differenzler"
    deck = JASS36
    players = (PLAYERS,)
    rules_class = DifferenzlerRules
    builtin_bots = BOT_IDS
    bot_docs = BOT_DOCS
    bot_settings = BOT_SETTINGS
    decisions = ("predict", "play")
    score = "penalty"
    lower_is_better = True
    categories = {"trump_card": [JASS36.name_of(c) for c in range(36)], "trump": SUIT_NAMES}

    def run(
        self, rules: DifferenzlerRules, lineup: Lineup, seed: int, start: int, count: int, games: bool,
        engine: str = "auto",
    ) -> Batch:  # fmt: skip
        """The batch of rounds or games; ``engine="python"`` forces the plain-Python driver (a cross-check)."""
        rounds = ROUNDS_PER_GAME + rules.max_tiebreak_rounds if games else 1
        played = np.ones(count, np.int64)
        first_hands = np.zeros((count, rounds), np.int8)
        trump_cards = np.zeros((count, rounds), np.int8)
        predictions, points, penalties = (np.zeros((count, rounds, PLAYERS), np.int16) for _ in range(3))
        if lineup.compiled and engine != "python":
            tiebreaks = rules.max_tiebreak_rounds if games else -1  # -1: single rounds
            simulate_games(np.uint64(seed), start, lineup.table, lineup.strong_table, rules.exact_bonus,
                           rules.predictions == "open", tiebreaks, played, first_hands, trump_cards, predictions,
                           points, penalties)  # fmt: skip
        else:
            for u in range(count):
                records = self.play_unit_py(rules, lineup, seed, start + u, games)
                played[u] = len(records)
                for r, rec in enumerate(records):
                    first_hands[u, r], trump_cards[u, r] = rec.first_hand, rec.trump_card
                    predictions[u, r], points[u, r], penalties[u, r] = rec.predictions, rec.points, rec.penalties
        per_round = {"first_hand": first_hands, "trump_card": trump_cards, "trump": trump_cards // 9}
        per_seat = {"prediction": predictions, "points": points, "penalty": penalties}
        return Batch(start, played, per_round, per_seat, games, self.score, not self.lower_is_better)

    def derived(self, rules: DifferenzlerRules) -> dict:
        return {
            "trump": lambda columns: columns["trump_card"] // 9,
            "penalty": lambda columns: penalties_of(columns["prediction"], columns["points"], rules.exact_bonus),
        }

    def rates(self, batch: Batch) -> dict[str, np.ndarray]:
        return {"exact_rate": batch.played_values("prediction") == batch.played_values("points")}

    def play_unit_py(
        self, rules: DifferenzlerRules, lineup: Lineup, seed: int, unit: int, games: bool, upto: int | None = None
    ) -> list:
        """Round records of one single round, or of one whole game (A11), through the Python driver."""
        records = []
        totals = np.zeros(PLAYERS, np.int64)
        while not records or (games and not game_over(totals, len(records), rules.max_tiebreak_rounds)):
            r = len(records)
            first_hand = -1 if r == 0 else (records[0].first_hand + r) % PLAYERS
            rec = play_round_py(seed, unit, r, games, first_hand, list(lineup.bots), lineup.table, list(lineup.names),
                                rules.exact_bonus, rules.predictions == "open")  # fmt: skip
            records.append(rec)
            totals += rec.penalties
            if r == upto:
                break
        return records

    def replay(self, rules: DifferenzlerRules, lineup: Lineup, seed: int, round: int, game_no: int | None) -> dict:
        rec = self.replay_round(rules, lineup, seed, round, game_no)
        return self.replay_record(
            rules, lineup, seed, round, game_no,
            first_hand=rec.first_hand,
            dealer=rec.dealer,
            trump_card=JASS36.name_of(rec.trump_card),
            trump=SUIT_NAMES[rec.trump_card // 9],
            hands=[JASS36.names(h).split() for h in rec.hands],
            predictions=rec.predictions,
            tricks=[{**asdict(t), "cards": list(t.cards)} for t in rec.tricks],
            points=rec.points,
            penalties=rec.penalties,
        )  # fmt: skip

    def format_replay(self, record: dict) -> str:
        lines = [
            replay_title(record),
            f"first hand: seat {record['first_hand']}   dealer: seat {record['dealer']}   "
            f"trump card: {record['trump_card']} (trump {record['trump']})",
            "",
        ]
        for seat, hand in enumerate(record["hands"]):
            prediction = record["predictions"][seat]
            lines.append(
                f"seat {seat} {record['bots'][seat]:<12} hand: {' '.join(hand):<27} prediction {prediction:>3}"
            )
        lines.append("")
        for t, trick in enumerate(record["tricks"], 1):
            lines.append(
                f"trick {t}: seat {trick['leader']} leads  {' '.join(f'{c:<3}' for c in trick['cards'])}  "
                f"-> seat {trick['winner']} takes {trick['points']}"
            )
        lines.append("")
        for seat in range(PLAYERS):
            lines.append(
                f"seat {seat} {record['bots'][seat]:<12} predicted {record['predictions'][seat]:>3}  "
                f"took {record['points'][seat]:>3}  penalty {record['penalties'][seat]:>3}"
            )
        return "\n".join(lines)


GAME = Differenzler()
