"""`meeplezoo train`: a tiny run writes checkpoints, --resume continues the step count and the pool, bad input."""

from __future__ import annotations

import json
import pickle
import zipfile

import numpy as np
import pytest

from meeplezoo.cli import main
from meeplezoo.training.config import TrainConfigError, load_config, tomllib
from meeplezoo.training.single_agent import SingleAgentEnv

TINY = {
    "total_steps": 128,
    "n_envs": 2,  # SubprocVecEnv: MaskablePPO reads action_masks() from the workers
    "n_steps": 32,
    "batch_size": 32,
    "n_epochs": 1,
    "net_arch": [16],
    "checkpoint_every": 64,
    "snapshot_every": 64,
    "eval_every": 64,
    "eval_games": 1,
    "self_play": 1.0,
}


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    pytest.importorskip("sb3_contrib")
    from meeplezoo.training.trainer import train

    out = tmp_path_factory.mktemp("run")
    lines: list[str] = []
    train("seastead", out, load_config("seastead", None, TINY), log=lines.append)
    return out, lines


@pytest.mark.slow
def test_a_tiny_run_writes_checkpoints_logs_and_evaluations(tiny_run):
    out, lines = tiny_run
    latest = json.loads((out / "checkpoints" / "latest.json").read_text())
    assert latest["step"] == 128 and (out / latest["model"]).is_file()
    with zipfile.ZipFile(out / latest["model"]) as z:
        assert "policy.optimizer.pth" in z.namelist()  # the optimiser state is in the checkpoint
    state = pickle.loads((out / latest["state"]).read_bytes())
    assert state["run"]["snapshots"] == ["pool/step_64.zip", "pool/step_128.zip"]  # the end is a boundary too
    assert set(state["rng"]) == {"torch", "numpy", "random"} and len(state["envs"]) == 2
    assert (out / "checkpoints" / "step_64.zip").is_file() and (out / "final.zip").is_file()
    assert any(p.name.startswith("events.out.tfevents") for p in (out / "tb").rglob("*"))
    assert any(line.startswith("step 64: win rate vs heuristic") for line in lines)
    from meeplezoo.training.logs import read_scalars

    scalars = read_scalars(out)  # the logs hold the evaluation the checkpoint recorded
    assert scalars["eval/win_rate_vs_heuristic"][0] == pytest.approx(state["run"]["evals"][0][:2])
    assert {"train/entropy_loss", "train/value_loss", "pool/frozen_checkpoints"} <= scalars.keys()


@pytest.mark.slow
def test_an_exported_policy_drops_the_optimiser_and_half_halves_the_weights(tiny_run, tmp_path):
    import torch
    from sb3_contrib import MaskablePPO

    from meeplezoo.training.trainer import export_policy

    out, _ = tiny_run
    full = export_policy(out / "final.zip", tmp_path / "full.zip")
    half = export_policy(out / "final.zip", tmp_path / "half.zip", half=True)
    with zipfile.ZipFile(half) as z:
        assert {info.compress_type for info in z.infolist()} == {zipfile.ZIP_DEFLATED}
        weights = torch.load(z.open("policy.pth"), weights_only=True)
    assert {t.dtype for t in weights.values() if t.is_floating_point()} == {torch.float16}
    with zipfile.ZipFile(full) as z:
        assert not torch.load(z.open("policy.optimizer.pth"), weights_only=True)["state"]  # no moments
    original = MaskablePPO.load(str(out / "final.zip"), device="cpu").policy.state_dict()
    loaded = MaskablePPO.load(str(half), device="cpu").policy.state_dict()  # cast back into float32
    for name, tensor in original.items():
        assert loaded[name].dtype == tensor.dtype
        assert torch.equal(loaded[name], tensor.half().to(tensor.dtype))  # the float16 rounding, nothing else
    assert half.stat().st_size < full.stat().st_size


@pytest.mark.slow
def test_resume_continues_the_step_count_and_the_pool(tiny_run):
    from meeplezoo.training.trainer import TrainError, train

    out, _ = tiny_run
    with pytest.raises(TrainError, match="already holds a run"):
        train("seastead", out, load_config("seastead", None, TINY))
    lines: list[str] = []
    model = train("seastead", out, resume=True, total_steps=256, log=lines.append)
    assert lines[0].startswith(f"Resumed {out} at step 128 (pool: 2 frozen checkpoints)")
    assert model.num_timesteps == 256
    latest = json.loads((out / "checkpoints" / "latest.json").read_text())
    state = pickle.loads((out / latest["state"]).read_bytes())
    assert latest["step"] == 256
    assert state["run"]["snapshots"] == [f"pool/step_{n}.zip" for n in (64, 128, 192, 256)]  # the old pool, more
    assert [step for step, _, _ in state["run"]["evals"]] == [64, 128, 192, 256]


