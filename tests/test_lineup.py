"""Lineups: bot names with settings become the compiled kernels' bot table; bad entries get one clear message."""

import numpy as np
import pytest

from cardsim.errors import CardsimError
from cardsim.lineup import FIRST_STRONG, MAX_SETTINGS, Setting, make_lineup, settings_help

BUILTIN = {"random": 0, "heuristic": 1, "mc": FIRST_STRONG}
SETTINGS = {
    "mc": {
        "samples": Setting(32, 1, 4096, "completions per decision"),
        "c": Setting(0.7, 0.0, 10.0, "exploration", integer=False),
    }
}


def lineup(spec: str, players: int = 4):
    return make_lineup(spec, "testgame", players, BUILTIN, ("play",), SETTINGS)


def test_table_rows_hold_id_then_settings_in_declared_order_with_defaults():
    table = lineup("mc:c=1.5,heuristic,mc:samples=64:c=0,random").table
    assert table.shape == (4, 1 + MAX_SETTINGS)
    np.testing.assert_array_equal(table[0, :3], [BUILTIN["mc"], 32, 1.5])
    np.testing.assert_array_equal(table[1, :1], [1])
    np.testing.assert_array_equal(table[2, :3], [BUILTIN["mc"], 64, 0])
    np.testing.assert_array_equal(table[3, :1], [0])


def test_one_name_fills_every_seat_and_names_are_kept_as_written():
    made = lineup("mc:samples=8", players=3)
    assert made.names == ("mc:samples=8",) * 3 and made.bots == (BUILTIN["mc"],) * 3 and made.compiled
    assert (made.table[:, 1] == 8).all()


def test_strong_table_is_the_table_only_when_a_strong_bot_is_seated():
    assert BUILTIN["mc"] >= FIRST_STRONG > BUILTIN["heuristic"]
    for spec in ("random", "heuristic,random,heuristic,random"):
        assert lineup(spec).strong_table is None
    mixed = lineup("random,heuristic,mc,random")
    assert mixed.strong_table is mixed.table


@pytest.mark.parametrize(
    "spec, message",
    [
        ("mc:samples=0", "samples=0 is not allowed; samples is a whole number from 1 to 4096"),
        ("mc:samples=2.5", "samples=2.5 is not allowed"),
        ("mc:samples=many", "samples=many is not allowed"),
        ("mc:c=11", "c=11 is not allowed; c is a number from 0 to 10"),
        ("mc:depth=3", "'depth=3' is not a setting of mc; its settings: samples=N, c=N"),
        ("mc:samples", "'samples' is not a setting of mc"),
        ("heuristic:samples=3", "'samples=3' is not a setting of heuristic; its settings: none"),
        ("smart:samples=3", "unknown bot 'smart' for testgame; built-in bots: random, heuristic, mc"),
    ],
)
def test_bad_entries_say_what_is_wrong_and_what_is_allowed(spec, message):
    with pytest.raises(CardsimError, match=message.replace("(", r"\(").replace(".", r"\.")):
        lineup(spec)


def test_settings_help_lists_defaults_meanings_and_ranges():
    assert settings_help(SETTINGS["mc"]) == "samples=32 (completions per decision; 1..4096); c=0.7 (exploration; 0..10)"
