"""No input crashes or fools cardsim (issue 40): a round from outside (``Round.from_json``, ``new_round(hands=...)``)
is checked before any compiled kernel sees it, and refused with one ``CardsimError`` naming the first thing wrong
and what is allowed; any valid round loads, whether ``to_json`` wrote it or not; a ``Round`` pickles.

The compiled kernels index arrays with a state's values unchecked: before this, a tampered count of predictions ended
the process with a segmentation fault, and tampered hands, trumps and histories were played out. The hypothesis
property over mutated JSON of every game runs in a subprocess (``tests/fuzz_state_json.py``), so that a crash fails
that test and not the whole suite.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle
import random
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import cases, check_scores, start_of

from cardsim import CardsimError, Round, new_game, new_round
from cardsim.games import GAMES, get_game

ROOT = Path(__file__).resolve().parent.parent
# Per game (its tests/cases_<game>.py): the slot of the trump suit, of the count of tricks (or cards) played, the
# array of cards played, the seeded bits and the key.
FIELDS = {game: cases(game).STATE_FIELDS for game in GAMES}
TRUMP, PLAYED, HISTORY, SEEDED, KEY = ({game: FIELDS[game][name] for game in GAMES}
                                       for name in ("trump", "played", "history", "seeded", "key"))  # fmt: skip
EXAMPLES = 8000  # about 3 ms each (25-30 s on one core, most of them refused)


def played(game: str, steps: int, seed: int = 7, index: int = 12, rules: list[str] | None = None) -> Round:
    """Round ``index`` of ``seed`` after ``steps`` decisions of heuristic bots (call-partner's highest bid first, so
    that the round has tricks)."""
    r = new_round(game, seed=seed, round=index, rules=rules)
    for _ in range(steps):
        if r.done:
            break
        r.play(r.legal()[-1] if r.decision == "auction" and game == "callpartner" else r.bot_action("heuristic"))
    return r


def json_of(game: str, steps: int = 10, **kwargs) -> dict:
    return played(game, steps, **kwargs).to_json()


def refused(data: dict, match: str) -> None:
    with pytest.raises(CardsimError, match=match):
        Round.from_json(data)


def play_out(r: Round) -> None:
    """Play ``r`` to its end with the heuristic bots, its invariants checked after every step; its record is
    scored by the plain-Python reference."""
    while not r.done:
        r.play(r.bot_action("heuristic"))
        r.game.check_state(r.rules, r.state)
    check_scores(r.record())


# --- the attacks of the issue, each refused ------------------------------------------------------------------------


def test_a_negative_count_of_predictions_is_refused_naming_the_slot_and_what_is_allowed():
    """The user's crash: loaded, the first heuristic decision ended the process with a segmentation fault."""
    data = new_round("differenzler", seed=7, round=12).to_json()
    data["state"]["slots"]["data"][11] = -7
    refused(data, r"^not a cardsim round: state.slots\[11\] \(PREDICTED\) is -7; allowed 0 to 4$")


def test_a_huge_count_of_wizard_cards_played_is_refused_before_the_games_own_check_reads_it():
    data = json_of("wizard", 9)
    data["state"]["slots"]["data"][PLAYED["wizard"]] = 10**9
    refused(data, r"state.slots\[15\] \(N_PLAYED\) is 1000000000; allowed 0 to 60")


@pytest.mark.parametrize("game", GAMES)
def test_every_seat_holding_the_same_hand_is_refused(game):
    data = json_of(game, 0)
    for field in ("hands", "dealt"):
        cells = data["state"][field]["data"]
        cells[:] = [cells[0]] * len(cells)
    refused(data, r"dealt twice")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("steps", [0, 9])
def test_a_trump_of_minus_7_is_refused(game, steps):
    data = json_of(game, steps)
    data["state"]["slots"]["data"][TRUMP[game]] = -7
    refused(data, r"TRUMP\w*\) is -7")


@pytest.mark.parametrize("game", GAMES)
def test_a_history_of_minus_99999_is_refused(game):
    data = json_of(game, 14)
    cells = data["state"][HISTORY[game]]["data"]
    cells[:] = [-99999] * len(cells)
    refused(data, r"is -99999; allowed")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("junk", [3.0, 2.5, True, "3", None, [3], {"x": 3}])
def test_a_value_of_another_type_where_an_int_belongs_is_refused(game, junk):
    data = json_of(game, 5)
    data["state"]["slots"]["data"][2] = junk
    refused(data, r"state.slots\[2\] \(\w+\) is .*; the arrays hold integers")


