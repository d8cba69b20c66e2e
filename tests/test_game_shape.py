"""The shape of a game (issue 12): every game's state machine has the same names, and compiled functions take
named bundles rather than long argument lists (a misplaced argument of the same dtype compiles fine).

Both are read from the sources (``ast``), so they hold for code no test happens to run.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from cardsim.games import GAMES, get_game

ROOT = Path(__file__).resolve().parent.parent

# What every driver, bot and tool may call in any game's state machine (docs/DESIGN.md): its
# cardsim/games/<game>/state.py, or its family's (Wizard: cardsim/games/exact_tricks/state.py).
STATE_API = ("params", "new_state", "deal", "start", "to_move", "decision", "legal_cards", "legal_actions", "apply",
             "check", "scores", "copy_state", "observe", "bot_stream", "audit_deal", "audit_card")  # fmt: skip
MAX_ARGUMENTS = 9  # "about 8": a compiled function that takes more bundles them (NamedTuples, the State, Params)
# Allowed more, each for a measured reason.
WIDER = {
    # The register-level trick loop takes the State's arrays one by one: passing the State bundle into a loop
    # without reference counts costs a count per array and call (docs/DESIGN.md, fast loops).
    "bots/callpartner.py:play_tricks": 10,
    # The strong entry takes its tools one argument each (numba's first-class functions take no tuple of
    # functions): the searches called through their addresses, not linked into it (about 2.5 s of a cold compile).
    "bots/callpartner_strong.py:act": 11,
}


def compiled_functions(root: Path = ROOT) -> dict[str, tuple[int, bool]]:
    """``path:name`` -> (number of parameters, inlined) of every numba-compiled function in cardsim/ and bots/."""
    found = {}
    for path in sorted([*(root / "cardsim").rglob("*.py"), *(root / "bots").glob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.FunctionDef):
                continue
            jit = [ast.unparse(d) for d in node.decorator_list if "jit" in ast.unparse(d)]
            if jit:
                inlined = any("inline='always'" in d for d in jit)
                count = len(node.args.posonlyargs) + len(node.args.args) + len(node.args.kwonlyargs)
                found[f"{path.relative_to(root)}:{node.name}"] = (count, inlined)
    return found


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_state_module_has_the_same_names(game):
    path = Path(get_game(game).state_module.__file__)  # the front's state machine, where it lies
    assert path.name == "state.py" and path.parent.parent == ROOT / "cardsim" / "games"
    tree = ast.parse(path.read_text())
    defined = {node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    assert not set(STATE_API) - defined, f"{path.relative_to(ROOT)} lacks {sorted(set(STATE_API) - defined)}"
    assert {"State", "Params"} <= defined


def test_no_compiled_function_takes_a_long_argument_list():
    """Inlined helpers count too when another function calls them; they are held to the same limit except the
    per-card dispatchers, whose arguments are the trick's registers (listed by the check below)."""
    found = compiled_functions()
    assert len(found) > 200  # the scan sees the kernels
    wide = {name: count for name, (count, inlined) in found.items()
            if not inlined and count > WIDER.get(name, MAX_ARGUMENTS)}  # fmt: skip
    assert not wide, f"compiled functions with more than {MAX_ARGUMENTS} arguments: {wide}"
    assert all(found[name][0] > MAX_ARGUMENTS for name in WIDER), "an allowed exception is no longer needed"


def test_the_scan_counts_arguments(tmp_path):
    """The check above can fail: a compiled function with ten parameters is counted as such."""
    (tmp_path / "cardsim").mkdir()
    (tmp_path / "bots").mkdir()
    source = "from numba import njit\n\n@njit(cache=True)\ndef wide(a, b, c, d, e, f, g, h, i, j):\n    return a\n"
    (tmp_path / "bots" / "x.py").write_text(source)
    assert compiled_functions(tmp_path) == {"bots/x.py:wide": (10, False)}


def test_a_game_class_that_lacks_part_of_the_contract_fails_when_it_is_defined():
    """``Game.__init_subclass__``: a game class missing a required attribute or method fails at its definition,
    naming each one and what it is for; a subclass of a complete game, or one marked abstract, is defined."""
    from cardsim.front import Game, Required

    with pytest.raises(TypeError) as error:

        class Half(Game):
            name = "half"
            deck = Required("still unset")

            def deal(self, rules, seed, unit, sub, dealer, in_game):  # noqa: ANN001, ANN201
                return None

    message = str(error.value)
    assert message.startswith("the game class test_game_shape.") and "<locals>.Half lacks" in message
    lacking = [line.split(":")[0].strip() for line in message.splitlines()[1:]]
    assert lacking == [name for name in Game.requirements() if name not in ("name", "deal")]
    assert "  deck: still unset" in message.splitlines()
    assert "  players: the numbers of players its rules allow" in message.splitlines()
    assert any(line.startswith("  batch: a method: Units ``start .. start+count-1``") for line in message.splitlines())

    class Family(Game, abstract=True):
        pass

    class Again(type(get_game("wizard"))):
        pass

    assert Again().name == "wizard" and Family.requirements() == Game.requirements()


def test_a_game_with_random_pairs_for_single_rounds_has_them_for_games_too():
    """``BatchPart.__init_subclass__``: ``random_block`` without ``random_games_block`` (or the other way) fails
    when the class is defined, not at the first random run of whole games."""
    wizard = type(get_game("wizard"))
    with pytest.raises(TypeError, match="sets one of random_block and random_games_block"):

        class SinglesOnly(wizard):
            random_games_block = None

    class Neither(wizard):  # the generic loops play both
        random_block = random_games_block = None

    assert Neither.random_block is None


def test_every_game_provides_the_whole_contract():
    from cardsim.front.contract import missing

    for game in GAMES:
        assert missing(type(get_game(game))) == {}, game
