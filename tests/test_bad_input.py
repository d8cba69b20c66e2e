"""Bad and odd input (issue 40): every public function of the Python API refuses it with one ``CardsimError``, and
every command with one line ``cardsim: error: ...`` and exit code 2, naming what was wrong and what is allowed,
before any folder is made or any work starts: no traceback, no silent fix-up. The Python API's argument types are
checked by one layer, ``cardsim.validation``, which the CLI goes through too."""

from __future__ import annotations

import contextlib
import io
import json
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

import cardsim
import cardsim.advise
import cardsim.cli as cli
from cardsim import plots, runner
from cardsim.advise import advise, bid_table
from cardsim.errors import CardsimError
from cardsim.games import get_game
from cardsim.jit.compiling import Spent
from cardsim.jit.precompile import warmup
from cardsim.rating import ladder
from cardsim.validation import checked

ROOT = Path(__file__).resolve().parent.parent
HAND = "W1 H13 H2 C7"


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of ``cardsim ARGV`` run in this process."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main(argv)
        except SystemExit as stop:  # argparse's own exits (--help, usage errors) and anything that escaped main
            code = stop.code
    return code, out.getvalue(), err.getvalue()


def refused(argv: list[str], *parts: str) -> str:
    """The one error line of ``cardsim ARGV``, which must exit 2 and name each of ``parts``."""
    code, _, err = run_cli(argv)
    assert code == 2 and err.count("\n") == 1 and err.startswith("cardsim: error: "), (code, err)
    for part in parts:
        assert part in err, (part, err)
    return err


def refuses(call, *parts: str) -> str:
    """The message of the ``CardsimError`` that ``call()`` raises, which must name each of ``parts``."""
    with pytest.raises(CardsimError) as info:
        call()
    for part in parts:
        assert part in str(info.value), (part, str(info.value))
    return str(info.value)


# --- 1. one validation layer: types, unknown keywords, sizes, strict booleans ------------------------------------

WRONG_TYPES = {
    "simulate bots None": (lambda: cardsim.simulate("differenzler", None, rounds=10), "bots=None", "a list"),
    "simulate bots 5": (lambda: cardsim.simulate("differenzler", 5, rounds=10), "bots=5 is an int"),
    "simulate game None": (lambda: cardsim.simulate(None, "random", rounds=10), "game=None", "a Game"),
    "simulate rules 5": (lambda: cardsim.simulate("differenzler", "random", rounds=10, rules=5), "rules=5"),
    "simulate rounds float": (lambda: cardsim.simulate("differenzler", "random", rounds=10.0), "rounds=10.0 is a float",
                              "an int"),
    "simulate rounds bool": (lambda: cardsim.simulate("differenzler", "random", rounds=True), "rounds=True is a bool"),
    "simulate keep_rows yes": (lambda: cardsim.simulate("differenzler", "random", rounds=10, keep_rows="yes"),
                               "keep_rows='yes' is a str", "True or False"),
    "simulate progress x": (lambda: cardsim.simulate("differenzler", "random", rounds=10, progress="x"),
                            "progress='x'", "True, False or None"),
    "simulate check 1": (lambda: cardsim.simulate("differenzler", "random", rounds=10, check=1), "check=1 is an int"),
    "simulate out 5": (lambda: cardsim.simulate("differenzler", "random", rounds=10, out=5), "out=5", "os.PathLike"),
    "replay seed str": (lambda: cardsim.replay("differenzler", seed="7", round=12), "seed='7' is a str"),
    "replay round float": (lambda: cardsim.replay("differenzler", seed=7, round=1.0), "round=1.0"),
    "new_game game_no str": (lambda: cardsim.new_game("wizard", seed=1, game_no="0"), "game_no='0' is a str"),
    "new_round players str": (lambda: cardsim.new_round("differenzler", players="4"), "players='4' is a str"),
    "experiment duplicate no": (lambda: runner.experiment("differenzler", "random", rounds=10, duplicate="no"),
                                "duplicate='no' is a str", "True or False"),
    "load_rows None": (lambda: runner.load_rows(None), "load_rows(): out=None"),
    "ladder bots 5": (lambda: ladder("differenzler", 5), "ladder(): bots=5"),
    "ladder deals str": (lambda: ladder("differenzler", "random,heuristic", deals="10"), "deals='10' is a str"),
    "advise hand None": (lambda: advise("wizard", None, trump="S", seat=1, players=4, samples=10), "hand=None"),
    "advise trump 1": (lambda: advise("wizard", HAND, trump=1, seat=1, players=4, samples=10), "trump=1 is an int",
                       "a str or None"),
    "advise seed float": (lambda: advise("wizard", HAND, trump="S", seed=1.0, samples=10), "seed=1.0 is a float"),
    "bid_table rules str": (lambda: bid_table("wizard", hands=3, samples=10, rules="cards=3"), "rules='cards=3'"),
    "warmup jobs str": (lambda: warmup(["differenzler", "wizard"], jobs="2"), "jobs='2' is a str"),
    "plots rows None": (lambda: plots.score_histogram(None), "score_histogram(): rows=None", "a DataFrame"),
}


