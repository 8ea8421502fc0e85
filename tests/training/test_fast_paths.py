"""The env-side shortcuts of training give what the long ways give: masks cached from the step results are
the envs' masks, and a seat view's observation encoded from its public copy is the seat's observation."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.agents.view import seat_view
from meeplezoo.games import make_env


def sampled_positions(env, seed: int, share: float, max_iter: int):
    """Random play from ``env.reset(seed)``; yields the agent to act at about ``share`` of the positions."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for agent in env.agent_iter(max_iter=max_iter):
        _, _, terminated, truncated, _ = env.last(observe=False)
        if terminated or truncated:
            env.step(None)
            continue
        if rng.random() < share:
            yield agent
        env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))


def test_cached_masks_are_the_envs_masks_through_episode_ends_and_state_changes():
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.vec_env import DummyVecEnv

    from meeplezoo.training.masked_vec_env import MaskCachingVecEnv
    from meeplezoo.training.single_agent import SingleAgentEnv

    venv = MaskCachingVecEnv(DummyVecEnv([lambda: SingleAgentEnv("seastead", max_decisions=40)] * 2))
    venv.seed(0)
    venv.reset()
    rng = np.random.default_rng(0)
    ends = 0
    for step in range(150):
        cached = venv.env_method("action_masks")
        assert (venv._masks is None) == (step == 71)  # from the cache, except right after the change below
        truth = venv.venv.env_method("action_masks")
        assert all(np.array_equal(c, t) and c.dtype == bool and c.any() for c, t in zip(cached, truth, strict=True))
        _, _, dones, _ = venv.step(np.array([rng.choice(np.flatnonzero(m)) for m in cached]))
        ends += int(dones.sum())
        if step == 70:  # another method may change an env: the cache is dropped, the masks asked for
            saved = venv.env_method("get_state", indices=[1])
            venv.env_method("set_state", venv.env_method("get_state", indices=[0])[0], indices=[1])
            assert venv._masks is None
            masks = venv.env_method("action_masks")
            assert np.array_equal(masks[0], masks[1])
            venv.env_method("set_state", saved[0], indices=[1])
    assert ends >= 2  # masks after automatic resets were checked too


@pytest.mark.parametrize("game", ["seastead", "concordia", "board_royale", "resafa"])
def test_a_views_observation_from_its_public_copy_is_the_seats_observation(game):
    env = make_env(game)
    checked = 0
    for agent in sampled_positions(env, 4, 0.2, 400):
        view = seat_view(env, agent)  # with a public copy: the observation is encoded from it
        assert view._observation is None
        truth = env.observe(agent)["observation"]
        assert view.observation.dtype == truth.dtype and np.array_equal(view.observation, truth)
        checked += 1
    assert checked >= 20


def _long_way_public_copy(state, seat):
    """The public copy as it was first made: a determinization (seeded), then the canonical order."""
    return state.determinize(seat, np.random.default_rng(0)).public_copy(seat)


@pytest.mark.parametrize(
    ("game", "config"),
    [
        ("seastead", {}),
        ("seastead", {"sides": "BBAB"}),
        ("seastead", {"num_players": 1}),
        ("concordia", {}),
        ("board_royale", {}),
        ("board_royale", {"num_players": 4}),
        ("resafa", {}),
        ("resafa", {"num_players": 1}),
    ],
)
def test_the_public_copy_made_from_a_clone_is_the_one_made_from_a_determinization(game, config):
    """Canonical order of a clone = canonical order of a determinization (the form depends on what the seat
    knows only), so the public copy skips the resampling: same record, same legal actions, same observation."""
    from meeplezoo.agents.view import public_copy

    env = make_env(game, **config)
    checked = 0
    for _ in sampled_positions(env, 7, 0.25, 600):
        state = env.unwrapped.state_obj
        seat = state.current_player()
        fast, slow = public_copy(state, seat), _long_way_public_copy(state, seat)
        assert fast.to_dict() == slow.to_dict()
        assert fast.legal_actions() == slow.legal_actions() == state.legal_actions()
        np.testing.assert_array_equal(fast.observe(seat), state.observe(seat))
        checked += 1
    assert checked >= 20


def test_the_dummy_vec_env_without_deep_copies_steps_as_sb3s_does():
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.vec_env import DummyVecEnv

    from meeplezoo.training.masked_vec_env import FreshInfoDummyVecEnv
    from meeplezoo.training.single_agent import SingleAgentEnv

    def make():
        return SingleAgentEnv("seastead", opponent="heuristic", max_decisions=60)

    venvs = [cls([make, make]) for cls in (DummyVecEnv, FreshInfoDummyVecEnv)]
    for venv in venvs:
        venv.seed(3)
    obs = [venv.reset() for venv in venvs]
    np.testing.assert_array_equal(*obs)
    rng = np.random.default_rng(3)
    dones = 0
    kept = []
    for _ in range(200):
        masks = venvs[0].env_method("action_masks")
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        (o1, r1, d1, i1), (o2, r2, d2, i2) = (venv.step(actions) for venv in venvs)
        np.testing.assert_array_equal(o1, o2)
        np.testing.assert_array_equal(r1, r2)
        np.testing.assert_array_equal(d1, d2)
        for a, b in zip(i1, i2, strict=True):
            assert a.keys() == b.keys()
            for key in a:
                np.testing.assert_array_equal(a[key], b[key])
        kept.append((i2, [{k: np.copy(v) for k, v in info.items()} for info in i2], o2, o2.copy()))
        dones += int(d1.sum())
    assert dones >= 2  # terminal observations and reset infos were compared too
    for infos, copies, observations, seen in kept:  # what was handed out is not changed by later steps
        np.testing.assert_array_equal(observations, seen)
        for info, copy in zip(infos, copies, strict=True):
            assert all(np.array_equal(info[k], copy[k]) for k in copy)
