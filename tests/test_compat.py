"""The RL libraries users bring: each row of the README's compatibility table is backed here (or by the
test named in the table). PettingZoo's own test utilities run in tests/conformance/."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo import games
from meeplezoo.envs.core.rewards import seat_return
from meeplezoo.wrappers import SkipDeadSteps

GAMES = games.game_names()


def true_returns(env) -> list[float]:
    state = env.unwrapped.state_obj
    ranks, scores = state.ranks(), state.scores()
    return [seat_return("win", s, ranks, scores, env.unwrapped.game.score_scale) for s in range(len(ranks))]


# --- Stable-Baselines3 + sb3-contrib ----------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_sb3_check_env_accepts_every_single_agent_env(game):
    pytest.importorskip("stable_baselines3")
    import warnings

    from stable_baselines3.common.env_checker import check_env

    from meeplezoo.training.single_agent import SingleAgentEnv

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # SB3 warns about what it cannot use
        check_env(SingleAgentEnv(game, opponent="random"), warn=True)


@pytest.mark.parametrize("game", GAMES)
def test_sb3_contrib_finds_the_action_masks(game):
    pytest.importorskip("sb3_contrib")
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    from meeplezoo.training.single_agent import SingleAgentEnv

    env = SingleAgentEnv(game, opponent="random")
    env.reset(seed=1)
    assert is_masking_supported(env)
    assert np.array_equal(get_action_masks(env), env.action_masks()) and env.action_masks().any()


# --- elimination games for libraries that stop at a terminated agent --------------------------------------


@pytest.mark.parametrize(("game", "config"), [("board_royale", {"num_players": 4}), ("seastead", {})])
def test_skip_dead_steps_keeps_the_whole_game_and_pays_each_return_once(game, config):
    for seed in range(4):
        inner = games.make_env(game, **config)
        env = SkipDeadSteps(inner)
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        paid = dict.fromkeys(env.possible_agents, 0.0)
        payments = dict.fromkeys(env.possible_agents, 0)
        while True:
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                break
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            assert set(env.rewards) == set(env.possible_agents)  # every agent, every step
            for agent, reward in env.rewards.items():
                paid[agent] += reward
                payments[agent] += reward != 0
        state = inner.unwrapped.state_obj
        assert state.is_terminal(), "the episode ended before the game"
        assert list(paid.values()) == pytest.approx(true_returns(inner))
        assert all(n <= 1 for n in payments.values())


tianshou_test = pytest.mark.slow  # importing tianshou takes seconds


def tianshou_run(env, seed: int) -> np.ndarray:
    """Random legal play through Tianshou's env until it reports the episode over: rewards summed per agent."""
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = np.zeros(len(env.agents))
    while True:
        obs, rew, term, trunc, _ = env.step(int(rng.choice(np.flatnonzero(obs["mask"]))))
        total += rew
        if term or trunc:
            return total


@tianshou_test
def test_tianshou_pettingzooenv_alone_stops_board_royale_at_the_first_elimination():
    """The limitation the README documents: without SkipDeadSteps the episode is cut short."""
    pytest.importorskip("tianshou")
    from tianshou.env import PettingZooEnv

    inner = games.make_env("board_royale", num_players=4)
    total = tianshou_run(PettingZooEnv(inner), seed=0)
    state = inner.unwrapped.state_obj
    assert not state.is_terminal() and len(state.eliminated()) == 1
    assert np.count_nonzero(total) == 1  # only the eliminated player was paid


@tianshou_test
@pytest.mark.parametrize("game", GAMES)
def test_tianshou_pettingzooenv_with_skip_dead_steps_plays_whole_games(game):
    pytest.importorskip("tianshou")
    from meeplezoo.wrappers import tianshou_env

    for seed in range(2):
        env = tianshou_env(game)
        total = tianshou_run(env, seed)
        inner = env.env.env
        assert inner.unwrapped.state_obj.is_terminal()
        assert total.tolist() == pytest.approx(true_returns(inner))


@tianshou_test
def test_tianshou_collector_gets_full_games_and_every_agents_return():
    pytest.importorskip("tianshou")
    from tianshou.algorithm.multiagent.marl import MultiAgentOffPolicyAlgorithm
    from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm
    from tianshou.data import Collector, ReplayBuffer
    from tianshou.env import DummyVectorEnv

    from meeplezoo.wrappers import tianshou_env

    def make():
        return tianshou_env("board_royale", num_players=3)

    np.random.seed(0)  # Tianshou's random policy draws from numpy's global generator
    env = make()
    algorithms = [MARLRandomDiscreteMaskedOffPolicyAlgorithm(env.action_space) for _ in env.agents]
    algorithm = MultiAgentOffPolicyAlgorithm(algorithms=algorithms, env=env)
    collector = Collector(algorithm.policy, DummyVectorEnv([make]), ReplayBuffer(20_000))  # no numba JIT
    collector.reset(reset_buffer=True, gym_reset_kwargs={"seed": 0})
    stats = collector.collect(n_episode=2, reset_before_collect=False)
    returns = np.asarray(stats.returns)
    assert returns.shape == (2, 3)
    for row in returns:  # a finished game, "win" rewards: the winner +1, the two losers -1/2 each
        assert sorted(row.tolist()) == pytest.approx([-0.5, -0.5, 1.0])


def test_every_test_the_readme_compatibility_table_names_exists():
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    readme = (root / "README.md").read_text(encoding="utf-8")
    table = readme[readme.index("## Compatibility") : readme.index("## Plugins")]
    rows = [line for line in table.splitlines() if line.startswith("| ") and "---" not in line][1:]
    assert len(rows) >= 4
    for row in rows:
        cell = row.rstrip(" |").rsplit("|", 1)[1]
        path = None
        names = []
        for ref in re.findall(r"`([^`]+)`", cell):
            file, _, name = ref.rpartition("::")
            path = file or path
            names.append((path, name))
        if "not tested" in row:
            assert not names
            continue
        assert names, row
        for file, name in names:
            source = (root / file).read_text(encoding="utf-8")
            assert f"def {name}(" in source, f"README names {file}::{name}, which does not exist"
