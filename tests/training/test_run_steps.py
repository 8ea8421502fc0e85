"""The training run's named steps, its typed settings (one params error line) and what it asks of a game's
manifest (training defaults, the win-chance model of ``shaping = "value"``)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from meeplezoo import games
from meeplezoo.envs.core.params import ParamError
from meeplezoo.training.config import TrainConfigError, default_config, dump_config, load_config


@pytest.fixture
def fake_game(monkeypatch):
    """Registers ``fake``: Seastead under another name, with its own manifest fields (``fake_game(**fields)``)."""

    def register(**fields):
        table = dict(games._manifests())
        table["fake"] = dataclasses.replace(table["seastead"], name="fake", **fields)
        monkeypatch.setattr(games, "_manifests", lambda: table)
        return table["fake"]

    return register


@pytest.mark.parametrize(
    ("values", "line"),
    [
        ({"n_steps": 0}, "command line: n_steps takes a whole number of at least 1, not 0"),
        ({"self_play": "half"}, "command line: self_play takes a number from 0 to 1, not 'half'"),
        ({"pipelined": 1}, "command line: pipelined takes true or false, not 1"),
        ({"opponents": ["random", 3]}, "command line: opponents takes a list of text, not ['random', 3]"),
        ({"reward_mode": "glory"}, "command line: reward_mode takes one of win, rank, score_margin, not 'glory'"),
        ({"env": {"num_players": "two"}}, "command line [env]: num_players takes a whole number, not 'two'"),
    ],
)
def test_a_bad_config_value_is_one_params_error_line(values, line):
    with pytest.raises(TrainConfigError) as caught:
        load_config("seastead", None, values)
    assert str(caught.value) == line
    assert isinstance(caught.value, ParamError)


def test_the_env_table_is_checked_by_the_games_config_schema(tmp_path):
    file = tmp_path / "c.toml"
    file.write_text("[env]\nnum_players = 3\nmap = 'imperium'\n")
    assert load_config("concordia", file).env == {"num_players": 3, "map": "imperium"}
    file.write_text("[env]\nboard = 'imperium'\n")
    with pytest.raises(TrainConfigError, match=r"\[env\] has no parameter 'board'; its parameters: num_players, map"):
        load_config("concordia", file)


def test_per_game_defaults_come_from_the_games_manifest(fake_game):
    fake_game(training={"n_steps": 64, "gamma": 0.9, "net_arch": [8]})
    config = default_config("fake")
    assert (config.n_steps, config.gamma, config.net_arch) == (64, 0.9, [8])
    assert default_config("seastead").n_steps == 512  # the class default: Seastead's manifest has none
    assert load_config("fake", None, {"gamma": 0.5}).n_steps == 64  # the flags go over the game's defaults
    fake_game(training={"n_step": 64})
    with pytest.raises(TrainConfigError, match=r"^fake's manifest \(training\) has no parameter 'n_step'"):
        default_config("fake")


def test_value_shaping_asks_the_manifest_for_its_win_model(fake_game):
    from meeplezoo.training.single_agent import ShapingError, SingleAgentEnv, check_shaping

    fake_game(value_models={})
    with pytest.raises(ShapingError) as caught:
        check_shaping("fake", "value")
    assert "\n" not in str(caught.value) and str(caught.value).endswith("fake has none (use 'standing')")
    with pytest.raises(ShapingError, match="fake has none"):
        SingleAgentEnv("fake", shaping="value")
    check_shaping("board_royale", "value")  # its manifest names one


def test_a_game_is_required_by_the_single_agent_and_rllib_envs():
    from meeplezoo.training.rllib import RLlibMultiAgentEnv
    from meeplezoo.training.single_agent import SingleAgentEnv

    with pytest.raises(TypeError, match="game"):
        SingleAgentEnv()  # type: ignore[call-arg]
    with pytest.raises(ValueError, match=r"needs the game: env_config\['game'\]"):
        RLlibMultiAgentEnv({"seed": 0})


def _resumable(tmp_path, **settings):
    """A run folder with a config and a latest checkpoint (what a resumed run reads before its state)."""
    config = load_config("seastead", None, settings)
    (tmp_path / "checkpoints").mkdir()
    (tmp_path / "config.toml").write_text(dump_config(config))
    latest = {"game": "seastead", "step": 64, "model": "checkpoints/step_64.zip", "state": "checkpoints/step_64.pkl"}
    (tmp_path / "checkpoints" / "latest.json").write_text(json.dumps(latest))
    return config


def test_a_resumed_run_reads_its_own_config_and_skips_the_warm_start(tmp_path):
    pytest.importorskip("sb3_contrib")
    from meeplezoo.training.trainer import TrainError, TrainingRun

    _resumable(tmp_path, pretrain_games=3, total_steps=500)
    warm: list[str] = []
    resumed = TrainingRun("seastead", tmp_path, resume=True)
    resumed.pretrain = lambda: warm.append("resumed")  # type: ignore[method-assign]
    assert (resumed.step0, resumed.config.pretrain_games, resumed.config.total_steps) == (64, 3, 500)
    resumed.on_training_start()
    assert warm == []  # the checkpoints hold the warm start's weights
    fresh = TrainingRun("seastead", tmp_path / "fresh", load_config("seastead", None, {"pretrain_games": 3}))
    fresh.pretrain = lambda: warm.append("fresh")  # type: ignore[method-assign]
    fresh.on_training_start()
    assert warm == ["fresh"] and fresh.step0 == 0
    with pytest.raises(TrainError, match="already holds a run; add --resume"):
        TrainingRun("seastead", tmp_path)
    with pytest.raises(TrainError, match=r"is a run of seastead, not concordia"):
        TrainingRun("concordia", tmp_path, resume=True)


def test_train_runs_the_named_steps_in_order_and_closes_the_envs_when_one_fails(tmp_path, monkeypatch):
    pytest.importorskip("sb3_contrib")
    from meeplezoo.training import trainer

    done: list[str] = []
    for step in ("prepare", "fit_value", "restore", "build_envs", "build_model", "learn", "finish", "close"):
        monkeypatch.setattr(trainer.TrainingRun, step, lambda self, *a, step=step: done.append(step))

    def fails(self, *args):
        done.append("learn")
        raise RuntimeError("a worker died")

    trainer.train("seastead", tmp_path / "a", load_config("seastead", None, {}))
    assert done == ["prepare", "fit_value", "restore", "build_envs", "build_model", "learn", "finish", "close"]
    done.clear()
    monkeypatch.setattr(trainer.TrainingRun, "learn", fails)
    with pytest.raises(RuntimeError, match="a worker died"):
        trainer.train("seastead", tmp_path / "b", load_config("seastead", None, {}))
    assert done[-2:] == ["learn", "close"]


def test_prepare_writes_the_config_and_refuses_an_unwritable_folder(tmp_path):
    pytest.importorskip("sb3_contrib")
    from meeplezoo.training.trainer import TrainError, TrainingRun

    run = TrainingRun("seastead", tmp_path / "run", load_config("seastead", None, {"seed": 4}))
    run.prepare(total_steps=96, time_limit=30)
    written = load_config("seastead", tmp_path / "run" / "config.toml")
    assert (written.seed, written.total_steps, written.time_limit) == (4, 96, 30.0)
    assert sorted(p.name for p in (tmp_path / "run").iterdir()) == ["config.toml"]
    (tmp_path / "file").write_text("x")
    with pytest.raises(TrainError, match="cannot write the run folder"):
        TrainingRun("seastead", tmp_path / "file" / "run").prepare()
