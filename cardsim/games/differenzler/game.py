"""Differenzler front: batches of rounds or games as result rows, and replays."""

from __future__ import annotations

import random
from dataclasses import asdict
from typing import Any

import numpy as np

import bots.differenzler as builtin
import bots.differenzler_strong as strong
from bots.differenzler_strong import BOT_DOCS, BOT_IDS, BOT_SETTINGS
from cardsim.cards import JASS36
from cardsim.decisions import PREDICT
from cardsim.errors import CardsimError
from cardsim.games import Course, Game, replay_title
from cardsim.games.differenzler import play
from cardsim.games.differenzler import state as sm
from cardsim.games.differenzler.play import Observation, Out, Trick, run_bots
from cardsim.games.differenzler.rules import (
    PLAYERS,
    TRICKS,
    DifferenzlerRules,
    game_over,
    trick_points,
)
from cardsim.games.differenzler.state import (
    FIRST_HAND,
    LEADER,
    POS,
    PREDICTED,
    TRICK,
    TRUMP_CARD,
    State,
    params,
    to_move,
)
from cardsim.lineup import Lineup
from cardsim.protocol import card_index
from cardsim.results import Batch, check_counts, result_arrays
from cardsim.rng import seed_streams

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

    def batch(
        self, rules: DifferenzlerRules, lineup: Lineup, seed: int, start: int, count: int, games: bool,
        engine: str = "auto", check: bool = False, tables: np.ndarray | None = None,
    ) -> Batch:  # fmt: skip
        """The batch of rounds or games; ``engine="python"`` forces the plain-Python driver (a cross-check);
        ``check``: the round's invariants are checked after every step (``--check``); ``tables``: see
        ``Game.seatings``."""
        rounds = self.max_rounds(rules) if games else 1
        units = count * self.seatings(rules, lineup, engine, tables)
        per_seat_shape = (units, rounds, PLAYERS)
        played, first_hands, trump_cards, predictions, points, penalties = result_arrays(
            ((units,), np.int64, 1), ((units, rounds), np.int8, 0), ((units, rounds), np.int8, 0),
            *[(per_seat_shape, np.int16, 0)] * 3)  # fmt: skip
        checks = check_counts(check, units)
        if lineup.compiled and engine != "python":
            out = Out(played, first_hands, trump_cards, predictions, points, penalties)
            self.simulate(rules, lineup, params(rules), seed, start, games, checks, out, tables)
        else:
            for u in range(count):
                states = self.play_unit_py(rules, lineup, seed, start + u, games, check=check)
                played[u] = len(states)
                for r, s in enumerate(states):
                    first_hands[u, r], trump_cards[u, r] = s.slots[FIRST_HAND], s.slots[TRUMP_CARD]
                    predictions[u, r], points[u, r] = s.predictions, s.points
                    penalties[u, r] = self.scores(rules, s)
        per_round = {"first_hand": first_hands, "trump_card": trump_cards, "trump": trump_cards // 9}
        per_seat = {"prediction": predictions, "points": points, "penalty": penalties}
        return Batch(start, played, per_round, per_seat, games, self.score, not self.lower_is_better, checks)

    def rates(self, batch: Batch) -> dict[str, np.ndarray]:
        return {"exact_rate": batch.played_values("prediction") == batch.played_values("points")}

    # --- the state machine's hooks (cardsim/games/differenzler/state.py) ------------------------------------

    state_module = sm
    play_module = play
    play_blocks = (play.builtin_block, play.asking_block)
    random_block = play.random_block  # random lineups' single rounds, in pairs
    random_games_block = play.random_games_block  # and their games
    builtin_module = builtin
    strong_module = strong
    state_type = State

    def deal(self, rules: DifferenzlerRules, seed: int, unit: int, sub: int, dealer: int, in_game: bool) -> State:
        """Round ``sub`` of unit ``unit`` dealt as the batch kernel deals it; ``dealer`` is First Hand (< 0: drawn)."""
        s = sm.new_state(PLAYERS)
        sm.deal(s, params(rules), np.uint64(seed), unit, sub, dealer)
        return s

    def start(self, rules: DifferenzlerRules, hands: list, dealer: int, **shown: Any) -> State:
        """The round dealt ``hands`` (card masks or card strings, 9 cards each) by ``dealer``, who shows
        ``trump_card`` (one of its cards, a name or an index); First Hand is the seat after the dealer. The built-in
        bots' streams are those of seed 0, round 0."""
        unknown = set(shown) - {"trump_card"}
        if unknown or "trump_card" not in shown:
            raise CardsimError(f"differenzler starts from hands and the dealer's trump_card, not {sorted(shown)}")
        if len(hands) != PLAYERS:
            raise CardsimError(f"differenzler deals {PLAYERS} hands, not {len(hands)}")
        masks = [int(h) if isinstance(h, (int, np.integer)) else JASS36.mask(h) for h in hands]
        for seat, m in enumerate(masks):
            if bin(m).count("1") != TRICKS:
                raise CardsimError(f"seat {seat} holds {bin(m).count('1')} cards; each hand has {TRICKS}")
        if sum(masks) != (1 << 36) - 1:
            raise CardsimError("the hands must share out the 36 cards, each card once")
        dealer = int(dealer)
        if not 0 <= dealer < PLAYERS:
            raise CardsimError(f"dealer must be a seat 0..{PLAYERS - 1}, not {dealer}")
        card = card_index(shown["trump_card"], JASS36)
        if card < 0:
            raise CardsimError(f"trump_card {shown['trump_card']!r} is no card: give one of the dealer's (seat "
                               f"{dealer}) cards")  # fmt: skip
        if not masks[dealer] >> card & 1:
            raise CardsimError(f"the trump card {JASS36.name_of(card)} must be in the dealer's (seat {dealer}) hand")
        s = sm.new_state(PLAYERS)
        seed_streams(s.rng, np.uint64(0), 0, 0)
        sm.start(s, params(rules), dealer, np.array(masks, np.uint64), card)
        return s

    slot_names = ("TRICK", "POS", "LEADER", "LED", "TOP_KEY", "TOP_TRUMP", "WINNER", "WON", "FIRST_HAND", "TRUMP_CARD",
                  "TRUMP", "PREDICTED", "SEED", "UNIT", "SUB", "SEEDED")  # fmt: skip
    free_slots = {"SEED": "key", "UNIT": "key", "SUB": "key", "SEEDED": "seeded"}

    def course(self, rules: DifferenzlerRules, state: State, sub: int | None = None) -> Course:
        """The deal (hands, the dealer before First Hand, the trump card), the predictions in turn from First Hand
        (A7), then the cards in play order."""
        first = self.state_int(state, "slots", FIRST_HAND, 0, PLAYERS - 1)
        start = {"hands": [JASS36.names(int(h)) for h in state.dealt], "dealer": (first + PLAYERS - 1) % PLAYERS,
                 "trump_card": self.state_card(state, "slots", TRUMP_CARD)}  # fmt: skip
        made = self.state_int(state, "slots", PREDICTED, 0, PLAYERS)
        actions: list = [int(state.predictions[(first + k) % PLAYERS]) for k in range(made)]
        tricks = self.state_int(state, "slots", TRICK, 0, TRICKS)
        pos = self.state_int(state, "slots", POS, 0, PLAYERS - 1)
        for t in range(min(tricks + 1, TRICKS)):
            actions += [self.state_card(state, "history", (t, 2 + i)) for i in range(PLAYERS if t < tricks else pos)]
        return Course(start, actions)

    def decision_label(self, rules: DifferenzlerRules, state: State) -> str:
        if sm.decision(state) == PREDICT:
            return "prediction"
        return f"trick {int(state.slots[TRICK]) + 1}, card {int(state.slots[POS]) + 1}"

    def hidden_cards(self, rules: DifferenzlerRules, state: State, seat: int) -> int:
        """The other hands, but the trump card the dealer showed (A5)."""
        others = np.bitwise_or.reduce(np.delete(state.hands, seat))
        return int(others) & ~(1 << int(state.slots[TRUMP_CARD]))

    def observation(self, rules: DifferenzlerRules, state: State, seat: int, rng: random.Random) -> Observation:
        first_hand = int(state.slots[FIRST_HAND])
        visible = np.empty(PLAYERS, np.int64)
        sm.visible_predictions(state, params(rules), seat, visible)
        tricks = self._tricks(state)
        t, pos = int(state.slots[TRICK]), int(state.slots[POS])
        trick = [JASS36.name_of(int(state.history[t, 2 + i])) for i in range(pos)] if t < TRICKS else []
        legal = int(sm.legal_cards(state, params(rules))) if sm.to_move(state) == seat else 0
        trump_card = int(state.slots[TRUMP_CARD])
        return Observation(
            seat, first_hand, (first_hand + PLAYERS - 1) % PLAYERS, SUIT_NAMES[trump_card // 9],
            JASS36.name_of(trump_card), JASS36.names(int(state.hands[seat])).split(), JASS36.names(legal).split(),
            [int(v) if v >= 0 else None for v in visible], trick, int(state.slots[LEADER]), tricks,
            [int(x) for x in state.points], rng,
        )  # fmt: skip

    def bot_action(self, rules: DifferenzlerRules, state: State, row: np.ndarray, advance: bool = False) -> Any:
        s = state if advance else self.kernel("copy_state", state)
        code = self.act_of(rules, np.asarray(row, np.float64), s, params(rules), int(to_move(s)))
        return code if sm.decision(state) == PREDICT else JASS36.name_of(code)

    def scratch(self, params: sm.Params) -> tuple:
        return (play.scratch(params),)

    def play_on(self, state: State, p: Any, table: np.ndarray, strong_bots: Any) -> int:
        return run_bots(state, p, table, strong_bots)

    def dealer_of(self, rules: DifferenzlerRules, state: State) -> int:
        """First Hand: the next round's First Hand is the next seat (A6, A11)."""
        return int(state.slots[FIRST_HAND])

    def max_rounds(self, rules: DifferenzlerRules) -> int:
        return rules.game_rounds + rules.max_tiebreak_rounds  # A11, A13: the game's rounds and every tie-break

    def game_over(self, rules: DifferenzlerRules, totals: np.ndarray, rounds: int) -> bool:
        return bool(game_over(np.asarray(totals, np.int64), rounds, rules.game_rounds, rules.max_tiebreak_rounds))

    @staticmethod
    def _tricks(state: State) -> list[Trick]:
        """The finished tricks of the round."""
        trump = int(state.slots[TRUMP_CARD]) // 9
        tricks = []
        for t in range(min(int(state.slots[TRICK]), TRICKS)):
            cards = state.history[t, 2:].copy()
            won = int(trick_points(cards, trump, t == TRICKS - 1))
            tricks.append(Trick(int(state.history[t, 0]), tuple(JASS36.name_of(int(c)) for c in cards),
                                int(state.history[t, 1]), won))  # fmt: skip
        return tricks

    def record(self, rules: DifferenzlerRules, state: State) -> dict:
        first_hand, trump_card = int(state.slots[FIRST_HAND]), int(state.slots[TRUMP_CARD])
        made = int(state.slots[PREDICTED])
        return {
            "first_hand": first_hand,
            "dealer": (first_hand + PLAYERS - 1) % PLAYERS,
            "trump_card": JASS36.name_of(trump_card),
            "trump": SUIT_NAMES[trump_card // 9],
            "hands": [JASS36.names(int(h)).split() for h in state.dealt],
            "predictions": [int(state.predictions[s]) if (s - first_hand) % PLAYERS < made else None
                            for s in range(PLAYERS)],
            "tricks": [{**asdict(t), "cards": list(t.cards)} for t in self._tricks(state)],
            "points": [int(x) for x in state.points],
            "penalties": self.scores(rules, state),
        }  # fmt: skip

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
