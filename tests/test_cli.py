"""The ``meeplezoo`` command: play, bench, rules and list, called through ``main(argv)``."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from meeplezoo import cli, games
from meeplezoo.commands import list as list_games

HAS_HEURISTIC = importlib.util.find_spec("meeplezoo.envs.seastead.heuristic") is not None


def run(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = cli.main(list(argv))
    except SystemExit as exc:  # argparse's own errors (and --help) exit
        code = exc.code
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
        (["play", "seastead", "--agents", "random", "random", "random"], "seastead is played by 1-2 players, not 3"),
        (["play", "concordia", "--agents", "random"], "concordia is played by 2-5 players, not 1"),
        (["play", "seastead", "--agents", "random", "grandmaster"], "unknown agent(s) ['grandmaster']"),
        (["play", "seastead", "--games", "0"], "--games: takes a whole number from 1"),
        (["play", "seastead", "--set", "sides=ABAA"], "mixing A and B sides needs at least two B sides"),
        (["rules", "chess"], "unknown game 'chess'"),
        # negative and huge numbers, words for numbers
        (["play", "seastead", "--seed", "-1"], "--seed: takes a whole number from 0"),
        (["play", "seastead", "--seed", "1" + "0" * 30], "--seed: takes a whole number from 0"),
        (["play", "seastead", "--seed", "seven"], "--seed: takes a whole number, not 'seven'"),
        (["play", "seastead", "--games", "-3"], "--games: takes a whole number from 1"),
        (["play", "seastead", "--games", "99999999999"], "--games: takes a whole number from 1"),
        (["play", "seastead", "--board-every", "-1"], "--board-every: takes a whole number from 0"),
        (["baselines", "--seed", "-5"], "--seed: takes a whole number from 0"),
        (["baselines", "--games", "0"], "--games: takes a whole number from 1"),
        (["baselines", "--games", "1e9"], "--games: takes a whole number, not '1e9'"),
        (["bench", "--seed", "-1"], "--seed: takes a whole number from 0"),
        (["bench", "--games", "0"], "--games: takes a whole number from 1"),
        (["bench", "--seconds", "0"], "--seconds: takes a number above 0"),
        (["bench", "--seconds", "-2"], "--seconds: takes a number above 0"),
        (["bench", "--seconds", "nan"], "--seconds: takes a number above 0"),
        (["bench", "--seconds", "inf"], "--seconds: takes a number above 0"),
        (["bench", "--seconds", "1e9"], "--seconds: takes a number above 0"),
        # unknown names
        (["play", "Seastead"], "unknown game 'Seastead'"),
        (["rules", "meeplezoo/chess-v0"], "unknown game"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
        (["play", "seastead", "--agents", "random", "alphazero"], "unknown agent(s) ['alphazero']"),
        (["play", "seastead", "--players", "2"], "unrecognized arguments: --players 2"),
        # malformed --set: the message names the game's keys
        (
            ["play", "seastead", "--set", "variant"],
            "--set takes KEY=VALUE, not 'variant'; seastead takes sides (default 'AAAA'), decree",
        ),
        (["play", "seastead", "--set", "=base"], "--set takes KEY=VALUE"),
        (["play", "seastead", "--set", "colour=red"], "seastead has no config key 'colour'; seastead takes sides"),
        (["play", "seastead", "--set", "render_mode=human"], "no config key 'render_mode'"),
        (
            ["play", "seastead", "--set", "max_cycles=-3"],
            "max_cycles takes a whole number of at least 1 or none, not '-3'",
        ),
        (
            ["play", "seastead", "--set", "max_cycles=lots"],
            "max_cycles takes a whole number of at least 1 or none, not 'lots'",
        ),
        (
            ["play", "seastead", "--set", "reward_mode=money"],
            "reward_mode takes one of win, rank, score_margin, not 'money'",
        ),
        (["play", "seastead", "--set", "illegal_reward=big"], "--set illegal_reward takes a number"),
        (["play", "concordia", "--set", "num_players=three"], "--set num_players takes a whole number"),
        (["play", "concordia", "--set", "num_players=9"], "num_players=9 is not allowed"),
        (["play", "concordia", "--set", "num_players=-1"], "num_players=-1 is not allowed"),
        (["play", "concordia", "--set", "intermediate_scoring=maybe"], "takes true or false"),
        (["play", "concordia", "--set", "map=mars"], "map must be one of"),
        (["play", "board_royale", "--set", "num_players=99999999999999999999"], "num_players must be an int"),
        (["play", "board_royale", "--set", "elimination_only=2"], "takes true or false"),
    ],
)
def test_user_errors_are_one_clear_line(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert message in err and err.startswith("meeplezoo")
    assert err.count("\n") == 1 and err.endswith("\n"), err  # one line
    assert "Traceback" not in err and not out


def test_config_errors_name_every_key_the_game_takes(capsys):
    _, _, err = run(capsys, "play", "concordia", "--set", "players=3")
    for key in ("num_players (default 4)", "map (default 'italia')", "intermediate_scoring (default False)"):
        assert key in err
    for key in ("reward_mode", "illegal_action", "illegal_reward", "max_cycles"):
        assert key in err


@pytest.mark.parametrize("spelling", ["True", "true", "1", "yes", "FALSE", "false", "0", "no"])
def test_config_accepts_the_spellings_a_person_types(capsys, spelling):
    code, out, err = run(
        capsys,
        "play",
        "concordia",
        "--set",
        f"intermediate_scoring={spelling}",
        "--set",
        "num_players=3",
        "--set",
        "map=imperium",
        "--set",
        "reward_mode=rank",
        "--quiet",
    )
    assert code == 0, err
    assert "player_2" in out and "player_3" not in out  # num_players=3 read as a number


def test_config_values_are_read_by_the_type_of_each_key():
    from meeplezoo import options
    from meeplezoo.envs.core.adapter import ADAPTER_PARAMS
    from meeplezoo.envs.core.params import params_from_defaults

    own = params_from_defaults({"num_players": 4, "map": "italia", "intermediate_scoring": False})
    defaults = (*own, *ADAPTER_PARAMS)
    items = ["intermediate_scoring=True", "num_players= 5", "map=imperium", "illegal_reward=-0.5", "max_cycles=40"]
    assert options.parse_config(items, defaults, "concordia") == {
        "intermediate_scoring": True,
        "num_players": 5,
        "map": "imperium",
        "illegal_reward": -0.5,
        "max_cycles": 40,
    }
    assert options.parse_config(["max_cycles=none"], defaults, "concordia") == {"max_cycles": None}
    assert options.parse_config(["map=1"], defaults, "concordia") == {"map": "1"}  # text stays text


def test_a_bad_input_in_a_real_process_is_one_line_and_no_traceback():
    for argv in (["play", "seastead", "--seed", "-1"], ["baselines", "--games", "0"], ["play", "chess"]):
        done = subprocess.run(
            [sys.executable, "-m", "meeplezoo.cli", *argv], capture_output=True, text=True, timeout=120, check=False
        )
        assert done.returncode == 2, done.stderr
        assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr, done.stderr


def test_bench_runs_within_a_tiny_budget(capsys):
    code, out, _ = run(capsys, "bench", "--games", "1", "--seconds", "0.5", "--quiet")
    assert code == 0
    for word in ("seastead_v0", "connect_four_v3", "steps/s", "clone+apply/s", "dec/game", "playouts/s", "mcts it/s"):
        assert word in out


#: the built-in games, each with a player-facing page ``envs/<game>/rules.md``
RULES_PAGES = ("seastead", "concordia", "board_royale", "resafa")


@pytest.mark.parametrize("game", RULES_PAGES)
def test_rules_prints_the_players_page_shipped_in_the_package(capsys, game):
    from importlib.resources import files

    page = files(f"meeplezoo.envs.{game}") / "rules.md"
    code, out, _ = run(capsys, "rules", game)
    assert code == 0 and out == page.read_text(encoding="utf-8")
    assert out.startswith("# ") and "how to play" in out.splitlines()[0]
    for section in ("## Setup", "## A turn", "## In the env"):
        assert section in out
    assert "wins" in out and "end" in out.lower()
    assert games.manifest(game).env_module_name in out  # names the env


def test_rules_pages_name_the_actions_as_the_env_words_them():
    """Every quoted decision word of a page's 'In the env' section is one the engine really uses."""
    import re
    from importlib.resources import files

    import numpy as np

    from meeplezoo import games

    for game in RULES_PAGES:
        page = (files(f"meeplezoo.envs.{game}") / "rules.md").read_text(encoding="utf-8")
        quoted = [" ".join(q.split()) for q in re.findall(r"`([^`]+)`", page[page.index("## In the env") :])]
        env = games.make_env(game)
        words = set()
        for seed in range(12):
            env.reset(seed=seed)
            rng = np.random.default_rng(seed)
            for _ in env.agent_iter():
                obs, _, term, trunc, _ = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                words.update(env.describe_action(int(a)) for a in legal)
                env.step(int(rng.choice(legal)))
        said = [q.split("...")[0].strip() for q in quoted if " " in q and "_" not in q and "=" not in q]
        said = [q for q in said if " " in q]
        assert said, game
        unknown = [q for q in said if not any(w.startswith(q) for w in words)]
        assert not unknown, (game, unknown)


