"""PettingZoo's own conformance tests on :class:`EngineEnv` over Tiny Duel, with warnings as errors."""

from __future__ import annotations

import warnings
from contextlib import contextmanager
from functools import partial

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test
from pettingzoo.test.state_test import test_state as check_state
from pettingzoo.test.state_test import test_state_space as check_state_space
from playouts import play
from tiny_duel import raw_env

PLAYER_COUNTS = [2, 3, 6]

#: PettingZoo nags that do not apply to the ``{observation, action_mask}`` dict every classic env uses
#: (PettingZoo whitelists its own classic envs by name). Every other warning is an error.
EXPECTED_NAGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be",
)


@contextmanager
def strict_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for text in EXPECTED_NAGS:
            warnings.filterwarnings("ignore", message=text)
        yield


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_api_test(n):
    with strict_warnings():
        api_test(raw_env(num_players=n), num_cycles=1000)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
@pytest.mark.parametrize("reward_mode", ["win", "rank", "score_margin"])
def test_api_test_in_every_reward_mode(n, reward_mode):
    with strict_warnings():
        api_test(raw_env(num_players=n, reward_mode=reward_mode), num_cycles=200)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_api_test_with_truncation(n):
    with strict_warnings():
        api_test(raw_env(num_players=n, max_cycles=3), num_cycles=100)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_seed_test(n):
    with strict_warnings():
        seed_test(partial(raw_env, num_players=n), num_cycles=500)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_state_test(n):
    """PettingZoo's AEC state checks (``state_test`` itself also wants a parallel env)."""
    env = raw_env(num_players=n)
    with strict_warnings():
        # PettingZoo samples actions without the mask here, so the first illegal one ends the game
        warnings.filterwarnings("ignore", message=r"player_\d: illegal action")
        check_state_space(env)
        for seed in range(5):
            check_state(env, num_cycles=50, seed=seed)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_render_test(n, capsys):
    def env_fn(render_mode=None):
        return raw_env(num_players=n, render_mode=render_mode)

    def shows_every_seat(text):
        return all(f"player_{seat}" in text for seat in range(n)) and "pending" in text

    with strict_warnings():
        render_test(env_fn, custom_tests={"ansi": shows_every_seat})
    printed = capsys.readouterr().out  # human mode prints the same picture
    assert all(f"player_{seat}" in printed for seat in range(n))


def test_render_without_mode_warns_and_returns_none():
    env = raw_env()
    env.reset(seed=1)
    with pytest.warns(UserWarning, match="render_mode"):
        assert env.render() is None


@pytest.mark.parametrize("n", PLAYER_COUNTS)
@pytest.mark.parametrize("max_cycles", [1, 2, 5])
def test_max_cycles(n, max_cycles):
    """The AEC counterpart of PettingZoo's ``max_cycles_test`` (that one needs a ``parallel_env``, which
    a game with reactions on other players' turns cannot offer): exactly ``max_cycles * n`` decisions,
    then every agent is truncated with reward 0, steps once with None and leaves."""
    env = raw_env(num_players=n, max_cycles=max_cycles)
    assert env.metadata["is_parallelizable"] is False
    env.reset(seed=n * 100 + max_cycles)
    log = play(env, np.random.default_rng(0))
    live = [a for a in log.actions if a is not None]
    assert len(live) == max_cycles * n  # a game of 3 hit points needs at least 9 decisions to end
    assert log.actions[len(live) :] == [None] * n
    assert sorted(log.selected[len(live) :]) == sorted(env.possible_agents)
    assert all(reward == 0 for reward in log.returns.values())
    assert env.agents == []


def test_max_cycles_truncation_flags():
    env = raw_env(num_players=3, max_cycles=1)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(2):
        agent = env.agent_selection
        env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
        assert not any(env.truncations.values())
    agent = env.agent_selection
    env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert all(reward == 0 for reward in env.rewards.values())
    for a in env.agents:
        assert not env.observe(a)["action_mask"].any()
