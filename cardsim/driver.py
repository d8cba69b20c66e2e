"""The plain-Python driver of every game: a loop over the game's state machine.

The compiled bots play on inside the state machine (``Game.run_bots``) until a Python bot's turn; the driver
asks that bot through the protocol (``cardsim.protocol``) with the observation of its seat, turns its answer into
actions and applies them. An illegal answer is refused by the state machine (RULES.md D2) and reported with the
bot, the game, the seed, the round and the decision.
"""

from __future__ import annotations

import random
from typing import Any

from cardsim.decisions import BOT_METHODS
from cardsim.errors import CardsimError
from cardsim.lineup import Lineup
from cardsim.protocol import Seat, ask
from cardsim.rng import bot_seed


def play_round(
    game: Any, rules: Any, lineup: Lineup, seed: int, unit: int, sub: int, in_game: bool, dealer: int
) -> Any:
    """Round ``sub`` of unit ``unit`` played to the end by ``lineup``; returns the finished state. ``game`` is a
    ``cardsim.games.Game`` (the layer above, which calls this driver)."""
    state = game.deal(rules, seed, unit, sub, dealer, in_game)
    rngs: dict[int, random.Random] = {}
    while (seat := game.run_bots(rules, state, lineup.table)) >= 0:
        bot = lineup.bots[seat]
        rng = rngs.setdefault(seat, random.Random(bot_seed(seed, unit, sub, seat)))
        where = Seat(lineup.names[seat], seat, game.name, seed, unit, sub, in_game)
        method = getattr(bot, BOT_METHODS[game.decision(rules, state)])
        label = game.decision_label(rules, state)
        answer = ask(method, game.observation(rules, state, seat, rng), where, label)
        try:
            for action in game.answer_actions(rules, state, answer):
                game.apply(rules, state, action)
        except CardsimError as exc:
            raise where.error(label, str(exc)) from None
    return state
