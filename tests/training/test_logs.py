"""A run's logs: the trainer's envs record finished games (``rollout/``), and ``read_scalars`` reads them back."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.training.config import load_config
from meeplezoo.training.logs import LogsError, read_scalars
from meeplezoo.training.pool import OpponentPool


def test_the_trainers_envs_record_every_finished_game():
    """The vec env is monitored: a finished game reports the learner's return and length, which feed
    ``rollout/ep_rew_mean`` and ``rollout/ep_len_mean``."""
    pytest.importorskip("stable_baselines3")
    from meeplezoo.training.trainer import make_vec_env

    config = load_config("seastead", None, {"n_envs": 1, "opponents": ["random"]})
    vec = make_vec_env("seastead", config, OpponentPool("seastead", ["random"]))
    vec.seed(3)
    vec.reset()
    rng = np.random.default_rng(0)
    steps = 0
    while True:
        mask = np.stack(vec.env_method("action_masks"))[0]
        _, rewards, dones, infos = vec.step(np.array([rng.choice(np.flatnonzero(mask))]))
        steps += 1
        if dones[0]:
            break
    episode = infos[0]["episode"]
    assert episode["l"] == steps and episode["r"] == rewards[0] and episode["r"] in (-1.0, 0.0, 1.0)
    vec.close()


def _write(folder, points: dict[str, list[tuple[int, float]]]) -> None:
    from torch.utils.tensorboard import SummaryWriter

    writer = SummaryWriter(str(folder))
    for tag, series in points.items():
        for step, value in series:
            writer.add_scalar(tag, value, step)
    writer.close()


def test_read_scalars_merges_the_files_of_a_resumed_run(tmp_path):
    pytest.importorskip("tensorboard")
    _write(tmp_path / "tb" / "ppo_1", {"rollout/ep_rew_mean": [(100, -0.5), (200, -0.25)], "train/loss": [(200, 1.0)]})
    _write(tmp_path / "tb" / "ppo_1", {"rollout/ep_rew_mean": [(200, 0.0), (300, 0.5)]})  # resumed at step 200
    scalars = read_scalars(tmp_path)
    assert scalars == {"rollout/ep_rew_mean": [(100, -0.5), (200, 0.0), (300, 0.5)], "train/loss": [(200, 1.0)]}
    assert read_scalars(tmp_path / "tb") == scalars  # the tb folder itself also works


def test_a_folder_without_logs_is_a_one_line_error(tmp_path):
    with pytest.raises(LogsError, match="no training logs in"):
        read_scalars(tmp_path)
