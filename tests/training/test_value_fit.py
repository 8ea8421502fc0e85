"""Fitting the ``valued`` advisor's value model, alone and as the first phase of ``meeplezoo train``."""

from __future__ import annotations

import numpy as np
import pytest
from tiny_advised_run import TINY_ADVISED_RUN

from meeplezoo.agents import make_agent
from meeplezoo.agents.match import play_game
from meeplezoo.agents.policy import advisor_of
from meeplezoo.envs.concordia.valued import ValueModel
from meeplezoo.games import make_env
from meeplezoo.training import value_fit
from meeplezoo.training.config import TrainConfigError, load_config

ENV = {"num_players": 2}


def test_the_rows_do_not_depend_on_the_number_of_processes(monkeypatch):
    monkeypatch.setattr(value_fit, "CHUNK", 4)  # 10 games: three tasks
    one = value_fit.collect("concordia", "valued", ENV, 10, seed=3, jobs=1)
    two = value_fit.collect("concordia", "valued", ENV, 10, seed=3, jobs=2)
    assert one[0].keys() == two[0].keys() == {"x", "y"}
    for key in ("x", "y"):
        assert np.array_equal(one[0][key], two[0][key])
    assert np.array_equal(one[1], two[1])
    (x, y), game = (one[0]["x"], one[0]["y"]), one[1]
    assert x.shape[0] == y.shape[0] == game.shape[0] > 0 and set(game.tolist()) <= set(range(10))
    assert np.all(np.diff(game) >= 0)  # in game order
    # two seats: each sampled turn gives a row per seat, with opposite margins
    assert np.array_equal(y[0::2], -y[1::2])
    assert np.all(np.isfinite(x)) and np.all(np.abs(y) < 5)


def test_the_fit_learns_a_learnable_target_and_keeps_its_best_held_out_weights():
    rng = np.random.default_rng(0)
    x = rng.random((20000, 6), dtype=np.float32)
    y = (x @ np.array([1.0, -2.0, 0.5, 0.0, 3.0, -1.0], np.float32) - 0.75).astype(np.float32)
    group = np.arange(20000) // 20
    held = value_fit.held_out(value_fit.fitter_of("concordia", "valued"), group, 1000)
    assert np.array_equal(held, group % 10 == 0)  # Concordia holds out every tenth game
    layers, r2 = value_fit.fit_margin(x, y, held, [16], epochs=40, seed=1, log=lambda _: None)
    assert r2 > 0.95
    model = ValueModel(layers, 2, "italia")
    pred = np.array([model(row.copy()) for row in x[held]])
    assert 1 - ((pred - y[held]) ** 2).mean() / y[held].var() == pytest.approx(r2, abs=1e-4)
    with pytest.raises(ValueError, match="too few games"):
        value_fit.fit_margin(x, y, np.zeros(20000, bool), [16], epochs=1, seed=1)


def test_the_win_fit_recovers_a_conditional_logit_and_reports_each_group():
    rng = np.random.default_rng(0)
    true = np.array([1.0, -0.5, 0.25])
    x = rng.normal(size=(20000, 4, 3))
    alive = rng.random((20000, 4)) < 0.8
    alive[:, 0] = True
    p = value_fit.win_probabilities(x, alive, true)
    winner = (p.cumsum(1) > rng.random((20000, 1))).argmax(1)
    rows = {"x": x, "alive": alive, "winner": winner, "group": np.where(np.arange(20000) < 10000, 3, 4)}
    held = np.arange(20000) % 5 == 0
    weights, report = value_fit.fit_win_groups(rows, held, l2=0.0, log=lambda _: None)
    assert set(weights) == {3, 4} and all(np.abs(w - true).max() < 0.1 for w in weights.values())
    assert report[3]["train_rows"] == 8000 and report[3]["held_rows"] == 2000
    assert all(r["held_log_loss"] < r["held_log_loss_uniform"] for r in report.values())


def test_a_game_without_the_value_model_or_with_too_few_games_is_one_line(tmp_path):
    with pytest.raises(value_fit.ValueFitError, match=r"seastead has no value model 'valued' to fit .*: none\)"):
        value_fit.fit_value_model("seastead", "valued", {}, 100, tmp_path / "v.npz")
    with pytest.raises(value_fit.ValueFitError, match="games must be at least 20, not 5"):
        value_fit.fit_value_model("concordia", "valued", ENV, 5, tmp_path / "v.npz")
    assert not (tmp_path / "v.npz").exists()


