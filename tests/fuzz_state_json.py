"""A hypothesis property over tampered rounds (issue 40): mutated ``Round.to_json`` data of every game is refused with
``CardsimError``, or loads and plays to a correct end. Run in a process of its own by
``tests/test_state_input.py``, so that a crash (a segmentation fault in a kernel) fails that test, not the suite.

Each example deals a round of a game and rule variant (``test_contract.VARIANTS``): a single round, a round of a
whole game, or a round started from its hands (``conftest.start_of``); plays it a random number of steps; mutates
its JSON one to three times (a cell or a slot set to a near or a far value, -1, a huge one, a float, a str, None, a
bool, a list; a key dropped, added or given another type at any level; a dtype, a shape, the data's length or
nesting; two cards swapped between two hands; a stream row zeroed or changed); then either ``Round.from_json``
refuses it with ``CardsimError`` ("not a cardsim round: ..."), or the round loads, writes back the same JSON, and
plays to its end by random legal actions and the random and heuristic bots with ``Game.check_state`` after every
step, every state on the way loading again, and its record scored as the plain-Python reference scores it
(``conftest.check_scores``).

    python tests/fuzz_state_json.py --examples 8000

prints one summary line: ``fuzz_state_json: 8000 examples, 8000 mutated, 1450 loaded, 6550 refused in 24.0 s``.
"""

from __future__ import annotations

import argparse
import collections
import copy
import random
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from conftest import check_scores, start_of  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from test_contract import VARIANTS  # noqa: E402

from cardsim import CardsimError, Round, new_round  # noqa: E402
from cardsim.games import GAMES  # noqa: E402

JUNK = st.sampled_from([-1, 2**64, -(2**63) - 1, 10**9, 2.5, 3.0, "3", "", None, True, False, [1], {"x": 1}]).map(
    copy.deepcopy)  # a fresh list or dict each time: one put into itself would nest for ever
COUNTS = collections.Counter()  # mutated, loaded, refused
REASONS = collections.Counter()  # refusals by their message, numbers blanked


def values(current: object) -> st.SearchStrategy:
    """A new value for a cell holding ``current``: mostly near it (the deepest checks), sometimes far or junk."""
    near = st.integers(-3, 3).map(lambda d: current + d) if type(current) is int else st.nothing()
    return st.one_of(near, near, st.integers(-1, 60), st.sampled_from([0, 2**63 - 1, -(2**63), 2**64 - 1, 2**40]),
                     JUNK)  # fmt: skip


def paths(data: object, prefix: tuple = ()) -> list[tuple]:
    """Every key path into the JSON ``data`` (dicts and lists), the root's children first."""
    found = []
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        found.append((*prefix, key))
        if not (isinstance(value, list) and len(value) > 8):  # a long data list: reached through cell edits
            found += paths(value, (*prefix, key))
    return found


def intact(state: object) -> bool:
    """Whether ``state`` still has the arrays the structured mutations edit, each a dict with its shape list and
    non-empty data list, the streams' a row at least."""
    return isinstance(state, dict) and {"slots", "hands", "dealt", "rng", "bot_rng"} <= set(state) and all(
        isinstance(spec, dict) and isinstance(spec.get("shape"), list) and isinstance(spec.get("data"), list)
        and spec["data"] for spec in state.values()) and all(
        len(state[name]["data"]) >= 4 for name in ("rng", "bot_rng"))  # fmt: skip


def swappable(state: dict) -> bool:
    """Whether the hands as dealt and as held are still lists of non-empty masks, one per seat."""
    dealt, hands = state["dealt"]["data"], state["hands"]["data"]
    return 2 <= len(dealt) == len(hands) and all(type(m) is int and 0 < m < 2**64 for m in dealt + hands)


def parent(data: dict, path: tuple) -> object:
    for key in path[:-1]:
        data = data[key]
    return data


