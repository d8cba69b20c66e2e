"""The plain-Python driver of every game: a loop over the game's state machine.

The compiled bots play on inside the state machine (``Game.run_bots``) until a Python bot's turn; the driver
asks that bot through the protocol (``cardsim.protocol``) with the observation of its seat, turns its answer into
actions and applies them. An illegal answer is refused by the state machine (RULES.md D2) and reported with the
bot, the game, the seed, the round and the decision.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from cardsim.decisions import BOT_METHODS
from cardsim.errors import BotFailure, CardsimError
from cardsim.lineup import Lineup
from cardsim.protocol import Seat, ask
from cardsim.rng import bot_seed


def play_round(
    game: Any, rules: Any, lineup: Lineup, seed: int, unit: int, sub: int, in_game: bool, dealer: int,
    stepped: bool = False,
) -> Any:  # fmt: skip
    """Round ``sub`` of unit ``unit`` played to the end by ``lineup``; returns the finished state. ``game`` is a
    ``cardsim.games.Game`` (the layer above, which calls this driver). ``stepped``: the compiled bots too are asked
    one decision at a time (``Game.bot_action``, drawing as they do in the batch), so that a failing decision of
    theirs is reported like a Python bot's (RULES.md D2)."""
    state = game.deal(rules, seed, unit, sub, dealer, in_game)
    table = np.full_like(lineup.table, -1) if stepped else lineup.table
    rngs: dict[int, random.Random] = {}
    while (seat := game.run_bots(rules, state, table)) >= 0:
        bot = lineup.bots[seat]
        where = Seat(lineup.names[seat], seat, game.name, seed, unit, sub, in_game)
        label = game.decision_label(rules, state)
        if isinstance(bot, int):  # a compiled bot, stepped
            try:
                actions = [game.bot_action(rules, state, lineup.table[seat], advance=True)]
            except BotFailure as failure:
                raise where.error(label, failure.args[0]) from None
        else:
            rng = rngs.setdefault(seat, random.Random(bot_seed(seed, unit, sub, seat)))
            method = getattr(bot, BOT_METHODS[game.decision(rules, state)])
            answer = ask(method, game.observation(rules, state, seat, rng), where, label)
            actions = game.answer_actions(rules, state, answer)
        try:
            for action in actions:
                game.apply(rules, state, action)
        except CardsimError as exc:
            raise where.error(label, str(exc)) from None
    return state
