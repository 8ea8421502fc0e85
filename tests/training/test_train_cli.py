"""``meeplezoo train`` as a new user meets it: the README's install suffices, ``--minutes`` bounds a run (and its
progress bar), and an unwritable ``--out`` is one line before any training."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from meeplezoo.cli import main

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]

TINY = """
n_envs = 1
n_steps = 32
batch_size = 32
n_epochs = 1
net_arch = [16]
checkpoint_every = 0
snapshot_every = 0
eval_every = 0
self_play = 0.0
"""

#: /proc takes no new files, whoever asks
LINUX = pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs /proc")


def test_the_training_extra_holds_what_train_needs_with_its_progress_bar():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    names = {re.split(r"[<>=;\[ ]", spec)[0].lower() for spec in extras["training"]}
    assert {"torch", "stable-baselines3", "sb3-contrib", "tqdm"} <= names  # rich is a core dependency


def test_the_progress_bar_counts_the_time_budget_when_it_ends_the_run_first():
    from meeplezoo.training.trainer import progress_figures

    # 100 of 1000 steps in 10 s: the steps end the run in 90 s, before a 5-minute budget
    assert progress_figures(100, 1000, 10.0, 300.0) == (0.1, 90.0)
    # ... and after a one-minute budget: the bar fills by time, 50 s left
    share, left = progress_figures(100, 1000, 10.0, 60.0)
    assert share == pytest.approx(1 / 6) and left == 50.0
    assert progress_figures(0, 1000, 1.0, 60.0) == (1 / 60, 59.0)  # no step yet: the budget is all it knows
    assert progress_figures(0, 1000, 1.0, 0.0) == (0.0, None)
    assert progress_figures(10, 1000, 100.0, 60.0) == (1.0, 0.0)  # past the budget: stops at the next update


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--minutes", "0"], "argument --minutes: takes a number above 0"),
        (["--minutes", "-1"], "argument --minutes: takes a number above 0"),
        (["--minutes", "nan"], "argument --minutes: takes a number above 0"),
    ],
)
def test_minutes_takes_a_positive_number(capsys, tmp_path, argv, message):
    with pytest.raises(SystemExit) as stop:
        main(["train", "seastead", "--out", str(tmp_path / "run"), *argv])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and message in err and err.count("\n") == 1


def test_minutes_is_read_into_the_time_limit_and_may_change_on_resume(capsys, tmp_path):
    assert main(["train", "seastead", "--out", str(tmp_path), "--backend", "rllib", "--minutes", "1"]) == 2
    err = capsys.readouterr().err
    assert "--minutes is for the sb3 backend" in err and err.count("\n") == 1
    pytest.importorskip("sb3_contrib")
    assert main(["train", "seastead", "--out", str(tmp_path), "--resume", "--minutes", "5"]) == 2
    err = capsys.readouterr().err  # past the check of what --resume may change
    assert "no checkpoint to resume" in err and err.count("\n") == 1


@pytest.mark.slow
def test_a_minutes_budget_stops_the_run_by_time_with_its_progress_bar_and_no_tqdm(capsys, monkeypatch, tmp_path):
    pytest.importorskip("sb3_contrib")
    import stable_baselines3.common.callbacks as callbacks

    monkeypatch.setattr(callbacks, "tqdm", None)  # as installed without tqdm: sb3's own progress bar would raise
    config = tmp_path / "tiny.toml"
    config.write_text(TINY)
    out = tmp_path / "run"
    argv = ["train", "seastead", "--out", str(out), "--config", str(config), "--steps", "1000000", "--minutes", "1e-4"]
    assert main(argv) == 0
    assert tomllib.loads((out / "config.toml").read_text())["time_limit"] == pytest.approx(0.006)
    trained = re.search(r"Trained (\d+) steps", capsys.readouterr().out)
    assert trained and int(trained.group(1)) <= 64  # stopped at the first update past the budget, not at 1000000
    assert (out / "final.zip").is_file()


@pytest.mark.parametrize(
    ("where", "message"),
    [
        ("afile", "is a file, not a folder"),
        ("afile/run", "is a file, not a folder"),
        pytest.param("/proc/meeplezoo-run", "cannot write in /proc", marks=LINUX),  # no one may, root included
    ],
)
def test_an_unwritable_run_folder_is_one_line_before_any_training(capsys, tmp_path, where, message):
    (tmp_path / "afile").write_text("not a folder\n")
    assert main(["train", "seastead", "--out", str(tmp_path / where), "--steps", "64"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("meeplezoo train: error: --out ") and message in err and err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile"]


def test_config_takes_the_name_of_a_config_the_game_ships(capsys, monkeypatch, tmp_path):
    from meeplezoo.games import manifest
    from meeplezoo.training import trainer
    from meeplezoo.training.config import load_config

    runs = []
    monkeypatch.setattr(trainer, "train", lambda game, out, config, **kwargs: runs.append((game, config)))
    assert main(["train", "seastead", "--out", str(tmp_path / "run"), "--config", "seastead"]) == 0
    shipped = manifest("seastead").training_configs()["seastead"]
    assert runs == [("seastead", load_config("seastead", str(shipped)))]
    assert main(["train", "seastead", "--out", str(tmp_path / "run"), "--config", "nope"]) == 2
    err = capsys.readouterr().err
    ships = "seastead, seastead_az_1p, seastead_az_2p"
    assert f"no config file 'nope', nor a config of seastead by that name (it ships: {ships})" in err
    assert err.count("\n") == 1
