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


def test_the_pool_plays_frozen_copies_and_baselines_and_pays_every_learning_seat():
    from meeplezoo.envs.core.rewards import seat_return
    from meeplezoo.training.rllib import module_of

    env = RLlibMultiAgentEnv(
        {"game": "concordia", "seed": 1, "pool_size": 2, "opponents": ["random"], "self_play": 0.5}
    )
    assert len(env.possible_agents) == 4 * 3  # every seat as the learner or either frozen copy
    rng = np.random.default_rng(1)
    modules_seen, baseline_games = set(), 0
    for _ in range(4):
        obs, _ = env.reset()
        ids = dict(env._id)  # AEC agent -> RLlib id (None: a baseline agent plays it inside the env)
        assert sum(module_of(i) == "shared" for i in ids.values() if i) >= 1
        baseline_games += None in ids.values()
        returns: dict[str, float] = {}
        while True:
            assert set(obs) <= {i for i in ids.values() if i}  # baseline seats never reach RLlib
            actions = {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in obs.items() if a in env.agents}
            modules_seen |= {module_of(a) for a in actions}
            obs, rewards, terminateds, truncateds, _ = env.step(actions)
            for a, r in rewards.items():
                returns[a] = returns.get(a, 0.0) + r
            if terminateds["__all__"] or truncateds["__all__"]:
                break
        state = env.aec.unwrapped.state_obj
        for seat, a in enumerate(env.seats):
            if ids[a] is not None:
                assert returns[ids[a]] == pytest.approx(seat_return("win", seat, state.ranks(), state.scores(), 1.0))
    assert modules_seen == {"shared", "frozen_0", "frozen_1"} and baseline_games >= 1


@pytest.mark.slow
def test_rllib_training_with_a_pool_checkpoints_and_resumes(tmp_path):
    pytest.importorskip("ray.rllib")
    pytest.importorskip("torch")
    from meeplezoo.training.config import load_config
    from meeplezoo.training.rllib import latest_rllib_checkpoint, train_rllib
    from meeplezoo.training.trainer import TrainError

    config = load_config(
        "seastead", None, {"opponents": ["random"], "pool_size": 1, "self_play": 0.5, "snapshot_every": 150}
    )
    small = {"train_batch_size": 200, "minibatch_size": 100, "num_epochs": 1, "num_cpus": 1}
    lines: list[str] = []
    train_rllib("seastead", tmp_path, config, total_steps=200, log=lines.append, **small)
    first = latest_rllib_checkpoint(tmp_path)
    assert first["iteration"] == 1 and first["run"]["snapshots"] == 1 and (tmp_path / first["path"]).is_dir()
    with pytest.raises(TrainError, match="already holds an RLlib run"):
        train_rllib("seastead", tmp_path, config, total_steps=400, **small)
    lines = []
    result = train_rllib("seastead", tmp_path, total_steps=first["steps"] + 200, resume=True, log=lines.append, **small)
    assert lines[0].startswith(f"Resumed {tmp_path.resolve()} at iteration 1 ({first['steps']} env steps)")
    assert result["training_iteration"] == 2  # the iteration count and the step count continue
    assert result["env_runners"]["num_env_steps_sampled_lifetime"] >= first["steps"] + 200
    second = latest_rllib_checkpoint(tmp_path)
    assert second["iteration"] == 2 and second["run"]["snapshots"] == 2  # the pool's count continues too
    modules = tmp_path / second["path"] / "learner_group" / "learner" / "rl_module"
    shared, frozen = _module_state(modules / "shared"), _module_state(modules / "frozen_0")
    before = _module_state(tmp_path / first["path"] / "learner_group" / "learner" / "rl_module" / "shared")
    assert all(np.array_equal(shared[k], frozen[k]) for k in shared)  # frozen at the last snapshot
    assert not all(np.array_equal(shared[k], before[k]) for k in shared)  # the resumed learner trained on


def _module_state(folder):
    import pickle

    return {k: np.asarray(v) for k, v in pickle.loads((folder / "module_state.pkl").read_bytes()).items()}