def test_rules_reports_a_game_without_a_page(capsys, monkeypatch):
    import dataclasses

    from meeplezoo import games

    pageless = dataclasses.replace(games.manifest("seastead"), package="meeplezoo.envs.core")  # no rules.md there
    table = {**games._manifests(), "seastead": pageless}
    monkeypatch.setattr(games, "_manifests", lambda: table)
    code, _, err = run(capsys, "rules", "seastead")
    assert code == 2 and "no rules page for seastead" in err and err.count("\n") == 1


def test_list_shows_every_game_with_its_player_range_in_80_columns(capsys):
    from meeplezoo import games

    code, out, _ = run(capsys, "list")
    assert code == 0
    assert max(len(line.rstrip()) for line in out.splitlines()) <= 80
    rows = {line.split()[0]: line for line in out.splitlines() if line.strip()}
    for manifest in games.manifests():
        row = rows[manifest.name]
        assert manifest.env_id in row.split()  # whole, not truncated
        assert cli.players_text(games.player_counts(manifest.name)) in row.split()
    assert "2-5" in rows["concordia"].split() and "2-6" in rows["board_royale"].split()
    assert "az," in rows["seastead"] and "heuristic," in out and "random" in out  # the agents column wraps
    assert "…" not in out


def test_players_text():
    assert cli.players_text((2,)) == "2"
    assert cli.players_text((2, 3, 4, 5)) == "2-5"
    assert cli.players_text((1, 3, 4)) == "1,3,4"


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
    for manifest in games.manifests():  # each game's own baseline (its first agent: goofspiel's greedy) played
        assert f"{manifest.name}: {manifest.baseline_agent}, random" in out
    assert {m.baseline_agent for m in games.manifests()} > {"heuristic"}


