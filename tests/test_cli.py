"""The ``meeplezoo`` command: play, bench, rules and list, called through ``main(argv)``."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from meeplezoo import cli

HAS_HEURISTIC = importlib.util.find_spec("meeplezoo.agents.seastead_heuristic") is not None


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_play_prints_the_game_the_score_sheet_and_the_winner(capsys):
    code, out, _ = run(capsys, "play", "seastead", "--agents", "random", "random", "--seed", "7")
    assert code == 0
    assert "player_0" in out and "player_1" in out
    assert "dive" in out  # decisions are named
    assert "board before decision 0" in out and "Round 1" in out  # the board is shown
    assert "total" in out  # Seastead's score sheet
    assert "Winner: " in out or "Shared win: " in out


@pytest.mark.skipif(not HAS_HEURISTIC, reason="agents/seastead_heuristic.py is not there yet")
def test_play_heuristic_against_random_quietly(capsys):
    code, out, _ = run(capsys, "play", "seastead", "--agents", "heuristic", "random", "--seed", "7", "--quiet")
    assert code == 0
    assert "board before" not in out and "total" in out
    assert "(heuristic)" in out or "(random)" in out


def test_play_is_reproducible(capsys):
    _, first, _ = run(capsys, "play", "seastead", "--seed", "3", "--quiet")
    _, again, _ = run(capsys, "play", "seastead", "--seed", "3", "--quiet")
    strip = [line for line in first.splitlines() if "decisions in" not in line]
    assert strip == [line for line in again.splitlines() if "decisions in" not in line]


def test_play_many_games_prints_a_win_rate_table(capsys):
    code, out, _ = run(capsys, "play", "seastead", "--agents", "random", "random", "--games", "4", "--seed", "1")
    assert code == 0
    assert out.count("game ") >= 4
    assert "win rate" in out and "random#2" in out
    assert "seeds 1..4" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "chess"], "unknown game 'chess'"),
        (["play", "seastead", "--agents", "random"], "give 2 agent names"),
        (["play", "seastead", "--agents", "random", "grandmaster"], "unknown agent(s) ['grandmaster']"),
        (["play", "seastead", "--games", "0"], "--games must be at least 1"),
        (["play", "seastead", "--config", "sides=ABAA"], "at least two B sides"),
        (["rules", "chess"], "unknown game 'chess'"),
    ],
)
def test_user_errors_are_one_clear_line(capsys, argv, message):
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert message in err and err.startswith("meeplezoo ")
    assert "Traceback" not in err


def test_bench_runs_within_a_tiny_budget(capsys):
    code, out, _ = run(capsys, "bench", "--games", "1", "--seconds", "0.5", "--quiet")
    assert code == 0
    for word in ("seastead_v0", "connect_four_v3", "steps/s", "games/s", "clone+apply/s", "decisions/game"):
        assert word in out


def test_rules_prints_the_document(capsys, monkeypatch, tmp_path):
    (tmp_path / "seastead.md").write_text("# Seastead\n\nDive or build.\n", encoding="utf-8")
    monkeypatch.setattr(cli, "RULES_DIR", tmp_path)
    code, out, _ = run(capsys, "rules", "seastead")
    assert code == 0 and "# Seastead" in out and "Dive or build." in out


def test_rules_reports_a_missing_document(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(cli, "RULES_DIR", tmp_path)
    code, _, err = run(capsys, "rules", "seastead")
    assert code == 2 and "no rules document for seastead" in err and str(tmp_path) in err


def test_rules_of_the_repository(capsys):
    path = cli.RULES_DIR / "seastead.md"
    if not path.is_file():
        pytest.skip("docs/rules/seastead.md is not written yet")
    code, out, _ = run(capsys, "rules", "seastead")
    assert code == 0 and path.read_text(encoding="utf-8").strip().splitlines()[0] in out


def test_list_shows_every_game(capsys):
    code, out, _ = run(capsys, "list")
    assert code == 0 and "seastead" in out and "meeplezoo/seastead-v0" in out and "random" in out


def test_module_entry_point():
    done = subprocess.run(
        [sys.executable, "-m", "meeplezoo.cli", "play", "seastead", "--quiet"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Winner: " in done.stdout or "Shared win: " in done.stdout


def test_bench_explains_a_missing_pygame(capsys, monkeypatch):
    for name in [m for m in sys.modules if m.startswith("pettingzoo.classic")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "pygame", None)  # "import pygame" now raises ImportError
    code, out, _ = run(capsys, "bench", "--games", "1", "--seconds", "0.3", "--quiet")
    assert code == 0
    assert "seastead_v0" in out and "skipped" in out and "pygame" in out


def test_baselines_plays_every_registered_game_heuristic_against_random(capsys):
    from meeplezoo import games

    code, out, _ = run(capsys, "baselines", "--games", "2", "--seed", "3")
    assert code == 0
    summary = out[out.index("Summary") :]
    for name in games.game_names():
        assert name in summary
    assert summary.count("/2") == len(games.game_names())  # "heuristic wins" column: k/2 for each game
