"""Call-partner front: batches of single deals or whole games (C10) as result arrays, and replays."""

from __future__ import annotations

from dataclasses import asdict

import numpy as np
from numba import njit

from bots.callpartner import BOT_DOCS, BOT_IDS
from cardsim.cards import FRENCH52
from cardsim.games import Game, replay_title
from cardsim.games.callpartner.play import SUIT_LETTERS, play_round_py, simulate_games
from cardsim.games.callpartner.rules import MAX_PLAYERS, MIN_PLAYERS, CallPartnerRules, game_over
from cardsim.lineup import Lineup
from cardsim.results import Batch

PER_ROUND = ("dealer", "declarer", "bid", "trump", "called_card", "partner", "side_points")


class CallPartner(Game):
    name = "callpartner"
    deck = FRENCH52
    players = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))
    rules_class = CallPartnerRules
    builtin_bots = BOT_IDS
    bot_docs = BOT_DOCS
    decisions = ("bid", "call", "discard", "play")
    score = "score"
    lower_is_better = False
    categories = {"trump": list(SUIT_LETTERS), "called_card": [FRENCH52.name_of(c) for c in range(52)]}
    ratios = {"contracts_made_rate": ("made_as_declarer_rate", "declared_rate")}  # share of its contracts made

    def run(
        self, rules: CallPartnerRules, lineup: Lineup, seed: int, start: int, count: int, games: bool,
        engine: str = "auto",
    ) -> Batch:  # fmt: skip
        """The batch of deals or games; ``engine="python"`` forces the plain-Python driver (a cross-check)."""
        deals, players = (rules.max_deals if games else 1), rules.players
        played = np.ones(count, np.int64)
        per_round = {name: np.full((count, deals), -1, np.int8) for name in PER_ROUND}
        made = np.zeros((count, deals), np.bool_)
        points = np.zeros((count, deals, players), np.int8)
        scores = np.zeros((count, deals, players), np.int16)
        if lineup.compiled and engine != "python":
            bots = lineup.table
            simulate_games(np.uint64(seed), start, players, games, rules.target, rules.max_deals,
                           rules.all_pass == "dealer_forced", rules.discards_count, bots, played,
                           *per_round.values(), made, points, scores)  # fmt: skip
        else:
            for u in range(count):
                records = self.play_unit_py(rules, lineup, seed, start + u, games)
                played[u] = len(records)
                for d, rec in enumerate(records):
                    values = (rec.dealer, rec.declarer, rec.bid, rec.trump, rec.called, rec.partner, rec.side_points)
                    for name, value in zip(PER_ROUND, values, strict=True):
                        per_round[name][u, d] = value
                    made[u, d], points[u, d], scores[u, d] = rec.made, rec.points, rec.scores
        per_round["made"] = made
        return Batch(start, played, per_round, {"points": points, "score": scores}, games, self.score, True)

    def rates(self, batch: Batch) -> dict[str, np.ndarray]:
        """Per (deal, seat): the seat declared; declared and made the bid; was the partner of a made bid."""
        seats = batch.per_seat[self.score].shape[2]
        rnd = batch.per_round
        declared, made_declarer, made_partner = _role_hits(rnd["declarer"], rnd["partner"], rnd["made"], batch.played,
                                                           seats)  # fmt: skip
        return {
            "declared_rate": declared,
            "made_as_declarer_rate": made_declarer,
            "made_as_partner_rate": made_partner,
        }

    def play_unit_py(
        self, rules: CallPartnerRules, lineup: Lineup, seed: int, unit: int, games: bool, upto: int | None = None
    ) -> list:
        """Deal records of one single deal, or of one whole game (C10), through the Python driver."""
        records = []
        totals = np.zeros(rules.players, np.int64)
        while not records or (games and not game_over(totals, rules.players, len(records), rules.target,
                                                       rules.max_deals)):  # fmt: skip
            d = len(records)
            dealer = -1 if d == 0 else (records[0].dealer + d) % rules.players
            rec = play_round_py(seed, unit, d, games, dealer, rules, list(lineup.bots), list(lineup.names))
            records.append(rec)
            totals += rec.scores
            if d == upto:
                break
        return records

    def replay(self, rules: CallPartnerRules, lineup: Lineup, seed: int, round: int, game_no: int | None) -> dict:
        rec = self.replay_round(rules, lineup, seed, round, game_no)
        declared = rec.declarer >= 0
        return self.replay_record(
            rules, lineup, seed, round, game_no,
            players=rules.players,
            dealer=rec.dealer,
            hands=[FRENCH52.names(h).split() for h in rec.hands],
            kitty=FRENCH52.names(rec.kitty).split(),
            auction=[asdict(b) for b in rec.auction],
            declarer=rec.declarer if declared else None,
            bid=rec.bid if declared else None,
            trump=SUIT_LETTERS[rec.trump] if declared else None,
            called_card=FRENCH52.name_of(rec.called) if declared else None,
            partner=rec.partner if rec.partner >= 0 else None,
            discards=FRENCH52.names(rec.discards).split(),
            tricks=[{**asdict(t), "cards": list(t.cards)} for t in rec.tricks],
            points=rec.points,
            side_points=rec.side_points if declared else None,
            made=rec.made if declared else None,
            scores=rec.scores,
        )  # fmt: skip

    def format_replay(self, record: dict) -> str:
        bots = record["bots"]
        lines = [
            replay_title(record),
            f"{record['players']} players   dealer: seat {record['dealer']}   kitty: {' '.join(record['kitty'])}",
            "",
        ]
        for seat, hand in enumerate(record["hands"]):
            lines.append(f"seat {seat} {bots[seat]:<12} hand: {' '.join(hand)}")
        calls = [f"seat {c['seat']} " + (f"{c['bid']}{c['trump']}" if c["bid"] is not None else "pass")
                 for c in record["auction"]]  # fmt: skip
        lines += ["", "auction: " + ", ".join(calls)]
        declarer = record["declarer"]
        if declarer is None:
            lines.append("all passed: nobody declares, the deal scores nothing")
        else:
            partner = record["partner"]
            lines.append(
                f"declarer: seat {declarer}, bid {record['bid']}, trump {record['trump']}; called "
                f"{record['called_card']}: " + (f"partner seat {partner}" if partner is not None else "in the kitty, "
                                                "no partner")
            )  # fmt: skip
            lines.append(f"discards: {' '.join(record['discards'])}")
            lines.append("")
            for t, trick in enumerate(record["tricks"], 1):
                cards = " ".join(f"{c:<3}" for c in trick["cards"])
                lines.append(
                    f"trick {t:>2}: seat {trick['leader']} leads  {cards}  -> seat {trick['winner']} takes "
                    f"{trick['points']}"
                )
            lines.append("")
            lines.append(
                f"declaring side: {record['side_points']} points, bid {record['bid']}: "
                + ("made" if record["made"] else "failed")
            )
        lines.append("")
        for seat in range(record["players"]):
            role = "declarer" if seat == declarer else "partner" if seat == record["partner"] else ""
            lines.append(
                f"seat {seat} {bots[seat]:<12} {role:<8}  took {record['points'][seat]:>2}  "
                f"score {record['scores'][seat]:>4}"
            )
        return "\n".join(lines)


@njit(cache=True)
def _role_hits(declarer: np.ndarray, partner: np.ndarray, made: np.ndarray, played: np.ndarray, seats: int) -> tuple:
    """[deal played, seat] booleans in one pass: declared, made as declarer, made as partner."""
    n = 0
    for u in range(played.shape[0]):
        n += played[u]
    declared = np.zeros((n, seats), np.bool_)
    made_declarer = np.zeros((n, seats), np.bool_)
    made_partner = np.zeros((n, seats), np.bool_)
    i = 0
    for u in range(played.shape[0]):
        for d in range(played[u]):
            if declarer[u, d] >= 0:
                declared[i, declarer[u, d]] = True
                made_declarer[i, declarer[u, d]] = made[u, d]
                if partner[u, d] >= 0:
                    made_partner[i, partner[u, d]] = made[u, d]
            i += 1
    return declared, made_declarer, made_partner


GAME = CallPartner()