@pytest.mark.parametrize("game", GAMES)
def test_a_huge_trick_counter_is_refused(game):
    data = json_of(game, 14)
    data["state"]["slots"]["data"][PLAYED[game]] = 2**62
    refused(data, rf"state.slots\[{PLAYED[game]}\] \(\w+\) is {2**62}; allowed 0 to")


def test_a_str_is_refused_with_what_to_do():
    text = json.dumps(new_round("wizard").to_json())
    with pytest.raises(CardsimError, match=r"^Round.from_json takes the dict that to_json returned \(json.loads it "
                                           r"first\), not a str$"):  # fmt: skip
        Round.from_json(text)


@pytest.mark.parametrize("game", GAMES)
def test_every_level_of_the_json_refuses_missing_extra_and_wrongly_typed_keys(game):
    good = json_of(game, 6)
    first = next(iter(good["rules"]))
    number = next(name for name, value in good["rules"].items() if type(value) is int)
    edits = {
        "no game": lambda d: d.pop("game"), "an extra key": lambda d: d.update(extra=1),
        "game 7": lambda d: d.update(game=7), "rules a list": lambda d: d.update(rules=[]),
        "a rule missing": lambda d: d["rules"].pop(first), "an extra rule": lambda d: d["rules"].update(extra=1),
        "a rule in a list": lambda d: d["rules"].update({first: [d["rules"][first]]}),
        "a number rule as text": lambda d: d["rules"].update({number: str(d["rules"][number])}),
        "a number rule as a float": lambda d: d["rules"].update({number: float(d["rules"][number])}),
        "seed True": lambda d: d.update(seed=True), "seed a float": lambda d: d.update(seed=7.0),
        "seed 2**64": lambda d: d.update(seed=2**64), "seed a str": lambda d: d.update(seed="7"),
        "unit -1": lambda d: d.update(unit=-1), "unit None": lambda d: d.update(unit=None),
        "sub 1 of a single round": lambda d: d.update(sub=1), "game_no not the unit": lambda d: d.update(game_no=3),
        "game_no a str": lambda d: d.update(game_no="12"), "state a list": lambda d: d.update(state=[]),
        "an array missing": lambda d: d["state"].pop("hands"), "an extra array": lambda d: d["state"].update(x={}),
        "an array a list": lambda d: d["state"].update(hands=d["state"]["hands"]["data"]),
        "no dtype": lambda d: d["state"]["hands"].pop("dtype"),
        "an extra array key": lambda d: d["state"]["hands"].update(order="C"),
        "another dtype": lambda d: d["state"]["hands"].update(dtype="int64"),
        "another shape": lambda d: d["state"]["history" if game == "differenzler" else "log"].update(shape=[6, 9]),
        "a shape of floats": lambda d: d["state"]["hands"].update(shape=[float(len(d["state"]["hands"]["data"]))]),
        "nested data": lambda d: d["state"]["rng"].update(data=np.reshape(d["state"]["rng"]["data"], (-1, 4)).tolist()),
        "data too short": lambda d: d["state"]["slots"]["data"].pop(),
        "data too long": lambda d: d["state"]["slots"]["data"].append(0),
        "data a str": lambda d: d["state"]["slots"].update(data="0 0 0"),
        "a uint64 below 0": lambda d: d["state"]["rng"]["data"].__setitem__(0, -1),
        "a uint64 above 2**64": lambda d: d["state"]["rng"]["data"].__setitem__(0, 2**64),
        "an int64 above 2**63": lambda d: d["state"]["slots"]["data"].__setitem__(0, 2**63),
    }  # fmt: skip
    for what, edit in edits.items():
        data = copy.deepcopy(good)
        edit(data)
        with pytest.raises(CardsimError, match="^not a cardsim round: ") as info:
            Round.from_json(data)
        assert "allowed" in str(info.value) or "has" in str(info.value) or "hold" in str(info.value), (what, info.value)


