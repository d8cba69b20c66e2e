"""Call-partner front: the drivers (a compiled batch kernel and a plain-Python one) over the game's loops in
``play``, asking strong bots where the loops stop for them; batches of single deals or whole games (C10) as result
arrays, and replays.

Both drivers draw the same random numbers in the same order, so a lineup gives the same deals and decisions
through either.
"""

from __future__ import annotations

import random
import time
from dataclasses import asdict

import numpy as np
from numba import njit, prange

import bots.callpartner as builtin
import bots.callpartner_strong as strong
from cardsim.cards import FRENCH52, bit
from cardsim.games import Game, replay_title
from cardsim.games.callpartner.play import (
    CARDS_PLAYED,
    DECLARER,
    GAMES_BLOCK,
    HIGH,
    LEADER,
    ROUNDS_BLOCK,
    SUIT_LETTERS,
    TRUMP,
    Bid,
    Observation,
    RoundRecord,
    Trick,
    answer,
    checked_bid,
    checked_call,
    checked_discards,
    new_scratch,
    new_state,
    random_tricks,
    run_auction,
    run_tricks,
    start_auction,
    start_round,
    start_tricks,
    take_contract,
)
from cardsim.games.callpartner.rules import (
    DECK_SIZE,
    FULL_DECK,
    KEY,
    MAX_BID,
    MAX_PLAYERS,
    MIN_BID,
    MIN_PLAYERS,
    NO_SUIT,
    RANK_OF,
    SUIT_OF,
    TWO,
    CallPartnerRules,
    card_points,
    final_winner,
    game_over,
    legal_mask,
    score_deal,
)
from cardsim.lineup import FIRST_STRONG, Lineup
from cardsim.protocol import Seat, ask, checked_card
from cardsim.results import Batch
from cardsim.rng import stream_seed

BOT_IDS = {**builtin.BOT_IDS, **strong.BOT_IDS}
BOT_DOCS = {**builtin.BOT_DOCS, **strong.BOT_DOCS}


@njit(cache=True, inline="always")
def play_round(
    seed: np.uint64, unit: int, sub: int, dealer: int, players: int, forced: bool, discards_count: bool,
    bots: np.ndarray, strong_bots: np.ndarray | None, random_only: bool, rng: np.ndarray, hands: np.ndarray,
    points: np.ndarray, scores: np.ndarray, state: np.ndarray, log: np.ndarray,
) -> tuple:  # fmt: skip
    """One deal with built-in bots; fills points/scores[seat] (trick points, C9 score). ``random_only``: every
    seat holds the random bot (the same deal, played by a loop without heuristic code). ``strong_bots`` is None
    (numba then compiles no strong bot) or the bot table (``Lineup.strong_table``): strong bots are asked for
    their bids and cards where the game's loops stop for them, and a strong declarer for its call and discards.

    Returns (dealer, declarer, bid, trump, called card, partner, side points, made); a deal nobody
    declared returns declarer, trump, called card and partner -1 and scores 0 for everybody.
    """
    asking = strong_bots is not None
    dealer, kitty = start_round(seed, unit, sub, dealer, players, rng, hands)
    start_auction(state, dealer, players)
    seat = run_auction(bots, asking, rng, hands, dealer, players, forced, -1, state)
    while strong_bots is not None and seat >= 0:
        number, suit = strong.bid(strong_bots[seat], rng, 1 + seat, hands[seat], seat, dealer, players, state[HIGH],
                                  forced, discards_count)  # fmt: skip
        answer(state, number, suit)
        seat = run_auction(bots, asking, rng, hands, dealer, players, forced, -1, state)
    declarer, bid, trump = state[DECLARER], state[HIGH], state[TRUMP]
    if declarer < 0:
        for s in range(players):
            points[s] = 0
            scores[s] = 0
        return dealer, -1, 0, NO_SUIT, -1, -1, 0, False
    called, discards = -1, np.uint64(0)  # -1, empty: the built-in bot decides
    if strong_bots is not None and bots[declarer, 0] >= FIRST_STRONG:
        row = strong_bots[declarer]
        called = strong.call(row, rng, 1 + declarer, hands[declarer], declarer, players, dealer, trump, bid,
                             discards_count)  # fmt: skip
        discards = strong.discard(row, rng, 1 + declarer, hands[declarer] | kitty, declarer, players, dealer, trump,
                                  bid, called, discards_count)  # fmt: skip
    called, partner, discards = take_contract(bots, rng, hands, kitty, players, declarer, trump, discards_count,
                                              called, discards)  # fmt: skip
    start_tricks(state, dealer, players, points)
    if random_only:
        random_tricks(rng, hands, players, trump, state[LEADER], points)
    else:
        seat = run_tricks(bots, asking, rng, hands, players, trump, declarer, partner, called, discards, points, state,
                          log)  # fmt: skip
        while strong_bots is not None and seat >= 0:
            card = strong.play(strong_bots[seat], rng, 1 + seat, hands[seat], seat, players, dealer, trump, declarer,
                               bid, called, discards if seat == declarer else np.uint64(0), discards_count, log,
                               state[CARDS_PLAYED])  # fmt: skip
            answer(state, card)
            seat = run_tricks(bots, asking, rng, hands, players, trump, declarer, partner, called, discards, points,
                              state, log)  # fmt: skip
    side = score_deal(players, declarer, partner, bid, points, card_points(discards), discards_count, scores)
    return dealer, declarer, bid, trump, called, partner, side, side >= bid