def _linear_run(out, total_steps: int, checkpoint_every: int = 0):
    """A one-env Seastead run of 32-step rollouts with the learning rate 1e-3 falling linearly."""
    pytest.importorskip("sb3_contrib")
    from meeplezoo.training.trainer import train

    settings = dict(TINY, n_envs=1, total_steps=total_steps, n_steps=32, lr_schedule="linear", learning_rate=1e-3)
    settings.update(checkpoint_every=checkpoint_every, snapshot_every=0, eval_every=0, self_play=0.0)
    return train("seastead", out, load_config("seastead", None, settings))


@pytest.mark.slow
def test_a_linear_learning_rate_falls_to_zero_over_the_run_and_reloads(tmp_path):
    model = _linear_run(tmp_path, total_steps=64)
    from sb3_contrib import MaskablePPO

    # sb3 sets the rate before each update from the progress left: 1 - 32/64 before the first, 0 before the last
    assert model.policy.optimizer.param_groups[0]["lr"] == pytest.approx(0.0)
    assert model.lr_schedule(0.5) == pytest.approx(5e-4)
    loaded = MaskablePPO.load(tmp_path / "final.zip", device="cpu")  # the schedule is saved by reference
    assert loaded.lr_schedule(0.25) == pytest.approx(2.5e-4)


@pytest.mark.slow
def test_a_linear_learning_rate_stays_at_zero_past_the_end_of_the_run(tmp_path):
    # 48 steps of 32-step rollouts: the second rollout ends at 64, where sb3's progress left is 1 - 64/48 < 0
    model = _linear_run(tmp_path, total_steps=48, checkpoint_every=32)
    import torch
    from sb3_contrib import MaskablePPO

    assert model.num_timesteps == 64 and model.lr_schedule(-1 / 3) == 0.0
    assert model.policy.optimizer.param_groups[0]["lr"] == 0.0  # not a negative rate: no step uphill
    before = MaskablePPO.load(tmp_path / "checkpoints" / "step_32.zip", device="cpu").policy.state_dict()
    after = MaskablePPO.load(tmp_path / "final.zip", device="cpu").policy.state_dict()
    assert all(torch.equal(before[name], after[name]) for name in before)  # the update past the end moved nothing


