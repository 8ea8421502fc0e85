"""The single-agent wrapper and the MaskablePPO script (needs the ``training`` extra; CI installs it)."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest

from meeplezoo.training.single_agent import SingleAgentEnv, gymnasium_id


def test_wrapper_passes_gymnasiums_env_checker():
    from gymnasium.utils.env_checker import check_env

    env = gym.make(gymnasium_id("seastead"), render_mode="ansi").unwrapped
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env)


def test_masks_match_the_learners_legal_actions_through_a_whole_game():
    env = SingleAgentEnv("seastead", opponent="random", learner_seat=1)
    obs, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    assert info["learner"] == "player_1"
    done, reward = False, 0.0
    while not done:
        mask = env.action_masks()
        assert mask.dtype == bool and mask.shape == (env.action_space.n,)
        state = env.aec.unwrapped.state_obj
        assert state.current_player() == 1
        assert np.flatnonzero(mask).tolist() == state.legal_actions()
        assert env.observation_space.contains(obs)
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        done = terminated or truncated
    assert reward in (-1.0, 0.0, 1.0)
    assert info["won"] == (reward == 1.0)
    assert not env.action_masks().any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_an_illegal_action_ends_the_episode_with_the_penalty():
    env = SingleAgentEnv("seastead", illegal_reward=-2.0)
    env.reset(seed=1)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-2.0, True, False, illegal)


def test_a_reset_seed_fixes_the_episode():
    def episode(seed):
        env = SingleAgentEnv("seastead")
        obs, _ = env.reset(seed=seed)
        trace = [obs]
        done = False
        while not done:
            obs, r, term, trunc, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
            trace.append(obs)
            done = term or trunc
        return np.stack(trace), r

    (a, ra), (b, rb) = episode(5), episode(5)
    assert ra == rb and np.array_equal(a, b)


def test_docstring_examples():
    import doctest

    from meeplezoo.training import single_agent

    failures, tried = doctest.testmod(single_agent)
    assert tried and not failures
