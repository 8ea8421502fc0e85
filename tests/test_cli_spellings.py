"""One way to say each thing (issue 37): ``--set KEY=VALUE`` for a game option and ``--config FILE`` for a TOML
file in every command, the player count from ``--agents``, 0-based ranks, short agent labels with a legend at
80 columns, the bare command's help and what ``baselines`` calls itself."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console

from meeplezoo import cli, labels
from meeplezoo.commands import common

ROOT = Path(__file__).resolve().parents[1]
#: a spec too long for a table column at 80 columns (cheap: two iterations per decision)
LONG = "mcts:iters=2,rollout=heuristic,cutoff=20,forced=true,bias=5.0"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = cli.main(list(argv))
    except SystemExit as exc:  # argparse's own errors and --help
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def _one_line_error(code: int, out: str, err: str, *words: str) -> None:
    assert code == 2 and not out, (code, out, err)
    assert err.count("\n") == 1 and "Traceback" not in err, err
    for word in words:
        assert word in err, err


def _result_rows(out: str) -> dict[str, list[str]]:
    """The Result table's rows: agent -> its cells."""
    rows = {}
    for line in out[out.index("Result") :].splitlines():
        cells = [c.strip() for c in line.strip("│").split("│")]
        if cells and cells[0].startswith("player_"):
            rows[cells[0]] = cells[1:]
    return rows


# --- --set and --config ------------------------------------------------------------------------------------------


def test_play_takes_set_and_a_toml_config_file(capsys, tmp_path):
    toml = tmp_path / "three.toml"
    toml.write_text('num_players = 3\nmap = "imperium"\n')
    code, out, err = run(capsys, "play", "concordia", "--config", str(toml), "--quiet")
    assert code == 0, err
    assert set(_result_rows(out)) == {"player_0", "player_1", "player_2"}
    code, out, err = run(capsys, "play", "concordia", "--config", str(toml), "--set", "num_players=5", "--quiet")
    assert code == 0, err
    assert len(_result_rows(out)) == 5  # --set overrides the file


def test_a_training_config_gives_play_its_env_table(capsys, tmp_path):
    toml = tmp_path / "train.toml"
    toml.write_text("total_steps = 100\n[env]\nnum_players = 3\n")
    code, out, err = run(capsys, "play", "concordia", "--config", str(toml), "--quiet")
    assert code == 0, err
    assert set(_result_rows(out)) == {"player_0", "player_1", "player_2"}


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "concordia", "--config", "num_players=3"],
        ["train", "concordia", "--out", "runs/never", "--config", "num_players=3"],
    ],
)
def test_the_old_config_spelling_names_set(capsys, argv):
    _one_line_error(*run(capsys, *argv), "--config takes a TOML file", "--set num_players=3")