def test_resume_without_a_checkpoint_is_a_one_line_error(tmp_path, capsys):
    pytest.importorskip("sb3_contrib")
    assert main(["train", "seastead", "--out", str(tmp_path), "--resume"]) == 2
    err = capsys.readouterr().err
    assert "no checkpoint to resume" in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["train", "chess", "--out", "x"], "chess"),
        (["train", "seastead", "--out", "x", "--opponent", "nobody"], "no agent 'nobody'"),
        (["train", "seastead", "--out", "x", "--config", "missing.toml"], "no config file"),
    ],
)
def test_bad_game_opponent_or_config_is_a_one_line_error(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_config_file_is_checked_key_by_key(tmp_path):
    good = tmp_path / "good.toml"
    good.write_text('total_steps = 1000\nopponents = ["random"]\nlearning_rate = 1\n[env]\nnum_players = 3\n')
    config = load_config("concordia", good)
    assert (config.total_steps, config.opponents, config.learning_rate, config.env) == (
        1000,
        ["random"],
        1.0,
        {"num_players": 3},
    )
    assert config.n_steps == 256  # concordia's default stays
    for text, message in [
        ("total_step = 5", "has no parameter 'total_step'; its parameters: total_steps, n_envs"),
        ('n_envs = "two"', "n_envs takes a whole number of at least 1, not 'two'"),
        ("self_play = 2.0", "self_play takes a number from 0 to 1, not 2.0"),
        ("gamma = 1.5", r"gamma takes a number in \(0, 1\], not 1.5"),
        ("gamma = 0.0", r"gamma takes a number in \(0, 1\], not 0.0"),
        ("gae_lambda = -0.1", "gae_lambda takes a number from 0 to 1, not -0.1"),
        ("total_steps = ", "not a valid TOML file"),
        ('lr_schedule = "cosine"', "lr_schedule takes one of constant, linear, not 'cosine'"),
    ]:
        bad = tmp_path / "bad.toml"
        bad.write_text(text + "\n")
        with pytest.raises(TrainConfigError, match=message):
            load_config("seastead", bad)


def _play(env: SingleAgentEnv, seed: int, rng: np.random.Generator):
    env.reset(seed=seed)
    while True:
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        _, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            return reward, terminated, truncated, info


def test_the_learner_is_paid_when_an_opponents_move_ends_the_game():
    env = SingleAgentEnv("seastead", opponent="random")
    rng = np.random.default_rng(0)
    seen = {"opponent": 0, "learner": 0}
    for seed in range(40):
        reward, terminated, _, info = _play(env, seed, rng)
        assert terminated
        who = "learner" if env.last_actor == info["learner"] else "opponent"
        seen[who] += 1
        ranks, seat = info["ranks"], env.possible_agents.index(info["learner"])
        expected = 0.0 if ranks.count(0) == 2 else (1.0 if ranks[seat] == 0 else -1.0)
        assert reward == expected
        if seen["opponent"] >= 3 and seen["learner"] >= 3:
            break
    assert seen["opponent"] >= 3 and seen["learner"] >= 3  # both endings were checked


def test_a_truncated_game_pays_the_learners_standing():
    env = SingleAgentEnv("seastead", opponent="random", max_decisions=60)
    rng = np.random.default_rng(1)
    for seed in range(20):
        reward, _, truncated, info = _play(env, seed, rng)
        if truncated:
            state = env.aec.unwrapped.state_obj
            ranks, seat = state.ranks(), env.possible_agents.index(info["learner"])
            assert reward == (0.0 if ranks.count(0) == 2 else (1.0 if ranks[seat] == 0 else -1.0))
            return
    pytest.fail("no game was truncated at 60 decisions")


def test_the_in_run_win_rate_counts_unfinished_and_shared_games_as_not_won():
    from meeplezoo.agents.match import GameRecord, MatchResult
    from meeplezoo.training.trainer import ppo_win_rate

    def record(ranks: dict[str, int], truncated: bool = False) -> GameRecord:
        players = {"player_0": "ppo", "player_1": "heuristic"}
        scores = {a: 0.0 for a in players}
        return GameRecord("x", 0, players, scores, ranks, dict(scores), 10, truncated=truncated)

    result = MatchResult("x", ["ppo", "heuristic"])
    result.records = [
        record({"player_0": 0, "player_1": 1}),  # won
        record({"player_0": 0, "player_1": 1}, truncated=True),  # cut at the bound: not won
        record({"player_0": 0, "player_1": 0}),  # shared: not won
        record({"player_0": 1, "player_1": 0}),  # lost
    ]
    assert ppo_win_rate(result) == 0.25  # the standings' win rate would say (1 + 0.5) / 3


def test_every_config_a_game_ships_loads_by_file_and_by_name():
    from meeplezoo.games import manifests
    from meeplezoo.training.az_train import settings

    shipped = [(m.name, name, file) for m in manifests() for name, file in m.training_configs().items()]
    assert {game for game, _, _ in shipped} >= {m.name for m in manifests() if m.distribution == "meeplezoo"}
    for game, name, file in shipped:
        values = tomllib.loads(file.read_text(encoding="utf-8"))
        if values.pop("algo", "ppo") == "az":  # an az network's config (meeplezoo train GAME --algo az)
            assert settings(values)["iterations"] >= 1, file
            with pytest.raises(TrainConfigError, match=r"is a config for --algo az, not ppo$"):
                load_config(game, name)
            continue
        config = load_config(game, str(file))
        assert config.total_steps >= 1, file
        assert load_config(game, name) == config  # meeplezoo train GAME --config NAME
    with pytest.raises(TrainConfigError, match=r"no config file 'nope', nor a config of seastead .*ships: seastead"):
        load_config("seastead", "nope")


@pytest.mark.slow
@pytest.mark.parametrize(
    "envs", [{"n_envs": 1}, {"n_envs": 2, "n_steps": 16, "pipelined": True}], ids=["one", "pipelined"]
)
def test_stop_at_ends_the_run_at_that_boundary_with_the_schedule_of_the_whole_run(tmp_path, envs):
    """(pipelined: the stop comes with both groups' next steps in flight; they are drained, not stored)"""
    pytest.importorskip("sb3_contrib")
    from meeplezoo.training.trainer import train

    settings = {**TINY, **envs, "self_play": 0.0, "snapshot_every": 0, "eval_every": 0}
    settings |= {"lr_schedule": "linear", "learning_rate": 1e-3, "stop_at": 64}
    model = train("seastead", tmp_path, load_config("seastead", None, settings), log=lambda _: None)
    assert model.num_timesteps == 64
    assert json.loads((tmp_path / "checkpoints" / "latest.json").read_text())["step"] == 64
    assert (tmp_path / "final.zip").is_file()
    # the last update (after 64 of total_steps = 128) ran at half the rate: the schedule spans the whole run
    # (with total_steps = 64 it would have been 0)
    assert model.policy.optimizer.param_groups[0]["lr"] == pytest.approx(5e-4)
    with pytest.raises(TrainConfigError, match="stop_at takes a whole number of at least 0, not -1"):
        load_config("seastead", None, {"stop_at": -1})
