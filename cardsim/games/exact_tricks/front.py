"""The exact-tricks family's ``Game`` front (``ExactTricksGame``): batches of single rounds or whole games as result
arrays, rounds from given hands, observations, records and replays, for any game of the family. A game of it
(``cardsim/games/<game>/game.py``) is a small subclass: its name, deck of card names, players, rules class,
decisions, and what its options allow (``check_units``, ``fixed_trump``)."""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any, ClassVar

import numpy as np

import bots.exact_tricks as builtin
import bots.exact_tricks_strong as strong
from bots.exact_tricks import BOT_DOCS, BOT_IDS, BOT_SETTINGS
from cardsim.cards import Deck
from cardsim.errors import CardsimError
from cardsim.games import Course, Game, replay_title
from cardsim.games.exact_tricks import play
from cardsim.games.exact_tricks import state as st
from cardsim.games.exact_tricks.play import SUIT_LETTERS, Observation, Out, Trick, run
from cardsim.games.exact_tricks.rules import ExactTricksRules, is_wizard
from cardsim.lineup import Lineup
from cardsim.protocol import card_index
from cardsim.results import Batch, check_counts, result_arrays


@lru_cache(maxsize=64)
def _params(rules: ExactTricksRules, games: bool = False) -> st.Params:
    return st.params(rules, games)


def _card(deck: Deck, card: int) -> str | None:
    return deck.name_of(card) if card >= 0 else None


def categories(deck: Deck) -> dict[str, list[str]]:
    """The int-coded columns of a family game's rows and their labels (``Game.categories``)."""
    return {"trump_card": [deck.name_of(c) for c in range(deck.size)], "trump": list(SUIT_LETTERS)}


def _tricks(deck: Deck, s: st.State) -> list[Trick]:
    """The finished tricks of ``s`` from its log (winners by the state's own trick step)."""
    players, trump = len(s.hands), int(s.slots[st.TRUMP_SUIT])
    tricks = []
    for t in range(int(s.slots[st.TRICK])):
        rows = s.log[t * players : (t + 1) * players]
        led, decided, top, winner = -1, False, -1, int(rows[0, 0])
        for seat, card in rows:
            led, decided, top, winner = st.trick_step(trump, led, decided, top, winner, int(seat), int(card))
        tricks.append(Trick(int(rows[0, 0]), tuple(deck.name_of(int(c)) for c in rows[:, 1]), int(winner)))
    return tricks


