"""The games cardsim plays, by name, and the contract each game module fulfils.

A game module holds only its rules (tables, kernels, the course of a round)
and a ``Game`` front that the shared engine, CLI and results code drive.
Modules load on first use, so ``cardsim`` starts fast.
"""

from __future__ import annotations

import dataclasses
import importlib
import time
from abc import ABC, abstractmethod
from collections.abc import Iterator
from typing import Any, ClassVar, NamedTuple

import numpy as np

from cardsim.cards import SUIT_SYMBOLS, SUITS, Deck
from cardsim.deal import Work
from cardsim.decisions import BID, CALL, CARD, DECISIONS, DISCARD, PREDICT, TRUMP
from cardsim.driver import play_round
from cardsim.errors import BotFailure, CardsimError, bot_failure
from cardsim.lineup import FIRST_STRONG, Lineup, Setting, make_lineup, strong_table
from cardsim.numba_bots import (
    NumbaBot,
    ask_strong,
    compile_bots,
    entry,
    first_class,
    raised,
    sampler,
    signature,
    strong_bots,
    strong_signature,
)
from cardsim.options import make_rules
from cardsim.protocol import answer_card, not_a_card
from cardsim.results import Batch
from cardsim.validation import kind_of, shown

# How an error message names each decision's answer ("played SA, which is not legal; legal: ...").
VERBS = {"predict": "predicted", "bid": "bid", "trump": "named", "auction": "bid", "call": "called",
         "discard": "discarded", "card": "played"}  # fmt: skip
MAX_ACTIONS = 256  # room for any decision's legal action codes in every game

GAMES = {
    "differenzler": "cardsim.games.differenzler.game",
    "wizard": "cardsim.games.wizard.game",
    "callpartner": "cardsim.games.callpartner.game",
}


