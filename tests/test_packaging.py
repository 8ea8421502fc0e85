"""How MeepleZoo is installed: one top-level package ``meeplezoo``, envs registered with PettingZoo, each game's
files shipped beside it in the wheel.

The import checks run in a fresh interpreter in an empty folder, so the repository root (which holds
folders named ``envs``, ``agents``, ``training``) is not on ``sys.path``: they see what is installed.
"""

from __future__ import annotations

import fnmatch
import importlib.metadata
import importlib.util
import shutil
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest
from wheel_venv import ROOT, SOURCES

from meeplezoo import games

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
#: MeepleZoo's own games: those its pyproject declares under the ``meeplezoo.games`` entry point
BUILT_IN = tuple(PYPROJECT["project"]["entry-points"]["meeplezoo.games"])
#: the files a game ships beside its code (package data): its content, shipped policies and training configs,
#: its rules page and its table view
GAME_FILES = ("data/*", "policies/*", "configs/*", "rules.md", "view.js")


def shipped_files(folder: Path) -> list[str]:
    """The package-data files of a game's folder, relative to it."""
    return sorted(
        p.relative_to(folder).as_posix() for pattern in GAME_FILES for p in folder.glob(pattern) if p.is_file()
    )


def run_python(code: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_pettingzoo_make_finds_the_registered_envs(tmp_path):
    done = run_python(
        """
        import meeplezoo, pettingzoo
        from meeplezoo import games
        ids = [m.env_id for m in games.manifests()]
        for env_id in ids:
            env = pettingzoo.make("aec", env_id)
            env.reset(seed=0)
            assert env.agent_selection in env.possible_agents, env_id
        print("ok", *ids)
        """,
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok")
    for name in BUILT_IN:
        assert games.manifest(name).env_id in done.stdout.split(), done.stdout


@pytest.mark.parametrize("bare", ["envs", "agents", "training", "arena", "benchmark", "openspiel"])
def test_nothing_is_installed_as_a_bare_top_level_package(tmp_path, bare):
    done = run_python(
        f"""
        import importlib.util, sys
        sys.exit(0 if importlib.util.find_spec({bare!r}) is None else 1)
        """,
        tmp_path,
    )
    assert done.returncode == 0, f"'import {bare}' works outside the repository: it is installed as a bare package"


def test_subpackages_live_under_meeplezoo(tmp_path):
    done = run_python(
        """
        import pettingzoo.utils
        from meeplezoo.envs import seastead_v0
        import meeplezoo.agents, meeplezoo.training
        assert callable(seastead_v0.env) and callable(seastead_v0.raw_env)
        env = seastead_v0.env()
        assert isinstance(env, pettingzoo.AECEnv)
        raw = seastead_v0.raw_env()
        assert isinstance(raw, pettingzoo.AECEnv)
        print(meeplezoo.agents.__file__)
        """,
        tmp_path,
    )
    assert done.returncode == 0, done.stderr


def test_the_meeplezoo_command_is_declared():
    scripts = {e.name: e.value for e in importlib.metadata.entry_points(group="console_scripts")}
    assert scripts.get("meeplezoo") == "meeplezoo.cli:main"


def test_package_data_is_installed(tmp_path):
    done = run_python(
        """
        from importlib.resources import files
        data = files("meeplezoo.envs.seastead") / "data" / "seastead.json"
        assert data.is_file(), data
        from meeplezoo import games
        for game in games.manifests():
            if game.distribution == "meeplezoo":
                assert game.shipped_policy(2) is not None, game.name
                assert game.training_configs(), game.name
        """,
        tmp_path,
    )
    assert done.returncode == 0, done.stderr


def test_every_package_folder_is_listed_for_the_wheel():
    """An engine folder missing from pyproject's packages (or a file it ships missing from package-data) works in
    an editable install but not in a built wheel: catch it here."""
    config = PYPROJECT["tool"]["setuptools"]
    listed = set(config["packages"])
    data = config.get("package-data", {})
    for top, name in config["package-dir"].items():
        for init in (ROOT / name).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / name)
            package = ".".join([top, *rel.parts])
            assert package in listed, f"{package} ({init.parent}) is not in [tool.setuptools] packages"
            for file in shipped_files(init.parent):
                patterns = data.get(package, [])
                assert any(fnmatch.fnmatch(file, p) for p in patterns), f"{package}/{file} is not in its package-data"


def test_each_game_ships_its_policies_and_configs_beside_it():
    """Every built-in game keeps its shipped policies and training configs in its own folder; the old shared
    homes are gone."""
    for name in BUILT_IN:
        files = shipped_files(ROOT / "envs" / name)
        assert any(f.startswith("policies/") for f in files), f"{name} ships no policy"
        assert any(f.startswith("configs/") and f.endswith(".toml") for f in files), f"{name} ships no config"
    for old in ("training/policies", "training/configs", "agents/data"):
        left = [p for p in (ROOT / old).rglob("*") if p.is_file() and "__pycache__" not in p.parts]
        assert not left, f"{old} still holds {left}"


@pytest.mark.slow
def test_the_built_wheel_holds_each_games_files(tmp_path):
    """The wheel built from the checkout holds every file each built-in game ships, under
    ``meeplezoo/envs/<game>/``, and nothing under the old homes (training/policies, training/configs, agents/data)."""
    src = tmp_path / "src"
    src.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build")
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name, ignore=ignore)
        else:
            shutil.copy2(path, src / name)
    offline = ["--no-build-isolation", "--no-index"] if importlib.util.find_spec("setuptools") else []
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", *offline, "-q", "-w", str(tmp_path / "out"), str(src)],
        cwd=tmp_path, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    (wheel,) = (tmp_path / "out").glob("meeplezoo-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for game in BUILT_IN:
        files = shipped_files(ROOT / "envs" / game)
        missing = [f for f in files if f"meeplezoo/envs/{game}/{f}" not in names]
        assert files and not missing, f"the wheel lacks {game}'s {missing}"
    old = ("meeplezoo/training/policies/", "meeplezoo/training/configs/", "meeplezoo/agents/data/")
    stale = sorted(n for n in names if n.startswith(old))
    assert not stale, f"the wheel still ships {stale}"


def test_gymnasium_ids_are_registered_on_import_without_torch(tmp_path):
    done = run_python(
        """
        import sys
        import gymnasium, meeplezoo
        from meeplezoo import games
        ids = [meeplezoo.single_agent_id(m.env_id) for m in games.manifests()]
        assert ids and all(i in gymnasium.registry for i in ids), ids
        assert "torch" not in sys.modules, "import meeplezoo imported torch"
        for i in ids:
            env = gymnasium.make(i, opponent="random")
            obs, info = env.reset(seed=0)
            assert env.observation_space.contains(obs), i
            assert bool(env.unwrapped.action_masks().any()), i
        assert "torch" not in sys.modules, "making a single-agent env imported torch"
        print("ok", *ids)
        """,
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    for name in BUILT_IN:
        version = games.manifest(name).version
        assert f"meeplezoo/{name}-single-v{version}" in done.stdout.split(), done.stdout


def test_ci_runs_the_readmes_test_command_word_for_word():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = [block.split("```", 1)[0].strip() for block in readme.split("```sh\n")[1:]]
    two = readme[readme.index("## Two commands") : readme.index("## From Python")]
    assert two.count("```sh") == 2, "the README's 'Two commands' section holds exactly two commands"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()[-1]
    assert ci in commands and "pytest" in ci and "-n auto" in ci and "--durations=" in ci
