"""The exact-tricks family over its rule data (issue 41): the state machine, the batch driver and the bots play any
deck of it, with the score, the round size and the card to turn as ``Params`` say.

Wizard is the family's one game so far (its own tests and digests cover it); here a stand-in configuration plays
Oh Hell's deck (RULES.md F1-F6: the 52 suit cards, or OpenSpiel's smaller decks), 3 to 7 players, a drawn round
size and F6's score, as the next step's game will.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

import bots.exact_tricks as builtin
import bots.exact_tricks_strong as strong
from cardsim.cards import FRENCH52
from cardsim.deal import Work
from cardsim.decisions import BID, CARD, DONE
from cardsim.errors import CardsimError
from cardsim.games.exact_tricks import play
from cardsim.games.exact_tricks import rules as et
from cardsim.games.exact_tricks import state as st
from cardsim.games.wizard.game import GAME
from cardsim.lineup import FIRST_STRONG
from cardsim.numba_bots import sampler

OPENSPIEL_SUITS = "CDSH"  # F1: a deck of n suits takes the first n of these


def suit_deck(suits: int = 4, ranks: int = 13) -> int:
    """F1: OpenSpiel's deck of ``suits`` suits (C D S H first) and ``ranks`` ranks from the 2 upward, as a mask."""
    return sum(1 << FRENCH52.card("SHDC".index(s), r) for s in OPENSPIEL_SUITS[:suits] for r in range(ranks))


@dataclass(frozen=True)
class SuitCards(et.ExactTricksRules):
    """A stand-in game of the family on the suit cards only, as the family reads it (Oh Hell's F1-F6)."""

    keep_turned = True  # F3: a card is left to turn
    bid_table = "no_such_bid_table.npy"  # none calibrated: params needs a table given

    players: int = 4
    suits: int = 4
    ranks: int = 13
    cards: int = et.DRAW  # F3 num_tricks_fixed: -1 draws it
    plus_minus_one: bool = True  # F4's hook
    bidding: str = "open"
    off_bid_penalty: bool = False

    @property
    def deck(self) -> int:
        return suit_deck(self.suits, self.ranks)

    @property
    def scoring(self) -> et.Scoring:
        """F6 with points_per_trick 1."""
        return et.Scoring(10, 1, 0, 1) if self.off_bid_penalty else et.Scoring(10, 1, 1, 0)

    @property
    def round_cards(self) -> int:
        return self.cards

    def schedule_cards(self) -> tuple[int, ...]:
        return tuple(range(1, self.max_cards + 1))

    def fixed_trumps(self) -> tuple[int, ...]:
        return (st.TURN_A_CARD,) * self.max_cards


def bid_table() -> np.ndarray:
    """A bid table for every player count and round size of the 52 cards (read-only, as a calibrated one)."""
    chances = np.full((et.MAX_PLAYERS - et.MIN_PLAYERS + 1, 17, et.MAX_PLAYERS, builtin.CLASSES), 0.3, np.float32)
    chances.setflags(write=False)
    return chances


def params(rules: SuitCards, games: bool = False) -> st.Params:
    return st.params(rules, games, bid_table=bid_table())


def test_the_deck_sets_the_most_cards_a_round_deals():
    """B3 deals the whole deck (no card turned then); F3 keeps a card to turn: r <= (deck - 1) / players."""
    assert [GAME.make_rules({"players": n}).max_cards for n in (3, 4, 5, 6)] == [20, 15, 12, 10]
    assert [SuitCards(players=n).max_cards for n in range(3, 8)] == [17, 12, 10, 8, 7]
    assert SuitCards(players=3, suits=3, ranks=5).max_cards == 4  # 15 cards: C2..C6, D2..D6, S2..S6
    assert FRENCH52.names(SuitCards(suits=2, ranks=3).deck) == "D2 D3 D4 C2 C3 C4"
    with pytest.raises(CardsimError, match="no calibrated bid table .*no_such_bid_table.npy"):
        st.params(SuitCards())


def test_one_score_formula_holds_wizard_and_oh_hell():
    """B8 and F6 (with and without off_bid_penalty) as coefficients of one formula, and each one's range."""
    wizard, oh_hell, penalty = GAME.make_rules().scoring, SuitCards().scoring, SuitCards(off_bid_penalty=True).scoring
    for bid in range(8):
        for tricks in range(8):
            off = abs(bid - tricks)
            assert et.score(wizard, bid, tricks) == (20 + 10 * tricks if off == 0 else -10 * off)
            assert et.score(oh_hell, bid, tricks) == tricks + (10 if off == 0 else 0)
            assert et.score(penalty, bid, tricks) == (tricks + 10 if off == 0 else -off)
    assert et.score_range(wizard, 7) == (-70, 90) and et.score_range(oh_hell, 7) == (0, 17)
    assert et.score_range(penalty, 7) == (-7, 17)


