"""A stateful fuzz of every game's ``Round`` (issue 13): hypothesis drives it with legal and illegal actions, copies,
JSON round trips and observations in random orders, and checks after every step that the round keeps its promises.

Invariants: every dealt card is in exactly one place (a hand, a trick, the kitty or the discards); the legal
actions are never empty while the round runs and a card decision's are cards of the mover's hand; an illegal
action is refused and changes nothing; a copy or a JSON round trip plays on apart from the original; an
observation names no card its seat may not see (beyond its legal actions: a partner call's are the cards outside the
hand); a finished round scores by the rules (``conftest.check_scores``).
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from conftest import check_scores
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from test_contract import VARIANTS

from cardsim import CardsimError, Round, new_round
from cardsim.driver import card_names
from cardsim.games import GAMES, get_game

JUNK = ["XX", "", -1, 10**6, 2.5, None, (99, "Q"), ("S", 20), True, [], object()]  # actions of no game


def played_by_seat(record: dict, obs_trick: list, obs_leader: int | None) -> list[set[str]]:
    """Cards each seat has put on the table: the finished tricks of ``record`` and the trick on the table."""
    seats = len(record["hands"])
    played: list[set[str]] = [set() for _ in range(seats)]
    tricks = [(t["leader"], t["cards"]) for t in record["tricks"]]
    if obs_trick:
        tricks.append((obs_leader, obs_trick))
    for leader, cards in tricks:
        for i, card in enumerate(cards):
            played[(leader + i) % seats].add(card)
    return played


class RoundMachine(RuleBasedStateMachine):
    game: str

    @initialize(seed=st.integers(0, 2**64 - 1), index=st.integers(0, 2**63 - 1), variant=st.integers(0, 10))
    def deal(self, seed, index, variant):
        rules = VARIANTS[self.game][variant % len(VARIANTS[self.game])]
        self.round = new_round(self.game, seed=seed, round=index, rules=rules)
        self.deck = get_game(self.game).deck
        self.rng = random.Random(seed ^ index)

    @precondition(lambda self: not self.round.done)
    @rule(pick=st.integers(0, 10**6))
    def play_legal(self, pick):
        legal = self.round.legal()
        self.round.play(legal[pick % len(legal)])

    @precondition(lambda self: not self.round.done)
    @rule()
    def play_on_to_the_end(self):
        while not self.round.done:
            self.round.play(self.rng.choice(self.round.legal()))
            self.keeps_its_promises()

    @rule(junk=st.sampled_from(JUNK), card=st.integers(0, 63))
    def an_illegal_action_is_refused_and_changes_nothing(self, junk, card):
        before = self.round.to_json()
        legal, name = self.round.legal(), self.deck.card_names[card % self.deck.size]
        wrong = [a for a in (junk, name) if a not in legal or isinstance(a, bool)]  # None: a pass; True == 1
        for action in wrong:
            with pytest.raises(CardsimError):
                self.round.play(action)
            assert self.round.to_json() == before

    @precondition(lambda self: not self.round.done)
    @rule()
    def a_copy_and_a_json_round_trip_play_on_apart(self):
        before = self.round.to_json()
        copy, restored = self.round.copy(), Round.from_json(before)
        assert restored.to_json() == before and copy.record() == self.round.record()
        action = self.rng.choice(copy.legal())
        copy.play(action)
        restored.play(action)
        assert copy.to_json() == restored.to_json() != before
        assert self.round.to_json() == before

    @precondition(lambda self: self.round.done)
    @rule(seed=st.integers(0, 2**64 - 1), index=st.integers(0, 2**63 - 1), variant=st.integers(0, 10))
    def deal_again(self, seed, index, variant):
        self.deal(seed, index, variant)

    @invariant()
    def keeps_its_promises(self):
        r = self.round
        record = r.record()
        if r.done:
            assert r.legal() == [] and r.to_move is None and r.decision is None
            check_scores(record)
            return
        legal = r.legal()
        assert legal, record
        seats = len(record["hands"])
        observations = [r.observation(seat) for seat in range(seats)]
        mover = observations[r.to_move]
        if r.decision in ("card", "discard"):
            assert set(legal) <= set(mover.hand)
        trick, leader = getattr(mover, "trick", []), getattr(mover, "trick_leader", None)
        played = played_by_seat(record, list(trick), leader)
        kitty, discards = set(record.get("kitty") or ()), set(record.get("discards") or ())
        declarer = record.get("declarer")
        for seat, obs in enumerate(observations):
            hand = set(obs.hand)
            dealt = set(record["hands"][seat]) | (kitty if seat == declarer and obs.kitty is not None else set())
            assert not hand & played[seat] and hand | played[seat] | (discards if seat == declarer else set()) \
                == dealt, (seat, record)  # fmt: skip
            public = set().union(*played) | {record.get("trump_card"), record.get("turned_card"),
                                             record.get("called_card")}  # fmt: skip
            allowed = dealt | public | (discards if seat == declarer else set())
            shown = {k: v for k, v in dataclasses.asdict(obs).items() if k not in ("rng", "legal")}  # a call's
            seen = card_names(shown, self.deck)  # legal cards are those outside the hand
            assert seen <= allowed, (seat, seen - allowed)


FUZZ = settings(max_examples=8, stateful_step_count=20, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
for _game in GAMES:
    _machine = type(f"{_game.capitalize()}Round", (RoundMachine,), {"game": _game})
    globals()[f"Test{_machine.__name__}"] = pytest.mark.slow(FUZZ(_machine).TestCase)
