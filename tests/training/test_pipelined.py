"""Double-buffered sampling (``pipelined = true``): the rollout buffer holds exactly what the envs did with the
moves it records, and the values and log-probabilities the policy gave them; a bad setting is one line."""

from __future__ import annotations

import re

import numpy as np
import pytest
from same_values import assert_same

from meeplezoo.training.config import TrainConfigError, load_config

SETTINGS = {
    "n_envs": 2,
    "pipelined": True,
    "n_steps": 128,  # Seastead games against random players (~70-95 decisions) end inside the rollout
    "batch_size": 128,
    "n_epochs": 1,
    "net_arch": [16],
    "opponents": ["random"],
    "self_play": 0.0,
    "reward_mode": "score_margin",
}
SEED = 1234
#: per case: the game, the settings of the replayed rollout and the pool's baselines (Board Royale as its
#: shipped config trains: advised by the heuristic, the win chance as shaping potential, 2 players)
REPLAYS = {
    "seastead": ("seastead", SETTINGS, ["random"]),
    "seastead_3_groups": ("seastead", {**SETTINGS, "n_envs": 3, "groups": 3}, ["random"]),
    "board_royale": (
        "board_royale",
        {
            **SETTINGS,
            "n_steps": 384,  # its games against the heuristic take ~250 of the learner's decisions
            "opponents": ["heuristic"],
            "reward_mode": "win",
            "advisor": "heuristic",
            "shaping": "value",
            "env": {"num_players": 2},
        },
        ["heuristic"],
    ),
}


@pytest.mark.parametrize(
    "settings, message",
    [
        (
            {"pipelined": True, "n_envs": 1},
            "pipelined needs at least 2 groups and n_envs of at least groups; got groups = 2, n_envs = 1",
        ),
        ({"pipelined": True, "n_envs": 3, "groups": 4}, "got groups = 4, n_envs = 3"),
        ({"pipelined": True, "n_envs": 3, "groups": 1}, "got groups = 1, n_envs = 3"),
        ({"n_envs": 4, "groups": 4}, "groups = 4 is for pipelined runs; set pipelined = true"),
    ],
)
def test_a_bad_pipeline_is_one_line(settings, message):
    with pytest.raises(TrainConfigError, match=re.escape(message)):
        load_config("seastead", None, settings)


@pytest.mark.parametrize(
    "n_envs, groups, sizes", [(2, 2, [1, 1]), (4, 4, [1, 1, 1, 1]), (5, 2, [2, 3]), (7, 3, [2, 2, 3])]
)
def test_the_envs_split_into_groups_as_evenly_as_they_go(n_envs, groups, sizes):
    pytest.importorskip("sb3_contrib")
    from meeplezoo.training.pipelined import PipelinedVecEnv
    from meeplezoo.training.pool import OpponentPool
    from meeplezoo.training.trainer import make_vec_env

    config = load_config("seastead", None, {**SETTINGS, "n_envs": n_envs, "groups": groups})
    venv = make_vec_env("seastead", config, OpponentPool("seastead", ["random"], [], 0.0))
    try:
        assert isinstance(venv, PipelinedVecEnv) and [g.num_envs for g in venv.groups] == sizes
        assert venv.num_envs == n_envs and venv.reset().shape[0] == n_envs
    finally:
        venv.close()


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(REPLAYS))
def test_the_pipelined_rollout_stores_what_the_envs_did(case):
    pytest.importorskip("sb3_contrib")
    import torch
    from stable_baselines3.common.callbacks import BaseCallback

    from meeplezoo.training.pipelined import PipelinedMaskablePPO, PipelinedVecEnv
    from meeplezoo.training.pool import OpponentPool
    from meeplezoo.training.trainer import _env_factory, make_vec_env

    game, settings, baselines = REPLAYS[case]
    config = load_config(game, None, settings)
    pool = OpponentPool(game, baselines, [], 0.0)
    venv = make_vec_env(game, config, pool)
    n, envs = config.n_steps, config.n_envs
    assert isinstance(venv, PipelinedVecEnv) and [g.num_envs for g in venv.groups] == [1] * config.groups
    captured: dict[str, np.ndarray] = {}

    class Capture(BaseCallback):
        def _on_step(self) -> bool:
            return True

        def _on_rollout_end(self) -> None:  # the buffer is full and not yet flattened by the update
            buf = self.model.rollout_buffer
            for key in ("observations", "actions", "rewards", "episode_starts", "values", "log_probs", "action_masks"):
                captured[key] = getattr(buf, key).copy()
            captured["policy"] = {k: v.clone() for k, v in self.model.policy.state_dict().items()}

    model = PipelinedMaskablePPO(
        "MlpPolicy", venv, n_steps=n, batch_size=128, n_epochs=1, policy_kwargs={"net_arch": [16]}, seed=0
    )
    venv.seed(SEED)  # after the model's own seeding: env i starts at seed SEED + i
    try:
        model.learn(total_timesteps=envs * n, callback=Capture())
    finally:
        venv.close()
    assert model.num_timesteps == envs * n

    # replay each env's recorded moves in an env of its own, seeded as the worker's was
    obs_all, masks, actions = captured["observations"], captured["action_masks"], captured["actions"][:, :, 0]
    episodes = 0
    for i in range(envs):
        env = _env_factory(game, config, pool)()
        obs, _ = env.reset(seed=SEED + i)
        assert captured["episode_starts"][0, i] == 1.0
        for t in range(n):
            assert np.array_equal(obs_all[t, i], obs), (i, t)
            assert np.array_equal(masks[t, i].astype(bool), env.action_masks()), (i, t)
            obs, reward, terminated, truncated, info = env.step(int(actions[t, i]))
            assert not truncated and "illegal_action" not in info
            assert captured["rewards"][t, i] == np.float32(reward), (i, t)
            if terminated:
                episodes += 1
                obs, _ = env.reset()
            if t + 1 < n:
                assert captured["episode_starts"][t + 1, i] == float(terminated), (i, t)
    assert episodes >= envs  # the replay crossed auto-resets

    # the values and log-probabilities are the policy's for the stored observations, masks and moves
    model.policy.load_state_dict(captured["policy"])
    with torch.no_grad():
        values, log_probs, _ = model.policy.evaluate_actions(
            torch.as_tensor(obs_all.reshape(envs * n, -1)),
            torch.as_tensor(actions.reshape(envs * n)),
            action_masks=masks.reshape(envs * n, -1),
        )
    assert np.allclose(values.numpy().ravel(), captured["values"].reshape(envs * n), atol=1e-5)
    assert np.allclose(log_probs.numpy(), captured["log_probs"].reshape(envs * n), atol=1e-5)


