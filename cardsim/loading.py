"""A round from outside, checked before any compiled kernel sees it (issue 40): ``Round.from_json`` and
``new_round(hands=...)``.

The kernels index arrays with a state's values unchecked (a check per step would cost the fast loops), so a value
out of range reads or writes outside an array: a crash, or a round played on by other rules. A round from outside is
therefore checked in Python first, in this order, and refused with one ``CardsimError`` naming the first thing wrong
and what is allowed:

1. the JSON: at every level exactly the keys ``to_json`` writes; the rules as it writes them; the seed and the
   round's place (unit, sub, game_no); every array of the game's ``State`` with ``new_state``'s dtype and shape,
   integers in range;
2. the free cells, which no action sets: every shared stream non-zero (an all-zero xoshiro256** state draws 0 for
   ever, and ``rng.below`` then loops for ever), the seeded bits those of seats whose private stream is non-zero, a
   bot's memory a card mask;
3. the round is rebuilt from its own primary data (``Game.course``: the deal and every action in order) by the state
   machine itself, ``start`` then ``apply`` per action (an illegal one is the error), and every other cell must equal
   the rebuilt round's; then the game's invariants hold (``Game.check_state``).

The state machine stays the one implementation of the rules: nothing here knows one. There is no checksum: any valid
round loads, whether ``to_json`` wrote it or not (another stream, a round from given hands, a hand-edited legal
position).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from cardsim.errors import CardsimError
from cardsim.games import GAMES, Course, Game, get_game
from cardsim.options import describe_allowed
from cardsim.rng import check_index, check_seed

FIELDS = ("game", "rules", "seed", "unit", "sub", "game_no", "state")  # a round's JSON (``Round.to_json``)
ARRAY = ("dtype", "shape", "data")  # each state array's
STREAMS = ("rng", "bot_rng")  # free in every game: the shared streams and the strong bots' private ones
LIMITS = {"int64": (-(2**63), 2**63 - 1), "uint64": (0, 2**64 - 1)}


def load_round(data: Any) -> tuple[Game, Any, Any, int, int, int, int | None]:
    """(game, rules, state, seed, unit, sub, game_no) of a round in ``Round.to_json``'s form, checked as the module
    docstring says."""
    if isinstance(data, str):
        raise CardsimError("Round.from_json takes the dict that to_json returned (json.loads it first), not a str")
    try:
        _keys(data, FIELDS, "a round")
        game = get_game(_text(data["game"], "game", f"one of {', '.join(GAMES)}"))
        rules = _rules(game, data["rules"])
        seed = check_seed(_integer(data["seed"], "seed", "an integer from 0 to 2**64-1"))
        unit = check_index(_integer(data["unit"], "unit", "an integer from 0 to 2**63-1"), "unit")
        sub = check_index(_integer(data["sub"], "sub", "an integer from 0 to 2**63-1"), "sub")
        game_no = _place(game, rules, unit, sub, data["game_no"])
        state = _arrays(game, rules, data["state"])
        check_round(game, rules, state, None if game_no is None else sub)
    except CardsimError as exc:
        raise CardsimError(f"not a cardsim round: {exc}") from None
    return game, rules, state, seed, unit, sub, game_no


def start_state(game: Game, rules: Any, hands: Any, dealer: Any, **shown: Any) -> Any:
    """The state of a round started from given cards: ``hands`` one per seat (a card string, or a list of card
    names), every card dealt once; ``dealer`` a seat; the game's shown cards, which ``Game.start`` checks with the
    hands' sizes. ``new_round(hands=...)`` and the rebuild of a loaded round start here."""
    seats, deck = game.seats(rules), game.deck
    if not isinstance(hands, (list, tuple)) or len(hands) != seats:
        raise CardsimError(f"hands {_short(hands)} is not allowed: {game.name} with these rules has {seats} seats, "
                           f"give a list of {seats} hands")  # fmt: skip
    masks, holder = [], {}
    for seat, hand in enumerate(hands):
        names = hand.replace(",", " ").split() if isinstance(hand, str) else hand
        if not isinstance(names, (list, tuple)) or not all(isinstance(name, str) for name in names):
            raise CardsimError(f"seat {seat}'s hand {_short(hand)} is not allowed: give a card string ('SA SK ...') "
                               "or a list of card names")  # fmt: skip
        mask = 0
        for name in names:
            card = deck.parse(name)
            if card in holder:
                raise CardsimError(f"card {deck.name_of(card)} is dealt twice: to seat {holder[card]} and seat {seat}")
            holder[card], mask = seat, mask | 1 << card
        masks.append(mask)
    if isinstance(dealer, bool) or not isinstance(dealer, (int, np.integer)) or not 0 <= dealer < seats:
        raise CardsimError(f"dealer {dealer!r} is not allowed: give the dealer's seat, 0 to {seats - 1}")
    return game.start(rules, masks, int(dealer), **shown)


