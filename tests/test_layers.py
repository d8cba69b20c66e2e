"""One-way dependencies (issue 12): rules <- state <- bots <- drivers <- Game <- advice, experiments, CLI, adapters.

Every ``import`` in ``cardsim/`` and ``bots/`` counts, function-local ones included (they only hide a cycle). The
test fails on any import cycle and on any import of a higher layer from a lower one.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Layers from the bottom; a module may import only its own layer or lower ones. Unlisted modules are checked for
# cycles only.
LAYERS = [
    ("base", ["bots", "cardsim.games.*", "cardsim.games.*.info", "cardsim.errors", "cardsim.cards", "cardsim.arrays",
              "cardsim.rng", "cardsim.decisions", "cardsim.options", "cardsim.deal", "cardsim.jit",
              "cardsim.jit.kernel_cache", "cardsim.jit.threading_layer", "cardsim.search", "cardsim.infoset",
              "cardsim.protocol", "cardsim.lineup", "cardsim.outputs", "cardsim.audit", "cardsim.jit.inlining",
              "cardsim.jit.compiler_flags", "cardsim.jit.cpu", "cardsim.jit.entry", "cardsim.numba_bots",
              "cardsim.validation", "cardsim.sealed", "cardsim.sealed.host", "cardsim.sealed.process",
              "cardsim.encoding"]),
    ("rules", ["cardsim.games.*.rules"]),
    ("state", ["cardsim.games.*.state", "cardsim.games.*.encoding"]),
    ("bots", ["bots.*"]),
    ("drivers", ["cardsim.games.*.play", "cardsim.driver"]),
    ("game", ["cardsim.games", "cardsim.front", "cardsim.front.*", "cardsim.games.*.game", "cardsim.games.*.front",
              "cardsim.results", "cardsim.rows"]),
    ("tools", ["cardsim.games.*.advise", "cardsim.loading", "cardsim.round", "cardsim.engine", "cardsim.runner",
               "cardsim.tournament", "cardsim.analysis", "cardsim.plots", "cardsim.report", "cardsim.advise",
               "cardsim.cli", "cardsim.jit.precompile", "cardsim.jit.compiling", "cardsim.rating",
               "cardsim.sealed.match", "cardsim.envs", "cardsim.envs.*", "cardsim.play", "cardsim.play.*", "cardsim"]),
]  # fmt: skip


def modules() -> dict[str, Path]:
    found = {}
    for path in sorted([*(ROOT / "cardsim").rglob("*.py"), *(ROOT / "bots").glob("*.py")]):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The project modules ``name`` imports anywhere in its file (``from x import y`` counts x.y if a module).
    cardsim uses absolute imports only (a relative one fails here)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path}: relative import"
            base = node.module
            targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        out |= {t for t in targets if t in known and t != name}
    return out


def layer_of(name: str) -> int | None:
    for level, (_, patterns) in enumerate(LAYERS):
        for pattern in patterns:
            head, _, tail = pattern.partition("*")
            if name == pattern or (tail is not None and "*" in pattern and name.startswith(head)
                                   and name.endswith(tail) and "." not in name[len(head): len(name) - len(tail)]):
                return level
    return None


def graph() -> dict[str, set[str]]:
    found = modules()
    return {name: imports_of(name, path, set(found)) for name, path in found.items()}


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_no_import_cycle():
    edges = graph()
    # a package's __init__ importing its own submodules is not a cycle of the layers
    edges = {m: {t for t in ts if not t.startswith(m + ".")} for m, ts in edges.items()}
    assert find_cycle(edges) is None, " -> ".join(find_cycle(edges))


def test_every_import_goes_down_the_layers():
    wrong = []
    for name, targets in graph().items():
        mine = layer_of(name)
        for target in targets:
            theirs = layer_of(target)
            if mine is not None and theirs is not None and theirs > mine and not target.startswith(name + "."):
                wrong.append(f"{name} ({LAYERS[mine][0]}) imports {target} ({LAYERS[theirs][0]})")
    assert not wrong, "\n".join(wrong)


def test_every_module_has_a_layer():
    assert [name for name in modules() if layer_of(name) is None] == []


def test_the_checker_sees_a_cycle_and_a_wrong_import():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    family = "cardsim.games.exact_tricks"  # a family's modules take their layers as a game's do
    assert layer_of(f"{family}.rules") < layer_of(f"{family}.state") < layer_of("bots.exact_tricks")
    assert layer_of("bots.exact_tricks") < layer_of(f"{family}.play") < layer_of("cardsim.games.wizard.game")