class Game(ABC):
    """What the engine needs from a game: rules, bots, a batch of rows, a replay."""

    name: ClassVar[str]
    deck: ClassVar[Deck]
    players: ClassVar[tuple[int, ...]]
    rules_class: ClassVar[type]
    builtin_bots: ClassVar[dict[str, int]]
    bot_docs: ClassVar[dict[str, str]]
    bot_settings: ClassVar[dict[str, dict[str, Setting]]] = {}  # bot -> its settings, in table order
    decisions: ClassVar[tuple[str, ...]]  # method names a Python bot must have
    score: ClassVar[str]  # the per-round result column summarised per seat
    lower_is_better: ClassVar[bool]
    categories: ClassVar[dict[str, list[str]]] = {}  # int-coded columns and their labels
    may_be_empty: ClassVar[frozenset[str]] = frozenset()  # categories whose code -1 means none (a null in the rows)
    ratios: ClassVar[dict[str, tuple[str, str]]] = {}  # name -> (rate, rate): hits of the first per hit of the second

    def make_rules(self, settings: dict[str, Any] | list[str] | None = None, players: int | None = None) -> Any:
        """Validated rules; ``players`` is a rule where the game allows a choice, else it must be the fixed count."""
        if players is not None and "players" in {f.name for f in dataclasses.fields(self.rules_class)}:
            if isinstance(settings, dict) and "players" in settings:  # given twice: the same number, or refused
                ruled = make_rules(self.rules_class, self.name, settings).players
                if ruled != make_rules(self.rules_class, self.name, {"players": players}).players:
                    raise CardsimError(f"{self.name}: the number of players is given twice, players={players!r} and "
                                       f"rules players={settings['players']!r}; give it once")  # fmt: skip
            settings = ({**(settings or {}), "players": players} if settings is None or isinstance(settings, dict)
                        else [*settings, f"players={players}"])  # fmt: skip
        elif players is not None and players not in self.players:
            allowed = ", ".join(map(str, self.players))
            raise CardsimError(f"{self.name} is played by {allowed} players, not {players}")
        return make_rules(self.rules_class, self.name, settings)

    def check_units(self, rules: Any, games: bool) -> None:
        """Refuse a rule that this kind of unit (whole ``games``, or single rounds) ignores: a setting echoed in the
        results but never used would mislead. No game but Wizard has one."""
        return None

    def seats(self, rules: Any = None) -> int:
        """Number of players under these rules (the default rules if none are given)."""
        return getattr(rules or self.make_rules(), "players", self.players[0])

    def lineup(self, spec: str | list[Any], rules: Any = None, allow_cheating: bool = False) -> Lineup:
        """The lineup ``spec`` (names with settings, Python bot specs or objects, numba bots) for these rules'
        seats, its numba bots compiled for the kernels; a cheating bot (``omniscient``) only if ``allow_cheating``."""
        lineup = make_lineup(spec, self.name, self.seats(rules), self.builtin_bots, self.decisions,
                             self.bot_settings, allow_cheating)  # fmt: skip
        if not lineup.numba_bots:
            return lineup
        rules = rules if rules is not None else self.make_rules()
        sig = signature(self.state_module.new_state(self.seats(rules)), self.params(rules))
        return dataclasses.replace(lineup, functions=compile_bots(lineup.numba_bots, self.name, sig))

    def strong_function(self, rules: Any, table: np.ndarray) -> tuple | None:
        """The kernels' ``strong_bots`` argument for the bot table ``table`` (float64[seats, settings + 1]): None
        when no seat holds a strong bot (numba then compiles no strong bot's code), else the game's strong bots'
        entry ``act(row, s, p, seat, *tools)`` and its ``tools`` (``strong_tools``) as first-class functions in
        one tuple (``numba_bots.strong_bots``): each compiled on its own, so the kernels that ask the bots do not
        link and optimise their code again, nor the bots the tools'."""
        if strong_table(table) is None:
            return None
        entry = self._strong.get(rules)  # made once per rules: typing a State takes a fifth of a millisecond
        if entry is None:
            state, p = self.state_module.new_state(self.seats(rules)), self.params(rules)
            tools = self.strong_tools(state, p)
            entry = strong_bots(first_class(self.strong_module.act, strong_signature(state, p, tools)), tools)
            self._strong[rules] = entry
        return entry

    def strong_tools(self, state: Any, p: Any) -> tuple:
        """The first-class functions the strong bots' entry takes last (``numba_bots.strong_bots``) for rounds typed as
        ``state`` under ``p``: the deal sampler of ``cardsim.infoset``; a game whose bots call more through their
        addresses adds them."""
        return (sampler(),)

    def act_of(self, rules: Any, row: np.ndarray, s: Any, p: Any, seat: int) -> int:
        """What the built-in bot of table row ``row`` (float64[settings + 1]) does now at ``seat``, the seat to move:
        a strong bot through its compiled entry (``strong_function``: called as it is, a third of the time a
        dispatcher takes to type its tools argument), any other through ``bots/<game>.py``. It advances ``s``'s
        streams."""
        if row[0] >= FIRST_STRONG:
            strong = self.strong_function(rules, row.reshape(1, -1))
            with raised(True):  # what a bot calls through an address raises, numba only prints
                return int(ask_strong.py_func(strong, row, s, p, seat))
        return int(self.builtin_module.act(int(row[0]), s, p, seat))

    @abstractmethod
    def batch(self, rules: Any, lineup: Lineup, seed: int, start: int, count: int, games: bool, **options: Any
              ) -> Batch:  # fmt: skip
        """Units ``start .. start+count-1`` (single rounds, or whole games) as a batch of arrays: the compiled
        kernel, or the plain-Python driver for a lineup with a Python bot (or ``engine="python"``). ``tables``
        plays them in several seatings at once (``seatings``; ``run_rotations``)."""

    def run(self, rules: Any, lineup: Lineup, seed: int, start: int, count: int, games: bool, check: bool = False,
            **options: Any) -> Batch:  # fmt: skip
        """``batch``, with a compiled bot's failed decision (``BotFailure``) reported as RULES.md D2 asks: the
        failing unit is found by re-running halves of the range (a few times its time), then replayed one decision
        at a time with the same draws (D3), which raises the ``CardsimError`` naming the bot, seed, round, seat,
        decision, the illegal action and the legal ones. ``check``: the round's invariants are checked after every
        step too (``--check``), a broken one reported the same way. (A ``BotFailure`` raised in a work item, which
        the kernel calls through its address, numba only prints: ``numba_bots.raised`` raises it once the kernel is
        done. One raised in a parallel loop itself would reach here as numba's ``SystemError`` around it:
        ``errors.bot_failure``.)"""
        def batch(start: int, count: int) -> Batch:
            with raised(True):  # the kernels call their work items through an address: numba only prints errors
                return self.batch(rules, lineup, seed, start, count, games, check=check, **options)

        try:
            return batch(start, count)
        except (BotFailure, SystemError) as exc:
            if bot_failure(exc) is None:
                raise
        while count > 1:  # the error is raised below, outside the handler: its traceback would repeat the kernel's
            try:
                batch(start, count // 2)
                start, count = start + count // 2, count - count // 2
            except (BotFailure, SystemError) as exc:
                if bot_failure(exc) is None:
                    raise
                count //= 2
        self.play_unit_py(rules, lineup, seed, start, games, stepped=True, check=check)
        raise CardsimError(f"{self.name}, seed {seed}: a compiled bot's decision failed in unit {start}, but not when "
                           "replayed one decision at a time (a bug in cardsim: please report it)")  # fmt: skip

    def run_rotations(self, rules: Any, lineups: list[Lineup], seed: int, start: int, count: int, games: bool,
                      check: bool = False) -> Iterator[Batch]:  # fmt: skip
        """``run`` of the same units by each of ``lineups`` (a duplicate deal's seatings, ``cardsim.runner``), each
        batch yielded as it is played. Built-in bots only: one kernel call plays every seating, each single round
        dealt once and started again for the others (``state.redeal``; the deal is about a sixth of random
        self-play), the same numbers as a call per seating (``tests/test_rotations.py``). A failed decision there
        is found again by ``run`` per seating, so that its error names the seating (the caller counts the batches
        it has)."""
        if len(lineups) > 1 and all(self._builtin_only(lineup) for lineup in lineups):
            try:
                with raised(True):
                    batch = self.batch(rules, lineups[0], seed, start, count, games, check=check,
                                       tables=np.concatenate([lineup.table for lineup in lineups]))  # fmt: skip
            except (BotFailure, SystemError) as exc:
                if bot_failure(exc) is None:
                    raise
            else:
                yield from batch.split(len(lineups))
                return
        for lineup in lineups:
            yield self.run(rules, lineup, seed, start, count, games, check)

    @staticmethod
    def _builtin_only(lineup: Lineup) -> bool:
        """Every seat holds a compiled built-in bot, none a strong one (strong lineups keep a kernel call per
        seating: their progress bar moves after each)."""
        return all(isinstance(b, int) for b in lineup.bots) and lineup.strong_table is None

    def seatings(self, rules: Any, lineup: Lineup, engine: str, tables: np.ndarray | None) -> int:
        """How many seatings ``batch`` plays each unit in: 1, or those of ``tables`` (float64[seatings * seats,
        columns], their bot tables one under the other: ``run_rotations``), which only the compiled kernels play."""
        if tables is None:
            return 1
        if not lineup.compiled or engine == "python":
            raise CardsimError(f"{self.name}: several seatings in one batch need the compiled engine and bots")
        return len(tables) // self.seats(rules)

    def simulate(self, rules: Any, lineup: Lineup, params: Any, seed: int, start: int, games: bool,
                 checks: np.ndarray | None, out: tuple, tables: np.ndarray | None = None) -> None:  # fmt: skip
        """The compiled batch kernel (``play.simulate_games``) over the units of ``out``, the game's tuple of result
        arrays: units ``start ..`` of ``seed``, single rounds or whole ``games``, played by ``lineup``, or by each
        seating of ``tables`` in turn (``seatings``; seating k's units at ``out[k * count + u]``). Each work item
        of its parallel loop is played by the game's ``play_blocks[asking]`` (asking: the lineup has a strong or
        numba bot), or by its ``random_block`` for random bots only if it has one; called through its address
        (``numba_bots.entry``)."""
        table = lineup.table if tables is None else tables
        strong = self.strong_function(rules, table)
        args = (Work(np.uint64(seed), start, games, np.uint64(0)), params, table, strong, lineup.functions, checks,
                out)  # fmt: skip
        block = self.play_blocks[strong is not None or lineup.functions is not None]
        if self.random_block is not None and (table[:, 0] == self.builtin_bots["random"]).all():
            block = self.random_block
        self.play_module.simulate_games(*args, entry(block, *self.scratch(params), *args))

    def scratch(self, params: Any) -> tuple:
        """What the game's batch kernel allocates for each work item and passes it first (``simulate``: these values
        type the work item), e.g. call-partner's ``play.scratch``; nothing by default."""
        return ()

    def rates(self, batch: Batch) -> dict[str, np.ndarray]:
        """The game's own yes/no measures as [round, seat], summarised per seat as rates (e.g. exact predictions)."""
        return {}

    def play_unit_py(
        self, rules: Any, lineup: Lineup, seed: int, unit: int, games: bool, upto: int | None = None,
        stepped: bool = False, check: bool = False,
    ) -> list:  # fmt: skip
        """Finished round states of one unit through the Python driver: a single round, or a whole game (up to
        round ``upto``). Round r > 0 of a game is dealt by the seat after the first round's (``dealer_of``).
        ``stepped`` and ``check``: see ``driver.play_round``."""
        states: list = []
        totals = np.zeros(self.seats(rules), np.int64)
        while True:
            r = len(states)
            dealer = -1 if r == 0 else (self.dealer_of(rules, states[0]) + r) % self.seats(rules)
            states.append(play_round(self, rules, lineup, seed, unit, r, games, dealer, stepped, check))
            totals += self.scores(rules, states[-1])
            if not games or r == upto or self.game_over(rules, totals, r + 1):
                return states

    def decision_times(self, spec: str, rounds: int, seed: int = 0, rules: Any = None) -> np.ndarray:
        """Seconds of every decision of the strong bot ``spec`` in seat 0 against heuristic bots over ``rounds``
        single rounds under ``rules`` (default: the default rules), asked one decision at a time (the strength
        benchmark's and the ladder's timing)."""
        rules = self.make_rules() if rules is None else rules
        lineup = self.lineup([spec] + ["heuristic"] * (self.seats(rules) - 1), rules, allow_cheating=True)
        if lineup.strong_table is None or lineup.table[0, 0] < FIRST_STRONG:
            strong = [b for b, i in self.builtin_bots.items() if i >= FIRST_STRONG]
            raise CardsimError(f"decision_times times a strong bot: '{spec}' is none; strong bots: {', '.join(strong)}")
        table = lineup.table.copy()
        table[0, 0] = -1  # seat 0 stops the compiled bots: it is asked here, one timed decision at a time
        times = []
        for unit in range(rounds):
            state = self.deal(rules, seed, unit, 0, -1, False)
            while self.run_bots(rules, state, table) >= 0:
                began = time.perf_counter()
                action = self.bot_action(rules, state, lineup.table[0])
                times.append(time.perf_counter() - began)
                self.apply(rules, state, action)
        return np.array(times)

    def dealer_of(self, rules: Any, state: Any) -> int:
        """The seat that dealt ``state``'s round (Differenzler: its First Hand), whom the next round's follows."""
        raise NotImplementedError

    def max_rounds(self, rules: Any) -> int:
        """The most rounds a game can last under these rules (Differenzler with every tie-break, Wizard's schedule,
        call-partner's ``max_deals``)."""
        raise NotImplementedError

    def game_over(self, rules: Any, totals: np.ndarray, rounds: int) -> bool:
        """Whether a game ends after ``rounds`` rounds with these ``totals`` (int64[seats] of ``score``)."""
        raise NotImplementedError

    def replay_round(self, rules: Any, lineup: Lineup, seed: int, round: int, game_no: int | None,
                     check: bool = False) -> Any:  # fmt: skip
        """The finished state of single round ``round``, or of round ``round`` of game ``game_no``."""
        if game_no is None:
            return self.play_unit_py(rules, lineup, seed, round, False, check=check)[0]
        records = self.play_unit_py(rules, lineup, seed, game_no, True, upto=round, check=check)
        if len(records) <= round:
            played = len(records)
            raise CardsimError(f"game {game_no} of seed {seed} ended after {played} rounds; rounds are 0..{played - 1}")
        return records[round]

    state_module: ClassVar[Any]  # the game's cardsim/games/<game>/state.py
    play_module: ClassVar[Any]  # its cardsim/games/<game>/play.py (``simulate_games``, the batch kernel)
    play_blocks: ClassVar[tuple]  # the kernel's work item for built-in bots only, and with a strong or numba bot
    random_block: ClassVar[Any] = None  # the work item for random bots only, where the game has one of its own
    builtin_module: ClassVar[Any]  # the game's built-in bots, bots/<game>.py (``act``)
    strong_module: ClassVar[Any]  # the game's strong bots, bots/<game>_strong.py (``act`` their entry)
    state_type: ClassVar[type]  # the game's State NamedTuple (Round.from_json rebuilds it)

    def __init__(self) -> None:
        self._params: dict[Any, Any] = {}
        self._strong: dict[Any, Any] = {}  # rules -> the strong bots' entry (``strong_function``)
        self._entries: dict[str, Any] = {}
        self._actions = np.empty(MAX_ACTIONS, np.int64)

    # --- the round's state machine (``cardsim/games/<game>/state.py``), for ``Round`` and the Python driver ----
    # ``state`` is the game's ``State``: a NamedTuple of fixed-shape numpy arrays (slots documented in state.py),
    # including the round's random streams, so that copying it copies the round and its draws. Actions cross this
    # interface in their public form: ints for numbers, canonical card names, suit letters, ``None`` for a pass,
    # ``(number, suit)`` tuples for a call-partner bid.

    def deal(self, rules: Any, seed: int, unit: int, sub: int, dealer: int, in_game: bool) -> Any:
        """The state at the first decision of round ``sub`` of unit ``unit`` (``dealer`` < 0: drawn; Differenzler:
        First Hand), dealt exactly as the batch kernels deal it; ``in_game``: a round of a whole game."""
        raise NotImplementedError

    def start(self, rules: Any, hands: list[int], dealer: int, **shown: Any) -> Any:
        """The state at the first decision of a round dealt ``hands`` (card masks, one per seat) with the game's
        shown cards in ``shown`` (Differenzler ``trump_card``, Wizard ``turned``, call-partner ``kitty``)."""
        raise NotImplementedError

    def to_move(self, rules: Any, state: Any) -> int:
        """The seat to act, -1 when the round is over."""
        return int(self.kernel("to_move", state))

    def decision(self, rules: Any, state: Any) -> str:
        """What the seat to act decides: one of ``DECISIONS`` (``done`` when the round is over)."""
        code = int(self.kernel("decision", state))
        return DECISIONS[code] if code >= 0 else "done"

    def decision_label(self, rules: Any, state: Any) -> str:
        """The current decision as error messages name it (e.g. ``trick 3, card 2``; default: ``decision``)."""
        return self.decision(rules, state)

    def legal(self, rules: Any, state: Any) -> list:
        """The legal actions of the seat to act, in public form (see above)."""
        decision = int(self.kernel("decision", state))
        n = self.kernel("legal_actions", state, self.params(rules), self._actions)
        codes = self._actions[:n].tolist()
        if decision in (PREDICT, BID):  # numbers are themselves
            return codes
        if decision in (CARD, CALL, DISCARD):
            names = self.deck.card_names
            return [names[code] for code in codes]
        return [self.public_action(rules, decision, code) for code in codes]

    def apply(self, rules: Any, state: Any, action: Any) -> None:
        """Apply one public action; an illegal one raises ``CardsimError`` naming it and the legal ones, and leaves
        ``state`` unchanged. The state machine's ``apply`` is the check (RULES.md D2)."""
        decision = int(self.kernel("decision", state))
        code = self.action_code(rules, decision, action)
        if code < 0 or not self.kernel("apply", state, self.params(rules), code):
            if decision < 0:
                raise CardsimError(f"the round is over: no action is legal, not {action!r}")
            raise CardsimError(self.refusal(decision, action, code, self.legal(rules, state)))

    def public_action(self, rules: Any, decision: int, code: int) -> Any:
        """A kernel action code in public form: a card name for card decisions, a suit letter for a trump, else
        the number."""
        if decision in (CARD, CALL, DISCARD):
            return self.deck.card_names[code]
        if decision == TRUMP:
            return SUITS[code]
        return code

    def action_code(self, rules: Any, decision: int, action: Any) -> int:
        """The kernel code of a public action, -1 when it is no action of this kind at all: another type included
        (a card is its name, never its index; a number an int, not a bool, a float or its text; a trump a suit
        letter)."""
        if decision in (CARD, CALL, DISCARD):
            return answer_card(action, self.deck)
        if decision == TRUMP:
            letter = SUIT_SYMBOLS.get(action, action.upper()) if isinstance(action, str) else None
            return SUITS.index(letter) if letter in tuple(SUITS) else -1
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)) or not 0 <= action < 1 << 20:
            return -1
        return int(action)

    def refusal(self, decision: int, action: Any, code: int, legal: list) -> str:
        """Why ``action`` (kernel ``code``, -1 for none) is refused at ``decision``, with the ``legal`` actions; an
        answer of another type than the decision's public form names its type (``played 7, which is not legal: a
        card is given by its name (a str, not an int); legal: ...``)."""
        verb = VERBS[DECISIONS[decision]]
        if decision in (CARD, CALL, DISCARD):
            if code < 0 and not isinstance(action, str):
                return not_a_card(verb, action, " ".join(legal))
            shown_card = self.deck.card_names[code] if code >= 0 else repr(action)
            return f"{verb} {shown_card}, which is not legal; legal: {' '.join(legal)}"
        if decision == TRUMP and not isinstance(action, str):
            return f"{verb} {shown(action)}; allowed: {_allowed(legal)} (a suit letter, not {kind_of(action)})"
        if decision in (PREDICT, BID) and (isinstance(action, bool) or not isinstance(action, (int, np.integer))):
            return f"{verb} {shown(action)}; allowed: {_allowed(legal)} (an int, not {kind_of(action)})"
        return f"{verb} {action!r}; allowed: {_allowed(legal)}"

    def params(self, rules: Any) -> Any:
        """The rule scalars the kernels take (the state module's ``Params``), made once per rules object."""
        cached = self._params.get(rules)
        if cached is None:
            cached = self._params[rules] = self.state_module.params(rules)
        return cached

    def kernel(self, name: str, *args: Any) -> Any:
        """Call the state module's kernel ``name`` through its compiled entry point: numba's dispatcher spends a
        few microseconds typing a NamedTuple state on every call, which ``Round`` steps cannot afford."""
        entry = self._entries.get(name)
        if entry is None:
            kernel = getattr(self.state_module, name)
            result = kernel(*args)  # compiles (or loads) it for these argument types
            self._entries[name] = kernel.overloads[tuple(kernel.typeof_pyval(a) for a in args)].entry_point
            return result
        return entry(*args)

    def check_state(self, rules: Any, state: Any) -> None:
        """Raise ``CardsimError`` if the round breaks one of its invariants (the state module's ``check`` and
        ``CHECKS``: cards conserved, points or tricks adding up, ...): ``--check`` calls it after every step."""
        broken = int(self.kernel("check", state, self.params(rules)))
        if broken:
            raise CardsimError(f"{self.name}: the round broke an invariant, {self.state_module.CHECKS[broken - 1]} "
                               "(a bug in cardsim: please report it)")  # fmt: skip

    def hidden_cards(self, rules: Any, state: Any, seat: int) -> int:
        """The cards ``seat`` may not see now (a mask): what ``--check`` makes sure its observation never shows."""
        raise NotImplementedError

    def answer_actions(self, rules: Any, state: Any, answer: Any) -> list:
        """A Python bot's answer to the current decision as the actions it stands for (default: itself; a
        call-partner declarer's list of discards is one ``discard`` action per card)."""
        return [answer]

    def observation(self, rules: Any, state: Any, seat: int, rng: Any) -> Any:
        """What ``seat`` may see now, as the Observation a Python bot gets (``rng``: its ``random.Random``)."""
        raise NotImplementedError

    def bot_action(self, rules: Any, state: Any, row: np.ndarray, advance: bool = False) -> Any:
        """What the built-in bot of table row ``row`` (``[id, settings...]``) would do now, in public form. The round
        does not advance; its random streams do only with ``advance`` (then the bot draws as the batch driver's
        would at this decision, so that applying its action goes on exactly as that driver does)."""
        raise NotImplementedError

    def numba_bot_action(self, rules: Any, state: Any, bot: NumbaBot) -> Any:
        """What the numba bot ``bot`` at the seat to move does now, in public form (an action code it made up is
        passed on as it is, for ``apply`` to refuse), called as the kernels call it: with the seat's view and its
        private stream. Its exceptions propagate."""
        p, seat = self.params(rules), self.to_move(rules, state)
        view = self.kernel("observe", state, p, seat)
        code = int(bot.function(view, p, seat, self.kernel("bot_stream", state, seat)))
        try:
            return self.public_action(rules, int(self.kernel("decision", state)), code) if code >= 0 else code
        except IndexError:  # no card or suit at all
            return code

    def run_bots(self, rules: Any, state: Any, table: np.ndarray) -> int:
        """Let the built-in bots of ``table`` (one row per seat, -1 for a Python bot) play on; returns the seat of a
        Python bot whose turn it is, or -1 when the round is over. A strong bot's exception (which numba only
        prints) is raised as ``BotFailure`` once they stop."""
        strong = self.strong_function(rules, table)
        with raised(strong is not None):
            return int(self.play_on(state, self.params(rules), table, strong))

    def play_on(self, state: Any, p: Any, table: np.ndarray, strong_bots: Any) -> int:
        """The game's compiled ``run`` of the state machine for ``run_bots`` (numba bots: the driver asks them)."""
        raise NotImplementedError

    def scores(self, rules: Any, state: Any) -> list[int]:
        """The seats' results of a finished round in the game's ``score`` column (the state module's ``scores``)."""
        out = np.zeros(self.seats(rules), np.int64)
        self.kernel("scores", state, self.params(rules), out)
        return [int(x) for x in out]

    def record(self, rules: Any, state: Any) -> dict:
        """A finished (or running) round as the game's replay details (the fields after ``replay_record``'s)."""
        raise NotImplementedError

    def replay(self, rules: Any, lineup: Lineup, seed: int, round: int, game_no: int | None,
               check: bool = False) -> dict:  # fmt: skip
        """Everything that happened in one round, as a JSON-able dict (see ``replay_record``)."""
        state = self.replay_round(rules, lineup, seed, round, game_no, check)
        return self.replay_record(rules, lineup, seed, round, game_no, **self.record(rules, state))

    @abstractmethod
    def format_replay(self, record: dict) -> str:
        """A replay dict as readable text (its first line from ``replay_title``)."""

    def replay_record(self, rules: Any, lineup: Lineup, seed: int, round: int, game_no: int | None, **details) -> dict:
        """The fields every replay starts with, then the game's own ``details``."""
        where = {"game": self.name, "rules": dataclasses.asdict(rules), "seed": seed, "round": round}
        return {**where, "game_no": game_no, "bots": list(lineup.names), **details}

    # --- a round from outside, rebuilt from its own course (``cardsim.loading``: ``Round.from_json``) -------------
    slot_names: ClassVar[tuple[str, ...]]  # the cells of ``state.slots`` by the state module's names, in order
    # The slots no action sets, by kind: "key" the round's key (any int64), "seeded" the bits of the seats whose
    # ``bot_rng`` row is seeded, "cards" a bot's memory (a card mask). ``rng`` and ``bot_rng`` are free in every game.
    free_slots: ClassVar[dict[str, str]]

    def course(self, rules: Any, state: Any, sub: int | None = None) -> Course:
        """``state``'s round as its own primary data: the ``new_round(hands=...)`` keywords that deal it (card
        strings, the dealer, the shown cards) and every action taken since, in order and in public form, so that
        ``start`` and ``apply`` of each rebuild it (``cardsim.loading`` checks a loaded round so; a round's record
        can replay the same way). ``sub``: the round's index in a whole game (None: a single round), where the rules
        fix something per round. A count or card it reads out of range raises ``CardsimError`` (``state_int``)."""
        raise NotImplementedError

    def state_int(self, state: Any, field: str, index: int | tuple[int, ...], low: int, high: int) -> int:
        """``state.<field>[index]`` as an int if it is ``low`` to ``high``, else ``CardsimError`` naming the cell (a
        slot by its name) and what is allowed: ``course`` reads a count or a card so before anything indexes with it."""
        value = int(getattr(state, field)[index])
        if not low <= value <= high:
            where = ", ".join(map(str, index)) if isinstance(index, tuple) else str(index)
            name = f" ({self.slot_names[index]})" if field == "slots" else ""
            raise CardsimError(f"state.{field}[{where}]{name} is {value}; allowed {low} to {high}")
        return value

    def state_card(self, state: Any, field: str, index: int | tuple[int, ...]) -> str:
        """The name of the card ``state.<field>[index]``, checked as ``state_int`` checks (one of the deck's)."""
        return self.deck.card_names[self.state_int(state, field, index, 0, self.deck.size - 1)]

    def __reduce__(self) -> tuple:
        """A game pickles by its name (its compiled entry points cannot): unpickled, it is the registry's instance."""
        return get_game, (self.name,)