def test_a_round_of_a_game_is_checked_against_its_place_in_the_game():
    match = new_game("wizard", seed=3, game_no=2, rules={"schedule": "five_rounds"})
    for _ in range(2):
        while not match.round.done:
            match.round.play(match.round.bot_action("heuristic"))
        match.next_round()
    data = match.round.to_json()
    assert Round.from_json(data).to_json() == data  # a round of a game with a trump the schedule fixes (B10) loads
    beyond = copy.deepcopy(data) | {"sub": 5}
    refused(beyond, r"sub 5 is not allowed: a wizard game under these rules has rounds 0 to 4")
    single = copy.deepcopy(data) | {"game_no": None, "sub": 0}  # the trump a single round turns is another
    refused(single, r"TRUMP_SUIT")
    hands = new_round("wizard", hands=["S1 S2", "H1 H2", "D1 D2", "C1 C2"], dealer=0).to_json()
    refused(hands | {"game_no": 0, "sub": 3}, r"state.slots\[4\] \(CARDS\) is 2; round 3 of a wizard game under these "
                                              r"rules deals 4")  # fmt: skip


# --- free cells: the streams, the round's key, the seeded bits ------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_an_all_zero_stream_is_refused_for_it_would_draw_zero_for_ever(game):
    data = json_of(game, 3)
    data["state"]["rng"]["data"][4:8] = [0, 0, 0, 0]
    refused(data, r"state.rng\[1\] is all zeros")


@pytest.mark.parametrize("game", GAMES)
def test_seeded_bits_are_the_seats_whose_private_stream_is_seeded(game):
    data = json_of(game, 3)
    seats = len(data["state"]["hands"]["data"])
    outside = copy.deepcopy(data)
    outside["state"]["slots"]["data"][SEEDED[game]] = 1 << seats
    refused(outside, rf"\(\w*SEEDED\) is {1 << seats}; allowed bits of the seats, 0 to {2**seats - 1}")
    unseeded = copy.deepcopy(data)
    unseeded["state"]["slots"]["data"][SEEDED[game]] = 2
    refused(unseeded, r"seat 1's private stream is seeded .*, but state.bot_rng\[1\] is all zeros")
    seeded = copy.deepcopy(unseeded)
    seeded["state"]["bot_rng"]["data"][4:8] = [1, 2, 3, 4]
    assert Round.from_json(seeded).to_json() == seeded


# --- valid rounds that to_json never wrote load --------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_another_non_zero_stream_loads_and_plays_on(game):
    data = json_of(game, 4)
    data["state"]["rng"]["data"][4:8] = [5, 6, 7, 8]
    data["state"]["slots"]["data"][KEY[game]] = -3  # the round's key is free too: the private streams' only
    r = Round.from_json(data)
    assert r.to_json() == data
    play_out(r)


@pytest.mark.parametrize("game", GAMES)
def test_a_round_started_from_given_hands_loads_at_every_step(game):
    record = played(game, 200, seed=2, index=5).record()
    r = new_round(game, **start_of(record))
    rng = random.Random(3)
    while True:
        data = r.to_json()
        assert Round.from_json(data).to_json() == data
        if r.done:
            break
        r.play(rng.choice(r.legal()))
    check_scores(r.record())


@pytest.mark.parametrize("game", GAMES)
def test_a_hand_edited_legal_position_loads(game):
    """Two unplayed cards of two seats swapped in their hands as held and as dealt, before any card is played."""
    r = played(game, 2, seed=1, index=4)
    data = r.to_json()
    hands, dealt = data["state"]["hands"]["data"], data["state"]["dealt"]["data"]
    shown = {r.game.deck.parse(c) for c in (r.record().get("trump_card"), r.record().get("turned_card")) if c}
    a, b = 1, 2
    card_a = next(c for c in range(64) if hands[a] >> c & 1 and c not in shown)
    card_b = next(c for c in range(64) if hands[b] >> c & 1 and c not in shown)
    for cells in (hands, dealt):
        cells[a] ^= 1 << card_a | 1 << card_b
        cells[b] ^= 1 << card_a | 1 << card_b
    loaded = Round.from_json(data)
    assert loaded.to_json() == data
    assert loaded.record()["hands"][a] != r.record()["hands"][a]
    play_out(loaded)


@pytest.mark.parametrize("game", GAMES)
def test_a_rounds_course_replays_it_through_new_round_and_play(game):
    """``Game.course``, the deal and the actions in order, is the public ``new_round(hands=...)`` and ``play``'s:
    a finished round replays from it to the same record (the cards and every decision)."""
    for index in range(3):
        r = played(game, 300, seed=6, index=index)
        course = r.game.course(r.rules, r.state)
        again = new_round(game, rules=dataclasses.asdict(r.rules), **course.start)
        for action in course.actions:
            again.play(action)
        assert {**again.record(), "seed": 6, "round": index} == r.record()