def test_ctrl_c_is_one_line_and_status_130(capsys, monkeypatch):
    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(list_games, "run", interrupted)
    code, _, err = run(capsys, "list")
    assert code == 130 and err == "meeplezoo list: interrupted\n"


def test_python_dash_m_meeplezoo_is_the_command():
    """``python -m meeplezoo`` (what the notebooks run) is the ``meeplezoo`` command, exit status included."""
    done = subprocess.run([sys.executable, "-m", "meeplezoo", "list"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "meeplezoo/seastead-v0" in done.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "meeplezoo", "rules", "nim"], capture_output=True, text=True, timeout=120
    )
    assert bad.returncode == 2 and "unknown game 'nim'" in bad.stderr


class BoolAgent:
    """Answers ``True`` (an int to Python, not an action id)."""

    name = "bool"

    def __init__(self, seed=None) -> None:
        pass

    def act(self, view) -> bool:
        return True


def test_an_agent_in_this_process_answering_a_bool_is_one_line_and_status_2(capsys):
    """``--isolation none``: an agent registered here plays here (isolated agents: tests/test_cli_isolation.py)."""
    from meeplezoo.agents.registry import register_agent, unregister_agent

    register_agent("boolbot", "tests.test_cli:BoolAgent", game="seastead")
    try:
        argv = ["play", "seastead", "--agents", "boolbot", "random", "--seed", "1", "--isolation", "none"]
        assert cli.main(argv) == 2
    finally:
        unregister_agent("boolbot", "seastead")
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "returned True (bool), not an action id" in err, err
