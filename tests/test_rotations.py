"""Every seating of a duplicate deal in one kernel call (``Game.run_rotations``): each single round dealt once and
dealt again (``state.redeal``) for the other seatings, with the numbers of a kernel call per seating."""

from __future__ import annotations

import numpy as np
import pytest

from cardsim import runner, simulate
from cardsim.errors import BotFailure, CardsimError
from cardsim.games import get_game
from cardsim.tournament import rotated

SEED, START = 7, 100


def seatings(game: str, bots: str, players: int | None = None):
    front = get_game(game)
    rules = front.make_rules(None, players)
    names = tuple(bots.split(","))
    return front, rules, [front.lineup(list(rotated(names, r)), rules) for r in range(len(names))]


def assert_same(one, other) -> None:
    assert np.array_equal(one.played, other.played)
    for part in ("per_round", "per_seat"):
        mine, theirs = getattr(one, part), getattr(other, part)
        assert mine.keys() == theirs.keys()
        for name in mine:
            assert np.array_equal(mine[name], theirs[name]), name
    assert one.checked == other.checked


# (game, bots, players, units): more units than one work item holds (Differenzler and call-partner deals 256,
# Wizard 64, call-partner games 32), the random-only work items too (Differenzler's plays rounds in pairs: an odd
# count leaves one alone)
CASES = [
    ("differenzler", "heuristic,random,random,heuristic", None, 300),
    ("differenzler", "random,random,random,random", None, 301),
    ("ohhell", "random,random,random,random", None, 131),
    ("wizard", "heuristic,random,random", 3, 150),
    ("wizard", "random,heuristic,random,random,random,heuristic", 6, 70),
    ("callpartner", "heuristic,random,random,random", None, 300),
    ("callpartner", "random,random,random,random", None, 300),
]


