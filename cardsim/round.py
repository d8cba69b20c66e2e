"""One round, move by move: cardsim's ``chess.Board``, over the game's state machine.

>>> import cardsim
>>> r = cardsim.new_round("differenzler", seed=7, round=12)
>>> r.decision, r.to_move
('predict', ...)
>>> while not r.done:
...     r.play(r.bot_action("heuristic"))
>>> r.scores  # penalties per seat

``Round`` holds the game, its rules and the round's state (``cardsim/games/<game>/state.py``: fixed-shape
arrays, random streams included), so ``copy`` is cheap and exact and ``to_json`` writes the whole round.
``Match`` plays a whole game round after round, ending by the game's rules.
"""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Annotated, Any

import numpy as np

from cardsim.errors import BotFailure, CardsimError
from cardsim.games import Game, game_info, get_game
from cardsim.games.generic import round_dealer
from cardsim.lineup import builtin_row
from cardsim.loading import load_round, start_state
from cardsim.options import RuleSettings
from cardsim.protocol import Seat
from cardsim.rng import bot_seed, check_index, check_seed
from cardsim.validation import checked


class Round:
    """One round of a game in progress. Actions are public: ints for numbers, canonical card names, suit letters,
    ``None`` for a pass, ``(number, suit)`` for a call-partner bid."""

    def __init__(self, game: Game, rules: Any, state: Any, seed: int, unit: int, sub: int, game_no: int | None):
        self.game, self.rules, self.state = game, rules, state
        self.seed, self.unit, self.sub, self.game_no = seed, unit, sub, game_no
        self._rngs: dict[int, random.Random] = {}
        self._mover = game.to_move(rules, state)  # -1 when over; kept here, as asking the kernel costs a call

    @property
    def to_move(self) -> int | None:
        """The seat to act, None when the round is over."""
        return None if self._mover < 0 else self._mover

    @property
    def done(self) -> bool:
        return self._mover < 0

    @property
    def decision(self) -> str | None:
        """``predict``, ``bid``, ``trump``, ``auction``, ``call``, ``discard`` or ``card``; None when over."""
        return None if self.done else self.game.decision(self.rules, self.state)

    def legal(self) -> list:
        """The legal actions of the seat to act (empty when the round is over)."""
        return [] if self.done else self.game.legal(self.rules, self.state)

    def play(self, action: Any) -> None:
        """Play one action for the seat to act; an illegal one raises ``CardsimError`` and changes nothing."""
        if self.done:
            raise CardsimError(f"the round is over; {action!r} cannot be played")
        self.game.apply(self.rules, self.state, action)
        self._mover = self.game.to_move(self.rules, self.state)

    def refresh(self) -> None:
        """Read the seat to move again after the state machine advanced outside ``play`` (the compiled bots played
        on in ``Game.run_bots``, as the environments let them)."""
        self._mover = self.game.to_move(self.rules, self.state)

    def observation(self, seat: int | None = None) -> Any:
        """What ``seat`` (default: the seat to act) may see now: the Observation a Python bot is given."""
        seat = self._seat(seat)
        rng = self._rngs.setdefault(seat, random.Random(bot_seed(self.seed, self.unit, self.sub, seat)))
        return self.game.observation(self.rules, self.state, seat, rng)

    def bot_action(self, name: str) -> Any:
        """What the built-in bot ``name`` (settings allowed: ``mc:samples=16``) would do now, in public form; the
        round and its random streams do not advance."""
        if self.done:
            raise CardsimError("the round is over: no bot is to act")
        row = builtin_row(name, self.game.name, self.game.builtin_bots, self.game.bot_settings)
        try:
            return self.game.bot_action(self.rules, self.state, row)
        except BotFailure as failure:  # e.g. a strong bot's sampler found no deal: D2's message, as in a run
            label = self.game.decision_label(self.rules, self.state)
            where = Seat(name, self.to_move, self.game.name, self.seed, self.unit, self.sub, self.game_no is not None)
            raise where.error(label, str(failure)) from None

    @property
    def scores(self) -> list[int] | None:
        """The seats' results (the game's ``score`` column) once the round is over, else None."""
        return self.game.scores(self.rules, self.state) if self.done else None

    def copy(self) -> Round:
        """An independent copy: playing on it leaves this round as it is."""
        state = self.game.kernel("copy_state", self.state)
        other = Round(self.game, self.rules, state, self.seed, self.unit, self.sub, self.game_no)
        other._rngs = {seat: _copy_rng(rng) for seat, rng in self._rngs.items()}
        return other

    def record(self) -> dict:
        """The round as ``cardsim.replay`` shows it (bots: None, as nobody in particular played it), with its deal
        (``start``: ``new_round``'s keywords) and its ``actions`` in order, public form: saved as JSON, it replays
        (``replay_record``, ``cardsim replay --file``)."""
        where = {"game": self.game.name, "rules": dataclasses.asdict(self.rules), "seed": self.seed}
        where["round"] = self.sub if self.game_no is not None else self.unit
        seats = self.game.seats(self.rules)
        course = self.game.course(self.rules, self.state, self.sub if self.game_no is not None else None)
        return {**where, "game_no": self.game_no, "bots": [None] * seats, **self.game.record(self.rules, self.state),
                "start": course.start, "actions": course.actions}  # fmt: skip

    def to_json(self) -> dict:
        """The whole round (rules, where it was dealt, every state array) as JSON-able data."""
        arrays = {name: {"dtype": str(a.dtype), "shape": list(a.shape), "data": a.ravel().tolist()}
                  for name, a in self.state._asdict().items()}  # fmt: skip
        return {"game": self.game.name, "rules": dataclasses.asdict(self.rules), "seed": self.seed,
                "unit": self.unit, "sub": self.sub, "game_no": self.game_no, "state": arrays}  # fmt: skip

    @classmethod
    def from_json(cls, data: dict) -> Round:
        """The round ``to_json`` wrote, or any valid round in its form, checked before any compiled kernel sees it
        (``cardsim.loading``: types, shapes, ranges, then the round rebuilt from its deal and actions by the state
        machine); anything else raises ``CardsimError`` naming the first thing wrong and what is allowed."""
        return cls(*load_round(data))

    def _seat(self, seat: int | None) -> int:
        if seat is None:
            if self.done:
                raise CardsimError("the round is over: give the seat whose observation you want")
            return self.to_move
        seats = self.game.seats(self.rules)
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < seats:
            raise CardsimError(f"seat {seat!r} is not allowed: seats are 0 to {seats - 1}")
        return int(seat)

    def __repr__(self) -> str:
        state = "over" if self.done else f"seat {self.to_move} to {self.decision}"
        where = f"game {self.game_no}, round {self.sub}" if self.game_no is not None else f"round {self.unit}"
        return f"<Round {self.game.name} seed {self.seed} {where}: {state}>"


