"""The plain-Python driver of every game: a loop over the game's state machine.

The compiled bots play on inside the state machine (``Game.run_bots``) until a Python or numba bot's turn; the
driver asks a Python bot through the protocol (``cardsim.protocol``) with the observation of its seat, turns its
answer into actions and applies them; a numba bot is called as the kernels call it (``Game.numba_bot_action``).
An illegal answer is refused by the state machine (RULES.md D2) and reported with the bot, the game, the seed,
the round and the decision.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import numpy as np

from cardsim.cards import Deck
from cardsim.decisions import BOT_METHODS
from cardsim.errors import BotFailure, CardsimError
from cardsim.lineup import Lineup, builtin_row
from cardsim.numba_bots import USER_BOT, NumbaBot
from cardsim.protocol import Seat, ask
from cardsim.rng import bot_seed
from cardsim.sealed.process import GuardedBot


def play_round(
    game: Any, rules: Any, lineup: Lineup, seed: int, unit: int, sub: int, in_game: bool, dealer: int,
    stepped: bool = False, check: bool = False,
) -> Any:  # fmt: skip
    """Round ``sub`` of unit ``unit`` played to the end by ``lineup``; returns the finished state. ``game`` is a
    ``cardsim.games.Game`` (the layer above, which calls this driver). ``stepped``: the compiled bots too are asked
    one decision at a time (``Game.bot_action``, drawing as they do in the batch), so that a failing decision of
    theirs is reported like a Python bot's (RULES.md D2). ``check`` (``--check``): every step is stepped and
    followed by the round's invariants (``Game.check_state``), and a Python bot's observation must show no card
    its seat may not see. A compiled bot that fails while the compiled bots play on (``BotFailure``) is named by
    playing the round again, stepped (the same draws, D3)."""
    args = (game, rules, lineup, seed, unit, sub, in_game, dealer)
    if stepped or check:
        return _play_round(*args, True, check)
    try:
        return _play_round(*args, False, False)
    except BotFailure:
        pass  # the error is raised below, outside this handler: its traceback would only repeat the kernel's
    _play_round(*args, True, False)
    where = f"game {unit}, round {sub}" if in_game else f"round {unit}"
    raise CardsimError(f"{game.name}, seed {seed}, {where}: a compiled bot's decision failed, but not when replayed "
                       "one decision at a time (a bug in cardsim: please report it)")  # fmt: skip


def _play_round(
    game: Any, rules: Any, lineup: Lineup, seed: int, unit: int, sub: int, in_game: bool, dealer: int,
    stepped: bool, check: bool,
) -> Any:  # fmt: skip
    state = game.deal(rules, seed, unit, sub, dealer, in_game)
    # the seats the driver asks (-1): Python and numba bots, and every seat when stepped
    table = np.full_like(lineup.table, -1) if stepped else np.where(lineup.table[:, :1] == USER_BOT, -1, lineup.table)
    rngs: dict[int, random.Random] = {}
    while (seat := game.run_bots(rules, state, table)) >= 0:
        play_decision(game, rules, state, lineup, Seat(lineup.names[seat], seat, game.name, seed, unit, sub, in_game),
                      rngs, check)  # fmt: skip
    if check:
        game.check_state(rules, state)
    return state


def play_decision(game: Any, rules: Any, state: Any, lineup: Lineup, where: Seat, rngs: dict[int, Any],
                  check: bool = False) -> None:  # fmt: skip
    """The decision of ``lineup``'s bot at ``where.seat`` (the seat to move, which the compiled bots stopped at)
    asked and applied: a compiled bot stepped (drawing as in the batch), a numba bot called as the kernels call it,
    a guarded (sealed) bot, or a Python bot through the protocol with its seat's observation and generator
    (``rngs``, by seat, made on first use). An illegal answer raises ``CardsimError`` naming the bot and the
    decision (RULES.md D2). ``check``: the invariants first, and the observation must hide what it should."""
    seat = where.seat
    if check:
        game.check_state(rules, state)
    bot = lineup.bots[seat]
    label = game.decision_label(rules, state)
    if isinstance(bot, int):  # a compiled bot, stepped
        try:
            answer = game.bot_action(rules, state, lineup.table[seat], advance=True)
        except BotFailure as failure:
            raise where.error(label, str(failure)) from None  # the message and its values (seat, cards)
    elif isinstance(bot, NumbaBot):  # asked as the kernels ask it: the seat's view and private stream
        try:
            answer = game.numba_bot_action(rules, state, bot)
        except Exception as exc:  # the user's function: report whatever it raised
            raise where.error(label, f"raised {type(exc).__name__}: {exc}") from None
    elif isinstance(bot, GuardedBot):  # sealed, or replaying a sealed run's forfeits
        _guarded_decision(game, rules, state, bot, where, label, rngs, check)
        return
    else:
        rng = rngs.setdefault(seat, random.Random(bot_seed(where.seed, where.unit, where.sub, seat)))
        method = getattr(bot, BOT_METHODS[game.decision(rules, state)])
        observation = game.observation(rules, state, seat, rng)
        if check:
            check_observation(observation, game.hidden_cards(rules, state, seat), game.deck, where)
        answer = ask(method, observation, where, label)
    try:
        for action in [answer] if isinstance(bot, (int, NumbaBot)) else game.answer_actions(rules, state, answer):
            game.apply(rules, state, action)
    except CardsimError as exc:
        raise where.error(label, str(exc)) from None


def _guarded_decision(game: Any, rules: Any, state: Any, bot: GuardedBot, where: Seat, label: str,
                      rngs: dict[int, Any], check: bool) -> None:  # fmt: skip
    """A guarded bot's decision applied: its answer, or from its forfeit on the built-in random bot's, which draws
    from the seat's own shared stream as in any run. With forfeits on, a failure (an error, its time, its exit,
    an illegal answer) is that forfeit: recorded, and this decision played by random."""
    at, seat = bot.place(where.unit, where.sub), where.seat
    if not bot.forfeited(at):
        try:
            rng = rngs.setdefault(seat, bot.round_rng(bot_seed(where.seed, where.unit, where.sub, seat)))
            observation = game.observation(rules, state, seat, rng)
            if check:
                check_observation(observation, game.hidden_cards(rules, state, seat), game.deck, where)
            answer = bot.decide(BOT_METHODS[game.decision(rules, state)], observation, where, label)
            for action in game.answer_actions(rules, state, answer):
                try:
                    game.apply(rules, state, action)
                except CardsimError as exc:
                    raise where.error(label, str(exc)) from None
            return
        except CardsimError as error:
            if not bot.forfeits.enabled:
                raise
            bot.forfeits.record(bot.entry, bot.spec, at, seat, str(error))
            bot.give_up()
    random_bot = builtin_row("random", game.name, game.builtin_bots, game.bot_settings)
    game.apply(rules, state, game.bot_action(rules, state, random_bot, advance=True))


def check_observation(observation: Any, hidden: int, deck: Deck, where: Seat) -> None:
    """``--check``: the observation names no card of ``hidden`` (its legal actions aside: a partner call's are the
    cards outside the hand), else a ``CardsimError`` (a bug in cardsim's observation)."""
    shown = [getattr(observation, f.name) for f in dataclasses.fields(observation) if f.name not in ("rng", "legal")]
    leaked = card_names(shown, deck) & set(deck.names(hidden).split())
    if leaked:
        raise where.error("observation", f"shows cards the seat may not see: {' '.join(sorted(leaked))} (a bug in "
                                         "cardsim: please report it)")  # fmt: skip


def card_names(value: Any, deck: Deck) -> set[str]:
    """Every card name of ``deck`` anywhere in ``value`` (nested lists, tuples, dicts and dataclasses)."""
    if isinstance(value, str):
        return {value} if value in deck.card_names else set()
    if dataclasses.is_dataclass(value):
        value = [getattr(value, f.name) for f in dataclasses.fields(value)]
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (list, tuple)):
        return set().union(*(card_names(v, deck) for v in value))
    return set()
