"""The shared one-seat Gymnasium wrapper (envs/core/solo_gym.py), on Seastead's solo mode."""

from __future__ import annotations

import subprocess
import sys

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import meeplezoo  # noqa: F401 (registers the Gymnasium ids)
from meeplezoo.envs.core import ConfigError
from meeplezoo.envs.core.solo_gym import SoloGymEnv
from meeplezoo.envs.seastead import SeasteadGame

SOLO_ID = "meeplezoo/SeasteadSolo-v0"


def play_masked(env: SoloGymEnv, seed: int) -> tuple[float, int]:
    """Play a whole episode with random legal actions; return the final reward and the number of steps."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    while True:
        mask = env.action_masks()
        assert mask.dtype == bool and mask.any()
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
        assert env.observation_space.contains(obs)
        assert np.array_equal(info["action_mask"].astype(bool), env.action_masks())
        if terminated or truncated:
            assert terminated and not truncated
            return reward, steps
        assert reward == 0.0


def test_registered_on_import_and_passes_gymnasiums_env_checker():
    env = gymnasium.make(SOLO_ID)
    assert isinstance(env.unwrapped, SoloGymEnv)
    assert env.unwrapped.game == SeasteadGame(num_players=1)
    check_env(env.unwrapped, skip_render_check=False)


def test_registration_does_not_import_torch():
    code = f"import sys, gymnasium, meeplezoo; gymnasium.make({SOLO_ID!r}); assert 'torch' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("seed", range(4))
def test_the_return_is_plus_one_for_beating_the_boss_and_minus_one_otherwise(seed):
    env = gymnasium.make(SOLO_ID).unwrapped
    reward, steps = play_masked(env, seed)
    state = env.state
    assert state.is_terminal() and steps > 10
    beat = state.scores()[0] > state.automa_score()
    assert reward == (1.0 if beat else -1.0) and state.ranks() == [0 if beat else 1]


def test_score_margin_option():
    env = gymnasium.make(SOLO_ID, reward="score_margin").unwrapped
    reward, _ = play_masked(env, 3)
    state = env.state
    assert reward == pytest.approx((state.scores()[0] - state.automa_score()) / 20.0)
    assert state.automa_score() >= 20.0


def test_same_seed_same_episode_and_different_seeds_differ():
    a, b = SoloGymEnv(SeasteadGame(num_players=1)), SoloGymEnv(SeasteadGame(num_players=1))
    firsts = set()
    for seed in range(3):
        oa, _ = a.reset(seed=seed)
        ob, _ = b.reset(seed=seed)
        assert np.array_equal(oa, ob) and a.state.to_json() == b.state.to_json()
        firsts.add(a.state.to_json())
    assert len(firsts) == 3


def test_an_illegal_action_ends_the_episode_with_the_penalty_and_changes_nothing():
    env = SoloGymEnv(SeasteadGame(num_players=1), illegal_reward=-2.0)
    env.reset(seed=0)
    before = env.state.to_json()
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-2.0, True, False, True)
    assert not info["action_mask"].any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    env.reset(seed=0)
    assert env.state.to_json() == before
    with pytest.raises(TypeError, match="Discrete"):
        env.step(1.5)


def test_bad_configurations_are_one_line_config_errors():
    with pytest.raises(ConfigError, match="one-seat"):
        SoloGymEnv(SeasteadGame())
    for kwargs, text in (
        ({"reward": "rank"}, "reward"),
        ({"render_mode": "rgb_array"}, "render_mode"),
        ({"illegal_reward": float("nan")}, "illegal_reward"),
        ({"max_steps": 0}, "max_steps"),
    ):
        with pytest.raises(ConfigError, match=text):
            gymnasium.make(SOLO_ID, **kwargs)


@pytest.mark.slow
def test_maskable_ppo_reads_the_masks_and_learns_a_few_steps():
    sb3_contrib = pytest.importorskip("sb3_contrib")
    from sb3_contrib.common.maskable.utils import get_action_masks

    env = gymnasium.make(SOLO_ID).unwrapped
    env.reset(seed=0)
    assert np.array_equal(get_action_masks(env), env.action_masks())
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, n_epochs=1, seed=0, device="cpu")
    model.learn(total_timesteps=128)
    obs, _ = env.reset(seed=1)
    for _ in range(20):
        action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
        assert env.action_masks()[int(action)]
        obs, _, terminated, _, _ = env.step(int(action))
        if terminated:
            break
