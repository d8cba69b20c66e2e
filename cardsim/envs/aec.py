"""PettingZoo AEC environments of every game (``cardsim.envs.<game>_v0``), over the game's state machine.

Agents ``player_0 .. player_{n-1}`` are the seats. ``observe(agent)`` is a dict: ``observation`` (the seat's honest
view, ``uint8[bytes]`` bit-packed: ``cardsim.envs.spaces``) and ``action_mask`` (``int8``, all 0 unless the agent
is to act). The round's steps are the state machine's: an action index becomes its action code and ``apply`` takes
it. Rewards come when a round ends: the game's own score (a penalty, Differenzler's, as minus the penalty); with
``whole_games=True`` an episode is a whole game and each round's score comes as its round ends.

``reset(seed=s)`` deals round 0 of seed ``s`` (game 0 with ``whole_games``); each later ``reset()`` without a seed
deals the next round index (game number) of the same seed, so ``new_round(game, seed=s, round=k)`` and ``cardsim
replay GAME --seed s --round k`` show the k-th episode's deal. No seed at all: seed 0.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from cardsim.envs.spaces import Encoding
from cardsim.errors import CardsimError
from cardsim.games import game_info, get_game
from cardsim.options import RuleSettings
from cardsim.rng import check_seed
from cardsim.round import Match, Round, new_game, new_round


def reward_sign(game: Any) -> int:
    """+1 where a higher score is better, -1 for a penalty (the reward is minus it)."""
    return -1 if game.lower_is_better else 1


class CardsimAEC(AECEnv):
    """One table of ``game`` as a PettingZoo AEC environment (see the module doc)."""

    metadata = {"render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, game: str, players: int | None = None, rules: RuleSettings = None,
                 render_mode: str | None = None, whole_games: bool = False):  # fmt: skip
        super().__init__()
        front = get_game(game)
        if render_mode not in (None, "ansi"):
            raise CardsimError(f"render_mode {render_mode!r} is not allowed: None or 'ansi'")
        if not isinstance(whole_games, bool):
            raise CardsimError(f"whole_games must be True or False, not {whole_games!r}")
        self.rules = front.make_rules(rules, players)
        front.check_units(self.rules, whole_games)
        self.game, self.whole_games, self.render_mode = front, whole_games, render_mode
        self.encoding = Encoding(front, self.rules)
        self.metadata = {**self.metadata, "name": f"{front.name}_v0"}
        self.possible_agents = [f"player_{seat}" for seat in range(self.encoding.players)]
        self.agents: list[str] = []
        observation = spaces.Box(0, 255, (self.encoding.bytes,), np.uint8)
        mask = spaces.Box(0, 1, (self.encoding.actions,), np.int8)
        self.observation_spaces = {a: spaces.Dict({"observation": observation, "action_mask": mask})
                                   for a in self.possible_agents}  # fmt: skip
        self.action_spaces = {a: spaces.Discrete(self.encoding.actions) for a in self.possible_agents}
        self._sign = reward_sign(front)
        self._seed, self._episode = 0, -1
        self.match: Match | None = None
        self.round: Round | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._seed, self._episode = check_seed(seed), 0
        else:
            self._episode += 1
        rules = dataclasses.asdict(self.rules)
        if self.whole_games:
            self.match = new_game(self.game, seed=self._seed, game_no=self._episode, rules=rules)
            self.round = self.match.round
        else:
            self.round = new_round(self.game, seed=self._seed, round=self._episode, rules=rules)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.round.to_move]
        self._mask = self.encoding.mask(self.round.state)  # the decision at hand's, kept up to date by step

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        mask = self._mask.copy() if seat == self.round.to_move else np.zeros(self.encoding.actions, np.int8)
        return {"observation": self.encoding.observe(self.round.state, seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0  # what it was told so far, told (AEC: rewards since its last step)
        r = self.round
        if action is None or self.encoding.play(r.state, int(action), self._mask) == -2:
            legal = np.flatnonzero(self._mask).tolist()
            raise CardsimError(f"action {action!r} of {agent} is not legal at this {r.decision} decision; "
                               f"legal: {legal} (the observation's action_mask)")  # fmt: skip
        r.refresh()
        self._clear_rewards()
        if r.done:
            for seat, score in enumerate(r.scores):
                self.rewards[self.possible_agents[seat]] = float(self._sign * score)
            if self.match is None or self.match.next_round() is None:
                self.terminations = dict.fromkeys(self.agents, True)
            else:
                self.round = self.match.round
                self._mask = self.encoding.mask(self.round.state)
        if not self.terminations[agent]:
            self.agent_selection = self.possible_agents[self.round.to_move]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None or self.round is None:
            return None
        r = self.round
        if r.done:
            return self.game.format_replay({**r.record(), "bots": self.possible_agents})
        return f"{r!r}\n{r.observation(r.to_move)}"

    def close(self) -> None:
        pass


def raw_env(game: str, players: int | None = None, rules: RuleSettings = None, render_mode: str | None = None,
            whole_games: bool = False) -> CardsimAEC:  # fmt: skip
    """The bare AEC environment: an action outside the mask raises ``CardsimError`` and changes nothing."""
    return CardsimAEC(game, players, rules, render_mode, whole_games)


def env(game: str, players: int | None = None, rules: RuleSettings = None, render_mode: str | None = None,
        whole_games: bool = False) -> AECEnv:  # fmt: skip
    """``raw_env`` wrapped as ``pettingzoo.classic``'s environments are: an illegal action ends the episode with
    the game's ``illegal_reward`` for the agent that took it (``TerminateIllegalWrapper``), an action outside the
    space is refused (``AssertOutOfBoundsWrapper``), and the API's order is enforced."""
    aec = raw_env(game, players, rules, render_mode, whole_games)
    aec = wrappers.TerminateIllegalWrapper(aec, illegal_reward=game_info(aec.game.name).illegal_reward)
    aec = wrappers.AssertOutOfBoundsWrapper(aec)
    return wrappers.OrderEnforcingWrapper(aec)


__all__ = ["CardsimAEC", "env", "raw_env"]