def test_a_drawn_round_size_and_the_turned_suit_come_from_the_deal():
    """F3: with DRAW each round deals 1..max_cards each (drawn from the deal's stream, the same for the same key),
    from the deck only, and turns a card whose suit is trump; without Wizards no one names a trump."""
    rules = SuitCards(players=5, suits=3, ranks=7)
    p, s = params(rules), st.new_state(5)
    sizes = set()
    for unit in range(300):
        st.deal(s, p, np.uint64(7), unit, 0, -1)
        cards, turned = int(s.slots[st.CARDS]), int(s.slots[st.TURNED])
        sizes.add(cards)
        dealt = int(np.bitwise_or.reduce(s.dealt))
        assert bin(dealt).count("1") == 5 * cards and dealt & ~rules.deck == 0
        assert turned >= 0 and rules.deck >> turned & 1 and not dealt >> turned & 1
        assert s.slots[st.TRUMP_SUIT] == et.SUIT_OF[turned] and s.slots[st.PHASE] == BID
        assert st.check(s, p) == 0
        again = st.new_state(5)
        st.deal(again, p, np.uint64(7), unit, 0, -1)
        assert np.array_equal(again.dealt, s.dealt) and again.slots[st.CARDS] == cards
    assert sizes == set(range(1, rules.max_cards + 1))  # (21 - 1) / 5 = 4


def test_a_hand_outside_the_deck_breaks_an_invariant():
    rules = SuitCards(players=3)
    p, s = params(rules), st.new_state(3)
    st.start(s, p, 0, np.array([1 << 0, 1 << 1, 1 << 52], np.uint64), 5, st.TURN_A_CARD)  # a Wizard dealt
    assert st.CHECKS[st.check(s, p) - 1].startswith("the dealt hands are disjoint, CARDS each, of the deck")


def test_the_bots_tables_hold_a_games_bid_table_and_its_decks_card_values():
    """``Params.tables`` packs the heuristic's calibrated table (Wizard's [4, 20, 6, 28], a 52-card one up to 7
    players) and rulebased's card values of the deck into one array, read where the bots read them."""
    wizard = GAME.make_rules()
    stored = st.calibrated_table(wizard.bid_table)
    tables = st.params(wizard).tables
    assert stored.shape == (4, 20, 6, builtin.CLASSES) and not tables.flags.writeable
    for players, cards, position in ((3, 20, 2), (4, 7, 0), (6, 10, 5)):
        chances = st.win_chances(tables, players, cards, position)
        assert np.array_equal(chances[: builtin.CLASSES], stored[players - 3, cards - 1, position])
        assert np.array_equal(st.card_values_of(tables, players, 1), et.card_values(wizard.deck)[players - 3, 2])
    rules = SuitCards(players=7)
    tables = params(rules).tables
    assert np.array_equal(st.win_chances(tables, 7, 7, 6)[: builtin.CLASSES], bid_table()[4, 6, 6])
    assert np.array_equal(st.card_values_of(tables, 7, -1), et.card_values(rules.deck)[4, 0])


def deck_values(deck: int, players: int, trump: int) -> np.ndarray:
    return et.card_values(deck)[players - et.MIN_PLAYERS, trump + 1]


def test_rulebased_values_its_cards_against_the_deck_in_play():
    """The deck is worth (its cards) / players tricks, every player count 3..7; cards outside it are worth 0; in
    Wizard's deck as before (tests/test_wizard_rulebased.py)."""
    deck = suit_deck()
    for players in range(3, 8):
        for trump in range(-1, 4):
            values = deck_values(deck, players, trump)
            assert values.sum() == pytest.approx(52 / players) and not values[52:].any()
            assert values[FRENCH52.parse("SA")] > values[FRENCH52.parse("SK")] > values[FRENCH52.parse("S2")]
    small = suit_deck(1, 4)
    assert deck_values(small, 3, -1).sum() == pytest.approx(4 / 3) and bin(small).count("1") == 4