@pytest.mark.parametrize("games", [False, True], ids=["rounds", "games"])
@pytest.mark.parametrize("check", [False, True], ids=["", "check"])
@pytest.mark.parametrize(("game", "bots", "players", "units"), CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_one_call_for_every_seating_gives_the_numbers_of_a_call_per_seating(game, bots, players, units, games,
                                                                           check):  # fmt: skip
    """Fails when ``redeal`` leaves anything of the played round behind (streams, hands, slots) or the kernels
    mix up the seatings' rows."""
    front, rules, lineups = seatings(game, bots, players)
    units = units // 8 if games else units
    together = list(front.run_rotations(rules, lineups, SEED, START, units, games, check))
    assert len(together) == len(lineups)
    for lineup, batch in zip(lineups, together, strict=True):
        assert_same(batch, front.run(rules, lineup, SEED, START, units, games, check))
        assert batch.checked > 0 if check else batch.checked == 0


@pytest.mark.parametrize(("game", "players", "games"),
                         [("differenzler", None, 81), ("wizard", 5, 9), ("ohhell", 3, 7), ("callpartner", 5, 33)])
def test_random_pairs_play_the_games_that_the_one_game_loop_plays(game, players, games, monkeypatch):
    """``random_block`` plays random lineups' whole games two at a time: the numbers of ``builtin_block``, a game at
    a time, for an odd count and for Differenzler's games that end apart (one in a tie-break, the other over)."""
    front = get_game(game)
    _, rules, (lineup, *_) = seatings(game, ",".join(["random"] * front.seats(front.make_rules(None, players))),
                                      players)  # fmt: skip
    paired = front.run(rules, lineup, SEED, 0, games, True)
    monkeypatch.setattr(type(front), "random_block", None)  # every lineup through ``play_blocks``
    monkeypatch.setattr(type(front), "random_games_block", None)
    assert_same(paired, front.run(rules, lineup, SEED, 0, games, True))
    if game == "differenzler":  # games 10, 57 and 79 of seed 7 have a tie-break
        assert (paired.played[0:-1:2] != paired.played[1::2]).any()  # some pair ended apart


def test_a_failed_decision_is_found_again_one_seating_at_a_time(monkeypatch):
    """A bot's failure in the call that plays every seating is looked for again by ``run`` per seating, so that the
    runner can name the seating; seatings before it are played and yielded as usual."""
    front, rules, lineups = seatings("differenzler", "heuristic,random,random,random")
    batch, run = type(front).batch, type(front).run
    third = lineups[2]

    def failing_batch(self, *args, tables=None, **options):
        if tables is not None:
            raise BotFailure("a built-in bot chose an illegal card")
        return batch(self, *args, **options)

    def failing_run(self, rules, lineup, *args):
        if lineup is third:
            raise CardsimError("seat 1 chose an illegal card")
        return run(self, rules, lineup, *args)

    monkeypatch.setattr(type(front), "batch", failing_batch)
    monkeypatch.setattr(type(front), "run", failing_run)
    played = front.run_rotations(rules, lineups, SEED, START, 40, False)
    for lineup in lineups[:2]:
        assert_same(next(played), run(front, rules, lineup, SEED, START, 40, False))
    with pytest.raises(CardsimError, match="seat 1 chose an illegal card"):
        next(played)


def test_the_runner_names_the_seating_of_a_failed_decision(monkeypatch, tmp_path):
    front = get_game("differenzler")
    batch, run = type(front).batch, type(front).run

    def failing_batch(self, *args, tables=None, **options):
        if tables is not None:
            raise BotFailure("a built-in bot chose an illegal card")
        return batch(self, *args, **options)

    def failing_run(self, rules, lineup, *args):
        if lineup.names == ("random", "heuristic", "random", "random"):
            raise CardsimError("seat 1 chose an illegal card")
        return run(self, rules, lineup, *args)

    monkeypatch.setattr(type(front), "batch", failing_batch)
    monkeypatch.setattr(type(front), "run", failing_run)
    exp = runner.experiment("differenzler", "heuristic,random,random,random", rounds=40, seed=SEED)
    with pytest.raises(CardsimError, match=r"seat 1 chose an illegal card \(rotation 1: seats random, heuristic,"):
        runner.run(exp, tmp_path / "out", progress=False)


def test_several_seatings_in_one_batch_need_the_compiled_engine():
    front, rules, lineups = seatings("wizard", "heuristic,random,random", 3)
    tables = np.concatenate([lineup.table for lineup in lineups])
    with pytest.raises(CardsimError, match="several seatings in one batch need the compiled engine"):
        front.batch(rules, lineups[0], SEED, START, 5, False, engine="python", tables=tables)


def test_strong_lineups_keep_a_kernel_call_per_seating(monkeypatch):
    """Their progress bar moves after each seating (a strong chunk of 1024 deals takes seconds a seating)."""
    front, rules, lineups = seatings("differenzler", "mc,random,random,random")
    calls = []
    monkeypatch.setattr(type(front), "batch", lambda *a, **o: pytest.fail("a strong lineup played in one call"))
    monkeypatch.setattr(type(front), "run", lambda self, rules, lineup, *a: calls.append(lineup) or len(calls))
    assert list(front.run_rotations(rules, lineups, SEED, START, 10, False)) == [1, 2, 3, 4]
    assert calls == lineups


@pytest.mark.parametrize("game", ["differenzler", "wizard", "ohhell", "callpartner"])
def test_random_lineups_play_through_their_own_work_item(game, monkeypatch):
    """``Game.work_item``: random bots only take the game's ``random_block`` (single rounds, in pairs; whole games
    its ``random_games_block``) unless checked: ``--check`` takes ``builtin_block``, as any other lineup of built-in
    bots does. (The digests cannot see a wrong choice: every work item plays the same rounds.)"""
    seats = get_game(game).seats()
    front, _, (random_lineup, *_) = seatings(game, ",".join(["random"] * seats))
    _, _, (mixed, *_) = seatings(game, ",".join(["heuristic"] + ["random"] * (seats - 1)))
    play = front.play_module

    def chosen(table, checked: bool, games: bool = False):  # a kernel read through the instance is bound to it
        block = front.work_item(table, False, checked, games)
        return getattr(block, "__func__", block)

    assert chosen(random_lineup.table, False) is play.random_block
    assert chosen(random_lineup.table, False, True) is play.random_games_block
    assert chosen(random_lineup.table, True) is chosen(random_lineup.table, True, True) is play.builtin_block
    assert chosen(mixed.table, False) is chosen(mixed.table, False, True) is play.builtin_block
    asked = []  # and the batches say what they play
    work_item = type(front).work_item
    monkeypatch.setattr(type(front), "work_item", lambda self, *args: asked.append(args[1:]) or work_item(self, *args))
    for units in ({"rounds": 3}, {"games": 1}):
        for check in (False, True):
            asked.clear()
            simulate(game, "random", **units, check=check, progress=False)
            assert asked and set(asked) == {(False, check, "games" in units)}  # (asking, checked, games)
