"""The AEC adapter's bookkeeping, driven through Tiny Duel scenarios."""

from __future__ import annotations

import numpy as np
import pytest
from playouts import play, random_action
from tiny_duel import PASS, PLAY_HEAL, PLAY_STRIKE, TinyDuel, raw_env

from meeplezoo.envs.core import (
    ActionTypeError,
    ConfigError,
    CorruptStateError,
    EngineEnv,
    IllegalActionError,
)


def loaded(game: TinyDuel, state, **adapter) -> EngineEnv:
    env = EngineEnv(game, "tiny_duel_v0", **adapter)
    env.load(state)
    return env


def masks(env: EngineEnv) -> dict[str, np.ndarray]:
    return {a: env.observe(a)["action_mask"] for a in env.agents}


# --- reactions ---------------------------------------------------------------------------------------


def test_reaction_selects_the_target_and_masks_everyone_else():
    game = TinyDuel(num_players=3)
    env = loaded(game, game.position(hands=[[1, 0, 0], [0, 0, 0], [0, 1, 0]]))
    assert env.agent_selection == "player_0"
    env.step(PLAY_STRIKE)
    assert env.agent_selection == "player_0"  # same turn: choose the target
    m = masks(env)
    assert m["player_0"].tolist() == [0, 0, 0, 1, 1, 0, 0]
    assert not m["player_1"].any() and not m["player_2"].any()
    env.step(game.target(2))  # two seats on: player_2
    assert env.agent_selection == "player_2"
    m = masks(env)
    assert m["player_2"].tolist() == [0, 0, 0, 0, 0, 1, 1]  # block (holds one) or take the hit
    assert not m["player_0"].any() and not m["player_1"].any()
    obs = env.observe("player_2")["observation"]
    assert obs[3 * 3 + 3 + 4] == 1.0  # "my decision"
    assert env.observe("player_0")["observation"][3 * 3 + 3 + 4] == 0.0
    env.step(game.block)
    assert env.agent_selection == "player_1"  # the turn passes to the seat after the active one
    assert env.state_obj.hp == [3, 3, 3]
    assert env.state_obj.hands == [[1, 0, 0], [0, 0, 0], [0, 0, 0]]  # player_0 drew; the block is spent
    assert masks(env)["player_1"].tolist() == [1, 0, 0, 0, 0, 0, 0]  # an empty hand can only pass


def test_reaction_without_block_can_only_take_the_hit():
    game = TinyDuel(num_players=2)
    env = loaded(game, game.position(hands=[[1, 0, 0], [0, 0, 1]]))
    env.step(PLAY_STRIKE)
    env.step(game.target(1))
    assert env.agent_selection == "player_1"
    assert masks(env)["player_1"].tolist() == [0, 0, 0, 0, 0, 1]
    env.step(game.take_hit)
    assert env.state_obj.hp == [3, 2]
    assert env.agent_selection == "player_1" and env.state_obj.pending() == "play"
    assert masks(env)["player_1"].tolist() == [1, 0, 1, 0, 0, 0]  # hurt, so the heal is playable


# --- elimination ---------------------------------------------------------------------------------------


def test_eliminated_agent_is_rewarded_steps_once_with_none_and_leaves():
    game = TinyDuel(num_players=3)
    env = loaded(game, game.position(hp=[3, 1, 3], hands=[[1, 0, 0], [0, 0, 1], [0, 1, 0]]))
    env.step(PLAY_STRIKE)
    env.step(game.target(1))
    assert env.agent_selection == "player_1"
    env.step(game.take_hit)

    assert env.state_obj.eliminated() == {1}
    assert env.terminations == {"player_0": False, "player_1": True, "player_2": False}
    assert env.rewards == {"player_0": 0.0, "player_1": -0.5, "player_2": 0.0}
    assert env.agent_selection == "player_1"
    obs, reward, terminated, truncated, _ = env.last()
    assert (reward, terminated, truncated) == (-0.5, True, False)
    assert not obs["action_mask"].any()
    with pytest.raises(ActionTypeError, match="only valid action is None"):
        env.step(game.take_hit)
    env.step(None)

    assert env.agents == ["player_0", "player_2"]
    assert "player_1" not in env.rewards and "player_1" not in env.terminations
    assert env.agent_selection == "player_2"  # the next living seat after player_0
    assert env.state_obj.discard == [1, 0, 1]  # the strike, and the eliminated player's hand
    log = play(env, np.random.default_rng(0))
    assert "player_1" not in log.selected
    assert len([a for a in log.actions if a is not None]) >= 1  # the others played on
    assert log.returns["player_0"] + log.returns["player_2"] == pytest.approx(0.5)


