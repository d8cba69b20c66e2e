"""The compiled batched environment (cardsim.envs.batch, issue 42 item 4), against ``Round``: every table deals the
rounds ``new_round`` deals (table i's k-th round is round i + k * n), shows the observation ``Encoding.observe``
gives of the same round, scores what the round scores, lets its bots play as ``Game.run_bots`` plays them, and
replays its last round; ``sample_legal`` draws legal actions deterministically; an illegal action or bad input is
refused and nothing moves; the kernel frees what it allocates; and the Gymnasium vector env resets in the same step.

The vector env's tests need gymnasium (the [rl] extra): under CI a missing gymnasium fails them (an import error);
elsewhere they are skipped."""

from __future__ import annotations

import dataclasses
import os
import re

import numba
import numpy as np
import pytest
from numba.core.runtime import _nrt_python, rtsys

from cardsim import CardsimError, new_round
from cardsim.envs.batch import SAMPLE_STREAM, BatchEnv
from cardsim.games import GAMES, game_info, get_game
from cardsim.lineup import FIRST_STRONG

UNDER_CI = os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def rules_of(env: BatchEnv) -> dict:
    return dataclasses.asdict(env.rules)


def sign_of(env: BatchEnv) -> int:
    return -1 if env.game.lower_is_better else 1


def bots_table(env: BatchEnv) -> np.ndarray:
    """The env's lineup as ``Game.run_bots`` takes it: the agents' seats -1 (it stops there)."""
    table = env.lineup.table.copy()
    table[env.agents, 0] = -1
    return table


def play_on(env: BatchEnv, r) -> None:  # noqa: ANN001
    """The round's bots play on as the batch engine's do, until an agent's seat or the end."""
    if len(env.agents) < env.players:
        env.game.run_bots(env.rules, r.state, bots_table(env))
        r.refresh()


def dealt(env: BatchEnv, table: int, k: int):  # noqa: ANN201
    """Table ``table``'s k-th round as ``new_round`` deals it, its bots played on."""
    r = new_round(env.game, seed=env.seed, round=env.round_index(table, k), rules=rules_of(env))
    play_on(env, r)
    return r


def play(env: BatchEnv, r, index: int) -> None:  # noqa: ANN001
    """Action index ``index`` in the round ``r`` (public form, through ``Round.play``), then its bots."""
    code = env.encoding.code(r.state, int(index))
    assert code >= 0
    r.play(env.game.public_action(env.rules, int(env.game.kernel("decision", r.state)), code))
    play_on(env, r)


def check_tables(env: BatchEnv, rounds: list, obs: np.ndarray, mask: np.ndarray, to_move: np.ndarray) -> None:
    """Each table's row is its round's: the seat to move, its legal indexes and its honest observation."""
    for i, r in enumerate(rounds):
        assert to_move[i] == r.to_move and r.to_move in env.agents, i
        assert (mask[i] == env.encoding.mask(r.state)).all(), i
        assert (obs[i] == env.encoding.observe(r.state, r.to_move)).all(), i


def run_against_rounds(env: BatchEnv, rounds_each: int, choose=None) -> int:  # noqa: ANN001
    """Step ``env`` (``choose(env)``: the actions; default ``sample_legal``) beside a ``Round`` per table, checking
    every row, reward and finished round, until every table has finished ``rounds_each`` rounds; returns the
    steps."""
    obs, mask, to_move = env.reset()
    k = [0] * env.n
    rounds = [dealt(env, i, 0) for i in range(env.n)]
    check_tables(env, rounds, obs, mask, to_move)
    steps = 0
    while min(k) < rounds_each:
        actions = env.sample_legal() if choose is None else choose(env)
        for i, r in enumerate(rounds):
            play(env, r, actions[i])
        obs, mask, to_move, rewards, done = env.step(actions)
        steps += 1
        for i, r in enumerate(rounds):
            assert done[i] == r.done, (i, steps)
            if not done[i]:
                assert (rewards[i] == 0).all()
                continue
            assert rewards[i].tolist() == [sign_of(env) * s for s in r.scores], (i, steps)
            again = env.round(i)
            assert again.done and again.scores == r.scores and again.record() == r.record()
            k[i] += 1
            rounds[i] = dealt(env, i, k[i])
        check_tables(env, rounds, obs, mask, to_move)
    return steps


def variants(game: str) -> list:
    return [None, list(game_info(game).cases.variants[0])]