@pytest.mark.parametrize("game", GAMES)
def test_the_slot_names_are_the_state_modules(game):
    g = get_game(game)
    assert len(g.slot_names) == g.state_module.SLOTS
    assert [getattr(g.state_module, name) for name in g.slot_names] == list(range(g.state_module.SLOTS))
    assert set(g.free_slots) <= set(g.slot_names) and set(g.free_slots.values()) <= {"key", "seeded", "cards"}


# --- new_round from given hands: every input checked, and no silent conflict ---------------------------------------


def test_hands_with_a_seed_round_or_game_no_is_a_conflict_named_both_ways():
    record = played("differenzler", 0).record()
    for given in ({"seed": 5, "round": 9}, {"seed": 0}, {"round": 0}, {"game_no": 1}):
        with pytest.raises(CardsimError, match=r"hands=\.\.\. starts the round from given hands; .* give one or the "
                                               r"other"):  # fmt: skip
            new_round("differenzler", **start_of(record), **given)
    assert new_round("differenzler").to_json() == new_round("differenzler", seed=0, round=0).to_json()


@pytest.mark.parametrize("game", GAMES)
def test_every_input_of_a_round_from_given_hands_is_checked(game):
    record = played(game, 0, seed=4, index=1).record()
    good = start_of(record)
    shown = cases(game).SHOWN_KEYWORD
    hands = good["hands"]
    wrong = [
        {"hands": "SA SK"}, {"hands": hands[:-1]}, {"hands": [*hands[:-1], 7]},
        {"hands": [*hands[:-1], hands[-1].split()[:-1] + ["XX"]]},
        {"hands": [hands[0], hands[0], *hands[2:]]}, {"hands": [hands[0] + " " + hands[0].split()[0], *hands[1:]]},
        {"dealer": True}, {"dealer": 1.0}, {"dealer": None}, {"dealer": -1}, {"dealer": len(hands)},
        {shown: True}, {shown: 3.5}, {shown: "XX"}, {shown: [1, 2]}, {"other": 1},
    ]  # fmt: skip
    if not cases(game).SHOWN_MAY_BE_NONE:
        wrong.append({shown: None})
    for change in wrong:
        with pytest.raises(CardsimError):
            new_round(game, **good | change)
    r = new_round(game, **good)
    assert r.to_json()["state"]["dealt"] == Round.from_json(r.to_json()).to_json()["state"]["dealt"]


# --- pickle -----------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_a_round_pickles_and_plays_on_identically_with_its_python_bots_generators(game):
    r = played(game, 5, seed=9, index=2)
    seats = get_game(game).seats(r.rules)
    for seat in range(seats):
        r.observation(seat).rng.random()  # a Python bot's generator, drawn from
    again = pickle.loads(pickle.dumps(r))
    assert again.game is r.game and again.rules == r.rules and again.to_json() == r.to_json()
    assert pickle.loads(pickle.dumps(new_game(game, seed=1))).round.to_json() == new_game(game, seed=1).round.to_json()
    draws: dict[int, list[float]] = {}
    for other in (r, again):
        draws[id(other)] = []
        while not other.done:
            draws[id(other)].append(other.observation(other.to_move).rng.random())
            other.play(other.bot_action("heuristic"))
    assert again.record() == r.record() and draws[id(again)] == draws[id(r)]


# --- the property over mutated JSON, in a process of its own -------------------------------------------------------


@pytest.mark.slow
def test_mutated_json_of_every_game_is_refused_or_loads_and_plays_to_a_correct_end():
    """``tests/fuzz_state_json.py``: hypothesis mutates valid rounds' JSON at random points of random rounds of every
    game and rule variant; each is refused with ``CardsimError`` or plays to its end with its invariants and the
    plain-Python reference's scores. A crash (a segmentation fault) fails here, not the suite."""
    done = subprocess.run([sys.executable, "tests/fuzz_state_json.py", "--examples", str(EXAMPLES)], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)  # fmt: skip
    told = "\n".join(line for line in done.stderr.splitlines() if not re.fullmatch(r"[\s|]*[-\d_,\[\]]*", line))
    assert done.returncode == 0, (done.returncode, done.stdout[-2000:], told[-6000:])  # the data's number lines cut
    summary = done.stdout.strip().splitlines()[-1]
    assert summary.startswith(f"fuzz_state_json: {EXAMPLES} examples,"), done.stdout[-3000:]
    tried, loaded, refused_ = (int(summary.split(word)[0].split()[-1]) for word in ("mutated", "loaded", "refused"))
    assert tried == loaded + refused_ and refused_ > tried // 2 and loaded > 0, summary