def test_last_elimination_ends_the_game_for_everyone():
    game = TinyDuel(num_players=2)
    env = loaded(game, game.position(hp=[1, 1], hands=[[1, 0, 0], [0, 0, 0]], active=1))
    assert env.agent_selection == "player_1"
    env.step(PASS)
    env.step(PLAY_STRIKE)
    env.step(game.target(1))
    env.step(game.take_hit)
    assert env.state_obj.is_terminal()
    assert env.terminations == {"player_0": True, "player_1": True}
    assert env.rewards == {"player_0": 1.0, "player_1": -1.0}
    env.step(None)
    env.step(None)
    assert env.agents == []
    with pytest.raises(RuntimeError, match="reset"):
        env.step(None)


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_eliminated_agents_never_return_and_get_their_final_return(n):
    """Over random games: each agent is selected after termination exactly once (the None step), an
    eliminated agent's reward (given at elimination) equals what the final ranking says, zero-sum."""
    game = TinyDuel(num_players=n, max_turns=200)
    eliminations = 0
    for seed in range(30):
        env = EngineEnv(game, "tiny_duel_v0")
        env.reset(seed=seed)
        log = play(env, np.random.default_rng(seed))
        final = env.state_obj
        assert set(log.done_at) == set(env.possible_agents)
        for agent, first_done in log.done_at.items():
            assert log.selected[first_done + 1 :].count(agent) == 0
            assert log.actions[first_done] is None
        ranks = final.ranks()
        for seat, agent in enumerate(env.possible_agents):
            winners = ranks.count(0)
            expected = (n / winners - 1) / (n - 1) if ranks[seat] == 0 else -1 / (n - 1)
            assert log.returns[agent] == pytest.approx(expected)
        assert sum(log.returns.values()) == pytest.approx(0.0)
        eliminations += len(final.eliminated())
    assert eliminations > 0


def test_elimination_and_truncation_in_the_same_step():
    game = TinyDuel(num_players=3)
    env = loaded(game, game.position(hp=[3, 1, 3], hands=[[1, 0, 0], [0, 0, 0], [0, 0, 0]]), max_cycles=1)
    env.step(PLAY_STRIKE)
    env.step(game.target(1))
    env.step(game.take_hit)  # the third decision of max_cycles * 3: eliminated and truncated at once
    assert env.terminations == {"player_0": False, "player_1": True, "player_2": False}
    assert all(env.truncations.values())
    assert env.rewards == {"player_0": 0.0, "player_1": -0.5, "player_2": 0.0}
    assert env.agent_selection == "player_1"
    log = play(env, np.random.default_rng(0))
    assert sorted(log.selected) == ["player_0", "player_1", "player_2"] and log.actions == [None] * 3
    assert env.agents == []


@pytest.mark.parametrize("ending", ["truncation", "illegal action", "game over"])
def test_no_mask_once_every_agent_is_gone(ending):
    env = raw_env(num_players=3, max_cycles=1 if ending == "truncation" else None)
    env.reset(seed=1)
    if ending == "illegal action":
        with pytest.warns(UserWarning, match="illegal"):
            env.step(env.game.block)
    play(env, np.random.default_rng(1))
    assert env.agents == []
    for agent in env.possible_agents:
        assert not env.observe(agent)["action_mask"].any()


# --- reward modes --------------------------------------------------------------------------------------


def turn_limit_env(reward_mode: str) -> EngineEnv:
    """Three players on the last turn with 3, 3 and 1 hit points; player_0 passes to end the game."""
    game = TinyDuel(num_players=3, max_turns=10)
    env = loaded(game, game.position(hp=[3, 3, 1], turn=9), reward_mode=reward_mode)
    env.step(PASS)
    assert env.state_obj.is_terminal()
    assert all(env.terminations.values())
    return env


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        ("win", {"player_0": 0.25, "player_1": 0.25, "player_2": -0.5}),
        ("rank", {"player_0": 1.0, "player_1": 1.0, "player_2": -1.0}),
        ("score_margin", {"player_0": 1 / 3, "player_1": 1 / 3, "player_2": -2 / 3}),
    ],
)
def test_reward_modes_exact_values(mode, expected):
    env = turn_limit_env(mode)
    assert env.rewards == pytest.approx(expected)
    assert env._cumulative_rewards == pytest.approx(expected)
    for _ in range(3):
        assert env.agent_selection in env.agents
        _, reward, terminated, _, _ = env.last()
        assert terminated and reward == pytest.approx(expected[env.agent_selection])
        env.step(None)
    assert env.agents == []