@pytest.mark.parametrize("game, rules", [(g, v) for g in GAMES for v in variants(g)], ids=lambda x: str(x))
def test_tables_deal_new_rounds_rounds_show_honest_views_and_score_the_same_in_self_play(game, rules):
    env = BatchEnv(game, n=3, rules=rules, seed=17)
    assert env.agents == list(range(env.players))
    run_against_rounds(env, 2)


def builtin(game: str) -> list[str]:
    """The game's built-in bots that are not strong (nor cheating): what ``act`` plays."""
    return [name for name, bot in get_game(game).builtin_bots.items() if bot < FIRST_STRONG]


@pytest.mark.parametrize("game", GAMES)
def test_opponents_play_inside_the_kernel_as_the_batch_engines_bots_do(game):
    for bot in builtin(game):
        env = BatchEnv(game, n=3, agents=1, opponents=bot, seed=5)
        run_against_rounds(env, 2)
    players = env.players
    mixed = ["random", "heuristic", "random", "heuristic", "random", "heuristic"][: players - 2]
    env = BatchEnv(game, n=2, agents=[0, players - 1], opponents=mixed, seed=9)
    assert [env.lineup.names[s] for s in env.opponents] == mixed
    run_against_rounds(env, 2)


def test_a_strong_opponent_plays_as_in_the_batch_engine():
    env = BatchEnv("differenzler", n=2, agents=[2], opponents="mc:samples=2,heuristic,random", seed=3)
    run_against_rounds(env, 1)
    assert live_allocations(env, 20) == 0


@pytest.mark.parametrize("game", ["wizard", "ohhell"])
def test_the_agents_take_the_decisions_named_and_assist_plays_their_other_ones(game):
    """``decisions="bid"``: every step is an agent's bid; its cards are the ``assist`` bot's, the other seats' the
    opponents', each the action that bot takes in the same round (``Round.bot_action``, the same streams)."""
    env = BatchEnv(game, n=3, agents=1, decisions="bid", assist="heuristic", opponents="rulebased", seed=6)
    assert env.decisions == ["bid"]
    bids = env.encoding.module.ACTIONS[0][1]  # the bid indexes come first
    _, mask, to_move = env.reset()
    finished = 0
    while finished < 6:
        assert (to_move == 1).all() and mask[:, :bids].any(1).all() and not mask[:, bids:].any()
        _, mask, to_move, _, done = env.step(env.sample_legal())
        for i in np.flatnonzero(done):
            record = env.round(int(i)).record()
            r = new_round(env.game, rules=rules_of(env), **{k: record[k] for k in ("seed", "round")})
            for action in record["actions"]:
                if not (r.to_move == 1 and r.decision == "bid"):
                    bot = "heuristic" if r.to_move == 1 else "rulebased"
                    assert repr(r.bot_action(bot)) == repr(action), (i, bot)
                r.play(action)
            finished += 1


def test_one_table_is_a_batch_too():
    env = BatchEnv("differenzler", n=1, seed=8)
    assert all(numba.typeof(a).layout == "C" and a.flags.writeable for a in env._stack)
    run_against_rounds(env, 1)


def test_a_table_is_dealt_round_i_plus_k_n_and_reset_moves_each_table_on():
    env = BatchEnv("ohhell", n=4, players=5, seed=21)
    obs, _, _ = env.reset()
    assert env.round_index(3, 2) == 3 + 2 * 4
    for i in range(env.n):
        assert (obs[i] == env.encoding.observe(dealt(env, i, 0).state, dealt(env, i, 0).to_move)).all()
    env.step(env.sample_legal())
    obs, _, _ = env.reset()  # each table leaves its round 0 unfinished: round 1 is next
    for i in range(env.n):
        r = dealt(env, i, 1)
        assert (obs[i] == env.encoding.observe(r.state, r.to_move)).all()
    obs, _, _ = env.reset(seed=21)  # the seed again: round 0 again
    assert (obs[2] == env.encoding.observe(dealt(env, 2, 0).state, dealt(env, 2, 0).to_move)).all()
    with pytest.raises(CardsimError, match="has finished no round"):
        env.round(2)


