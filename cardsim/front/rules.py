"""``Game``'s rules and units: which rules, how many seats, how a whole game goes on and ends."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import numpy as np

from cardsim.cards import Deck
from cardsim.errors import CardsimError
from cardsim.front.contract import Required, required
from cardsim.options import make_rules


class RulesPart:
    """The game's rules (``cardsim.options``), its seats, and the course of a whole game over its rounds."""

    name: ClassVar[str] = Required("the game's registry name (cardsim/games/<name>/), as users type it")
    deck: ClassVar[Deck] = Required("its deck (cardsim.cards)")
    players: ClassVar[tuple[int, ...]] = Required("the numbers of players its rules allow")
    rules_class: ClassVar[type] = Required("its frozen dataclass of rule options (rules.py, cardsim.options)")

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

    @required
    def dealer_of(self, rules: Any, state: Any) -> int:
        """The seat that dealt ``state``'s round (Differenzler: its First Hand), whom the next round's follows."""

    @required
    def max_rounds(self, rules: Any) -> int:
        """The most rounds a game can last under these rules (Differenzler with every tie-break, Wizard's schedule,
        call-partner's ``max_deals``)."""

    @required
    def game_over(self, rules: Any, totals: np.ndarray, rounds: int) -> bool:
        """Whether a game ends after ``rounds`` rounds with these ``totals`` (int64[seats] of ``score``)."""
