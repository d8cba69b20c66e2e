"""Shared helpers of the contract test every game passes (tests/test_contract.py): per game, how a replay record
is checked against the plain-Python references, how a round is started from its record, and which cards a seat
cannot see (to re-deal them in the honesty test). Each game's part is its ``tests/cases_<game>.py``, found by the
registry's name, and its test settings are its ``GameInfo.cases``: a new game adds files, not lines here."""

from __future__ import annotations

import importlib
import importlib.util
import os
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from cardsim import CardsimError, new_round
from cardsim.games import GAMES, game_info, get_game
from cardsim.lineup import is_cheating

# Strong bots at small settings: every decision legal, quickly; every strong bot, cheating ones included (their
# decisions must be legal too).
STRONG_BOTS = {game: list(game_info(game).cases.strong_bots) for game in GAMES}
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


def cases(game: str) -> ModuleType:
    """The game's part of these helpers, ``tests/cases_<game>.py``: ``check_scores``, ``start_of`` and ``SHOWN``
    (the record's fields of shown cards); ``deck_names(record)`` where the rules may shrink the deck."""
    return importlib.import_module(f"cases_{game}")


def check_scores(record: dict) -> None:
    """The record's trick winners, points and scores are those of the plain-Python reference of its rules."""
    cases(record["game"]).check_scores(record)


def start_of(record: dict) -> dict:
    """``new_round`` keywords that start the round of ``record`` from its cards."""
    return cases(record["game"]).start_of(record)


def redeal_hidden(record: dict, seat: int, played: list[set[str]], sees_kitty: bool, rng: random.Random) -> dict:
    """``start_of(record)`` with the cards ``seat`` cannot see dealt anew among the places they may be: the other
    seats' cards not yet put out (``played[s]``: the cards seat s has played or discarded so far stay where they
    were dealt, a call-partner declarer's from the kitty in the kitty), the cards dealt to nobody (Wizard's) and
    the kitty (unless ``sees_kitty``). A shown card stays where it is (``SHOWN``: in its hand, or in none)."""
    start = start_of(record)
    hands = [set(h) for h in record["hands"]]
    kitty = set(record.get("kitty") or ())
    shown = {record[field] for field in cases(record["game"]).SHOWN} - {None}
    fixed = [set(h) if s == seat else set(played[s]) & h | shown & h for s, h in enumerate(hands)]
    fixed_kitty = kitty if sees_kitty else kitty & set().union(*played)
    pools = [h - f for h, f in zip(hands, fixed, strict=True)]
    deck = getattr(cases(record["game"]), "deck_names", lambda _: set(get_game(record["game"]).deck.card_names))
    undealt = deck(record) - set().union(*hands) - kitty - shown
    hidden = sorted(set().union(*pools) | (kitty - fixed_kitty) | undealt)
    rng.shuffle(hidden)
    for s, pool in enumerate(pools):
        fixed[s] |= {hidden.pop() for _ in range(len(pool))}
    start["hands"] = [" ".join(sorted(h)) for h in fixed]
    if "kitty" in start:
        start["kitty"] = " ".join(sorted(fixed_kitty | set(hidden)))
    return start


def redealt_round(game: str, rules: list | None, record: dict, seat: int, played: list[set[str]], sees_kitty: bool,
                  rng: random.Random, actions: list, tries: int = 30) -> object | None:  # fmt: skip
    """The round of ``record`` (``game`` under ``rules``) with the cards ``seat`` cannot see dealt anew
    (``redeal_hidden``) and ``actions`` played again, or None when none of ``tries`` re-deals allows them (each
    contradicted a play: a void shown)."""
    for _ in range(tries):
        other = new_round(game, rules=rules, **redeal_hidden(record, seat, played, sees_kitty, rng))
        try:
            for action in actions:
                other.play(action)
        except CardsimError:
            continue  # this re-deal contradicts a play: not a possible deal
        return other
    return None


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


UNDER_CI = os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def require(*needs: str) -> None:
    """At a test module's top: the Python modules (``starlette``) and programs (``/usr/bin/chromedriver``) its tests
    need. Missing ones skip the module, but under ``CI=true`` fail it: CI must not pass by testing less."""
    missing = [need for need in needs
               if (not Path(need).exists() if need.startswith("/") else importlib.util.find_spec(need) is None)]
    if missing:
        message = (f"missing {', '.join(missing)}: pip install -e '.[dev]' brings the Python packages, apt-get "
                   "install chromium chromium-driver the browser")  # fmt: skip
        if UNDER_CI:
            pytest.fail(message, pytrace=False)
        pytest.skip(message, allow_module_level=True)


def table_variants() -> list[tuple[str, tuple[str, ...]]]:
    """(game, rules) of every game and its test variants (``GameInfo.cases``) as a table plays them: whole games, so
    without the rule that deals single rounds (``GameInfo.cards_rule``)."""
    return [(game, tuple(rule for rule in variant if rule.partition("=")[0] != game_info(game).cards_rule))
            for game in GAMES for variant in ((), *game_info(game).cases.variants)]  # fmt: skip