def test_sample_legal_is_legal_uniform_and_the_same_for_the_same_seed_and_step_on_any_threads():
    one = BatchEnv("wizard", n=4096, rules={"cards": 15}, seed=3, threads=1)
    two = BatchEnv("wizard", n=4096, rules={"cards": 15}, seed=3, threads=min(2, numba.config.NUMBA_NUM_THREADS))
    other = BatchEnv("wizard", n=4096, rules={"cards": 15}, seed=4)
    _, mask, _ = one.reset()
    two.reset(), other.reset()
    first = one.sample_legal()
    counts = np.bincount(first, minlength=one.actions)  # the first bid: 0..15 open to every table
    assert (counts[:16] > 4096 / 16 - 5 * 16).all() and counts[16:].sum() == 0
    assert not (first == other.sample_legal()).all()
    for step in range(64):
        a = one.sample_legal()
        assert (a == one.sample_legal()).all() and (a == two.sample_legal()).all()
        assert (mask[np.arange(one.n), a] == 1).all(), step
        obs, mask, _, rewards, done = one.step(a)
        obs2, *_, rewards2, done2 = two.step(a)
        assert (obs == obs2).all() and (rewards == rewards2).all() and (done == done2).all()
    assert SAMPLE_STREAM > one.players  # no round's stream


@pytest.mark.parametrize("game", GAMES)
def test_an_illegal_action_is_refused_naming_the_table_and_no_table_moves(game):
    env = BatchEnv(game, n=5, seed=2, copy=False)
    obs, mask, to_move = env.reset()
    env.step(env.sample_legal())
    before = [a.copy() for a in env._stack] + [a.copy() for a in env._buf]
    actions = env.sample_legal()
    actions[3] = int(np.flatnonzero(env._buf.mask[3] == 0)[0])
    legal = re.escape(str(np.flatnonzero(env._buf.mask[3]).tolist()))
    with pytest.raises(CardsimError, match=rf"table 3: action {actions[3]} is not legal for seat \d; legal: {legal}"):
        env.step(actions)
    actions[3] = env.actions  # outside the space
    with pytest.raises(CardsimError, match="table 3"):
        env.step(actions)
    after = [a.copy() for a in env._stack] + [a.copy() for a in env._buf]
    assert all((x == y).all() for x, y in zip(before, after, strict=True))
    assert not env._buf.obs.flags.writeable or not obs.flags.writeable  # copy=False: read-only views


def test_the_arrays_returned_are_the_callers_to_keep_or_read_only_views():
    env = BatchEnv("callpartner", n=6, seed=4)
    obs, mask, to_move = env.reset()
    kept = obs.copy()
    actions = env.sample_legal()
    illegal = actions.copy()
    illegal[2] = int(np.flatnonzero(mask[2] == 0)[0])
    mask[:] = 1  # the caller's array: the environment checks actions against its own record
    with pytest.raises(CardsimError, match="table 2: .* not legal"):
        env.step(illegal)
    obs2, mask2, *_ = env.step(actions)
    assert obs2 is not obs and (obs == kept).all() and obs.flags.writeable
    views = BatchEnv("callpartner", n=6, seed=4, copy=False)
    obs, mask, to_move = views.reset()
    assert not (obs.flags.writeable or mask.flags.writeable or to_move.flags.writeable)
    assert (obs == kept).all() and (obs == views.step(actions)[0]).all()  # the next step's, in the same array


def test_bad_input_is_refused_naming_what_is_allowed():
    with pytest.raises(CardsimError, match="unknown game 'skat'"):
        BatchEnv("skat")
    with pytest.raises(CardsimError, match=r"agents=\[4\] is not allowed: .* 0 to 3"):
        BatchEnv("wizard", agents=[4])
    with pytest.raises(CardsimError, match="agents"):
        BatchEnv("wizard", agents=[1, 1])
    with pytest.raises(CardsimError, match="agents"):
        BatchEnv("wizard", agents=[])
    with pytest.raises(CardsimError, match="opponent 'nobody' is not allowed: .*random"):
        BatchEnv("wizard", agents=0, opponents="nobody")
    with pytest.raises(CardsimError, match="opponent 'bots/examples.py:Bot' is not allowed: .*built-in"):
        BatchEnv("wizard", agents=0, opponents="bots/examples.py:Bot")
    with pytest.raises(CardsimError, match="2 bots for the 3 other seats"):
        BatchEnv("wizard", agents=0, opponents="random,heuristic")
    with pytest.raises(CardsimError, match="opponents="):
        BatchEnv("wizard", agents=0, opponents=[print])
    with pytest.raises(CardsimError, match=r"decisions='predict' is not allowed: .*\['bid', 'trump', 'card'\]"):
        BatchEnv("wizard", agents=0, decisions="predict")
    with pytest.raises(CardsimError, match="decisions=.* is not allowed"):
        BatchEnv("wizard", agents=0, decisions=[])
    with pytest.raises(CardsimError, match="assist='nobody' is not allowed: .*heuristic"):
        BatchEnv("wizard", agents=0, decisions="bid", assist="nobody")
    with pytest.raises(CardsimError, match="n=0 is not allowed"):
        BatchEnv("wizard", n=0)
    with pytest.raises(CardsimError, match="threads=0 is not allowed"):
        BatchEnv("wizard", threads=0)
    with pytest.raises(CardsimError, match="players"):
        BatchEnv("wizard", players=9)
    with pytest.raises(CardsimError, match="seed"):
        BatchEnv("wizard", seed=-1)
    env = BatchEnv("wizard", n=4)
    with pytest.raises(CardsimError, match="before reset"):
        env.step(np.zeros(4, np.int64))
    with pytest.raises(CardsimError, match="before reset"):
        env.sample_legal()
    env.reset()
    legal = env.sample_legal()
    for wrong, what in ((legal.astype(np.int32), "int32"), (legal.astype(float), "float64"),
                        (legal[:3], r"shape \(3,\)"), (legal.tolist(), "a list")):  # fmt: skip
        with pytest.raises(CardsimError, match=rf"int64 and shape \(4,\), .*not .*{what}"):
            env.step(wrong)
    with pytest.raises(CardsimError, match="table 4 is not allowed|table=4"):
        env.round(4)