def test_bad_value_settings_are_one_line_errors():
    with pytest.raises(TrainConfigError, match='value_games fits the value model of advisor = "valued"'):
        load_config("concordia", None, {"value_games": 100, "advisor": "heuristic"})
    with pytest.raises(TrainConfigError, match="value_games takes 0 or a whole number of at least 20, not 5"):
        load_config("concordia", None, {"value_games": 5, "advisor": "valued"})
    with pytest.raises(TrainConfigError, match="value_epochs takes a whole number of at least 1, not 0"):
        load_config("concordia", None, {"value_epochs": 0})
    with pytest.raises(TrainConfigError, match="value_net_arch takes a list of positive layer sizes, not"):
        load_config("concordia", None, {"value_net_arch": [0]})


def _tiny(game: str = "concordia", **more):
    values = {
        **TINY_ADVISED_RUN,
        "advisor": "valued",
        "advice_anchor": 0.3,
        "value_games": 20,
        "value_net_arch": [8],
        "value_epochs": 1,
        "env": dict(ENV),
    }
    values.update(more)
    return load_config(game, None, values)


def test_a_game_without_a_valued_agent_is_refused_before_anything_runs(tmp_path):
    pytest.importorskip("sb3_contrib")
    from meeplezoo.agents.registry import UnknownAgentError
    from meeplezoo.training.trainer import train

    with pytest.raises(UnknownAgentError, match="no agent 'valued' for seastead"):
        train("seastead", tmp_path / "run", _tiny("seastead", env={}), log=lambda _: None)
    assert not (tmp_path / "run").exists()
    with pytest.raises(UnknownAgentError, match="no agent 'nobody' for concordia"):  # the demonstrator is checked too
        train("concordia", tmp_path / "run", _tiny(pretrain_games=5, pretrain_agent="nobody"), log=lambda _: None)
    assert not (tmp_path / "run").exists()


@pytest.mark.slow
def test_a_run_fits_its_value_model_first_and_its_policy_is_advised_by_it(tmp_path):
    pytest.importorskip("sb3_contrib")
    from meeplezoo.training.trainer import export_policy, train

    out = tmp_path / "run"
    lines: list[str] = []
    train("concordia", out, _tiny(), log=lines.append)
    value = out / "value.npz"
    model = ValueModel.load(value)
    assert (model.num_players, model.board, model.layers[0][0].shape[1]) == (2, "italia", 8)
    assert any(line.startswith("value fit: 20 heuristic self-play games") for line in lines)
    assert 'advisor = "valued"' in (out / "config.toml").read_text()  # a resume resolves it again
    agent = make_agent(f"ppo:{out / 'final.zip'}", "concordia", seed=0)
    assert advisor_of(agent.model) == f"valued:path={value}"
    env = make_env("concordia", **ENV)
    record = play_game(env, {"player_0": agent, "player_1": make_agent("random", "concordia", seed=1)}, seed=2)
    assert not record.illegal_action and agent._advisor.model.layers[0][0].shape[1] == 8

    lines.clear()
    train("concordia", out, resume=True, total_steps=128, log=lines.append)  # no second fit
    assert not any(line.startswith("value fit") for line in lines)
    assert ValueModel.load(value).layers[0][0].tobytes() == model.layers[0][0].tobytes()

    shipped = export_policy(out / "final.zip", tmp_path / "ship.zip", advisor=f"valued:path={value}")
    assert advisor_of(make_agent(f"ppo:{shipped}", "concordia").model) == f"valued:path={value}"
    plain = export_policy(out / "final.zip", tmp_path / "plain.zip")
    from meeplezoo.training.trainer import TrainError

    with pytest.raises(TrainError, match="not an advised model"):
        unadvised = tmp_path / "unadvised"
        train("concordia", unadvised, _tiny(advisor="", advice_anchor=0.0, value_games=0), log=lambda _: None)
        export_policy(unadvised / "final.zip", tmp_path / "x.zip", advisor="valued")
    assert plain.is_file()


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["board_royale", "win", "--option", "every=0"], "value model 'win': every takes a whole number of at least 1"),
        (
            ["board_royale", "win", "--option", "each=3"],
            "value model 'win' has no parameter 'each'; its parameters: every",
        ),
        (["board_royale", "win", "--set", "num_players=two"], "board_royale config: num_players takes a whole number"),
        (["concordia", "valued", "--games", "10"], "--games must be at least 20, --epochs at least 1"),
        (["resafa", "win"], "resafa has no value model 'win' to fit"),
    ],
)
def test_the_fitters_command_line_refuses_a_bad_request_in_one_line(capsys, tmp_path, argv, line):
    out = tmp_path / "model"
    games = [] if "--games" in argv else ["--games", "24"]
    assert value_fit.main([*argv, *games, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"value_fit: {line}") and err.count("\n") == 1
    assert not out.exists()