@st.composite
def mutation(draw, data: dict) -> str:
    """Apply one random mutation to ``data`` in place; its description. Once an earlier one broke the structure,
    only keys are mutated further."""
    kind = draw(st.sampled_from(["cell", "cell", "slot", "slot", "swap", "key", "array", "stream"]))
    state = data.get("state")
    if not intact(state) or kind == "swap" and not swappable(state):
        kind = "key"
    if kind in ("cell", "slot"):
        name = "slots" if kind == "slot" else draw(st.sampled_from(sorted(state)))
        cells = state[name]["data"]
        i = draw(st.integers(0, len(cells) - 1))
        cells[i] = draw(values(cells[i]))
        return f"{name}[{i}] = {cells[i]!r}"
    if kind == "swap":  # two cards swapped between two seats' hands as dealt, and as held unless `dealt_only`
        dealt, hands = state["dealt"]["data"], state["hands"]["data"]
        a, b = draw(st.lists(st.integers(0, len(dealt) - 1), min_size=2, max_size=2, unique=True))
        cards = [[c for c in range(64) if mask >> c & 1] for mask in (dealt[a], dealt[b])]
        card_a, card_b = draw(st.sampled_from(cards[0])), draw(st.sampled_from(cards[1]))
        both = 1 << card_a | 1 << card_b
        for masks in (dealt,) if draw(st.booleans()) else (dealt, hands):
            masks[a], masks[b] = masks[a] ^ both, masks[b] ^ both
        return f"swap {card_a} of seat {a} and {card_b} of seat {b}"
    if kind == "key":  # a key dropped, added, or its value replaced, at any level
        path = draw(st.sampled_from(paths(data)))
        holder, key = parent(data, path), path[-1]
        action = draw(st.sampled_from(["drop", "add", "junk"] if isinstance(holder, dict) else ["junk"]))
        if action == "drop":
            del holder[key]
        elif action == "add":
            holder[draw(st.sampled_from(["extra", "x", "0"]))] = draw(JUNK)
        else:
            holder[key] = draw(JUNK)
        return f"{action} {path}"
    if kind == "array":  # dtype, shape, the data's length or nesting
        spec = state[draw(st.sampled_from(sorted(state)))]
        action = draw(st.sampled_from(["dtype", "shape", "short", "long", "nested"]))
        if action == "dtype":
            spec["dtype"] = draw(st.sampled_from(["int64", "uint64", "int32", "float64", "object"]))
        elif action == "shape":
            spec["shape"] = draw(st.sampled_from([[], [1], [len(spec["data"])], spec["shape"][::-1], [2, 99]]))
        elif action == "short":
            spec["data"] = spec["data"][:-1]
        elif action == "long":
            spec["data"] = [*spec["data"], 0]
        else:
            spec["data"] = [spec["data"][:1], *spec["data"][1:]]
        return f"array {action}"
    name = draw(st.sampled_from(["rng", "bot_rng"]))  # a stream row zeroed, or another state
    cells = state[name]["data"]
    row = draw(st.integers(0, len(cells) // 4 - 1))
    cells[4 * row : 4 * row + 4] = draw(st.sampled_from([[0, 0, 0, 0], [1, 2, 3, 4], [2**64 - 1] * 4]))
    return f"{name}[{row}] = {cells[4 * row]}"


def dealt_round(game: str, rules: list[str] | None, seed: int, index: int, how: str) -> Round:
    """A single round, a round of a whole game (unless the rules are single rounds' only), or one from hands."""
    if how == "in a game":
        try:
            return new_round(game, seed=seed, round=index % 4, game_no=index, rules=rules)
        except CardsimError:
            pass
    r = new_round(game, seed=seed, round=index, rules=rules)
    if how != "from hands":
        return r
    start = start_of(r.record())
    start.pop("players", None)  # the rules give it
    return new_round(game, rules=rules, **start)


def play_on(r: Round, rng: random.Random) -> None:
    """Play ``r`` to its end by random legal actions and the random and heuristic bots: its invariants after every
    step, every state on the way loading again, the finished record as the reference scores it."""
    while not r.done:
        pick = rng.random()
        action = rng.choice(r.legal()) if pick < 0.5 else r.bot_action("heuristic" if pick < 0.8 else "random")
        r.play(action)
        r.game.check_state(r.rules, r.state)
        if rng.random() < 0.15:
            data = r.to_json()
            assert Round.from_json(data).to_json() == data
    check_scores(r.record())


def example(draw_data: st.DataObject) -> None:
    game = draw_data.draw(st.sampled_from(sorted(GAMES)), "game")
    rules = draw_data.draw(st.sampled_from(VARIANTS[game]), "rules")
    seed, index = draw_data.draw(st.integers(0, 2**64 - 1), "seed"), draw_data.draw(st.integers(0, 2**20), "index")
    how = draw_data.draw(st.sampled_from(["single", "in a game", "from hands"]), "how")
    r = dealt_round(game, rules, seed, index, how)
    rng = random.Random(seed ^ index)
    for _ in range(draw_data.draw(st.integers(0, 70), "steps")):
        if r.done:
            break
        r.play(rng.choice(r.legal()))
    data = r.to_json()
    for _ in range(draw_data.draw(st.integers(1, 3), "mutations")):
        draw_data.draw(mutation(data), "mutation")
    COUNTS["mutated"] += 1
    try:
        loaded = Round.from_json(data)
    except CardsimError as exc:
        assert str(exc).startswith("not a cardsim round: "), exc
        COUNTS["refused"] += 1
        REASONS[re.sub(r"-?\d+", "N", str(exc))[21:90]] += 1
        return
    COUNTS["loaded"] += 1
    assert loaded.to_json() == data
    play_on(loaded, rng)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=300, help="hypothesis examples (default 300)")
    parser.add_argument("--reasons", action="store_true", help="also print the refusals by kind")
    args = parser.parse_args(argv)
    began = time.perf_counter()
    run = settings(max_examples=args.examples, deadline=None, database=None, print_blob=True,
                   suppress_health_check=list(HealthCheck))(given(st.data())(example))  # fmt: skip
    run()
    if args.reasons:
        for reason, count in REASONS.most_common():
            print(f"{count:5}  {reason}")
    print(f"fuzz_state_json: {args.examples} examples, {COUNTS['mutated']} mutated, {COUNTS['loaded']} loaded, "
          f"{COUNTS['refused']} refused in {time.perf_counter() - began:.1f} s")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