@pytest.mark.parametrize("case", sorted(WRONG_TYPES))
def test_a_wrong_type_is_refused_naming_the_argument_its_type_and_what_is_allowed(case):
    call, *parts = WRONG_TYPES[case]
    refuses(call, *parts)


def test_numpy_integers_still_count_as_ints():
    result = cardsim.simulate("differenzler", "random", rounds=np.int64(20), seed=np.uint64(3), progress=False)
    assert int(result.summary["rounds"].iloc[0]) == 20


UNKNOWN_KEYWORDS = {
    "simulate round": (lambda: cardsim.simulate("differenzler", "random", round=10), "'round'", "rounds, games"),
    "advise sample": (lambda: advise("wizard", HAND, trump="S", sample=10), "'sample'", "samples"),
    "ladder deal": (lambda: ladder("differenzler", "random,heuristic", deal=10), "'deal'", "deals"),
    "differenzler bid_table cards": (lambda: bid_table("differenzler", hands=2, samples=2, cards=3), "'cards'",
                                     "hands, samples"),
    "new_game round": (lambda: cardsim.new_game("wizard", round=2), "'round'", "game_no"),
    "load_rows folder": (lambda: runner.load_rows(folder="x"), "'folder'", "out"),
}


@pytest.mark.parametrize("case", sorted(UNKNOWN_KEYWORDS))
def test_an_unknown_keyword_is_refused_with_the_functions_keywords(case):
    call, *parts = UNKNOWN_KEYWORDS[case]
    refuses(call, "has no argument", *parts)


PUBLIC = {  # (new_round takes any keyword: the game's shown cards, which the game checks)
    "cardsim.simulate": lambda **k: cardsim.simulate("differenzler", "random", rounds=10, **k),
    "cardsim.replay": lambda **k: cardsim.replay("differenzler", seed=1, round=0, **k),
    "cardsim.new_game": lambda **k: cardsim.new_game("differenzler", **k),
    "cardsim.ladder": lambda **k: cardsim.ladder("differenzler", "random,heuristic", **k),
    "cardsim.warmup": lambda **k: warmup(["differenzler"], **k),
    "runner.experiment": lambda **k: runner.experiment("differenzler", "random", rounds=10, **k),
    "runner.run": lambda **k: runner.run(runner.experiment("differenzler", "random", rounds=10), "never-made", **k),
    "runner.load": lambda **k: runner.load("never-made", **k),
    "runner.iter_rows": lambda **k: runner.iter_rows("never-made", **k),
    "runner.load_rows": lambda **k: runner.load_rows("never-made", **k),
    "advise.advise": lambda **k: advise("wizard", HAND, trump="S", samples=10, **k),
    "advise.bid_table": lambda **k: bid_table("wizard", hands=1, samples=10, **k),
    "advise.bid_figures": lambda **k: cardsim.advise.bid_figures("wizard", None, **k),
}
PLOTS = ("scores", "score_histogram", "score_ecdf", "score_boxplot", "bid_result_counts", "bid_heatmap",
         "bid_accuracy_table", "bid_accuracy", "unit_scores", "convergence")  # each takes the rows first


@pytest.mark.parametrize("name", [*sorted(PUBLIC), *(f"plots.{name}" for name in PLOTS)])
def test_every_public_function_refuses_an_unknown_keyword_before_it_starts(name):
    call = PUBLIC.get(name) or (lambda **k: getattr(plots, name.removeprefix("plots."))(None, **k))
    refuses(lambda: call(nosuch=1), "has no argument 'nosuch'; its arguments: ")


