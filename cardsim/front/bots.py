"""``Game``'s bots: lineups, and the built-in, strong and numba bots asked one decision at a time."""

from __future__ import annotations

import dataclasses
import time
from typing import Any, ClassVar

import numpy as np

from cardsim.errors import CardsimError
from cardsim.front.contract import Required, required
from cardsim.lineup import FIRST_STRONG, Lineup, Setting, make_lineup, strong_table
from cardsim.numba_bots import (
    NumbaBot,
    ask_strong,
    compile_bots,
    first_class,
    raised,
    sampler,
    signature,
    strong_bots,
    strong_signature,
)


class BotsPart:
    """Who plays: lineups of built-in, strong, numba and Python bots, and a compiled bot asked from Python."""

    builtin_bots: ClassVar[dict[str, int]] = Required(
        "built-in bot name -> its id in the kernels' bot table (strong bots from cardsim.lineup.FIRST_STRONG)")
    bot_docs: ClassVar[dict[str, str]] = Required("built-in bot name -> what it does, in one line (cardsim info)")
    bot_settings: ClassVar[dict[str, dict[str, Setting]]] = {}  # bot -> its settings, in table order
    decisions: ClassVar[tuple[str, ...]] = Required("the method names a Python bot must have")
    builtin_module: ClassVar[Any] = Required("the game's built-in bots, bots/<game>.py (act)")
    strong_module: ClassVar[Any] = Required("its strong bots, bots/<game>_strong.py (act: their one entry)")

    def __init__(self) -> None:
        super().__init__()
        self._strong: dict[Any, Any] = {}  # rules -> the strong bots' entry (``strong_function``)

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

    @required
    def bot_action(self, rules: Any, state: Any, row: np.ndarray, advance: bool = False) -> Any:
        """What the built-in bot of table row ``row`` (``[id, settings...]``) would do now, in public form. The round
        does not advance; its random streams do only with ``advance`` (then the bot draws as the batch driver's
        would at this decision, so that applying its action goes on exactly as that driver does)."""

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

    @required
    def play_on(self, state: Any, p: Any, table: np.ndarray, strong_bots: Any) -> int:
        """The game's compiled ``run`` of the state machine for ``run_bots`` (numba bots: the driver asks them)."""

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
