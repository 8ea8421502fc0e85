"""RLlib: the multi-agent env (masks as RLlib reads them, unmasked actions, rewards to every seat) and one
training iteration of masked self-play PPO on a local Ray instance."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.training.rllib import RLlibMultiAgentEnv


def _episode(game: str, seed: int, unmasked: bool):
    env = RLlibMultiAgentEnv({"game": game, "seed": seed})
    rng = np.random.default_rng(seed)
    obs, _ = env.reset()
    returns = dict.fromkeys(env.possible_agents, 0.0)
    replaced = steps = 0
    while True:
        actions = {}
        for agent in (a for a in obs if a in env.agents):
            mask = obs[agent]["action_mask"]
            assert mask.dtype == np.float32 and set(obs[agent]) == {"observations", "action_mask"}
            n = mask.size
            actions[agent] = int(rng.integers(n)) if unmasked else int(rng.choice(np.flatnonzero(mask)))
        obs, rewards, terminateds, truncateds, infos = env.step(actions)
        steps += 1
        replaced += sum("replaced_action" in i for i in infos.values())
        for agent, r in rewards.items():
            returns[agent] += r
        if terminateds["__all__"] or truncateds["__all__"]:
            return env, returns, replaced, steps


@pytest.mark.parametrize("game", ["seastead", "concordia"])
def test_unmasked_actions_do_not_end_the_game_and_every_seat_gets_its_return(game):
    from meeplezoo.envs.core.rewards import seat_return

    env, returns, replaced, steps = _episode(game, seed=3, unmasked=True)
    state = env.aec.unwrapped.state_obj
    assert state.is_terminal() and replaced > 0 and steps > replaced // 2
    ranks, scores = state.ranks(), state.scores()
    for seat, agent in enumerate(env.possible_agents):
        assert returns[agent] == pytest.approx(seat_return("win", seat, ranks, scores, 1.0))
    assert env.render("ansi") is None or isinstance(env.render("ansi"), str)


def test_rllibs_env_checker_accepts_the_env():
    pytest.importorskip("ray.rllib")
    from ray.rllib.utils.pre_checks.env import check_multiagent_environments

    check_multiagent_environments(RLlibMultiAgentEnv({"game": "seastead", "seed": 0}))


@pytest.mark.slow
def test_one_rllib_training_iteration_runs_on_a_local_ray(tmp_path):
    pytest.importorskip("ray.rllib")
    pytest.importorskip("torch")
    from meeplezoo.training.rllib import train_rllib

    lines: list[str] = []
    result = train_rllib(
        "seastead",
        tmp_path,
        total_steps=200,
        log=lines.append,
        train_batch_size=200,
        minibatch_size=100,
        num_epochs=1,
        num_cpus=1,
    )
    assert result["training_iteration"] == 1
    assert result["env_runners"]["num_env_steps_sampled_lifetime"] >= 200
    assert lines[0].startswith("iteration 1: ") and (tmp_path / "rllib").is_dir()
