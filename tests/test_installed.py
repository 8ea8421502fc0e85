"""MeepleZoo as a user gets it: installed from its wheel into a fresh venv, with a third-party plugin.

The venv (``tests/wheel_venv.py``) holds the built wheel of MeepleZoo and of ``tests/plugins/nim`` (Nim
and two agents, declared as entry points); commands run in an empty folder, so nothing of the source
checkout is on the path.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from filelock import FileLock
from wheel_venv import InstalledVenv, build

from meeplezoo import games

pytestmark = pytest.mark.slow


@pytest.fixture(scope="session")
def installed_venv(tmp_path_factory, worker_id) -> InstalledVenv:
    """One test venv per session, shared by every pytest-xdist worker (built by the first to ask)."""
    if worker_id == "master":  # not under xdist
        return build(tmp_path_factory.mktemp("installed"))
    shared = tmp_path_factory.getbasetemp().parent  # the same folder for every worker of this session
    with FileLock(str(shared / "installed.lock")):
        marker = shared / "installed.json"
        if marker.is_file():
            return InstalledVenv(**{k: Path(v) for k, v in json.loads(marker.read_text()).items()})
        venv = build(shared / "installed")
        marker.write_text(json.dumps({k: str(v) for k, v in vars(venv).items()}))
        return venv


GAMES = ("seastead", "concordia", "board_royale", "resafa")


def test_the_wheel_is_what_runs(installed_venv, tmp_path):
    done = installed_venv.python_c("import meeplezoo, meeplezoo.envs; print(meeplezoo.__file__)", tmp_path)
    assert done.returncode == 0, done.stderr
    assert str(installed_venv.site) in done.stdout  # the installed copy, not the checkout


@pytest.mark.parametrize("game", GAMES)
def test_rules_work_from_the_wheel(installed_venv, tmp_path, game):
    done = installed_venv.run("rules", game, "--raw", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "how to play" in done.stdout.splitlines()[0]
    assert "## A turn" in done.stdout and games.manifest(game).env_module_name in done.stdout


def test_plugin_game_and_agents_are_listed(installed_venv, tmp_path):
    done = installed_venv.run("list", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    rows: dict[str, str] = {}  # game -> its row with the agents column's wrapped lines
    for line in done.stdout.splitlines():
        if line.startswith("  ") and line.strip() and rows:
            rows[next(reversed(rows))] += " " + line.strip()
        elif line.split()[:1] and line.startswith(" ") and not line.startswith("  "):
            rows[line.split()[0]] = line
    assert "meeplezoo-nim/nim-v0" in rows["nim"] and "2-3" in rows["nim"].split()
    assert "greedy," in rows["nim"] and "last-legal," in rows["nim"] and "random" in rows["nim"]
    assert "last-legal" in rows["seastead"] and "greedy" not in rows["seastead"]  # "greedy@nim": Nim only


def test_plugin_game_plays_from_the_cli_with_plugin_and_built_in_agents(installed_venv, tmp_path):
    done = installed_venv.run("play", "nim", "--agents", "greedy", "random", "--seed", "3", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "take 1 stick" in done.stdout or "take 2 sticks" in done.stdout or "take 3 sticks" in done.stdout
    assert "Winner: " in done.stdout
    # greedy leaves a multiple of 4: from 15 sticks it wins every game whatever random does
    done = installed_venv.run(
        "play", "nim", "--agents", "greedy", "random", "--games", "6", "--seed", "1", "--quiet", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert "greedy" in done.stdout and "win rate" in done.stdout


def test_plugin_game_through_the_registries(installed_venv, tmp_path):
    done = installed_venv.python_c(
        "import meeplezoo, pettingzoo, gymnasium\n"
        "from pettingzoo.test import api_test\n"
        "env = pettingzoo.make('aec', 'meeplezoo-nim/nim-v0', num_players=3)\n"
        "api_test(env, num_cycles=50)\n"
        "single = gymnasium.make('meeplezoo-nim/nim-single-v0', opponent='last-legal')\n"
        "obs, info = single.reset(seed=0)\n"
        "print('ok', len(env.possible_agents), obs.shape)\n",
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "ok 3 (2,)" in done.stdout


def test_a_plugin_agent_with_a_built_in_name_is_refused(installed_venv, tmp_path):
    done = installed_venv.python_c(
        "import warnings\n"
        "from importlib.metadata import EntryPoint\n"
        "from meeplezoo import plugins\n"
        "from meeplezoo.agents import registry\n"
        "plugins._entry_points = lambda group: [EntryPoint('random@nim', 'meeplezoo_nim.bots:LastLegalAgent', group)]\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    plugins.register_plugin_agents(registry.register_agent, lambda n, g: n == 'random')\n"
        "print(registry.agent_target('random', 'nim'), [str(w.message) for w in caught])\n",
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "random_agent:RandomAgent" in done.stdout and "skipped: the name is built in" in done.stdout