def test_bad_config_files_are_one_line(capsys, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("num_players = [\n")
    _one_line_error(*run(capsys, "play", "concordia", "--config", str(bad)), "is not a valid TOML file")
    bad.write_text('num_players = "three"\n')
    _one_line_error(
        *run(capsys, "play", "concordia", "--config", str(bad)), "num_players takes a whole number, not 'three'"
    )
    bad.write_text("colour = 1\n")
    _one_line_error(*run(capsys, "play", "concordia", "--config", str(bad)), "no config key 'colour'")
    _one_line_error(*run(capsys, "play", "concordia", "--config", str(tmp_path / "none.toml")), "cannot be read")


def test_train_sets_game_options_over_the_toml_env_table(capsys, tmp_path, monkeypatch):
    from meeplezoo.training import trainer

    seen = {}

    def fake_train(game, out, config, **kwargs):
        seen.update(game=game, env=dict(config.env))

    monkeypatch.setattr(trainer, "train", fake_train)
    toml = tmp_path / "run.toml"
    toml.write_text('total_steps = 64\n[env]\nnum_players = 3\nmap = "italia"\n')
    code, _, err = run(capsys, "train", "concordia", "--out", str(tmp_path / "run"), "--config", str(toml),
                       "--set", "map=imperium", "--no-progress")  # fmt: skip
    assert code == 0, err
    assert seen == {"game": "concordia", "env": {"num_players": 3, "map": "imperium"}}
    _one_line_error(*run(capsys, "train", "concordia", "--out", str(tmp_path / "r2"), "--set", "reward_mode=rank"),
                    "no config key 'reward_mode'")  # fmt: skip
    _one_line_error(*run(capsys, "train", "concordia", "--out", str(tmp_path / "r3"), "--set", "num_players=9"),
                    "num_players=9 is not allowed")  # fmt: skip


# --- player count from the agents ---------------------------------------------------------------------------------


def test_the_agents_give_the_player_count(capsys):
    code, out, err = run(capsys, "play", "concordia", "--agents", "heuristic", "random", "--quiet")
    assert code == 0, err
    rows = _result_rows(out)
    assert set(rows) == {"player_0", "player_1"} and [r[0] for r in rows.values()] == ["heuristic", "random"]


def test_one_agent_fills_every_seat_of_a_set_count(capsys):
    code, out, err = run(capsys, "play", "concordia", "--agents", "heuristic", "--set", "num_players=3", "--quiet")
    assert code == 0, err
    rows = _result_rows(out)
    assert set(rows) == {"player_0", "player_1", "player_2"} and {r[0] for r in rows.values()} == {"heuristic"}


def test_a_count_the_game_does_not_allow_names_the_allowed_counts(capsys):
    _one_line_error(*run(capsys, "play", "concordia", "--agents", *["random"] * 7), "played by 2-5 players, not 7")
    _one_line_error(
        *run(capsys, "play", "concordia", "--agents", "random", "random", "--set", "num_players=3"),
        "3 seats",
        "one for every seat",
    )


def test_a_match_takes_its_count_from_the_agents_too(capsys):
    code, out, err = run(capsys, "play", "concordia", "--agents", "heuristic", "random", "--games", "2", "--quiet")
    assert code == 0, err
    assert "Sole wins by seat: player_0 " in out and "player_2" not in out


# --- ranks, labels, help ------------------------------------------------------------------------------------------


def test_the_web_score_sheet_ranks_from_zero():
    script = (ROOT / "meeplezoo" / "web" / "static" / "play.js").read_text(encoding="utf-8")
    sheet = script[script.index('class: "sheet"') :][:400]
    assert '"rank (0 = won)"' in sheet and "r.ranks[i])" in sheet and "r.ranks[i] + 1" not in sheet


def test_short_labels_are_unique_and_the_legend_holds_each_full_spec():
    specs = ["random", LONG, "mcts:iters=5", "random#2", "ppo:runs/x/final.zip"]
    short = labels.short_labels(specs)
    assert short == {"random": "random", LONG: "mcts#1", "mcts:iters=5": "mcts#2", "random#2": "random#2",
                     "ppo:runs/x/final.zip": "ppo"}  # fmt: skip
    assert labels.legend(short) == [f"mcts#1 = {LONG}", "mcts#2 = mcts:iters=5", "ppo = ppo:runs/x/final.zip"]
    assert labels.short_labels(["mcts", "mcts:iters=5"]) == {"mcts": "mcts", "mcts:iters=5": "mcts#1"}


def test_the_examples_in_the_docstrings_hold():
    import doctest

    from meeplezoo import options

    for module in (labels, options):
        failures, tried = doctest.testmod(module)
        assert tried and not failures, module.__name__


def _fits_80(out: str) -> None:
    """Every table line within 80 columns and no cell cut."""
    assert "…" not in out
    table_lines = [line for line in out.splitlines() if line[:1] in "┏┃┡│└ " and line.strip()]
    assert table_lines and max(len(line) for line in table_lines) <= 80


def test_a_long_spec_gets_a_short_label_and_a_legend_at_80_columns(capsys, monkeypatch):
    monkeypatch.setattr(common, "console", lambda: Console(highlight=False, width=80))  # an 80-column terminal
    code, out, err = run(capsys, "play", "seastead", "--agents", LONG, "random", "--seed", "2", "--quiet")
    assert code == 0, err
    _fits_80(out[out.index("Result") :])
    assert _result_rows(out)["player_0"][0] == "mcts"
    assert f"mcts = {LONG}" in out.splitlines()  # the legend, whole, on its own line


def test_a_match_table_fits_80_columns_with_long_specs(capsys, monkeypatch):
    monkeypatch.setattr(common, "console", lambda: Console(highlight=False, width=80))  # an 80-column terminal
    code, out, err = run(capsys, "play", "seastead", "--agents", LONG, "random", "--games", "2", "--quiet")
    assert code == 0, err
    table = out[out.index("seastead: 2 games") : out.index("Sole wins")]
    _fits_80(table)
    assert any(line.split()[:1] == ["mcts"] for line in table.splitlines())
    assert f"mcts = {LONG}" in out.splitlines()


def test_the_bare_command_prints_the_help(capsys):
    code, out, err = run(capsys)
    assert code == 2 and not err  # status 2 as for any incomplete command line; the help on stdout for a pager
    assert out.startswith("usage: meeplezoo") and "play" in out and "arena" in out and "replay" in out


def test_baselines_calls_itself_a_quick_check_not_the_main_job(capsys):
    code, out, _ = run(capsys, "baselines", "--help")
    assert code == 0
    assert "main job" not in out and "quick check" in out and "meeplezoo arena" in out
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first = readme[readme.index("## Two commands") :]
    first = first[first.index("```sh") : first.index("```", first.index("```sh") + 3)]
    assert "meeplezoo arena all" in first and "meeplezoo baselines" not in first  # the README's main job is the arena
    assert "meeplezoo baselines --games 20                                 # a quick check" in readme


def test_no_document_spells_a_game_option_with_config():
    """README, docs and notebooks say --set KEY=VALUE for game options; --config is followed by a file."""
    import re

    paths = [ROOT / "README.md", *(ROOT / "docs").glob("*.md"), *(ROOT / "notebooks").glob("*.ipynb")]
    wrong = re.compile(r"--config[ =\"',]+[a-z_]+=")
    found = [f"{p.name}: {m.group(0)}" for p in paths for m in wrong.finditer(p.read_text(encoding="utf-8"))]
    assert not found, found