def live_allocations(env: BatchEnv, steps: int) -> int:
    """How many more of numba's allocations are alive after ``steps`` steps of ``env`` than before them."""
    env.reset()
    env.step(env.sample_legal())
    _nrt_python.memsys_enable_stats()
    try:
        before = rtsys.get_allocation_stats()
        for _ in range(steps):
            env.step(env.sample_legal())
        after = rtsys.get_allocation_stats()
    finally:
        _nrt_python.memsys_disable_stats()
    assert after.alloc - before.alloc >= steps * env.n  # a view per step and table, freed
    return (after.alloc - after.free) - (before.alloc - before.free)


@pytest.mark.parametrize("game", GAMES)
def test_the_kernel_frees_every_view_it_allocates_whoever_plays(game):
    """``_table`` counts no references, nor do the functions it calls directly: what allocates must run in
    functions it calls through their address. A bot or step of the state machine that allocated would leak here."""
    for bot in builtin(game):
        assert live_allocations(BatchEnv(game, n=8, agents=0, opponents=bot, seed=1), 60) == 0, bot
    assert live_allocations(BatchEnv(game, n=8, seed=1, copy=False), 60) == 0


# --- the Gymnasium vector env ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def gymnasium():  # noqa: ANN201
    if UNDER_CI:
        import gymnasium

        return gymnasium
    return pytest.importorskip("gymnasium", reason="the [rl] extra is not installed")


@pytest.mark.parametrize("game", GAMES)
def test_the_vector_env_resets_in_the_same_step_with_final_obs_and_final_info(game, gymnasium):
    env = BatchEnv(game, n=4, agents=2, opponents="heuristic", seed=8)
    vec = env.as_vector_env()
    assert isinstance(vec, gymnasium.vector.VectorEnv)
    assert vec.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    assert vec.single_action_space == gymnasium.spaces.Discrete(env.actions)
    assert vec.action_space == gymnasium.spaces.MultiDiscrete([env.actions] * 4)
    assert vec.observation_space.shape == (4, env.bytes) and vec.observation_space.dtype == np.uint8
    obs, info = vec.reset(seed=8)
    assert vec.observation_space.contains(obs) and (info["action_mask"] == env._buf.mask).all()
    rounds, k, finished = [dealt(env, i, 0) for i in range(4)], [0] * 4, 0
    rng = np.random.default_rng(0)
    while finished < 6:
        masks = vec.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        for i, r in enumerate(rounds):
            play(env, r, actions[i])
        obs, rewards, terminated, truncated, info = vec.step(actions)
        assert not truncated.any() and (terminated == np.array([r.done for r in rounds])).all()
        for i, r in enumerate(rounds):
            if terminated[i]:
                assert rewards[i] == sign_of(env) * r.scores[2] and info["_final_obs"][i]
                assert (info["final_obs"][i] == env.encoding.observe(r.state, 2)).all()
                assert info["final_info"]["scores"][i].tolist() == r.scores and info["final_info"]["_scores"][i]
                k[i], finished = k[i] + 1, finished + 1
                rounds[i] = dealt(env, i, k[i])
            else:
                assert rewards[i] == 0 and ("final_obs" not in info or info["final_obs"][i] is None)
            assert (obs[i] == env.encoding.observe(rounds[i].state, 2)).all()
    with pytest.raises(CardsimError, match="integers of shape"):
        vec.step(np.zeros(4))
    with pytest.raises(CardsimError, match="one agent seat"):
        BatchEnv(game, n=2).as_vector_env()
