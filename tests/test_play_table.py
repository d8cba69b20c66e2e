"""Sit at the table (issue 43, items 1, 5 and 6): the table through whole games of every game and variant, its
refusals, the saved games read back as a results folder and replayed, the plain mode, and bad input."""

from __future__ import annotations

import json
import random
import socket
import subprocess
import sys

import pandas as pd
import pytest
from conftest import table_variants

from cardsim import CardsimError
from cardsim.cli import main
from cardsim.games import GAMES, get_game
from cardsim.play.plain import choose
from cardsim.play.save import save
from cardsim.play.table import Table, setup
from cardsim.play.view import message, view
from cardsim.runner import load_rows

VARIANTS = table_variants()
IDS = [f"{game}-{','.join(rules) or 'default'}" for game, rules in VARIANTS]
FIRST = next(iter(GAMES))  # any game will do


def junk(table: Table) -> list:
    """Actions the seat to move may not take: of another kind, out of range, a card it may not play."""
    legal = table.round.legal()
    other = [card for card in table.game.deck.card_names if card not in legal][:1]
    return [*other, -1, 999, 2.5, True, "", "XX", {"card": 1}, [1, 2, 3], *([None] if None not in legal else [])]


def play(table: Table, rng: random.Random, stop: int | None = None) -> None:
    """Play on until the session is over (or ``stop`` decisions of the people were made): each person picks one of
    the options its view offers; at the first decisions of a round every refusal is tried and must change nothing."""
    made = 0
    while table.phase != "over" and made != stop:
        if table.phase == "round over":
            for seat in table.humans:
                table.next_round(seat)
        elif table.bot_moves():
            table.play_bot()
        else:
            seat = table.mover
            shown = view(table, seat)
            assert sorted(map(repr, (o["action"] for o in shown["options"]))) == sorted(map(repr, table.round.legal()))
            if len(table.round.observation(seat).trick) < 2 and rng.random() < 0.3:
                refused(table, seat)
            table.act(seat, rng.choice(shown["options"])["action"])
            made += 1


def refused(table: Table, seat: int) -> None:
    """Every wrong move at this moment raises ``CardsimError`` and leaves every seat's view as it was."""
    before = [message(table, s) for s in range(table.seats)]
    version, legal = table.version, table.round.legal()
    others = [s for s in range(table.seats) if s != seat]
    for who, action in [*((s, legal[0]) for s in others), *((seat, a) for a in junk(table))]:
        with pytest.raises(CardsimError):
            table.act(who, action)
        assert table.version == version, (who, action)
    with pytest.raises(CardsimError, match="not over"):
        table.next_round(seat)
    assert [message(table, s) for s in range(table.seats)] == before


@pytest.mark.parametrize("game, rules", VARIANTS, ids=IDS)
def test_whole_games_at_the_table_saved_as_a_results_folder(game, rules, tmp_path):
    """Two people and random bots play a whole game; its rows come back through ``load_rows`` and plain pandas, the
    people's seats as ``human``, each round's score as the round gave it, each round's record beside them."""
    table = Table(setup(game, rules=list(rules), bots="random", humans=2, seat=1, seed=11))
    play(table, random.Random(3))
    match = table.match
    assert match.done and table.phase == "over"
    assert match.totals == [sum(r.scores[s] for r in match.rounds) for s in range(table.seats)]

    folder = save(table, tmp_path / "saved")
    rows = load_rows(folder)
    assert len(rows) == len(match.rounds) * table.seats
    assert pd.read_parquet(folder / "rows").shape == rows.shape
    humans = rows[rows["bot"] == "human"]
    assert sorted(set(humans["seat"])) == [1, 2] and set(rows["bot"]) == {"human", "random"}
    score = table.game.score
    for r, round_rows in rows.groupby("round"):
        assert round_rows.sort_values("seat")[score].tolist() == match.rounds[r].scores
    assert rows.groupby("seat")["game_total"].first().tolist() == match.totals
    session = json.loads((folder / "play.json").read_text())
    assert session["games"] == [{"game_no": 0, "rounds": len(match.rounds), "finished": True}]
    assert len(list((folder / "rounds").glob("*.json"))) == len(match.rounds)


def test_a_stopped_game_is_saved_up_to_its_last_finished_round_and_its_rounds_replay(tmp_path, capsys):
    table = Table(setup(FIRST, bots="random", seed=4, games=2))
    rng = random.Random(1)
    while len(table.match.rounds) < 2:
        play(table, rng, stop=1)
    play(table, rng, stop=1)  # a decision into the third round: unfinished, not saved
    folder = save(table, tmp_path / "stopped")
    rows = load_rows(folder)
    assert sorted(set(rows["round"])) == [0, 1] and set(rows["game_no"]) == {0}
    session = json.loads((folder / "play.json").read_text())
    assert session["games"] == [{"game_no": 0, "rounds": 2, "finished": False}]
    records = sorted((folder / "rounds").glob("*.json"))
    assert [p.name for p in records] == ["game-000-round-00.json", "game-000-round-01.json"]
    capsys.readouterr()
    assert main(["replay", "--file", str(records[1])]) == 0
    shown = capsys.readouterr().out
    assert "human" in shown and "moves:" in shown
    assert save(Table(setup(FIRST, bots="random", seed=4)), tmp_path / "nothing") is None
    assert not (tmp_path / "nothing").exists()