def test_an_annotation_the_checks_cannot_read_fails_its_first_call_loudly():
    @checked
    def pair(value: tuple[int, str]) -> None:
        """A fixed-length tuple, which the checks do not read."""

    with pytest.raises(TypeError, match=r"pair: argument value: cannot check a tuple of fixed length"):
        pair((1, "a"))


def test_a_missing_or_extra_argument_is_refused_naming_the_arguments():
    refuses(lambda: cardsim.simulate("differenzler"), "simulate(): missing a required argument: 'bots'", "game, bots")
    refuses(lambda: runner.run(), "run(): missing a required argument: 'exp'")
    refuses(lambda: cardsim.simulate("differenzler", "random", 10), "too many positional arguments", "rounds=")


def test_sizes_have_an_upper_bound_that_says_why(tmp_path):
    refuses(lambda: runner.experiment("differenzler", "random", rounds=10**23), "rounds", "2**40")
    refuses(lambda: runner.experiment("wizard", "random", games=2**40 + 1), "games", "2**40", "core-days")
    refuses(lambda: ladder("differenzler", "random,heuristic", deals=2**41), "deals", "2**40")
    runner.experiment("differenzler", "random", rounds=2**40)  # the bound itself is allowed
    # the command that was accepted with an ETA of 2e13 hours (a subprocess: unfixed, it would run for ever)
    done = subprocess.run([sys.executable, "-m", "cardsim.cli", "simulate", "differenzler", "--rounds",
                           str(10**23), "--no-progress"], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.startswith("cardsim: error: "), done.stderr
    assert "2**40" in done.stderr and "Traceback" not in done.stderr


def test_a_refused_argument_stops_the_call_before_any_work_or_file(tmp_path):
    out = tmp_path / "rows.parquet"
    refuses(lambda: cardsim.simulate("differenzler", "random", rounds=100, out=out, keep_rows="yes"), "keep_rows")
    assert not out.exists()


# --- 2. the public form of every decision, checked by type --------------------------------------------------------


class IndexPlayer:
    """Answers a card with a deck index, which cardsim once took as the card (7: SK)."""

    def predict(self, obs) -> int:
        return 40

    def play(self, obs) -> int:
        return 7


def at_first_card() -> cardsim.Round:
    r = cardsim.new_round("differenzler", seed=7, round=12)
    while r.decision == "predict":
        r.play(40)
    return r


def test_a_python_bots_card_given_as_an_int_is_refused_naming_its_type():
    lineup = [IndexPlayer(), "random", "random", "random"]
    refuses(lambda: cardsim.simulate("differenzler", lineup, rounds=1, progress=False),
            "bot 'IndexPlayer' (seat 0)", "played 7, which is not legal: a card is given by its name (a str, not an "
            "int); legal: ")  # fmt: skip


def test_round_play_takes_a_card_by_its_name_only():
    r = at_first_card()
    legal = r.legal()
    index = get_game("differenzler").deck.parse(legal[0])
    refuses(lambda: r.play(index), f"played {index}, which is not legal: a card is given by its name (a str, not an "
            f"int); legal: {' '.join(legal)}")  # fmt: skip
    refuses(lambda: r.play(np.int64(index)), f"played {index}, which is not legal", "(a str, not an int64)")
    assert r.legal() == legal  # nothing was played
    r.play(legal[0])


def test_numbers_trumps_and_bids_are_refused_in_any_other_type():
    r = cardsim.new_round("differenzler", seed=7, round=12)
    refuses(lambda: r.play("40"), "predicted '40'; allowed: an integer from 0 to 157 (an int, not a str)")
    refuses(lambda: r.play(True), "predicted True; allowed: an integer from 0 to 157 (an int, not a bool)")
    refuses(lambda: r.play(40.0), "(an int, not a float)")
    r.play(np.int64(40))  # a numpy integer is an int
    wizard = cardsim.new_round("wizard", hands=["S1", "H2", "D3"], dealer=2, turned="W1", players=3)
    assert wizard.decision == "trump"
    refuses(lambda: wizard.play(1), "named 1; allowed: one of S, H, D, C (a suit letter, not an int)")
    wizard.play("h")
    auction = cardsim.new_round("callpartner", seed=1)
    refuses(lambda: auction.play([10, "S"]), "bid [10, 'S']; allowed: None (pass) or (number, suit)",
            "(a tuple or None, not a list)")
    refuses(lambda: auction.play(0), "bid 0; allowed: ", "(a tuple or None, not an int)")
    auction.play((10, "S"))


def test_a_declarers_discards_still_reach_the_state_machine():
    """Call-partner's discards are a list of names, applied one card at a time (answer_actions, inside cardsim)."""
    result = cardsim.simulate("callpartner", "bots/examples.py:Steady", rounds=30, seed=2, check=True, progress=False)
    assert int(result.summary["rounds"].iloc[0]) == 30


# --- 3. conflicts are refused, naming both values -----------------------------------------------------------------


def test_conflicting_rules_and_settings_are_refused_naming_both_values():
    refused(["simulate", "wizard", "--players", "4", "--rule", "players=5", "--rounds", "10"], "players=5",
            "players=4")
    refused(["simulate", "wizard", "--cards", "3", "--rule", "cards=5", "--rounds", "10"], "cards=5", "cards=3")
    refused(["simulate", "differenzler", "--rule", "exact_bonus=3", "--rule", "exact_bonus=5", "--rounds", "10"],
            "exact_bonus=3", "exact_bonus=5")
    refused(["advise", "differenzler", "--hand", "SA SK SQ HT H6 D7 DJ CA C6", "--trump", "C9", "--bots",
             "mc:samples=4:samples=8"], "samples=4", "samples=8")
    refuses(lambda: cardsim.simulate("wizard", "random", rounds=10, rules=["players=5"], players=4), "players=5",
            "players=4")
    refuses(lambda: get_game("differenzler").lineup("mc:samples=4:samples=8"), "samples=4", "samples=8")
    assert get_game("wizard").make_rules(["players=5"], 5).players == 5  # the same value twice is no conflict
    assert get_game("differenzler").lineup("mc:samples=4:samples=4.0").names == ("mc:samples=4:samples=4.0",) * 4
    refuses(lambda: cardsim.simulate("differenzler", "random", rounds=10, games=5), "not both", "rounds=10",
            "games=5")
    exp = runner.experiment("differenzler", "random", rounds=8)
    refuses(lambda: runner.run(exp, "never-made", scheduler="tcp://host:8786", dask_local=2), "not both",
            "scheduler='tcp://host:8786'", "dask_local=2")
    refused(["simulate", "differenzler", "--rounds", "10", "--games", "5"], "not both", "--rounds 10", "--games 5")


# --- 4. a refused run leaves no folder behind ---------------------------------------------------------------------


def test_a_refused_run_makes_no_folder_and_a_correct_run_there_works(tmp_path):
    out = tmp_path / "x"
    refuses(lambda: runner.run(None, out), "run(): exp=None", "an Experiment")
    refuses(lambda: runner.run(runner.experiment("differenzler", "random", rounds=8), out, resum=True), "'resum'")
    assert not out.exists()
    outcome = runner.run(runner.experiment("differenzler", "random", rounds=8, seed=1), out, progress=False)
    assert outcome.computed == 1


# --- 5. a bot's exit and its prints -------------------------------------------------------------------------------

TALKING = '''
class Talking:
    def predict(self, obs):
        print("predicting 40")
        return 40

    def play(self, obs):
        print("playing", obs.legal[0])
        return obs.legal[0]


class Exiting:
    def predict(self, obs):
        import sys
        sys.exit(3)

    def play(self, obs):
        return obs.legal[0]


class Interrupted:
    def predict(self, obs):
        raise KeyboardInterrupt

    def play(self, obs):
        return obs.legal[0]
'''


@pytest.fixture
def bot_file(tmp_path) -> Path:
    """The bots above in a file of this test's own (its text differs: cardsim loads each text once per process)."""
    path = tmp_path / "talking.py"
    path.write_text(f"# {tmp_path}\n{TALKING}")
    return path


def test_a_bot_calling_sys_exit_is_the_bots_error(bot_file):
    refused(["simulate", "differenzler", "--bots", f"{bot_file}:Exiting,random,random,random", "--rounds", "2",
             "--no-progress"], "bot '", "Exiting' (seat 0)", "raised SystemExit: 3")
    with pytest.raises(KeyboardInterrupt):  # Ctrl-C is no bot error: it stops the run
        cardsim.simulate("differenzler", f"{bot_file}:Interrupted,random,random,random", rounds=1, progress=False)


def test_a_bots_prints_go_to_stderr_and_leave_the_json_intact(bot_file):
    bot_file.write_text(f'print("loading the talking bot")\n{bot_file.read_text()}')  # a print as it loads, too
    code, out, err = run_cli(["simulate", "differenzler", "--bots", f"{bot_file}:Talking,random,random,random",
                              "--rounds", "2", "--json", "--no-progress"])  # fmt: skip
    assert code == 0, err
    assert json.loads(out)["rounds"] == 2
    assert "loading the talking bot" in err and "predicting 40" in err and "playing" in err


# --- 6. messages that misled --------------------------------------------------------------------------------------


def test_an_out_file_under_a_file_says_that_it_is_a_file(tmp_path):
    (tmp_path / "my_bots.py").write_text("")
    refused(["simulate", "differenzler", "--rounds", "10", "--out", str(tmp_path / "my_bots.py" / "x.parquet")],
            "my_bots.py is a file")


def test_players_given_as_text_is_named_as_such():
    message = refuses(lambda: cardsim.simulate("differenzler", "random", rounds=10, players="4"),
                      "players='4' is a str", "an int or None")
    assert "not 4" not in message


def test_rules_as_one_string_are_refused_with_the_forms_allowed():
    for call in (lambda: cardsim.simulate("differenzler", "random", rounds=10, rules="exact_bonus=3"),
                 lambda: get_game("differenzler").make_rules("exact_bonus=3")):  # fmt: skip
        message = refuses(call, "='exact_bonus=3' is a str", "a list of 'name=value' strings")
        assert "rule 'e'" not in message


def test_a_ladder_names_the_bot_given_twice():
    refused(["ladder", "differenzler", "--bots", "random,heuristic,random", "--deals", "4"], "two or more different",
            "random is given twice")


def test_a_wrong_wizard_trump_lists_the_trumps_allowed():
    refused(["advise", "wizard", "--hand", HAND, "--trump", "X", "--seat", "1", "--samples", "10"], "'X'",
            "a suit S, H, D or C, N for no trump")


def test_a_bare_games_plays_as_many_games_as_its_help_says():
    code, out, _ = run_cli(["simulate", "--help"])
    assert code == 0
    help_text = " ".join(out.split())
    said = re.search(r"bare --games plays --rounds N whole games, or ([\d,]+) without --rounds", help_text)
    assert said, help_text
    code, out, err = run_cli(["simulate", "differenzler", "--games", "--no-progress"])
    assert code == 0, err
    played = re.search(r"^differenzler  ([\d,]+) games", out, re.M)
    assert played and played.group(1).replace(",", "") == said.group(1).replace(",", ""), out


# --- 7. what the ladder and the timing lines print ----------------------------------------------------------------


def test_the_ladders_help_says_its_bots_are_a_list_to_rate():
    code, out, _ = run_cli(["ladder", "--help"])
    text = " ".join(out.split())
    bots = text[text.rindex("--bots BOTS"):]  # its entry, after the usage line
    assert code == 0 and "the bots to rate" in bots[:300] and "one bot per seat" not in bots[:300], bots[:300]


def test_the_timing_line_gives_the_rate_of_the_seconds_it_prints(monkeypatch):
    """Twelve seconds in all, ten of them compiling: the line says 2 s and 500 rounds/s, and what it left out."""
    clock = iter([100.0, 112.0])
    spent = iter([Spent(0.0, 0.0), Spent(10.0, 0.0)])
    monkeypatch.setattr(cli, "time", SimpleNamespace(perf_counter=lambda: next(clock)))
    monkeypatch.setattr(cli, "spent", lambda: next(spent))
    code, out, err = run_cli(["simulate", "differenzler", "--rounds", "1000", "--no-progress"])
    assert code == 0, err
    line = out.splitlines()[1]
    assert line.startswith("2.00 s, 500 rounds/s (compile 10.0 s not counted)"), line
