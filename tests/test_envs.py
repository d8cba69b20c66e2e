"""The environments for AI research (cardsim.envs, issue 42): PettingZoo's own API and seed tests and Gymnasium's
env checker on every game and player count, the same deals as new_round and replay, honest views, the refusal of
an illegal action, and a round replayed from its record.

Under CI a missing pettingzoo or gymnasium fails these tests (an import error at collection); elsewhere they are
skipped."""

from __future__ import annotations

import json
import os
import random

import numpy as np
import pytest

if os.environ.get("CI", "").strip().lower() in ("", "0", "false", "no"):
    pytest.importorskip("pettingzoo", reason="the [rl] extra is not installed")
    pytest.importorskip("gymnasium", reason="the [rl] extra is not installed")
from conftest import redeal_hidden, start_of  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import cardsim.envs as envs  # noqa: E402
from cardsim import CardsimError, new_round, replay  # noqa: E402
from cardsim.envs.spaces import Encoding  # noqa: E402
from cardsim.games import GAMES, game_info, get_game  # noqa: E402

PLAYER_COUNTS = [(game, players) for game in GAMES for players in game_info(game).players]


def versioned(game: str):  # noqa: ANN201
    return getattr(envs, f"{game}_v0")


@pytest.mark.parametrize("game, players", PLAYER_COUNTS, ids=lambda x: str(x))
def test_pettingzoo_api_test_passes_for_every_game_and_player_count(game, players):
    api_test(versioned(game).env(players=players), num_cycles=60)


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_seed_test_passes(game):
    seed_test(versioned(game).env, num_cycles=30)


def play_random(aec, rng: random.Random) -> dict[str, float]:
    """One episode with random legal actions; each agent's rewards summed as ``last()`` gives them."""
    totals: dict[str, float] = {}
    for agent in aec.agent_iter():
        obs, reward, termination, truncation, info = aec.last()
        totals[agent] = totals.get(agent, 0.0) + reward
        if termination or truncation:
            aec.step(None)
            continue
        aec.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    return totals


@pytest.mark.parametrize("game", GAMES)
def test_reset_seed_deals_round_0_and_each_reset_the_next_round_as_new_round_does(game):
    aec = versioned(game).raw_env()
    rng = random.Random(3)
    for k in range(3):
        aec.reset(seed=11) if k == 0 else aec.reset()
        dealt = aec.round.record()
        expected = new_round(game, seed=11, round=k).record()
        assert dealt["start"] == expected["start"]
        totals = play_random(aec, rng)
        record, scores = aec.round.record(), game_info(game).cases.record_scores
        assert replay(record=json.loads(json.dumps(record)))[scores] == record[scores]
        sign = -1 if get_game(game).lower_is_better else 1
        assert [totals[a] for a in aec.possible_agents] == [sign * s for s in aec.round.scores]


@pytest.mark.parametrize("game", GAMES)
def test_raw_env_refuses_an_action_outside_the_mask_and_changes_nothing(game):
    aec = versioned(game).raw_env()
    aec.reset(seed=1)
    obs = aec.observe(aec.agent_selection)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = aec.round.to_json()
    with pytest.raises(CardsimError, match="not legal"):
        aec.step(illegal)
    assert aec.round.to_json() == before


@pytest.mark.parametrize("game", GAMES)
def test_env_ends_the_episode_with_the_games_illegal_reward(game):
    aec = versioned(game).env()
    aec.reset(seed=1)
    agent = aec.agent_selection
    obs, *_ = aec.last()
    aec.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert aec.rewards[agent] == game_info(game).illegal_reward and all(aec.terminations.values())


@pytest.mark.parametrize("game", GAMES)
def test_whole_games_run_round_after_round_and_reward_each_rounds_score(game):
    aec = versioned(game).raw_env(whole_games=True)
    aec.reset(seed=2)
    match = aec.match
    totals = play_random(aec, random.Random(5))
    assert match.done and len(match.rounds) > 1
    sign = -1 if get_game(game).lower_is_better else 1
    assert [totals[a] for a in aec.possible_agents] == [sign * t for t in match.totals]


@pytest.mark.parametrize("game, rules", [(g, v) for g in GAMES for v in (None, *game_info(g).cases.variants)],
                         ids=lambda x: str(x))  # fmt: skip