class ExactTricksGame(Game, abstract=True):
    """What every game of the family shares; a subclass sets ``name``, ``deck``, ``players``, ``rules_class``,
    ``decisions``, ``categories`` and ``may_be_empty``, and may override ``check_units`` and ``fixed_trump``."""

    builtin_bots = BOT_IDS
    bot_docs = BOT_DOCS
    bot_settings = BOT_SETTINGS
    score = "score"
    lower_is_better = False

    def batch(
        self, rules: ExactTricksRules, lineup: Lineup, seed: int, start: int, count: int, games: bool,
        engine: str = "auto", check: bool = False, tables: np.ndarray | None = None,
    ) -> Batch:  # fmt: skip
        """The batch of rounds or games; ``engine="python"`` forces the plain-Python driver (a cross-check);
        ``check``: the round's invariants are checked after every step (``--check``); ``tables``: see
        ``Game.seatings``."""
        p = _params(rules, games)
        schedule, rounds, players = p.schedule, len(p.schedule), rules.players
        units = count * self.seatings(rules, lineup, engine, tables)
        per_seat_shape = (units, rounds, players)
        played, dealers, turned, trumps, bids, tricks, scores = result_arrays(
            ((units,), np.int64, rounds), *[((units, rounds), np.int8, 0)] * 3, *[(per_seat_shape, np.int8, 0)] * 2,
            (per_seat_shape, np.int16, 0))  # fmt: skip
        checks = check_counts(check, units)
        if lineup.compiled and engine != "python":
            out = Out(dealers, turned, trumps, bids, tricks, scores)
            self.simulate(rules, lineup, p, seed, start, games, checks, out, tables)  # the kernels: 1-round games
        else:
            for u in range(count):
                for r, s in enumerate(self.play_unit_py(rules, lineup, seed, start + u, games, check=check)):
                    dealers[u, r], turned[u, r], trumps[u, r] = (s.slots[k] for k in (st.DEALER, st.TURNED,
                                                                                       st.TRUMP_SUIT))  # fmt: skip
                    bids[u, r], tricks[u, r], scores[u, r] = s.bids, s.won, self.scores(rules, s)
        per_round = {
            "cards": np.broadcast_to(schedule.astype(np.int8), (units, rounds)),
            "dealer": dealers,
            "trump_card": turned,
            "trump": trumps,
        }
        per_seat = {"bid": bids, "tricks": tricks, "score": scores}
        return Batch(start, played, per_round, per_seat, games, self.score, True, checks)

    def rates(self, batch: Batch) -> dict[str, np.ndarray]:
        return {"exact_bid_rate": batch.played_values("bid") == batch.played_values("tricks")}

    # --- the state machine's hooks (cardsim.games.Game) -------------------------------------------------------

    state_module = st
    play_module = play
    play_blocks = (play.builtin_block, play.asking_block)
    random_block = play.random_block  # random lineups' single rounds, in pairs
    random_games_block = play.random_games_block  # and their games
    builtin_module = builtin
    strong_module = strong
    state_type = st.State

    def scratch(self, params: st.Params) -> tuple:
        return (play.scratch(params),)

    def deal(self, rules: ExactTricksRules, seed: int, unit: int, sub: int, dealer: int, in_game: bool) -> st.State:
        """Round ``sub`` of unit ``unit``: cards and any fixed trump from the schedule in games (B3, B10, F7), else
        the rules' single round (B3, F3)."""
        s = st.new_state(rules.players)
        st.deal(s, _params(rules, in_game), np.uint64(seed), unit, sub, dealer)
        return s

    fixed_trump_rule: ClassVar[str | None] = None  # the rule by which a schedule fixes the trump (B10), or None

    def fixed_trump(self, trump: str | None) -> int:
        """``start``'s ``trump`` as the state machine's fixed trump: ``"turned"`` (the default: the turned card's
        suit, B4/F3), or where the game's schedules fix it (``fixed_trump_rule``) a suit letter, None for none."""
        fixed = {"turned": st.TURN_A_CARD}
        if self.fixed_trump_rule:
            fixed |= {None: st.NO_SUIT, **{letter: i for i, letter in enumerate(SUIT_LETTERS)}}
        if not isinstance(trump, (str, type(None))) or trump not in fixed:
            fixes = f", or a trump the schedule fixes ({self.fixed_trump_rule}): S, H, D, C, or None for none"
            raise CardsimError(f"trump {trump!r} is not allowed: 'turned' (the turned card's suit)"
                               f"{fixes if self.fixed_trump_rule else ''}")  # fmt: skip
        return fixed[trump]

    def start(self, rules: ExactTricksRules, hands: list[int], dealer: int, turned: int | str | None = None,
              seed: int = 0, trump: str | None = "turned", **shown: Any) -> st.State:  # fmt: skip
        """A round dealt ``hands`` (card masks of the rules' deck, all of one size: the round's cards) with
        ``turned`` (a card name or index; None when no card is left, where the rules let the whole deck be dealt),
        the streams of single round 0 of ``seed``; ``trump``: see ``fixed_trump``."""
        players, name = rules.players, self.name
        if shown:
            raise CardsimError(f"{name} starts from hands, the turned card and a fixed trump, not {', '.join(shown)}")
        if len(hands) != players:
            raise CardsimError(f"{name} with {players} players needs {players} hands, not {len(hands)}")
        masks = [int(h) for h in hands]
        sizes = {bin(h).count("1") for h in masks}
        if len(sizes) != 1 or not 1 <= min(sizes) <= rules.max_cards:
            raise CardsimError(f"{name} hands must all hold the same number of cards, 1 to {rules.max_cards}")
        if any(masks[i] & masks[j] for i in range(players) for j in range(i)):
            raise CardsimError(f"{name} hands share a card")
        if any(h & ~rules.deck for h in masks):
            raise CardsimError(f"{name} hands hold a card outside the deck of these rules: "
                               f"{self.deck.names(rules.deck)}")  # fmt: skip
        card = -1 if turned is None else card_index(turned, self.deck)
        if turned is None and rules.keep_turned:
            raise CardsimError(f"{name} turns a card up for the trump in every round: give turned")
        if turned is not None and (card < 0 or any(h >> card & 1 for h in masks) or not rules.deck >> card & 1):
            raise CardsimError(f"turned card {turned!r} is not a card of the deck outside the hands")
        if not 0 <= dealer < players:
            raise CardsimError(f"dealer {dealer!r} is not a seat 0..{players - 1}")
        fixed = self.fixed_trump(trump)
        s = st.new_state(players)
        st.seed_round(s, np.uint64(seed), 0, 0)
        st.start(s, _params(rules), dealer, np.array(masks, np.uint64), card, fixed)
        return s

    slot_names = ("PHASE", "MOVER", "DEALER", "PLAYERS", "CARDS", "TURNED", "TRUMP_SUIT", "N_BIDS", "BID_TOTAL",
                  "LEADER", "POS", "LED", "DECIDED", "TOP_KEY", "WINNER", "N_PLAYED", "TRICK", "SEED", "UNIT", "SUB",
                  "BOT_SEEDED")  # fmt: skip
    free_slots = {"SEED": "key", "UNIT": "key", "SUB": "key", "BOT_SEEDED": "seeded"}

    def course(self, rules: ExactTricksRules, state: st.State, sub: int | None = None) -> Course:
        """The deal (hands, dealer, turned card; in a game the cards and any trump its schedule fixes, B10/F7), the
        dealer's trump when a Wizard is turned (B4), the bids from the dealer's left (B5), then the cards in play
        order."""
        players = rules.players
        dealer = self.state_int(state, "slots", st.DEALER, 0, players - 1)
        turned = self.state_int(state, "slots", st.TURNED, -1, self.deck.size - 1)
        start = {"hands": [self.deck.names(int(h)) for h in state.dealt], "dealer": dealer,
                 "turned": _card(self.deck, turned)}  # fmt: skip
        fixed = st.TURN_A_CARD
        if sub is not None:
            cards, fixed = rules.schedule_cards()[sub], rules.fixed_trumps()[sub]
            if state.slots[st.CARDS] != cards:
                raise CardsimError(f"state.slots[{st.CARDS}] (CARDS) is {state.slots[st.CARDS]}; round {sub} of a "
                                   f"{self.name} game under these rules deals {cards} cards each")  # fmt: skip
            if fixed != st.TURN_A_CARD:
                start["trump"] = SUIT_LETTERS[fixed] if fixed >= 0 else None
        actions: list = []
        if fixed == st.TURN_A_CARD and turned >= 0 and is_wizard(turned) and state.slots[st.PHASE] != st.TRUMP:
            actions.append(SUIT_LETTERS[self.state_int(state, "slots", st.TRUMP_SUIT, 0, 3)])
        bids = self.state_int(state, "slots", st.N_BIDS, 0, players)
        actions += [int(state.bids[(dealer + 1 + k) % players]) for k in range(bids)]
        played = self.state_int(state, "slots", st.N_PLAYED, 0, self.deck.size)
        return Course(start, actions + [self.state_card(state, "log", (k, 1)) for k in range(played)])

    def decision_label(self, rules: ExactTricksRules, state: st.State) -> str:
        if int(state.slots[st.PHASE]) == st.CARD:
            return f"trick {int(state.slots[st.TRICK]) + 1}, card {int(state.slots[st.POS]) + 1}"
        return self.decision(rules, state)

    def hidden_cards(self, rules: ExactTricksRules, state: st.State, seat: int) -> int:
        """The other hands and the deck's cards not dealt, but the turned card (B3, B4, F3)."""
        turned = int(state.slots[st.TURNED])
        undealt = rules.deck & ~int(np.bitwise_or.reduce(state.dealt)) & ~(1 << turned if turned >= 0 else 0)
        return int(np.bitwise_or.reduce(np.delete(state.hands, seat))) | undealt

    def observation(self, rules: ExactTricksRules, state: st.State, seat: int, rng: random.Random) -> Observation:
        s, p = state, _params(rules)
        sl = s.slots
        d, players = int(sl[st.PHASE]), rules.players
        trump = int(sl[st.TRUMP_SUIT])
        legal = int(st.legal_cards(s, p)) if d == st.CARD and seat == int(sl[st.MOVER]) else 0  # its own turn only
        refused = int(st.refused(s, p)) if d == st.BID else -1
        bids = [int(s.bids[o]) if st.bid_seen(s, p, seat, o) else None for o in range(players)]
        pos = int(sl[st.POS])
        n = int(sl[st.N_PLAYED])
        trick = [self.deck.name_of(int(c)) for c in s.log[n - pos : n, 1]]
        leader = int(sl[st.LEADER]) if d == st.CARD else seat if d == st.BID else int(sl[st.DEALER])
        return Observation(
            seat, int(sl[st.DEALER]), players, int(sl[st.CARDS]), SUIT_LETTERS[trump] if trump >= 0 else None,
            _card(self.deck, int(sl[st.TURNED])), self.deck.names(int(s.hands[seat])).split(),
            self.deck.names(legal).split(), bids, refused if refused >= 0 else None, trick, leader,
            _tricks(self.deck, s), [int(w) for w in s.won],
            rng,
        )  # fmt: skip

    def bot_action(self, rules: ExactTricksRules, state: st.State, row: np.ndarray, advance: bool = False) -> Any:
        if int(state.slots[st.MOVER]) < 0:
            raise CardsimError(f"the {self.name} round is over: no bot is to act")
        s = state if advance else self.kernel("copy_state", state)
        code = self.act_of(rules, np.asarray(row, np.float64), s, _params(rules), int(s.slots[st.MOVER]))
        return self.public_action(rules, int(s.slots[st.PHASE]), code)

    def play_on(self, state: st.State, p: Any, table: np.ndarray, strong_bots: Any) -> int:
        return run(state, p, table, strong_bots, None)

    def dealer_of(self, rules: ExactTricksRules, state: st.State) -> int:
        return int(state.slots[st.DEALER])

    def max_rounds(self, rules: ExactTricksRules) -> int:
        return len(rules.schedule_cards())

    def game_over(self, rules: ExactTricksRules, totals: np.ndarray, rounds: int) -> bool:
        return rounds >= len(rules.schedule_cards())  # B9/B10, F7: the schedule is played out

    def record(self, rules: ExactTricksRules, state: st.State) -> dict:
        s = state
        sl = s.slots
        done = int(sl[st.PHASE]) < 0
        trump = int(sl[st.TRUMP_SUIT])
        return {
            "players": rules.players,
            "dealer": int(sl[st.DEALER]),
            "cards": int(sl[st.CARDS]),
            "turned_card": _card(self.deck, int(sl[st.TURNED])),
            "trump": SUIT_LETTERS[trump] if trump >= 0 else None,
            "hands": [self.deck.names(int(h)).split() for h in s.dealt],
            "bids": [int(b) if b >= 0 else None for b in s.bids],
            "tricks": [{"leader": t.leader, "cards": list(t.cards), "winner": t.winner} for t in _tricks(self.deck, s)],
            "tricks_won": [int(w) for w in s.won],
            "scores": self.scores(rules, s) if done else None,
        }

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