def _allowed(actions: list) -> str:
    """Legal actions for an error message: a run of integers as a range, else the actions one by one."""
    if len(actions) > 1 and all(isinstance(a, int) for a in actions) and actions == list(
        range(actions[0], actions[-1] + 1)
    ):
        return f"an integer from {actions[0]} to {actions[-1]}"
    return "one of " + ", ".join("None (pass)" if a is None else str(a) for a in actions)


def replay_title(record: dict) -> str:
    """First line of a printed replay: game, seed, which round, rules."""
    where = f"round {record['round']}" if record["game_no"] is None else (
        f"game {record['game_no']}, round {record['round']}"
    )  # fmt: skip
    rules = ",".join(f"{k}={v}" for k, v in record["rules"].items())
    return f"{record['game']}  seed {record['seed']}  {where}  rules {rules}"


def get_game(name: str) -> Game:
    """The game called ``name`` (case-insensitive), or a clear error listing the games."""
    key = str(name).strip().lower()
    if key not in GAMES:
        raise CardsimError(f"unknown game '{name}'; games: {', '.join(GAMES)}")
    module = importlib.import_module(GAMES[key])
    return module.GAME


class Course(NamedTuple):
    """A round as its own primary data (``Game.course``): the ``new_round(hands=...)`` keywords that deal it, and
    every action taken since, in order and in public form (``Round.play``'s)."""

    start: dict[str, Any]
    actions: list