def test_human_is_a_reserved_bot_name():
    game = get_game(FIRST)

    class human:  # noqa: N801 (a user's class that would take the name)
        def __getattr__(self, name):
            return lambda obs: None

    for spec in ("human", [human()] + ["random"] * (game.seats() - 1)):
        with pytest.raises(CardsimError, match="reserved"):
            game.lineup(spec)
    with pytest.raises(CardsimError, match="'human' is no bot"):
        setup(FIRST, bots="human")


WEIRD = [{}, [], [[]], [1, "S"], ["10", "S"], [10, "X"], [10, "S", 1], [10, ["S"]], [None, None], 1e308,
         float("nan"), -0.0, "S" * 1000, None, True, "W1", "j1", "♠", "pass", [10, "s"], {"a": [1]}, 2**70, -1]


@pytest.mark.parametrize("game", GAMES)
def test_any_json_action_is_refused_or_taken_as_a_legal_one(game):
    """What a page may send as an action: refused with CardsimError, or one of the legal actions, recorded as
    ``legal()`` names it (``[10, "s"]`` is the bid ``(10, "S")``)."""
    seats = get_game(game).seats()
    table, rng, tried = Table(setup(game, bots="random", humans=seats, seed=3)), random.Random(0), set()
    for _ in range(300):
        if table.phase == "round over":
            for seat in table.humans:
                table.next_round(seat)
            continue
        legal = table.round.legal()
        if table.round.decision not in tried:
            tried.add(table.round.decision)
            for action in WEIRD:
                try:
                    table.act(table.mover, action)
                except CardsimError:
                    continue
                assert table.decisions[-1].action in legal, action
                break
        if table.phase == "turn" and table.round.legal() == legal:
            table.act(table.mover, rng.choice(legal))
    assert len(tried) >= 2


def test_typed_choices():
    cards = [{"action": "ST", "label": "10♠"}, {"action": "HA", "label": "A♥"}]
    assert [choose(cards, t) for t in ("2", "10s", "10 ♠", "st", "ha", "A♥")] == ["HA", "ST", "ST", "ST", "HA", "HA"]
    assert choose(cards, "SK") == "SK"  # for the table to refuse, saying why
    with pytest.raises(CardsimError, match="choose 1 to 2"):
        choose(cards, "3")
    bids = [{"action": None, "label": "pass"}, {"action": (10, "S"), "label": "10 ♠"}]
    assert [choose(bids, t) for t in ("pass", "10 S", "10♠", "2")] == [None, (10, "S"), (10, "S"), (10, "S")]
    numbers = [{"action": n, "label": str(n)} for n in range(20)]
    assert choose(numbers, "12") == 12 and choose(numbers, "30") == 30  # a number is itself (refused by the table)
    trumps = [{"action": "S", "label": "♠ spades"}, {"action": "H", "label": "♥ hearts"}]
    assert [choose(trumps, t) for t in ("hearts", "S", "♥")] == ["H", "S", "H"]


def test_plain_mode_reads_stdin_and_saves_at_the_end_of_the_input(tmp_path):
    """A script answers the first choice every time (a number where the decision is a number) and asks for a hint
    once; the input ends mid-game: exit 0, the finished rounds saved."""
    folder = tmp_path / "plain"
    lines = "hint\n" + "1\n" * 60
    done = subprocess.run([sys.executable, "-m", "cardsim.cli", "play", FIRST, "--plain", "--seed", "2", "--bots",
                           "random", "--save", str(folder), "--samples", "50", "--no-review"], input=lines,
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    out = done.stdout
    assert "expected score of each choice" in out and "your hand:" in out and "round over: scores" in out
    rows = load_rows(folder)
    assert len(rows) and set(rows["bot"]) == {"human", "random"}
    assert "saved in" in done.stderr


@pytest.mark.parametrize("argv, says", [
    (["chess"], "unknown game"),
    ([FIRST, "--bots", "nobody"], "unknown bot"),
    ([FIRST, "--rule", "nothing=1"], "has no rule"),
    ([FIRST, "--seat", "9"], "seat 9 is not allowed"),
    ([FIRST, "--humans", "9"], "humans 9 is not allowed"),
    ([FIRST, "--bots", "human"], "'human' is no bot"),
    ([FIRST, "--plain", "--humans", "2"], "--plain seats one person"),
    ([FIRST, "--pace", "60"], "the pace is"),
    ([FIRST, "--port", "70000"], "--port 70000 is not allowed"),
    ([FIRST, "--host", "no.such.host.invalid"], "--host"),
    ([FIRST, "--port", "BUSY"], "in use"),
])  # fmt: skip
def test_bad_input_is_one_line_and_exit_2_before_any_work(argv, says, tmp_path, capsys):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        argv = [str(busy.getsockname()[1]) if a == "BUSY" else a for a in argv]
        assert main(["play", *argv, "--no-browser", "--save", str(tmp_path / "never")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cardsim: error: ") and says in err and err.count("\n") == 1, err
    assert not (tmp_path / "never").exists()
