"""``Game``'s round from outside, rebuilt from its own course (``cardsim.loading``: ``Round.from_json``)."""

from __future__ import annotations

from typing import Any, ClassVar, NamedTuple

from cardsim.errors import CardsimError
from cardsim.front.contract import Required, required


class Course(NamedTuple):
    """A round as its own primary data (``Game.course``): the ``new_round(hands=...)`` keywords that deal it, and
    every action taken since, in order and in public form (``Round.play``'s)."""

    start: dict[str, Any]
    actions: list


class CoursePart:
    """A state read back as the deal and the actions that made it, and the slots no action sets; a loaded round is
    rebuilt through ``start`` and ``apply`` and compared cell by cell but those."""

    slot_names: ClassVar[tuple[str, ...]] = Required("the cells of state.slots by the state module's names, in order")
    free_slots: ClassVar[dict[str, str]] = Required(
        "the slots no action sets, by kind: 'key' the round's key (any int64), 'seeded' the bits of the seats whose "
        "bot_rng row is seeded, 'cards' a bot's memory (a card mask); rng and bot_rng are free in every game")

    @required
    def course(self, rules: Any, state: Any, sub: int | None = None) -> Course:
        """``state``'s round as its own primary data: the ``new_round(hands=...)`` keywords that deal it (card
        strings, the dealer, the shown cards) and every action taken since, in order and in public form, so that
        ``start`` and ``apply`` of each rebuild it (``cardsim.loading`` checks a loaded round so; a round's record
        can replay the same way). ``sub``: the round's index in a whole game (None: a single round), where the rules
        fix something per round. A count or card it reads out of range raises ``CardsimError`` (``state_int``)."""

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
