"""Shared helpers of the contract test every game passes (tests/test_contract.py): per game, how a replay record
is checked against the plain-Python references, how a round is started from its record, and which cards a seat
cannot see (to re-deal them in the honesty test)."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest
import reference_callpartner as ref_c
import reference_differenzler as ref_d
import reference_wizard as ref_w

from cardsim.games import GAMES
from cardsim.lineup import is_cheating

# Strong bots at small settings: every decision legal, quickly.
STRONG_BOTS = {  # every strong bot, cheating ones included (their decisions must be legal too)
    "differenzler": ["mc:samples=2:bid_samples=2", "ismcts:iterations=8:bid_samples=2", "omniscient:iterations=8",
                     "mc_v1:samples=2:bid_samples=2", "ismcts_v1:iterations=8:bid_samples=2"],
    "wizard": ["mc:samples=2:bid_samples=2", "ismcts:iterations=8:bid_samples=2", "omniscient:iterations=8",
               "mc_v1:samples=2:bid_samples=2", "ismcts_v1:iterations=8:bid_samples=2"],
    "callpartner": ["mc:samples=2:bid_samples=2:contract_samples=2",
                    "ismcts:iterations=8:bid_samples=2:contract_samples=2", "omniscient:iterations=8:bid_samples=2",
                    "mc_v1:samples=2:bid_samples=2:contract_samples=2",
                    "ismcts_v1:iterations=8:bid_samples=2:contract_samples=2"],
}
HONEST_STRONG_BOTS = {game: [b for b in bots if not is_cheating(b)] for game, bots in STRONG_BOTS.items()}
ROOT = Path(__file__).resolve().parent.parent


def load_script(path: str) -> ModuleType:
    """The script ``path`` (from the repository root, e.g. ``experiments/calibrate_wizard_bids.py``) as a module,
    loaded once per process under its file name (its njit kernels then compile once)."""
    name = Path(path).stem
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def check_scores(record: dict) -> None:
    """The record's trick winners, points and scores are those of the plain-Python reference of its rules."""
    game, tricks = record["game"], record["tricks"]
    if game == "differenzler":
        points = [0] * 4
        for t, trick in enumerate(tricks):
            winner = (trick["leader"] + ref_d.trick_winner(trick["cards"], record["trump"])) % 4
            assert winner == trick["winner"]
            assert trick["points"] == ref_d.trick_points(trick["cards"], record["trump"], t == 8)
            points[winner] += trick["points"]
        assert points == record["points"] and sum(points) == 157 and len(tricks) == 9
        bonus = record["rules"]["exact_bonus"]
        assert record["penalties"] == [-bonus if p == q and p > 0 else abs(p - q)
                                       for p, q in zip(record["predictions"], points, strict=True)]  # fmt: skip
    elif game == "wizard":
        players, won = record["players"], [0] * record["players"]
        for trick in tricks:
            winner = (trick["leader"] + ref_w.trick_winner(trick["cards"], record["trump"])) % players
            assert winner == trick["winner"]
            won[winner] += 1
        assert won == record["tricks_won"] and len(tricks) == record["cards"]
        assert record["scores"] == [ref_w.score(b, t) for b, t in zip(record["bids"], won, strict=True)]
    else:
        players, points = record["players"], [0] * record["players"]
        if record["declarer"] is None or record["declarer"] < 0:
            assert record["scores"] == [0] * players and tricks == []
            return
        for trick in tricks:
            winner = (trick["leader"] + ref_c.trick_winner(trick["cards"], record["trump"])) % players
            assert winner == trick["winner"]
            assert trick["points"] == ref_c.points(trick["cards"])
            points[winner] += trick["points"]
        partner = record["partner"] if record["partner"] is not None and record["partner"] >= 0 else None
        discarded = ref_c.points(record["discards"])
        side, made, scores = ref_c.scores(players, record["declarer"], partner, record["bid"], points, discarded,
                                          record["rules"]["discards_count"])  # fmt: skip
        assert (points, side, made, scores) == (record["points"], record["side_points"], record["made"],
                                                record["scores"])  # fmt: skip


def start_of(record: dict) -> dict:
    """``new_round`` keywords that start the round of ``record`` from its cards."""
    hands = [" ".join(h) for h in record["hands"]]
    if record["game"] == "differenzler":
        return {"hands": hands, "dealer": record["dealer"], "trump_card": record["trump_card"]}
    if record["game"] == "wizard":
        return {"hands": hands, "dealer": record["dealer"], "turned": record["turned_card"],
                "players": record["players"]}  # fmt: skip
    return {"hands": hands, "dealer": record["dealer"], "kitty": " ".join(record["kitty"]),
            "players": record["players"]}  # fmt: skip


def redeal_hidden(record: dict, seat: int, played: list[set[str]], sees_kitty: bool, rng: random.Random) -> dict:
    """``start_of(record)`` with the cards ``seat`` cannot see dealt anew among the places they may be: the other
    seats' cards not yet put out (``played[s]``: the cards seat s has played or discarded so far stay where they
    were dealt, a call-partner declarer's from the kitty in the kitty), Wizard's undealt cards and call-partner's
    kitty (unless ``sees_kitty``). The shown card stays where it is."""
    start = start_of(record)
    hands = [set(h) for h in record["hands"]]
    kitty = set(record.get("kitty") or ())
    fixed = [set(h) if s == seat else set(played[s]) & h for s, h in enumerate(hands)]
    fixed_kitty = kitty if sees_kitty else kitty & set().union(*played)
    if record["game"] == "differenzler":
        fixed[record["dealer"]].add(record["trump_card"])
    pools = [h - f for h, f in zip(hands, fixed, strict=True)]
    extra: set[str] = kitty - fixed_kitty
    if record["game"] == "wizard":
        extra = {ref_w.name(c) for c in range(60)} - set().union(*hands) - {record["turned_card"]}
    hidden = sorted(set().union(*pools) | extra)
    rng.shuffle(hidden)
    for s, pool in enumerate(pools):
        fixed[s] |= {hidden.pop() for _ in range(len(pool))}
    start["hands"] = [" ".join(sorted(h)) for h in fixed]
    if record["game"] == "callpartner":
        start["kitty"] = " ".join(sorted(fixed_kitty | set(hidden)))
    return start


GAME_NAMES = tuple(GAMES)  # the registry: a new game gets its own xdist group without an edit here


def group_of(nodeid: str) -> str:
    """The group a test runs in under pytest-xdist: its game when its file is named after the game or its first
    parameter is the game (``tests/test_contract.py::test_x[wizard-default]``), else its file."""
    path, _, name = nodeid.partition("::")
    stem = path.rsplit("/", 1)[-1].removesuffix(".py")
    first = name.partition("[")[2].split("-", 1)[0].removesuffix("]")
    return next((g for g in GAME_NAMES if g in stem), first if first in GAME_NAMES else stem)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object | None:
    """``make test`` runs ``-n auto``: all tests of one game run in one worker, so that each worker compiles only
    its games' kernels (compiling is most of a cold suite's time), the largest groups first. xdist's own
    ``--dist loadgroup`` cannot do it under pytest 9.2: its group marks no longer reach the scheduler
    (pytest-dev/pytest-xdist#1386), so the tests were spread one by one and both workers compiled every game."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ByGame(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return group_of(nodeid)

    return ByGame(config, log)