STRONG_ROWS = [[builtin.MC, 3, 2], [builtin.ISMCTS, 12, 0.7, 2], [builtin.OMNISCIENT, 8, 0.7]]  # small settings


@pytest.mark.parametrize("players", [3, 7])
@pytest.mark.parametrize("suits,ranks", [(4, 13), (2, 5)])
def test_every_bot_plays_a_smaller_deck_legally_through_the_state_machine(players, suits, ranks):
    """Random, heuristic, heuristic_v1, rulebased and the strong bots, one decision at a time with the invariants
    checked at every step: every action legal, every card of the deck, F6's scores. The strong bots sample deals of
    the hidden cards of this deck (the undealt stack included) and find one for every decision."""
    rules = SuitCards(players=players, suits=suits, ranks=ranks)
    p, s = params(rules), st.new_state(players)
    rows = {row[0]: np.array(row, np.float64) for row in STRONG_ROWS}
    ids = [builtin.RANDOM, builtin.HEURISTIC, builtin.HEURISTIC_V1, builtin.RULEBASED, *rows]
    out, legal = np.empty(players, np.int64), np.empty(st.DECK_SIZE + 1, np.int64)
    for unit in range(6):
        st.deal(s, p, np.uint64(3), unit, 0, -1)
        seats = [ids[(unit + seat) % len(ids)] for seat in range(players)]
        while (seat := st.to_move(s)) >= 0:
            bot = seats[seat]
            if bot >= FIRST_STRONG:
                action = strong.act(rows[bot], s, p, seat, sampler())
            else:
                action = builtin.act(bot, s, p, seat)
            n = st.legal_actions(s, p, legal)
            assert action in legal[:n]
            if st.decision(s) == CARD:
                assert rules.deck >> action & 1
            assert st.apply(s, p, action) and st.check(s, p) == 0
        assert st.decision(s) == DONE
        st.scores(s, p, out)
        assert list(out) == [s.won[k] + (10 if s.bids[k] == s.won[k] else 0) for k in range(players)]


def test_the_strong_bots_see_the_deck_in_their_information_set():
    """The unseen cards are the deck's less the own hand and the turned card; the undealt stack holds the rest of
    the deck; the omniscient's true stack too."""
    rules = SuitCards(players=4, suits=3, ranks=6)
    p, s = params(rules), st.new_state(4)
    st.deal(s, p, np.uint64(5), 0, 0, 0)
    cards, turned = int(s.slots[st.CARDS]), int(s.slots[st.TURNED])
    unseen, counts, _, _ = strong.view_infoset(p.deck, 1, s.hands[1], 4, cards, turned, s.log, 0)
    assert int(unseen) == rules.deck & ~int(s.hands[1]) & ~(1 << turned)
    assert list(counts) == [cards, 0, cards, cards, 18 - 4 * cards - 1]
    truth = strong.true_piles(s, p)
    assert int(truth[4]) == rules.deck & ~int(np.bitwise_or.reduce(s.dealt)) & ~(1 << turned)


def test_the_batch_driver_plays_the_deck_and_its_schedule():
    """``play.builtin_block`` (the batch kernel's work item) on whole games of a smaller deck: every round of the
    schedule dealt from the deck, F6's scores in the rows, the same numbers again."""
    rules = SuitCards(players=3, suits=2, ranks=6)  # 12 cards: rounds of 1..3 cards
    p = params(rules, games=True)
    rounds, units = len(p.schedule), 40
    bots = np.zeros((3, 5))
    bots[:, 0] = [builtin.HEURISTIC, builtin.RULEBASED, builtin.RANDOM]

    def run() -> play.Out:
        out = play.Out(*(np.zeros((units, rounds), np.int8) for _ in range(3)),
                       *(np.zeros((units, rounds, 3), np.int8) for _ in range(2)),
                       np.zeros((units, rounds, 3), np.int16))  # fmt: skip
        play.builtin_block(play.scratch(p), Work(np.uint64(9), 0, True, np.uint64(0)), p, bots, None, None, None, out)
        return out

    out = run()
    assert (out.turned >= 0).all() and all(rules.deck >> int(c) & 1 for c in out.turned.ravel())
    assert (out.tricks.sum(axis=2) == np.arange(1, rounds + 1)).all()
    exact = out.bids == out.tricks
    assert (out.scores == out.tricks + 10 * exact).all() and exact.any()
    assert all(np.array_equal(a, b) for a, b in zip(out, run(), strict=True))
