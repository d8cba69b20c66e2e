"""The ``Game`` front: what the engine, ``Round``, the drivers, the runner and the tools ask of every game, and the
contract a game's ``cardsim/games/<game>/game.py`` fulfils by subclassing it.

``Game`` is composed of one part per concern, each a page; what a game provides there:

- ``RulesPart`` (``rules.py``): ``name``, ``deck``, ``players``, ``rules_class``; ``dealer_of``, ``max_rounds``,
  ``game_over``
- ``StatePart`` (``state.py``): ``state_module``, ``state_type``; ``deal``, ``start``, ``hidden_cards``,
  ``observation``, ``record``
- ``ActionsPart`` (``actions.py``): nothing (the actions' public forms, and why an answer is refused)
- ``CoursePart`` (``course.py``): ``slot_names``, ``free_slots``; ``course``
- ``BotsPart`` (``bots.py``): ``builtin_bots``, ``bot_docs``, ``decisions``, ``builtin_module``, ``strong_module``;
  ``bot_action``, ``play_on``
- ``BatchPart`` (``batch.py``): ``score``, ``lower_is_better``, ``play_module``, ``play_blocks``; ``batch``
- ``ReplayPart`` (``replay.py``): ``format_replay``

What a game must provide is declared where it is used (``cardsim.front.contract``: ``Required`` attributes,
``required`` methods) and checked when a game class is defined (``Game.__init_subclass__``); everything else has a
default a game may override. The registry (``cardsim.games``) hands these names on, so ``from cardsim.games import
Game`` works too.
"""

from __future__ import annotations

from typing import Any

from cardsim.front.actions import MAX_ACTIONS, VERBS, ActionsPart
from cardsim.front.batch import BatchPart
from cardsim.front.bots import BotsPart
from cardsim.front.contract import Required, missing, required, requirements
from cardsim.front.course import Course, CoursePart
from cardsim.front.replay import ReplayPart, replay_title
from cardsim.front.rules import RulesPart
from cardsim.front.state import StatePart

__all__ = ["MAX_ACTIONS", "VERBS", "Course", "Game", "Required", "replay_title", "required"]


class Game(RulesPart, StatePart, ActionsPart, CoursePart, BotsPart, BatchPart, ReplayPart):
    """What the engine needs from a game: rules, bots, a batch of rows, a replay. A subclass is a game: defining it
    fails unless it provides every ``requirements()`` entry; ``abstract=True`` (``class Family(Game,
    abstract=True)``) leaves that to its own subclasses."""

    def __init_subclass__(cls, abstract: bool = False, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        lacking = {} if abstract else missing(cls)
        if lacking:
            items = "".join(f"\n  {name}: {what}" for name, what in lacking.items())
            raise TypeError(f"the game class {cls.__module__}.{cls.__qualname__} lacks what every game provides "
                            f"(cardsim.front.Game):{items}")  # fmt: skip

    @classmethod
    def requirements(cls) -> dict[str, str]:
        """Every attribute and method a game provides, with what it is for (``cardsim.front.contract``)."""
        return requirements(cls)

    def __reduce__(self) -> str:
        """A game pickles by reference to its module's ``GAME`` (its compiled entry points cannot pickle):
        unpickled, it is the registry's instance."""
        return "GAME"