Hands = Annotated[list | tuple | None, "a list of hands, one per seat: card strings ('SA SK ...') or lists of card "
                  "names"]  # fmt: skip


@checked
def new_round(
    game: str | Game,
    *,
    seed: int | None = None,
    round: int | None = None,
    game_no: int | None = None,
    players: int | None = None,
    rules: RuleSettings = None,
    hands: Hands = None,
    dealer: int | None = None,
    **shown: Any,
) -> Round:
    """A round at its first decision: dealt as ``cardsim replay`` deals it for ``seed`` and ``round`` (default 0 each)
    of a single round, or of game ``game_no``; or from given ``hands`` (one card string or list of card names per
    seat, each card once) with ``dealer`` and the game's shown cards (Differenzler ``trump_card``, Wizard ``turned``
    and where the schedule fixes it ``trump``, call-partner ``kitty``), its streams those of seed 0, round 0. Given
    hands deal no round, so they go without ``seed``, ``round`` and ``game_no``."""
    game = get_game(game) if isinstance(game, str) else game
    rule_set = game.make_rules(rules, players)
    if hands is not None:
        dealing = [f"{name}=..." for name, value in (("seed", seed), ("round", round), ("game_no", game_no))
                   if value is not None]  # fmt: skip
        if dealing:
            raise CardsimError(f"hands=... starts the round from given hands; {' and '.join(dealing)} "
                               f"deal{'s' if len(dealing) == 1 else ''} one: give one or the other")  # fmt: skip
        return Round(game, rule_set, start_state(game, rule_set, hands, dealer, **shown), 0, 0, 0, None)
    if shown or dealer is not None:
        given = ", ".join(f"{name}=..." for name in [*(["dealer"] if dealer is not None else []), *shown])
        shown_cards = " and ".join(game_info(game.name).shown)
        raise CardsimError(f"new_round() got {given} without hands=[...]: the dealer and the shown cards "
                           f"({game_info(game.name).title} {shown_cards}) go with given hands; a dealt round has its "
                           "own")  # fmt: skip
    seed = check_seed(0 if seed is None else seed)
    round = check_index(0 if round is None else round, "round")
    game.check_units(rule_set, game_no is not None)
    seats = game.seats(rule_set)
    if game_no is None:
        return Round(game, rule_set, game.deal(rule_set, seed, round, 0, -1, False), seed, round, 0, None)
    game_no = check_index(game_no, "game")
    most = game.max_rounds(rule_set)
    if round >= most:
        raise CardsimError(f"a {game.name} game under these rules has at most {most} rounds: 0 to {most - 1}")
    first = game.dealer_of(rule_set, game.deal(rule_set, seed, game_no, 0, -1, True))
    state = game.deal(rule_set, seed, game_no, round, round_dealer.py_func(first, round, seats), True)
    return Round(game, rule_set, state, seed, game_no, round, game_no)


