"""Gymnasium, one agent: ``single_agent(game, seat, opponents)`` is a ``gymnasium.Env`` in which the agent plays one
seat and cardsim's bots the others.

The opponents play as they do in any run: built-in and strong bots inside the compiled state machine
(``Game.run_bots``), Python and numba bots through the driver (``cardsim.driver.play_decision``), each with its
seat's own random streams, so a round goes as the batch engine plays it. The observation is the agent's honest
view (``uint8[bytes]``, bit-packed: ``cardsim.envs.spaces``); the mask is in ``info["action_mask"]`` (and
``action_masks()``, as sb3-contrib's ``MaskablePPO`` asks). The reward is the agent's score when the round ends (a
penalty as minus it), 0 before. Gymnasium samples actions without a mask: an illegal one ends the episode with
``illegal_reward`` (the game's default: ``GameInfo.illegal_reward``), ``terminated=True`` and
``info["illegal"] = True``, and the round does not change.

Episodes are rounds as in the AEC environments: ``reset(seed=s)`` deals round 0 of seed ``s``, each later
``reset()`` the next round index.
"""

from __future__ import annotations

import dataclasses
import random

import gymnasium
import numpy as np
from gymnasium import spaces

from cardsim.driver import play_decision
from cardsim.envs.aec import reward_sign
from cardsim.envs.spaces import Encoding
from cardsim.errors import CardsimError
from cardsim.games import game_info, get_game
from cardsim.lineup import Bots
from cardsim.numba_bots import USER_BOT
from cardsim.options import RuleSettings
from cardsim.protocol import Seat
from cardsim.rng import check_seed
from cardsim.round import Round, new_round
from cardsim.validation import checked

AGENT = "agent"  # the agent's name in the lineup (its seat is asked here, never by a bot)


class SingleAgentEnv(gymnasium.Env):
    """One seat of ``game`` against cardsim's bots (see the module doc)."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, game: str, seat: int, opponents: Bots, players: int | None, rules: RuleSettings,
                 illegal_reward: float | None, render_mode: str | None):  # fmt: skip
        front = get_game(game)
        if render_mode not in (None, "ansi"):
            raise CardsimError(f"render_mode {render_mode!r} is not allowed: None or 'ansi'")
        self.rules = front.make_rules(rules, players)
        front.check_units(self.rules, False)
        seats = front.seats(self.rules)
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < seats:
            raise CardsimError(f"seat {seat!r} is not allowed: 0 to {seats - 1}")
        names = [b.strip() for b in opponents.split(",")] if isinstance(opponents, str) else list(opponents)
        if len(names) == 1:
            names *= seats - 1
        if len(names) != seats - 1:
            raise CardsimError(f"opponents: give one bot for all or one for each of the {seats - 1} other seats, "
                               f"not {len(names)}")  # fmt: skip
        lineup = front.lineup(names[:seat] + ["random"] + names[seat:], self.rules)  # random: a placeholder
        # the compiled bots stop at the agent's seat, and at a Python or numba bot's (the driver asks them)
        self.table = np.where(lineup.table[:, :1] == USER_BOT, -1, lineup.table)
        self.table[seat, 0] = -1
        self.lineup, self.game, self.seat, self.render_mode = lineup, front, int(seat), render_mode
        self.encoding = Encoding(front, self.rules)
        self.illegal_reward = float(game_info(front.name).illegal_reward if illegal_reward is None else illegal_reward)
        self.observation_space = spaces.Box(0, 255, (self.encoding.bytes,), np.uint8)
        self.action_space = spaces.Discrete(self.encoding.actions)
        self._sign = reward_sign(front)
        self._seed, self._episode = 0, -1
        self.round: Round | None = None
        self._rngs: dict[int, random.Random] = {}

    def _play_on(self) -> None:
        """The opponents play until the agent is to act or the round is over."""
        r = self.round
        while (seat := self.game.run_bots(self.rules, r.state, self.table)) >= 0 and seat != self.seat:
            where = Seat(self.lineup.names[seat], seat, self.game.name, r.seed, r.unit, r.sub, False)
            play_decision(self.game, self.rules, r.state, self.lineup, where, self._rngs)
        r.refresh()

    def _answer(self, reward: float, illegal: bool = False) -> tuple:
        r = self.round
        obs = self.encoding.observe(r.state, self.seat)
        info = {"action_mask": self.encoding.mask(r.state) if r.to_move == self.seat else
                np.zeros(self.encoding.actions, np.int8), "illegal": illegal}  # fmt: skip
        return obs, reward, r.done or illegal, False, info

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        if seed is not None:
            self._seed, self._episode = check_seed(seed), 0
        else:
            self._episode += 1
        self.round = new_round(self.game, seed=self._seed, round=self._episode, rules=dataclasses.asdict(self.rules))
        self._rngs = {}
        self._play_on()
        obs, _, _, _, info = self._answer(0.0)
        return obs, info

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
        r = self.round
        if r is None or r.done:
            raise CardsimError("the episode is over: call reset() first")
        if self.encoding.play(r.state, int(action), self.encoding.mask(r.state)) == -2:
            return self._answer(self.illegal_reward, illegal=True)
        self._play_on()
        reward = float(self._sign * r.scores[self.seat]) if r.done else 0.0
        return self._answer(reward)

    def action_masks(self) -> np.ndarray:
        """The legal actions as booleans (sb3-contrib's ``ActionMasker`` and ``MaskablePPO`` ask for them)."""
        return self.encoding.mask(self.round.state).astype(bool)

    def render(self) -> str | None:
        if self.render_mode is None or self.round is None:
            return None
        r = self.round
        if r.done:
            names = list(self.lineup.names)
            names[self.seat] = AGENT
            return self.game.format_replay({**r.record(), "bots": names})
        return f"{r!r}\n{r.observation(self.seat)}"


@checked
def single_agent(
    game: str,
    seat: int = 0,
    opponents: Bots = "heuristic",
    *,
    players: int | None = None,
    rules: RuleSettings = None,
    illegal_reward: float | None = None,
    render_mode: str | None = None,
) -> SingleAgentEnv:
    """A ``gymnasium.Env`` of ``game`` in which the agent plays ``seat`` and ``opponents`` (one bot for every
    other seat, or one per seat in seat order: "mc,heuristic,heuristic") the rest."""
    return SingleAgentEnv(game, seat, opponents, players, rules, illegal_reward, render_mode)
