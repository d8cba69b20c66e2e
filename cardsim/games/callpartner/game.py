"""Call-partner front: the Game over the round's state machine (``state``) and its compiled drivers (``play``):
batches of single deals or whole games (C10) as result arrays, the hooks of the Python driver (``Game.play_unit_py``
over ``cardsim.driver``), and replays.

Both drivers play the same state machine with the same random streams, so a lineup gives the same deals and
decisions through either.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

import numpy as np
from numba import njit

import bots.callpartner as builtin
import bots.callpartner_strong as strong
from cardsim.cards import FRENCH52
from cardsim.decisions import AUCTION, CALL, CARD, DISCARD, DONE
from cardsim.errors import CardsimError
from cardsim.games import Course, Game, replay_title
from cardsim.games.callpartner import play
from cardsim.games.callpartner import state as sm
from cardsim.games.callpartner.play import (
    SUIT_LETTERS,
    Bid,
    Observation,
    Out,
    Trick,
    checked_bid,
    checked_call,
    checked_card,
    checked_discards,
    run,
)
from cardsim.games.callpartner.rules import (
    MAX_PLAYERS,
    MIN_BID,
    MIN_PLAYERS,
    CallPartnerRules,
    card_points,
    trick_winner,
)
from cardsim.games.callpartner.rules import game_over as deals_over
from cardsim.lineup import Lineup
from cardsim.results import Batch, check_counts, result_arrays
from cardsim.rng import seed_streams

BOT_IDS = {**builtin.BOT_IDS, **strong.BOT_IDS}
BOT_DOCS = {**builtin.BOT_DOCS, **strong.BOT_DOCS}
PER_ROUND = ("dealer", "declarer", "bid", "trump", "called_card", "partner", "side_points")
OBS_DECISION = {AUCTION: "bid", CALL: "call", DISCARD: "discard", CARD: "play", DONE: "done"}


def _mask(cards: Any) -> int:
    """A card mask from a mask or card names (a string or a list); anything else is refused."""
    if isinstance(cards, (int, np.integer)) and not isinstance(cards, bool) and 0 <= cards < 1 << FRENCH52.size:
        return int(cards)
    if isinstance(cards, (list, tuple)) and all(isinstance(c, str) for c in cards):
        cards = " ".join(cards)
    if not isinstance(cards, str):
        raise CardsimError(f"{cards!r} are no cards: give a card string ('SA SK ...'), a list of names or a mask")
    return sum(1 << FRENCH52.parse(c) for c in cards.split())


def _bid(code: int) -> tuple[int, str] | None:
    """An auction action code in public form: None for a pass, else (number, suit letter)."""
    return None if code == sm.PASS else (int(code) >> 2, SUIT_LETTERS[int(code) & 3])


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
    may_be_empty = frozenset(categories)  # all passed
    ratios = {"contracts_made_rate": ("made_as_declarer_rate", "declared_rate")}  # share of its contracts made
    state_module = sm
    play_module = play
    play_blocks = (play.builtin_block, play.asking_block)
    random_block = play.random_block  # random lineups' single deals, in pairs
    random_games_block = play.random_games_block  # and their games
    builtin_module = builtin
    strong_module = strong
    state_type = sm.State

    def scratch(self, params: sm.Params) -> tuple:
        return (play.scratch(params),)

    def strong_tools(self, state: sm.State, p: sm.Params) -> tuple:
        """The deal sampler, the play-outs and the searches, which the strong bots call through their addresses."""
        return strong.tools(state, p)

    def batch(
        self, rules: CallPartnerRules, lineup: Lineup, seed: int, start: int, count: int, games: bool,
        engine: str = "auto", check: bool = False, tables: np.ndarray | None = None,
    ) -> Batch:  # fmt: skip
        """The batch of deals or games; ``engine="python"`` forces the plain-Python driver (a cross-check);
        ``check``: the round's invariants are checked after every step (``--check``); ``tables``: see
        ``Game.seatings``."""
        deals, players = (rules.max_deals if games else 1), rules.players
        units = count * self.seatings(rules, lineup, engine, tables)
        played, made, points, scores, *per_round_arrays = result_arrays(
            ((units,), np.int64, 1), ((units, deals), np.bool_, 0), ((units, deals, players), np.int8, 0),
            ((units, deals, players), np.int16, 0), *[((units, deals), np.int8, -1)] * len(PER_ROUND))  # fmt: skip
        per_round = dict(zip(PER_ROUND, per_round_arrays, strict=True))
        checks = check_counts(check, units)
        if lineup.compiled and engine != "python":
            out = Out(played, *per_round.values(), made, points, scores)
            self.simulate(rules, lineup, sm.params(rules), seed, start, games, checks, out, tables)
        else:
            for u in range(count):
                states = self.play_unit_py(rules, lineup, seed, start + u, games, check=check)
                played[u] = len(states)
                for d, s in enumerate(states):
                    slots = s.slots
                    values = (slots[sm.DEALER], slots[sm.DECLARER], slots[sm.HIGH], slots[sm.TRUMP], slots[sm.CALLED],
                              slots[sm.PARTNER], slots[sm.SIDE])  # fmt: skip
                    for name, value in zip(PER_ROUND, values, strict=True):
                        per_round[name][u, d] = value
                    made[u, d] = slots[sm.DECLARER] >= 0 and slots[sm.SIDE] >= slots[sm.HIGH]
                    points[u, d], scores[u, d] = s.points, s.scores
        per_round["made"] = made
        per_seat = {"points": points, "score": scores}
        return Batch(start, played, per_round, per_seat, games, self.score, True, checks)

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

    # --- the hooks of the round's state machine (cardsim.games.Game) -------------------------------------------

    def deal(self, rules: CallPartnerRules, seed: int, unit: int, sub: int, dealer: int, in_game: bool) -> sm.State:
        s = sm.new_state(rules.players)
        p = sm.params(rules)
        sm.deal(s, p, np.uint64(seed), unit, sub, dealer)
        return s

    def start(self, rules: CallPartnerRules, hands: list, dealer: int, kitty: Any = 0, **shown: Any) -> sm.State:
        """A round from given ``hands`` (masks or card names, one per seat) and ``kitty`` (a mask or card names)
        dealt by ``dealer``; the random streams are those of seed 0, round 0."""
        if shown:
            raise CardsimError(f"callpartner shows no {', '.join(shown)}; a round starts from hands and a kitty")
        masks = [_mask(h) for h in hands]
        kitty_mask = _mask(kitty)
        if len(masks) != rules.players or not 0 <= dealer < rules.players:
            raise CardsimError(f"callpartner with {rules.players} players needs {rules.players} hands and a dealer "
                               f"0..{rules.players - 1}")  # fmt: skip
        cards = [*masks, kitty_mask]
        sizes = [rules.hand_size] * rules.players + [rules.kitty]
        if [bin(m).count("1") for m in cards] != sizes or sum(cards) != (1 << 52) - 1:
            raise CardsimError(f"callpartner with {rules.players} players deals {rules.hand_size} cards to each hand "
                               f"and {rules.kitty} to the kitty, every card once")  # fmt: skip
        s, p = sm.new_state(rules.players), sm.params(rules)
        seed_streams(s.rng, np.uint64(0), 0, 0)  # an unseeded (all-zero) xoshiro stream draws zeros for ever
        sm.start(s, p, dealer, np.array(masks, np.uint64), np.uint64(kitty_mask))
        return s

    slot_names = ("PHASE", "SEAT", "DEALER", "HIGH", "DECLARER", "TRUMP", "PASSED", "ACTIVE", "CALLS", "FORCED",
                  "CALLED", "PARTNER", "KITTY", "DISCARDS", "N_DISCARDS", "PLAN", "CARDS", "LEADER", "LED", "TOP_KEY",
                  "WINNER", "ONE_SUIT", "TWO_HOLDER", "TRICK", "PLAYED", "REVEALED", "SIDE", "SEED", "UNIT", "SUB",
                  "SEEDED")  # fmt: skip
    free_slots = {"PLAN": "cards", "SEED": "key", "UNIT": "key", "SUB": "key", "SEEDED": "seeded"}

    def course(self, rules: CallPartnerRules, state: sm.State, sub: int | None = None) -> Course:
        """The deal (hands, dealer, kitty), the auction in order (C4), the call (C5), the discards (C6; in card order,
        as the state keeps them as a set), then the cards in play order."""
        players, whole = rules.players, (1 << FRENCH52.size) - 1
        start = {"hands": [FRENCH52.names(int(h)) for h in state.dealt],
                 "dealer": self.state_int(state, "slots", sm.DEALER, 0, players - 1),
                 "kitty": FRENCH52.names(self.state_int(state, "slots", sm.KITTY, 0, whole))}  # fmt: skip
        calls = self.state_int(state, "slots", sm.CALLS, 0, sm.MAX_CALLS)
        actions = [_bid(int(code)) for code in state.auction[:calls, 1]]
        called = self.state_int(state, "slots", sm.CALLED, -1, FRENCH52.size - 1)
        actions += [FRENCH52.name_of(called)] if called >= 0 else []
        actions += FRENCH52.names(self.state_int(state, "slots", sm.DISCARDS, 0, whole)).split()
        played = self.state_int(state, "slots", sm.CARDS, 0, FRENCH52.size)
        return Course(start, actions + [self.state_card(state, "log", k) for k in range(played)])

    def decision_label(self, rules: CallPartnerRules, state: sm.State) -> str:
        slots, phase = state.slots, int(state.slots[sm.PHASE])
        if phase == AUCTION:
            forced = f" (all passed: the dealer declares {MIN_BID})" if slots[sm.FORCED] else ""
            return f"auction turn {slots[sm.CALLS] + 1}{forced}"
        if phase == CARD:
            k = int(slots[sm.CARDS])
            return f"trick {k // rules.players + 1}, card {k % rules.players + 1}"
        return self.decision(rules, state)

    def public_action(self, rules: CallPartnerRules, decision: int, code: int) -> Any:
        """An auction code as a bid (None for a pass, else (number, suit letter)); a card code as its name."""
        return _bid(code) if decision == AUCTION else super().public_action(rules, decision, code)

    def legal(self, rules: CallPartnerRules, state: sm.State) -> list:
        if state.slots[sm.PHASE] == AUCTION:
            n = self.kernel("legal_actions", state, self.params(rules), self._actions)
            return [_bid(c) for c in self._actions[:n].tolist()]
        return FRENCH52.names(int(self.kernel("legal_cards", state, self.params(rules)))).split()

    def apply(self, rules: CallPartnerRules, state: sm.State, action: Any) -> None:
        phase, p = int(state.slots[sm.PHASE]), self.params(rules)
        if phase == AUCTION:
            n = self.kernel("legal_actions", state, p, self._actions)
            code = checked_bid(action, self._actions[:n].tolist())
        elif phase == CALL:
            code = checked_call(action, int(self.kernel("legal_cards", state, p)))
        elif phase in (DISCARD, CARD):
            code = checked_card(action, int(self.kernel("legal_cards", state, p)))
        else:
            raise CardsimError(f"the round is over: no action is legal, not {action!r}")
        if not self.kernel("apply", state, p, code):  # the checks above are the state machine's, in words
            raise CardsimError(f"{action!r} is not legal; legal: {self.legal(rules, state)}")

    def answer_actions(self, rules: CallPartnerRules, state: sm.State, answer: Any) -> list:
        """A declarer's list of discards is one discard action per card (checked as a whole first, C6)."""
        if state.slots[sm.PHASE] == DISCARD:
            legal = int(self.kernel("legal_cards", state, self.params(rules)))
            return checked_discards(answer, legal, rules.kitty - int(state.slots[sm.N_DISCARDS]))
        return [answer]

    def hidden_cards(self, rules: CallPartnerRules, state: sm.State, seat: int) -> int:
        """The other hands but the called card (C5), the kitty until the declarer takes it, and the declarer's
        discards to anybody else (C6)."""
        slots = state.slots
        called, declarer = int(slots[sm.CALLED]), int(slots[sm.DECLARER])
        hidden = int(np.bitwise_or.reduce(np.delete(state.hands, seat))) & ~(1 << called if called >= 0 else 0)
        if called < 0:
            hidden |= int(slots[sm.KITTY])
        return hidden | (int(slots[sm.DISCARDS]) if seat != declarer else 0)

    def observation(self, rules: CallPartnerRules, state: sm.State, seat: int, rng: Any) -> Observation:
        slots, phase, players = state.slots, int(state.slots[sm.PHASE]), rules.players
        declarer, partner = int(slots[sm.DECLARER]), int(slots[sm.PARTNER])
        declared = declarer >= 0 and phase != AUCTION
        called = int(slots[sm.CALLED]) if declared and phase != CALL else -1
        is_declarer = seat == declarer
        knows_partner = bool(sm.knows_partner(slots, seat))
        sees_kitty = is_declarer and declared and phase != CALL
        k = int(slots[sm.CARDS])
        in_trick = k % players if phase == CARD else 0
        legal = int(sm.legal_cards(state, sm.params(rules))) if seat == slots[sm.SEAT] else 0
        high = int(slots[sm.HIGH])
        return Observation(
            OBS_DECISION[phase], seat, int(slots[sm.DEALER]), players, FRENCH52.names(int(state.hands[seat])).split(),
            FRENCH52.names(legal).split(), self._auction(state), high or None,
            int(sm.lowest_bid(state)) if phase == AUCTION else MIN_BID, bool(slots[sm.FORCED]),
            declarer if declared else None, high if declared else None,
            SUIT_LETTERS[slots[sm.TRUMP]] if declared else None, FRENCH52.name_of(called) if called >= 0 else None,
            partner if knows_partner and partner >= 0 else None, knows_partner,
            FRENCH52.names(int(slots[sm.KITTY])).split() if sees_kitty else None,
            FRENCH52.names(int(slots[sm.DISCARDS])).split() if is_declarer and slots[sm.N_DISCARDS] else None,
            rules.kitty, [FRENCH52.name_of(int(c)) for c in state.log[k - in_trick : k]],
            int(slots[sm.LEADER]) if phase == CARD else -1, self._tricks(rules, state),
            [int(x) for x in state.points], rng,
        )  # fmt: skip

    def bot_action(self, rules: CallPartnerRules, state: sm.State, row: np.ndarray, advance: bool = False) -> Any:
        s, p, seat = state if advance else self.kernel("copy_state", state), sm.params(rules), int(state.slots[sm.SEAT])
        if seat < 0:
            raise CardsimError("the round is over: no bot acts")
        code = self.act_of(rules, np.asarray(row, np.float64), s, p, seat)
        return _bid(code) if state.slots[sm.PHASE] == AUCTION else FRENCH52.name_of(code)

    def play_on(self, state: sm.State, p: Any, table: np.ndarray, strong_bots: Any) -> int:
        return run(state, p, table, strong_bots, None)

    def dealer_of(self, rules: CallPartnerRules, state: sm.State) -> int:
        return int(state.slots[sm.DEALER])

    def max_rounds(self, rules: CallPartnerRules) -> int:
        return rules.max_deals  # C10

    def game_over(self, rules: CallPartnerRules, totals: np.ndarray, rounds: int) -> bool:
        return bool(deals_over(np.asarray(totals, np.int64), rules.players, rounds, rules.target, rules.max_deals))

    def _auction(self, state: sm.State) -> list[Bid]:
        calls = []
        for seat, code in state.auction[: state.slots[sm.CALLS]]:
            bid = _bid(code)
            calls.append(Bid(int(seat), None, None) if bid is None else Bid(int(seat), *bid))
        return calls

    def _tricks(self, rules: CallPartnerRules, state: sm.State) -> list[Trick]:
        """The finished tricks, from the log of cards (C7: the first led left of the dealer, then by the winner)."""
        players, trump = rules.players, int(state.slots[sm.TRUMP])
        leader, tricks = (int(state.slots[sm.DEALER]) + 1) % players, []
        for t in range(int(state.slots[sm.CARDS]) // players):
            cards = state.log[t * players : (t + 1) * players]
            winner = (leader + int(trick_winner(cards, players, trump))) % players
            won = int(card_points(np.uint64(sum(1 << int(c) for c in cards))))
            tricks.append(Trick(leader, tuple(FRENCH52.name_of(int(c)) for c in cards), winner, won))
            leader = winner
        return tricks

    def record(self, rules: CallPartnerRules, state: sm.State) -> dict:
        slots = state.slots
        declarer, partner = int(slots[sm.DECLARER]), int(slots[sm.PARTNER])
        declared = declarer >= 0 and slots[sm.PHASE] != AUCTION
        return {
            "players": rules.players,
            "dealer": int(slots[sm.DEALER]),
            "hands": [FRENCH52.names(int(h)).split() for h in state.dealt],
            "kitty": FRENCH52.names(int(slots[sm.KITTY])).split(),
            "auction": [asdict(b) for b in self._auction(state)],
            "declarer": declarer if declared else None,
            "bid": int(slots[sm.HIGH]) if declared else None,
            "trump": SUIT_LETTERS[slots[sm.TRUMP]] if declared else None,
            "called_card": FRENCH52.name_of(int(slots[sm.CALLED])) if declared and slots[sm.CALLED] >= 0 else None,
            "partner": partner if partner >= 0 else None,
            "discards": FRENCH52.names(int(slots[sm.DISCARDS])).split(),
            "tricks": [{**asdict(t), "cards": list(t.cards)} for t in self._tricks(rules, state)],
            "points": [int(x) for x in state.points],
            "side_points": int(slots[sm.SIDE]) if declared else None,
            "made": bool(slots[sm.SIDE] >= slots[sm.HIGH]) if declared else None,
            "scores": [int(x) for x in state.scores],
        }

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
