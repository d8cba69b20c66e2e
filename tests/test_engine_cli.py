"""The engine, results and the CLI: determinism, Parquet rows, replays, summaries and clear errors."""

import dataclasses
import json
import math
import random
import re

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from conftest import redeal_hidden, start_of

import cardsim.engine as engine
from cardsim import CardsimError, new_round, replay, simulate
from cardsim.cards import JASS36
from cardsim.cli import main
from cardsim.driver import card_names
from cardsim.games import get_game

LINEUP = "heuristic,random,random,random"
EXAMPLES = "bots/examples.py"


def test_same_seed_identical_parquet_with_one_and_two_threads(tmp_path):
    """D3: the same seed gives the same rows, bit for bit, whatever the number of threads."""
    one, two = tmp_path / "one.parquet", tmp_path / "two.parquet"
    simulate("differenzler", LINEUP, rounds=3000, seed=11, threads=1, out=one)
    simulate("differenzler", LINEUP, rounds=3000, seed=11, threads=2, out=two)
    assert pq.read_table(one).equals(pq.read_table(two))
    simulate("differenzler", LINEUP, games=300, seed=11, threads=1, out=one, force=True)
    simulate("differenzler", LINEUP, games=300, seed=11, threads=2, out=two, force=True)
    assert pq.read_table(one).equals(pq.read_table(two))


def test_rows_do_not_depend_on_chunking(monkeypatch):
    """Round i is round i whether it is computed in a small chunk or a large one, and in a longer run."""
    whole = simulate("differenzler", LINEUP, rounds=2000, seed=3, keep_rows=True).rows
    monkeypatch.setattr(engine, "ROUNDS_PER_CHUNK", 333)
    chunked = simulate("differenzler", LINEUP, rounds=2000, seed=3, keep_rows=True).rows
    pd.testing.assert_frame_equal(whole, chunked)
    longer = simulate("differenzler", LINEUP, rounds=2500, seed=3, keep_rows=True).rows
    pd.testing.assert_frame_equal(whole, longer.iloc[: len(whole)])
    other_seed = simulate("differenzler", LINEUP, rounds=2000, seed=4, keep_rows=True).rows
    assert not whole["points"].equals(other_seed["points"])


def test_summary_matches_rows():
    """The streamed summary equals pandas over the rows: mean, std, 95% CI, game wins."""
    result = simulate("differenzler", LINEUP, games=400, seed=5, keep_rows=True)
    rows, summary = result.rows, result.summary.set_index("seat")
    for seat, group in rows.groupby("seat"):
        mean, std = group["penalty"].mean(), group["penalty"].std()
        assert summary.loc[seat, "mean_penalty"] == pytest.approx(mean)
        assert summary.loc[seat, "std"] == pytest.approx(std)
        half = 1.959963984540054 * std / math.sqrt(len(group))
        assert summary.loc[seat, "ci95_high"] == pytest.approx(mean + half)
        per_game = group[group["round"] == 0]
        assert summary.loc[seat, "games"] == 400 == len(per_game)
        assert summary.loc[seat, "wins"] == pytest.approx(per_game["game_win"].sum())
    assert summary["wins"].sum() == pytest.approx(400)  # shared wins count 1/k


def test_parquet_has_the_documented_columns(tmp_path):
    out = tmp_path / "rounds.parquet"
    simulate("differenzler", LINEUP, rounds=500, seed=7, rules={"exact_bonus": 10}, out=out)
    rows = pd.read_parquet(out)
    assert list(rows.columns) == [
        "game", "rules", "seed", "round", "seat", "bot", "first_hand", "trump_card", "trump",
        "prediction", "points", "penalty",
    ]  # fmt: skip
    assert len(rows) == 2000 and set(rows["game"]) == {"differenzler"} and set(rows["seed"]) == {7}
    assert set(rows["rules"]) == {"predictions=secret,exact_bonus=10,zero_bonus=never,game_rounds=4,"
                                  "max_tiebreak_rounds=10"}  # fmt: skip
    assert rows.groupby("round")["points"].sum().eq(157).all()
    assert list(rows["bot"][:4]) == LINEUP.split(",")
    assert (rows["trump_card"].astype(str).str[0] == rows["trump"].astype(str)).all()
    assert not (tmp_path / "rounds.parquet.partial").exists()


