"""The imitation warm start: the policy learns the demonstrator's choices, never an illegal one, the same seed
gives the same weights, bad settings are one line, and a resumed run does not pretrain again."""

from __future__ import annotations

import pytest

from meeplezoo.cli import main
from meeplezoo.training.config import TrainConfigError, load_config

pytest.importorskip("sb3_contrib")

import numpy as np
import torch

from meeplezoo.training import pretrain as warm
from meeplezoo.training.pool import OpponentPool

SMALL = {"net_arch": [64, 64], "batch_size": 64, "opponents": ["random"], "self_play": 0.0}


def _model(game: str, config, seed: int):
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from meeplezoo.training.single_agent import SingleAgentEnv

    torch.set_num_threads(1)
    env = DummyVecEnv([lambda: SingleAgentEnv(game, env_kwargs=config.env)])
    kwargs = {"net_arch": list(config.net_arch)}
    return MaskablePPO("MlpPolicy", env, policy_kwargs=kwargs, seed=seed, device="cpu")


@pytest.fixture(scope="module")
def fitted():
    """Seastead: 40 games of the heuristic in the learner's seat against random players, 8 epochs."""
    config = load_config("seastead", None, dict(SMALL, pretrain_games=40, pretrain_epochs=8))
    demos = warm.collect("seastead", config, OpponentPool("seastead", ["random"], [], 0.0), 40, seed=0)
    model = _model("seastead", config, seed=0)
    held = np.flatnonzero(demos.games % warm.HOLDOUT == warm.HOLDOUT - 1)  # rows of the held-out games
    before = warm.agreement(model.policy, demos, held)
    figures = warm.fit(model.policy, demos, config, seed=0)
    return demos, held, model, before, figures


@pytest.mark.slow
def test_the_fitted_policy_agrees_with_the_demonstrator_on_held_out_decisions(fitted):
    demos, held, model, before, figures = fitted
    assert len(held) > 200 and set(demos.games[held]) == {9, 19, 29, 39}  # four whole games the fit never saw
    assert figures["heldout_accuracy"] == pytest.approx(warm.agreement(model.policy, demos, held))
    # an untrained policy already hits ~39% (many decisions have few legal actions); imitation lifts it to ~62%
    assert figures["heldout_accuracy"] >= 0.55
    assert figures["heldout_accuracy"] >= before + 0.15


@pytest.mark.slow
def test_masked_actions_are_never_predicted(fitted):
    demos, held, model, _, _ = fitted
    assert all(demos.masks[np.arange(len(demos)), demos.actions])  # the demonstrator played legal actions only
    observations, masks = demos.observations[held], demos.masks[held]
    with torch.no_grad():
        dist = model.policy.get_distribution(torch.as_tensor(observations), action_masks=masks)
        probs = dist.distribution.probs.numpy()
    assert np.all(probs[~masks] < 1e-12)  # no probability on an illegal action
    assert np.allclose(probs.sum(axis=1), 1.0)
    for obs, mask in zip(observations, masks, strict=True):
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        assert mask[int(action)]


@pytest.mark.slow
def test_the_same_seed_gives_the_same_weights():
    def weights(seed: int) -> list[torch.Tensor]:
        config = load_config("seastead", None, dict(SMALL, pretrain_games=3, pretrain_epochs=2, seed=seed))
        demos = warm.collect("seastead", config, OpponentPool("seastead", ["random"], [], 0.0), 3, seed=seed)
        model = _model("seastead", config, seed=0)  # the same initial weights: only the warm start's seed differs
        warm.fit(model.policy, demos, config, seed=seed)
        return [p.detach().clone() for p in model.policy.parameters()]

    first, again, other = weights(1), weights(1), weights(2)
    assert all(torch.equal(a, b) for a, b in zip(first, again, strict=True))
    assert not all(torch.equal(a, b) for a, b in zip(first, other, strict=True))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("pretrain_games = -1", "pretrain_games takes a whole number of at least 0, not -1"),
        ("pretrain_epochs = 0", "pretrain_epochs takes a whole number of at least 1, not 0"),
        ("pretrain_rounds = 0", "pretrain_rounds takes a whole number of at least 1, not 0"),
        ("pretrain_lr = 0", "pretrain_lr takes a number above 0, not 0.0"),
        ('pretrain_value = "yes"', "pretrain_value takes true or false, not 'yes'"),
        ("pretrain_agent = 3", "pretrain_agent takes text, not 3"),
    ],
)
def test_a_bad_pretraining_setting_is_a_one_line_error(tmp_path, text, message):
    bad = tmp_path / "bad.toml"
    bad.write_text(text + "\n")
    with pytest.raises(TrainConfigError, match=message):
        load_config("seastead", bad)


