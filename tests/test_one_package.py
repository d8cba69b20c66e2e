"""A game is one package (issue 41): no module outside a game's own names it, so adding a game touches no shared code.

Everything true of one game lives in ``cardsim/games/<game>/``: its front (``game.py``) and what shared code says
about it (``info.py``, a ``GameInfo``: titles, labels, compile estimates, lineups and sizes of the studies, its C
reference, its test settings). Shared code reads them through the registry (``cardsim.games``). This test reads
every module of cardsim/, bots/, experiments/, benchmarks/ and the shared test helpers (``ast``) and refuses a
string or an identifier that equals or contains a registered game's name or title (docstrings and comments may
name games: they explain). A game's own modules are its package, its family's (a package of cardsim/games/ that
is no game's: what the games that import it share, e.g. one state machine), and the modules outside cardsim/ named
after either (``bots/<game>_strong.py``, ``experiments/calibrate_<game>_bids.py``, ``bots/<family>.py``);
``ALLOWED`` lists the few shared ones that name games, each with its reason.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from cardsim.games import GAMES, game_info, get_game
from cardsim.jit import kernel_cache

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ("cardsim/**/*.py", "bots/*.py", "experiments/*.py", "benchmarks/*.py", "tests/conftest.py",
           "tests/test_contract.py")  # fmt: skip
ALLOWED = {  # module -> why it may name games
    "cardsim/games/__init__.py": "the registry: one line per game",
    "cardsim/cards.py": "the decks, each named after the game it came with; any game may deal any deck",
    "bots/examples.py": "one example Python bot per game, for users to copy (its docs and the tests run them)",
    "bots/numba_examples.py": "one example numba bot per game, for users to copy (its docs and the tests run them)",
    "benchmarks/sealed_overhead.py": "times the README's Differenzler bot, whose source it quotes",
    "benchmarks/openspiel_speed.py": "times OpenSpiel's own oh_hell loop, the counterpart a GameInfo.openspiel names",
}


def words(names: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    """Per game, the lower-case words that name it: its registry name and its title."""
    return {game: tuple({word.lower() for word in spellings}) for game, spellings in names.items()}


def families(root: Path, games: list[str]) -> dict[str, set[str]]:
    """Each package of cardsim/games/ -> the games it belongs to: a game's package to the game, a family's package
    (one that is no game's, e.g. the state machine several games share) to the games whose packages import it."""
    packages = {path.parent.name for path in (root / "cardsim" / "games").glob("*/__init__.py")}
    imported = {game: {name for path in (root / "cardsim" / "games" / game).glob("*.py")
                       for node in ast.walk(ast.parse(path.read_text()))
                       for name in ([node.module or ""] if isinstance(node, ast.ImportFrom) else
                                    [a.name for a in node.names] if isinstance(node, ast.Import) else [])}
                for game in games}  # fmt: skip
    return {package: {package} if package in games else
            {game for game in games if any(name.startswith(f"cardsim.games.{package}") for name in imported[game])}
            for package in packages}  # fmt: skip


def owners(path: Path, root: Path, belong: dict[str, set[str]]) -> set[str]:
    """The games whose own module ``path`` is: in their package or their family's (``belong``: ``families``), or
    (outside cardsim/) named after the game or its family."""
    parts = path.relative_to(root).parts
    if parts[:2] == ("cardsim", "games") and len(parts) > 3:
        return belong.get(parts[2], set())
    if parts[0] == "cardsim":
        return set()
    return {game for package, mine in belong.items() if package in path.stem for game in mine}


def named(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, text) of every string constant (docstrings left out) and every identifier of ``tree``."""
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}  # fmt: skip
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            texts = [node.value]
        elif isinstance(node, ast.Name):
            texts = [node.id]
        elif isinstance(node, ast.Attribute):
            texts = [node.attr]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            texts = [node.name]
        elif isinstance(node, ast.arg):
            texts = [node.arg]
        elif isinstance(node, ast.keyword) and node.arg:
            texts = [node.arg]
        elif isinstance(node, ast.alias):
            texts = [node.name, node.asname or ""]
        elif isinstance(node, ast.ImportFrom):
            texts = [node.module or ""]
        else:
            continue
        found += [(getattr(node, "lineno", 0), text) for text in texts if text]
    return found


def naming(root: Path, games: dict[str, tuple[str, ...]], patterns: tuple[str, ...] = SCANNED) -> dict[str, list[str]]:
    """Module -> ``line: text (game)`` of each place it names a game that is not its own."""
    spelled, belong = words(games), families(root, list(games))
    out: dict[str, list[str]] = {}
    for path in sorted({p for pattern in patterns for p in root.glob(pattern)}):
        mine = owners(path, root, belong)
        for line, text in sorted(named(ast.parse(path.read_text()))):
            for game, spellings in spelled.items():
                if game not in mine and any(word in text.lower() for word in spellings):
                    out.setdefault(path.relative_to(root).as_posix(), []).append(f"{line}: {text[:70]!r} ({game})")
    return out


REGISTERED = {game: (game, game_info(game).title) for game in GAMES}


def test_no_module_outside_a_games_package_names_the_game():
    found = naming(ROOT, REGISTERED)
    wrong = {path: hits for path, hits in found.items() if path not in ALLOWED}
    listed = "\n".join(f"{path}:{hit}" for path, hits in wrong.items() for hit in hits)
    assert not wrong, f"modules that name a game outside its package (read it from cardsim.games instead):\n{listed}"
    assert set(ALLOWED) <= set(found), f"allowed, but naming no game any more: {sorted(set(ALLOWED) - set(found))}"


def test_the_scan_sees_a_game_named_outside_its_package_and_only_there(tmp_path):
    """The check above can fail: a string or identifier naming a game in shared code is found; its docstrings and
    comments, the game's own modules and those of the family it imports are not."""
    for package in ("chess", "board", "cards"):  # a game, its family, a family of no game
        (tmp_path / "cardsim" / "games" / package).mkdir(parents=True)
        (tmp_path / "cardsim" / "games" / package / "__init__.py").write_text("")
    (tmp_path / "bots").mkdir()
    source = '"""Chess in a docstring."""\n\nSIZES = {"chess": 8}  # chess\n\n\ndef play_chess_now():\n    pass\n'
    for path in ("cardsim/shared.py", "cardsim/games/chess/info.py", "cardsim/games/board/rules.py",
                 "cardsim/games/cards/rules.py", "bots/chess_strong.py", "bots/board.py"):  # fmt: skip
        (tmp_path / path).write_text(source)
    (tmp_path / "cardsim" / "games" / "chess" / "game.py").write_text("from cardsim.games.board import rules\n")
    (tmp_path / "bots" / "other.py").write_text('import cardsim.games.chess.rules\nTITLE = "Royal-Game"\n')
    found = naming(tmp_path, {"chess": ("chess", "royal-game")}, ("cardsim/**/*.py", "bots/*.py"))
    shared = ["3: 'chess' (chess)", "6: 'play_chess_now' (chess)"]
    assert found == {"cardsim/shared.py": shared, "cardsim/games/cards/rules.py": shared,
                     "bots/other.py": ["1: 'cardsim.games.chess.rules' (chess)", "2: 'Royal-Game' (chess)"]}


@pytest.mark.parametrize("game", GAMES)
def test_a_games_info_agrees_with_its_front_and_its_test_cases_exist(game):
    info, front = game_info(game), get_game(game)
    assert info.name == front.name == game and GAMES[game] == f"cardsim.games.{game}"
    assert info.players == front.players and info.default_players == front.seats()
    assert (ROOT / "tests" / f"cases_{game}.py").exists()
    assert info.example_bot is None or f"class {info.example_bot}:" in (ROOT / "bots" / "examples.py").read_text()


@pytest.mark.parametrize("game", GAMES)
def test_a_games_info_loads_nothing_and_no_kernel_depends_on_it(game):
    """``game_info`` reads ``info.py`` alone (the help, the notices and the registry stay fast), which imports only
    ``cardsim.games.info``; and no kernel's source imports it, so editing an estimate or a label recompiles
    nothing (``cardsim.jit.kernel_cache``)."""
    info = ROOT / "cardsim" / "games" / game / "info.py"
    tree = ast.parse(info.read_text())
    imports = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert imports <= {"__future__", "cardsim.games.info"}
    assert not any(isinstance(node, ast.Import) for node in ast.walk(tree))
    assert info not in kernel_cache.kernel_sources()
    script = (f"import sys\nfrom cardsim.games import game_info\ngame_info({game!r})\n"
              f"print(sorted(m for m in sys.modules if m.startswith('cardsim.games.{game}')))")  # fmt: skip
    loaded = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True)
    assert ast.literal_eval(loaded.stdout) == [f"cardsim.games.{game}", f"cardsim.games.{game}.info"]