def test_rank_mode_rewards_eliminations_in_order():
    game = TinyDuel(num_players=3)
    env = loaded(game, game.position(hp=[3, 1, 1], hands=[[2, 0, 0], [0, 0, 0], [0, 0, 0]]), reward_mode="rank")
    for victim_offset, victim, reward in [(1, "player_1", -1.0), (2, "player_2", 0.0)]:
        if env.agent_selection != "player_0":
            env.step(PASS)
        env.step(PLAY_STRIKE)
        env.step(game.target(victim_offset))
        env.step(game.take_hit)
        assert env.rewards[victim] == reward and env.terminations[victim]
        if not env.state_obj.is_terminal():
            env.step(None)
    assert env.rewards["player_0"] == 1.0
    assert env.state_obj.ranks() == [0, 2, 1]


def test_penalize_illegal_action_ends_the_game():
    env = raw_env(num_players=3)
    env.reset(seed=7)
    agent = env.agent_selection
    block = env.game.block  # never legal in the "play" decision
    with pytest.warns(UserWarning, match=rf"{agent}: illegal action {block} .*'play'.*'block'"):
        env.step(block)
    assert all(env.terminations.values())
    assert env.rewards == {a: (-1.0 if a == agent else 0.0) for a in env.possible_agents}
    assert env.infos[agent]["illegal_action"] == {"agent": agent, "action": block}
    log = play(env, np.random.default_rng(0))
    assert log.actions == [None, None, None]
    assert set(log.returns.values()) == {0.0}  # nothing more after the penalty


def test_penalize_uses_illegal_reward():
    env = raw_env(illegal_reward=-5)
    env.reset(seed=1)
    with pytest.warns(UserWarning, match="-5.0"):
        env.step(env.game.take_hit)
    assert sorted(env.rewards.values()) == [-5.0, 0.0]


def test_raise_illegal_action_names_it_and_changes_nothing():
    game = TinyDuel(num_players=3)
    env = loaded(game, game.position(hands=[[0, 1, 0], [0, 0, 0], [0, 0, 0]], active=0), illegal_action="raise")
    before = env.state_obj.to_json()
    with pytest.raises(IllegalActionError) as info:
        env.step(PLAY_HEAL)  # holds no heal (and is unhurt)
    err = info.value
    assert (err.action, err.player, err.pending) == (PLAY_HEAL, 0, "play")
    assert "player_0" in str(err) and "illegal action 2" in str(err) and "'play'" in str(err)
    assert "'play a heal'" in str(err)
    assert isinstance(err, ValueError)
    assert env.state_obj.to_json() == before
    assert env.agent_selection == "player_0" and not any(env.terminations.values())
    env.step(PASS)  # the env is still usable
    assert env.agent_selection == "player_1"


@pytest.mark.parametrize("action", [None, 1.0, np.float32(0), "0", True, np.bool_(False), [0]])
def test_wrong_action_type_raises(action):
    env = raw_env()
    env.reset(seed=3)
    before = env.state_obj.to_json()
    with pytest.raises(ActionTypeError, match=f"{env.agent_selection} must act with an int action"):
        env.step(action)
    assert isinstance(ActionTypeError(), TypeError)
    assert env.state_obj.to_json() == before


@pytest.mark.parametrize("action", [-1, 6, 10**9])
def test_out_of_range_action_raises(action):
    env = raw_env()
    env.reset(seed=3)
    before = env.state_obj.to_json()
    with pytest.raises(ValueError, match=rf"action {action} .* out of range.*Discrete\(6\)"):
        env.step(action)
    assert env.state_obj.to_json() == before


def test_numpy_integer_actions_are_accepted():
    env = raw_env()
    env.reset(seed=3)
    env.step(np.int8(PASS))
    assert env.agent_selection == "player_1"