def test_a_bad_demonstrator_is_a_one_line_error(tmp_path, capsys):
    config = tmp_path / "c.toml"
    config.write_text('pretrain_games = 2\npretrain_agent = "nobody"\n')
    assert main(["train", "seastead", "--out", str(tmp_path / "run"), "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert "no agent 'nobody'" in err and err.count("\n") == 1
    assert not (tmp_path / "run").exists()


@pytest.mark.slow
def test_a_run_pretrains_once_logs_it_and_a_resume_does_not_repeat_it(tmp_path):
    from sb3_contrib import MaskablePPO

    from meeplezoo.training.logs import read_scalars
    from meeplezoo.training.trainer import train

    settings = dict(SMALL, total_steps=64, n_envs=1, n_steps=32, batch_size=32, n_epochs=1, net_arch=[16])
    settings.update(checkpoint_every=32, snapshot_every=0, eval_every=32, eval_games=1)
    settings.update(pretrain_games=3, pretrain_epochs=2)
    out = tmp_path / "run"
    lines: list[str] = []
    train("seastead", out, load_config("seastead", None, settings), log=lines.append)
    assert lines[0].startswith("Pretraining round 1/1: 3 games of heuristic in the learner's seat")
    assert sum(line.startswith("pretrain epoch") for line in lines) == 2
    assert any(line.startswith("step 0: win rate vs heuristic") for line in lines)  # what imitation alone gives
    trained = next(line for line in lines if line.startswith("Trained 64 steps in "))
    total, warm = (float(part.split(" s")[0]) for part in trained.removeprefix("Trained 64 steps in ").split(", "))
    # PPO's rate leaves the warm start out; both are printed to 0.1 s, so a short run may show them equal
    assert 0 < warm <= total and "s of them the warm start (" in trained
    scalars = read_scalars(out)
    assert [step for step, _ in scalars["pretrain/loss"]] == [0, 1]
    assert len(scalars["pretrain/heldout_accuracy"]) == 2
    assert scalars["eval/win_rate_vs_heuristic"][0][0] == 0

    # the same settings and seed give the same warm-started weights
    twin = tmp_path / "twin"
    train("seastead", twin, load_config("seastead", None, settings), log=lambda _: None)
    a = MaskablePPO.load(out / "pretrained.zip", device="cpu").policy.state_dict()
    b = MaskablePPO.load(twin / "pretrained.zip", device="cpu").policy.state_dict()
    assert all(torch.equal(a[k], b[k]) for k in a)

    resumed: list[str] = []
    model = train("seastead", out, resume=True, total_steps=128, log=resumed.append)
    assert model.num_timesteps == 128
    assert resumed[0].startswith(f"Resumed {out} at step 64")
    assert not any(line.startswith(("Pretraining", "pretrain epoch")) for line in resumed)
    assert len(read_scalars(out)["pretrain/loss"]) == 2


def test_no_pretraining_by_default():
    config = load_config("concordia", None)
    assert config.pretrain_games == 0 and config.pretrain_agent == "heuristic"


@pytest.mark.slow
def test_a_dagger_round_plays_the_policy_and_records_the_demonstrators_choices():
    config = load_config("seastead", None, dict(SMALL, pretrain_games=2))
    pool = OpponentPool("seastead", ["random"], [], 0.0)
    policy = _model("seastead", config, seed=0).policy  # untrained: it often chooses unlike the heuristic
    by_heuristic = warm.collect("seastead", config, pool, 2, seed=5, round_=1)
    by_policy = warm.collect("seastead", config, pool, 2, seed=5, policy=policy, round_=1)
    assert set(by_policy.games) == {2, 3}  # game ids go on after round 0's
    # the same seeds: both agree until the policy first chooses unlike the heuristic, then the games part
    k = next(
        i
        for i in range(len(by_policy))
        if warm.greedy(policy, by_policy.observations[i], by_policy.masks[i]) != by_policy.actions[i]
    )
    assert np.array_equal(by_policy.observations[: k + 1], by_heuristic.observations[: k + 1])
    assert np.array_equal(by_policy.actions[: k + 1], by_heuristic.actions[: k + 1])  # labels: the heuristic's
    assert not np.array_equal(by_policy.observations[k + 1], by_heuristic.observations[k + 1])


@pytest.mark.slow
def test_pretraining_rounds_aggregate_and_report_the_policys_own_agreement():
    config = load_config("seastead", None, dict(SMALL, pretrain_games=3, pretrain_epochs=2, pretrain_rounds=2))
    model = _model("seastead", config, seed=0)
    lines: list[str] = []
    records: list[tuple[str, float, int]] = []
    pool = OpponentPool("seastead", ["random"], [], 0.0)
    figures = warm.pretrain(model, "seastead", config, pool, log=lines.append, record=lambda *r: records.append(r))
    assert lines[0].startswith("Pretraining round 1/2: 3 games of heuristic in the learner's seat")
    assert lines[3].startswith("Pretraining round 2/2: 3 games of the policy, labelled by heuristic, in the")
    assert "the policy agreed with heuristic on" in lines[3]
    assert [line.split(":")[0] for line in (lines[1], lines[2], lines[4], lines[5])] == [
        f"pretrain epoch {e}/4" for e in (1, 2, 3, 4)
    ]
    assert sorted({epoch for tag, _, epoch in records if tag == "pretrain/loss"}) == [0, 1, 2, 3]
    assert [epoch for tag, _, epoch in records if tag == "pretrain/on_policy_accuracy"] == [2]
    decisions = [int(line.split(" decisions")[0].rsplit(" ", 1)[1]) for line in (lines[0], lines[3])]
    assert figures["decisions"] == sum(decisions)  # the last fit covered both rounds