def check_round(game: Game, rules: Any, state: Any, sub: int | None) -> None:
    """Refuse ``state`` (arrays of ``new_state``'s dtypes and shapes) unless it is a round of ``game`` under ``rules``
    (round ``sub`` of a whole game, None: a single round): its free cells valid, and every other cell that of the
    round its deal and its actions rebuild through the state machine."""
    seats, deck = game.seats(rules), game.deck
    for name in ("hands", "dealt"):
        for seat, mask in enumerate(getattr(state, name)):
            if int(mask) >> deck.size:
                raise CardsimError(f"state.{name}[{seat}] is {int(mask)}; allowed a mask of the {deck.name} deck's "
                                   f"cards, below 2**{deck.size}")  # fmt: skip
    for row, stream in enumerate(state.rng):
        if not stream.any():
            raise CardsimError(f"state.rng[{row}] is all zeros; allowed any other xoshiro256** state (an all-zero one "
                               "draws 0 for ever)")  # fmt: skip
    _free_slots(game, state, seats)
    rebuilt = rebuild(game, rules, game.course(rules, state, sub))
    free = [game.slot_names.index(name) for name in game.free_slots]
    for name in game.state_type._fields:
        if name in STREAMS:
            continue
        loaded, made = getattr(state, name), getattr(rebuilt, name)
        differ = loaded != made
        if name == "slots":
            differ[free] = False
        if differ.any():
            index = tuple(int(i) for i in np.argwhere(differ)[0])
            slot = f" ({game.slot_names[index[0]]})" if name == "slots" else ""
            raise CardsimError(f"state.{name}[{', '.join(map(str, index))}]{slot} is {loaded[index]}, but its deal "
                               f"and actions give {made[index]}")  # fmt: skip
    game.check_state(rules, state)


def rebuild(game: Game, rules: Any, course: Course) -> Any:
    """The state of the round ``course`` describes, through the state machine: ``start`` from its deal, then ``apply``
    of each action; its deal refused, or an illegal action, raises ``CardsimError`` naming it."""
    try:
        state = start_state(game, rules, **course.start)
    except CardsimError as exc:
        raise CardsimError(f"its deal (state.dealt and the shown cards) starts no round: {exc}") from None
    for k, action in enumerate(course.actions):
        label = game.decision_label(rules, state) if game.to_move(rules, state) >= 0 else "the round is over"
        try:
            game.apply(rules, state, action)
        except CardsimError as exc:
            raise CardsimError(f"its action {k + 1}, {action!r} ({label}), is not legal: {exc}") from None
    return state


def _free_slots(game: Game, state: Any, seats: int) -> None:
    """The slots no action sets, by their kind (``Game.free_slots``): a round's key may be any int64; seeded bits
    are seats' whose private stream (``bot_rng``'s row) is not all zeros; a bot's memory is a card mask."""
    for name, kind in game.free_slots.items():
        index = game.slot_names.index(name)
        value = int(state.slots[index])
        where = f"state.slots[{index}] ({name})"
        if kind == "seeded":
            if not 0 <= value < 1 << seats:
                raise CardsimError(f"{where} is {value}; allowed bits of the seats, 0 to {(1 << seats) - 1}")
            for seat in range(seats):
                if value >> seat & 1 and not state.bot_rng[seat].any():
                    raise CardsimError(f"seat {seat}'s private stream is seeded ({where} is {value}), but "
                                       f"state.bot_rng[{seat}] is all zeros; allowed a non-zero xoshiro256** state")
        elif kind == "cards":
            game.state_int(state, "slots", index, 0, (1 << game.deck.size) - 1)