# --- configuration -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "names"),
    [
        ({"num_players": 1}, "num_players"),
        ({"num_players": 7}, "num_players"),
        ({"num_players": "3"}, "num_players"),
        ({"num_players": True}, "num_players"),
        ({"num_players": 2.0}, "num_players"),
        ({"max_turns": 0}, "max_turns"),
        ({"hand_size": 4}, "hand_limit"),
        ({"num_players": 6, "strikes": 1, "blocks": 1, "heals": 1}, "deal"),
        ({"players": 3}, "players"),
        ({"render": "ansi"}, "render"),
    ],
)
def test_bad_game_config_raises(kwargs, names):
    with pytest.raises(ConfigError, match=names):
        raw_env(**kwargs)


@pytest.mark.parametrize(
    ("kwargs", "names"),
    [
        ({"render_mode": "rgb_array"}, "render_mode"),
        ({"reward_mode": "points"}, "reward_mode"),
        ({"illegal_action": "ignore"}, "illegal_action"),
        ({"max_cycles": 0}, "max_cycles"),
        ({"max_cycles": -2}, "max_cycles"),
        ({"max_cycles": 2.5}, "max_cycles"),
        ({"max_cycles": "10"}, "max_cycles"),
        ({"max_cycles": True}, "max_cycles"),
        ({"illegal_reward": "big"}, "illegal_reward"),
        ({"illegal_reward": None}, "illegal_reward"),
        ({"illegal_reward": float("nan")}, "illegal_reward"),
    ],
)
def test_bad_adapter_kwargs_raise(kwargs, names):
    with pytest.raises(ConfigError, match=names):
        raw_env(**kwargs)


def test_games_are_values():
    assert TinyDuel(num_players=3) == TinyDuel(num_players=3) != TinyDuel(num_players=4)
    assert len({TinyDuel(), TinyDuel(num_players=2), TinyDuel(max_turns=9)}) == 2
    assert TinyDuel() != "tiny_duel"


def test_config_errors_are_value_errors():
    assert issubclass(ConfigError, ValueError)
    assert TinyDuel(num_players=4).config["num_players"] == 4
    assert raw_env(num_players=5, max_cycles=3).possible_agents[-1] == "player_4"


# --- lifecycle -----------------------------------------------------------------------------------------


def test_using_the_env_before_reset_raises():
    env = raw_env(render_mode="ansi")
    for call in (
        lambda: env.step(0),
        lambda: env.observe("player_0"),
        lambda: env.state(),
        lambda: env.render(),
        lambda: env.describe_action(0),
    ):
        with pytest.raises(RuntimeError, match="reset"):
            call()


def test_reset_seeds():
    env = raw_env(num_players=4)
    env.reset(seed=11)
    first = env.state_obj.to_json()
    env.reset()
    second = env.state_obj.to_json()
    env.reset(seed=11)
    assert env.state_obj.to_json() == first
    env.reset()
    assert env.state_obj.to_json() == second  # the unseeded reset continues the seeded stream
    deals = set()
    for _ in range(10):
        env.reset()
        deals.add(str(env.state_obj.hands))
    assert len(deals) > 1


@pytest.mark.parametrize("n", [2, 5])
def test_same_seed_and_actions_give_identical_envs(n):
    env_a, env_b = raw_env(num_players=n, max_cycles=60), raw_env(num_players=n, max_cycles=60)
    env_a.reset(seed=21)
    env_b.reset(seed=21)
    rng_a, rng_b = np.random.default_rng(3), np.random.default_rng(3)
    while env_a.agents:
        assert env_a.state_obj.to_json() == env_b.state_obj.to_json()
        agent = env_a.agent_selection
        assert env_b.agent_selection == agent
        done = env_a.terminations[agent] or env_a.truncations[agent]
        env_a.step(None if done else random_action(env_a, agent, rng_a))
        env_b.step(None if done else random_action(env_b, agent, rng_b))
        assert (env_a.rewards, env_a.terminations, env_a.truncations) == (
            env_b.rewards,
            env_b.terminations,
            env_b.truncations,
        )
    assert env_b.agents == []