def _steps(venv, actions_per_step):
    out = [venv.reset(), list(venv.reset_infos)]
    for actions in actions_per_step:
        venv.step_async(np.array(actions))
        out.append(venv.step_wait())
        out.append([dict(info) for info in venv.reset_infos])
    return out


@pytest.mark.slow
def test_the_spinning_worker_returns_what_subprocvecenv_returns():
    """Same envs, seeds and moves: the same observations, rewards, dones, infos (terminal observations, masks,
    outcomes) and reset infos as sb3's ``SubprocVecEnv``; ``env_method``, ``get_attr`` and ``set_attr`` too."""
    pytest.importorskip("sb3_contrib")
    from stable_baselines3.common.vec_env import SubprocVecEnv

    from meeplezoo.training import spin_vec_env
    from meeplezoo.training.pool import OpponentPool
    from meeplezoo.training.single_agent import SingleAgentEnv
    from meeplezoo.training.trainer import _env_factory

    if not spin_vec_env.available():
        pytest.skip("the spinning worker runs on x86-64 only")
    config = load_config("seastead", None, SETTINGS)
    pool = OpponentPool("seastead", ["random"], [], 0.0)
    fns = [_env_factory("seastead", config, pool) for _ in range(3)]
    # the moves: random legal ones of a replay in-process (the envs are deterministic given their seeds)
    replay = [SingleAgentEnv("seastead", opponent=pool) for _ in range(3)]
    rng = np.random.default_rng(5)
    for i, env in enumerate(replay):
        env.reset(seed=70 + i)
    moves = []
    for _ in range(200):
        step = []
        for env in replay:
            action = int(rng.choice(np.flatnonzero(env.action_masks())))
            step.append(action)
            if env.step(action)[2]:
                env.reset()
        moves.append(step)

    worker = spin_vec_env.SpinWorker(fns, [1, 2])
    reference = SubprocVecEnv(fns, start_method="spawn")
    try:
        groups = [worker.group(0), worker.group(1)]
        groups[0].seed(70)
        groups[1].seed(71)
        reference.seed(70)
        got = [_steps(groups[0], [m[:1] for m in moves]), _steps(groups[1], [m[1:] for m in moves])]
        want = _steps(reference, moves)
        dones = sum(int(r[2].sum()) for r in want[2::2])
        assert dones >= 3  # games ended (and were reset) on the way
        for k, (mine, theirs) in enumerate(zip(zip(*got, strict=True), want, strict=True)):
            if k == 0 or k % 2 == 1:  # the reset's observations, then reset infos
                mine = np.concatenate(mine) if k == 0 else [*mine[0], *mine[1]]
            else:  # a step: (obs, rewards, dones, infos) of each group
                mine = (*(np.concatenate([g[j] for g in mine]) for j in range(3)), [*mine[0][3], *mine[1][3]])
            assert_same(mine, theirs, f"item {k}")
        assert (
            groups[1].env_method("action_masks", indices=[1])[0].tolist()
            == reference.env_method("action_masks", indices=[2])[0].tolist()
        )
        groups[0].set_attr("illegal_reward", -7.0)
        assert groups[0].get_attr("illegal_reward") == [-7.0] and groups[1].get_attr("illegal_reward")[0] != -7.0
    finally:
        worker.close()
        reference.close()


@pytest.mark.slow
def test_a_failing_env_in_the_spinning_worker_is_an_error_naming_it():
    pytest.importorskip("sb3_contrib")
    from meeplezoo.training import spin_vec_env
    from meeplezoo.training.single_agent import SingleAgentEnv

    if not spin_vec_env.available():
        pytest.skip("the spinning worker runs on x86-64 only")
    worker = spin_vec_env.SpinWorker([lambda: SingleAgentEnv("seastead", opponent="random")] * 2, [1, 1])
    try:
        group = worker.group(0)
        group.reset()
        group.set_attr("aec", None)  # the env's game is gone: its next step raises
        group.step_async(np.array([0]))
        with pytest.raises(RuntimeError, match=r"(?s)the env worker failed.*AttributeError"):
            group.step_wait()
    finally:
        worker.close()
