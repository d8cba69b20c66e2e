"""RULES.md E1-E3: card notation of the three decks, parsing and printing; the bitboard helpers."""

import numpy as np
import pytest

from cardsim.cards import FRENCH52, JASS36, WIZARD60, bit, lowest_card, nth_card, nth_card_portable, popcount
from cardsim.errors import CardsimError


@pytest.mark.parametrize("deck, size", [(JASS36, 36), (FRENCH52, 52), (WIZARD60, 60)])
def test_decks_have_their_sizes_and_round_trip_every_card(deck, size):
    """Every index prints to a canonical name that parses back to the same index; names are unique."""
    assert deck.size == size
    names = [deck.name_of(c) for c in range(size)]
    assert len(set(names)) == size
    assert [deck.parse(n) for n in names] == list(range(size))


def test_E1_canonical_names_and_layout():
    """E1: suit letter then rank 2-9, T, J, Q, K, A; suits S H D C in that index order."""
    assert JASS36.name_of(0) == "S6" and JASS36.name_of(8) == "SA" and JASS36.name_of(35) == "CA"
    assert JASS36.names(JASS36.mask("HT SA D6 CJ")) == "SA HT D6 CJ"
    assert FRENCH52.name_of(0) == "S2" and FRENCH52.name_of(12) == "SA" and FRENCH52.name_of(51) == "CA"
    assert JASS36.suit_of(JASS36.parse("DQ")) == 2 and JASS36.rank_of(JASS36.parse("DQ")) == 6


def test_E2_wizard_notation():
    """E2: suits with ranks 1-13, Wizards W1-W4, Jesters J1-J4 (no clash: the deck has no jacks)."""
    assert WIZARD60.name_of(WIZARD60.card(1, 12)) == "H13"
    assert WIZARD60.parse("C1") == WIZARD60.card(3, 0)
    assert [WIZARD60.name_of(c) for c in range(52, 60)] == ["W1", "W2", "W3", "W4", "J1", "J2", "J3", "J4"]
    assert WIZARD60.suit_of(WIZARD60.parse("W3")) == -1
    with pytest.raises(CardsimError):
        WIZARD60.parse("HJ")


@pytest.mark.parametrize(
    "text, name",
    [("sa", "SA"), ("H10", "HT"), ("h10", "HT"), ("♠A", "SA"), ("♥T", "HT"), ("♦6", "D6"), ("♣j", "CJ"), ("dk", "DK")],
)
def test_E3_parsing_is_lenient_printing_canonical(text, name):
    """E3: case-insensitive, 10 for T, suit symbols; printing always canonical."""
    assert JASS36.name_of(JASS36.parse(text)) == name


def test_E3_wizard_parsing_lenient():
    assert WIZARD60.name_of(WIZARD60.parse("h13")) == "H13"
    assert WIZARD60.name_of(WIZARD60.parse("♣10")) == "C10"
    assert WIZARD60.name_of(WIZARD60.parse("w2")) == "W2"


@pytest.mark.parametrize("bad", ["S5", "X9", "", "SAA", "H1", "W1"])
def test_unknown_card_names_are_refused_with_the_allowed_form(bad):
    with pytest.raises(CardsimError, match="is not a card of the 36-card Jass deck; cards are a suit letter"):
        JASS36.parse(bad)


def test_bit_helpers_agree_with_python():
    rng = np.random.default_rng(5)
    for _ in range(500):
        mask = int(rng.integers(1, 2**60, dtype=np.int64))
        cards = [i for i in range(64) if mask >> i & 1]
        assert popcount(np.uint64(mask)) == len(cards)
        assert lowest_card(np.uint64(mask)) == cards[0]
        k = int(rng.integers(0, len(cards)))
        assert nth_card(np.uint64(mask), k) == cards[k]
        assert all(nth_card_portable(np.uint64(mask), j) == card for j, card in enumerate(cards))  # either CPU's
        assert bit(np.int8(cards[k])) == np.uint64(1 << cards[k])


def test_bit_helpers_take_any_integer_as_its_64_bits():
    # The helpers hand their argument to the intrinsics, which numba casts to uint64: a signed mask keeps its bits.
    mask = -(2**63) + 5  # bits 63, 2 and 0
    assert popcount(np.int64(mask)) == 3
    assert lowest_card(np.int64(mask)) == 0
    assert nth_card(np.int64(mask), 2) == 63 and nth_card_portable(np.int64(mask), 2) == 63
    assert bit(np.int64(63)) == np.uint64(2**63)