def test_observations_masks_and_state_through_the_env():
    env = raw_env(num_players=4)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    while not env.state_obj.is_terminal():
        agent = env.agent_selection
        if env.terminations[agent]:  # just eliminated: it steps once with None
            assert not env.observe(agent)["action_mask"].any()
            env.step(None)
            continue
        seat = env.possible_agents.index(agent)
        assert env.state_obj.current_player() == seat
        for a in env.agents:
            obs = env.observe(a)
            assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
            assert env.observation_space(a).contains(obs)
            expected = env.state_obj.legal_mask() if a == agent else np.zeros(env.game.num_actions)
            assert obs["action_mask"].tolist() == expected.tolist()
            np.testing.assert_array_equal(obs["observation"], env.state_obj.observe(env.possible_agents.index(a)))
        obs = env.observe(agent)
        obs["action_mask"][:] = 0  # the env hands out copies
        obs["observation"][:] = 0
        assert env.observe(agent)["action_mask"].any() and env.observe(agent)["observation"].any()
        assert env.state().shape == (env.game.state_size,) and env.state_space.contains(env.state())
        assert isinstance(env.describe_action(0), str)
        env.step(random_action(env, agent, rng))


# --- load -----------------------------------------------------------------------------------------------


def test_load_json_continues_the_game_identically():
    env_a = raw_env(num_players=3)
    env_a.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(10):
        env_a.step(random_action(env_a, env_a.agent_selection, rng))
    env_b = raw_env(num_players=3)
    env_b.load(env_a.state_obj.to_json())
    rng_a, rng_b = np.random.default_rng(5), np.random.default_rng(5)
    assert env_b.agent_selection == env_a.agent_selection
    while env_a.agents:
        assert env_a.agent_selection == env_b.agent_selection
        for agent in env_a.agents:
            a, b = env_a.observe(agent), env_b.observe(agent)
            assert np.array_equal(a["observation"], b["observation"])
            assert np.array_equal(a["action_mask"], b["action_mask"])
        assert env_a.rewards == env_b.rewards and env_a.terminations == env_b.terminations
        if env_a.terminations[env_a.agent_selection]:
            env_a.step(None)
            env_b.step(None)
            continue
        env_a.step(random_action(env_a, env_a.agent_selection, rng_a))
        env_b.step(random_action(env_b, env_b.agent_selection, rng_b))
        assert env_a.state_obj.to_json() == env_b.state_obj.to_json()
    assert env_b.agents == []


def test_load_state_object_is_independent_of_the_caller():
    game = TinyDuel(num_players=2)
    state = game.position(hands=[[1, 0, 0], [0, 1, 0]])
    before = state.to_json()
    env = loaded(game, state)
    env.step(PLAY_STRIKE)
    assert state.to_json() == before
    env.load(state)
    assert env.state_obj.pending() == "play" and env.agent_selection == "player_0"


def test_load_skips_eliminated_seats():
    game = TinyDuel(num_players=4)
    env = loaded(game, game.position(hp=[0, 2, 0, 1], out=[2, 0], active=1))
    assert env.agents == ["player_1", "player_3"]
    assert env.agent_selection == "player_1"
    log = play(env, np.random.default_rng(0))
    assert {"player_0", "player_2"}.isdisjoint(log.selected)
    assert sum(log.returns.values()) == pytest.approx(2 * 1 / 3)  # the two earlier losers' -1/3 each


@pytest.mark.parametrize("mode", ["win", "rank"])
def test_load_finished_game(mode):
    """A finished game loads with every remaining agent terminated and rewarded, seat 0 eliminated."""
    game = TinyDuel(num_players=3)
    state = game.position(hp=[0, 0, 2], out=[0, 1], active=2, decision="game over")
    env = loaded(game, state, reward_mode=mode)
    assert env.agents == ["player_2"]
    assert env.agent_selection == "player_2"
    _, reward, terminated, _, _ = env.last()
    assert terminated and reward == 1.0
    env.step(None)
    assert env.agents == []


def test_load_rejects_states_of_other_games():
    env = raw_env(num_players=2)
    with pytest.raises(CorruptStateError):
        env.load(TinyDuel(num_players=3).new_state(0))
    with pytest.raises(CorruptStateError):
        env.load(TinyDuel(num_players=3).new_state(0).to_json())
    broken = TinyDuel(num_players=2).new_state(0)
    broken.hp[0] = 7
    with pytest.raises(CorruptStateError, match="hit points"):
        env.load(broken)