@pytest.mark.parametrize("game, settings", [("differenzler", {}), ("wizard", {"rules": {"cards": 15}}),
                                            ("wizard", {"games": 3}), ("callpartner", {})])  # fmt: skip
def test_out_and_keep_rows_give_the_same_tidy_rows_with_empty_categories_as_missing(game, settings, tmp_path):
    """One row schema (``cardsim.rows``) for every output: the file reads back as the kept rows, names as
    categories, an empty trump card (Wizard's last round: no card left) as missing."""
    size = {} if "games" in settings else {"rounds": 60}
    kept = simulate(game, "heuristic", seed=5, keep_rows=True, out=tmp_path / "r.parquet", **size, **settings).rows
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "r.parquet"), kept)
    for name in ("game", "rules", "bot", *get_game(game).categories):
        assert kept[name].dtype == "category", name
    if game == "wizard" and "rules" in settings:
        assert kept["trump_card"].isna().all() and kept["trump"].isna().all()


def test_replay_equals_the_simulated_rows():
    """A replayed round is exactly the round in the results: single rounds and rounds inside games."""
    rows = simulate("differenzler", LINEUP, rounds=40, seed=7, keep_rows=True).rows
    for r in (0, 12, 39):
        record = replay("differenzler", seed=7, round=r, bots=LINEUP)
        got = rows[rows["round"] == r]
        assert list(got["prediction"]) == record["predictions"]
        assert list(got["points"]) == record["points"]
        assert got["trump_card"].iloc[0] == record["trump_card"]
    games = simulate("differenzler", LINEUP, games=20, seed=7, keep_rows=True).rows
    for g, r in ((0, 0), (5, 3), (19, 2)):
        record = replay("differenzler", seed=7, round=r, game_no=g, bots=LINEUP)
        got = games[(games["game_no"] == g) & (games["round"] == r)]
        assert list(got["penalty"]) == record["penalties"]
        assert got["first_hand"].iloc[0] == record["first_hand"]
    # round i of a single-round run is round 0 of game i
    assert replay("differenzler", seed=7, round=5, bots=LINEUP) == {
        **replay("differenzler", seed=7, round=0, game_no=5, bots=LINEUP),
        "round": 5,
        "game_no": None,
    }


def public(obs) -> dict:
    """An observation's fields but its random generator."""
    return dataclasses.asdict(dataclasses.replace(obs, rng=None))


class Watcher:
    """A Python bot that keeps every observation it is given (without its rng) and plays at random from
    ``obs.rng``."""

    def __init__(self):
        self.seen = []

    def _keep(self, obs):
        self.seen.append(public(obs))

    def predict(self, obs):
        self._keep(obs)
        return obs.rng.randint(0, 60)

    def play(self, obs):
        self._keep(obs)
        return obs.rng.choice(obs.legal)