def test_a_seats_observation_is_the_same_when_the_cards_it_cannot_see_are_dealt_anew(game, rules):
    """Every seat's encoded observation at sampled steps of random rounds, against the round with the cards that
    seat cannot see dealt anew and the same actions taken (as tests/test_contract.py re-deals them): the encoding
    reads only the seat's view."""
    front = get_game(game)
    enc = Encoding(front, front.make_rules(list(rules) if rules else None))
    rng, checked = random.Random(7), 0
    for i in range(4):
        r = new_round(game, seed=5, round=i, rules=list(rules) if rules else None)
        actions = []
        while not r.done:
            actions.append(rng.choice(r.legal()))
            r.play(actions[-1])
        record = r.record()
        for k in sorted(rng.sample(range(len(actions)), min(6, len(actions)))):
            at = new_round(game, rules=record["rules"], **start_of(record))
            played: list[set[str]] = [set() for _ in record["hands"]]
            for a in actions[:k]:
                if at.decision in ("card", "discard"):
                    played[at.to_move].add(a)
                at.play(a)
            for seat in range(enc.players):
                sees_kitty = getattr(at.observation(seat), "kitty", None) is not None
                mine = bytes(enc.observe(at.state, seat))
                for _ in range(30):
                    start = redeal_hidden(record, seat, played, sees_kitty, rng)
                    other = new_round(game, rules=record["rules"], **start)
                    try:
                        for a in actions[:k]:
                            other.play(a)
                    except CardsimError:
                        continue  # this re-deal contradicts a play (a void shown): not a possible deal
                    assert bytes(enc.observe(other.state, seat)) == mine, (i, k, seat)
                    checked += 1
                    break
    assert checked >= 40


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_single_agent_passes_the_env_checker_and_plays_as_the_bots_do(game):
    env = envs.single_agent(game, seat=1, opponents="heuristic")
    check_env(env, skip_render_check=True)
    obs, info = env.reset(seed=4)
    assert env.observation_space.contains(obs) and info["action_mask"].dtype == np.int8
    rng = random.Random(1)
    done, total = False, 0.0
    while not done:
        action = rng.choice(np.flatnonzero(info["action_mask"]).tolist())
        obs, reward, done, truncated, info = env.step(action)
        total += reward
    sign = -1 if get_game(game).lower_is_better else 1
    assert total == sign * env.round.scores[1] and not info["illegal"]


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_an_illegal_action_ends_the_episode_with_illegal_reward_and_changes_nothing(game):
    env = envs.single_agent(game, opponents="random", illegal_reward=-3.5)
    obs, info = env.reset(seed=2)
    before = env.round.to_json()
    obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
    assert (reward, terminated, info["illegal"]) == (-3.5, True, True) and env.round.to_json() == before


def test_bad_environment_settings_are_refused_naming_what_is_allowed():
    with pytest.raises(CardsimError, match="unknown game 'skat'"):
        envs.single_agent("skat")
    with pytest.raises(CardsimError, match="seat 4 is not allowed: 0 to 3"):
        envs.single_agent("wizard", seat=4)
    with pytest.raises(CardsimError, match="opponents"):
        envs.single_agent("wizard", opponents="random,random")
    with pytest.raises(CardsimError, match="players"):
        envs.wizard_v0.env(players=9)
    with pytest.raises(CardsimError, match="render_mode"):
        envs.ohhell_v0.raw_env(render_mode="human")
    with pytest.raises(AttributeError):
        envs.skat_v0  # noqa: B018


def test_a_record_replays_move_by_move_and_a_tampered_one_is_refused(tmp_path):
    r = new_round("callpartner", seed=3, round=1)
    rng = random.Random(2)
    while not r.done:
        r.play(rng.choice(r.legal()))
    record = json.loads(json.dumps(r.record()))
    again = replay(record=record)
    assert [m["action"] for m in again["moves"]] == [tuple(a) if isinstance(a, list) else a for a in record["actions"]]
    assert again["scores"] == record["scores"]  # call-partner's record names them scores
    with pytest.raises(CardsimError, match="scores"):
        replay(record={**record, "scores": [s + 1 for s in record["scores"]]})
    with pytest.raises(CardsimError, match="move 0"):
        replay(record={**record, "actions": ["not an action"] + record["actions"][1:]})
    with pytest.raises(CardsimError, match="leave out seed"):
        replay(record=record, seed=3)


def test_the_docs_page_lists_every_games_fields_and_illegal_reward_as_the_code_has_them():
    """docs/rl.md's tables are the encodings' own (``field_table``): a changed field shows there or fails here."""
    from pathlib import Path

    from cardsim.envs.spaces import field_table

    page = (Path(__file__).resolve().parent.parent / "docs" / "rl.md").read_text()
    for game in GAMES:
        assert field_table(envs.encoding(game)) in page, f"docs/rl.md: {game}'s field table is not the code's"
        assert f"| {game_info(game).title} | {game_info(game).illegal_reward:g} |" in page