@njit(parallel=True, nogil=True, cache=True)  # nogil: the runner writes the last chunk meanwhile
def simulate_games(
    seed: np.uint64, start: int, players: int, games: bool, target: int, max_deals: int, forced: bool,
    discards_count: bool, bots: np.ndarray, strong_bots: np.ndarray | None, played: np.ndarray, dealers: np.ndarray,
    declarers: np.ndarray,
    bids: np.ndarray, trumps: np.ndarray, called: np.ndarray, partners: np.ndarray, side_points: np.ndarray,
    made: np.ndarray, points: np.ndarray, scores: np.ndarray,
) -> None:  # fmt: skip
    """Units ``start ..`` in parallel: single deals (stream (seed, unit, 0)), or whole games (C10) whose deal d
    is stream (seed, unit, d), the dealer rotating from a random first dealer. Out arrays are
    [unit, deal(, seat)]; ``played[unit]`` says how many deals are filled. ``strong_bots``: see ``play_round``."""
    count = played.shape[0]
    block = GAMES_BLOCK if games else ROUNDS_BLOCK
    random_only = True
    for s in range(players):
        random_only = random_only and bots[s, 0] == builtin.RANDOM
    for b in prange((count + block - 1) // block):
        rng, hands, pts, sc, totals = new_scratch()
        state, log = new_state(), np.empty(DECK_SIZE, np.int64)
        for u in range(b * block, min(count, (b + 1) * block)):
            for s in range(players):
                totals[s] = 0
            d, first = 0, -1
            while True:
                dealer = -1 if d == 0 else (first + d) % players  # the deal rotates (C3)
                result = play_round(seed, start + u, d, dealer, players, forced, discards_count, bots, strong_bots,
                                    random_only, rng, hands, pts, sc, state, log)  # fmt: skip
                if d == 0:
                    first = result[0]
                dealers[u, d], declarers[u, d], bids[u, d], trumps[u, d] = result[0], result[1], result[2], result[3]
                called[u, d], partners[u, d], side_points[u, d], made[u, d] = result[4], result[5], result[6], result[7]
                for s in range(players):
                    points[u, d, s], scores[u, d, s] = pts[s], sc[s]
                    totals[s] += sc[s]
                d += 1
                if not games or game_over(totals, players, d, target, max_deals):
                    break
            played[u] = d



# --- the Python driver ----------------------------------------------------------


def play_round_py(
    seed: int, unit: int, sub: int, in_game: bool, dealer: int, rules, lineup: Lineup, times: list | None = None
) -> RoundRecord:
    """One deal in plain Python (deal ``sub`` of unit ``unit``; ``in_game``: the unit is a game, for error
    messages); ``lineup.bots[seat]`` is a built-in bot id (int) or a Python bot object. ``times``, if given,
    collects the seconds each decision of a strong bot took (``decision_times``)."""
    players, kitty_size = rules.players, rules.kitty
    forced, discards_count = rules.all_pass == "dealer_forced", rules.discards_count
    rng, hands = new_scratch()[:2]
    dealer, kitty = (int(x) for x in start_round(np.uint64(seed), unit, sub, dealer, players, rng, hands))
    rec = RoundRecord(dealer, [int(h) for h in hands[:players]], kitty)
    bots, table_rows = lineup.bots, lineup.table
    seats = [Seat(lineup.names[s], s, "callpartner", seed, unit, sub, in_game) for s in range(players)]
    python_rngs = {s: random.Random(stream_seed(seed, unit, sub, 1 + s)) for s in range(players)}
    points = [0] * players
    table = {"high": 0, "trick": [], "leader": -1, "revealed": False, "discarded": False}

    def observe(seat: int, decision: str, legal: int, min_bid: int = MIN_BID, is_forced: bool = False) -> Observation:
        declared = rec.declarer >= 0 and decision != "bid"
        called = rec.called if declared and decision != "call" else -1
        is_declarer = seat == rec.declarer
        knows_partner = called >= 0 and (
            table["revealed"] or (seat == rec.partner) or (is_declarer and rec.partner < 0 and decision != "call")
        )
        sees_kitty = is_declarer and decision in ("discard", "play")
        return Observation(
            decision, seat, dealer, players, FRENCH52.names(int(hands[seat])).split(), FRENCH52.names(legal).split(),
            list(rec.auction), table["high"] or None, min_bid, is_forced,
            rec.declarer if declared else None, rec.bid if declared else None,
            SUIT_LETTERS[rec.trump] if declared else None, FRENCH52.name_of(called) if called >= 0 else None,
            rec.partner if knows_partner and rec.partner >= 0 else None, knows_partner,
            FRENCH52.names(kitty).split() if sees_kitty else None,
            FRENCH52.names(rec.discards).split() if is_declarer and table["discarded"] else None, kitty_size,
            [FRENCH52.name_of(c) for c in table["trick"]], table["leader"], list(rec.tricks), list(points),
            python_rngs[seat], seed, unit, sub,
        )  # fmt: skip

    # C4: the auction, from the dealer's left
    passed, active, turn = set(), players, 0
    seat = (dealer + 1) % players
    while True:
        if seat not in passed:
            bot, high = bots[seat], table["high"]
            if isinstance(bot, int) and bot >= FIRST_STRONG:
                number, suit = timed(times, strong.bid, table_rows[seat], rng, 1 + seat, hands[seat], seat, dealer,
                                     players, high, forced, discards_count)  # fmt: skip
            elif isinstance(bot, int):
                number, suit = (int(x) for x in builtin.bid(bot, rng, 1 + seat, hands[seat], high, players))
            else:
                min_bid = max(MIN_BID, high + 1)
                answer = ask(bot.bid, observe(seat, "bid", 0, min_bid), seats[seat], f"auction turn {turn + 1}")
                number, suit = checked_bid(answer, min_bid, False, seats[seat], f"auction turn {turn + 1}")
            turn += 1
            if number == 0:
                passed.add(seat)
                active -= 1
                rec.auction.append(Bid(seat, None, None))
            else:
                table["high"], rec.trump, rec.declarer = number, suit, seat
                rec.auction.append(Bid(seat, number, SUIT_LETTERS[suit]))
            if table["high"] == MAX_BID or active == 0 or (rec.declarer >= 0 and active == 1):
                break
        seat = (seat + 1) % players
    if rec.declarer < 0 and forced:  # all passed: the dealer declares 10 in a suit of choice
        bot = bots[dealer]
        if isinstance(bot, int):
            suit = int(builtin.forced_trump(bot, rng, 1 + dealer, hands[dealer], players))
        else:
            decision = f"auction turn {turn + 1} (all passed: the dealer declares {MIN_BID})"
            answer = ask(bot.bid, observe(dealer, "bid", 0, MIN_BID, True), seats[dealer], decision)
            suit = checked_bid(answer, MIN_BID, True, seats[dealer], decision)[1]
        table["high"], rec.trump, rec.declarer = MIN_BID, suit, dealer
        rec.auction.append(Bid(dealer, MIN_BID, SUIT_LETTERS[suit]))
    rec.bid = table["high"]
    declarer, trump = rec.declarer, rec.trump
    if declarer < 0:  # nobody declared: the deal scores nothing (redeal)
        rec.points = points
        rec.scores = [0] * players
        return rec

    # C5: the partner call
    bot = bots[declarer]
    strong_declarer = isinstance(bot, int) and bot >= FIRST_STRONG
    if strong_declarer:
        called = timed(times, strong.call, table_rows[declarer], rng, 1 + declarer, hands[declarer], declarer, players,
                       dealer, trump, rec.bid, discards_count)  # fmt: skip
    elif isinstance(bot, int):
        called = int(builtin.call(bot, rng, 1 + declarer, hands[declarer], trump))
    else:
        free = int(FULL_DECK) & ~int(hands[declarer])
        called = checked_call(ask(bot.call, observe(declarer, "call", free), seats[declarer], "call"),
                               int(hands[declarer]), seats[declarer])  # fmt: skip
    rec.called = called
    rec.partner = next((s for s in range(players) if int(hands[s]) >> called & 1), -1)
    partner = rec.partner

    # C6: the kitty and the discards
    hands[declarer] |= np.uint64(kitty)
    if strong_declarer:
        discards = timed(times, strong.discard, table_rows[declarer], rng, 1 + declarer, hands[declarer], declarer,
                         players, dealer, trump, rec.bid, called, discards_count)  # fmt: skip
    elif isinstance(bot, int):
        discards = int(builtin.discard(bot, rng, 1 + declarer, hands[declarer], kitty_size, trump, discards_count))
    else:
        hand = int(hands[declarer])
        answer = ask(bot.discard, observe(declarer, "discard", hand), seats[declarer], "discard")
        discards = checked_discards(answer, hand, kitty_size, seats[declarer])
    rec.discards = discards
    table["discarded"] = True
    hands[declarer] ^= np.uint64(discards)

    # C7, C8: the tricks
    leader = (dealer + 1) % players
    played, log, n_log = 0, np.zeros(DECK_SIZE, np.int64), 0  # log: the cards in play order (strong bots)
    for t in range(rules.hand_size):
        led, top_key, winner, one_suit, two_holder, trick = NO_SUIT, -1, leader, True, -1, 0
        table["trick"], table["leader"] = [], leader
        for i in range(players):
            seat = (leader + i) % players
            legal = int(legal_mask(hands[seat], led))
            bot = bots[seat]
            if isinstance(bot, int) and bot >= FIRST_STRONG:
                own = np.uint64(discards if seat == declarer else 0)
                card = timed(times, strong.play, table_rows[seat], rng, 1 + seat, hands[seat], seat, players, dealer,
                             trump, declarer, rec.bid, called, own, discards_count, log, n_log)  # fmt: skip
            elif isinstance(bot, int):
                card = int(builtin.play(bot, rng, 1 + seat, hands[seat], np.uint64(legal), i, players, trump, led,
                                        top_key, winner, one_suit, two_holder, np.uint64(trick), seat, declarer,
                                        partner, table["revealed"], np.uint64(played),
                                        np.uint64(discards)))  # fmt: skip
            else:
                decision = f"trick {t + 1}, card {i + 1}"
                answer = ask(bot.play, observe(seat, "play", legal), seats[seat], decision)
                card = checked_card(answer, legal, FRENCH52, seats[seat], decision)
            hands[seat] ^= bit(card)
            trick |= 1 << card
            log[n_log], n_log = card, n_log + 1
            table["trick"].append(card)
            if i == 0:
                led = int(SUIT_OF[card])
            key = int(KEY[trump, card])
            if key > top_key:
                top_key, winner = key, seat
            one_suit = one_suit and int(SUIT_OF[card]) == led
            if RANK_OF[card] == TWO:
                two_holder = seat
            table["revealed"] = table["revealed"] or card == called
        winner = int(final_winner(winner, top_key, one_suit, two_holder))
        won = int(card_points(np.uint64(trick)))
        points[winner] += won
        rec.tricks.append(Trick(leader, tuple(FRENCH52.name_of(c) for c in table["trick"]), winner, won))
        played |= trick
        leader = winner
    table["trick"], table["leader"] = [], -1
    rec.points = points
    scores = np.zeros(players, np.int64)
    rec.side_points = int(score_deal(players, declarer, partner, rec.bid, np.array(points, np.int64),
                                     int(card_points(np.uint64(discards))), discards_count, scores))  # fmt: skip
    rec.made = rec.side_points >= rec.bid
    rec.scores = [int(x) for x in scores]
    return rec


def timed(times: list | None, decide, *args) -> tuple | int:
    """A compiled strong bot's decision as Python ints; its seconds appended to ``times`` if given."""
    start = time.perf_counter()
    result = decide(*args)
    if times is not None:
        times.append(time.perf_counter() - start)
    return tuple(int(x) for x in result) if isinstance(result, tuple) else int(result)


PER_ROUND = ("dealer", "declarer", "bid", "trump", "called_card", "partner", "side_points")


class CallPartner(Game):
    name = "callpartner"
    deck = FRENCH52
    players = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))
    rules_class = CallPartnerRules
    builtin_bots = BOT_IDS
    bot_docs = BOT_DOCS
    bot_settings = strong.BOT_SETTINGS
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
            simulate_games(np.uint64(seed), start, players, games, rules.target, rules.max_deals,
                           rules.all_pass == "dealer_forced", rules.discards_count, lineup.table, lineup.strong_table,
                           played,
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
            rec = play_round_py(seed, unit, d, games, dealer, rules, lineup)
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