def test_python_bots_are_reproducible_and_see_their_seat_only():
    """Python bots give the same rows for the same seed. What a Python bot is shown by the driver is what
    ``Round.observation`` shows its seat at that point of the same replayed round; it holds its own remaining
    cards and no card another seat still holds (but the shown trump card); and it stays the same when the cards
    it cannot see are dealt anew and the others' secret predictions change."""
    lineup = f"{EXAMPLES}:Lucky,{EXAMPLES}:Cautious,heuristic,random"
    a = simulate("differenzler", lineup, rounds=60, seed=2, keep_rows=True).rows
    b = simulate("differenzler", lineup, rounds=60, seed=2, keep_rows=True).rows
    pd.testing.assert_frame_equal(a, b)
    assert a.groupby("round")["points"].sum().eq(157).all()
    rng, redealt = random.Random(3), 0
    for k in range(4):
        watchers = {0: Watcher(), 2: Watcher()}
        record = replay("differenzler", seed=2, round=k, bots=[watchers[0], "heuristic", watchers[2], "random"])
        actions = record["predictions"] + [c for t in record["tricks"] for c in t["cards"]]
        order = [(record["first_hand"] + i) % 4 for i in range(4)]
        actions[:4] = [record["predictions"][s] for s in order]  # predictions in turn from First Hand
        r = new_round("differenzler", **start_of(record))
        held = [set(h) for h in record["hands"]]
        held_at_start = [set(h) for h in record["hands"]]
        played: list[set[str]] = [set() for _ in range(4)]
        seen = {seat: iter(w.seen) for seat, w in watchers.items()}
        for n, action in enumerate(actions):
            seat = r.to_move
            if seat in watchers:
                obs = next(seen[seat])
                assert obs == public(r.observation(seat))
                assert sorted(obs["hand"]) == sorted(held[seat])
                others = set().union(*(h for s, h in enumerate(held) if s != seat)) - {record["trump_card"]}
                assert not card_names(obs, JASS36) & others, (k, n, card_names(obs, JASS36) & others)
                if n % 3 == 0:  # the same after a re-deal of what the seat cannot see
                    for _ in range(30):
                        start = redeal_hidden(record, seat, played, False, rng)
                        other = new_round("differenzler", **start)
                        try:
                            for i, x in enumerate(actions[:n]):
                                other.play((x + 11) % 158 if i < 4 and order[i] != seat else x)
                        except CardsimError:
                            continue  # the re-deal contradicts a void the play has shown
                        assert public(other.observation(seat)) == obs, (k, n)
                        redealt += [set(h.split()) for h in start["hands"]] != held_at_start
                        break
            if n >= 4:
                held[seat].discard(action)
                played[seat].add(action)
            r.play(action)
        assert all(next(it, None) is None for it in seen.values())  # one observation per decision of the seat
        assert r.record()["points"] == record["points"]
    assert redealt >= 10


