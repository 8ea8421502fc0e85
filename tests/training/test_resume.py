"""`meeplezoo train --resume` continues a run exactly: a run interrupted after its checkpoint at step 128 and
resumed ends, at step 256, bit-identical to the run that was never interrupted (model, optimiser, step count,
pool, evaluations, RNG states, envs with their games in flight); with ``pipelined`` envs too."""

from __future__ import annotations

import json
import pickle
import shutil

import numpy as np
import pytest
from same_values import assert_same

from meeplezoo.training.config import load_config

RUN = {
    "total_steps": 256,
    "n_envs": 2,  # SubprocVecEnv workers: their envs are checkpointed through env_method
    "n_steps": 32,  # a rollout is 64 steps: checkpoints at 128 and at the end (256)
    "batch_size": 32,
    "n_epochs": 1,
    "net_arch": [16],
    "checkpoint_every": 128,
    "snapshot_every": 64,
    "eval_every": 128,
    "eval_games": 2,
    "self_play": 0.5,
    "opponents": ["random", "heuristic"],
}


def _params(path):
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(str(path), device="cpu")
    return model, model.policy.state_dict(), model.policy.optimizer.state_dict()


@pytest.fixture(scope="module", params=[False, True], ids=["sync", "pipelined"])
def runs(tmp_path_factory, request):
    """(uninterrupted run, resumed run): both trained in the same folder name, so the pool's paths agree."""
    pytest.importorskip("sb3_contrib")
    from meeplezoo.training.trainer import train

    root = tmp_path_factory.mktemp("resume")
    run = root / "run"
    train("seastead", run, load_config("seastead", None, {**RUN, "pipelined": request.param}), log=lambda _: None)
    whole = root / "whole"
    run.rename(whole)
    # the interrupted run: what the folder held right after the checkpoint at step 128
    (run / "checkpoints").mkdir(parents=True)
    shutil.copy(whole / "config.toml", run / "config.toml")
    for suffix in ("zip", "pkl"):
        shutil.copy(whole / "checkpoints" / f"step_128.{suffix}", run / "checkpoints" / f"step_128.{suffix}")
    saved = pickle.loads((run / "checkpoints" / "step_128.pkl").read_bytes())
    (run / "pool").mkdir()
    for name in saved["run"]["snapshots"]:
        shutil.copy(whole / name, run / name)
    latest = {"game": "seastead", "step": 128, "model": "checkpoints/step_128.zip", "state": "checkpoints/step_128.pkl"}
    (run / "checkpoints" / "latest.json").write_text(json.dumps(latest))
    lines: list[str] = []
    train("seastead", run, resume=True, log=lines.append)
    return whole, run, saved, lines


@pytest.mark.slow
def test_the_checkpoint_holds_the_games_in_flight_at_an_update_boundary(runs):
    _, _, saved, lines = runs
    assert lines[0].startswith("Resumed") and "at step 128 (pool: 2 frozen checkpoints)" in lines[0]
    assert saved["buffer_pos"] == 0  # taken between updates: no half-filled rollout to lose
    assert saved["run"]["snapshots"] == ["pool/step_64.zip", "pool/step_128.zip"]
    envs = [pickle.loads(blob) for blob in saved["envs"]]
    assert len(envs) == 2 and not any(env["_done"] for env in envs)  # mid-game: nothing was reset
    assert all(not env["aec"].unwrapped.state_obj.is_terminal() for env in envs)


@pytest.mark.slow
def test_a_resumed_run_ends_bit_identical_to_the_uninterrupted_one(runs):
    whole, resumed, _, _ = runs
    for folder in (whole, resumed):
        assert json.loads((folder / "checkpoints" / "latest.json").read_text())["step"] == 256
    model_a, policy_a, optim_a = _params(whole / "checkpoints" / "step_256.zip")
    model_b, policy_b, optim_b = _params(resumed / "checkpoints" / "step_256.zip")
    assert model_a.num_timesteps == model_b.num_timesteps == 256 and model_a._n_updates == model_b._n_updates
    assert_same(policy_a, policy_b, "policy")
    assert_same(optim_a, optim_b, "optimizer")  # Adam moments and step counts
    assert np.array_equal(model_a._last_obs, model_b._last_obs)
    for name in ("pool/step_192.zip", "pool/step_256.zip"):
        assert_same(_params(whole / name)[1], _params(resumed / name)[1], name)
    state_a = pickle.loads((whole / "checkpoints" / "step_256.pkl").read_bytes())
    state_b = pickle.loads((resumed / "checkpoints" / "step_256.pkl").read_bytes())
    monitors_a, monitors_b = state_a["monitor"], state_b["monitor"]  # one per group when pipelined
    if isinstance(monitors_a, dict):
        monitors_a, monitors_b = [monitors_a], [monitors_b]
    for monitor_a, monitor_b in zip(monitors_a, monitors_b, strict=True):
        for key in ("episode_returns", "episode_lengths", "episode_count"):  # VecMonitor's games in flight
            assert np.array_equal(monitor_a[key], monitor_b[key]), key
    assert state_a["run"] == state_b["run"]  # the pool, the next due steps, the evaluations and their win rates
    assert [s for s, _, _ in state_a["run"]["evals"]] == [128, 256]
    assert_same(state_a["rng"]["torch"], state_b["rng"]["torch"], "torch rng")
    assert state_a["rng"]["random"] == state_b["rng"]["random"]
    np_a, np_b = state_a["rng"]["numpy"], state_b["rng"]["numpy"]
    assert np_a[0] == np_b[0] and np.array_equal(np_a[1], np_b[1]) and np_a[2:] == np_b[2:]
    for blob_a, blob_b in zip(state_a["envs"], state_b["envs"], strict=True):
        env_a, env_b = pickle.loads(blob_a), pickle.loads(blob_b)
        assert env_a.keys() == env_b.keys()
        for key in env_a:  # game, opponents and their generators, env generator, mask: the same bytes each
            assert pickle.dumps(env_a[key]) == pickle.dumps(env_b[key]), key
