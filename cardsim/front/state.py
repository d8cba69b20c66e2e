"""``Game``'s round: the state machine (``cardsim/games/<game>/state.py``) asked from Python, for ``Round`` and the
Python driver.

``state`` is the game's ``State``: a NamedTuple of fixed-shape numpy arrays (slots documented in state.py),
including the round's random streams, so that copying it copies the round and its draws. Actions cross this
interface in their public form (``cardsim.front.actions``).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from cardsim.decisions import BID, CALL, CARD, DECISIONS, DISCARD, PREDICT
from cardsim.errors import CardsimError
from cardsim.front.actions import MAX_ACTIONS
from cardsim.front.contract import Required, required
from cardsim.jit.entry import entry


class StatePart:
    """One round through the game's state machine: dealt or started, asked who moves and what is legal, stepped,
    checked, observed and scored."""

    state_module: ClassVar[Any] = Required("the game's cardsim/games/<game>/state.py (the state machine)")
    state_type: ClassVar[type] = Required("the game's State NamedTuple (Round.from_json rebuilds it)")

    def __init__(self) -> None:
        super().__init__()
        self._params: dict[Any, Any] = {}
        self._entries: dict[str, Any] = {}
        self._actions = np.empty(MAX_ACTIONS, np.int64)

    @required
    def deal(self, rules: Any, seed: int, unit: int, sub: int, dealer: int, in_game: bool) -> Any:
        """The state at the first decision of round ``sub`` of unit ``unit`` (``dealer`` < 0: drawn; Differenzler:
        First Hand), dealt exactly as the batch kernels deal it; ``in_game``: a round of a whole game."""

    @required
    def start(self, rules: Any, hands: list[int], dealer: int, **shown: Any) -> Any:
        """The state at the first decision of a round dealt ``hands`` (card masks, one per seat) with the game's
        shown cards in ``shown`` (Differenzler ``trump_card``, Wizard ``turned``, call-partner ``kitty``)."""

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
        """The legal actions of the seat to act, in public form."""
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

    def params(self, rules: Any) -> Any:
        """The rule scalars the kernels take (the state module's ``Params``), made once per rules object."""
        cached = self._params.get(rules)
        if cached is None:
            cached = self._params[rules] = self.state_module.params(rules)
        return cached

    def kernel(self, name: str, *args: Any) -> Any:
        """Call the state module's kernel ``name`` through its compiled entry point: numba's dispatcher spends a
        few microseconds typing a NamedTuple state on every call, which ``Round`` steps cannot afford."""
        call = self._entries.get(name)
        if call is None:
            result, self._entries[name] = entry(getattr(self.state_module, name), *args)
            return result
        return call(*args)

    def check_state(self, rules: Any, state: Any) -> None:
        """Raise ``CardsimError`` if the round breaks one of its invariants (the state module's ``check`` and
        ``CHECKS``: cards conserved, points or tricks adding up, ...): ``--check`` calls it after every step."""
        broken = int(self.kernel("check", state, self.params(rules)))
        if broken:
            raise CardsimError(f"{self.name}: the round broke an invariant, {self.state_module.CHECKS[broken - 1]} "
                               "(a bug in cardsim: please report it)")  # fmt: skip

    @required
    def hidden_cards(self, rules: Any, state: Any, seat: int) -> int:
        """The cards ``seat`` may not see now (a mask): what ``--check`` makes sure its observation never shows."""

    @required
    def observation(self, rules: Any, state: Any, seat: int, rng: Any) -> Any:
        """What ``seat`` may see now, as the Observation a Python bot gets (``rng``: its ``random.Random``)."""

    def scores(self, rules: Any, state: Any) -> list[int]:
        """The seats' results of a finished round in the game's ``score`` column (the state module's ``scores``)."""
        out = np.zeros(self.seats(rules), np.int64)
        self.kernel("scores", state, self.params(rules), out)
        return [int(x) for x in out]

    @required
    def record(self, rules: Any, state: Any) -> dict:
        """A finished (or running) round as the game's replay details (the fields after ``replay_record``'s)."""