def test_cli_simulate_prints_a_summary(capsys):
    assert main(["simulate", "differenzler", "--bots", LINEUP, "--rounds", "2000", "--seed", "7"]) == 0
    out = capsys.readouterr().out
    assert "mean_penalty" in out and "ci95_low" in out and "heuristic" in out
    assert main(["simulate", "differenzler", "--bots", "heuristic", "--rounds", "50", "--games", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == 50 and len(summary["summary"]) == 4 and "win_rate" in summary["summary"][0]


def test_cli_replay_json_schema(capsys):
    assert main(["replay", "differenzler", "--seed", "7", "--round", "12", "--bots", LINEUP, "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert set(record) == {
        "game", "rules", "seed", "round", "game_no", "bots", "first_hand", "dealer", "trump_card", "trump",
        "hands", "predictions", "tricks", "points", "penalties", "start", "actions",
    }  # fmt: skip
    assert [len(h) for h in record["hands"]] == [9] * 4 and len(record["tricks"]) == 9
    assert set(record["tricks"][0]) == {"leader", "cards", "winner", "points"}
    assert sum(t["points"] for t in record["tricks"]) == 157 == sum(record["points"])
    assert main(["replay", "differenzler", "--seed", "7", "--round", "12", "--bots", LINEUP]) == 0
    text = capsys.readouterr().out
    assert "trick 9:" in text and f"trump card: {record['trump_card']}" in text


@pytest.mark.parametrize(
    "argv, message",
    [
        (["simulate", "wizzard"], "unknown game 'wizzard'; games: differenzler"),
        (["simulate", "differenzler", "--bots", "smart"], "unknown bot 'smart' for differenzler; built-in"),
        (["simulate", "differenzler", "--bots", "random,random"], "differenzler needs 4 bots, one per seat, but 2"),
        (["simulate", "differenzler", "--rule", "trump=obe"], "differenzler has no rule 'trump'; its rules are:"),
        (["simulate", "differenzler", "--rule", "predictions=loud"], "predictions='loud' is not allowed: use one of"),
        (["simulate", "differenzler", "--rule", "exact_bonus=-1"], "exact_bonus='-1' is not allowed: use an integer"),
        (["simulate", "differenzler", "--rule", "exact_bonus"], "must be written name=value"),
        (["simulate", "differenzler", "--threads", "0"], "threads=0 is not allowed: use 1 to"),
        (["simulate", "differenzler", "--players", "5"], "differenzler is played by 4 players, not 5"),
        (["simulate", "differenzler", "--bots", "nothere.py:Bot"], "no file nothere.py"),
        (["simulate", "differenzler", "--bots", f"{EXAMPLES}:Missing"], "has no class Missing; a bot is a class"),
        (["simulate", "differenzler", "--out", "/no/such/dir/x.parquet"], "folder /no/such/dir does not exist"),
        (["simulate", "differenzler", "--rounds", "10", "--out", "/proc/x"], "folder /proc is not writable"),
        (["tournament", "differenzler", "--rounds", "10", "--out", "/proc/x"], "folder /proc is not writable"),
        (["tournament", "differenzler", "--rounds", "10", "--out", "/etc/passwd"], "/etc/passwd as a results folder: "
         "it is a file"),  # fmt: skip
        (["tournament", "differenzler", "--rounds", "10", "--scheduler", "notanaddress"], "cannot reach the Dask "
         "scheduler at 'notanaddress': missing port number"),  # fmt: skip
        (["replay", "differenzler", "--round", "99999999999999999999"], "round 99999999999999999999 is not allowed"),
        (["replay", "differenzler", "--round", "0", "--game-no", str(2**63)], f"game {2**63} is not allowed"),
        (["replay", "differenzler", "--game-no", "0", "--round", "9", "--rule", "max_tiebreak_rounds=0"],
         "ended after 4 rounds; rounds are 0..3"),  # fmt: skip
    ],
)
def test_cli_errors_are_one_line_with_exit_code_2(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err  # an error found by playing (the replay) may follow a first run's compile line
    err = "".join(line for line in err.splitlines(True) if not line.startswith("cardsim: compiling "))
    assert err.startswith("cardsim: error: ") and message in err and err.count("\n") == 1


@pytest.mark.parametrize("argv", [["simulate", "differenzler", "--rounds", "0"], ["simulate", "differenzler",
                                  "--seed", "x"], ["frobnicate"]])  # fmt: skip
def test_cli_usage_errors_are_one_line_with_exit_code_2(argv, capsys):
    """argparse printed its whole usage before the error; every bad input is one line."""
    with pytest.raises(SystemExit) as stop:
        main(argv)
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.startswith("cardsim: error: ") and err.count("\n") == 1, err


def test_illegal_card_from_a_python_bot_names_bot_seed_round_decision(tmp_path):
    bot_file = tmp_path / "bad_bots.py"
    bot_file.write_text(
        "class Illegal:\n"
        "    def predict(self, obs):\n        return 40\n"
        "    def play(self, obs):\n"
        "        return next(c for c in ['S6','SA','H6','HA','D6','DA','C6','CA','ST','HT'] if c not in obs.legal)\n"
        "class Greedy:\n"
        "    def predict(self, obs):\n        return 158\n"
        "    def play(self, obs):\n        return obs.legal[0]\n"
    )
    with pytest.raises(CardsimError, match=r"bot '.*bad_bots.py:Illegal' \(seat 2\) in differenzler, seed 9, round 0, "
                       r"trick \d, card \d: played \w+, which is not legal; legal: "):  # fmt: skip
        simulate("differenzler", f"random,random,{bot_file}:Illegal,random", rounds=5, seed=9)
    with pytest.raises(CardsimError, match=r"seed 9, round 0, prediction: predicted 158; allowed: an integer from 0"):
        simulate("differenzler", f"{bot_file}:Greedy,random,random,random", rounds=5, seed=9)


def test_bad_api_values_are_refused():
    with pytest.raises(CardsimError, match="seed -1 is not allowed"):
        simulate("differenzler", "random", rounds=10, seed=-1)
    with pytest.raises(CardsimError, match="either a number of rounds or a number of games"):
        simulate("differenzler", "random", rounds=10, games=10)
    with pytest.raises(CardsimError, match="positive integer"):
        simulate("differenzler", "random", rounds=0)
    assert np.isfinite(simulate("differenzler", "random", rounds=10).summary["mean_penalty"]).all()


@pytest.mark.parametrize(
    "game, settings, message",
    [
        ("differenzler", {"exact_bonus": -3}, "differenzler rule exact_bonus=-3 is not allowed: use an integer"),
        ("wizard", {"players": 9}, "wizard rule players=9 is not allowed: use an integer from 3 to 6"),
        ("callpartner", {"all_pass": "never"}, "callpartner rule all_pass='never' is not allowed: use one of"),
    ],
)
def test_rules_built_directly_are_validated_too(game, settings, message):
    """D1 for the Python API: a rules dataclass made by hand refuses what make_rules would refuse."""
    from cardsim import get_game

    with pytest.raises(CardsimError, match=message):
        get_game(game).rules_class(**settings)


@pytest.mark.parametrize(
    "game, settings, players, message",
    [
        ("differenzler", {"exact_bonus": 10.9}, None, "differenzler rule exact_bonus=10.9 is not allowed"),
        ("wizard", None, 5.7, "wizard rule players=5.7 is not allowed: use an integer from 3 to 6"),
        ("callpartner", {"target": 500.5}, None, "callpartner rule target=500.5 is not allowed"),
        ("wizard", ["cards=3.5"], None, "wizard rule cards='3.5' is not allowed"),
    ],
)
def test_float_rule_values_are_refused_not_truncated(game, settings, players, message):
    """Issue 13.4: make_rules({"exact_bonus": 10.9}) gave 10 and players=5.7 gave 5."""
    from cardsim import get_game

    with pytest.raises(CardsimError, match=message):
        get_game(game).make_rules(settings, players)
    assert get_game("differenzler").make_rules({"exact_bonus": 10.0}).exact_bonus == 10  # a whole float is that integer


def test_round_and_game_indexes_of_2_63_and_above_are_refused_whatever_ran_before():
    """Issue 13.5: round=2**63 worked in a fresh process but raised a bare OverflowError after a smaller replay
    (the kernels were compiled for int64 by then); 2**64 and above always raised it."""
    import cardsim

    first = replay("differenzler", seed=1, round=3)
    for value in (2**63, 2**64, 10**20):
        with pytest.raises(CardsimError, match=f"round {value} is not allowed: rounds are numbered from 0 to 2"):
            replay("differenzler", seed=1, round=value)
        with pytest.raises(CardsimError, match=f"game {value} is not allowed: games are numbered from 0 to 2"):
            replay("differenzler", seed=1, round=0, game_no=value)
        with pytest.raises(CardsimError, match=f"round {value} is not allowed"):
            cardsim.new_round("wizard", seed=1, round=value)
        with pytest.raises(CardsimError, match=f"game {value} is not allowed"):
            cardsim.new_game("callpartner", seed=1, game_no=value)
    assert replay("differenzler", seed=1, round=3) == first
    assert replay("differenzler", seed=1, round=2**63 - 1)["hands"] != first["hands"]


def test_row_columns_are_safe_for_arithmetic_in_every_public_output(tmp_path):
    """Issue 13.9: rows stored tricks and bids as int8, so a B8 check ``20 + 10 * tricks`` over 3-player Wizard
    rows wrapped for 13 or more tricks. simulate(keep_rows), --out and load_rows give int16 or wider."""
    from cardsim import runner

    kept = simulate("wizard", "heuristic", rounds=200, players=3, rules={"cards": 20}, keep_rows=True).rows
    simulate("wizard", "heuristic", rounds=200, players=3, rules={"cards": 20}, out=tmp_path / "w.parquet")
    written = pd.read_parquet(tmp_path / "w.parquet")
    exp = runner.experiment("wizard", "heuristic,random,random", rounds=64, players=3, rules={"cards": 20})
    loaded = runner.load_rows(runner.run(exp, tmp_path / "t", progress=False).folder)
    for rows in (kept, written, loaded):
        numeric = rows.select_dtypes("number")
        assert not [c for c in numeric if numeric[c].dtype.itemsize < 2], numeric.dtypes
        b8 = np.where(rows.bid == rows.tricks, 20 + 10 * rows.tricks, -10 * (rows.bid - rows.tricks).abs())
        assert (rows.score == b8).all() and rows.tricks.max() >= 13  # B8 in the rows' own dtypes


def test_an_existing_out_folder_or_file_is_refused_before_any_work_and_never_overwritten(tmp_path, capsys):
    """Issue 13.11: --out <a folder> ran the whole simulation, then died with IsADirectoryError; --out <a file>
    overwrote a finished Parquet file silently."""
    assert main(["simulate", "differenzler", "--rounds", "10", "--out", str(tmp_path)]) == 2
    assert "it is a folder" in capsys.readouterr().err
    finished = tmp_path / "rows.parquet"
    assert main(["simulate", "differenzler", "--rounds", "10", "--out", str(finished)]) == 0
    before = finished.read_bytes()
    assert main(["simulate", "differenzler", "--rounds", "20", "--out", str(finished)]) == 2
    assert "already exists" in capsys.readouterr().err and finished.read_bytes() == before
    assert main(["simulate", "differenzler", "--rounds", "20", "--out", str(finished), "--force"]) == 0
    assert len(pd.read_parquet(finished)) == 20 * 4


def test_a_bot_class_that_needs_arguments_or_a_name_that_is_no_class_is_one_message(tmp_path, capsys):
    """Issue 13.11: a bot class whose constructor needs arguments, or a name in the file that is not a class,
    gave a TypeError traceback."""
    bot_file = tmp_path / "odd_bots.py"
    bot_file.write_text("class NeedsArgs:\n    def __init__(self, depth):\n        self.depth = depth\n"
                        "helper = 3\ndef function_bot(obs):\n    return 0\n")  # fmt: skip
    for name, message in (
        ("NeedsArgs", "NeedsArgs() failed (TypeError: "),
        ("helper", "defines helper as int; a bot is a class or an @njit function, and those there are: NeedsArgs"),
        ("function_bot", "defines function_bot as function; a bot is a class or an @njit function, and those "
                         "there are: NeedsArgs"),
    ):
        assert main(["simulate", "differenzler", "--rounds", "5", "--bots", f"{bot_file}:{name}"]) == 2
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1


def test_seed_random_draws_a_64_bit_seed_that_is_printed_stored_and_replays(tmp_path, capsys):
    """Issue 13: ``--seed random`` (``seed=None``) for tournaments whose bot authors must not guess the deals."""
    from cardsim import runner

    first, second = (simulate("differenzler", "random", rounds=20, seed=None, keep_rows=True) for _ in range(2))
    assert first.seed != second.seed and 0 <= first.seed < 2**64
    again = simulate("differenzler", "random", rounds=20, seed=first.seed, keep_rows=True)
    pd.testing.assert_frame_equal(again.rows, first.rows)
    assert main(["simulate", "differenzler", "--rounds", "10", "--seed", "random"]) == 0
    assert re.search(r"seed \d+ ", capsys.readouterr().out)
    out = tmp_path / "t"
    assert main(["tournament", "differenzler", "--rounds", "8", "--seed", "random", "--out", str(out)]) == 0
    stored = runner.ResultsFolder(out).read_config().seed
    assert f"seed {stored};" in capsys.readouterr().out
    assert main(["tournament", "differenzler", "--rounds", "8", "--seed", "random", "--out", str(out), "--resume"]) == 0
    assert "0 of 1 chunks computed now" in capsys.readouterr().out  # the resumed run takes the stored seed
    assert main(["replay", "differenzler", "--round", "0", "--seed", "random"]) == 2