class Match:
    """A whole game, round after round, ending by the game's rules (Differenzler A11 with its tie-breaks,
    Wizard's schedule, call-partner C10 with redeals): ``round`` is the current ``Round``."""

    def __init__(self, game: Game, rules: Any, seed: int, game_no: int):
        self.game, self.rules, self.seed, self.game_no = game, rules, seed, game_no
        self.round = new_round(game, seed=seed, round=0, game_no=game_no, rules=_items(rules))
        self.rounds: list[Round] = []  # the finished rounds
        self.totals = [0] * game.seats(rules)
        self.done = False

    def next_round(self) -> Round | None:
        """Score the finished current round and deal the next one; None (and ``done``) when the game is over."""
        if self.done:
            raise CardsimError("the game is over: no next round")
        if not self.round.done:
            raise CardsimError(f"round {self.round.sub} is not finished: {self.round!r}")
        self.rounds.append(self.round)
        self.totals = [t + s for t, s in zip(self.totals, self.round.scores, strict=True)]
        played = len(self.rounds)
        if self.game.game_over(self.rules, np.array(self.totals, np.int64), played):
            self.done = True
            return None
        self.round = new_round(self.game, seed=self.seed, round=played, game_no=self.game_no, rules=_items(self.rules))
        return self.round

    @property
    def winners(self) -> list[int] | None:
        """The seats with the best total once the game is over (ties share the win), else None."""
        if not self.done:
            return None
        best = (min if self.game.lower_is_better else max)(self.totals)
        return [seat for seat, total in enumerate(self.totals) if total == best]


@checked
def new_game(
    game: str | Game,
    *,
    seed: int = 0,
    game_no: int = 0,
    players: int | None = None,
    rules: RuleSettings = None,
) -> Match:
    """Game ``game_no`` of ``seed`` at its first decision: the rounds ``cardsim replay --game-no`` shows."""
    game = get_game(game) if isinstance(game, str) else game
    rule_set = game.make_rules(rules, players)
    game.check_units(rule_set, True)
    return Match(game, rule_set, check_seed(seed), check_index(game_no, "game"))


def _items(rules: Any) -> dict:
    return dataclasses.asdict(rules)


def _copy_rng(rng: random.Random) -> random.Random:
    other = random.Random()
    other.setstate(rng.getstate())
    return other


PLACE = ("seed", "round", "game_no", "bots")  # where a record's round was played, which its deal does not say


def replay_record(record: dict) -> dict:
    """The round of a ``Round.record()`` (saved as JSON), played again from its deal (``start``) through the state
    machine, its ``actions`` one by one: its record, checked against the one given (a result that its deal and
    actions do not give is refused), with ``moves``: each action with its seat and decision, in order."""
    if not isinstance(record, dict):
        raise CardsimError(f"a record is a dict (a Round.record(), e.g. loaded from its JSON), not "
                           f"{type(record).__name__}")  # fmt: skip
    missing = [key for key in ("game", "rules", "start", "actions") if key not in record]
    if missing:
        raise CardsimError(f"the record lacks {', '.join(missing)}: give a Round.record() with its deal and actions "
                           "(saved as JSON)")  # fmt: skip
    if not isinstance(record["start"], dict) or not isinstance(record["actions"], list):
        raise CardsimError("the record's start is new_round's keywords (a dict) and its actions a list")
    game = get_game(record["game"])
    r = new_round(game, rules=record["rules"], **record["start"])
    moves = []
    for k, action in enumerate(record["actions"]):
        action = tuple(action) if isinstance(action, list) else action  # JSON keeps a (number, suit) bid as a list
        if r.done:
            raise CardsimError(f"move {k} of the record ({action!r}): the round was over after {k} moves")
        moves.append({"seat": r.to_move, "decision": r.decision, "action": action})
        try:
            r.play(action)
        except CardsimError as exc:
            raise CardsimError(f"move {k} of the record, seat {r.to_move}'s {r.decision} {action!r}: {exc}") from None
    replayed = {**r.record(), **{key: record[key] for key in PLACE if key in record}}
    for key, value in replayed.items():
        if key in record and key not in PLACE and _plain(record[key]) != _plain(value):
            raise CardsimError(f"the record's {key} is {record[key]!r}, but its deal and actions give {value!r}")
    return {**replayed, "moves": moves}


def _plain(value: Any) -> Any:
    """``value`` as JSON gives it back (tuples as lists), to compare a loaded record with a replayed one."""
    return json.loads(json.dumps(value))