def _place(game: Game, rules: Any, unit: int, sub: int, game_no: Any) -> int | None:
    """``game_no``: None for a single round (then ``sub`` is 0), else the unit, a whole game's (``sub`` one of its
    rounds, and the rules those of a game)."""
    if game_no is None:
        if sub:
            raise CardsimError(f"sub {sub} is not allowed: a single round (game_no None) has sub 0")
        return None
    if _integer(game_no, "game_no", f"None or the unit, {unit}") != unit:
        raise CardsimError(f"game_no {game_no!r} is not allowed: a round of a game has game_no = unit ({unit}), or "
                           "None for a single round")  # fmt: skip
    game.check_units(rules, True)
    most = game.max_rounds(rules)
    if sub >= most:
        raise CardsimError(f"sub {sub} is not allowed: a {game.name} game under these rules has rounds 0 to {most - 1}")
    return unit


def _rules(game: Game, settings: Any) -> Any:
    """The rules, given as ``to_json`` writes them: every rule once, each of its own type (no text for a number)."""
    fields = {f.name: f for f in dataclasses.fields(game.rules_class)}
    _keys(settings, tuple(fields), f"a {game.name} round's rules")
    rules = game.make_rules(settings)
    for name, value in dataclasses.asdict(rules).items():
        if type(settings[name]) is not type(value) or settings[name] != value:
            raise CardsimError(f"rules.{name} is {_short(settings[name])}; allowed "
                               f"{describe_allowed(fields[name].metadata['allowed'])}")  # fmt: skip
    return rules


def _arrays(game: Game, rules: Any, arrays: Any) -> Any:
    """The game's ``State`` of the JSON ``arrays``, each of ``new_state``'s dtype and shape, integers in range."""
    empty = game.state_module.new_state(game.seats(rules))
    fields = game.state_type._fields
    _keys(arrays, fields, f"a {game.name} round's state")
    out = []
    for name, like in zip(fields, empty, strict=True):
        spec, dtype, shape = arrays[name], str(like.dtype), list(like.shape)
        _keys(spec, ARRAY, f"state.{name}")
        if spec["dtype"] != dtype or not isinstance(spec["dtype"], str):
            raise CardsimError(f"state.{name}.dtype is {_short(spec['dtype'])}; allowed '{dtype}'")
        if not isinstance(spec["shape"], list) or [_exact(n) for n in spec["shape"]] != shape:
            raise CardsimError(f"state.{name}.shape is {_short(spec['shape'])}; allowed {shape}")
        data = spec["data"]
        if not isinstance(data, list) or len(data) != like.size:
            raise CardsimError(f"state.{name}.data is {_short(data)}; allowed a flat list of {like.size} integers")
        low, high = LIMITS[dtype]
        for i, value in enumerate(data):
            if _exact(value) is None or not low <= value <= high:
                cell = ", ".join(str(int(k)) for k in np.unravel_index(i, shape))
                where = f"state.{name}[{cell}]" + (f" ({game.slot_names[i]})" if name == "slots" else "")
                if _exact(value) is None:
                    raise CardsimError(f"{where} is {_short(value)} (a {type(value).__name__}); the arrays hold "
                                       "integers")  # fmt: skip
                raise CardsimError(f"{where} is {value}; a {dtype} array holds {low} to {high}")
        out.append(np.array(data, dtype).reshape(shape))
    return game.state_type(*out)


def _keys(value: Any, keys: tuple[str, ...], what: str) -> None:
    """``value`` is a dict of exactly ``keys``."""
    if not isinstance(value, dict):
        raise CardsimError(f"{what} is {_short(value)}; allowed a dict of {', '.join(keys)}")
    missing, extra = [k for k in keys if k not in value], [k for k in value if k not in keys]
    if missing or extra:
        wrong = f"has no '{missing[0]}'" if missing else f"has '{extra[0]}'"
        raise CardsimError(f"{what} {wrong}; allowed exactly {', '.join(keys)}")


def _exact(value: Any) -> int | None:
    """``value`` if it is an integer (not a bool: JSON's true is no number), else None."""
    return None if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) else int(value)


def _integer(value: Any, what: str, allowed: str) -> int:
    if _exact(value) is None:
        raise CardsimError(f"{what} is {_short(value)}; allowed {allowed}")
    return int(value)


def _text(value: Any, what: str, allowed: str) -> str:
    if not isinstance(value, str):
        raise CardsimError(f"{what} is {_short(value)}; allowed {allowed}")
    return value


def _short(value: Any) -> str:
    """``repr(value)`` for a message, cut to 60 characters."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
