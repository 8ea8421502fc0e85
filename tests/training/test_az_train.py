"""Expert iteration for the az agent (``meeplezoo train GAME --algo az``), in tiny runs: what a run writes
(checkpoints, tensorboard logs, evaluations, the final network an ``az`` agent plays), ``--resume`` continuing bit
for bit, the budgets stopping a run, and the command line's options and one-line errors."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from meeplezoo.agents import make_agent, play_game  # noqa: E402
from meeplezoo.cli import main  # noqa: E402
from meeplezoo.envs.core.params import ParamError  # noqa: E402
from meeplezoo.games import make_env  # noqa: E402
from meeplezoo.training.az_train import AZTrainError, settings, train_az  # noqa: E402

#: a run of a few seconds: 2 self-play games an iteration, 8 simulations a decision, a tiny net
TINY = {
    "games": 2,
    "sims": 8,
    "batch": 4,
    "hidden": [16],
    "train_steps": 3,
    "batch_size": 32,
    "buffer": 400,  # smaller than the positions of two iterations: the ring wraps
    "eval_every": 2,
    "eval_games": 2,
    "eval_sims": 0,
    "opponents": ["random"],
}


def quiet(_: str) -> None:
    pass


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    """A 2-iteration run, never interrupted."""
    out = tmp_path_factory.mktemp("az") / "whole"
    train_az("seastead", out, {**TINY, "iterations": 2}, log=quiet)
    return out


def weights(path):
    return torch.load(path, map_location="cpu", weights_only=True)


def warm_targets(run, warm_agent, **extra):
    """A 1-iteration run in ``run`` whose warm start plays one game of ``warm_agent``: the imitated positions'
    policy targets, legal masks and observations, from its buffer."""
    values = {**TINY, "iterations": 1, "eval_every": 0, "buffer": 5000, "warm_games": 1, "warm_steps": 1}
    logs: list[str] = []
    train_az("seastead", run, {**values, "warm_agent": warm_agent, **extra}, log=logs.append)
    imitated = int(next(line for line in logs if line.startswith("warm start:")).split(", ")[1].split()[0])
    with np.load(run / "checkpoints" / "buffer.npz") as buffer:
        return buffer["pi"][:imitated], buffer["mask"][:imitated], buffer["obs"][:imitated]


@pytest.mark.slow
def test_a_run_writes_checkpoints_logs_evaluations_and_a_playable_net(whole):
    from meeplezoo.training.logs import read_scalars

    folder = whole / "checkpoints"
    assert {p.name for p in folder.iterdir()} == {
        "iter_1.pt",
        "iter_2.pt",
        "latest.pt",
        "latest.json",
        "buffer.npz",
    }
    latest = json.loads((folder / "latest.json").read_text())
    assert latest["iteration"] == 2 and latest["net"] == "checkpoints/iter_2.pt" and latest["totals"]["games"] == 4
    assert [e["opponent"] for e in latest["evals"]] == ["random"] and latest["evals"][0]["games"] == 2
    assert json.loads((whole / "config.json").read_text())["sims"] == 8
    assert "optimizer" in weights(folder / "iter_2.pt") and "optimizer" not in weights(whole / "final.pt")
    scalars = read_scalars(whole)
    for tag in (
        "loss/loss",
        "loss/policy_loss",
        "loss/value_loss",
        "train/policy_entropy",
        "train/value_error",
        "selfplay/games_per_s",
        "time/search_share",
        "time/network_share",
        "time/engine_share",
        "eval/win_rate_vs_random",
    ):
        assert tag in scalars, tag
    assert [step for step, _ in scalars["loss/loss"]] == [1, 2]
    shares = sum(scalars[f"time/{k}_share"][-1][1] for k in ("search", "network", "engine"))
    assert shares == pytest.approx(1.0, abs=1e-5)
    agent = make_agent(f"az:sims=4,path={whole / 'final.pt'}", "seastead", seed=0)
    record = play_game(make_env("seastead"), {"player_0": agent, "player_1": make_agent("random", "seastead")}, 1)
    assert not record.illegal_action and not record.truncated


@pytest.mark.slow
def test_resume_continues_to_the_same_weights_bit_for_bit(whole, tmp_path):
    run = tmp_path / "run"
    train_az("seastead", run, {**TINY, "iterations": 1}, log=quiet)
    (run / "final.pt").unlink()
    shutil.rmtree(run / "tb")
    logs: list[str] = []
    train_az("seastead", run, {"iterations": 2}, resume=True, log=logs.append)
    assert logs[0].startswith(f"Resumed {run} after iteration 1")
    for name in ("checkpoints/iter_2.pt", "final.pt"):
        got, want = weights(run / name), weights(whole / name)
        assert got.keys() == want.keys()
        for key in got["weights"]:
            assert torch.equal(got["weights"][key], want["weights"][key]), (name, key)
    opt_got, opt_want = (
        weights(run / "checkpoints/iter_2.pt")["optimizer"],
        weights(whole / "checkpoints/iter_2.pt")["optimizer"],
    )
    for index, slot in opt_want["state"].items():
        for key, value in slot.items():
            assert torch.equal(opt_got["state"][index][key], value)
    with np.load(run / "checkpoints/buffer.npz") as got, np.load(whole / "checkpoints/buffer.npz") as want:
        for key in ("obs", "mask", "pi", "z", "pos"):
            np.testing.assert_array_equal(got[key], want[key])
    mine, theirs = (json.loads((r / "checkpoints/latest.json").read_text()) for r in (run, whole))
    assert mine["rng"] == theirs["rng"] and mine["torch_rng"] == theirs["torch_rng"]
    assert mine["totals"] == theirs["totals"] and mine["evals"] == theirs["evals"]


def test_a_run_that_fails_after_its_warm_start_resumes_from_it_bit_for_bit(tmp_path, monkeypatch):
    """The warm start is checkpointed as iteration 0: a run that dies in its first iteration resumes without
    replaying it and ends with the weights of a run never interrupted."""
    from meeplezoo.training.az_train import AZRun

    values = {**TINY, "iterations": 1, "eval_every": 0, "buffer": 5000, "warm_games": 2, "warm_steps": 4}
    train_az("seastead", tmp_path / "whole", values, log=quiet)
    real_step = AZRun.step

    def dies(self):
        raise RuntimeError("killed in iteration 1")

    monkeypatch.setattr(AZRun, "step", dies)
    with pytest.raises(RuntimeError, match="killed in iteration 1"):
        train_az("seastead", tmp_path / "run", values, log=quiet)
    latest = json.loads((tmp_path / "run" / "checkpoints" / "latest.json").read_text())
    assert latest["iteration"] == 0 and (tmp_path / "run" / "checkpoints" / "iter_0.pt").exists()
    monkeypatch.setattr(AZRun, "step", real_step)
    logs: list[str] = []
    train_az("seastead", tmp_path / "run", {"iterations": 1}, resume=True, log=logs.append)
    assert logs[0].startswith(f"Resumed {tmp_path / 'run'} after iteration 0")
    assert not any(line.startswith("warm start:") for line in logs)  # not played again
    got, want = weights(tmp_path / "run" / "final.pt"), weights(tmp_path / "whole" / "final.pt")
    for key in want["weights"]:
        assert torch.equal(got["weights"][key], want["weights"][key]), key


@pytest.mark.slow
def test_a_time_budget_stops_the_run_after_the_game_under_way(tmp_path):
    logs: list[str] = []
    net = train_az("seastead", tmp_path / "run", {**TINY, "iterations": 50, "time_limit": 1e-6}, log=logs.append)
    latest = json.loads((tmp_path / "run" / "checkpoints" / "latest.json").read_text())
    assert latest["iteration"] == 1 and latest["totals"]["games"] == 1  # one game, fitted, checkpointed, stopped
    assert "stopped by the time limit" in logs[-2] and net.game == "seastead"
    assert (tmp_path / "run" / "final.pt").is_file()


def test_a_run_folder_is_not_overwritten_and_resume_needs_a_checkpoint(tmp_path, whole):
    with pytest.raises(AZTrainError, match=r"already holds a run; add --resume"):
        train_az("seastead", whole, TINY, log=quiet)
    with pytest.raises(AZTrainError, match=r"^no checkpoint to resume in "):
        train_az("seastead", tmp_path, {}, resume=True, log=quiet)
    with pytest.raises(AZTrainError, match=r"only cpu_limit, iterations, time_limit, workers may change, not sims$"):
        train_az("seastead", whole, {"sims": 3}, resume=True, log=quiet)


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"depth": 3}, r"az training has no parameter 'depth'; its parameters: iterations, games, sims"),
        ({"sims": 0}, r"sims takes a whole number of at least 1, not 0"),
        ({"hidden": []}, r"hidden takes a list of layer sizes of at least 1"),
        ({"noise_fraction": 2}, r"noise_fraction takes a number from 0 to 1, not 2"),
        ({"workers": 0}, r"workers takes a whole number of at least 1, not 0"),
        ({"search": "sims=3"}, r"search has no parameter 'sims'; its parameters: mix, estimate, qnorm, rollout"),
        ({"search": "mix=2"}, r"search: mix takes a number from 0 to 1, not '2'"),
        ({"search": "rollout=random"}, r"rollout=random values leaves by the estimate, which needs mix above 0"),
        ({"search": "deepen=3"}, r"deepen=3 gives nodes below the root the network's prior late, which needs prior="),
    ],
)
def test_a_bad_setting_is_one_line(values, message):
    with pytest.raises(ParamError, match=message) as info:
        settings(values)
    assert "\n" not in str(info.value)


def test_train_algo_az_on_the_command_line(capsys, tmp_path):
    config = tmp_path / "az.toml"
    config.write_text("games = 1\nhidden = [8]\ntrain_steps = 1\nbatch_size = 8\neval_every = 0\n")
    out = tmp_path / "run"
    argv = ["train", "seastead", "--algo", "az", "--out", str(out), "--config", str(config)]
    assert main([*argv, "--iterations", "1", "--sims", "2", "--seed", "3", "--no-progress"]) == 0
    saved = json.loads((out / "config.json").read_text())
    assert (saved["iterations"], saved["sims"], saved["seed"], saved["games"], saved["hidden"]) == (1, 2, 3, 1, [8])
    assert "Saved" in capsys.readouterr().out and (out / "final.pt").is_file()
    assert (
        main(
            [
                "train",
                "seastead",
                "--algo",
                "az",
                "--out",
                str(out),
                "--resume",
                "--iterations",
                "2",
                "--budget",
                "1h",
                "--workers",
                "2",
                "--no-progress",
            ]
        )
        == 0
    )
    resumed = json.loads((out / "config.json").read_text())
    assert (resumed["cpu_limit"], resumed["workers"]) == (3600.0, 2)
    assert json.loads((out / "checkpoints" / "latest.json").read_text())["iteration"] == 2


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--algo", "az", "--steps", "64"], "--steps: for --algo ppo; --algo az takes --iterations, --sims, --budget"),
        (["--sims", "5"], "--sims: for --algo az"),
        (["--workers", "2"], "--workers: for --algo az"),
        (["--algo", "az", "--workers", "0"], "argument --workers: "),
        (["--algo", "az", "--budget", "soon"], "argument --budget: takes a duration above 0 such as 90s, 30m or 4h"),
        (["--algo", "az", "--resume", "--sims", "5"], "--resume takes the run's own config.json; only --iterations"),
        (["--algo", "az", "--config", "nonesuch"], "--config: no config file 'nonesuch', nor a config of seastead by"),
    ],
)
def test_az_options_are_checked_in_one_line(capsys, tmp_path, argv, message):
    try:
        code = main(["train", "seastead", "--out", str(tmp_path / "run"), *argv])
    except SystemExit as stop:  # argparse's own errors
        code = stop.code
    err = capsys.readouterr().err
    assert code == 2 and message in err and err.count("\n") == 1
    assert not (tmp_path / "run" / "checkpoints").exists()


def test_config_takes_the_name_of_an_az_config_the_game_ships(tmp_path):
    from meeplezoo.cli import build_parser
    from meeplezoo.commands.train import _az_settings
    from meeplezoo.games import manifest
    from meeplezoo.training.config import tomllib

    argv = ["train", "seastead", "--algo", "az", "--out", str(tmp_path), "--config", "seastead_az_2p"]
    values = _az_settings("seastead", build_parser().parse_args([*argv, "--iterations", "2"]))
    shipped = tomllib.loads(manifest("seastead").training_configs()["seastead_az_2p"].read_text(encoding="utf-8"))
    assert "algo" not in values and values == {**{k: v for k, v in shipped.items() if k != "algo"}, "iterations": 2}
    warm = "az:sims=400,prior=uniform,mix=1,rollout=random,cutoff=20,batch=1,qnorm=1,reuse=1"
    assert settings(values)["warm_agent"] == warm
    ppo_config = str(manifest("seastead").training_configs()["seastead"])
    assert main([*argv[:-1], ppo_config]) == 2  # a PPO config is not az's: one line, nothing trained


def test_train_help_names_the_algorithms(capsys):
    with pytest.raises(SystemExit):
        main(["train", "--help"])
    out = capsys.readouterr().out
    assert "--algo {ppo,az}" in out and "--iterations" in out and "--budget" in out


def test_the_budget_reads_durations():
    import doctest

    from meeplezoo.commands import train

    failures, tried = doctest.testmod(train)
    assert tried and not failures


@pytest.mark.slow
def test_a_warm_start_imitates_an_agent_before_the_first_iteration(tmp_path):
    from meeplezoo.training.logs import read_scalars

    logs: list[str] = []
    values = {**TINY, "iterations": 1, "eval_every": 0, "buffer": 5000, "warm_games": 2, "warm_steps": 4}
    train_az("seastead", tmp_path / "run", values, log=logs.append)
    warm = next(line for line in logs if line.startswith("warm start:"))
    imitated = int(warm.split(", ")[1].split()[0])
    latest = json.loads((tmp_path / "run" / "checkpoints" / "latest.json").read_text())
    with np.load(tmp_path / "run" / "checkpoints" / "buffer.npz") as buffer:
        assert len(buffer["obs"]) == imitated + latest["totals"]["positions"]  # the imitated positions stay
        targets = buffer["pi"][:imitated]
    assert imitated > 0 and set(np.unique(targets)) == {0.0, 1.0} and (targets.sum(axis=1) == 1).all()  # moves
    assert "warm/loss" in read_scalars(tmp_path / "run")


@pytest.mark.slow
def test_a_warm_start_from_a_policy_fits_its_whole_distribution(tmp_path):
    from meeplezoo.agents.view import view_of_state
    from meeplezoo.games import manifest

    targets, masks, obs = warm_targets(tmp_path / "run", "ppo:deterministic=false")
    assert np.allclose(targets.sum(axis=1), 1.0, atol=1e-5) and not (targets[~masks]).any()
    assert ((targets > 0).sum(axis=1) > 1).mean() > 0.5  # distributions, not moves
    # the first target is the shipped policy's distribution at the game's first real choice
    game = manifest("seastead").engine_class()(num_players=2)
    seeds = np.random.SeedSequence([0, 0, 0]).generate_state(3)
    state = game.new_state(int(seeds[0]))
    while len(state.legal_order()) < 2:
        state.apply(state.legal_order()[0])
    view = view_of_state(state, state.current_player())
    assert np.array_equal(view.observation.astype(np.float32), obs[0])
    expected = make_agent("ppo", "seastead", seed=0).action_probabilities(view)
    assert np.allclose(targets[0], expected, atol=1e-6)


@pytest.mark.slow
def test_a_warm_start_from_a_search_fits_its_visit_shares(tmp_path):
    targets, masks, _ = warm_targets(tmp_path / "run", "mcts:iters=10,cutoff=4")
    assert np.allclose(targets.sum(axis=1), 1.0, atol=1e-5) and not (targets[~masks]).any()
    assert ((targets > 0).sum(axis=1) > 1).mean() > 0.5  # visit shares, not moves
    assert np.allclose(targets * 10, np.round(targets * 10), atol=1e-4)  # counts out of 10 iterations
    # with warm_soft off the same search gives its moves
    hard, _, _ = warm_targets(tmp_path / "hard", "mcts:iters=10,cutoff=4", warm_soft=False)
    assert len(hard) == len(targets) and set(np.unique(hard)) == {0.0, 1.0}


def test_a_warm_start_from_az_fits_its_searchs_visit_shares(tmp_path):
    """``az`` as the warm agent gives its root visit shares: 10 simulations, the first the root's own evaluation, so
    each target is a count out of 9 (a uniform prior and rollout values: the network it loads is not called)."""
    targets, masks, _ = warm_targets(tmp_path / "run", "az:sims=10,prior=uniform,mix=1,rollout=random,cutoff=4")
    assert len(targets) > 20 and np.allclose(targets.sum(axis=1), 1.0, atol=1e-5) and not (targets[~masks]).any()
    assert ((targets > 0).sum(axis=1) > 1).mean() > 0.5  # visit shares, not moves
    assert np.allclose(targets * 9, np.round(targets * 9), atol=1e-4)


def test_a_run_without_fitting_plays_and_checkpoints(tmp_path):
    """``train_steps = 0`` (allowed: self-play only, or a warm start alone) logs no loss and ends with a network."""
    logs: list[str] = []
    values = {**TINY, "iterations": 1, "train_steps": 0, "eval_every": 0}
    train_az("seastead", tmp_path / "run", values, log=logs.append)
    line = next(line for line in logs if line.startswith("iteration 1:"))
    assert "loss" not in line and "2 games" in line
    agent = make_agent(f"az:sims=0,path={tmp_path / 'run' / 'final.pt'}", "seastead", seed=1)
    record = play_game(make_env("seastead"), {"player_0": agent, "player_1": make_agent("random", "seastead", 2)}, 3)
    assert not record.illegal_action and not record.truncated


@pytest.mark.slow
def test_value_games_add_a_few_positions_of_each_game_for_the_value_head_only(tmp_path):
    from meeplezoo.training.az_games import value_game

    values = {**TINY, "iterations": 1, "eval_every": 0, "buffer": 5000, "value": "margin"}
    values.update(value_games=3, value_agents=["random", "heuristic"], value_positions=5, warm_steps=2)
    logs: list[str] = []
    train_az("seastead", tmp_path / "run", values, log=logs.append)
    line = next(line for line in logs if line.startswith("value games:"))
    assert line.startswith("value games: 3 games, 15 positions")  # 5 of each game's real choices
    with np.load(tmp_path / "run" / "checkpoints" / "buffer.npz") as buffer:
        pi, z, mask, obs = buffer["pi"], buffer["z"], buffer["mask"], buffer["obs"]
    assert not pi[:15].any() and np.allclose(pi[15:].sum(axis=1), 1.0, atol=1e-5)  # then the self-play positions
    assert (mask[:15].sum(axis=1) > 1).all()  # real choices only
    # each game's positions carry that game's margins, seat-relative: the two seats' values are opposite
    assert np.all(np.abs(z[:15]) < 1) and np.allclose(z[:15, 0], -z[:15, 1], atol=1e-6)
    # the same settings add the same rows, bit for bit
    from meeplezoo.games import manifest

    engine_game = manifest("seastead").engine_class()(num_players=2)
    again = [row for g in range(3) for row in value_game("seastead", engine_game, settings(values), g, "margin")]
    assert len(again) == 15
    assert np.array_equal(np.stack([r[3] for r in again]), z[:15])
    assert np.array_equal(np.stack([r[0] for r in again]), obs[:15])


@pytest.mark.slow
def test_a_margin_valued_run_trains_a_margin_net_on_graded_returns(tmp_path):
    values = {**TINY, "iterations": 1, "eval_every": 0, "value": "margin", "env": {"num_players": 1}}
    net = train_az("seastead", tmp_path / "run", values, log=quiet)
    assert net.value == "margin" and net.num_players == 1
    with np.load(tmp_path / "run" / "checkpoints" / "buffer.npz") as buffer:
        z = buffer["z"]
    assert z.shape[1] == 1 and np.all(np.abs(z) < 1)  # a tanh of the margin over the Boss, not +1 / -1
    agent = make_agent(f"az:sims=4,path={tmp_path / 'run' / 'final.pt'}", "seastead", seed=0)
    record = play_game(make_env("seastead", num_players=1), {"player_0": agent}, 2)
    assert not record.illegal_action and not record.truncated


@pytest.mark.parametrize("key", ["warm_agent", "value_agents"])
def test_a_bad_warm_or_value_agent_is_one_line_before_anything_is_written(tmp_path, key):
    from meeplezoo.agents.spec import AgentSpecError

    values = {
        **TINY,
        "iterations": 1,
        "warm_games": 1,
        "value_games": 1,
        key: ["nope"] if key == "value_agents" else "nope",
    }
    with pytest.raises(AgentSpecError) as caught:
        train_az("seastead", tmp_path / "run", values, log=quiet)
    assert "nope" in str(caught.value) and "\n" not in str(caught.value)
    assert not (tmp_path / "run" / "config.json").exists()


@pytest.mark.slow
def test_workers_play_the_games_and_the_weights_are_the_same_bit_for_bit(tmp_path):
    """Value games, the warm start and self-play on 2 worker processes: the buffer and the weights of the run on
    one, bit for bit; the workers' CPU counts in the run's."""
    values = {**TINY, "iterations": 2, "eval_every": 0, "buffer": 5000, "value": "margin", "warm_steps": 3}
    values.update(value_games=3, value_agents=["random", "heuristic"], warm_games=2, warm_agent="heuristic")
    train_az("seastead", tmp_path / "one", values, log=quiet)
    logs: list[str] = []
    train_az("seastead", tmp_path / "two", {**values, "workers": 2}, log=logs.append)
    assert any(line.startswith("value games: 3 games, 24 positions") for line in logs)
    for name in ("checkpoints/iter_1.pt", "final.pt"):
        got, want = weights(tmp_path / "two" / name), weights(tmp_path / "one" / name)
        for key in want["weights"]:
            assert torch.equal(got["weights"][key], want["weights"][key]), (name, key)
    with (
        np.load(tmp_path / "two/checkpoints/buffer.npz") as got,
        np.load(tmp_path / "one/checkpoints/buffer.npz") as want,
    ):
        for key in ("obs", "mask", "pi", "z", "pos"):
            np.testing.assert_array_equal(got[key], want[key])
    one, two = (json.loads((tmp_path / r / "checkpoints/latest.json").read_text()) for r in ("one", "two"))
    assert one["totals"] == two["totals"] and one["spent"]["workers"] == 0.0
    assert 0.0 < two["spent"]["workers"] < two["spent"]["cpu"]


@pytest.mark.slow
def test_a_budget_stops_a_run_of_several_workers_after_the_first_game(tmp_path):
    values = {**TINY, "iterations": 50, "games": 6, "time_limit": 1e-6, "workers": 2}
    train_az("seastead", tmp_path / "run", values, log=quiet)
    latest = json.loads((tmp_path / "run" / "checkpoints" / "latest.json").read_text())
    assert latest["iteration"] == 1 and latest["totals"]["games"] == 1  # the games not started were dropped


@pytest.mark.slow
def test_a_worker_that_dies_is_one_line_naming_the_game():
    from meeplezoo.games import manifest
    from meeplezoo.training.az_games import GamePool, WorkerError

    engine_game = manifest("seastead").engine_class()(num_players=2)
    pool = GamePool("seastead", engine_game, settings({"value_agents": ["random"]}), workers=2)
    try:
        results = pool.play(None, [("value", g) for g in range(400)])
        rows, worker_cpu = next(results)
        assert len(rows) == 8 and worker_cpu > 0.0  # played in a worker process
        for process in list(pool._executor._processes.values()):
            process.kill()
        with pytest.raises(WorkerError, match=r"^a worker process died while it played a value game \d+ \(killed"):
            list(results)
    finally:
        pool.close()


@pytest.mark.slow
def test_games_of_sampled_ppo_on_workers_keep_the_weights_of_one_process(tmp_path):
    """Sampled PPO draws from its own seeded generator: its games are the same in a fresh worker process as in
    the run's own, which has loaded the policy before (a load draws from torch's global generator), so a run of
    several workers plays them too and ends with the weights of a run on one process."""
    values = {**TINY, "iterations": 1, "eval_every": 0, "buffer": 5000, "value": "margin", "warm_steps": 3}
    values.update(value_games=3, value_agents=["ppo:deterministic=false", "heuristic"], value_positions=2)
    values.update(warm_games=2, warm_agent="ppo:deterministic=false")
    train_az("seastead", tmp_path / "one", values, log=quiet)
    train_az("seastead", tmp_path / "two", {**values, "workers": 2}, log=quiet)
    spent = json.loads((tmp_path / "two/checkpoints/latest.json").read_text())["spent"]
    assert spent["workers"] > 0.0  # played by the workers
    with (
        np.load(tmp_path / "two/checkpoints/buffer.npz") as got,
        np.load(tmp_path / "one/checkpoints/buffer.npz") as want,
    ):
        for key in ("obs", "mask", "pi", "z"):
            np.testing.assert_array_equal(got[key], want[key])
    got, want = weights(tmp_path / "two/final.pt"), weights(tmp_path / "one/final.pt")
    assert all(torch.equal(got["weights"][k], want["weights"][k]) for k in want["weights"])


def test_self_play_searches_with_the_runs_search_settings():
    """``search`` reaches the self-play searches: with a uniform prior valued by random rollouts alone, two networks
    of other weights play the same game to the same targets; with the default search they do not."""
    from meeplezoo.games import manifest
    from meeplezoo.training.az_games import self_play_game
    from meeplezoo.training.az_net import AZNet

    engine_game = manifest("seastead").engine_class()()
    nets = [AZNet.for_game(engine_game, hidden=(16,), seed=seed) for seed in (1, 2)]

    def targets(search):
        config = settings({**TINY, "search": search})
        return [np.stack([row[2] for row in self_play_game(engine_game, net, config, (7, 1, 0))[0]]) for net in nets]

    rollouts = targets("prior=uniform,mix=1,rollout=random,cutoff=5,qnorm=1")
    assert rollouts[0].shape == rollouts[1].shape and np.array_equal(rollouts[0], rollouts[1])
    default = targets("")
    assert default[0].shape != default[1].shape or not np.array_equal(default[0], default[1])
    assert default[0].shape != rollouts[0].shape or not np.array_equal(default[0], rollouts[0])


def test_the_evaluation_searches_with_the_runs_search_settings(tmp_path, monkeypatch):
    from meeplezoo.agents.az import AZAgent

    seen = []
    search = AZAgent.search

    def spy(self, view, noise=None, **rest):
        seen.append((noise is not None, self.mix, self.rollout, self.cutoff, self.qnorm))
        return search(self, view, noise, **rest)

    monkeypatch.setattr(AZAgent, "search", spy)
    values = {**TINY, "iterations": 1, "games": 1, "eval_every": 1, "eval_sims": 4, "train_steps": 1}
    train_az("seastead", tmp_path / "run", {**values, "search": "mix=0.5,rollout=random,cutoff=3,qnorm=1"}, log=quiet)
    assert {s[1:] for s in seen} == {(0.5, "random", 3, True)}
    assert {s[0] for s in seen} == {True, False}  # self-play's noisy searches and the evaluation's


def test_self_play_with_reuse_searches_on_from_the_kept_trees(monkeypatch):
    """``search = "reuse=1"``: the self-play tells its agent each move it made, so a seat's next decision searches on
    from the tree kept below it (counted where the kept tree becomes a root); without it none is kept."""
    import meeplezoo.agents.az as az
    from meeplezoo.games import manifest
    from meeplezoo.training.az_games import self_play_game
    from meeplezoo.training.az_net import AZNet

    engine_game = manifest("seastead").engine_class()()
    net = AZNet.for_game(engine_game, hidden=(16,), seed=1)
    roots = []
    real = az.subtree
    monkeypatch.setattr(az, "subtree", lambda *args: roots.append(real(*args)) or roots[-1])
    search = "prior=uniform,mix=1,rollout=random,cutoff=3"
    rows, _ = self_play_game(engine_game, net, settings({**TINY, "search": f"{search},reuse=1"}), (7, 1, 0))
    assert rows and sum(root is not None for root in roots) >= len(rows) // 4
    roots.clear()
    self_play_game(engine_game, net, settings({**TINY, "search": search}), (7, 1, 0))
    assert not roots


def test_warm_against_seats_the_warm_agent_once_and_moves_it_round():
    from meeplezoo.training.az_games import warm_seats

    assert warm_seats("az", [], 3, 5) == ["az", "az", "az"]
    assert [warm_seats("az", ["heuristic"], 2, g) for g in range(3)] == [
        ["az", "heuristic"],
        ["heuristic", "az"],
        ["az", "heuristic"],
    ]
    assert warm_seats("az", ["a", "b"], 3, 1) == ["b", "az", "a"]


def test_a_warm_start_against_other_agents_imitates_every_seats_moves(tmp_path):
    """One warm game of the heuristic against random play: the random seat's targets are its own moves (one-hot, the
    agent gives no distribution), and they differ from what the heuristic would have played there."""
    pi, mask, _ = warm_targets(tmp_path / "run", "heuristic", warm_against=["random"], warm_soft=False)
    assert len(pi) > 0 and np.all(pi.sum(1) == 1.0) and np.all(mask[pi > 0])
    same, _, _ = warm_targets(tmp_path / "same", "heuristic", warm_soft=False)
    assert len(same) != len(pi) or not np.array_equal(same, pi)


def test_a_bad_warm_against_agent_is_one_line_before_anything_is_written(tmp_path):
    from meeplezoo.agents.spec import AgentSpecError

    values = {**TINY, "iterations": 1, "warm_games": 1, "warm_agent": "heuristic", "warm_against": ["nope"]}
    with pytest.raises(AgentSpecError) as caught:
        train_az("seastead", tmp_path / "run", values, log=quiet)
    assert "nope" in str(caught.value) and not (tmp_path / "run" / "config.json").exists()


def test_warm_against_in_a_solo_game_is_one_line_before_anything_is_written(tmp_path):
    from meeplezoo.training.az_train import AZTrainError

    values = {**TINY, "iterations": 1, "warm_games": 1, "warm_against": ["heuristic"], "env": {"num_players": 1}}
    with pytest.raises(AZTrainError, match=r"^warm_against needs other seats, and a solo game has none$"):
        train_az("seastead", tmp_path / "run", values, log=quiet)
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("repeat", [True, False])
def test_self_play_with_repeat_never_makes_a_move_twice_in_a_position_the_seat_cannot_tell_apart(monkeypatch, repeat):
    """``search = "repeat=1"`` (Board Royale): the self-play leaves out at the root the moves a seat already made in a
    position it cannot tell apart, and never makes one again until every legal move was made there; without it a
    seat does make the same move again in such a position (a failed vote called again, an offer withdrawn)."""
    import meeplezoo.agents.az as az
    from meeplezoo.envs.board_royale.heuristic import position_key
    from meeplezoo.games import manifest
    from meeplezoo.training.az_games import self_play_game
    from meeplezoo.training.az_net import AZNet

    engine_game = manifest("board_royale").engine_class()(num_players=2)
    net = AZNet.for_game(engine_game, hidden=(16,), seed=1)
    keys, chosen = [], []
    fresh, real_choose = az.AZAgent.moves_to_search, az.choose

    def spy_fresh(self, view, legal=None):
        keys.append((position_key(view.public_state(), view.seat), tuple(legal)))
        return fresh(self, view, legal)

    monkeypatch.setattr(az.AZAgent, "moves_to_search", spy_fresh)
    monkeypatch.setattr(az, "choose", lambda *args: chosen.append(real_choose(*args)) or chosen[-1])
    search = "prior=uniform,mix=1,rollout=heuristic,cutoff=3" + (",repeat=1" if repeat else "")
    rows, _ = self_play_game(engine_game, net, settings({**TINY, "search": search}), (7, 1, 0))
    assert len(rows) == len(chosen) == len(keys) > 0
    made: dict = {}
    again = 0
    for (key, legal), action in zip(keys, chosen, strict=True):
        seen = made.setdefault(key, set())
        again += action in seen and not set(legal) <= seen
        seen.add(action)
    assert (again == 0) if repeat else (again > 0)
